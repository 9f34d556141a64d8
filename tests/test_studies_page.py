"""docs/studies.md is the rendering of docs/studies.json, and docs/studies.json holds results of
today's shipped study specs (their hashes, their planned trials) with consistent counts."""

import json
import re
from pathlib import Path

import pytest

from kubb3d.experiment.spec import load_spec
from kubb3d.experiment.studies import STUDY_SPECS, real_first_baton, render
from kubb3d.library import experiments_dir

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "studies.json"
PAGE = ROOT / "docs" / "studies.md"


def test_the_page_is_the_rendering_of_the_json(cli):
    res = cli("experiment", "studies", "docs/studies.json")  # run in the checkout's root
    assert res.returncode == 0, res.stderr
    assert res.stdout == PAGE.read_text(encoding="utf-8")


def test_the_json_holds_results_of_the_shipped_specs():
    doc = json.loads(DOC.read_text(encoding="utf-8"))
    assert doc["studies"], "no study in docs/studies.json"
    for name, study in doc["studies"].items():
        assert name in STUDY_SPECS
        loaded = load_spec(experiments_dir() / f"{name}.toml")
        assert study["spec_sha256"] == loaded.sha256, f"{name}: docs/studies.json is of another version of the spec"
        assert study["planned"] == loaded.n_trials
        assert 0 < study["stored"] <= study["planned"]
        assert sum(r["matches"] for r in study["rows"]) == study["stored"] - study["failed"]
    # the advantage-line counts cover exactly the matches of the studies
    assert sum(a["matches"] for a in doc["advantage_line"]) == sum(
        s["stored"] - s["failed"] for s in doc["studies"].values()
    )


def test_the_page_quotes_the_real_range_and_every_match_count():
    page = PAGE.read_text(encoding="utf-8")
    real = real_first_baton()
    assert f"{100 * real['low']:.1f} % to {100 * real['high']:.1f} %" in page
    doc = json.loads(DOC.read_text(encoding="utf-8"))
    for study in doc["studies"].values():
        assert f"| {study['planned']:,} | {study['stored']:,} |" in page
        assert f"`kubb3d experiment run {study['spec']} --out {study['spec']}.sqlite`" in page


def test_the_physics_section_is_todays_sensitivity_page():
    """The "Physics uncertainty" table quotes docs/sensitivity.json as it stands: a physics change
    that regenerates docs/sensitivity.* must refresh it too (`kubb3d experiment studies
    docs/studies.json --sensitivity docs/sensitivity.json --json`)."""
    from kubb3d.experiment.studies import physics_band

    doc = json.loads(DOC.read_text(encoding="utf-8"))
    sensitivity = json.loads((ROOT / "docs" / "sensitivity.json").read_text(encoding="utf-8"))
    assert doc["physics"], "docs/studies.json has no physics section"
    assert doc["physics"] == physics_band(sensitivity), "docs/studies.json's physics is not docs/sensitivity.json's"


def test_appended_rows_are_named_by_the_code_that_made_them_from_its_first_run():
    """A results file resumed with --mix-versions (the store's ``mixed_versions`` list, one entry
    per appending run) names each other code once, with the rows stored before its first run."""
    import json

    from kubb3d.experiment.studies import _appended_by

    def run(code: str, before: int) -> dict:
        return {"versions": {"kubb3d_code": code}, "stored_before": before, "at": 0.0}

    meta = {"mixed_versions": json.dumps([run("bbb", 486), run("bbb", 586), run("ccc", 900), run("bbb", 1000)])}
    assert _appended_by(meta) == {"bbb": 486, "ccc": 900}
    assert list(_appended_by(meta)) == ["bbb", "ccc"]
    assert _appended_by({}) == {}


def test_the_physics_sections_small_sample_holds_the_calibrated_figures():
    """The page says the sensitivity run's value at the shipped parameters differs from
    docs/calibration.md's larger sample only within its own interval, and that band = value +
    shift: both must hold for every preset the section lists."""
    import re

    doc = json.loads(DOC.read_text(encoding="utf-8"))
    cal = (ROOT / "docs" / "calibration.md").read_text(encoding="utf-8")
    presets = [f for f in doc["physics"] if f["key"].startswith("felled-")]
    assert [f["key"] for f in presets] == ["felled-novice", "felled-club", "felled-elite"]
    for f in presets:
        m = re.search(rf"\| {re.escape(f['label'])} \| ([0-9.]+) \|", cal)
        assert m, f["label"]
        assert f["shipped_low"] <= float(m.group(1)) <= f["shipped_high"], f["label"]
        assert f["low"] == pytest.approx(f["shipped"] + min(f["shift_low"], 0.0))
        assert f["high"] == pytest.approx(f["shipped"] + max(f["shift_high"], 0.0))
    assert "within its interval" in " ".join(PAGE.read_text(encoding="utf-8").split())


def test_the_page_names_the_code_of_each_studys_rows():
    """Each study was run with its own code: the page names, for every study, the versions its
    results file records and every code that appended rows to it (once only the first study's
    code was named, for both)."""
    page = " ".join(PAGE.read_text(encoding="utf-8").split())
    doc = json.loads(DOC.read_text(encoding="utf-8"))
    codes = set()
    for name, study in doc["studies"].items():
        v = study["versions"]
        line = (
            f"`{name}`: rows made by kubb3d {v['kubb3d']} (code {v['kubb3d_code']}), PyBullet {v['pybullet']}, "
            f"numpy {v['numpy']}, Python {v['python']}"
        )
        assert page.count(line) == 1, line
        after = page[page.index(line) + len(line):].split(" - ", 1)[0].split(" A partial run", 1)[0]
        for code, first in study["appended_by"].items():
            assert f"from match {first + 1:,} on" in after and f"code {code}" in after, (name, code, after)
        codes |= {v["kubb3d_code"], *study["appended_by"]}
    named = set(re.findall(r"code ([0-9a-f]{12})\b", page))
    assert named == codes
    # the case that was wrong (the first study's code named for both), whether or not today's
    # studies ran on one code: given each study a code of its own, each line names its own
    apart = json.loads(json.dumps(doc))
    for i, study in enumerate(apart["studies"].values()):
        study["versions"]["kubb3d_code"] = f"{i + 1:012x}"
    page = " ".join(render(apart, "kubb3d experiment studies docs/studies.json").split())
    for i, (name, study) in enumerate(apart["studies"].items()):
        assert f"`{name}`: rows made by kubb3d {study['versions']['kubb3d']} (code {i + 1:012x})" in page

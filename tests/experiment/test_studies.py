"""The studies summary (kubb3d.experiment.studies): its intervals against independent formulas,
its figures against the rows of a real run, and the refusal of foreign results files."""

import json
import math
from pathlib import Path

import pytest
from cli_process import run_kubb3d

from kubb3d.experiment import read_rows, run
from kubb3d.experiment.spec import load_spec
from kubb3d.experiment.stats import t95, wilson
from kubb3d.experiment.studies import (
    FIRST_BATON_TEAMS,
    StudyError,
    needed_per_arm,
    ratio_interval,
    real_first_baton,
    render,
    summarise,
)
from kubb3d.library import experiments_dir


def test_ratio_interval_of_single_trials_is_the_wald_interval_with_n_minus_1():
    """Clusters of one trial each (x = 1, y = 0 or 1): R = p and SE = √(p(1−p)/(n−1)), with Student's
    quantile for n − 1 degrees of freedom (1.984 at 99)."""
    ys = [1] * 30 + [0] * 70
    got = ratio_interval([(y, 1) for y in ys])
    p, n = 0.3, 100
    se = math.sqrt(p * (1 - p) / (n - 1))
    assert got["value"] == pytest.approx(p)
    assert got["low"] == pytest.approx(p - 1.9842 * se, abs=1e-4 * se)
    assert got["high"] == pytest.approx(p + t95(n - 1) * se)
    assert got["clusters"] == n


def test_ratio_interval_relations():
    pairs = [(3, 10), (1, 7), (5, 9), (0, 4), (2, 12)]
    base = ratio_interval(pairs)
    assert base["value"] == pytest.approx(11 / 42)
    # scaling every cluster changes nothing; four copies of the clusters halve the width (n/(n−1) and
    # the t quantiles of 4 and 19 degrees of freedom aside)
    scaled = ratio_interval([(2 * y, 2 * x) for y, x in pairs])
    assert scaled["low"] == pytest.approx(base["low"]) and scaled["high"] == pytest.approx(base["high"])
    four = ratio_interval(pairs * 4)
    ratio = (four["high"] - four["low"]) / (base["high"] - base["low"])
    assert ratio == pytest.approx(0.5 * math.sqrt((20 / 19) / (5 / 4)) * t95(19) / t95(4), rel=1e-9)
    # clusters without any kubbs count for nothing; one cluster has the Wilson interval of its counts
    assert ratio_interval(pairs + [(0, 0)]) == base
    assert (ratio_interval([(3, 10)])["low"], ratio_interval([(3, 10)])["high"]) == wilson(3, 10)
    assert ratio_interval([(3, 1)])["low"] is None  # kubbs per baton above 1: no count interval
    assert ratio_interval([])["value"] is None


def test_a_ratio_without_spread_or_of_few_matches_never_claims_certainty():
    """A partial first-baton run (six 8 m batons, none felled a kubb) printed 0.0 % (0.0–0.0 %):
    the ratio estimator's SE was 0. Now its interval holds the Wilson interval of 0 of 6."""
    none = ratio_interval([(0, 1)] * 6, ceiling=None)
    assert none["value"] == 0.0
    assert (none["low"], none["high"]) == wilson(0, 6)
    assert none["high"] == pytest.approx(0.390, abs=1e-3)
    # the same ratio in every match: no spread, however many matches
    alike = ratio_interval([(1, 4)] * 40)
    assert alike["low"] < 0.25 < alike["high"] and (alike["low"], alike["high"]) == wilson(40, 160)
    # few matches: at least as wide as the counts' interval, wider if their spread says so
    few = ratio_interval([(0, 10), (10, 10)])
    assert few["low"] == 0.0 and few["high"] == 1.0
    two = ratio_interval([(2, 10), (3, 10)])
    lo, hi = wilson(5, 20)
    assert two["low"] <= lo and two["high"] >= hi
    # per-baton kubbs above 1 in every match alike: no interval rather than a zero-width one
    assert ratio_interval([(3, 2)] * 6, ceiling=None)["low"] is None
    # the page prints it with its interval
    from kubb3d.experiment.studies import _iv

    assert _iv(none) == "0.0 % (0.0–39.0 %)"


def test_matches_needed_per_arm():
    # the textbook case: 50 % against 60 %, 95 % two-sided, power 80 %: about 385 per group
    assert 380 <= needed_per_arm(0.5, 0.1) <= 390
    # a quarter of the difference needs about sixteen times the matches
    assert needed_per_arm(0.5, 0.025) == pytest.approx(16 * needed_per_arm(0.5, 0.1), rel=0.05)


def test_the_real_first_baton_range_is_the_sources_teams():
    real = real_first_baton()
    assert round(100 * real["low"], 1) == 37.9 and round(100 * real["high"], 1) == 47.1
    assert real["felled"] == sum(f for _, f, _ in FIRST_BATON_TEAMS) and real["inkasted"] == 436
    assert real["pooled"]["low"] < real["pooled"]["value"] < real["pooled"]["high"]


@pytest.fixture(scope="module")
def first_baton_run(tmp_path_factory):
    """Two matches of the shipped first-baton spec (two presets against club)."""
    folder = tmp_path_factory.mktemp("fb")
    loaded = load_spec(experiments_dir() / "first-baton.toml")
    results = folder / "first-baton.sqlite"
    run(loaded, results, workers=1, backend="serial", progress=False, max_trials=2)
    return results


def test_summary_figures_are_the_rows_counted_turn_by_turn(first_baton_run):
    rows = read_rows(first_baton_run)
    doc = summarise([first_baton_run])
    study = doc["studies"]["first-baton"]
    assert study["stored"] == 2 and study["planned"] == 600 and study["failed"] == 0
    # a part of a run spreads over the grid (two presets); the summary keeps their trial order
    assert [p["preset"] for p in study["rows"]] == [r["match_skill_a"] for r in rows]
    assert len({r["match_skill_a"] for r in rows}) == 2
    for p, row in zip(study["rows"], rows):
        mine = [t for t in row["turns"] if t["side"] == "A"]
        standing = sum(t["field_standing"] for t in mine)
        felled = sum(t["first_baton_field_felled"] for t in mine)
        assert (p["field_standing"], p["first_baton_felled"]) == (standing, felled)
        assert p["efficiency"]["value"] == (pytest.approx(felled / standing) if standing else None)
        throws = sum(t["eight_m_throws"] for t in mine)
        assert p["eight_m_throws"] == throws
        if throws:
            assert p["eight_m"]["value"] == pytest.approx(sum(t["eight_m_felled"] for t in mine) / throws)
        assert p["won"]["k"] == (row["match_winner"] == "A") and p["matches"] == 1
    # the advantage line: per matchup, who left the first line and whether that side lost
    for a, row in zip(doc["advantage_line"], rows):
        assert a["matchup"] == f"{row['match_skill_a']} v club"
        first = next((t["side"] for t in row["turns"] if t["field_left"]), None)
        assert a["with_a_line"] == (first is not None)
        if first is not None and row["match_winner"] is not None:
            assert a["leaver_lost"]["k"] == (row["match_winner"] != first)
    # the 8 m ladder: every side with at least six 8 m batons in its match, in the bin of its rate
    sides = [
        (sum(t["eight_m_felled"] for t in mine) / n, row["match_winner"] == label)
        for row in rows
        for label in "AB"
        for mine in [[t for t in row["turns"] if t["side"] == label]]
        for n in [sum(t["eight_m_throws"] for t in mine)]
        if n >= 6
    ]
    ladder = doc["eight_m_ladder"]
    assert sum(b["won"]["n"] for b in ladder) == len(sides)
    assert sum(b["won"]["k"] for b in ladder) == sum(won for _, won in sides)
    for value, _ in sides:
        assert sum(1 for b in ladder if b["low"] <= value and (b["high"] is None or value < b["high"])) == 1
    assert ladder[-1]["high"] is None and all(b["high"] == n["low"] for b, n in zip(ladder, ladder[1:]))
    page = render(json.loads(json.dumps(doc)), "kubb3d experiment studies x.json")
    assert "| `first-baton` | 600 | 2 | 0 |" in page and "| `opening-advantage` | — | 0 (not run) |" in page


def test_a_results_file_of_another_spec_is_refused(tmp_path, first_baton_run):
    from kubb3d.experiment.store import ResultStore

    other = tmp_path / "other.sqlite"
    ResultStore(other, "0" * 64, "{}").close()
    with pytest.raises(StudyError, match="not a shipped study"):
        summarise([other])
    with pytest.raises(StudyError, match="second results file"):
        summarise([first_baton_run, first_baton_run])
    res = run_kubb3d("experiment", "studies", str(other))
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and "not a shipped study" in res.stderr
    with pytest.raises(StudyError, match="schema"):
        render({"schema": 99}, "x")


def test_a_studies_document_takes_a_new_physics_section_from_sensitivity_alone(cli, tmp_path):
    """`experiment studies docs/studies.json --sensitivity S` swaps in S's band (no results files)
    and leaves every other figure as it was; a broken S is one line, exit 2, no page printed."""
    from kubb3d.experiment.studies import physics_band

    root = Path(__file__).resolve().parents[2]
    doc = json.loads((root / "docs" / "studies.json").read_text(encoding="utf-8"))
    band = json.loads((root / "docs" / "sensitivity.json").read_text(encoding="utf-8"))
    club = next(f for f in band["figures"] if f["key"] == "felled-club")
    club["value"] = 0.123
    club["effects"][0]["value"] = 0.987  # the new top of the band
    moved = tmp_path / "sensitivity.json"
    moved.write_text(json.dumps(band), encoding="utf-8")
    studies = tmp_path / "studies.json"
    studies.write_text(json.dumps(doc), encoding="utf-8")

    res = cli("experiment", "studies", str(studies), "--sensitivity", str(moved), "--json")
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    assert got["physics"] == physics_band(band) != doc["physics"]
    row = next(f for f in got["physics"] if f["key"] == "felled-club")
    assert (row["shipped"], row["high"]) == (0.123, 0.987)
    assert {k: v for k, v in got.items() if k != "physics"} == {k: v for k, v in doc.items() if k != "physics"}

    page = cli("experiment", "studies", str(studies), "--sensitivity", str(moved))
    assert page.returncode == 0, page.stderr
    assert f"| club: kubbs felled per baton at 8 m | 0.123 ({club['trials']}, " in page.stdout
    assert "| +0.000 to +0.864 | " in page.stdout  # the shift to the new top: 0.987 − 0.123
    assert f"--sensitivity {moved.name}`" in page.stdout.splitlines()[2]  # the "Generated by" line

    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"figures": [{"key": "felled-club"}]}), encoding="utf-8")
    res = cli("experiment", "studies", str(studies), "--sensitivity", str(broken))
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and "not a sensitivity document" in res.stderr


def test_the_generated_by_line_names_what_the_page_was_made_from(first_baton_run, cli, tmp_path):
    """From results files the page says it was made from them (it once said "from
    docs/studies.json, which `kubb3d experiment studies RESULTS... --json` wrote"); from a studies
    JSON document it names that document and the command that wrote it."""
    from_results = cli("experiment", "studies", str(first_baton_run))
    assert from_results.returncode == 0, from_results.stderr
    line = from_results.stdout.splitlines()[2]
    assert line.startswith(
        "Generated by `kubb3d experiment studies first-baton.sqlite` from the results files of the shipped specs below"
    ), line
    assert "docs/studies.json, which" not in line and "RESULTS..." not in line
    document = tmp_path / "mine.json"
    document.write_text(cli("experiment", "studies", str(first_baton_run), "--json").stdout, encoding="utf-8")
    from_json = cli("experiment", "studies", str(document))
    assert from_json.returncode == 0, from_json.stderr
    assert from_json.stdout.splitlines()[2].startswith(
        f"Generated by `kubb3d experiment studies {document.as_posix()}` from {document.as_posix()}, which "
        "`kubb3d experiment studies first-baton.sqlite --json` wrote from the results files of the shipped specs"
    )

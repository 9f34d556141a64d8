"""The scenario library through the CLI, and scenario-file errors (no tracebacks)."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kubb3d.scenario import ScenarioError, collect, load

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"


@pytest.fixture(scope="module")
def app(judge_app):
    return judge_app


def test_library_has_at_least_40_scenarios_for_every_ruleset():
    files = collect([SCENARIOS])
    assert len(files) >= 40
    rulesets = [load(f).ruleset for f in files]
    assert set(rulesets) == {"dm", "wikinger", "kubbuteo"}
    assert rulesets.count("kubbuteo") >= 8  # issue 8: table-scale scenarios


def test_check_passes_on_the_library(app):
    r = CliRunner().invoke(app, ["judge", "--check", str(SCENARIOS)])
    assert r.exit_code == 0, r.output
    assert "FAIL" not in r.output
    n = len(collect([SCENARIOS]))
    assert f"{n} of {n} scenarios as expected" in r.output


def test_json_for_the_leaning_case(app):
    r = CliRunner().invoke(app, ["judge", str(SCENARIOS / "dm_leaning_on_field_kubb.toml"), "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output[r.output.index("{"):])
    ruling = next(x for x in doc["rulings"] if x["piece"] == "A2")
    assert ruling["status"] == "leaning" and ruling["consequence"] == "counts as felled"
    assert "DM §5" in ruling["rules"]


def test_json_is_one_object_per_scenario_however_many(app, tmp_path):
    # one scenario printed an object and several a list: a reader had to know the count first
    one = SCENARIOS / "dm_leaning_on_field_kubb.toml"
    two = SCENARIOS / "dm_king_felled_early.toml"
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / one.name).write_text(one.read_text(encoding="utf-8"), encoding="utf-8")
    shapes = {}
    for args in ([str(one)], [str(one), str(two)], [str(alone)]):
        r = CliRunner().invoke(app, ["judge", *args, "--json"])
        assert r.exit_code == 0, r.output
        docs = [json.loads(line) for line in r.stdout.splitlines()]
        assert all(isinstance(d, dict) for d in docs), r.stdout
        shapes[len(args), args[0]] = [Path(d["file"]).name for d in docs]
        assert all({"file", "title", "ruleset", "rulings", "ok", "mismatches"} <= set(d) for d in docs)
    assert list(shapes.values()) == [[one.name], [one.name, two.name], [one.name]]
    r = CliRunner().invoke(app, ["judge", "--help"])
    words = " ".join(w for w in r.stdout.split() if w != "│")
    assert "JSON Lines: one JSON object per scenario" in words, words


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


BASE = """schema = 1
title = "t"
ruleset = "dm"
event = "throw"
[[expect]]
piece = "king"
consequence = "none"
"""


def test_check_fails_on_a_wrong_expectation(app, tmp_path):
    p = _write(tmp_path, "wrong.toml", BASE.replace('consequence = "none"', 'consequence = "game lost"'))
    r = CliRunner().invoke(app, ["judge", "--check", str(p)])
    assert r.exit_code == 1
    assert "king: consequence expected 'game lost', got 'none'" in r.output


@pytest.mark.parametrize(
    "text, message",
    [
        (
            BASE.replace('ruleset = "dm"', 'ruleset = "chess"'),
            "ruleset: Input should be 'dm', 'wikinger' or 'kubbuteo' (got 'chess')",
        ),
        (
            BASE + '[[pieces]]\nid = "B1"\nplace = "tilted"\nat = [1, 0]\n',
            "pieces[0] (id B1): place = 'tilted' needs the field 'tilt_deg'",
        ),
        (
            BASE + '[[pieces]]\nid = "B1"\nplace = "lying"\nat = [1, "x"]\n',
            "pieces[0] (id B1).at[1]: Input should be a valid number",
        ),
        (BASE.replace("schema = 1", "schema = 7"), "schema: expected 1, got 7"),
        (BASE + "oops = 3\n", "expect[0].oops: unknown field in expect[0]; expected one of: consequence,"),
        ("schema = 1\ntitle = [", "not valid TOML"),
    ],
)
def test_bad_file_names_file_and_field(app, tmp_path, text, message):
    p = _write(tmp_path, "bad.toml", text)
    with pytest.raises(ScenarioError) as e:
        load(p)
    assert str(p) in str(e.value) and message in str(e.value)
    r = CliRunner().invoke(app, ["judge", str(p)])
    assert r.exit_code == 2
    assert "Traceback" not in r.output and message in r.output


def test_overlapping_pieces_are_named(app, tmp_path):
    text = (
        BASE
        + '[[pieces]]\nid = "A1"\nplace = "standing"\nat = [1.0, 0.0]\n[[pieces]]\nid = "A2"\nplace = "standing"\nat = '
          '[1.03, 0.0]\n'
    )
    p = _write(tmp_path, "overlap.toml", text)
    r = CliRunner().invoke(app, ["judge", str(p)])
    assert r.exit_code == 2
    assert "A1 and A2 overlap by 30 mm" in r.output


def test_missing_path(app, tmp_path):
    r = CliRunner().invoke(app, ["judge", str(tmp_path / "nope.toml")])
    assert r.exit_code == 2 and "no such file or directory" in r.output

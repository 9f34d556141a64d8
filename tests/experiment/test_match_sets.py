"""``sets`` in an experiment spec's [match] table: best of an odd number of sets from 1 to 9, as
``kubb3d match --sets``, fixed, a grid factor or a choice; a spec that does not set it keeps
its hash, so the results files of the shipped studies still resume."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import pytest

from kubb3d.experiment import SpecError, load_spec
from kubb3d.experiment.trial import run_trial

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "scenarios" / "experiments"

HASHES = {
    "club-vs-elite": "5c7db73f8cb924bbdd4e7f8dcf67d28d2f8fbce61c873a043fbe21bfc4816237",
    "first-baton": "6c42d961a1193247d2ab006038a5bb1dd83f0e8e3b98fdf9775116137433c5e7",
    "hit-8m": "d5b35f17b32d78ebba98fa09ffb23182cacbf6f899919c46782e524a10f297e1",
    "leaning-survival": "aa6c8c9cf361ba7d7cb003472347bf6aa1fbd66801eaa3824e0e7a35d4973fd2",
    "opening-advantage": "039ee5660c616739ced8d3ce7b34a89505a51435120d86b82ea1d5c79527ace1",
    "skill-calibration": "610e4968230cd8b3a6bc9b4e6b3511e40b5999d6620a75170e269748ec83e292",
    "strategy-inkast": "1a4fa7a3751c9885bb6da846b3266199b5dbd3c9755b3dba96511ee54dafe71c",
    "tilt-limit": "4d3c236d71fbec65ecb7374710554348228c16444b85a8d94e614e281ee1abfb",
}
"""The hash of every shipped spec (``LoadedSpec.sha256``) as the code before [match] ``sets``
gave it; a results file stores it and a run resumes only a file with its spec's hash. A spec
edited on purpose gets a new hash here, a code change to the hash never."""

SPEC = """
schema = 1
title = "best of"
seed = {seed}
trials_per_point = {tpp}
measures = ["match", "turns"]

[match]
ruleset = "{ruleset}"
skill_a = "elite"
skill_b = "novice"
{sets}
"""


def _write(tmp_path: Path, sets: str, seed: int = 1, tpp: int = 1, ruleset: str = "dm") -> Path:
    path = tmp_path / "sets.toml"
    path.write_text(SPEC.format(seed=seed, tpp=tpp, ruleset=ruleset, sets=sets))
    return path


def test_the_shipped_specs_keep_their_hashes_and_the_packed_studies_still_match(tmp_path):
    assert {p.stem: load_spec(p).sha256 for p in sorted(SHIPPED.glob("*.toml"))} == HASHES
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import study_results
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    packed = study_results.unpack(tmp_path)
    assert {p.stem for p in packed} == {"first-baton", "opening-advantage"}
    for path in packed:
        with sqlite3.connect(path) as db:
            meta = dict(db.execute("SELECT key, value FROM meta"))
        assert meta["spec_sha256"] == HASHES[path.stem]


def test_a_set_sets_changes_the_hash(tmp_path):
    unset = load_spec(_write(tmp_path, "")).sha256
    one = load_spec(_write(tmp_path, "sets = 1")).sha256
    three = load_spec(_write(tmp_path, "sets = 3")).sha256
    assert len({unset, one, three}) == 3  # sets = 1 adds the match_sets column: another spec


def test_best_of_three_plays_sets_until_one_side_has_two(tmp_path):
    loaded = load_spec(_write(tmp_path, "sets = 3", seed=1))
    assert loaded.factors == () and loaded.draws == ()
    row = run_trial(loaded, 0)
    assert row["ok"], row["error"]
    assert row["match_sets"] == 3
    assert row["match_termination"] == "sets"  # one set won ends a best of one with "king"
    assert (row["match_points_a"], row["match_points_b"]) == (2, 0)  # DM's points are the sets won
    assert sorted({t["set_no"] for t in row["turns"]}) == [1, 2]


class _Stop(Exception):
    pass


@pytest.fixture
def configs(monkeypatch):
    """The MatchConfig of every trial run, the match itself not played."""
    import kubb3d.match

    seen = []

    def record(config, *args, **kwargs):
        seen.append(config)
        raise _Stop("recorded")

    monkeypatch.setattr(kubb3d.match, "Match", record)
    return seen


def test_a_grid_and_a_choice_reach_the_match_and_the_row(tmp_path, configs):
    grid = load_spec(_write(tmp_path, "sets = { grid = [1, 3, 5] }"))
    assert [(f.name, f.values) for f in grid.factors] == [("match_sets", (1, 3, 5))]
    rows = [run_trial(grid, i) for i in range(3)]
    assert [r["match_sets"] for r in rows] == [1, 3, 5]
    assert [c.sets for c in configs] == [1, 3, 5]
    configs.clear()
    choice = load_spec(_write(tmp_path, "sets = { choice = [3, 7] }", tpp=12))
    assert [d.name for d in choice.draws] == ["match_sets"]
    rows = [run_trial(choice, i) for i in range(12)]
    assert [c.sets for c in configs] == [r["match_sets"] for r in rows]
    assert set(r["match_sets"] for r in rows) == {3, 7}
    assert all(type(r["match_sets"]) is int for r in rows)  # 3, never 3.0
    configs.clear()
    unset = run_trial(load_spec(_write(tmp_path, "")), 0)
    assert configs[0].sets is None and "match_sets" not in unset


@pytest.mark.parametrize(
    "line, ruleset, why",
    [
        ("sets = 2", "dm", "match.sets: expected an odd number from 1 to 9, got 2"),
        ("sets = 11", "dm", "match.sets: expected an odd number from 1 to 9, got 11"),
        ("sets = 0", "dm", "match.sets: expected an odd number from 1 to 9, got 0"),
        ("sets = { grid = [1, 4] }", "dm", "match.sets: expected an odd number from 1 to 9, got 4"),
        ("sets = { choice = [3, 8] }", "dm", "match.sets: expected an odd number from 1 to 9, got 8"),
        ("sets = 3.0", "dm", "match.sets: Input should be a valid integer (got 3.0)"),
        ('sets = "3"', "dm", "match.sets: Input should be a valid integer (got '3')"),
        ("sets = { grid = [1, 3.0] }", "dm", "match.sets.grid[1]: Input should be a valid integer (got 3.0)"),
        ("sets = { linspace = [1, 5, 3] }", "dm", "match.sets.linspace: unknown field in [match.sets]"),
        (
            "sets = 3",
            "wikinger",
            "match.sets: does not apply to ruleset 'wikinger' (a Wikinger-Schach match is one game against the clock)",
        ),
        ("sets = 1", "ws", "match.sets: does not apply to ruleset 'wikinger'"),
    ],
)
def test_a_bad_sets_is_one_line_naming_file_and_field(tmp_path, line, ruleset, why):
    path = _write(tmp_path, line, ruleset=ruleset)
    with pytest.raises(SpecError) as info:
        load_spec(path)
    text = str(info.value)
    assert text.startswith(f"{path}: {why}"), text
    assert "\n" not in text


def test_the_odd_counts_the_command_line_takes_are_taken(tmp_path):
    for n in (1, 3, 5, 7, 9):
        assert load_spec(_write(tmp_path, f"sets = {n}")).spec.match.sets == n

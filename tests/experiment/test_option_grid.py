"""A referee option gridded in an experiment spec (the study of a rule variant) is a factor like
any other: trial ``i`` at the point of value ``v`` is exactly trial ``i`` of the same spec with
the option fixed to ``v``, and the value is recorded in the column ``option_NAME``."""

from __future__ import annotations

import pytest

from kubb3d.experiment import SpecError, load_spec
from kubb3d.experiment.trial import run_trial

SPEC = """
schema = 1
title = "tilt limit"
seed = 5
trials_per_point = 6
measures = ["tilt"]

[setup]
ruleset = "dm"

[throw]
target = "B3"
aim = true
tilt_deg = {{ uniform = [25.0, 50.0] }}

[options]
max_tilt_deg = {setting}
"""


def _spec(tmp_path, setting: str, name: str):
    path = tmp_path / f"{name}.toml"
    path.write_text(SPEC.format(setting=setting), encoding="utf-8")
    return load_spec(path)


def _without_wall(row: dict) -> dict:
    return {key: value for key, value in row.items() if key not in ("wall_s", "point", "rep", "option_max_tilt_deg")}


def test_a_gridded_option_is_the_same_trials_as_the_fixed_option(tmp_path):
    gridded = _spec(tmp_path, "{ grid = [30, 45] }", "gridded")
    assert [factor.name for factor in gridded.factors] == ["option_max_tilt_deg"]
    assert gridded.points() == [{"option_max_tilt_deg": 30.0}, {"option_max_tilt_deg": 45.0}]
    fixed = {30.0: _spec(tmp_path, "30", "at30"), 45.0: _spec(tmp_path, "45", "at45")}
    for index in range(4):
        row = run_trial(gridded, index)
        limit = row["option_max_tilt_deg"]
        assert limit == (30.0, 45.0)[index % 2]
        assert _without_wall(row) == _without_wall(run_trial(fixed[limit], index))


def test_the_tilt_limit_only_moves_the_ruling(tmp_path):
    """The same throws under the 30° and the 45° limit: the same flight, legal under 45° whenever
    legal under 30°, and refused exactly when tilted past the limit (DM §5's 30°; 45° of the US rule
    book to v3.x, docs/rules.md)."""
    at30, at45 = _spec(tmp_path, "30", "at30"), _spec(tmp_path, "45", "at45")
    changed = 0
    for index in range(6):
        strict, lenient = run_trial(at30, index), run_trial(at45, index)
        assert strict["max_tilt_deg"] == lenient["max_tilt_deg"]
        assert lenient["legal"] or not strict["legal"]
        changed += strict["legal"] != lenient["legal"]
    assert changed >= 1  # tilts drawn from 25-50°: some fall between the limits


def test_an_option_grid_is_checked_value_by_value(tmp_path):
    with pytest.raises(SpecError, match="max_tilt_deg"):
        _spec(tmp_path, '{ grid = [30, "steep"] }', "bad")
    with pytest.raises(SpecError, match="opening"):
        path = tmp_path / "opening.toml"
        path.write_text(SPEC.format(setting="30").replace("max_tilt_deg = 30", 'opening = { grid = ["2-4-7"] }'))
        load_spec(path)

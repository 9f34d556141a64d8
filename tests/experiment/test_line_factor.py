"""The throwing line as an experiment factor: ``throw.line_x`` takes the value forms of the other
[throw] numbers (grid, linspace, uniform, normal, choice), each value held to the pitch."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubb3d.experiment import SpecError, load_spec
from kubb3d.experiment.trial import run_trial

SPEC = """
schema = 1
title = "distance"
seed = 3
trials_per_point = 1
measures = ["hit", "flight_time"]

[setup]
ruleset = "dm"

[throw]
target = "B2"
aim = true
line_x = {line_x}
"""


def _spec(tmp_path: Path, line_x: str):
    path = tmp_path / "dist.toml"
    path.write_text(SPEC.format(line_x=line_x))
    return load_spec(path)


def test_line_x_is_a_factor_and_each_trial_throws_from_its_line(tmp_path):
    s = _spec(tmp_path, "{ grid = [-4.0, 0.0] }")
    assert [f.name for f in s.factors] == ["line_x"] and s.points() == [{"line_x": -4.0}, {"line_x": 0.0}]
    far, near = (run_trial(s, i) for i in range(2))
    assert far["ok"] and near["ok"], (far["error"], near["error"])
    assert (far["line_x"], near["line_x"]) == (-4.0, 0.0)
    # aimed at B2 (x = 4 m) from 8 m and from 4 m: the far throw is faster and flies longer
    assert far["thrown_speed"] > near["thrown_speed"] + 1.0 and far["flight_time_s"] > near["flight_time_s"]


@pytest.mark.parametrize(("form", "got"), [
    ("{ grid = [-4.0, 4.5] }", "4.5"), ("{ uniform = [-5.0, 0.0] }", "-5.0"), ("9.0", "9.0")])
def test_every_value_of_line_x_lies_on_the_pitch(tmp_path, form, got):
    with pytest.raises(SpecError, match=rf"throw\.line_x: {got} is off the pitch; expected from -4 to 4 m"):
        _spec(tmp_path, form)


def test_a_drawn_line_off_the_pitch_fails_its_trial_not_the_run(tmp_path):
    s = _spec(tmp_path, "{ normal = [3.9, 5.0] }")
    row = run_trial(s, 0)
    assert row["ok"] is False and abs(row["line_x"]) > 4.0
    assert row["error"].startswith(f"ValueError: line_x: the trial's value {row['line_x']!r} is off the pitch")

"""The shipped skill-calibration spec measures what ``kubb3d calibrate`` measures: the same
presets, set, pitch, ground, targets, distance, release style and number of throws per preset.
With 20 throws per grid point its summary read novice 0.21 against club 0.18 kubbs per baton,
noise that contradicted docs/calibration.md; at calibrate's 400 per preset the two agree within
their intervals (closing note of issue #33)."""

from __future__ import annotations

import inspect
from pathlib import Path

from kubb3d import calibrate
from kubb3d.experiment import load_spec
from kubb3d.pitch import PITCHES, baseline_ids
from kubb3d.players import Style

SPEC = Path(__file__).resolve().parents[2] / "scenarios" / "experiments" / "skill-calibration.toml"


def _defaults(function) -> dict:
    return {
        name: parameter.default
        for name, parameter in inspect.signature(function).parameters.items()
        if parameter.default is not inspect.Parameter.empty
    }


def test_the_spec_sets_up_what_calibrate_sets_up():
    spec = load_spec(SPEC).spec
    throws = _defaults(calibrate.run_throws)
    assert (spec.setup.ruleset, spec.setup.pitch) == ("dm", "dm")
    assert spec.setup.equipment == throws["set_name"]
    assert spec.setup.ground == throws["ground"]
    assert spec.throw.side == "A" and spec.throw.aim


def test_the_spec_throws_with_the_players_style_from_calibrates_distance():
    spec = load_spec(SPEC).spec
    style = Style()
    for field in ("elevation_deg", "spin_rps", "height", "behind_line"):
        assert getattr(spec.throw, field) == getattr(style, field), field
    pitch = PITCHES["dm"]
    line_x = spec.throw.line_x if spec.throw.line_x is not None else pitch.baseline_x("A")
    assert pitch.baseline_x("B") - line_x == _defaults(calibrate.run_throws)["distance"]


def test_the_spec_throws_as_often_at_the_same_kubbs_with_the_same_presets():
    loaded = load_spec(SPEC)
    points = loaded.points()
    assert sorted({point["skill"] for point in points}) == sorted(calibrate.SKILL_NAMES)
    for skill in calibrate.SKILL_NAMES:
        targets = [point["target"] for point in points if point["skill"] == skill]
        assert sorted(targets) == sorted(baseline_ids("B"))  # calibrate: B1…B5 in turn
        assert len(targets) * loaded.spec.trials_per_point == _defaults(calibrate.run_calibration)["throws"]

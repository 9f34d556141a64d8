"""Left and right in names (scenario sidelines, stakes) are side A's, as its thrower sees them.

Held against what the names do not choose: the viewer's thrower camera behind side A's baseline
(a piece on A's left is drawn in the left half of the picture), the viewer's LEFT key and the
thrower's azimuth (positive to the thrower's left). A kubb on ``sideline-left`` was once put at
y = −2.5, the thrower's right (docs/examinations/2026-12-06.md, "Format finding").
"""

from __future__ import annotations

import math

import pytest

from kubb3d.pitch import PITCHES, Pitch
from kubb3d.scenario import build
from kubb3d.viewer.camera import project, thrower_camera

WIDTH, HEIGHT = 1280, 720


def _screen_x(pitch: Pitch, point, side: str = "A") -> float:
    """Pixel column of a world point in the viewer's thrower camera of ``side`` (must be in view)."""
    cam = thrower_camera(pitch, side)
    px, visible = project([point], cam.view_proj(WIDTH, HEIGHT), WIDTH, HEIGHT)
    assert visible[0], point
    return float(px[0][0])


def _scenario(tmp_path, line: str, half_x: float) -> str:
    path = tmp_path / f"{line}.toml"
    path.write_text(
        "schema = 1\n"
        'title = "named sideline"\n'
        'ruleset = "dm"\n'
        'setup = "empty"\n'
        'event = "inkast"\n'
        "[inkast]\n"
        'inkasting_side = "B"\n'
        'inkasted = ["B1"]\n'
        "[[pieces]]\n"
        'id = "B1"\n'
        'place = "across_line"\n'
        f'line = "{line}"\n'
        f"along = {half_x}\n"
        "inside = 0.5\n"
        "[[expect]]\n"
        'piece = "B1"\n'
        'consequence = "raise here"\n',
        encoding="utf-8",
    )
    return str(path)


@pytest.mark.parametrize("line, on_left", [("sideline-left", True), ("sideline-right", False)])
def test_a_kubb_across_a_named_sideline_is_on_that_side_of_side_a_s_thrower(tmp_path, line, on_left):
    built = build(_scenario(tmp_path, line, 2.0))
    try:
        position = built.snapshot.pieces["B1"].position
        pitch = built.spec.pitch_obj
    finally:
        built.close()
    assert abs(abs(position[1]) - pitch.half_width) < 0.02  # it lies across a sideline
    left_of_centre = _screen_x(pitch, position) < WIDTH / 2
    assert left_of_centre == on_left, (line, position)
    # the thrower of side A aims at it with an azimuth of the same sign (positive: to the left)
    baseline = pitch.baseline_x("A")
    azimuth = math.atan2(position[1], position[0] - baseline)
    assert (azimuth > 0) == on_left


@pytest.mark.parametrize("ruleset", sorted(PITCHES))
def test_every_stake_named_left_is_on_side_a_s_left(ruleset):
    pitch = PITCHES[ruleset]
    stakes = pitch.stake_positions()
    assert len(stakes) == 6
    for name, (x, y) in stakes.items():
        end = name.split("-")[1]
        if end == "A":
            continue  # on the baseline under the camera: out of its picture
        left_of_centre = _screen_x(pitch, (x, y, 0.0)) < WIDTH / 2
        assert left_of_centre == name.endswith("-left"), (name, x, y)
    # the A-end stakes are the B-end stakes moved along the pitch: the same side
    for end in ("left", "right"):
        assert stakes[f"stake-A-{end}"][1] == stakes[f"stake-B-{end}"][1] == stakes[f"stake-mid-{end}"][1]
    # side B's thrower sees side A's left on its right
    for name in ("stake-A-left", "stake-A-right"):
        right_of_centre = _screen_x(pitch, (*stakes[name], 0.0), side="B") > WIDTH / 2
        assert right_of_centre == name.endswith("-left")


def test_the_viewer_s_left_key_moves_side_a_s_thrower_towards_sideline_left(tmp_path):
    """The LEFT key moves the thrower to the sideline a ``sideline-left`` kubb lies across."""
    from kubb3d.viewer.controls import Controller

    built = build(_scenario(tmp_path, "sideline-left", -2.0))
    try:
        y = built.snapshot.pieces["B1"].position[1]
    finally:
        built.close()
    controller = Controller(PITCHES["dm"])
    for _ in range(60):
        controller.key_press("LEFT")
    assert controller.throw.lateral * y > 0, (controller.throw.lateral, y)

"""The round history of DM §5 (an „Überschlag“: turned past lying this round; KT: knocked past its
tipping angle) is measured from the
upright direction of a piece's last set-up: the world vertical on the end it stood on (issue #12),
never from the quaternion it was placed with (issue #37: a kubb set up tilted below its tipping
angle that settles upright was ruled felled)."""

from __future__ import annotations

import math

import pytest

from helpers import kubb, snap
from kubb3d.judge import Consequence, ThrowContext, judge_throw, turned_over
from kubb3d.physics.world import World

UPSIDE_DOWN = (1.0, 0.0, 0.0, 0.0)  # 180° about x: the top end on the ground


@pytest.fixture
def world():
    w = World("standard", stakes=False, air_drag=False)
    yield w
    w.close()


def test_kubb_set_up_on_its_top_end_has_no_history(world):
    world.add_piece("B1", "kubb", (2.0, 0.0, 0.075), UPSIDE_DOWN, side="B")
    world.clear_history()
    world.run_until_rest(max_time=1.0)
    world.settle_forces()
    s = world.snapshot()
    assert s["B1"].tilt == pytest.approx(math.pi, abs=0.01)  # 180° from vertical …
    assert s["B1"].max_tilt < math.radians(1.0)  # … but it turned by nothing since it was set up
    j = judge_throw(s, ThrowContext(thrower="A"))
    assert j.ruling("B1").consequence is Consequence.NONE
    assert "B1" not in j.felled


def test_set_pose_starts_the_history_afresh(world):
    world.add_piece("B1", "kubb", (2.0, 0.0, 0.075), side="B")
    world.clear_history()
    lying = (0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4))
    world.set_pose("B1", (2.0, 0.0, 0.035), lying, wake=False)
    assert world.snapshot()["B1"].max_tilt == pytest.approx(math.pi / 2)  # placed lying: 90° from upright
    world.set_pose("B1", (2.0, 0.0, 0.075), UPSIDE_DOWN, wake=False)  # raised on its top end
    assert world.snapshot()["B1"].max_tilt < 1e-6


def test_a_somersault_is_caught(world):
    # tossed up turning end over end at 2 rev/s: it turns through more than 180° in the air
    world.add_piece("B1", "kubb", (2.0, 0.0, 0.4), side="B", sleeping=False)
    world.clear_history()
    world.set_pose("B1", (2.0, 0.0, 0.4), angular_velocity=(4 * math.pi, 0.0, 0.0), linear_velocity=(0.0, 0.0, 3.0))
    world.run_until_rest(max_time=5.0, sample_every=world.dt)  # seconds: every step
    p = world.snapshot()["B1"]
    assert p.max_tilt > math.radians(170.0)
    assert turned_over(p)


def test_hand_built_history_still_decides():
    # a scenario can give the history explicitly: standing upright, but turned 180° this round
    s = snap(kubb("B1", 2.0, 0.0, max_tilt_deg=180.0))
    j = judge_throw(s, ThrowContext(thrower="A"))
    assert j.ruling("B1").consequence is Consequence.COUNTS_AS_FELLED
    s = snap(kubb("B1", 2.0, 0.0, max_tilt_deg=20.0))
    assert judge_throw(s, ThrowContext(thrower="A")).ruling("B1").consequence is Consequence.NONE
    # rocked 60°, far past its tipping angle but not over (DM §5 „Überschlag“): it stands
    s = snap(kubb("B1", 2.0, 0.0, max_tilt_deg=60.0))
    assert judge_throw(s, ThrowContext(thrower="A")).ruling("B1").consequence is Consequence.NONE


@pytest.mark.parametrize("upside_down", [False, True])
@pytest.mark.parametrize("yaw_deg", [0.0, 37.0])
def test_history_of_a_tilted_set_up_is_its_tilt_from_upright(world, upside_down, yaw_deg):
    """The set-up quaternion (yaw, tilt direction, which end is down) changes nothing but the
    starting tilt from the vertical: a relation over poses, not one pose."""
    tilt = math.radians(20.0)
    yaw = math.radians(yaw_deg)
    # tilt about the body x axis after a yaw about z, optionally on its top end (180° about x first)
    qz = (0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2))
    turn = tilt + (math.pi if upside_down else 0.0)
    qt = (math.sin(turn / 2), 0.0, 0.0, math.cos(turn / 2))
    x1, y1, z1, w1 = qz
    x2, y2, z2, w2 = qt
    q = (
        w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
        w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
        w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
        w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
    )
    world.add_piece("B1", "kubb", (2.0, 0.0, 0.2), q, side="B")
    assert world.snapshot()["B1"].max_tilt == pytest.approx(tilt, abs=1e-9)
    world.set_pose("B1", (2.0, 0.0, 0.2), q, wake=False)
    assert world.snapshot()["B1"].max_tilt == pytest.approx(tilt, abs=1e-9)

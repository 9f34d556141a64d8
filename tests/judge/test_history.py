"""The round history of DM §5 ("knocked past its tipping angle this round") is measured from the
orientation a piece had when it was last set up, on the piece's own axis (issue #12)."""

from __future__ import annotations

import math

import pytest

from helpers import kubb, snap
from kubb3d.judge import Consequence, ThrowContext, judge_throw, knocked_past_tipping
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
    assert world.snapshot()["B1"].max_tilt < 1e-6  # placed lying: that is its set-up orientation
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
    assert knocked_past_tipping(p)


def test_hand_built_history_still_decides():
    # a scenario can give the history explicitly: standing upright, but turned 180° this round
    s = snap(kubb("B1", 2.0, 0.0, max_tilt_deg=180.0))
    j = judge_throw(s, ThrowContext(thrower="A"))
    assert j.ruling("B1").consequence is Consequence.COUNTS_AS_FELLED
    s = snap(kubb("B1", 2.0, 0.0, max_tilt_deg=20.0))
    assert judge_throw(s, ThrowContext(thrower="A")).ruling("B1").consequence is Consequence.NONE

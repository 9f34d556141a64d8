"""DM §5 „Das gleiche gilt nach einem Überschlag mit anschließendem Stehen“: a kubb that turned
over this round (its long axis passed 90° from the upright of its last set-up) and stands again
counts as fallen; one that only rocked, past its tipping angle (21.8° for a dm-small kubb, 25°
for a standard one) but not over, and came back stands (docs/rules.md "DM §5 somersault").
WS and KT borrow the reading (tests/kubbuteo/test_kt_rocked_back.py for KT's disks and king)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from helpers import kubb, snap
from kubb3d.judge import Consequence, ThrowContext, judge_throw, turned_over


def _ruling(max_tilt_deg: float, *, side: str = "B", toward_deg: float = 0.0, ruleset: str = "dm"):
    """The ruling on a field kubb of ``side`` that stands again, 2° on its base edge towards
    ``toward_deg``, after turning ``max_tilt_deg`` this round, hit by the other side. Side A's
    kubb stands where B's would, mirrored through the centre line (x → −x)."""
    x = 1.5 if side == "B" else -1.5
    piece = kubb("F1", x, 0.5, tilt_deg=2.0, toward_deg=toward_deg, side=side, max_tilt_deg=max_tilt_deg)
    thrower = "A" if side == "B" else "B"
    j = judge_throw(snap(piece), ThrowContext(thrower=thrower, ruleset=ruleset, field_kubbs=frozenset({"F1"})))
    return j, j.ruling("F1")


@pytest.mark.parametrize("ruleset", ["dm", "wikinger"])
@pytest.mark.parametrize(("max_tilt_deg", "felled"), [(26.75, False), (40.7, False), (89.0, False), (91.0, True),
                                                      (180.0, True)])
def test_only_a_kubb_that_turned_over_counts_when_it_stands_again(ruleset, max_tilt_deg, felled):
    # 26.75° and 40.7°: the rocks of seeds 14 and 98 (docs/examinations/2026-12-07-play.md)
    j, r = _ruling(max_tilt_deg, ruleset=ruleset)
    assert r.status.value == "standing"
    assert ("F1" in j.felled) is felled
    assert r.consequence is (Consequence.COUNTS_AS_FELLED if felled else Consequence.NONE)
    if felled:
        assert "turned over" in r.reason and "tipping angle" not in r.reason
        assert "DM §5" in r.rules


@pytest.mark.parametrize("max_tilt_deg", [89.0, 91.0])
@pytest.mark.parametrize("toward_deg", [0.0, 90.0, 180.0, 270.0])
@pytest.mark.parametrize("side", ["A", "B"])
def test_the_ruling_does_not_depend_on_the_direction_of_the_rock_or_the_side(max_tilt_deg, toward_deg, side):
    """Relations: the same history rules the same, whichever way the kubb came back (mirrored
    towards either face and along either axis) and in either half (sides swapped)."""
    reference_j, reference = _ruling(max_tilt_deg)
    j, r = _ruling(max_tilt_deg, side=side, toward_deg=toward_deg)
    assert (r.status, r.consequence) == (reference.status, reference.consequence)
    assert ("F1" in j.felled) is ("F1" in reference_j.felled) is (max_tilt_deg > 90.0)


def test_the_threshold_is_lying_not_the_tipping_angle():
    base = kubb("F1", 1.5, 0.5)
    assert not turned_over(replace(base, max_tilt=math.radians(40.7)))  # far past tipping (21.8°–25°)
    assert not turned_over(replace(base, max_tilt=math.pi / 2))
    assert turned_over(replace(base, max_tilt=math.nextafter(math.pi / 2, 4.0)))


def _rocked_in_the_world(tilt_deg: float, axis: tuple[float, float], side: str):
    """The world's own history (its rest sampler) of a field kubb of ``side`` rocked by
    ``tilt_deg`` about the horizontal ``axis`` and put back upright on its spot, then judged
    after a throw of the other side: (the piece's recorded largest tilt, its ruling)."""
    import pybullet as pb

    from kubb3d.physics.world import World

    x = 2.0 if side == "B" else -2.0
    with World("standard", stakes=False, air_drag=False) as world:
        world.add_piece("F1", "kubb", (x, 0.0, 0.075), side=side)
        world.run_until_rest(max_time=1.0)
        world.clear_history()
        body, client = world.engine.body_of("F1"), world.engine.client
        com, upright = pb.getBasePositionAndOrientation(body, physicsClientId=client)
        half = math.radians(tilt_deg) / 2
        rocked = (axis[0] * math.sin(half), axis[1] * math.sin(half), 0.0, math.cos(half))
        lifted = (com[0], com[1], com[2] + 0.1)  # clear of the ground while sampled
        pb.resetBasePositionAndOrientation(body, lifted, rocked, physicsClientId=client)
        world.rest.sample()
        pb.resetBasePositionAndOrientation(body, com, upright, physicsClientId=client)
        world.rest.sample()
        world.settle_forces()
        s = world.snapshot()
    thrower = "A" if side == "B" else "B"
    j = judge_throw(s, ThrowContext(thrower=thrower, field_kubbs=frozenset({"F1"})))
    return s["F1"].max_tilt, j.ruling("F1"), j.felled


@pytest.mark.parametrize("side", ["A", "B"])
@pytest.mark.parametrize("axis", [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)], ids=["+x", "-x", "+y", "-y"])
def test_the_worlds_record_of_a_rock_decides_in_every_direction_and_half(axis, side):
    """Rocked 89° and back the kubb stands, 91° and back it counts as felled, whichever way it
    rocked (mirrored about either horizontal axis) and in either half: the world's record, not a
    hand-built history."""
    tilt, ruling, felled = _rocked_in_the_world(89.0, axis, side)
    assert math.degrees(tilt) == pytest.approx(89.0, abs=0.01)
    assert (ruling.status.value, ruling.consequence, felled) == ("standing", Consequence.NONE, frozenset())
    tilt, ruling, felled = _rocked_in_the_world(91.0, axis, side)
    assert math.degrees(tilt) == pytest.approx(91.0, abs=0.01)
    assert (ruling.status.value, ruling.consequence, felled) == ("standing", Consequence.COUNTS_AS_FELLED, {"F1"})

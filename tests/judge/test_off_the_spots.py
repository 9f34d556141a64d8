"""A kubb that landed upright between the spots of two kubbs set up again (WS basic rule 14, "set
them up again at the position where they stood") is moved off them: straight away until they
touch, or, where the gap is narrower than a kubb, the least way to where it overlaps no piece's
base (kubb3d's decision, docs/rules.md "Raising next to a disturbed kubb"; docs/mutation.md,
the survivor `off_the_spots` 61)."""

from __future__ import annotations

import math
import re

import pytest
from helpers import HX, HZ, kubb, snap
from hypothesis import given, settings
from hypothesis import strategies as st

from kubb3d.judge import Consequence, InkastContext, Pose, judge_inkast
from kubb3d.judge.geometry import overlap_depth, square
from kubb3d.judge.params import DEFAULT_PARAMS

TOL = DEFAULT_PARAMS.block_tol


def _raise_between(left: tuple[float, float], right: tuple[float, float], landed: tuple[float, float],
                   ids: tuple[str, str] = ("A3", "A4")):
    """The ruling on B1, landed upright at ``landed``, with ``ids`` knocked over from their spots
    ``left`` and ``right`` (lying 0.6 m further from the long axis) and set up again there."""
    away = math.copysign(0.6, landed[1]) if landed[1] else 0.6
    lying = [kubb(pid, spot[0], spot[1] + away, lying_yaw_deg=0, side="A") for pid, spot in zip(ids, (left, right))]
    ctx = InkastContext(ruleset="wikinger", inkasting_side="B", inkasted=("B1",),
                        before={ids[0]: Pose((*left, HZ)), ids[1]: Pose((*right, HZ))})
    judgement = judge_inkast(snap(kubb("B1", *landed, side="A"), *lying), ctx)
    return judgement.ruling("B1")


def _depth(pose: Pose, spot: tuple[float, float]) -> float:
    return overlap_depth(square(pose.position[:2], (1.0, 0.0), HX), square(spot, (1.0, 0.0), HX))


def test_a_kubb_landed_upright_in_a_gap_narrower_than_a_kubb_is_moved_the_least_way_clear_of_both_spots():
    """The gap between A3's and A4's bases is 5 cm, the kubb 7 cm wide: no move along x clears
    both, so the least move is along y by a kubb's width less the touching tolerance, towards the
    long axis (y = 0), and the reason names that distance, not "moved off it until they touch"."""
    a3, a4, landed = (-1.06, 1.0), (-0.94, 1.0), (-1.0, 1.0)
    ruling = _raise_between(a3, a4, landed)
    assert ruling.valid and ruling.consequence is Consequence.RAISE_HERE
    pose = ruling.raised_pose
    assert _depth(pose, a3) <= TOL and _depth(pose, a4) <= TOL
    assert max(_depth(pose, a3), _depth(pose, a4)) == pytest.approx(TOL, abs=1e-6)  # they touch
    assert pose.position[:2] == pytest.approx((-1.0, 1.0 - (2 * HX - TOL)), abs=1e-6)
    assert str(ruling.reason) == (
        "B1 is valid and is not tipped: it landed upright on its base where A3 stands, and no straight move off A3 "
        "clears the pieces there, so it is moved the least way, 0.07 m, until it only touches them; it stands at "
        "(-1.00, 0.93) m."
    )


@settings(max_examples=100, deadline=None)
@given(
    gap=st.floats(0.02, 0.15),
    x=st.floats(-3.0, -0.5),
    y=st.floats(0.3, 2.0),
    offset=st.floats(-0.5, 0.5),
    dy=st.sampled_from([0.0, 0.01, -0.02, 0.04]),
)
def test_a_kubb_between_two_spots_overlaps_neither_mirrored_and_with_the_ids_swapped(gap, x, y, offset, dy):
    """For gaps narrower and wider than a kubb and any landing within reach of both spots: the
    raised base overlaps neither spot (by more than the judge's ``block_tol``); mirrored (y → −y)
    it is raised at the mirror; with the two neighbours' ids swapped at the same place; where the
    gap is narrower than a kubb and it landed in the row of the spots, it is moved the least way
    and the reason says how far."""
    left, right = (x - gap / 2 - HX, y), (x + gap / 2 + HX, y)
    landed = (x + offset * gap, y + dy)
    ruling = _raise_between(left, right, landed)
    mirrored = _raise_between((left[0], -y), (right[0], -y), (landed[0], -landed[1]))
    swapped = _raise_between(left, right, landed, ids=("A4", "A3"))
    for r in (ruling, swapped):
        assert _depth(r.raised_pose, left) <= TOL and _depth(r.raised_pose, right) <= TOL
    assert _depth(mirrored.raised_pose, (left[0], -y)) <= TOL and _depth(mirrored.raised_pose, (right[0], -y)) <= TOL
    cx, cy = ruling.raised_pose.position[:2]
    assert mirrored.raised_pose.position[:2] == pytest.approx((cx, -cy), abs=1e-6)
    assert swapped.raised_pose.position[:2] == pytest.approx((cx, cy), abs=1e-6)
    moved = math.hypot(cx - landed[0], cy - landed[1])
    least = re.search(r"moved the least way, ([0-9.]+) m", str(ruling.reason))
    if least:
        assert float(least.group(1)) == pytest.approx(moved, abs=0.005 + 1e-9)
    if gap < 2 * HX - 2 * TOL and dy == 0.0:
        assert least is not None and moved == pytest.approx(2 * HX - TOL, abs=1e-6)

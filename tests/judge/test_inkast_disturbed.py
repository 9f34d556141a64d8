"""Pieces an inkast disturbs (kubb3d.judge.raising): WS basic rule 14 "If other kubbs are knocked
over or moved while kubbs are being thrown back, the referee must immediately set them up again
at the position where they stood", at the judge's ``moved_tol`` (issue #37 item 5: these tests
kill mutants that survived the fast tests; docs/mutation.md)."""

from __future__ import annotations

import pytest
from helpers import HX, HZ, king, kubb, snap

from kubb3d.judge import Consequence, InkastContext, Pose, judge_inkast
from kubb3d.judge.geometry import overlap_depth, square
from kubb3d.judge.params import DEFAULT_PARAMS


@pytest.mark.parametrize("ruleset", ["dm", "wikinger"])
@pytest.mark.parametrize("factor, set_up_again", [(1.5, True), (0.5, False)])
def test_a_standing_kubb_moved_past_the_tolerance_is_set_up_where_it_stood(ruleset, factor, set_up_again):
    # WS basic rule 14 (boundary): "set them up again at the position where they stood"
    before = {"A3": Pose((-1.0, 1.0, HZ))}
    moved = kubb("A3", -1.0 + factor * DEFAULT_PARAMS.moved_tol, 1.0, side="A")
    thrown = kubb("B1", -2.0, -1.0, lying_yaw_deg=0, side="A")
    judgement = judge_inkast(snap(thrown, moved), InkastContext(ruleset=ruleset, inkasting_side="B",
                                                                inkasted=("B1",), before=before))
    rulings = [r for r in judgement.rulings if r.piece == "A3"]
    if not set_up_again:
        assert rulings == [] and "A3" not in judgement.raise_now
        return
    (ruling,) = rulings
    assert ruling.consequence is Consequence.RAISE_AT_ORIGINAL_SPOT and ruling.raised_pose == before["A3"]
    assert ruling.reason == "A3 was moved by an inkasted kubb, so it is set up again where it stood."
    assert judgement.raise_now == {"A3"}


def test_an_inkasted_kubb_that_fells_the_king_loses_and_the_rulings_come_king_first():
    """DM §1: "Wird der König vorzeitig mit Kubb oder Wurfholz zu Fall gebracht, hat die
    gegnerische Mannschaft gewonnen." The rulings list the king, then the inkasted kubbs in
    throwing order, then the pieces they disturbed."""
    before = {"A3": Pose((-1.0, 1.0, HZ)), "king": Pose((0.0, 0.0, 0.15))}
    pieces = [kubb("B2", -2.0, -1.0, lying_yaw_deg=0, side="A"), kubb("B1", -1.5, -1.5, lying_yaw_deg=0, side="A"),
              kubb("A3", -0.97, 1.0, side="A"), king(lying=True)]
    judgement = judge_inkast(snap(*pieces), InkastContext(inkasting_side="B", inkasted=("B2", "B1"), before=before))
    assert [r.piece for r in judgement.rulings] == ["king", "B2", "B1", "A3"]
    king_ruling = judgement.ruling("king")
    assert king_ruling.consequence is Consequence.GAME_LOST and (judgement.winner, judgement.loser) == ("A", "B")
    assert king_ruling.reason.startswith(
        "An inkasted kubb of side B felled the king before all kubbs were down, so side B loses.")
    # no hand check decides an inkast: each ruling's data says false, the king's included, not null
    assert [r.to_dict()["hand_check"] for r in judgement.rulings] == [False, False, False, False]


def test_a_kubb_raised_onto_the_spot_of_a_kubb_set_up_again_is_moved_straight_off_it():
    """WS basic rule 14: A3, knocked over by the inkast, is set up again where it stood; B1, tipped
    up over its short edge, would stand 1 mm into that spot, so it is moved straight away from
    the spot's centre until the two only touch (kubb3d's decision), and stays valid. The same
    throw with A3 having stood elsewhere raises B1 where it tips."""
    knocked = kubb("A3", -1.0, 1.6, lying_yaw_deg=0, side="A")
    thrown = kubb("B1", -0.821, 1.026, lying_yaw_deg=0, side="A")
    spot = (-1.0, 1.0)

    def raised(stood_at):
        ctx = InkastContext(ruleset="wikinger", inkasting_side="B", inkasted=("B1",),
                            before={"A3": Pose((*stood_at, HZ))})
        return judge_inkast(snap(thrown, knocked), ctx).ruling("B1")

    free, pushed = raised((-1.0, 1.6)), raised(spot)
    assert free.consequence is pushed.consequence is Consequence.RAISE_HERE
    assert free.valid and pushed.valid
    assert "spot" not in free.reason
    assert pushed.reason.endswith(": it would stand on A3's spot, so it is moved off it until they touch.")
    assert pushed.raised_pose.quat_xyzw == free.raised_pose.quat_xyzw
    assert pushed.raised_pose.position[2] == free.raised_pose.position[2]

    def base(pose):
        return square(pose.position[:2], (1.0, 0.0), HX)

    a3 = square(spot, (1.0, 0.0), HX)
    tol = DEFAULT_PARAMS.block_tol
    assert overlap_depth(base(free.raised_pose), a3) > tol  # where it tips it stands on the spot
    assert -tol <= overlap_depth(base(pushed.raised_pose), a3) <= tol  # moved off: they touch
    # moved straight away from the spot's centre
    away = (free.raised_pose.position[0] - spot[0], free.raised_pose.position[1] - spot[1])
    step = (pushed.raised_pose.position[0] - free.raised_pose.position[0],
            pushed.raised_pose.position[1] - free.raised_pose.position[1])
    assert away[0] * step[1] - away[1] * step[0] == pytest.approx(0.0, abs=1e-12)
    assert away[0] * step[0] + away[1] * step[1] > 0


@pytest.mark.parametrize("half", ["A", "B"])
def test_a_kubb_landed_upright_exactly_on_a_spot_is_moved_off_it_towards_the_end_of_its_half(half):
    """A kubb landed upright with its centre exactly on the spot where a kubb is set up again has
    no direction away from it: it is moved away from the centre line, towards the end of the half
    it is in, until the two touch (kubb3d's decision; in either half, so a side-swapped inkast is
    ruled the mirror way), not divided by a zero distance. Landed on a free spot it stays where it
    landed; the reason says which it was."""
    other = "B" if half == "A" else "A"
    sx = -1.0 if half == "A" else 1.0  # the end of the half
    knocked = kubb(f"{half}3", sx, 1.6, lying_yaw_deg=0, side=half)
    landed = kubb(f"{other}1", sx, 1.0, side=half)
    tol = DEFAULT_PARAMS.block_tol
    reasons = []
    for stood, expected in (((sx, 1.0), (sx * (1.0 + 2 * HX + tol), 1.0)), ((sx, 1.6), (sx, 1.0))):
        ctx = InkastContext(ruleset="wikinger", inkasting_side=other, inkasted=(f"{other}1",),
                            before={f"{half}3": Pose((*stood, HZ))})
        ruling = judge_inkast(snap(landed, knocked), ctx).ruling(f"{other}1")
        assert ruling.valid and ruling.consequence is Consequence.RAISE_HERE
        assert ruling.raised_pose.position[:2] == pytest.approx(expected, abs=1e-9), stood
        reasons.append(str(ruling.reason))
    assert reasons == [
        f"{other}1 is valid and is not tipped: it landed upright on its base where {half}3 stands, so it is moved off "
        f"{half}3 until they touch; it stands at ({sx * 1.07:.2f}, 1.00) m.",
        f"{other}1 is valid and is not tipped, as it landed upright on its base; it stays standing where it is, at "
        f"({sx:.2f}, 1.00) m.",
    ]

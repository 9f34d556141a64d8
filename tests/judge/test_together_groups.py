"""kubb3d.judge.together.groups: the lying kubbs of one inkast are searched together only where
their reaches meet, directly or through another kubb, and apart otherwise."""

from __future__ import annotations

from helpers import kubb, snap

from kubb3d.judge import InkastContext
from kubb3d.judge.analysis import ContactIndex
from kubb3d.judge.raising import _RaisingPlan
from kubb3d.judge.rulebook import get_rulebook
from kubb3d.judge.together import groups, reach


def _plan(kubbs):
    sn = snap(*kubbs)
    ctx = InkastContext(inkasting_side="B", inkasted=tuple(k.id for k in kubbs))
    book = get_rulebook(ctx.ruleset)
    return _RaisingPlan(sn, ctx, book, book.params, ContactIndex(sn), [k.id for k in kubbs])


def test_kubbs_whose_reaches_meet_through_another_are_one_group_and_a_far_one_its_own():
    """K0 and K3 lie 0.30 m apart, too far for their reaches to meet, but K1 between them meets
    both: the three are one group; K2, a metre and more away, is a group of its own, whatever the
    order the kubbs are given in (each group in that order, the groups in the order of their
    first kubb)."""
    kubbs = [kubb("K0", -2.0, 0.0, lying_yaw_deg=0, side="A"), kubb("K1", -2.0, 0.15, lying_yaw_deg=0, side="A"),
             kubb("K2", -1.0, -1.5, lying_yaw_deg=0, side="A"), kubb("K3", -2.0, 0.30, lying_yaw_deg=0, side="A")]
    plan = _plan(kubbs)
    assert reach(plan, "K0")[3] < reach(plan, "K3")[1]  # K0's and K3's reaches do not meet by themselves
    assert groups(plan, ["K0", "K1", "K2", "K3"]) == [["K0", "K1", "K3"], ["K2"]]
    assert groups(plan, ["K2", "K3", "K0", "K1"]) == [["K2"], ["K3", "K0", "K1"]]
    assert groups(plan, ["K0", "K2", "K3"]) == [["K0"], ["K2"], ["K3"]]


def test_a_kubb_lying_past_either_baseline_can_be_neither_valid_nor_inside():
    """together.bound is "at most (valid, wholly inside)" a lying kubb can be: lying 0.2 m past
    the baseline of the half it is raised into, none of its tipping squares can be slid inside,
    (0, 0); 0.2 m inside, (1, 1); the same in A's half and, mirrored, in B's."""
    from kubb3d.judge.together import bound

    found = {}
    for inkasting, x in (("A", 4.2), ("A", 3.8), ("B", -4.2), ("B", -3.8)):
        lying = kubb("K0", x, 0.0, lying_yaw_deg=0, side="B" if inkasting == "A" else "A")
        sn = snap(lying)
        ctx = InkastContext(inkasting_side=inkasting, inkasted=("K0",))
        book = get_rulebook(ctx.ruleset)
        found[x] = bound(_RaisingPlan(sn, ctx, book, book.params, ContactIndex(sn), ["K0"]), "K0", ["K0"])
    assert found == {4.2: (0, 0), 3.8: (1, 1), -4.2: (0, 0), -3.8: (1, 1)}


def _square(x0, y0, side):
    return [(x0, y0), (x0 + side, y0), (x0 + side, y0 + side), (x0, y0 + side)]


def test_a_tipping_square_slid_back_a_kubb_width_may_cross_a_line_by_line_tol_but_not_more():
    """together.bound: "(1, 1) if one of its tipping squares, slid back towards the kubb further than
    those pieces already push it, fits inside the half", a raised base crossing a line by at most
    ``line_tol`` (JudgeParams: "a raised kubb's base may cross a line by at most this much"). A kubb
    raised into A's half whose one tipping square (given by hand, nothing pushing it) still lies
    5 mm past the sideline y = +half width after sliding back a kubb's width and twice
    ``block_tol``, or 5 mm past the centre line: (1, 1) with ``line_tol`` 1 cm, (0, 0) with none;
    the kubb on the square's near side, so the square slides straight back across the line."""
    from dataclasses import replace
    from types import SimpleNamespace

    from kubb3d.judge.together import bound

    found = []
    for tol in (0.01, 0.0):
        for across in ("sideline", "centre line"):
            plan = _plan([kubb("K0", -2.0, 0.0, lying_yaw_deg=0, side="A")])
            assert plan.half_side == "A"  # x from -length/2 to 0
            plan.params = replace(plan.params, line_tol=tol)
            width = 2 * plan.pieces["K0"].half_extents[0]
            past = width + 2 * plan.params.block_tol + 0.005  # the square's far side past the line
            hw = plan.pitch.half_width
            if across == "sideline":  # tipped towards +y, across y = +hw
                sq = _square(-2.0 - width / 2, hw + past - width, width)
                centre = (-2.0, hw + past - width - 0.04, 0.035)
            else:  # tipped towards +x, across x = 0
                sq = _square(past - width, -width / 2, width)
                centre = (past - width - 0.04, 0.0, 0.035)
            plan.pieces["K0"] = replace(plan.pieces["K0"], position=centre)
            plan.raisings = lambda kid: [(None, False)]
            plan.options = {"K0": [SimpleNamespace(ideal=sq, base=sq)]}
            found.append(bound(plan, "K0", ["K0"]))
    assert found == [(1, 1), (1, 1), (0, 0), (0, 0)]

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

"""Decisions the rule books leave open, as named referee options with defaults (issue #12)."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest

from helpers import kubb, snap
from kubb3d.judge import Consequence, Pose, ThrowContext, analyse, judge_throw
from kubb3d.judge.options import BY_NAME, OPTIONS, option
from kubb3d.judge.rulings import Status
from kubb3d.rules import MatchState, get_ruleset
from kubb3d.rules.core import KubbInfo


def test_every_option_has_a_default_for_every_ruleset():
    assert {o.name for o in OPTIONS} >= {
        "own_half_knock",
        "raise_order",
        "advance_line",
        "penalty_distance",
        "first_foul_warning",
        "max_tilt_deg",
        "settle_s",
        "baseline_after_field",
        "standing_outside",
    }
    for o in OPTIONS:
        assert set(o.defaults) == {"dm", "wikinger", "kubbuteo"}, o.name
        assert ":" in o.where, o.name
    assert option(None, "max_tilt_deg", "dm") == 30.0
    assert option(None, "max_tilt_deg", "wikinger") is None
    assert option({"own_half_knock": "raise at end of round"}, "own_half_knock", "dm") == "raise at end of round"
    with pytest.raises(ValueError, match="must be one of"):
        option({"own_half_knock": "ignore"}, "own_half_knock", "dm")
    with pytest.raises(ValueError, match="unknown referee option"):
        option({}, "nope", "dm")


def test_own_half_kubb_moved_by_a_throw_is_stood_up_again():
    # A's throw knocked A's own field kubb F1 from (-1.5, 0.0) to lying at (-1.5, 0.2)
    f1 = kubb("F1", -1.5, 0.2, lying_yaw_deg=90, side="A")
    spot = Pose((-1.5, 0.0, 0.075))
    ctx = ThrowContext(thrower="A", own_standing={"F1": spot})
    j = judge_throw(snap(f1, kubb("B1", 4.0, 0.0)), ctx)
    r = j.ruling("F1")
    assert r.consequence is Consequence.RAISE_AT_ORIGINAL_SPOT and r.raised_pose == spot
    assert r.rules == ("DM §5", "kubb3d decision: own half")
    assert "F1" in j.raise_now and "F1" not in j.felled
    later = judge_throw(
        snap(f1, kubb("B1", 4.0, 0.0)),
        ThrowContext(thrower="A", own_standing={"F1": spot}, options={"own_half_knock": "raise at end of round"}),
    )
    assert "F1" in later.raise_again and "F1" not in later.raise_now
    # the reason says when, as the option and the judgement do
    assert r.reason.endswith("it is stood up again where it stood, at once.")
    assert later.ruling("F1").reason.endswith(
        "it is stood up again where it stood, at the end of the round. The referee option "
        "own_half_knock=raise_at_end_of_round decides this, not the default raise_now (kubb3d rules show dm).")
    assert later.ruling("F1").rules[-1] == "option own_half_knock=raise_at_end_of_round"
    # an own kubb the throw did not move gets no ruling
    still = judge_throw(snap(kubb("F1", -1.5, 0.0, side="A"), kubb("B1", 4.0, 0.0)), ctx)
    with pytest.raises(KeyError):
        still.ruling("F1")


def _turned(q, by):
    """The quaternion (x, y, z, w) of the pose q followed by the body turn ``by`` (Hamilton product q·by)."""
    x1, y1, z1, w1 = q
    x2, y2, z2, w2 = by
    return (w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2, w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2, w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2)


def test_a_kubb_across_the_sideline_is_set_back_by_the_end_it_stands_on_however_its_pose_is_written():
    """A kubb is the same box either way up: standing tilted 10° towards the sideline y = −2.5 with
    its ground edge 1 cm beyond it, it is set back 1 cm whether its pose says its −z end is down,
    or its +z end (the body turned 180° about its own x or y axis), or the quaternion's sign is
    flipped. Its top end leans 2·HZ·sin 10° further out; that is not what stands on the ground."""
    hx = 0.035
    upright = kubb("B1", 2.0, -2.5 + hx - 0.01, tilt_deg=10.0, toward_deg=-90.0)
    q = upright.quat_xyzw
    poses = [q, tuple(-c for c in q)]
    for flip in ((1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0)):
        turned = _turned(q, flip)
        poses += [turned, tuple(-c for c in turned)]
    assert any(c[1] < -0.5 for c in poses) and any(c[1] > 0.5 for c in poses)  # both signs of a large y part
    rulings = []
    for quat in poses:
        piece = dataclasses.replace(upright, quat_xyzw=quat)
        r = judge_throw(snap(piece), ThrowContext(thrower="A")).ruling("B1")
        assert r.consequence is Consequence.SET_INSIDE, quat
        rulings.append((r.raised_pose.position[1] - upright.position[1], r.reason))
    for moved, reason in rulings:
        assert moved == pytest.approx(0.01, abs=1e-9)
        assert reason == ("B1 still stands but was pushed 1.0 cm across the sideline, so it is set back just inside "
                          "the field (kubb3d's decision).")


def test_standing_kubb_across_the_sideline_option():
    s = snap(kubb("B1", 2.0, -2.56))
    r = judge_throw(s, ThrowContext(thrower="A")).ruling("B1")
    assert r.status is Status.STANDING and r.consequence is Consequence.SET_INSIDE
    assert r.raised_pose.position[1] == pytest.approx(-2.5 + 0.035, abs=1e-6)
    # the reason gives how far it was out, the distance it is moved back; the hand check is the analysis's
    moved_cm = (r.raised_pose.position[1] - s.pieces["B1"].position[1]) * 100
    assert r.reason == (f"B1 still stands but was pushed {moved_cm:.1f} cm across the sideline, so it is set back "
                        "just inside the field (kubb3d's decision).")
    assert r.hand_check is analyse(s, "B1").hand_check is False
    stays = judge_throw(s, ThrowContext(thrower="A", options={"standing_outside": "stays"})).ruling("B1")
    assert stays.consequence is Consequence.NONE
    inside = judge_throw(snap(kubb("B1", 2.0, -2.40)), ThrowContext(thrower="A")).ruling("B1")
    assert inside.consequence is Consequence.NONE


def _ws_state(ruleset):
    st = MatchState(ruleset, ("T1", "T2"))
    from kubb3d.judge.rulings import Pose as P

    for side in "AB":
        for kid, (x, y) in ruleset.pitch.baseline_kubb_positions(side).items():
            st.kubbs[kid] = KubbInfo(kid, side, True, True, P((x, y, 0.075)))
    return st


def test_ws_penalty_kubb_may_not_overlap_a_baseline_kubb():
    rs = get_ruleset("wikinger")
    st = _ws_state(rs)
    assert "overlap B3" in rs.placement_error(st, "A1", "B", (3.70, 0.0))
    assert rs.placement_error(st, "A1", "B", (3.60, 0.0)) is None
    st.kubbs["A2"] = KubbInfo(
        "A2", "B", False, True, Pose((2.0, 0.5, 0.075), (0.0, 0.0, 0.3826834, 0.9238795))
    )  # turned 45°
    assert "overlap A2" in rs.placement_error(st, "A1", "B", (2.0, 0.57))  # clear of its sides, not of its corner
    assert rs.placement_error(st, "A1", "B", (2.0, 0.59)) is None


def test_penalty_distance_centre_or_gap():
    st = _ws_state(get_ruleset("wikinger"))
    assert get_ruleset("wikinger").placement_error(st, "A1", "B", (0.31, 0.0)) is None
    err = get_ruleset("wikinger", penalty_distance="gap").placement_error(st, "A1", "B", (0.31, 0.0))
    assert err is not None and "0.38 m" in err


def test_advance_line_through_centre_or_front_edge():
    for name, want in (("centre", -1.0), ("front edge", -1.0 + 0.03)):
        rs = get_ruleset("dm", advance_line=name)
        st = _ws_state(rs)
        st.kubbs["B1"] = KubbInfo("B1", "A", False, True, Pose((-1.0, 0.5, 0.075)))
        assert rs.throwing_line(st, "A") == pytest.approx(want)


def test_rules_show_lists_the_options(cli):
    r = cli("rules", "show", "dm", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    got = {o["option"]: o["default"] for o in doc["options"]}
    assert got["own_half_knock"] == "raise now" and got["max_tilt_deg"] == 30.0
    assert list(got) == [o.name for o in OPTIONS]
    r = cli("rules", "show", "dm")
    assert r.returncode == 0 and "own_half_knock" in r.stdout
    # readable in an 80-column pipe: each option's sentence in one piece (a seven-column table
    # had cut it into words a column apart)
    text = " ".join(r.stdout.split())
    assert all(" ".join(o.question.split()) in text for o in OPTIONS), r.stdout
    bad = cli("rules", "show", "chess")
    assert bad.returncode == 2 and bad.stderr.startswith("error: unknown ruleset")
    assert BY_NAME["penalty_distance"].defaults["wikinger"] == "centre"


def test_each_ruleset_cites_its_own_seed_for_accidents():
    # a clause handled by the branch written for another ruleset is a bug (issue #12)
    from kubb3d.judge import judge_accident

    s = snap(kubb("B1", 2.0, 0.0))
    got = {rs: judge_accident(s, {"B1"}, {}, rs)[0].rules for rs in ("dm", "wikinger", "kubbuteo")}
    assert got == {"dm": ("DM §5",), "wikinger": ("WS Tie-Break After the Group Stage",), "kubbuteo": ("KT rules",)}


def test_raise_order_decides_which_kubb_gets_a_contested_square():
    # A inkasted K1 then K2 into half B; both lie along x with a 7 cm gap between them, and
    # standing S blocks K2's square towards B's baseline, so K1 and K2 both want the gap
    # DM §11 organiser (applied): „hat in allen Belangen der Veranstalter das letzte Wort“
    from kubb3d.judge import InkastContext, judge_inkast

    s = snap(kubb("K1", 2.0, 1.0, lying_yaw_deg=0), kubb("K2", 2.221, 1.0, lying_yaw_deg=0), kubb("S", 2.332, 1.0))
    ctx = dict(ruleset="dm", inkasting_side="A", inkasted=("K1", "K2"), before={"S": Pose((2.332, 1.0, 0.075))})
    thrown = judge_inkast(s, InkastContext(**ctx)).raised
    nearest = judge_inkast(s, InkastContext(**ctx, options={"raise_order": "nearest baseline first"})).raised
    # in throwing order K1 takes the gap; nearest to B's baseline (x = 4) first, K2 does and
    # K1 is tipped the other way
    assert thrown["K1"].position[0] == pytest.approx(2.110, abs=2e-3)
    assert nearest["K2"].position[0] == pytest.approx(2.110, abs=2e-3)
    assert nearest["K1"].position[0] == pytest.approx(1.890, abs=2e-3)
    with pytest.raises(ValueError, match="raise_order"):
        InkastContext(**ctx, options={"raise_order": "random"})


def test_first_foul_is_only_warned_when_the_option_is_on():
    # B3 fell to a throw with a foot fault: penalised by default (raised again), warned as the
    # thrower's first foul with first_foul_warning (counts), penalised again at the second foul
    # DM §5 warning first (applied): „zunächst eine Verwarnung auszusprechen“
    s = snap(kubb("B3", 4.0, 0.3, lying_yaw_deg=0))
    foul = dict(thrower="A", legal=False, violations=(("DM §5", "foot fault"),))
    r = judge_throw(s, ThrowContext(**foul)).ruling("B3")
    assert r.consequence is Consequence.RAISE_AT_ORIGINAL_SPOT
    j = judge_throw(s, ThrowContext(**foul, options={"first_foul_warning": True}))
    assert j.warned and j.felled == {"B3"}
    assert j.ruling("B3").consequence is Consequence.COUNTS_AS_FELLED and "only warned" in j.ruling("B3").reason
    second = judge_throw(s, ThrowContext(**foul, options={"first_foul_warning": True}, earlier_fouls=1))
    assert not second.warned and second.ruling("B3").consequence is Consequence.RAISE_AT_ORIGINAL_SPOT
    # no foul, no warning
    assert not judge_throw(s, ThrowContext(thrower="A", options={"first_foul_warning": True})).warned


def test_baseline_kubb_after_the_last_field_kubb_in_contact_order():
    # one baton felled field kubb F (standing when the throw began) and then baseline kubb B3
    s = snap(kubb("F", 2.0, 0.0, lying_yaw_deg=0), kubb("B3", 4.0, 0.0, lying_yaw_deg=0))
    ctx = dict(thrower="A", field_kubbs=frozenset({"F"}), fall_order=("F", "B3"))
    assert judge_throw(s, ThrowContext(**ctx)).ruling("B3").consequence is Consequence.RAISE_AT_ORIGINAL_SPOT
    by_order = judge_throw(s, ThrowContext(**ctx, options={"baseline_after_field": "contact order"}))
    assert by_order.felled == {"F", "B3"}
    assert by_order.ruling("B3").reason.endswith(  # one: no "all of them"; the option that decided it named
        ". Field kubb F stood when the throw began, but fell before it did, so it counts. The referee option "
        "baseline_after_field=contact_order decides this, not the default throw_start (kubb3d rules show dm).")
    # B3 went first: it fell while F still stood, so it does not count in either reading
    reversed_ctx = ThrowContext(**{**ctx, "fall_order": ("B3", "F")}, options={"baseline_after_field": "contact order"})
    first = judge_throw(s, reversed_ctx)
    assert first.ruling("B3").consequence is Consequence.RAISE_AT_ORIGINAL_SPOT and first.felled == {"F"}


def test_a_field_kubb_that_only_rocked_before_the_baseline_kubb_did_not_fall_before_it():
    """``contact order`` counts a baseline kubb after every standing field kubb fell first. F
    went past its tipping angle before B3 in the trajectory but rocked back (40°, never over)
    and stands: DM §5 „Überschlag“ makes it no fall, so B3 fell while F stood; turned over
    (120°) and standing again, F fell first and B3 counts."""
    order = dict(thrower="A", field_kubbs=frozenset({"F"}), fall_order=("F", "B3"),
                 options={"baseline_after_field": "contact order"})
    b3 = kubb("B3", 4.0, 0.0, lying_yaw_deg=0)
    rocked = judge_throw(snap(kubb("F", 2.0, 0.0, max_tilt_deg=40.0), b3), ThrowContext(**order))
    assert rocked.ruling("F").consequence is Consequence.NONE and rocked.felled == set()
    assert rocked.ruling("B3").consequence is Consequence.RAISE_AT_ORIGINAL_SPOT
    over = judge_throw(snap(kubb("F", 2.0, 0.0, max_tilt_deg=120.0), b3), ThrowContext(**order))
    assert over.felled == {"F", "B3"}


def test_fall_order_from_a_trajectory():
    import numpy as np

    from kubb3d.throw import Trajectory

    up, c, s = (0.0, 0.0, 0.0, 1.0), math.cos(math.radians(20)), math.sin(math.radians(20))
    tipped = (0.0, s, 0.0, c)  # long axis turned 40° about y
    def rows(*qs):
        return np.array([(0.0, 0.0, 0.075, *q) for q in qs])

    poses = {
        "B3": rows(up, up, tipped),
        "F": rows(up, tipped, tipped),
        "baton1": rows(up, tipped, up),
        "B1": rows(up, up, up),
    }
    t = Trajectory(np.arange(3.0), poses)
    tip = math.radians(25.0)
    assert t.fall_order({"B3": tip, "F": tip, "B1": tip}) == ("F", "B3")


@pytest.mark.parametrize("ruleset", ["wikinger", "dm"])
@pytest.mark.parametrize("edge", ["back edge", "front edge", "centre"])
@pytest.mark.parametrize("yaw_deg", [0.0, 30.0, 45.0, 96.4, -51.8])
def test_advance_line_on_the_edge_of_a_turned_kubb(ruleset, edge, yaw_deg):
    # WS basic rule 7 "The tip of the foot must stay behind the frontmost pawn": a field kubb
    # turned about the vertical reaches further back (and forward) than half its width from its
    # centre; the line lies on its base's rearmost (foremost) corner. The old line used half the
    # width whatever the yaw: in WS play (docs/examinations/2026-12-07-ws-play.md) the thrower
    # stood up to (√2 − 1) half widths in front of a turned kubb's back corner (seed 4 call 42:
    # 3.7 mm, yaw 96.4°).
    rs = get_ruleset(ruleset, advance_line=edge)
    st = _ws_state(rs)
    yaw = math.radians(yaw_deg)
    q = (0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2))
    from kubb3d.equipment import get_set

    hw = get_set(rs.equipment).kubb.width / 2
    reach = hw * (abs(math.cos(yaw)) + abs(math.sin(yaw)))  # half the square's extent along x
    st.kubbs["B1"] = KubbInfo("B1", "A", False, True, Pose((-1.0, 0.5, 0.075), q))
    want = {"back edge": -1.0 - reach, "front edge": -1.0 + reach, "centre": -1.0}[edge]
    assert rs.throwing_line(st, "A") == pytest.approx(want, abs=1e-9)
    st.kubbs["A1"] = KubbInfo("A1", "B", False, True, Pose((1.0, 0.5, 0.075), q))
    assert rs.throwing_line(st, "B") == pytest.approx(-want, abs=1e-9)

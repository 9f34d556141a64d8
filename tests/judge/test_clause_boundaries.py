"""Clause rows of docs/rules.md that had no test on one side of their rule (issue #37 item 1).

Each test is written from the rule book's words it quotes, and shows the case on the other side of
a test that already stood (named in the row of docs/rules.md). Hand-built snapshots, no physics.
"""

from __future__ import annotations

import pytest
from helpers import HX, HZ, ground_contacts, king, kubb, snap, touch

from kubb3d.judge import (
    Consequence,
    InkastContext,
    Pose,
    Status,
    ThrowContext,
    judge_accident,
    judge_inkast,
    judge_throw,
)
from kubb3d.judge.rulebook import get_rulebook
from kubb3d.pitch import Pitch
from kubb3d.throw import FlightMetrics, Release, ThrowParams, check_legality

START = {"B3": Pose((4.0, 0.0, 0.075)), "F": Pose((1.5, 0.3, 0.075))}
STILL = FlightMetrics(max_tilt=0.0, helicopter=0.0, flight_time=None)
RELEASE = Release((-3.7, 0.0, 1.0), (6.0, 0.0, 2.0), (0.0, 5.0, 0.0), (0.0, 0.0, 0.0, 1.0))


def fouls(ruleset: str, params: ThrowParams, line_x: float | None = None) -> list[str]:
    """The rules a throw with *params* from side A breaks (no tilt, no helicopter)."""
    pitch = Pitch(8.0, 5.0) if ruleset == "dm" else Pitch(7.5, 5.0)
    rules = get_rulebook(ruleset).throw_rules
    assert rules is not None
    return [v.rule for v in check_legality(STILL, RELEASE, rules, pitch, "A", line_x, params)]


# ---- DM §5: stance and line ------------------------------------------------------------------


def test_a_foot_past_the_line_is_a_foul():
    """DM §5 line: „Das Überschreiten der Grundlinie bzw. vorverlegten Wurflinie während oder infolge
    der Wurfbewegung ist nicht gestattet.“ A front foot 1 mm past the baseline at the release, or
    stepping 1 mm past it after the release, is a foul; on the line it is not (the boundary,
    ``test_throws.py::test_the_foot_is_judged_not_the_hand``, has the hand in front of the line)."""
    assert fouls("dm", ThrowParams(behind_line=-0.30, foot_behind_line=-0.001)) == ["DM §5"]
    assert fouls("dm", ThrowParams(behind_line=-0.30, foot_behind_line=0.20, step_after=0.201)) == ["DM §5"]
    assert fouls("dm", ThrowParams(behind_line=-0.30, foot_behind_line=0.0)) == []
    assert fouls("dm", ThrowParams(behind_line=-0.30, foot_behind_line=0.20, step_after=0.20)) == []


def test_a_foot_just_inside_the_extended_sideline_is_legal():
    """DM §5 stance: „Der Werfer muss mit beiden Füßen innerhalb der imaginär verlängerten
    Seitenlinien stehen.“ The front foot on the extended sideline (|y| = 2.5 m of a 5 m pitch) is
    inside, lines included; 1 mm further out it is a foul."""
    assert fouls("dm", ThrowParams(lateral=2.3, foot_lateral=2.5)) == []
    assert fouls("dm", ThrowParams(lateral=-2.3, foot_lateral=-2.5)) == []
    assert fouls("dm", ThrowParams(lateral=2.3, foot_lateral=2.501)) == ["DM §5"]


def test_ws_a_toe_just_behind_the_frontmost_pawn_is_legal():
    """WS basic rule 7: "Feet must not cross over. The tip of the foot must stay behind the frontmost
    pawn in one's own playing field." With the front line at x = -2 m, a toe on it is behind it,
    a toe 1 mm past it crosses over."""
    assert fouls("wikinger", ThrowParams(line_x=-2.0, behind_line=-0.3, foot_behind_line=0.0), line_x=-2.0) == []
    past = fouls("wikinger", ThrowParams(line_x=-2.0, behind_line=-0.3, foot_behind_line=-0.001), line_x=-2.0)
    assert past == ["WS basic rule 7"]


# ---- DM §5: fouls, warning, accidents --------------------------------------------------------


def test_a_legal_throws_felled_kubbs_are_inkasted_not_raised():
    """DM §5 penalty for fouls: „Sämtliche Vergehen werden bestraft, indem die jeweils gefallenen
    Kubbs wieder aufgestellt werden“. Only a foul stands the felled kubbs up again: the same kubb
    felled by a legal throw counts as felled and is not raised."""
    felled = snap(kubb("F", 1.5, 0.3, lying_yaw_deg=90))
    legal = judge_throw(felled, ThrowContext(field_kubbs=frozenset({"F"}), round_start=START))
    assert legal.ruling("F").consequence is Consequence.COUNTS_AS_FELLED
    assert legal.felled == {"F"} and legal.raise_now == frozenset()
    foul = ThrowContext(
        legal=False, violations=(("DM §5", "foot fault"),), field_kubbs=frozenset({"F"}), round_start=START
    )
    illegal = judge_throw(felled, foul)
    assert illegal.felled == frozenset() and illegal.raise_now == {"F"}


def test_a_second_foul_is_penalised_even_with_the_warning_option():
    """DM §5 warning first: „Im Interesse des Sports ist hier zunächst eine Verwarnung auszusprechen
    und einzelne Ausrutscher sind zu tolerieren.“ Only the first foul (zunächst) is warned: with the
    option on, a player's second foul stands the felled kubb up again."""
    s = snap(kubb("B3", 4.0, 0.3, lying_yaw_deg=0))
    foul = dict(thrower="A", legal=False, violations=(("DM §5", "foot fault"),), options={"first_foul_warning": True})
    for earlier in (1, 2):
        j = judge_throw(s, ThrowContext(**foul, earlier_fouls=earlier))
        assert not j.warned and j.felled == frozenset()
        assert j.ruling("B3").consequence is Consequence.RAISE_AT_ORIGINAL_SPOT
    assert judge_throw(s, ThrowContext(**foul, earlier_fouls=0)).warned


def test_a_kubb_felled_by_the_throw_is_no_accident():
    """DM §5 accidents: „Kubbs, welche durch Wind, ungünstige Bodenverhältnisse, aus Versehen oder
    ähnliche Widrigkeiten zu Fall gebracht werden, werden umgehend wieder aufgestellt.“ WS notes:
    "If a kubb is knocked over with the foot, the referee sets it up again; it does not count as
    knocked over." Both are for kubbs the throw did not fell: the same lying kubb, felled by the
    throw, counts, and is raised at once only when the match names it an accident."""
    b3 = snap(kubb("B3", 3.9, 0.0, lying_yaw_deg=0))
    for ruleset in ("dm", "wikinger"):
        thrown = judge_throw(b3, ThrowContext(ruleset=ruleset, round_start=START))
        assert thrown.ruling("B3").consequence is Consequence.COUNTS_AS_FELLED and thrown.felled == {"B3"}
        accident = judge_throw(b3, ThrowContext(ruleset=ruleset, accidents=frozenset({"B3"}), round_start=START))
        assert accident.ruling("B3").consequence is Consequence.RAISE_AT_ORIGINAL_SPOT
        assert accident.felled == frozenset() and accident.raise_now == {"B3"}


def test_ws_a_kubb_knocked_with_the_foot_is_set_up_again():
    """WS notes: "If a kubb is knocked over with the foot, the referee sets it up again; it does not
    count as knocked over." The note stands under WS's tie-break heading, which the ruling cites;
    under DM the same accident cites DM §5's accident clause."""
    b3 = snap(kubb("B3", 3.9, 0.0, lying_yaw_deg=0))
    (ws,) = judge_accident(b3, {"B3"}, START, "wikinger")
    assert ws.consequence is Consequence.RAISE_AT_ORIGINAL_SPOT and ws.raised_pose == START["B3"]
    assert ws.rules == ("WS Tie-Break After the Group Stage",)
    (dm,) = judge_accident(b3, {"B3"}, START, "dm")
    assert dm.raised_pose == START["B3"] and dm.rules == ("DM §5",)


# ---- DM §7: raising ----------------------------------------------------------------------------


def test_a_blocked_kubb_whose_free_square_would_stand_out_is_not_valid():
    """DM §7 block building: „Ist es nicht möglich einen Kubb über die komplette Länge aufzuklappen, da
    dort bereits andere Kubbs den Platz blockieren, so darf er an diese herangeklappt werden und dann
    ggf. im Aus stehen“ (Blockbau immer erlaubt). Only the blocker may put it out: B1 lies along the
    sideline with 1 cm of its width outside, a standing kubb 1 cm beyond either end. Tipped over
    either end, even with nothing in the way, its base would reach over the line, so it is not
    valid (a rethrow), blocked or not."""
    y = 2.5 - HX + 0.01
    lying = kubb("B1", -2.0, y, lying_yaw_deg=0, side="A")
    blockers = [kubb(f"A{i}", -2.0 + sign * (HZ + 0.01 + HX), 2.4, side="A") for i, sign in ((1, -1), (2, 1))]
    for pieces in ((lying, *blockers), (lying,)):
        r = judge_inkast(snap(*pieces), InkastContext(inkasting_side="B", inkasted=("B1",))).ruling("B1")
        assert r.consequence is Consequence.RETHROW and r.valid is False


def test_a_leaner_that_would_stand_out_waits_for_its_supporter():
    """DM §7 leaning inkast: „Kubbs, welche sich gegen andere Kubbs stützen und nur mit einer Kante den
    Boden berühren, sind über diese Kante zu kippen. Stehen sie dann im Aus, ist der sie zuvor
    stützende Kubb zuerst aufzustellen und der zuvor gestützte Kubb entsprechend über die andere
    Kante aufzuklappen.“ B2's ground edge is 5 cm inside the sideline y = +2.5, its body on B1:
    tipped over that edge its 7 cm base would reach 2 cm over the line, so it is tipped the other
    way, over its far end, back into the field, after B1 (the boundary of
    ``test_raising.py::test_leaning_kubb_tipped_over_ground_edge``)."""
    base = kubb("B1", -2.0, 2.3, lying_yaw_deg=0, side="A")
    lean = kubb("B2", -2.0, 2.45 + HX, tilt_deg=60, toward_deg=-90, side="A")
    contact = touch("B2", "B1", (-2.0, 2.33, 2 * HX), (0.0, 0.6, 0.8), 2.0)
    sn = snap(base, lean, contacts=[contact, *ground_contacts(lean), *ground_contacts(base)], auto_ground=False)
    j = judge_inkast(sn, InkastContext(inkasting_side="B", inkasted=("B1", "B2")))
    r = j.ruling("B2")
    assert r.consequence is Consequence.RAISE_HERE and r.valid is True
    y = r.raised_pose.position[1]
    assert y + HX <= 2.5 + 1e-9 and y < 2.45, "tipped back into the field, not over its ground edge"
    # lying flat from its ground edge (2.45) towards B1, its far end 15 cm on, tipped over that end
    assert y == pytest.approx(2.45 - 2 * HZ - HX, abs=1e-6)


def test_a_leaner_by_the_centre_line_is_tipped_back_over_its_far_end():
    """DM §7 leaning inkast, along the pitch: „Stehen sie dann im Aus, ist der sie zuvor stützende Kubb
    zuerst aufzustellen und der zuvor gestützte Kubb entsprechend über die andere Kante
    aufzuklappen.“ B2's ground edge is 5 cm short of the centre line (x = -0.05 in A's half), its
    body leaning on B1 towards A's baseline: over that edge it would stand across the line, so it is
    tipped over its far end, 15 cm back towards A's baseline."""
    base = kubb("B1", -0.16, 0.5, lying_yaw_deg=90, side="A")
    lean = kubb("B2", -0.05 + HX, 0.5, tilt_deg=60, toward_deg=180, side="A")
    contact = touch("B2", "B1", (-0.18, 0.5, 2 * HX), (0.6, 0.0, 0.8), 2.0)
    sn = snap(base, lean, contacts=[contact, *ground_contacts(lean), *ground_contacts(base)], auto_ground=False)
    r = judge_inkast(sn, InkastContext(inkasting_side="B", inkasted=("B1", "B2"))).ruling("B2")
    assert r.consequence is Consequence.RAISE_HERE and r.valid is True
    x, y = r.raised_pose.position[:2]
    assert x == pytest.approx(-0.05 - 2 * HZ - HX, abs=1e-6) and y == pytest.approx(0.5, abs=1e-6)


def _stossel(y: float):
    """B3 lying along x across B1 and B2 (lying along y, 8 cm apart in x) at height 3·HX, its long
    axis at *y*, touching no ground."""
    a = kubb("B1", -2.04, y - 0.03, lying_yaw_deg=90, side="A")
    b = kubb("B2", -1.96, y - 0.03, lying_yaw_deg=90, side="A")
    top = kubb("B3", -2.0, y, lying_yaw_deg=0, side="A", z=3 * HX)
    cs = [
        touch("B3", "B1", (-2.04, y, 2 * HX), (0, 0, 1), 2.2),
        touch("B3", "B2", (-1.96, y, 2 * HX), (0, 0, 1), 2.2),
    ]
    sn = snap(a, b, top, contacts=cs + ground_contacts(a) + ground_contacts(b), auto_ground=False)
    return judge_inkast(sn, InkastContext(inkasting_side="B", inkasted=("B1", "B2", "B3")))


def test_a_stossel_inside_is_valid_and_placed_by_the_inkaster():
    """DM §7 stößel: „Diese Kubbs sind gültig, wenn sie den Boden nicht berühren und von ihrer
    theoretischen Position aufgeklappt voll im Feld stehen würden. … Der “Stößel” wird vom
    einwerfenden Team aufgenommen und nach dem Aufstellvorgang an einer frei wählbaren, gültigen
    Position im gegnerischen Feld platziert.“"""
    j = _stossel(0.5)
    r = j.ruling("B3")
    assert (r.status, r.consequence, r.valid) == (Status.STOSSEL, Consequence.PLACE_FREELY, True)
    assert j.stossel == {"B3"}


def test_a_stossel_that_would_stand_out_is_invalid():
    """DM §7 stößel: valid only if „von ihrer theoretischen Position aufgeklappt voll im Feld stehen
    würden“. The same stack at the sideline, B3 along it with 1 cm of its width over the line: its
    theoretical raised square reaches over the line whichever end it is tipped over, so it is not
    valid: thrown again."""
    j = _stossel(2.5 - HX + 0.01)
    r = j.ruling("B3")
    assert r.status is Status.STOSSEL and r.valid is False and r.consequence is Consequence.RETHROW
    assert j.stossel == frozenset()


def test_a_kubb_may_be_raised_arbitrarily_close_to_the_king():
    """DM §7 king: „Kubbs können beliebig nah am König stehen, dürfen ihn beim Aufstellvorgang jedoch
    nicht berühren.“ A kubb lying along y 2 mm beside the king's face is raised where it lies,
    2 mm from the king: nearness alone moves nothing (the boundary of
    ``test_raising.py::test_raising_never_touches_the_king``)."""
    x = -(0.045 + 0.002 + HX)
    k = kubb("B1", x, 0.1, lying_yaw_deg=90, side="A")
    r = judge_inkast(snap(k, king()), InkastContext(inkasting_side="B", inkasted=("B1",))).ruling("B1")
    assert r.consequence is Consequence.RAISE_HERE and r.valid is True
    assert r.raised_pose.position[0] == pytest.approx(x, abs=1e-9)
    assert "king" not in r.reason


def test_a_kubb_tipped_against_a_blocker_may_stand_partly_out_under_dm_and_says_so():
    """DM §7: "Ist es nicht möglich einen Kubb über die komplette Länge aufzuklappen, da dort bereits
    andere Kubbs den Platz blockieren, so darf er an diese herangeklappt werden und dann ggf. im Aus
    stehen." A kubb lying across the sideline, its inward raising blocked by X1: tipped up against
    X1 it is valid, and its reason says it may stand partly out exactly when its base crosses the
    line. Without that clause (WS) the one whose base would cross it is not valid."""
    crossing = []
    for lying_y, blocker_y in ((2.535, 2.40), (2.52, 2.39)):
        pieces = (kubb("X1", -2.0, blocker_y, side="A"), kubb("B2", -2.0, lying_y, lying_yaw_deg=90, side="B"))
        j = judge_inkast(snap(*pieces), InkastContext(inkasting_side="B", inkasted=("B2",)))
        out = j.raised["B2"].position[1] + HX > 2.5
        crossing.append(out)
        r = j.ruling("B2")
        assert r.valid and "it is tipped up against X1" in r.reason
        assert ("it is tipped up against X1 and may stand partly out" in r.reason) == out
        ws = judge_inkast(snap(*pieces), InkastContext(ruleset="wikinger", inkasting_side="B", inkasted=("B2",)))
        assert ws.ruling("B2").valid is not out
    assert crossing == [True, False]

"""Throw rulings from hand-built snapshots: every consequence (DM §1, §5, §10; WS basic rules 7–9)."""

import math
from dataclasses import replace

import pytest
from helpers import king, kubb, leaning_pair, snap

from kubb3d.judge import Consequence, Pose, Status, ThrowContext, analyse, judge_accident, judge_throw
from kubb3d.i18n import translator
from kubb3d.pitch import opponent
from kubb3d.throw import Violation

START = {"B3": Pose((4.0, 0.0, 0.075)), "king": Pose((0.0, 0.0, 0.15)), "F": Pose((1.5, 0.2, 0.075))}


def test_standing_and_leaning_field_kubbs():
    s, l, c = leaning_pair(30)
    j = judge_throw(snap(s, l, king(), contacts=[c]), ThrowContext(field_kubbs=frozenset({"S", "L"})))
    assert j.ruling("L").consequence is Consequence.COUNTS_AS_FELLED
    assert j.ruling("L").rules == ("DM §5",)
    assert j.ruling("S").consequence is Consequence.NONE
    assert j.ruling("king").consequence is Consequence.NONE
    assert j.felled == {"L"} and j.felled_total == {"L"}
    assert j.winner is None and j.loser is None


def test_wikinger_leaning_cites_basic_rule_9():
    # WS basic rule 9 (applied): "lies against a throwing stick or another hit kubb counts as knocked over"
    s, l, c = leaning_pair(30)
    j = judge_throw(snap(s, l, contacts=[c]), ThrowContext(ruleset="wikinger", field_kubbs=frozenset({"S", "L"})))
    assert j.ruling("L").rules == ("WS basic rule 9",)


def test_baseline_kubb_felled_early_is_raised_at_end_of_round():
    field = kubb("F", 1.5, 0.2)
    b3 = kubb("B3", 3.9, 0.0, lying_yaw_deg=180)
    j = judge_throw(snap(field, b3), ThrowContext(field_kubbs=frozenset({"F"}), round_start=START))
    r = j.ruling("B3")
    assert r.consequence is Consequence.RAISE_AT_ORIGINAL_SPOT
    assert r.raised_pose == START["B3"]
    assert j.raise_again == {"B3"} and j.raise_now == frozenset() and j.felled == frozenset()


def test_baseline_kubb_counts_once_field_is_cleared():
    field = kubb("F", 1.5, 0.2, lying_yaw_deg=0)
    b3 = kubb("B3", 3.9, 0.0, lying_yaw_deg=180)
    ctx = ThrowContext(field_kubbs=frozenset({"F"}), already_felled=frozenset({"F"}))
    j = judge_throw(snap(field, b3), ctx)
    assert j.ruling("B3").consequence is Consequence.COUNTS_AS_FELLED
    assert j.felled == {"B3"} and j.felled_total == {"B3", "F"}


def test_standing_again_after_tipping_counts_as_felled():
    k = kubb("F", 1.5, 0.2, max_tilt_deg=180)
    j = judge_throw(snap(k), ThrowContext(field_kubbs=frozenset({"F"})))
    r = j.ruling("F")
    assert (r.status, r.consequence) == (Status.STANDING, Consequence.COUNTS_AS_FELLED)
    assert "turned over" in r.reason
    # DM §5 „Überschlag“: rocked 40° (past its tipping angle) but never over, it stands
    ok = judge_throw(snap(kubb("F", 1.5, 0.2, max_tilt_deg=40)), ThrowContext(field_kubbs=frozenset({"F"})))
    assert ok.ruling("F").consequence is Consequence.NONE


def test_already_felled_and_standing_again():
    j = judge_throw(
        snap(kubb("F", 1.5, 0.2)), ThrowContext(already_felled=frozenset({"F"}), field_kubbs=frozenset({"F"}))
    )
    assert j.ruling("F").consequence is Consequence.COUNTS_AS_FELLED
    assert j.felled == frozenset() and j.felled_total == {"F"}
    # a kubb felled once stays felled for the round (the ruling cites DM §5) and its reason says so
    assert j.ruling("F").reason == ("F stands again, but it was already felled earlier this round, so it still "
                                    "counts as felled.")


def test_illegal_throw_raises_felled_kubbs_now():
    ctx = ThrowContext(
        legal=False, violations=(Violation("DM §5", "tilted 41°"),), field_kubbs=frozenset({"F"}), round_start=START
    )
    j = judge_throw(snap(kubb("F", 1.5, 0.3, lying_yaw_deg=90)), ctx)
    r = j.ruling("F")
    assert r.consequence is Consequence.RAISE_AT_ORIGINAL_SPOT and r.raised_pose == START["F"]
    assert "tilted 41°" in r.reason
    assert j.raise_now == {"F"} and j.felled == frozenset()


def test_king_felled_early_loses():
    j = judge_throw(snap(king(lying=True), kubb("B3", 4.0, 0.0)), ThrowContext(thrower="A"))
    r = j.ruling("king")
    assert r.consequence is Consequence.GAME_LOST and r.rules == ("DM §1",)
    assert (j.winner, j.loser) == ("B", "A")


def test_king_throw_wins_and_illegal_king_throw_raises():
    b3 = kubb("B3", 3.9, 0.0, lying_yaw_deg=0)
    ctx = ThrowContext(thrower="A", king_throw=True, already_felled=frozenset({"B3"}), round_start=START)
    j = judge_throw(snap(king(lying=True), b3), ctx)
    assert j.ruling("king").consequence is Consequence.GAME_WON
    assert (j.winner, j.loser) == ("A", "B")
    assert "DM §10" in j.ruling("king").rules
    bad = judge_throw(
        snap(king(lying=True), b3),
        ThrowContext(
            thrower="A",
            king_throw=True,
            legal=False,
            violations=(("DM §5", "foot fault"),),
            already_felled=frozenset({"B3"}),
            round_start=START,
        ),
    )
    assert bad.ruling("king").consequence is Consequence.RAISE_AT_ORIGINAL_SPOT and bad.winner is None
    assert bad.ruling("king").raised_pose == START["king"]


def test_king_after_all_down_but_no_king_throw_is_set_up_again():
    b3 = kubb("B3", 3.9, 0.0, lying_yaw_deg=0)
    j = judge_throw(
        snap(king(lying=True), b3), ThrowContext(ruleset="wikinger", thrower="A", already_felled=frozenset({"B3"}))
    )
    r = j.ruling("king")
    assert r.consequence is Consequence.RAISE_AT_ORIGINAL_SPOT and r.rules == ("WS Tie-Break After the Group Stage",)
    assert j.winner is None


@pytest.mark.parametrize("thrower", ["A", "B"])
def test_king_after_all_down_but_no_king_throw_loses_under_kt_and_says_so_in_each_language(thrower):
    """The same throw under KT ("Knocking over the King from anywhere but the baseline will
    result in losing the game"; docs/rules.md): the thrower loses, and the ruling names
    the thrower as the loser in English and, translated, in German."""
    target = opponent(thrower)
    sign = 1.0 if target == "B" else -1.0
    b = kubb(f"{target}3", sign * 3.9, 0.0, lying_yaw_deg=0, side=target)
    ctx = ThrowContext(ruleset="kubbuteo", thrower=thrower, already_felled=frozenset({b.id}))
    j = judge_throw(snap(king(lying=True), b), ctx)
    r = j.ruling("king")
    assert r.consequence is Consequence.GAME_LOST and (j.winner, j.loser) == (target, thrower)
    assert r.rules == ("KT rules",) and f"so side {thrower} loses" in r.reason
    german = translator("de")(r.reason)
    assert f"verliert Seite {thrower}" in german and "loses" not in german and "king" not in german


def test_accidents_and_pending_raise():
    b3 = kubb("B3", 3.9, 0.0, lying_yaw_deg=0)
    j = judge_throw(snap(b3), ThrowContext(accidents=frozenset({"B3"}), round_start=START))
    assert j.ruling("B3").consequence is Consequence.RAISE_AT_ORIGINAL_SPOT and j.raise_now == {"B3"}
    # DM §5: the piece moved by accident is stood up again, and its ruling says which one
    start = START | {"A2": Pose((-4.0, 0.0, 0.075))}
    for pid, x in (("B3", 3.9), ("A2", -3.9)):
        after = snap(kubb(pid, x, 0.0, lying_yaw_deg=0, side=pid[0]))
        moved = judge_throw(after, ThrowContext(accidents=frozenset({pid}), round_start=start))
        assert moved.ruling(pid).reason.startswith(f"{pid} was moved by accident")
        # a ruling records whether a hand check decided its piece's status, as the analysis did
        assert moved.ruling(pid).hand_check is analyse(after, pid).hand_check is False
    p = judge_throw(snap(b3), ThrowContext(pending_raise=frozenset({"B3"})))
    assert p.ruling("B3").consequence is Consequence.RAISE_AT_ORIGINAL_SPOT and p.raise_now == frozenset()
    rulings = judge_accident(snap(b3), {"B3"}, START, "wikinger")
    assert rulings[0].raised_pose == START["B3"] and rulings[0].rules == ("WS Tie-Break After the Group Stage",)


def test_context_errors():
    with pytest.raises(ValueError, match="unknown ruleset"):
        ThrowContext(ruleset="kubbuteo-x")
    with pytest.raises(ValueError, match="thrower"):
        ThrowContext(thrower="C")
    with pytest.raises(ValueError, match="not in the snapshot"):
        judge_throw(snap(kubb("F", 1.0, 0.0)), ThrowContext(field_kubbs=frozenset({"nope"})))


def test_to_dict_is_json_friendly():
    import json

    s, l, c = leaning_pair(30)
    d = judge_throw(snap(s, l, contacts=[c]), ThrowContext(field_kubbs=frozenset({"S", "L"}))).to_dict()
    text = json.dumps(d, ensure_ascii=False)
    assert '"leaning"' in text and d["felled"] == ["L"]


def test_a_throw_judgement_as_data_has_every_field_under_its_name():
    """ThrowJudgement.to_dict: each field of the judgement under its own name, sets sorted: L felled
    by this throw, F felled earlier this round, both in felled_total; nothing to raise, no winner,
    and the throw was not a warned foul."""
    s, leaner, c = leaning_pair(30)
    ctx = ThrowContext(field_kubbs=frozenset({"S", "L", "F"}), already_felled=frozenset({"F"}))
    judgement = judge_throw(snap(s, leaner, kubb("F", 1.5, 0.2), contacts=[c]), ctx)
    d = judgement.to_dict()
    assert list(d) == ["event", "rulings", "felled", "felled_total", "raise_again", "raise_now", "winner", "loser",
                       "warned"]
    assert (d["event"], d["felled"], d["felled_total"], d["winner"], d["loser"], d["warned"]) == (
        "throw", ["L"], ["F", "L"], None, None, False)
    assert (d["raise_again"], d["raise_now"]) == (sorted(judgement.raise_again), sorted(judgement.raise_now))
    assert d["rulings"] == [r.to_dict() for r in judgement.rulings]


def test_a_kubb_felled_earlier_this_round_still_counts_as_felled_lying_or_standing_again():
    """DM §5: a kubb felled earlier this round counts as felled; lying, the reason says it was felled
    earlier and why it is down; stood up again, it still counts and the reason says so. Neither is
    felled by this throw."""
    ctx = ThrowContext(field_kubbs=frozenset({"F"}), already_felled=frozenset({"F"}))
    lying = judge_throw(snap(kubb("F", 1.5, 0.2, lying_yaw_deg=0)), ctx)
    standing = judge_throw(snap(kubb("F", 1.5, 0.2)), ctx)
    assert [(j.ruling("F").consequence, str(j.ruling("F").reason), j.felled, j.felled_total)
            for j in (lying, standing)] == [
        (Consequence.COUNTS_AS_FELLED, "F was already felled earlier this round. F lies on the ground.", frozenset(),
         frozenset({"F"})),
        (Consequence.COUNTS_AS_FELLED, "F stands again, but it was already felled earlier this round, so it still "
         "counts as felled.", frozenset(), frozenset({"F"})),
    ]


def test_a_king_standing_again_after_turning_over_is_felled_early_and_says_so():
    """DM §5: a piece that turned over („Überschlag“) counts as fallen even if it stands again; DM §1:
    "Wird der König vorzeitig mit Kubb oder Wurfholz zu Fall gebracht, hat die gegnerische
    Mannschaft gewonnen." The king at rest upright, knocked 120° during A's throw while B3 still
    stands, is felled early: side A loses, and the reason says the king stands again (its status)
    but turned over; rocked 40° (past its tipping angle, not over) it is no felling at all."""
    ctx = ThrowContext(thrower="A")
    knocked = judge_throw(snap(replace(king(), max_tilt=math.radians(120.0)), kubb("B3", 4.0, 0.0)), ctx)
    rocked = judge_throw(snap(replace(king(), max_tilt=math.radians(40.0)), kubb("B3", 4.0, 0.0)), ctx)
    ruling = knocked.ruling("king")
    assert (ruling.status, ruling.consequence) == (Status.STANDING, Consequence.GAME_LOST)
    assert (knocked.winner, knocked.loser) == ("B", "A")
    assert str(ruling.reason) == (
        "Side A felled the king before all kubbs of side B's half were down, so side A loses. (The king stands "
        "again but turned over (past lying) during the throw.)")
    assert rocked.ruling("king").consequence is Consequence.NONE and rocked.winner is None


def test_an_own_half_kubb_moved_by_accident_is_ruled_once_as_an_accident():
    """A2 stands in thrower A's own half and is knocked over by accident, not by the throw: DM §5 has
    it stood up again as an accident. The own-half rule (a kubb the throw moved there) does not rule
    it a second time; moved by the throw instead, only the own-half rule speaks."""
    start = START | {"A2": Pose((-4.0, 0.0, 0.075))}
    after = snap(kubb("A2", -3.9, 0.0, lying_yaw_deg=0, side="A"))
    own = {"A2": start["A2"]}
    accident = judge_throw(after, ThrowContext(thrower="A", accidents=frozenset({"A2"}), round_start=start,
                                               own_standing=own))
    thrown = judge_throw(after, ThrowContext(thrower="A", round_start=start, own_standing=own))
    assert [r.piece for r in accident.rulings] == ["A2"] and [r.piece for r in thrown.rulings] == ["A2"]
    assert accident.ruling("A2").reason.startswith("A2 was moved by accident")
    assert thrown.ruling("A2").reason.startswith("A2 stands in the thrower's own half and was moved by the throw")


def test_a_standing_king_touched_by_one_piece_names_it_and_by_two_says_other_pieces():
    """DM §1: only a felled king ends the game. A king still standing says so, and names the one
    piece that touches it, or says "other pieces" when two do, or nothing when none does."""
    from helpers import touch

    b1, b2 = kubb("B1", 0.3, 0.0, lying_yaw_deg=0), kubb("B2", -0.3, 0.0, lying_yaw_deg=0)
    on_b1 = touch("B1", "king", (0.045, 0.0, 0.05), (1.0, 0.0, 0.0), 0.5)
    on_b2 = touch("B2", "king", (-0.045, 0.0, 0.05), (-1.0, 0.0, 0.0), 0.5)
    reasons = [judge_throw(snap(king(), b1, b2, contacts=cs), ThrowContext(thrower="A")).ruling("king").reason
               for cs in ([], [on_b1], [on_b1, on_b2])]
    tail = "; only a felled king ends the game."
    assert reasons == ["The king still stands on its own" + tail,
                       "The king still stands on its own although B1 touches it" + tail,
                       "The king still stands on its own although other pieces touch it" + tail]


def test_the_hand_check_decides_a_doubtful_own_half_kubb_the_throw_moved():
    """DM §5: a doubtful case is decided by hand ("im Zweifelsfall ... per Hand überprüft"). L,
    of the thrower's own half, was moved by the throw and leans doubtfully on S: it is stood up
    again where it stood whatever its state, and its ruling gives the state the hand check found
    and says that the hand check decided; without one, no hand check is named."""
    s, l, c = leaning_pair(26.0)
    s, l = replace(s, side="A"), replace(l, side="A")
    ctx = ThrowContext(thrower="A", own_standing={"L": Pose((-4.0, 0.0, 0.075))})
    ruled = [judge_throw(snap(s, l, contacts=[c]), ctx, hand_check=hc).ruling("L")
             for hc in (None, lambda sn, pid: True, lambda sn, pid: False)]
    assert [(r.status, r.hand_check, r.consequence) for r in ruled] == [
        (Status.LEANING, False, Consequence.RAISE_AT_ORIGINAL_SPOT),
        (Status.STANDING, True, Consequence.RAISE_AT_ORIGINAL_SPOT),
        (Status.LEANING, True, Consequence.RAISE_AT_ORIGINAL_SPOT)]
    assert all(r.reason.startswith("L stands in the thrower's own half and was moved by the throw") for r in ruled)


def test_a_target_kubb_left_standing_gives_the_reason_it_stands():
    """A baseline kubb the throw left standing has nothing happen to it (DM §5), and its ruling
    says why it stands, the reason of its analysis: alone on its base, or held up by the hand
    check in a doubtful lean."""
    alone = snap(kubb("B3", 4.0, 0.0), king())
    s, l, c = leaning_pair(26.0)
    leaning = snap(s, l, king(), contacts=[c])
    for sn, pid, hc in ((alone, "B3", None), (leaning, "L", lambda snapshot, piece: True)):
        r = judge_throw(sn, ThrowContext(thrower="A"), hand_check=hc).ruling(pid)
        assert r.status is Status.STANDING and r.consequence is Consequence.NONE
        assert r.reason == analyse(sn, pid, hand_check=hc).reason
    assert judge_throw(alone, ThrowContext(thrower="A")).ruling("B3").reason == (
        "B3 stands on its base and carries its own weight without help from any other piece.")


def test_a_king_set_up_again_after_a_throw_that_does_not_count_is_set_up_at_once():
    """DM §10 and WS "End of the Game": a king felled after every kubb was down, by a throw that
    is no king throw from the baseline (WS) or by a king throw that broke a rule (DM §5), is set
    up again before the next throw, not at the end of the round: it is in ``raise_now`` as well as
    ``raise_again``, and nothing counts as felled."""
    b3 = kubb("B3", 3.9, 0.0, lying_yaw_deg=0)
    not_a_king_throw = judge_throw(
        snap(king(lying=True), b3), ThrowContext(ruleset="wikinger", thrower="A", already_felled=frozenset({"B3"}))
    )
    illegal = judge_throw(
        snap(king(lying=True), b3),
        ThrowContext(thrower="A", king_throw=True, legal=False, violations=(("DM §5", "foot fault"),),
                     already_felled=frozenset({"B3"}), round_start=START),
    )
    for j in (not_a_king_throw, illegal):
        assert j.ruling("king").consequence is Consequence.RAISE_AT_ORIGINAL_SPOT
        assert (j.raise_now, j.raise_again, j.felled) == ({"king"}, {"king"}, frozenset())


def test_the_fouls_of_an_illegal_king_throw_are_named_without_their_full_stops():
    """The reason of an illegal king throw names its fouls in brackets, each without the full stop
    its own reason ends with (DM §5, §10), joined by "; "; a reason without one is kept whole."""
    b3 = kubb("B3", 3.9, 0.0, lying_yaw_deg=0)
    ctx = ThrowContext(thrower="A", king_throw=True, legal=False, already_felled=frozenset({"B3"}), round_start=START,
                       violations=(("DM §5", "The baton was thrown overarm."), ("DM §5", "foot fault")))
    reason = judge_throw(snap(king(lying=True), b3), ctx).ruling("king").reason
    assert reason == ("The king throw was not legal (The baton was thrown overarm; foot fault), so it does not count "
                      "and the king is set up again.")


def test_a_legal_king_throw_says_who_won_and_why():
    """DM §10: the king felled by a legal king throw after every kubb of the half was down wins;
    the reason says so in full, in English and German."""
    b3 = kubb("B3", 3.9, 0.0, lying_yaw_deg=0)
    ctx = ThrowContext(thrower="B", king_throw=True, already_felled=frozenset({"B3", "A1"}), round_start=START)
    r = judge_throw(snap(king(lying=True), b3, kubb("A1", -3.9, 0.0, lying_yaw_deg=0, side="A")), ctx).ruling("king")
    assert r.reason == "Side B felled the king with a legal king throw after all kubbs were down, so side B wins."
    assert translator("de")(r.reason) == ("Seite B hat den König mit einem gültigen Königswurf umgeworfen, nachdem "
                                          "alle Kubbs gefallen waren, also gewinnt Seite B.")


def test_a_baseline_kubb_felled_before_the_field_kubbs_says_which_still_stand():
    """DM §5: a baseline kubb felled while field kubbs still stand in its half does not count and
    is raised at its spot at the end of the round; the reason names those field kubbs, sorted."""
    b3 = kubb("B3", 3.9, 0.0, lying_yaw_deg=180)
    ctx = ThrowContext(field_kubbs=frozenset({"F2", "F1"}), round_start=START)
    r = judge_throw(snap(kubb("F1", 1.5, 0.2), kubb("F2", 1.0, -0.4), b3), ctx).ruling("B3")
    assert r.rules == ("DM §5",)
    assert r.reason == ("Baseline kubb B3 fell while field kubbs (F1, F2) still stood in its half, so it does not "
                        "count and is raised at its spot at the end of the round.")
    assert translator("de")(r.reason).startswith("Grundlinienkubb B3 fiel, während in seiner Feldhälfte noch "
                                                 "Feldkubbs (F1, F2) standen")

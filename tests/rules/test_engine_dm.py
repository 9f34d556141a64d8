"""DM rules engine, driven by scripted outcomes (no physics)."""

from __future__ import annotations

import json

import pytest
from rules_helpers import MISS, clear_half, finish_turn, inkast_all_valid, play_out, start, step_default, throw

from kubb3d.pitch import opponent
from kubb3d.judge.rulings import Pose
from kubb3d.rules.core import PENALTY_ALTERNATION_CAP
from kubb3d.rules import (
    BatonThrow,
    Choose,
    IllegalAction,
    Inkast,
    InkastOutcome,
    KingThrow,
    LagResult,
    LagThrow,
    MatchState,
    PenaltyThrow,
    Phase,
    PlaceKubb,
    Raise,
    RemoveTieBreakKubb,
    Termination,
    ThrowOutcome,
    action_from_dict,
    action_to_dict,
    get_ruleset,
    outcome_from_dict,
)


def dm(**kw) -> MatchState:
    return MatchState(get_ruleset("dm"), ("Ann", "Bob"), **kw)


def test_unknown_ruleset_lists_known():
    with pytest.raises(ValueError, match="dm"):
        get_ruleset("kubbuteo-x")


def test_lag_nearer_wins_and_chooses_then_loser_gets_other_choice():
    s = dm()
    s.push(LagThrow("A"), LagResult(0.30))
    s.push(LagThrow("B"), LagResult(0.12))
    assert s.phase == Phase.CHOOSE
    acts = s.legal_actions()
    assert {a.player for a in acts} == {"Bob"}
    assert {a.what for a in acts} == {"end", "start"}
    s.push(Choose("Bob", "end", "A"))
    assert s.end_of == {"Bob": "A", "Ann": "B"}
    assert s.legal_actions() == [Choose("Ann", "start", "Ann"), Choose("Ann", "start", "Bob")]
    s.push(Choose("Ann", "start", "Ann"))
    assert s.phase == Phase.THROW and s.turn_side == "B" and s.player_at("B") == "Ann"


def test_lag_tie_or_both_kings_repeats_and_king_feller_loses():
    s = dm()
    s.push(LagThrow("A"), LagResult(0.2))
    s.push(LagThrow("B"), LagResult(0.2))
    assert s.phase == Phase.LAG and s.legal_actions() == [LagThrow("A")]
    s.push(LagThrow("A"), LagResult(0.0, king_felled=True))
    s.push(LagThrow("B"), LagResult(0.0, king_felled=True))
    assert s.phase == Phase.LAG
    s.push(LagThrow("A"), LagResult(0.01, king_felled=True))
    s.push(LagThrow("B"), LagResult(1.5))
    assert s.phase == Phase.CHOOSE and s.choice_queue[0][0] == "Bob"


def test_opening_schedule_2_4_6_then_6():
    s = dm()
    start(s)
    counts = []
    for _ in range(5):
        counts.append(s.batons_left)
        turn = s.turn_no
        while s.turn_no == turn:
            step_default(s)
    assert counts == [2, 4, 6, 6, 6]
    assert [a.baton for a, _ in s.history if isinstance(a, BatonThrow)][:6] == [
        "baton1",
        "baton2",
        "baton1",
        "baton2",
        "baton3",
        "baton4",
    ]


def test_inkast_then_raise_then_advance_line_through_nearest_field_kubb():
    s = dm()
    start(s)  # Ann at A opens
    throw(s, ThrowOutcome(felled=frozenset({"B1", "B2"})))
    throw(s)
    assert s.turn_side == "B" and s.phase == Phase.INKAST
    assert s.legal_actions() == [Inkast("B", ("B1", "B2"), 1)]
    s.push(
        Inkast("B", ("B1", "B2"), 1),
        InkastOutcome(valid={"B1": Pose((-1.2, 0.4, 0.075)), "B2": Pose((-0.6, -0.8, 0.075))}),
    )
    assert s.legal_actions() == [Raise("A", ("B1", "B2"))]
    s.push(Raise("A", ("B1", "B2")))
    assert s.field_kubbs("A") == {"B1", "B2"}
    assert s.legal_actions()[0].line_x == pytest.approx(4.0)  # B throws from its baseline x = +4
    finish_turn(s)
    # Ann (A) left nothing standing in B's half of hers; her own half holds B1, B2: she advances
    a = s.legal_actions()[0]
    assert isinstance(a, BatonThrow) and a.side == "A"
    assert a.line_x == pytest.approx(-0.6)
    assert any(e.kind == "line" and "DM §8" in e.rules for e in s.events)


def test_baton_line_is_b_baseline():
    s = dm()
    start(s, "B")
    a = s.legal_actions()[0]
    assert a.side == "B" and a.line_x == pytest.approx(4.0)


def test_early_baseline_kubb_is_raised_again_not_inkasted():
    s = dm()
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1"})))
    throw(s)
    inkast_all_valid(s)  # B1 now a field kubb in A's half
    finish_turn(s)  # B misses
    # A's field kubb B1 stands in A's half -> nothing to do with A's target; make B field kubbs first
    s2 = dm()
    start(s2)
    throw(s2)
    throw(s2, ThrowOutcome(felled=frozenset({"A3"})))  # stray: A3 is not in B's half
    assert s2.kubbs["A3"].standing
    s2.push(s2.legal_actions()[0], ThrowOutcome(felled=frozenset({"A1"})))  # B fells A1
    finish_turn(s2)
    inkast_all_valid(s2)  # A inkasts A1 into B's half: a field kubb there
    assert s2.field_kubbs("B") == {"A1"}
    throw(s2, ThrowOutcome(raise_again=frozenset({"B4"})))  # baseline kubb hit before the field kubb
    assert s2.kubbs["B4"].standing and not s2.opponent_cleared("A")
    finish_turn(s2)
    assert s2.turn_side == "B" and s2.felled_in("B") == []
    assert any("raised again" in e.text and "DM §5" in e.rules for e in s2.events)


def test_early_king_by_baton_loses():
    s = dm()
    start(s)
    throw(s, ThrowOutcome(winner="B", loser="A"))
    out = s.outcome()
    assert out.termination == Termination.EARLY_KING and out.winner == "Bob"
    assert out.points == {"Ann": 0, "Bob": 1}
    assert s.legal_actions() == []
    with pytest.raises(IllegalAction):
        s.push(BatonThrow("A", "baton2", -4.0), MISS)


def test_early_king_by_inkasted_kubb_loses():
    s = dm()
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1"})))
    throw(s)
    s.push(s.legal_actions()[0], InkastOutcome(valid={"B1": Pose((-1, 0, 0.075))}, king_felled=True))
    assert s.outcome().winner == "Ann" and s.outcome().termination == Termination.EARLY_KING


def test_winning_for_the_thrower_needs_a_legal_king_throw():
    s = dm()
    start(s)
    with pytest.raises(ValueError, match="king throw"):
        throw(s, ThrowOutcome(winner="A", loser="B"))


def _to_king(s: MatchState) -> None:
    """Ann clears B's half in her third turn (turn 3 of the set, 6 batons)."""
    start(s)
    finish_turn(s)
    finish_turn(s)
    assert s.turn_no == 3 and s.turn_side == "A"
    clear_half(s)


def test_king_throw_only_after_all_kubbs_and_wins():
    # DM §1 early king (boundary): „Wird der König vorzeitig mit Kubb oder Wurfholz zu Fall gebracht“
    s = dm()
    _to_king(s)
    acts = s.legal_actions()
    assert len(acts) == 1 and isinstance(acts[0], KingThrow) and acts[0].line_x == pytest.approx(-4.0)
    events = s.push(acts[0], ThrowOutcome(winner="A", loser="B"))
    out = s.outcome()
    assert out.termination == Termination.KING and out.winner == "Ann" and "DM §10" in out.reason
    throw_text = next(e.text for e in events if e.kind == "throw")
    assert "felled the king" in throw_text and "nothing felled" not in throw_text


def test_one_king_throw_per_turn():
    s = dm()
    _to_king(s)
    assert s.batons_left == 1
    s2 = dm()
    start(s2)
    finish_turn(s2)
    finish_turn(s2)
    for k in ["B1", "B2", "B3", "B4"]:
        throw(s2, ThrowOutcome(felled=frozenset({k})))
    throw(s2, ThrowOutcome(felled=frozenset({"B5"})))
    assert s2.batons_left == 1 and isinstance(s2.legal_actions()[0], KingThrow)
    s3 = dm()
    start(s3)
    finish_turn(s3)
    finish_turn(s3)
    throw(s3, ThrowOutcome(felled=frozenset({"B1", "B2", "B3", "B4", "B5"})))
    assert s3.batons_left == 5
    throw(s3)  # the king throw misses
    assert s3.turn_side == "B" and s3.phase == Phase.INKAST  # the other 4 batons are forfeited


def test_penalty_kubbs_alternate_starting_with_the_opponent():
    s = dm()
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1"})))
    throw(s)
    s.push(Inkast("B", ("B1",), 1), InkastOutcome(invalid=frozenset({"B1"})))
    assert s.legal_actions() == [Inkast("B", ("B1",), 2)]
    s.push(Inkast("B", ("B1",), 2), InkastOutcome(invalid=frozenset({"B1"})))
    assert s.phase == Phase.PENALTY
    assert s.legal_actions() == [PenaltyThrow("A", "B1", 1, "B")]
    s.push(PenaltyThrow("A", "B1", 1, "B"), InkastOutcome(invalid=frozenset({"B1"})))
    assert s.legal_actions() == [PenaltyThrow("B", "B1", 2, "B")]
    s.push(PenaltyThrow("B", "B1", 2, "B"), InkastOutcome(invalid=frozenset({"B1"})))
    assert s.legal_actions() == [PenaltyThrow("A", "B1", 3, "B")]
    s.push(PenaltyThrow("A", "B1", 3, "B"), InkastOutcome(valid={"B1": Pose((-3.5, 2.0, 0.075))}))
    assert s.legal_actions() == [Raise("A", ("B1",))]
    s.push(Raise("A", ("B1",)))
    assert s.kubbs["B1"].half == "A" and s.kubbs["B1"].standing and not s.kubbs["B1"].baseline
    assert sum(1 for e in s.events if e.kind == "penalty" and "DM §6" in e.rules) == 4


def test_penalty_alternation_is_capped_by_placement():
    s = dm()
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1"})))
    throw(s)
    for att in (1, 2):
        s.push(Inkast("B", ("B1",), att), InkastOutcome(invalid=frozenset({"B1"})))
    for _ in range(10):
        a = s.legal_actions()[0]
        assert isinstance(a, PenaltyThrow)
        s.push(a, InkastOutcome(invalid=frozenset({"B1"})))
    a = s.legal_actions()[0]
    assert isinstance(a, PlaceKubb) and a.side == "A" and a.half == "A"


def _penalty_kubb_b1() -> MatchState:
    """Ann at A opens; Bob's B1, felled in turn 1, is inkasted out twice in turn 2: a penalty kubb."""
    s = dm()
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1"})))
    throw(s)
    for attempt in (1, 2):
        s.push(Inkast("B", ("B1",), attempt), InkastOutcome(invalid=frozenset({"B1"})))
    return s


def test_dm_penalty_throws_alternate_past_the_second_until_the_cap():
    """DM §6 until valid (applied): „Bis der Kubb gültig im Feld landet, wird dieser Wechsel
    fortgeführt“ (the alternation goes on until the kubb lands validly in the field): DM sets no
    number of penalty throws, so kubb3d does not stop after two (as the VM and US rule books
    would, which place the kubb after the second invalid throw) but lets Ann and Bob alternate,
    every throw cited DM §6, up to the cap of kubb3d's own (PENALTY_ALTERNATION_CAP)."""
    s = _penalty_kubb_b1()
    for number in range(1, 11):  # the cap, PENALTY_ALTERNATION_CAP, is 10 throws
        assert s.legal_actions() == [PenaltyThrow("A" if number % 2 else "B", "B1", number, "B")]
        s.push(s.legal_actions()[0], InkastOutcome(invalid=frozenset({"B1"})))
        assert s.events[-1].rules == ("DM §6",)
        assert s.events[-1].text.startswith(f"penalty throw {number} of B1 by {'Ann' if number % 2 else 'Bob'}")
    # a valid throw before the cap ends the alternation (no placement): the kubb is raised
    s = _penalty_kubb_b1()
    for _ in range(9):
        s.push(s.legal_actions()[0], InkastOutcome(invalid=frozenset({"B1"})))
    s.push(s.legal_actions()[0], InkastOutcome(valid={"B1": Pose((-3.0, 1.0, 0.03))}))
    assert s.legal_actions() == [Raise("A", ("B1",))]


def test_dm_penalty_kubb_placed_after_the_cap_cites_the_kubb3d_decision():
    """DM §6 until valid (boundary): „Bis der Kubb gültig im Feld landet, wird dieser Wechsel
    fortgeführt“. DM names no end to the alternation and no placement; kubb3d ends it after
    PENALTY_ALTERNATION_CAP (10) failed throws: Ann, the receiving side, places B1 in her own half
    (as WS basic rule 11 would), and the placement cites ``kubb3d decision: penalty cap``, not
    DM §6, which says nothing of it."""
    s = _penalty_kubb_b1()
    for _ in range(10):
        s.push(s.legal_actions()[0], InkastOutcome(invalid=frozenset({"B1"})))
    assert s.legal_actions() == [PlaceKubb("A", "B1", None, "penalty", "A")]
    s.push(PlaceKubb("A", "B1", (-3.0, 1.0), "penalty", "A"))
    place = s.events[-1]
    assert place.kind == "place" and place.text == "Ann places penalty B1 at (-3.00, 1.00) m"
    assert place.rules == ("kubb3d decision: penalty cap",)
    assert s.kubbs["B1"].standing and s.kubbs["B1"].half == "A"


def test_the_penalty_kubb_after_one_placed_by_hand_starts_its_alternation_with_the_opponent():
    """DM §6 ("Diese Kubbs wirft der Gegner"): every penalty kubb is first thrown by the
    opponent, whether the one before it was thrown validly or placed by hand after
    PENALTY_ALTERNATION_CAP failures; and the placed kubb stands where it was put."""
    def two_penalty_kubbs() -> MatchState:
        s = dm()
        start(s)
        throw(s, ThrowOutcome(felled=frozenset({"B1", "B2"})))
        throw(s)
        for attempt in (1, 2):
            s.push(Inkast("B", ("B1", "B2"), attempt), InkastOutcome(invalid=frozenset({"B1", "B2"})))
        return s

    thrown = two_penalty_kubbs()
    thrown.push(thrown.legal_actions()[0], InkastOutcome(valid={"B1": Pose((-3.5, 2.0, 0.075))}))
    placed = two_penalty_kubbs()
    for _ in range(PENALTY_ALTERNATION_CAP):
        placed.push(placed.legal_actions()[0], InkastOutcome(invalid=frozenset({"B1"})))
    placed.push(PlaceKubb("A", "B1", (-3.0, 1.0), "penalty", "A"))
    assert placed.kubbs["B1"].standing and placed.kubbs["B1"].pose.position[:2] == (-3.0, 1.0)
    assert placed.legal_actions() == thrown.legal_actions() == [PenaltyThrow("A", "B2", 1, "B")]
    # and the second kubb is placed by hand only after as many failures of its own
    for number in range(1, PENALTY_ALTERNATION_CAP + 1):
        assert placed.legal_actions() == [PenaltyThrow("A" if number % 2 else "B", "B2", number, "B")]
        placed.push(placed.legal_actions()[0], InkastOutcome(invalid=frozenset({"B2"})))
    assert placed.legal_actions() == [PlaceKubb("A", "B2", None, "penalty", "A")]


def test_stossel_placed_by_inkaster_after_raising_and_placement_checked():
    s = dm()
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1", "B2"})))
    throw(s)
    s.push(Inkast("B", ("B1", "B2"), 1), InkastOutcome(valid={"B1": Pose((-1, 0.5, 0.075))}, stossel=frozenset({"B2"})))
    s.push(Raise("A", ("B1",)))
    assert s.legal_actions() == [PlaceKubb("B", "B2", None, "stößel", "A")]
    with pytest.raises(IllegalAction, match="inside half A"):
        s.push(PlaceKubb("B", "B2", (1.0, 0.0), "stößel", "A"))
    with pytest.raises(IllegalAction, match="from the king"):
        s.push(PlaceKubb("B", "B2", (-0.05, 0.0), "stößel", "A"))
    s.push(PlaceKubb("B", "B2", (-0.5, 0.3), "stößel", "A"))
    assert s.phase == Phase.THROW and s.kubbs["B2"].pose.position[:2] == (-0.5, 0.3)


def test_sets_switch_ends_and_opener():
    s = dm(sets=3)
    start(s)  # Ann at A opens set 1
    _ = s.legal_actions()
    finish_turn(s)
    finish_turn(s)
    clear_half(s)
    s.push(s.legal_actions()[0], ThrowOutcome(winner="A", loser="B"))
    assert s.outcome() is None and s.set_wins == {"Ann": 1, "Bob": 0}
    assert s.set_no == 2 and s.end_of == {"Ann": "B", "Bob": "A"}
    assert s.opener == "Bob" and s.turn_side == "A" and s.batons_left == 2
    assert all(k.standing and k.baseline for k in s.kubbs.values())
    # Bob (at A) wins set 2 early-king style: Ann errs
    finish_turn(s)
    throw(s, ThrowOutcome(winner="A", loser="B"))  # Ann (at B) fells the king early
    assert s.set_wins == {"Ann": 1, "Bob": 1} and s.set_no == 3
    assert s.end_of == {"Ann": "A", "Bob": "B"} and s.opener == "Ann"
    finish_turn(s)
    throw(s, ThrowOutcome(winner="A", loser="B"))  # Bob (at B) errs
    out = s.outcome()
    assert out.winner == "Ann" and out.termination == Termination.SETS and out.points == {"Ann": 2, "Bob": 1}


def test_tiebreak_after_time_limit_sequence():
    s = dm(time_limit_s=60.0)
    start(s)  # Ann at A opens
    throw(s, ThrowOutcome(felled=frozenset({"B1"})))
    throw(s)
    # turn 1 end: clock 2*6 + 15 = 27 s
    assert s.clock == pytest.approx(27.0)
    inkast_all_valid(s)  # B inkasts B1 into A's half (4 + 4 s)
    for _ in range(4):
        throw(s)
    # turn 2 ended at 27 + 8 + 24 + 15 = 74 s > 60: finished, then the second lag
    assert s.phase == Phase.LAG and s.time_expired
    assert any(e.kind == "clock" and "DM §9" in e.rules for e in s.events)
    s.push(LagThrow("A"), LagResult(0.5))
    s.push(LagThrow("B"), LagResult(0.2))
    assert s.tb_advantage == "Bob"
    # turn 3 is Ann's: no removal for her (the advantage is Bob's)
    assert s.turn_side == "A" and s.phase == Phase.THROW
    finish_turn(s)
    # turn 4 Bob: nothing to inkast; after the (empty) raising Bob removes a tie-break kubb
    assert s.phase == Phase.TIEBREAK
    acts = s.legal_actions()
    # several baseline kubbs of A stand: Ann (owner) chooses among A1..A5 (B1 is a field kubb)
    assert {a.kubb for a in acts} == {"A1", "A2", "A3", "A4", "A5"} and {a.side for a in acts} == {"A"}
    s.push(RemoveTieBreakKubb("A", "A3", "A"))
    assert s.kubbs["A3"].removed and s.phase == Phase.THROW and s.turn_side == "B"
    finish_turn(s)
    # from now on: after every raising the side on turn removes one from the opponent's half
    assert s.turn_side == "A" and s.phase == Phase.TIEBREAK
    assert {a.side for a in s.legal_actions()} == {"B"}
    s.push(s.legal_actions()[0])
    assert sum(k.removed for k in s.kubbs.values()) == 2


def test_tiebreak_kubb_is_the_one_nearest_the_baseline():
    s = dm(time_limit_s=1.0)
    start(s)
    finish_turn(s)  # time up at the end of turn 1
    s.push(LagThrow("A"), LagResult(0.1))
    s.push(LagThrow("B"), LagResult(0.2))  # Ann has the advantage; Bob's turn 2 first
    finish_turn(s)
    assert s.turn_side == "A" and s.phase == Phase.TIEBREAK
    # leave a single baseline kubb: take four away by hand via the engine's own state
    for k in ("B1", "B2", "B3", "B4"):
        s.kubbs[k].removed = True
    s.kubbs["A1"].half = "B"
    s.kubbs["A1"].baseline = False
    s.kubbs["A1"].pose = Pose((3.0, 0.0, 0.075))
    cands, chooser = s.tiebreak_candidates("A", "B")
    assert cands == ["B5"] and chooser == "A"
    s.kubbs["B5"].removed = True
    cands, chooser = s.tiebreak_candidates("A", "B")
    assert cands == ["A1"] and chooser == "A"


@pytest.mark.parametrize("value", ["tiebreak", "choices"])
def test_time_up_then_sets_level_gives_deciding_set_with_third_lag(value):
    """DM §9: the winner of the third lag takes either the tie-break advantage (the other then
    chooses end and opener) or the choice of end and opener (the other then has the advantage)."""
    s = dm(sets=3, time_limit_s=200.0)
    start(s)
    throw(s, ThrowOutcome(winner="B", loser="A"))  # Ann errs: Bob 1-0, clock 6 s
    assert s.set_no == 2
    # set 2: play misses until the time runs out, then the tie-break lag
    while s.phase != Phase.LAG:
        step_default(s)
    s.push(LagThrow("A"), LagResult(0.1))
    s.push(LagThrow("B"), LagResult(0.3))
    # someone fells the king early: give set 2 to Ann
    while sum(s.set_wins.values()) < 2:
        a = s.legal_actions()[0]
        if isinstance(a, BatonThrow) and s.player_at(a.side) == "Bob":
            s.push(a, ThrowOutcome(winner="A" if a.side == "B" else "B", loser=a.side))
        else:
            step_default(s)
    assert s.set_wins == {"Ann": 1, "Bob": 1}
    assert s.phase == Phase.LAG and s.lag_purpose == "decider"
    s.push(LagThrow("A"), LagResult(0.4))
    s.push(LagThrow("B"), LagResult(0.2))
    lag_winner = s.player_at("B")
    acts = s.legal_actions()
    assert acts == [Choose(lag_winner, "advantage", "tiebreak"), Choose(lag_winner, "advantage", "choices")]
    s.push(Choose(lag_winner, "advantage", value))
    other = "Ann" if lag_winner == "Bob" else "Bob"
    holder, chooser = (lag_winner, other) if value == "tiebreak" else (other, lag_winner)
    took = "the tie-break advantage" if value == "tiebreak" else "the choice of end and opener"
    assert (s.events[-1].text, s.events[-1].rules, s.events[-1].player) == (
        f"{lag_winner} takes {took}; {holder} has the tie-break advantage", ("DM §9",), lag_winner)
    assert s.tb_advantage == holder and s.choice_queue[0][0] == chooser
    s.push(Choose(chooser, "end", "A"))
    s.push(Choose(chooser, "start", chooser))
    assert s.set_no == 3 and s.opener == chooser and s.tb_stage == "decider_pending"
    # turns 1-3 without removal; at the end of turn 3 the advantage holder removes one
    while s.turn_no <= 3 and s.phase != Phase.TIEBREAK:
        step_default(s)
    assert s.turn_no == 3 and s.phase == Phase.TIEBREAK
    adv_side = s.end_of[holder]
    assert all(a.half != adv_side for a in s.legal_actions())
    step_default(s)
    assert s.turn_no == 4 and s.tb_stage == "every"


def test_time_up_with_unequal_sets_ends_match():
    s = dm(sets=5, time_limit_s=30.0)
    start(s)
    throw(s, ThrowOutcome(winner="B", loser="A"))  # Ann errs: Bob leads 1-0 at 6 s
    finish_turn(s)  # set 2, turn 1 ends at 6 + 60 + 27 s: time up -> tie-break lag
    assert s.phase == Phase.LAG and s.lag_purpose == "tiebreak"
    s.push(LagThrow("A"), LagResult(0.1))
    s.push(LagThrow("B"), LagResult(0.3))
    while s.outcome() is None:
        a = s.legal_actions()[0]
        if isinstance(a, BatonThrow) and s.player_at(a.side) == "Ann":
            s.push(a, ThrowOutcome(winner="A" if a.side == "B" else "B", loser=a.side))
        else:
            step_default(s)
    out = s.outcome()
    assert out.termination == Termination.TIME and out.winner == "Bob" and out.sets == {"Ann": 0, "Bob": 2}
    assert "DM §9" in out.reason


def test_round_cap_ends_match():
    s = dm(round_cap=5)
    start(s)
    play_out(s)
    out = s.outcome()
    assert out.termination == Termination.ROUND_CAP and out.winner is None and s.turn_no == 5
    assert out.reason == (
        "the cap of 5 turns per set was reached (kubb3d's rule): sets and baseline kubbs standing are even "
        "(5 each), a draw"
    )


def test_round_cap_ends_a_best_of_three_in_its_first_set_as_the_docs_say(root):
    """The README said "a set is cut off after --round-cap turns" and docs/rules.md "the round cap
    ends a set", so a best of three would go on to set 2; the engine ends the match (`kubb3d match
    --sets 3 --round-cap 3` printed "sets won: P1 0, P2 0"). Capped in set 1 of a best of three
    and of a best of one alike, the match is over at the same turn, with no set won, and the two
    docs say the match is cut off."""
    ends = []
    for sets in (1, 3):
        s = dm(round_cap=5, sets=sets)
        start(s)
        play_out(s)
        out = s.outcome()
        assert out.termination == Termination.ROUND_CAP and out.sets == {"Ann": 0, "Bob": 0}
        ends.append((s.set_no, s.turn_no, out.winner))
    assert ends[0] == ends[1] and ends[0][:2] == (1, 5)
    readme = " ".join((root / "README.md").read_text(encoding="utf-8").split())
    rules = " ".join((root / "docs" / "rules.md").read_text(encoding="utf-8").split())
    assert "the match is cut off when a set reaches `--round-cap` turns" in readme
    assert "The round cap ends the match when a set reaches" in rules


def test_round_cap_names_why_the_winner_wins():
    """The cap's outcome says why its winner wins (more sets, else more of its own baseline kubbs
    standing), not only that the cap was reached (a player read "you win" at 0–0 sets)."""
    s = dm(round_cap=5)
    start(s)
    first = s.legal_actions()[0]
    assert isinstance(first, BatonThrow)
    felled = f"{opponent(first.side)}1"
    s.push(first, ThrowOutcome(felled=frozenset({felled})))  # a baseline kubb, no field kubbs yet: felled
    play_out(s)
    out = s.outcome()
    thrower = s.player_at(first.side)
    assert out.termination == Termination.ROUND_CAP and out.winner == thrower
    assert out.reason == (
        f"the cap of 5 turns per set was reached (kubb3d's rule): {thrower} has more baseline kubbs standing (5 to 4)"
    )


def test_action_and_outcome_roundtrip():
    acts = [
        LagThrow("A"),
        Choose("Ann", "end", "B"),
        Inkast("A", ("B1", "B2"), 2),
        PenaltyThrow("B", "A1", 3, "A"),
        PlaceKubb("A", "A1", (1.0, 2.0), "penalty", "A"),
        Raise("B", ("A1",)),
        RemoveTieBreakKubb("B", "B1", "B"),
        BatonThrow("A", "baton3", -1.25, 2),
        KingThrow("B", "baton6", 4.0),
    ]
    for a in acts:
        assert action_from_dict(action_to_dict(a)) == a
        # JSON-friendly: what JSON gives back is the dict itself (tuples written as lists)
        assert json.loads(json.dumps(action_to_dict(a))) == action_to_dict(a), a
    outs = [
        LagResult(0.25, True),
        ThrowOutcome(
            frozenset({"B1"}), frozenset({"B2"}), None, None, False, {"B3": Pose((1.0, 2.0, 0.075), (0, 0, 0.1, 0.99))}
        ),
        InkastOutcome({"A1": Pose((1.0, 0.5, 0.075))}, frozenset({"A2"}), frozenset({"A3"}), True),
    ]
    for o in outs:
        assert outcome_from_dict(o.to_dict()) == o

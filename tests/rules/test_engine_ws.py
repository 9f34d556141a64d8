"""Wikinger-Schach rules engine, driven by scripted outcomes (no physics)."""

from __future__ import annotations

import pytest
from rules_helpers import finish_turn, inkast_all_valid, play_out, throw

from kubb3d.rules import (
    IllegalAction,
    Inkast,
    InkastOutcome,
    KingThrow,
    LagResult,
    LagThrow,
    MatchState,
    Phase,
    PlaceKubb,
    Termination,
    ThrowOutcome,
    get_ruleset,
)
from kubb3d.rules.wikinger import GameResult, Stechen, group_ranking


def ws(**kw) -> MatchState:
    return MatchState(
        get_ruleset("wikinger", **{k: v for k, v in kw.items() if k == "team_size"}),
        ("Left", "Right"),
        **{k: v for k, v in kw.items() if k != "team_size"},
    )


def lag(s: MatchState, da: float, db: float, ka: bool = False, kb: bool = False) -> None:
    s.push(LagThrow("A"), LagResult(da, ka))
    s.push(LagThrow("B"), LagResult(db, kb))


def test_ws_pitch_and_lag_winner_starts_without_choice():
    # WS The Playing Field (applied): "5 m wide and 7.50 m long"
    # WS Start of Play (boundary): "Team A begins and throws all of its throwing sticks"
    s = ws()
    assert s.pitch.length == 7.5 and s.pitch.width == 5.0
    lag(s, 0.4, 0.2)
    assert s.phase == Phase.THROW and s.turn_side == "B" and s.batons_left == 6
    assert s.legal_actions()[0].line_x == pytest.approx(3.75)


def test_ws_king_hit_in_lag_gives_other_team_the_start_and_both_hits_the_left_team():
    s = ws()
    lag(s, 0.0, 0.9, ka=True)
    assert s.turn_side == "B"
    s = ws()
    lag(s, 0.0, 0.0, ka=True, kb=True)
    assert s.turn_side == "A" and s.player_at("A") == "Left"


def test_ws_a_tied_lag_goes_to_the_team_listed_left_not_repeated():
    """WS Sequence of Play (tie) (applied): „The team listed on the left side of the game schedule
    starts“. WS has no re-throw: kubb3d reads the sentence as who starts when the lag decides
    nothing. Equal distances, or both batons hitting the king: Left (listed first, at end A)
    starts at once, whether the tie is on distance or on two hits; the lag is not thrown again
    (DM §3 and the US rule book would repeat it)."""
    for da, db, ka, kb in [(0.25, 0.25, False, False), (0.0, 0.0, True, True), (0.0, 0.3, True, True)]:
        s = ws()
        lag(s, da, db, ka, kb)
        assert s.phase == Phase.THROW and s.turn_side == "A" and s.player_at("A") == "Left"
        won = [e for e in s.events if e.kind == "lag"][-1]
        assert (won.text, won.rules) == ("Left wins the lag throw", ("WS Sequence of Play",))
        assert not any("tied" in e.text for e in s.events)


def test_ws_the_listing_does_not_override_a_lag_that_decides():
    """WS Sequence of Play (tie) (boundary): „The team listed on the left side of the game schedule
    starts“ only where the lag decides nothing: "The player who is closer gains the right to
    throw", so Right, nearer by a millimetre, starts; and the lag is played at all (the sentence
    is not read as the left team always starting)."""
    s = ws()
    assert s.legal_actions() == [LagThrow("A")]
    lag(s, 0.251, 0.25)
    assert s.phase == Phase.THROW and s.turn_side == "B" and s.player_at("B") == "Right"
    assert [e.text for e in s.events if e.kind == "lag"][-1] == "Right wins the lag throw"


def test_ws_six_batons_each_thrown_by_a_different_player():
    # WS basic rule 4 (applied): "Each player receives one throwing stick"
    # WS basic rule 2 (boundary): "receives the 6 throwing sticks and throws them all"
    s = ws()
    lag(s, 0.1, 0.2)
    members = [throw(s).thrower for _ in range(6)]
    assert members == [0, 1, 2, 3, 4, 5]
    assert s.turn_side == "B" and s.batons_left == 6
    s3 = ws(team_size=3)
    lag(s3, 0.1, 0.2)
    assert [throw(s3).thrower for _ in range(6)] == [0, 1, 2, 0, 1, 2]


def test_ws_penalty_kubb_placed_freely_by_opponent_one_baton_from_king():
    s = ws()
    lag(s, 0.1, 0.2)
    throw(s, ThrowOutcome(felled=frozenset({"B2"})))
    finish_turn(s)
    s.push(Inkast("B", ("B2",), 1), InkastOutcome(invalid=frozenset({"B2"})))
    s.push(Inkast("B", ("B2",), 2), InkastOutcome(invalid=frozenset({"B2"})))
    acts = s.legal_actions()
    assert acts == [PlaceKubb("A", "B2", None, "penalty", "A")]
    with pytest.raises(IllegalAction, match="0.30 m from the king"):
        s.push(PlaceKubb("A", "B2", (-0.25, 0.0), "penalty", "A"))
    with pytest.raises(IllegalAction, match="inside half A"):
        s.push(PlaceKubb("A", "B2", (0.5, 0.0), "penalty", "A"))
    with pytest.raises(IllegalAction, match="inside half A"):
        s.push(PlaceKubb("A", "B2", (-3.0, 2.49), "penalty", "A"))
    s.push(PlaceKubb("A", "B2", (-0.31, 0.0), "penalty", "A"))
    k = s.kubbs["B2"]
    assert k.half == "A" and k.standing and not k.baseline and k.pose.position[:2] == (-0.31, 0.0)
    assert s.phase == Phase.THROW and any("WS basic rule 11" in e.rules for e in s.events if e.kind == "place")


def test_ws_king_throws_with_every_remaining_baton():
    s = ws()
    lag(s, 0.1, 0.2)
    throw(s, ThrowOutcome(felled=frozenset({"B1", "B2", "B3", "B4", "B5"})))
    for _ in range(5):
        a = throw(s)
        assert isinstance(a, KingThrow) or s.turn_side == "B"
    assert s.turn_side == "B"


def test_ws_king_win_two_points_early_king_two_for_the_other():
    s = ws()
    lag(s, 0.1, 0.2)
    throw(s, ThrowOutcome(felled=frozenset({"B1", "B2", "B3", "B4", "B5"})))
    s.push(s.legal_actions()[0], ThrowOutcome(winner="A", loser="B"))
    out = s.outcome()
    assert out.termination == Termination.KING and out.points == {"Left": 2, "Right": 0}
    s = ws()
    lag(s, 0.1, 0.2)
    throw(s, ThrowOutcome(winner="B", loser="A"))
    assert s.outcome().points == {"Left": 0, "Right": 2} and s.outcome().termination == Termination.EARLY_KING


def test_ws_clock_more_baseline_kubbs_one_point():
    s = ws()
    lag(s, 0.1, 0.2)  # Left (A) starts
    throw(s, ThrowOutcome(felled=frozenset({"B1"})))
    finish_turn(s)
    inkast_all_valid(s)
    play_out(s)
    out = s.outcome()
    # turns of 6 x 6 s + 15 s = 51 s (+8 s for the one inkast): the 20 min end after turn 24
    assert s.clock >= 1200.0 and s.clock - 51.0 < 1200.0
    assert out.termination == Termination.TIME
    assert out.winner == "Left" and out.points == {"Left": 1, "Right": 0}
    assert "4" in out.reason and "5" in out.reason


def test_ws_clock_equal_baselines_draw_zero_points():
    s = ws()
    lag(s, 0.1, 0.2)
    play_out(s)
    out = s.outcome()
    assert out.termination == Termination.TIME and out.winner is None and out.points == {"Left": 0, "Right": 0}


def test_ws_turn_in_progress_is_finished_after_the_clock():
    # WS notes: extra time, turn finished (applied): "the turn that has begun is played to its end"
    s = ws(time_limit_s=10.0)
    lag(s, 0.1, 0.2)
    throw(s)
    throw(s)  # 12 s > 10 s but the turn goes on
    assert s.outcome() is None
    finish_turn(s)
    assert s.outcome() is not None and s.outcome().termination == Termination.TIME


def test_group_ranking_points_head_to_head_and_stechen_tiers():
    res = [
        GameResult("X", "Y", 2, 0),
        GameResult("Y", "Z", 1, 0),
        GameResult("X", "Z", 0, 2),
        GameResult("W", "X", 0, 0),
    ]
    # points: X 2, Y 1, Z 2, W 0 -> X and Z level; Z beat X head-to-head
    assert group_ranking(res) == [("Z",), ("X",), ("Y",), ("W",)]
    res2 = [GameResult("X", "Y", 2, 0), GameResult("Y", "Z", 2, 0), GameResult("Z", "X", 2, 0)]
    assert group_ranking(res2) == [("X", "Y", "Z")]
    res3 = [GameResult("X", "Y", 0, 0)]
    assert group_ranking(res3) == [("X", "Y")]


def test_stechen_two_players_one_minute_most_kubbs():
    st = Stechen(["X", "Y"])
    felled = {"X": [1, 0, 2, 0, 1, 0], "Y": [0, 3, 3]}
    order = []
    while st.legal_actions():
        a = st.legal_actions()[0]
        order.append((a.team, a.player))
        st.push(a, felled[a.team].pop(0))
    assert order[:6] == [("X", 0), ("X", 1)] * 3 and order[6:] == [("Y", 0), ("Y", 1), ("Y", 0)]
    assert st.felled == {"X": 4, "Y": 6}
    assert st.result() == ("Y", ("Y",))


def test_stechen_time_limit_and_tie():
    from kubb3d.rules import TimeModel

    st = Stechen(["X", "Y"], time=TimeModel(baton_throw_s=25.0))
    n = 0
    while st.legal_actions():
        st.push(st.legal_actions()[0], 1)
        n += 1
    assert n == 4  # two throws of 25 s per team fit in the minute
    assert st.result() == (None, ("X", "Y"))
    with pytest.raises(ValueError):
        Stechen(["X"])

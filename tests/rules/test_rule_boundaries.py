"""Rules-engine rules at their boundaries, DM and WS (issue #37 item 5: each test here kills
mutants of kubb3d/rules that survived the fast tests; docs/mutation.md)."""

from __future__ import annotations

import pytest

from kubb3d.rules import get_ruleset


def test_dm_baton_schedule_2_4_then_6():
    """DM §4: "Spieler A startet mit 2 Hölzern, B wirft 4, danach erhält jeder Spieler pro
    Wurfrunde 6 Hölzer."; a turn number below 1 is refused with the number named."""
    dm = get_ruleset("dm")
    assert [dm.batons_for_turn(t) for t in (1, 2, 3, 4, 9)] == [2, 4, 6, 6, 6]
    with pytest.raises(ValueError, match="^turn numbers start at 1, got 0$"):
        dm.batons_for_turn(0)


# ------------------------------------------------------------------ WS: the clock's result
def _ws_baselines(standing_a: int, standing_b: int):
    from kubb3d.judge.rulings import Pose
    from kubb3d.rules import MatchState
    from kubb3d.rules.core import KubbInfo

    ws = get_ruleset("wikinger")
    state = MatchState(ws, ("Left", "Right"))
    for side, standing in (("A", standing_a), ("B", standing_b)):
        for i, (kid, (x, y)) in enumerate(sorted(ws.pitch.baseline_kubb_positions(side).items())):
            state.kubbs[kid] = KubbInfo(kid, side, True, i < standing, Pose((x, y, 0.075)))
    state.set_wins = {"Left": 0, "Right": 0}
    return ws, state


@pytest.mark.parametrize("standing, winner, points", [
    ((3, 2), "Left", {"Left": 1, "Right": 0}),
    ((2, 3), "Right", {"Left": 0, "Right": 1}),
    ((4, 4), None, {"Left": 0, "Right": 0}),
])
def test_ws_time_up_the_larger_baseline_wins_one_point(standing, winner, points):
    """WS "End of the Game": "a different number of kubbs on the baseline, the team with the
    larger number of kubbs on its baseline wins and receives one point"; "an equal number of
    kubbs, the game ends in a draw. No team receives a point"."""
    from kubb3d.rules import Termination

    ws, state = _ws_baselines(*standing)
    out = ws.time_up_result(state)
    assert out.termination is Termination.TIME
    assert out.winner == winner and out.points == points and out.sets == {"Left": 0, "Right": 0}
    assert out.reason == (f"time is up with {standing[0]}:{standing[1]} baseline kubbs standing "
                          "(WS End of the Game)")


# ------------------------------------------------------------------ WS: the group stage
def test_ws_level_teams_are_ordered_by_their_head_to_head_result():
    """WS "Tie-Break After the Group Stage": "If teams are level on points after the group
    stage, the head-to-head result of the two teams decides." Over two games between X and Y
    their results add up (X +2, then −1); a team above and one below keep their places."""
    from kubb3d.rules.wikinger import GameResult, group_ranking

    games = [GameResult("X", "Y", 2, 0), GameResult("X", "Y", 0, 1), GameResult("Y", "Z", 1, 0),
             GameResult("W", "Z", 2, 0), GameResult("W", "Z", 2, 0)]
    # W 4, X 2, Y 2, Z 0; X–Y: +2 − 1 = +1 for X
    assert group_ranking(games) == [("W",), ("X",), ("Y",), ("Z",)]
    # the same games listed from the other side
    flipped = [GameResult(g.team2, g.team1, g.points2, g.points1) for g in games]
    assert group_ranking(flipped) == [("W",), ("X",), ("Y",), ("Z",)]


def test_ws_the_later_listed_team_can_win_the_head_to_head():
    from kubb3d.rules.wikinger import GameResult, group_ranking

    games = [GameResult("Y", "X", 2, 0), GameResult("X", "Z", 2, 0), GameResult("W", "Z", 2, 0),
             GameResult("W", "V", 2, 0), GameResult("V", "Z", 1, 0)]
    # W 4, X 2, Y 2, V 1, Z 0; Y beat X
    assert group_ranking(games) == [("W",), ("Y",), ("X",), ("V",), ("Z",)]


def test_ws_level_teams_without_a_head_to_head_result_go_to_a_stechen():
    """"If this comparison also ends in a draw, or if 3 teams are level on points after the
    group stage, a playoff (Stechen) is thrown": two level teams that did not decide it
    between them (no game, or a 0:0 draw) form one tier."""
    # WS Tie-Break (ranking) (boundary): "the head-to-head result of the two teams decides"
    from kubb3d.rules.wikinger import GameResult, group_ranking

    games = [GameResult("X", "Z", 2, 0), GameResult("Y", "W", 2, 0)]
    assert group_ranking(games) == [("X", "Y"), ("W", "Z")]
    assert group_ranking(games + [GameResult("X", "Y", 0, 0)]) == [("X", "Y"), ("W", "Z")]


# ------------------------------------------------------------------ WS: the Stechen
def test_ws_stechen_a_throw_ending_exactly_at_the_minute_is_within_it():
    """WS: "Each team provides 2 players who, within one minute, throw": with 20 s a throw,
    three throws end exactly at the minute and all count, for every team in turn."""
    from kubb3d.rules import TimeModel
    from kubb3d.rules.wikinger import Stechen

    stechen = Stechen(["X", "Y"], time=TimeModel(baton_throw_s=20.0))
    thrown = []
    while stechen.legal_actions():
        action = stechen.legal_actions()[0]
        thrown.append((action.team, action.player, action.baton))
        stechen.push(action, 0)
    assert thrown == [("X", 0, "baton1"), ("X", 1, "baton2"), ("X", 0, "baton3"),
                      ("Y", 0, "baton1"), ("Y", 1, "baton2"), ("Y", 0, "baton3")]


def test_ws_stechen_refusals_name_the_problem():
    from kubb3d.rules.wikinger import Stechen, StechenThrow

    with pytest.raises(ValueError, match=r"^a Stechen needs at least two different teams, got \['X', 'X'\]$"):
        Stechen(["X", "X"])
    stechen = Stechen(["X", "Y"])
    with pytest.raises(ValueError, match=r"is not legal now; legal: stechen throw \(team X"):
        stechen.push(StechenThrow("Y", 0, "baton1"), 1)
    with pytest.raises(ValueError, match=r"^felled must be >= 0, got -1$"):
        stechen.push(stechen.legal_actions()[0], -1)


# ------------------------------------------------------------------ a practice round
def _practice(thrower="A", ruleset="dm"):
    from kubb3d.judge.rulings import Pose
    from kubb3d.pitch import Pitch
    from kubb3d.rules.practice import PracticeRound

    pitch = Pitch(8.0, 5.0)
    start = {k: Pose((x, y, 0.075)) for side in "AB" for k, (x, y) in pitch.baseline_kubb_positions(side).items()}
    start["king"] = Pose((0.0, 0.0, 0.15))
    return PracticeRound(ruleset, thrower, start), start


def _judgement(felled=(), total=(), again=(), now=(), winner=None, loser=None):
    from kubb3d.judge.throws import ThrowJudgement

    return ThrowJudgement((), frozenset(felled), frozenset(total), frozenset(again), frozenset(now), winner, loser)


def test_practice_context_judges_only_the_pieces_still_on_the_pitch():
    """The judge's context for the next throw: the thrower's own baseline kubbs that are still
    there, the kubbs felled earlier that are still there, the round's start; DM §10: the king
    throw once every kubb of the target half is down."""
    round_, start = _practice("B", "wikinger")
    ctx = round_.context(True, (), dict(start))
    assert ctx.ruleset == "wikinger" and ctx.thrower == "B" and set(ctx.own_standing) == {"B1", "B2", "B3", "B4", "B5"}
    round_, start = _practice("A")
    round_.record(_judgement(felled={"B1", "B2"}, total={"B1", "B2"}, again={"A3"}))
    pieces = {k: None for k in start if k not in ("B2", "A4")}
    ctx = round_.context(False, [("DM §5", "tilted")], pieces)
    assert ctx.ruleset == "dm" and ctx.thrower == "A" and ctx.legal is False and len(ctx.violations) == 1
    assert ctx.already_felled == {"B1"} and ctx.pending_raise == {"A3"}
    assert set(ctx.own_standing) == {"A1", "A2", "A3", "A5"} and ctx.own_standing["A1"] == start["A1"]
    assert ctx.round_start == start and ctx.king_throw is False
    round_.record(_judgement(total={"B3", "B4", "B5"}))
    assert round_.king_throw and round_.context(True, (), pieces).king_throw is True


def test_practice_record_raises_now_what_it_raised_and_the_losers_opponent_wins():
    """DM §1: "Wird der König vorzeitig ... zu Fall gebracht, hat die gegnerische Mannschaft
    gewonnen": a loser named makes the other side the winner."""
    round_, _ = _practice("A")
    round_.record(_judgement(again={"A2", "B5"}, now={"A2"}))
    assert round_.pending_raise == {"B5"} and not round_.over
    round_.record(_judgement(loser="A"))
    assert round_.winner == "B" and round_.over
    with pytest.raises(RuntimeError, match="^the king has decided this round: start a new one$"):
        round_.context(True, (), {})
    round_, _ = _practice("B")
    round_.record(_judgement(winner="B", loser="A"))
    assert round_.winner == "B"


def test_practice_after_flick_checks_only_the_own_kubbs_given():
    """KT rules: "After each flick, keep the playing area clear by removing the baton and any
    knocked over kubbs"; the flicker's own kubbs are checked where a pose is given now."""
    from kubb3d.judge.rulings import Pose

    round_, start = _practice("A")
    moved = Pose((start["A2"].position[0] + 0.05, start["A2"].position[1], 0.075))
    done = round_.after_flick("b1", _judgement(felled={"B4", "B1"}, again={"B5"}), {"A2": moved})
    assert done.remove == ("b1",) and done.pick_up == ("B1", "B4")
    assert done.stand_again == {"B5": start["B5"], "A2": start["A2"]}


def test_ws_a_team_of_one_is_allowed_none_is_refused():
    """WS basic rule 4: "Each player receives one throwing stick": a team needs a player."""
    assert get_ruleset("wikinger", team_size=1).team_size == 1
    with pytest.raises(ValueError, match=r"^team size must be >= 1, got 0$"):
        get_ruleset("wikinger", team_size=0)

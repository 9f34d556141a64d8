"""Scripted outcomes for rules-engine tests (no physics)."""

from __future__ import annotations

from kubb3d.judge.rulings import Pose
from kubb3d.pitch import opponent
from kubb3d.rules import (
    BatonThrow,
    Choose,
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
    ThrowOutcome,
)

MISS = ThrowOutcome()


def start(state: MatchState, lag_winner_side: str = "A", choose: str = "start") -> None:
    """Play the lag (the side ``lag_winner_side`` is nearer) and let its player open."""
    da, db = (0.1, 0.5) if lag_winner_side == "A" else (0.5, 0.1)
    state.push(LagThrow("A"), LagResult(da))
    state.push(LagThrow("B"), LagResult(db))
    if state.phase == Phase.CHOOSE:
        winner = state.player_at(lag_winner_side)
        if choose == "start":
            state.push(Choose(winner, "start", winner))
            loser = state.choice_queue[0][0]
            state.push(Choose(loser, "end", state.end_of[loser]))
        else:
            state.push(Choose(winner, "end", lag_winner_side))
            loser = state.choice_queue[0][0]
            state.push(Choose(loser, "start", winner))


def field_pose(half: str, i: int, x_abs: float = 1.0) -> Pose:
    """A raised pose in ``half`` at |x| = x_abs, spread in y by index."""
    x = x_abs if half == "B" else -x_abs
    return Pose((x, -1.5 + 0.3 * i, 0.075))


def inkast_all_valid(state: MatchState, x_abs: float = 1.0) -> None:
    """Push the pending inkast with every kubb valid, and the raise."""
    a = state.legal_actions()[0]
    assert isinstance(a, Inkast)
    half = opponent(a.side)
    state.push(a, InkastOutcome(valid={k: field_pose(half, i, x_abs) for i, k in enumerate(a.kubbs)}))
    r = state.legal_actions()[0]
    assert isinstance(r, Raise)
    state.push(r)


def throw(state: MatchState, outcome: ThrowOutcome = MISS):
    a = state.legal_actions()[0]
    assert isinstance(a, (BatonThrow, KingThrow)), a
    state.push(a, outcome)
    return a


def finish_turn(state: MatchState) -> None:
    """Miss with every remaining baton of the turn."""
    turn = (state.set_no, state.turn_no)
    while state.phase == Phase.THROW and (state.set_no, state.turn_no) == turn:
        throw(state)


def step_default(state: MatchState) -> None:
    """One action with a neutral outcome: inkasts valid, throws miss, first candidate chosen."""
    a = state.legal_actions()[0]
    if isinstance(a, Inkast):
        inkast_all_valid(state)
    elif isinstance(a, (BatonThrow, KingThrow)):
        state.push(a, MISS)
    elif isinstance(a, PenaltyThrow):
        state.push(a, InkastOutcome(valid={a.kubb: field_pose(opponent(a.from_side), 9)}))
    elif isinstance(a, PlaceKubb):
        x = 1.5 if a.half == "B" else -1.5
        state.push(PlaceKubb(a.side, a.kubb, (x, 2.0), a.reason, a.half))
    elif isinstance(a, (Raise, RemoveTieBreakKubb)):
        state.push(a)
    elif isinstance(a, LagThrow):
        state.push(a, LagResult(0.1 if a.side == "A" else 0.4))
    elif isinstance(a, Choose):
        state.push(a)
    else:
        raise AssertionError(a)


def clear_half(state: MatchState) -> None:
    """The thrower fells every standing kubb of the opponent's half with the next throws (one per throw)."""
    side = state.turn_side
    for k in list(state.standing_in(opponent(side))):
        throw(state, ThrowOutcome(felled=frozenset({k.id})))


def play_out(state: MatchState, limit: int = 500) -> None:
    """Neutral actions (:func:`step_default`) until the match has an outcome; fails after
    ``limit`` actions (a match that would never end)."""
    for _ in range(limit):
        if state.outcome() is not None:
            return
        step_default(state)
    assert state.outcome() is not None, f"no outcome after {limit} actions"

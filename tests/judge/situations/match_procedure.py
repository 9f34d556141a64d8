"""Match procedure through kubb3d.rules for the examinations' checks: a match opened by a chosen
side after the lag (DM §3), throws with chosen outcomes, a turn thrown to its end."""

from __future__ import annotations

from kubb3d.rules import (
    BatonThrow,
    Choose,
    KingThrow,
    LagResult,
    LagThrow,
    MatchState,
    Phase,
    Ruleset,
    ThrowOutcome,
    get_ruleset,
)


def opened_by(ruleset: str | Ruleset, opener: str = "A", **kw) -> MatchState:
    """A match under ``ruleset`` (a name or a Ruleset) whose side ``opener`` won the lag and opens
    (DM §3: the loser takes his end)."""
    state = MatchState(get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset, ("L", "R"), **kw)
    near, far = (0.1, 0.3) if opener == "A" else (0.3, 0.1)
    state.push(LagThrow("A"), LagResult(near))
    state.push(LagThrow("B"), LagResult(far))
    if state.phase == Phase.CHOOSE:
        winner = state.player_at(opener)
        state.push(Choose(winner, "start", winner))
        loser = state.choice_queue[0][0]
        state.push(Choose(loser, "end", state.end_of[loser]))
    assert state.turn_side == opener
    return state


def throw(state: MatchState, felled=(), **kw) -> None:
    action = state.legal_actions()[0]
    assert isinstance(action, (BatonThrow, KingThrow)), action
    state.push(action, ThrowOutcome(felled=frozenset(felled), **kw))


def finish_turn(state: MatchState) -> None:
    turn = (state.set_no, state.turn_no)
    while state.phase == Phase.THROW and (state.set_no, state.turn_no) == turn:
        throw(state)

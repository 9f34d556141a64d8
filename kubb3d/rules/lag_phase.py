"""The lag throws and the choices they win (``DM §3``, ``§9``; WS "Sequence of Play"; the
Kubbuteo lag flick): who opens the match, who picks the end and the first turn, and in a
tie-break who has the advantage. The functions take the :class:`~kubb3d.rules.MatchState`
they change; it binds them as its ``_push_LagThrow``, ``_after_lag`` and ``_push_Choose``
methods."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kubb3d.judge.messages import msg
from kubb3d.pitch import Side, as_side, opponent
from kubb3d.rules.actions import Choose, LagThrow, Phase, choice_message
from kubb3d.rules.outcomes import LagResult

if TYPE_CHECKING:
    from kubb3d.rules.core import MatchState


def push_lag_throw(state: MatchState, a: LagThrow, r: LagResult) -> None:
    rs = state.ruleset
    state._tick(rs.time.lag_throw_s)
    state.lag_results[a.side] = r
    d = msg("off the pitch") if r.distance is None else msg("{d_cm:.1f} cm from the king", d_cm=r.distance * 100) \
        if rs.flicks else msg("{d_m:.3f} m from the king", d_m=r.distance)  # cm on the Kubbuteo board
    who = state.player_at(a.side)
    felled = (
        msg(", king felled")
        if r.king_felled
        else msg(", king hit")
        if r.king_hit and rs.lag_lost(r)
        else ""
    )
    lag = {"player": who, "end": a.side, "where": d, "felled": felled}
    state._emit(
        "lag",
        msg("{player} lag flick from end {end}: {where}{felled}", **lag)
        if rs.flicks
        else msg("{player} lag throw from end {end}: {where}{felled}", **lag),
        (rs.cite("lag"),),
        a.side,
        who,
    )
    if len(state.lag_results) < 2:
        return
    ra, rb = state.lag_results["A"], state.lag_results["B"]
    state.lag_results = {}
    winner_side: Side | None
    lost_a, lost_b = rs.lag_lost(ra), rs.lag_lost(rb)
    if lost_a != lost_b:
        winner_side = "B" if lost_a else "A"
    elif lost_a and lost_b:
        winner_side = None
    else:
        da = math.inf if ra.distance is None else ra.distance
        db = math.inf if rb.distance is None else rb.distance
        winner_side = None if da == db else ("A" if da < db else "B")
    if winner_side is None:
        tie = rs.lag_tie_winner(state)
        winner_side = None if tie is None else state.end_of[tie]
        if winner_side is None:
            tied = msg("lag flick tied: repeated") if rs.flicks else msg("lag throw tied: repeated")
            state._emit("lag", tied, (rs.cite("lag"),))
            return
    winner = state.player_at(winner_side)
    won = (
        msg("{player} wins the lag flick", player=winner)
        if rs.flicks
        else msg("{player} wins the lag throw", player=winner)
    )
    state._emit("lag", won, (rs.cite("lag"),), winner_side, winner)
    state._after_lag(winner)


def after_lag(state: MatchState, winner: str) -> None:
    if state.lag_purpose == "start":
        if state.ruleset.lag_choice:
            state.phase = Phase.CHOOSE
            state.choice_queue = [(winner, ("end", "start"))]
        else:
            state.opener = winner
            state._start_set()
    elif state.lag_purpose == "tiebreak":
        state.tb_advantage = winner
        state.tb_stage = "advantage_pending"
        state._emit(
            "tiebreak",
            msg("{player} has the tie-break advantage", player=winner),
            (state.ruleset.cite("tiebreak"),),
            player=winner,
        )
        state._next_turn()
    elif state.lag_purpose == "decider":
        state.phase = Phase.CHOOSE
        state.choice_queue = [(winner, ("advantage",))]


def push_choose(state: MatchState, a: Choose, _: None) -> None:
    rs = state.ruleset
    state._tick(rs.time.choose_s)
    state.choice_queue.pop(0)
    other = state.players[1] if a.player == state.players[0] else state.players[0]
    if a.what == "advantage":
        adv, chooser = (a.player, other) if a.value == "tiebreak" else (other, a.player)
        state.tb_advantage = adv
        said = choice_message(a.player, a.what, a.value, other)
        state._emit("choice", said, (rs.cite("tiebreak_decider"),), player=a.player)
        state.choice_queue = [(chooser, ("end",)), (chooser, ("start",))]
        state._chosen = set()
        return
    if a.what == "end":
        end = as_side(a.value)
        state.end_of[a.player] = end
        state.end_of[other] = opponent(end)
    else:
        state.opener = a.value
    state._emit("choice", choice_message(a.player, a.what, a.value, other), (rs.cite("lag"),), player=a.player)
    state._chosen.add(a.what)
    if not state.choice_queue:
        remaining = tuple(w for w in ("end", "start") if w not in state._chosen)
        if remaining:
            state.choice_queue = [(other, remaining)]
    if not state.choice_queue:
        state._chosen = set()
        state._start_set()


"""Sets and turns (``DM §3``, ``§4``, ``§9``; WS "Sequence of Play", basic rule 2, "End of the
Game"; ``KT rules``): a set begins with the baseline kubbs standing, turns alternate, a turn
ends when its batons are thrown (kubbs to be raised again stood up), the time limit is checked
at the end of every turn and set, and a tie-break removes kubbs nearest the baseline. The
functions take the :class:`~kubb3d.rules.MatchState` they change; it binds them as its
``_start_set``, ``_next_turn``, ``_end_turn``, ``_end_set`` … methods."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from kubb3d.judge.messages import join, msg, nmsg, ids
from kubb3d.judge.rulings import Pose
from kubb3d.pitch import SIDES, opponent
from kubb3d.rules.actions import Phase, RemoveTieBreakKubb
from kubb3d.rules.outcomes import Termination
from kubb3d.rules.records import KubbInfo
from kubb3d.rules.ruleset import _over

if TYPE_CHECKING:
    from kubb3d.rules.core import MatchState


def start_set(state: MatchState) -> None:
    rs = state.ruleset
    state.set_no += 1
    state.play_started = True
    state.kubbs = {}
    for side in SIDES:
        for kid, (x, y) in state.pitch.baseline_kubb_positions(side).items():
            state.kubbs[kid] = KubbInfo(kid, side, True, True, Pose((x, y, state._kubb_z)))
    state.king_standing = True
    state.turn_no = 0
    state.raise_at_end = set()
    opener_side = state.end_of[cast(str, state.opener)]
    ends = join([msg("{player} at end {end}", player=p, end=state.end_of[p]) for p in state.players])
    state._emit(
        "set",
        msg("set {n}: {ends}; {opener} opens", n=state.set_no, ends=ends, opener=state.opener),
        (rs.cite("sets"),),
        opener_side,
        state.opener,
    )
    if state.tb_decider:
        state.tb_stage = "decider_pending"
    state.turn_side = opponent(opener_side)
    state._next_turn()


def next_turn(state: MatchState) -> None:
    rs = state.ruleset
    state.turn_side = opponent(state._side())
    state.turn_no += 1
    state.total_turns += 1
    state.batons_left = rs.batons_for_turn(state.turn_no)
    state.batons_thrown = 0
    state.king_throws = 0
    state.inkasted_this_turn = []
    state.to_raise = {}
    state.place_queue = []
    state.penalty_queue = []
    state.penalty_carry = []
    state.tb_pending_removals = []
    s = state._side()
    state._emit(
        "turn",
        nmsg(
            "turn {n}: {player} (end {end}) with {batons} baton",
            "turn {n}: {player} (end {end}) with {batons} batons",
            state.batons_left,
            n=state.turn_no,
            player=state.player_at(s),
            end=s,
            batons=state.batons_left,
        ),
        (rs.cite("schedule"),),
        s,
    )
    felled = state.felled_in(s)
    if felled:
        state.inkast_pending = tuple(felled)
        state.inkast_attempt = 1
        state.phase = Phase.INKAST
    else:
        state._after_raise()


def push_remove_tie_break_kubb(state: MatchState, a: RemoveTieBreakKubb, _: None) -> None:
    rs = state.ruleset
    state._tick(rs.time.tiebreak_removal_s)
    k = state.kubbs[a.kubb]
    k.removed = True
    k.standing = False
    state.raise_at_end.discard(a.kubb)
    state._emit(
        "tiebreak",
        msg("tie-break kubb {kubb} removed from half {half}", kubb=a.kubb, half=a.half),
        (rs.cite("tiebreak"),),
        a.side,
    )
    state.tb_pending_removals.pop(0)
    if state.tb_pending_removals:
        return
    if state._removal_then == "throw":
        state._begin_throwing()
    else:
        state._next_turn()


def end_turn(state: MatchState) -> None:
    rs = state.ruleset
    s = state._side()
    if state.raise_at_end:
        state._emit(
            "raise",
            nmsg(
                "raised again at its original spot: {kubbs}",
                "raised again at their original spots: {kubbs}",
                len(state.raise_at_end),
                kubbs=ids(sorted(state.raise_at_end)),
            ),
            (rs.cite("early_baseline"),),
            s,
        )
    state.raise_at_end = set()
    state._tick(rs.time.change_ends_s)
    if state._time_check():
        state._emit(
            "clock",
            msg(
                "time limit of {minutes:.0f} min reached; the turn in progress was finished",
                minutes=(state.time_limit_s or 0.0) / 60,
            ),
            (rs.cite("time"),),
        )
        res = rs.time_up_result(state)
        if res is not None:
            state._outcome = res
            state.phase = Phase.OVER
            state._emit("result", _over(res.winner, res.reason))
            return
        state._start_tiebreak()
        return
    if state.turn_no >= state.round_cap:
        state._cap()
        return
    if state.tb_stage == "advantage_turn":
        state.tb_stage = "every"
    if state.tb_stage == "decider_pending" and state.turn_no == 3:
        adv_side = state.end_of[cast(str, state.tb_advantage)]
        state.tb_stage = "every"
        if state.standing_in(opponent(adv_side)):
            state.tb_pending_removals = [(adv_side, opponent(adv_side))]
            state._removal_then = "next_turn"
            state.phase = Phase.TIEBREAK
            return
    state._next_turn()


def time_check(state: MatchState) -> bool:
    """True once, when the clock first passes the time limit (checked at turn and set ends)."""
    if state.time_limit_s is not None and state.clock >= state.time_limit_s and not state.time_expired:
        state.time_expired = True
        return True
    return False


def start_tiebreak(state: MatchState) -> None:
    """``DM §9`` step 2: a second lag throw decides the tie-break advantage."""
    state.lag_purpose = "tiebreak"
    state.phase = Phase.LAG
    state.lag_results = {}


def end_set(state: MatchState, winner: str, termination: Termination, reason: str) -> None:
    rs = state.ruleset
    state.set_wins[winner] += 1
    state.set_winners.append(winner)
    state._emit(
        "set", msg("set {n} to {player}: {reason}", n=state.set_no, player=winner, reason=reason), (), player=winner
    )
    need = state.sets // 2 + 1
    p0, p1 = state.players
    if state.set_wins[winner] >= need:
        pts = rs.match_points(state, winner, termination)
        state._finish(
            termination if state.sets == 1 else Termination.SETS,
            winner,
            reason
            if state.sets == 1
            else msg(
                "{player} won {won} of best-of-{sets} sets ({rule})",
                player=winner,
                won=state.set_wins[winner],
                sets=state.sets,
                rule=rs.cite("sets"),
            ),
            pts,
        )
        return
    if state._time_check():
        state._emit(
            "clock",
            msg(
                "time limit of {minutes:.0f} min reached at the end of set {n}",
                minutes=(state.time_limit_s or 0.0) / 60,
                n=state.set_no,
            ),
            (rs.cite("time"),),
        )
    if state.time_expired:
        if state.set_wins[p0] != state.set_wins[p1]:
            w = p0 if state.set_wins[p0] > state.set_wins[p1] else p1
            why = msg("time is up and {player} leads in sets ({rule})", player=w, rule=rs.cite("tiebreak_decider"))
            state._finish(Termination.TIME, w, why)
            return
        state.tb_decider = True
        state.tb_stage = None
        state.tb_advantage = None
        state.lag_purpose = "decider"
        state.phase = Phase.LAG
        state._tick(rs.time.set_break_s)
        state._emit(
            "tiebreak",
            msg("sets level after the time limit: a deciding set in tie-break, third lag throw"),
            (rs.cite("tiebreak_decider"),),
        )
        state._swap_for_next_set()
        state.opener = None
        return
    state._tick(rs.time.set_break_s)
    state._swap_for_next_set()
    state._start_set()


def swap_for_next_set(state: MatchState) -> None:
    """``DM §3``: after each set the players change ends and the right to open."""
    p0, p1 = state.players
    state.end_of = {p0: state.end_of[p1], p1: state.end_of[p0]}
    if state.opener is not None:
        state.opener = p1 if state.opener == p0 else p0


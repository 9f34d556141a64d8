"""The throwing phase of a turn (``DM §4``, ``§5``, ``§8``, ``§10``; WS basic rules 2, 6, 8;
``KT rules`` flicks): the (advance) line, baton and king throws, what they fell and the king
that ends a set. The functions take the :class:`~kubb3d.rules.MatchState` they change; it
binds them as its ``_begin_throwing``, ``_push_BatonThrow``, ``_push_KingThrow`` and
``_throw`` methods."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from kubb3d.errors import OutcomeError
from kubb3d.judge.messages import concat, ids, join, msg, piece_name
from kubb3d.pitch import Side, opponent
from kubb3d.rules.actions import BatonThrow, KingThrow, Phase
from kubb3d.rules.outcomes import Termination, ThrowOutcome

if TYPE_CHECKING:
    from kubb3d.rules.core import MatchState


def begin_throwing(state: MatchState) -> None:
    s = state._side()
    state.line_x = state.throwing_line(s)
    state.phase = Phase.THROW
    if state.line_x != state.pitch.baseline_x(s):
        state._emit(
            "line",
            msg("{player} advances to the line x = {x_cm:.1f} cm", player=state.player_at(s), x_cm=state.line_x * 100)
            if state.ruleset.flicks else msg("{player} advances to the line x = {x:.2f} m", player=state.player_at(s),
                                            x=state.line_x),
            (state.ruleset.cite("advance"),),
            s,
        )


def push_baton_throw(state: MatchState, a: BatonThrow, r: ThrowOutcome) -> None:
    state._throw(a, r, king=False)


def push_king_throw(state: MatchState, a: KingThrow, r: ThrowOutcome) -> None:
    state._throw(a, r, king=True)


def throw(state: MatchState, a: BatonThrow | KingThrow, r: ThrowOutcome, king: bool) -> None:
    rs = state.ruleset
    s, o = a.side, opponent(a.side)
    state._tick(rs.time.baton_throw_s)
    state.batons_left -= 1
    state.batons_thrown += 1
    if king:
        state.king_throws += 1
    counted = []
    for kid in sorted(r.felled):
        k = state.kubbs.get(kid)
        if k is None or k.removed or not k.standing or k.half != o:
            state._emit(
                "note",
                msg(
                    "{kubb} cannot be felled by this throw (not standing in half {half}); ignored", kubb=kid, half=o
                ),
                (),
                s,
            )
            continue
        k.standing = False
        state.raise_at_end.discard(kid)
        counted.append(kid)
    for kid in sorted(r.raise_again):
        # a book that stands them up at once (KT) keeps none for the end of the turn: they
        # stand, and are targets again
        if kid in state.kubbs and state.kubbs[kid].standing and not rs.book.stand_again_now:
            state.raise_at_end.add(kid)
    for kid, pose in r.poses.items():
        k = state.kubbs.get(kid)
        if k is not None and k.standing and kid not in state.raise_at_end:
            k.pose = pose
    where = {"n": state.batons_thrown, "baton": piece_name(a.baton), "x": a.line_x}
    if rs.flicks:  # KT rules: "flicks the six batons"; lengths on the board in cm
        at = {"n": state.batons_thrown, "baton": piece_name(a.baton), "x_cm": a.line_x * 100}
        what = (msg("king flick {n} ({baton}, line x = {x_cm:.1f} cm)", **at) if king
                else msg("flick {n} ({baton}, line x = {x_cm:.1f} cm)", **at))
    else:
        what = (
            msg("king throw {n} ({baton}, line x = {x:.2f} m)", **where)
            if king
            else msg("throw {n} ({baton}, line x = {x:.2f} m)", **where)
        )
    pieces: list[str] = list(counted)
    if r.winner is not None or r.loser is not None:
        pieces.append(msg("the king"))  # the king fell (DM §1, §10)
    res = concat(
        msg("felled {pieces}", pieces=join(pieces)) if pieces else msg("nothing felled"),
        msg("; to be raised again: {kubbs}", kubbs=ids(sorted(r.raise_again))) if r.raise_again else "",
        msg("; illegal throw") if not r.legal else "",
    )
    state._emit(
        "throw",
        msg("{player} {what}: {result}", player=state.player_at(s), what=what, result=res),
        (rs.cite("king") if king else rs.cite("throw"),) + rs.line_cites(a.line_x != state.pitch.baseline_x(s)),
        s,
    )
    if r.winner is not None or r.loser is not None:
        if r.winner is not None and r.loser is not None and r.winner == r.loser:
            raise OutcomeError("throw outcome names the same side as winner and loser")
        win_side = r.winner if r.winner is not None else opponent(cast(Side, r.loser))
        if win_side == s and not (king and r.legal):
            raise OutcomeError(
                f"the judge gave the win to the thrower {s} for a throw that was not a legal king throw"
            )
        state.king_standing = False
        if win_side == s:
            state._end_set(
                state.player_at(s),
                Termination.KING,
                msg(
                    "{player} felled the king with a king throw ({rule})",
                    player=state.player_at(s),
                    rule=rs.cite("king"),
                ),
            )
        else:
            state._end_set(
                state.player_at(o),
                Termination.EARLY_KING,
                msg(
                    "{player} felled the king early ({rule})", player=state.player_at(s), rule=rs.cite("early_king")
                ),
            )
        return
    limit = rs.king_throws_per_turn
    if state.batons_left <= 0 or (king and limit is not None and state.king_throws >= limit):
        state._end_turn()


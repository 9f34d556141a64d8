"""The inkast phase of a turn (``DM §6``, ``§7``; ``WS basic rules 10-12``; ``KT rules``
returns): inkasted kubbs, penalty kubbs thrown or placed, raising and placing stößel. The
functions take the :class:`~kubb3d.rules.MatchState` they change; it binds them as its
``_push_Inkast``, ``_push_PenaltyThrow``, ``_push_PlaceKubb``, ``_push_Raise`` … methods."""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

from kubb3d.errors import IllegalAction, OutcomeError
from kubb3d.judge.messages import Msg, msg, nmsg
from kubb3d.judge.rulings import Pose
from kubb3d.pitch import Side, opponent
from kubb3d.rules.actions import Inkast, PenaltyThrow, Phase, PlaceKubb, Raise
from kubb3d.rules.outcomes import InkastOutcome, Termination
from kubb3d.rules.ruleset import PLACE_REASONS

if TYPE_CHECKING:
    from kubb3d.rules.core import MatchState


def push_inkast(state: MatchState, a: Inkast, r: InkastOutcome) -> None:
    rs = state.ruleset
    s, o = a.side, opponent(a.side)
    state._tick(rs.time.inkast_per_kubb_s * len(a.kubbs))
    state._apply_inkast(a.kubbs, r, s, o)
    if state.phase == Phase.OVER:
        return
    bad = [k for k in a.kubbs if k in r.invalid]
    again, penalty = rs.split_misses(bad, a.attempt)
    state.penalty_carry += [k for k in penalty if k not in state.penalty_carry]
    if again:
        state.inkast_pending = tuple(again)
        state.inkast_attempt = a.attempt + 1
        state._emit(
            "inkast",
            msg("misflicked return of {kubbs}: flicked again", kubbs=", ".join(again))
            if rs.flicks
            else msg("invalid inkast of {kubbs}: thrown again", kubbs=", ".join(again)),
            (rs.cite("inkast"),),
            s,
        )
        return
    if state.penalty_carry:
        bad = list(state.penalty_carry)
        state.penalty_carry = []
        state.penalty_queue = bad
        state.penalty_number = 0
        state._emit(
            "penalty",
            nmsg(*rs.penalty_words, len(bad), kubbs=", ".join(bad)),
            (rs.cite("penalty"),),
            s,
        )
        state.phase = Phase.PENALTY
        return
    state._after_inkast()

def apply_inkast(
    state: MatchState, kubbs: Sequence[str], r: InkastOutcome, s: Side, o: Side, thrower: Side | None = None
) -> None:
    """Record inkasted kubbs of side ``s`` into half ``o``; ``thrower``: who threw them, if
    not ``s`` (a penalty kubb thrown by the receiving side, ``DM §6``): a king it fells
    loses the set for its thrower (``DM §1`` "mit Kubb oder Wurfholz")."""
    rs = state.ruleset
    unknown = (set(r.valid) | set(r.invalid) | set(r.stossel)) - set(kubbs)
    if unknown:
        raise OutcomeError(f"inkast outcome names kubbs that were not inkasted: {sorted(unknown)}")
    missing = set(kubbs) - set(r.valid) - set(r.invalid) - set(r.stossel)
    if missing:
        raise OutcomeError(f"inkast outcome says nothing about {sorted(missing)}")
    for k in kubbs:
        if k not in state.inkasted_this_turn:
            state.inkasted_this_turn.append(k)
    for k, pose in r.valid.items():
        state.to_raise[k] = pose
    for k in sorted(r.stossel):
        state.place_queue.append((k, "stößel", s, o))
    valid_txt = ", ".join(sorted(set(r.valid) | set(r.stossel)))
    if valid_txt:
        into = {"player": state.player_at(s), "kubbs": valid_txt, "half": o}
        state._emit(
            "inkast",
            msg("{player} returns {kubbs} into half {half}", **into)  # KT: "returning knocked down Kubbs"
            if rs.flicks
            else msg("{player} inkasts {kubbs} validly into half {half}", **into),
            (rs.cite("inkast"),),
            s,
        )
    if r.stossel:
        state._emit(
            "inkast",
            msg("stößel: {kubbs} (placed freely after raising)", kubbs=", ".join(sorted(r.stossel))),
            (rs.cite("stossel"),),
            s,
        )
    if r.king_felled:
        state.king_standing = False
        feller = s if thrower is None else thrower
        state._end_set(
            state.player_at(opponent(feller)),
            Termination.EARLY_KING,
            msg(
                "{player} felled the king early with an inkasted kubb ({rule})",
                player=state.player_at(feller),
                rule=rs.cite("early_king"),
            ),
        )

def push_penalty_throw(state: MatchState, a: PenaltyThrow, r: InkastOutcome) -> None:
    rs = state.ruleset
    state._tick(rs.time.penalty_throw_s)
    s = state._side()
    o = opponent(s)
    state._apply_inkast((a.kubb,), r, a.from_side, o, thrower=a.side)
    if state.phase == Phase.OVER:
        return
    if a.kubb in r.invalid:
        state.penalty_number += 1
        state._emit(
            "penalty",
            msg(
                "penalty throw {n} of {kubb} by {player} invalid",
                n=a.number,
                kubb=a.kubb,
                player=state.player_at(a.side),
            ),
            (rs.cite("penalty"),),
            a.side,
        )
        return
    state._emit(
        "penalty",
        msg(
            "penalty throw {n} of {kubb} by {player} valid", n=a.number, kubb=a.kubb, player=state.player_at(a.side)
        ),
        (rs.cite("penalty"),),
        a.side,
    )
    state.penalty_queue.pop(0)
    state.penalty_number = 0
    if not state.penalty_queue:
        state._after_inkast()

def push_place_kubb(state: MatchState, a: PlaceKubb, _: None) -> None:
    rs = state.ruleset
    state._tick(rs.time.place_s)
    if a.position is None:
        raise IllegalAction(f"PlaceKubb of {a.kubb} needs a position")
    x, y = a.position
    k = state.kubbs[a.kubb]
    k.half, k.baseline, k.standing, k.pose = a.half, False, True, Pose((float(x), float(y), state._kubb_z))
    cite = rs.cite("stossel") if a.reason == "stößel" else rs.cite("penalty_place")
    text = msg(
        "{player} places {what} {kubb} at ({x:.2f}, {y:.2f}) m",
        player=state.player_at(a.side),
        what=Msg(a.reason) if a.reason in PLACE_REASONS else a.reason,
        kubb=a.kubb,
        x=x,
        y=y,
    )
    state._emit("place", text, (cite,), a.side)
    if a.reason == "penalty":
        state.penalty_queue.pop(0)
        state.penalty_number = 0
        if not state.penalty_queue:
            state._after_inkast()
    else:
        state.place_queue.pop(0)
        if not state.place_queue:
            state._after_place()

def after_inkast(state: MatchState) -> None:
    if state.to_raise:
        state.phase = Phase.RAISE
    else:
        state._after_raise()

def push_raise(state: MatchState, a: Raise, poses: Mapping[str, Pose] | None) -> None:
    rs = state.ruleset
    state._tick(rs.time.raise_per_kubb_s * len(a.kubbs))
    for kid in a.kubbs:
        k = state.kubbs[kid]
        pose = (poses or {}).get(kid, state.to_raise[kid])
        k.half, k.baseline, k.standing, k.pose = a.side, False, True, pose
    state._emit(
        "raise",
        msg("{player} raises {kubbs}", player=state.player_at(a.side), kubbs=", ".join(a.kubbs)),
        (rs.cite("raise"),),
        a.side,
    )
    state.to_raise = {}
    state._after_raise()

def after_raise(state: MatchState) -> None:
    if state.place_queue:
        state.phase = Phase.PLACE
        return
    state._after_place()

def after_place(state: MatchState) -> None:
    s = state._side()
    if state.tb_stage == "every" or (
        state.tb_stage == "advantage_pending" and state.player_at(s) == state.tb_advantage
    ):
        if state.tb_stage == "advantage_pending":
            state.tb_stage = "advantage_turn"
        if state.standing_in(opponent(s)):
            state.tb_pending_removals.append((s, opponent(s)))
    if state.tb_pending_removals:
        state._removal_then = "throw"
        state.phase = Phase.TIEBREAK
    else:
        state._begin_throwing()

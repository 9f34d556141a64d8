"""Performing a match's actions in the physics world: lag throws, baton and king throws,
inkasts and penalty kubbs, placements and raising; each throw repeated after a physics
glitch (package doc), the judge's rulings applied to the world. What depends on how the
ruleset's pieces are thrown is asked of the match's flow (:mod:`kubb3d.match.flow`)."""

from __future__ import annotations

import math
from typing import Callable, Generator, Sequence, cast

import numpy as np

from kubb3d.judge.messages import known, msg, nmsg, piece_name
from kubb3d.judge.rulings import Consequence, Pose
from kubb3d.match.core import MatchCore
from kubb3d.match.flow import KING_FELLED_TILT, Make, Params, Run
from kubb3d.match.protocol import HumanRequest, Performance, Performed, ThrowAnswer
from kubb3d.match.records import throw_record
from kubb3d.physics.world import PhysicsGlitch, World
from kubb3d.pitch import KING_ID, Pitch, Side, opponent
from kubb3d.rules import (
    Action,
    BatonThrow,
    Event,
    Inkast,
    InkastOutcome,
    KingThrow,
    LagResult,
    LagThrow,
    PenaltyThrow,
    PlaceKubb,
    Raise,
    RemoveTieBreakKubb,
    ThrowOutcome,
)
from kubb3d.snapshot import tilt_from_vertical
from kubb3d.throw import ThrowFrame, ThrowResult, aim_point

GLITCH_RETRIES = 3
"""Repeats of a throw after physics glitches before it counts as a throw without effect."""
GLITCH_MARGIN_M = 20.0
"""m: a piece at rest further than this outside the pitch is a glitch."""
GLITCH_REST_SPEED = 1.0
"""m/s: a piece still this fast when the throw's time is up is a glitch."""
GLITCH_MAX_SPEED = 60.0
"""m/s: a sampled speed above this is a glitch (energy blew up)."""


def glitch_reason(result: ThrowResult, pitch: Pitch, floor_z: float = 0.0) -> str | None:
    """Why a finished throw looks like a physics glitch (package doc), or None; ``floor_z`` is
    the height of the lowest surface, m (below a Kubbuteo board: minus the table height)."""
    for pid, p in result.final.pieces.items():
        if p.kind == "stake":
            continue
        x, y, z = p.position
        if not all(math.isfinite(v) for v in (*p.position, *p.quat_xyzw)):
            return f"{pid} has a NaN pose"
        if abs(x) > pitch.length / 2 + GLITCH_MARGIN_M or abs(y) > pitch.half_width + GLITCH_MARGIN_M:
            return f"{pid} ended {max(abs(x) - pitch.length / 2, abs(y) - pitch.half_width):.1f} m outside the pitch"
        if z < floor_z - 0.05:
            return f"{pid} sank below the ground (z = {z:.3f} m)"
        if not result.at_rest and math.hypot(*p.linear_velocity) > GLITCH_REST_SPEED:
            return f"{pid} still moves at {math.hypot(*p.linear_velocity):.1f} m/s at rest"
    t = result.trajectory.times
    if len(t) > 1:
        dt = np.diff(t)
        dt[dt <= 0] = np.inf
        for pid, arr in result.trajectory.poses.items():
            if len(arr) > 1:
                v = np.linalg.norm(np.diff(arr[:, :3], axis=0), axis=1) / dt[: len(arr) - 1]
                if np.nanmax(v) > GLITCH_MAX_SPEED:
                    return f"{pid} reached {np.nanmax(v):.0f} m/s (energy blew up)"
    return None


Maker = Callable[
    [np.random.Generator], "tuple[Params, Params] | Generator[HumanRequest, ThrowAnswer, tuple[Params, Params]]"
]
"""A release maker: a simulated player's (:data:`kubb3d.match.flow.Make`) or a person's (a
generator that yields the :class:`HumanRequest` and is sent the parameters)."""


class Throwing(MatchCore):
    """Performing actions (:meth:`_perform`); a person's throws are asked for through
    :meth:`_maker` (:class:`kubb3d.match.human.HumanInput`)."""

    def _maker(
        self,
        side: str,
        make: Make,
        kind: str,
        piece: str,
        line_x: float,
        into: str | None,
        target: Sequence[float] | None,
        world: Callable[[], World] | None = None,
    ) -> Maker:
        return make  # a simulated player; kubb3d.match.human.HumanInput asks a person

    def _throw_record(self, res: ThrowResult, intended: Params | None = None) -> dict:
        d = throw_record(res, self.config.trajectory_hz, intended)
        self._step_throws.append(d)
        return d

    def _simulate_with_retries(
        self,
        make: Maker,
        run: Run,
        restore: Callable[[], None],
        notes: list[Event],
        side: str | None,
        throw_no: int = 0,
    ) -> Generator[HumanRequest | ThrowFrame, ThrowAnswer | None, tuple[ThrowResult | None, Params | None]]:
        """Run a throw (the action's ``throw_no``-th, 0-based); on a physics glitch restore the
        world and repeat with new noise (a generator: it yields the :class:`HumanRequest` of a
        person's throw and is sent the answer, and it yields the throw's
        :class:`~kubb3d.throw.ThrowFrame` as they are simulated)."""
        for attempt in range(GLITCH_RETRIES + 1):
            made = make(self._rng(attempt, throw_no))
            # a person's throw: the maker is a generator that yields a HumanRequest (Match.step)
            if isinstance(made, tuple):
                intended, params = made
            else:
                intended, params = yield from made
            try:
                res = yield from run(params)
                reason = glitch_reason(res, self.pitch, self._floor_z())
            except PhysicsGlitch as exc:
                res, reason = None, str(exc)  # type: ignore[assignment]
            if reason is None:
                return res, intended
            self.glitches.append({"i": self.action_index, "attempt": attempt, "reason": reason})
            text = msg("physics glitch ({reason}): world restored, throw repeated", reason=reason)
            notes.append(self._note("glitch", text, (self.ruleset.book.glitch,), side))
            restore()
        n = GLITCH_RETRIES + 1
        text = nmsg(
            "{n} glitch in a row: the throw counts as a throw without effect",
            "{n} glitches in a row: the throw counts as a throw without effect",
            n,
            n=n,
        )
        notes.append(self._note("glitch", text, (), side))
        return None, None

    # ------------------------------------------------------------------ actions
    def _perform(self, a: Action) -> Performance:
        if isinstance(a, LagThrow):
            return (yield from self._lag(a))
        if isinstance(a, (BatonThrow, KingThrow)):
            return (yield from self._baton(a))
        if isinstance(a, Inkast):
            return (yield from self._inkast(a.side, a.kubbs, a.attempt, a.side, opponent(a.side), False))
        if isinstance(a, PenaltyThrow):
            receiving = a.side == opponent(a.from_side)
            return (
                yield from self._inkast(a.side, (a.kubb,), 1, a.from_side, opponent(a.from_side), receiving, "penalty")
            )
        if isinstance(a, PlaceKubb):
            eq = self._eq()
            assert a.position is not None
            self._w.set_side(a.kubb, a.half)
            self._w.set_pose(
                a.kubb, (a.position[0], a.position[1], eq.kubb.height / 2), (0.0, 0.0, 0.0, 1.0), wake=False
            )
            self._make_room({a.kubb})
            return None, {}, []
        if isinstance(a, RemoveTieBreakKubb):
            self._w.remove_piece(a.kubb)
            return None, {}, []
        if isinstance(a, Raise):
            self.flow.raise_kubbs(self, a)
            self._make_room(set(a.kubbs))
        return None, {}, []

    def _lag_world(self) -> tuple[dict[str, World], Callable[[], None]]:
        """A holder {"w": world} with a fresh standard world for a lag throw, and the function
        that replaces it by another fresh one (each attempt starts from the untouched set-up)."""
        holder: dict[str, World] = {}

        def fresh() -> None:
            if "w" in holder:
                holder["w"].close()
            w = self._new_world()
            w.setup_standard()
            holder["w"] = w

        fresh()
        return holder, fresh

    def _lag(self, a: LagThrow) -> Performance:
        """A lag throw (``DM §3``, ``§9``; WS "Sequence of Play"; Kubbuteo: a lag flick) in a
        fresh standard world of its own; its record brings that world's poses before the throw
        (``before``) and at rest (``_final``, for :meth:`_after`)."""
        player = self.players[self.state.player_at(a.side)]
        notes: list[Event] = []
        holder, fresh = self._lag_world()
        before = self._world_poses(holder["w"])
        make, run = self.flow.lag_release(self, player, a.side, holder)
        res, intended = yield from self._simulate_with_retries(
            self._maker(
                a.side, make, "lag", "baton1", self.pitch.baseline_x(a.side), None, (0.0, 0.0, 0.0), lambda: holder["w"]
            ),
            run,
            fresh,
            notes,
            a.side,
        )
        if res is None:
            holder["w"].close()
            return LagResult(None, False), {}, notes
        extra = {
            "throws": [self._throw_record(res, intended)],
            "before": before,
            "_final": self._world_poses(holder["w"]),
        }
        holder["w"].close()
        return self.flow.lag_result(self, res), extra, notes

    def _start_round_if_needed(self) -> None:
        s = self.state
        key = (s.set_no, s.turn_no)
        if key != self.round_key:
            self.round_key = key
            self._w.clear_history()
            self.round_start = {
                pid: Pose(tuple(float(v) for v in self._w.pose(pid)[0]), tuple(self._w.pose(pid)[1]))  # type: ignore[arg-type]
                for pid in self._w.piece_ids("kubb", "king")
            }

    def _baton(self, a: BatonThrow | KingThrow) -> Performance:
        s = self.state
        self._start_round_if_needed()
        thrower, half = a.side, opponent(a.side)
        player = self.players[s.player_at(thrower)]
        w = self._w
        king = isinstance(a, KingThrow)
        if king:
            kp, _ = w.pose(KING_ID)
            target = (float(kp[0]), float(kp[1]), float(kp[2]))
        else:
            cands = []
            for k in s.standing_in(half):
                pos, q = w.pose(k.id)
                t = tilt_from_vertical(q)
                x, y, z = (float(v) for v in pos)
                cands.append((k.id, k.baseline, (x, y, z), t < math.radians(10) or t > math.radians(170)))
            tid = self.flow.baton_target(self, player, thrower, cands, a.line_x)
            target = aim_point(w, tid)
        notes: list[Event] = []
        before_own = self.flow.before_baton(self, thrower)
        make, run = self.flow.baton_release(self, player, a, w, target, king)
        res, intended = yield from self._simulate_with_retries(
            self._maker(thrower, make, "king" if king else "baton", a.baton, a.line_x, None, target),
            run,
            self._restorer(),
            notes,
            thrower,
        )
        if res is None:
            self.flow.baton_void(self, a)
            return ThrowOutcome(), {}, notes
        res = self.flow.baton_settled(self, res)
        ctx = self.judge.ThrowContext(
            ruleset=self.ruleset.name,
            thrower=thrower,
            legal=res.legal,
            violations=tuple(res.violations),
            king_throw=isinstance(a, KingThrow) and self.flow.king_from_baseline(self, a, res),
            round_start=dict(self.round_start),
            field_kubbs=s.field_kubbs(half),
            already_felled=frozenset(s.felled_in(half)),
            pending_raise=frozenset(s.raise_at_end),
            own_standing={k.id: k.pose for k in s.standing_in(thrower)},
            options=self.judge_options,
        )
        j = self.judge.judge_throw(res.final, ctx)
        placed = set()
        for pid in sorted(j.raise_now):
            if pid in self.round_start and self._w.has_piece(pid):
                p = self.round_start[pid]
                self._w.set_pose(pid, p.position, p.quat_xyzw, wake=False)
                placed.add(pid)
        for r in j.rulings:
            # a standing kubb pushed across a sideline is set back inside (kubb3d's decision)
            pose = r.raised_pose
            if r.consequence is Consequence.SET_INSIDE and pose is not None and self._w.has_piece(r.piece):
                self._w.set_pose(r.piece, pose.position, pose.quat_xyzw, wake=False)
                placed.add(r.piece)
        self._make_room(placed, j.felled | (j.raise_again - j.raise_now))
        poses = {}
        for k in s.standing_in(half):
            if k.id not in j.felled and k.id not in j.raise_again and self._w.has_piece(k.id):
                pos, q = self._w.pose(k.id)
                poses[k.id] = Pose(tuple(float(v) for v in pos), tuple(float(v) for v in q))  # type: ignore[arg-type]
        self.flow.baton_cleared(self, a, j, before_own)
        out = ThrowOutcome.from_judgement(j, legal=res.legal, poses=poses)
        felled_before = s.felled_in(half)
        fresh = [r for r in out.rulings if (r if isinstance(r, dict) else r.to_dict())["piece"] not in felled_before]
        notes += self._ruling_notes(fresh, thrower)
        if res.violations:
            for v in res.violations:
                notes.append(self._note("foul", v.reason, (v.rule,), thrower))
        return out, {"throws": [self._throw_record(res, intended)], "judgement": j.to_dict()}, notes

    def _ruling_notes(self, rulings: Sequence[object], side: str) -> list[Event]:
        out = []
        for r in rulings:
            d = r if isinstance(r, dict) else r.to_dict()  # type: ignore[attr-defined]
            if d.get("consequence") in (None, "none"):
                continue
            text = msg(
                "{piece}: {status} → {consequence} ({reason})",
                piece=piece_name(d["piece"]),
                status=known(d["status"]),
                consequence=known(d["consequence"]),
                reason=d.get("reason", ""),
            )
            out.append(self._note("ruling", text, tuple(d.get("rules", ())), side))
        return out

    def _inkast(
        self,
        thrower_side: str,
        kubbs: Sequence[str],
        attempt: int,
        from_side: str,
        into: str,
        receiving: bool,
        attempt_kind: str = "inkast",
    ) -> Performance:
        s = self.state
        w = self._w
        eq = w.equipment
        player = self.players[s.player_at(cast(Side, thrower_side))]
        # every piece standing now, including kubbs raised after an earlier attempt of this turn
        # (not yet standing for the engine until the Raise action): one this inkast disturbs is
        # set up again where it stood (WS basic rule 14, DM §5)
        before = {
            pid: Pose(tuple(float(v) for v in w.pose(pid)[0]), tuple(w.pose(pid)[1]))  # type: ignore[arg-type]
            for pid in w.piece_ids("kubb", "king")
            if pid not in kubbs
            and (pid == KING_ID or (s.kubbs[pid].standing and not s.kubbs[pid].removed) or pid in s.to_raise)
        }
        for k in kubbs:
            self._park(k)
        notes: list[Event] = []
        records = []
        offset = len(s.inkasted_this_turn)
        for n, kid in enumerate(kubbs):
            target = self.flow.inkast_target(self, player, from_side, receiving, offset + n, eq)
            self._w.set_side(kid, into)
            make, run = self.flow.inkast_release(self, player, w, kid, from_side, target)
            res, intended = yield from self._simulate_with_retries(
                self._maker(
                    thrower_side,
                    make,
                    "inkast" if attempt_kind == "inkast" else "penalty",
                    kid,
                    self.pitch.baseline_x(from_side),
                    into,
                    (target[0], target[1], 0.0),
                ),
                run,
                self._restorer(),
                notes,
                thrower_side,
                n,
            )
            if res is None:
                self._park(kid)
                continue
            records.append(self._throw_record(res, intended))
        self._w.settle_forces()
        snap = self._w.snapshot()
        ctx = self.judge.InkastContext(
            ruleset=self.ruleset.name,
            inkasting_side=from_side,
            inkasted=tuple(kubbs),
            attempt=attempt,
            before=before,
            options=self.judge_options,
            thrower=None if thrower_side == from_side else thrower_side,
            awaiting=self.flow.inkast_awaiting(self, kubbs),
        )
        j = self.judge.judge_inkast(snap, ctx)
        valid, invalid, stossel, king_felled = dict(j.valid), j.invalid, j.stossel, j.king_felled
        if not king_felled:
            king_felled = snap[KING_ID].tilt > KING_FELLED_TILT
        # undo disturbances (WS basic rule 14, DM §5): every piece that stood before is put back
        # on its spot, the ones the judge ruled moved and the ones shifted too little for a
        # ruling, as the judge raised against the spots (kubb3d.judge.raising); then raise the
        # valid kubbs (DM §7)
        set_back = set()
        for pid, p in sorted(before.items()):
            if pid == KING_ID and king_felled:
                continue
            cur = snap[pid]
            if tuple(cur.position) != tuple(p.position) or tuple(cur.quat_xyzw) != tuple(p.quat_xyzw):
                self._w.set_pose(pid, p.position, p.quat_xyzw, wake=False)
                set_back.add(pid)
        self.flow.stand_valid(self, valid)
        self._make_room(set_back)
        # sorted: the order of the pose resets reaches the physics engine (its contact pairs),
        # and a set of strings iterates in a per-process order (PYTHONHASHSEED)
        for kid in sorted(set(invalid) | set(stossel) | (set(kubbs) - set(valid) - set(invalid) - set(stossel))):
            self._park(kid)
        # a kubb the judge said nothing about (thrown without effect after glitches) is invalid
        invalid = invalid | frozenset(set(kubbs) - set(valid) - set(invalid) - set(stossel))
        self._w.sleep_all()
        rulings = tuple(r.to_dict() for r in j.rulings)
        out = InkastOutcome(valid=valid, invalid=invalid, stossel=stossel, king_felled=king_felled, rulings=rulings)
        notes += self._ruling_notes(rulings, thrower_side)
        performed: Performed = (out, {"throws": records, "judgement": j.to_dict()}, notes)
        return performed

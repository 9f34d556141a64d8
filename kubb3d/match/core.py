"""The state a match carries besides the rules engine's: its configuration, players, judge,
the physics world (rebuilt at every turn boundary from recorded poses), the replay log and
the per-action random generators. :class:`MatchCore` is the base of
:class:`~kubb3d.match.Match`; the step protocol, the throws and the human input build on it."""

from __future__ import annotations

import math
import os
from dataclasses import replace
from pathlib import Path
from typing import Callable, Collection, Mapping, Self, Sequence, cast

import numpy as np
from kubb3d.linear import rows_by

from kubb3d.equipment import EquipmentSet, get_set
from kubb3d.errors import MatchClosed, MatchSetupError
from kubb3d.files import ExclusiveFile
from kubb3d.judge.options import options_for
from kubb3d.judge.rulings import Pose
from kubb3d.match.config import MatchConfig
from kubb3d.match.flow import PieceFlow, ThrowFlow
from kubb3d.match.kubbuteo import FlickFlow
from kubb3d.match.protocol import Current, HumanThrow, Judge
from kubb3d.match.room import make_room
from kubb3d.match.records import SCHEMA, ReplayLog, pose_list, pose_rounded, poses_after
from kubb3d.physics.world import PhysicsGlitch, World
from kubb3d.pitch import KING_ID, Side
from kubb3d.players import Player, get_skill, get_strategy
from kubb3d.ranges import listed
from kubb3d.rules import Event, Ruleset, get_ruleset
from kubb3d.snapshot import quat_to_matrix, tilt_from_vertical

import kubb3d.judge


BATON_TOUCH_M = 0.001
"""m: a kubb or the king this close to a baton as the turn ends touches it (the baton is
picked up, and the piece comes to rest without it: :meth:`MatchCore._settle_off_batons`)."""
SETTLE_OFF_BATONS_S = 5.0
"""s: simulated time at most for the pieces a picked-up baton touched to come to rest."""
FELL_OFF_BATON_TILT = math.radians(45.0)
"""rad: a standing piece further than this from vertical once its baton was picked up fell."""
SETTLE_TOL_M = 0.0005
"""m: a piece whose box corners all moved less than this once its baton was picked up did not
lean on it; the turn then starts from the poses as they were."""


def _corners(pose: Sequence[float], half: Sequence[float]) -> np.ndarray:
    """The eight corners of a box of half sizes ``half`` at ``pose`` (x, y, z, quat_xyzw), m."""
    x, y, z, qx, qy, qz, qw = (float(v) for v in pose)
    r = quat_to_matrix((qx, qy, qz, qw))
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], dtype=float)
    return np.array([x, y, z]) + rows_by(signs * np.asarray(half, dtype=float), r.T)


def flow_for(ruleset: Ruleset) -> PieceFlow:
    """How a ruleset's pieces are thrown: flicked on a board when
    :attr:`~kubb3d.rules.Ruleset.flicks` (Kubbuteo), else thrown on grass."""
    return FlickFlow() if ruleset.flicks else ThrowFlow()


class MatchCore:
    """A match's configuration, players, judge, world and replay log (see :class:`~kubb3d.match.Match`
    for the arguments and errors)."""

    def __init__(
        self,
        config: MatchConfig,
        *,
        judge: Judge | None = None,
        replay: str | os.PathLike | None = None,
        on_event: Callable[[Event], None] | None = None,
        human: Mapping[str, HumanThrow] | Collection[str] | None = None,
        replace_replay: bool = True,
        _resume: bool = False,
    ) -> None:
        options = dict(config.options)
        self.ruleset = get_ruleset(config.ruleset, **options_for(options, "ruleset"))
        self.judge_options = options_for(options, "judge")
        self.throw_options = options_for(options, "throw")
        if self.ruleset.ground != "grass" and config.ground == "grass":
            config = replace(config, ground=self.ruleset.ground)  # Kubbuteo: the board
        self.config = config
        if config.team_size is not None and self.ruleset.team_size == 1:
            raise MatchSetupError("team sizes apply to the wikinger ruleset only (DM is a duel)")
        names = config.player_names()
        self.state = config.new_state(self.ruleset)
        self.flow: PieceFlow = flow_for(self.ruleset)
        """How pieces are thrown under this ruleset (thrown on grass, flicked on a board)."""
        self.players = {
            n: Player(
                n,
                get_skill(s),
                team_size=self.state.team_sizes[n],
                flick=self.flow.flick_skill(s),
                strategy=get_strategy(st),
            )
            for n, s, st in zip(names, config.skills, config.strategies)
        }
        if judge is None:
            judge = kubb3d.judge  # the module itself fits the Judge protocol
        self.judge: Judge = judge
        self.on_event = on_event
        self.pitch = self.ruleset.pitch
        self.world: World | None = None
        self.world_key: tuple[int, int] | None = None
        self.round_key: tuple[int, int] | None = None
        self.round_start: dict[str, Pose] = {}
        self.action_index = 0
        self.glitches: list[dict] = []
        self.last_records: list[dict] = []
        """The replay records of the last :meth:`~kubb3d.match.Match.step` (its
        :attr:`~kubb3d.match.StepResult.records`)."""
        self.log = ReplayLog()
        self.closed = False
        """:meth:`close` was called: the world and the replay file are released."""
        if isinstance(human, str):
            human = (human,)
        self.human: dict[str, HumanThrow | None] = (
            dict(human) if isinstance(human, Mapping) else dict.fromkeys(human or ())
        )
        self._current: Current | None = None
        self._step_throws: list[dict] = []
        self._recorded: dict[str, list[float]] | None = None
        """The poses a replay reader has after the last record (rounded), or None where no
        action record needs ``after`` (no world yet, or after a lag throw's own world)."""
        unknown = sorted(set(self.human) - set(names))
        if unknown:
            raise MatchSetupError(
                f"human players {listed(unknown)} are not players of this match"
                f"; expected names among {listed(list(names))}"
            )
        self.events: list[Event] = []
        self.replay_path = Path(replay) if replay is not None else None
        self.header = {
            "type": "header",
            "schema": SCHEMA,
            "config": config.to_dict(),
            "ruleset": self.ruleset.name,
            "equipment": self.ruleset.equipment,
            "pitch": {"length": self.pitch.length, "width": self.pitch.width},
        }
        """The replay's ``header`` record (configuration, ruleset, equipment, pitch; ``people``: the
        players a person played, when any)."""
        if self.human:  # who a person played (the viewer names them); simulated matches' headers stay as they were
            self.header["people"] = sorted(self.human)
        if self.replay_path is not None and not _resume:
            # the replay is written under an exclusive lock (two matches never interleave lines)
            # (replace_replay False: created with O_EXCL, so no file is ever truncated unasked)
            self.log.fh = ExclusiveFile(self.replay_path, replace=replace_replay, exclusive=not replace_replay)
            self._write(self.header)
            self.log.take()  # the header belongs to no step

    # ------------------------------------------------------------------ replay io
    def _write(self, rec: dict) -> None:
        self.log.write(rec)

    def close(self) -> None:
        """Close the replay file and the world (again: nothing). A match closed before its end
        cannot go on (:class:`~kubb3d.errors.MatchClosed`)."""
        self.closed = True
        self.log.close()
        if self.world is not None:
            self.world.close()
            self.world = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check_open(self) -> None:
        """Raise :class:`~kubb3d.errors.MatchClosed` if the match was closed before its end."""
        if self.closed and self.state.outcome() is None:
            raise MatchClosed(
                "the match was closed before its end: its world is gone (continue it from its replay "
                "file with Match.resume, or keep it open: run(max_actions=N) does)"
            )

    def _emit(self, events: list[Event]) -> None:
        for e in events:
            self.events.append(e)
            if self.on_event is not None:
                self.on_event(e)

    def _note(self, kind: str, text: str, rules: tuple[str, ...] = (), side: str | None = None) -> Event:
        s = self.state
        return Event(
            round(s.clock, 3),
            s.set_no,
            s.turn_no,
            kind,
            text,
            tuple(rules),
            cast("Side | None", side),
            s.player_at(cast(Side, side)) if side else None,
        )

    def _rng(self, attempt: int = 0, throw_no: int = 0) -> np.random.Generator:
        """The generator of this action's ``throw_no``-th throw (0-based; an inkast throws one
        kubb after another), ``attempt``-th try (package doc "Randomness")."""
        key = (self.action_index, attempt) if throw_no == 0 else (self.action_index, attempt, throw_no)
        return np.random.default_rng(np.random.SeedSequence(self.config.seed, spawn_key=key))

    # ------------------------------------------------------------------ world
    @property
    def _w(self) -> World:
        """The match's world (there is one from the first set on, until :meth:`close`)."""
        world = self.world
        if world is None:
            self._check_open()
        assert world is not None, "the match has no world before its first set"
        return world

    def _new_world(self) -> World:
        return World(self.ruleset.equipment, self.pitch, self.config.ground)

    def _standard_poses(self) -> dict[str, list[float]]:
        eq = self._eq()
        out = {}
        for side in ("A", "B"):
            for kid, (x, y) in self.pitch.baseline_kubb_positions(side).items():
                out[kid] = [x, y, eq.kubb.height / 2, 0.0, 0.0, 0.0, 1.0]
        out[KING_ID] = [0.0, 0.0, eq.king.height / 2, 0.0, 0.0, 0.0, 1.0]
        return out

    def _half_extents(self, pid: str) -> tuple[float, float, float]:
        """The half sizes of a piece's box (the king's, a kubb's or a baton's), m."""
        eq = self._eq()
        if pid == KING_ID:
            return eq.king.half_extents
        if self._w.has_piece(pid) and self._w.kind(pid) == "baton":
            return eq.baton.half_extents
        return eq.kubb.half_extents

    def _make_room(self, placed: Collection[str], felled: Collection[str] = ()) -> None:
        """Move every piece (a kubb, a baton) lying on a piece the rules just set in the world
        (``placed``: raised, set back, placed by hand, stood up) straight off it (:func:`kubb3d.match.room.make_room`);
        kubbs standing for the engine (but not ``felled``, the ones the throw being judged
        felled or raises at the end of the turn, nor the ones raised at the end) and the king stay.
        The order of pose resets is sorted (bit for bit)."""
        if not placed:
            return
        w, s = self._w, self.state
        # a baton lying where a kubb is set up is moved off it too (the kubb is set up on the
        # ground, DM §5 "wieder aufgestellt", WS basic rule 7 "set up again", not on the baton)
        poses = {pid: pose_list(*w.pose(pid)) for pid in w.piece_ids("kubb", "king", "baton")}
        fixed = {
            pid
            for pid in poses
            if pid == KING_ID or (pid in s.kubbs and s.kubbs[pid].standing and not s.kubbs[pid].removed)
        }
        lying = set(felled) | s.raise_at_end  # (standing for the engine, lying in the world)
        out = make_room(poses, set(placed), self._half_extents, fixed - set(placed) - lying)
        for pid in sorted(out):
            if out[pid] != poses[pid]:
                w.set_pose(pid, tuple(out[pid][:3]), tuple(out[pid][3:]), wake=False)

    def _eq(self) -> EquipmentSet:
        return get_set(self.ruleset.equipment)

    def _build(self, poses: Mapping[str, list[float]], sides: Mapping[str, str]) -> None:
        if self.world is not None:
            self.world.close()
        w = self._new_world()
        for pid in sorted(poses):
            p = poses[pid]
            kind = "king" if pid == KING_ID else "kubb"
            w.add_piece(pid, kind, tuple(p[:3]), tuple(p[3:]), side=sides.get(pid))
            w.set_pose(pid, tuple(p[:3]), tuple(p[3:]), wake=False)
        w.sleep_all()
        self.world = w

    def _boundary_poses(self) -> tuple[dict[str, list[float]], dict[str, str]]:
        s = self.state
        w = self._w
        poses: dict[str, list[float]] = {}
        sides: dict[str, str] = {}
        for kid, k in sorted(s.kubbs.items()):
            if k.removed:
                continue
            sides[kid] = k.half
            if k.standing:
                poses[kid] = list(k.pose.position) + list(k.pose.quat_xyzw)
            else:
                pos, q = w.pose(kid)
                poses[kid] = pose_list(pos, q)
        pos, q = w.pose(KING_ID)
        poses[KING_ID] = pose_list(pos, q)
        return poses, sides

    def _ensure_world(self) -> None:
        """Build the world of the turn starting now (a new set: the standard set-up) and write
        its ``world`` record. The batons are picked up between turns: a piece a baton touched
        comes to rest without it first (:meth:`_settle_off_batons`), so the turn starts from
        poses every piece holds on its own (DM §5 "allein stehfähig")."""
        s = self.state
        if s.set_no == 0:
            return
        key = (s.set_no, s.turn_no)
        if key == self.world_key:
            return
        leaned: set[str] = set()
        if self.world_key is None or key[0] != self.world_key[0]:
            poses = self._standard_poses()
            sides = {k: k[0] for k in poses if k != KING_ID}
        else:
            leaned = self._on_batons()
            poses, sides = self._boundary_poses()
            # a kubb raised again at its original spot stands there: a felled kubb lying on the
            # spot (picked up at the next inkast) is moved off it (docs/rules.md "Pieces placed by the rules")
            standing = {kid for kid, k in s.kubbs.items() if k.standing and not k.removed} | {KING_ID}
            poses = make_room(poses, standing, self._half_extents)
        self._build(poses, sides)
        if leaned:
            poses = self._settle_off_batons(leaned, poses, sides)
        self._keep_standing_poses(poses)
        self._write(
            {"type": "world", "i": self.action_index, "set": key[0], "turn": key[1], "poses": poses, "sides": sides}
        )
        self.world_key = key
        self._recorded = {pid: pose_rounded(p[:3], p[3:]) for pid, p in poses.items()}

    def _on_batons(self) -> set[str]:
        """The standing kubbs and the king touching a baton (within :data:`BATON_TOUCH_M`) in
        the world as the turn ended, before its batons are picked up. A felled kubb lying on a
        baton is not among them: the inkast that starts the turn picks it up."""
        w, s = self.world, self.state
        if w is None:
            return set()
        batons = w.piece_ids("baton")
        if not batons:
            return set()
        standing = [
            pid
            for pid in w.piece_ids("kubb", "king")
            if pid == KING_ID or (pid in s.kubbs and s.kubbs[pid].standing and not s.kubbs[pid].removed)
        ]
        return {pid for pid in standing if w.engine.closest_distance(pid, batons, BATON_TOUCH_M) < BATON_TOUCH_M}

    def _settle_off_batons(
        self, leaned: Collection[str], poses: dict[str, list[float]], sides: Mapping[str, str]
    ) -> dict[str, list[float]]:
        """Let the pieces a picked-up baton touched (``leaned``, in the world just built without
        batons) come to rest on their own and return the turn's start poses: a kubb that only
        leaned on a baton rights itself or falls (a kubb that needs a baton to stand counts as
        fallen, DM §5 „nur mit Hilfe von … Wurfhölzern“; the judge ruled so at the throw,
        :mod:`kubb3d.judge.status`). Where no piece moves more than :data:`SETTLE_TOL_M` (the
        baton carried nothing), the world is built again from ``poses`` unchanged, so a seeded
        match keeps its replay byte for byte.

        A piece the rules engine holds standing that does not end on an end face (the judge
        ruled it standing on its own, the physics let it fall) is stood up upright on the spot
        its base had (DM §5 „wieder aufgestellt“), so that the engine and the world agree; a
        physics glitch while settling leaves ``poses`` as they were."""
        w = self._w
        for pid in sorted(leaned):  # sorted: the order of pose resets reaches the engine
            if w.has_piece(pid):
                pos, q = w.pose(pid)
                w.set_pose(pid, tuple(float(v) for v in pos), tuple(float(v) for v in q), wake=True)
        try:
            w.run_until_rest(SETTLE_OFF_BATONS_S)
        except PhysicsGlitch:
            self._build(poses, sides)
            return poses
        settled = dict(poses)
        moved = False
        for pid, was in sorted(poses.items()):  # a piece one of them fell on moves too
            now = pose_list(*w.pose(pid))
            half = self._half_extents(pid)
            shift = float(np.max(np.abs(_corners(was, half) - _corners(now, half))))
            if shift > SETTLE_TOL_M:
                moved = True
                settled[pid] = now
        if not moved:
            self._build(poses, sides)
            return poses
        for pid in sorted(leaned):
            now = settled[pid]
            tilt = tilt_from_vertical((now[3], now[4], now[5], now[6]))
            if FELL_OFF_BATON_TILT < tilt < math.pi - FELL_OFF_BATON_TILT:
                settled[pid] = self._upright_on_spot(pid, poses[pid])
        self._build(settled, sides)  # (at rest, asleep, with a fresh history)
        return settled

    def _upright_on_spot(self, pid: str, pose: Sequence[float]) -> list[float]:
        """``pose`` stood upright on the centre of its lower end face, heading kept."""
        half = self._half_extents(pid)
        corners = _corners(pose, half)
        low = corners[np.argsort(corners[:, 2])[:4]]  # the lower end face (the piece stands, < 45 deg)
        x, y = (float(v) for v in low[:, :2].mean(axis=0))
        qx, qy, qz, qw = (float(v) for v in pose[3:])
        yaw = math.atan2(2 * (qw * qz + qx * qy), 1 - 2 * (qy * qy + qz * qz))
        q = (0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2))
        kind = "king" if pid == KING_ID else "kubb"
        return [x, y, self._w.height_on_ground(kind, x, y, q), *q]

    def _keep_standing_poses(self, poses: Mapping[str, list[float]]) -> None:
        """The rules engine keeps the pose each standing kubb starts the turn in (what a kubb an
        inkast or an own-half throw moves is set back to, DM §5)."""
        for kid, k in self.state.kubbs.items():
            if k.standing and not k.removed and kid in poses:
                x, y, z, qx, qy, qz, qw = (float(v) for v in poses[kid])
                k.pose = Pose((x, y, z), (qx, qy, qz, qw))

    def _world_poses(self, world: World | None = None) -> dict[str, list[float]]:
        """Rounded poses of every piece in ``world`` (default: the match's; kubbs, king, batons)."""
        w = self._w if world is None else world
        return {pid: pose_rounded(*w.pose(pid)) for pid in sorted(w.piece_ids("kubb", "king", "baton"))}

    def _after(self, extra: dict) -> dict:
        """The ``after`` field of the action record being written (see :func:`poses_after`):
        against the poses the reader has once it played the action's trajectories. A lag
        throw's record brings its own world (``before`` and the private ``_final``)."""
        final = extra.pop("_final", None)
        if final is not None:
            base = dict(extra["before"])
            self._recorded = None  # the lag world is gone; the next world record sets it up
        elif self._recorded is None or self.world is None:
            return {}
        else:
            base = dict(self._recorded)
            final = self._recorded = self._world_poses()
        for th in extra.get("throws", ()):
            for pid, arr in th["trajectory"]["poses"].items():
                if arr:
                    base[pid] = arr[-1]
        return poses_after(base, final)

    def _save(self) -> tuple[dict[str, list[float]], dict[str, str]]:
        snap = self._w.snapshot(contacts=False)
        poses = {
            pid: list(p.position) + list(p.quat_xyzw) for pid, p in snap.pieces.items() if p.kind in ("kubb", "king")
        }
        sides: dict[str, str] = {
            pid: p.side for pid, p in snap.pieces.items() if p.kind == "kubb" and p.side is not None
        }
        return poses, sides

    def _restorer(self) -> Callable[[], None]:
        """The function that puts the world back as it is now (kubbs, king, batons): a throw
        repeated after a physics glitch starts from it."""
        poses, sides = self._save()
        batons = [(pid, pose_list(*self._w.pose(pid))) for pid in self._w.piece_ids("baton")]

        def restore() -> None:
            self._build(poses, sides)
            for pid, p in batons:
                self._w.add_piece(pid, "baton", tuple(p[:3]), tuple(p[3:]))
                self._w.set_pose(pid, tuple(p[:3]), tuple(p[3:]), wake=False)
            self._w.sleep_all()

        return restore

    def _floor_z(self) -> float:
        board = self._eq().board
        return -board.table_height if board is not None else 0.0

    def _park(self, kid: str) -> None:
        """Pick a kubb up: lay it off play (:meth:`~kubb3d.match.flow.PieceFlow.park`)."""
        self.flow.park(self, kid)

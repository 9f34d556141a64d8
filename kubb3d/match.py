"""A whole match in the physics world: rules engine + players + physics + judge, with replays.

:class:`Match` asks the :class:`~kubb3d.rules.MatchState` for the legal actions, lets the
acting :class:`~kubb3d.players.Player` decide, simulates the action in a
:class:`~kubb3d.physics.world.World`, has the judge rule on the result and pushes action and
outcome into the state, until :meth:`MatchState.outcome` is set.

Physical bookkeeping (kubb3d's choices):

* The world is rebuilt at every turn boundary from the poses of the pieces ("world"
  records of the replay): standing kubbs at the engine's poses (so kubbs ruled "raise
  again" stand at their original spot, ``DM §5``), felled kubbs where they lie, batons
  collected. Set starts use the standard set-up. Rebuilding from recorded poses makes a
  resumed match continue exactly like an uninterrupted one.
* Lag throws (``DM §3``, ``§9``; WS "Sequence of Play") are simulated one by one in a fresh
  standard world each (the two simultaneous throws do not interact); a king more than 30°
  from vertical at rest counts as felled by that throw.
* Inkasts (``DM §6``): the kubbs to inkast are picked up (parked behind the baseline) and
  lobbed one by one from the baseline; after each attempt the judge rules and the valid
  kubbs are raised at once at the judge's poses (the later kubbs of a rethrow then meet
  standing kubbs; anything they knock over is set up again, ``WS basic rule 14``,
  ``DM §5`` accidents). Invalid kubbs and stößel are picked up until thrown or placed.
* Physics glitches (``PhysicsGlitch``: NaN, a piece beyond the world; or at rest: a piece
  outside the pitch by more than :data:`GLITCH_MARGIN_M`, below the ground, or not at rest
  after the time limit and still faster than :data:`GLITCH_REST_SPEED`, or a sampled speed above
  :data:`GLITCH_MAX_SPEED`) are logged; the world is rebuilt as it was and the action is
  repeated with a fresh draw of the release noise (the accident rule, ``DM §5``), at most
  :data:`GLITCH_RETRIES` times; after that the throw counts as a throw without effect.
* Randomness: the generator of action number *i* (attempt *a*) is
  ``default_rng(SeedSequence(seed, spawn_key=(i, a)))``: no draw depends on earlier ones. The
  later kubbs of an inkast (the *n*-th, n ≥ 1, of one action) draw from ``spawn_key=(i, a, n)``:
  every kubb of an inkast used to be released with the same noise, so one bad draw sent a
  whole inkast (or Kubbuteo return) astray together (docs/speed.md "Fifth round").

Replay file (JSON lines, ``schema`` 2): a ``header`` line (configuration), ``world`` lines
(poses at each turn boundary, with the index of the next action), one ``action`` line per
action (the action, its outcome, the events, the judge's rulings, and for every simulated
throw its parameters, :class:`~kubb3d.throw.Release` and the trajectories decimated to
:attr:`MatchConfig.trajectory_hz` and rounded to 0.1 mm / 1e-4), and an ``outcome`` line.
An action line also says where the pieces are once the action is over, after the rules have
cleared, raised, parked or placed pieces (``after``: the poses that differ from the record's
last trajectory samples, or from the earlier records for pieces that did not move, and the
pieces taken out of the world, ``gone``); a lag throw, simulated in a fresh world, gives that
world's poses before the throw (``before``). A reader needs no rules to show the match:
docs/viewer.md "What a replay records".
"""

from __future__ import annotations

import inspect
import json
import math
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, Callable, Collection, Generator, Mapping

import numpy as np

from kubb3d.errors import IllegalAction, MatchSetupError, OptionError
from kubb3d.judge.messages import known, msg, nmsg, piece_name
from kubb3d.judge.options import BY_NAME, options_for
from kubb3d.files import ExclusiveFile, rewrite_locked
import kubb3d.judge
from kubb3d.judge.rulings import Consequence, Pose
from kubb3d.physics.world import PhysicsGlitch, World
from kubb3d.pitch import KING_ID, Pitch, opponent
from kubb3d.equipment import DiskPiece, get_set
from kubb3d.players import Player, get_flick_skill, get_skill, get_strategy
from kubb3d.rules import (
    BatonThrow,
    Choose,
    Event,
    Inkast,
    InkastOutcome,
    KingThrow,
    LagResult,
    LagThrow,
    MatchState,
    Outcome,
    PenaltyThrow,
    PlaceKubb,
    Raise,
    RemoveTieBreakKubb,
    ThrowOutcome,
    action_from_dict,
    action_to_dict,
    get_ruleset,
    outcome_from_dict,
)
from kubb3d.rules.core import DEFAULT_ROUND_CAP
from kubb3d.rules.kubbuteo import after_flick
from kubb3d.snapshot import tilt_from_vertical
from kubb3d.throw import (
    LYING_DISK_KUBB,
    ThrowFrame,
    ThrowResult,
    aim_point,
    distance_to_king,
    release_from_flick,
    release_from_params,
    run_frames,
    simulate_iter,
    throw_iter,
)

SCHEMA = 2
GLITCH_RETRIES = 3
GLITCH_MARGIN_M = 20.0
GLITCH_REST_SPEED = 1.0
GLITCH_MAX_SPEED = 60.0
FLICK_MAX_TIME = 6.0
"""s: the longest a Kubbuteo flick is simulated (a disk at 2 m/s stops within 0.7 s; the rest
is for wobbling disks to settle)."""
KING_FELLED_TILT = math.radians(30.0)
_LYING = (0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4))


from kubb3d.files import ReplayError  # noqa: E402  (one error type for every replay reader)


ACTION_EVENT_KINDS = ("lag", "throw", "inkast", "penalty")
"""Event kinds that report the action itself (the throw, inkast … the notes are about)."""


def causal_order(notes: list[Event], events: list[Event]) -> list[Event]:
    """One action's events in the order they happened: physics glitches (while simulating),
    the action's own event (the throw, inkast …), the judge's rulings and fouls on it, then
    what the rules made of it (raising, turn, set, result)."""
    before = [n for n in notes if n.kind == "glitch"]
    after = [n for n in notes if n.kind != "glitch"]
    k = next((i + 1 for i, e in enumerate(events) if e.kind in ACTION_EVENT_KINDS), 0)
    if k:
        # a ruling is given when the action is done: on the clock of the action's event
        after = [replace(n, clock_s=events[k - 1].clock_s) for n in after]
    return [*before, *events[:k], *after, *events[k:]]


@dataclass(frozen=True)
class MatchConfig:
    """Everything that determines a match (with the seed, the whole match).

    Attributes:
        ruleset: ``dm`` or ``wikinger``.
        skills: skill preset of each side's player (team), e.g. ``("club", "club")``.
        names: player (team) names; default ``P1``/``P2`` (DM) or ``T1``/``T2`` (WS).
        seed: root seed.
        sets: best of ``sets`` (None: ruleset default).
        time_limit_s: time limit, s; None: none; -1: ruleset default (WS 20 min).
        round_cap: turns per set before the match is cut off (:mod:`kubb3d.rules.core`).
        team_size: WS players per team (None: ruleset default 6); a pair gives each team's size.
        ground: ground name.
        trajectory_hz: sampling rate of trajectories in the replay, Hz.
        strategies: each side's strategy name (:data:`kubb3d.players.STRATEGIES`).
        options: the referee's options that differ from the ruleset's defaults, as sorted
            (name, value) pairs (:mod:`kubb3d.judge.options`; ``--option NAME=VALUE``).
    """

    ruleset: str = "dm"
    skills: tuple[str, str] = ("club", "club")
    names: tuple[str, str] | None = None
    seed: int = 0
    sets: int | None = None
    time_limit_s: float | None = -1.0
    round_cap: int = DEFAULT_ROUND_CAP
    team_size: int | tuple[int, int] | None = None
    ground: str = "grass"
    trajectory_hz: float = 15.0
    strategies: tuple[str, str] = ("default", "default")
    options: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        from kubb3d.judge.options import option_value

        if isinstance(self.options, Mapping):
            object.__setattr__(self, "options", tuple(sorted(self.options.items())))
        for name, value in self.options:
            if name not in BY_NAME:
                raise OptionError(f"unknown referee option {name!r}; expected one of {', '.join(BY_NAME)}")
            option_value(name, value)

    def player_names(self) -> tuple[str, str]:
        if self.names is not None:
            return tuple(self.names)  # type: ignore[return-value]
        return ("T1", "T2") if self.ruleset == "wikinger" else ("P1", "P2")

    def to_dict(self) -> dict:
        d = asdict(self)
        d["skills"] = list(self.skills)
        d["strategies"] = list(self.strategies)
        if isinstance(self.team_size, tuple):
            d["team_size"] = list(self.team_size)
        d["names"] = list(self.player_names())
        if self.options:
            d["options"] = dict(self.options)
        else:
            del d["options"]  # replays of matches with the defaults stay as they were
        return d

    @classmethod
    def from_dict(cls, d: Mapping) -> "MatchConfig":
        kw = {f.name: d[f.name] for f in fields(cls) if f.name in d}
        kw["skills"] = tuple(kw.get("skills", ("club", "club")))
        kw["strategies"] = tuple(kw.get("strategies", ("default", "default")))
        if isinstance(kw.get("team_size"), list):
            kw["team_size"] = tuple(kw["team_size"])
        if kw.get("names") is not None:
            kw["names"] = tuple(kw["names"])
        kw["options"] = tuple(sorted(dict(kw.get("options") or {}).items()))
        return cls(**kw)


def _r(v: float, nd: int) -> float:
    return float(round(float(v), nd))


def _median(values: list[float]) -> float:
    """The median as ``np.median`` gives it (the middle value, or the mean of the two middle
    ones), without it: its first call imports ``numpy.ma`` (≈ 50 ms, 1.5 % of a default match)."""
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def _pose_list(pos, q) -> list[float]:
    return [float(x) for x in pos] + [float(x) for x in q]


def _pose_rounded(pos, q) -> list[float]:
    """A pose as the replay's trajectories keep it: rounded to 0.1 mm and 1e-4."""
    return [_r(v, 4) for v in pos] + [_r(v, 4) for v in q]


def poses_after(base: Mapping[str, list[float]], now: Mapping[str, list[float]]) -> dict:
    """The ``after`` field of an action record: ``poses`` of the pieces of ``now`` whose pose is
    not the one in ``base`` (what a reader has after the action's trajectories), ``gone`` the
    pieces of ``base`` that are not in ``now``; empty keys left out (sorted: same bytes in every
    process)."""
    out: dict[str, Any] = {}
    moved = {pid: p for pid, p in sorted(now.items()) if base.get(pid) != p}
    gone = sorted(set(base) - set(now))
    if moved:
        out["poses"] = moved
    if gone:
        out["gone"] = gone
    return out


@dataclass(frozen=True)
class HumanRequest:
    """What a human player is told when it is his turn to throw (argument of a ``human`` callable).

    Attributes:
        kind: ``lag`` (lag throw, ``DM §3``), ``baton`` (at the opponent's kubbs), ``king``
            (king throw from the baseline), ``inkast`` (a felled kubb into the opponent's
            half) or ``penalty`` (a DM penalty kubb).
        player: the player's name (the key of the ``human`` mapping).
        side: the pitch end the player throws from (``A`` throws towards +x).
        piece: id of the piece thrown (``baton3``, ``B2`` …).
        line_x: x of the line to throw from, m (the advance line or the baseline).
        into: the half the kubb must land in (inkasts, penalty kubbs), else None.
        target: where the simulated strategy would aim, (x, y, z) m (batons: a kubb or the
            king; kubbs: the landing spot), a hint that may be ignored.
        attempt: 0; 1, 2 … when the throw is repeated after a physics glitch.
        state: the current :class:`~kubb3d.rules.MatchState` (read it, do not push).
        world: the current :class:`~kubb3d.physics.world.World` (read poses, do not step).
        flick: True on a table-top set (Kubbuteo): return a :class:`~kubb3d.throw.FlickParams`.
    """

    kind: str
    player: str
    side: str
    piece: str
    line_x: float
    into: str | None
    target: tuple[float, float, float] | None
    attempt: int
    state: Any
    world: Any
    flick: bool = False


HumanThrow = Callable[[HumanRequest], Any]
"""``human(request) -> ThrowParams`` (or ``FlickParams`` on a board): a person's throw."""


@dataclass(frozen=True)
class Pending:
    """What the match waits for (:meth:`Match.pending`).

    Attributes:
        action: the rules action due (a :class:`~kubb3d.rules.LagThrow`,
            :class:`~kubb3d.rules.BatonThrow`, :class:`~kubb3d.rules.Inkast`,
            :class:`~kubb3d.rules.Choose` …), as the match would perform it: a simulated
            player's choice or placement is already made (pass another legal action to
            :meth:`Match.step` to override it, unless a person's throw is under way).
        player: name of the player who acts.
        request: the person's throw asked for (answer it with ``step(params)``), or None:
            ``step()`` performs the action as the simulated player.
    """

    action: Any
    player: str
    request: HumanRequest | None = None


@dataclass(frozen=True)
class StepResult:
    """What one :meth:`Match.step` did.

    Attributes:
        action: the rules action performed (or under way).
        done: False when only part of the action was performed: a person threw one kubb of a
            multi-kubb inkast and the next one is asked for (:meth:`Match.pending`).
        outcome: the action's outcome (:class:`~kubb3d.rules.ThrowOutcome`,
            :class:`~kubb3d.rules.InkastOutcome`, :class:`~kubb3d.rules.LagResult`) or None
            (choices, placements, raising; and while not ``done``).
        events: the action's events in causal order (empty while not ``done``).
        throws: the throw records (replay format: piece, legality, release, trajectory,
            params …) simulated during this step, in order.
        records: the replay records written during this step (a ``world`` record at a turn
            boundary, the ``action`` record, the ``outcome`` record after the last action).
    """

    action: Any
    done: bool
    outcome: Any = None
    events: tuple[Event, ...] = ()
    throws: tuple[dict, ...] = ()
    records: tuple[dict, ...] = ()

    @property
    def record(self) -> dict | None:
        """The ``action`` record written by this step (None while not ``done``)."""
        return next((r for r in self.records if r.get("type") == "action"), None)


_THROW_ACTIONS = (LagThrow, BatonThrow, KingThrow, Inkast, PenaltyThrow)
"""Actions in which a person throws (the others stay with the simulated player's strategy)."""


@dataclass
class _Current:
    """The action under way: the generator performing it and the request it waits on."""

    action: Any
    player: str
    run: Generator | None = None
    request: HumanRequest | None = None
    result: tuple | None = None


def glitch_reason(result: ThrowResult, pitch: Pitch, floor_z: float = 0.0) -> str | None:
    """Why a finished throw looks like a physics glitch (module doc), or None; ``floor_z`` is
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


def _is_params(x: Any) -> bool:
    from kubb3d.throw import FlickParams, ThrowParams

    return isinstance(x, (ThrowParams, FlickParams))


class Match:
    """Plays one match; see the module doc.

    Args:
        config: the match configuration.
        judge: the referee: :mod:`kubb3d.judge` (the default) or an object with the same
            ``judge_throw``, ``judge_inkast``, ``ThrowContext`` and ``InkastContext`` (the audit
            passes one that records every call, :class:`kubb3d.audit.RecordingJudge`).
        replay: path of the replay file to write (None: no file).
        on_event: called with every :class:`~kubb3d.rules.Event` as it happens.
        human: the players whose throws a person makes: a collection of player names (the
            caller answers each throw: :meth:`pending` gives the :class:`HumanRequest`,
            ``step(params)`` performs it; the viewer's match mode) or a mapping name →
            callable (:data:`HumanThrow`) that :meth:`step` asks itself. Keyed by player
            *name*, not by side, because players change ends between sets (``DM §3``).
            Whenever such a player throws a baton (or the king, or the lag) or inkasts a
            kubb, the parameters are simulated verbatim (no release noise, no strategy) and
            written to the replay as the throw's ``params`` and ``intended``. Choices,
            placements and raising stay with the simulated player's strategy unless the
            caller passes its own action to :meth:`step`.

    Raises:
        MatchSetupError, UnknownNameError, OptionError: bad configuration (unknown ruleset or
            skill, a ``human`` key that is not a player name …).
        TypeError: a person's throw that is not a ``ThrowParams`` (on a board:
            ``FlickParams``).
    """

    def __init__(
        self,
        config: MatchConfig,
        *,
        judge: Any = None,
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
        names = config.player_names()
        ts = config.team_size
        sizes = None
        if ts is not None:
            if config.ruleset != "wikinger":
                raise MatchSetupError("team sizes apply to the wikinger ruleset only (DM is a duel)")
            pair = (ts, ts) if isinstance(ts, int) else tuple(ts)
            sizes = dict(zip(names, (int(x) for x in pair)))
        tl = config.time_limit_s
        self.state = MatchState(
            self.ruleset,
            names,
            sets=config.sets,
            time_limit_s=(... if tl is not None and tl < 0 else tl),
            round_cap=config.round_cap,
            team_sizes=sizes,
        )
        self.table = get_set(self.ruleset.equipment).board is not None
        self.players = {
            n: Player(
                n,
                get_skill(s),
                team_size=self.state.team_sizes[n],
                flick=get_flick_skill(s) if self.table else None,
                strategy=get_strategy(st),
            )
            for n, s, st in zip(names, config.skills, config.strategies)
        }
        self.judge = judge if judge is not None else kubb3d.judge
        self.on_event = on_event
        self.pitch = self.ruleset.pitch
        self.world: World | None = None
        self.world_key: tuple[int, int] | None = None
        self.round_key: tuple[int, int] | None = None
        self.round_start: dict[str, Pose] = {}
        self.action_index = 0
        self.glitches: list[dict] = []
        self.last_records: list[dict] = []
        """The replay records of the last :meth:`step` (its :attr:`StepResult.records`)."""
        self._unreturned: list[dict] = []
        if isinstance(human, str):
            human = (human,)
        self.human: dict[str, HumanThrow | None] = (
            dict(human) if isinstance(human, Mapping) else dict.fromkeys(human or ())
        )
        self._current: _Current | None = None
        self._step_throws: list[dict] = []
        self._recorded: dict[str, list[float]] | None = None
        """The poses a replay reader has after the last record (rounded), or None where no
        action record needs ``after`` (no world yet, or after a lag throw's own world)."""
        unknown = sorted(set(self.human) - set(names))
        if unknown:
            raise MatchSetupError(
                f"human players {unknown} are not players of this match; expected names among {list(names)}"
            )
        self.events: list[Event] = []
        self.replay_path = Path(replay) if replay is not None else None
        self._fh = None
        self.header = {
            "type": "header",
            "schema": SCHEMA,
            "config": config.to_dict(),
            "ruleset": self.ruleset.name,
            "equipment": self.ruleset.equipment,
            "pitch": {"length": self.pitch.length, "width": self.pitch.width},
        }
        """The replay's ``header`` record (configuration, ruleset, equipment, pitch)."""
        if self.replay_path is not None and not _resume:
            # the replay is written under an exclusive lock (two matches never interleave lines)
            # (replace_replay False: created with O_EXCL, so no file is ever truncated unasked)
            self._fh = ExclusiveFile(self.replay_path, replace=replace_replay, exclusive=not replace_replay)
            self._write(self.header)
            self._unreturned.clear()  # the header belongs to no step

    # ------------------------------------------------------------------ replay io
    def _write(self, rec: dict) -> None:
        self._unreturned.append(rec)
        if self._fh is not None:
            self._fh.write(json.dumps(rec, separators=(",", ":"), ensure_ascii=False) + "\n")

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        if self.world is not None:
            self.world.close()
            self.world = None

    def _emit(self, events) -> None:
        for e in events:
            self.events.append(e)
            if self.on_event is not None:
                self.on_event(e)

    def _note(self, kind: str, text: str, rules=(), side=None) -> Event:
        s = self.state
        e = Event(
            round(s.clock, 3), s.set_no, s.turn_no, kind, text, tuple(rules), side, s.player_at(side) if side else None
        )
        return e

    def _rng(self, attempt: int = 0, throw_no: int = 0) -> np.random.Generator:
        """The generator of this action's ``throw_no``-th throw (0-based; an inkast throws one
        kubb after another), ``attempt``-th try (module doc "Randomness")."""
        key = (self.action_index, attempt) if throw_no == 0 else (self.action_index, attempt, throw_no)
        return np.random.default_rng(np.random.SeedSequence(self.config.seed, spawn_key=key))

    # ------------------------------------------------------------------ world
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

    def _eq(self):
        from kubb3d.equipment import get_set

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
        w = self.world
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
                poses[kid] = _pose_list(pos, q)
        pos, q = w.pose(KING_ID)
        poses[KING_ID] = _pose_list(pos, q)
        return poses, sides

    def _ensure_world(self) -> None:
        s = self.state
        if s.set_no == 0:
            return
        key = (s.set_no, s.turn_no)
        if key == self.world_key:
            return
        if self.world_key is None or key[0] != self.world_key[0]:
            poses = self._standard_poses()
            sides = {k: k[0] for k in poses if k != KING_ID}
        else:
            poses, sides = self._boundary_poses()
        self._write(
            {"type": "world", "i": self.action_index, "set": key[0], "turn": key[1], "poses": poses, "sides": sides}
        )
        self._build(poses, sides)
        self.world_key = key
        self._recorded = {pid: _pose_rounded(p[:3], p[3:]) for pid, p in poses.items()}

    def _world_poses(self, world: World | None = None) -> dict[str, list[float]]:
        """Rounded poses of every piece in ``world`` (default: the match's; kubbs, king, batons)."""
        w = self.world if world is None else world
        return {pid: _pose_rounded(*w.pose(pid)) for pid in sorted(w.piece_ids("kubb", "king", "baton"))}

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

    def _save(self) -> tuple[dict, dict]:
        snap = self.world.snapshot(contacts=False)
        poses = {
            pid: list(p.position) + list(p.quat_xyzw) for pid, p in snap.pieces.items() if p.kind in ("kubb", "king")
        }
        sides = {pid: p.side for pid, p in snap.pieces.items() if p.kind == "kubb"}
        return poses, sides

    def _floor_z(self) -> float:
        board = self._eq().board
        return -board.table_height if board is not None else 0.0

    def _park(self, kid: str) -> None:
        """Pick a kubb up: lay it behind the baseline of the half it belongs to now (Kubbuteo:
        on the floor beyond the board's end, out of play, ``KT rules``)."""
        s = self.state
        if self.table:
            eq = self._eq()
            half = s.kubbs[kid].half
            slot = sorted(s.kubbs).index(kid)
            x = self.pitch.forward(half) * -(self.pitch.length / 2 + 0.08 + 0.04 * (slot // 5))
            self.world.set_pose(
                kid, (x, -0.1 + 0.05 * (slot % 5), self._floor_z() + eq.kubb.thickness / 2), LYING_DISK_KUBB, wake=False
            )
            return
        half = s.kubbs[kid].half
        slot = sorted(s.kubbs).index(kid)
        x = self.pitch.baseline_x(half) - self.pitch.forward(half) * 1.5
        eq = self._eq()
        self.world.set_pose(kid, (x, -2.25 + 0.5 * slot, eq.kubb.width / 2), _LYING, wake=False)

    # ------------------------------------------------------------------ run
    def pending(self) -> Pending | None:
        """What is due next: the action, who acts and, for a person's throw, the
        :class:`HumanRequest`; None once the match is over.

        At a turn boundary this rebuilds the world (and writes its ``world`` record, returned
        by the next :meth:`step`); for a person's throw it starts the action up to the
        request (an inkast picks its kubbs up). Calling it again returns the same answer."""
        if self.state.outcome() is not None:
            return None
        if self._current is None:
            self._ensure_world()
            self._start(self._decide())
        c = self._current
        return Pending(c.action, c.player, c.request)

    def _start(self, action) -> None:
        s = self.state
        side = getattr(action, "side", None)
        player = getattr(action, "player", None) or (s.player_at(side) if side else s.players[0])
        self._current = c = _Current(action, player)
        if isinstance(action, _THROW_ACTIONS) and player in self.human:
            c.run = self._perform(action)
            try:
                req = next(c.run)
                while isinstance(req, ThrowFrame):  # (a person is asked before anything is thrown)
                    req = next(c.run)
                c.request = req
            except StopIteration as stop:  # performing it asked nothing after all
                c.result = stop.value

    def step(self, answer: Any = None) -> StepResult:
        """Perform the pending action (see :meth:`pending`) and return what it did:
        :meth:`step_iter` run to its end without looking at its frames.

        ``answer`` is None (a simulated player's action; a person's throw whose ``human``
        callable is given), the person's ``ThrowParams`` (``FlickParams`` on a board) when a
        throw is asked for, or a legal rules action replacing the one the simulated player
        chose (a choice, a placement …). One step is one whole action (a lag throw, a choice,
        a baton throw, an inkast attempt, a penalty throw, a raising, a placement …) except
        when a person inkasts several kubbs: each kubb thrown is then a step of its own
        (``done`` False until the last). The world stays open after the last action (for a
        viewer); call :meth:`close` when done.

        Raises:
            RuntimeError: the match is already over; a person's throw is due and no
                parameters were given.
            TypeError: parameters of the wrong type for the person's throw.
            IllegalAction: an action that is not legal now, or parameters where none are asked.
        """
        return run_frames(self.step_iter(answer))

    def step_iter(self, answer: Any = None) -> Generator[ThrowFrame, None, StepResult]:
        """:meth:`step` as a generator: it yields the :class:`~kubb3d.throw.ThrowFrame` of every
        throw simulated during the step as they are simulated (release, 30 Hz samples, rest; a
        throw repeated after a physics glitch starts again at ``time_s`` 0) and returns the
        :class:`StepResult`. A view can draw each frame as it comes; the match goes on exactly as
        with :meth:`step` (same result, same replay, bit for bit). The errors of :meth:`step` are
        raised at the first ``next()``."""
        if self.state.outcome() is not None:
            raise RuntimeError("the match is over; no action is left to perform")
        self.pending()
        c = self._current
        assert c is not None
        if answer is not None and c.run is None and not _is_params(answer):
            self._override(answer)
            c, answer = self._current, None
        if c.result is not None:
            return self._finish(c, c.result)
        if c.run is None:
            if answer is not None:
                raise IllegalAction(
                    f"no throw is asked for now ({c.player} plays {type(c.action).__name__} as a "
                    "simulated player): call step() without parameters"
                )
            c.run = self._perform(c.action)
            send = None
        else:
            send = self._answer(c, answer)
        while True:
            try:
                req = c.run.send(send)
            except StopIteration as stop:
                return self._finish(c, stop.value)
            if isinstance(req, ThrowFrame):
                yield req
                send = None
                continue
            c.request = req
            fn = self.human.get(c.player)
            if fn is None:
                return StepResult(c.action, False, throws=self._take_throws(), records=self._take_records())
            send = self._answer(c, None)

    def _answer(self, c: _Current, answer: Any) -> Any:
        """The person's parameters for the request ``c`` waits on, checked."""
        from kubb3d.throw import FlickParams, ThrowParams

        req = c.request
        assert req is not None
        if answer is None:
            fn = self.human.get(c.player)
            if fn is None:
                raise RuntimeError(
                    f"{c.player}'s {req.kind} throw of {req.piece} is due: pass its parameters to step()"
                )
            answer = fn(req)
        want = FlickParams if req.flick else ThrowParams
        if not isinstance(answer, want):
            raise TypeError(f"the throw of {c.player} must be a {want.__name__}, got {type(answer).__name__}")
        c.request = None
        return answer

    def _override(self, action) -> None:
        """Replace the pending action (not a person's throw under way) by the caller's legal one."""
        from kubb3d.rules import IllegalAction

        s = self.state
        if not s.is_legal(action):
            why = s.placement_error(action) if isinstance(action, PlaceKubb) else None
            raise IllegalAction(f"{action} is not legal now: {why or f'legal are {s.legal_actions()}'}")
        self._start(action)

    def _finish(self, c: _Current, result) -> StepResult:
        outcome, extra, notes = result
        self._current = None
        action = c.action
        events = self.state.push(action, outcome)
        ordered = causal_order(notes, events)
        self._emit(ordered)
        throws = self._take_throws()
        after = self._after(extra)
        rec = {
            "type": "action",
            "i": self.action_index,
            "action": action_to_dict(action),
            "outcome": None if outcome is None else outcome.to_dict(),
            "events": [e.to_dict() for e in ordered],
            **extra,
        }
        if after:
            rec["after"] = after
        self._write(rec)
        self.action_index += 1
        out = self.state.outcome()
        if out is not None:
            self._write(
                {
                    "type": "outcome",
                    "i": self.action_index,
                    "clock_s": self.state.clock,
                    "glitches": len(self.glitches),
                    **out.to_dict(),
                }
            )
        return StepResult(action, True, outcome, tuple(ordered), throws, self._take_records())

    def _take_throws(self) -> tuple[dict, ...]:
        out, self._step_throws = tuple(self._step_throws), []
        return out

    def _take_records(self) -> tuple[dict, ...]:
        out = tuple(self._unreturned)
        self._unreturned = []
        self.last_records = list(out)
        return out

    def run(self, max_actions: int | None = None) -> Outcome | None:
        """Play until the match has an outcome (or ``max_actions`` more actions, for tests of
        resuming): a loop over :meth:`step`. Returns the outcome (None if stopped early)."""
        n = 0
        try:
            while self.state.outcome() is None:
                if max_actions is not None and n >= max_actions:
                    return None
                self.step()
                n += 1
            return self.state.outcome()
        finally:
            if self.state.outcome() is not None or max_actions is not None:
                self.close()

    # ------------------------------------------------------------------ decisions
    def _decide(self):
        s = self.state
        legal = s.legal_actions()
        a = legal[0]
        if isinstance(a, Choose):
            return self.players[a.player].choose(legal)
        if isinstance(a, RemoveTieBreakKubb):
            return legal[0]
        if isinstance(a, PlaceKubb):
            return self._placement(a)
        return a

    def _placement(self, a: PlaceKubb) -> PlaceKubb:
        s = self.state
        player = self.players[s.player_at(a.side)]
        others = [
            np.asarray(self.world.pose(pid)[0][:2])
            for pid in self.world.piece_ids("kubb", "king")
            if pid != a.kubb and self.world.pose(pid)[0][2] > self._floor_z() + 0.05
        ]
        clearance = 0.035 if self.table else 0.15
        spots = player.place_spots(self.pitch, a.half, a.reason, placer_owns_half=(a.side == a.half))
        for xy in spots:
            cand = replace(a, position=(float(xy[0]), float(xy[1])))
            if s.placement_error(cand) is None and all(np.hypot(*(np.asarray(xy) - o)) > clearance for o in others):
                return cand
        for xy in spots:  # crowded: accept overlap with lying pieces rather than fail
            cand = replace(a, position=(float(xy[0]), float(xy[1])))
            if s.placement_error(cand) is None:
                return cand
        raise RuntimeError(f"no valid spot to place {a.kubb} in half {a.half}")

    # ------------------------------------------------------------------ actions
    def _perform(self, a) -> tuple[Any, dict, list[Event]]:
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
            self.world.set_side(a.kubb, a.half)
            self.world.set_pose(
                a.kubb, (a.position[0], a.position[1], eq.kubb.height / 2), (0.0, 0.0, 0.0, 1.0), wake=False
            )
            return None, {}, []
        if isinstance(a, RemoveTieBreakKubb):
            self.world.remove_piece(a.kubb)
            return None, {}, []
        if isinstance(a, Raise) and not self.table:
            for kid in sorted(a.kubbs):  # sorted: the order of pose resets reaches the engine
                pose = self.state.to_raise[kid]
                self.world.set_pose(kid, pose.position, pose.quat_xyzw, wake=False)
            return None, {}, []
        return None, {}, []

    def _throw_record(self, res: ThrowResult, intended=None) -> dict:
        hz = self.config.trajectory_hz
        t = res.trajectory.times
        step = 1
        if len(t) > 1:
            step = max(1, int(round((1.0 / hz) / max(1e-9, _median(np.diff(t).tolist())))))
        idx = list(range(0, len(t), step))
        if len(t) and idx[-1] != len(t) - 1:
            idx.append(len(t) - 1)
        # rows as lists of floats first (float(np.float64) is exact), then rounded like _r
        traj = {
            pid: [[round(v, 4) for v in row] for row in arr[idx].tolist()]
            for pid, arr in sorted(res.trajectory.poses.items())
        }
        rel = res.release
        d = {
            "piece": res.piece,
            "legal": res.legal,
            "violations": [{"rule": v.rule, "reason": v.reason} for v in res.violations],
            "release": {
                "position_m": list(rel.position),
                "velocity_mps": list(rel.velocity),
                "angular_velocity_radps": list(rel.angular_velocity),
                "quat_xyzw": list(rel.quat_xyzw),
            },
            "trajectory": {"times_s": [round(v, 4) for v in t[idx].tolist()], "poses": traj},
            "rest_time_s": res.rest_time,
        }
        if res.params is not None:
            d["params"] = asdict(res.params)
        if intended is not None:
            d["intended"] = asdict(intended)
        self._step_throws.append(d)
        return d

    def _simulate_with_retries(
        self,
        make: Callable[[np.random.Generator], Any],
        run: Callable[[Any], Generator[ThrowFrame, None, ThrowResult]],
        restore: Callable[[], None],
        notes: list[Event],
        side: str | None,
        throw_no: int = 0,
    ) -> Generator[HumanRequest | ThrowFrame, Any, tuple[ThrowResult | None, Any]]:
        """Run a throw (the action's ``throw_no``-th, 0-based); on a physics glitch restore the
        world and repeat with new noise (a generator: it yields the :class:`HumanRequest` of a
        person's throw and is sent the answer, and it yields the throw's
        :class:`~kubb3d.throw.ThrowFrame` as they are simulated)."""
        for attempt in range(GLITCH_RETRIES + 1):
            made = make(self._rng(attempt, throw_no))
            # a person's throw: the maker is a generator that yields a HumanRequest (Match.step)
            intended, params = (yield from made) if inspect.isgenerator(made) else made
            try:
                res = yield from run(params)
                reason = glitch_reason(res, self.pitch, self._floor_z())
            except PhysicsGlitch as exc:
                res, reason = None, str(exc)
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

    def _maker(
        self,
        side: str,
        make: Callable[[np.random.Generator], tuple[Any, Any]],
        kind: str,
        piece: str,
        line_x: float,
        into: str | None,
        target,
        world: Callable[[], World] | None = None,
    ) -> Callable[[np.random.Generator], Any]:
        """The release maker for ``side``'s player: ``make`` for a simulated player, else a
        generator function that yields the :class:`HumanRequest` and receives the person's
        parameters (sent by :meth:`step`, already type-checked)."""
        name = self.state.player_at(side)
        if name not in self.human:
            return make
        calls = [0]
        flick = self._eq().board is not None

        def ask(_rng: np.random.Generator) -> Generator[HumanRequest, Any, tuple[Any, Any]]:
            req = HumanRequest(
                kind,
                name,
                side,
                piece,
                float(line_x),
                into,
                None if target is None else tuple(float(v) for v in target),
                calls[0],
                self.state,
                world() if world is not None else self.world,
                flick,
            )
            calls[0] += 1
            p = yield req
            return p, p

        return ask

    def _restorer(self) -> Callable[[], None]:
        poses, sides = self._save()
        batons = [(pid, _pose_list(*self.world.pose(pid))) for pid in self.world.piece_ids("baton")]

        def restore() -> None:
            self._build(poses, sides)
            for pid, p in batons:
                self.world.add_piece(pid, "baton", tuple(p[:3]), tuple(p[3:]))
                self.world.set_pose(pid, tuple(p[:3]), tuple(p[3:]), wake=False)
            self.world.sleep_all()

        return restore

    def _flick(self, world: World, piece: str, p, kind: str) -> Generator[ThrowFrame, None, ThrowResult]:
        """Simulate a Kubbuteo flick (``KT rules``) with its parameters kept in the result (its
        frames are yielded as they are simulated)."""
        return simulate_iter(
            world,
            piece,
            release_from_flick(world, p, kind),
            kind=kind,
            params=p,
            max_time=FLICK_MAX_TIME,
            sliding=True,
            settle_s=self.throw_options.get("settle_s"),
        )

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

    def _lag(self, a: LagThrow):
        if self.table:
            return (yield from self._lag_flick(a))
        player = self.players[self.state.player_at(a.side)]
        notes: list[Event] = []
        holder, fresh = self._lag_world()
        w0 = holder["w"]
        before = self._world_poses(w0)
        res, intended = yield from self._simulate_with_retries(
            self._maker(
                a.side,
                lambda rng: player.lag_throw(w0.equipment, self.pitch, a.side, rng, dt=w0.quiet_dt),
                "lag",
                "baton1",
                self.pitch.baseline_x(a.side),
                None,
                (0.0, 0.0, 0.0),
                lambda: holder["w"],
            ),
            lambda p: throw_iter(holder["w"], p, baton="baton1", ruleset=self.ruleset.name, **self.throw_options),
            fresh,
            notes,
            a.side,
        )
        if res is None:
            holder["w"].close()
            return LagResult(None, False), {}, notes
        dist = distance_to_king(res.final, "baton1")
        king = res.final[KING_ID]
        felled = king.tilt > KING_FELLED_TILT
        extra = self._lag_extra(res, intended, before, holder["w"])
        holder["w"].close()
        inside = self.pitch.in_pitch(*res.final["baton1"].position[:2])
        return LagResult(dist if inside else None, felled, KING_ID in res.touched), extra, notes

    def _lag_extra(self, res: ThrowResult, intended, before: dict, world: World) -> dict:
        """A lag throw's record fields: its throw, the poses of its fresh world before it
        (``before``) and at rest (``_final``, for :meth:`_after`)."""
        return {"throws": [self._throw_record(res, intended)], "before": before, "_final": self._world_poses(world)}

    def _lag_flick(self, a: LagThrow):
        """Kubbuteo's start (kubb3d's choice, :mod:`kubb3d.rules.kubbuteo`): a baton flicked from
        the baseline to stop near the king, in a fresh standard board world."""
        player = self.players[self.state.player_at(a.side)]
        notes: list[Event] = []
        holder, fresh = self._lag_world()
        before = self._world_poses(holder["w"])
        res, intended = yield from self._simulate_with_retries(
            self._maker(
                a.side,
                lambda rng: player.lag_flick(holder["w"], a.side, rng),
                "lag",
                "baton1",
                self.pitch.baseline_x(a.side),
                None,
                (0.0, 0.0, 0.0),
                lambda: holder["w"],
            ),
            lambda p: self._flick(holder["w"], "baton1", p, "baton"),
            fresh,
            notes,
            a.side,
        )
        if res is None:
            holder["w"].close()
            return LagResult(None, False), {}, notes
        extra = self._lag_extra(res, intended, before, holder["w"])
        holder["w"].close()
        b, king = res.final["baton1"], res.final[KING_ID]
        felled = king.tilt > KING_FELLED_TILT
        on_board = b.position[2] > 0 and self.pitch.in_pitch(*b.position[:2])
        # the disk's rim to the king: its stem where the disk lies lower than the stem's top,
        # else its cap (the king stands upright, the disk lies flat)
        mushroom = self._eq().king
        king_foot = king.position[2] - king.half_extents[2]
        below_cap = b.position[2] + min(b.half_extents) < king_foot + mushroom.stem_height
        reach = mushroom.stem_diameter / 2 if below_cap else mushroom.diameter / 2
        apart = math.hypot(b.position[0] - king.position[0], b.position[1] - king.position[1])
        dist = max(0.0, apart - max(b.half_extents) - reach)
        return LagResult(dist if on_board else None, felled, KING_ID in res.touched), extra, notes

    def _start_round_if_needed(self) -> None:
        s = self.state
        key = (s.set_no, s.turn_no)
        if key != self.round_key:
            self.round_key = key
            self.world.clear_history()
            self.round_start = {
                pid: Pose(tuple(float(v) for v in self.world.pose(pid)[0]), tuple(self.world.pose(pid)[1]))
                for pid in self.world.piece_ids("kubb", "king")
            }

    def _baton(self, a):
        s = self.state
        self._start_round_if_needed()
        thrower, half = a.side, opponent(a.side)
        player = self.players[s.player_at(thrower)]
        w = self.world
        eq = w.equipment
        king = isinstance(a, KingThrow)
        if king:
            kp, _ = w.pose(KING_ID)
            target = (float(kp[0]), float(kp[1]), float(kp[2]))
        else:
            cands = []
            for k in s.standing_in(half):
                pos, q = w.pose(k.id)
                t = tilt_from_vertical(q)
                cands.append(
                    (k.id, k.baseline, tuple(float(v) for v in pos), t < math.radians(10) or t > math.radians(170))
                )
            tid = (
                player.choose_flick_target(w, thrower, cands, a.line_x)
                if self.table
                else player.choose_target(thrower, cands, a.line_x)
            )
            target = aim_point(w, tid)
        notes: list[Event] = []
        if self.table:
            before_own = {k.id: k.pose for k in s.standing_in(thrower)}
            # a king flick arrives firmly (Strategy.king_arrive_mps); a flick at a kubb as baton_flick's default
            arrive = {"arrive_speed": player.strategy.king_arrive_mps} if king else {}

            def make(rng):
                return player.baton_flick(self.world, thrower, a.line_x, target[:2], rng, **arrive)

            run = lambda p: self._flick(self.world, a.baton, p, "baton")  # noqa: E731
        else:
            make = lambda rng: player.baton_throw(eq, self.pitch, thrower, a.line_x, target, rng, dt=w.quiet_dt)  # noqa: E731
            run = lambda p: throw_iter(  # noqa: E731
                self.world, p, baton=a.baton, ruleset=self.ruleset.name, **self.throw_options
            )
        res, intended = yield from self._simulate_with_retries(
            self._maker(thrower, make, "king" if king else "baton", a.baton, a.line_x, None, target),
            run,
            self._restorer(),
            notes,
            thrower,
        )
        if res is None:
            if self.table and self.world.has_piece(a.baton):
                self.world.remove_piece(a.baton)
            return ThrowOutcome(), {}, notes
        if self.table:
            self.world.settle_forces()
            res = replace(res, final=self.world.snapshot())
        ctx = self.judge.ThrowContext(
            ruleset=self.ruleset.name,
            thrower=thrower,
            legal=res.legal,
            violations=tuple(res.violations),
            king_throw=king,
            round_start=dict(self.round_start),
            field_kubbs=s.field_kubbs(half),
            already_felled=frozenset(s.felled_in(half)),
            pending_raise=frozenset(s.raise_at_end),
            own_standing={k.id: k.pose for k in s.standing_in(thrower)},
            options=self.judge_options,
        )
        j = self.judge.judge_throw(res.final, ctx)
        for pid in sorted(j.raise_now):
            if pid in self.round_start and self.world.has_piece(pid):
                p = self.round_start[pid]
                self.world.set_pose(pid, p.position, p.quat_xyzw, wake=False)
        for r in j.rulings:
            # a standing kubb pushed across a sideline is set back inside (kubb3d's decision)
            pose = r.raised_pose
            if r.consequence is Consequence.SET_INSIDE and pose is not None and self.world.has_piece(r.piece):
                self.world.set_pose(r.piece, pose.position, pose.quat_xyzw, wake=False)
        poses = {}
        for k in s.standing_in(half):
            if k.id not in j.felled and k.id not in j.raise_again and self.world.has_piece(k.id):
                pos, q = self.world.pose(k.id)
                poses[k.id] = Pose(tuple(float(v) for v in pos), tuple(float(v) for v in q))
        if self.table:
            self._clear_after_flick(a.baton, j, before_own)
        out = ThrowOutcome.from_judgement(j, legal=res.legal, poses=poses)
        felled_before = s.felled_in(half)
        fresh = [r for r in out.rulings if (r if isinstance(r, dict) else r.to_dict())["piece"] not in felled_before]
        notes += self._ruling_notes(fresh, thrower)
        if res.violations:
            for v in res.violations:
                notes.append(self._note("foul", v.reason, (v.rule,), thrower))
        return out, {"throws": [self._throw_record(res, intended)], "judgement": j.to_dict()}, notes

    def _clear_after_flick(self, baton: str, j, before_own: Mapping[str, Pose]) -> None:
        """Apply :func:`kubb3d.rules.kubbuteo.after_flick`: the baton leaves the world, the
        knocked kubbs are parked off the board, the kubbs to stand again are set."""
        w = self.world
        now = {}
        for kid in before_own:
            pos, q = w.pose(kid)
            now[kid] = Pose(tuple(float(v) for v in pos), tuple(float(v) for v in q))
        clear = after_flick(baton, j.felled, j.raise_again, self.round_start, before_own, now)
        for pid in clear.remove:
            if w.has_piece(pid):
                w.remove_piece(pid)
        for kid in clear.pick_up:
            if w.has_piece(kid):
                self._park(kid)
        for kid, p in clear.stand_again.items():
            if w.has_piece(kid):
                w.set_pose(kid, p.position, p.quat_xyzw, wake=False)
        w.sleep_all()

    def _ruling_notes(self, rulings, side) -> list[Event]:
        out = []
        for r in rulings:
            d = r if isinstance(r, dict) else r.to_dict()
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
        kubbs,
        attempt: int,
        from_side: str,
        into: str,
        receiving: bool,
        attempt_kind: str = "inkast",
    ):
        s = self.state
        w = self.world
        eq = w.equipment
        player = self.players[s.player_at(thrower_side)]
        # every piece standing now, including kubbs raised after an earlier attempt of this turn
        # (not yet standing for the engine until the Raise action): one this inkast disturbs is
        # set up again where it stood (WS basic rule 14, DM §5)
        before = {
            pid: Pose(tuple(float(v) for v in w.pose(pid)[0]), tuple(w.pose(pid)[1]))
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
            if self.table:
                assert isinstance(eq.kubb, DiskPiece)
                target = player.return_target(self.pitch, from_side, offset + n, eq.kubb.radius)
            elif receiving:
                target = player.penalty_target(self.pitch, from_side, True, offset + n)
            else:
                target = player.inkast_target(self.pitch, from_side, offset + n)
            self.world.set_side(kid, into)

            if self.table:

                def run(p, kid=kid):
                    return self._flick(self.world, kid, p, "kubb")

                def make(rng, target=target):
                    return player.baton_flick(
                        self.world,
                        from_side,
                        self.pitch.baseline_x(from_side),
                        target,
                        rng,
                        arrive_speed=0.0,
                        kind="kubb",
                    )
            else:

                def run(p, kid=kid):
                    return simulate_iter(
                        self.world,
                        kid,
                        release_from_params(p, self.pitch),
                        kind="kubb",
                        params=p,
                        settle_s=self.throw_options.get("settle_s"),
                    )

                def make(rng, target=target):
                    return player.kubb_throw(eq, self.pitch, from_side, target, rng, dt=w.quiet_dt)

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
        self.world.settle_forces()
        snap = self.world.snapshot()
        ctx = self.judge.InkastContext(
            ruleset=self.ruleset.name,
            inkasting_side=from_side,
            inkasted=tuple(kubbs),
            attempt=attempt,
            before=before,
            options=self.judge_options,
            thrower=None if thrower_side == from_side else thrower_side,
            awaiting={} if self.table else {k: p for k, p in s.to_raise.items() if k not in kubbs},
        )
        j = self.judge.judge_inkast(snap, ctx)
        valid, invalid, stossel, king_felled = dict(j.valid), j.invalid, j.stossel, j.king_felled
        if not king_felled:
            king_felled = snap[KING_ID].tilt > KING_FELLED_TILT
        # undo disturbances (WS basic rule 14, DM §5): every piece that stood before is put back
        # on its spot, the ones the judge ruled moved and the ones shifted too little for a
        # ruling, as the judge raised against the spots (kubb3d.judge.raising); then raise the
        # valid kubbs (DM §7)
        for pid, p in sorted(before.items()):
            if pid == KING_ID and king_felled:
                continue
            cur = snap[pid]
            if tuple(cur.position) != tuple(p.position) or tuple(cur.quat_xyzw) != tuple(p.quat_xyzw):
                self.world.set_pose(pid, p.position, p.quat_xyzw, wake=False)
        # a valid kubb is raised by the Raise action, after every kubb of the inkast was thrown
        # (DM §7 "Danach"; WS basic rule 12), so it lies where it landed until then; a Kubbuteo
        # return is stood up where it rests at once (KT rules)
        if self.table:
            for kid, pose in valid.items():
                self.world.set_pose(kid, pose.position, pose.quat_xyzw, wake=False)
        # sorted: the order of the pose resets reaches the physics engine (its contact pairs),
        # and a set of strings iterates in a per-process order (PYTHONHASHSEED)
        for kid in sorted(set(invalid) | set(stossel) | (set(kubbs) - set(valid) - set(invalid) - set(stossel))):
            self._park(kid)
        # a kubb the judge said nothing about (thrown without effect after glitches) is invalid
        invalid = invalid | frozenset(set(kubbs) - set(valid) - set(invalid) - set(stossel))
        self.world.sleep_all()
        rulings = tuple(r.to_dict() for r in j.rulings)
        out = InkastOutcome(valid=valid, invalid=invalid, stossel=stossel, king_felled=king_felled, rulings=rulings)
        notes += self._ruling_notes(rulings, thrower_side)
        return out, {"throws": records, "judgement": j.to_dict()}, notes

    # ------------------------------------------------------------------ resume
    @classmethod
    def resume(
        cls, path: str | os.PathLike, *, judge: Any = None, on_event: Callable[[Event], None] | None = None
    ) -> "Match":
        """Continue an interrupted match from its replay file (rewritten in place).

        The match state is rebuilt by pushing the recorded actions and outcomes up to the
        last turn boundary; the world is rebuilt from that boundary's poses; later records
        are dropped and played again (with the same per-action seeds).

        Raises:
            ReplayError: unreadable file, wrong schema, or records that do not fit.
        """
        from kubb3d.replay import read_replay

        path = Path(path)
        rp = read_replay(path)  # every record validated (kubb3d.replay): file, line, field
        lines = rp.lines
        if rp.header.config is None:
            raise ReplayError(f"{path}:1: config: missing (the match configuration is needed to resume)")
        try:
            config = MatchConfig.from_dict(rp.header.config.model_dump())
            m = cls(config, judge=judge, replay=None, on_event=on_event, _resume=True)
        except (KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"{path}:1: bad configuration: {exc}") from None
        known = set(m._standard_poses()) | set(m.state.kubbs) | {KING_ID}
        for n, r, _ in rp.records:
            if r.type == "world":
                unknown = sorted(set(r.poses) - known)
                if unknown:
                    raise ReplayError(
                        f"{path}:{n}: poses: unknown pieces {unknown[:5]}; expected among {sorted(known)}"
                    )
        worlds = [(n, r) for n, r, _ in rp.records if r.type == "world"]
        cut_line = 1
        boundary = None
        if worlds:
            cut_line, boundary = worlds[-1]
        upto = boundary.i if boundary else 0
        # lag actions before the first set have no world record: keep them only if complete
        expect = 0
        for n, r, _raw in rp.records:
            if r.type != "action" or r.i >= upto:
                continue
            if r.i != expect:
                raise ReplayError(f"{path}:{n}: i: action {r.i} where action {expect} was expected")
            try:
                m.state.push(action_from_dict(r.action), outcome_from_dict(r.outcome))
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                raise ReplayError(
                    f"{path}:{n}: recorded action does not fit the match: {' '.join(str(exc).split())[:200]}"
                ) from None
            m.action_index = expect = r.i + 1
        if boundary is not None:
            if m.action_index != upto:
                raise ReplayError(f"{path}: actions before the last turn boundary are missing")
            # the world holds every kubb still in the game and the king: a record missing one
            # would end the resumed match in a KeyError at the first throw at it
            expect = {kid for kid, k in m.state.kubbs.items() if not k.removed} | {KING_ID}
            if set(boundary.poses) != expect:
                missing, extra = sorted(expect - set(boundary.poses)), sorted(set(boundary.poses) - expect)
                why = [f"missing {', '.join(missing)}"] if missing else []
                why += [f"no such piece in the match: {', '.join(extra)}"] if extra else []
                raise ReplayError(f"{path}:{cut_line}: poses: {'; '.join(why)}")
            try:
                m._build(boundary.poses, boundary.sides)
            except (ValueError, PhysicsGlitch) as exc:
                raise ReplayError(f"{path}:{cut_line}: poses: cannot build the world: {exc}") from None
            m.world_key = (boundary.set, boundary.turn)
            m._recorded = {pid: _pose_rounded(p[:3], p[3:]) for pid, p in boundary.poses.items()}
        m.events = list(m.state.events)
        keep = lines[:cut_line]
        # atomic: a kill at any moment leaves the old replay or the cut one, never a torn file
        m.replay_path = path
        m._fh = rewrite_locked(path, ("\n".join(keep) + "\n").encode("utf-8"))
        return m


def play(
    config: MatchConfig,
    *,
    judge: Any = None,
    replay: str | os.PathLike | None = None,
    on_event: Callable[[Event], None] | None = None,
    human: Mapping[str, HumanThrow] | None = None,
) -> tuple[Outcome, Match]:
    """Play a whole match (a loop over :meth:`Match.step`); returns (outcome, the finished match)."""
    m = Match(config, judge=judge, replay=replay, on_event=on_event, human=human)
    out = m.run()
    return out, m

"""Match mode of ``kubb3d play --opponent SKILL``: a whole match against a simulated player.

:class:`MatchSession` runs a :class:`kubb3d.match.Match` inside the viewer. The person is one
player of the match (``P1`` by default; he starts at end A and changes ends between sets like
the match says); the other player is simulated.

How the session advances (pure Python, no OpenGL; the app calls :meth:`MatchSession.update`
every frame):

* When nothing is being played back, one :meth:`Match.step` runs in a worker thread (one
  action: a lag throw, a choice, a baton throw, one inkast attempt …).
* When the step needs a throw of the person, the match calls the session's ``human`` callable
  (in the worker thread) with a :class:`~kubb3d.match.HumanRequest`; the callable copies the
  poses of the request's world, hands the request to the app's thread and blocks until
  :meth:`MatchSession.throw` delivers the :class:`~kubb3d.throw.ThrowParams` of the person's
  release (the play controls, set up for the request: its side and line; inkasts and penalty
  kubbs with a lower speed range, a steeper default elevation and little spin).
* When the step is over, its replay records are turned into playback segments by
  :func:`kubb3d.viewer.replay.load_replay` (the records since the last turn boundary are read
  as a small replay), so thrown pieces fly on screen and the judge's raised poses are
  animated; then the next step starts.

The person's own throws are shown once the step ends: a throw is simulated in full before
it can be played back (in a multi-kubb inkast, the kubbs already thrown lie where they came to
rest when the next one is asked for, and the whole attempt is played back at the end).

Headless (``--screenshot``): :meth:`MatchSession.advance_throws` performs match actions in the
calling thread with the person's throws scripted by :func:`scripted_person` (the simulated
strategy's noise-free throws).
"""

from __future__ import annotations

import json
import math
import queue
import tempfile
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

import numpy as np

from kubb3d.pitch import KING_ID, opponent
from kubb3d.viewer.controls import SPEED_MAX, SPEED_MIN, Controller, ThrowControls
from kubb3d.viewer.hud import Hud, power_label, ruling_lines, throw_lines
from kubb3d.viewer.scene import PieceView, Scene, Segment

PERSON = "P1"
"""Default name of the person's player (DM duels name the players P1 and P2)."""
INKAST_SPEED = (2.0, 11.0)
"""m/s: release speed at an empty / full power bar for inkasts and penalty kubbs (a lob of
4–8 m needs about 6–9 m/s)."""
BATON_SPEED = (SPEED_MIN, SPEED_MAX)
"""m/s: the same for baton, king and lag throws."""
KUBB_DEFAULTS = {"elevation_deg": 50.0, "spin_rps": 0.3, "tilt_deg": 0.0, "release_angle_deg": 0.0, "speed_range": INKAST_SPEED}
"""Settings an inkast starts from (deg, rev/s, m/s)."""
BATON_DEFAULTS = {"elevation_deg": 20.0, "spin_rps": 1.5, "tilt_deg": 0.0, "release_angle_deg": 60.0, "speed_range": BATON_SPEED}
"""Settings a baton throw starts from (deg, rev/s, m/s)."""


class MatchUnavailable(RuntimeError):
    """Match mode cannot run with these options (the message says why)."""


class _Aborted(Exception):
    """Raised inside the worker's ``human`` callable when the session closes."""


_ABORT = object()


@dataclass
class MatchControls(ThrowControls):
    """The play controls with a per-throw speed range and release angle.

    Attributes:
        speed_range: release speed at an empty and a full power bar, m/s.
        release_angle_deg: the piece's long axis above the horizontal at release, deg
            (batons 60°, kubbs 0°, as the simulated players throw them).
    """

    speed_range: tuple[float, float] = BATON_SPEED
    release_angle_deg: float = 60.0

    @property
    def speed(self) -> float:
        """Release speed for the current power, m/s."""
        lo, hi = self.speed_range
        return lo + self.power * (hi - lo)

    def params(self, speed: float | None = None):
        return replace(super().params(speed), release_angle_deg=self.release_angle_deg)


def scripted_person(match, name: str = PERSON) -> Callable[[Any], Any]:
    """A stand-in for the person: answers every :class:`~kubb3d.match.HumanRequest` with the
    noise-free throw the simulated strategy of player ``name`` intends (aimed at the
    request's target hint). Deterministic: the same request gives the same
    :class:`~kubb3d.throw.ThrowParams`."""
    player = match.players[name]

    def answer(req):
        eq, pitch = req.world.equipment, req.world.pitch
        rng = np.random.default_rng(0)  # only feeds the discarded noisy release
        if req.kind in ("inkast", "penalty"):
            intended, _ = player.kubb_throw(eq, pitch, opponent(req.into), req.target[:2], rng, dt=req.world.dt)
        else:
            intended, _ = player.baton_throw(eq, pitch, req.side, req.line_x, req.target, rng, dt=req.world.dt)
        return intended

    return answer


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m:d}:{s:02d}"


def state_lines(state, person: str) -> list[str]:
    """The match facts of the HUD's status panel for a :class:`~kubb3d.rules.MatchState`:
    sets, phase and whose turn, throwing line (m) and batons left, kubbs standing per half
    (and felled ones waiting), the match clock (m:ss)."""
    s = state
    p1, p2 = s.players
    lines = [f"set {s.set_no} (best of {s.sets}): sets won {p1} {s.set_wins[p1]} – {s.set_wins[p2]} {p2}"]
    turn = "-"
    if s.turn_side is not None:
        who = s.player_at(s.turn_side)
        turn = f"{who}{' (you)' if who == person else ''}, end {s.turn_side}"
    lines.append(f"phase {s.phase.value}   turn {s.turn_no}: {turn}")
    if s.turn_side is not None and s.line_x is not None:
        lines.append(f"throwing line x {s.line_x:+.2f} m   batons left {s.batons_left}")
    else:
        lines.append(f"throwing line -   batons left {s.batons_left}")
    if s.kubbs:
        per = []
        for half in ("A", "B"):
            owner = s.player_at(half)
            standing = s.standing_in(half)
            felled = len(s.felled_in(half))
            field = sum(1 for k in standing if not k.baseline)
            per.append(f"{half} ({owner}) {len(standing)}" + (f" incl. {field} field" if field else "") + (f", {felled} felled" if felled else ""))
        lines.append("kubbs standing: " + "   ".join(per) + ("" if s.king_standing else "   KING DOWN"))
    limit = f" of {_clock(s.time_limit_s)}" if s.time_limit_s else ""
    lines.append(f"clock {_clock(s.clock)}{limit}")
    return lines


_KIND_TEXT = {"lag": "your lag throw: land the baton close to the king", "baton": "your throw: {piece} at the kubbs in half {half}", "king": "KING THROW with {piece} from your baseline", "inkast": "inkast {piece} into half {into}", "penalty": "penalty kubb {piece} into half {into}"}


class MatchSession:
    """A match against a simulated player, as a viewer session (see the module doc).

    Args:
        ruleset: ``dm`` or ``wikinger``.
        opponent: skill preset of the simulated player (``novice``, ``club``, ``elite``).
        seed: the match's root seed (the opponent's release noise, choices …).
        person: name of the person's player (``P1`` or ``P2`` in DM).
        replay: also write the match replay to this path (None: no file).
        hold: do not start match actions on :meth:`update` (headless screenshots).

    Raises:
        ValueError: unknown ruleset or skill, a person who is not a player.
    """

    def __init__(self, ruleset: str = "dm", opponent: str = "club", seed: int = 0, person: str = PERSON, replay: str | Path | None = None, hold: bool = False) -> None:
        from kubb3d.equipment import get_set
        from kubb3d.match import SCHEMA, Match, MatchConfig

        cfg = MatchConfig(ruleset=ruleset, skills=(opponent, opponent), seed=seed)
        names = cfg.player_names()
        if person not in names:
            raise ValueError(f"the person must be one of the players {list(names)}, got {person!r}")
        self.person, self.opponent_skill = person, opponent
        self.other = names[1] if names[0] == person else names[0]
        self.script: Callable | None = None
        self.match = Match(cfg, replay=replay, human={person: self._ask})
        m = self.match
        self.pitch = m.pitch
        self.header = {"type": "header", "schema": SCHEMA, "config": cfg.to_dict(), "ruleset": m.ruleset.name, "equipment": m.ruleset.equipment, "pitch": {"length": self.pitch.length, "width": self.pitch.width}}
        eq = get_set(m.ruleset.equipment)
        self.scene = Scene(self.pitch, m.ruleset.equipment)
        for side in ("A", "B"):
            for kid, (x, y) in self.pitch.baseline_kubb_positions(side).items():
                self.scene.pieces[kid] = PieceView("kubb", np.array((x, y, eq.kubb.height / 2, 0, 0, 0, 1.0)), side=side)
        self.scene.pieces[KING_ID] = PieceView("king", np.array((0, 0, eq.king.height / 2, 0, 0, 0, 1.0)))
        self.controls = MatchControls(self.pitch, m.state.end_of[person])
        self._kind_mode = "baton"
        self._saved = {"baton": dict(BATON_DEFAULTS), "kubb": dict(KUBB_DEFAULTS)}
        self.records: list[dict] = []
        self.news: list[str] = []  # texts of the last action's events (not rulings), at most 3
        self.hold = hold
        self.request = None  # the HumanRequest waiting for the person's throw
        self.queue: list[Segment] = []
        self.segment: Segment | None = None
        self.t = 0.0
        self.error = ""
        self.message = ""
        self._chunk_start = 0
        self._chunk_taken = 0
        self._tmp = tempfile.TemporaryDirectory(prefix="kubb3d-match-")
        self._thread: threading.Thread | None = None
        self._requests: queue.Queue = queue.Queue()
        self._answers: queue.Queue = queue.Queue()
        self._done: queue.Queue = queue.Queue()
        self.facts: list[str] = state_lines(m.state, person)

    # ---------------------------------------------------------------- the human hook
    def _ask(self, req):
        """The match's ``human`` callable (runs in the thread that called :meth:`Match.step`)."""
        if self.script is not None:
            return self.script(req)
        w = req.world
        poses = {}
        for pid in w.piece_ids():
            pos, q = w.pose(pid)
            poses[pid] = np.array((*pos, *q), dtype=float)
        self._requests.put((req, poses))
        answer = self._answers.get()
        if answer is _ABORT:
            raise _Aborted()
        return answer

    def _worker(self) -> None:
        try:
            self.match.step()
            self._done.put(("ok", list(self.match.last_records)))
        except _Aborted:
            self._done.put(("aborted", None))
        except Exception as exc:  # shown on the HUD; the match cannot go on
            self._done.put(("error", exc))

    # ---------------------------------------------------------------- state
    @property
    def over(self) -> bool:
        return self.match.state.outcome() is not None

    @property
    def playing(self) -> bool:
        """A segment (or queued ones) is still being played back."""
        return bool(self.queue) or (self.segment is not None and self.t < self.segment.duration)

    @property
    def busy(self) -> bool:
        """True unless the person is asked for a throw (no aiming or charging meanwhile)."""
        return self.request is None

    @property
    def can_throw(self) -> bool:
        return self.request is not None

    @property
    def stepping(self) -> bool:
        """A match action is being performed in the worker thread."""
        return self._thread is not None

    def throw(self, params) -> None:
        """The person released: hand ``params`` (:class:`~kubb3d.throw.ThrowParams`) to the
        waiting match step.

        Raises:
            RuntimeError: the person is not asked for a throw now.
        """
        if self.request is None:
            raise RuntimeError("not your throw: wait for your turn")
        params.validate()
        self.request = None
        self.message = "simulating your throw …"
        self._answers.put(params)

    def advance_throws(self, n: int) -> list[dict]:
        """Perform ``n`` match actions at once in this thread (fewer if the match ends), the
        person's throws made by :func:`scripted_person`; the view jumps to rest after the last.
        Returns the action records."""
        if self._thread is not None:
            raise RuntimeError("a match action is running in the background")
        self.script = scripted_person(self.match, self.person)
        out = []
        try:
            for _ in range(n):
                if self.over:
                    break
                out.append(self.match.step())
                self._take(list(self.match.last_records))
        finally:
            self.script = None
        self.skip()
        self.update(0.0)
        return out

    # ---------------------------------------------------------------- records → segments
    def _take(self, recs: list[dict]) -> None:
        """Append a step's records and queue the playback segments they add."""
        from kubb3d.viewer.replay import load_replay

        for r in recs:
            if r.get("type") == "world":
                self._chunk_start, self._chunk_taken = len(self.records), 0
            self.records.append(r)
        path = Path(self._tmp.name) / "chunk.jsonl"
        with open(path, "w", encoding="utf-8") as fh:
            for r in (self.header, *self.records[self._chunk_start:]):
                fh.write(json.dumps(r, separators=(",", ":")) + "\n")
        try:
            tl, scene, _ = load_replay(path)
        except Exception as exc:  # a record the viewer cannot show: keep the match going
            self.error = f"cannot show the last action: {exc}"
            return
        for pid, p in scene.pieces.items():
            if pid not in self.scene.pieces:
                self.scene.pieces[pid] = PieceView(p.kind, p.pose.copy(), side=p.side)
            elif p.side is not None:
                self.scene.pieces[pid].side = p.side
        new = tl.segments[self._chunk_taken:]
        self._chunk_taken = len(tl.segments)
        self.queue.extend(new)
        self.facts = state_lines(self.match.state, self.person)
        texts = [e["text"] for r in recs if r.get("type") == "action" for e in r.get("events", ()) if e.get("kind") not in ("ruling",)]
        if texts:
            self.news = texts[-3:]
        if any(r.get("type") == "world" for r in recs):
            s = self.match.state
            side = s.end_of[self.person]
            self.controls.side = side
            self.controls.line_x = None

    def _show(self, seg: Segment, t: float) -> None:
        sc = self.scene
        sc.set_poses(seg.poses_at(t))
        sc.trace = seg.trace(t)
        sc.hidden = set(seg.info.get("hidden", ())) | (set(sc.pieces) - set(seg.start))
        sc.throwing_line = seg.info.get("throwing_line")
        sc.clear_status()
        if seg.at_rest(t):
            sc.set_status(seg.rulings)

    def _prepare(self, req, poses) -> None:
        """Show the request's world and set the controls up for it."""
        sc = self.scene
        for pid, pose in poses.items():
            if pid not in sc.pieces:
                kind = "king" if pid == KING_ID else ("baton" if pid.startswith("baton") else "kubb")
                sc.pieces[pid] = PieceView(kind, pose)
        sc.set_poses(poses)
        sc.hidden = set(sc.pieces) - set(poses)
        sc.trace = None
        sc.clear_status()
        c = self.controls
        mode = "kubb" if req.kind in ("inkast", "penalty") else "baton"
        if mode != self._kind_mode:
            self._saved[self._kind_mode] = {k: getattr(c, k) for k in BATON_DEFAULTS}
            for k, v in self._saved[mode].items():
                setattr(c, k, v)
            self._kind_mode = mode
        c.side = opponent(req.into) if mode == "kubb" else req.side
        c.line_x = req.line_x
        c.charging, c.power = False, 0.0
        sc.throwing_line = req.line_x
        if req.target is not None:  # the release point stays where the person put it
            c.aim_at(req.target)
        self.request = req
        half = opponent(req.side)
        self.message = "YOUR TURN: " + _KIND_TEXT[req.kind].format(piece=req.piece, half=half, into=req.into) + " (hold the left button or SPACE, release to throw)"

    # ---------------------------------------------------------------- per frame
    def update(self, dt: float) -> None:
        """Advance playback by ``dt`` s; collect the worker's request or finished step; start
        the next match action when nothing is left to play back."""
        self._poll()
        if self.segment is None and self.queue:
            self.segment, self.t = self.queue.pop(0), 0.0
            dt = 0.0
        while self.segment is not None:
            self.t = min(self.t + dt, self.segment.duration)
            if self.t >= self.segment.duration and self.queue:
                dt = 0.0
                self.segment, self.t = self.queue.pop(0), 0.0
                continue
            break
        if self.segment is not None and self.request is None:
            self._show(self.segment, self.t)
        if not self.playing and self._thread is None and not self.over and not self.hold and not self.error:
            self.message = f"{self._actor()} …"
            self._thread = threading.Thread(target=self._worker, name="kubb3d-match-step", daemon=True)
            self._thread.start()
        if self.over and not self.playing:
            out = self.match.state.outcome()
            self.message = f"match over: {'you win' if out.winner == self.person else ('draw' if out.winner is None else out.winner + ' wins')} ({out.reason})"

    def _actor(self) -> str:
        s = self.match.state
        side = s.turn_side
        try:
            a = s.legal_actions()[0]
            side = getattr(a, "side", None) or side
        except IndexError:
            pass
        who = s.player_at(side) if side else self.other
        return "your move" if who == self.person else f"{who} ({self.opponent_skill}) plays"

    def _poll(self) -> None:
        if self._thread is None:
            return
        try:
            req, poses = self._requests.get_nowait()
        except queue.Empty:
            pass
        else:
            self.facts = state_lines(self.match.state, self.person)  # the worker waits: safe
            self.segment, self.queue = None, []
            self._prepare(req, poses)
        try:
            status, value = self._done.get_nowait()
        except queue.Empty:
            return
        self._thread.join()
        self._thread = None
        if status == "ok":
            self.message = ""
            self._take(value)
        elif status == "error":
            self.error = f"match engine error: {value}"

    def wait_step(self, timeout: float = 60.0) -> None:
        """Block until the running match action needs the person or is over (for scripts and
        tests), then :meth:`update` by 0 s."""
        import time

        end = time.monotonic() + timeout
        while self._thread is not None and self._requests.empty() and self._done.empty() and time.monotonic() < end:
            time.sleep(0.005)
        self.update(0.0)

    def skip(self) -> None:
        """Jump to the end of everything queued for playback."""
        if self.queue:
            self.segment, self.queue = self.queue[-1], []
        if self.segment is not None:
            self.t = self.segment.duration

    def follow(self):
        """(pose (7,), velocity (3,) m/s) of the piece in flight, or None."""
        seg = self.segment
        if seg is None or seg.thrown is None or self.request is not None:
            return None
        return seg.poses_at(self.t)[seg.thrown], seg.velocity(self.t)

    def hud(self, ctl: Controller) -> Hud:
        rules = {"dm": "DM", "wikinger": "Wikinger-Schach"}.get(self.match.ruleset.name, self.match.ruleset.name)
        side = self.match.state.end_of[self.person] if self.request is None else self.controls.side
        h = Hud(title=f"kubb3d: {rules} match, you ({self.person}, end {side}) vs {self.other} ({self.opponent_skill}), camera {ctl.camera_mode}" + ("   SLOW MOTION" if ctl.slow_motion else "") + ("   PAUSED" if ctl.paused else ""))
        h.lines = list(self.facts) + [f"» {t}" for t in self.news]
        seg = self.segment
        if self.request is not None:
            h.lines += throw_lines(self.controls)
            h.power = self.controls.power
            h.power_label = power_label(self.controls)
        elif seg is not None:
            h.lines.append(seg.label)
            h.flags = list(seg.info.get("flags", []))
            if seg.at_rest(self.t) and seg.rulings:
                h.rulings = ruling_lines(seg.rulings)
                h.legend = True
        from kubb3d.viewer.hud import HELP_PLAY

        h.help = HELP_PLAY if ctl.show_help else []
        h.message = self.error or self.message
        return h

    def close(self) -> None:
        """Stop the worker (a waiting throw request is aborted) and close the match."""
        if self._thread is not None:
            self._answers.put(_ABORT)
            self._thread.join(timeout=120)
            self._thread = None
        self.match.close()
        self._tmp.cleanup()


def match_session(ruleset: str, opponent: str, equipment: str, seed: int, hold: bool = False) -> MatchSession:
    """The session for ``kubb3d play --opponent`` (``hold``: headless screenshot).

    Raises:
        MatchUnavailable: an equipment set the ruleset does not play with (``standard``, the
            default of ``--set``, stands for the ruleset's own set).
        ValueError: unknown skill.
    """
    from kubb3d.players import get_skill
    from kubb3d.rules import get_ruleset

    get_skill(opponent)
    want = get_ruleset(ruleset).equipment
    if equipment not in (want, "standard"):  # "standard" is the option's default: the ruleset's set
        raise MatchUnavailable(f"a {ruleset} match is played with the {want!r} set; --set {equipment} only works without --opponent")
    return MatchSession(ruleset, opponent, seed, hold=hold)

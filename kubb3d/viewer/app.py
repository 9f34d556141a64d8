"""The viewer application: a pyglet window (or a hidden headless one), the play and view
sessions, event handlers, and headless screenshots.

Sessions hold what changes over time and hand the renderer a :class:`Scene` and the overlay
a :class:`Hud`:

* :class:`PlaySession` — free throws from one side at the standard set-up: each release is
  simulated at once by :func:`kubb3d.throw.throw`, judged by :func:`kubb3d.judge.judge_throw`,
  and played back in real time (or slow motion) from the result's trajectory;
* :class:`ReplaySession` — a :class:`Timeline` of segments (a scenario file, a match replay).

Call :func:`load_pyglet` before anything else of this module touches pyglet: with
``headless=True`` it selects pyglet's EGL headless mode, which must happen before
``pyglet.window`` or ``pyglet.gl`` is imported.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np

from kubb3d.errors import NoDisplay as NoDisplay
from kubb3d.judge.rulebook import get_rulebook
from kubb3d.judge.rulings import Pose
from kubb3d.pitch import KING_ID, Pitch, baseline_ids, opponent
from kubb3d.rules.practice import PracticeRound
from kubb3d.viewer.camera import HUD_TOP_SHARE
from kubb3d.viewer.controls import Controller, FlickControls, ThrowControls, TIMELINE_HEIGHT
from kubb3d.i18n import ENGLISH, Translator
from kubb3d.judge.messages import concat, msg
from kubb3d.viewer.hud import HELP_FLICK, HELP_PLAY, HELP_VIEW, Hud, font_size, last_throw_lines, wrap_labels, layout_labels, legend_items, power_label, release_warnings, ruling_history, ruling_lines, throw_felled, throw_lines, translate_hud, violation_lines
from kubb3d.viewer.hud import mode_tags as _modes
from kubb3d.viewer.scene import PieceView, Scene, Segment, Timeline, segment_from_throw


def load_pyglet(headless: bool):
    """Import pyglet in the right mode and return the module.

    Raises:
        NoDisplay: a window was asked for but there is no display.
    """
    import pyglet

    if headless:
        pyglet.options["headless"] = True
    elif not pyglet.options.get("headless") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise NoDisplay("no display to open a window on (DISPLAY is not set); use --screenshot OUT.png to render headless")
    pyglet.options["shadow_window"] = False
    # pyglet checks glGetError after every call by default: a tenth of a frame's Python time
    pyglet.options["debug_gl"] = bool(os.environ.get("KUBB3D_GL_DEBUG"))
    import pyglet.window  # noqa: F401  (selects the platform now)

    return pyglet


# ================================================================== sessions
def _pose7(pos, q) -> np.ndarray:
    return np.array((*pos, *q), dtype=float)


def _pose(p7: np.ndarray) -> Pose:
    return Pose(tuple(float(v) for v in p7[:3]), tuple(float(v) for v in p7[3:]))


class PlaySession:
    """Free throws at the standard set-up (issue 5, part 2), or free flicks on a table-top
    board (a set with a board, Kubbuteo: :class:`~kubb3d.viewer.controls.FlickControls`,
    simulated by :func:`kubb3d.throw.flick`).

    Args:
        equipment: equipment set name.
        ruleset: ``dm``, ``wikinger`` or ``kubbuteo`` (throwing rules and the judge's rules).
        side: the thrower's side.
        pitch: the pitch (default: the ruleset's; on a board, the board with its baselines).
        ground: ground name (on a board always ``board``).
        batons: batons per round.
    """

    tr: Translator = ENGLISH
    """The language of the HUD (the app sets it from ``--lang``, docs/german.md)."""

    def __init__(self, equipment: str = "standard", ruleset: str = "dm", side: str = "A", pitch: Pitch | None = None, ground: str = "grass", batons: int = 6) -> None:
        from kubb3d.equipment import get_set
        from kubb3d.pitch import PITCHES

        eq = get_set(equipment)
        self.flick = eq.board is not None
        if self.flick:
            ground = "board"
            pitch = pitch or Pitch(eq.board.length, eq.board.width, eq.baseline_inset)
        self.equipment, self.ruleset, self.side, self.ground = equipment, ruleset, side, ground
        self.pitch = pitch or PITCHES.get(ruleset, Pitch())
        self.batons = batons
        self.controls = FlickControls(self.pitch, side) if self.flick else ThrowControls(self.pitch, side)
        self.world = None
        self.new_round()

    # ---------------------------------------------------------------- state
    def new_round(self) -> None:
        """All pieces back at the start, every baton in hand."""
        from kubb3d.physics.world import World

        if self.world is not None:
            self.world.close()
        self.world = World.standard(self.equipment, self.pitch, self.ground)
        self.scene = Scene.from_world(self.world)
        self.scene.throwing_line = self.controls.line
        round_start = {pid: _pose(p.pose) for pid, p in self.scene.pieces.items() if p.kind in ("kubb", "king")}
        self.round = PracticeRound(self.ruleset, self.side, round_start)
        self.thrown = 0
        self.history: list[tuple[str, tuple, list[str] | None]] = []  # (label, rulings, felled) per throw
        self.gone: frozenset[str] = frozenset()
        self.segment: Segment | None = None
        self.t = 0.0
        self.result = None
        self.judgement = None
        self.message = ""
        self.game_over = False

    @property
    def busy(self) -> bool:
        """A throw is being played back (before rest)."""
        return self.segment is not None and self.t < self.segment.flight

    @property
    def can_throw(self) -> bool:
        return self.thrown < self.batons and not self.game_over

    @property
    def felled(self) -> frozenset[str]:
        """Target-half kubbs that count as felled this round."""
        return self.round.felled

    def throw(self, params) -> Any:
        """Simulate and judge one throw; its playback starts at once.

        Returns:
            The :class:`kubb3d.throw.ThrowResult`.

        Raises:
            ValueError: invalid parameters; RuntimeError: no baton left.
        """
        from kubb3d.throw import flick
        from kubb3d.throw import throw as do_throw
        from kubb3d.viewer.replay import throw_facts

        if not self.can_throw:
            raise RuntimeError("no baton left in this round: start a new round (R)")
        self.scene.hidden |= self.gone  # what the last flick cleared off the board
        baton = f"baton{self.thrown + 1}"
        start = self.scene.poses()
        if self.flick:
            result = flick(self.world, baton, params, kind="baton")
        else:
            result = do_throw(self.world, params, baton=baton, ruleset=self.ruleset)
        self.thrown += 1
        judgement, raised = self._judge(result, baton)
        self.result, self.judgement = result, judgement
        label = f"side {self.side}: {baton} ({self.thrown}/{self.batons})"
        self.segment = segment_from_throw(result, start, label, judgement.rulings if judgement else (), raised)
        self.segment.info["felled"] = throw_felled(judgement)
        if judgement is not None:
            self.history.append((label, tuple(judgement.rulings), self.segment.info["felled"]))
        record = {"piece": baton, "legal": result.legal, "violations": [{"rule": v.rule} for v in result.violations], "release": {"velocity_mps": list(result.release.velocity)}}
        self.segment.info["throw"] = throw_facts(record, self.segment.times, self.segment.poses, self.segment.start)
        if baton not in self.scene.pieces:
            self.scene.pieces[baton] = PieceView("baton", self.segment.start[baton].copy())
        self.scene.clear_status()
        self.t = 0.0
        if self.round.over:
            self.game_over = True
            self.message = msg("the king fell: side {side} wins (R: new round)", side=self.round.winner)
        elif not self.can_throw:
            self.message = msg("no baton left: R for a new round")
        else:
            self.message = ""
        return result

    def _judge(self, result, baton: str):
        """Rulings after a throw and the poses of the pieces moved at once (raised; on a board
        also stood up again after the flick, ``KT rules``). On a board the baton and the
        knocked kubbs leave the world now and the scene when the playback ends."""
        from kubb3d.judge import judge_throw

        try:
            j = judge_throw(result.final, self.round.context(result.legal, tuple(result.violations), result.final.pieces))
        except ValueError as exc:  # the judge refused the context: show the throw anyway
            self.message = msg("no rulings: {why}", why=str(exc))
            return None, {}
        self.round.record(j)
        moves = {pid: self.round.round_start.get(pid) for pid in sorted(j.raise_now)}
        self.gone = frozenset()
        if self.flick:
            pieces = result.final.pieces
            own = {k: Pose(pieces[k].position, pieces[k].quat_xyzw) for k in baseline_ids(self.side) if k in pieces}
            clear = self.round.after_flick(baton, j, own)
            moves.update(clear.stand_again)
            self.gone = frozenset((*clear.remove, *clear.pick_up))
            for pid in sorted(self.gone):
                if self.world.has_piece(pid):
                    self.world.remove_piece(pid)
        raised = {}
        for pid, pose in moves.items():
            if pose is not None and self.world.has_piece(pid):
                self.world.set_pose(pid, pose.position, pose.quat_xyzw, wake=False)
                raised[pid] = _pose7(pose.position, pose.quat_xyzw)
        return j, raised

    def skip(self) -> None:
        """Jump to the end of the current playback."""
        if self.segment is not None:
            self.t = self.segment.duration

    def update(self, dt: float) -> None:
        """Advance the playback by ``dt`` s (already scaled for slow motion / pause)."""
        seg = self.segment
        if seg is None:
            self.scene.trace = None
            return
        self.t = min(self.t + dt, seg.duration)
        self.scene.set_poses(seg.poses_at(self.t))
        self.scene.trace = seg.trace(self.t)
        if seg.at_rest(self.t):
            self.scene.set_status(seg.rulings)
        else:
            self.scene.clear_status()
        if self.t >= seg.duration:
            self.scene.hidden |= self.gone

    def follow(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(pose, velocity) of the baton in flight for the follow camera, or None."""
        seg = self.segment
        if seg is None or seg.thrown is None or seg.at_rest(self.t):
            return None
        return seg.poses_at(self.t)[seg.thrown], seg.velocity(self.t)

    def hud(self, ctl: Controller) -> Hud:
        c = self.controls
        what = {"book": get_rulebook(self.ruleset).title, "side": self.side, "n": min(self.thrown + 1, self.batons), "total": self.batons, "camera": ctl.camera_mode}
        title = msg("kubb3d: free flicks ({book} rules), side {side}, baton {n}/{total}, camera {camera}", **what) if self.flick else msg("kubb3d: free throws ({book} rules), side {side}, baton {n}/{total}, camera {camera}", **what)
        h = Hud(title=concat(title, *_modes(ctl)))
        h.settings = throw_lines(c)
        if self.result is not None:
            felled = sorted(self.felled)
            h.lines.append(msg("felled this round: {felled}", felled=", ".join(felled) if felled else "-"))
        if c.charging or self.can_throw:  # the power bar wherever a throw can be charged
            h.power = c.power if (c.charging or not self.busy) else None
            h.power_mark = c.last_power
            h.power_label = power_label(c)
        seg = self.segment
        if self.result is not None:
            h.flags = violation_lines(self.result.violations)
        if seg is not None and seg.at_rest(self.t):
            h.rulings = ruling_lines(seg.rulings, tr=self.tr, felled_now=seg.info.get("felled"))
            h.legend = True
            h.last_throw = last_throw_lines(seg)
        if not self.busy:
            h.flags = [*h.flags, *self.warnings()]
        h.help = (HELP_FLICK if self.flick else HELP_PLAY) if ctl.show_help else []
        h.rulings_list = ruling_history(self.history, tr=self.tr) if ctl.show_rulings else []
        aim = msg("aim with the mouse, hold the left button or SPACE for power, release to flick (F1: help)") if self.flick else msg("aim with the mouse, hold the left button or SPACE for power, release to throw (F1: help)")
        h.message = self.message or ("" if self.result else aim)
        return h

    def warnings(self) -> list[str]:
        """What would make the throw being prepared illegal (:func:`release_warnings`)."""
        return release_warnings(self.controls, get_rulebook(self.ruleset).throw_rules)

    def close(self) -> None:
        if self.world is not None:
            self.world.close()
            self.world = None


def scripted_throws(session: PlaySession, n: int, rng: np.random.Generator) -> list:
    """Throw ``n`` batons at the target half's kubbs in id order (B1, B2 …, then the king),
    aimed by :func:`kubb3d.throw.aim` (flicks: :func:`kubb3d.throw.aim_flick`, to arrive at
    0.7 m/s) with small release errors drawn from ``rng`` (azimuth ±0.8° and speed ±3 %
    standard deviation). Used by ``--after N``."""
    from dataclasses import replace

    from kubb3d.pitch import baseline_ids
    from kubb3d.throw import aim, aim_flick

    results = []
    targets = [*baseline_ids(opponent(session.side)), KING_ID]
    for i in range(n):
        if not session.can_throw:
            session.new_round()
        standing = [t for t in targets if t not in session.felled and t != KING_ID]
        target = standing[0] if standing else targets[i % len(targets)]
        base = session.controls.params(speed=10.0)
        if session.flick:
            params = aim_flick(session.world, target, replace(base, azimuth_deg=0.0), arrive_speed=0.7)
        else:
            params = aim(session.world, target, replace(base, azimuth_deg=0.0)).params
        params = replace(params, azimuth_deg=params.azimuth_deg + float(rng.normal(0, 0.8)), speed=params.speed * float(1 + rng.normal(0, 0.03)))
        results.append(session.throw(params))
        session.skip()
        session.update(0.0)
    return results


class ReplaySession:
    """Plays a :class:`Timeline` (scenario file or match replay).

    Args:
        timeline: the segments.
        scene: the scene (pieces of every segment must exist in it).
        title: HUD title.
        info: extra HUD lines.
    """

    tr: Translator = ENGLISH
    """The language of the HUD (the app sets it from ``--lang``)."""

    def __init__(self, timeline: Timeline, scene: Scene, title: str, info: list[str] | None = None) -> None:
        self.timeline = timeline
        self.scene = scene
        self.title = title
        self.info = info or []
        self.update(0.0)

    busy = False
    can_throw = False
    focus: list[str] = []  # pieces the orbit camera frames at the start (view mode)

    def update(self, dt: float) -> None:
        tl = self.timeline
        tl.advance(dt)
        i, local = tl.locate()
        seg = tl.segments[i]
        self.scene.set_poses(seg.poses_at(local))
        self.scene.trace = seg.trace(local)
        self.scene.hidden = set(seg.info.get("hidden", ()))
        line = seg.info.get("throwing_line")
        self.scene.throwing_line = line
        if seg.at_rest(local):
            self.scene.clear_status()
            self.scene.set_status(seg.rulings)
        else:
            self.scene.clear_status()

    def follow(self):
        i, local = self.timeline.locate()
        seg = self.timeline.segments[i]
        if seg.thrown is None or seg.at_rest(local):
            return None
        return seg.poses_at(local)[seg.thrown], seg.velocity(local)

    def command(self, cmd: str) -> None:
        tl = self.timeline
        if cmd == "playpause":
            if not tl.playing and tl.t >= tl.duration:
                tl.seek(0.0)
            tl.playing = not tl.playing
        elif cmd == "next":
            tl.next_throw()
        elif cmd == "prev":
            tl.previous_throw()
        elif cmd == "faster":
            tl.faster(True)
        elif cmd == "slower":
            tl.faster(False)
        elif cmd == "home":
            tl.seek(0.0)
        elif cmd == "end" or cmd == "skip":
            tl.seek(tl.duration)
        elif cmd.startswith("seek:"):
            tl.seek(float(cmd[5:]) * tl.duration)
        self.update(0.0)

    def hud(self, ctl: Controller) -> Hud:
        tl = self.timeline
        i, local = tl.locate()
        seg = tl.segments[i]
        state = msg("playing") if tl.playing else msg("paused")
        slow = msg(", slow motion") if ctl.slow_motion else ""
        h = Hud(title=msg("{title}   [{state}, ×{speed:g}{slow}]", title=self.title, state=state, speed=tl.speed, slow=slow))
        where = msg("{label}   ({n}/{total})", label=self.tr(seg.label), n=i + 1, total=len(tl.segments))
        h.lines = [where, msg("t = {t:.2f} s of {duration:.2f} s", t=tl.t, duration=tl.duration), *self.info, *seg.info.get("lines", [])]
        h.flags = list(seg.info.get("flags", []))
        if seg.at_rest(local):
            h.last_throw = last_throw_lines(seg)
            if seg.rulings:
                h.rulings = ruling_lines(seg.rulings, tr=self.tr, felled_now=seg.info.get("felled"))
                h.legend = True
        if ctl.show_rulings:  # the segments played so far
            done = [sg for k, sg in enumerate(tl.segments) if sg.rulings and (k < i or (k == i and seg.at_rest(local)))]
            h.rulings_list = ruling_history([(self.tr(sg.label), sg.rulings, sg.info.get("felled")) for sg in done], tr=self.tr)
        d = tl.duration or 1.0
        h.timeline = tl.t / d
        h.marks = [float(s) / d for s in tl.starts]
        h.help = HELP_VIEW if ctl.show_help else []
        return h

    def close(self) -> None:
        pass


def scenario_session(path: str | Path, *, reveal: bool = True) -> ReplaySession:
    """A session showing a scenario file at rest with its rulings (and the judge's raised
    poses animated, if any); ``reveal=False`` (the quiz, before the answer) shows the position
    only: no rulings, tints or raising. On a pitch of grass the ground outside the lines is
    veiled and named (:func:`~kubb3d.viewer.scene.outside_labels`).

    Raises:
        kubb3d.scenario.ScenarioError: bad file.
    """
    from kubb3d import scenario as sc

    built = sc.build(path)
    try:
        judgement, _ = sc.judge_built(built)
        snap = built.snapshot
        scene = Scene.from_snapshot(snap, built.spec.equipment_set.name)
        start = scene.poses()
        initial = {pid: _pose7(p.position, p.quat_xyzw) for pid, p in built.initial.items()}
        raised = {r.piece: _pose7(r.raised_pose.position, r.raised_pose.quat_xyzw) for r in judgement.rulings if r.raised_pose is not None and r.piece in start}
        # settling from the file's poses to rest, as a short linear blend (the scenario
        # builder keeps no trajectory)
        moved = {pid: np.stack((initial[pid], start[pid])) for pid in initial if pid in start and not np.allclose(initial[pid], start[pid], atol=1e-4)}
        times = np.array((0.0, 0.4)) if moved else np.zeros(0)
        rulings = tuple(judgement.rulings) if reveal else ()
        seg = Segment(built.spec.title, {**start, **{k: v[0] for k, v in moved.items()}}, times, moved, start, raised if reveal else {}, rulings, None)
        mism = sc.compare(built.spec, judgement)
        info = [msg("scenario {name}: {ruleset} rules, event {event}", name=Path(path).name, ruleset=built.spec.ruleset, event=built.spec.event)]
        if reveal:
            info.append(msg("matches the expected rulings") if not mism else msg("differs from the file: {why}", why=mism[0]))
            if built.spec.explanation:
                info.append(built.spec.explanation)
        else:
            info.append(msg("your ruling? close the window (ESC) to answer"))
        tl = Timeline([seg], playing=True)
        session = ReplaySession(tl, scene, f"kubb3d view: {built.spec.title}", info)
        # what the scenario is about: the pieces it places or moves, and the ones not ruled standing
        ruled = {r.piece for r in judgement.rulings if getattr(getattr(r, "status", None), "value", getattr(r, "status", None)) != "standing"}
        session.focus = [pid for pid in start if pid in {p.id for p in built.spec.pieces} | set(moved) | set(raised) | ruled]
        if built.spec.equipment_set.board is None:
            from kubb3d.viewer.scene import outside_labels

            near = np.mean([start[p][:2] for p in session.focus], axis=0) if session.focus else (0.0, 0.0)
            scene.outside_shade = True
            scene.area_labels = outside_labels(scene.pitch, near, 0.3)
        return session
    finally:
        built.close()


# ================================================================== overlay
SIDE_SHARE = 0.30
"""Share of the window's width the HUD's corner panels take at most (their lines wrapped)."""
FADED_ALPHA = 40
"""Opacity (of 255) of a panel's background where it lies over a piece."""
LABEL_LIFT_M = 0.06
"""m: a piece's label is drawn this far above its top."""


def behind_board(point, view_proj: np.ndarray, length: float, width: float) -> bool:
    """True if the board's top (z = 0, ``length`` × ``width`` m centred on the origin) lies
    between the camera and ``point`` (x, y, z m): the line of sight through the point, from
    the near plane (perspective or orthographic), crosses the top inside the board."""
    m = np.asarray(view_proj, dtype=float)
    p = np.asarray(point, dtype=float)
    clip = m @ np.append(p, 1.0)
    if clip[3] <= 0:
        return False  # behind the camera: not drawn anyway
    near = np.linalg.solve(m, np.array((clip[0] / clip[3], clip[1] / clip[3], -1.0, 1.0)))
    q = near[:3] / near[3]
    if not q[2] > 0.0 > p[2]:
        return False
    hit = q + (p - q) * (q[2] / (q[2] - p[2]))
    return bool(abs(hit[0]) <= length / 2 and abs(hit[1]) <= width / 2)


def piece_marks(scene: Scene, view_proj: np.ndarray, width: int, height: int) -> tuple[list[tuple[float, float, float, float]], list[tuple[str, float, float]]]:
    """The screen rectangles (x0, y0, x1, y1) px, top-left origin, of the kubbs and the king in
    view (their bounding boxes' corners projected, with the label above) and their labels
    (id, x, y) px, then the scene's area labels in view (text, x, y): what the HUD must not
    cover, and what it writes."""
    from kubb3d.equipment import get_set
    from kubb3d.viewer.camera import project, view_scale
    from kubb3d.viewer.scene import quat_matrix

    eq = get_set(scene.equipment)
    lift = view_scale(scene.pitch)
    rects, labels = [], []
    for pid, pv in sorted(scene.pieces.items()):
        if pv.kind not in ("kubb", "king") or pid in scene.hidden:
            continue
        if eq.board is not None and behind_board(pv.pose[:3], view_proj, eq.board.length, eq.board.width):
            continue  # on the floor, seen through the table top: no label over the board
        half = np.array((eq.king if pv.kind == "king" else eq.kubb).half_extents)
        corners = np.array([(sx, sy, sz) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * half
        pts = corners @ quat_matrix(pv.pose[3:]).T + pv.pose[:3]
        top = np.array((pv.pose[0], pv.pose[1], pts[:, 2].max() + LABEL_LIFT_M * lift))
        px, vis = project(np.vstack([pts, top]), view_proj, width, height)
        if not vis.any():
            continue
        x0, y0 = px.min(axis=0)
        x1, y1 = px.max(axis=0)
        rects.append((float(x0), float(y0), float(x1), float(y1)))
        labels.append((pid, float(px[-1, 0]), float(px[-1, 1])))
    if scene.area_labels:  # names of areas (the outside of the pitch) where they are in view
        px, vis = project(np.array([p for _, p in scene.area_labels], dtype=float), view_proj, width, height)
        labels += [(text, float(x), float(y)) for (text, _), (x, y), v in zip(scene.area_labels, px, vis) if v]
    return rects, labels


class Overlay:
    """Draws a :class:`Hud` with pyglet text and shapes over the current framebuffer.

    The text size follows the width (:func:`~kubb3d.viewer.hud.font_size`); the panels stand in
    one fixed layout (:meth:`_build`). :attr:`panels` keeps the rectangles of the last layout, name → (x, y, w, h) px from the
    bottom left.
    """

    tr: Translator = ENGLISH
    """The language of the panel headings and the legend."""

    def __init__(self, pyglet, window) -> None:
        self.pyglet = pyglet
        self.window = window
        self._key = None
        self._batch = None
        self._modal = None
        self._label_batch = None
        self._label_pool: dict[str, tuple] = {}  # piece id → (shadow, text) labels
        self._items: list = []
        self.panels: dict[str, tuple[int, int, int, int]] = {}
        self.faded: set[str] = set()
        """The panels drawn see-through in the last frame: over a piece."""
        self.label_boxes: dict[str, tuple[float, float, float, float]] = {}
        """piece id → the box (x0, y0, x1, y1) px, top-left origin, of its label in the last frame."""

    def draw(self, hud: Hud, width: int, height: int) -> None:
        from dataclasses import replace

        from pyglet.math import Mat4

        # rebuilt when the text changes or the panels over a piece change (drawn see-through
        # there); the panels themselves never move; the labels are moved every frame
        key = (repr(replace(hud, labels=[], avoid=[])), width, height)
        if key != self._key or self._covered(hud.avoid, height) != self.faded:
            self._build(hud, width, height)
            self._key = key
        self._place_labels(hud.labels, width, height)
        self.window.projection = Mat4.orthogonal_projection(0, width, 0, height, -255, 255)
        self._batch.draw()
        self._label_batch.draw()
        self._modal.draw()  # the help, the summary and the rulings list over the piece labels

    def _covered(self, avoid, height: int) -> set[str]:
        """The panels of the current layout (the modal ones aside) over a piece's screen
        rectangle (x0, y0, x1, y1, top-left origin)."""
        out = set()
        for name, (x, y, w, h) in self.panels.items():
            if name in ("help", "summary", "rulings_list"):
                continue
            top = height - y - h
            if any(x < x1 and x0 < x + w and top < y1 and y0 < top + h for x0, y0, x1, y1 in avoid):
                out.add(name)
        return out

    def _place_labels(self, labels, width: int, height: int) -> None:
        """Piece labels: the id above each piece, light text on a dark shadow (a pool of
        pyglet labels, moved rather than rebuilt)."""
        pg = self.pyglet
        if self._label_batch is None:
            self._label_batch = pg.graphics.Batch()
        size = max(7, font_size(width) - 2)
        for text, _, _ in labels:
            if text not in self._label_pool:
                self._label_pool[text] = tuple(pg.text.Label(text, font_size=size, color=c, weight="bold", anchor_x="center", anchor_y="baseline", batch=self._label_batch, font_name="DejaVu Sans") for c in ((0, 0, 0, 220), (255, 255, 230, 255)))
        for pair in self._label_pool.values():
            if pair[1].font_size != size:
                for lab in pair:
                    lab.font_size = size
        # adjacent pieces' labels are stacked rather than drawn over each other
        widths = {text: self._label_pool[text][1].content_width for text, _, _ in labels}
        tall = max((self._label_pool[text][1].content_height for text, _, _ in labels), default=0)
        where = {text: (x, y) for text, x, y in layout_labels(labels, widths, tall, screen_width=width)}
        self.label_boxes = {text: (x - widths[text] / 2, y - tall, x + widths[text] / 2, y) for text, (x, y) in where.items()}
        for text, pair in self._label_pool.items():
            xy = where.get(text)
            for lab, dx, dy in zip(pair, (1, 0), (-1, 0)):
                if xy is None:
                    lab.visible = False
                    continue
                lab.position = (xy[0] + dx, height - xy[1] + dy, 0)
                lab.visible = True

    def _build(self, hud: Hud, width: int, height: int) -> None:
        """One fixed layout, whatever the pieces or the camera do (issue 34: panels that
        jumped between corners from throw to throw were hard to follow): the status panel
        top left and the rulings top right, each at most :data:`SIDE_SHARE` of the width wide
        (lines wrapped); the legend bottom left, the last-throw card bottom right, the throw
        being prepared, the power bar and the message in the bottom centre (above the bottom
        row when the window is too narrow for it); red banners top centre. The thrower and
        top cameras keep the pitch in the band between (:data:`~kubb3d.viewer.camera.HUD_TOP_SHARE`);
        a panel over a piece all the same (a turned orbit view) is drawn see-through."""
        pg = self.pyglet
        batch = pg.graphics.Batch()
        back, front = pg.graphics.Group(order=0), pg.graphics.Group(order=1)
        # the modal panels (summary, help) over everything else, their text included
        modal_back, modal_front = pg.graphics.Group(order=2), pg.graphics.Group(order=3)
        modal = pg.graphics.Batch()  # drawn after the piece labels too
        items: list = []
        panels: dict[str, tuple[int, int, int, int]] = {}
        fs = font_size(width)
        line_h = int(fs * 1.55)
        pad = max(4, fs * 2 // 3)
        side_w = int(width * SIDE_SHARE)
        pieces = [(x0, height - y1, x1, height - y0) for x0, y0, x1, y1 in hud.avoid]  # bottom-left origin
        faded: set[str] = set()

        def panel(x, y, w, h, color=(10, 15, 20, 150), name=None, group=back):
            if name and group is back and any(x < a1 and a0 < x + w and y < b1 and b0 < y + h for a0, b0, a1, b1 in pieces):
                color = (*color[:3], min(color[3], FADED_ALPHA))  # see-through over a piece
                faded.add(name)
            on = modal if group is modal_back else batch
            items.append(pg.shapes.Rectangle(x, y, w, h, color=color, batch=on, group=group))
            if name:
                panels[name] = (int(x), int(y), int(w), int(h))

        def label(text, x, y, size=fs, color=(255, 255, 255, 255), bold=False, anchor_x="left", group=front):
            lab = pg.text.Label(text, x=x, y=y, font_size=size, color=color, weight="bold" if bold else "normal", anchor_x=anchor_x, anchor_y="baseline", batch=modal if group is modal_front else batch, group=group, font_name="DejaVu Sans")
            items.append(lab)
            return lab

        def lines_of(lines, max_w, size=fs, first_bold=True, dim_indented=False, limit=None):
            """Labels of ``lines`` wrapped to ``max_w`` px: the whole lines that fit in
            ``limit`` labels (the first one at least, cut to the limit)."""
            labs: list = []
            for i, text in enumerate(lines):
                col = (200, 210, 220, 255) if dim_indented and text.startswith("   ") else (255, 255, 255, 255)
                more = wrap_labels(text, lambda t, b=(first_bold and i == 0), c=col: label(t, 0, 0, size=size, bold=b, color=c), max_w)
                if limit is not None and labs and len(labs) + len(more) > limit:
                    for extra in more:
                        extra.delete()
                    break
                labs += more
            if limit is not None:
                for extra in labs[limit:]:
                    extra.delete()
                labs = labs[:limit]
            return labs

        def place(labs, x0, top, name, color=(10, 15, 20, 150), right=False):
            """The labels in a panel whose top edge is at ``top`` (x0: its left edge, or its
            right edge with ``right``); returns the panel (x, y, w, h)."""
            if not labs:
                return None
            w = max(lab.content_width for lab in labs) + 2 * pad
            h = line_h * len(labs) + pad
            x = x0 - w if right else x0
            for i, lab in enumerate(labs):
                lab.x, lab.y = x + pad, top - (i + 1) * line_h + 4
            panel(x, top - h, w, h, color, name=name)
            return (x, top - h, w, h)

        bottom = TIMELINE_HEIGHT + pad if hud.timeline is not None else pad
        top = height - pad
        text_w = max(40, side_w - 2 * pad)

        # ---- the bottom row: legend (left), last-throw card (right), the throw in hand (centre)
        legend_box = card_box = None
        if hud.legend:
            items_ = legend_items()
            lw = int(fs * 12.5)
            lh = line_h * len(items_) + pad
            panel(pad, bottom, lw, lh, name="legend")
            legend_box = (pad, bottom, lw, lh)
            for i, (name, rgb) in enumerate(items_):
                yy = bottom + lh - (i + 1) * line_h
                items.append(pg.shapes.Rectangle(pad + pad, yy + 1, fs, fs, color=tuple(int(255 * math.sqrt(c)) for c in rgb) + (255,), batch=batch, group=front))
                label(self.tr(name), pad + pad + fs + 8, yy + 3)
        if hud.last_throw:
            labs = lines_of(hud.last_throw, text_w)
            card_h = line_h * len(labs) + pad
            card_box = place(labs, width - pad, bottom + card_h, "last_throw", right=True)
        row_top = max([bottom] + [b[1] + b[3] for b in (legend_box, card_box) if b is not None])
        left_edge = legend_box[0] + legend_box[2] + pad if legend_box else pad
        right_edge = card_box[0] - pad if card_box else width - pad
        bw, bh = min(360, width - 4 * pad), max(10, int(fs * 1.5))
        # between the corners if the power bar fits there (the text wrapped to that width)
        mid = 2 * min(width // 2 - left_edge, right_edge - width // 2)
        in_row = mid >= (bw + 8 if hud.power is not None else 160)
        text_mid = (mid if in_row else width - 2 * pad) - 2 * pad
        set_labs = lines_of(hud.settings, text_mid, first_bold=False) if hud.settings else []
        power_h = line_h + bh + 10 if hud.power is not None else 0
        y = bottom if in_row else row_top + pad
        centre_top = y
        if hud.power is not None:
            x0, y0 = width // 2 - bw // 2, y + line_h + 6
            panel(x0 - 4, y, bw + 8, power_h, name="power")
            fill = max(0.0, min(1.0, hud.power))
            r = int(255 * min(1.0, 2 * fill))
            g = int(255 * min(1.0, 2 * (1 - fill)))
            items.append(pg.shapes.Rectangle(x0, y0, int(bw * fill), bh, color=(r, g, 40, 255), batch=batch, group=front))
            if hud.power_mark is not None:  # the previous release's power
                mx = x0 + int(bw * max(0.0, min(1.0, hud.power_mark)))
                items.append(pg.shapes.Rectangle(mx - 1, y0 - 3, 3, bh + 6, color=(255, 255, 255, 255), batch=batch, group=front))
            label(hud.power_label, width // 2, y + 6, anchor_x="center")
            y += power_h
            centre_top = y
        for labs, name in ((set_labs, "settings"),):
            if not labs:
                continue
            w = max(lab.content_width for lab in labs) + 2 * pad
            h = line_h * len(labs) + pad
            for i, lab in enumerate(labs):
                lab.x, lab.y = width // 2 - w // 2 + pad, y + h - (i + 1) * line_h + 4
            panel(width // 2 - w // 2, y, w, h, name=name)
            y += h
            centre_top = y
        floor = max(row_top, centre_top if y > bottom else row_top) + pad

        # ---- the top corners: status (left), rulings (right), down to the bottom row at most
        # ... and within the top band the cameras keep free of the pitch (HUD_TOP_SHARE)
        room = max(1, (min(top - floor, int(height * HUD_TOP_SHARE)) - pad) // line_h)
        if hud.title or hud.lines:
            place(lines_of([hud.title, *hud.lines], text_w, limit=room), pad, top, "status")
        if hud.rulings:
            small = max(fs - 1, 7)
            place(lines_of([self.tr("rulings"), *hud.rulings], text_w, size=small, dim_indented=True, limit=room), width - pad, top, "rulings", right=True)
        # ---- the message and the red banners under it: top centre, between the corners
        mid_w = max(120, width - 2 * side_w - 4 * pad)
        fy = top
        if hud.message:
            labs = lines_of([hud.message], mid_w - 2 * pad, first_bold=False)
            for lab in labs:
                lab.color = (255, 235, 120, 255)
            w = max(lab.content_width for lab in labs) + 2 * pad
            box = place(labs, width // 2 - w // 2, fy, "message")
            if box is not None:
                fy = box[1] - 2
        for text in hud.flags:
            labs = lines_of([text], mid_w - 2 * pad)
            w = max(lab.content_width for lab in labs) + 2 * pad
            box = place(labs, width // 2 - w // 2, fy, "flags", color=(180, 20, 20, 225))
            if box is not None:
                fy = box[1] - 2

        # timeline: bottom strip
        if hud.timeline is not None:
            panel(0, 0, width, TIMELINE_HEIGHT, color=(10, 15, 20, 190))
            for m in hud.marks:
                items.append(pg.shapes.Rectangle(int(m * width), 4, 2, TIMELINE_HEIGHT - 8, color=(150, 160, 170, 255), batch=batch, group=front))
            items.append(pg.shapes.Rectangle(0, TIMELINE_HEIGHT // 2 - 3, int(hud.timeline * width), 6, color=(255, 200, 40, 255), batch=batch, group=front))
            items.append(pg.shapes.Rectangle(int(hud.timeline * width) - 3, 3, 6, TIMELINE_HEIGHT - 6, color=(255, 255, 255, 255), batch=batch, group=front))

        # modal panels, centred and opaque over everything else: the end-of-match summary and
        # the help; a line wider than the window is wrapped (continuation lines indented)
        for lines_, name in ((hud.summary, "summary"), (hud.rulings_list, "rulings_list"), (hud.help, "help")):  # noqa: B007
            if not lines_:
                continue
            labs_w = []
            room = max(1, (height - 2 * pad) // line_h - 1)  # lines that fit the window
            for i, s in enumerate(lines_):
                if len(labs_w) >= room:
                    break
                labs_w += wrap_labels(s, lambda t, b=(i == 0): label(t, 0, 0, bold=b, group=modal_front), width - 4 * pad)
            for extra in labs_w[room:]:
                extra.delete()
            labs_w = labs_w[:room]
            hw = max(lab.content_width for lab in labs_w) + 2 * pad
            hh = line_h * len(labs_w) + pad
            x0, top = width // 2 - hw // 2, height // 2 + hh // 2
            for i, lab in enumerate(labs_w):
                lab.x, lab.y = x0 + pad, top - (i + 1) * line_h + 4
            panel(x0, top - hh, hw, hh, color=(10, 15, 20, 255), name=name, group=modal_back)

        self._batch, self._modal, self._items, self.panels, self.faded = batch, modal, items, panels, faded


# ================================================================== the app
PYGLET_BUTTONS = {1: "left", 2: "middle", 4: "right"}


class App:
    """A viewer window with a session.

    Args:
        session: :class:`PlaySession` or :class:`ReplaySession` (or a match session).
        width, height: window / framebuffer size, px.
        headless: render off-screen only (no display needed).
        mode: ``play`` or ``view``.
        camera: initial camera mode.
    """

    def __init__(self, session, width: int = 1280, height: int = 720, *, headless: bool = False, mode: str = "play", camera: str = "thrower") -> None:
        self.tr: Translator = getattr(session, "tr", ENGLISH)  # the HUD's language (docs/german.md)
        pyglet = load_pyglet(headless)
        from kubb3d.viewer.render import Renderer

        self.pyglet = pyglet
        self.headless = headless
        self.session = session
        self.window = pyglet.window.Window(width, height, caption="kubb3d", visible=not headless, resizable=not headless)
        self.window.switch_to()
        self.renderer = Renderer(width, height, session.scene.equipment)
        self.overlay = Overlay(pyglet, self.window)
        self.overlay.tr = self.tr
        throw = getattr(session, "controls", None)
        self.controller = Controller(session.scene.pitch, mode=mode, width=width, height=height, camera_mode="thrower", throw=throw)
        self.controller.set_camera(camera)
        if camera == "orbit" and mode == "play":
            self.controller.orbit = self.controller.start_orbit()
        focus = [session.scene.pieces[p].pose[:3] for p in getattr(session, "focus", ()) if p in session.scene.pieces]
        if camera == "orbit" and mode == "view" and focus:
            # start on the pieces the scenario is about
            from kubb3d.viewer.camera import frame_points

            self.controller.orbit = frame_points(focus, width / height)
        self.pending_params = None
        self.error = ""
        self.note = ""  # a passing note (a screenshot saved)
        self.shots = 0
        self._marks: tuple[list, list] = ([], [])  # the last frame's piece rectangles and labels
        self._last = None
        if not headless:
            self.window.push_handlers(self)

    # ---------------------------------------------------------------- frame
    def frame(self, dt: float = 0.0, hud: bool = True) -> None:
        """Advance by ``dt`` s of wall time and draw one frame into the off-screen buffer
        (``hud=False``: the 3D view alone)."""
        ctl, s = self.controller, self.session
        if getattr(s, "controls", None) is not None and ctl.throw is not s.controls:
            ctl.throw = s.controls  # a rematch made new controls: no stale aim or stance
        ctl.confirm_quit = bool(getattr(s, "confirm_quit", False))
        ctl.throw.update()
        computer = bool(getattr(s, "computer_on_screen", False))
        s.update(dt * ctl.rate(computer))
        ctl.busy = s.busy
        ctl.can_throw = s.can_throw
        if self.pending_params is not None:
            params, self.pending_params = self.pending_params, None
            self._throw(params)
        scene = s.scene
        f = s.follow() if ctl.camera_mode == "follow" else None
        cam = ctl.camera(*(f if f is not None else (None, None)), dt=dt)
        self.camera = cam
        warnings: list[str] = []
        if ctl.mode == "play" and not s.busy:
            ctl.aim_through(cam.view_proj(self.renderer.width, self.renderer.height))
            scene.aim = ctl.throw.aim_line()
            scene.release_point = ctl.throw.release_point()
            warnings = s.warnings() if hasattr(s, "warnings") else []
        else:
            scene.aim = None
            scene.release_point = None
        scene.aim_warning = bool(warnings)
        self.renderer.render(scene, cam)
        if not hud:
            return
        h = translate_hud(s.hud(ctl), self.tr)
        if self.error:
            h.flags = [*h.flags, self.error]
        if ctl.quit_asked:
            h.message = self.tr(msg("leave the match? ESC again: quit    any other key: go on"))
        self._marks = piece_marks(scene, cam.view_proj(self.renderer.width, self.renderer.height), self.renderer.width, self.renderer.height)
        h.avoid, labels = self._marks
        if ctl.show_labels:
            h.labels = labels
        if self.note:
            h.message = self.note
        self.last_hud = h  # what this frame's overlay shows (tests read it)
        self.renderer.bind()
        self.overlay.draw(h, self.renderer.width, self.renderer.height)

    def _throw(self, params) -> None:
        try:
            self.session.throw(params)
            self.error = ""
        except (ValueError, RuntimeError) as exc:
            self.error = str(exc)

    def pixels(self) -> np.ndarray:
        """The last frame, (height, width, 3) uint8, top row first."""
        return self.renderer.read_pixels()

    def screenshot(self, path: str | Path) -> Path:
        """Save the last frame as PNG, by the output rule (:func:`kubb3d.files.write_output`:
        the folder must exist, a symbolic link is refused, a failed write leaves nothing).

        Raises:
            kubb3d.files.FileSafetyError: the path breaks the rule, or the disk is full."""
        from PIL import Image

        from kubb3d.files import write_output

        pixels = Image.fromarray(self.pixels())
        return write_output(path, lambda tmp: pixels.save(tmp, format="PNG", optimize=True), "--screenshot")

    # ---------------------------------------------------------------- pyglet events
    def _name(self, symbol: int) -> str:
        from pyglet.window import key

        name = key.symbol_string(symbol)
        return name[1:] if name.startswith("_") and len(name) > 1 else name

    def on_key_press(self, symbol: int, modifiers: int):
        from pyglet.window import key

        cmd = self.controller.key_press(self._name(symbol), shift=bool(modifiers & key.MOD_SHIFT))
        self._command(cmd)
        return True  # keep pyglet's default ESC handler out: "quit" does it

    def on_key_release(self, symbol: int, modifiers: int):
        self._command(self.controller.key_release(self._name(symbol)))

    def _y(self, y: float) -> float:
        return self.controller.height - y

    def on_mouse_motion(self, x, y, dx, dy):
        self.controller.mouse_motion(x, self._y(y))

    def on_mouse_press(self, x, y, button, modifiers):
        from pyglet.window import key

        self._command(self.controller.mouse_press(x, self._y(y), PYGLET_BUTTONS.get(button, "left"), shift=bool(modifiers & key.MOD_SHIFT)))

    def on_mouse_release(self, x, y, button, modifiers):
        self._command(self.controller.mouse_release(x, self._y(y), PYGLET_BUTTONS.get(button, "left")))

    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers):
        from pyglet.window import key

        names = {n for b, n in PYGLET_BUTTONS.items() if buttons & b}
        self.controller.mouse_drag(x, self._y(y), dx, -dy, names, shift=bool(modifiers & key.MOD_SHIFT))

    def on_mouse_scroll(self, x, y, scroll_x, scroll_y):
        self.controller.mouse_scroll(x, self._y(y), scroll_y)

    def on_resize(self, width, height):
        self.controller.resize(width, height)
        self.renderer.resize(width, height)

    def on_draw(self):
        # the frame left the off-screen buffer bound (HUD): clearing it now would wipe the
        # frame before the copy
        from pyglet import gl

        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
        self.window.clear()
        self.renderer.blit(*self.window.get_framebuffer_size())

    def _command(self, cmd: str | None) -> None:
        if cmd is None:
            return
        s = self.session
        if cmd == "throw":
            params = self.controller.throw.release()
            if params is not None:
                self.pending_params = params
        elif cmd in ("cancel", "ask-quit"):
            pass  # the controller dropped the charge / the HUD asks
        elif cmd == "quit":
            self.window.close()
            if not self.headless:
                self.pyglet.app.exit()
        elif cmd == "reset" and hasattr(s, "new_round"):
            s.new_round()
            self.error = ""
        elif cmd == "skip" and hasattr(s, "skip"):
            s.skip()
        elif cmd == "screenshot":
            self.shots += 1
            out = self.screenshot(Path.cwd() / f"kubb3d-{os.getpid()}-{self.shots:03d}.png")
            self.note = self.tr(msg("saved {name}", name=out.name))
        elif hasattr(s, "command"):
            s.command(cmd)

    # ---------------------------------------------------------------- main loop
    def run(self) -> None:
        """Open the window and run until it is closed."""
        pyglet = self.pyglet

        def tick(dt):
            self.frame(min(dt, 0.1))

        pyglet.clock.schedule_interval(tick, 1 / 60)
        try:
            pyglet.app.run()
        finally:  # another window may run after this one (quiz --view)
            pyglet.clock.unschedule(tick)

    def close(self) -> None:
        self.session.close()
        try:
            self.window.close()
        except Exception:
            pass


# ================================================================== entry points
def screenshot_play(out: str | Path, *, after: int = 0, seed: int = 0, width: int = 1280, height: int = 720, camera: str = "thrower", equipment: str = "standard", ruleset: str = "dm", tr: Translator = ENGLISH) -> Path:
    """Render the start position (or the state after ``after`` scripted throws, see
    :func:`scripted_throws`) headless and save it as PNG."""
    session = PlaySession(equipment, ruleset)
    session.tr = tr
    app = App(session, width, height, headless=True, mode="play", camera=camera)
    try:
        if after:
            scripted_throws(session, after, np.random.default_rng(seed))
        app.frame(0.0)
        return app.screenshot(out)
    finally:
        app.close()


def quiz_view(path: str | Path, *, screenshot: str | Path | None = None, width: int = 1280, height: int = 720) -> Path | None:
    """Show a quiz situation (a scenario file) in the 3D view before its question: the position
    only (:func:`scenario_session` with ``reveal=False``), the orbit camera on the pieces it is
    about, until the window is closed (ESC). With ``screenshot``: one frame rendered headless to
    that PNG instead (returns its path).

    Raises:
        kubb3d.scenario.ScenarioError: bad file. NoDisplay: no display for the window.
    """
    session = scenario_session(path, reveal=False)
    if screenshot is not None:
        return screenshot_session(session, screenshot, width=width, height=height)
    app = App(session, width, height, headless=False, mode="view", camera="orbit")
    try:
        app.run()
    finally:
        app.close()
    return None


def screenshot_session(session, out: str | Path, *, at: float | None = None, width: int = 1280, height: int = 720, camera: str = "orbit") -> Path:
    """Render a replay/scenario session headless at time ``at`` s (None: the end) and save it."""
    tl = session.timeline
    tl.playing = False
    tl.seek(tl.duration if at is None else at)
    session.update(0.0)
    app = App(session, width, height, headless=True, mode="view", camera=camera)
    try:
        app.frame(0.0)
        return app.screenshot(out)
    finally:
        app.close()

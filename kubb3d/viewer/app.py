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

import os
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from kubb3d.errors import NoDisplay as NoDisplay
from kubb3d.judge.rulebook import get_rulebook
from kubb3d.judge.rulings import Pose
from kubb3d.pitch import KING_ID, Pitch, baseline_ids, opponent
from kubb3d.rules.practice import PracticeRound
from kubb3d.viewer.camera import camera_name
from kubb3d.viewer.controls import Controller, FlickControls, ThrowControls
from kubb3d.i18n import ENGLISH, Translator
from kubb3d.judge.messages import concat, known, msg
from kubb3d.viewer.hud import HELP_FLICK, HELP_PLAY, HELP_VIEW, Hud, last_throw_lines, power_label, release_warnings, ruling_history, ruling_lines, throw_felled, throw_lines, translate_hud, violation_lines
from kubb3d.viewer.hud import mode_tags as _modes
from kubb3d.viewer.overlay import Overlay, behind_board as behind_board, piece_marks  # the HUD (behind_board: re-exported)
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
        what = {"book": get_rulebook(self.ruleset).title, "side": self.side, "n": min(self.thrown + 1, self.batons), "total": self.batons, "camera": camera_name(ctl.camera_mode)}
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
            h.rulings = ruling_lines(seg.rulings, None, tr=self.tr, felled_now=seg.info.get("felled"))
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

    before_rest: str = ""
    """The message line while the segment on screen is not yet at rest (a scenario as set up:
    how to see its ruling)."""
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
        if self.before_rest and not seg.at_rest(local):
            h.message = self.before_rest
        h.flags = list(seg.info.get("flags", []))
        if seg.at_rest(local):
            h.last_throw = last_throw_lines(seg)
            if seg.rulings:
                h.rulings = ruling_lines(seg.rulings, None, tr=self.tr, felled_now=seg.info.get("felled"))
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
    """A session showing a scenario file: paused on the pieces as the file sets them up (no
    tints, no rulings yet), SPACE then plays the settling to rest, the rulings (tints and the
    panel) and the judge's raised poses, if any; ``reveal=False`` (the quiz, before the
    answer) shows the position only, playing: no rulings, tints or raising. On a pitch of
    grass the ground outside the lines is veiled and named
    (:func:`~kubb3d.viewer.scene.outside_labels`).

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
        # (with the rulings, always: the pieces as set up come before the ruling, t < 0.4 s)
        times = np.array((0.0, 0.4)) if moved or reveal else np.zeros(0)
        rulings = tuple(judgement.rulings) if reveal else ()
        seg = Segment(known(built.spec.title), {**start, **{k: v[0] for k, v in moved.items()}}, times, moved, start, raised if reveal else {}, rulings, None)
        mism = sc.compare(built.spec, judgement)
        from kubb3d.quiz import EVENTS

        event = EVENTS.get(built.spec.event)
        book = get_rulebook(built.spec.ruleset).title
        info = [msg("scenario {name}: {ruleset} rules, event {event}", name=Path(path).name, ruleset=book, event=msg(event) if event else built.spec.event)]
        if reveal:
            info.append(msg("matches the expected rulings") if not mism else msg("differs from the file: {why}", why=mism[0]))
            if built.spec.explanation:
                info.append(known(built.spec.explanation))
        else:
            info.append(msg("your ruling? close the window (ESC) to answer"))
        tl = Timeline([seg], playing=not reveal)  # a ruling waits for SPACE
        session = ReplaySession(tl, scene, msg("kubb3d view: {title}", title=known(built.spec.title)), info)
        if reveal:
            session.before_rest = msg("as set up, before the ruling: SPACE plays the ruling (colours, rulings, raising)")
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


# ================================================================== the app
PYGLET_BUTTONS = {1: "left", 2: "middle", 4: "right"}
NOTE_SECONDS = 3.0
"""s: how long a passing note (F12's "saved kubb3d-….png") stays in the message line, by the
app's clock; then the session's own message shows again."""


class App:
    """A viewer window with a session.

    Args:
        session: :class:`PlaySession` or :class:`ReplaySession` (or a match session).
        width, height: window / framebuffer size, px.
        headless: render off-screen only (no display needed).
        mode: ``play`` or ``view``.
        camera: initial camera mode.
        clock: the time in seconds (default :func:`time.monotonic`; tests pass their own):
            a passing note goes after :data:`NOTE_SECONDS` by it.
    """

    def __init__(self, session, width: int = 1280, height: int = 720, *, headless: bool = False, mode: str = "play", camera: str = "thrower", clock: Callable[[], float] = time.monotonic) -> None:
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
        self.note = ""  # a passing note (a screenshot saved), until note_until by clock
        self.note_until = 0.0
        self.clock = clock
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
        view_proj = cam.view_proj(self.renderer.width, self.renderer.height)
        warnings: list[str] = []
        if ctl.mode == "play" and not s.busy:
            ctl.aim_through(view_proj)
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
        self._marks = piece_marks(scene, view_proj, self.renderer.width, self.renderer.height)
        h.avoid, labels = self._marks
        if ctl.show_labels:  # the king's and the areas' names in the HUD's language, kubb ids as they are
            h.labels = [(self.tr(text), x, y) for text, x, y in labels]
        if self.note and self.clock() >= self.note_until:
            self.note = ""
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
        # zlib's default level: PIL's optimize=True took 4.2 s for a 960x540 frame (0.4 s without)
        # for a file 8 % smaller
        return write_output(path, lambda tmp: pixels.save(tmp, format="PNG"), "--screenshot")

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
            self.note_until = self.clock() + NOTE_SECONDS
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

"""Input state machines in pure Python: the throwing controls and the camera controller.

Events come in as plain values so that tests can synthesise them: keys by name (pyglet's
``key.symbol_string`` without a leading underscore: ``"A"``, ``"1"``, ``"SPACE"``,
``"LEFT"``), mouse buttons as ``"left"``/``"middle"``/``"right"``, mouse positions in
pixels from the top-left corner of the window. The pyglet app (:mod:`kubb3d.viewer.app`)
only translates its events into these calls and acts on the returned commands.

Throwing controls (play mode):

==========================  ==============================================================
mouse move                  aim: the azimuth points at the grass under the pointer, in every
                            camera, through the picture last drawn (the aim drawn is thrown)
hold left button / SPACE    charge the power bar (by the clock, not by frames); release to
                            throw; right button or ESC while charging: cancel the charge
wheel, UP / DOWN            elevation ±1° (SHIFT: ±5°; the wheel zooms in the orbit view)
Q / E                       end-over-end spin −/+ 0.25 rev/s
Z / X                       tilt −/+ 5°
H                           helicopter spin on/off (WS basic rule 5 forbids it)
LEFT / RIGHT                release point along the throwing line (to the thrower's
                            left / right), kept inside the extended sidelines
W / S                       release point 5 cm forward / back (past the line: foot fault)
1 2 3 4, C                  thrower / orbit / top / follow camera; C cycles
right drag, SHIFT+drag      orbit / pan (switches to the orbit camera); +/- zoom
M                           slow motion (¼ speed) on/off for the person's throws
SHIFT+M                     slow motion for every throw (the computer's too) on/off
TAB                         the rulings list (every ruling of the match with its reason and
                            rule) on/off
P                           pause the animation
N                           skip the animation to rest
R                           new round (all pieces back)
F1                          help on/off
ESCAPE                      quit (in a match still on: asks first, ESC again quits)
==========================  ==============================================================

Replay controls (view mode): SPACE play/pause, RIGHT / LEFT next / previous throw,
UP / DOWN faster / slower, HOME / END start / end, click on the timeline to seek; cameras
and mouse as above.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from kubb3d.pitch import Pitch
from kubb3d.throw import ThrowParams
from kubb3d.viewer.camera import CAMERA_MODES, Camera, FollowCamera, OrbitCamera, fit_in_band, ground_point, thrower_camera, top_camera, view_scale

SPEED_MIN = 3.0
"""m/s: release speed at an empty power bar."""
SPEED_MAX = 15.0
"""m/s: release speed at a full power bar (a hard underhand throw; 8 m needs ≈ 9–10 m/s)."""
CHARGE_TIME = 1.6
"""s: holding this long fills the power bar."""
MAX_AZIMUTH_DEG = 75.0
ELEVATION_RANGE_DEG = (-10.0, 70.0)
SPIN_RANGE_RPS = (-5.0, 5.0)
TILT_RANGE_DEG = (-80.0, 80.0)
BEHIND_RANGE = (-0.5, 1.5)
HELICOPTER_RPS = 1.5
"""rev/s of horizontal rotation when the helicopter switch is on."""


def _clamp(v: float, lo_hi: tuple[float, float]) -> float:
    return min(lo_hi[1], max(lo_hi[0], v))


@dataclass
class ThrowControls:
    """The throw being prepared.

    Attributes:
        pitch: the pitch.
        side: the thrower's side (A throws towards +x).
        line_x: x of the throwing line, m (None: the side's baseline).
        lateral: y of the release point, m, within ± half the pitch width.
        behind_line: distance of the release point behind the line, m (negative: past it).
        height: release height, m.
        azimuth_deg, elevation_deg, spin_rps, tilt_deg: as in :class:`~kubb3d.throw.ThrowParams`.
        helicopter: horizontal rotation switched on (:data:`HELICOPTER_RPS`).
        power: the power bar, 0–1: the time since the charge began over
            :data:`CHARGE_TIME`, by ``clock`` (wall time, whatever the frame rate).
        charging: the button is held.
        last_power: the power of the previous release (marked on the bar), or None.
        clock: the time in seconds (default :func:`time.monotonic`; tests pass their own).
    """

    pitch: Pitch
    side: str = "A"
    line_x: float | None = None
    lateral: float = 0.0
    behind_line: float = 0.05
    height: float = 0.5
    azimuth_deg: float = 0.0
    elevation_deg: float = 20.0
    spin_rps: float = 1.5
    tilt_deg: float = 0.0
    helicopter: bool = False
    power: float = 0.0
    charging: bool = False
    last_power: float | None = None
    clock: Callable[[], float] = field(default=time.monotonic, repr=False, compare=False)
    charge_start: float = 0.0

    @property
    def line(self) -> float:
        """x of the throwing line, m."""
        return self.pitch.baseline_x(self.side) if self.line_x is None else self.line_x

    @property
    def forward(self) -> float:
        return self.pitch.forward(self.side)

    @property
    def speed(self) -> float:
        """Release speed for the current power, m/s."""
        return SPEED_MIN + self.power * (SPEED_MAX - SPEED_MIN)

    def release_point(self) -> np.ndarray:
        """Release point on the ground (3,), m."""
        return np.array((self.line - self.forward * self.behind_line, self.lateral, 0.0))

    def direction(self) -> np.ndarray:
        """Unit horizontal aim direction (3,)."""
        a = math.radians(self.azimuth_deg)
        f = self.forward
        return np.array((f * math.cos(a), f * math.sin(a), 0.0))

    def aim_at(self, point) -> None:
        """Point the azimuth at a ground point (x, y, …) m; ignored if it is behind the thrower."""
        r = self.release_point()
        dx, dy = float(point[0]) - r[0], float(point[1]) - r[1]
        f = self.forward
        if f * dx < 0.05:
            return
        self.azimuth_deg = _clamp(math.degrees(math.atan2(f * dy, f * dx)), (-MAX_AZIMUTH_DEG, MAX_AZIMUTH_DEG))

    def aim_line(self, length: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(start, end) of the aim line on the grass, m; default length: to the far baseline."""
        r = self.release_point()
        if length is None:
            far = self.pitch.baseline_x("B" if self.side == "A" else "A")
            length = abs(far - r[0]) / max(0.2, math.cos(math.radians(self.azimuth_deg)))
        return r, r + length * self.direction()

    def move_lateral(self, dy_left: float) -> None:
        """Move the release point by ``dy_left`` m to the thrower's left (clamped to the
        extended sidelines)."""
        h = self.pitch.half_width
        self.lateral = _clamp(self.lateral + self.forward * dy_left, (-h, h))

    def start_charge(self) -> None:
        self.charging = True
        self.power = 0.0
        self.charge_start = self.clock()

    def update(self) -> None:
        """Set the power bar from the time the button has been held (by :attr:`clock`: a
        stalled frame neither loses nor adds power)."""
        if self.charging:
            self.power = min(1.0, max(0.0, (self.clock() - self.charge_start) / CHARGE_TIME))

    def cancel_charge(self) -> bool:
        """Drop the charge without throwing; True if there was one."""
        was = self.charging
        self.charging, self.power = False, 0.0
        return was

    def params(self, speed: float | None = None) -> ThrowParams:
        """The throw as :class:`~kubb3d.throw.ThrowParams` (speed from the power bar by default)."""
        return ThrowParams(
            side=self.side,
            line_x=self.line_x,
            lateral=self.lateral,
            behind_line=self.behind_line,
            height=self.height,
            speed=self.speed if speed is None else speed,
            elevation_deg=self.elevation_deg,
            azimuth_deg=self.azimuth_deg,
            spin_rps=self.spin_rps,
            tilt_deg=self.tilt_deg,
            helicopter_rps=HELICOPTER_RPS if self.helicopter else 0.0,
        )

    def release(self) -> ThrowParams | None:
        """Let go: the throw's parameters, or None if nothing was charged."""
        if not self.charging:
            return None
        self.update()  # the power at the moment of the release, not at the last frame
        self.charging = False
        p = self.params()
        self.last_power, self.power = self.power, 0.0
        return p

    def adjust(self, action: str, big: bool = False) -> bool:
        """Apply a key action (``elev+``, ``spin-``, ``tilt+``, ``left``, ``fwd`` …); True if known."""
        if action in ("elev+", "elev-"):
            self.elevation_deg = _clamp(self.elevation_deg + (5 if big else 1) * (1 if action == "elev+" else -1), ELEVATION_RANGE_DEG)
        elif action in ("spin+", "spin-"):
            self.spin_rps = _clamp(round(self.spin_rps + 0.25 * (1 if action == "spin+" else -1), 2), SPIN_RANGE_RPS)
        elif action in ("tilt+", "tilt-"):
            self.tilt_deg = _clamp(self.tilt_deg + 5 * (1 if action == "tilt+" else -1), TILT_RANGE_DEG)
        elif action == "heli":
            self.helicopter = not self.helicopter
        elif action in ("left", "right"):
            self.move_lateral((0.5 if big else 0.1) * (1 if action == "left" else -1))
        elif action in ("fwd", "back"):
            self.behind_line = _clamp(round(self.behind_line + 0.05 * (-1 if action == "fwd" else 1), 3), BEHIND_RANGE)
        else:
            return False
        return True


FLICK_SPEED = (0.4, 3.6)
"""m/s: speed given to a flicked disk at an empty / full power bar. A disk slides
v²/(2 μ g) on the board (μ = 0.3, docs/physics.md "Table-top sets"): 2.5 m/s reaches the far
baseline 1.04 m away, 3.6 m/s runs off the far end (KT: an off-the-board flick is a misflick)."""
FLICK_SPIN_STEP = 0.5
"""rev/s: one Q / E press on a flick's spin about the vertical."""


@dataclass
class FlickControls(ThrowControls):
    """The flick being prepared on a table-top board (Kubbuteo, KT "Rules": batons and kubbs are
    flicked by finger): a disk lying flat behind the flicking line, struck horizontally. The
    mouse chooses the direction and the held button the speed, as for a throw; there is no
    elevation, tilt or helicopter.

    Attributes:
        speed_range: speed at an empty and a full power bar, m/s (:data:`FLICK_SPEED`).
        Others as :class:`ThrowControls` (``behind_line``: the disk's centre behind the line, m;
        ``spin_rps``: spin about the vertical, rev/s, positive counter-clockwise from above).
    """

    behind_line: float = 0.025
    spin_rps: float = 0.0
    elevation_deg: float = 0.0
    speed_range: tuple[float, float] = FLICK_SPEED

    flick = True

    def __post_init__(self) -> None:
        if self.lateral == 0.0:  # start in the gap right of the middle kubb (KT "Setup": five kubbs)
            self.lateral = self.pitch.width / 12

    @property
    def speed(self) -> float:
        """Speed for the current power, m/s."""
        lo, hi = self.speed_range
        return lo + self.power * (hi - lo)

    def params(self, speed: float | None = None):
        """The flick as :class:`~kubb3d.throw.FlickParams` (speed from the power bar by default)."""
        from kubb3d.throw import FlickParams

        return FlickParams(side=self.side, line_x=self.line_x, lateral=self.lateral,
                           behind_line=min(self.behind_line, self.room_behind()),
                           speed=self.speed if speed is None else speed, azimuth_deg=self.azimuth_deg, spin_rps=self.spin_rps)

    def release_point(self) -> np.ndarray:
        """Where the disk's centre starts (3,), m: set back as :meth:`params` has it."""
        return np.array((self.line - self.forward * min(self.behind_line, self.room_behind()), self.lateral, 0.0))

    def room_behind(self) -> float:
        """How far behind the line the disk's centre can start and still lie on the board, m: a
        line through a field kubb behind the baseline (``KT rules``, :mod:`kubb3d.rules.kubbuteo`)
        can be nearer the board's end than the disk is set back."""
        return max(0.0, self.forward * self.line + self.pitch.length / 2)

    def adjust(self, action: str, big: bool = False) -> bool:
        """Key actions of a flick: ``spin±`` (:data:`FLICK_SPIN_STEP`), ``left``/``right`` (1 cm,
        SHIFT 5 cm), ``fwd``/``back`` (5 mm); True if the action applies to a flick."""
        if action in ("spin+", "spin-"):
            self.spin_rps = _clamp(self.spin_rps + FLICK_SPIN_STEP * (1 if action == "spin+" else -1), SPIN_RANGE_RPS)
        elif action in ("left", "right"):
            self.move_lateral((0.05 if big else 0.01) * (1 if action == "left" else -1))
        elif action in ("fwd", "back"):
            room = min(0.08, self.room_behind())
            self.behind_line = _clamp(round(self.behind_line + 0.005 * (-1 if action == "fwd" else 1), 4), (0.0, room))
        else:
            return False
        return True


PLAY_KEYS = {
    "UP": "elev+", "DOWN": "elev-", "E": "spin+", "Q": "spin-", "X": "tilt+", "Z": "tilt-", "H": "heli",
    "LEFT": "left", "RIGHT": "right", "W": "fwd", "S": "back",
}
VIEW_KEYS = {"SPACE": "playpause", "RIGHT": "next", "LEFT": "prev", "UP": "faster", "DOWN": "slower", "HOME": "home", "END": "end"}
COMMON_KEYS = {
    "1": "cam:thrower", "2": "cam:orbit", "3": "cam:top", "4": "cam:follow", "C": "cam:cycle",
    "M": "slowmo", "P": "pause", "TAB": "rulings", "N": "skip", "R": "reset", "F1": "help", "ESCAPE": "quit",
    "0": "cam:reset", "NUM_0": "cam:reset", "L": "labels", "F12": "screenshot",
    "O": "choose:open", "G": "choose:give",  # the lag winner's choice in a match (DM §3)
    "PLUS": "zoom+", "EQUAL": "zoom+", "NUM_ADD": "zoom+", "MINUS": "zoom-", "NUM_SUBTRACT": "zoom-",
}

SLOW_MOTION = 0.25
"""Playback rate in slow motion."""
COMPUTER_RATE = 2.5
"""Playback rate of a simulated player's throws in a match (issue 34: its turns took
25–40 s to watch; docs/viewer.md, "Computer turns")."""
TIMELINE_HEIGHT = 36
"""px: height of the timeline strip at the bottom of the window in view mode."""


@dataclass
class Controller:
    """Cameras and input of one viewer window.

    Attributes:
        pitch: the pitch.
        mode: ``play`` (throwing) or ``view`` (replay).
        width, height: window size, px.
        camera_mode: one of :data:`~kubb3d.viewer.camera.CAMERA_MODES`.
        throw: the throwing controls (play mode).
        busy: a throw is being animated (no new throw can be charged).
        slow_motion: slow motion for the person's throws (M); ``slow_all``: for every throw,
            the computer's too (SHIFT+M).
        paused, show_help, show_labels, show_rulings: toggles (the rulings list: TAB).
        confirm_quit: ESC asks before quitting (a match still on); ``quit_asked``: it has asked.
        aim_view: ``P @ V`` (4, 4) of the picture last drawn: the pointer aims through it, so
            that the aim line drawn is the aim thrown (None: the current camera's).
    """

    pitch: Pitch
    mode: str = "play"
    width: int = 1280
    height: int = 720
    camera_mode: str = "thrower"
    throw: ThrowControls | None = None
    orbit: OrbitCamera = field(default_factory=OrbitCamera)
    follow: FollowCamera = field(default_factory=FollowCamera)
    busy: bool = False
    can_throw: bool = True
    slow_motion: bool = False
    slow_all: bool = False
    paused: bool = False
    show_help: bool = False
    show_labels: bool = True
    show_rulings: bool = False
    confirm_quit: bool = False
    quit_asked: bool = False
    mouse: tuple[float, float] | None = None
    aim_view: np.ndarray | None = None
    _drag_button: str | None = None

    def __post_init__(self) -> None:
        if self.throw is None:
            self.throw = ThrowControls(self.pitch)
        if self.camera_mode not in CAMERA_MODES:
            raise ValueError(f"camera mode must be one of {CAMERA_MODES}, got {self.camera_mode!r}")
        self.follow.scale = view_scale(self.pitch)

    # ------------------------------------------------------------ cameras
    @property
    def time_scale(self) -> float:
        """Animation rate of the person's throws: 0 paused, :data:`SLOW_MOTION` in slow
        motion (M or SHIFT+M), else 1."""
        return 0.0 if self.paused else (SLOW_MOTION if (self.slow_motion or self.slow_all) else 1.0)

    def rate(self, computer: bool) -> float:
        """Animation rate of a throw on screen (``computer``: a simulated player's): the
        computer's throws play at :data:`COMPUTER_RATE`, in slow motion only with SHIFT+M."""
        if self.paused:
            return 0.0
        if computer:
            return SLOW_MOTION if self.slow_all else COMPUTER_RATE
        return self.time_scale

    def camera(self, follow_pose=None, follow_velocity=None, dt: float = 0.0) -> Camera:
        """The current camera; the follow camera needs the followed piece's pose (7,) and
        velocity (3,) (without them it shows the thrower's view)."""
        t = self.throw
        if self.camera_mode == "orbit":
            return self.orbit.camera()
        if self.camera_mode == "top":
            return top_camera(self.pitch, self.width / self.height)
        if self.camera_mode == "follow" and follow_pose is not None:
            v = follow_velocity if follow_velocity is not None else t.direction()
            return self.follow.update(np.asarray(follow_pose)[:3], v, dt)
        return thrower_camera(self.pitch, t.side, t.line, t.lateral)

    def set_camera(self, mode: str) -> None:
        """Switch camera (``cycle``: the next one; ``reset``: the current one back to its start
        view). The orbit camera starts from the current view, or from its start view when that
        looks down steeper than 60° (the top camera)."""
        if mode == "reset":
            self.orbit = self.start_orbit()
            self.follow.eye = None
            return
        if mode == "cycle":
            mode = CAMERA_MODES[(CAMERA_MODES.index(self.camera_mode) + 1) % len(CAMERA_MODES)]
        if mode == "orbit" and self.camera_mode != "orbit":
            self._orbit_from(self.camera())
            if self.orbit.elevation > math.radians(60.0):
                self.orbit = self.start_orbit()
        if mode == "follow":
            self.follow.eye = None
        self.camera_mode = mode

    def start_orbit(self) -> OrbitCamera:
        """The orbit camera's start view: in play mode the target half seen from behind the
        thrower's left shoulder, 30° down, aimed between the king and the far baseline and far
        enough back that both stand between the HUD's panels (:func:`fit_in_band`: the king
        stood under the throw settings of the README's after-throw picture); in view mode the
        whole pitch from its side."""
        f = self.pitch.forward(self.throw.side)
        if self.mode == "play":
            s, far = view_scale(self.pitch), self.pitch.baseline_x("B" if self.throw.side == "A" else "A")
            orbit = OrbitCamera(target=np.array((far / 2, 0.0, 0.0)), azimuth=math.atan2(-0.45, -f), elevation=math.radians(30.0), distance=5.2 * s)
            hw = self.pitch.half_width
            king = [(0.0, 0.0, 0.0), (0.0, 0.0, 0.45 * s)]  # its foot, and its top with the label over it
            return fit_in_band(orbit, [*king, (far, -hw, 0.0), (far, hw, 0.0)], self.width, self.height)
        return OrbitCamera(target=np.zeros(3), azimuth=math.atan2(-1.0, -0.35), elevation=math.radians(35.0), distance=1.15 * self.pitch.length)

    def _orbit_from(self, cam: Camera) -> None:
        d = cam.eye - cam.target
        dist = float(np.linalg.norm(d))
        self.orbit.target = cam.target.copy()
        self.orbit.distance = min(OrbitCamera.MAX_DISTANCE, max(OrbitCamera.MIN_DISTANCE, dist))
        self.orbit.azimuth = math.atan2(d[1], d[0])
        self.orbit.elevation = min(OrbitCamera.MAX_ELEVATION, max(OrbitCamera.MIN_ELEVATION, math.asin(d[2] / max(dist, 1e-9))))

    def resize(self, width: int, height: int) -> None:
        self.width, self.height = max(1, int(width)), max(1, int(height))

    # ------------------------------------------------------------ keys
    def key_press(self, name: str, shift: bool = False) -> str | None:
        """Handle a key press. Returns a command for the app or None:
        ``charge`` (power bar started), ``quit``, ``reset``, ``skip``, ``playpause``, ``next``,
        ``prev``, ``faster``, ``slower``, ``home``, ``end``."""
        name = name.lstrip("_") if name not in ("_",) else name
        if name == "ESCAPE":
            return self._escape()
        self.quit_asked = False  # any other key: stay
        if self.mode == "play" and name == "SPACE":
            return self._start_charge()
        if self.mode == "play" and name in PLAY_KEYS:
            self.throw.adjust(PLAY_KEYS[name], big=shift)
            return None
        if self.mode == "view" and name in VIEW_KEYS:
            return VIEW_KEYS[name]
        action = COMMON_KEYS.get(name)
        if action is None:
            return None
        if action.startswith("cam:"):
            self.set_camera(action[4:])
        elif action == "slowmo" and shift:
            self.slow_all = not self.slow_all
            self.slow_motion = self.slow_all
        elif action == "slowmo":
            self.slow_motion = not self.slow_motion
            self.slow_all = False
        elif action == "rulings":
            self.show_rulings = not self.show_rulings
        elif action == "pause":
            self.paused = not self.paused
        elif action == "help":
            self.show_help = not self.show_help
        elif action == "labels":
            self.show_labels = not self.show_labels
        elif action in ("zoom+", "zoom-"):
            if self.camera_mode != "orbit":
                self.set_camera("orbit")
            self.orbit.zoom(0.85 if action == "zoom+" else 1 / 0.85)
        else:
            return action
        return None

    def key_release(self, name: str) -> str | None:
        """Handle a key release; returns ``throw`` when SPACE ends a charge."""
        if self.mode == "play" and name == "SPACE" and self.throw.charging:
            return "throw"
        return None

    def _escape(self) -> str:
        """ESC: cancel a charge (``cancel``); else quit (``quit``), in a match still on only
        when asked before (the first ESC returns ``ask-quit``)."""
        if self.mode == "play" and self.throw.cancel_charge():
            self.quit_asked = False
            return "cancel"
        if self.confirm_quit and not self.quit_asked:
            self.quit_asked = True
            return "ask-quit"
        self.quit_asked = False
        return "quit"

    def _start_charge(self) -> str | None:
        if self.busy or not self.can_throw or self.throw.charging:
            return None
        self.throw.start_charge()
        return "charge"

    # ------------------------------------------------------------ mouse
    def _aim_from_mouse(self, x: float, y: float) -> None:
        if self.mode != "play" or self.busy:
            return
        vp = self.aim_view if self.aim_view is not None else self.camera().view_proj(self.width, self.height)
        p = ground_point(x, y, vp, self.width, self.height)
        if p is not None:
            self.throw.aim_at(p)

    def aim_through(self, view_proj: np.ndarray) -> None:
        """The picture now drawn is seen through ``view_proj`` (4, 4): the pointer aims through
        it from now on, and the aim follows the pointer at once (a camera change, a turned
        orbit view, the next throw's stance), so that the aim line drawn is the aim thrown."""
        self.aim_view = np.asarray(view_proj, dtype=float)
        if self.mouse is not None:
            self._aim_from_mouse(*self.mouse)

    def mouse_motion(self, x: float, y: float) -> None:
        """Pointer moved to (x, y) px from the top-left: aims in play mode."""
        self.mouse = (x, y)
        self._aim_from_mouse(x, y)

    def mouse_press(self, x: float, y: float, button: str, shift: bool = False) -> str | None:
        """Returns ``charge`` (left button in play mode), ``cancel`` (right button while
        charging: the charge is dropped) or ``seek:<t fraction>`` (click on the timeline in
        view mode) or None."""
        self.mouse = (x, y)
        self.quit_asked = False
        if button == "right" and self.mode == "play" and self.throw.cancel_charge():
            return "cancel"
        if self.mode == "view" and button == "left" and y >= self.height - TIMELINE_HEIGHT:
            return f"seek:{min(1.0, max(0.0, x / self.width))}"
        if button == "left" and not shift and self.mode == "play":
            self._aim_from_mouse(x, y)
            return self._start_charge()
        self._drag_button = "pan" if (button == "middle" or shift) else ("orbit" if button in ("right", "left") else None)
        return None

    def mouse_release(self, x: float, y: float, button: str) -> str | None:
        """Returns ``throw`` when the left button ends a charge."""
        self._drag_button = None
        if button == "left" and self.mode == "play" and self.throw.charging:
            return "throw"
        return None

    def mouse_drag(self, x: float, y: float, dx: float, dy: float, buttons: set[str], shift: bool = False) -> None:
        """Pointer moved by (dx, dy) px (y down) with buttons held: orbit (right) or pan
        (middle, SHIFT+any); with the left button in play mode it keeps aiming."""
        self.mouse = (x, y)
        if "left" in buttons and self.mode == "play" and not shift:
            self._aim_from_mouse(x, y)
            return
        if not buttons:
            return
        if self.camera_mode != "orbit":
            self.set_camera("orbit")
        if "middle" in buttons or shift:
            s = self.orbit.distance / self.height * 1.2
            self.orbit.pan(-dx * s, dy * s)
        else:
            self.orbit.orbit(-dx * 0.006, dy * 0.006)

    def mouse_scroll(self, x: float, y: float, scroll_y: float, shift: bool = False) -> None:
        """Wheel: zoom in the orbit view, elevation otherwise (play mode)."""
        if self.camera_mode == "orbit" or self.mode != "play":
            if self.camera_mode != "orbit":
                self.set_camera("orbit")
            self.orbit.zoom(0.9 ** scroll_y)
            return
        steps = int(round(scroll_y))
        for _ in range(abs(steps)):
            self.throw.adjust("elev+" if steps > 0 else "elev-", big=shift)

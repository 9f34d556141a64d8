"""Camera math in pure numpy: view/projection matrices, world → pixel projection,
and the viewer's cameras (thrower, orbit, top, follow).

Conventions: the pitch frame of the README's "The model" (metres, z up). Matrices are (4, 4) float64
arrays acting on column vectors (``clip = P @ V @ [x, y, z, 1]``), OpenGL clip-space
conventions (right-handed eye space looking down −z, depth in [−1, 1]). Pixels are
counted from the top-left corner of the image, x to the right, y down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from kubb3d.judge.messages import N_, msg
from kubb3d.pitch import Pitch


def look_at(eye, target, up=(0.0, 0.0, 1.0)) -> np.ndarray:
    """View matrix (4, 4) of a camera at ``eye`` looking at ``target`` (m).

    Raises:
        ValueError: eye == target, or ``up`` parallel to the viewing direction.
    """
    eye = np.asarray(eye, dtype=float)
    f = np.asarray(target, dtype=float) - eye
    n = np.linalg.norm(f)
    if n < 1e-12:
        raise ValueError("camera eye and target coincide")
    f /= n
    s = np.cross(f, np.asarray(up, dtype=float))
    ns = np.linalg.norm(s)
    if ns < 1e-9:
        raise ValueError("camera up vector is parallel to the viewing direction")
    s /= ns
    u = np.cross(s, f)
    m = np.eye(4)
    m[0, :3], m[1, :3], m[2, :3] = s, u, -f
    m[:3, 3] = -m[:3, :3] @ eye
    return m


def perspective(fov_y: float, aspect: float, near: float, far: float) -> np.ndarray:
    """Perspective projection (4, 4): vertical field of view ``fov_y`` (rad), ``aspect`` =
    width / height, clipping distances ``near`` < ``far`` (m)."""
    f = 1.0 / math.tan(fov_y / 2)
    m = np.zeros((4, 4))
    m[0, 0] = f / aspect
    m[1, 1] = f
    m[2, 2] = (far + near) / (near - far)
    m[2, 3] = 2 * far * near / (near - far)
    m[3, 2] = -1.0
    return m


def orthographic(left: float, right: float, bottom: float, top: float, near: float, far: float) -> np.ndarray:
    """Orthographic projection (4, 4) of the eye-space box given in metres."""
    m = np.eye(4)
    m[0, 0] = 2 / (right - left)
    m[1, 1] = 2 / (top - bottom)
    m[2, 2] = -2 / (far - near)
    m[0, 3] = -(right + left) / (right - left)
    m[1, 3] = -(top + bottom) / (top - bottom)
    m[2, 3] = -(far + near) / (far - near)
    return m


def project(points, view_proj: np.ndarray, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """World points → pixel coordinates.

    Args:
        points: (N, 3) or (3,) world points, m.
        view_proj: ``P @ V`` (4, 4).
        width, height: image size, px.

    Returns:
        (pixels (N, 2) as float (x right, y down from the top-left corner),
        visible (N,) bool: in front of the camera and inside the image).
    """
    p = np.atleast_2d(np.asarray(points, dtype=float))
    h = np.c_[p, np.ones(len(p))] @ view_proj.T
    w = h[:, 3]
    front = w > 1e-9
    ndc = h[:, :3] / np.where(front, w, 1.0)[:, None]
    px = np.c_[(ndc[:, 0] + 1) / 2 * width, (1 - ndc[:, 1]) / 2 * height]
    visible = front & (np.abs(ndc[:, 0]) <= 1) & (np.abs(ndc[:, 1]) <= 1) & (np.abs(ndc[:, 2]) <= 1)
    return px, visible


def ground_point(px: float, py: float, view_proj: np.ndarray, width: int, height: int, z: float = 0.0) -> np.ndarray | None:
    """The point on the plane z = ``z`` (m) seen at pixel (px, py) (top-left origin), shape (3,),
    or None if that ray does not hit the plane in front of the camera."""
    inv = np.linalg.inv(view_proj)
    nx, ny = 2 * px / width - 1, 1 - 2 * py / height
    a = inv @ np.array((nx, ny, -1.0, 1.0))
    b = inv @ np.array((nx, ny, 1.0, 1.0))
    a, b = a[:3] / a[3], b[:3] / b[3]
    d = b - a
    if abs(d[2]) < 1e-12:
        return None
    t = (z - a[2]) / d[2]
    if t <= 0:
        return None
    return a + t * d


@dataclass
class Camera:
    """A perspective camera.

    Attributes:
        eye: position, m, shape (3,).
        target: the point looked at, m, shape (3,).
        up: approximate up direction (unit not required).
        fov_y: vertical field of view, rad.
        near, far: clipping distances, m.
    """

    eye: np.ndarray
    target: np.ndarray
    up: np.ndarray = field(default_factory=lambda: np.array((0.0, 0.0, 1.0)))
    fov_y: float = math.radians(45.0)
    near: float = 0.1
    far: float = 120.0

    def view(self) -> np.ndarray:
        """View matrix (4, 4)."""
        return look_at(self.eye, self.target, self.up)

    def projection(self, aspect: float) -> np.ndarray:
        """Projection matrix (4, 4) for ``aspect`` = width / height."""
        return perspective(self.fov_y, aspect, self.near, self.far)

    def view_proj(self, width: int, height: int) -> np.ndarray:
        """``P @ V`` (4, 4) for an image of width × height px."""
        return self.projection(width / height) @ self.view()


# ------------------------------------------------------------------ camera modes
FIELD_LENGTH = 8.0
"""m: the DM pitch's length (DM §2), the size the cameras' distances are set for."""


def view_scale(pitch: Pitch) -> float:
    """How much smaller than a field pitch the views are: 1 on a pitch of 4 m or longer (DM,
    WS), else length / :data:`FIELD_LENGTH` (a table-top board: the Kubbuteo board, 4 ft long
    (KT "Equipment", docs/viewer.md), is seen like a pitch shrunk by 0.152). Every camera
    distance and every painted width of the view is multiplied by it."""
    return 1.0 if pitch.length >= 4.0 else pitch.length / FIELD_LENGTH


CAMERA_MODES = ("thrower", "orbit", "top", "follow")
"""The viewer's cameras, in the order of the keys 1–4."""

CAMERA_NAMES = {"thrower": N_("thrower"), "orbit": N_("orbit"), "top": N_("top"), "follow": N_("follow")}
"""The cameras' names as the HUD's title and help say them (translatable: German ``Werfer``,
``Orbit``, ``von oben``, ``folgen``, as the help line's keys 1–4)."""


def camera_name(mode: str) -> str:
    """A camera mode (:data:`CAMERA_MODES`) as a word of the language (a message)."""
    return msg(CAMERA_NAMES[mode]) if mode in CAMERA_NAMES else mode

THROWER_EYE_HEIGHT = 1.9
"""m: height of the thrower's-view camera (a little above a standing adult's eyes, 1.5–1.7 m,
like a camera over the thrower's shoulder)."""
THROWER_EYE_BACK = 2.4
"""m: the camera is this far behind the release point, so that the throwing line, the aim
line's start and the far baseline are all in the picture."""


def thrower_camera(pitch: Pitch, side: str = "A", line_x: float | None = None, lateral: float = 0.0, azimuth: float = 0.0) -> Camera:
    """The thrower's view: over the shoulder of a thrower standing behind the throwing line of
    ``side`` at ``lateral`` (m), looking along ``azimuth`` (rad, positive to the thrower's
    left); pitched so that the release point and the far baseline are both in view."""
    s = view_scale(pitch)
    height, back = THROWER_EYE_HEIGHT * s, THROWER_EYE_BACK * s
    fwd = pitch.forward(side)
    lx = pitch.baseline_x(side) if line_x is None else line_x
    d = np.array((fwd * math.cos(azimuth), fwd * math.sin(azimuth), 0.0))
    base = np.array((lx, lateral, 0.0))
    eye = base - back * d + np.array((0.0, 0.0, height))
    far_x = pitch.baseline_x("B" if side == "A" else "A")
    far = abs(far_x - lx) + back + 0.3 * s
    near_angle = math.atan2(height, back - 0.4 * s)
    far_angle = math.atan2(height - 0.1 * s, far)
    down, fov = _fit_band(near_angle, far_angle, THROWER_TOP_SHARE)
    target = eye + np.array((d[0] * math.cos(down), d[1] * math.cos(down), -math.sin(down)))
    return Camera(eye, target, fov_y=fov, near=0.1 * s, far=120.0)


def _fit_band(near_angle: float, far_angle: float, top_share: float) -> tuple[float, float]:
    """(angle down, vertical field of view), rad, of a camera that sees a near point
    ``near_angle`` and a far point ``far_angle`` below the horizontal at the lower edge of
    the picture's band above the HUD's bottom row (:data:`HUD_BOTTOM_SHARE`) and
    ``top_share`` of the height below its top: ``tan(near − down) / tan(fov/2) = 1 − 2·bottom``
    and ``tan(down − far) / tan(fov/2) = 1 − 2·top_share``, solved by bisection on ``down``."""
    lo_ndc, hi_ndc = 1 - 2 * HUD_BOTTOM_SHARE, 1 - 2 * top_share
    a, b = far_angle, near_angle
    for _ in range(60):
        down = 0.5 * (a + b)
        if math.tan(near_angle - down) * hi_ndc > math.tan(down - far_angle) * lo_ndc:
            a = down
        else:
            b = down
    return down, 2 * math.atan(math.tan(near_angle - down) / lo_ndc)


HUD_TOP_SHARE = 0.30
"""Share of the picture's height along its top edge where the HUD's status and rulings panels
stand (:class:`~kubb3d.viewer.app.Overlay`, one fixed layout)."""
HUD_BOTTOM_SHARE = 0.17
"""Share of the picture's height along its bottom edge where the HUD's legend, power bar and
last-throw card stand."""
THROWER_TOP_SHARE = 0.16
"""The thrower's view puts the far baseline this share of the height below the picture's top:
the corner panels above it cover sky and the grass outside the far half's sidelines (the
whole :data:`HUD_TOP_SHARE` would widen the view from 44° to 60° and shrink the far kubbs)."""


def top_camera(pitch: Pitch, aspect: float = 16 / 9) -> Camera:
    """Straight down on the whole pitch (and 2 m behind each baseline, where kubbs are parked),
    x (A → B) to the right, +y up in the image; the pitch is centred across the picture and
    fitted into the band between :data:`HUD_TOP_SHARE` and :data:`HUD_BOTTOM_SHARE`, where the
    HUD's panels never cover it. On a field the view is 50° wide (the eye about 13 m up, where
    the fog of distance has not begun); over a table-top board 10° (the eye high above): the
    board is drawn almost as a plan and the floor beside it is seen past its edges (Kubbuteo's
    parked disks, 8 cm beyond the board's ends)."""
    s = view_scale(pitch)
    fov = math.radians(50.0 if s >= 1.0 else 10.0)
    half_x = pitch.length / 2 + 2.0 * s
    half_y = pitch.width / 2 + 0.8 * s
    band = 1.0 - HUD_TOP_SHARE - HUD_BOTTOM_SHARE
    half_h = max(half_y / band, half_x / aspect)  # half the picture's height on the ground, m
    h = half_h / math.tan(fov / 2)
    cy = (HUD_TOP_SHARE + band / 2 - 0.5) * 2 * half_h  # the band's middle at y = 0
    return Camera(np.array((0.0, cy, h)), np.array((0.0, cy, 0.0)), up=np.array((0.0, 1.0, 0.0)), fov_y=fov, near=0.1 * s)


@dataclass
class OrbitCamera:
    """A free camera circling a target point.

    Attributes:
        target: the point orbited, m, shape (3,).
        azimuth: horizontal angle of the eye around the target, rad, from +x towards +y.
        elevation: angle of the eye above the horizontal, rad, in
            [:data:`MIN_ELEVATION`, :data:`MAX_ELEVATION`].
        distance: eye–target distance, m, in [:data:`MIN_DISTANCE`, :data:`MAX_DISTANCE`].
    """

    target: np.ndarray = field(default_factory=lambda: np.zeros(3))
    azimuth: float = math.radians(-120.0)
    elevation: float = math.radians(30.0)
    distance: float = 10.0

    MIN_ELEVATION = math.radians(2.0)
    MAX_ELEVATION = math.radians(89.0)
    MIN_DISTANCE = 0.05
    MAX_DISTANCE = 60.0

    def camera(self) -> Camera:
        ce = math.cos(self.elevation)
        off = self.distance * np.array((ce * math.cos(self.azimuth), ce * math.sin(self.azimuth), math.sin(self.elevation)))
        return Camera(self.target + off, self.target.copy(), fov_y=math.radians(45.0), near=min(0.1, self.distance / 20))

    def orbit(self, d_azimuth: float, d_elevation: float) -> None:
        """Turn around the target by the given angles, rad (elevation clamped)."""
        self.azimuth = (self.azimuth + d_azimuth) % (2 * math.pi)
        self.elevation = min(self.MAX_ELEVATION, max(self.MIN_ELEVATION, self.elevation + d_elevation))

    def zoom(self, factor: float) -> None:
        """Multiply the distance by ``factor`` (> 1 moves away), clamped."""
        self.distance = min(self.MAX_DISTANCE, max(self.MIN_DISTANCE, self.distance * factor))

    def pan(self, right: float, forward: float) -> None:
        """Move the target (and the eye with it) horizontally, m: ``right`` along the image's
        right direction, ``forward`` along the horizontal viewing direction."""
        fwd = -np.array((math.cos(self.azimuth), math.sin(self.azimuth), 0.0))
        rgt = np.array((fwd[1], -fwd[0], 0.0))
        self.target = self.target + right * rgt + forward * fwd
        lim = 30.0
        self.target[:2] = np.clip(self.target[:2], -lim, lim)


@dataclass
class FollowCamera:
    """Follows a moving piece from behind and above, with exponential smoothing.

    Attributes:
        back: distance behind the piece along its horizontal direction of motion, m (times
            ``scale``).
        height: height of the eye above the piece, m (times ``scale``).
        smoothing: time constant of the eye's lag, s (0: none).
        scale: :func:`view_scale` of the pitch.
    """

    back: float = 1.8
    height: float = 0.7
    smoothing: float = 0.12
    scale: float = 1.0
    eye: np.ndarray | None = None
    heading: np.ndarray = field(default_factory=lambda: np.array((1.0, 0.0, 0.0)))

    def update(self, position, velocity, dt: float) -> Camera:
        """Camera for the piece at ``position`` (m) moving with ``velocity`` (m/s), after
        ``dt`` s since the last update."""
        position = np.asarray(position, dtype=float)
        v = np.asarray(velocity, dtype=float)
        vh = np.array((v[0], v[1], 0.0))
        if np.linalg.norm(vh) > 0.3:
            self.heading = vh / np.linalg.norm(vh)
        k = self.scale
        want = position - k * self.back * self.heading + np.array((0.0, 0.0, k * self.height))
        want[2] = max(want[2], 0.25 * k)
        if self.eye is None or self.smoothing <= 0:
            self.eye = want
        else:
            a = 1.0 - math.exp(-max(dt, 0.0) / self.smoothing)
            self.eye = self.eye + a * (want - self.eye)
        target = position + 0.6 * k * self.heading
        return Camera(self.eye.copy(), target, fov_y=math.radians(55.0), near=0.05 * k)


def fit_in_band(orbit: OrbitCamera, points, width: int, height: int, margin: float = 0.05) -> OrbitCamera:
    """``orbit`` moved back along its line of sight (distance × 1.02 a step, up to
    :data:`OrbitCamera.MAX_DISTANCE`) until every one of ``points`` (N, 3) m lies in the
    picture's band between the HUD's top and bottom rows (:data:`HUD_TOP_SHARE` halved: the
    top panels stand in the corners; :data:`HUD_BOTTOM_SHARE` and ``margin`` of the height
    above it, where the throw settings and the power bar stand) and ``margin`` inside its
    sides, as the thrower's and the top view keep the pitch between the panels."""
    top, bottom = HUD_TOP_SHARE / 2, 1.0 - HUD_BOTTOM_SHARE - margin
    pts = np.atleast_2d(np.asarray(points, dtype=float))
    while orbit.distance < OrbitCamera.MAX_DISTANCE:
        px, _ = project(pts, orbit.camera().view_proj(width, height), width, height)
        x, y = px[:, 0] / width, px[:, 1] / height
        if y.min() >= top and y.max() <= bottom and x.min() >= margin and x.max() <= 1 - margin:
            break
        orbit.zoom(1.02)
    return orbit


def frame_points(points, aspect: float, elevation: float = math.radians(35.0), azimuth: float = math.atan2(-0.45, -1.0), margin: float = 1.25, min_distance: float = 2.5) -> OrbitCamera:
    """An orbit camera seeing every point (N, 3) (m), looking at their bounding box's centre
    from ``elevation`` and ``azimuth`` (rad; the default: from behind side A, a little to the
    right), as close as a field of view of 45° allows (times ``margin``, at least
    ``min_distance`` m).

    Args:
        aspect: image width / height.
    """
    pts = np.asarray(points, dtype=float).reshape(-1, 3)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    cam = OrbitCamera(target=(lo + hi) / 2, azimuth=azimuth, elevation=elevation, distance=min_distance)
    half_v = math.radians(45.0) / 2
    half_h = math.atan(math.tan(half_v) * aspect)
    # the distance at which each point just fits, from its offsets in the camera's frame
    view = cam.camera().view()[:3, :3]  # rows: right, up, back
    rel = (pts - cam.target) @ view.T
    need = max(
        np.max(np.abs(rel[:, 0]) / math.tan(half_h) + rel[:, 2]),
        np.max(np.abs(rel[:, 1]) / math.tan(half_v) + rel[:, 2]),
    )
    cam.distance = float(min(OrbitCamera.MAX_DISTANCE, max(min_distance, margin * need)))
    return cam

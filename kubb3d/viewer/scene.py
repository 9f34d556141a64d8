"""What the viewer draws, as plain data (no OpenGL): piece poses, status tints, pitch
lines, the aim line and the baton's trace; and trajectory playback (time → poses).

Poses are arrays of shape (7,): bounding-box centre x, y, z (m) and ``quat_xyzw``, as in
:class:`kubb3d.throw.Trajectory`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Mapping

import numpy as np

from kubb3d.judge.messages import msg
from kubb3d.pitch import Pitch
from kubb3d.snapshot import quat_to_matrix

# ------------------------------------------------------------------ statuses
STATUS_COLORS: dict[str, tuple[float, float, float]] = {
    "standing": (0.92, 0.92, 0.95),  # white: reads on grass (a green tint did not)
    "fallen": (0.92, 0.12, 0.10),
    "leaning": (1.00, 0.60, 0.00),
    "stößel": (0.72, 0.25, 0.95),
    "raise-again": (0.15, 0.50, 1.00),
}
"""Overlay colour (linear RGB in [0, 1]) of each status shown on a piece, and the legend's order."""


def overlay_status(ruling) -> str:
    """The overlay key of a :class:`kubb3d.judge.Ruling`: ``raise-again`` when the piece is stood
    up again (at its round-start spot or where it lies), else its status value."""
    consequence = getattr(getattr(ruling, "consequence", None), "value", getattr(ruling, "consequence", None))
    if consequence in ("raise at original spot", "raise here"):
        return "raise-again"
    status = getattr(ruling, "status", None)
    return getattr(status, "value", status)


# ------------------------------------------------------------------ the outside of the pitch
OUTSIDE_COLOR = (0.45, 0.05, 0.05, 0.38)
"""Linear RGBA laid over the ground outside the pitch in the referee views (a red veil)."""


def outside_quads(pitch: Pitch, extent: float = 40.0) -> list[tuple[tuple[float, float], tuple[float, float], float]]:
    """The ground outside the pitch as four bands (start (x, y), end (x, y), width m) for
    :func:`kubb3d.viewer.render.quads_along` (which caps a band by half its width at each
    end), side by side without overlap: behind each baseline (x beyond ±L/2) and beyond
    each sideline (y beyond ±W/2), reaching ``extent`` m out. A piece is out of the pitch when
    it lies in a band (``DM §2``: the pitch is 5 m × 8 m, bounded by the baselines)."""
    hl, hw, e = pitch.length / 2, pitch.half_width, extent

    def band(x0: float, y0: float, x1: float, y1: float):
        # a rectangle as a segment along its long side, shortened by the caps
        w, h = x1 - x0, y1 - y0
        if w >= h:
            return ((x0 + h / 2, (y0 + y1) / 2), (x1 - h / 2, (y0 + y1) / 2), h)
        return (((x0 + x1) / 2, y0 + w / 2), ((x0 + x1) / 2, y1 - w / 2), w)

    return [
        band(-hl - e, -hw - e, -hl, hw + e),
        band(hl, -hw - e, hl + e, hw + e),
        band(-hl, hw, hl, hw + e),
        band(-hl, -hw - e, hl, -hw),
    ]


def outside_labels(pitch: Pitch, near, offset: float) -> list[tuple[str, tuple[float, float, float]]]:
    """Names of the outside bands (:func:`outside_quads`), each at the point ``offset`` m out
    from its line, level with the point ``near`` (x, y) m (the pieces a view is about); the
    names are messages (translated where the HUD is drawn)."""
    hl, hw = pitch.length / 2, pitch.half_width
    x = float(min(max(near[0], -hl + offset), hl - offset))
    y = float(min(max(near[1], -hw + offset), hw - offset))
    return [
        (msg("OUT (behind baseline {side})", side="A"), (-hl - offset, y, 0.0)),
        (msg("OUT (behind baseline {side})", side="B"), (hl + offset, y, 0.0)),
        (msg("OUT (beyond sideline y {y:+.2f} m)", y=hw), (x, hw + offset, 0.0)),
        (msg("OUT (beyond sideline y {y:+.2f} m)", y=-hw), (x, -hw - offset, 0.0)),
    ]


# ------------------------------------------------------------------ rotations
def quat_matrix(q) -> np.ndarray:
    """Rotation matrix (3, 3) of a quaternion ``quat_xyzw`` (normalised here; the rotation is
    :func:`kubb3d.snapshot.quat_to_matrix`'s)."""
    x, y, z, w = np.asarray(q, dtype=float) / np.linalg.norm(q)
    return quat_to_matrix((x, y, z, w))


def rotation_matrices(quats) -> np.ndarray:
    """Rotation matrices (N, 3, 3) float64 of quaternions (N, 4) ``quat_xyzw`` (normalised
    here), :func:`quat_matrix` for many at once."""
    q = np.asarray(quats, dtype=float).reshape(-1, 4)
    x, y, z, w = (q / np.linalg.norm(q, axis=1, keepdims=True)).T
    m = np.empty((len(q), 3, 3))
    m[:, 0, 0], m[:, 0, 1], m[:, 0, 2] = 1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)
    m[:, 1, 0], m[:, 1, 1], m[:, 1, 2] = 2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)
    m[:, 2, 0], m[:, 2, 1], m[:, 2, 2] = 2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)
    return m


def model_matrix(pose) -> np.ndarray:
    """Model matrix (4, 4) of a pose (7,): body frame → world."""
    m = np.eye(4)
    m[:3, :3] = quat_matrix(pose[3:7])
    m[:3, 3] = pose[:3]
    return m


def interpolate_pose(p0, p1, f: float) -> np.ndarray:
    """Pose between ``p0`` and ``p1`` (7,) at fraction ``f`` in [0, 1]: positions linearly,
    orientations by normalised linear interpolation on the shorter arc (samples are 1/60 s
    apart, where it differs from slerp by far less than a degree)."""
    p0, p1 = np.asarray(p0, dtype=float), np.asarray(p1, dtype=float)
    q0, q1 = p0[3:], p1[3:]
    if q0 @ q1 < 0:
        q1 = -q1
    q = (1 - f) * q0 + f * q1
    out = np.empty(7)
    out[:3] = (1 - f) * p0[:3] + f * p1[:3]
    out[3:] = q / np.linalg.norm(q)
    return out


def sample_trajectory(times: np.ndarray, poses: np.ndarray, t: float) -> np.ndarray:
    """Pose (7,) at time ``t`` (s) from samples ``times`` (T,) and ``poses`` (T, 7);
    clamped to the first / last sample outside their range."""
    if t <= times[0]:
        return np.asarray(poses[0], dtype=float).copy()
    if t >= times[-1]:
        return np.asarray(poses[-1], dtype=float).copy()
    i = int(np.searchsorted(times, t, side="right")) - 1
    t0, t1 = times[i], times[i + 1]
    f = 0.0 if t1 <= t0 else (t - t0) / (t1 - t0)
    return interpolate_pose(poses[i], poses[i + 1], f)


# ------------------------------------------------------------------ scene
@dataclass
class PieceView:
    """One piece as drawn.

    Attributes:
        kind: ``kubb`` | ``king`` | ``baton`` | ``stake``.
        pose: (7,) bounding-box centre (m) and ``quat_xyzw``.
        status: overlay key of :data:`STATUS_COLORS` or None (plain wood).
        side: owning side of a kubb or None.
    """

    kind: str
    pose: np.ndarray
    status: str | None = None
    side: str | None = None

    @property
    def position(self) -> np.ndarray:
        return self.pose[:3]


@dataclass
class Scene:
    """Everything one frame shows.

    Attributes:
        pitch: the pitch geometry.
        equipment: equipment set name (``models/<set>-<kind>.obj``).
        pieces: piece id → :class:`PieceView`.
        throwing_line: x of the current throwing line, m, highlighted on the grass (None: none).
        aim: (start (3,), end (3,)) of the aim line on the grass, m, or None.
        aim_warning: the throw being prepared would be illegal: the aim line is drawn red.
        release_point: the release point marker (3,), m, or None.
        trace: the thrown piece's path so far (N, 3), m, or None.
        hidden: ids not drawn (batons still in hand).
        outside_shade: shade the ground outside the pitch's baselines and sidelines (the
            referee views: which side of a line is out).
        area_labels: (text, world point (3,) m) written on the picture like piece labels (the
            names of the shaded areas, :func:`outside_labels`).
        rings: target rings painted on the ground: ((x, y) centre m, radius m) (the inkast
            challenge's ring).
    """

    pitch: Pitch
    equipment: str = "standard"
    pieces: dict[str, PieceView] = field(default_factory=dict)
    throwing_line: float | None = None
    aim: tuple[np.ndarray, np.ndarray] | None = None
    aim_warning: bool = False
    release_point: np.ndarray | None = None
    trace: np.ndarray | None = None
    hidden: set[str] = field(default_factory=set)
    outside_shade: bool = False
    area_labels: list[tuple[str, tuple[float, float, float]]] = field(default_factory=list)
    rings: list[tuple[tuple[float, float], float]] = field(default_factory=list)

    @classmethod
    def from_snapshot(cls, snapshot, equipment: str = "standard") -> "Scene":
        """A scene showing every piece of a :class:`kubb3d.snapshot.Snapshot`."""
        scene = cls(snapshot.pitch, equipment)
        for pid, p in snapshot.pieces.items():
            scene.pieces[pid] = PieceView(p.kind, np.array((*p.position, *p.quat_xyzw), dtype=float), side=p.side)
        return scene

    @classmethod
    def from_world(cls, world) -> "Scene":
        """A scene showing every piece of a :class:`kubb3d.physics.world.World` now."""
        scene = cls(world.pitch, world.equipment.name)
        for pid in world.piece_ids():
            pos, q = world.pose(pid)
            scene.pieces[pid] = PieceView(world.kind(pid), np.array((*pos, *q), dtype=float))
        return scene

    def set_poses(self, poses: Mapping[str, np.ndarray]) -> None:
        """Move pieces (id → pose (7,)); unknown ids are ignored."""
        for pid, pose in poses.items():
            if pid in self.pieces:
                self.pieces[pid].pose = np.asarray(pose, dtype=float)

    def poses(self) -> dict[str, np.ndarray]:
        """id → pose (7,) copy of every piece."""
        return {pid: p.pose.copy() for pid, p in self.pieces.items()}

    def clear_status(self) -> None:
        for p in self.pieces.values():
            p.status = None

    def set_status(self, rulings: Iterable) -> None:
        """Tint pieces by the judge's rulings (see :func:`overlay_status`)."""
        for r in rulings:
            if r.piece in self.pieces:
                self.pieces[r.piece].status = overlay_status(r)

    def visible(self) -> list[tuple[str, PieceView]]:
        """(id, piece) of the pieces drawn."""
        return [(pid, p) for pid, p in self.pieces.items() if pid not in self.hidden]

    @property
    def board(self):
        """The table-top :class:`~kubb3d.equipment.Board` the pieces stand on (Kubbuteo), or None
        (a field pitch)."""
        from kubb3d.equipment import get_set

        return get_set(self.equipment).board

    def line_segments(self) -> list[tuple[tuple[float, float], tuple[float, float], float]]:
        """Painted lines: ((x0, y0), (x1, y1), width m). On the grass the boundary and the centre
        line (DM §2); on a table-top board the two baselines across the board and a cross on
        the centre point (KT "Equipment": "Baselines are marked 3.5 inches from each of the
        narrow ends and a centre point is marked in the middle"), 5 mm wide (kubb3d's choice)."""
        L, h = self.pitch.length / 2, self.pitch.half_width
        if self.board is not None:
            w, c = 0.005, 0.012
            xa, xb = self.pitch.baseline_x("A"), self.pitch.baseline_x("B")
            return [((xa, -h), (xa, h), w), ((xb, -h), (xb, h), w), ((-c, 0.0), (c, 0.0), w), ((0.0, -c), (0.0, c), w)]
        w = 0.03
        return [
            ((-L, -h), (L, -h), w),
            ((-L, h), (L, h), w),
            ((-L, -h), (-L, h), w),
            ((L, -h), (L, h), w),
            ((0.0, -h), (0.0, h), w),
        ]


# ------------------------------------------------------------------ playback
@dataclass
class Segment:
    """One throw (or inkast) of a replay.

    Attributes:
        label: shown on the HUD, e.g. ``"A throws baton3"``.
        start: id → pose (7,) of every piece before the throw.
        times: s after release, shape (T,) (may be empty: nothing moved).
        poses: id → (T, 7) poses of the pieces that moved.
        end: id → pose (7,) at rest; default: ``start`` updated with the last samples.
        raised: id → pose (7,) after the judge's raising, animated after the rest
            (:data:`RAISE_TIME` s); empty: nothing is raised.
        rulings: the judge's rulings after the throw (objects with ``piece``, ``status``,
            ``consequence``, ``rules``, ``reason``).
        thrown: the thrown piece's id (trace, follow camera) or None.
        info: free-form HUD facts for this segment (phase, turn, batons left …).
    """

    label: str
    start: dict[str, np.ndarray]
    times: np.ndarray = field(default_factory=lambda: np.zeros(0))
    poses: dict[str, np.ndarray] = field(default_factory=dict)
    end: dict[str, np.ndarray] | None = None
    raised: dict[str, np.ndarray] = field(default_factory=dict)
    rulings: tuple = ()
    thrown: str | None = None
    info: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.times = np.asarray(self.times, dtype=float)
        if self.end is None:
            self.end = {k: np.asarray(v, dtype=float) for k, v in self.start.items()}
            for pid, arr in self.poses.items():
                if len(arr):
                    self.end[pid] = np.asarray(arr[-1], dtype=float)

    @property
    def flight(self) -> float:
        """s from release to the last sample."""
        return float(self.times[-1]) if len(self.times) else 0.0

    @property
    def duration(self) -> float:
        """Playback length, s: flight, a pause at rest, then the raising animation."""
        return self.flight + HOLD_TIME + (RAISE_TIME + HOLD_TIME if self.raised else 0.0)

    def poses_at(self, t: float) -> dict[str, np.ndarray]:
        """id → pose (7,) of every piece at ``t`` s after this segment began."""
        if t >= self.flight:
            out = {k: v.copy() for k, v in self.end.items()}
            if self.raised:
                f = min(1.0, max(0.0, (t - self.flight - HOLD_TIME) / RAISE_TIME))
                if f > 0:
                    f = f * f * (3 - 2 * f)  # ease in and out
                    for pid, pose in self.raised.items():
                        if pid in out:
                            out[pid] = interpolate_pose(out[pid], pose, f)
            return out
        out = {k: v.copy() for k, v in self.start.items()}
        for pid, arr in self.poses.items():
            out[pid] = sample_trajectory(self.times, arr, t)
        return out

    def at_rest(self, t: float) -> bool:
        """True once the flight is over (rulings may be shown)."""
        return t >= self.flight

    def trace(self, t: float) -> np.ndarray | None:
        """Path of the thrown piece up to ``t`` s, shape (N, 3), or None."""
        if self.thrown is None or self.thrown not in self.poses or not len(self.times):
            return None
        arr = self.poses[self.thrown]
        n = int(np.searchsorted(self.times, t, side="right"))
        pts = arr[:n, :3]
        if n < len(self.times) and n > 0:
            pts = np.vstack((pts, sample_trajectory(self.times, arr, t)[:3]))
        return pts if len(pts) >= 2 else None

    def velocity(self, t: float) -> np.ndarray:
        """Velocity (3,) of the thrown piece at ``t``, m/s (finite difference; zeros if none)."""
        if self.thrown is None or self.thrown not in self.poses or len(self.times) < 2:
            return np.zeros(3)
        dt = 1.0 / 60.0
        a = sample_trajectory(self.times, self.poses[self.thrown], t - dt)
        b = sample_trajectory(self.times, self.poses[self.thrown], t + dt)
        return (b[:3] - a[:3]) / (2 * dt)


class LiveSegment:
    """A :class:`Segment` that grows while its throw is still being simulated: the frames
    (:class:`kubb3d.throw.ThrowFrame`) are added as they come and :attr:`segment` plays what
    is known so far.

    Args:
        piece: id of the thrown piece.
        label: the segment's HUD label.
        start: id → pose (7,) of every piece shown before the throw (pieces the frames never
            name stay there).
        frame_poses: id → pose (7,) of the release frame (the world's movable pieces).
        info: the segment's HUD facts.
    """

    def __init__(self, piece: str, label: str, start: Mapping[str, np.ndarray], frame_poses: Mapping[str, np.ndarray], info: dict) -> None:
        self.piece = piece
        self.times: list[float] = [0.0]
        self.rows: dict[str, list[np.ndarray]] = {pid: [np.asarray(p, dtype=float)] for pid, p in frame_poses.items()}
        self.final = False
        first = {k: np.asarray(v, dtype=float).copy() for k, v in start.items()}
        first.update({k: v[0].copy() for k, v in self.rows.items()})
        self.segment = Segment(label, first, thrown=piece, info=info)
        self._build()

    @property
    def last_time(self) -> float:
        """s after the release of the latest frame."""
        return self.times[-1]

    def add(self, time_s: float, poses: Mapping[str, np.ndarray], final: bool = False) -> None:
        """Add one frame: ``time_s`` s after the release, id → pose (7,) of the pieces read (the
        others keep their last pose); ``final``: the rest poses."""
        n = len(self.times)
        self.times.append(float(time_s))
        for pid, pose in poses.items():
            if pid not in self.rows:
                base = self.segment.start.get(pid, np.asarray(pose, dtype=float))
                self.rows[pid] = [np.asarray(base, dtype=float)] * n
            self.rows[pid].append(np.asarray(pose, dtype=float))
        for rows in self.rows.values():
            if len(rows) == n:
                rows.append(rows[-1])
        self.final = final
        self._build()

    def _build(self) -> None:
        seg = self.segment
        seg.times = np.array(self.times)
        seg.poses = {pid: np.array(rows) for pid, rows in self.rows.items()}
        seg.end = {k: v.copy() for k, v in seg.start.items()}
        for pid, arr in seg.poses.items():
            seg.end[pid] = arr[-1].copy()


HOLD_TIME = 0.8
"""s: pause at rest after each throw of a replay (rulings shown)."""
RAISE_TIME = 1.0
"""s: length of the raising animation (from the rest poses to the judge's raised poses)."""


@dataclass
class Timeline:
    """A sequence of :class:`Segment` played one after another.

    Attributes:
        segments: in order.
        t: current playback time, s, in [0, :attr:`duration`].
        playing: advancing with :meth:`advance`.
        speed: playback rate (1 = real time).
    """

    segments: list[Segment]
    t: float = 0.0
    playing: bool = True
    speed: float = 1.0

    SPEEDS = (0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)

    @property
    def starts(self) -> np.ndarray:
        """Start time of each segment, s, shape (S,)."""
        d = np.array([s.duration for s in self.segments])
        return np.concatenate(([0.0], np.cumsum(d)[:-1])) if len(d) else np.zeros(0)

    @property
    def duration(self) -> float:
        return float(sum(s.duration for s in self.segments))

    def locate(self, t: float | None = None) -> tuple[int, float]:
        """(segment index, time within it) at ``t`` (default: now)."""
        t = self.t if t is None else t
        if not self.segments:
            raise ValueError("empty timeline")
        starts = self.starts
        i = int(np.searchsorted(starts, t, side="right")) - 1
        i = min(max(i, 0), len(self.segments) - 1)
        return i, t - starts[i]

    def poses_at(self, t: float | None = None) -> dict[str, np.ndarray]:
        """id → pose (7,) of every piece at ``t`` (default: now)."""
        i, local = self.locate(t)
        return self.segments[i].poses_at(local)

    def final_poses(self) -> dict[str, np.ndarray]:
        """Poses at the very end (after the last raising)."""
        return self.poses_at(self.duration)

    def advance(self, dt: float) -> None:
        """Advance by ``dt`` s of wall time (× speed) when playing; stops at the end."""
        if self.playing:
            self.seek(self.t + dt * self.speed)
            if self.t >= self.duration:
                self.playing = False

    def seek(self, t: float) -> None:
        """Jump to ``t`` s (clamped)."""
        self.t = min(max(0.0, float(t)), self.duration)

    def next_throw(self) -> None:
        """Jump to the start of the next segment (or the end)."""
        i, _ = self.locate()
        self.seek(self.starts[i + 1] if i + 1 < len(self.segments) else self.duration)

    def previous_throw(self) -> None:
        """Jump to the start of this segment, or of the previous one if already near it."""
        i, local = self.locate()
        if local < 0.3 and i > 0:
            i -= 1
        self.seek(self.starts[i])

    def faster(self, up: bool = True) -> None:
        """Step the playback speed through :data:`SPEEDS`."""
        speeds = self.SPEEDS
        j = int(np.argmin([abs(math.log(s / self.speed)) for s in speeds]))
        self.speed = speeds[min(len(speeds) - 1, j + 1) if up else max(0, j - 1)]


def segment_from_throw(result, start: Mapping[str, np.ndarray], label: str, rulings=(), raised: Mapping[str, np.ndarray] | None = None, info: dict | None = None) -> Segment:
    """A :class:`Segment` from a :class:`kubb3d.throw.ThrowResult` and the poses before it.

    The end poses are those of the result's final snapshot (the trajectory samples stop
    at rest, a step before it)."""
    traj = result.trajectory
    end = {k: np.asarray(v, dtype=float) for k, v in start.items()}
    for pid, p in result.final.pieces.items():
        end[pid] = np.array((*p.position, *p.quat_xyzw), dtype=float)
    start = dict(start)
    if result.piece not in start and result.piece in traj.poses:
        start[result.piece] = np.asarray(traj.poses[result.piece][0], dtype=float)
    return Segment(label, {k: np.asarray(v, dtype=float) for k, v in start.items()}, traj.times, dict(traj.poses), end, dict(raised or {}), tuple(rulings), result.piece, dict(info or {}))

"""Poses and the geometry of bounding boxes: typed values the world returns, and the small
rotation and support-polygon kernels the other physics modules share.

A piece's *frame* is the centre of its bounding box; PyBullet holds bodies at their centre of
mass. Positions are in metres, quaternions ``(x, y, z, w)``.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple, Sequence

import numpy as np
from kubb3d.linear import mat_vec, rows_by

from kubb3d.judge.geometry import convex_hull
from kubb3d.physics._pybullet import pb

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]
Point = Sequence[float] | np.ndarray
"""A point or vector given by a caller: three floats, m (or m/s, rad/s)."""

BOX_CORNERS = np.array([(sx, sy, sz) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], dtype=float)
"""The eight corners of a unit box about its centre, shape (8, 3) (scaled by half extents)."""


class Pose(NamedTuple):
    """Where a piece is: the centre of its bounding box, m, shape (3,), and its orientation."""

    position: np.ndarray
    quat_xyzw: Quat


class ContactPoint(NamedTuple):
    """One contact point of a piece from the last step (:meth:`~kubb3d.physics.world.World.contacts_of`).

    Attributes:
        distance: signed separation, m (negative: penetration).
        body: PyBullet body id of the other body.
        other: the other piece's id, ``ground``, ``floor`` or ``?`` (unknown body).
        position: the contact point on this piece, world frame, m.
        normal_force: N, ≥ 0.
    """

    distance: float
    body: int
    other: str
    position: Vec3
    normal_force: float


def long_axis(quat_xyzw: Sequence[float]) -> Vec3:
    """The body +z axis (a kubb's or the king's long axis) in the world for ``quat_xyzw``."""
    x, y, z, w = quat_xyzw
    return (2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))


def frame_from_com(com_local: Vec3, com: Sequence[float], quat_xyzw: Sequence[float]) -> np.ndarray:
    """Bounding-box centre, m, shape (3,), of a body whose centre of mass (offset ``com_local``
    in the body frame) is at ``com``."""
    if com_local == (0.0, 0.0, 0.0):
        return np.array(com)
    m = np.array(pb.getMatrixFromQuaternion(quat_xyzw)).reshape(3, 3)
    return np.array(com) - mat_vec(m, com_local)


def rotation(quat_xyzw: Sequence[float]) -> np.ndarray:
    """The rotation matrix of ``quat_xyzw``, shape (3, 3)."""
    return np.array(pb.getMatrixFromQuaternion(quat_xyzw)).reshape(3, 3)


@functools.lru_cache(maxsize=256)
def lowest_corner(half_extents: Vec3, quat_xyzw: Quat) -> float:
    """z of the lowest corner of a bounding box of ``half_extents`` (m) turned by ``quat_xyzw``,
    relative to its centre, m."""
    return float(rows_by(BOX_CORNERS * np.array(half_extents), rotation(quat_xyzw).T)[:, 2].min())


def support_margin(points: Sequence[Sequence[float]], com_xy: Sequence[float]) -> float:
    """Signed distance, m, of ``com_xy`` inside the convex hull of the horizontal contact points
    ``points`` (sequence of (x, y)); negative outside, ``-inf`` when the points span no area
    (fewer than three, or all on one line: a block on an edge or a corner)."""
    hull = convex_hull([(round(x, 6), round(y, 6)) for x, y in points])
    margin = -math.inf if len(hull) < 3 else math.inf
    for i, a in enumerate(hull if len(hull) >= 3 else ()):
        b = hull[(i + 1) % len(hull)]
        ex, ey = b[0] - a[0], b[1] - a[1]
        length = math.hypot(ex, ey)
        if length > 1e-9:
            margin = min(margin, (ex * (com_xy[1] - a[1]) - ey * (com_xy[0] - a[0])) / length)
    return margin


def quaternion_from_euler(roll_pitch_yaw: Sequence[float]) -> Quat:
    """quat_xyzw of extrinsic x-y-z Euler angles (rad), as PyBullet computes it."""
    x, y, z, w = (float(v) for v in pb.getQuaternionFromEuler(tuple(roll_pitch_yaw)))
    return (x, y, z, w)

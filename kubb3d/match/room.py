"""Room for the pieces the rules place: a kubb raised at its original spot, raised again, set
back, placed by hand or stood up after a return takes its spot, and a piece that lies (or
stands) there is moved straight off it until the two only touch (kubb3d's decision,
docs/rules.md "Pieces placed by the rules"). Pure: poses in, poses out."""

from __future__ import annotations

import math
from typing import Callable, Collection, Mapping, Sequence

from kubb3d.judge.geometry import box_overlap_depth

HalfExtents = Callable[[str], Sequence[float]]
"""Piece id → the half sizes of its box, m."""

ROOM_MARGIN_M = 0.002
"""m: the gap :func:`make_room` leaves between a moved piece and the piece it was moved off."""

ROOM_TOL_M = 0.001
"""m: how deep a piece may cut into a placed piece and stay where it is (resting contact in the
physics engine; the judge's ``JudgeParams.block_tol``, kubb3d/judge/params.py)."""

_MAX_PUSHES = 200


def overlapping(
    poses: Mapping[str, Sequence[float]], half_extents: HalfExtents, tol: float = 0.0
) -> list[tuple[str, str, float]]:
    """Every pair of pieces (``poses``: id → x, y, z m + quaternion x, y, z, w) whose boxes cut
    into each other by more than ``tol`` m: (id, id, depth m), ids sorted."""
    items = sorted(poses.items())
    out = []
    for i, (a, pa) in enumerate(items):
        for b, pb in items[i + 1 :]:
            d = box_overlap_depth(pa[:3], pa[3:], half_extents(a), pb[:3], pb[3:], half_extents(b))
            if d > tol:
                out.append((a, b, d))
    return out


def make_room(
    poses: Mapping[str, Sequence[float]],
    placed: Collection[str],
    half_extents: HalfExtents,
    fixed: Collection[str] = (),
    tol: float = ROOM_TOL_M,
) -> dict[str, list[float]]:
    """``poses`` (id → x, y, z m + quaternion x, y, z, w) with every piece that cuts into a
    ``placed`` piece by more than ``tol`` m (and is neither placed nor ``fixed``) moved
    horizontally (height and heading kept) until it overlaps no other piece at all: straight
    away from the piece it cuts into, one push after another (the pieces to move in id order,
    each one an obstacle for the later ones); if pushing does not clear it in 200 pushes, the
    nearest free spot on rings around where it was. Placed and fixed pieces never move (they
    must not overlap each other: the rules' business); the pieces not moved keep their poses
    exactly."""
    out = {pid: list(p) for pid, p in poses.items()}
    crowded = {
        pid for a, b, _ in overlapping(poses, half_extents, tol) for pid in (a, b) if (a in placed) != (b in placed)
    }
    to_move = [pid for pid in sorted(out) if pid in crowded and pid not in placed and pid not in fixed]
    cleared = [pid for pid in sorted(out) if pid not in to_move]
    for pid in to_move:
        home = out[pid]
        he = half_extents(pid)
        obstacles = [(out[oid], half_extents(oid)) for oid in cleared]
        x, y = home[0], home[1]
        for _ in range(_MAX_PUSHES):
            h = _first_hit(home, he, (x, y), obstacles)
            if h is None:
                break
            o, depth = h
            vx, vy = x - o[0], y - o[1]
            n = math.hypot(vx, vy)
            vx, vy = (vx / n, vy / n) if n > 1e-9 else (1.0, 0.0)
            x, y = x + vx * (depth + ROOM_MARGIN_M), y + vy * (depth + ROOM_MARGIN_M)
        else:
            x, y = _free_ring(home, he, obstacles, 2 * max(he) + ROOM_MARGIN_M)
        out[pid] = [x, y] + home[2:]
        cleared.append(pid)
    return out


Obstacles = list[tuple[list[float], Sequence[float]]]


def _first_hit(
    pose: Sequence[float], he: Sequence[float], xy: tuple[float, float], obstacles: Obstacles
) -> tuple[list[float], float] | None:
    """The first obstacle (pose, half sizes) a piece of ``pose`` moved to ``xy`` cuts into, and how deep (m)."""
    for o, ho in obstacles:
        d = box_overlap_depth((xy[0], xy[1], pose[2]), pose[3:], he, o[:3], o[3:], ho)
        if d > 0.0:
            return o, d
    return None


def _free_ring(home: Sequence[float], he: Sequence[float], obstacles: Obstacles, step: float) -> tuple[float, float]:
    """The first spot on rings of radius k·``step`` (m) around ``home`` free of ``obstacles``."""
    for ring in range(1, 1000):
        for i in range(8 * ring):
            ang = 2 * math.pi * i / (8 * ring)
            xy = (home[0] + ring * step * math.cos(ang), home[1] + ring * step * math.sin(ang))
            if _first_hit(home, he, xy, obstacles) is None:
                return xy
    raise RuntimeError("no free spot within 1000 rings")  # unreachable: finitely many obstacles

"""Room for the pieces the rules place: a kubb raised at its original spot, raised again, set
back, placed by hand or stood up after a return takes its spot, and a piece that lies (or
stands) there is moved straight off it until the two only touch (kubb3d's decision,
docs/rules.md "Pieces placed by the rules"). Pure: poses in, poses out.

The rule books say nothing of where such a piece goes, so where it goes follows the pitch, never
the piece ids nor a fixed direction (kubb3d's decision, docs/rules.md "Pieces placed by the
rules"): a situation mirrored across the centre line (ends swapped), turned half round (sides
swapped) or mirrored across the long axis moves its pieces to the images of the moves, and
renaming the pieces changes nothing (tests/match/test_room_relations.py). So the pieces are
moved in the order of how deep they cut into a placed piece (deepest first), each is pushed off
the piece it cuts into deepest (off the middle of the ones it cuts into equally deep), a piece
centred on what it cuts into is pushed away from the centre line (towards the end of the half it
lies in), and of the equally near free spots on a ring the one farthest towards that end, then
nearest the long axis, is taken. Only a situation that is its own image (two pieces lying
exactly mirrored, standing in each other's way) cannot be moved to its image; there the piece
nearer −x, then −y, moves first."""

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
    away from the piece it cuts into deepest, one push after another (the pieces to move in the
    order of :func:`_move_order`, each one an obstacle for the later ones); if pushing does not
    clear it in 200 pushes, the nearest free spot on rings around where it was
    (:func:`_free_ring`). Placed and fixed pieces never move (they must not overlap each other:
    the rules' business); the pieces not moved keep their poses exactly. Where a piece goes
    follows the pitch, not the ids (module doc)."""
    out = {pid: list(p) for pid, p in poses.items()}
    depth: dict[str, float] = {}
    for a, b, d in overlapping(poses, half_extents, tol):
        if (a in placed) != (b in placed):
            pid = b if a in placed else a
            depth[pid] = max(depth.get(pid, 0.0), d)
    to_move = _move_order({pid: d for pid, d in depth.items() if pid not in fixed}, poses)
    cleared = [pid for pid in sorted(out) if pid not in depth or pid in fixed]
    for pid in to_move:
        home = out[pid]
        he = half_extents(pid)
        obstacles = [(out[oid], half_extents(oid)) for oid in cleared]
        x, y = home[0], home[1]
        for _ in range(_MAX_PUSHES):
            h = _deepest_hit(home, he, (x, y), obstacles)
            if h is None:
                break
            (ox, oy), d = h
            vx, vy = x - ox, y - oy
            n = math.hypot(vx, vy)
            vx, vy = (vx / n, vy / n) if n > 1e-9 else _outward(x, y)
            x, y = x + vx * (d + ROOM_MARGIN_M), y + vy * (d + ROOM_MARGIN_M)
        else:
            x, y = _free_ring(home, he, obstacles, 2 * max(he) + ROOM_MARGIN_M)
        out[pid] = [x, y] + home[2:]
        cleared.append(pid)
    return out


Obstacles = list[tuple[list[float], Sequence[float]]]


TIE_M = 1e-9
"""m: depths and distances closer than this are equal (so that a mirrored situation, whose
numbers differ in the last bits, is ordered as the situation is)."""


def _move_order(depth: Mapping[str, float], poses: Mapping[str, Sequence[float]]) -> list[str]:
    """The pieces to move (``depth``: id → how deep it cuts into a placed piece, m) in the order
    they are moved: the deepest first, then the one nearer the long axis, then nearer the centre
    line; only pieces that lie exactly mirrored (ties to :data:`TIE_M`) are ordered by their
    coordinates (−x first, then −y). Never by id."""

    def key(pid: str) -> tuple[float, ...]:
        x, y = poses[pid][0], poses[pid][1]
        return (-round(depth[pid] / TIE_M), round(abs(y) / TIE_M), round(abs(x) / TIE_M), x, y)

    return sorted(depth, key=key)


def _outward(x: float, y: float) -> tuple[float, float]:
    """The way to push a piece centred on what it cuts into (no way is nearer): away from the
    centre line, towards the end of the half it lies in; on the centre line, away from the long
    axis; at the pitch's centre (where the king stands), +x."""
    if abs(x) > TIE_M:
        return (math.copysign(1.0, x), 0.0)
    if abs(y) > TIE_M:
        return (0.0, math.copysign(1.0, y))
    return (1.0, 0.0)


def _deepest_hit(
    pose: Sequence[float], he: Sequence[float], xy: tuple[float, float], obstacles: Obstacles
) -> tuple[tuple[float, float], float] | None:
    """Where to push a piece of ``pose`` moved to ``xy`` away from: the centre of the obstacle
    (pose, half sizes) it cuts into deepest, or the middle of the centres of the ones it cuts
    into equally deep (to :data:`TIE_M`), and that depth (m); None if it cuts into none. Which
    obstacle comes first in ``obstacles`` does not matter."""
    hits = []
    for o, ho in obstacles:
        d = box_overlap_depth((xy[0], xy[1], pose[2]), pose[3:], he, o[:3], o[3:], ho)
        if d > 0.0:
            hits.append((d, o))
    if not hits:
        return None
    deepest = max(d for d, _ in hits)
    tied = [o for d, o in hits if d >= deepest - TIE_M]
    centre = (sum(o[0] for o in tied) / len(tied), sum(o[1] for o in tied) / len(tied))
    return centre, deepest


def _free_ring(home: Sequence[float], he: Sequence[float], obstacles: Obstacles, step: float) -> tuple[float, float]:
    """The nearest spot free of ``obstacles`` on rings of radius k·``step`` (m) around ``home``
    (8k spots on the k-th ring, a set that is its own mirror image across both axes of the
    pitch): of the ring's free spots, the one farthest towards the end of the half ``home``
    lies in, then nearest the long axis, then towards +y (the last only where ``home`` lies on
    the long axis itself); ties to :data:`TIE_M`."""
    sx = math.copysign(1.0, home[0]) if abs(home[0]) > TIE_M else 0.0
    for ring in range(1, 1000):
        free = []
        for i in range(8 * ring):
            ang = 2 * math.pi * i / (8 * ring)
            xy = (home[0] + ring * step * math.cos(ang), home[1] + ring * step * math.sin(ang))
            if _deepest_hit(home, he, xy, obstacles) is None:
                free.append((-round(sx * xy[0] / TIE_M), round(abs(xy[1]) / TIE_M), -round(xy[1] / TIE_M), xy))
        if free:
            return min(free)[3]
    raise RuntimeError("no free spot within 1000 rings")  # unreachable: finitely many obstacles

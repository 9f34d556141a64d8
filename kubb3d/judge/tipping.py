"""The geometry of raising a kubb (DM §7 "ohne Drehen oder Verschieben über eine der kurzen
Kanten auf ihre Grundfläche gekippt"): the square it stands on when tipped over the bottom edge
of one end face, how far another piece lets it reach, and whether that square lies inside a
field half. Pure; distances in metres, polygons counter-clockwise lists of (x, y). Which
raising is chosen, and the rulings, are :mod:`kubb3d.judge.raising`'s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Mapping, cast

from kubb3d.judge.geometry import Pt, Vec, clip_halfplane, columns, cross, dot, quat_from_rows, rot, square, unit
from kubb3d.judge.params import JudgeParams
from kubb3d.judge.rulings import Pose
from kubb3d.pitch import Pitch, Side
from kubb3d.snapshot import PieceState

Poly = list[tuple[float, float]]


@dataclass(frozen=True)
class TipOption:
    """One way to raise a kubb: over the bottom edge of end ``end``.

    Attributes:
        end: ±1, the end face it will stand on.
        pose: the raised pose.
        base: the raised base square (CCW, m).
        ideal: the base square had nothing blocked it.
        blocked_by: ids of the pieces it was tipped against ('' if none).
        inside: the raised base is fully inside the field half.
        ideal_inside: the unblocked square is fully inside.
    """

    end: int
    pose: Pose
    base: Poly
    ideal: Poly
    blocked_by: str
    inside: bool
    ideal_inside: bool


def inside_half(poly: Poly, pitch: Pitch, side: Side, tol: float) -> bool:
    lo, hi = (-pitch.length / 2, 0.0) if side == "A" else (0.0, pitch.length / 2)
    hw = pitch.half_width
    return all(lo - tol <= x <= hi + tol and -hw - tol <= y <= hw + tol for x, y in poly)


def share_inside(poly: Poly, pitch: Pitch, side: Side, tol: float) -> float:
    """The share (0 to 1) of a convex polygon's area that lies inside the field half ``side``
    (its lines widened by ``tol``, m): the polygon clipped to the half's rectangle
    (:func:`~kubb3d.judge.geometry.clip_halfplane`), area over area."""
    lo, hi = (-pitch.length / 2, 0.0) if side == "A" else (0.0, pitch.length / 2)
    hw = pitch.half_width
    part: list[Pt] = list(poly)
    for n, c in (((1.0, 0.0), hi + tol), ((-1.0, 0.0), -(lo - tol)), ((0.0, 1.0), hw + tol), ((0.0, -1.0), hw + tol)):
        part = clip_halfplane(part, n, c)
        if len(part) < 3:
            return 0.0
    whole = polygon_area(poly)
    return polygon_area(part) / whole if whole > 0 else 0.0


def polygon_area(poly: Poly) -> float:
    """Area of a simple polygon (shoelace formula), m²."""
    m = len(poly)
    return abs(sum(poly[i][0] * poly[(i + 1) % m][1] - poly[(i + 1) % m][0] * poly[i][1] for i in range(m))) / 2


def inflate(poly: Poly, by: float) -> Poly:
    cx = sum(x for x, _ in poly) / len(poly)
    cy = sum(y for _, y in poly) / len(poly)
    out = []
    for x, y in poly:
        dx, dy = x - cx, y - cy
        r = math.hypot(dx, dy) or 1.0
        out.append((x + dx / r * by * math.sqrt(2), y + dy / r * by * math.sqrt(2)))
    return out


def standing_rotation(p: PieceState, end: int) -> tuple[Vec, Vec, Vec]:
    """Rows of the rotation that stands ``p`` on end face ``end`` by the smallest turn
    (about a horizontal axis: no turning about the vertical, DM §7)."""
    r = rot(p.quat_xyzw)
    zb = columns(r)[2]
    v = (end * zb[0], end * zb[1], end * zb[2])  # direction of the end face
    down = (0.0, 0.0, -1.0)
    c = max(-1.0, min(1.0, dot(v, down)))
    k = cross(v, down)
    s = math.sqrt(k[0] ** 2 + k[1] ** 2 + k[2] ** 2)
    if s < 1e-12:
        return r
    k = (k[0] / s, k[1] / s, k[2] / s)
    ang = math.atan2(s, c)
    ca, sa = math.cos(ang), math.sin(ang)
    kx, ky, kz = k
    t = 1 - ca
    rk = (
        (ca + kx * kx * t, kx * ky * t - kz * sa, kx * kz * t + ky * sa),
        (ky * kx * t + kz * sa, ca + ky * ky * t, ky * kz * t - kx * sa),
        (kz * kx * t - ky * sa, kz * ky * t + kx * sa, ca + kz * kz * t),
    )
    rows = tuple(tuple(sum(rk[i][m] * r[m][j] for m in range(3)) for j in range(3)) for i in range(3))
    return cast("tuple[Vec, Vec, Vec]", rows)


def snap_upright(rows: tuple[Vec, Vec, Vec]) -> tuple[Vec, Vec, Vec]:
    """Make the body z axis exactly vertical (±), keeping the yaw."""
    xb, _, zb = columns(rows)
    sign = 1.0 if zb[2] >= 0 else -1.0
    z = (0.0, 0.0, sign)
    xh = unit((xb[0], xb[1], 0.0)) if math.hypot(xb[0], xb[1]) > 1e-9 else (1.0, 0.0, 0.0)
    y = cross(z, xh)
    return ((xh[0], y[0], z[0]), (xh[1], y[1], z[1]), (xh[2], y[2], z[2]))


def tip_pivot(p: PieceState, end: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """(pivot point, outward direction) on the ground for tipping over end ``end``: the xy
    of the lowest edge of that end face and the horizontal direction from the body to
    that end (unit)."""
    r = rot(p.quat_xyzw)
    xb, yb, zb = columns(r)
    hx, hy, hz = p.half_extents
    centre = (p.position[0] + end * hz * zb[0], p.position[1] + end * hz * zb[1], p.position[2] + end * hz * zb[2])
    # lowest edge of the end face: move along the lateral axes towards the ground
    sx = -1.0 if xb[2] > 0 else 1.0
    sy = -1.0 if yb[2] > 0 else 1.0
    if abs(xb[2]) >= abs(yb[2]):
        edge = (centre[0] + sx * hx * xb[0], centre[1] + sx * hx * xb[1])
    else:
        edge = (centre[0] + sy * hy * yb[0], centre[1] + sy * hy * yb[1])
    dx, dy = end * zb[0], end * zb[1]
    n = math.hypot(dx, dy)
    if n < 1e-9:  # standing on that end already
        return (centre[0], centre[1]), (1.0, 0.0)
    return edge, (dx / n, dy / n)


def tip_reach(
    pivot: Pt, d: Pt, half: float, width: float, obstacles: Mapping[str, Poly], tol: float
) -> tuple[float, str]:
    """How far (m, from the pivot along d) the square can reach before it hits an obstacle,
    and the obstacle's id (width if nothing blocks, '')."""
    e = (-d[1], d[0])
    px, py = pivot
    best, who = width, ""
    c_e = e[0] * px + e[1] * py
    c_d = d[0] * px + d[1] * py
    for oid, poly in obstacles.items():
        clipped = clip_halfplane(poly, e, c_e + half - tol)
        if not clipped:
            continue
        clipped = clip_halfplane(clipped, (-e[0], -e[1]), -(c_e - half + tol))
        if not clipped:
            continue
        ts = [d[0] * x + d[1] * y - c_d for x, y in clipped]
        lo, hi = min(ts), max(ts)
        if hi <= tol or lo >= width - tol:
            continue
        if lo < best:
            best, who = lo, oid
    return best, who


def tip_options(
    p: PieceState,
    pitch: Pitch,
    side: Side,
    obstacles: Mapping[str, Poly],
    params: JudgeParams,
    ends: tuple[int, ...] = (1, -1),
    pivots: Mapping[int, tuple[Pt, Pt]] | None = None,
) -> list[TipOption]:
    """The ways to raise kubb ``p`` into half ``side``, one per end in ``ends``.

    Args:
        p: the kubb as it lies.
        pitch, side: the field half that must contain the base.
        obstacles: id → ground footprint of every other piece in the way.
        params: tolerances.
        ends: which end faces to try.
        pivots: optional end → (pivot xy, outward unit direction) overriding the
            geometry (a leaning kubb's theoretical fallen position).
    """
    half = p.half_extents[0]
    width = 2 * half
    out = []
    for end in ends:
        pivot, d = pivots[end] if pivots and end in pivots else tip_pivot(p, end)
        reach, who = tip_reach(pivot, d, half, width, obstacles, params.block_tol)
        rows = snap_upright(standing_rotation(p, end))
        xb = columns(rows)[0]
        xd = unit((xb[0], xb[1], 0.0))
        ideal_c = (pivot[0] + d[0] * half, pivot[1] + d[1] * half)
        shift = min(0.0, reach - width)
        c = (ideal_c[0] + d[0] * shift, ideal_c[1] + d[1] * shift)
        base = square(c, (xd[0], xd[1]), half)
        ideal = square(ideal_c, (xd[0], xd[1]), half)
        pose = Pose((c[0], c[1], p.half_extents[2]), quat_from_rows(rows))
        out.append(
            TipOption(
                end,
                pose,
                base,
                ideal,
                who if shift < 0 else "",
                inside_half(base, pitch, side, params.line_tol),
                inside_half(ideal, pitch, side, params.line_tol),
            )
        )
    return out


def state_at(p: PieceState, pose: Pose) -> PieceState:
    position, quat = cast(Vec, tuple(pose.position)), cast("tuple[float, float, float, float]", tuple(pose.quat_xyzw))
    return replace(p, position=position, quat_xyzw=quat)

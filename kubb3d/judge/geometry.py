"""Small pure-Python geometry for the judge (no numpy in the hot path: a 20-piece
snapshot must be judged in well under a millisecond).

Vectors are 3-tuples of floats (m); polygons are lists of (x, y) points in
counter-clockwise order (m). Rotations are 3×3 row-major tuples (body → world).
"""

from __future__ import annotations

import math
from typing import Sequence

from kubb3d.equipment import kubbuteo_disk, kubbuteo_king
from kubb3d.snapshot import PieceState

Vec = tuple[float, float, float]
Pt = tuple[float, float]

UP: Vec = (0.0, 0.0, 1.0)


def rot(q: Sequence[float]) -> tuple[Vec, Vec, Vec]:
    """Rotation matrix rows of a unit ``quat_xyzw``."""
    x, y, z, w = q
    return (
        (1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)),
        (2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)),
        (2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)),
    )


def columns(r: tuple[Vec, Vec, Vec]) -> tuple[Vec, Vec, Vec]:
    """The body axes x̂, ŷ, ẑ in world coordinates (the columns of ``r``)."""
    return (r[0][0], r[1][0], r[2][0]), (r[0][1], r[1][1], r[2][1]), (r[0][2], r[1][2], r[2][2])


def apply(r: tuple[Vec, Vec, Vec], v: Sequence[float]) -> Vec:
    """r · v."""
    return (
        r[0][0] * v[0] + r[0][1] * v[1] + r[0][2] * v[2],
        r[1][0] * v[0] + r[1][1] * v[1] + r[1][2] * v[2],
        r[2][0] * v[0] + r[2][1] * v[1] + r[2][2] * v[2],
    )


def add(a: Sequence[float], b: Sequence[float]) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def sub(a: Sequence[float], b: Sequence[float]) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def scale(a: Sequence[float], s: float) -> Vec:
    return (a[0] * s, a[1] * s, a[2] * s)


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a: Sequence[float], b: Sequence[float]) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def norm(a: Sequence[float]) -> float:
    return math.sqrt(dot(a, a))


def unit(a: Sequence[float]) -> Vec:
    n = norm(a)
    if n == 0:
        raise ValueError("cannot normalise a zero vector")
    return (a[0] / n, a[1] / n, a[2] / n)


def quat_from_rows(r: tuple[Vec, Vec, Vec]) -> tuple[float, float, float, float]:
    """``quat_xyzw`` of a rotation matrix given by its rows (Shepperd's method)."""
    m00, m01, m02 = r[0]
    m10, m11, m12 = r[1]
    m20, m21, m22 = r[2]
    tr = m00 + m11 + m22
    if tr > 0:
        s = math.sqrt(tr + 1.0) * 2
        q = ((m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s)
    elif m00 > m11 and m00 > m22:
        s = math.sqrt(1.0 + m00 - m11 - m22) * 2
        q = (0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s)
    elif m11 > m22:
        s = math.sqrt(1.0 + m11 - m00 - m22) * 2
        q = ((m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s)
    else:
        s = math.sqrt(1.0 + m22 - m00 - m11) * 2
        q = ((m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s)
    n = math.sqrt(sum(c * c for c in q))
    if q[3] < 0:
        n = -n
    return (q[0] / n, q[1] / n, q[2] / n, q[3] / n)


def rows_from_columns(x: Vec, y: Vec, z: Vec) -> tuple[Vec, Vec, Vec]:
    """Rotation matrix (rows) whose columns are the body axes ``x``, ``y``, ``z``."""
    return ((x[0], y[0], z[0]), (x[1], y[1], z[1]), (x[2], y[2], z[2]))


def quat_yaw(yaw: float) -> tuple[float, float, float, float]:
    """``quat_xyzw`` of a rotation by ``yaw`` rad about the vertical."""
    return (0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2))


# ---------------------------------------------------------------- piece geometry
def corners(p: PieceState) -> list[Vec]:
    """The 8 corners of a piece's bounding box in the world, m."""
    r = rot(p.quat_xyzw)
    hx, hy, hz = p.half_extents
    return [
        add(p.position, apply(r, (sx * hx, sy * hy, sz * hz))) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)
    ]


def com(p: PieceState) -> Vec:
    """Centre of mass in the world, m."""
    if p.com_local == (0.0, 0.0, 0.0):
        return tuple(p.position)  # type: ignore[return-value]
    return add(p.position, apply(rot(p.quat_xyzw), p.com_local))


def end_face(p: PieceState, end: int) -> list[Vec]:
    """The 4 corners of the end face at body ``end·ẑ`` (end = ±1), in the world, in
    cyclic order, m."""
    r = rot(p.quat_xyzw)
    hx, hy, hz = p.half_extents
    return [add(p.position, apply(r, (sx * hx, sy * hy, end * hz))) for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1))]


def tipping_angle(p: PieceState) -> float:
    """Static tipping angle of an upright box piece over a face edge, rad: atan(half
    width / height of the centre of mass above the base). 25.0° for a 7×15 cm kubb
    (docs/physics.md); the king's lower centre of mass gives it a larger angle. A Kubbuteo
    kubb (shape ``disk``) tips over least sideways: 11.2° with its edges rounded as the
    physics has them (:attr:`kubb3d.equipment.DiskPiece.tipping_angle`; other directions:
    :meth:`kubb3d.equipment.DiskPiece.tipping_angle_towards`). The Kubbuteo king (shape ``mushroom``)
    tips over the rounded foot of its stem at 12.6° in every direction
    (:attr:`kubb3d.equipment.MushroomPiece.tipping_angle`)."""
    if p.shape == "disk":
        return kubbuteo_disk().tipping_angle
    if p.shape == "mushroom":
        return kubbuteo_king().tipping_angle
    hx, _, hz = p.half_extents
    return math.atan2(hx, hz + p.com_local[2])


# ---------------------------------------------------------------- 2-D polygons
def convex_hull(points: Sequence[Pt]) -> list[Pt]:
    """Counter-clockwise convex hull (Andrew's monotone chain); fewer than 3 distinct
    points give a degenerate hull (the points themselves)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def turn(o: Pt, a: Pt, b: Pt) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Pt] = []
    for pt in pts:
        while len(lower) >= 2 and turn(lower[-2], lower[-1], pt) <= 1e-15:
            lower.pop()
        lower.append(pt)
    upper: list[Pt] = []
    for pt in reversed(pts):
        while len(upper) >= 2 and turn(upper[-2], upper[-1], pt) <= 1e-15:
            upper.pop()
        upper.append(pt)
    return lower[:-1] + upper[:-1]


def inside_margin(pt: Pt, poly: Sequence[Pt]) -> float:
    """Signed distance-like margin of ``pt`` inside a convex CCW polygon, m: the
    smallest distance to an edge line, positive inside, negative outside (exact
    inside; outside it is the largest violation over the edge lines)."""
    n = len(poly)
    if n < 3:
        return -math.inf
    best = math.inf
    for i in range(n):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        length = math.hypot(ex, ey)
        if length == 0:
            continue
        d = (ex * (pt[1] - ay) - ey * (pt[0] - ax)) / length
        if d < best:
            best = d
    return best


def ccw(poly: Sequence[Pt]) -> list[Pt]:
    """The polygon in counter-clockwise order."""
    area = 0.0
    n = len(poly)
    for i in range(n):
        area += poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1]
    return list(poly) if area >= 0 else list(reversed(poly))


def footprint(p: PieceState) -> list[Pt]:
    """Ground projection of a piece's bounding box: CCW convex polygon, m."""
    return convex_hull([(c[0], c[1]) for c in corners(p)])


def overlap_depth(a: Sequence[Pt], b: Sequence[Pt]) -> float:
    """Separating-axis overlap of two convex polygons, m: > 0 is the smallest
    penetration depth, ≤ 0 means separated (or touching) by that distance."""
    best = math.inf
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            ax, ay = poly[i]
            bx, by = poly[(i + 1) % n]
            nx, ny = -(by - ay), bx - ax
            length = math.hypot(nx, ny)
            if length == 0:
                continue
            nx, ny = nx / length, ny / length
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            d = min(max(pa) - min(pb), max(pb) - min(pa))
            if d < best:
                best = d
    return best


def box_overlap_depth(
    pa: Sequence[float],
    qa: Sequence[float],
    ha: Sequence[float],
    pb: Sequence[float],
    qb: Sequence[float],
    hb: Sequence[float],
) -> float:
    """Separating-axis overlap of two boxes (centres ``p`` m, ``quat_xyzw`` ``q``, half sizes
    ``h`` m), m: > 0 is how far they cut into each other along the best separating axis
    (15 candidates: 3 + 3 face normals and 9 edge cross products), ≤ 0 means separated.
    Boxes whose bounding spheres are apart return the sphere gap at once."""
    d = sub(pb, pa)
    gap = norm(d) - norm(ha) - norm(hb)
    if gap > 0:
        return -gap
    axa, axb = columns(rot(qa)), columns(rot(qb))
    axes = list(axa) + list(axb) + [cross(u, v) for u in axa for v in axb]
    best = math.inf
    for n in axes:
        length = norm(n)
        if length < 1e-9:  # parallel edges: covered by the face normals
            continue
        n = scale(n, 1.0 / length)
        ra = sum(h * abs(dot(n, u)) for h, u in zip(ha, axa))
        rb = sum(h * abs(dot(n, v)) for h, v in zip(hb, axb))
        best = min(best, ra + rb - abs(dot(n, d)))
        if best <= 0:
            return best
    return best


def clip_halfplane(poly: Sequence[Pt], n: Pt, c: float) -> list[Pt]:
    """Part of a polygon where n·p ≤ c (Sutherland–Hodgman)."""
    out: list[Pt] = []
    m = len(poly)
    for i in range(m):
        p, q = poly[i], poly[(i + 1) % m]
        dp = n[0] * p[0] + n[1] * p[1] - c
        dq = n[0] * q[0] + n[1] * q[1] - c
        if dp <= 0:
            out.append(p)
        if (dp < 0 < dq) or (dq < 0 < dp):
            t = dp / (dp - dq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def square(centre: Pt, d: Pt, half: float) -> list[Pt]:
    """A square of half side ``half`` centred on ``centre`` with one side direction
    ``d`` (unit, 2-D), CCW."""
    ex, ey = -d[1], d[0]
    cx, cy = centre
    return [
        (cx + half * (d[0] + ex), cy + half * (d[1] + ey)),
        (cx + half * (-d[0] + ex), cy + half * (-d[1] + ey)),
        (cx + half * (-d[0] - ex), cy + half * (-d[1] - ey)),
        (cx + half * (d[0] - ex), cy + half * (d[1] - ey)),
    ]

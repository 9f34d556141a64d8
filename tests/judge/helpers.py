"""Hand-built snapshots for the judge tests (no physics)."""

from __future__ import annotations

import math

from kubb3d.judge.geometry import apply, quat_from_rows, rot
from kubb3d.snapshot import GROUND_ID, Contact, PieceState, Snapshot

HX, HZ = 0.035, 0.075  # standard kubb 7×7×15 cm
MASS = 0.4557  # kg, 620 kg/m³
G = 9.81


def rows_tilt(direction: float, tilt: float):
    """Yaw to ``direction`` then tilt the long axis by ``tilt`` towards it (rad)."""
    c, s = math.cos(direction), math.sin(direction)
    yaw = ((c, -s, 0.0), (s, c, 0.0), (0.0, 0.0, 1.0))
    ry = ((math.cos(tilt), 0.0, math.sin(tilt)), (0.0, 1.0, 0.0), (-math.sin(tilt), 0.0, math.cos(tilt)))
    return tuple(tuple(sum(yaw[i][k] * ry[k][j] for k in range(3)) for j in range(3)) for i in range(3))


def kubb(
    pid: str,
    x: float,
    y: float,
    *,
    tilt_deg: float = 0.0,
    toward_deg: float = 0.0,
    lying_yaw_deg: float | None = None,
    side: str = "B",
    max_tilt_deg: float | None = None,
    z: float | None = None,
) -> PieceState:
    """A standard kubb. Upright (optionally tilted on the base edge towards ``toward_deg``)
    or lying flat with its axis along ``lying_yaw_deg``."""
    if lying_yaw_deg is not None:
        rows = rows_tilt(math.radians(lying_yaw_deg), math.pi / 2)
        pos = (x, y, HX if z is None else z)
    else:
        d = math.radians(toward_deg)
        t = math.radians(tilt_deg)
        rows = rows_tilt(d, t)
        edge = (x + HX * math.cos(d), y + HX * math.sin(d), 0.0)
        off = apply(rows, (HX, 0.0, -HZ))
        pos = (edge[0] - off[0], edge[1] - off[1], edge[2] - off[2]) if z is None else (x, y, z)
    q = quat_from_rows(rows)
    mt = math.radians(max_tilt_deg) if max_tilt_deg is not None else math.acos(max(-1, min(1, rows[2][2])))
    return PieceState(pid, "kubb", "box", (HX, HX, HZ), pos, q, MASS, max_tilt=mt, side=side)


def king(x: float = 0.0, y: float = 0.0, *, lying: bool = False) -> PieceState:
    he = (0.045, 0.045, 0.15)
    if lying:
        rows = rows_tilt(0.0, math.pi / 2)
        return PieceState(
            "king", "king", "box", he, (x, y, 0.045), quat_from_rows(rows), 1.5, (0.0, 0.0, -0.01), max_tilt=math.pi / 2
        )
    return PieceState("king", "king", "box", he, (x, y, 0.15), (0.0, 0.0, 0.0, 1.0), 1.5, (0.0, 0.0, -0.01))


def ground_contacts(p: PieceState, force: float | None = None) -> list[Contact]:
    """Ground contacts at every bounding-box corner touching z ≈ 0, sharing the weight."""
    r = rot(p.quat_xyzw)
    hx, hy, hz = p.half_extents
    pts = []
    for sx in (-1, 1):
        for sy in (-1, 1):
            for sz in (-1, 1):
                c = apply(r, (sx * hx, sy * hy, sz * hz))
                c = (c[0] + p.position[0], c[1] + p.position[1], c[2] + p.position[2])
                if c[2] < 2e-3:
                    pts.append(c)
    f = (p.mass * G if force is None else force) / max(1, len(pts))
    return [Contact(p.id, GROUND_ID, c, (c[0], c[1], 0.0), (0.0, 0.0, 1.0), f) for c in pts]


def touch(a: str, b: str, point, normal_on_b, force: float) -> Contact:
    """A contact between two pieces; ``normal_on_b`` points from b towards a."""
    return Contact(a, b, tuple(point), tuple(point), tuple(normal_on_b), force)


def snap(*pieces: PieceState, contacts=(), auto_ground: bool = True, pitch=None) -> Snapshot:
    """A snapshot; ground contacts are added for every piece unless ``auto_ground`` is False."""
    from kubb3d.pitch import Pitch

    cs = list(contacts)
    if auto_ground:
        for p in pieces:
            cs += ground_contacts(p)
    return Snapshot(0.0, {p.id: p for p in pieces}, tuple(cs), pitch or Pitch(8.0, 5.0), G)


def leaning_pair(tilt_deg: float = 30.0, support_force: float = 0.24):
    """S standing at x=1, L leaning on it from −x at ``tilt_deg`` (top edge against S's face)."""
    s = kubb("S", 1.0, 0.0)
    t = math.radians(tilt_deg)
    reach = 2 * HZ * math.sin(t) + 2 * HX * math.cos(t)  # foot edge to top edge, horizontally
    # L's pivot edge is on its +x side; its top +x edge touches S's face at x = 1 - HX
    pivot_x = 1.0 - HX - 2 * HZ * math.sin(t)
    l = kubb("L", pivot_x - HX, 0.0, tilt_deg=tilt_deg, toward_deg=0.0)
    top = (1.0 - HX, 0.0, 2 * HZ * math.cos(t))
    c = touch("L", "S", top, (-1.0, 0.0, 0.0), support_force)
    del reach
    return s, l, c

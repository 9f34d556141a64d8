"""Hand-built snapshots for the judge tests (no physics), and the transforms of the pitch that
the metamorphic tests apply to snapshots and contexts."""

from __future__ import annotations

import math
import numbers
from dataclasses import replace
from typing import Any, Mapping

import numpy as np

from kubb3d.judge.geometry import apply, quat_from_rows, rot
from kubb3d.judge.messages import message_data
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


# ---------------------------------------------------------------------- transforms of the pitch
# The metamorphic relations of the judge (tests/judge/test_metamorphic.py on hand-built
# snapshots, tests/judge/test_play_metamorphic.py on positions of simulated play).

Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]
MIRROR_Y: Matrix = ((1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, 1.0))
MIRROR_X: Matrix = ((-1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
HALF_TURN: Matrix = ((-1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, 1.0))
IDENTITY: Matrix = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
BODY_FLIP: Matrix = ((1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, 1.0))
"""A kubb, the king, a baton, a stake (and a Kubbuteo disk, whose axis is its body x) are
symmetric under their body y -> -y: composing a mirror of the world with this flip of the body
keeps every orientation a proper rotation."""
BODY_FLIP_X: Matrix = ((-1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
"""The other choice for a kubb, the king, a baton or a stake (not a Kubbuteo disk): body x -> -x.
The two differ by a half turn of the piece about its long axis, which maps it onto itself; a
judge that rules alike under both does not read which of a box's equal faces is which."""


def _mat(a: Matrix, b: Matrix) -> Matrix:
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3))  # type: ignore[return-value]


def _vec(a: Matrix, v) -> tuple[float, float, float]:
    return (
        a[0][0] * v[0] + a[0][1] * v[1] + a[0][2] * v[2],
        a[1][0] * v[0] + a[1][1] * v[1] + a[1][2] * v[2],
        a[2][0] * v[0] + a[2][1] * v[1] + a[2][2] * v[2],
    )


def _det(t: Matrix) -> float:
    return t[0][0] * t[1][1] - t[0][1] * t[1][0]


class Transform:
    """A rigid motion of the pitch (``t``, a 3×3 orthogonal matrix fixing z, then a shift in
    xy) with a renaming of pieces (``names``) and sides (``sides``).

    A mirror (``det t = −1``, e.g. y -> −y) is not a rotation: applied to a piece's rotation
    matrix R it gives ``t R``, whose determinant is −1, no quaternion. Every piece is symmetric
    under its own body y -> −y (``body_flip``, F, by default :data:`BODY_FLIP`), so the
    mirrored piece is the same solid as the one at the proper rotation ``t R F``: its body x
    and z axes are the mirrored ones and its body y axis is turned back. The centre of mass in
    the body frame goes to ``F com_local`` (the same point of the world, mirrored), and an
    angular velocity, an axial vector, to ``det(t) · t ω``. A proper motion (``det t = 1``)
    is applied as it is: ``t R``.

    Corner stakes and centre-line stakes are named by where they stand (``stake-A-left`` at
    x = −L/2, y > 0, :mod:`kubb3d.pitch`): a transform renames them to the stake standing at
    the image (only for a ``t`` that maps the axes onto themselves). Kubbs are named by whose
    they are: ``swap_sides`` swaps their letters, ``names`` renames any piece.
    """

    def __init__(
        self,
        t: Matrix = IDENTITY,
        shift: tuple[float, float] = (0.0, 0.0),
        names: Mapping[str, str] | None = None,
        swap_sides: bool = False,
        body_flip: Matrix = BODY_FLIP,
    ) -> None:
        self.t, self.shift, self.names, self.swap_sides = t, shift, dict(names or {}), swap_sides
        self.body_flip = body_flip

    def point(self, p) -> tuple[float, float, float]:
        x, y, z = _vec(self.t, p)
        return (x + self.shift[0], y + self.shift[1], z)

    def quat(self, q) -> tuple[float, float, float, float]:
        rows = _mat(self.t, rot(q))
        if _det(self.t) < 0:
            rows = _mat(rows, self.body_flip)
        return quat_from_rows(rows)

    def _stake(self, pid: str) -> str:
        t = self.t
        if t[0][1] or t[1][0] or self.shift != (0.0, 0.0):
            raise ValueError(f"cannot rename {pid}: the transform does not map the stakes onto stakes")
        parts = pid.split("-")  # stake, A|B|mid, left|right
        if t[0][0] < 0 and parts[1] in "AB":
            parts[1] = "B" if parts[1] == "A" else "A"
        if t[1][1] < 0:
            parts[2] = "right" if parts[2] == "left" else "left"
        return "-".join(parts)

    def name(self, pid: str) -> str:
        if pid in self.names:
            return self.names[pid]
        if pid.startswith("stake-"):
            return self._stake(pid)
        if self.swap_sides and len(pid) == 2 and pid[0] in "AB" and pid[1].isdigit():
            return ("B" if pid[0] == "A" else "A") + pid[1]
        return pid

    def side(self, side):
        if side is None or not self.swap_sides:
            return side
        return "B" if side == "A" else "A"

    def pose(self, pose):
        return type(pose)(self.point(pose.position), self.quat(pose.quat_xyzw))

    def piece(self, p: PieceState) -> PieceState:
        sign = _det(self.t)
        w = _vec(self.t, p.angular_velocity)
        com = _vec(self.body_flip, p.com_local) if sign < 0 else p.com_local
        return replace(
            p,
            id=self.name(p.id),
            position=self.point(p.position),
            quat_xyzw=self.quat(p.quat_xyzw),
            com_local=com,
            linear_velocity=_vec(self.t, p.linear_velocity),
            angular_velocity=(sign * w[0], sign * w[1], sign * w[2]),
            side=self.side(p.side),
        )

    def contact(self, c: Contact) -> Contact:
        return Contact(
            self.name(c.a),
            self.name(c.b),
            self.point(c.position_on_a),
            self.point(c.position_on_b),
            _vec(self.t, c.normal_on_b),
            c.normal_force,
            c.distance,
        )

    def snapshot(self, s: Snapshot) -> Snapshot:
        pieces = {self.name(pid): self.piece(p) for pid, p in s.pieces.items()}
        return Snapshot(s.time, pieces, tuple(self.contact(c) for c in s.contacts), s.pitch, s.gravity)

    def ids(self, ids) -> frozenset[str]:
        return frozenset(self.name(i) for i in ids)

    def poses(self, poses) -> dict:
        return {self.name(k): self.pose(v) for k, v in poses.items()}

    def throw_context(self, ctx):
        """Every field of a :class:`kubb3d.judge.ThrowContext` that names a piece or a side
        or holds a pose; the rest (ruleset, legality, fouls, options) as it is."""
        return replace(
            ctx,
            thrower=self.side(ctx.thrower),
            round_start=self.poses(ctx.round_start),
            field_kubbs=self.ids(ctx.field_kubbs),
            already_felled=self.ids(ctx.already_felled),
            pending_raise=self.ids(ctx.pending_raise),
            accidents=self.ids(ctx.accidents),
            own_standing=self.poses(ctx.own_standing),
            fall_order=tuple(self.name(k) for k in ctx.fall_order),
        )

    def inkast_context(self, ctx):
        """Every field of a :class:`kubb3d.judge.InkastContext` that names a piece or a side
        or holds a pose; the rest (ruleset, attempt, ``prefer``: towards the raising side's
        own baseline or the centre line, options) as it is."""
        return replace(
            ctx,
            inkasting_side=self.side(ctx.inkasting_side),
            thrower=self.side(ctx.thrower),
            inkasted=tuple(self.name(k) for k in ctx.inkasted),
            before=self.poses(ctx.before),
            awaiting=self.poses(ctx.awaiting),
        )

    def context(self, ctx):
        """A throw's or an inkast's context (:meth:`throw_context`, :meth:`inkast_context`)."""
        return self.throw_context(ctx) if hasattr(ctx, "round_start") else self.inkast_context(ctx)


def ruling_key(r) -> tuple:
    """What a ruling says besides its piece, spot and reason."""
    return (r.status, r.consequence, r.rules, r.valid, r.hand_check)


def assert_rulings_follow(before, after, transform: Transform) -> None:
    """Every ruling of ``before`` has its image in ``after``: the same status, consequence,
    citations and validity, and a raised pose at the transformed spot (±0.1 mm)."""
    rulings_after = {r.piece: r for r in after.rulings}
    renamed = sorted(transform.name(r.piece) for r in before.rulings)
    assert renamed == sorted(rulings_after), ("pieces ruled on", renamed, sorted(rulings_after))
    for r in before.rulings:
        image = rulings_after[transform.name(r.piece)]
        assert ruling_key(image) == ruling_key(r), (r.piece, r.reason, image.reason)
        assert (image.raised_pose is None) == (r.raised_pose is None), r.piece
        if r.raised_pose is not None and image.raised_pose is not None:
            want = transform.point(r.raised_pose.position)
            got = image.raised_pose.position[:2]
            assert math.dist(want[:2], got) < 1e-4, (r.piece, "raised at", got, "not at the image", want[:2])
    for name in ("felled", "felled_total", "raise_again", "raise_now"):
        if hasattr(before, name):
            assert transform.ids(getattr(before, name)) == getattr(after, name), (name, getattr(after, name))
    assert transform.side(before.winner) == after.winner, ("winner", before.winner, after.winner)
    assert transform.side(before.loser) == after.loser, ("loser", before.loser, after.loser)


SPOT_M = 1e-4
"""How far a raised kubb's corner (or a spot in a reason) may be from its image, m."""

def _corners(p: PieceState, position, quat) -> np.ndarray:
    return replace(p, position=tuple(position), quat_xyzw=tuple(quat)).corners()


def _same_corners(want: np.ndarray, got: np.ndarray) -> float:
    """The largest distance of a wanted corner to the nearest corner got, m."""
    return float(max(np.min(np.linalg.norm(got - w, axis=1)) for w in want))


def assert_raised_poses_follow(before, after, transform: Transform, pieces: dict[str, PieceState]) -> None:
    """Every raised pose (a ruling's, and an inkast's ``raised``) is the image of the first one:
    every corner of the raised piece within :data:`SPOT_M` of a corner of the image box."""

    def poses(j) -> dict[str, Any]:
        out = {f"ruling {r.piece}": (r.piece, r.raised_pose) for r in j.rulings if r.raised_pose is not None}
        out |= {f"raised {k}": (k, p) for k, p in getattr(j, "raised", {}).items()}
        return out

    mine, theirs = poses(before), poses(after)
    renamed = {k.split()[0] + " " + transform.name(pid): (pid, p) for k, (pid, p) in mine.items()}
    assert sorted(renamed) == sorted(theirs), (sorted(renamed), sorted(theirs))
    for key, (pid, pose) in renamed.items():
        piece = pieces[pid]
        want = transform.point(pose.position), transform.quat(pose.quat_xyzw)
        image = theirs[key][1]
        off = _same_corners(_corners(piece, *want), _corners(piece, image.position, image.quat_xyzw))
        assert off < SPOT_M, f"{key}: raised {off * 1000:.3f} mm from the image of {pid}'s pose"


BATON_WORDS = ("baton {n}", "Baton {n}")


def _follows(a: Any, b: Any, transform: Transform, where: str) -> None:
    """``b`` (a message's data, :func:`message_data`) is ``a`` transformed."""
    if isinstance(a, dict) and a.get("id") in BATON_WORDS:
        # a baton is named by its number (messages.piece_name: "baton 3")
        assert isinstance(b, dict) and b.get("id") == a["id"], (where, a, b)
        want = transform.name(f"baton{a['params']['n']}")
        assert f"baton{b['params']['n']}" == want, (where, a, b)
    elif isinstance(a, dict):
        assert isinstance(b, dict), (where, a, b)
        for key in ("id", "ctx", "plural", "n"):
            assert a.get(key) == b.get(key), (where, key, a.get(key), b.get(key))
        pa, pb = a.get("params", {}), b.get("params", {})
        assert sorted(pa) == sorted(pb), (where, sorted(pa), sorted(pb))
        names = set(pa)
        if {"x", "y"} <= names and all(isinstance(pa[k], numbers.Real) for k in "xy"):
            want = transform.point((pa["x"], pa["y"], 0.0))
            assert math.dist(want[:2], (pb["x"], pb["y"])) < SPOT_M, (where, "spot", want[:2], pb["x"], pb["y"])
            names -= {"x", "y"}
        for name in sorted(names):
            _follows(pa[name], pb[name], transform, f"{where}.{name}")
    elif isinstance(a, str):
        # a side, a piece id, or piece ids joined by commas (messages.ids of plain ids), in any
        # order: the judge lists some by id, which a renaming reorders
        if a in ("A", "B"):
            assert transform.side(a) == b, (where, a, b)
        else:
            assert sorted(transform.name(i) for i in a.split(", ")) == sorted(b.split(", ")), (where, a, b)
    elif isinstance(a, bool) or isinstance(a, numbers.Integral):
        assert a == b, (where, a, b)
    else:
        assert isinstance(b, numbers.Real) and abs(a - b) <= 1e-6 * max(1.0, abs(a)), (where, a, b)


def assert_reasons_follow(before, after, transform: Transform) -> None:
    """Every reason of ``after`` is the reason of the same ruling of ``before`` with every piece
    and side renamed and every spot moved (±0.1 mm; numbers ±1e-6 relative)."""
    theirs = {r.piece: r for r in after.rulings}
    for r in before.rulings:
        image = theirs[transform.name(r.piece)]
        a, b = message_data(r.reason), message_data(image.reason)
        assert a is not None and b is not None, ("reason not a message", r.reason, image.reason)
        try:
            _follows(a, b, transform, r.piece)
        except AssertionError as exc:
            raise AssertionError(f"{exc}: {r.reason!r} -> {image.reason!r}") from None


def assert_judgement_follows(before, after, transform: Transform, pieces: dict[str, PieceState]) -> None:
    """The whole judgement ``after`` is the image of ``before`` under ``transform``."""
    assert_rulings_follow(before, after, transform)
    assert_raised_poses_follow(before, after, transform, pieces)
    for name in ("warned", "penalty"):
        assert getattr(before, name, None) == getattr(after, name, None), name
    assert_reasons_follow(before, after, transform)

"""The judge's input: a frozen, PyBullet-free picture of the world at one instant.

Everything is plain data in SI units and the pitch frame of the README's "The model" (x along
the pitch from side A to side B, z up). Quaternions are ``quat_xyzw``
(PyBullet's order). A snapshot can be made by :meth:`kubb3d.physics.world.World.snapshot`
or built by hand (tests, scenario files), and round-trips through
:meth:`Snapshot.to_dict` / :meth:`Snapshot.from_dict` (JSON-friendly).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Iterator, Literal, Mapping

import numpy as np
from kubb3d.linear import mat_vec, rows_by

from kubb3d.pitch import Pitch, Side

GROUND_ID = "ground"
"""The id used for the ground in contacts."""

PieceKind = Literal["kubb", "king", "baton", "stake"]
Shape = Literal["box", "cylinder", "disk", "mushroom"]

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]


def quat_to_matrix(q: Quat) -> np.ndarray:
    """Rotation matrix (3, 3) of a unit quaternion in xyzw order."""
    x, y, z, w = q
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def leans(q: Quat, up: Vec3 = (0.0, 0.0, 1.0)) -> tuple[float, float]:
    """(sideways, in plane) lean of a piece at ``q`` away from the world direction ``up``, rad:
    with (x, y, z) = ``up`` seen in the piece's frame (R(q)ᵀ up), ``atan2(|x|, z)`` and
    ``atan2(|y|, z)`` (:attr:`PieceState.max_lean`; a Kubbuteo kubb's x is its disk axis).
    Plain floats: the world calls it at every sample."""
    x, y, z, w = q
    vx, vy, vz = up
    # rotate by the conjugate quaternion: v + 2 u × (u × v − w v) with u = (x, y, z)
    cx, cy, cz = y * vz - z * vy - w * vx, z * vx - x * vz - w * vy, x * vy - y * vx - w * vz
    bx, by, bz = vx + 2 * (y * cz - z * cy), vy + 2 * (z * cx - x * cz), vz + 2 * (x * cy - y * cx)
    return (math.atan2(abs(bx), bz), math.atan2(abs(by), bz))


def body_axis(q: Quat) -> np.ndarray:
    """The piece's long axis (body +z) in world coordinates, shape (3,)."""
    x, y, z, w = q
    return np.array((2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)))


def tilt_from_vertical(q: Quat) -> float:
    """Angle between the piece's long axis and the world vertical, rad in [0, π]."""
    x, y, z, w = q
    cos_t = 1 - 2 * (x * x + y * y)
    return math.acos(max(-1.0, min(1.0, cos_t)))


@dataclass(frozen=True)
class PieceState:
    """One piece at one instant.

    Attributes:
        id: piece id (``A1``, ``king``, ``baton3``, ``stake-A-left`` …).
        kind: ``kubb`` | ``king`` | ``baton`` | ``stake``.
        shape: ``box`` (kubb, king), ``cylinder`` (baton, stake), ``disk`` (Kubbuteo kubb) or
            ``mushroom`` (Kubbuteo king).
        half_extents: box half sizes (hx, hy, hz), m; for a cylinder (r, r, L/2).
        position: centre of the piece's bounding box, m, shape (3,).
        quat_xyzw: orientation.
        mass: kg (0 for fixed pieces such as stakes).
        com_local: centre of mass in the piece frame, m (king: below the box centre).
        linear_velocity: m/s.
        angular_velocity: rad/s, world frame.
        max_tilt: the piece's history this round (DM §5 „Überschlag“: past π/2 it turned
            over; KT: past its tipping angle): the largest angle, rad in [0, π], between its
            long axis and the upright direction of its last set-up (the start of the throwing
            round, or later: raised, placed, stood up again): the world vertical on the end it
            then stood on.
            A kubb set up upright on either end starts at 0, one set up tilted at its tilt;
            a somersault reaches π.
        side: the side whose half the piece belongs to for kubbs (``A``/``B``), else None.
        max_lean: the same history split by direction, or None where it was not recorded
            (the world records it for Kubbuteo kubbs only): (sideways, in plane), rad in
            [0, π], the largest lean towards the piece's own ±x sides and towards its ±y
            sides: with (x, y, z) the upright direction of its last set-up seen in the
            piece's frame, ``atan2(|x|, z)`` and ``atan2(|y|, z)`` (its spin about its long
            axis does not change them). For a Kubbuteo kubb, whose tipping angle depends on
            the direction, sideways is towards a face and in plane along its rim
            (:meth:`kubb3d.equipment.DiskPiece.tipping_angle_towards`).
    """

    id: str
    kind: PieceKind
    shape: Shape
    half_extents: Vec3
    position: Vec3
    quat_xyzw: Quat = (0.0, 0.0, 0.0, 1.0)
    mass: float = 0.0
    com_local: Vec3 = (0.0, 0.0, 0.0)
    linear_velocity: Vec3 = (0.0, 0.0, 0.0)
    angular_velocity: Vec3 = (0.0, 0.0, 0.0)
    max_tilt: float = 0.0
    side: Side | None = None
    max_lean: tuple[float, float] | None = None

    @property
    def tilt(self) -> float:
        """Current tilt of the long axis from vertical, rad."""
        return tilt_from_vertical(self.quat_xyzw)

    @property
    def rotation(self) -> np.ndarray:
        """Rotation matrix (3, 3), body → world."""
        return quat_to_matrix(self.quat_xyzw)

    @property
    def com(self) -> np.ndarray:
        """Centre of mass in the world, m, shape (3,)."""
        com: np.ndarray = np.asarray(self.position) + mat_vec(self.rotation, self.com_local)
        return com

    def corners(self) -> np.ndarray:
        """The 8 corners of the bounding box in the world, m, shape (8, 3)."""
        hx, hy, hz = self.half_extents
        signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], dtype=float)
        out: np.ndarray = np.asarray(self.position) + rows_by(signs * (hx, hy, hz), self.rotation.T)
        return out


def _piece_dict(p: PieceState) -> dict[str, Any]:
    """A piece as a JSON-friendly dict; an unrecorded ``max_lean`` is left out (older files)."""
    d = asdict(p)
    if d["max_lean"] is None:
        del d["max_lean"]
    return d


@dataclass(frozen=True)
class Contact:
    """One contact point between two bodies (``b`` may be :data:`GROUND_ID`).

    Attributes:
        a, b: piece ids.
        position_on_a, position_on_b: contact points on each body, world frame, m.
        normal_on_b: unit contact normal pointing from ``b`` towards ``a``.
        normal_force: N, ≥ 0 (from the last physics step; in a snapshot taken right after
            ``World.settle_forces``, the mean over its window: docs/physics.md "The contact
            forces the judge reads").
        distance: signed separation, m (negative: penetration).
    """

    a: str
    b: str
    position_on_a: Vec3
    position_on_b: Vec3
    normal_on_b: Vec3
    normal_force: float
    distance: float = 0.0

    def flipped(self) -> "Contact":
        """The same contact seen from ``b``."""
        n = self.normal_on_b
        flipped = (-n[0], -n[1], -n[2])
        a, b = self.a, self.b
        return Contact(b, a, self.position_on_b, self.position_on_a, flipped, self.normal_force, self.distance)


@dataclass(frozen=True)
class Snapshot:
    """The world at one instant: pieces, contacts and pitch.

    Attributes:
        time: simulated time, s.
        pieces: piece id → :class:`PieceState`.
        contacts: every contact point between two pieces or a piece and the ground.
        pitch: the pitch geometry.
        gravity: m/s² (positive number, acting along −z).
    """

    time: float
    pieces: Mapping[str, PieceState]
    contacts: tuple[Contact, ...] = ()
    pitch: Pitch = field(default_factory=Pitch)
    gravity: float = 9.81

    def __getitem__(self, piece_id: str) -> PieceState:
        return self.pieces[piece_id]

    def contacts_of(self, piece_id: str) -> Iterator[Contact]:
        """Every contact involving ``piece_id``, oriented so that ``a == piece_id``."""
        for c in self.contacts:
            if c.a == piece_id:
                yield c
            elif c.b == piece_id:
                yield c.flipped()

    def touching(self, piece_id: str) -> set[str]:
        """Ids of the bodies in contact with ``piece_id`` (may include :data:`GROUND_ID`)."""
        return {c.b for c in self.contacts_of(piece_id)}

    def of_kind(self, *kinds: str) -> list[PieceState]:
        """Pieces of the given kinds, in id order."""
        return [p for _, p in sorted(self.pieces.items()) if p.kind in kinds]

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly dict."""
        return {
            "time": self.time,
            "pitch": {"length": self.pitch.length, "width": self.pitch.width},
            "gravity": self.gravity,
            "pieces": [_piece_dict(p) for _, p in sorted(self.pieces.items())],
            "contacts": [asdict(c) for c in self.contacts],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Snapshot":
        """Inverse of :meth:`to_dict`."""

        def tup(d: dict[str, Any]) -> dict[str, Any]:
            return {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()}

        pieces = {p["id"]: PieceState(**tup(p)) for p in data["pieces"]}
        contacts = tuple(Contact(**tup(c)) for c in data.get("contacts", ()))
        pitch = Pitch(**data.get("pitch", {}))
        return cls(float(data["time"]), pieces, contacts, pitch, float(data.get("gravity", 9.81)))

"""The ground bodies: the flat ground (a static box), an uneven heightfield, a table-top board,
and the height of the surface under a point.

Why a box and not PyBullet's plane, and why the heightfield's contacts are processed only once
they touch: docs/physics.md "Ground contact". On terrain no piece touches the heightfield: each has
a contact plane of its own fitted to it (:class:`ContactPlanes`; docs/physics.md "Contact planes
on terrain").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from kubb3d.linear import dot3, plane_fit, rows_by

from kubb3d.equipment import EquipmentSet
from kubb3d.model_files import model_path
from kubb3d.physics._pybullet import pb
from kubb3d.physics.ground import Ground, Materials
from kubb3d.physics.poses import BOX_CORNERS, Quat, lowest_corner, rotation, support_margin
from kubb3d.pitch import Pitch
from kubb3d.snapshot import PieceKind

FLAT_GROUND_HALF_EXTENTS = (60.0, 60.0, 1.0)
"""m: the flat ground is a static box 120 × 120 × 2 m with its top face at z = 0, created with
maximal coordinates (a rigid-body contact, with split impulse) rather than PyBullet's plane
(docs/physics.md "Ground contact")."""

TERRAIN_CONTACT_PROCESSING = 5e-6
"""m: a terrain heightfield's contacts reach the solver only once they are this close (PyBullet's
``contactProcessingThreshold`` of the heightfield body; Bullet's default processes every contact
within the 2 mm breaking threshold, and the triangles' edges ahead of a sliding piece then braked
it: docs/physics.md "Ground contact"). Not 0: with the whole penetration taken out at the fine step
(:data:`TERRAIN_QUIET_ERP`), a resting piece pushed out at one end sank at the other, whose contact
was not processed yet, and rocked."""

TERRAIN_QUIET_ERP = 0.08
"""The share of a penetration a terrain heightfield's contacts take out per step at steps longer
than the world's fine step (Bullet's own value). At the fine step they take out all of it, as the
flat ground's do (:data:`kubb3d.physics.ground.RIGID_CONTACT_STIFFNESS`), so that a drop rebounds to
e²·h wherever in a step it strikes; at the quiet step, where nothing moves fast, taking out all of
it made pieces resting on 1 cm terrain rock (docs/physics.md "Ground contact")."""

TERRAIN_APRON = 5.0
"""m: a terrain heightfield reaches this far beyond the pitch on every side, so that a piece
knocked past a baseline does not fall off its edge (docs/physics.md "Ground contact")."""

TERRAIN_RESOLUTION = 0.1
"""m: the heightfield's grid spacing."""

CONTACT_PLANE_HALF = (0.5, 0.5, 0.25)
"""m: half extents of a piece's contact box on terrain (:class:`ContactPlanes`; its top face is the
plane the piece touches). Half a metre on each side: it is moved whenever its piece has moved
:data:`CONTACT_PLANE_MOVE`, so the piece never reaches its edge."""

CONTACT_PLANE_MOVE = 1e-4
"""m: a piece's contact plane is fitted again once the piece has moved this far horizontally from
where it was last fitted (its slope changes by the terrain's curvature times this, under 10⁻⁴ rad
on 1 cm terrain)."""

CONTACT_PLANE_MIN_HALF = 0.01
"""m: the least half side of a contact plane's fit (a baton standing on its end)."""

CONTACT_PLANE_CLEAR = 0.05
"""m: a piece whose every point is this far above the terrain's highest point cannot touch its
contact plane before its next step, so its plane is not fitted again while it flies there."""

_FIT_GRID = np.array([(a, b) for a in np.linspace(-1.0, 1.0, 7) for b in np.linspace(-1.0, 1.0, 7)])
"""The 7 × 7 points of a contact plane's fit, in units of the footprint's half sides."""
_FIT_CENTRE = 24
"""The index of the fit's centre point (0, 0) in :data:`_FIT_GRID`."""
assert tuple(_FIT_GRID[_FIT_CENTRE]) == (0.0, 0.0)
_FIT_NORM = float(np.sum(_FIT_GRID[:, 0] ** 2))
"""Σ a² over the fit's points (the same for b): on a symmetric grid the slopes of the
least-squares plane are Σ a·z / Σ a² and Σ b·z / Σ b²."""

PIECE_KINDS: dict[str, PieceKind] = {"kubb": "kubb", "king": "king", "baton": "baton", "stake": "stake"}
"""The kinds of piece a world holds, by name."""


@dataclass
class Terrain:
    """Uneven ground: a smooth random heightfield, with a levelled pad under each set-up spot
    (:func:`level_setup_spots`).

    Attributes:
        amplitude: standard deviation of the height, m (e.g. 0.01 for 1 cm bumps).
        wavelength: typical distance between bumps, m.
        seed: the heightfield's seed (it is part of the scene, not of a throw).
        level_spots: give every set-up spot a plane pad (:func:`level_setup_spots`; off: the
            bare heightfield, for measuring the ground itself).
    """

    amplitude: float
    wavelength: float = 1.0
    seed: int = 0
    level_spots: bool = True

    def heights(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Height z(x, y), m, for a grid (len(ys), len(xs)): a sum of 24 random plane waves."""
        rng = np.random.default_rng(self.seed)
        n = 24
        k = 2 * np.pi / self.wavelength * rng.uniform(0.5, 1.5, n)
        ang = rng.uniform(0, 2 * np.pi, n)
        phase = rng.uniform(0, 2 * np.pi, n)
        X, Y = np.meshgrid(xs, ys)
        z = np.zeros_like(X)
        for i in range(n):
            z += np.cos(k[i] * (np.cos(ang[i]) * X + np.sin(ang[i]) * Y) + phase[i])
        result: np.ndarray = self.amplitude * z * math.sqrt(2.0 / n)
        return result


SETUP_PAD_MAX_SLOPE = math.radians(12.0)
"""rad: the steepest a set-up spot's levelled pad on terrain may be (:func:`level_setup_spots`):
two thirds of the king's tipping angle (18.4°), so that the king stands with a margin; 99 % of the
spots of 1.5 cm terrain are flatter (docs/physics.md "Setting up on uneven ground")."""


def setup_spots(pitch: Pitch, equipment: EquipmentSet) -> list[tuple[str, float, float]]:
    """(kind, x, y) of every piece of the standard set-up (DM §2): the ten baseline kubbs and the
    king."""
    spots = [("kubb", x, y) for side in ("A", "B") for x, y in pitch.baseline_kubb_positions(side).values()]
    return [*spots, ("king", *pitch.king_position)]


def level_setup_spots(
    heights: np.ndarray, xs: np.ndarray, ys: np.ndarray, pitch: Pitch, equipment: EquipmentSet
) -> np.ndarray:
    """The heightfield ``heights`` (len(ys), len(xs)) with a plane pad under each set-up spot
    (:func:`setup_spots`), as players set a kubb firmly into the lawn: the grid vertices of every
    cell the piece's end face overlaps are moved onto the plane fitted to them (least squares),
    its slope limited to :data:`SETUP_PAD_MAX_SLOPE` about the spot. On a pad the end face rests
    on a plane; on the bare heightfield it met two or more triangles, touched at three corners
    and rocked (docs/physics.md "Setting up on uneven ground")."""
    out = heights.copy()
    res = float(xs[1] - xs[0])
    limit = math.tan(SETUP_PAD_MAX_SLOPE)
    for kind, x, y in setup_spots(pitch, equipment):
        hx, hy, _ = equipment.piece(kind).half_extents
        i0 = max(0, math.floor((x - float(hx) - xs[0]) / res - 1e-6))
        i1 = min(len(xs) - 1, math.ceil((x + float(hx) - xs[0]) / res + 1e-6))
        j0 = max(0, math.floor((y - float(hy) - ys[0]) / res - 1e-6))
        j1 = min(len(ys) - 1, math.ceil((y + float(hy) - ys[0]) / res + 1e-6))
        jj, ii = np.mgrid[j0 : j1 + 1, i0 : i1 + 1]
        dx, dy = xs[ii].ravel() - x, ys[jj].ravel() - y
        gx, gy, z0 = plane_fit(dx, dy, out[jj, ii].ravel())
        slope = math.hypot(gx, gy)
        if slope > limit:
            gx, gy = gx * limit / slope, gy * limit / slope
        pad = (z0 + gx * dx + gy * dy).reshape(jj.shape)
        if not np.array_equal(pad, out[jj, ii]):  # a plane already (a flat heightfield) stays as it was
            out[jj, ii] = pad
    return out


class GroundSurface:
    """The static ground bodies of one world and the height of their surface.

    Args:
        client: the PyBullet client.
        equipment: the set (a table-top set puts its board on a table above the floor).
        pitch: the pitch (a heightfield covers it and :data:`TERRAIN_APRON` around it).
        ground: the playing surface's material.
        terrain: a heightfield, or None for the flat ground.
        materials: wood on wood (the ground's coefficients are divided by its square roots).

    Attributes:
        body: the ground body (the floor under a table top).
        board: the board body of a table-top set, else None.
    """

    def __init__(
        self,
        client: int,
        equipment: EquipmentSet,
        pitch: Pitch,
        ground: Ground,
        terrain: Terrain | None,
        materials: Materials = Materials(),
    ) -> None:
        self._client = client
        self._materials = materials
        self.ground = ground
        self.terrain = terrain
        self._grid: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        board = equipment.board
        if terrain is None:
            # a thick static box, not PyBullet's plane: see FLAT_GROUND_HALF_EXTENTS
            top = -board.table_height if board is not None else 0.0
            half_z = FLAT_GROUND_HALF_EXTENTS[2]
            shape = pb.createCollisionShape(pb.GEOM_BOX, halfExtents=FLAT_GROUND_HALF_EXTENTS, physicsClientId=client)
            visual = pb.createVisualShape(pb.GEOM_BOX, halfExtents=FLAT_GROUND_HALF_EXTENTS, physicsClientId=client)
            body = pb.createMultiBody(
                0, shape, visual, basePosition=(0, 0, top - half_z), useMaximalCoordinates=True, physicsClientId=client
            )
        else:
            res, apron = TERRAIN_RESOLUTION, TERRAIN_APRON
            xs = np.arange(-pitch.length / 2 - apron, pitch.length / 2 + apron + 1e-9, res)
            ys = np.arange(-pitch.width / 2 - apron, pitch.width / 2 + apron + 1e-9, res)
            heights = terrain.heights(xs, ys)
            if terrain.level_spots:
                heights = level_setup_spots(heights, xs, ys, pitch, equipment)
            self._grid = (xs, ys, heights)
            shape = pb.createCollisionShape(
                pb.GEOM_HEIGHTFIELD,
                meshScale=(res, res, 1.0),
                heightfieldData=heights.ravel().tolist(),
                numHeightfieldRows=len(xs),
                numHeightfieldColumns=len(ys),
                physicsClientId=client,
            )
            # PyBullet centres a heightfield on the midpoint of its height range.
            mid = (heights.max() + heights.min()) / 2
            if board is not None:
                mid -= board.table_height
            body = pb.createMultiBody(
                0, shape, basePosition=(0, 0, mid), useMaximalCoordinates=True, physicsClientId=client
            )
            pb.changeDynamics(
                body, -1, contactProcessingThreshold=TERRAIN_CONTACT_PROCESSING, physicsClientId=client
            )
        self.set_surface(body)
        self.body: int = body
        self.board: int | None = None
        if board is not None:
            # a table top: the board is the playing ground, the plane below it is the floor
            self.board = pb.loadURDF(
                str(model_path(equipment.name, "board")),
                basePosition=(0.0, 0.0, -board.thickness / 2),
                useFixedBase=True,
                useMaximalCoordinates=True,
                physicsClientId=client,
            )
            self.set_surface(self.board)
        self._equipment = equipment

    def set_surface(self, body: int, rigid: bool = False) -> None:
        """Give a static body the ground's friction, restitution and softness, and put it to sleep.
        A terrain heightfield's contact stiffness follows the step (:meth:`use_step`); ``rigid``:
        the flat ground's contact stiffness on terrain too (a piece's contact plane)."""
        client, ground = self._client, self.ground
        pb.changeDynamics(
            body,
            -1,
            lateralFriction=ground.friction / math.sqrt(self._materials.wood_friction),
            restitution=ground.restitution / math.sqrt(self._materials.wood_restitution),
            rollingFriction=0.0,
            spinningFriction=0.0,
            # asleep: Bullet skips a pair of which neither body is awake, so a piece asleep on
            # the ground costs nothing per step (docs/physics.md "Sleeping static bodies")
            activationState=pb.ACTIVATION_STATE_SLEEP,
            physicsClientId=client,
        )
        if ground.contact_stiffness is not None and (self.terrain is None or rigid):  # terrain: use_step
            pb.changeDynamics(
                body,
                -1,
                contactStiffness=ground.contact_stiffness,
                contactDamping=ground.contact_damping,
                physicsClientId=client,
            )

    def use_step(self, dt: float, fine: bool) -> None:
        """Set a terrain heightfield's contacts for steps of ``dt`` s: at the world's fine step
        (``fine``) they take out a penetration's whole depth in the step it is found, as the flat
        ground's do, else :data:`TERRAIN_QUIET_ERP` of it per step. Bullet makes a contact's ERP
        dt·k / (dt·k + c) from its stiffness k and damping c, so the damping that gives an ERP at
        ``dt`` is dt·k·(1/ERP − 1). Nothing to do on the flat ground, a board or a soft ground."""
        stiffness = self.ground.contact_stiffness
        if self.terrain is None or stiffness is None:
            return
        damping = 0.0 if fine else dt * stiffness * (1.0 / TERRAIN_QUIET_ERP - 1.0)
        pb.changeDynamics(
            self.body, -1, contactStiffness=stiffness, contactDamping=damping, physicsClientId=self._client
        )

    @property
    def top(self) -> float:
        """m: the highest point of the ground (0 on the flat ground)."""
        return 0.0 if self._grid is None else float(self._grid[2].max())

    def height(self, x: float, y: float) -> float:
        """Ground height at (x, y), m: 0 on a flat ground; on terrain the surface PyBullet
        collides with, i.e. each grid cell split into two planar triangles along the diagonal
        from (i+1, j) to (i, j+1) (Bullet's heightfield default; checked against ray tests)."""
        if self._grid is None:
            return 0.0
        xs, ys, h = self._grid
        fx = float(np.interp(x, xs, np.arange(len(xs))))
        fy = float(np.interp(y, ys, np.arange(len(ys))))
        i, j = min(int(fx), len(xs) - 2), min(int(fy), len(ys) - 2)
        u, v = fx - i, fy - j
        if u + v <= 1.0:
            return float(h[j, i] + u * (h[j, i + 1] - h[j, i]) + v * (h[j + 1, i] - h[j, i]))
        return float(
            h[j + 1, i + 1] + (1 - u) * (h[j + 1, i] - h[j + 1, i + 1]) + (1 - v) * (h[j, i + 1] - h[j + 1, i + 1])
        )

    def heights(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """:meth:`height` at arrays of points (x, y), m (a heightfield only)."""
        assert self._grid is not None
        xs, ys, h = self._grid
        res = float(xs[1] - xs[0])
        fx = np.clip((x - xs[0]) / res, 0.0, len(xs) - 1.0)
        fy = np.clip((y - ys[0]) / res, 0.0, len(ys) - 1.0)
        i = np.minimum(fx.astype(int), len(xs) - 2)
        j = np.minimum(fy.astype(int), len(ys) - 2)
        u, v = fx - i, fy - j
        low = h[j, i] + u * (h[j, i + 1] - h[j, i]) + v * (h[j + 1, i] - h[j, i])
        high = h[j + 1, i + 1] + (1 - u) * (h[j + 1, i] - h[j + 1, i + 1]) + (1 - v) * (h[j, i + 1] - h[j + 1, i + 1])
        out: np.ndarray = np.where(u + v <= 1.0, low, high)
        return out

    def height_on_ground(
        self, kind: str, x: float, y: float, quat_xyzw: Sequence[float] = (0.0, 0.0, 0.0, 1.0)
    ) -> float:
        """z of the bounding-box centre, m, that puts a piece of ``kind`` at (x, y) in orientation
        ``quat_xyzw`` on the ground with no part of its bounding box below it: its lowest corner
        touches the ground and, with a face down, nothing of the ground under that face reaches
        above it. On terrain every point where the highest ground under the face can be is
        checked: the face's corners, grid vertices inside it and where its edges cross a grid
        line or a cell's diagonal (docs/physics.md "A kubb sliding on the ground").

        Raises:
            ValueError: unknown kind.
        """
        if kind not in PIECE_KINDS:
            raise ValueError(f"unknown piece kind {kind!r}; expected kubb, king, baton or stake")
        hx, hy, hz = self._equipment.piece(kind).half_extents
        half = (float(hx), float(hy), float(hz))
        qx, qy, qz, qw = quat_xyzw
        quat: Quat = (qx, qy, qz, qw)
        if self._grid is None:
            return float(self.height(x, y) - lowest_corner(half, quat))
        corners = rows_by(BOX_CORNERS * np.array(half), rotation(quat).T)
        points = [(x + cx, y + cy, cz) for cx, cy, cz in corners]
        low = corners[:, 2] - corners[:, 2].min() < 1e-9
        if low.sum() == 4:  # a face down: the ground's crests under it
            dz = float(corners[low][0, 2])
            points += [(px, py, dz) for px, py in self._face_points(corners[low][:, :2] + (x, y))]
        return max(self.height(px, py) - pz for px, py, pz in points)

    def _face_points(self, face: np.ndarray) -> list[tuple[float, float]]:
        """(x, y) of every point where the terrain under a flat face (its corners' (x, y), shape
        (4, 2)) can reach highest above the face's plane: the heightfield is planar in each
        triangle, so that is at the face's corners, the grid vertices inside it and where its
        edges cross a grid line or a cell's diagonal."""
        assert self._grid is not None
        xs, ys, _ = self._grid
        res = float(xs[1] - xs[0])
        centre = face.mean(axis=0)
        order = np.argsort(np.arctan2(face[:, 1] - centre[1], face[:, 0] - centre[0]))
        face = face[order]  # its corners round the face
        points = [(float(px), float(py)) for px, py in face]
        grid = (face - (xs[0], ys[0])) / res  # grid-index coordinates
        for a, b in zip(grid, np.roll(grid, -1, axis=0)):
            for f in ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0)):  # grid lines u = k, v = k, diagonals u + v = k
                fa, fb = a[0] * f[0] + a[1] * f[1], b[0] * f[0] + b[1] * f[1]
                for k in range(math.ceil(min(fa, fb)), math.floor(max(fa, fb)) + 1):
                    if fb != fa:
                        u, v = a + (b - a) * (k - fa) / (fb - fa)
                        points.append((xs[0] + u * res, ys[0] + v * res))
        lo, hi = grid.min(axis=0), grid.max(axis=0)
        for i in range(math.ceil(lo[0]), math.floor(hi[0]) + 1):
            for j in range(math.ceil(lo[1]), math.floor(hi[1]) + 1):
                if support_margin(grid.tolist(), (float(i), float(j))) >= 0.0:
                    points.append((xs[0] + i * res, ys[0] + j * res))
        return points

    def ground_tilt(self, kind: str, x: float, y: float) -> tuple[float, float]:
        """(gx, gy): the slope of the ground under the end face of a piece of ``kind`` standing at
        (x, y), dz/dx and dz/dy of the plane fitted (least squares) to the ground's height at 7 × 7
        points over the face; (0, 0) on the flat ground."""
        if self._grid is None:
            return 0.0, 0.0
        hx, hy, _ = self._equipment.piece(kind).half_extents
        us = np.linspace(-float(hx), float(hx), 7)
        vs = np.linspace(-float(hy), float(hy), 7)
        rows = [(float(u), float(v)) for u in us for v in vs]
        zs = [self.height(x + u, y + v) for u, v in rows]
        gx, gy, _ = plane_fit([u for u, _ in rows], [v for _, v in rows], zs)
        return float(gx), float(gy)

    def tilt_on_ground(self, kind: str, position: Sequence[float], quat_xyzw: Sequence[float]) -> float:
        """rad in [0, π]: the angle between the long axis of a piece of ``kind`` at ``position``
        (its bounding-box centre) turned by ``quat_xyzw`` and the normal of the ground under it
        (:meth:`ground_tilt`); on the flat ground its tilt from the vertical. A kubb standing flush
        on a 12° slope is tilted 0° on the ground."""
        qx, qy, qz, qw = quat_xyzw
        axis = rotation((qx, qy, qz, qw))[:, 2]
        gx, gy = self.ground_tilt(kind, float(position[0]), float(position[1]))
        normal = np.array((-gx, -gy, 1.0)) / math.sqrt(gx * gx + gy * gy + 1.0)
        return math.acos(max(-1.0, min(1.0, dot3(axis, normal))))

    def standing_pose(
        self, kind: str, x: float, y: float, yaw: Quat = (0.0, 0.0, 0.0, 1.0)
    ) -> tuple[tuple[float, float, float], Quat]:
        """Where a kubb or the king set up at (x, y) stands, turned about the vertical by the
        quat_xyzw ``yaw``: its bounding-box centre, m, and quat_xyzw. On the flat ground upright
        (:meth:`height_on_ground`). On terrain set flush into the ground, as players set a kubb
        firmly into the lawn: its end face tilted to the ground's slope under it
        (:meth:`ground_tilt`; on a set-up spot its pad, :func:`level_setup_spots`) and lowered
        until it touches, no part of it below the ground, its bounding-box centre over (x, y).
        Placed upright instead, it touched at one point, fell onto the slope and swung on over
        its tipping angle on slopes of 6–9° (docs/physics.md "Setting up on uneven ground").

        Raises:
            ValueError: unknown kind.
        """
        if kind not in PIECE_KINDS:
            raise ValueError(f"unknown piece kind {kind!r}; expected kubb, king, baton or stake")
        gx, gy = self.ground_tilt(kind, x, y)
        if self._grid is None or (gx == 0.0 and gy == 0.0):
            return (x, y, self.height_on_ground(kind, x, y, yaw)), yaw
        n = np.array((-gx, -gy, 1.0)) / math.sqrt(gx * gx + gy * gy + 1.0)  # the ground's normal
        angle = math.acos(float(n[2]))
        axis = np.array((-n[1], n[0], 0.0)) / math.hypot(float(n[0]), float(n[1]))  # z × n
        s = math.sin(angle / 2)
        ax, ay, c = float(axis[0] * s), float(axis[1] * s), math.cos(angle / 2)
        yx, yy, yz, yw = yaw  # the tilt after the yaw: (ax, ay, 0, c) · yaw
        quat: Quat = (
            c * yx + ax * yw + ay * yz,
            c * yy + ay * yw - ax * yz,
            c * yz + ax * yy - ay * yx,
            c * yw - ax * yx - ay * yy,
        )
        hx, hy, hz = self._equipment.piece(kind).half_extents
        corners = rows_by(BOX_CORNERS * np.array((float(hx), float(hy), float(hz))), rotation(quat).T)
        base = corners[BOX_CORNERS[:, 2] < 0]  # the end face, relative to the centre
        c0 = base[0]

        def face_z(px: float, py: float) -> float:  # the face's plane over (px, py), relative to the centre
            return float(c0[2] - (n[0] * (px - x - c0[0]) + n[1] * (py - y - c0[1])) / n[2])

        z = max(self.height(px, py) - face_z(px, py) for px, py in self._face_points(base[:, :2] + (x, y)))
        return (x, y, z), quat


class ContactPlanes:
    """Each movable piece's own ground on a terrain heightfield: a static box
    (:data:`CONTACT_PLANE_HALF`) whose top face is the plane fitted to the terrain under the piece,
    that touches only that piece, while the heightfield touches none. Bullet collides a piece with
    each heightfield triangle on its own, and a corner sliding into the next triangle met that
    triangle's edge as a contact leaning back against the motion: an upright kubb sliding on a flat
    heightfield tripped, and slides came out short by step and heading. On its plane a piece meets
    no edge (docs/physics.md "An upright kubb sliding", "Contact planes on terrain").

    The plane: least squares through the terrain's height at 7 × 7 points over the horizontal
    extent of the piece's bounding box as it lies (its footprint) about its centre of mass, moved to
    pass through the terrain's height under the centre of mass; fitted again before a step once the
    piece has moved :data:`CONTACT_PLANE_MOVE`. It follows the terrain continuously, where the plane
    of the triangle under the piece would jump at every triangle edge.

    Args:
        client: the PyBullet client.
        surface: the terrain's ground (its heightfield, friction and restitution).
        materials: wood on wood (the ground's coefficients are divided by its square roots).
    """

    def __init__(self, client: int, surface: GroundSurface, materials: Materials) -> None:
        self._client = client
        self._surface = surface
        self._materials = materials
        self._shape = pb.createCollisionShape(pb.GEOM_BOX, halfExtents=CONTACT_PLANE_HALF, physicsClientId=client)
        self.boxes: dict[int, int] = {}
        """piece body → its box body"""
        self._state: dict[int, tuple[float, float, float, float, float]] = {}
        """piece body → (x, y where its plane was fitted, z there, the plane's slopes gx, gy)"""
        self._half: dict[int, tuple[float, float, float]] = {}
        """piece body → its half extents, m"""
        self._reach: dict[int, float] = {}
        """piece body → the farthest any point of it is from its centre of mass, m"""
        self._top = surface.top + CONTACT_PLANE_CLEAR

    def add(self, body: int, half: tuple[float, float, float], reach: float, others: list[int]) -> int:
        """Give the piece ``body`` (half extents ``half``, m; no point of it farther than ``reach``
        from its centre of mass) its contact box, keep the heightfield and the boxes of ``others``
        (the other movable pieces' bodies) from touching it and its box from touching them; returns
        the box's body."""
        client = self._client
        box = pb.createMultiBody(
            0, self._shape, -1, (0.0, 0.0, -10.0), useMaximalCoordinates=True, physicsClientId=client
        )
        self._surface.set_surface(box, rigid=True)  # as the flat ground's (RIGID_CONTACT_STIFFNESS)
        pb.setCollisionFilterPair(body, self._surface.body, -1, -1, 0, physicsClientId=client)
        for other in others:
            pb.setCollisionFilterPair(box, other, -1, -1, 0, physicsClientId=client)
            pb.setCollisionFilterPair(body, self.boxes[other], -1, -1, 0, physicsClientId=client)
        self.boxes[body] = box
        self._state[body] = (math.inf, math.inf, 0.0, 0.0, 0.0)
        self._half[body] = half
        self._reach[body] = reach
        self._fit(body)
        return box

    def remove(self, body: int) -> None:
        """Take the box of the piece ``body`` out (the piece is being removed)."""
        pb.removeBody(self.boxes.pop(body), physicsClientId=self._client)
        del self._state[body]
        del self._half[body]
        del self._reach[body]

    def follow(self) -> None:
        """Fit the plane again of every piece that has moved :data:`CONTACT_PLANE_MOVE` since its
        last fit and is not flying high above the terrain (:data:`CONTACT_PLANE_CLEAR`); call before
        every step."""
        read, client, move2 = pb.getBasePositionAndOrientation, self._client, CONTACT_PLANE_MOVE**2
        top, reach = self._top, self._reach
        for body, (x0, y0, *_) in self._state.items():
            (x, y, z), _ = read(body, client)
            if (x - x0) ** 2 + (y - y0) ** 2 >= move2 and z - reach[body] < top:
                self._fit(body)

    def _fit(self, body: int) -> None:
        client = self._client
        (x, y, _), turn = pb.getBasePositionAndOrientation(body, physicsClientId=client)
        hx, hy, hz = self._half[body]
        m = pb.getMatrixFromQuaternion(turn)
        # the horizontal half extents of its bounding box as it lies now: its footprint
        ax = max(abs(m[0]) * hx + abs(m[1]) * hy + abs(m[2]) * hz, CONTACT_PLANE_MIN_HALF)
        ay = max(abs(m[3]) * hx + abs(m[4]) * hy + abs(m[5]) * hz, CONTACT_PLANE_MIN_HALF)
        zs = self._surface.heights(x + _FIT_GRID[:, 0] * ax, y + _FIT_GRID[:, 1] * ay)
        # correctly rounded sums, as plane_fit's: the same plane on every machine
        gx = math.fsum((_FIT_GRID[:, 0] * zs).tolist()) / (_FIT_NORM * ax)
        gy = math.fsum((_FIT_GRID[:, 1] * zs).tolist()) / (_FIT_NORM * ay)
        z = float(zs[_FIT_CENTRE])  # the terrain's height under the centre of mass
        self._state[body] = (x, y, z, gx, gy)
        norm = math.sqrt(gx * gx + gy * gy + 1.0)
        n = (-gx / norm, -gy / norm, 1.0 / norm)
        tilt = math.acos(n[2])
        if tilt == 0.0:
            quat: Quat = (0.0, 0.0, 0.0, 1.0)
        else:
            s = math.sin(tilt / 2) / math.hypot(n[0], n[1])  # about z × n
            quat = (-n[1] * s, n[0] * s, 0.0, math.cos(tilt / 2))
        depth = CONTACT_PLANE_HALF[2]
        centre = (x - n[0] * depth, y - n[1] * depth, z - n[2] * depth)
        box = self.boxes[body]
        pb.resetBasePositionAndOrientation(box, centre, quat, physicsClientId=client)
        pb.changeDynamics(box, -1, activationState=pb.ACTIVATION_STATE_SLEEP, physicsClientId=client)

    def height(self, body: int, x: float, y: float) -> float:
        """m: the height of the piece ``body``'s contact plane over (x, y)."""
        x0, y0, z0, gx, gy = self._state[body]
        return float(z0 + gx * (x - x0) + gy * (y - y0))

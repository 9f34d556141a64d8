"""The engine: one PyBullet DIRECT client per world, its configuration, its clock and the
registry of the pieces' bodies.

Engine settings (all set explicitly; facts and measurements in docs/physics.md "Engine
settings"): time step :data:`DT` (1/960 s; table tops :data:`TABLE_DT`), quiet step
:data:`QUIET_DT`, 50 solver iterations, deterministic pairs, split impulse on every contact
(:data:`SPLIT_IMPULSE_THRESHOLD`), contact ERP :data:`CONTACT_ERP`, maximal-coordinate bodies
with swept-sphere CCD (:data:`CCD_ALLOWED_PENETRATION`; none on a table top), no damping (air
drag is modelled explicitly: :mod:`kubb3d.physics.aero`), sleeping enabled and static bodies
asleep.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from kubb3d.equipment import EquipmentSet
from kubb3d.model_files import com_local as piece_com_local
from kubb3d.model_files import model_path
from kubb3d.physics._pybullet import pb
from kubb3d.physics.aero import RodDrag, piece_drag
from kubb3d.physics.forces import ROLLING_ROW_FRICTION
from kubb3d.physics.ground import Ground, current_materials
from kubb3d.physics.poses import BOX_CORNERS, ContactPoint, Point, Quat, Vec3, frame_from_com, long_axis
from kubb3d.physics.terrain import PIECE_KINDS, TERRAIN_CONTACT_PROCESSING, ContactPlanes, GroundSurface, Terrain
from kubb3d.pitch import Pitch, Side
from kubb3d.snapshot import GROUND_ID, PieceKind, Shape, leans

DT = 1.0 / 960.0
"""s: the default time step while pieces can collide fast, chosen by convergence (docs/physics.md
"Time step")."""
QUIET_STEPS = 4
"""The quiet step is this many fine steps long (at most :data:`QUIET_DT`): halving ``dt`` halves
both, so a convergence check moves every step."""
QUIET_DT = 1.0 / 240.0
"""s: the longest step, taken while nothing moves fast (settling, the rest hold, a free flight
far from anything that the engine flies)."""
TABLE_DT = 1.0 / 960.0
"""s: time step for table-top sets (a 2 m/s disk moves 2 mm per step, a quarter of its thickness)."""
GRAVITY = 9.81
"""m/s², standard gravity (rounded)."""
REST_SPEED = 0.01
"""m/s: a piece slower than this counts as at rest (and the engine may put it to sleep)."""
REST_TURN = 0.1
"""rad/s: a piece turning slower than this counts as at rest."""
SOLVER_ITERATIONS = 50
"""Constraint solver iterations per step (stable stacks of kubbs)."""
CONTACT_BREAKING = 0.002
"""m: PyBullet's contact breaking threshold: contact points farther apart than this are dropped."""
SPLIT_IMPULSE_THRESHOLD = 1.0
"""m: contacts shallower than this (all of them) resolve penetration by split impulse, so pushing
a piece out of the ground adds no speed to it (docs/physics.md "Ground contact")."""
CCD_ALLOWED_PENETRATION = 0.005
"""m: penetration a swept-sphere CCD contact may leave; with 0 a body resting at the swept
sphere's depth is frozen (docs/physics.md "Frozen bodies")."""
CONTACT_ERP = 0.08
"""The share of a contact's penetration that split impulse removes per step: PyBullet's own value,
set explicitly because a pooled client may have had another (:meth:`Engine.set_contact_erp`)."""

FLOOR_ID = "floor"
"""Contacts with the floor below a table-top board (a piece there is off the board)."""

SHAPES: dict[str, Shape] = {"box": "box", "cylinder": "cylinder", "disk": "disk", "mushroom": "mushroom"}
"""The shapes of pieces, by name."""
SIDE_NAMES: dict[str, Side] = {"A": "A", "B": "B"}
"""The sides, by name."""

NO_TURN = (-2, 0.0)
""":attr:`PieceBody.last_turn` of a baton whose turn was not read in the step before."""

_CLIENT_POOL: list[int] = []
"""Disconnected worlds hand their PyBullet client back here; a new world reuses one after
``resetSimulation`` (cheaper than connecting; docs/speed.md). Every engine parameter is set again
on reuse, so a world's results do not depend on what the client did before."""


class PhysicsGlitch(RuntimeError):
    """The simulation produced an impossible state (NaN, a piece far outside the world)."""


def _acquire_client() -> int:
    while _CLIENT_POOL:
        client = _CLIENT_POOL.pop()
        if pb.isConnected(client):
            return client
    connected: int = pb.connect(pb.DIRECT)
    return connected


def prepare_client() -> bool:
    """Connect a PyBullet client into this process's pool now, so that the first world takes it
    instead of connecting in its first throw (a Dask worker's preload,
    :mod:`kubb3d.experiment.dask_worker`). Results do not change: a world resets and configures
    the client it takes. Returns False if the pool already held a connected client."""
    if any(pb.isConnected(client) for client in _CLIENT_POOL):
        return False
    _CLIENT_POOL.append(pb.connect(pb.DIRECT))
    return True


@functools.lru_cache(maxsize=None)
def fixed_cylinder(set_name: str, kind: str) -> tuple[float, float, tuple[float, ...]] | None:
    """A fixed piece whose model is one collision cylinder at the body origin (a stake), read once
    per process from its URDF: (radius m, length m, the rgba colour of its visual); None for any
    other model (it is loaded from the URDF).

    Such a piece is built with ``createMultiBody`` from a cylinder shape, all stakes of a world in
    one call: the same Bullet body, to the bit, as the URDF importer's, with the bounding box in
    the URDF's colour as its visual (why dynamic pieces keep the importer: docs/speed.md "Ninth
    round")."""
    from xml.etree import ElementTree

    path = model_path(set_name, kind)
    link = ElementTree.parse(path).getroot().find("link")
    if link is None:
        return None
    collisions, visuals = link.findall("collision"), link.findall("visual")
    mass = link.find("inertial/mass")
    if mass is None or float(mass.get("value", "nan")) != 0.0 or len(collisions) != 1 or len(visuals) != 1:
        return None
    for element in (link.find("inertial"), collisions[0], visuals[0]):
        origin = element.find("origin") if element is not None else None
        values = f'{origin.get("xyz", "0 0 0")} {origin.get("rpy", "0 0 0")}' if origin is not None else "0"
        if any(float(v) != 0.0 for v in values.split()):
            return None
    shape, color = collisions[0].find("geometry/cylinder"), visuals[0].find("material/color")
    geometry = collisions[0].find("geometry")
    if shape is None or color is None or geometry is None or len(geometry) != 1:
        return None
    rgba = tuple(float(v) for v in color.get("rgba", "").split())
    return (float(shape.get("radius", "nan")), float(shape.get("length", "nan")), rgba)



@functools.lru_cache(maxsize=None)
def _box_geometry(half_extents: Vec3, com_local: Vec3) -> tuple[np.ndarray, float, float]:
    """(:attr:`PieceBody.corners` (read-only: the pieces of a kind share it),
    :attr:`PieceBody.radius`, :attr:`PieceBody.reach`) of a piece's half extents and centre of
    mass, m."""
    corners = BOX_CORNERS * np.array(half_extents)
    corners.setflags(write=False)
    radius = math.sqrt(sum(h * h for h in half_extents))
    return corners, radius, radius + math.sqrt(sum(c * c for c in com_local))


@dataclass(eq=False)
class PieceBody:
    """One piece's body in the engine and what the world keeps about it between steps."""

    id: str
    kind: PieceKind
    shape: Shape
    half_extents: Vec3
    body: int
    mass: float
    com_local: Vec3
    side: Side | None
    drag: RodDrag | None
    max_tilt: float = 0.0
    """rad: the largest turn of the long axis from its set-up direction (DM §5's history)."""
    cos_max_tilt: float = 1.0
    stable_pose: tuple | None = None
    """(centre of mass, quat) at which the piece was last found statically stable."""
    ref_axis: Vec3 = (0.0, 0.0, 1.0)
    max_lean: tuple[float, float] | None = None
    """rad: the history split by direction (:attr:`kubb3d.snapshot.PieceState.max_lean`), kept
    for Kubbuteo disk kubbs only, whose tipping angle depends on the direction (None otherwise)."""
    sampled: tuple | None = None
    """(centre of mass, quat) at the last sample since the history started (None: none yet)."""
    radius: float = 0.0
    """m: the bounding sphere's radius about the bounding-box centre."""
    reach: float = 0.0
    """m: no point of the piece is farther than this from its centre of mass."""
    disk_reach: float = 0.0
    """m: the same bound for a table-top disk (a baton, or a kubb: a disk with a flat), from its
    shape: √(R² + t²) about the disk's centre, R − R' from the bounding-box centre (R' the half
    extent across the flat); :attr:`reach` for other pieces."""
    roll: tuple[float, float, float] | None = None
    """A field baton's rolling resistance (c_rr · r m, moment of inertia about its axis kg·m², about
    a diameter kg·m²; :meth:`kubb3d.physics.forces.Forces.resist_rolling`); None for every other
    piece."""
    rows: float | None = None
    """m: on a terrain heightfield, the Bullet rolling friction a field baton has while it is slow
    (:data:`kubb3d.physics.forces.TERRAIN_ROLL_SPEED`); None on the flat ground."""
    rows_on: bool = True
    """... and whether it has it now (else :data:`ROLLING_ROW_FRICTION` and the torque)."""
    last_turn: tuple[int, float] = NO_TURN
    """(:attr:`Engine.tick`, its turn about its axis ω·u rad/s) when the rolling resistance last
    read it (a field baton only; :data:`NO_TURN` when kubb3d has set its velocity since)."""
    awake: bool = True
    """The rolling resistance looks at a field baton in every step while this holds: it moved at
    the last motion check, or was set in motion or woken since."""
    ground_read: tuple[int, float, float, float, float] | None = None
    """(:attr:`Engine.tick`, normal force N, its normal-weighted direction (3 floats)) of its
    ground contacts as a per-step watch last read them (a field baton only)."""
    pose_read: tuple | None = None
    """(:attr:`Engine.tick`, the (centre of mass, quat) last read) (a field baton only)."""
    velocity_read: tuple | None = None
    """(:attr:`Engine.tick`, the velocities last read) (a field baton only; None once something
    sets its velocity)."""
    inertia: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """kg·m²: its principal moments of inertia about its body axes (x, y, z; the quat's frame)."""
    gyration: float = 0.0
    """m: √(I_max / m), its largest principal moment of inertia over its mass: its kinetic energy
    of turning at ω rad/s is at most ½·m·(gyration·ω)²."""
    ground: int = -1
    """The body it touches as the ground: :attr:`Engine.ground_body`, or on terrain its own
    contact box (:class:`~kubb3d.physics.terrain.ContactPlanes`); −1 for a stake on terrain."""
    corners: np.ndarray = field(init=False, repr=False)
    """m, shape (8, 3): the corners of the bounding box in the body frame."""

    def __post_init__(self) -> None:
        self.corners, self.radius, self.reach = _box_geometry(tuple(self.half_extents), tuple(self.com_local))
        self.disk_reach = self.reach

    def reset_tilt(self, quat_xyzw: Quat) -> None:
        """Start the history afresh (the piece was set up, DM §5): the reference is the upright
        direction, the world vertical on the end the piece stands on now (up or down), never the
        pose it was placed in, so a piece set up tilted starts at its tilt from that direction."""
        axis = long_axis(quat_xyzw)
        self.ref_axis = (0.0, 0.0, 1.0) if axis[2] >= 0.0 else (0.0, 0.0, -1.0)
        self.cos_max_tilt = abs(axis[2])
        self.max_tilt = math.acos(min(1.0, self.cos_max_tilt))
        self.sampled = None
        if self.shape == "disk" and self.kind == "kubb":
            self.max_lean = leans(quat_xyzw, self.ref_axis)

    def lean_so_far(self, quat_xyzw: Quat) -> tuple[float, float] | None:
        """The recorded :attr:`max_lean` with the pose ``quat_xyzw`` included (None: not kept)."""
        if self.max_lean is None:
            return None
        side, plane = leans(quat_xyzw, self.ref_axis)
        return (max(self.max_lean[0], side), max(self.max_lean[1], plane))

    def turn_cos(self, quat_xyzw: Sequence[float]) -> float:
        """cos of the angle between the long axis now and at the last set-up."""
        axis, ref = long_axis(quat_xyzw), self.ref_axis
        return axis[0] * ref[0] + axis[1] * ref[1] + axis[2] * ref[2]


class Engine:
    """One PyBullet client configured for a world, its clock and its bodies.

    The other physics modules read and change this state; :class:`~kubb3d.physics.world.World`
    is the public face.

    Args:
        equipment: the set.
        pitch: the pitch.
        ground: the playing surface.
        terrain: a heightfield, or None for the flat ground.
        dt: the fine step, s (> 0).
        quiet_dt: the long step, s (≥ ``dt``).
        far_dt: the step of a piece moving fast alone far from the others, s (``dt``: none).
        air_drag: apply air drag to flying pieces.
        solver_iterations: constraint solver iterations per step.
    """

    def __init__(
        self,
        equipment: EquipmentSet,
        pitch: Pitch,
        ground: Ground,
        terrain: Terrain | None,
        *,
        dt: float,
        quiet_dt: float,
        far_dt: float,
        air_drag: bool,
        solver_iterations: int,
    ) -> None:
        self.equipment, self.pitch, self.ground, self.terrain = equipment, pitch, ground, terrain
        self.materials = current_materials()
        """wood on wood as :func:`kubb3d.physics.ground.use_materials` set it when the engine was built"""
        self.dt, self.quiet_dt, self.air_drag = dt, quiet_dt, air_drag
        self.far_dt = far_dt
        """s: the step of a piece moving fast alone, far from every other piece (``dt``: none)"""
        self.step_dt = dt
        """s: the length of the next step."""
        self.taken_dt = dt
        """s: the length of the last step taken (see :meth:`force_scale`)."""
        self.elapsed = 0.0
        self.time = 0.0
        """s: simulated time."""
        self.steps = 0
        """Physics steps taken, counted once a :meth:`kubb3d.physics.stepping.Stepper.step` call ends."""
        self.tick = 0
        """Physics steps taken, counted per step."""
        self.placed = 0
        """Counts kubb3d's changes of a piece's pose (placing, the free-flight hand-over, laying a
        piece on the floor) and of the bodies (added, removed)."""
        self.sampled_at: tuple[int, int] = (-1, -1)
        """(:attr:`tick`, :attr:`placed`) at the last sample of every movable piece's pose
        (:attr:`PieceBody.sampled`); while both are unchanged those are the poses now."""
        self.pieces: dict[str, PieceBody] = {}
        self.movable: list[PieceBody] = []
        """every piece but the stakes, in the order they were added"""
        self.rollers: list[PieceBody] = []
        """the field batons with a rolling resistance, in the order they were added"""
        self.by_body: dict[int, str] = {}
        self.off_board: set[str] = set()
        """table-top pieces off the board for good at the last sample"""
        self.placed_awake: set[str] = set()
        """Pieces added awake or placed (woken, or given a velocity) since the world last came to
        rest or was put to sleep: they may move without being hit."""
        self.stepped_since_rest = False
        """A step was taken since the world was built, last came to rest or was put to sleep."""
        self.untouched = False
        """no piece could touch another one in the last step (its contacts need no watch)"""
        on_terrain = terrain is not None and equipment.board is None
        self.solved_gap = TERRAIN_CONTACT_PROCESSING if terrain is not None and not on_terrain else math.inf
        """m: the farthest a ground contact the solver processed in a step can be (on a heightfield
        PyBullet also reports its contacts of an earlier step, with that step's force; on terrain the
        pieces touch their contact boxes instead, whose contacts are processed as the flat ground's)."""
        self._kinds: dict[str, tuple[Vec3, Shape, RodDrag | None, Vec3]] = {}
        self._shapes: dict[str, tuple[int, int]] = {}
        self.client: int = _acquire_client()
        """The PyBullet client id (for renderers and measurements; the judge never uses it); −1
        once the engine is closed."""
        self._configure(solver_iterations)
        self.surface = GroundSurface(self.client, equipment, pitch, ground, terrain, self.materials)
        self.surface.use_step(self.dt, fine=True)
        self.ground_body = self.surface.body
        self.by_body[self.ground_body] = GROUND_ID
        if self.surface.board is not None:
            self.by_body[self.ground_body] = FLOOR_ID
            self.by_body[self.surface.board] = GROUND_ID
        self.ground_bodies = {b for b, pid in self.by_body.items() if pid == GROUND_ID}
        """the bodies a piece stands on (the ground, a table top's board, the pieces' contact boxes)"""
        self.planes = ContactPlanes(self.client, self.surface, self.materials) if on_terrain else None
        """on terrain, the pieces' own contact planes (None on the flat ground and a table top)"""

    def _configure(self, solver_iterations: int) -> None:
        client = self.client
        pb.resetSimulation(physicsClientId=client)
        pb.setPhysicsEngineParameter(
            fixedTimeStep=self.dt,
            numSubSteps=0,
            numSolverIterations=int(solver_iterations),
            deterministicOverlappingPairs=1,
            enableConeFriction=1,
            restitutionVelocityThreshold=0.05,
            contactBreakingThreshold=CONTACT_BREAKING,
            allowedCcdPenetration=CCD_ALLOWED_PENETRATION,
            enableFileCaching=1,
            useSplitImpulse=1,
            splitImpulsePenetrationThreshold=SPLIT_IMPULSE_THRESHOLD,
            contactERP=CONTACT_ERP,
            physicsClientId=client,
        )
        pb.setGravity(0, 0, -GRAVITY, physicsClientId=client)

    def set_contact_erp(self, erp: float) -> None:
        """Set the share (0–1] of a contact's penetration that split impulse removes per step
        (PyBullet's ``contactERP``; an engine starts with :data:`CONTACT_ERP`). For measurements.

        Raises:
            ValueError: ``erp`` outside (0, 1].
        """
        if not 0.0 < erp <= 1.0:
            raise ValueError(f"contact ERP must be in (0, 1], got {erp}")
        pb.setPhysicsEngineParameter(contactERP=float(erp), physicsClientId=self.client)

    def use_step(self, dt: float) -> None:
        """Take steps of ``dt`` seconds from now on (a terrain's contacts follow:
        :meth:`~kubb3d.physics.terrain.GroundSurface.use_step`)."""
        if dt != self.step_dt:
            self.step_dt = dt
            pb.setPhysicsEngineParameter(fixedTimeStep=dt, physicsClientId=self.client)
            self.surface.use_step(dt, fine=dt <= self.dt)

    def force_scale(self) -> float:
        """What a normal force PyBullet reports now must be multiplied by to be the force of the
        last step: PyBullet divides the step's impulse by the step length set now, not by the
        one the step was taken with."""
        return self.step_dt / self.taken_dt

    def close(self) -> None:
        """Hand the client back to the pool (reset by the next engine that takes it)."""
        if self.client >= 0 and pb.isConnected(self.client):
            _CLIENT_POOL.append(self.client)
        self.client = -1

    # ------------------------------------------------------------------ the body registry
    def new_bodies(self, kind: str, positions: list[Vec3], quat_xyzw: Quat = (0.0, 0.0, 0.0, 1.0)) -> list[int]:
        """New PyBullet bodies of a kind at ``positions`` (bounding-box centres, m), all in
        orientation ``quat_xyzw``, in that order: from the piece's URDF, or for a fixed cylinder
        (:func:`fixed_cylinder`) from its shapes, made once per engine, all in one call."""
        equipment, client = self.equipment, self.client
        cylinder = fixed_cylinder(equipment.name, kind) if kind == "stake" else None
        if cylinder is None:
            return [
                pb.loadURDF(
                    str(model_path(equipment.name, kind)),
                    basePosition=position,
                    baseOrientation=quat_xyzw,
                    useMaximalCoordinates=True,
                    useFixedBase=(kind == "stake"),
                    flags=pb.URDF_USE_INERTIA_FROM_FILE | pb.URDF_USE_IMPLICIT_CYLINDER,
                    physicsClientId=client,
                )
                for position in positions
            ]
        shapes = self._shapes.get(kind)
        if shapes is None:
            radius, length, rgba = cylinder
            shapes = self._shapes[kind] = (
                pb.createCollisionShape(pb.GEOM_CYLINDER, radius=radius, height=length, physicsClientId=client),
                # for a renderer reading the client (kubb3d's own render snapshots): the bounding box
                pb.createVisualShape(
                    pb.GEOM_BOX, halfExtents=(radius, radius, length / 2), rgbaColor=rgba, physicsClientId=client
                ),
            )
        collision, visual = shapes
        args = dict(useMaximalCoordinates=True, physicsClientId=client)
        if len(positions) == 1:
            return [pb.createMultiBody(0.0, collision, visual, positions[0], quat_xyzw, **args)]
        return list(
            pb.createMultiBody(0.0, collision, visual, positions[0], quat_xyzw, batchPositions=positions, **args)
        )

    def register(
        self,
        piece_id: str,
        kind: str,
        body: int,
        position: Point,
        quat_xyzw: Sequence[float],
        side: str | None,
        sleeping: bool,
    ) -> int:
        """Give a new body of a piece its dynamics and keep its record; returns the body id.

        Raises:
            ValueError: duplicate id, unknown kind or side.
        """
        if piece_id in self.pieces:
            raise ValueError(f"a piece with id {piece_id!r} already exists")
        if kind not in PIECE_KINDS:
            raise ValueError(f"unknown piece kind {kind!r}; expected kubb, king, baton or stake")
        if side is not None and side not in SIDE_NAMES:
            raise ValueError(f"unknown side {side!r}; expected A or B")
        equipment = self.equipment
        known = self._kinds.get(kind)
        if known is None:
            spec = equipment.piece(kind)
            # getDynamicsInfo's local inertial position is unreliable for maximal-coordinate
            # bodies (measured: it returns unrelated numbers), so take it from the geometry.
            hx, hy, hz = spec.half_extents
            known = ((hx, hy, hz), SHAPES[spec.shape], piece_drag(equipment, kind), piece_com_local(equipment, kind))
            self._kinds[kind] = known
        half, shape, drag, com_local = known
        if kind == "kubb" and side is None:
            side = self.pitch.half_of(position[0])
        client = self.client
        info = pb.getDynamicsInfo(body, -1, physicsClientId=client)
        mass = info[0]
        ground = self.ground
        mu = math.sqrt(self.materials.wood_friction)
        dynamics: dict[str, float | int] = dict(
            lateralFriction=mu,
            restitution=math.sqrt(self.materials.wood_restitution),
            linearDamping=0.0,
            angularDamping=0.0,
            rollingFriction=0.0,
            spinningFriction=0.0,
        )
        roll = None
        rows = None
        if kind == "baton":
            ground_mu = ground.friction / mu
            # rolling resistance acts at the baton's rolling radius; on the field a baton's acts
            # about its own axis (kubb3d.physics.forces.Forces.resist_rolling, ROLLING_ROW_FRICTION);
            # on terrain only while it is fast (Bullet's rows hold a baton resting on the triangles)
            crr_r = ground.rolling_resistance * equipment.baton.radius
            if equipment.board is None and self.terrain is None:
                dynamics["rollingFriction"] = ROLLING_ROW_FRICTION if ground.spinning_friction > 0 else 0.0
                if crr_r > 0:
                    inertia = pb.getDynamicsInfo(body, -1, physicsClientId=client)[2]
                    roll = (crr_r, float(inertia[2]), float(inertia[0]))
            else:
                dynamics["rollingFriction"] = crr_r / ground_mu
                if equipment.board is None and crr_r > 0:
                    inertia = pb.getDynamicsInfo(body, -1, physicsClientId=client)[2]
                    roll = (crr_r, float(inertia[2]), float(inertia[0]))
                    rows = crr_r / ground_mu
            dynamics["spinningFriction"] = ground.spinning_friction / ground_mu
        if kind != "stake":
            # swept-sphere CCD stops a disk sliding flat on a board box: table-top sets go without
            # it (and a finer step)
            dynamics["ccdSweptSphereRadius"] = 0.0 if equipment.board is not None else 0.8 * min(half[0], half[1])
            # the activation states are bit flags: enable sleeping and (maybe) sleep now, in one call
            dynamics["activationState"] = pb.ACTIVATION_STATE_ENABLE_SLEEPING | (
                pb.ACTIVATION_STATE_SLEEP if sleeping else 0
            )
            dynamics["sleepThreshold"] = REST_SPEED**2
        pb.changeDynamics(body, -1, physicsClientId=client, **dynamics)
        qx, qy, qz, qw = quat_xyzw
        owner = None if side is None else SIDE_NAMES[side]
        piece = PieceBody(piece_id, PIECE_KINDS[kind], shape, half, body, mass, com_local, owner, drag, roll=roll)
        if mass > 0.0:
            piece.gyration = math.sqrt(max(info[2]) / mass)
            piece.inertia = (float(info[2][0]), float(info[2][1]), float(info[2][2]))
        if kind == "baton":
            piece.rows = rows
        if equipment.board is not None and kind in ("baton", "kubb"):
            thin, r_flat, r = sorted(half)
            piece.disk_reach = math.hypot(r, thin) + (r - r_flat) + math.sqrt(sum(x * x for x in com_local))
        piece.reset_tilt((qx, qy, qz, qw))
        self.pieces[piece_id] = piece
        self.placed += 1
        if kind != "stake":
            self.movable.append(piece)
            if not sleeping:
                self.placed_awake.add(piece_id)
        self.by_body[body] = piece_id
        piece.ground = self.ground_body
        if self.planes is not None:
            if kind == "stake":
                piece.ground = -1
            else:
                others = [p.body for p in self.movable if p is not piece]
                piece.ground = self.planes.add(
                    body, (float(half[0]), float(half[1]), float(half[2])), piece.reach, others
                )
                self.by_body[piece.ground] = GROUND_ID
                self.ground_bodies.add(piece.ground)
        if roll is not None:
            self.rollers.append(piece)
        return body

    def remove(self, piece_id: str) -> None:
        """Take a piece out of the engine (KeyError if unknown)."""
        piece = self.pieces.pop(piece_id)
        self.placed += 1
        if piece.roll is not None:
            self.rollers.remove(piece)
        if piece.kind != "stake":
            self.movable.remove(piece)
        self.off_board.discard(piece_id)
        self.placed_awake.discard(piece_id)
        del self.by_body[piece.body]
        if self.planes is not None and piece.body in self.planes.boxes:
            del self.by_body[piece.ground]
            self.ground_bodies.discard(piece.ground)
            self.planes.remove(piece.body)
        pb.removeBody(piece.body, physicsClientId=self.client)

    def frame(self, piece: PieceBody, com: Sequence[float], quat_xyzw: Sequence[float]) -> np.ndarray:
        """Bounding-box centre of ``piece``, m, shape (3,), from its centre of mass and orientation."""
        return frame_from_com(piece.com_local, com, quat_xyzw)

    # ------------------------------------------------------------------ reads
    def body_of(self, piece_id: str) -> int:
        """PyBullet body id of a piece (KeyError if unknown)."""
        return self.pieces[piece_id].body

    def com_pose(self, piece_id: str) -> tuple[Vec3, Quat]:
        """(centre of mass position m, quat_xyzw) as plain tuples, straight from the engine."""
        piece = self.pieces[piece_id]
        pose = pb.getBasePositionAndOrientation(piece.body, self.client)
        if piece.roll is not None:
            piece.pose_read = (self.tick, pose)  # for the rolling resistance, this step
        return pose

    def com_velocity(self, piece_id: str) -> tuple[Vec3, Vec3]:
        """(linear velocity m/s, angular velocity rad/s) as plain tuples, world frame."""
        piece = self.pieces[piece_id]
        velocity = pb.getBaseVelocity(piece.body, self.client)
        if piece.roll is not None:
            piece.velocity_read = (self.tick, velocity)  # for the rolling resistance, this step
        return velocity

    def frame_position(self, piece_id: str, com: Sequence[float], quat_xyzw: Sequence[float]) -> Vec3:
        """Bounding-box centre of a piece from its centre-of-mass position and orientation, m."""
        piece = self.pieces[piece_id]
        if piece.com_local == (0.0, 0.0, 0.0):
            x, y, z = com
            return (x, y, z)
        x, y, z = (float(v) for v in self.frame(piece, com, quat_xyzw))
        return (x, y, z)

    def contacts_of(self, piece_id: str) -> list[ContactPoint]:
        """Contact points of one piece from the last step (the other body's id compares with
        :attr:`ground_body` for the ground)."""
        by_body = self.by_body
        return [
            ContactPoint(point[8], point[2], by_body.get(point[2], "?"), point[5], point[9])
            for point in pb.getContactPoints(self.pieces[piece_id].body, -1, -2, -2, self.client)
        ]

    def closest_distance(self, piece_id: str, others: Sequence[str], within: float) -> float:
        """Smallest signed distance, m, between a piece and any of the pieces ``others``
        (negative: overlap), or ``within`` if none is closer than that."""
        best = within
        body = self.pieces[piece_id].body
        for other in others:
            for point in pb.getClosestPoints(body, self.pieces[other].body, within, physicsClientId=self.client):
                best = min(best, point[8])
        return best

"""The physical world: a Kubb pitch (or a Kubbuteo table top) in its own PyBullet client.

:class:`World` is the façade the rest of kubb3d uses; the physics is split by concern:

=====================================  ==================================================
:mod:`kubb3d.physics.engine`           the client, its configuration, the clock, the bodies
:mod:`kubb3d.physics.terrain`          the ground bodies and the height under a point
:mod:`kubb3d.physics.poses`            poses, contact points, box geometry
:mod:`kubb3d.physics.forces`           air drag, plowing, rolling resistance, contact watch
:mod:`kubb3d.physics.stepping`         fine and long steps, pieces sliding alone, free flight
:mod:`kubb3d.physics.rest`             rest, balance and the tilt history
:mod:`kubb3d.physics.contact_forces`   the settle window and the contacts the judge reads
:mod:`kubb3d.physics.export`           the snapshot
=====================================  ==================================================

Engine settings and their measurements: docs/physics.md.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import numpy as np
from kubb3d.linear import mat_vec

from kubb3d.equipment import EquipmentSet, get_set
from kubb3d.physics._pybullet import pb
from kubb3d.physics.contact_forces import ForceWindow
from kubb3d.physics.engine import (
    DT,
    GRAVITY,
    NO_TURN,
    QUIET_DT,
    QUIET_STEPS,
    SIDE_NAMES,
    TABLE_DT,
    Engine,
    PhysicsGlitch,
)
from kubb3d.physics.export import snapshot as export_snapshot
from kubb3d.physics.forces import Forces
from kubb3d.physics.ground import Ground, get_ground
from kubb3d.physics.poses import ContactPoint, Point, Pose, Quat, Vec3
from kubb3d.physics.rest import SETTLE_S, TABLE_SETTLE_S, Rest, RunStats, Samples
from kubb3d.physics.stepping import Stepper
from kubb3d.physics.terrain import PIECE_KINDS, Terrain
from kubb3d.pitch import KING_ID, SIDES, Pitch
from kubb3d.snapshot import Contact, Snapshot

__all__ = ["DT", "GRAVITY", "SETTLE_S", "TABLE_SETTLE_S", "PhysicsGlitch", "Terrain", "World", "settle_setup"]

UPRIGHT: Quat = (0.0, 0.0, 0.0, 1.0)

SETUP_SETTLE_S = 5.0
"""s: at most this long a set-up on terrain settles before anything is thrown
(:func:`settle_setup`)."""


class World:
    """A Kubb pitch in its own PyBullet DIRECT client.

    Args:
        equipment: set name or :class:`EquipmentSet`.
        pitch: the pitch (default 5×8 m, or the set's board).
        ground: ground name or :class:`Ground` (default grass, or the set's board).
        dt: fixed time step, s (default :data:`DT`, or :data:`TABLE_DT` on a table-top board).
        air_drag: apply quadratic air drag to flying pieces.
        terrain: optional uneven ground (heightfield); None for a flat plane.
        stakes: add the corner and centre-line stakes as fixed bodies.
        solver_iterations: constraint solver iterations per step.
        quiet_dt: the long step, s (default: :data:`QUIET_STEPS` × ``dt``, at most
            :data:`QUIET_DT`). Pass ``dt`` to step at ``dt`` throughout, free flights too, and
            (unless ``sleep_early`` says otherwise) without early sleep: plain stepping, the
            reference of ``benchmarks/equivalence.py``.
        far_dt: the step of a piece moving fast alone on the flat field, far from every other
            piece and moving away from the near ones
            (:meth:`~kubb3d.physics.stepping.Stepper.far_for`), a whole number of fine steps;
            default ``dt``: off, because a ground impact at a longer step is not converged
            (docs/speed.md "Eleventh round"). For measurements.
        sleep_early: on the flat field, put the pieces that cannot tip to sleep once the world
            has been at rest for :data:`~kubb3d.physics.rest.SLEEP_AFTER` and end the settle
            window without stepping once all are asleep
            (:meth:`~kubb3d.physics.rest.Rest.sleep_resting`); default: on unless ``quiet_dt``
            equals ``dt``.

    Raises:
        ValueError: unknown equipment or ground, non-positive ``dt``, ``quiet_dt`` shorter
            than ``dt``, ``far_dt`` outside [``dt``, ``quiet_dt``].

    Attributes:
        engine: the client, its clock and bodies (:class:`~kubb3d.physics.engine.Engine`).
        forces: the force models (:class:`~kubb3d.physics.forces.Forces`).
        stepper: step hooks, the long step and the free-flight hand-over
            (:class:`~kubb3d.physics.stepping.Stepper`).
        rest: rest detection and the tilt history (:class:`~kubb3d.physics.rest.Rest`).
    """

    def __init__(
        self,
        equipment: str | EquipmentSet = "standard",
        pitch: Pitch | None = None,
        ground: str | Ground | None = None,
        *,
        dt: float | None = None,
        air_drag: bool = True,
        terrain: Terrain | None = None,
        stakes: bool = True,
        solver_iterations: int = 50,
        quiet_dt: float | None = None,
        far_dt: float | None = None,
        sleep_early: bool | None = None,
    ) -> None:
        equipment = get_set(equipment) if isinstance(equipment, str) else equipment
        board = equipment.board
        if dt is None:
            dt = TABLE_DT if board is not None else DT
        if not (dt > 0 and math.isfinite(dt)):
            raise ValueError(f"dt must be a positive number of seconds, got {dt}")
        if pitch is None:
            pitch = Pitch(board.length, board.width, equipment.baseline_inset) if board else Pitch()
        if ground is None:
            ground = "board" if board else "grass"
        ground = get_ground(ground) if isinstance(ground, str) else ground
        dt = float(dt)
        if quiet_dt is None:
            quiet_dt = max(dt, min(QUIET_STEPS * dt, QUIET_DT))
        elif not (quiet_dt >= dt and math.isfinite(quiet_dt)):
            raise ValueError(f"quiet_dt must be at least dt = {dt} s, got {quiet_dt}")
        if far_dt is None:
            far_dt = dt
        elif not (dt <= far_dt <= quiet_dt):
            raise ValueError(f"far_dt must be from dt = {dt} s to quiet_dt = {quiet_dt} s, got {far_dt}")
        self.engine = Engine(
            equipment,
            pitch,
            ground,
            terrain,
            dt=dt,
            quiet_dt=float(quiet_dt),
            far_dt=float(far_dt),
            air_drag=air_drag,
            solver_iterations=solver_iterations,
        )
        self.forces = Forces(self.engine)
        self.stepper = Stepper(self.engine, self.forces, self.engine.surface.top)
        if sleep_early is None:
            sleep_early = self.engine.quiet_dt > self.engine.dt
        self.rest = Rest(self.engine, self.stepper, self.engine.surface, sleep_early=sleep_early)
        self._window = ForceWindow(self.engine, self.stepper, self.rest)
        if stakes and equipment.stake is not None:
            half = equipment.stake.length / 2
            spots = [
                (sid, (x, y, self.ground_height(x, y) + half)) for sid, (x, y) in pitch.stake_positions().items()
            ]
            bodies = self.engine.new_bodies("stake", [pos for _, pos in spots])
            for (sid, pos), body in zip(spots, bodies):
                self.engine.register(sid, "stake", body, pos, UPRIGHT, None, True)

    # ------------------------------------------------------------------ what the world is
    @property
    def equipment(self) -> EquipmentSet:
        """The equipment set."""
        return self.engine.equipment

    @property
    def pitch(self) -> Pitch:
        """The pitch."""
        return self.engine.pitch

    @property
    def ground(self) -> Ground:
        """The playing surface."""
        return self.engine.ground

    @property
    def dt(self) -> float:
        """s: the fine step, taken while pieces can collide fast."""
        return self.engine.dt

    @property
    def quiet_dt(self) -> float:
        """s: the long step, taken while nothing moves fast."""
        return self.engine.quiet_dt

    @property
    def time(self) -> float:
        """s: simulated time."""
        return self.engine.time

    @property
    def steps(self) -> int:
        """Physics steps taken."""
        return self.engine.steps

    # ------------------------------------------------------------------ ground
    def ground_height(self, x: float, y: float) -> float:
        """Ground height at (x, y), m (0 on the flat ground; on terrain the surface PyBullet
        collides with)."""
        return self.engine.surface.height(x, y)

    def height_on_ground(self, kind: str, x: float, y: float, quat_xyzw: Sequence[float] = UPRIGHT) -> float:
        """z of the bounding-box centre, m, that puts a piece of ``kind`` at (x, y) in orientation
        ``quat_xyzw`` on the ground with no part of its bounding box below it.

        Raises:
            ValueError: unknown kind.
        """
        return self.engine.surface.height_on_ground(kind, x, y, quat_xyzw)

    # ------------------------------------------------------------------ pieces
    def add_piece(
        self,
        piece_id: str,
        kind: str,
        position: Point,
        quat_xyzw: Sequence[float] = UPRIGHT,
        *,
        side: str | None = None,
        sleeping: bool = True,
    ) -> int:
        """Add a piece; ``position`` is the centre of its bounding box, m.

        Args:
            piece_id: unique id (see :mod:`kubb3d.pitch`).
            kind: ``kubb`` | ``king`` | ``baton`` | ``stake``.
            position: (x, y, z), m.
            quat_xyzw: orientation.
            side: owning side of a kubb ('A'/'B'); defaults to the half it stands in.
            sleeping: start asleep (woken by the first contact).

        Returns:
            The PyBullet body id.

        Raises:
            ValueError: duplicate id, unknown kind or a kind the set does not have.
        """
        if piece_id in self.engine.pieces:
            raise ValueError(f"a piece with id {piece_id!r} already exists")
        if kind not in PIECE_KINDS:
            raise ValueError(f"unknown piece kind {kind!r}; expected kubb, king, baton or stake")
        if side is not None and side not in SIDE_NAMES:
            raise ValueError(f"unknown side {side!r}; expected A or B")
        self.equipment.piece(kind)  # ValueError for a kind the set does not have
        x, y, z = position
        qx, qy, qz, qw = quat_xyzw
        body = self.engine.new_bodies(kind, [(x, y, z)], (qx, qy, qz, qw))[0]
        return self.engine.register(piece_id, kind, body, position, quat_xyzw, side, sleeping)

    def setup_standard(self, sleeping: bool = True) -> None:
        """Place the ten baseline kubbs upright and the king on the centre point (DM §2). On
        terrain each is set flush into the ground under its spot
        (:meth:`~kubb3d.physics.terrain.GroundSurface.standing_pose`) and the set-up is settled
        (:func:`settle_setup`) before anything is thrown, so that a throw's start poses are at
        rest (docs/physics.md "Setting up on uneven ground")."""
        for side in SIDES:
            for kubb_id, (x, y) in self.pitch.baseline_kubb_positions(side).items():
                position, quat = self.engine.surface.standing_pose("kubb", x, y)
                self.add_piece(kubb_id, "kubb", position, quat, side=side, sleeping=sleeping)
        x, y = self.pitch.king_position
        position, quat = self.engine.surface.standing_pose("king", x, y)
        self.add_piece(KING_ID, "king", position, quat, sleeping=sleeping)
        if self.engine.surface.terrain is not None:
            settle_setup(self, sleeping)

    @classmethod
    def standard(cls, *args: Any, sleeping: bool = True, **kwargs: Any) -> World:
        """A world with stakes, the ten baseline kubbs and the king (arguments as :class:`World`)."""
        world = cls(*args, **kwargs)
        world.setup_standard(sleeping=sleeping)
        return world

    def remove_piece(self, piece_id: str) -> None:
        """Take a piece out of the world (KeyError if unknown)."""
        self.engine.remove(piece_id)

    def close(self) -> None:
        """Release the PyBullet client (the world is unusable afterwards)."""
        self.engine.close()

    def __enter__(self) -> World:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def piece_ids(self, *kinds: str) -> list[str]:
        """Ids of the pieces, optionally only of the given kinds, in insertion order."""
        return [piece.id for piece in self.engine.pieces.values() if not kinds or piece.kind in kinds]

    def has_piece(self, piece_id: str) -> bool:
        """True if the world holds a piece with that id."""
        return piece_id in self.engine.pieces

    def kind(self, piece_id: str) -> str:
        """The kind of a piece."""
        return self.engine.pieces[piece_id].kind

    def set_side(self, piece_id: str, side: str | None) -> None:
        """Record which half a kubb belongs to ('A'/'B'), e.g. after it was inkasted.

        Raises:
            ValueError: a side other than A, B or None.
        """
        if side is not None and side not in SIDE_NAMES:
            raise ValueError(f"unknown side {side!r}; expected A or B")
        self.engine.pieces[piece_id].side = None if side is None else SIDE_NAMES[side]

    def mass_properties(self, piece_id: str) -> tuple[float, Vec3]:
        """(mass kg, principal moments of inertia about the centre of mass kg·m²) as the engine
        holds them."""
        info = pb.getDynamicsInfo(self.engine.body_of(piece_id), -1, physicsClientId=self.engine.client)
        ix, iy, iz = (float(v) for v in info[2])
        return float(info[0]), (ix, iy, iz)

    # ------------------------------------------------------------------ poses
    def pose(self, piece_id: str) -> Pose:
        """Where a piece is: its bounding-box centre, m, shape (3,), and quat_xyzw."""
        piece = self.engine.pieces[piece_id]
        com, quat = pb.getBasePositionAndOrientation(piece.body, physicsClientId=self.engine.client)
        return Pose(self.engine.frame(piece, com, quat), quat)

    def com_pose(self, piece_id: str) -> tuple[Vec3, Quat]:
        """(centre of mass position m, quat_xyzw) as plain tuples, straight from the engine (the
        cheap read for per-step loops; :meth:`pose` gives the bounding-box centre)."""
        return self.engine.com_pose(piece_id)

    def set_pose(
        self,
        piece_id: str,
        position: Point,
        quat_xyzw: Sequence[float] = UPRIGHT,
        *,
        linear_velocity: Point = (0, 0, 0),
        angular_velocity: Point = (0, 0, 0),
        wake: bool = True,
    ) -> None:
        """Move a piece (bounding-box centre ``position``, m), set its velocities (m/s, rad/s)
        and start its history afresh (placing a piece sets it up, DM §5)."""
        engine = self.engine
        piece = engine.pieces[piece_id]
        m = np.array(pb.getMatrixFromQuaternion(quat_xyzw)).reshape(3, 3)
        com = np.asarray(position, dtype=float) + mat_vec(m, piece.com_local)
        client = engine.client
        pb.resetBasePositionAndOrientation(piece.body, com.tolist(), quat_xyzw, physicsClientId=client)
        engine.placed += 1
        pb.resetBaseVelocity(piece.body, list(linear_velocity), list(angular_velocity), physicsClientId=client)
        piece.pose_read = piece.velocity_read = None
        piece.last_turn = NO_TURN  # a turn set here is not the contacts' answer
        if wake:
            pb.changeDynamics(piece.body, -1, activationState=pb.ACTIVATION_STATE_WAKE_UP, physicsClientId=client)
        if wake or any(linear_velocity) or any(angular_velocity):
            engine.placed_awake.add(piece_id)
        piece.awake = True
        qx, qy, qz, qw = quat_xyzw
        piece.reset_tilt((qx, qy, qz, qw))
        engine.off_board.discard(piece_id)

    def velocity(self, piece_id: str) -> tuple[np.ndarray, np.ndarray]:
        """(linear velocity m/s, angular velocity rad/s), world frame, shape (3,) each."""
        v, w = pb.getBaseVelocity(self.engine.body_of(piece_id), physicsClientId=self.engine.client)
        return np.array(v), np.array(w)

    def box_corners(self, piece_id: str) -> np.ndarray:
        """The eight corners of a piece's bounding box in the world, m, shape (8, 3)."""
        piece = self.engine.pieces[piece_id]
        com, quat = pb.getBasePositionAndOrientation(piece.body, physicsClientId=self.engine.client)
        return self.rest.box_corners(piece, com, quat)

    def contacts_of(self, piece_id: str) -> list[ContactPoint]:
        """Contact points of one piece from the last step."""
        return self.engine.contacts_of(piece_id)

    def clear_history(self) -> None:
        """Start every piece's history afresh (call at the start of a throwing round, DM §5): the
        largest angle between its long axis and the upright direction of its last set-up (this
        call, :meth:`add_piece` or :meth:`set_pose`)."""
        self.rest.clear_history()

    # ------------------------------------------------------------------ stepping
    def use_step(self, dt: float) -> None:
        """Take steps of ``dt`` seconds from now on (:attr:`dt` or :attr:`quiet_dt`)."""
        self.engine.use_step(dt)

    def step(self, n: int = 1, *, rolling: bool = True) -> None:
        """Advance ``n`` steps of the current step length, with the field batons' rolling
        resistance unless ``rolling`` is False (no baton can touch the ground while it turns)."""
        self.stepper.step(n, rolling=rolling)

    def steps_for(self, seconds: float) -> int:
        """Whole steps of the current step length covering ``seconds`` (at least 1)."""
        return self.stepper.steps_for(seconds)

    def set_flight_step(self, piece_id: str, old_dt: float, new_dt: float) -> None:
        """Switch the step of a piece in free flight from ``old_dt`` to ``new_dt`` s (0: just
        released), its vertical velocity kept half a step ahead against gravity."""
        self.stepper.set_flight_step(piece_id, old_dt, new_dt)

    def apply_drag(self, piece_id: str, state: tuple[Any, Any, Any] | None = None) -> None:
        """Apply air drag to one piece for the coming step (no-op without drag); ``state`` its
        (centre of mass, quat_xyzw, linear velocity) if the caller has just read them."""
        self.forces.apply_drag(piece_id, state)

    def run_until_rest(
        self,
        max_time: float = 20.0,
        sample_every: float | None = None,
        on_sample: Callable[[float, Samples], None] | None = None,
        *,
        settle_s: float | None = None,
    ) -> RunStats:
        """Step until the world is at rest, at most ``max_time`` s
        (:meth:`~kubb3d.physics.rest.Rest.iter_until_rest`), calling ``on_sample`` with each
        (time s, {piece id: (centre of mass, quat_xyzw)}) sample.

        Raises:
            PhysicsGlitch: NaN or a piece far outside the world.
        """
        return self.rest.run_until_rest(max_time, sample_every, on_sample, settle_s=settle_s)

    def sleep_all(self) -> None:
        """Put every movable piece to sleep (after the world came to rest)."""
        self.rest.sleep_all()

    # ------------------------------------------------------------------ what the judge reads
    def settle_forces(self, max_time: float = 3.0) -> bool:
        """Wake every piece and step a short window so that the contacts read next carry the
        static normal forces (:meth:`~kubb3d.physics.contact_forces.ForceWindow.settle_forces`);
        True if the world was still at rest after waking up."""
        return self._window.settle_forces(max_time)

    def contacts(self) -> tuple[Contact, ...]:
        """Every contact point from the last step, as plain data (right after
        :meth:`settle_forces`: the window's mean forces)."""
        return self._window.contacts()

    def snapshot(self, contacts: bool = True) -> Snapshot:
        """The world now as a :class:`Snapshot` (contacts from the last step; none with
        ``contacts=False``)."""
        return export_snapshot(self.engine, self._window, contacts)


def settle_setup(world: World, sleeping: bool = True, max_time: float = SETUP_SETTLE_S) -> RunStats:
    """Let pieces just set up on terrain come to rest before anything is thrown (at most
    ``max_time`` s), then clear their tilt history (DM §5) and, if ``sleeping``, put them to
    sleep: a throw's start poses are then at rest (docs/physics.md "Setting up on uneven
    ground")."""
    stats = world.run_until_rest(max_time)
    world.clear_history()
    if sleeping:
        world.sleep_all()
    return stats

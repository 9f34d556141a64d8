"""The forces kubb3d applies besides PyBullet's: air drag, the ground's plowing resistance, a
field baton's rolling resistance, and the per-step contact watch of a thrown piece.

All of them read the summed normal force of a piece's ground contacts in the last step through
one helper, :func:`ground_force`. The models and their checks: docs/physics.md "Air drag",
"Ground contact", "A baton sliding on the ground", "A baton that never came to rest".
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from kubb3d.physics._pybullet import pb

if TYPE_CHECKING:
    from kubb3d.physics.engine import Engine, PieceBody

ROLLING_ROW_FRICTION = 1e-9
"""m: the rolling friction PyBullet gets for a field baton: next to nothing. Bullet's rolling rows
about the ground's fixed axes made a sliding baton drift sideways, so a field baton's rolling
resistance is a torque about its own axis (:meth:`Forces.resist_rolling`); it stays above 0
because Bullet gives a contact its spinning-friction row only when it has rolling friction
(docs/physics.md "A baton sliding on the ground")."""

TERRAIN_ROLL_SPEED = 0.2
"""m/s: on a terrain heightfield a field baton whose centre of mass moves faster than this gets its
rolling resistance as the torque about its own axis, and Bullet's rolling friction rows
(c_rr · r about the ground's two horizontal axes) only while it is slower (docs/physics.md "A
baton sliding on the ground"; ``benchmarks/terrain_baton.py``)."""

ContactPoints = Iterable[Sequence[Any]]
"""PyBullet contact points (``getContactPoints`` rows)."""


def ground_force(points: ContactPoints, ground_body: int, solved_gap: float) -> tuple[float, float, float, float]:
    """The summed normal force, N, of the contact points with ``ground_body`` that the solver
    processed in the last step (distance ≤ ``solved_gap`` m), and its normal-weighted direction
    (Σ f·n, 3 floats), in the engine's order. Not yet scaled by
    :meth:`~kubb3d.physics.engine.Engine.force_scale`."""
    normal = nx = ny = nz = 0.0
    for point in points:
        if point[2] == ground_body and point[8] <= solved_gap:
            f, d = point[9], point[7]
            normal += f
            nx += f * d[0]
            ny += f * d[1]
            nz += f * d[2]
    return normal, nx, ny, nz


def ground_height(points: ContactPoints, ground_body: int, solved_gap: float) -> float | None:
    """The mean height, m, of the contact points with ``ground_body`` that the solver processed in
    the last step (as :func:`ground_force`), weighted by their normal forces, on the piece; None
    if they carry no force."""
    normal = z = 0.0
    for point in points:
        if point[2] == ground_body and point[8] <= solved_gap:
            f = point[9]
            normal += f
            z += f * point[5][2]
    return z / normal if normal > 0.0 else None


def plowing_impulses(
    plowed: float,
    mass: float,
    inertia: Sequence[float],
    quat: Sequence[float],
    drop: float,
    velocity: Sequence[float],
    spin: Sequence[float],
) -> tuple[float, float, float, float]:
    """The horizontal impulses, N·s, of the plowing over one step on a rigid body: (x, y) at its
    centre of mass, then (x, y) at the point ``drop`` m straight above it (below if < 0), the
    height of its ground contacts (docs/physics.md "Plowing").

    The first is the exact solution of m dv/dt = −k N v_h over the step: −m (1 − exp(−k N h / m)) v_h.
    The second, on the velocities the first leaves, the exact solution of du/dt = −k N K u for the
    point's horizontal velocity u = v + ω × (0, 0, drop), K its 2×2 horizontal inverse effective
    mass (1/m + drop² times rows of the world inverse inertia, 1/kg) held over the step:
    −K⁻¹ (1 − exp(−k N h K)) u. Each brings its velocity towards 0 and never past it, and neither
    raises the body's kinetic energy.

    Args:
        plowed: k · N · h, kg (the ground's plowing s/m times the normal force N times the step s).
        mass: kg, > 0.
        inertia: principal moments of inertia about the body axes, kg·m², all > 0.
        quat: orientation (x, y, z, w), the frame of ``inertia``.
        drop: m, the height of the point above the centre of mass.
        velocity: linear velocity, m/s (3 floats).
        spin: angular velocity, rad/s, world frame (3 floats).
    """
    inv = 1.0 / mass
    slow = math.expm1(-plowed * inv)  # minus the share of v_h the first takes away
    cx, cy = mass * slow * velocity[0], mass * slow * velocity[1]
    ux = velocity[0] * (1.0 + slow) + spin[1] * drop
    uy = velocity[1] * (1.0 + slow) - spin[0] * drop
    if ux == 0.0 and uy == 0.0:
        return cx, cy, 0.0, 0.0
    qx, qy, qz, qw = quat
    # the first two rows of the rotation matrix (the body axes as columns)
    r00, r01, r02 = 1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw), 2 * (qx * qz + qy * qw)
    r10, r11, r12 = 2 * (qx * qy + qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qx * qw)
    i0, i1, i2 = 1.0 / inertia[0], 1.0 / inertia[1], 1.0 / inertia[2]
    a00 = r00 * r00 * i0 + r01 * r01 * i1 + r02 * r02 * i2
    a11 = r10 * r10 * i0 + r11 * r11 * i1 + r12 * r12 * i2
    a01 = r00 * r10 * i0 + r01 * r11 * i1 + r02 * r12 * i2
    d2 = drop * drop
    # K = [[kxx, kxy], [kxy, kyy]]: a unit impulse along x at the point changes u by K's first column
    kxx, kyy, kxy = inv + d2 * a11, inv + d2 * a00, -d2 * a01
    mean, half = (kxx + kyy) / 2, (kxx - kyy) / 2
    spread = math.sqrt(half * half + kxy * kxy)
    if spread <= 1e-9 * mean:
        g = -math.expm1(-plowed * mean) / mean
        return cx, cy, -g * ux, -g * uy
    high, low = mean + spread, mean - spread
    f_high, f_low = -math.expm1(-plowed * high) / high, -math.expm1(-plowed * low) / low
    # f(K) = alpha + beta K, f(λ) = (1 − exp(−plowed λ)) / λ on K's two eigenvalues
    beta = (f_high - f_low) / (high - low)
    alpha = f_high - beta * high
    return cx, cy, -(alpha * ux + beta * (kxx * ux + kxy * uy)), -(alpha * uy + beta * (kxy * ux + kyy * uy))


class Forces:
    """The force models of one engine.

    Args:
        engine: the engine whose pieces they act on.
    """

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    @property
    def engine(self) -> Engine:
        """The engine whose pieces these forces act on."""
        return self._engine

    def has_drag(self, piece_id: str) -> bool:
        """True if the piece has an air-drag model (a baton or kubb of a lawn set; see
        :func:`kubb3d.physics.aero.piece_drag`)."""
        return self._engine.pieces[piece_id].drag is not None

    def apply_drag(self, piece_id: str, state: tuple[Any, Any, Any] | None = None) -> None:
        """Apply air drag to one piece for the coming step (no-op without drag).

        Args:
            piece_id: the piece.
            state: its (centre of mass, quat_xyzw, linear velocity) if the caller has just
                read them (saves two PyBullet calls per step in a flight loop).
        """
        engine = self._engine
        piece = engine.pieces[piece_id]
        if not engine.air_drag or piece.drag is None:
            return
        client = engine.client
        if state is None:
            com, quat = pb.getBasePositionAndOrientation(piece.body, physicsClientId=client)
            velocity = pb.getBaseVelocity(piece.body, physicsClientId=client)[0]
        else:
            com, quat, velocity = state
        x, y, z, w = quat  # its long axis (poses.long_axis, inline: once per flight step)
        force = piece.drag.force(velocity, (2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)))
        pb.applyExternalForce(piece.body, -1, force, com, pb.WORLD_FRAME, physicsClientId=client)

    def apply_plowing(
        self,
        piece_id: str,
        normal: float | None = None,
        state: tuple[Any, Any, Any, Any] | None = None,
        height: float | None = None,
    ) -> None:
        """Apply the ground's plowing resistance to one piece for the coming step, k the ground's
        :attr:`~kubb3d.physics.ground.Ground.plowing` (s/m), N the normal force of its ground
        contacts in the last step (N): a horizontal force −k · N · v_h at its centre of mass, and
        one −k · N · u at its ground contacts' height straight below it, u that point's
        horizontal velocity (m/s), each as the exact solution over one step
        (:func:`plowing_impulses`: neither reverses the motion it resists nor adds energy; the
        second turns a piece whose end digs in). No-op on a ground without plowing.

        Args:
            piece_id: the piece.
            normal: the summed normal force of its ground contacts in the last step, N, if the
                caller has just read it.
            state: its (centre of mass, quat_xyzw, linear velocity, angular velocity) if the
                caller has just read them.
            height: the normal-weighted mean height of its ground contacts, m (:func:`ground_height`),
                if the caller has just read it.
        """
        engine = self._engine
        k = engine.ground.plowing
        if k <= 0:
            return
        piece = engine.pieces[piece_id]
        client = engine.client
        if normal is None or height is None:
            points = list(pb.getContactPoints(bodyA=piece.body, bodyB=piece.ground, physicsClientId=client))
            if normal is None:
                normal = ground_force(points, piece.ground, engine.solved_gap)[0]
                if engine.taken_dt != engine.step_dt:
                    normal *= engine.force_scale()
            if height is None:
                height = ground_height(points, piece.ground, engine.solved_gap)
        if normal <= 0.0 or height is None:
            return
        if state is None:
            com, quat = pb.getBasePositionAndOrientation(piece.body, physicsClientId=client)
            v, spin = pb.getBaseVelocity(piece.body, physicsClientId=client)
        else:
            com, quat, v, spin = state
        h = engine.step_dt
        cx, cy, px, py = plowing_impulses(k * normal * h, piece.mass, piece.inertia, quat, height - com[2], v, spin)
        pb.applyExternalForce(piece.body, -1, (cx / h, cy / h, 0.0), com, pb.WORLD_FRAME, physicsClientId=client)
        pb.applyExternalForce(
            piece.body, -1, (px / h, py / h, 0.0), (com[0], com[1], height), pb.WORLD_FRAME, physicsClientId=client
        )

    def touching_now(self, piece_id: str) -> tuple[float, list[tuple[str, tuple[float, ...]]]]:
        """What one piece touched in the last step, for a per-step watch: (the summed normal
        force of its ground contacts, N (:func:`ground_force`); [(other piece id, or ``floor``
        or ``?``; contact position on this piece, m) for every contact point with anything but
        the ground or the board, in the engine's order])."""
        engine = self._engine
        piece = engine.pieces[piece_id]
        points = pb.getContactPoints(bodyA=piece.body, physicsClientId=engine.client)
        normal, nx, ny, nz = ground_force(points, piece.ground, engine.solved_gap)
        by_body, flat = engine.by_body, engine.ground_bodies
        others = [(by_body.get(point[2], "?"), point[5]) for point in points if point[2] not in flat]
        if engine.taken_dt != engine.step_dt:
            k = engine.force_scale()
            normal, nx, ny, nz = normal * k, nx * k, ny * k, nz * k
        if piece.roll is not None:
            piece.ground_read = (engine.tick, normal, nx, ny, nz)  # for resist_rolling, this step
        return normal, others

    def contact_watch(self, piece_id: str, *, drag_until: float) -> ContactWatch:
        """A step hook for a thrown piece after its first contact (:class:`ContactWatch`): the
        same contacts, forces and order as :meth:`touching_now`, then :meth:`apply_drag` (until
        the piece first moves slower than ``drag_until`` m/s) and :meth:`apply_plowing`, with one
        read of the piece's state."""
        return ContactWatch(self._engine, self._engine.pieces[piece_id], drag_until)

    def resist_rolling(self, rollers: Sequence[PieceBody] | None = None) -> None:
        """Apply the ground's rolling resistance to every field baton that touched it in the last
        step, for the coming step: a torque of c_rr · r · N · s about u against the baton's turn
        ω·u, u its axis with its part along the contact normal taken out (s = |u| before
        normalising), N its ground contacts' normal force (:func:`ground_force`), c_rr the
        ground's :attr:`~kubb3d.physics.ground.Ground.rolling_resistance`, r its radius. The
        torque's impulse is at most what stops the turn in one step; a baton whose turn turned
        back since the step before sticks and gets none, unless it got none in that step too.
        On terrain only while faster than :data:`TERRAIN_ROLL_SPEED` (Bullet's rolling friction
        while slower).

        Reads the batons a step hook read in this step (the thrown piece) and every baton awake
        at the last motion check (:attr:`~kubb3d.physics.engine.PieceBody.awake`); a baton woken
        by a strike gets its resistance from the next check on (docs/speed.md). ``rollers``: only
        these of the engine's field batons, in its order (None: all)."""
        engine = self._engine
        client, h, tick = engine.client, engine.step_dt, engine.tick
        solved = engine.solved_gap
        # PyBullet's functions bound once and called with positional arguments (issue #32)
        velocity, contacts, pose = pb.getBaseVelocity, pb.getContactPoints, pb.getBasePositionAndOrientation
        for piece in engine.rollers if rollers is None else rollers:
            # what a step hook has read in this step already (the thrown piece's watch) is not
            # read again: its ground contacts, velocity and pose
            read = piece.ground_read
            watched = read is not None and read[0] == tick
            if read is not None and watched:
                _, normal, nx, ny, nz = read
                if normal <= 0.0:
                    continue
            elif not piece.awake:
                continue
            if piece.velocity_read is not None and piece.velocity_read[0] == tick:
                (vx, vy, vz), (wx, wy, wz) = piece.velocity_read[1]
            else:
                (vx, vy, vz), (wx, wy, wz) = velocity(piece.body, client)
            if piece.rows is not None:
                # on terrain: Bullet's rows while slow, the torque about the axis while fast
                fast = vx * vx + vy * vy + vz * vz > TERRAIN_ROLL_SPEED * TERRAIN_ROLL_SPEED
                if fast == piece.rows_on:
                    piece.rows_on = not fast
                    pb.changeDynamics(
                        piece.body,
                        -1,
                        rollingFriction=ROLLING_ROW_FRICTION if fast else piece.rows,
                        physicsClientId=client,
                    )
                if not fast:
                    continue
            if wx == 0.0 and wy == 0.0 and wz == 0.0:
                continue  # asleep or still (Bullet zeroes a sleeping body's velocities)
            if not watched:
                ground = piece.ground
                points = contacts(piece.body, ground, -2, -2, client)
                normal, nx, ny, nz = ground_force(points, ground, solved)
                if normal <= 0.0:
                    continue
                if engine.taken_dt != h:
                    normal *= engine.force_scale()
            if piece.pose_read is not None and piece.pose_read[0] == tick:
                quat = piece.pose_read[1][1]
            else:
                quat = pose(piece.body, client)[1]
            qx, qy, qz, qw = quat  # its long axis (poses.long_axis, inline: once per step)
            ax, ay, az = 2 * (qx * qz + qy * qw), 2 * (qy * qz - qx * qw), 1 - 2 * (qx * qx + qy * qy)
            k = 1.0 / math.sqrt(nx * nx + ny * ny + nz * nz)
            nx, ny, nz = nx * k, ny * k, nz * k
            along = ax * nx + ay * ny + az * nz
            ux, uy, uz = ax - along * nx, ay - along * ny, az - along * nz
            s = math.sqrt(ux * ux + uy * uy + uz * uz)
            if s < 1e-9:
                continue
            ux, uy, uz = ux / s, uy / s, uz / s
            turn = wx * ux + wy * uy + wz * uz
            # the torque of the step before turned the roll back: the baton sticks, no torque;
            # a step without it is kept as no turn, so that the next turn back gets the torque
            # again (else a cycle of two withheld steps in three rolls it on: docs/physics.md)
            last_tick, last_turn = piece.last_turn
            if last_tick == tick - 1 and turn * last_turn < 0.0:
                piece.last_turn = (tick, 0.0)
                continue
            piece.last_turn = (tick, turn)
            assert piece.roll is not None  # a roller has one
            crr_r, i_axis, i_diameter = piece.roll
            cos2 = (ax * ux + ay * uy + az * uz) ** 2
            hold = (i_axis * cos2 + i_diameter * (1.0 - cos2)) * abs(turn) / h
            torque = -math.copysign(min(crr_r * normal * s, hold), turn)
            pb.applyExternalTorque(piece.body, -1, (torque * ux, torque * uy, torque * uz), pb.WORLD_FRAME, client)


class ContactWatch:
    """The watch of a thrown piece after its first contact (:meth:`Forces.contact_watch`).

    :attr:`hook` is called before every step: it reads the piece's contact points of the step
    just taken (as :meth:`Forces.touching_now`), keeps every piece it touches and the first
    contact with anything but the ground, and applies for the coming step the air drag (until
    the piece first moves slower than ``drag_until`` m/s) and the ground's plowing resistance,
    both from one read of its velocity and pose.

    Attributes:
        touched: ids of what it touched (pieces, ``floor`` or ``?``; not the ground).
        first: (id, world time s, contact position on the piece m) of its first contact with
            anything but the ground, None until there is one.
        active: False once the hook can apply no force any more (no drag and no plowing
            ground): a caller may register it as a mere watch.
    """

    def __init__(self, engine: Engine, piece: PieceBody, drag_until: float) -> None:
        self.touched: set[str] = set()
        self.first: tuple[str, float, tuple[float, ...]] | None = None
        plow = engine.ground.plowing
        drag = piece.drag if engine.air_drag else None
        self.active = drag is not None or plow > 0
        client, body, ground = engine.client, piece.body, piece.ground
        by_body, flat, solved = engine.by_body, engine.ground_bodies, engine.solved_gap
        roller, mass, limit2 = piece.roll is not None, piece.mass, drag_until**2
        touched = self.touched
        contacts, velocity, pose = pb.getContactPoints, pb.getBaseVelocity, pb.getBasePositionAndOrientation
        apply_force, frame, impulses, inertia = pb.applyExternalForce, pb.WORLD_FRAME, plowing_impulses, piece.inertia

        def hook() -> None:
            nonlocal drag
            # positional arguments (PyBullet parses keywords slower); ground_force's sums inline,
            # in the same order, in the one pass over the points (docs/speed.md, issue #32)
            points = contacts(body, -1, -2, -2, client)
            normal = nx = ny = nz = pz = 0.0
            for point in points:
                other_body = point[2]
                if other_body == ground and point[8] <= solved:
                    f, d = point[9], point[7]
                    normal += f
                    nx += f * d[0]
                    ny += f * d[1]
                    nz += f * d[2]
                    pz += f * point[5][2]
                if other_body not in flat:
                    other = by_body.get(other_body, "?")
                    if self.first is None:
                        self.first = (other, engine.time, point[5])
                    touched.add(other)
            height = pz / normal if normal > 0.0 else 0.0  # ground_height, inline
            if engine.taken_dt != engine.step_dt:
                k = engine.force_scale()  # as Forces.touching_now: the force of the step taken
                normal, nx, ny, nz = normal * k, nx * k, ny * k, nz * k
            tick = engine.tick
            if roller:
                piece.ground_read = (tick, normal, nx, ny, nz)  # for Forces.resist_rolling, this step
            plowing = plow > 0 and normal > 0.0
            if drag is None and not plowing:
                return
            if roller:
                # a field baton's state read in this step already (Stepper.slide_for) is not read again
                read = piece.velocity_read
                vel = read[1] if read is not None and read[0] == tick else velocity(body, client)
                read = piece.pose_read
                state = read[1] if read is not None and read[0] == tick else pose(body, client)
                piece.velocity_read = (tick, vel)
                piece.pose_read = (tick, state)
            else:
                vel = velocity(body, client)
                state = pose(body, client)
            (v, spin), (com, quat) = vel, state
            vx, vy, vz = v
            if drag is not None:
                if vx * vx + vy * vy + vz * vz < limit2:
                    drag = None
                    self.active = plow > 0
                else:
                    x, y, z, w = quat  # its long axis (poses.long_axis, inline: once per step)
                    axis = (2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))
                    apply_force(body, -1, drag.force(v, axis), com, frame, client)
            if plowing:
                # Forces.apply_plowing: at the contacts' height below the centre of mass
                h = engine.step_dt
                cx, cy, px, py = impulses(plow * normal * h, mass, inertia, quat, height - com[2], v, spin)
                apply_force(body, -1, (cx / h, cy / h, 0.0), com, frame, client)
                apply_force(body, -1, (px / h, py / h, 0.0), (com[0], com[1], height), frame, client)

        self.hook = hook

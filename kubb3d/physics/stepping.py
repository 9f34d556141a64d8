"""Adaptive stepping: the fine and the long step, step hooks, a piece's velocities kept half a
step ahead across a change of step, a table-top disk or a field baton sliding alone at the long
step, and the hand-over of a free flight integrated outside the engine.

Why each step length, and the checks that the results do not depend on it: docs/physics.md
"Time step", "Table-top sets", "A field baton sliding alone"; docs/speed.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

from kubb3d.physics._pybullet import pb
from kubb3d.physics.engine import GRAVITY, NO_TURN, REST_SPEED, REST_TURN, Engine, PieceBody
from kubb3d.physics.forces import Forces
from kubb3d.physics.poses import frame_from_com, long_axis

QUIET_SPEED = 0.3
"""m/s: while the fastest point of every piece is slower than this the world takes the long step
(:attr:`~kubb3d.physics.engine.Engine.quiet_dt`)."""

SLIDE_MARGIN = 0.005
"""m: a piece sliding alone takes the long step only while its sphere about its centre of mass
stays this far (plus two long steps' travel, plus how far the other pieces can move until the
next sample) from every other piece and from a board's edges."""
SLIDE_FLAT_COS = math.cos(math.radians(3.0))
"""A disk lies flat (and may slide at the long step) while its axis is within 3° of the vertical."""
SLIDE_STEADY_VZ = 0.01
"""m/s: ... and while its centre of mass moves up or down slower than this,"""
SLIDE_STEADY_AZ = 1.0
"""m/s²: ... gained less than this vertical speed per second in the last step,"""
SLIDE_STEADY_TILT = 0.5
"""rad/s: ... turns about a horizontal axis slower than this (it does not rock onto its rim),"""
SLIDE_FRICTION_SLACK = 1.1
"""... and lost at most this many times the ground's deceleration in the last step (no collision)."""
SLIDE_STEADY_CHANGE = 0.25
"""m/s²: a field baton goes over to the long step only when its accelerations over its last two
steps differ by at most this at any of its points (:func:`_steady`; docs/physics.md "A field
baton sliding alone")."""
SLIDE_LEVEL_SIN = math.sin(math.radians(3.0))
"""A field baton lies on the ground (and may slide or roll at the long step) while its axis is
within 3° of the horizontal; then the disk's tests hold for it too, with its plowing and air
drag added to the deceleration it may have."""

FAR_CHECK = 4
"""A piece far from the others (:meth:`Stepper.far_steps`, off by default) takes this many far
steps between two checks of its clearance."""
FAR_SAFETY = 1.5
"""How many times its speed bound a far piece's clearance must allow for (the bound is exact if
nothing adds energy; Bullet's contacts may add a little)."""
FAR_AWAY = 1.0
"""m: a far piece must also move away (horizontally) from every other piece whose clearance is
less than this, so that the longer steps do not change how it arrives there."""

StepHook = Callable[[], None]


@dataclass
class Far:
    """A piece moving fast alone, far from every other piece (:meth:`Stepper.far_for`)."""

    piece: PieceBody
    ratio: int
    """the far step is this many fine steps"""
    spheres: list[tuple[float, float, float, float]]
    """(x, y, z, r): another piece's centre of mass, m, and both pieces' reach, m"""
    others_speed: float
    """m/s: the fastest point of the other pieces when they were read"""
    read_at: float
    """s: when they were read (world time)"""
    fine_steps: int
    """the span to advance, in fine steps"""


@dataclass
class Slide:
    """A table-top disk or a field baton sliding alone (:meth:`Stepper.start_slide`)."""

    piece: PieceBody
    ratio: int
    """the long step is this many fine steps"""
    h: float
    """s: the step it takes now"""
    thin: int
    """the disk's thin body axis (0, 1 or 2); a field baton's long axis"""
    on_field: bool = False
    """a baton on the flat field ground (else a disk on a table top)"""
    v: Sequence[float] | None = None
    """its velocity before the last step, m/s"""
    w: Sequence[float] | None = None
    """its angular velocity before the last step, rad/s"""
    others: list[tuple[float, float, float, float]] = field(default_factory=list)
    """(x, y, z, r): another piece's centre of mass, m, and both pieces' reach, m"""
    others_speed: float = 0.0
    """m/s: the fastest point of the other pieces when they were read"""
    others_time: float = 0.0
    """s: when they were read (world time)"""
    acc: tuple[float, ...] | None = None
    """a field baton's accelerations (m/s², rad/s²) over the step before the last one, if that
    step was a checked one"""
    at: tuple[float, float, float] | None = None
    """where the last exact clearance was computed"""
    gap: float = -math.inf
    """m: that clearance"""
    wait: int = 0
    """fine steps to take before the next check"""


def _steady(before: tuple[float, ...] | None, now: tuple[float, ...], reach: float) -> bool:
    """True if a piece's accelerations over two steps in a row (a, α: m/s², rad/s²; ``before``
    None: not measured) differ at no point within ``reach`` m of its centre of mass by more than
    :data:`SLIDE_STEADY_CHANGE` (|Δa| + |Δα|·reach)."""
    if before is None:
        return False
    da = math.sqrt(sum((x - y) ** 2 for x, y in zip(before[:3], now[:3])))
    dw = math.sqrt(sum((x - y) ** 2 for x, y in zip(before[3:], now[3:])))
    return da + dw * reach <= SLIDE_STEADY_CHANGE


class FlightClearance:
    """The clearance of a flying piece (:meth:`Stepper.flight_clearance`): called with its centre
    of mass (x, y, z), m, it gives the gap, m, between its bounding sphere and the ground's highest
    point or the nearest other bounding sphere.

    Args:
        ground_clear: m, the height of the centre above which the sphere clears the ground.
        others: (x, y, z, r) per other piece: its bounding-box centre, m, and the sum of both
            bounding radii, m.
    """

    TOLERANCE = 1e-9
    """m: slack on the bound of :meth:`exceeds` (rounding of a gap is ~1e-15 m)."""

    def __init__(self, ground_clear: float, others: list[tuple[float, float, float, float]]) -> None:
        self.ground_clear = ground_clear
        self.others = others
        self._at: tuple[float, ...] | None = None
        self._gap = -math.inf
        self.evaluations = 0

    def __call__(self, com: Sequence[float]) -> float:
        x, y, z = com
        gap = z - self.ground_clear
        for ox, oy, oz, rr in self.others:
            d = math.sqrt((x - ox) ** 2 + (y - oy) ** 2 + (z - oz) ** 2) - rr
            if d < gap:
                gap = d
        self.evaluations += 1
        self._at, self._gap = tuple(com), gap
        return gap

    def exceeds(self, com: Sequence[float], need: float) -> bool:
        """Exactly ``self(com) > need``. The gap is 1-Lipschitz in the position, so after an exact
        evaluation g₀ at p₀ the gap at ``com`` is at least g₀ − |com − p₀|: while that bound
        clears ``need`` by :attr:`TOLERANCE` the answer is True without a new evaluation."""
        if self._at is not None and self._gap - math.dist(com, self._at) > need + self.TOLERANCE:
            return True
        return self(com) > need


class Stepper:
    """Steps one engine: fixed steps with their hooks, the long step for a piece sliding alone,
    and the free-flight hand-over.

    Args:
        engine: the engine.
        forces: its force models (the field batons' rolling resistance acts in every step).
        ground_top: m, the highest point of the ground.
    """

    def __init__(self, engine: Engine, forces: Forces, ground_top: float) -> None:
        self._engine = engine
        self._forces = forces
        self._ground_top = ground_top
        self._hooks: list[StepHook] = []
        self._acting: list[StepHook] = []
        """the hooks that are no mere contact watch"""
        self._read: list[PieceBody] = []
        """the field batons whose ground contacts a hook reads"""
        self.slide: Slide | None = None
        """the piece sliding alone now, if any"""

    # ------------------------------------------------------------------ fixed steps
    def add_step_hook(self, hook: StepHook, *, watch: bool = False, reads: PieceBody | None = None) -> None:
        """Call ``hook()`` before every step (to apply forces such as drag).

        Args:
            hook: the function.
            watch: the hook only reads the contacts of the step just taken (it applies no
                force): it is skipped after a step in which no piece could touch another one.
            reads: the field baton whose ground contacts the hook reads for the rolling
                resistance (:attr:`~kubb3d.physics.engine.PieceBody.ground_read`), if any: the
                resistance then looks at it in every step, awake or not.
        """
        self._hooks.append(hook)
        if not watch:
            self._acting.append(hook)
        if reads is not None:
            self._read.append(reads)

    def clear_step_hooks(self) -> None:
        """Remove every step hook."""
        self._hooks.clear()
        self._acting.clear()
        self._read.clear()

    def step(self, n: int = 1, *, rolling: bool = True) -> None:
        """Advance ``n`` steps of the engine's step length, with the field batons' rolling
        resistance unless ``rolling`` is False (no baton can touch the ground while it turns)."""
        engine = self._engine
        client = engine.client
        hooks, acting, simulate = self._hooks, self._acting, pb.stepSimulation
        # the batons the rolling resistance can act on in these steps, in their order: those
        # awake at the last motion check (`awake` changes only between calls), those a hook
        # reads (the thrown baton's watch) and any whose ground contacts were read since the
        # last step; it passes over every other one (docs/speed.md, "Thirteenth round")
        read, tick = self._read, engine.tick
        live = (
            [
                p
                for p in engine.rollers
                if p.awake or p in read or (p.ground_read is not None and p.ground_read[0] == tick)
            ]
            if rolling
            else None
        )
        # on terrain every piece's contact plane follows it (kubb3d.physics.terrain.ContactPlanes)
        follow = engine.planes.follow if engine.planes is not None else None
        if not live and not hooks and n > 0:
            for _ in range(n):
                if follow is not None:
                    follow()
                simulate(client)  # positional: PyBullet parses keywords slower (docs/speed.md, issue #32)
            engine.tick += n
            engine.untouched = False
            engine.taken_dt = engine.step_dt
        else:
            resist = self._forces.resist_rolling
            for _ in range(n):
                for hook in acting if engine.untouched else hooks:
                    hook()
                if live:
                    resist(live)
                if follow is not None:
                    follow()
                simulate(client)
                engine.tick += 1
                engine.untouched = False
                engine.taken_dt = engine.step_dt
        engine.stepped_since_rest = True
        engine.steps += n
        engine.elapsed += n * engine.step_dt
        engine.time = engine.elapsed

    def steps_for(self, seconds: float) -> int:
        """Whole steps of the current step length covering ``seconds`` (at least 1)."""
        return max(1, int(round(seconds / self._engine.step_dt)))

    def shift_step(
        self,
        piece_id: str,
        old_dt: float,
        new_dt: float,
        acc: Sequence[float],
        alpha: Sequence[float] = (0.0, 0.0, 0.0),
    ) -> None:
        """Switch the step from ``old_dt`` to ``new_dt`` s for a piece under steady forces, keeping
        its velocities half a step ahead: v − a·(new − old)/2 and ω − α·(new − old)/2, with its
        acceleration ``acc`` (m/s², 3 floats) and angular acceleration ``alpha`` (rad/s²), so
        that semi-implicit Euler keeps it on the same path whatever the step."""
        engine = self._engine
        piece = engine.pieces[piece_id]
        client, k = engine.client, (new_dt - old_dt) / 2.0
        v, w = pb.getBaseVelocity(piece.body, physicsClientId=client)
        pb.resetBaseVelocity(
            piece.body,
            [v[i] - acc[i] * k for i in range(3)],
            [w[i] - alpha[i] * k for i in range(3)],
            physicsClientId=client,
        )
        piece.velocity_read = None
        engine.use_step(new_dt)

    # ------------------------------------------------------------------ free flight
    def set_flight_step(self, piece_id: str, old_dt: float, new_dt: float) -> None:
        """Switch the step of a piece in free flight from ``old_dt`` to ``new_dt`` s (0: just
        released), its vertical velocity kept half a step ahead against gravity, v_z + g·h/2, so
        that the steps trace the exact parabola whatever their length."""
        engine = self._engine
        piece = engine.pieces[piece_id]
        client = engine.client
        v, w = pb.getBaseVelocity(piece.body, physicsClientId=client)
        pb.resetBaseVelocity(
            piece.body, (v[0], v[1], v[2] + GRAVITY * (new_dt - old_dt) / 2), w, physicsClientId=client
        )
        piece.velocity_read = None
        engine.use_step(new_dt)

    def flight_clearance(self, piece_id: str) -> FlightClearance:
        """The clearance of a flying piece from the ground and every other piece, those taken
        where they are now (nothing moves them before the flying piece's first contact)."""
        engine = self._engine
        flying = engine.pieces[piece_id]
        radius = flying.radius
        others = []
        for piece in engine.pieces.values():
            if piece is flying:
                continue
            com, quat = pb.getBasePositionAndOrientation(piece.body, physicsClientId=engine.client)
            x, y, z = frame_from_com(piece.com_local, com, quat)
            others.append((float(x), float(y), float(z), piece.radius + radius))
        return FlightClearance(self._ground_top + radius, others)

    def others_at_rest(self, piece_id: str) -> bool:
        """True when every movable piece but ``piece_id`` is at rest: none was added awake,
        placed or given a velocity since the world last came to rest or was put to sleep, and,
        if a step was taken since, none is faster than :data:`~kubb3d.physics.engine.REST_SPEED`
        or turns faster than :data:`~kubb3d.physics.engine.REST_TURN`. Only then may a free
        flight be integrated outside the engine."""
        engine = self._engine
        if any(pid != piece_id for pid in engine.placed_awake):
            return False
        if not engine.stepped_since_rest:
            return True  # nothing moved them since they were put down or came to rest
        client = engine.client
        lin2, ang2 = REST_SPEED * REST_SPEED, REST_TURN * REST_TURN
        for piece in engine.movable:
            if piece.id == piece_id:
                continue
            (vx, vy, vz), (wx, wy, wz) = pb.getBaseVelocity(piece.body, physicsClientId=client)
            if vx * vx + vy * vy + vz * vz > lin2 or wx * wx + wy * wy + wz * wz > ang2:
                return False
        return True

    def set_flight_state(
        self,
        piece_id: str,
        seconds: float,
        com: Sequence[float],
        quat_xyzw: Sequence[float],
        velocity: Sequence[float],
        angular_velocity: Sequence[float],
    ) -> None:
        """Hand a free flight integrated outside the engine back to it: put the flying piece at
        its state ``seconds`` s after the engine's last one (centre of mass m, quat_xyzw, velocity
        m/s as the coming steps want it, angular velocity rad/s) and move the clock on by
        ``seconds``, without stepping. Only while every other piece is at rest
        (:meth:`others_at_rest`). The piece's history goes on."""
        engine = self._engine
        piece = engine.pieces[piece_id]
        client = engine.client
        pb.resetBasePositionAndOrientation(piece.body, tuple(com), tuple(quat_xyzw), physicsClientId=client)
        engine.placed += 1
        pb.resetBaseVelocity(piece.body, tuple(velocity), tuple(angular_velocity), physicsClientId=client)
        piece.pose_read = piece.velocity_read = None
        piece.last_turn = NO_TURN
        engine.elapsed += seconds
        engine.time = engine.elapsed

    # ------------------------------------------------------------------ a piece moving fast alone
    def far_for(self, piece: PieceBody, span: float, others: float) -> Far | None:
        """A :class:`Far` for ``piece``, the only piece faster than :data:`QUIET_SPEED` (every
        other one at most ``others`` m/s), if it is far from every other piece now
        (:meth:`far_steps` may take the coming ``span`` s at
        :attr:`~kubb3d.physics.engine.Engine.far_dt`); None if not, on a table top, on terrain,
        for a baton lying level and not bouncing (the slide's case: :meth:`slide_for`), or when
        ``far_dt`` is not a whole number (≥ 2) of fine steps."""
        engine = self._engine
        if engine.equipment.board is not None or engine.terrain is not None:
            return None
        ratio = round(engine.far_dt / engine.dt)
        if ratio < 2 or ratio * engine.dt != engine.far_dt:
            return None
        client, reach = engine.client, piece.reach
        if piece.kind == "baton":
            # a baton lying level and not bouncing: the slide's longer steps (slide_for)
            quat = pb.getBasePositionAndOrientation(piece.body, client)[1]
            vz = pb.getBaseVelocity(piece.body, client)[0][2]
            if abs(long_axis(quat)[2]) < SLIDE_LEVEL_SIN and abs(vz) < SLIDE_STEADY_VZ:
                return None
        read = pb.getBasePositionAndOrientation
        spheres = []
        for other in engine.pieces.values():
            if other is not piece:
                ox, oy, oz = read(other.body, client)[0]
                spheres.append((ox, oy, oz, reach + other.reach))
        far = Far(piece, ratio, spheres, others, engine.time, max(1, int(round(span / engine.dt))))
        return far if self._far_gap(far, far.ratio * FAR_CHECK * engine.dt) else None

    def _far_gap(self, far: Far, tau: float) -> bool:
        """True if the far piece cannot come within :data:`SLIDE_MARGIN` of another piece in the
        next ``tau`` s. Its centre of mass moves slower than √(v² + (gyration·ω)² + 2·g·z) m/s
        (all its kinetic energy of turning and of falling to the ground turned into speed; the
        ground, drag, plowing and rolling resistance take energy), taken
        :data:`FAR_SAFETY` times; the others at most ``others`` m/s plus free fall since they were
        read."""
        engine = self._engine
        client, piece = engine.client, far.piece
        (vx, vy, vz), (wx, wy, wz) = pb.getBaseVelocity(piece.body, client)
        x, y, z = pb.getBasePositionAndOrientation(piece.body, client)[0]
        g = piece.gyration
        bound = math.sqrt(
            vx * vx + vy * vy + vz * vz + g * g * (wx * wx + wy * wy + wz * wz)
            + 2.0 * GRAVITY * max(0.0, z - self._ground_top)
        )
        since = engine.time - far.read_at + tau
        need = FAR_SAFETY * bound * tau + far.others_speed * since + GRAVITY * since * since / 2 + SLIDE_MARGIN
        for ox, oy, oz, rr in far.spheres:
            gap = math.sqrt((x - ox) ** 2 + (y - oy) ** 2 + (z - oz) ** 2) - rr
            if gap <= need or (gap <= FAR_AWAY and (x - ox) * vx + (y - oy) * vy <= 0.0):
                return False
        return True

    def far_steps(self, far: Far) -> None:
        """Advance the span of a :class:`Far` (from :meth:`far_for`): steps of
        :attr:`~kubb3d.physics.engine.Engine.far_dt`, :data:`FAR_CHECK` at a time while the piece
        stays far from every other piece (:meth:`_far_gap`), the rest of the span at the fine
        step once it is not (or less than one long step is left). The step length stays what
        the last step took."""
        engine = self._engine
        left, ratio = far.fine_steps, far.ratio
        h = engine.dt
        checked = True  # far_for has checked the first FAR_CHECK steps
        while left >= ratio:
            k = min(FAR_CHECK, left // ratio)
            if not checked and not self._far_gap(far, k * ratio * h):
                break
            engine.use_step(engine.far_dt)
            self.step(k)
            left -= k * ratio
            checked = False
        if left > 0:
            engine.use_step(h)
            self.step(left)

    # ------------------------------------------------------------------ a piece sliding alone
    def start_slide(self, piece: PieceBody) -> Slide | None:
        """A :class:`Slide` for ``piece``, the only piece faster than :data:`QUIET_SPEED`, if it is
        a disk on a table top or a baton on the flat field ground (not on terrain: docs/physics.md
        "A field baton sliding alone") and the long step is a whole number of fine steps; None
        otherwise."""
        engine = self._engine
        if engine.equipment.board is not None:
            if piece.kind not in ("baton", "kubb") or piece.id in engine.off_board:
                return None
            axis, on_field = min(range(3), key=lambda i: piece.half_extents[i]), False
        elif piece.kind == "baton" and engine.terrain is None:
            axis, on_field = max(range(3), key=lambda i: piece.half_extents[i]), True
        else:
            return None
        ratio = round(engine.quiet_dt / engine.dt)
        if ratio < 2 or ratio * engine.dt != engine.quiet_dt:
            return None
        self.slide = Slide(piece, ratio, engine.step_dt, axis, on_field)
        return self.slide

    def end_slide(self) -> None:
        """Hand a piece sliding alone back to the fine step (its velocities back to the fine
        step's half step) and forget it."""
        engine = self._engine
        slide = self.slide
        if slide is None:
            return None
        self.slide = None
        engine.untouched = False
        if slide.h != engine.dt and slide.piece.id in engine.pieces:
            # its accelerations over the last step (a long one, after a check)
            assert slide.v is not None and slide.w is not None
            v, w = pb.getBaseVelocity(slide.piece.body, physicsClientId=engine.client)
            inv = 1.0 / slide.h
            acc = tuple((v[i] - slide.v[i]) * inv for i in range(3))
            alpha = tuple((w[i] - slide.w[i]) * inv for i in range(3))
            self.shift_step(slide.piece.id, slide.h, engine.dt, acc, alpha)
        engine.use_step(engine.dt)
        return None

    def _slide_gap(self, slide: Slide, x: float, y: float, z: float) -> float:
        """m: gap between the sliding piece's sphere about its centre of mass (x, y, z) and the
        nearest other piece's or the board's edges (1-Lipschitz in the position)."""
        board = self._engine.equipment.board
        r = slide.piece.disk_reach
        gap = min(board.length / 2 - abs(x), board.width / 2 - abs(y)) - r if board is not None else math.inf
        for ox, oy, oz, rr in slide.others:
            d = math.sqrt((x - ox) ** 2 + (y - oy) ** 2 + (z - oz) ** 2) - rr
            if d < gap:
                gap = d
        slide.at, slide.gap = (x, y, z), gap
        return gap

    def slide_for(self, slide: Slide, span: float, others: float) -> None:
        """Advance ``span`` s (whole fine steps) with a piece sliding and every other piece at most
        ``others`` m/s: long steps while it lies flat (a field baton: level), only the ground's
        friction, plowing and air drag slow it (measured over its last step) and it cannot reach
        another piece or an edge before the next check; fine steps otherwise. Its velocities are
        kept half a step ahead across each change of step (:meth:`shift_step`); a field baton
        goes over to the long step only once its accelerations held over two steps."""
        engine = self._engine
        client, sliding = engine.client, slide.piece
        body = sliding.body
        # a field baton's velocities and pose read here are kept for this step's hooks and its
        # rolling resistance (PieceBody.velocity_read, pose_read: valid for one engine tick)
        roller = sliding.roll is not None
        H, h = engine.quiet_dt, engine.dt
        left = max(1, int(round(span / h)))
        slide.others = []
        # the poses of the last sample where nothing has stepped or been placed since (the same
        # floats the engine gives: docs/speed.md "Thirteenth round")
        sampled = engine.sampled_at == (engine.tick, engine.placed)
        read = pb.getBasePositionAndOrientation
        for piece in engine.pieces.values():
            if piece is sliding or (piece.kind == "stake" and not slide.on_field) or piece.id in engine.off_board:
                continue
            pose = piece.sampled if sampled else None
            com = (pose if pose is not None else read(piece.body, client))[0]
            slide.others.append((com[0], com[1], com[2], piece.disk_reach + sliding.disk_reach))
        slide.others_speed, slide.others_time = others, engine.time
        slide.at, slide.gap = None, -math.inf
        limit2 = (SLIDE_FRICTION_SLACK * engine.ground.friction * GRAVITY) ** 2
        tilt2 = SLIDE_STEADY_TILT**2
        plow = drag = 0.0
        if slide.on_field:
            # a field baton: slowed by friction, plowing (k·g·v at its centre of mass and as much
            # at most where it touches, Forces.apply_plowing) and perhaps air drag
            plow = 2.0 * engine.ground.plowing
            drag = sliding.drag.most / sliding.mass if engine.air_drag and sliding.drag is not None else 0.0
        while left > 0:
            if slide.wait > 0:
                n = min(slide.wait, left)
                if n > 1:
                    self.step(n - 1)
                velocities = pb.getBaseVelocity(body, client)
                slide.v, slide.w = velocities
                if roller:
                    sliding.velocity_read = (engine.tick, velocities)
                self.step(1)
                slide.wait -= n
                left -= n
                slide.acc = None
                continue
            velocities = pb.getBaseVelocity(body, client)
            v, w = velocities
            want = h
            if slide.v is not None and slide.w is not None:
                inv = 1.0 / slide.h
                ax, ay, az = (v[0] - slide.v[0]) * inv, (v[1] - slide.v[1]) * inv, (v[2] - slide.v[2]) * inv
                pose = pb.getBasePositionAndOrientation(body, client)
                com, (qx, qy, qz, qw) = pose
                if roller:
                    sliding.pose_read = (engine.tick, pose)
                if slide.on_field:
                    # a baton lying on the field: its axis level, not rocking about the level
                    # axis across it, slowed by no more than the ground and the air can
                    bx, by, bz = long_axis((qx, qy, qz, qw))
                    vh2 = v[0] * v[0] + v[1] * v[1]
                    lim = SLIDE_FRICTION_SLACK * (engine.ground.friction + plow * math.sqrt(vh2)) * GRAVITY + drag * (
                        vh2 + v[2] * v[2]
                    )
                    lay2 = bx * bx + by * by
                    steady = (
                        abs(bz) < SLIDE_LEVEL_SIN
                        and (w[0] * by - w[1] * bx) ** 2 < tilt2 * lay2
                        and ax * ax + ay * ay <= lim * lim
                    )
                else:
                    # the z component of the disk's thin body axis (column of its rotation matrix)
                    axis_z = (2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw), 1 - 2 * (qx * qx + qy * qy))[slide.thin]
                    steady = (
                        abs(axis_z) > SLIDE_FLAT_COS
                        and w[0] * w[0] + w[1] * w[1] < tilt2
                        and ax * ax + ay * ay <= limit2
                    )
                if (
                    steady
                    and abs(v[2]) < SLIDE_STEADY_VZ
                    and abs(az) < SLIDE_STEADY_AZ
                    and ax * v[0] + ay * v[1] <= 0.0
                ):
                    speed = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
                    # the other pieces were read at others_time: by the end of the next step they
                    # can have come this much nearer (at their speed then, and gravity if unsupported)
                    tau = engine.time - slide.others_time + H
                    need = 2.0 * speed * H + slide.others_speed * tau + GRAVITY * tau * tau / 2 + SLIDE_MARGIN
                    if slide.at is not None and slide.gap - math.dist(com, slide.at) > need:
                        want = H
                    else:
                        gap = self._slide_gap(slide, *com)
                        if gap > need:
                            want = H
                        elif speed > 0.0:
                            # it cannot clear the need sooner than this many fine steps
                            slide.wait = max(0, min(left, int((need - gap) / (speed * h))) - 1)
                else:
                    slide.wait = 2 * slide.ratio - 1  # tumbling, struck or just released
                if slide.on_field:
                    alpha = ((w[0] - slide.w[0]) * inv, (w[1] - slide.w[1]) * inv, (w[2] - slide.w[2]) * inv)
                    prev, slide.acc = slide.acc, (ax, ay, az, *alpha)
                    if want == H and slide.h == h and not _steady(prev, slide.acc, sliding.reach):
                        # its accelerations, which put its velocities half a step ahead, are not
                        # yet steady (just landed, set in motion, starting to roll): one more
                        # fine step
                        want = h
                if want == H and left < slide.ratio:
                    want = left * h  # the rest of the span in one step
                if want != slide.h:
                    alpha = ((w[0] - slide.w[0]) * inv, (w[1] - slide.w[1]) * inv, (w[2] - slide.w[2]) * inv)
                    self.shift_step(sliding.id, slide.h, want, (ax, ay, az), alpha)
                    slide.h = want
                    velocities = pb.getBaseVelocity(body, client)
                    v, w = velocities
            slide.v, slide.w = v, w
            if roller:
                # the state just read is the step hooks' (the thrown baton's watch): not read again
                sliding.velocity_read = (engine.tick, velocities)
            self.step(1)
            if want != h:
                # it was at least 2·speed·H clear of everything: this step touched only the board
                engine.untouched = True
                left -= slide.ratio if want == H else left
            else:
                left -= 1


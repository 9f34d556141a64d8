"""Rest and stability: when the world is at rest, the tilt history of every piece, the
balance test of blocks, and table-top pieces that fell off the board.

Rest (:meth:`Rest.iter_until_rest`): every :data:`SAMPLE_INTERVAL` s the velocities of all
movable pieces are read; the world is at rest when for the settle window (:data:`SETTLE_S`,
:data:`TABLE_SETTLE_S` on a table top) no piece is faster than
:data:`~kubb3d.physics.engine.REST_SPEED` or turns faster than
:data:`~kubb3d.physics.engine.REST_TURN` and no kubb or king is balanced on an edge or corner;
on the field also when the engine holds every piece still for :data:`HELD_S`. The windows and
margins are kubb3d's decisions, measured in docs/physics.md "Rest on the heightfield", "Rest on
a table top" and "A baton that never came to rest".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Generator, Sequence

import numpy as np
from kubb3d.linear import mat_vec, rows_by

from kubb3d.physics._pybullet import pb
from kubb3d.physics.engine import GRAVITY, REST_SPEED, REST_TURN, Engine, PhysicsGlitch, PieceBody
from kubb3d.physics.poses import rotation, support_margin
from kubb3d.physics.stepping import QUIET_SPEED, Stepper
from kubb3d.physics.terrain import GroundSurface

__all__ = ["REST_SPEED", "REST_TURN", "Rest", "RunStats"]

SETTLE_S = 0.5
"""s: how long the world must stay at rest (every piece slow and statically stable) before it
counts as at rest: long enough for a block rocking on its end to settle and one starting to tip
from near its balance to be seen moving (kubb3d's decision; the rule books are silent)."""
TABLE_SETTLE_S = 0.25
"""s: the settle window on a table top (Kubbuteo): :data:`SETTLE_S` scaled by dynamic similarity,
times going as √(size / g) (docs/physics.md "Rest on a table top")."""
SAMPLE_INTERVAL = 1.0 / 30.0
"""s: time between rest checks and tilt-history samples."""
STABLE_MARGIN = 0.001
"""m: a block's centre of mass must lie this far inside the support polygon of its contacts to
count as statically stable."""
GROUND_TOUCH = 0.004
"""m: on the flat ground a block's corner this close to the ground surface supports it (collision
meshes are 1 mm inside the visual block, and grass gives a fraction of a millimetre)."""
MARGINAL_SETTLE_S = 2.0
"""s: the settle window while a block on terrain rests on touching points that hold its centre of
mass less than :data:`TERRAIN_STABLE_MARGIN` inside their hull: it may be creeping over that
edge (``benchmarks/false_rest.py``)."""
TERRAIN_STABLE_MARGIN = 0.0005
"""m: on terrain a block's centre of mass must lie this far inside the support polygon of its
supporting points (``benchmarks/false_rest.py``)."""
CONTACT_GAP = 0.002
"""m: contact points farther apart than this (the contact breaking threshold) do not support."""
REST_CREEP = 0.002
"""m: on terrain a corner or contact of a block that is off the ground supports it only if the
block, tipping about its other supports until that point comes down, would move its centre of
mass at most this far (and turn at most :data:`REST_CREEP_TURN`)."""
REST_CREEP_TURN = math.radians(2.0)
"""rad: see :data:`REST_CREEP`."""
HELD_S = MARGINAL_SETTLE_S
"""s: on the field a world is also at rest when no point of any piece has moved more than
:data:`REST_CREEP` from where it was this long ago, whatever the velocities and the balance test
say: the engine holds it."""
HELD_STILL = 0.00001
"""m: ... unless a block found balanced on an edge moved, in the last quarter of that window, more
than :data:`HELD_GROWTH` times its move in the quarter before plus this (it starts to tip)."""
HELD_GROWTH = 2.0
"""See :data:`HELD_STILL`."""
SUPPORT_TOUCH = 0.00005
"""m: on terrain a corner of a block's bounding box this close to the heightfield, or a ground
contact this close, touches it and supports the block whatever :data:`REST_CREEP` says."""
WORLD_LIMIT = 50.0
"""m: a piece farther than this from the pitch centre (or NaN) is a physics glitch."""
SLEEP_AFTER = 0.1
"""s: once every piece has been slow and statically stable this long (the settle window's start),
the pieces that cannot tip are put to sleep (:meth:`Rest.sleep_resting`); when all are asleep
the rest of the window is certain and is not stepped (docs/speed.md "Twelfth round")."""
SLEEP_MARGIN = 0.01
"""m: a kubb or king is put to sleep early only while its centre of mass lies this far inside the
support polygon of its corners on the ground (ten times :data:`STABLE_MARGIN`): a block nearer
its balance stays awake for the whole settle window."""
FLOOR_MARGIN = 0.001
"""m: a table-top piece whose bounding sphere comes this close to the floor (with a contact), or
that is all this far below the board top, beside the board and not moving towards it, has fallen
off the board for good: it is laid on the floor and no longer holds up the rest test."""

Samples = dict[str, tuple[Any, Any]]
"""{piece id: (centre of mass, quat_xyzw)} of every movable piece, as PyBullet gives them."""


@dataclass
class RunStats:
    """What happened during :meth:`Rest.run_until_rest`.

    Attributes:
        steps: physics steps taken.
        time: simulated time at the end, s.
        at_rest: True if the world came to rest before the time limit.
    """

    steps: int
    time: float
    at_rest: bool


class Rest:
    """Rest detection and the tilt history of one engine.

    Args:
        engine: the engine.
        stepper: how it steps.
        surface: its ground (heights under a block's corners on terrain).
    """

    def __init__(
        self, engine: Engine, stepper: Stepper, surface: GroundSurface, *, sleep_early: bool = False
    ) -> None:
        self._engine = engine
        self.sleep_early = sleep_early and engine.equipment.board is None and engine.terrain is None
        """put resting pieces to sleep early in the settle window (:meth:`sleep_resting`; on the
        flat field only)"""
        self._stepper = stepper
        self._surface = surface
        self.settle_s = TABLE_SETTLE_S if engine.equipment.board is not None else SETTLE_S
        """s: how long everything must stay still before the world counts as at rest (the default
        of :meth:`iter_until_rest`)."""
        self._settling: list[str] = []
        """blocks on terrain the last :meth:`unstable_pieces` found on a marginal support"""
        self._sampled_at = -1
        """engine steps at the last :meth:`sample`"""

    # ------------------------------------------------------------------ history
    def clear_history(self) -> None:
        """Start every piece's history afresh (DM §5): the largest angle between its long axis
        and the upright direction of its last set-up."""
        engine = self._engine
        for piece in engine.pieces.values():
            piece.reset_tilt(pb.getBasePositionAndOrientation(piece.body, physicsClientId=engine.client)[1])

    def sample(self) -> Samples:
        """(centre of mass, quat) of every movable piece; updates the tilt histories and which
        table-top pieces are off the board.

        Raises:
            PhysicsGlitch: NaN or a piece beyond :data:`WORLD_LIMIT`.
        """
        engine = self._engine
        client = engine.client
        out = {}
        board = engine.equipment.board
        floor = -board.table_height + FLOOR_MARGIN if board is not None else -math.inf
        below = -FLOOR_MARGIN if board is not None else -math.inf  # the board top is at z = 0
        off: set[str] = set()
        read = pb.getBasePositionAndOrientation
        for piece in engine.movable:
            pose = read(piece.body, client)  # positional: faster to parse (issue #32)
            pos, quat = pose
            moved = pose != piece.sampled  # unmoved (asleep, say): checked and in its history already
            if moved and not (
                abs(pos[0]) < WORLD_LIMIT and abs(pos[1]) < WORLD_LIMIT and -WORLD_LIMIT < pos[2] < WORLD_LIMIT
            ):
                raise PhysicsGlitch(
                    f"piece {piece.id} left the world or became NaN at t={engine.time:.3f} s: position {pos}"
                )
            if board is not None:  # on the field nothing is below the floor or the board top
                on_floor = pos[2] - piece.radius < floor
                if on_floor and pb.getContactPoints(
                    bodyA=piece.body, bodyB=engine.ground_body, physicsClientId=client
                ):
                    off.add(piece.id)
                elif pos[2] + piece.reach < below and self._gone(piece, pos):
                    off.add(piece.id)
            if moved and piece.kind != "baton":
                # turn of the long axis from its set-up direction: compare cosines, take the
                # arccos only when it grew
                cos_turn = piece.turn_cos(quat)
                if cos_turn < piece.cos_max_tilt:
                    piece.cos_max_tilt = cos_turn
                    piece.max_tilt = math.acos(max(-1.0, min(1.0, cos_turn)))
                if piece.max_lean is not None:
                    piece.max_lean = piece.lean_so_far(quat)
            piece.sampled = pose
            out[piece.id] = pose
        engine.off_board = off
        engine.sampled_at = (engine.tick, engine.placed)
        self._sampled_at = engine.steps
        return out

    # ------------------------------------------------------------------ off the board
    def _gone(self, piece: PieceBody, pos: Sequence[float]) -> bool:
        """True if ``piece`` (centre of mass ``pos``, m) has fallen beside the table top for good:
        all of it below the board top and beside the board, not moving towards it and not rising
        to the board top before it comes down."""
        engine = self._engine
        board = engine.equipment.board
        assert board is not None
        r = piece.reach
        x, y, z = pos
        dx, dy = abs(x) - board.length / 2, abs(y) - board.width / 2
        if z + r > -FLOOR_MARGIN or math.hypot(max(dx, 0.0), max(dy, 0.0)) <= r + FLOOR_MARGIN:
            return False
        (vx, vy, vz), _ = pb.getBaseVelocity(piece.body, physicsClientId=engine.client)
        if vz > 0.0 and z + r + vz * vz / (2.0 * GRAVITY) > -FLOOR_MARGIN:
            return False
        return bool(math.copysign(max(dx, 0.0), x) * vx + math.copysign(max(dy, 0.0), y) * vy >= 0.0)

    def _put_down(self, piece: PieceBody) -> None:
        """Stop a piece that is off the board for good and, if it is still above the floor, lay it
        on the floor below where it is, on its thinnest side; asleep, velocities 0."""
        engine = self._engine
        board = engine.equipment.board
        assert board is not None
        client = engine.client
        com, quat = pb.getBasePositionAndOrientation(piece.body, physicsClientId=client)
        floor = -board.table_height
        if com[2] - piece.radius > floor + FLOOR_MARGIN:
            frame = engine.frame(piece, com, quat)
            k = min(range(3), key=lambda i: piece.half_extents[i])
            m = pb.getMatrixFromQuaternion(quat)
            ax, ay, az = m[k], m[3 + k], m[6 + k]  # the thin body axis in the world
            s = 1.0 if az >= 0.0 else -1.0
            # the shortest turn of that axis to the vertical (±z, whichever is nearer)
            x, y, w = ay * s, -ax * s, 1.0 + az * s
            n = math.sqrt(x * x + y * y + w * w)
            quat = pb.multiplyTransforms((0, 0, 0), (x / n, y / n, 0.0, w / n), (0, 0, 0), quat)[1]
            down = np.array((frame[0], frame[1], floor + piece.half_extents[k]))
            down = down + mat_vec(rotation(quat), piece.com_local)
            pb.resetBasePositionAndOrientation(piece.body, down.tolist(), quat, physicsClientId=client)
            engine.placed += 1
        pb.resetBaseVelocity(piece.body, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), physicsClientId=client)
        pb.changeDynamics(piece.body, -1, activationState=pb.ACTIVATION_STATE_SLEEP, physicsClientId=client)

    # ------------------------------------------------------------------ motion
    def motion(self) -> tuple[bool, float, PieceBody | None, float]:
        """(any movable piece faster than :data:`~kubb3d.physics.engine.REST_SPEED` or turning
        faster than :data:`~kubb3d.physics.engine.REST_TURN`; the fastest speed of any point of
        any movable piece, m/s; that piece (None if none moves); the fastest speed of any point of
        every other piece, m/s). A table-top piece off the board does not count, and is laid on
        the floor if it moves."""
        engine = self._engine
        client = engine.client
        lin2, ang2 = REST_SPEED * REST_SPEED, REST_TURN * REST_TURN
        moving, fastest, second = False, 0.0, 0.0
        leader = None
        off = engine.off_board
        read, sqrt = pb.getBaseVelocity, math.sqrt
        for piece in engine.movable:
            (vx, vy, vz), (wx, wy, wz) = read(piece.body, client)  # positional (issue #32)
            v2, w2 = vx * vx + vy * vy + vz * vz, wx * wx + wy * wy + wz * wz
            awake = piece.awake = v2 > 0.0 or w2 > 0.0
            if not awake and not off:
                continue  # asleep (Bullet zeroes a sleeping body's velocities): speed 0
            if piece.id in off:
                if awake:
                    self._put_down(piece)
                continue
            if v2 > lin2 or w2 > ang2:
                moving = True
            speed = sqrt(v2) + sqrt(w2) * piece.radius
            if speed > fastest:
                fastest, second, leader = speed, fastest, piece
            elif speed > second:
                second = speed
        return moving, fastest, leader, second

    def _point_move(self, piece_id: str, before: Samples, now: Samples) -> float:
        """m: how far any point of a piece may have moved from ``before`` to ``now``: its centre
        of mass's move plus its reach times the angle it turned (0 if it is in only one)."""
        was, pose = before.get(piece_id), now.get(piece_id)
        if was is None or pose is None or was == pose:
            return 0.0
        (com, q), (com0, q0) = pose, was
        dot = abs(q[0] * q0[0] + q[1] * q0[1] + q[2] * q0[2] + q[3] * q0[3])
        return math.dist(com, com0) + self._engine.pieces[piece_id].reach * 2.0 * math.acos(min(1.0, dot))

    def _moved_from(self, before: Samples, now: Samples) -> float:
        """m: the farthest any point of any piece may have moved from ``before`` to ``now``."""
        return max((self._point_move(pid, before, now) for pid in now), default=0.0)

    def _tipping(self, marks: list[Samples], balanced: set[str]) -> bool:
        """True if a block of ``balanced`` moved, between the last two of ``marks`` (a quarter of
        the held window apart), more than :data:`HELD_GROWTH` times its move between the two
        before plus :data:`HELD_STILL`: it moves ever faster, starting to tip. With fewer than
        three marks (a sample came more than a quarter window after the last) nothing tells, and
        the window is held again (True): no rest declared on too little evidence."""
        if len(marks) < 3:
            return True
        a, b, c = marks[-3:]
        return any(
            self._point_move(pid, b, c) > HELD_GROWTH * self._point_move(pid, a, b) + HELD_STILL for pid in balanced
        )

    def _window(self, settle_s: float) -> float:
        """s: the settle window, :data:`MARGINAL_SETTLE_S` at least while a block on terrain rests
        on a marginal support."""
        return max(settle_s, MARGINAL_SETTLE_S) if self._settling else settle_s

    # ------------------------------------------------------------------ balance
    def unstable_pieces(self) -> list[str]:
        """Kubbs and kings (square blocks on a pitch) balanced on an edge or a corner: their
        support polygon does not hold the centre of mass :data:`STABLE_MARGIN` inside (on the flat
        ground: the corners within :data:`GROUND_TOUCH` of it; on terrain: :meth:`_terrain_support`)
        and no other piece holds them up. Table-top pieces are not checked. An unstable piece is
        woken so that gravity acts on it."""
        engine = self._engine
        if engine.equipment.board is not None:
            return []
        client = engine.client
        out = []
        self._settling = []
        # no step since the last sample: the poses it read are the poses now
        sampled = self._sampled_at == engine.steps
        for piece in engine.pieces.values():
            if piece.kind not in ("kubb", "king") or piece.shape != "box":
                continue
            pose = piece.sampled if sampled and piece.sampled is not None else None
            com, quat = pose or pb.getBasePositionAndOrientation(piece.body, physicsClientId=client)
            if piece.stable_pose == (com, quat):  # unmoved since it was found stable (asleep, say)
                continue
            corners = self.box_corners(piece, com, quat)
            if engine.terrain is None:
                low = corners[corners[:, 2] < GROUND_TOUCH]
                if support_margin(low[:, :2].tolist(), (com[0], com[1])) >= STABLE_MARGIN:
                    piece.stable_pose = (com, quat)
                    continue
            points = pb.getContactPoints(bodyA=piece.body, physicsClientId=client)
            contacts = [point for point in points if point[8] < CONTACT_GAP]
            if any(point[2] != piece.ground for point in contacts):  # held up by another piece
                continue
            if engine.terrain is not None:
                held = self._terrain_support(com, corners, contacts, piece)
                if held == "stable":
                    piece.stable_pose = (com, quat)
                    continue
                if held == "marginal":  # not remembered: looked at again at every check
                    self._settling.append(piece.id)
                    continue
            out.append(piece.id)
            pb.changeDynamics(piece.body, -1, activationState=pb.ACTIVATION_STATE_WAKE_UP, physicsClientId=client)
        return out

    def _terrain_support(
        self, com: Sequence[float], corners: np.ndarray, contacts: list[Any], piece: PieceBody | None = None
    ) -> str | None:
        """How a block on terrain is held: ``"stable"`` when its centre of mass lies at least
        :data:`TERRAIN_STABLE_MARGIN` inside the horizontal hull of the points that support it;
        ``"marginal"`` when not, but inside the hull of the points that touch; None when it is
        balanced on an edge or a corner.

        A point (a bounding-box corner or a ground contact) touches within :data:`SUPPORT_TOUCH`;
        it supports when it touches or when a gap g at horizontal distance r from the centre of
        mass, H below it, has g·H/r ≤ :data:`REST_CREEP` and g/r ≤ :data:`REST_CREEP_TURN`.

        Args:
            com: the centre of mass (x, y, z), m.
            corners: the bounding box's corners in the world, m, shape (8, 3).
            contacts: PyBullet contact points of the block, all with the ground.
            piece: the block: its corners' gaps are taken to its contact plane
                (:class:`~kubb3d.physics.terrain.ContactPlanes`), the ground it stands on; None:
                to the heightfield.
        """
        cx, cy, cz = com
        planes = self._engine.planes
        if piece is not None and planes is not None and piece.body in planes.boxes:
            body, plane = piece.body, planes.height

            def height(x: float, y: float) -> float:
                return plane(body, x, y)

        else:
            height = self._surface.height
        points = [(x, y, z, z - height(x, y)) for x, y, z in corners.tolist()]
        points += [(point[5][0], point[5][1], point[5][2], point[8]) for point in contacts]
        support, touching = [], []
        for x, y, z, gap in points:
            if gap > GROUND_TOUCH:
                continue
            if gap > SUPPORT_TOUCH:
                r = math.hypot(x - cx, y - cy)
                if gap * max(cz - z, 0.0) > REST_CREEP * r or gap > REST_CREEP_TURN * r:
                    continue
            else:
                touching.append((x, y))
            support.append((x, y))
        if support_margin(support, (cx, cy)) >= TERRAIN_STABLE_MARGIN:
            return "stable"
        if support_margin(touching, (cx, cy)) >= 0.0:
            return "marginal"
        return None

    def box_corners(self, piece: PieceBody, com: Sequence[float], quat_xyzw: Sequence[float]) -> np.ndarray:
        """The eight corners of a piece's bounding box in the world, m, shape (8, 3)."""
        turned = rows_by(piece.corners, rotation(quat_xyzw).T)
        corners: np.ndarray = self._engine.frame(piece, com, quat_xyzw) + turned
        return corners

    def sleep_resting(self) -> bool:
        """Put every awake movable piece that cannot tip to sleep, its velocities zeroed: a baton,
        and a kubb or king whose centre of mass lies :data:`SLEEP_MARGIN` inside the support
        polygon of its bounding-box corners within :data:`GROUND_TOUCH` of the flat ground. Call
        only while every piece is slow and statically stable (:meth:`iter_until_rest` does, from
        :data:`SLEEP_AFTER` into the settle window). Bullet wakes a sleeping piece again when an
        awake one comes near it (their bounding boxes meet). True if every movable piece is
        asleep now: then no step can move anything, and the rest of the window is certain.
        """
        engine = self._engine
        client = engine.client
        all_asleep = True
        for piece in engine.movable:
            if not piece.awake:
                continue
            if piece.kind != "baton":
                if piece.shape != "box":
                    all_asleep = False
                    continue
                com, quat = pb.getBasePositionAndOrientation(piece.body, client)
                corners = self.box_corners(piece, com, quat)
                low = corners[corners[:, 2] < GROUND_TOUCH]
                if support_margin(low[:, :2].tolist(), (com[0], com[1])) < SLEEP_MARGIN:
                    all_asleep = False
                    continue
            pb.resetBaseVelocity(piece.body, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), physicsClientId=client)
            pb.changeDynamics(piece.body, -1, activationState=pb.ACTIVATION_STATE_SLEEP, physicsClientId=client)
            piece.velocity_read = None
            piece.awake = False
        return all_asleep

    def at_rest_now(self) -> bool:
        """True when every movable piece is slow and no block is in a balance that will tip."""
        return not self.motion()[0] and not self.unstable_pieces()

    def sleep_all(self) -> None:
        """Put every movable piece to sleep (after the world came to rest)."""
        engine = self._engine
        client = engine.client
        engine.placed_awake.clear()
        engine.stepped_since_rest = False
        for piece in engine.pieces.values():
            if piece.kind != "stake":
                pb.changeDynamics(piece.body, -1, activationState=pb.ACTIVATION_STATE_SLEEP, physicsClientId=client)

    def wake_all(self) -> list[PieceBody]:
        """Wake every movable piece (but those stopped on the floor below a table top); returns
        them."""
        engine = self._engine
        client = engine.client
        off = engine.off_board
        movable = [piece for piece in engine.pieces.values() if piece.kind != "stake" and piece.id not in off]
        for piece in movable:
            pb.changeDynamics(piece.body, -1, activationState=pb.ACTIVATION_STATE_WAKE_UP, physicsClientId=client)
            piece.awake = True
        return movable

    # ------------------------------------------------------------------ until rest
    def run_until_rest(
        self,
        max_time: float = 20.0,
        sample_every: float | None = None,
        on_sample: Callable[[float, Samples], None] | None = None,
        *,
        settle_s: float | None = None,
    ) -> RunStats:
        """:meth:`iter_until_rest` run to its end, ``on_sample`` called with each (time s,
        samples) it yields. Same arguments, result and errors."""
        run = self.iter_until_rest(max_time, sample_every, settle_s=settle_s)
        while True:
            try:
                t, cur = next(run)
            except StopIteration as stop:
                stats: RunStats = stop.value
                return stats
            if on_sample:
                on_sample(t, cur)

    def iter_until_rest(
        self, max_time: float = 20.0, sample_every: float | None = None, *, settle_s: float | None = None
    ) -> Generator[tuple[float, Samples], None, RunStats]:
        """Step until the world is at rest for ``settle_s`` seconds, or on the field until no
        point of any piece has moved more than :data:`REST_CREEP` in :data:`HELD_S`, or until
        ``max_time`` s passed: yields (time s, :meth:`sample`) at every sample, the first before
        any step, and returns the :class:`RunStats`. What the caller does between samples does
        not change the stepping.

        Steps are the fine step while any point of any piece moves faster than
        :data:`~kubb3d.physics.stepping.QUIET_SPEED`, the long step otherwise, and the long step
        for a piece sliding alone (:meth:`~kubb3d.physics.stepping.Stepper.slide_for`).

        Args:
            max_time: simulated seconds from now at most.
            sample_every: seconds between samples; default :data:`SAMPLE_INTERVAL`.
            settle_s: the settle window, s; default :attr:`settle_s`.

        Raises:
            PhysicsGlitch: see :meth:`sample`.
        """
        engine, stepper = self._engine, self._stepper
        interval = SAMPLE_INTERVAL if sample_every is None else float(sample_every)
        settle_s = self.settle_s if settle_s is None else settle_s
        start_steps, t0 = engine.steps, engine.time
        end = t0 + max_time - 1e-9
        cur = self.sample()
        yield engine.time, cur
        quiet_since = None
        held: list[Any] | None = None  # [time, poses, balanced ids, quarter marks] every piece stayed near since
        field = engine.equipment.board is None
        was_far = False
        try:
            while engine.time < end:
                moving, fastest, leader, others = self.motion()
                span = min(interval, max(end - engine.time, 0.0))
                slide = stepper.slide
                far = (
                    stepper.far_for(leader, span, others)
                    if (
                        leader is not None
                        and fastest > QUIET_SPEED
                        and others <= QUIET_SPEED
                        and engine.far_dt > engine.dt
                        and (slide is None or slide.piece is not leader or slide.h == engine.dt)
                    )
                    else None
                )
                alone = None
                if far is not None:
                    stepper.end_slide()  # at the fine step, or another piece's: nothing to carry over
                else:
                    if was_far:
                        engine.use_step(engine.dt)  # a slide starts from the fine step
                    alone = stepper.slide if fastest > QUIET_SPEED else None
                    if alone is not None and (leader is None or alone.piece is not leader or others > QUIET_SPEED):
                        stepper.end_slide()
                        alone = None
                    if alone is None and fastest > QUIET_SPEED and others <= QUIET_SPEED and leader is not None:
                        alone = stepper.start_slide(leader)
                    if alone is None:
                        stepper.end_slide()
                        engine.use_step(engine.dt if fastest > QUIET_SPEED else engine.quiet_dt)
                was_far = far is not None
                unstable = [] if moving else self.unstable_pieces()
                if not moving and not unstable:
                    if quiet_since is None:
                        quiet_since = engine.time
                    window_end = quiet_since + self._window(settle_s)
                    if engine.time >= window_end - 1e-9:
                        return self._came_to_rest(start_steps)
                    if (
                        self.sleep_early
                        and engine.time - quiet_since >= SLEEP_AFTER - 1e-9
                        and window_end <= end
                        and self.sleep_resting()
                    ):
                        # everything asleep: no step can move anything before the window's end;
                        # the clock and the samples go on as the steps would have taken them
                        while engine.time < window_end - 1e-9:
                            span = min(interval, max(end - engine.time, 0.0))
                            engine.elapsed += stepper.steps_for(span) * engine.step_dt
                            engine.time = engine.elapsed
                            yield engine.time, cur
                        return self._came_to_rest(start_steps)
                else:
                    quiet_since = None
                    if field and fastest <= QUIET_SPEED:
                        if held is None or self._moved_from(held[1], cur) > REST_CREEP:
                            held = [engine.time, cur, set(unstable), []]
                            whole = False
                        else:
                            if not moving:  # the balance test ran: the blocks it finds balanced now
                                held[2] = set(unstable)
                            whole = engine.time - held[0] >= HELD_S - 1e-9
                            if not whole and engine.time - held[0] >= (len(held[3]) + 1) * HELD_S / 4 - 1e-9:
                                held[3].append(cur)  # the poses at each quarter of the window
                        if whole:
                            if self._tipping([held[1], *held[3], cur], held[2]):
                                held = [engine.time, cur, set(unstable), []]
                            else:
                                return self._came_to_rest(start_steps)
                    else:
                        held = None
                if far is not None:
                    stepper.far_steps(far)
                elif alone is not None:
                    stepper.slide_for(alone, span, others)
                else:
                    stepper.step(stepper.steps_for(span))
                cur = self.sample()
                yield engine.time, cur
            stepper.end_slide()
            engine.use_step(engine.dt)
            moving = self.motion()[0]
            at_rest = (
                not moving
                and not self.unstable_pieces()
                and quiet_since is not None
                and engine.time - quiet_since >= self._window(settle_s) - 1e-9
            )
            return RunStats(engine.steps - start_steps, engine.time, at_rest)
        finally:
            stepper.end_slide()  # also when the caller stops early

    def _came_to_rest(self, start_steps: int) -> RunStats:
        engine = self._engine
        engine.use_step(engine.dt)
        engine.placed_awake.clear()
        engine.stepped_since_rest = False
        return RunStats(engine.steps - start_steps, engine.time, True)

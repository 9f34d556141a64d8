"""The contact forces the judge reads: a short window of quiet steps after the world came to
rest, over which each pair of bodies' normal force is averaged, and the contact points of the
last step carrying those means (docs/physics.md "The contact forces the judge reads";
``benchmarks/settle_forces.py``).
"""

from __future__ import annotations

import math

from kubb3d.physics._pybullet import pb
from kubb3d.physics.engine import REST_SPEED, Engine
from kubb3d.physics.poses import Vec3
from kubb3d.physics.rest import Rest
from kubb3d.physics.stepping import Stepper
from kubb3d.snapshot import GROUND_ID, Contact

FORCE_WINDOW = 1.0 / 60.0
"""s: each contact's normal force is read as its mean over this long a window at the quiet step
(over a window the contact impulses on a piece at rest balance its weight's impulse)."""

SETTLE_MOVE = 0.0005
"""m: a piece that moved more than this in the window (pushed apart from a piece it was pressed
into, say) was not at rest: the world runs until rest again."""
SETTLE_TURN = math.radians(0.5)
"""rad: ... or turned more than this,"""
SETTLE_SPEED = 5 * REST_SPEED
"""m/s: ... or is faster than this at the window's end."""

BodyPair = tuple[int, int]


class ForceWindow:
    """The settle window of one engine and the contacts it leaves.

    Args:
        engine: the engine.
        stepper: how it steps.
        rest: its rest detection (the world runs until rest again if the window moved it).
    """

    def __init__(self, engine: Engine, stepper: Stepper, rest: Rest) -> None:
        self._engine = engine
        self._stepper = stepper
        self._rest = rest
        self._mean_forces: tuple[int, dict[BodyPair, float]] | None = None
        """(engine tick at the end of the last window, mean normal force N per body pair)"""

    def settle_forces(self, max_time: float = 3.0) -> bool:
        """Wake every piece (but those off a table top) and step :data:`FORCE_WINDOW` s at the
        quiet step, so that the contacts read next carry the static normal forces: each pair of
        bodies gets its mean summed normal force over the window, shared among its contact
        points of the last step in proportion to their own forces (equally if all read 0).

        If any piece moved more than :data:`SETTLE_MOVE`, turned more than :data:`SETTLE_TURN`
        or ends faster than :data:`SETTLE_SPEED`, the world runs until rest again (at most
        ``max_time`` s) and takes the window once more.

        Returns:
            True if the world was still at rest after waking up.
        """
        engine = self._engine
        client = engine.client
        movable = self._rest.wake_all()
        before = [pb.getBasePositionAndOrientation(piece.body, physicsClientId=client) for piece in movable]
        self._window()
        limit = SETTLE_SPEED**2
        cos_turn = math.cos(SETTLE_TURN / 2)
        for piece, (pos0, q0) in zip(movable, before):
            pos, quat = pb.getBasePositionAndOrientation(piece.body, physicsClientId=client)
            v = pb.getBaseVelocity(piece.body, physicsClientId=client)[0]
            if (
                v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > limit
                or math.dist(pos, pos0) > SETTLE_MOVE
                or abs(sum(a * b for a, b in zip(quat, q0))) < cos_turn
            ):
                self._rest.run_until_rest(max_time)
                self._window()
                return False
        return True

    def _window(self) -> None:
        """Step :data:`FORCE_WINDOW` s at the quiet step (then back to the fine step) and keep
        each body pair's mean normal force over it for :meth:`contacts`."""
        engine, stepper = self._engine, self._stepper
        client = engine.client
        engine.use_step(engine.quiet_dt)
        n = stepper.steps_for(FORCE_WINDOW)
        sums: dict[BodyPair, float] = {}
        for _ in range(n):
            stepper.step(1)
            for point in pb.getContactPoints(physicsClientId=client):
                key = (point[1], point[2]) if point[1] < point[2] else (point[2], point[1])
                sums[key] = sums.get(key, 0.0) + point[9]
        engine.use_step(engine.dt)
        self._mean_forces = (engine.tick, {k: f / n for k, f in sums.items()})

    def contacts(self) -> tuple[Contact, ...]:
        """Every contact point from the last step, as plain data (pairs in body order; a ground
        contact with the piece first). Right after :meth:`settle_forces` (no step since), each
        pair's normal forces are its mean over the window; otherwise the last step's."""
        engine = self._engine
        out = []
        ids = engine.by_body
        points = pb.getContactPoints(physicsClientId=engine.client)
        fresh = self._mean_forces is not None and self._mean_forces[0] == engine.tick
        means = self._mean_forces[1] if fresh and self._mean_forces is not None else None
        last: dict[BodyPair, list[float]] = {}
        if means is not None:
            # each pair's mean force over the window, shared among its points of the last step as
            # they share the last step's force (equally if that is 0)
            for point in points:
                key = (point[1], point[2]) if point[1] < point[2] else (point[2], point[1])
                total = last.setdefault(key, [0.0, 0])
                total[0] += point[9]
                total[1] += 1
        for point in points:
            a, b = ids.get(point[1]), ids.get(point[2])
            if a is None or b is None:
                continue
            force = float(point[9])
            if means is not None:
                key = (point[1], point[2]) if point[1] < point[2] else (point[2], point[1])
                total_force, count = last[key]
                mean = means.get(key, 0.0)
                force = mean * (force / total_force if total_force > 0.0 else 1.0 / count)
            if a == GROUND_ID:
                normal: Vec3 = (-point[7][0], -point[7][1], -point[7][2])
                out.append(Contact(b, a, tuple(point[6]), tuple(point[5]), normal, force, float(point[8])))
            else:
                out.append(Contact(a, b, tuple(point[5]), tuple(point[6]), tuple(point[7]), force, float(point[8])))
        return tuple(out)

"""``rebound`` rows of ``kubb3d validate``: the height a flat-dropped baton and an end-dropped
kubb reach after a 1 m drop on each ground, flat and on a flat heightfield, against e²·h plus the
step's rise v·dt/2, and at half the step (docs/physics.md "Ground contact")."""

from __future__ import annotations

import math

from kubb3d.physics.ground import GROUNDS
from kubb3d.physics.world import DT, GRAVITY, Terrain, World
from kubb3d.validate.rows import Row, rel_row

DROP_HEIGHT = 1.0
"""m: drop height of the rebound rows (lowest point above the ground)."""
REBOUND_TOLERANCE = 0.01
"""A drop's rebound may differ from e²·h plus the step's rise (:func:`step_rise`) by this share
(docs/physics.md "Ground contact": "a drop on the flat ground rebounds within 1 % of e²·h plus half
a step's travel at the rebound speed"), and at half the step from the rebound at the step by as
much (each less its step's rise)."""


REBOUND_PHASES = 4
"""Drops per rebound row, from heights a quarter of a step's fall apart: where in a step a piece
strikes the ground changed its rebound by up to 13 % before the ground took out the whole
penetration (docs/physics.md "Ground contact"); a row holds the worst of them."""


def drop_bounce(
    ground: str, kind: str, terrain: bool, height: float = DROP_HEIGHT, dt: float | None = None
) -> tuple[float, float]:
    """(highest rise m of the lowest point after the first bounce, upward speed m/s just after
    it): a baton dropped lying flat or a kubb dropped on its end from ``height`` m onto
    ``ground`` (flat box, or a flat heightfield), stepped at ``dt`` s (default the world's)."""
    with World("standard", ground=ground, stakes=False, terrain=Terrain(0.0) if terrain else None, dt=dt) as w:
        eq = w.equipment
        if kind == "baton":
            q, half = (math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5)), eq.baton.radius
        else:
            q, half = (0.0, 0.0, 0.0, 1.0), eq.kubb.height / 2
        return rise_after_drop(w, kind, q, w.ground_height(0.0, 0.0) + half, height)


def drop_rebound(
    ground: str, kind: str, terrain: bool, height: float = DROP_HEIGHT, dt: float | None = None
) -> float:
    """Highest rise, m, of :func:`drop_bounce`."""
    return drop_bounce(ground, kind, terrain, height, dt)[0]


def rise_after_drop(w: World, kind: str, q, rest_z: float, height: float) -> tuple[float, float]:
    """Drop a piece ``height`` m above the centre height ``rest_z`` at which it rests on the
    ground; (the highest rise m after its first bounce, its upward speed m/s in the step after
    the bounce; 0, 0 if it did not bounce)."""
    w.add_piece("p", kind, (0.0, 0.0, rest_z + height), q, sleeping=False)
    w.use_step(w.dt)
    prev_vz, bounced, rising, top, speed = 0.0, False, False, 0.0, 0.0
    while w.time < 3.0:
        w.step(1)
        vz = w.velocity("p")[0][2]
        z = w.pose("p")[0][2] - rest_z
        if not bounced and prev_vz < -1.0 and vz > prev_vz + 1.0:
            bounced, speed = True, max(vz, 0.0)
        if bounced:
            rising = rising or vz > 0.05
            top = max(top, z)
            if rising and vz < -0.05:
                break
        prev_vz = vz
    return top, speed


def step_rise(speed: float, dt: float) -> float:
    """m: how much higher than v²/(2 g) a piece leaving the ground at ``speed`` m/s climbs when
    stepped at ``dt`` s: half a step's travel, v·dt/2. The engine integrates semi-implicitly
    (velocity, then position with the new velocity), and the highest of the positions it steps
    through lies v·dt/2 above the parabola's top to first order (docs/physics.md "Ground
    contact")."""
    return speed * dt / 2


def _worst(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """The (expected, simulated) pair of ``pairs`` farthest from its expected value, relatively."""
    return max(pairs, key=lambda p: abs(p[1] - p[0]) / abs(p[0]) if p[0] else abs(p[1]))


def check_rebound(quick: bool = False) -> list[Row]:
    """Each drop from :data:`REBOUND_PHASES` heights spread over one step's fall: the rise
    against e²·h plus :func:`step_rise` (plumbing: e is kubb3d's input), and at half the step the
    rise less its :func:`step_rise` at the measured rebound speed against the same at the step
    (a check that does not use e)."""
    rows = []
    grounds = ["grass"] if quick else ["grass", "wet-grass", "turf"]
    for g in grounds:
        e = GROUNDS[g].restitution
        impact = math.sqrt(2 * GRAVITY * DROP_HEIGHT)
        heights = [DROP_HEIGHT + k * impact * DT / REBOUND_PHASES for k in range(REBOUND_PHASES)]
        for kind in ("baton", "kubb"):
            for terrain in (False, True):
                what = "baton dropped lying flat" if kind == "baton" else "kubb dropped on its end"
                where = "flat heightfield" if terrain else "flat ground"
                at, half = [], []
                for h in heights:
                    top, speed = drop_bounce(g, kind, terrain, h, DT)
                    at.append((100 * (e * e * h + step_rise(e * math.sqrt(2 * GRAVITY * h), DT)), 100 * top))
                    top2, speed2 = drop_bounce(g, kind, terrain, h, DT / 2)
                    half.append((100 * (top - step_rise(speed, DT)), 100 * (top2 - step_rise(speed2, DT / 2))))
                expected, simulated = _worst(at)
                rows.append(
                    rel_row(
                        "rebound",
                        f"{what} from 1 m on {g} ({where}), worst of {REBOUND_PHASES} drops over one step's fall",
                        f"e² h + e √(2 g h) dt / 2, e = {e:g}",
                        f"ground {g!r} restitution (kubb3d/physics/ground.py); the step's rise "
                        "(docs/physics.md 'Ground contact')",
                        expected,
                        simulated,
                        "cm",
                        REBOUND_TOLERANCE,
                        kind="plumbing",
                    )
                )
                expected, simulated = _worst(half)
                rows.append(
                    rel_row(
                        "rebound",
                        f"{what} from 1 m on {g} ({where}), worst of {REBOUND_PHASES} drops, rise less v dt / 2, "
                        f"dt = 1/{round(2 / DT)} s",
                        f"the same at dt = 1/{round(1 / DT)} s",
                        "convergence: halving the step must not move a result (v: the measured rebound speed)",
                        expected,
                        simulated,
                        "cm",
                        REBOUND_TOLERANCE,
                    )
                )
    return rows

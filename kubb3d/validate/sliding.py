"""``slide``, ``drift`` and ``rest`` rows of ``kubb3d validate``: how far a lying kubb or baton
pushed along its axis slides on each ground (flat and on a flat heightfield, by heading) against
v²/(2 μ g), how far it drifts sideways (against 0) and when it is at rest (against v/(μ g) plus
the settle window), and at half or finer steps (docs/physics.md "Ground contact", "A baton
sliding on the ground", "A kubb sliding on the ground")."""

from __future__ import annotations

import math
from dataclasses import dataclass

from kubb3d.physics.ground import GROUNDS
from kubb3d.physics.world import DT, GRAVITY, SETTLE_S, Terrain, World
from kubb3d.validate.rows import Row, half_step_row, rel_row

SLIDE_TOLERANCE = 0.02
"""A slide on the flat ground may differ from v²/(2 μ g) by this share (docs/physics.md "Ground
contact": "a kubb sliding on grass stops within 2 %"), and at half the step from the slide at the
step by as much."""
TERRAIN_SLIDE_TOLERANCE = 0.05
"""The same on a flat heightfield (docs/physics.md "Ground contact": "within 5 % on a flat
heightfield"; its triangles' edges take a little)."""


def _lying(w: World, kind: str, pid: str = "p", heading: float = 0.0, at: tuple[float, float] = (0.0, 0.0)) -> None:
    """A piece (kubb, king or baton) lying on the ground at ``at`` (m) with its long axis along
    ``heading`` rad from x."""
    eq = w.equipment
    r = {"kubb": eq.kubb.width / 2, "king": eq.king.width / 2}.get(kind, eq.baton.radius)
    c, s = math.cos(heading / 2), math.sin(heading / 2)
    sy, cy = math.sin(math.pi / 4), math.cos(math.pi / 4)
    q = (-s * sy + 0.0, c * sy, s * cy, c * cy)  # the long axis (body z) turned down to x, then by heading
    w.add_piece(pid, kind, (at[0], at[1], w.ground_height(*at) + r), q, sleeping=False)
    w.step(w.steps_for(0.1))


@dataclass(frozen=True)
class Slide:
    """A lying piece pushed along its long axis (:func:`slide`).

    Attributes:
        along: m, how far its bounding-box centre moved along the push.
        sideways: m, how far it moved across the push (+ to the left of it).
        time: s, from the push until the world was at rest (the settle window included), or the
            time limit.
        at_rest: False if the world was still moving at the time limit.
    """

    along: float
    sideways: float
    time: float
    at_rest: bool


def slide(
    ground: str,
    kind: str,
    v: float,
    heading: float = 0.0,
    terrain: bool = False,
    dt: float | None = None,
    limit: float = 15.0,
) -> Slide:
    """A lying piece given ``v`` m/s along its long axis, which points ``heading`` rad from x, on the
    flat ground or on a flat heightfield (``terrain``), stepped at ``dt`` s (default the world's),
    followed to rest or for ``limit`` s."""
    back = v * v / (4 * GRAVITY * GROUNDS[ground].friction) if terrain else 0.0  # half a slide back
    at = (-back * math.cos(heading) + 0.0, -back * math.sin(heading) + 0.0)
    with World("standard", ground=ground, stakes=False, terrain=Terrain(0.0) if terrain else None, dt=dt) as w:
        _lying(w, kind, heading=heading, at=at)
        p0, q0 = w.pose("p")
        t0 = w.time
        w.set_pose("p", p0, q0, linear_velocity=(v * math.cos(heading), v * math.sin(heading), 0.0))
        stats = w.run_until_rest(limit)
        dx, dy = (w.pose("p")[0] - p0)[:2]
        c, s = math.cos(heading), math.sin(heading)
        return Slide(float(dx * c + dy * s), float(dy * c - dx * s), stats.time - t0, stats.at_rest)


def slide_distance(
    ground: str, kind: str, v: float, heading: float = 0.0, terrain: bool = False, dt: float | None = None
) -> tuple[float, float]:
    """(distance m along the push, time to rest s) of :func:`slide`."""
    r = slide(ground, kind, v, heading, terrain, dt)
    return r.along, r.time


def check_slide(quick: bool = False) -> list[Row]:
    rows = []
    grounds = ["grass"] if quick else ["grass", "wet-grass", "turf", "plane"]
    for g in grounds:
        mu = GROUNDS[g].friction
        for kind, v in (("kubb", 2.0), ("baton", 6.0)):
            d, _ = slide_distance(g, kind, v)
            what = (
                "lying kubb sliding from 2 m/s" if kind == "kubb" else "lying baton sliding along its axis from 6 m/s"
            )
            row = rel_row(
                "slide",
                f"{what} on {g}",
                f"v² / (2 μ g), μ = {mu:g}",
                f"ground {g!r} friction (kubb3d/physics/ground.py)",
                v * v / (2 * mu * GRAVITY),
                d,
                "m",
                SLIDE_TOLERANCE,
                kind="plumbing",
            )
            rows += [row, half_step_row(row, slide_distance(g, kind, v, dt=DT / 2)[0], SLIDE_TOLERANCE)]
    # the same on a flat heightfield (the ground of --terrain-cm), by heading across its triangles
    mu = GROUNDS["grass"].friction
    cases = [("kubb", 2.0, 0.0)] if quick else [("kubb", 2.0, h) for h in (0.0, 30.0, 45.0, 90.0)]
    if not quick:
        cases += [("baton", 6.0, h) for h in (0.0, 45.0)]
    for kind, v, heading in cases:
        d, _ = slide_distance("grass", kind, v, math.radians(heading), terrain=True)
        what = "lying kubb sliding from 2 m/s" if kind == "kubb" else "lying baton sliding along its axis from 6 m/s"
        row = rel_row(
            "slide",
            f"{what} on grass (flat heightfield, heading {heading:g}°)",
            f"v² / (2 μ g), μ = {mu:g}",
            "ground 'grass' friction (kubb3d/physics/ground.py); docs/physics.md 'Ground contact'",
            v * v / (2 * mu * GRAVITY),
            d,
            "m",
            TERRAIN_SLIDE_TOLERANCE,
            kind="plumbing",
        )
        half = slide_distance("grass", kind, v, math.radians(heading), terrain=True, dt=DT / 2)[0]
        rows += [row, half_step_row(row, half, TERRAIN_SLIDE_TOLERANCE)]
    return rows


SLIDE_SPEED = {"kubb": 2.0, "baton": 6.0}
"""m/s: the push of the slide rows, by kind (a kubb knocked flat, a baton after landing)."""
DRIFT_TOLERANCE = 0.01
"""The sideways drift of a slide may be this share of v²/(2μg) on the flat ground (a piece pushed
along its axis on level ground slides straight: 0 is the reference)."""
TERRAIN_DRIFT_TOLERANCE = 0.05
"""The same on a flat heightfield (its slides scatter by a few % across the triangles,
docs/physics.md "Ground contact")."""
BATON_TERRAIN_DRIFT_LIMIT = 0.02
"""m: the sideways drift a baton's slide may have on a flat heightfield: 0.3–15 mm measured, not
growing at finer steps, from the triangles' edges (a kubb's slide drifts as far there); with
Bullet's rolling friction throughout it drifted 12–52 mm at 30–60°, more at finer steps
(docs/physics.md "A baton sliding on the ground")."""
BATON_DRIFT_LIMIT = 0.001
"""m: the sideways drift a baton's slide may have on the flat ground, tighter than
:data:`DRIFT_TOLERANCE`: it drifted 2.5–81 mm on the lawn grounds at 30–60° while Bullet's rolling
friction acted on it, more at finer steps; below 0.005 mm since its rolling resistance acts about
its own axis (docs/physics.md "A baton sliding on the ground")."""
DRIFT_HEADINGS = (0.0, 30.0, 60.0)
"""°: headings of the drift rows (0° along the ground's axes, 30° and 60° across them)."""
DRIFT_STEPS = (1 / 1920, 1 / 3840)
"""s: the finer steps of the drift rows' convergence check (heading 30°)."""


def _drift_rows(
    ground: str,
    kind: str,
    heading: float,
    terrain: bool,
    dt: float | None,
    drift: bool = True,
    rest: bool = True,
    along: bool = False,
) -> list[Row]:
    v = SLIDE_SPEED[kind]
    mu = GROUNDS[ground].friction
    d = v * v / (2 * mu * GRAVITY)
    r = slide(ground, kind, v, math.radians(heading), terrain, dt)
    where = f"{ground}{' (flat heightfield)' if terrain else ''}, heading {heading:g}°"
    step = f", dt = 1/{round(1 / dt)} s" if dt else ""
    what = f"lying {kind} pushed along its axis at {v:g} m/s on {where}{step}"
    tol = TERRAIN_DRIFT_TOLERANCE if terrain else DRIFT_TOLERANCE
    if kind == "baton":
        limit, tol_text = (BATON_TERRAIN_DRIFT_LIMIT if terrain else BATON_DRIFT_LIMIT), ""
    else:
        limit, tol_text = tol * d, f" ({tol * 100:.3g} % of v²/(2 μ g))"
    rows = []
    if drift:
        rows.append(
            Row(
                "drift",
                f"{what}: sideways drift",
                "0 (friction acts against the motion)",
                "docs/physics.md 'A baton sliding on the ground'",
                0.0,
                r.sideways,
                "m",
                f"±{limit:.3g} m{tol_text}",
                abs(r.sideways) <= limit,
            )
        )
    if along:
        rows.append(
            rel_row(
                "drift",
                f"{what}: slide along the push",
                f"v² / (2 μ g), μ = {mu:g}",
                f"ground {ground!r} friction (kubb3d/physics/ground.py); "
                "docs/physics.md 'A kubb sliding on the ground'",
                d,
                r.along,
                "m",
                tol,
                kind="plumbing",
            )
        )
    if rest:
        rows.append(
            rel_row(
                "drift",
                f"{what}: time until at rest",
                "v / (μ g) + settle window",
                "Coulomb friction; the settle window is kubb3d's (kubb3d/physics/rest.py SETTLE_S)",
                v / (mu * GRAVITY) + SETTLE_S,
                r.time,
                "s",
                0.0,
                2 / 30,
                kind="plumbing",
            )
        )
    return rows


def check_drift(quick: bool = False) -> list[Row]:
    """Sideways drift and time to rest of lying batons and kubbs pushed along their axis, on every
    field ground and on a flat heightfield, at :data:`DRIFT_HEADINGS`, their drift at 30° also at
    :data:`DRIFT_STEPS`; the kubbs' slide along the push against v²/(2 μ g) at each of those, within
    the drift's share (docs/physics.md "A baton sliding on the ground", "A kubb sliding on the
    ground")."""
    if quick:
        return _drift_rows("plane", "baton", 0.0, False, None)
    rows = []
    for ground, terrain in [(g, False) for g in ("grass", "wet-grass", "turf", "plane")] + [("grass", True)]:
        for heading in DRIFT_HEADINGS:
            rows += _drift_rows(ground, "baton", heading, terrain, None)
            rows += _drift_rows(ground, "kubb", heading, terrain, None, along=True)
        for dt in DRIFT_STEPS:
            rows += _drift_rows(ground, "baton", 30.0, terrain, dt, rest=False)
            rows += _drift_rows(ground, "kubb", 30.0, terrain, dt, rest=False, along=True)
    return rows


def check_rest() -> list[Row]:
    mu = GROUNDS["grass"].friction
    _, t = slide_distance("grass", "kubb", 2.0)
    ref = 2.0 / (mu * GRAVITY) + SETTLE_S
    return [
        rel_row(
            "rest",
            "time until a kubb sliding from 2 m/s on grass is at rest",
            "v / (μ g) + settle window",
            "Coulomb friction; the settle window is kubb3d's (kubb3d/physics/rest.py SETTLE_S)",
            ref,
            t,
            "s",
            0.0,
            2 / 30,
            kind="plumbing",
        )
    ]

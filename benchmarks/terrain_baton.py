"""A baton on a terrain heightfield: its sideways drift when pushed along its axis, its rolling
distance, its creep at rest and whether it holds or rolls down a slope (docs/physics.md "A baton
sliding on the ground": rolling resistance on terrain).

* drift: a lying baton pushed at 6 m/s along its axis at headings 0, 30, 45, 60 and 90° from x, on a
  flat heightfield (it should slide straight: 0 sideways) and on 1 cm terrain (seed 4; the bumps
  deflect it, so the figure is how much it moves when the step is halved), at 1/960, 1/1920 and
  1/3840 s; also its slide along the push against v²/(2 μ g).
* roll: a baton rolling without slipping from 3 m/s across a flat heightfield at headings 0, 30 and
  45°, against (1 + I/(m r²)) v² / (2 c_rr g).
* rest: batons laid at random spots and headings on 1 cm terrain (benchmarks/terrain_rest.py's
  runs), their creep in 3 s.
* slope: a baton laid across a plane slope (its axis level) and let go: on grass (c_rr = 0.25) it
  holds where tan θ < c_rr and rolls down where tan θ > c_rr, with the acceleration
  g (sin θ − c_rr cos θ) / (1 + I/(m r²)).

* throws: ``kubb3d bench``'s seeded throws (seed 0) on 1 cm terrain (seed 3), each in a fresh
  standard world: kubbs felled per throw, steps and CPU; ``--out FILE`` writes the felled counts
  as JSON, so that a run of other code can be paired with it (``--pair FILE``).

``--switch V`` sets ``TERRAIN_ROLL_SPEED`` (m/s) for the run: ``inf`` gives Bullet's rolling
friction throughout (the code before), ``0`` the torque about the axis throughout.
The figures are simulated: load changes only the wall time.

Usage::

    .venv/bin/python benchmarks/terrain_baton.py [--parts drift,roll,rest,slope] [--switch 0.3]
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass

import numpy as np

from kubb3d.physics import forces as forces_module
from kubb3d.physics.ground import GROUNDS
from kubb3d.physics.world import GRAVITY, Terrain, World

HEADINGS = (0.0, 30.0, 45.0, 60.0, 90.0)
STEPS = (1 / 960, 1 / 1920, 1 / 3840)
BUMPY = Terrain(0.01, seed=4)


@dataclass(frozen=True)
class Slope:
    """A plane rising along x with the gradient ``tan`` (a stand-in for :class:`Terrain`)."""

    tan: float

    def heights(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        X, _ = np.meshgrid(xs, ys)
        return self.tan * X


def lying_quat(heading: float) -> tuple[float, float, float, float]:
    """A baton's axis (body z) turned down to x, then by ``heading`` rad about the vertical."""
    c, s = math.cos(heading / 2), math.sin(heading / 2)
    h = math.sin(math.pi / 4)
    return (-s * h + 0.0, c * h, s * h, c * h)


def push(terrain, heading: float, dt: float, v: float = 6.0) -> tuple[float, float, float, bool]:
    """(along m, sideways m, time to rest s, at rest) of a lying baton pushed at ``v`` along its axis
    at ``heading`` rad, starting half a slide back from the centre."""
    back = v * v / (4 * GRAVITY * GROUNDS["grass"].friction)
    c, s = math.cos(heading), math.sin(heading)
    at = (-back * c, -back * s)
    with World("standard", ground="grass", stakes=False, terrain=terrain, dt=dt) as w:
        r = w.equipment.baton.radius
        w.add_piece("p", "baton", (at[0], at[1], w.ground_height(*at) + r + 0.001), lying_quat(heading), sleeping=False)
        w.step(w.steps_for(0.1))
        p0, q0 = w.pose("p")
        t0 = w.time
        w.set_pose("p", p0, q0, linear_velocity=(v * c, v * s, 0.0))
        stats = w.run_until_rest(15.0)
        dx, dy = (w.pose("p")[0] - p0)[:2]
        return float(dx * c + dy * s), float(dy * c - dx * s), stats.time - t0, stats.at_rest


def roll(terrain, heading: float, v: float = 3.0, dt: float | None = None) -> float:
    """Distance, m, a lying baton rolls from ``v`` (without slipping) along ``heading`` rad."""
    with World("standard", ground="grass", stakes=False, terrain=terrain, dt=dt) as w:
        r = w.equipment.baton.radius
        w.add_piece(
            "p", "baton", (0.0, 0.0, w.ground_height(0, 0) + r), lying_quat(heading + math.pi / 2), sleeping=False
        )
        w.step(w.steps_for(0.1))
        p0, q0 = w.pose("p")
        ch, sh = math.cos(heading), math.sin(heading)
        w.set_pose("p", p0, q0, linear_velocity=(v * ch, v * sh, 0.0), angular_velocity=(-v / r * sh, v / r * ch, 0.0))
        w.run_until_rest(20.0)
        dx, dy = (w.pose("p")[0] - p0)[:2]
        return float(dx * ch + dy * sh)


def on_slope(tan: float, seconds: float = 2.0, dt: float | None = None) -> tuple[float, float]:
    """(distance m rolled down in ``seconds`` s, speed m/s at the end) of a baton laid across a plane
    slope of gradient ``tan`` (axis along y, level) and let go."""
    with World("standard", ground="grass", stakes=False, terrain=Slope(tan), dt=dt) as w:
        r = w.equipment.baton.radius
        cos = 1 / math.sqrt(1 + tan * tan)
        x = 1.0
        z = w.ground_height(x, 0.0) + r / cos
        w.add_piece("p", "baton", (x, 0.0, z + 0.0005), lying_quat(math.pi / 2), sleeping=False)
        p0 = np.array(w.com_pose("p")[0])
        w.step(w.steps_for(seconds))
        p1 = np.array(w.com_pose("p")[0])
        v = np.array(w.engine.com_velocity("p")[0])
        return float(p0[0] - p1[0]) / cos, float(np.linalg.norm(v))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parts", default="drift,roll,rest,slope")
    ap.add_argument("--switch", type=float, default=None, help="TERRAIN_ROLL_SPEED, m/s")
    ap.add_argument("--pieces", type=int, default=12, help="batons at rest (rest part)")
    ap.add_argument("--steps", default=None, help="comma-separated step denominators, e.g. 960,3840")
    ap.add_argument("--headings", default=None, help="comma-separated headings, deg")
    ap.add_argument("--throws", type=int, default=200, help="throws (throws part)")
    ap.add_argument("--out", default=None, help="write the throws' felled counts here (JSON)")
    ap.add_argument("--pair", default=None, help="pair the throws with this earlier --out file")
    a = ap.parse_args()
    if a.switch is not None:
        forces_module.TERRAIN_ROLL_SPEED = a.switch
    steps = [1 / float(s) for s in a.steps.split(",")] if a.steps else STEPS
    headings = [float(h) for h in a.headings.split(",")] if a.headings else HEADINGS
    parts = a.parts.split(",")
    print(f"TERRAIN_ROLL_SPEED = {getattr(forces_module, 'TERRAIN_ROLL_SPEED', None)} m/s", flush=True)
    mu, crr = GROUNDS["grass"].friction, GROUNDS["grass"].rolling_resistance
    if "drift" in parts:
        d = 36.0 / (2 * mu * GRAVITY)
        for name, terrain in (("flat heightfield", Terrain(0.0)), ("1 cm terrain", BUMPY)):
            for heading in headings:
                cells = []
                for dt in steps:
                    t = time.process_time()
                    along, side, t_rest, rest = push(terrain, math.radians(heading), dt)
                    cells.append(
                        f"1/{round(1 / dt)}: {side * 1e3:+7.2f} mm, {(along / d - 1) * 100:+.2f} %, "
                        f"{t_rest:.2f} s{'' if rest else ' NOT AT REST'} ({time.process_time() - t:.1f} s CPU)"
                    )
                print(f"drift {name:16s} {heading:4.0f}°: " + " | ".join(cells), flush=True)
    if "roll" in parts:
        ref = 1.5 * 9.0 / (2 * crr * GRAVITY)
        for heading in (0.0, 30.0, 45.0):
            for dt in (None, 1 / 1920):
                got = roll(Terrain(0.0), math.radians(heading), dt=dt)
                step = f"1/{round(1 / dt)}" if dt else "default"
                print(
                    f"roll flat heightfield {heading:4.0f}° ({step}): {got:.4f} m, formula {ref:.4f} m "
                    f"({(got / ref - 1) * 100:+.2f} %)",
                    flush=True,
                )
    if "rest" in parts:
        import sys
        from pathlib import Path

        sys.path.insert(0, str(Path(__file__).parent))
        from terrain_rest import rest_run

        rng = np.random.default_rng(3)
        runs = [rest_run(BUMPY, "baton", "lying", rng, 3.0) for _ in range(a.pieces)]
        ok = [r for r in runs if r is not None]
        creeps = sorted(r[2] * 1e3 for r in ok)
        moving = sum(r[0] for r in ok)
        samples = sum(r[1] for r in ok)
        print(
            f"rest 1 cm terrain, {len(runs)} batons lying 3 s: creep max {max(creeps):.3f} mm, median "
            f"{creeps[len(creeps) // 2]:.3f} mm; in motion {moving} of {samples} samples; not at rest "
            f"within 5 s: {len(runs) - len(ok)}",
            flush=True,
        )
    if "slope" in parts:
        for tan in (0.15, 0.2, 0.23, 0.27, 0.3, 0.4):
            th = math.atan(tan)
            acc = max(0.0, GRAVITY * (math.sin(th) - crr * math.cos(th)) / 1.5)
            got, v = on_slope(tan)
            print(
                f"slope tan {tan:.2f} (c_rr {crr:g}): rolled {got * 1e3:9.3f} mm in 2 s, speed {v:.4f} m/s; "
                f"formula {acc * 2.0**2 / 2 * 1e3:9.3f} mm, {acc * 2.0:.4f} m/s",
                flush=True,
            )

    if "throws" in parts:
        throws_part(a.throws, a.out, a.pair)


def throws_part(n: int, out: str | None, pair: str | None) -> None:
    """Kubbs felled per throw, steps and CPU of ``n`` bench throws on 1 cm terrain."""
    import json

    from kubb3d.bench import _throws, mean_ci95
    from kubb3d.throw import throw

    throws = _throws(n, 0)
    felled, steps = [], 0
    t = time.process_time()
    for params, _ in throws:
        with World.standard(terrain=Terrain(0.01, seed=3)) as w:
            r = throw(w, params)
            steps += w.steps
        felled.append(len(r.toppled))
    cpu = time.process_time() - t
    m, h = mean_ci95(felled)
    print(
        f"throws on 1 cm terrain: {n}, felled per throw {m:.3f} +- {h:.3f}, steps {steps}, CPU {cpu:.1f} s", flush=True
    )
    if out:
        with open(out, "w") as fh:
            json.dump({"felled": felled, "steps": steps, "cpu": cpu}, fh)
    if pair:
        with open(pair) as fh:
            other = json.load(fh)
        d = [a - b for a, b in zip(felled, other["felled"])]
        dm, dh = mean_ci95(d)
        print(
            f"paired with {pair}: difference {dm:+.3f} +- {dh:.3f} (95 %), {sum(x != 0 for x in d)} of {len(d)} "
            f"throws fell other counts; steps {steps / other['steps'] - 1:+.1%}, CPU {cpu / other['cpu'] - 1:+.1%}",
            flush=True,
        )


if __name__ == "__main__":
    main()

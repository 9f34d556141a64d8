"""Pieces at rest on the flat ground and on terrain: how often they move above the rest thresholds,
and how far they creep (docs/physics.md "Ground contact": rest on the heightfield).

Each piece alone in its own world (grass, no stakes) at a random spot and heading of the pitch:
kubbs, kings and batons lying, kubbs and kings standing, on the flat ground, on a flat heightfield and on 1 cm
terrain. It is let come to rest (``run_until_rest``), then kept awake (Bullet would put it to sleep
after 2 s still) and stepped at the quiet step for ``--seconds`` s; at every 30 Hz sample it counts
as moving when it is faster than ``REST_SPEED`` or turns faster than ``REST_TURN`` (the world's rest
test), and its creep is the largest horizontal distance of its centre of mass from where it was at
rest (its sink, the vertical one, is given apart). A piece that does not come to rest within 5 s
is counted and left out.
The figures are simulated: load changes only the wall time.

Usage::

    .venv/bin/python benchmarks/terrain_rest.py [--pieces 6] [--seconds 5] [--seed 3] [--fine]
"""

from __future__ import annotations

import argparse
import math

import numpy as np
import pybullet as pb

from kubb3d.experiment.stats import wilson
from kubb3d.physics.engine import REST_SPEED, REST_TURN
from kubb3d.physics.rest import SAMPLE_INTERVAL
from kubb3d.physics.world import Terrain, World

from false_rest import place

GROUNDS = {"flat": None, "flat heightfield": Terrain(0.0), "1 cm terrain": Terrain(0.01, seed=4)}
CASES = (("kubb", "lying"), ("baton", "lying"), ("kubb", "standing"))
KING_CASES = (("king", "lying"), ("king", "standing"))
"""Run after every ground's CASES, so that those draw the same spots as before the king was added."""


def rest_run(
    terrain: Terrain | None, kind: str, pose: str, rng: np.random.Generator, seconds: float, fine: bool = False
):
    """(samples in motion, samples, creep m, sink m) of one piece at rest, or None if it did not
    come to rest. ``fine``: hold it at the fine step instead of the quiet one."""
    with World("standard", ground="grass", stakes=False, terrain=terrain) as w:
        place(w, kind, pose, rng)  # a random spot and heading, 2 mm above the ground
        if not w.run_until_rest(5.0).at_rest:
            return None
        body = w.engine.body_of("p")
        pb.changeDynamics(
            body, -1, activationState=pb.ACTIVATION_STATE_DISABLE_SLEEPING, physicsClientId=w.engine.client
        )
        w.use_step(w.dt if fine else w.quiet_dt)
        com0 = np.array(w.com_pose("p")[0])
        moving = samples = 0
        creep = sink = 0.0
        n = w.steps_for(SAMPLE_INTERVAL)
        for _ in range(round(seconds / SAMPLE_INTERVAL)):
            w.step(n)
            v, om = w.engine.com_velocity("p")
            samples += 1
            moving += math.hypot(*v) > REST_SPEED or math.hypot(*om) > REST_TURN
            d = np.array(w.com_pose("p")[0]) - com0
            creep, sink = max(creep, math.hypot(d[0], d[1])), max(sink, -d[2])
        return moving, samples, creep, sink


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pieces", type=int, default=6, help="pieces of each case on each ground")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--fine", action="store_true", help="hold the pieces at the fine step, not the quiet one")
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    plan = [(n, t, case) for n, t in GROUNDS.items() for case in CASES]
    plan += [(n, t, case) for n, t in GROUNDS.items() for case in KING_CASES]
    for name, terrain, (kind, pose) in plan:
        every = [rest_run(terrain, kind, pose, rng, a.seconds, a.fine) for _ in range(a.pieces)]
        runs = [r for r in every if r is not None]
        moving, samples = sum(r[0] for r in runs), sum(r[1] for r in runs)
        lo, hi = wilson(moving, samples)
        print(
            f"{name:17s} {kind:5s} {pose:8s}: in motion {moving} of {samples} samples "
            f"(95 % {lo:.4f}-{hi:.4f}), creep max {max(r[2] for r in runs) * 1e3:.3f} mm, sink max "
            f"{max(r[3] for r in runs) * 1e3:.3f} mm in {a.seconds:g} s; not at rest within 5 s: "
            f"{len(every) - len(runs)} of {len(every)}",
            flush=True,
        )

if __name__ == "__main__":
    main()

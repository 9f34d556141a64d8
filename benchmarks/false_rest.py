"""False rests: how often the world is called at rest while a piece then still moves
(docs/physics.md "Rest on the heightfield").

One piece at a time (grass, no stakes) at a random spot and heading of the pitch, put down as
``benchmarks/terrain_rest.py`` does: kubbs, kings and batons lying, kubbs and kings standing, on
the flat ground and on 1 cm terrain (seed 4). The world runs until it is called at rest
(``run_until_rest``, at most ``--limit`` s, a throw's 15 s by default); the piece is then kept
awake (Bullet would put it to sleep after 2 s still) and stepped for ``--after`` s more as the
rest hold steps it. A false rest is a
piece that then moves more than 0.5 mm or turns more than 0.5° from where it was called at rest.
Each case gives its false rests and trials with the Wilson 95 % interval, the trials never at
rest within the limit, and the mean time to rest. One world per ground and step, the piece removed
after each trial. The figures are simulated: load changes only the wall time.

Usage::

    .venv/bin/python benchmarks/false_rest.py [--trials 300] [--dt 960] [--limit 15] [--seed 5]
        [--cases king-standing,...] [--grounds flat,"1 cm terrain"]
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import pybullet as pb

from kubb3d.experiment.stats import wilson
from kubb3d.physics.world import Terrain, World

GROUNDS = {"flat": None, "1 cm terrain": Terrain(0.01, seed=4)}
CASES = ("kubb-lying", "kubb-standing", "king-lying", "king-standing", "baton-lying")
MOVE = 0.0005
"""m: a piece that moves farther than this after being called at rest was not at rest."""
TURN = math.radians(0.5)
"""rad: nor one that turns more than this."""


def place(w: World, kind: str, pose: str, rng: np.random.Generator) -> None:
    """Put piece ``p`` down at a random spot and heading, 2 mm above the ground."""
    x, y, heading = rng.uniform(-3.0, 3.0), rng.uniform(-2.0, 2.0), rng.uniform(0.0, math.pi)
    eq = w.equipment
    if pose == "lying":
        r = eq.baton.radius if kind == "baton" else eq.piece(kind).width / 2
        c, s = math.cos(heading / 2), math.sin(heading / 2)
        h = math.sin(math.pi / 4)
        q = (-s * h, c * h, s * h, c * h)  # long axis turned down to x, then by heading
        z = r
    else:
        q = (0.0, 0.0, math.sin(heading / 2), math.cos(heading / 2))
        z = eq.piece(kind).height / 2
    z = w.ground_height(x, y) + z if kind == "baton" else w.height_on_ground(kind, x, y, q)
    w.add_piece("p", kind, (x, y, z + 0.002), q, sleeping=False)


def trial(w: World, kind: str, pose: str, rng: np.random.Generator, after: float, limit: float = 15.0):
    """(called at rest, time to rest s, moved m, turned rad) of one piece."""
    place(w, kind, pose, rng)
    try:
        t0 = w.time
        if not w.run_until_rest(limit).at_rest:
            return False, limit, 0.0, 0.0
        t = w.time - t0
        body = w.engine.body_of("p")
        pb.changeDynamics(
            body, -1, activationState=pb.ACTIVATION_STATE_DISABLE_SLEEPING, physicsClientId=w.engine.client
        )
        w.use_step(w.quiet_dt)
        pos0, q0 = w.com_pose("p")
        moved = turned = 0.0
        n = w.steps_for(1.0 / 30.0)
        for _ in range(round(after * 30)):
            w.step(n)
            pos, q = w.com_pose("p")
            moved = max(moved, math.dist(pos, pos0))
            dot = min(1.0, abs(sum(a * b for a, b in zip(q, q0))))
            turned = max(turned, 2 * math.acos(dot))
        return True, t, moved, turned
    finally:
        w.remove_piece("p")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=300, help="trials of each case on each ground")
    ap.add_argument("--after", type=float, default=3.0, help="s stepped after the rest call")
    ap.add_argument("--limit", type=float, default=15.0, help="s to come to rest at most")
    ap.add_argument("--dt", type=int, default=960, help="the fine step is 1/DT s")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--grounds", default=",".join(GROUNDS))
    a = ap.parse_args()
    for gname in a.grounds.split(","):
        for case in a.cases.split(","):
            kind, pose = case.split("-")
            rng = np.random.default_rng([a.seed, CASES.index(case), list(GROUNDS).index(gname)])
            start = time.process_time()
            with World("standard", ground="grass", stakes=False, terrain=GROUNDS[gname], dt=1.0 / a.dt) as w:
                runs = [trial(w, kind, pose, rng, a.after, a.limit) for _ in range(a.trials)]
            rested = [r for r in runs if r[0]]
            false = [r for r in rested if r[2] > MOVE or r[3] > TURN]
            lo, hi = wilson(len(false), len(rested))
            worst = max(rested, key=lambda r: r[2], default=(0, 0, 0.0, 0.0))
            print(
                f"1/{a.dt} s {gname:12s} {case:13s}: false rest {len(false)} of {len(rested)} "
                f"(95 % {lo * 100:.2f}-{hi * 100:.2f} %), never at rest {len(runs) - len(rested)}, "
                f"mean time to rest {np.mean([r[1] for r in rested]):.3f} s, largest move "
                f"{worst[2] * 1e3:.2f} mm, CPU {time.process_time() - start:.1f} s",
                flush=True,
            )


if __name__ == "__main__":
    main()

"""Do Kubbuteo flick outcomes converge with the time step? (issue 29 item 4)

Seeded flicks from A's baseline at B1…B5 in turn on a fresh board (as
:func:`kubb3d.calibrate.flick_trial` throws them), each at 1/960 s (the table's step), 1/1920 s
and 1/3840 s. For each pair of steps: the share of flicks whose set of toppled pieces changes,
with its Wilson 95 % interval, and the paired change of the pieces knocked per flick with its 95 %
interval; and, as a yardstick of how sensitive a flick is, the same at 1/960 s with the flick 0.1 %
faster (``--nudge``, a comma-separated list for several), and how many of the flicks the step
changes any nudge changes too. ``--variant`` changes one setting for every run, to see whether it
is what the step moves: ``rigid-board`` (the board's contacts take out a whole penetration per
step, as the field grounds do), ``erp-per-second`` (Bullet's contact ERP scaled with the step, so
that a penetration goes at the same rate per second), ``no-quiet-step`` (every step the fine one),
``samples-120hz`` (the step length and rest chosen 120 times a second instead of 30) and
``settle-x2`` (the table's settle window doubled). Prints one JSON document with the process CPU
time and the 1-minute load::

    nice -n 10 .venv/bin/python benchmarks/kubbuteo_convergence.py --flicks 30 --seed 7
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import time

import numpy as np

from kubb3d.calibrate import wilson
from kubb3d.physics.world import TABLE_DT, World
from kubb3d.pitch import baseline_ids
from kubb3d.players import FLICK_SKILLS, Player, get_skill
from kubb3d.throw import flick

STEPS = (TABLE_DT, TABLE_DT / 2, TABLE_DT / 4)
"""s: the table's step, half and a quarter of it."""
VARIANTS = ("none", "rigid-board", "erp-per-second", "no-quiet-step", "samples-120hz", "settle-x2")


def use_variant(variant: str) -> None:
    """Change the one setting ``variant`` names (module doc) for the rest of the process."""
    import kubb3d.physics.engine as engine_module
    import kubb3d.physics.ground as ground_module
    import kubb3d.physics.rest as rest_module
    import kubb3d.physics.world as world_module

    if variant == "rigid-board":
        ground_module.GROUNDS["board"] = dataclasses.replace(
            ground_module.BOARD, contact_stiffness=ground_module.RIGID_CONTACT_STIFFNESS, contact_damping=0.0
        )
    elif variant == "erp-per-second":
        configure = engine_module.Engine._configure

        def scaled(self, solver_iterations: int) -> None:
            configure(self, solver_iterations)
            erp = engine_module.CONTACT_ERP * self.dt / TABLE_DT
            engine_module.pb.setPhysicsEngineParameter(contactERP=erp, physicsClientId=self.client)

        engine_module.Engine._configure = scaled  # type: ignore[method-assign]
    elif variant == "no-quiet-step":
        world_module.QUIET_STEPS = 1  # type: ignore[misc]
    elif variant == "samples-120hz":
        rest_module.SAMPLE_INTERVAL = 1.0 / 120.0  # type: ignore[misc]
    elif variant == "settle-x2":
        init = rest_module.Rest.__init__

        def doubled(self, *args, **kwargs) -> None:
            init(self, *args, **kwargs)
            self.settle_s *= 2

        rest_module.Rest.__init__ = doubled  # type: ignore[method-assign]
    elif variant != "none":
        raise SystemExit(f"--variant: expected one of {', '.join(VARIANTS)}, got {variant!r}")


def toppled(i: int, n: int, seed: int, skill: str, dt: float, speed_scale: float = 1.0) -> list[str]:
    """The pieces flick ``i`` of ``n`` (seed ``seed``, preset ``skill``) topples at step ``dt`` s,
    its speed multiplied by ``speed_scale``."""
    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(n)[i])
    player = Player(skill, get_skill(skill), flick=FLICK_SKILLS[skill])
    with World.standard("kubbuteo", dt=dt) as w:
        target = baseline_ids("B")[i % 5]
        pos, _ = w.pose(target)
        _, params = player.baton_flick(w, "A", w.pitch.baseline_x("A"), (float(pos[0]), float(pos[1])), rng)
        if speed_scale != 1.0:
            params = dataclasses.replace(params, speed=params.speed * speed_scale)
        return sorted(flick(w, "baton1", params).toppled)


def compare(a: list[list[str]], b: list[list[str]]) -> dict:
    """Changed sets (count, share, Wilson 95 %) and the paired change of knocked per flick."""
    changed = sum(x != y for x, y in zip(a, b))
    _, lo, hi = wilson(changed, len(a))
    d = np.array([len(y) - len(x) for x, y in zip(a, b)], dtype=float)
    half = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else 0.0
    return {
        "changed": changed,
        "flicks": len(a),
        "share": changed / len(a),
        "share_95": [lo, hi],
        "knocked_change": float(d.mean()),
        "knocked_change_95": half,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flicks", type=int, default=30, help="flicks per preset")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--skills", default="novice,club,elite")
    ap.add_argument("--nudge", default="0.001", help="share(s) by which the nudged flicks are faster, comma-separated")
    ap.add_argument("--variant", default="none", choices=VARIANTS, help="one setting changed in every run (module doc)")
    ap.add_argument("--eighth", action="store_true", help="also 1/7680 s (an eighth of the table's step)")
    a = ap.parse_args()
    use_variant(a.variant)
    steps = STEPS + ((TABLE_DT / 8,) if a.eighth else ())
    cpu0 = time.process_time()
    runs: dict[float, list[list[str]]] = {dt: [] for dt in steps}
    nudges = [float(x) for x in a.nudge.split(",")]
    nudged: dict[float, list[list[str]]] = {x: [] for x in nudges}
    for skill in a.skills.split(","):
        for i in range(a.flicks):
            for dt in steps:
                runs[dt].append(toppled(i, a.flicks, a.seed, skill, dt))
            for x in nudges:
                nudged[x].append(toppled(i, a.flicks, a.seed, skill, STEPS[0], 1.0 + x))
    base = runs[STEPS[0]]
    by_step = {j for j in range(len(base)) if any(runs[dt][j] != base[j] for dt in steps[1:])}
    by_nudge = {j for j in range(len(base)) if any(nudged[x][j] != base[j] for x in nudges)}
    out = {
        "flicks": len(runs[STEPS[0]]),
        "seed": a.seed,
        "skills": a.skills,
        "variant": a.variant,
        "pairs": {
            f"1/{round(1 / x)} -> 1/{round(1 / y)}": compare(runs[x], runs[y])
            for x, y in [*zip(steps, steps[1:]), (STEPS[0], STEPS[2])]
        },
        **{f"nudged {x:g} at 1/{round(1 / STEPS[0])}": compare(base, nudged[x]) for x in nudges},
        "changed_by_a_step": len(by_step),
        "changed_by_a_nudge": len(by_nudge),
        "changed_by_both": len(by_step & by_nudge),
        "knocked_per_flick": {f"1/{round(1 / dt)}": float(np.mean([len(r) for r in runs[dt]])) for dt in steps},
        "cpu_s": round(time.process_time() - cpu0, 1),
        "load_1min": os.getloadavg()[0],
    }
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

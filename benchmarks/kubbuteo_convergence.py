"""Do Kubbuteo flick outcomes converge with the time step? (issue 29 item 4)

Seeded flicks from A's baseline at B1…B5 in turn on a fresh board (as
:func:`kubb3d.calibrate.flick_trial` throws them), each at 1/960 s (the table's step), 1/1920 s
and 1/3840 s. For each pair of steps: the share of flicks whose set of toppled pieces changes,
with its Wilson 95 % interval, and the paired change of the pieces knocked per flick with its 95 %
interval; and, as a yardstick of how sensitive a flick is, the same at 1/960 s with the flick 0.1 %
faster (``--nudge``, a comma-separated list for several), and how many of the flicks the step
changes any nudge changes too. Each halving is also set against each nudge flick by flick
(``halvings_against_nudges``: how many more flicks the halving changes than the nudge, with its
paired 95 % interval); a flick's outcome that is chaotic changes with any nudge, so the step is
converged as far as it can be when no halving changes more flicks than a nudge far below a
player's spread does (``every_halving_within_nudge_floor``; docs/physics.md "Flick outcomes
against the time step"). ``--variant`` changes one setting for every run, to see whether it
is what the step moves: ``rigid-board`` (the board's contacts take out a whole penetration per
step, as the field grounds do), ``erp-per-second`` (Bullet's contact ERP scaled with the step, so
that a penetration goes at the same rate per second), ``no-quiet-step`` (every step the fine one),
``samples-120hz`` (the step length and rest chosen 120 times a second instead of 30) and
``settle-x2`` (the table's settle window doubled) and ``rounded-rim`` (the baton disk's two
rims rounded with radius ``--fillet`` mm: a convex mesh instead of Bullet's cylinder, face spheres
moved in to where the rounding starts). Prints one JSON document with the process CPU
time and the 1-minute load; docs/kubbuteo_convergence*.json are its output for the commands they
record::

    nice -n 5 .venv/bin/python benchmarks/kubbuteo_convergence.py --flicks 100 --seed 7 \
        --nudge 0.0001,-0.0001 --eighth > docs/kubbuteo_convergence.json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import time

import numpy as np

from kubb3d.calibrate import flick_toppled, wilson
from kubb3d.experiment.stats import t95
from kubb3d.physics.world import TABLE_DT
from kubb3d.validate import against_nudge_floor

STEPS = (TABLE_DT, TABLE_DT / 2, TABLE_DT / 4)
"""s: the table's step, half and a quarter of it."""
VARIANTS = ("none", "rigid-board", "erp-per-second", "no-quiet-step", "samples-120hz", "settle-x2", "rounded-rim")


def use_variant(variant: str, fillet: float = 0.002) -> None:
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
    elif variant == "rounded-rim":
        import atexit
        import shutil
        import tempfile
        from pathlib import Path

        from kubb3d import assets
        from kubb3d.equipment import CONVEX_MARGIN, EQUIPMENT_SETS

        baton = EQUIPMENT_SETS["kubbuteo"].baton
        folder = Path(tempfile.mkdtemp(prefix="rounded-rim-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        mesh = assets.rounded_disk_mesh(baton, fillet, inset=CONVEX_MARGIN, sections=48, arc=4)
        (folder / "kubbuteo-baton-collision.obj").write_text(mesh.export(file_type="obj"))
        text = assets.models_dir().joinpath("kubbuteo-baton.urdf").read_text()
        (folder / "kubbuteo-baton.obj").write_text(assets.models_dir().joinpath("kubbuteo-baton.obj").read_text())
        head, _, _ = text.partition("  <collision>")
        collisions = ['<geometry><mesh filename="kubbuteo-baton-collision.obj"/></geometry>']
        collisions += assets._sphere_geometries(assets.face_sphere_centres(baton, fillet))
        coll = "".join(f"  <collision>\n    {c}\n  </collision>\n" for c in collisions)
        (folder / "kubbuteo-baton.urdf").write_text(head + coll + "</link>\n</robot>\n")
        model_path = engine_module.model_path

        def rounded(set_name: str, kind: str):
            if (set_name, kind) == ("kubbuteo", "baton"):
                return folder / "kubbuteo-baton.urdf"
            return model_path(set_name, kind)

        engine_module.model_path = rounded  # type: ignore[assignment]
    elif variant != "none":
        raise SystemExit(f"--variant: expected one of {', '.join(VARIANTS)}, got {variant!r}")


def toppled(i: int, n: int, seed: int, skill: str, dt: float, speed_scale: float = 1.0) -> list[str]:
    """The pieces flick ``i`` of ``n`` (seed ``seed``, preset ``skill``) topples at step ``dt`` s,
    its speed multiplied by ``speed_scale`` (:func:`kubb3d.calibrate.flick_toppled`)."""
    return flick_toppled((i, n, seed, skill, dt, speed_scale))


def compare(a: list[list[str]], b: list[list[str]]) -> dict:
    """Changed sets (count, share, Wilson 95 %) and the paired change of knocked per flick."""
    changed = sum(x != y for x, y in zip(a, b))
    _, lo, hi = wilson(changed, len(a))
    d = np.array([len(y) - len(x) for x, y in zip(a, b)], dtype=float)
    # Student's t (kubb3d.experiment.stats); one flick has no interval (NaN, never a zero width)
    half = t95(len(d) - 1) * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else math.nan
    return {
        "changed": changed,
        "flicks": len(a),
        "share": changed / len(a),
        "share_95": [lo, hi],
        "knocked_change": float(d.mean()),
        "knocked_change_95": half,
    }


def excess(a: list[list[str]], b: list[list[str]], base: list[list[str]], nudged: list[list[str]]) -> dict:
    """How many more flicks change from run ``a`` to run ``b`` (a change of step) than from
    ``base`` to ``nudged`` (a nudge of the flick), paired flick by flick: the two kinds of
    discordant flick (changed by the step only, by the nudge only), the difference of the two
    shares and its paired 95 % interval (Wald: √(b + c − (b − c)²/n)/n), and whether that interval
    reaches zero, so that the step is not shown to change more flicks than the nudge does
    (:func:`kubb3d.validate.against_nudge_floor`, which ``kubb3d validate``'s ``flicks`` rows use)."""
    by_step = [x != y for x, y in zip(a, b)]
    by_nudge = [x != y for x, y in zip(base, nudged)]
    step_only = sum(s and not u for s, u in zip(by_step, by_nudge))
    nudge_only = sum(u and not s for s, u in zip(by_step, by_nudge))
    diff, lo, hi = against_nudge_floor(by_step, by_nudge)
    return {
        "step_only": step_only,
        "nudge_only": nudge_only,
        "share_excess": diff,
        "share_excess_95": [lo, hi],
        "within_nudge_floor": lo <= 0.0,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flicks", type=int, default=30, help="flicks per preset")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--skills", default="novice,club,elite")
    ap.add_argument("--nudge", default="0.001", help="share(s) by which the nudged flicks are faster, comma-separated")
    ap.add_argument("--variant", default="none", choices=VARIANTS, help="one setting changed in every run (module doc)")
    ap.add_argument("--fillet", type=float, default=2.0, help="mm: the rim's radius with --variant rounded-rim")
    ap.add_argument("--eighth", action="store_true", help="also 1/7680 s (an eighth of the table's step)")
    a = ap.parse_args()
    use_variant(a.variant, a.fillet / 1000)
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
    halvings = {f"1/{round(1 / x)} -> 1/{round(1 / y)}": (x, y) for x, y in zip(steps, steps[1:])}
    floor = {
        f"{name} against nudged {x:g}": excess(runs[s], runs[t], base, nudged[x])
        for name, (s, t) in halvings.items()
        for x in nudges
    }
    out = {
        "command": "benchmarks/kubbuteo_convergence.py " + " ".join(sys.argv[1:]),
        "flicks": len(runs[STEPS[0]]),
        "seed": a.seed,
        "skills": a.skills,
        "variant": a.variant,
        "pairs": {
            f"1/{round(1 / x)} -> 1/{round(1 / y)}": compare(runs[x], runs[y])
            for x, y in [*zip(steps, steps[1:]), (STEPS[0], STEPS[2])]
        },
        **{f"nudged {x:g} at 1/{round(1 / STEPS[0])}": compare(base, nudged[x]) for x in nudges},
        "halvings_against_nudges": floor,
        "every_halving_within_nudge_floor": all(row["within_nudge_floor"] for row in floor.values()),
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

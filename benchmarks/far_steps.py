"""Long steps for a piece moving fast alone, far from every other piece (``World(far_dt=...)``,
off by default): what they save and what they change (issue #32; docs/speed.md "Eleventh
round: long steps far from everything").

Usage::

    .venv/bin/python benchmarks/far_steps.py [--throws 200] [--inkasts 150] [--far-steps 2] [--json]

The same ``kubb3d bench`` throws (seed 0, each in a fresh standard world) and the same club
inkasts (``kubb3d calibrate``'s inkast trial: one kubb from A's baseline at the first inkast
spot, seed 5) with the default schedule and with steps of ``--far-steps`` fine steps while
the piece is far from everything: steps per throw, CPU seconds (the two alternated, twice,
with the load), kubbs felled per baton (paired difference, 95 %), the inkast's rest offset
from its spot (paired difference, 95 %).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def _ci(values) -> tuple[float, float]:
    """(mean, half width of its Student's t 95 % interval; NaN for one value)."""
    from kubb3d.bench import mean_ci95

    return mean_ci95(values)


def bench_throws(throws, far_dt: float | None) -> tuple[float, list[int], list[int]]:
    """(CPU s, felled per throw, steps per throw) of the bench throws with ``far_dt``."""
    from kubb3d.physics.world import World
    from kubb3d.throw import throw

    felled, steps = [], []
    t0 = time.process_time()
    for params, _ in throws:
        with World.standard(far_dt=far_dt) as world:
            result = throw(world, params)
            felled.append(len(result.toppled))
            steps.append(world.steps)
    return time.process_time() - t0, felled, steps


def inkast_offsets(n: int, seed: int, far_dt: float | None) -> list[float]:
    """The rest offset, m, of ``n`` club inkasts from their spot (calibrate's inkast trial)."""
    from kubb3d.physics.world import World
    from kubb3d.pitch import PITCHES
    from kubb3d.players import Player, get_skill
    from kubb3d.throw import release_from_params, simulate

    pitch = PITCHES["dm"]
    player = Player("club", get_skill("club"))
    out = []
    for i in range(n):
        rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(n)[i])
        with World.standard("dm-small", pitch, "grass", far_dt=far_dt) as world:
            spot = player.inkast_target(pitch, "A", 0)
            _, params = player.kubb_throw(world.equipment, pitch, "A", spot, rng, dt=world.quiet_dt)
            world.add_piece("X1", "kubb", (0.0, 0.0, -10.0), side="B", sleeping=False)
            result = simulate(world, "X1", release_from_params(params, pitch), kind="kubb", params=params)
            x, y, _ = result.final["X1"].position
        out.append(float(math.hypot(x - spot[0], y - spot[1])))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throws", type=int, default=200, help="bench throws (default 200)")
    ap.add_argument("--inkasts", type=int, default=150, help="club inkasts (default 150)")
    ap.add_argument("--far-steps", type=int, default=2, help="the far step in fine steps (default 2)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON document")
    ap.add_argument("--save", default=None, help="write the figures to this JSON file")
    a = ap.parse_args()
    if a.throws < 2 or a.inkasts < 2 or a.far_steps < 2:
        print("far_steps.py: --throws and --inkasts must be at least 2, --far-steps at least 2", file=sys.stderr)
        raise SystemExit(2)
    from kubb3d.bench import _throws
    from kubb3d.physics.world import DT

    far_dt = a.far_steps * DT
    throws = _throws(a.throws, 0)
    out: dict = {"load_before": _load(), "far_dt": far_dt, "cpu_s": {"default": [], "far": []}}
    for _ in range(2):
        for name, value in (("default", None), ("far", far_dt)):
            cpu, felled, steps = bench_throws(throws, value)
            out["cpu_s"][name].append(cpu)
            out[f"felled_{name}"], out[f"steps_{name}"] = felled, steps
            print(f"{a.throws} throws, {name}: {cpu:.2f} s CPU (load {_load():.1f})", flush=True)
    d = np.subtract(out["felled_far"], out["felled_default"])
    figures = {
        "steps_per_throw": {n: float(np.mean(out[f"steps_{n}"])) for n in ("default", "far")},
        "felled_per_baton": {n: float(np.mean(out[f"felled_{n}"])) for n in ("default", "far")},
        "felled_difference": _ci(d),
        "differing_throws": int(np.count_nonzero(d)),
        "cpu_s": out["cpu_s"],
        "felled_default": out["felled_default"],
        "felled_far": out["felled_far"],
    }
    offsets = {name: inkast_offsets(a.inkasts, 5, value) for name, value in (("default", None), ("far", far_dt))}
    figures["inkast_offset_m"] = {n: _ci(offsets[n]) for n in offsets}
    figures["inkast_offset_difference_m"] = _ci(np.subtract(offsets["far"], offsets["default"]))
    figures["load_before"], figures["load_after"] = out["load_before"], _load()
    figures["command"] = " ".join(["benchmarks/far_steps.py", *sys.argv[1:]])
    print(summary(figures))
    if a.save:
        with open(a.save, "w", encoding="utf-8") as fh:
            json.dump(figures, fh, indent=1)
            fh.write("\n")
    if a.json:
        print(json.dumps(figures))


def summary(figures: dict) -> str:
    """The lines docs/speed.md quotes from a run's figures."""
    s, f = figures["steps_per_throw"], figures["felled_per_baton"]
    (dm, dh) = figures["felled_difference"]
    (o0, h0), (o1, h1) = figures["inkast_offset_m"]["default"], figures["inkast_offset_m"]["far"]
    (od, oh) = figures["inkast_offset_difference_m"]
    cpu = figures["cpu_s"]
    pairs = ", ".join(f"{d:.2f} → {x:.2f} s" for d, x in zip(cpu["default"], cpu["far"]))
    return "\n".join(
        [
            f"* steps per bench throw: {s['default']:.1f} → {s['far']:.1f} ({s['far'] / s['default'] - 1:+.1%}); "
            f"CPU of the {len(figures['felled_default'])} throws, default → far, alternated: {pairs} "
            f"(load {figures['load_before']:.1f} before, {figures['load_after']:.1f} after);",
            f"* kubbs felled per baton: {f['default']:.3f} → {f['far']:.3f}, paired difference {dm:+.3f} ± {dh:.3f} "
            f"(95 %), {figures['differing_throws']} throws differ;",
            f"* a club inkast's rest offset from its spot: {o0:.3f} ± {h0:.3f} m → {o1:.3f} ± {h1:.3f} m, "
            f"paired difference {od:+.3f} ± {oh:.3f} m.",
        ]
    )


if __name__ == "__main__":
    main()

"""Calibrate the skill presets of :mod:`kubb3d.players`: the fraction of 8 m baseline kubbs
felled per baton (DM pitch and ``dm-small`` set, grass, the physics default).

Target (docs/physics.md "Reference numbers"): competitive players knock down about 42 % of
baseline kubbs at 8 m per baton; ``elite`` should fell about 42 %, ``club`` about 22 %,
``novice`` about 10 %.

Method: for every throw a fresh standard world; the player throws from A's baseline at one
of B's five baseline kubbs (cycling B1…B5), with release noise from its preset
(:func:`kubb3d.validate.run_throws`, child seeds ``SeedSequence(seed).spawn(throws)``). A kubb
counts as felled when it is not upright at rest (``ThrowResult.toppled``). Reported: kubbs
felled per baton with its 95 % interval, and the fraction of batons that felled at least one.

Usage::

    .venv/bin/python benchmarks/calibrate_players.py [--throws 400] [--seed 7] [--skills elite,club,novice] [--workers 2]
"""

from __future__ import annotations

import argparse
import math
import os
import time

import numpy as np

from kubb3d.physics.world import DT
from kubb3d.validate import run_throws


def measure(skill_name: str, throws: int, seed: int, workers: int = 1) -> dict:
    """Throw ``throws`` batons with the preset; returns counts and rates."""
    t0 = time.perf_counter()
    rows = run_throws(throws, seed, DT, skill=skill_name, workers=workers)
    felled = np.array([r["felled"] for r in rows], dtype=float)
    hits = int((felled > 0).sum())
    p = float(felled.mean())
    half = 1.96 * float(felled.std(ddof=1)) / math.sqrt(throws)
    return {"skill": skill_name, "throws": throws, "kubbs_felled": int(felled.sum()), "felled_per_baton": p, "felled_ci95": (p - half, p + half),
            "batons_hitting": hits, "hit_rate": hits / throws, "seconds": time.perf_counter() - t0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throws", type=int, default=400)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--skills", default="elite,club,novice")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    for s in a.skills.split(","):
        m = measure(s, a.throws, a.seed, a.workers)
        lo, hi = m["felled_ci95"]
        print(f"{s:7s} {m['throws']} batons: {m['felled_per_baton']:.3f} kubbs felled per baton ({m['kubbs_felled']}, 95 % CI {lo:.3f}–{hi:.3f}), "
              f"{m['hit_rate']:.3f} of batons felled one or more; {m['seconds']:.1f} s", flush=True)


if __name__ == "__main__":
    main()

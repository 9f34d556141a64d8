"""Rest truth over many player throws: no throw may end "at rest" with a piece faster than
0.05 m/s, and none may reach the 15 s time limit (physics issue, "Done means").

Throws: club and elite presets, ``standard`` and ``dm-small`` sets, grass, turf and wet grass,
8 m baseline throws at B1…B5 in turn (:func:`kubb3d.calibrate.run_throws`), ``--per-case``
throws per combination (default 84: 1,008 in all). Prints one line per combination (felled per
baton, median slide after landing, fastest piece at rest, time-limit hits, steps per throw) and
the totals.

Usage::

    .venv/bin/python benchmarks/rest_check.py [--per-case 84] [--seed 11] [--workers 2]
"""

from __future__ import annotations

import argparse
import itertools
import os
import time

import numpy as np

from kubb3d.physics.world import DT
from kubb3d.calibrate import run_throws
from kubb3d.validate import FAST_AT_REST


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-case", type=int, default=84)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    total = fast = limit = 0
    t0 = time.perf_counter()
    for skill, set_name, ground in itertools.product(
        ("club", "elite"), ("standard", "dm-small"), ("grass", "turf", "wet-grass")
    ):
        rows = run_throws(a.per_case, a.seed, DT, skill=skill, set_name=set_name, ground=ground, workers=a.workers)
        f = sum(1 for r in rows if r["at_rest"] and r["fastest"] > FAST_AT_REST)
        lim = sum(1 for r in rows if not r["at_rest"])
        slides = [r["slide"] for r in rows if r["slide"] is not None]
        rest_speed = max((r["fastest"] for r in rows if r["at_rest"]), default=float("nan"))
        felled = np.mean([r["felled"] for r in rows])
        print(
            f"{skill:5s} {set_name:8s} {ground:9s}: felled/baton {felled:.3f}, slide after landing median "
            f"{np.median(slides):.2f} m "
            f"(n={len(slides)}), fastest piece at rest {rest_speed:.4f} m/s, fast-at-rest {f}, time limit {lim}, "
            f"steps/throw {np.mean([r['steps'] for r in rows]):.0f}",
            flush=True,
        )
        total += len(rows)
        fast += f
        limit += lim
    print(
        f"total {total} throws: {fast} at rest with a piece faster than {FAST_AT_REST} m/s, {limit} at the time limit; "
        f"{time.perf_counter() - t0:.0f} s"
    )


if __name__ == "__main__":
    main()

"""Lying blocks (kubb, king) pushed along their long axis: how far they slide against v²/(2 μ g)
and how far sideways, on every field ground and on a flat heightfield, at several headings and
steps (docs/physics.md "A kubb sliding on the ground"). Simulated figures: load changes only the
wall time.

Usage::

    .venv/bin/python benchmarks/lying_slide.py [--kinds kubb,king] [--headings 0,15,30,45,60,90]
        [--workers 2]
"""

from __future__ import annotations

import argparse
import math
from concurrent.futures import ProcessPoolExecutor

from kubb3d.physics.ground import GROUNDS
from kubb3d.physics.world import GRAVITY
from kubb3d.validate import SLIDE_SPEED, slide

STEPS = (1 / 960, 1 / 1920, 1 / 3840)
WHERE = (("grass", False), ("wet-grass", False), ("turf", False), ("plane", False), ("grass", True))


def one(args):
    ground, terrain, kind, heading, dt = args
    v = SLIDE_SPEED["kubb"]
    r = slide(ground, kind, v, math.radians(heading), terrain, dt)
    want = v * v / (2 * GROUNDS[ground].friction * GRAVITY)
    return (r.along / want - 1.0) * 100.0, r.sideways * 1e3, r.at_rest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kinds", default="kubb,king")
    ap.add_argument("--headings", default="0,15,30,45,60,90")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    headings = [float(h) for h in a.headings.split(",")]
    jobs = [
        (g, t, k, h, dt) for k in a.kinds.split(",") for g, t in WHERE for dt in STEPS for h in headings
    ]
    with ProcessPoolExecutor(a.workers) as ex:
        res = dict(zip(jobs, ex.map(one, jobs)))
    for k in a.kinds.split(","):
        for g, t in WHERE:
            for dt in STEPS:
                rows = [res[(g, t, k, h, dt)] for h in headings]
                al = [r[0] for r in rows]
                sw = [abs(r[1]) for r in rows]
                rest = sum(r[2] for r in rows)
                where = g + (" (flat heightfield)" if t else "")
                print(
                    f"{k:4s} {where:28s} 1/{round(1 / dt)} s: along "
                    f"{min(al):+.2f} ... {max(al):+.2f} %, sideways max {max(sw):.1f} mm "
                    f"({' '.join(f'{s:.1f}' for s in sw)}), at rest {rest} of {len(rows)}",
                    flush=True,
                )


if __name__ == "__main__":
    main()

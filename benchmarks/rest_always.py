"""Rest always comes: seeded player throws of every preset, both field sets, every lawn ground and
1 cm terrain, counting the throws that reached the 15 s time limit and those declared at rest
with a piece faster than 0.05 m/s (issue 29, "Rest that always comes"; both must be 0).

Throws: 8 m baseline throws at B1…B5 in turn (:func:`kubb3d.calibrate.run_throws`), ``--per-case``
per combination of preset (novice, club, elite), set (standard, dm-small) and ground (grass,
wet-grass, turf, and grass with a 1 cm terrain heightfield whose seed is the throw's index): 24
combinations, 209 each by default (5,016 throws). One process. Prints one line per combination
(throws, at the time limit, fast at rest, the fastest piece of any throw at rest, the longest time
to rest, CPU seconds) and the totals; exits 1 if any throw reached the limit or rested fast.

``--write FILE`` also stores every line's figures and the totals as JSON (docs/rest_always.json is
the default run's; a test holds docs/physics.md's quotes to it).

Usage::

    .venv/bin/python benchmarks/rest_always.py [--per-case 209] [--seed 29] [--grounds grass,turf]
        [--write FILE.json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time

from kubb3d.calibrate import SKILL_NAMES, run_throws
from kubb3d.physics.world import DT
from kubb3d.validate import FAST_AT_REST

GROUNDS = ("grass", "wet-grass", "turf", "terrain")
"""The grounds; ``terrain`` is grass with a 1 cm heightfield."""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-case", type=int, default=209, help="throws per preset, set and ground")
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--grounds", default=",".join(GROUNDS), help=f"comma-separated, of {', '.join(GROUNDS)}")
    ap.add_argument("--write", metavar="FILE", help="also write the figures to FILE as JSON")
    a = ap.parse_args()
    grounds = a.grounds.split(",")
    unknown = sorted(set(grounds) - set(GROUNDS))
    if unknown:
        expected = ", ".join(GROUNDS)
        print(f"rest_always.py: --grounds: unknown {', '.join(unknown)}; expected {expected}", file=sys.stderr)
        return 2
    total = limit = fast = 0
    start = time.process_time()
    cases = []
    load_before = os.getloadavg()[0]
    for skill, set_name, ground in itertools.product(SKILL_NAMES, ("standard", "dm-small"), grounds):
        t0 = time.process_time()
        on = {"ground": "grass", "terrain_cm": 1.0} if ground == "terrain" else {"ground": ground}
        rows = run_throws(a.per_case, a.seed, DT, skill=skill, set_name=set_name, **on)
        lim = sum(1 for r in rows if not r["at_rest"])
        f = sum(1 for r in rows if r["at_rest"] and r["fastest"] > FAST_AT_REST)
        fastest = max((r["fastest"] for r in rows if r["at_rest"]), default=float("nan"))
        longest = max(r["rest_time"] for r in rows)
        total, limit, fast = total + len(rows), limit + lim, fast + f
        cases.append(
            {
                "preset": skill,
                "set": set_name,
                "ground": ground,
                "throws": len(rows),
                "at_time_limit": lim,
                "fast_at_rest": f,
                "fastest_at_rest_m_s": None if fastest != fastest else fastest,  # none at rest: NaN
                "longest_to_rest_s": longest,
                "cpu_s": time.process_time() - t0,
            }
        )
        print(
            f"{skill:6s} {set_name:8s} {ground:9s}: {len(rows)} throws, at the time limit {lim}, fast at rest {f}, "
            f"fastest piece at rest {fastest:.4f} m/s, longest to rest {longest:.2f} s, "
            f"{time.process_time() - t0:.1f} s CPU",
            flush=True,
        )
    print(
        f"total: {total} throws, at the time limit {limit}, declared at rest with a piece faster than "
        f"{FAST_AT_REST} m/s {fast}; {time.process_time() - start:.0f} s CPU"
    )
    if a.write:
        figures = {
            "per_case": a.per_case,
            "seed": a.seed,
            "fast_at_rest_limit_m_s": FAST_AT_REST,
            "throws": total,
            "at_time_limit": limit,
            "fast_at_rest": fast,
            "cpu_s": time.process_time() - start,
            "load": [load_before, os.getloadavg()[0]],
            "cases": cases,
        }
        with open(a.write, "w", encoding="utf-8") as fh:
            json.dump(figures, fh, indent=1)
            fh.write("\n")
    return 1 if limit or fast else 0


if __name__ == "__main__":
    sys.exit(main())

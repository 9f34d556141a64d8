"""Memory against issue #32's goals: one World < 100 MB, and many matches in one process grow
the resident memory by < 20 MB over 10,000 matches.

Usage::

    .venv/bin/python benchmarks/match_memory.py [--warmup 5] [--matches 50] [--ruleset dm]

One World: the RSS growth of a fresh process from building a standard World and stepping it
for 1 s (:func:`kubb3d.bench.world_memory_mb`). Growth: club-vs-club matches of seeds 1, 2, …
played one after another in this process; the RSS after the warm-up matches (the caches fill:
imports, the aim cache, PyBullet's file cache) and after each fifth of the next ``--matches``.
The caches are bounded (the aim cache holds 4,096 throws), so the growth slows as they fill: the
verdict extrapolates the growth per match of the run's second half to 10,000 matches (10,000 DM
matches take hours here) and adds the growth before it. ``--write FILE`` stores the readings
and figures as JSON. RSS from /proc (Linux), MB = 2^20 bytes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

GOAL_WORLD_MB = 100.0
GOAL_GROWTH_MB = 20.0
GOAL_MATCHES = 10_000


def main() -> None:
    from kubb3d.bench import rss_mb, world_memory_mb
    from kubb3d.match import Match, MatchConfig

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--warmup", type=int, default=5, help="matches before the first reading (default 5)")
    ap.add_argument("--matches", type=int, default=50, help="matches between the two readings (default 50)")
    ap.add_argument("--ruleset", default="dm", choices=("dm", "wikinger", "kubbuteo"))
    ap.add_argument("--write", metavar="FILE", help="also write the readings and figures to FILE as JSON")
    a = ap.parse_args()
    if a.warmup < 0 or a.matches < 1:
        print("match_memory.py: --warmup must be at least 0 and --matches at least 1", file=sys.stderr)
        raise SystemExit(2)
    world = world_memory_mb()
    print(f"one World: {world:.1f} MB (goal < {GOAL_WORLD_MB:g} MB: {'met' if world < GOAL_WORLD_MB else 'not met'})")
    seed = 1
    t0 = time.process_time()
    for _ in range(a.warmup):
        Match(MatchConfig(ruleset=a.ruleset, skills=("club", "club"), seed=seed)).run()
        seed += 1
    start = rss_mb()
    print(f"after {a.warmup} {a.ruleset} matches: {start:.1f} MB RSS", flush=True)
    readings = [(0, start)]
    for i in range(a.matches):
        Match(MatchConfig(ruleset=a.ruleset, skills=("club", "club"), seed=seed)).run()
        seed += 1
        if (i + 1) % max(1, a.matches // 5) == 0 or i + 1 == a.matches:
            readings.append((i + 1, rss_mb()))
            print(f"  after {i + 1} more: {readings[-1][1]:.1f} MB RSS (load {os.getloadavg()[0]:.1f})", flush=True)
    growth = readings[-1][1] - start
    # the second half of the run, from the reading nearest its middle
    middle = min(readings, key=lambda reading: abs(reading[0] - a.matches / 2))
    late = (readings[-1][1] - middle[1]) / (a.matches - middle[0]) if a.matches > middle[0] else growth / a.matches
    projected = growth + max(late, 0.0) * (GOAL_MATCHES - a.warmup - a.matches)
    verdict = "met" if projected < GOAL_GROWTH_MB else "not met"
    print(
        f"growth over {a.matches} matches: {growth:.2f} MB; over the last {a.matches - middle[0]} of them "
        f"{late * 1000:.1f} kB per match; at that rate {projected:.1f} MB over {GOAL_MATCHES:,} matches, goal < "
        f"{GOAL_GROWTH_MB:g} MB: {verdict}; {time.process_time() - t0:.0f} s CPU"
    )
    if a.write:
        figures = {
            "ruleset": a.ruleset,
            "warmup": a.warmup,
            "matches": a.matches,
            "world_mb": world,
            "readings": [{"matches": n, "rss_mb": mb} for n, mb in readings],
            "growth_mb": growth,
            "late_kb_per_match": late * 1000,
            "projected_mb": projected,
            "goal_growth_mb": GOAL_GROWTH_MB,
            "goal_matches": GOAL_MATCHES,
            "cpu_s": time.process_time() - t0,
        }
        with open(a.write, "w", encoding="utf-8") as fh:
            json.dump(figures, fh, indent=1)
            fh.write("\n")


if __name__ == "__main__":
    main()

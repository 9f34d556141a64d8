"""Memory against issue #32's goals: one World < 100 MB, and many matches in one process grow
the resident memory by < 20 MB over 10,000 matches.

Usage::

    .venv/bin/python benchmarks/match_memory.py [--warmup 5] [--matches 50] [--ruleset dm]

One World: the RSS growth of a fresh process from building a standard World and stepping it
for 1 s (:func:`kubb3d.bench.world_memory_mb`). Growth: club-vs-club matches of seeds 1, 2, …
played one after another in this process; the RSS after the warm-up matches (the caches fill:
imports, the aim cache, PyBullet's file cache) and after the next ``--matches``, and the growth
per match with what it would come to over 10,000 matches if it went on at that rate (an
extrapolation; 10,000 DM matches take hours here). RSS from /proc (Linux), MB = 2^20 bytes.
"""

from __future__ import annotations

import argparse
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
    for i in range(a.matches):
        Match(MatchConfig(ruleset=a.ruleset, skills=("club", "club"), seed=seed)).run()
        seed += 1
        if (i + 1) % max(1, a.matches // 5) == 0:
            print(f"  after {i + 1} more: {rss_mb():.1f} MB RSS (load {os.getloadavg()[0]:.1f})", flush=True)
    growth = rss_mb() - start
    per = growth / a.matches
    verdict = "met" if per * GOAL_MATCHES < GOAL_GROWTH_MB else "not met"
    print(
        f"growth over {a.matches} matches: {growth:.2f} MB ({per * 1000:.1f} kB per match; at that rate "
        f"{per * GOAL_MATCHES:.1f} MB over {GOAL_MATCHES:,} matches, goal < {GOAL_GROWTH_MB:g} MB: {verdict}); "
        f"{time.process_time() - t0:.0f} s CPU"
    )


if __name__ == "__main__":
    main()

"""Play many seeded matches and check that every one ends in a valid outcome.

Usage::

    .venv/bin/python benchmarks/run_matches.py --ruleset dm --matches 50 [--first-seed 0]

Prints one line per match (seed, termination, winner, points, turns, simulated minutes,
glitches, wall seconds, 1-minute load average) and a summary: terminations, the share of
matches lost by an early king with its 95 % (Wilson) interval, wall time mean, median and
maximum; exits 1 if any match raised or ended without an outcome. Kubbuteo (issue #15):
club-vs-club matches should end by an early king in at most 10 % (docs/speed.md)::

    .venv/bin/python benchmarks/run_matches.py --ruleset kubbuteo --matches 50 --first-seed 1
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import traceback

from kubb3d.calibrate import wilson
from kubb3d.match import Match, MatchConfig


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ruleset", default="dm")
    ap.add_argument("--matches", type=int, default=50)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--skills", default="club,club")
    a = ap.parse_args()
    bad = 0
    walls = []
    terms: dict[str, int] = {}
    for seed in range(a.first_seed, a.first_seed + a.matches):
        t0 = time.perf_counter()
        try:
            m = Match(MatchConfig(ruleset=a.ruleset, skills=tuple(a.skills.split(",")), seed=seed))
            out = m.run()
            ok = out is not None and m.state.is_over()
        except Exception:
            traceback.print_exc()
            ok, out, m = False, None, None
        wall = time.perf_counter() - t0
        walls.append(wall)
        if not ok:
            bad += 1
            print(f"seed {seed}: FAILED after {wall:.1f} s", flush=True)
            continue
        terms[out.termination.name] = terms.get(out.termination.name, 0) + 1
        print(
            f"seed {seed}: {out.termination.name} winner={out.winner} points={dict(out.points)} "
            f"turns={m.state.total_turns} sim={m.state.clock / 60:.1f} min glitches={len(m.glitches)} wall={wall:.1f} "
            f"s load={os.getloadavg()[0]:.1f}",
            flush=True,
        )
    print(
        f"{a.ruleset}: {a.matches - bad}/{a.matches} matches ended in an outcome; terminations {terms}; wall mean "
        f"{sum(walls) / len(walls):.1f} s, median {statistics.median(walls):.1f} s, max {max(walls):.1f} s"
    )
    done = a.matches - bad
    if done:
        p, lo, hi = wilson(terms.get("EARLY_KING", 0), done)
        print(f"early king: {terms.get('EARLY_KING', 0)} of {done} = {p:.3f} (95 %: {lo:.3f}–{hi:.3f})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

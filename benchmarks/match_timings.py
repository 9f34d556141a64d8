"""Wall time of whole matches as a user runs them: ``kubb3d match`` (default DM match, seed 1)
and ``kubb3d match --ruleset kubbuteo --seed 2``, each in a fresh process (start-up included),
with the 1-minute load average before and after (other processes share the cores).

Usage::

    .venv/bin/python benchmarks/match_timings.py [--repeat 3] [--capped]

Prints one line per run and the best wall time of each match (the least disturbed run) against
its goal (issue #16: DM ≤ 3 s, Kubbuteo ≤ 10 s). Kubbuteo seed 2 ran 56 turns until the fifth
round and 15 since (docs/speed.md "Fifth round"). ``--capped`` adds the club-vs-club Kubbuteo
seeds of 1–50 that reach the 60-turn cap (34, 39, 50 on 952fb0e, since a disk sliding alone
takes the long step, docs/speed.md "Kubbuteo turns (sixth round)"; 11, 21, 22 on d82d850 with
the fifth round's player fixes; 8, 9, 36 without them, docs/speed.md "Kubbuteo turns"; 9, 44,
47, 48, 50 before the round, "Idle at the end of the fourth round").
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

MATCHES = {
    "dm (default, seed 1)": ["match"],
    "kubbuteo (seed 2)": ["match", "--ruleset", "kubbuteo", "--seed", "2"],
}
CAPPED_SEEDS = (34, 39, 50)
"""Club-vs-club Kubbuteo seeds of 1–50 that reach the turn cap (docs/speed.md "Kubbuteo turns
(sixth round)")."""
GOAL_S = {"dm": 3.0, "kubbuteo": 10.0}
"""Issue #16's wall-time goals per ruleset, s."""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--capped", action="store_true", help="also the Kubbuteo seeds that reach the turn cap")
    a = ap.parse_args()
    matches = dict(MATCHES)
    if a.capped:
        for seed in CAPPED_SEEDS:
            matches[f"kubbuteo (seed {seed}, capped)"] = ["match", "--ruleset", "kubbuteo", "--seed", str(seed)]
    best: dict[str, float] = {}
    for name, args in matches.items():
        for _ in range(a.repeat):
            load0 = os.getloadavg()[0]
            t0 = time.perf_counter()
            r = subprocess.run([sys.executable, "-m", "kubb3d", *args, "--json"], capture_output=True, text=True)
            wall = time.perf_counter() - t0
            if r.returncode != 0:
                raise SystemExit(f"{name}: exit {r.returncode}: {r.stderr.strip()[-300:]}")
            best[name] = min(best.get(name, wall), wall)
            print(f"{name}: {wall:.2f} s wall (load {load0:.1f} -> {os.getloadavg()[0]:.1f})")
    for name, wall in best.items():
        goal = GOAL_S[name.split()[0]]
        print(f"best {name}: {wall:.2f} s (goal <= {goal:g} s: {'met' if wall <= goal else 'not met'})")


if __name__ == "__main__":
    main()

"""Wall time of whole matches as a user runs them: ``kubb3d match`` (default DM match, seed 1)
and ``kubb3d match --ruleset kubbuteo --seed 2``, each in a fresh process (start-up included),
with the 1-minute load average before and after (other processes share the cores).

Usage::

    .venv/bin/python benchmarks/match_timings.py [--repeat 3]

Prints one line per run and the best wall time of each match (the least disturbed run).
Targets (issue #16): DM ≤ 3 s, Kubbuteo ≤ 10 s.
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    best = {}
    for name, args in MATCHES.items():
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
        print(f"best {name}: {wall:.2f} s")


if __name__ == "__main__":
    main()

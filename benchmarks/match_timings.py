"""CPU time of whole matches against issue #32's goals: the median of club-vs-club DM matches
(seeds 1–N) ≤ 1 s and of Kubbuteo matches ≤ 2 s, each match played in this process
(``Match.run``: world building, aiming, physics, judge and rules; the interpreter's and
kubb3d's start-up are not part of a match and are given on their own line, a fresh
``kubb3d match --help`` process).

Usage::

    .venv/bin/python benchmarks/match_timings.py [--seeds 50] [--kubbuteo-seeds N] [--json]

CPU time (``time.process_time``), not wall time: the machine is shared, and CPU time moves
less with the other processes' load (it still moves some: give the load with every figure,
as the script does, and compare two codes alternated in one session). One line per match
(seed, CPU s, turns, winner), then per ruleset the median, mean and maximum against the goal.
``--seeds 5`` is a quick check (about 15 s); the default 50 seeds take several minutes.
Before issue #32 this script timed the default match and Kubbuteo seed 2 in fresh processes
by wall time (issue #16's goals; docs/speed.md).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

GOAL_CPU_S = {"dm": 1.0, "kubbuteo": 2.0}
"""Issue #32's goals: the median CPU time of a club-vs-club match per ruleset, s."""


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def startup_cpu_s() -> float:
    """CPU seconds (user + system) of a fresh ``kubb3d match --help`` process: the start-up a
    command-line match pays besides the match."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "kubb3d", "match", "--help"], capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def match_cpu(ruleset: str, seed: int) -> tuple[float, int, str]:
    """(CPU s, turns, winner) of one club-vs-club match played in this process."""
    from kubb3d.match import Match, MatchConfig

    t0 = time.process_time()
    match = Match(MatchConfig(ruleset=ruleset, skills=("club", "club"), seed=seed))
    outcome = match.run()
    cpu = time.process_time() - t0
    return cpu, match.state.total_turns, str(outcome.winner if outcome is not None else None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=50, help="DM seeds 1..N (default 50)")
    ap.add_argument("--kubbuteo-seeds", type=int, default=None, help="Kubbuteo seeds 1..N (default: --seeds)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON document at the end")
    a = ap.parse_args()
    if a.seeds < 1 or (a.kubbuteo_seeds is not None and a.kubbuteo_seeds < 0):
        print("match_timings.py: --seeds must be at least 1 and --kubbuteo-seeds at least 0", file=sys.stderr)
        raise SystemExit(2)
    counts = {"dm": a.seeds, "kubbuteo": a.seeds if a.kubbuteo_seeds is None else a.kubbuteo_seeds}
    load0 = _load()
    startup = startup_cpu_s()
    print(f"start-up (fresh `kubb3d match --help`): {startup:.2f} s CPU (load {load0:.1f})", flush=True)
    figures: dict = {"startup_cpu_s": startup, "load_before": load0}
    for ruleset, n in counts.items():
        if n == 0:
            continue
        cpus = []
        for seed in range(1, n + 1):
            cpu, turns, winner = match_cpu(ruleset, seed)
            cpus.append(cpu)
            print(
                f"{ruleset} seed {seed}: {cpu:.3f} s CPU, {turns} turns, winner {winner} (load {_load():.1f})",
                flush=True,
            )
        median = statistics.median(cpus)
        goal = GOAL_CPU_S[ruleset]
        figures[ruleset] = {
            "seeds": n,
            "median_cpu_s": median,
            "mean_cpu_s": statistics.mean(cpus),
            "max_cpu_s": max(cpus),
        }
        print(
            f"{ruleset}: median {median:.3f} s CPU per match over seeds 1-{n} (mean {statistics.mean(cpus):.3f}, "
            f"max {max(cpus):.3f}); goal <= {goal:g} s: {'met' if median <= goal else 'not met'}",
            flush=True,
        )
    figures["load_after"] = _load()
    print(f"load {load0:.1f} -> {figures['load_after']:.1f}")
    if a.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()

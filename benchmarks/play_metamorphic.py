"""The judge's metamorphic relations on every referee call of many simulated matches.

    python benchmarks/play_metamorphic.py [--seeds 1-20] [--ruleset dm] [--players club,club]
        [--option NAME=VALUE ...] [--load ALL.jsonl.gz[,MORE.jsonl.gz]]

The larger version of tests/judge/test_play_metamorphic.py: plays the seeded matches
(tests/judge/play_positions.py ``record_match``), or reads positions saved by
``benchmarks/referee_play.py --save``, and checks every position under a mirror of the pitch
across its long axis, a swap of sides and a relabelling of kubbs and batons
(tests/judge/play_relations.py). Prints each failure (with the nearest corner to a line: under
1e-9 m a rounding case), then one line of counts: matches, positions by kind, relations
checked, failures by relation, CPU seconds of recording and of checking, and the load average;
then how many positions hold each feature of real play (play_relations.features: kubbs on
kubbs or batons, tilt records, corners near a line, and kubb3d's statuses and consequences).
Exit 1 on a failure. CPU: about 3–12 s per DM match; run it under ``nice``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "judge"))

from play_io import read_lines  # noqa: E402
from seed_ranges import seeds as parse_seeds  # noqa: E402
from play_positions import record_match  # noqa: E402
from play_relations import check, features, transforms  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1-20")
    ap.add_argument("--ruleset", default="dm")
    ap.add_argument("--players", default="club,club", help="skills, e.g. novice,elite")
    ap.add_argument("--option", action="append", default=[], help="a referee option NAME=VALUE of the matches")
    ap.add_argument("--load", default=None, help="check the positions of these files instead (comma-separated)")
    args = ap.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    record_cpu = check_cpu = 0.0
    kinds: Counter[str] = Counter()
    checked: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    rounding = 0
    held: Counter[str] = Counter()
    matches: set[tuple] = set()

    def positions():
        nonlocal record_cpu
        if args.load:
            for name in args.load.split(","):
                yield from read_lines(name)
            return
        config = {"skills": tuple(args.players.split(","))}
        if options:
            config["options"] = options
        for seed in parse_seeds(args.seeds):
            t0 = time.process_time()
            recorded = record_match(seed, args.ruleset, **config)
            record_cpu += time.process_time() - t0
            yield from recorded

    for position in positions():
        matches.add((position["seed"], position["ruleset"], json.dumps(position.get("config"))))
        kinds[position["kind"]] += 1
        held.update(features(position))
        t0 = time.process_time()
        for name, transform in transforms(position).items():
            checked[name] += 1
            problem = check(position, name, transform)
            if problem:
                failed[name] += 1
                rounding += "(a rounding case)" in problem
                print(problem, flush=True)
        check_cpu += time.process_time() - t0
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"matches {len(matches)}, positions {sum(kinds.values())} {dict(kinds)}, relations {sum(checked.values())}, "
        f"failures {sum(failed.values())} {dict(failed)} (rounding cases {rounding}); "
        f"CPU record {record_cpu:.0f} s, check {check_cpu:.0f} s; load {load}"
    )
    print("positions holding: " + ", ".join(f"{k} {n}" for k, n in sorted(held.items())))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

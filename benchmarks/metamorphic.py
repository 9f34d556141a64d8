"""The judge's metamorphic relations (tests/judge/test_metamorphic.py) with many more cases.

    python benchmarks/metamorphic.py [--examples 2000] [--seed 0]

Runs every relation of the test module with ``--examples`` generated situations each (the suite
runs 60), derandomised by ``--seed``, and prints one line per relation: cases, seconds, and the
first counterexample if one is found (exit 1). Pure: no physics.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "tests" / "judge")]

import test_metamorphic as M  # noqa: E402  (the test module is the single source of the relations)


def relations():
    """(name, strategy, check) of every relation: check takes one drawn value."""
    for name, transform in M.SYMMETRIES.items():
        yield f"throw: {name}", M.throw_situations(), M._throw_relation(transform)
        yield f"inkast: {name}", M.inkast_situations(), M._inkast_relation(transform)
    field_ids = ["A1", "A2", "A3", "A4", "A5", "A6"]
    yield (
        "throw: relabel field kubbs",
        st.tuples(M.throw_situations(), st.permutations(field_ids)),
        lambda v: M._throw_relation(M.Transform(names=dict(zip(field_ids, v[1]))))(v[0]),
    )
    inkasted = ["B1", "B2", "B3", "B4"]
    yield (
        "inkast: relabel inkasted kubbs",
        st.tuples(M.inkast_situations(), st.permutations(inkasted)),
        lambda v: M._inkast_relation(M.Transform(names=dict(zip(inkasted, v[1]))))(v[0]),
    )


def _runner(strategy, check, examples: int, generation_seed: int):
    """A hypothesis test of one relation and the list counting its cases."""
    count = [0]

    @seed(generation_seed)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(value=strategy)
    def run(value):
        count[0] += 1
        check(value)

    return run, count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2000, help="generated situations per relation")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generation")
    args = parser.parse_args()
    failed = 0
    for name, strategy, check in relations():
        run, count = _runner(strategy, check, args.examples, args.seed)

        t0 = time.perf_counter()
        try:
            run()
            print(f"{name:34s} {count[0]:6d} cases  {time.perf_counter() - t0:6.1f} s  ok")
        except AssertionError as exc:
            failed += 1
            print(f"{name:34s} {count[0]:6d} cases  {time.perf_counter() - t0:6.1f} s  FAILED: {exc}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

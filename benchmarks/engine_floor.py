"""The floor under issue #32's goals: how much of a throw's and a match's time PyBullet itself
takes at kubb3d's steps, and so how fast they could be if kubb3d's own Python cost nothing.

Usage::

    .venv/bin/python benchmarks/engine_floor.py [--throws 200] [--seeds 50] [--kubbuteo-seeds 10]
        [--json] [--write FILE.json]

Every function of the ``pybullet`` module is wrapped before kubb3d binds it, and the wall time
inside it is summed (``time.perf_counter``, 0.1 µs a call): ``stepSimulation`` (the engine) on
its own, every other call (reads, forces, loading) together. PyBullet runs in the calling
thread, so on an idle machine this is its CPU; give the load with the figures (the script
prints it).

* ``kubb3d bench``'s throws (seed 0): kubb3d's full throws and the bare loop, both without the
  wrappers (the ratio ``kubb3d bench`` prints), then kubb3d's throws again with them. The
  floors are the bare loop's time over kubb3d's engine time, and over all its PyBullet time:
  the ratio kubb3d would reach at its steps if its Python cost nothing (issue #32 asks for 4).
* Club-against-club matches (DM seeds 1..N, Kubbuteo seeds 1..M), with the wrappers: per match
  its CPU (``time.process_time``, the wrappers' cost included), its engine and PyBullet
  seconds; the medians against issue #32's goals (1 s and 2 s of CPU).

``--write`` stores the figures as JSON (docs/speed_floor.json is this command's output; a
test holds docs/speed.md's quotes to it).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from match_timings import GOAL_CPU_S, _load  # noqa: E402  (the goals and the load, as that script gives them)

GOAL_RATIO = 4.0
"""Issue #32: kubb3d's full throws at least this many times as fast as the bare loop."""


class PyBulletClock:
    """Wraps every function of the pybullet module and sums the wall time spent inside it:
    :attr:`engine` (``stepSimulation``) and :attr:`other` (every other call), s."""

    def __init__(self) -> None:
        from kubb3d.physics._pybullet import pb

        self._pb = pb
        self._originals: dict[str, Callable[..., Any]] = {}
        self.engine = 0.0
        self.other = 0.0
        self.steps = 0
        self.calls = 0
        self.by_call: dict[str, list[float]] = {}
        """{function name: [seconds, calls]} of the calls but ``stepSimulation``"""

    def __enter__(self) -> PyBulletClock:
        pb, clock = self._pb, time.perf_counter
        for name in dir(pb):
            function = getattr(pb, name)
            builtin = type(function).__name__ == "builtin_function_or_method"
            if name.startswith("_") or not builtin:
                continue
            self._originals[name] = function
            if name == "stepSimulation":

                def step(*args: Any, _f: Callable[..., Any] = function, **kwargs: Any) -> Any:
                    t0 = clock()
                    out = _f(*args, **kwargs)
                    self.engine += clock() - t0
                    self.steps += 1
                    return out

                setattr(pb, name, step)
            else:

                def call(*args: Any, _f: Callable[..., Any] = function, _name: str = name, **kwargs: Any) -> Any:
                    t0 = clock()
                    out = _f(*args, **kwargs)
                    took = clock() - t0
                    self.other += took
                    self.calls += 1
                    entry = self.by_call.setdefault(_name, [0.0, 0])
                    entry[0] += took
                    entry[1] += 1
                    return out

                setattr(pb, name, call)
        return self

    def __exit__(self, *exc: object) -> None:
        for name, function in self._originals.items():
            setattr(self._pb, name, function)
        self._originals.clear()

    def top(self, n: int = 8) -> list[dict[str, Any]]:
        """The ``n`` PyBullet functions (but ``stepSimulation``) that took the most time."""
        ranked = sorted(self.by_call.items(), key=lambda item: -item[1][0])[:n]
        return [{"call": name, "s": seconds, "calls": calls} for name, (seconds, calls) in ranked]


def bench_floor(n: int) -> dict[str, float]:
    """The bench's throws: kubb3d and the bare loop unwrapped (s), then kubb3d wrapped: its
    engine and other PyBullet seconds, and the floors (bare over those)."""
    from kubb3d.bench import _throws, bare_loop, full_throws

    throws = _throws(n, 0)
    full_throws(throws[: min(5, n)])  # warm caches, as kubb3d bench does
    kubb3d_s, steps = full_throws(throws)
    bare_s, bare_steps = bare_loop(throws)
    with PyBulletClock() as clock:
        wrapped_s, _ = full_throws(throws)
    return {
        "throws": n,
        "kubb3d_s": kubb3d_s,
        "bare_s": bare_s,
        "ratio": bare_s / kubb3d_s,
        "steps_per_throw": steps / n,
        "bare_steps_per_throw": bare_steps / n,
        "wrapped_s": wrapped_s,
        "wrapped_steps_per_throw": clock.steps / n,
        "engine_s": clock.engine,
        "pybullet_other_s": clock.other,
        "engine_us_per_step": 1e6 * clock.engine / clock.steps,
        "bare_us_per_step": 1e6 * bare_s / bare_steps,
        "floor_engine_only": bare_s / clock.engine,
        "floor_all_pybullet": bare_s / (clock.engine + clock.other),
        "top_calls": clock.top(),
    }


def match_floor(ruleset: str, seeds: int, show: Callable[[str], None]) -> dict[str, Any]:
    """Club-against-club matches of seeds 1..``seeds``, wrapped: per match CPU, engine and other
    PyBullet seconds; their medians."""
    from kubb3d.match import Match, MatchConfig

    rows = []
    with PyBulletClock() as clock:
        for seed in range(1, seeds + 1):
            engine, other, steps = clock.engine, clock.other, clock.steps
            t0 = time.process_time()
            Match(MatchConfig(ruleset=ruleset, skills=("club", "club"), seed=seed)).run()
            cpu = time.process_time() - t0
            row = {
                "seed": seed,
                "cpu_s": cpu,
                "engine_s": clock.engine - engine,
                "pybullet_other_s": clock.other - other,
                "steps": clock.steps - steps,
            }
            rows.append(row)
            show(
                f"{ruleset} seed {seed}: {cpu:.3f} s CPU, engine {row['engine_s']:.3f} s, other PyBullet "
                f"{row['pybullet_other_s']:.3f} s, {row['steps']} steps (load {_load():.1f})"
            )
    return {
        "seeds": seeds,
        "median_cpu_s": statistics.median(r["cpu_s"] for r in rows),
        "median_engine_s": statistics.median(r["engine_s"] for r in rows),
        "median_pybullet_s": statistics.median(r["engine_s"] + r["pybullet_other_s"] for r in rows),
        "engine_share": sum(r["engine_s"] for r in rows) / sum(r["cpu_s"] for r in rows),
        "pybullet_share": sum(r["engine_s"] + r["pybullet_other_s"] for r in rows) / sum(r["cpu_s"] for r in rows),
        "median_steps": statistics.median(r["steps"] for r in rows),
        "goal_cpu_s": GOAL_CPU_S[ruleset],
        "top_calls": clock.top(),
        "matches": rows,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throws", type=int, default=200, help="bench throws (default 200; 0: none)")
    ap.add_argument("--seeds", type=int, default=50, help="DM seeds 1..N (default 50; 0: none)")
    ap.add_argument("--kubbuteo-seeds", type=int, default=10, help="Kubbuteo seeds 1..N (default 10; 0: none)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON document at the end")
    ap.add_argument("--write", metavar="FILE", help="also write the figures to FILE as JSON")
    a = ap.parse_args()
    if min(a.throws, a.seeds, a.kubbuteo_seeds) < 0:
        print("engine_floor.py: --throws, --seeds and --kubbuteo-seeds must be 0 or more", file=sys.stderr)
        raise SystemExit(2)

    def show(line: str) -> None:
        print(line, file=sys.stderr if a.json else sys.stdout, flush=True)

    figures: dict[str, Any] = {"load_before": _load()}
    if a.throws:
        bench = figures["bench"] = bench_floor(a.throws)
        show(
            f"bench, {a.throws} throws: ratio {bench['ratio']:.2f} (goal {GOAL_RATIO:g}); at kubb3d's "
            f"{bench['steps_per_throw']:.0f} steps per throw the engine alone would give "
            f"{bench['floor_engine_only']:.2f}, all its PyBullet calls {bench['floor_all_pybullet']:.2f}"
        )
    for ruleset, seeds in (("dm", a.seeds), ("kubbuteo", a.kubbuteo_seeds)):
        if seeds:
            f = figures[ruleset] = match_floor(ruleset, seeds, show)
            show(
                f"{ruleset}: median {f['median_cpu_s']:.3f} s CPU per match, of it the engine "
                f"{f['median_engine_s']:.3f} s and all PyBullet {f['median_pybullet_s']:.3f} s "
                f"(goal {f['goal_cpu_s']:g} s)"
            )
    figures["load_after"] = _load()
    show(f"load {figures['load_before']:.1f} -> {figures['load_after']:.1f}")
    if a.write:
        with open(a.write, "w", encoding="utf-8") as fh:
            json.dump(figures, fh, indent=1)
            fh.write("\n")
    if a.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()

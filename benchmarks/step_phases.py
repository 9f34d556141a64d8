"""Where a match's physics steps go: club-vs-club matches (seeds 1–N) with every engine step
counted by what the world was doing (issue #32, docs/speed.md "Eleventh round").

Usage::

    .venv/bin/python benchmarks/step_phases.py [--seeds 1] [--ruleset dm] [--cpu]

A step after a thrown piece's first contact is counted by the rest check before it (every 1/30 s,
:meth:`kubb3d.physics.rest.Rest.motion`): everything slow (no point faster than ``QUIET_SPEED``),
one piece fast alone (by its kind, and whether the slide of a piece sliding alone,
:meth:`~kubb3d.physics.stepping.Stepper.slide_for`, checks it), or several fast; and by its
length. Steps before the first contact (the flight in engine steps) and the force window at
rest have no step hook. Step counts do not depend on the machine: the
output of a seed is the same wherever it runs. ``--cpu`` adds the CPU seconds of the steps of
each phase and, of those, the engine's own (``stepSimulation``); these depend on the machine and
its load (give the load with them).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time


def count_steps(
    ruleset: str, seeds: int, cpu: dict | None = None
) -> tuple[collections.Counter, int]:
    """({(phase, step in Hz): steps}, throws) of club-vs-club matches of seeds 1..``seeds``;
    with ``cpu`` (a dict) also fills ``cpu["steps"]`` and ``cpu["engine"]``: Counters of CPU
    seconds per (phase, step in Hz), of the whole steps and of ``stepSimulation`` alone."""
    from kubb3d.match import Match, MatchConfig
    from kubb3d.physics import contact_forces, rest, stepping
    from kubb3d.physics.stepping import QUIET_SPEED

    counts: collections.Counter = collections.Counter()
    in_steps: collections.Counter = collections.Counter()
    in_engine: collections.Counter = collections.Counter()
    simulate = stepping.pb.stepSimulation
    clock = time.process_time
    current: list = [None]

    def timed_simulate(*args):  # type: ignore[no-untyped-def]
        t0 = clock()
        simulate(*args)
        in_engine[current[0]] += clock() - t0
    last: dict = {"motion": None, "throws": 0}
    motion, step, settle = rest.Rest.motion, stepping.Stepper.step, contact_forces.ForceWindow.settle_forces

    def counted_motion(self):
        last["motion"] = motion(self)
        return last["motion"]

    def counted_step(self, n: int = 1, *, rolling: bool = True) -> None:
        hz = round(1.0 / self._engine.step_dt)
        checked = last["motion"]
        if not self._hooks or checked is None:
            phase = "no step hook: flight before the first contact, force window"
        else:
            _, fastest, leader, others = checked
            if fastest <= QUIET_SPEED:
                phase = "after the first contact: everything slow"
            elif others > QUIET_SPEED:
                phase = "after the first contact: several pieces fast"
            else:
                how = "alone (the slide checks it)" if self.slide is not None else "alone"
                phase = f"after the first contact: a {leader.kind} fast {how}"
        counts[(phase, hz)] += n
        if cpu is None:
            step(self, n, rolling=rolling)
            return
        current[0] = (phase, hz)
        t0 = clock()
        step(self, n, rolling=rolling)
        in_steps[(phase, hz)] += clock() - t0

    def counted_settle(self, *args, **kwargs):
        last["throws"] += 1
        last["motion"] = None
        return settle(self, *args, **kwargs)

    rest.Rest.motion = counted_motion  # type: ignore[method-assign]
    stepping.Stepper.step = counted_step  # type: ignore[method-assign]
    contact_forces.ForceWindow.settle_forces = counted_settle  # type: ignore[method-assign]
    if cpu is not None:
        stepping.pb.stepSimulation = timed_simulate
        cpu["steps"], cpu["engine"] = in_steps, in_engine
    try:
        for seed in range(1, seeds + 1):
            Match(MatchConfig(ruleset=ruleset, skills=("club", "club"), seed=seed)).run()
    finally:
        rest.Rest.motion, stepping.Stepper.step = motion, step  # type: ignore[method-assign]
        contact_forces.ForceWindow.settle_forces = settle  # type: ignore[method-assign]
        stepping.pb.stepSimulation = simulate
    return counts, last["throws"]


def table(counts: collections.Counter, throws: int, cpu: dict | None = None) -> str:
    """The markdown table of :func:`count_steps`' counts, largest first (with ``cpu``: two more
    columns, CPU seconds of the steps and µs per step, of which the engine's)."""
    total = sum(counts.values())
    head = f"| what the world was doing | step | steps | share | per throw ({throws} throws) |"
    rule = "|---|---|---|---|---|"
    if cpu is not None:
        head += " CPU of the steps | µs per step (engine) |"
        rule += "---|---|"
    lines = [head, rule]
    for (phase, hz), n in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        line = f"| {phase} | 1/{hz} s | {n:,} | {n / total:.1%} | {n / throws:.1f} |"
        if cpu is not None:
            s, e = cpu["steps"][(phase, hz)], cpu["engine"][(phase, hz)]
            line += f" {s:.3f} s | {1e6 * s / n:.1f} ({1e6 * e / n:.1f}) |"
        lines.append(line)
    last = f"| all | | {total:,} | 100.0% | {total / throws:.1f} |"
    if cpu is not None:
        s, e = sum(cpu["steps"].values()), sum(cpu["engine"].values())
        last += f" {s:.3f} s | {1e6 * s / total:.1f} ({1e6 * e / total:.1f}) |"
    lines.append(last)
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=1, help="match seeds 1..N (default 1)")
    ap.add_argument("--ruleset", default="dm", help="the ruleset (default dm)")
    ap.add_argument("--cpu", action="store_true", help="add the CPU time of each phase's steps (machine-dependent)")
    a = ap.parse_args()
    if a.seeds < 1:
        print("step_phases.py: --seeds must be at least 1", file=sys.stderr)
        raise SystemExit(2)
    cpu: dict | None = {} if a.cpu else None
    counts, throws = count_steps(a.ruleset, a.seeds, cpu)
    print(table(counts, throws, cpu))


if __name__ == "__main__":
    main()

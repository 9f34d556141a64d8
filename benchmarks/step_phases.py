"""Where a match's physics steps go: club-vs-club matches (seeds 1–N) with every engine step
counted by what the world was doing (issue #32, docs/speed.md "Eleventh round").

Usage::

    .venv/bin/python benchmarks/step_phases.py [--seeds 1] [--ruleset dm]

A step after a thrown piece's first contact is counted by the rest check before it (every 1/30 s,
:meth:`kubb3d.physics.rest.Rest.motion`): everything slow (no point faster than ``QUIET_SPEED``),
one piece fast alone (by its kind, and whether the slide of a piece sliding alone,
:meth:`~kubb3d.physics.stepping.Stepper.slide_for`, checks it), or several fast; and by its
length. Steps before the first contact (the flight in engine steps) and the force window at
rest have no step hook. Step counts do not depend on the machine: the
output of a seed is the same wherever it runs.
"""

from __future__ import annotations

import argparse
import collections
import sys


def count_steps(ruleset: str, seeds: int) -> tuple[collections.Counter, int]:
    """({(phase, step in Hz): steps}, throws) of club-vs-club matches of seeds 1..``seeds``."""
    from kubb3d.match import Match, MatchConfig
    from kubb3d.physics import contact_forces, rest, stepping
    from kubb3d.physics.stepping import QUIET_SPEED

    counts: collections.Counter = collections.Counter()
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
        step(self, n, rolling=rolling)

    def counted_settle(self, *args, **kwargs):
        last["throws"] += 1
        last["motion"] = None
        return settle(self, *args, **kwargs)

    rest.Rest.motion = counted_motion  # type: ignore[method-assign]
    stepping.Stepper.step = counted_step  # type: ignore[method-assign]
    contact_forces.ForceWindow.settle_forces = counted_settle  # type: ignore[method-assign]
    try:
        for seed in range(1, seeds + 1):
            Match(MatchConfig(ruleset=ruleset, skills=("club", "club"), seed=seed)).run()
    finally:
        rest.Rest.motion, stepping.Stepper.step = motion, step  # type: ignore[method-assign]
        contact_forces.ForceWindow.settle_forces = settle  # type: ignore[method-assign]
    return counts, last["throws"]


def table(counts: collections.Counter, throws: int) -> str:
    """The markdown table of :func:`count_steps`' counts, largest first."""
    total = sum(counts.values())
    lines = [
        f"| what the world was doing | step | steps | share | per throw ({throws} throws) |",
        "|---|---|---|---|---|",
    ]
    for (phase, hz), n in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        lines.append(f"| {phase} | 1/{hz} s | {n:,} | {n / total:.1%} | {n / throws:.1f} |")
    lines.append(f"| all | | {total:,} | 100.0% | {total / throws:.1f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=1, help="match seeds 1..N (default 1)")
    ap.add_argument("--ruleset", default="dm", help="the ruleset (default dm)")
    a = ap.parse_args()
    if a.seeds < 1:
        print("step_phases.py: --seeds must be at least 1", file=sys.stderr)
        raise SystemExit(2)
    counts, throws = count_steps(a.ruleset, a.seeds)
    print(table(counts, throws))


if __name__ == "__main__":
    main()

"""Drops onto the flat ground and onto a flat heightfield from heights spread over one step's fall:
the rise after the first bounce, less the integrator's half step v·dt/2, as a share of e²·h, at
1/960, 1/1920 and 1/3840 s (docs/physics.md "Ground contact"). A baton is dropped lying flat, a
kubb on its end. Simulated figures: load changes only the wall time.

Usage::

    .venv/bin/python benchmarks/heightfield_drop.py [--ground grass] [--kinds baton,kubb]
        [--where flat,heightfield] [--drops 10]
"""

from __future__ import annotations

import argparse

from kubb3d.physics.ground import GROUNDS
from kubb3d.validate import drop_bounce, step_rise

STEPS = (960, 1920, 3840)
"""steps per second."""
SPACING = 0.0005
"""m: between drop heights from 1 m; ten of them span one step's fall at 1/960 s."""


def measure(
    ground: str = "grass",
    kinds: tuple[str, ...] = ("baton", "kubb"),
    wheres: tuple[str, ...] = ("flat", "heightfield"),
    drops: int = 10,
) -> dict[tuple[str, str, int], list[float]]:
    """(kind, where, steps per second) → each drop's rise less v·dt/2 as a share of e²·h, from
    ``drops`` heights 1 m + k·SPACING."""
    e = GROUNDS[ground].restitution
    out = {}
    for kind in kinds:
        for where in wheres:
            for per_second in STEPS:
                dt = 1 / per_second
                shares = []
                for k in range(drops):
                    height = 1.0 + k * SPACING
                    top, speed = drop_bounce(ground, kind, where == "heightfield", height, dt)
                    shares.append((top - step_rise(speed, dt)) / (e * e * height))
                out[(kind, where, per_second)] = shares
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ground", default="grass", choices=sorted(GROUNDS))
    ap.add_argument("--kinds", default="baton,kubb")
    ap.add_argument("--where", default="flat,heightfield")
    ap.add_argument("--drops", type=int, default=10)
    a = ap.parse_args()
    shares_of = measure(a.ground, tuple(a.kinds.split(",")), tuple(a.where.split(",")), a.drops)
    for (kind, where, per_second), shares in shares_of.items():
        stuck = sum(s < 0.5 for s in shares)
        print(
            f"{kind:5s} {where:11s} 1/{per_second} s: rise − v·dt/2 over e²·h "
            f"{min(shares):.3f}–{max(shares):.3f}, under half: {stuck} of {a.drops}",
            flush=True,
        )


if __name__ == "__main__":
    main()

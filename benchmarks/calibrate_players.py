"""Calibrate the skill presets of :mod:`kubb3d.players`: the fraction of 8 m baseline kubbs
felled per baton (DM pitch and ``dm-small`` set, grass).

Target (DESIGN.md "Reference numbers"): competitive players knock down about 42 % of
baseline kubbs at 8 m per baton; ``elite`` should fell 40–45 %, ``club`` 20–30 %.

Method: for every throw a fresh standard world; the player throws from A's baseline at one
of B's five baseline kubbs (cycling B1…B5), with release noise from its preset. A kubb
counts as felled when it is not upright at rest (``ThrowResult.toppled``, more than 10°
from vertical; a kubb leaning on the baton counts as fallen, ``DM §5``). Reported: kubbs
felled per baton, and the fraction of batons that felled at least one, with a 95 %
binomial interval.

Usage::

    .venv/bin/python benchmarks/calibrate_players.py [--throws 300] [--seed 1] [--skills elite,club,novice]
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from kubb3d.physics.world import World
from kubb3d.pitch import PITCHES, baseline_ids
from kubb3d.players import Player, get_skill
from kubb3d.throw import throw


def measure(skill_name: str, throws: int, seed: int) -> dict:
    """Throw ``throws`` batons with the preset; returns counts and rates."""
    pitch = PITCHES["dm"]
    player = Player(skill_name, get_skill(skill_name))
    rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(throws)]
    felled = hits = 0
    t0 = time.perf_counter()
    for i in range(throws):
        with World.standard("dm-small", pitch, "grass") as w:
            target = baseline_ids("B")[i % 5]
            pos, _ = w.pose(target)
            aim_pt = (float(pos[0]), float(pos[1]), float(pos[2]) + 0.1 * w.equipment.kubb.height)
            _, params = player.baton_throw(w.equipment, pitch, "A", pitch.baseline_x("A"), aim_pt, rngs[i], dt=w.dt)
            r = throw(w, params, baton="baton1", ruleset="dm")
            n = sum(1 for k in r.toppled if k.startswith("B"))
            felled += n
            hits += n > 0
    dt = time.perf_counter() - t0
    p = felled / throws
    q = hits / throws
    half = 1.96 * math.sqrt(max(q * (1 - q), 1e-9) / throws)
    return {"skill": skill_name, "throws": throws, "kubbs_felled": felled, "felled_per_baton": p, "batons_hitting": hits, "hit_rate": q, "hit_rate_ci95": (q - half, q + half), "seconds": dt}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throws", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skills", default="elite,club,novice")
    a = ap.parse_args()
    for s in a.skills.split(","):
        m = measure(s, a.throws, a.seed)
        lo, hi = m["hit_rate_ci95"]
        print(f"{s:7s} {m['throws']} batons: {m['felled_per_baton']:.3f} kubbs felled per baton ({m['kubbs_felled']}), "
              f"{m['hit_rate']:.3f} of batons felled one or more (95 % CI {lo:.3f}–{hi:.3f}); {m['seconds']:.1f} s")


if __name__ == "__main__":
    main()

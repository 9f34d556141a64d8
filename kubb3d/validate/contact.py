"""``tunnelling`` and ``terrain`` rows of ``kubb3d validate``: where pieces touch. Batons fired
broadside at a kubb up to the largest accepted release speed all touch it; kubbs resting on uneven
ground rest on the surface :meth:`~kubb3d.physics.world.World.ground_height` reports."""

from __future__ import annotations

import math
from typing import Iterable

import numpy as np

from kubb3d.physics.world import Terrain, World
from kubb3d.validate.rows import Row

MAX_RELEASE_SPEED = 40.0
"""m/s: the largest release speed ``kubb3d throw`` accepts (the tunnelling sweep goes that far)."""


def tunnelling_hits(speeds: Iterable[float], per_speed: int, seed: int = 7) -> tuple[int, int]:
    """(hits, throws): a baton whose centre flies straight at a kubb's broad side, random
    orientation in the flight plane, 3 rev/s end over end; a hit is a contact with the kubb."""
    rng = np.random.default_rng(seed)
    hits = n = 0
    with World("standard", ground="grass", stakes=False) as w:
        kubb = w.equipment.kubb
        w.add_piece("K", "kubb", (2.0, 0.0, kubb.height / 2))
        w.add_piece("b", "baton", (1.0, 0.0, 0.5), sleeping=False)
        for speed in speeds:
            for _ in range(per_speed):
                phase = rng.uniform(0, 2 * math.pi)
                q = (0.0, math.sin(phase / 2), 0.0, math.cos(phase / 2))
                start = 2.0 - 0.2 - speed * 0.02  # reaches the kubb after about 20 ms
                w.set_pose(
                    "b",
                    (start, rng.uniform(-0.02, 0.02), 0.17),
                    q,
                    linear_velocity=(speed, 0, 0),
                    angular_velocity=(0, 2 * math.pi * 3.0, 0),
                )
                w.set_pose("K", (2.0, 0.0, kubb.height / 2), (0, 0, 0, 1))
                w.use_step(w.dt)
                n += 1
                for _ in range(w.steps_for(0.06)):
                    w.step(1)
                    if any({c.a, c.b} == {"b", "K"} for c in w.contacts()):
                        hits += 1
                        break
    return hits, n


def check_tunnelling(quick: bool = False) -> list[Row]:
    speeds = [10.0, 20.0, 30.0, MAX_RELEASE_SPEED]
    hits, n = tunnelling_hits(speeds, 5 if quick else 25)
    return [
        Row(
            "tunnelling",
            f"batons fired broadside at a kubb at {', '.join(f'{s:g}' for s in speeds)} m/s that touch it",
            "all of them",
            "a rigid kubb cannot be passed through",
            float(n),
            float(hits),
            "throws",
            "0 missed",
            hits == n,
        )
    ]


def check_terrain() -> list[Row]:
    gaps = []
    with World.standard(terrain=Terrain(0.01, seed=3), sleeping=False) as w:
        w.run_until_rest(3.0)
        for pid in w.piece_ids("kubb"):
            gaps.append(min(c[2] - w.ground_height(c[0], c[1]) for c in w.box_corners(pid)))
    worst = max(abs(g) for g in gaps) * 1000
    return [
        Row(
            "terrain",
            "lowest corner of 10 kubbs resting on 1 cm terrain, above World.ground_height",
            "0 (on the surface)",
            "the heightfield's triangles (kubb3d/physics/world.py ground_height)",
            0.0,
            worst,
            "mm",
            "±1 mm",
            worst <= 1.0,
        )
    ]

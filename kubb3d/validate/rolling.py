"""``roll`` rows of ``kubb3d validate``: how far a baton rolls from 3 m/s on each ground (across
the ground's axes, on a flat heightfield) against (1 + I/(m r²)) v²/(2 c_rr g), and a baton laid
across a plane slope below and above its rolling resistance (docs/physics.md "A baton sliding on
the ground")."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kubb3d.physics.ground import GROUNDS
from kubb3d.physics.world import GRAVITY, Terrain, World
from kubb3d.validate.rows import Row, rel_row


def roll_distance(ground: str, v: float, heading: float = 0.0, terrain: bool = False, dt: float | None = None) -> float:
    """Distance, m, a lying baton rolls from ``v`` m/s (rolling without slipping) along the
    direction ``heading`` rad from x (its axis across it: along y at heading 0), on the flat ground
    or on a flat heightfield (``terrain``), stepped at ``dt`` s (default the world's)."""
    with World("standard", ground=ground, stakes=False, terrain=Terrain(0.0) if terrain else None, dt=dt) as w:
        r = w.equipment.baton.radius
        c, s = math.cos(heading / 2), math.sin(heading / 2)
        sy, cy = math.sin(math.pi / 4), math.cos(math.pi / 4)
        q = (c * sy, s * sy, s * cy, c * cy)  # axis along y, then turned by heading
        w.add_piece("p", "baton", (0.0, 0.0, w.ground_height(0.0, 0.0) + r), q, sleeping=False)
        w.step(w.steps_for(0.1))
        p0, q0 = w.pose("p")
        ch, sh = math.cos(heading), math.sin(heading)
        w.set_pose("p", p0, q0, linear_velocity=(v * ch, v * sh, 0.0), angular_velocity=(-v / r * sh, v / r * ch, 0.0))
        w.run_until_rest(20.0)
        dx, dy = (w.pose("p")[0] - p0)[:2]
        return float(dx * ch + dy * sh)


@dataclass
class Gradient(Terrain):
    """A plane ground rising along x by ``tan`` per metre, as a terrain heightfield (its bumps'
    ``amplitude`` is not used: pass 0; pass ``level_spots=False`` for the bare plane)."""

    tan: float = 0.0

    def heights(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Height z(x, y) = tan · x, m, for a grid (len(ys), len(xs))."""
        return self.tan * np.meshgrid(xs, ys)[0]


def gradient_roll(ground: str, tan: float, seconds: float = 2.0) -> float:
    """How far, m (along the slope), a baton laid across a plane slope of gradient ``tan`` with its
    axis level rolls down it in ``seconds`` s from rest."""
    with World("standard", ground=ground, stakes=False, terrain=Gradient(0.0, tan=tan, level_spots=False)) as w:
        r = w.equipment.baton.radius
        cos = 1 / math.sqrt(1 + tan * tan)
        h = math.sin(math.pi / 4)
        q = (-h * h, h * h, h * h, h * h)  # the axis (body z) turned down to x, then to y
        w.add_piece("p", "baton", (1.0, 0.0, w.ground_height(1.0, 0.0) + r / cos + 0.0005), q, sleeping=False)
        x0 = w.com_pose("p")[0][0]
        w.step(w.steps_for(seconds))
        return (x0 - w.com_pose("p")[0][0]) / cos


TERRAIN_ROLL_TOLERANCE = 0.015
"""A baton's roll on a flat heightfield may end this share short of or past the formula: measured
0.2–1.2 % short over headings 0–60° and two steps (the triangles' edges take a little, as they do
from a slide; docs/physics.md "A baton sliding on the ground"); with Bullet's rolling friction
throughout it stopped 28–30 % short at 30–45°."""
GRADIENTS = (0.2, 0.4)
"""Gradients of the slope rows on grass (c_rr = 0.25): one below, one above its rolling
resistance."""


def check_roll(quick: bool = False) -> list[Row]:
    rows = []
    cases = (
        [("turf", 0.0, False)] if quick else [("grass", 0.0, False), ("wet-grass", 0.0, False), ("turf", 0.0, False)]
    )
    if not quick:
        cases += [("grass", 45.0, False), ("grass", 0.0, True), ("grass", 45.0, True)]
    for g, heading, terrain in cases:
        crr = GROUNDS[g].rolling_resistance
        v = 3.0
        ref = 1.5 * v * v / (2 * crr * GRAVITY)
        across = f", rolling at {heading:g}° to the ground's axes" if heading else ""
        where = f"{g} (flat heightfield)" if terrain else g
        rows.append(
            rel_row(
                "roll",
                f"baton rolling from 3 m/s on {where}{across}",
                f"(1 + ½) v² / (2 c_rr g), c_rr = {crr:g}",
                f"ground {g!r} rolling resistance (kubb3d/physics/ground.py); docs/physics.md "
                "'A baton sliding on the ground'",
                ref,
                roll_distance(g, v, math.radians(heading), terrain=terrain),
                "m",
                TERRAIN_ROLL_TOLERANCE if terrain else 0.05,
                kind="plumbing",
            )
        )
    if quick:
        return rows
    crr = GROUNDS["grass"].rolling_resistance
    for tan in GRADIENTS:
        th = math.atan(tan)
        acc = max(0.0, GRAVITY * (math.sin(th) - crr * math.cos(th)) / 1.5)
        rows.append(
            rel_row(
                "roll",
                f"baton laid across a slope of gradient {tan:g} on grass, let go: rolled in 2 s",
                "0 below c_rr, else ½ a t², a = g (sin θ − c_rr cos θ) / (1 + ½)",
                "ground 'grass' rolling resistance (kubb3d/physics/ground.py); docs/physics.md "
                "'A baton sliding on the ground'",
                acc * 2.0**2 / 2,
                gradient_roll("grass", tan, 2.0),
                "m",
                0.02,
                1e-4,
                kind="plumbing",
            )
        )
    return rows

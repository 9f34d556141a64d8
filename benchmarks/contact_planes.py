"""Pieces on terrain against what the ground's shape says, at 1/960, 1/1920 and 1/3840 s (issue 29:
each piece slides on its own contact plane fitted to the terrain under it, docs/physics.md "An
upright kubb sliding", "Contact planes on terrain"). Simulated figures: load changes only the wall
time.

* ``--incline S``: a kubb lying flush on a heightfield that is one inclined plane of slope S
  (dz/dx), pushed at 2 m/s up and down it, its long axis at each heading from the slope's
  direction: the slide along the slope against v²/(2 g (μ cos α ± sin α)), and how far sideways.
* ``--crease``: an upright kubb pushed at 2 m/s across a fold of the ground (a flat heightfield
  that bends up or down by a slope at x = 0.2 m, along a grid line: two triangles with different
  normals meet there), at grass's μ 0.45 and at 0.3: its tilt from the ground after it (degrees)
  and how far it slid.
* ``--spots N``: N standard kubbs at random spots (|x| < 3, |y| < 2 m) and headings of 1 cm terrain
  (seed 4), pushed at 2 m/s along x, upright or lying (``--lying``): per step how many fell (their
  long axis turned more than 45°), in how many the outcome differs between two steps, and how far
  apart their final centres of mass are.

Usage::

    .venv/bin/python benchmarks/contact_planes.py --incline 0.07 [--headings 0,30,90]
    .venv/bin/python benchmarks/contact_planes.py --crease
    .venv/bin/python benchmarks/contact_planes.py --spots 30 [--friction 0.3] [--lying]
"""

from __future__ import annotations

import argparse
import dataclasses
import math

import numpy as np

from kubb3d.physics._pybullet import pb
from kubb3d.physics.ground import GRASS, Materials, use_materials
from kubb3d.physics.world import GRAVITY, Terrain, World
from kubb3d.snapshot import quat_to_matrix

STEPS = (960, 1920, 3840)
"""steps per second."""
SPEED = 2.0
"""m/s: the push."""
LYING = (0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4))
"""quat_xyzw: a kubb turned onto a side face, its long axis along x."""


@dataclasses.dataclass
class Incline(Terrain):
    """A heightfield that is one inclined plane rising ``slope`` (dz/dx) along x."""

    slope: float = 0.07

    def heights(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        x, _ = np.meshgrid(xs, ys)
        out: np.ndarray = self.slope * x
        return out


@dataclasses.dataclass
class Fold(Terrain):
    """A flat heightfield that bends by ``fold`` (dz/dx) at x = ``at`` m (a grid line)."""

    fold: float = 0.0
    at: float = 0.2

    def heights(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        x, _ = np.meshgrid(xs, ys)
        out: np.ndarray = self.fold * np.maximum(x - self.at, 0.0)
        return out


def _turn(a: tuple, b: tuple) -> tuple[float, float, float, float]:
    """quat_xyzw a·b."""
    x, y, z, w = pb.multiplyTransforms((0, 0, 0), a, (0, 0, 0), b)[1]
    return (x, y, z, w)


def incline_law(slope: float, uphill: bool, friction: float = GRASS.friction) -> float:
    """m: v²/(2 g (μ cos α ± sin α)), the slide of a block pushed at :data:`SPEED` up or down."""
    alpha = math.atan(slope)
    return SPEED**2 / (2 * GRAVITY * (friction * math.cos(alpha) + (1 if uphill else -1) * math.sin(alpha)))


def incline_slide(slope: float, dt: float, uphill: bool, heading: float) -> tuple[float, float]:
    """(m along the slope, m across it) that a standard kubb lying flush on an incline of ``slope``
    on grass slides after a push of :data:`SPEED` up (``uphill``) or down it, its long axis
    ``heading`` rad from the slope's direction (it settles 0.3 s on the slope first)."""
    alpha = math.atan(slope)
    terrain = Incline(0.0, level_spots=False, slope=slope)
    with World("standard", ground="grass", stakes=False, dt=dt, terrain=terrain) as w:
        yaw = (0.0, 0.0, math.sin(heading / 2), math.cos(heading / 2))
        tilt = (0.0, math.sin(-alpha / 2), 0.0, math.cos(-alpha / 2))
        normal = np.array((-math.sin(alpha), 0.0, math.cos(alpha)))
        centre = normal * (w.equipment.kubb.width / 2 + 1e-5)
        w.add_piece("k", "kubb", tuple(float(c) for c in centre), _turn(tilt, _turn(yaw, LYING)), sleeping=False)
        w.step(w.steps_for(0.3))
        start = np.array(w.com_pose("k")[0])
        sign = 1.0 if uphill else -1.0
        v = (sign * SPEED * math.cos(alpha), 0.0, sign * SPEED * math.sin(alpha))
        pb.resetBaseVelocity(w.engine.body_of("k"), v, (0.0, 0.0, 0.0), physicsClientId=w.engine.client)
        w.step(w.steps_for(2.0))
        d = np.array(w.com_pose("k")[0]) - start
        return float(d[0] * math.cos(alpha) + d[2] * math.sin(alpha)) * sign, float(d[1])


def crease_push(fold: float, dt: float, friction: float, heading: float) -> tuple[float, float]:
    """(tilt from the ground after the fold, degrees; slide m) of an upright standard kubb pushed
    at :data:`SPEED` along x from x = 0 across a fold of ``fold`` at x = 0.2 m, a face's normal
    ``heading`` rad from x, on grass of this friction, after 2 s."""
    with use_materials(Materials(grounds=(dataclasses.replace(GRASS, friction=friction),))):
        terrain = Fold(0.0, level_spots=False, fold=fold)
        with World("standard", ground="grass", stakes=False, dt=dt, terrain=terrain) as w:
            q = (0.0, 0.0, math.sin(heading / 2), math.cos(heading / 2))
            w.add_piece("k", "kubb", (0.0, 0.0, w.height_on_ground("kubb", 0.0, 0.0, q)), q, sleeping=False)
            start = np.array(w.com_pose("k")[0])
            pb.resetBaseVelocity(w.engine.body_of("k"), (SPEED, 0, 0), (0, 0, 0), physicsClientId=w.engine.client)
            w.step(w.steps_for(2.0))
            com, quat = w.com_pose("k")
            axis = quat_to_matrix(quat)[:, 2]
            normal = np.array((-fold, 0.0, 1.0)) / math.hypot(fold, 1.0)  # the ground beyond the fold
            tilt = math.degrees(math.acos(min(1.0, float(axis @ normal))))
            return tilt, float(math.hypot(*(np.array(com) - start)[:2]))


def spot_pushes(n: int, friction: float, lying: bool, seed: int = 1) -> dict[int, list[tuple[bool, np.ndarray]]]:
    """steps per second → per spot (fell, final centre of mass) of :func:`main`'s ``--spots``."""
    rng = np.random.default_rng(seed)
    spots = rng.uniform((-3.0, -2.0), (3.0, 2.0), (n, 2))
    headings = rng.uniform(0.0, math.pi / 2, n)
    out: dict[int, list[tuple[bool, np.ndarray]]] = {}
    with use_materials(Materials(grounds=(dataclasses.replace(GRASS, friction=friction),))):
        for s in STEPS:
            rows = []
            for (x, y), heading in zip(spots, headings):
                with World("standard", ground="grass", stakes=False, dt=1 / s, terrain=Terrain(0.01, seed=4)) as w:
                    q = (0.0, 0.0, math.sin(heading / 2), math.cos(heading / 2))
                    if lying:
                        q = _turn(q, LYING)
                    x, y = float(x), float(y)
                    w.add_piece("k", "kubb", (x, y, w.height_on_ground("kubb", x, y, q)), q, sleeping=False)
                    axis0 = quat_to_matrix(w.com_pose("k")[1])[:, 2]
                    body = w.engine.body_of("k")
                    pb.resetBaseVelocity(body, (SPEED, 0, 0), (0, 0, 0), physicsClientId=w.engine.client)
                    w.step(w.steps_for(3.0))
                    com, quat = w.com_pose("k")
                    turned = float(quat_to_matrix(quat)[:, 2] @ axis0) < math.cos(math.radians(45))
                    rows.append((turned, np.array(com)))
            out[s] = rows
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--incline", type=float, default=0.0, help="slope dz/dx of an inclined heightfield")
    ap.add_argument("--headings", default="0,30,90")
    ap.add_argument("--crease", action="store_true")
    ap.add_argument("--spots", type=int, default=0)
    ap.add_argument("--friction", type=float, default=GRASS.friction)
    ap.add_argument("--lying", action="store_true")
    a = ap.parse_args()
    if a.incline:
        for uphill in (True, False):
            law = incline_law(a.incline, uphill)
            for heading in (float(h) for h in a.headings.split(",")):
                cells = []
                for s in STEPS:
                    along, across = incline_slide(a.incline, 1 / s, uphill, math.radians(heading))
                    cells.append(f"1/{s} s {100 * (along / law - 1):+.1f} % ({across * 1e3:+.1f} mm)")
                print(f"{'up' if uphill else 'down'} {heading:g}°, law {law:.3f} m: " + ", ".join(cells), flush=True)
    if a.crease:
        for fold in (0.02, -0.02, 0.05):
            for friction in (0.3, GRASS.friction):
                cells = []
                for heading in (0.0, 15.0):
                    for s in STEPS:
                        tilt, slide = crease_push(fold, 1 / s, friction, math.radians(heading))
                        cells.append(f"{heading:g}° 1/{s} s {tilt:.2f}° {slide:.3f} m")
                print(f"fold {fold:+g}, μ {friction:g}: " + "; ".join(cells), flush=True)
    if a.spots:
        rows = spot_pushes(a.spots, a.friction, a.lying)
        cells = [f"fell 1/{s} s {sum(f for f, _ in rows[s])}" for s in STEPS]
        for one, two in zip(STEPS, STEPS[1:]):
            differ = sum(f1 != f2 for (f1, _), (f2, _) in zip(rows[one], rows[two]))
            apart = [float(np.linalg.norm(c1 - c2)) for (_, c1), (_, c2) in zip(rows[one], rows[two])]
            cells.append(
                f"1/{one} against 1/{two} s: outcome differs {differ}, apart median "
                f"{np.median(apart) * 1e3:.1f} mm, max {max(apart) * 1e3:.1f} mm"
            )
        what = "lying" if a.lying else "upright"
        print(f"{a.spots} {what} kubbs, μ {a.friction:g}, 1 cm terrain: " + "; ".join(cells), flush=True)


if __name__ == "__main__":
    main()

"""An upright kubb pushed along the ground at 2 m/s: does it slide upright or fall over, at 1/960,
1/1920 and 1/3840 s, on the flat ground and on a flat heightfield, by heading (the angle between
the push and a face's normal) and by the ground's friction (issue 29). Statics: a block sliding on
a face with kinetic friction μ tips over only if μ > w/h (0.467 for the standard kubb).

Each line gives, per heading, one letter per step: ``.`` upright after 3 s, ``F`` fallen (tilted
more than 45°). Simulated figures: load changes only the wall time.

Usage::

    .venv/bin/python benchmarks/upright_slide.py [--frictions 0.3,0.4,0.45] [--headings 0,15,30,45,60,75]
    .venv/bin/python benchmarks/upright_slide.py --limit   # the μ from which it tips at heading 0

With ``--limit``, per step the friction from which the kubb falls at heading 0 on the flat ground,
bisected to 0.0025 between 0.40 and 0.50, against the statics limits w/h of the block and
(w − 2r)/h of its corner spheres' contacts.
"""

from __future__ import annotations

import argparse
import dataclasses
import math

from kubb3d.physics._pybullet import pb
from kubb3d.physics.ground import GRASS, Materials, use_materials
from kubb3d.physics.world import Terrain, World
from kubb3d.snapshot import quat_to_matrix

STEPS = (960, 1920, 3840)
"""steps per second."""
SPEED = 2.0
"""m/s: the push."""


def falls(dt: float, heading: float, terrain: bool, seconds: float = 3.0) -> bool:
    """True if a standard kubb standing on grass, pushed at :data:`SPEED` along x with a face's
    normal ``heading`` rad from x, is tilted more than 45° after ``seconds`` s at steps of ``dt`` s."""
    with World("standard", ground="grass", stakes=False, dt=dt, terrain=Terrain(0.0) if terrain else None) as w:
        q = (0.0, 0.0, math.sin(heading / 2), math.cos(heading / 2))
        w.add_piece("k", "kubb", (0.0, 0.0, w.height_on_ground("kubb", 0.0, 0.0, q)), q, sleeping=False)
        pb.resetBaseVelocity(w.engine.body_of("k"), (SPEED, 0.0, 0.0), (0.0, 0.0, 0.0), physicsClientId=w.engine.client)
        w.step(w.steps_for(seconds))
        return bool(quat_to_matrix(w.com_pose("k")[1])[2, 2] < math.cos(math.radians(45)))


def tipping_friction(dt: float, low: float = 0.40, high: float = 0.50, step: float = 0.0025) -> tuple[float, float]:
    """(upright at, falls at): the bracket of the grass friction from which the kubb pushed at
    heading 0 falls on the flat ground, at steps of ``dt`` s (``low`` must keep it upright, ``high``
    fell it), bisected until narrower than ``step``."""
    while high - low > step:
        mid = (low + high) / 2
        with use_materials(Materials(grounds=(dataclasses.replace(GRASS, friction=mid),))):
            if falls(dt, 0.0, False):
                high = mid
            else:
                low = mid
    return low, high


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frictions", default="0.3,0.4,0.45")
    ap.add_argument("--headings", default="0,15,30,45,60,75")
    ap.add_argument("--limit", action="store_true", help="bisect the friction from which it falls at heading 0")
    a = ap.parse_args()
    if a.limit:
        from kubb3d.assets import CORNER_SPHERE_RADIUS
        from kubb3d.equipment import EQUIPMENT_SETS

        kubb = EQUIPMENT_SETS["standard"].kubb
        w, h, r = kubb.width, kubb.height, CORNER_SPHERE_RADIUS
        spheres = (w - 2 * r) / h
        print(f"statics: block w/h = {w / h:.4f}, corner spheres (w - 2r)/h = {spheres:.4f} (r = {r * 1e3:g} mm)")
        for s in STEPS:
            low, high = tipping_friction(1 / s)
            print(f"1/{s} s: upright at μ = {low:.4f}, falls at {high:.4f}", flush=True)
        return
    headings = [float(h) for h in a.headings.split(",")]
    for friction in (float(f) for f in a.frictions.split(",")):
        with use_materials(Materials(grounds=(dataclasses.replace(GRASS, friction=friction),))):
            for terrain in (False, True):
                cells, fallen = [], 0
                for heading in headings:
                    marks = "".join("F" if falls(1 / s, math.radians(heading), terrain) else "." for s in STEPS)
                    fallen += marks.count("F")
                    cells.append(f"{heading:g}°:{marks}")
                where = "flat heightfield" if terrain else "flat ground"
                print(
                    f"μ = {friction:g}, {where:16s} " + " ".join(cells) + f"  fell {fallen} of {3 * len(headings)}",
                    flush=True,
                )


if __name__ == "__main__":
    main()

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

With ``--isolate``, the same table for each kubb model on each ground: the field kubb (0.1 mm
corner spheres, the flat ground's) and the terrain kubb (10 mm spheres, a heightfield's), so that
what the model does and what the heightfield does show apart. With ``--reach``, per ground and
model, how far ahead of the centre the kubb pushed at heading 0 is held up while it slides: the
farthest ground contact carrying force along the push in its first 0.1 s at 1/1920 s, and the
friction 2·reach/h that statics lets it slide upright with. With ``--scan``, per ground and step,
the frictions 0.20, 0.21 … 0.47 at which the kubb pushed at heading 0 falls (on a heightfield
they need not be a range). With ``--spots N``, per friction and step, how many of N kubbs stood at
random spots within 0.5 m of the origin and pushed at random headings 0–5° (seed 1) fall on the
flat heightfield: a heightfield is not the same everywhere under a kubb, the flat ground is.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import math
from collections.abc import Iterator
from pathlib import Path

import kubb3d.physics.engine as engine_module

from kubb3d.physics._pybullet import pb
from kubb3d.physics.ground import GRASS, Materials, use_materials
from kubb3d.physics.world import Terrain, World
from kubb3d.snapshot import quat_to_matrix

STEPS = (960, 1920, 3840)
"""steps per second."""
SPEED = 2.0
"""m/s: the push."""


MODELS = {"field": "kubb", "terrain": "kubb-terrain"}
"""The kubb models by the ground they are made for: the model files' kind names."""


@contextlib.contextmanager
def kubb_model(model: str | None) -> Iterator[None]:
    """Within it, worlds load the field kubb from the model ``MODELS[model]`` whatever their
    ground (None: the world's own choice, the terrain model on a heightfield)."""
    if model is None:
        yield
        return
    real = engine_module.model_path

    def chosen(set_name: str, kind: str) -> Path:
        return real(set_name, MODELS[model] if kind in MODELS.values() else kind)

    engine_module.model_path = chosen  # type: ignore[assignment]
    try:
        yield
    finally:
        engine_module.model_path = real  # type: ignore[assignment]


def pushed(w: World, heading: float, x: float = 0.0, y: float = 0.0) -> int:
    """Stand a standard kubb at (``x``, ``y``) (the origin) of world ``w``, a face's normal
    ``heading`` rad from x, push it at :data:`SPEED` along x and return its body."""
    q = (0.0, 0.0, math.sin(heading / 2), math.cos(heading / 2))
    w.add_piece("k", "kubb", (x, y, w.height_on_ground("kubb", x, y, q)), q, sleeping=False)
    body = w.engine.body_of("k")
    pb.resetBaseVelocity(body, (SPEED, 0.0, 0.0), (0.0, 0.0, 0.0), physicsClientId=w.engine.client)
    return body


def falls(
    dt: float,
    heading: float,
    terrain: bool,
    seconds: float = 3.0,
    model: str | None = None,
    spot: tuple[float, float] = (0.0, 0.0),
) -> bool:
    """True if a standard kubb standing on grass at ``spot`` (x, y), pushed at :data:`SPEED` along
    x with a face's normal ``heading`` rad from x, is tilted more than 45° after ``seconds`` s at
    steps of ``dt`` s, on a flat heightfield (``terrain``) or the flat ground, with the kubb model
    of :func:`kubb_model`."""
    with (
        kubb_model(model),
        World("standard", ground="grass", stakes=False, dt=dt, terrain=Terrain(0.0) if terrain else None) as w,
    ):
        pushed(w, heading, *spot)
        w.step(w.steps_for(seconds))
        return bool(quat_to_matrix(w.com_pose("k")[1])[2, 2] < math.cos(math.radians(45)))


def fallen(terrain: bool, headings: list[float], model: str | None = None) -> tuple[str, int]:
    """(one ``heading°:marks`` cell per heading, how many of them fell) over :data:`STEPS`."""
    cells, count = [], 0
    for heading in headings:
        marks = "".join("F" if falls(1 / s, math.radians(heading), terrain, model=model) else "." for s in STEPS)
        count += marks.count("F")
        cells.append(f"{heading:g}°:{marks}")
    return " ".join(cells), count


def support_reach(terrain: bool, model: str | None = None, dt: float = 1 / 1920, seconds: float = 0.1) -> float:
    """m: the farthest, along the push, that a ground contact carrying force reaches ahead of the
    centre of a kubb pushed at heading 0 (body frame), over its first ``seconds`` s of sliding."""
    reach = 0.0
    with (
        kubb_model(model),
        World("standard", ground="grass", stakes=False, dt=dt, terrain=Terrain(0.0) if terrain else None) as w,
    ):
        body, client = pushed(w, 0.0), w.engine.client
        ground = w.engine.pieces["k"].ground  # the flat ground, or on a heightfield the kubb's contact plane
        for _ in range(w.steps_for(seconds)):
            # a step's contacts are found where the bodies were before it moved them
            centre, quat = w.com_pose("k")
            axes = quat_to_matrix(quat)
            w.step(1)
            for contact in pb.getContactPoints(body, ground, physicsClientId=client):
                if contact[9] > 0.0:
                    offset = [contact[5][i] - centre[i] for i in range(3)]
                    reach = max(reach, sum(offset[i] * axes[i, 0] for i in range(3)))
    return reach


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


SCAN = tuple(k / 100 for k in range(20, 48))
"""The frictions of ``--scan``."""


def scan(terrain: bool, dt: float) -> list[float]:
    """The frictions of :data:`SCAN` at which the kubb pushed at heading 0 falls at steps of ``dt`` s,
    on a flat heightfield (``terrain``) or the flat ground."""
    fell = []
    for friction in SCAN:
        with use_materials(Materials(grounds=(dataclasses.replace(GRASS, friction=friction),))):
            if falls(dt, 0.0, terrain):
                fell.append(friction)
    return fell


SPOTS_SEED = 1
"""The seed of ``--spots``."""


def spots_fallen(count: int, dt: float) -> int:
    """How many of ``count`` kubbs at random spots within 0.5 m of the origin, pushed at random
    headings 0–5° (:data:`SPOTS_SEED`), fall on the flat heightfield at steps of ``dt`` s, at the
    grass friction in use."""
    import numpy as np

    rng = np.random.default_rng(SPOTS_SEED)
    spots, headings = rng.uniform(-0.5, 0.5, (count, 2)), rng.uniform(0.0, 5.0, count)
    return sum(
        falls(dt, math.radians(heading), True, 2.0, spot=(float(x), float(y)))
        for (x, y), heading in zip(spots, headings)
    )


def print_reach(frictions: list[float]) -> None:
    """Print :func:`support_reach` per friction, ground and kubb model, with the statics limit
    2·reach/h it gives."""
    from kubb3d.equipment import EQUIPMENT_SETS

    kubb = EQUIPMENT_SETS["standard"].kubb
    print(f"statics: block w/h = {kubb.width / kubb.height:.4f}")
    for friction in frictions:
        with use_materials(Materials(grounds=(dataclasses.replace(GRASS, friction=friction),))):
            for terrain in (False, True):
                for model in MODELS:
                    reach = support_reach(terrain, model)
                    where = "flat heightfield" if terrain else "flat ground"
                    print(
                        f"μ = {friction:g}, {where:16s} {model:7s} kubb: held {reach * 1e3:.2f} mm ahead, "
                        f"slides upright below μ = {2 * reach / kubb.height:.3f}",
                        flush=True,
                    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frictions", default="0.3,0.4,0.45")
    ap.add_argument("--headings", default="0,15,30,45,60,75")
    ap.add_argument("--limit", action="store_true", help="bisect the friction from which it falls at heading 0")
    ap.add_argument("--isolate", action="store_true", help="each kubb model (field, terrain) on each ground")
    ap.add_argument("--reach", action="store_true", help="how far ahead of its centre a sliding kubb is held up")
    ap.add_argument("--scan", action="store_true", help="the frictions 0.20-0.47 at which it falls at heading 0")
    ap.add_argument("--spots", type=int, default=0, help="kubbs at random spots and headings 0-5 degrees")
    a = ap.parse_args()
    if a.spots:
        for friction in (float(f) for f in a.frictions.split(",")):
            with use_materials(Materials(grounds=(dataclasses.replace(GRASS, friction=friction),))):
                cells = [f"1/{s} s: {spots_fallen(a.spots, 1 / s)}" for s in STEPS]
            print(f"μ = {friction:g}, flat heightfield, fell of {a.spots}: " + ", ".join(cells), flush=True)
        return
    if a.scan:
        for terrain in (False, True):
            for s in STEPS:
                where = "flat heightfield" if terrain else "flat ground"
                fell = ", ".join(f"{friction:.2f}" for friction in scan(terrain, 1 / s))
                print(f"{where:16s} 1/{s} s: falls at μ = {fell}", flush=True)
        return
    if a.reach:
        print_reach([float(f) for f in a.frictions.split(",")])
        return
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
    models: tuple[str | None, ...] = tuple(MODELS) if a.isolate else (None,)
    for friction in (float(f) for f in a.frictions.split(",")):
        with use_materials(Materials(grounds=(dataclasses.replace(GRASS, friction=friction),))):
            for terrain in (False, True):
                for model in models:
                    cells, count = fallen(terrain, headings, model)
                    where = "flat heightfield" if terrain else "flat ground"
                    which = f"{model:7s} kubb " if model else ""
                    print(
                        f"μ = {friction:g}, {where:16s} {which}{cells}  fell {count} of {len(STEPS) * len(headings)}",
                        flush=True,
                    )


if __name__ == "__main__":
    main()

"""Where should the grass's plowing act? (issue 29 item 5)

kubb3d applies the plowing −k·N·v of a thrown piece at its centre of mass (``centre``), so it has
no torque. This compares, on the same seeded player throws at 8 m (dm-small, grass), three ways
of applying it where the ground touches:

``contacts``     at the mean of the piece's ground contact points weighted by their normal
                 forces, with the centre of mass's velocity
``below``        at that mean's height straight below the centre of mass (no torque about the
                 vertical), with the centre of mass's velocity
``dissipative``  there, with the velocity of that point (v + ω × r: a rolling baton's bottom is at
                 rest and gets none) and the point's least effective mass in the step's exact
                 solution (1/m' = 1/m + r²/I_min), so that it never adds energy

For each: kubbs felled per baton (paired change against ``centre`` with its 95 % interval), the
slide after landing (median and quartiles, throws that landed on the ground first), throws at
rest, mean time to rest, physics steps per throw (or the glitch if a piece sped up out of the
world); and the speed from which an upright kubb
sliding on grass with μ = 0.1 starts to tip forward, against statics (w/h − μ)/k. Prints one
JSON document with the CPU time and the 1-minute load::

    nice -n 10 .venv/bin/python benchmarks/plowing_point.py --throws 300 --skill elite
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import time

import numpy as np

import kubb3d.physics.forces as forces_module
from kubb3d.calibrate import run_throws
from kubb3d.equipment import get_set
from kubb3d.physics._pybullet import pb
from kubb3d.physics.ground import get_ground
from kubb3d.physics.world import PhysicsGlitch, World

VARIANTS = ("centre", "contacts", "below", "dissipative")
TIP_FRICTION = 0.1
"""The friction of the tipping test's ground: below a kubb's w/h, so that friction alone cannot tip it."""


def watch_class(variant: str) -> type:
    """A thrown piece's watch (as :class:`kubb3d.physics.forces.ContactWatch`: touched pieces,
    first contact, air drag, the batons' ground reads) with the plowing applied as ``variant``."""
    real = forces_module.ContactWatch
    if variant == "centre":
        return real

    class Watch(real):  # type: ignore[misc, valid-type]
        def __init__(self, engine, piece, drag_until):
            self.touched, self.first = set(), None
            plow = engine.ground.plowing
            self.drag = piece.drag if engine.air_drag else None
            self.active = True
            client, body, ground = engine.client, piece.body, engine.ground_body
            least = min(pb.getDynamicsInfo(body, -1, physicsClientId=client)[2])

            def hook() -> None:
                points = pb.getContactPoints(bodyA=body, physicsClientId=client)
                normal = px = py = pz = nx = ny = nz = 0.0
                for point in points:
                    if point[2] == ground and point[8] <= engine.solved_gap:
                        f, d, on = point[9], point[7], point[5]
                        normal += f
                        nx, ny, nz = nx + f * d[0], ny + f * d[1], nz + f * d[2]
                        px, py, pz = px + f * on[0], py + f * on[1], pz + f * on[2]
                    if point[2] not in engine.ground_bodies:
                        other = engine.by_body.get(point[2], "?")
                        if self.first is None:
                            self.first = (other, engine.time, point[5])
                        self.touched.add(other)
                weight = normal
                if engine.taken_dt != engine.step_dt:
                    k = engine.force_scale()
                    normal, nx, ny, nz = normal * k, nx * k, ny * k, nz * k
                if piece.roll is not None:
                    piece.ground_read = (engine.tick, normal, nx, ny, nz)
                v, spin = pb.getBaseVelocity(body, physicsClientId=client)
                com, quat = pb.getBasePositionAndOrientation(body, physicsClientId=client)
                if self.drag is not None:
                    if v[0] ** 2 + v[1] ** 2 + v[2] ** 2 < drag_until**2:
                        self.drag = None
                    else:
                        x, y, z, w = quat
                        axis = (2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))
                        pb.applyExternalForce(
                            body, -1, self.drag.force(v, axis), com, pb.WORLD_FRAME, physicsClientId=client
                        )
                if plow <= 0 or normal <= 0.0:
                    return
                h = engine.step_dt
                centre = (px / weight, py / weight, pz / weight)
                if variant == "contacts":
                    at, ux, uy, inv = centre, v[0], v[1], 1.0 / piece.mass
                else:
                    dz = centre[2] - com[2]
                    at = (com[0], com[1], centre[2])
                    ux, uy, inv = v[0], v[1], 1.0 / piece.mass
                    if variant == "dissipative":
                        ux, uy = v[0] + spin[1] * dz, v[1] - spin[0] * dz
                        inv += dz * dz / least
                scale = -math.expm1(-plow * normal * h * inv) / (h * inv)
                pb.applyExternalForce(
                    body, -1, (-scale * ux, -scale * uy, 0.0), at, pb.WORLD_FRAME, physicsClientId=client
                )

            self.hook = hook

    return Watch


def tips(v: float, dt: float | None = None) -> bool:
    """Whether an upright standard kubb pushed at ``v`` m/s on grass with μ = :data:`TIP_FRICTION`
    turns forward faster than 0.01 rad/s within 10 ms (the plowing through the thrown piece's watch)."""
    ground = dataclasses.replace(get_ground("grass"), friction=TIP_FRICTION)
    with World("standard", ground=ground, stakes=False, air_drag=False, dt=dt) as w:
        w.add_piece("p", "kubb", (0.0, 0.0, w.equipment.kubb.height / 2 + 1e-4), (0.0, 0.0, 0.0, 1.0), sleeping=False)
        w.step(w.steps_for(0.2))
        p0, q0 = w.pose("p")
        w.set_pose("p", p0, q0, linear_velocity=(v, 0.0, 0.0))
        watch = w.forces.contact_watch("p", drag_until=math.inf)
        w.stepper.add_step_hook(watch.hook)
        for _ in range(w.steps_for(0.01)):
            w.step(1)
            if w.velocity("p")[1][1] > 0.01:
                return True
        return False


def tip_speed(reference: float, iterations: int = 7) -> float:
    """The speed, m/s, from which :func:`tips`, by bisection between half and twice ``reference``
    (twice it if the kubb never tips)."""
    lo, hi = reference / 2, reference * 2
    if not tips(hi):
        return hi
    for _ in range(iterations):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if tips(mid) else (mid, hi)
    return (lo + hi) / 2


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throws", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--skill", default="elite")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    a = ap.parse_args()
    cpu0 = time.process_time()
    kubb = get_set("standard").kubb
    reference = (kubb.width / kubb.height - TIP_FRICTION) / get_ground("grass").plowing
    real = forces_module.ContactWatch
    out: dict = {"throws": a.throws, "seed": a.seed, "skill": a.skill, "tip_reference_m_s": reference, "variants": {}}
    base = None
    try:
        for variant in a.variants.split(","):
            forces_module.ContactWatch = watch_class(variant)
            try:
                rows = run_throws(a.throws, a.seed, skill=a.skill, workers=1)
            except PhysicsGlitch as glitch:  # a piece sped up out of the world
                out["variants"][variant] = {"glitch": str(glitch)}
                continue
            felled = np.array([r["felled"] for r in rows], dtype=float)
            slides = [r["slide"] for r in rows if r["slide"] is not None]
            entry = {
                "felled_per_baton": float(felled.mean()),
                "slide_median_m": float(np.median(slides)),
                "slide_quartiles_m": [float(np.percentile(slides, 25)), float(np.percentile(slides, 75))],
                "at_rest": sum(bool(r["at_rest"]) for r in rows),
                "rest_time_mean_s": float(np.mean([r["rest_time"] for r in rows])),
                "steps_per_throw": float(np.mean([r["steps"] for r in rows])),
                "tip_speed_m_s": tip_speed(reference),
            }
            if base is None:
                base = felled
            else:
                d = felled - base
                entry["felled_change"] = float(d.mean())
                entry["felled_change_95"] = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d))
            out["variants"][variant] = entry
    finally:
        forces_module.ContactWatch = real
    out["cpu_s"] = round(time.process_time() - cpu0, 1)
    out["load_1min"] = os.getloadavg()[0]
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

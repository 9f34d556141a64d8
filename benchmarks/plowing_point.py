"""Where should the grass's plowing act? (issue 29 item 5)

The plowing −k·N·v of a thrown piece acted at its centre of mass (``centre``, the model before),
so it had no torque. This compares, on the same seeded player throws at 8 m (dm-small, grass by
default), ways of applying it where the ground touches:

``contacts``     at the mean of the piece's ground contact points weighted by their normal
                 forces, with the centre of mass's velocity
``below``        at that mean's height straight below the centre of mass (no torque about the
                 vertical), with the centre of mass's velocity
``dissipative``  there, with the velocity of that point (v + ω × r: a rolling baton's bottom is at
                 rest and gets none) and the point's least effective mass in the step's exact
                 solution (1/m' = 1/m + r²/I_min), so that it never adds energy
``point``        the same with the point's exact 2×2 effective mass (:func:`plowing_impulse`)
``split``        kubb3d's (:meth:`kubb3d.physics.forces.Forces.apply_plowing`): ``centre`` and then
                 ``point``, each with k

For each (and each ``--plowing`` k): kubbs felled per baton (paired change against the first run
with its 95 % interval), the slide after landing (median and quartiles, throws that landed on the
ground first), throws at rest, mean time to rest, physics steps per throw (or the glitch if a
piece sped up out of the world); and the speed from which an upright kubb sliding on grass with
μ = 0.1 starts to tip forward, against statics (w/h − μ)/k. Prints one JSON document with the CPU
time and the 1-minute load (and a line per run on stderr)::

    nice -n 10 .venv/bin/python benchmarks/plowing_point.py --throws 300 --skill elite
    nice -n 10 .venv/bin/python benchmarks/plowing_point.py --throws 300 --variants centre,point,split \
        --plowing 0.2,0.6,2 --no-tip
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import time
from typing import Sequence

import numpy as np

import kubb3d.physics.forces as forces_module
from kubb3d.calibrate import run_throws
from kubb3d.experiment.stats import t95
from kubb3d.equipment import get_set
from kubb3d.physics._pybullet import pb
from kubb3d.physics.ground import Materials, get_ground, use_materials
from kubb3d.physics.world import PhysicsGlitch, World

SHIPPED_WATCH = forces_module.ContactWatch
VARIANTS = ("centre", "contacts", "below", "dissipative", "point", "split")
TIP_FRICTION = 0.1
"""The friction of the tipping test's ground: below a kubb's w/h, so that friction alone cannot tip it."""


def plowing_impulse(
    plowed: float,
    mass: float,
    inertia: Sequence[float],
    quat: Sequence[float],
    drop: float,
    velocity: Sequence[float],
    spin: Sequence[float],
) -> tuple[float, float]:
    """The horizontal impulse, N·s (x, y), of the ``point`` variant's plowing over one step on a
    rigid body, applied ``drop`` m straight above (below if < 0) its centre of mass: the exact
    solution of du/dt = −k N K u over the step for that point's horizontal velocity
    u = v + ω × (0, 0, drop), K its 2×2 horizontal inverse effective mass (1/m + drop² times rows
    of the world inverse inertia, 1/kg), held over the step. The impulse −K⁻¹ (1 − exp(−k N h K)) u
    brings u towards 0, never past it, and never raises the body's kinetic energy; with
    drop = 0 it is the centre of mass's −m (1 − exp(−k N h / m)) v_h.

    Args:
        plowed: k · N · h, kg (plowing s/m times the normal force N times the step s).
        mass: kg, > 0.
        inertia: principal moments of inertia about the body axes, kg·m², all > 0.
        quat: orientation (x, y, z, w), the frame of ``inertia``.
        drop: m, the height of the point above the centre of mass.
        velocity: linear velocity, m/s (3 floats).
        spin: angular velocity, rad/s, world frame (3 floats).
    """
    ux = velocity[0] + spin[1] * drop
    uy = velocity[1] - spin[0] * drop
    if ux == 0.0 and uy == 0.0:
        return 0.0, 0.0
    qx, qy, qz, qw = quat
    # the first two rows of the rotation matrix (the body axes as columns)
    r00, r01, r02 = 1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw), 2 * (qx * qz + qy * qw)
    r10, r11, r12 = 2 * (qx * qy + qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qx * qw)
    i0, i1, i2 = 1.0 / inertia[0], 1.0 / inertia[1], 1.0 / inertia[2]
    a00 = r00 * r00 * i0 + r01 * r01 * i1 + r02 * r02 * i2
    a11 = r10 * r10 * i0 + r11 * r11 * i1 + r12 * r12 * i2
    a01 = r00 * r10 * i0 + r01 * r11 * i1 + r02 * r12 * i2
    d2, inv = drop * drop, 1.0 / mass
    # K = [[kxx, kxy], [kxy, kyy]]: a unit impulse along x at the point changes u by K's first column
    kxx, kyy, kxy = inv + d2 * a11, inv + d2 * a00, -d2 * a01
    mean, half = (kxx + kyy) / 2, (kxx - kyy) / 2
    spread = math.sqrt(half * half + kxy * kxy)
    if spread <= 1e-9 * mean:
        g = -math.expm1(-plowed * mean) / mean
        return -g * ux, -g * uy
    high, low = mean + spread, mean - spread
    f_high, f_low = -math.expm1(-plowed * high) / high, -math.expm1(-plowed * low) / low
    # f(K) = alpha + beta K, f(λ) = (1 − exp(−plowed λ)) / λ on K's two eigenvalues
    beta = (f_high - f_low) / (high - low)
    alpha = f_high - beta * high
    return -(alpha * ux + beta * (kxx * ux + kxy * uy)), -(alpha * uy + beta * (kxy * ux + kyy * uy))


def watch_class(variant: str) -> type:
    """A thrown piece's watch (as :class:`kubb3d.physics.forces.ContactWatch`: touched pieces,
    first contact, air drag, the batons' ground reads) with the plowing applied as ``variant``."""
    real = SHIPPED_WATCH
    if variant == "split":
        return real

    class Watch(real):  # type: ignore[misc, valid-type]
        def __init__(self, engine, piece, drag_until):
            self.touched, self.first = set(), None
            plow = engine.ground.plowing
            self.drag = piece.drag if engine.air_drag else None
            self.active = True
            client, body, ground = engine.client, piece.body, engine.ground_body
            inertia = pb.getDynamicsInfo(body, -1, physicsClientId=client)[2]
            least = min(inertia)

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
                if variant == "point":
                    at = (com[0], com[1], centre[2])
                    ix, iy = plowing_impulse(plow * normal * h, piece.mass, inertia, quat, centre[2] - com[2], v, spin)
                    pb.applyExternalForce(body, -1, (ix / h, iy / h, 0.0), at, pb.WORLD_FRAME, physicsClientId=client)
                    return
                if variant == "centre":
                    at, ux, uy, inv = com, v[0], v[1], 1.0 / piece.mass
                elif variant == "contacts":
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
    ap.add_argument("--ground", default="grass")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--plowing", default="", help="comma-separated k s/m for each variant (default: the ground's)")
    ap.add_argument("--dt", type=float, default=None, help="time step s (default: the engine's)")
    ap.add_argument("--no-tip", action="store_true", help="skip the tipping speed")
    a = ap.parse_args()
    cpu0 = time.process_time()
    kubb = get_set("standard").kubb
    shipped = get_ground(a.ground)
    ks = [float(k) for k in a.plowing.split(",")] if a.plowing else [shipped.plowing]
    real = forces_module.ContactWatch
    out: dict = {"throws": a.throws, "seed": a.seed, "skill": a.skill, "ground": a.ground, "variants": {}}
    base = None
    try:
        for variant in a.variants.split(","):
            forces_module.ContactWatch = watch_class(variant)
            for k in ks:
                name = variant if len(ks) == 1 else f"{variant} k={k:g}"
                ground = dataclasses.replace(shipped, plowing=k)
                grass = dataclasses.replace(get_ground("grass"), plowing=k)
                grounds = (ground,) if a.ground == "grass" else (ground, grass)
                with use_materials(Materials(grounds=grounds)):
                    try:
                        rows = run_throws(
                            a.throws,
                            a.seed,
                            **({"dt": a.dt} if a.dt else {}),
                            skill=a.skill,
                            ground=a.ground,
                            workers=1,
                        )
                    except PhysicsGlitch as glitch:  # a piece sped up out of the world
                        out["variants"][name] = {"glitch": str(glitch)}
                        continue
                    felled = np.array([r["felled"] for r in rows], dtype=float)
                    slides = [r["slide"] for r in rows if r["slide"] is not None]
                    entry = {
                        "plowing": k,
                        "felled_per_baton": float(felled.mean()),
                        "slide_median_m": float(np.median(slides)),
                        "slide_quartiles_m": [float(np.percentile(slides, 25)), float(np.percentile(slides, 75))],
                        "landed": len(slides),
                        "at_rest": sum(bool(r["at_rest"]) for r in rows),
                        "rest_time_mean_s": float(np.mean([r["rest_time"] for r in rows])),
                        "steps_per_throw": float(np.mean([r["steps"] for r in rows])),
                    }
                    if not a.no_tip:
                        reference = (kubb.width / kubb.height - TIP_FRICTION) / k
                        entry["tip_reference_m_s"] = reference
                        entry["tip_speed_m_s"] = tip_speed(reference)
                if base is None:
                    base = felled
                else:
                    d = felled - base
                    entry["felled_change"] = float(d.mean())
                    entry["felled_change_95"] = (
                        t95(len(d) - 1) * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else math.nan
                    )
                out["variants"][name] = entry
                print(name, json.dumps(entry), flush=True, file=sys.stderr)
    finally:
        forces_module.ContactWatch = real
    out["cpu_s"] = round(time.process_time() - cpu0, 1)
    out["load_1min"] = os.getloadavg()[0]
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Convergence of the integrated free flight (docs/speed.md "Ninth round: free flight").

Seeded throws of four kinds (bench throws at the baseline kubbs; tilted throws with varied spin
and elevation; helicopter throws; inkasts of kubbs into the other half), each simulated

* ``new``: as kubb3d does (the far flight integrated outside the engine, :class:`kubb3d.physics.flight.FreeFlight`),
* ``half``: the same with its steps half as long (at most 8 fine steps and 0.125 rad of turn),
* ``960``: the engine's flight at 1/960 s throughout (``quiet_dt = dt``: no long steps),
* ``1920``: the engine's flight at 1/1920 s throughout (its own step error, for scale).

and compared with ``new``: the first contact (piece, time, point), the last 30 Hz sample of the
flight before it (centre of mass and long axis), the largest tilt, the helicopter rotation and
the kubbs felled. Simulated figures: load changes only the wall time.

Usage::

    .venv/bin/python benchmarks/free_flight.py [--per-kind 75] [--seed 11]
"""

from __future__ import annotations

import argparse
import math
from dataclasses import replace

import numpy as np

import kubb3d.physics.flight as flight_module
from kubb3d.physics.world import DT, World
from kubb3d.players import SKILLS
from kubb3d.snapshot import body_axis
from kubb3d.throw import ThrowParams, aim, release_from_params, simulate


def cases(per_kind: int, seed: int) -> list[tuple[str, str, ThrowParams]]:
    """(kind of case, thrown piece kind, throw) for ``per_kind`` throws of each kind."""
    rng = np.random.default_rng(seed)
    club = SKILLS["club"]
    out = []
    with World.standard() as w:
        sols = {f"B{i}": aim(w, f"B{i}", ThrowParams()).params for i in range(1, 6)}
        for _ in range(per_kind):  # the bench's throws
            p = sols[f"B{rng.integers(1, 6)}"]
            p = replace(
                p,
                speed=p.speed * (1 + 0.02 * rng.standard_normal()),
                azimuth_deg=p.azimuth_deg + 0.8 * rng.standard_normal(),
            )
            out.append(("bench", "baton", p))
        for kind in ("tilted", "helicopter"):
            for _ in range(per_kind):
                base = ThrowParams(
                    elevation_deg=float(rng.uniform(10, 40)),
                    spin_rps=float(rng.uniform(0.5, 4.0) * rng.choice((-1, 1))),
                    tilt_deg=float(rng.uniform(-45, 45)),
                    release_angle_deg=float(rng.uniform(0, 90)),
                    helicopter_rps=float(rng.uniform(-4, 4)) if kind == "helicopter" else 0.0,
                )
                p = aim(w, f"B{rng.integers(1, 6)}", base).params
                out.append((kind, "baton", club.perturb(p, rng)))
        for _ in range(per_kind):
            target = (float(rng.uniform(0.3, 3.0)), float(rng.uniform(-2.0, 2.0)))
            half = w.equipment.kubb.width / 2
            base = ThrowParams(elevation_deg=float(rng.uniform(35, 65)), spin_rps=0.3, release_angle_deg=0.0)
            p = aim(w, (target[0], target[1], half), base, piece_kind="kubb").params
            out.append(("inkast", "kubb", club.perturb(p, rng)))
    return out


def run(case, how: str) -> dict:
    """One throw simulated ``how`` (new, half, 960, 1920): its flight figures."""
    _, kind, p = case
    piece = "baton1" if kind == "baton" else "X1"
    if how == "1920":
        world = World.standard(dt=DT / 2, quiet_dt=DT / 2)
    else:
        world = World.standard(quiet_dt=DT if how == "960" else None)
    keep = flight_module.FAR_STEP_FINE_STEPS, flight_module.FAR_STEP_TURN
    if how == "half":
        flight_module.FAR_STEP_FINE_STEPS, flight_module.FAR_STEP_TURN = keep[0] // 2, keep[1] / 2
    try:
        with world:
            rel = release_from_params(p, world.pitch)
            r = simulate(world, piece, rel, kind=kind, params=p, max_time=4.0)
    finally:
        flight_module.FAR_STEP_FINE_STEPS, flight_module.FAR_STEP_TURN = keep
    fc = r.first_contact
    times = r.trajectory.times
    poses = r.trajectory.poses[piece]
    before = [i for i, t in enumerate(times) if fc is None or t < fc.time - 1e-9]
    last = before[-1]
    return {
        "piece": None if fc is None else fc.piece,
        "time": None if fc is None else fc.time,
        "point": None if fc is None else fc.position,
        "sample_t": float(times[last]),
        "sample_p": poses[last, :3].copy(),
        "sample_axis": body_axis(poses[last, 3:7]),
        "tilt": math.degrees(r.metrics.max_tilt),
        "heli": math.degrees(r.metrics.helicopter),
        "felled": r.toppled,
    }


def stats(x) -> str:
    x = np.abs(np.asarray(x, dtype=float))
    if x.size == 0:
        return "-"
    return f"{np.percentile(x, 95):.3g} / {x.max():.3g}"


def compare(rows: list[dict], ref: list[dict], label: str) -> None:
    same = [a["piece"] == b["piece"] for a, b in zip(rows, ref)]
    both = [(a, b) for a, b in zip(rows, ref) if a["piece"] == b["piece"] and a["time"] is not None]
    dt_ms = [1e3 * (a["time"] - b["time"]) for a, b in both]
    dp_mm = [1e3 * math.dist(a["point"], b["point"]) for a, b in both]
    common = [(a, b) for a, b in zip(rows, ref) if abs(a["sample_t"] - b["sample_t"]) < 1e-6]
    sp_mm = [1e3 * float(np.linalg.norm(a["sample_p"] - b["sample_p"])) for a, b in common]
    sa_deg = [math.degrees(math.acos(min(1.0, float(a["sample_axis"] @ b["sample_axis"])))) for a, b in common]
    tilt = [a["tilt"] - b["tilt"] for a, b in zip(rows, ref)]
    heli = [a["heli"] - b["heli"] for a, b in zip(rows, ref)]
    felled = sum(a["felled"] == b["felled"] for a, b in zip(rows, ref))
    print(
        f"  {label:6s} n={len(rows):3d} first contact same piece {sum(same)}, time ms {stats(dt_ms)}, "
        f"point mm {stats(dp_mm)}; last flight sample ({len(common)}) centre mm {stats(sp_mm)}, axis deg "
        f"{stats(sa_deg)}; tilt deg {stats(tilt)}; helicopter deg {stats(heli)}; same felled {felled}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-kind", type=int, default=75)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--against", default="half,960,1920")
    a = ap.parse_args()
    todo = cases(a.per_kind, a.seed)
    hows = ["new", *a.against.split(",")]
    res = {how: [run(c, how) for c in todo] for how in hows}
    print("p95 / max of |difference| against the integrated flight (new):")
    for kind in ("bench", "tilted", "helicopter", "inkast", "all"):
        idx = [i for i, c in enumerate(todo) if kind in ("all", c[0])]
        print(f"{kind}:")
        for how in hows[1:]:
            compare([res[how][i] for i in idx], [res["new"][i] for i in idx], how)


if __name__ == "__main__":
    main()

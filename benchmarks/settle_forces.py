"""The normal force a supporting contact carries after the world is woken at rest, step by step,
against the static force of a torque balance (docs/physics.md "The contact forces the judge
reads"). Scenes: a kubb leaning on a standing kubb at 26-40°, a king leaning on a kubb, a baton
leaning on a kubb, a kubb lying on a kubb and a stößel (a kubb lying across two). Each scene is
built as a scenario (kubb3d/scenario_build.py) at each step (1/960, 1/1920, 1/3840 s), run until
rest, then every piece is woken and the world steps at ``dt``; after steps 1, 2, 3, 4, 8 and 16
the script prints the force of that step and the mean over the steps so far (the summed normal
impulse divided by the time), as ratios to the static force; then what ``World.settle_forces``
gives the judge for the same scene (its mean over 1/30 s at the quiet step).

Static force (frictionless support contact): the piece turns about the line of its ground
contacts (horizontal, through their mean point P, across the support's normal n); its weight W
at the centre of mass C and the support force F n at the contact point Q balance about that
line a:  F = -W ((C - P) x (-z)) . a / (((Q - P) x n) . a),  from the settled pose and contact
points. For a block of width w and height h (centre of mass at its centre) leaning at θ from
the vertical on a vertical face this is  F0 = W r sin(θ - θ_tip) / (h cos θ),  r = √(w² + h²)/2,
θ_tip = atan(w / h); a piece lying on others carries its whole weight: F = W. Friction μ at the
support contact (wood on wood, 0.5) can take part of the moment either way, so any force in
F0 / (1 + μ tan θ) ... F0 / (1 - μ tan θ) is static too (the solver's depends on the history).
Simulated figures: load changes only the wall time.

Usage::

    .venv/bin/python benchmarks/settle_forces.py [--steps 1920,3840] [--cases lean26.5,stack]
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from kubb3d import scenario_build as sc
from kubb3d.physics.world import World

READS = (1, 2, 3, 4, 8, 16)
STEPS = (960, 1920, 3840)


def _lean(piece: str, kind: str | None, on: str, tilt: float, extra=()) -> dict:
    p = {"id": piece, "place": "leaning", "on": on, "tilt_deg": tilt, "from_deg": 180}
    if kind:
        p["kind"] = kind
    return _scene([{"id": on, "place": "standing", "at": [1.5, 0.0]}, *extra, p])


def _scene(pieces: list) -> dict:
    """A DM throw scenario of ``pieces`` (its expectation only names A1: the probe reads forces)."""
    return {
        "schema": 1,
        "title": "force probe",
        "ruleset": "dm",
        "equipment": "standard",
        "event": "throw",
        "throw": {"thrower": "A"},
        "pieces": pieces,
        "expect": [{"piece": "A1"}],
    }


def cases() -> dict[str, tuple[dict, str, tuple[str, ...]]]:
    """name -> (scenario dict, the supported piece, its supporters)."""
    out = {}
    for t in (26.0, 26.5, 27.5, 30.0, 35.0, 40.0):
        out[f"lean{t:g}"] = (_lean("A2", None, "A1", t), "A2", ("A1",))
    out["king20"] = (_lean("king", None, "A1", 20.0), "king", ("A1",))
    out["baton30"] = (_lean("baton1", "baton", "A1", 30.0), "baton1", ("A1",))
    lying = {"id": "A1", "place": "lying", "at": [1.5, 0.0]}
    out["stack"] = (
        _scene([lying, {"id": "A2", "place": "stacked", "on": ["A1"], "yaw_deg": 90}]),
        "A2",
        ("A1",),
    )
    out["stossel"] = (
        _scene(
            [
                {"id": "A1", "place": "lying", "at": [1.5, -0.04]},
                {"id": "A2", "place": "lying", "at": [1.5, 0.04]},
                {"id": "A3", "place": "stacked", "on": ["A1", "A2"], "yaw_deg": 90},
            ]
        ),
        "A3",
        ("A1", "A2"),
    )
    return out


def support_force(snapshot, piece: str, supporters) -> float:
    """N: the summed normal force of the contacts between ``piece`` and ``supporters``."""
    sup = set(supporters)
    return sum(
        c.normal_force for c in snapshot.contacts if (c.a == piece and c.b in sup) or (c.b == piece and c.a in sup)
    )


def static_force(snapshot, piece: str, supporters) -> float:
    """N: the force a frictionless support must carry to hold ``piece`` still (module docstring),
    from its pose and contact geometry in ``snapshot``."""
    p = snapshot.pieces[piece]
    w = p.mass * snapshot.gravity
    ground = [
        np.array(c.position_on_a if c.a == piece else c.position_on_b)
        for c in snapshot.contacts
        if piece in (c.a, c.b) and "ground" in (c.a, c.b)
    ]
    sup = [c for c in snapshot.contacts if (c.a == piece and c.b in supporters) or (c.b == piece and c.a in supporters)]
    if not ground:
        return w  # lying on the supporters only
    pivot = np.mean(ground, axis=0)
    q = np.mean([np.array(c.position_on_a if c.a == piece else c.position_on_b) for c in sup], axis=0)
    # the normal pushing the piece (contacts store the normal from b to a)
    n = np.mean([np.array(c.normal_on_b) * (1.0 if c.a == piece else -1.0) for c in sup], axis=0)
    n /= np.linalg.norm(n)
    a = np.cross((0.0, 0.0, 1.0), n)
    a /= np.linalg.norm(a)
    com = np.asarray(p.com)
    tw = np.dot(np.cross(com - pivot, (0.0, 0.0, -w)), a)
    arm = np.dot(np.cross(q - pivot, n), a)
    return float(-tw / arm)


def measure(spec_dict: dict, piece: str, supporters, hz: int, n: int = 16):
    """(forces after each of ``n`` steps taken after waking, N; the static force, N; the tilt, deg)."""
    spec = sc.ScenarioSpec.model_validate(spec_dict)
    path = sc.Path("probe.toml")
    world = World(spec.equipment_set, spec.pitch_obj, spec.ground_name, stakes=spec.stakes, air_drag=False, dt=1.0 / hz)
    try:
        sc._place_all(path, spec, world, spec.pitch_obj, spec.equipment_set)
        world.run_until_rest(max_time=sc.SETTLE_TIME)
        world.rest.wake_all()
        forces = []
        for _ in range(n):
            world.step(1)
            forces.append(support_force(world.snapshot(), piece, supporters))
        snap = world.snapshot()
        q = snap.pieces[piece].quat_xyzw  # the long (z) axis from the vertical
        tilt = math.degrees(math.acos(max(-1.0, min(1.0, 1.0 - 2.0 * (q[0] ** 2 + q[1] ** 2)))))
        return forces, static_force(snap, piece, supporters), tilt
    finally:
        world.close()


def settled(spec_dict: dict, piece: str, supporters, hz: int) -> tuple[float, float]:
    """(what :meth:`World.settle_forces` gives the judge, N; the static force, N) for the scene
    built as a scenario at ``hz`` steps per second."""
    built = sc.build(sc.Path("probe.toml"), sc.ScenarioSpec.model_validate(spec_dict), dt=1.0 / hz)
    try:
        snap = built.snapshot
        return support_force(snap, piece, supporters), static_force(snap, piece, supporters)
    finally:
        built.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", default=",".join(str(s) for s in STEPS), help="steps per second, comma-separated")
    ap.add_argument("--cases", default=",".join(cases()))
    a = ap.parse_args()
    table = cases()
    print(f"force / static force after steps {READS} at dt; mean over steps 1..k; settle_forces' read")
    for name in a.cases.split(","):
        spec, piece, sup = table[name]
        for hz in (int(s) for s in a.steps.split(",")):
            f, want, tilt = measure(spec, piece, sup, hz)
            read, want2 = settled(spec, piece, sup, hz)
            step = " ".join(f"{f[k - 1] / want:5.2f}" for k in READS)
            mean = " ".join(f"{np.mean(f[:k]) / want:5.2f}" for k in READS)
            print(
                f"{name:9s} 1/{hz} s tilt {tilt:5.2f} deg static {want:6.4f} N | step k {step} | mean 1..k {mean}"
                f" | settle_forces {read:6.4f} N = {read / want2:5.3f}",
                flush=True,
            )


if __name__ == "__main__":
    main()

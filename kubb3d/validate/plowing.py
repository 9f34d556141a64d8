"""``plowing`` rows of ``kubb3d validate``: the speed from which an upright kubb sliding on a
low-friction grass starts to tip forward, against statics with friction and the plowing acting
where it touches, and at half the step (docs/physics.md "Plowing")."""

from __future__ import annotations

import dataclasses
import math

import kubb3d.physics.world as physics_world
from kubb3d.equipment import get_set
from kubb3d.physics.ground import GROUNDS
from kubb3d.physics.world import DT, World
from kubb3d.validate.rows import Row, half_step_row, rel_row

PLOW_TIP_FRICTION = 0.1
"""The friction of the test ground of the ``plowing`` rows: below a kubb's w/h (0.467), so that
friction alone cannot tip an upright kubb sliding on it and the plowing has to."""
PLOW_TIP_TOLERANCE = 0.05
"""The threshold speed may differ this share from statics: Bullet's sliding box rocks forward a
little before statics says it tips, the step's exact solution of the plowing is a little weaker
than k·N·v, and the bisection resolves 1 % (docs/physics.md "Plowing")."""
PLOW_TIP_RATE = 0.01
"""rad/s: an upright kubb whose forward turn reaches this within :data:`PLOW_TIP_WINDOW` tips."""
PLOW_TIP_WINDOW = 0.01
"""s: how long after the push the forward turn is watched (the kubb slows by about 1 % in it)."""


def plow_tips(v: float, dt: float | None = None) -> bool:
    """Whether an upright kubb (standard set) pushed at ``v`` m/s along its width on grass with
    friction :data:`PLOW_TIP_FRICTION` (and the engine's grass plowing) starts to tip forward: its
    turn about the horizontal axis across the push reaches :data:`PLOW_TIP_RATE` within
    :data:`PLOW_TIP_WINDOW` s. The plowing acts through the thrown piece's watch
    (:meth:`~kubb3d.physics.forces.Forces.contact_watch`), without air drag."""
    ground = dataclasses.replace(physics_world.get_ground("grass"), friction=PLOW_TIP_FRICTION)
    with World("standard", ground=ground, stakes=False, air_drag=False, dt=dt) as w:
        half_height = w.equipment.kubb.height / 2
        w.add_piece("p", "kubb", (0.0, 0.0, half_height + 1e-4), (0.0, 0.0, 0.0, 1.0), sleeping=False)
        w.step(w.steps_for(0.2))
        p0, q0 = w.pose("p")
        w.set_pose("p", p0, q0, linear_velocity=(v, 0.0, 0.0))
        watch = w.forces.contact_watch("p", drag_until=math.inf)
        w.stepper.add_step_hook(watch.hook)
        for _ in range(w.steps_for(PLOW_TIP_WINDOW)):
            w.step(1)
            if w.velocity("p")[1][1] > PLOW_TIP_RATE:
                return True
        return False


def plow_tip_reference() -> float:
    """m/s: statics of an upright block sliding on its end face (standard kubb, w × h): friction
    μ N and the plowing where it touches, k v N, act at its base h/2 below the centre of mass (the
    plowing's part at the centre of mass has no torque about it) and tip it about its front edge
    once (μ + k v) h/2 > w/2, so from v = (w/h − μ) / k, k grass's plowing."""
    kubb = get_set("standard").kubb
    return (kubb.width / kubb.height - PLOW_TIP_FRICTION) / GROUNDS["grass"].plowing


def plow_tip_speed(dt: float | None = None, iterations: int = 7) -> float:
    """The speed, m/s, above which :func:`plow_tips`, by bisection between half and twice
    :func:`plow_tip_reference` (resolution 1.5 · that / 2^iterations; twice it if the kubb never
    tips)."""
    ref = plow_tip_reference()
    lo, hi = ref / 2, ref * 2
    if not plow_tips(hi, dt):
        return hi
    for _ in range(iterations):
        mid = (lo + hi) / 2
        if plow_tips(mid, dt):
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


def check_plowing() -> list[Row]:
    """The plowing acts where the ground touches a piece: the speed from which it tips an upright
    kubb sliding on a low-friction ground, against statics, and at half the step."""
    k = GROUNDS["grass"].plowing
    row = rel_row(
        "plowing",
        f"speed from which an upright kubb sliding on grass with μ = {PLOW_TIP_FRICTION:g} starts to tip forward",
        f"(w/h − μ) / k, k = {k:g} s/m",
        "statics: friction and the plowing where it touches act at the base (at the centre of mass "
        "the plowing could never tip it)",
        plow_tip_reference(),
        plow_tip_speed(),
        "m/s",
        PLOW_TIP_TOLERANCE,
    )
    return [row, half_step_row(row, plow_tip_speed(DT / 2), PLOW_TIP_TOLERANCE)]

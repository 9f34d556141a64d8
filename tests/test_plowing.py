"""The ground's plowing acts where the ground touches (docs/physics.md "Plowing"): it never adds
energy, and an end that digs in turns a piece."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kubb3d.physics.forces as forces_module
from kubb3d.physics.forces import plowing_impulses
from kubb3d.physics.world import World
from kubb3d.throw.results import body_axis

finite = st.floats(-20.0, 20.0, allow_nan=False)
vectors = st.tuples(finite, finite, finite)


def _rotation(quat) -> np.ndarray:
    x, y, z, w = quat
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def _after(mass, inertia, quat, drop, velocity, spin, impulses):
    """Kinetic energy before and after the two impulses (at the centre of mass, at the point
    ``drop`` above it) act on the rigid body: v += ΣP/m, ω += I⁻¹ (r × P_point)."""
    rotation = _rotation(quat)
    world_inertia = rotation @ np.diag(inertia) @ rotation.T
    v, w = np.array(velocity), np.array(spin)
    cx, cy, px, py = impulses
    at_point = np.array([px, py, 0.0])
    v2 = v + (np.array([cx, cy, 0.0]) + at_point) / mass
    w2 = w + np.linalg.solve(world_inertia, np.cross([0.0, 0.0, drop], at_point))

    def energy(lin, ang):
        return 0.5 * mass * lin @ lin + 0.5 * ang @ world_inertia @ ang

    return energy(v, w), energy(v2, w2)


@settings(max_examples=400, deadline=None)
@given(
    plowed=st.floats(0.0, 50.0),
    mass=st.floats(0.05, 2.0),
    inertia=st.tuples(*[st.floats(1e-5, 0.05)] * 3),
    quat=st.tuples(*[st.floats(-1.0, 1.0)] * 4).filter(lambda q: sum(c * c for c in q) > 0.01),
    drop=st.floats(-0.3, 0.3),
    velocity=vectors,
    spin=vectors,
)
def test_the_plowing_never_adds_kinetic_energy(plowed, mass, inertia, quat, drop, velocity, spin):
    norm = math.sqrt(sum(c * c for c in quat))
    quat = tuple(c / norm for c in quat)
    impulses = plowing_impulses(plowed, mass, inertia, quat, drop, velocity, spin)
    before, after = _after(mass, inertia, quat, drop, velocity, spin, impulses)
    assert after <= before * (1 + 1e-9) + 1e-12


@given(plowed=st.floats(0.0, 5.0), mass=st.floats(0.05, 2.0), velocity=vectors, spin=vectors)
def test_at_the_centre_of_mass_the_two_parts_are_one_exact_step_of_twice_the_plowing(plowed, mass, velocity, spin):
    # drop = 0: both act on v_h alone, m dv/dt = -2 k N v over the step keeps exp(-2 k N h / m) of it
    cx, cy, px, py = plowing_impulses(plowed, mass, (0.01, 0.02, 0.03), (0.0, 0.0, 0.0, 1.0), 0.0, velocity, spin)
    taken = -math.expm1(-2 * plowed / mass)
    assert cx + px == pytest.approx(-mass * taken * velocity[0], rel=1e-9, abs=1e-12)
    assert cy + py == pytest.approx(-mass * taken * velocity[1], rel=1e-9, abs=1e-12)


def _forward_tilt(everything_at_centre: bool, monkeypatch) -> float:
    """Degrees: the tilt of a baton's axis from the vertical towards its motion (+x) 0.15 s after
    it lands end-first on grass: dropped at 45° with its lower end leading (its top back at −45°),
    4 m/s forward and 2 m/s down, no spin."""
    if everything_at_centre:
        real = forces_module.plowing_impulses

        def at_centre(plowed, mass, *rest):
            # the same plowing, both parts at the centre of mass: one exact step of twice k
            cx, cy, px, py = real(plowed, mass, *rest[:2], 0.0, *rest[3:])
            return cx + px, cy + py, 0.0, 0.0

        monkeypatch.setattr(forces_module, "plowing_impulses", at_centre)
    with World("dm-small", ground="grass", stakes=False, air_drag=False) as w:
        baton = w.equipment.baton
        tilt = math.radians(45.0)
        z = baton.length / 2 * math.cos(tilt) + baton.radius * math.sin(tilt) + 1e-3
        quat = (0.0, -math.sin(tilt / 2), 0.0, math.cos(tilt / 2))
        w.add_piece("p", "baton", (0.0, 0.0, z), quat, sleeping=False)
        w.set_pose("p", w.pose("p")[0], quat, linear_velocity=(4.0, 0.0, -2.0))
        watch = w.forces.contact_watch("p", drag_until=math.inf)
        w.stepper.add_step_hook(watch.hook)
        w.step(w.steps_for(0.15))
        ax, _, az = body_axis(w.pose("p")[1])
    return math.degrees(math.atan2(ax, az))


def test_a_baton_landing_end_first_is_turned_forward_by_its_end_digging_in(monkeypatch):
    start = -45.0
    where_it_touches = _forward_tilt(False, monkeypatch)
    at_centre = _forward_tilt(True, monkeypatch)
    # at the centre of mass the plowing has no torque: the baton falls back over its lower end;
    # where it touches, the plowing at that end turns its top forward, against the fall
    assert at_centre < start - 30.0
    assert where_it_touches > at_centre + 30.0

"""The free flight integrated outside the engine (kubb3d/physics/flight.py ``Flight``): exact rotation,
a drag integration that does not depend on its step, an aim solver that aims where the world flies
(docs/speed.md "Ninth round: free flight")."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

import kubb3d.physics.flight as flight_module
import kubb3d.throw as T
from kubb3d.equipment import get_set
from kubb3d.physics.aero import piece_drag
from kubb3d.physics.stepping import FlightClearance
from kubb3d.physics.world import DT, GRAVITY, World
from kubb3d.throw import Release, ThrowParams, aim, aim_point, release_from_params, simulate


def _angle_deg(q1, q2) -> float:
    return math.degrees(2 * math.acos(min(1.0, abs(sum(a * b for a, b in zip(q1, q2))))))


def test_a_precessing_baton_turns_as_the_engine_converges_to():
    # a tilted end-over-end spin with a helicopter turn is no turn about a principal axis: the
    # baton precesses. The engine's flight (implicit gyroscopic term) is off by a first-order
    # error that halves with its step; the closed form is what it converges to
    p = ThrowParams(speed=9.0, tilt_deg=25, helicopter_rps=2.0, spin_rps=3.0, height=3.0)
    errors = []
    for dt in (DT, DT / 2, DT / 4):
        with World("standard", dt=dt, quiet_dt=dt, stakes=False, air_drag=False) as w:
            rel = release_from_params(p, w.pitch)
            w.add_piece("baton1", "baton", rel.position, rel.quat_xyzw, sleeping=False)
            w.set_pose(
                "baton1",
                rel.position,
                rel.quat_xyzw,
                linear_velocity=rel.velocity,
                angular_velocity=rel.angular_velocity,
            )
            w.set_flight_step("baton1", 0.0, dt)
            w.step(round(0.5 / dt), rolling=False)
            _, q = w.com_pose("baton1")
            _, omega = w.engine.com_velocity("baton1")
            f = flight_module.FreeFlight(w, "baton1", rel, FlightClearance(-100.0, []))
            assert f.ok
            errors.append((_angle_deg(q, f.quat(0.5)), math.dist(omega, f.omega(0.5))))
    # measured: 8.40°, 4.21°, 2.11° and 1.51, 0.76, 0.38 rad/s (|ω| = 26.7 rad/s)
    for (a1, w1), (a2, w2) in zip(errors, errors[1:]):
        assert 0.45 < a2 / a1 < 0.55 and 0.45 < w2 / w1 < 0.55
    assert errors[-1][0] < 2.5
    # an end-over-end spin (tilted or not) is a turn about a principal axis: the engine keeps it
    f = flight_module.Flight(
        release_from_params(ThrowParams(tilt_deg=25), World.standard().pitch), 0.28, (2e-3, 7e-5), None, DT, 16
    )
    assert f.lam == pytest.approx(0.0, abs=1e-12)


def test_the_drag_integration_does_not_move_with_its_step_and_equals_the_drag_model():
    eq = get_set("standard")
    drag = piece_drag(eq, "baton")
    rel = release_from_params(ThrowParams(speed=11.0, spin_rps=1.5, tilt_deg=10.0), World.standard().pitch)
    ends = {}
    for most in (16, 8, 1):
        f = flight_module.Flight(rel, eq.baton_mass, (2.155e-3, 6.84e-5), drag, DT, most)
        while f.t < 768:  # 0.8 s
            f.advance(f.longest())
        ends[most] = f.p
    # measured: 0.17 mm and 0.013 mm from steps of 1/960 s
    assert math.dist(ends[16], ends[1]) < 0.0003 and math.dist(ends[8], ends[1]) < 0.00003
    # the acceleration is RodDrag.force over the mass, and gravity
    v, axis = (9.0, 0.5, 3.0), (0.6, 0.0, 0.8)
    fx, fy, fz = drag.force(v, axis)
    got = f.accel(*v, axis)
    want = (fx / eq.baton_mass, fy / eq.baton_mass, fz / eq.baton_mass - GRAVITY)
    assert got == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("side, target", [("A", "B3"), ("A", "B1"), ("B", "A3"), ("B", "A5")])
def test_the_aim_solver_aims_where_the_world_flies_from_either_side_at_any_azimuth(side, target):
    # the aim solver turned the velocity into its vertical plane but not the baton's orientation
    # and spin: a side-B throw crossed its target 51 mm (A3) and 73 mm (A5) too high, a side-A
    # throw at B1 (11.7° of azimuth) 30 mm; now within 0.2 mm of the flight integrated finely
    with World.standard() as w:
        p = aim(w, target, ThrowParams(side=side)).params
        tx, _, tz = aim_point(w, target)
        w.add_piece("baton1", "baton", (0.0, 0.0, 5.0), sleeping=False)
        f = flight_module.FreeFlight(w, "baton1", release_from_params(p, w.pitch), FlightClearance(-100.0, []))
    f.most = 1
    sign = 1.0 if side == "A" else -1.0
    prev = f.p
    while sign * (f.p[0] - tx) < 0:
        prev = f.p
        f.advance(1)
    z = prev[2] + (tx - prev[0]) / (f.p[0] - prev[0]) * (f.p[2] - prev[2])
    assert abs(z - tz) < 0.0002


def _throw(case: str, half: bool, plain: bool = False):
    """A seeded throw of each kind: first contact, largest tilt, helicopter rotation, felled."""
    base = {
        "bench": ThrowParams(),
        "tilted": ThrowParams(tilt_deg=28.0, spin_rps=2.5, elevation_deg=25.0, release_angle_deg=30.0),
        "helicopter": ThrowParams(tilt_deg=-15.0, spin_rps=1.2, helicopter_rps=1.5, elevation_deg=18.0),
        "inkast": ThrowParams(elevation_deg=55.0, spin_rps=0.3, release_angle_deg=0.0),
    }[case]
    keep = flight_module.FAR_STEP_FINE_STEPS, flight_module.FAR_STEP_TURN
    if half:
        flight_module.FAR_STEP_FINE_STEPS, flight_module.FAR_STEP_TURN = keep[0] // 2, keep[1] / 2
    try:
        with World.standard(quiet_dt=DT if plain else None) as w:
            if case == "inkast":
                r = T.inkast(w, "X1", (1.5, 0.7), base)
            else:
                r = T.throw(w, aim(w, "B2", base).params)
    finally:
        flight_module.FAR_STEP_FINE_STEPS, flight_module.FAR_STEP_TURN = keep
    return r


@pytest.mark.parametrize("case", ["bench", "tilted", "helicopter", "inkast"])
def test_the_flight_does_not_move_when_its_steps_are_halved(case):
    new, half, plain = _throw(case, False), _throw(case, True), _throw(case, False, plain=True)
    a, b = new.first_contact, half.first_contact
    assert a is not None and a.piece == b.piece and abs(a.time - b.time) <= DT + 1e-12
    assert math.dist(a.position, b.position) < 0.002
    assert math.degrees(abs(new.metrics.max_tilt - half.metrics.max_tilt)) < 1e-6
    assert math.degrees(abs(new.metrics.helicopter - half.metrics.helicopter)) < 1e-6
    # against the engine's flight at 1/960 s throughout: the same first contact within three
    # steps, the centre at the last 30 Hz sample before it within 5 mm (the engine's flight is off
    # by 1-3 mm, docs/speed.md; a contact point can be another corner of a block landing flat),
    # the tilt within 0.5° and the helicopter rotation within 5 % (the engine's gyroscopic term is
    # first order in its step)
    c = plain.first_contact
    assert c.piece == a.piece and abs(a.time - c.time) <= 3 * DT + 1e-12
    piece = new.piece
    last = max(i for i, t in enumerate(new.trajectory.times) if t < min(a.time, c.time) - 1e-9)
    assert new.trajectory.times[last] == pytest.approx(plain.trajectory.times[last], abs=1e-9)
    got, want = new.trajectory.poses[piece][last, :3], plain.trajectory.poses[piece][last, :3]
    assert math.dist(got, want) < 0.005
    assert math.degrees(abs(new.metrics.max_tilt - plain.metrics.max_tilt)) < 0.5
    assert abs(new.metrics.helicopter - plain.metrics.helicopter) <= 0.05 * plain.metrics.helicopter + 1e-9


def test_the_integrated_flight_is_sampled_at_30_hz_and_kept_by_a_plain_world():
    # the trajectory's flight samples fall on the 30 Hz grid; a world stepping at dt throughout
    # (quiet_dt = dt, what kubb3d bench compares against) flies in the engine
    calls = []
    orig = flight_module.FreeFlight.advance

    def counted(self, m):
        calls.append(m)
        return orig(self, m)

    flight_module.FreeFlight.advance = counted
    try:
        with World.standard(quiet_dt=DT) as w:
            simulate(w, "baton1", release_from_params(aim(w, "B3", ThrowParams()).params, w.pitch))
        assert calls == []
        with World.standard() as w:
            r = simulate(w, "baton1", release_from_params(aim(w, "B3", ThrowParams()).params, w.pitch))
    finally:
        flight_module.FreeFlight.advance = orig
    assert calls and max(calls) == flight_module.FAR_STEP_FINE_STEPS
    fc = r.first_contact.time
    flight = [t for t in r.trajectory.times if t < fc]
    assert flight == pytest.approx([k / 30 for k in range(len(flight))], abs=1e-9)
    assert len(flight) == math.ceil(fc * 30 - 1e-9)


def test_a_release_with_no_drag_flies_the_exact_parabola():
    rel = Release((0.0, 0.0, 0.5), (8.0, 1.0, 4.0), (0.0, 9.0, 0.0), (0.0, 0.0, 0.0, 1.0))
    f = flight_module.Flight(rel, 0.28, (2e-3, 7e-5), None, DT, 16)
    while f.t < 960:
        f.advance(f.longest())
    assert f.p == pytest.approx((8.0, 1.0, 0.5 + 4.0 - GRAVITY / 2), abs=1e-12)
    assert f.v == pytest.approx((8.0, 1.0, 4.0 - GRAVITY), abs=1e-12)
    # ... and T.predict_flight the same crossing
    z, t = T.predict_flight(replace(rel, velocity=(8.0, 0.0, 4.0)), None, 0.28, DT * 4, 6.0)
    assert t == pytest.approx(0.75, abs=1e-12) and z == pytest.approx(0.5 + 3.0 - GRAVITY * 0.75**2 / 2, abs=1e-9)


def test_a_piece_falling_at_the_release_falls_during_the_flight():
    # the flight outside the engine leaves every other piece where it is, so it is only taken
    # when they are at rest (Stepper.others_at_rest): a kubb put awake 1 m up at the release lands
    # (0.4 s) long before the baton's first contact (1.2 s), as the engine's flight steps it along
    for drop in (False, True):
        with World.standard() as w:
            if drop:
                w.add_piece("X", "kubb", (0.0, 2.0, 1.0), side="A", sleeping=False)
            assert w.stepper.others_at_rest("baton1") is not drop
            seen = None
            for frame in T.throw_iter(w, ThrowParams(elevation_deg=35.0)):
                if frame.time_s > 0 and len(frame.samples) > 1:
                    seen = frame  # the first sample of every piece after the first contact
                    break
            assert seen is not None and seen.time_s > 1.0
            if drop:
                assert seen.samples["X"][0][2] < 0.16  # down (standing: 0.15 m, lying 0.035 m)
            w.sleep_all()
            assert w.stepper.others_at_rest("baton1")


def test_pieces_count_at_rest_until_something_moves_them():
    with World.standard() as w:
        assert w.stepper.others_at_rest("B1")  # built asleep: no reads needed
        pos, q = w.pose("B1")
        w.set_pose("B1", pos, q, linear_velocity=(0.0, 0.0, 2.0), wake=False)  # tossed up
        assert not w.stepper.others_at_rest("B2") and w.stepper.others_at_rest("B1")
        w.step(24)
        assert not w.stepper.others_at_rest("B2")
        assert w.run_until_rest().at_rest
        assert w.stepper.others_at_rest("B2")
        w.step(1)  # a step after the rest: the pieces' velocities tell
        assert w.stepper.others_at_rest("B2")
        w.sleep_all()
        assert w.stepper.others_at_rest("B2")


@pytest.mark.parametrize(
    "speed, spin, tilt, heli, kind",
    [
        (11.0, 1.5, 10.0, 0.0, "baton"),
        (6.0, 3.0, -40.0, 2.0, "baton"),
        (4.0, 0.3, 5.0, 0.0, "kubb"),
        (9.0, 0.0, 0.0, 0.0, "baton"),
    ],
)
def test_the_written_out_runge_kutta_step_is_the_one_through_axis_and_accel_bit_for_bit(speed, spin, tilt, heli, kind):
    """Flight.advance writes out axis() and accel() (issue #32): the same floats as
    _advance_generic, which calls them, at every step length and for each kind of throw."""
    eq = get_set("standard")
    drag = piece_drag(eq, kind)
    params = ThrowParams(speed=speed, spin_rps=spin, tilt_deg=tilt, helicopter_rps=heli, azimuth_deg=7.0)
    rel = release_from_params(params, World.standard().pitch)
    mass = eq.baton_mass if kind == "baton" else eq.mass(kind)
    fast = flight_module.Flight(rel, mass, (2.155e-3, 6.84e-5), drag, DT, 16)
    slow = flight_module.Flight(rel, mass, (2.155e-3, 6.84e-5), drag, DT, 16)
    for m in [1, 2, 4, 8, 16, 16, 3, 16] * 20:
        fast.advance(m)
        slow._advance_generic(m)
        assert (fast.p, fast.v, fast.axis_now, fast.t) == (slow.p, slow.v, slow.axis_now, slow.t)
    # a change of the drag factor by 1e-12 of it is seen: the comparison can fail
    slow.drag = (slow.drag[0] * (1 + 1e-12), *slow.drag[1:])
    fast.advance(16)
    slow._advance_generic(16)
    assert fast.v != slow.v

"""``flight`` rows of ``kubb3d validate``: the range of a baton back to its release height, flown
by the world's free-flight steps, without drag against v² sin 2θ / g and with drag against a fine
Runge–Kutta integration of the same drag law (kubb3d/physics/aero.py)."""

from __future__ import annotations

import math

from kubb3d.equipment import get_set
from kubb3d.physics.world import GRAVITY, World
from kubb3d.validate.rows import Row, rel_row


def world_range(speed: float, elevation: float, drag: bool, spin: float = 1.5 * 2 * math.pi, h0: float = 1.0) -> float:
    """Horizontal distance, m, at which a baton released from height ``h0`` m (axis vertical,
    end-over-end spin ``spin`` rad/s) comes back to that height, flown by the world's free-flight
    step schedule (long steps, velocity half a step ahead against gravity)."""
    with World("standard", ground="plane", stakes=False, air_drag=drag) as w:
        vel = (speed * math.cos(elevation), 0.0, speed * math.sin(elevation))
        w.add_piece("b", "baton", (0.0, 0.0, h0 + 20.0), sleeping=False)
        w.set_pose("b", (0.0, 0.0, h0 + 20.0), linear_velocity=vel, angular_velocity=(0.0, spin, 0.0))
        w.set_flight_step("b", 0.0, w.quiet_dt)
        z0 = h0 + 20.0
        prev = w.pose("b")[0]
        while True:
            w.apply_drag("b")
            w.step(1)
            cur = w.pose("b")[0]
            if cur[2] < z0 <= prev[2] and w.time > 0.05:
                f = (prev[2] - z0) / (prev[2] - cur[2])
                return float(prev[0] + f * (cur[0] - prev[0]))
            prev = cur


def rk4_range(speed: float, elevation: float, spin: float = 1.5 * 2 * math.pi, h: float = 1e-4) -> float:
    """The same flight integrated with classical Runge–Kutta at ``h`` s: quadratic drag of
    :func:`kubb3d.physics.aero.piece_drag` with the baton's axis turning at ``spin`` rad/s."""
    from kubb3d.equipment import get_set
    from kubb3d.physics.aero import piece_drag

    eq = get_set("standard")
    drag = piece_drag(eq, "baton")
    m = eq.baton_mass

    def acc(t, v):
        ang = spin * t
        axis = (math.sin(ang), 0.0, math.cos(ang))
        f = drag.force(v, axis)
        return (f[0] / m, f[1] / m, f[2] / m - GRAVITY)

    x, z = 0.0, 0.0
    v = (speed * math.cos(elevation), 0.0, speed * math.sin(elevation))
    t = 0.0
    while True:

        def add(a, b, s):
            return tuple(ai + s * bi for ai, bi in zip(a, b))

        k1 = acc(t, v)
        k2 = acc(t + h / 2, add(v, k1, h / 2))
        k3 = acc(t + h / 2, add(v, k2, h / 2))
        k4 = acc(t + h, add(v, k3, h))
        # positions with the matching RK4 weights on the velocities
        v1, v2, v3, v4 = v, add(v, k1, h / 2), add(v, k2, h / 2), add(v, k3, h)
        nx = x + h * (v1[0] + 2 * v2[0] + 2 * v3[0] + v4[0]) / 6
        nz = z + h * (v1[2] + 2 * v2[2] + 2 * v3[2] + v4[2]) / 6
        v = tuple(v[i] + h * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) / 6 for i in range(3))
        t += h
        if nz < 0.0 <= z and t > 0.05:
            f = z / (z - nz)
            return x + f * (nx - x)
        x, z = nx, nz


def check_flight(quick: bool = False) -> list[Row]:
    from kubb3d.physics import aero

    drag = aero.piece_drag(get_set("standard"), "baton")  # the law rk4_range takes
    law = f"C_d {drag.cd_cross:g} across, {drag.cd_axial:g} along" if drag is not None else "no drag"
    rows = []
    cases = [(10.0, 30.0)] if quick else [(8.0, 20.0), (10.0, 30.0), (12.0, 40.0)]
    for speed, elev_deg in cases:
        th = math.radians(elev_deg)
        rows.append(
            rel_row(
                "flight",
                f"range back to release height, {speed:g} m/s at {elev_deg:g}°, no drag",
                "v² sin 2θ / g",
                "projectile motion",
                speed * speed * math.sin(2 * th) / GRAVITY,
                world_range(speed, th, False),
                "m",
                0.002,
            )
        )
        rows.append(
            rel_row(
                "flight",
                f"range back to release height, {speed:g} m/s at {elev_deg:g}°, with drag, 1.5 rev/s",
                "Runge–Kutta 4 at 0.1 ms, same drag law",
                f"kubb3d/physics/aero.py ({law})",
                rk4_range(speed, th),
                world_range(speed, th, True),
                "m",
                0.005,
            )
        )
    return rows

"""The free flight of a thrown piece far from everything, integrated outside the engine, and
its hand-over to the engine before anything can be touched.

How it compares with the engine's own flight, and what it saves: docs/physics.md "Time step",
docs/speed.md "Ninth round: free flight".
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, Protocol

from kubb3d.model_files import com_local
from kubb3d.physics.aero import RodDrag, piece_drag
from kubb3d.physics.engine import GRAVITY
from kubb3d.physics.stepping import FlightClearance
from kubb3d.snapshot import body_axis

if TYPE_CHECKING:
    from kubb3d.physics.world import World


class FlightStart(Protocol):
    """The state a flight starts from (a :class:`kubb3d.throw.Release`)."""

    @property
    def position(self) -> tuple[float, float, float]:
        """Centre of the piece, m."""

    @property
    def velocity(self) -> tuple[float, float, float]:
        """m/s."""

    @property
    def angular_velocity(self) -> tuple[float, float, float]:
        """rad/s, world frame."""

    @property
    def quat_xyzw(self) -> tuple[float, float, float, float]:
        """Orientation."""


FLIGHT_MARGIN = 0.02
"""m: the free flight is integrated outside the engine (:class:`FreeFlight`) only while the
piece's bounding box stays this far from the ground and its bounding sphere this far from every
other piece's; in the engine it takes long steps only while its bounding sphere stays this far
(plus two long steps' travel) from the ground and from every other piece's bounding sphere."""

FAR_STEP_FINE_STEPS = 16
"""The longest step of the integrated free flight (:class:`FreeFlight`), in fine steps of the
world (16 × 1/960 s = 1/60 s): its drag integration (RK4) then moves a landing point by less than
0.01 mm against steps half as long (docs/speed.md "Ninth round: free flight")."""
FAR_STEP_TURN = 0.25
"""rad: ... and at most so long that the piece turns this far in one step (a fast spin changes
the drag's orientation factor within a step)."""


def quat_multiply(a, b) -> tuple[float, float, float, float]:
    """Hamilton product a ⊗ b of quaternions (x, y, z, w): the rotation b, then a."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


def _abs_harmonic_integral(c: float, a: float, b: float, rate: float, duration: float) -> float:
    """∫₀ᵀ |c + a·cos(rate·t) + b·sin(rate·t)| dt for T = ``duration`` s, exactly (piecewise between
    the sign changes)."""
    r = math.hypot(a, b)
    if rate == 0.0 or r == 0.0:
        return abs(c + a) * duration
    phi = math.atan2(b, a)
    # c + r cos(u) with u = rate t − phi; antiderivative (c u + r sin u) / rate
    u0, u1 = -phi, rate * duration - phi
    if u1 < u0:
        u0, u1 = u1, u0
    cuts = [u0]
    if abs(c) < r:
        root = math.acos(-c / r)
        k = math.floor((u0 - root) / (2 * math.pi))
        while True:
            base = 2 * math.pi * k
            for u in (base - root, base + root):
                if u0 < u < u1:
                    cuts.append(u)
            if base - root >= u1:
                break
            k += 1
        cuts.sort()
    cuts.append(u1)
    total = 0.0
    for lo, hi in zip(cuts, cuts[1:]):
        total += abs(c * (hi - lo) + r * (math.sin(hi) - math.sin(lo)))
    return total / abs(rate)


class Flight:
    """The free flight of a thrown baton or kubb, integrated outside the engine (plain floats).

    * **Rotation**: exact. Nothing exerts a torque on the flying piece (drag acts at its centre of
      mass, :mod:`kubb3d.physics.aero`), and both thrown pieces are symmetric tops (a baton's and
      a kubb's moments of inertia about their two short axes are equal): the long axis precesses
      about the constant angular momentum L at |L|/I₁ while the body turns about that axis at
      λ = (1 − I₃/I₁)·(ω·axis) (Landau & Lifshitz, Mechanics §33). An end-over-end spin, tilted
      or not, is the case λ = 0: a turn about a fixed axis. (The engine integrates the same
      motion with its implicit gyroscopic term, to first order in the step: docs/speed.md
      "Ninth round: free flight".)
    * **Centre of mass**: gravity and the drag of :class:`~kubb3d.physics.aero.RodDrag` with the
      long axis where it is at each moment, by the classical Runge–Kutta method (exact for
      gravity alone), in steps of whole ``unit`` s, at most ``most`` units and
      :data:`FAR_STEP_TURN` of turn, each aligned to its own length.
    * **Metrics**: the largest tilt out of a vertical plane and the helicopter rotation
      (:mod:`kubb3d.throw`) are harmonic functions of time for this motion; both are taken exactly
      (the maximum over the whole interval, the integral of an absolute value piecewise).

    Args:
        release: the state at the start.
        mass: kg.
        inertia: (I₁, I₃) kg·m², about a short axis and the long (body z) axis.
        drag: the drag model (None: no drag).
        unit: s, the grid of the steps.
        most: the longest step, in units.
    """

    def __init__(
        self,
        release: FlightStart,
        mass: float,
        inertia: tuple[float, float],
        drag: RodDrag | None,
        unit: float,
        most: int,
    ) -> None:
        i1, i3 = inertia
        self.mass = mass
        # RodDrag.force's factors over the mass: a = k·(side·sin α + end·cos α)·|v|·v
        if drag is None:
            self.drag, self.drag_most = None, 0.0
        else:
            half_rho, side, end = drag.factors
            self.drag, self.drag_most = (half_rho / mass, side, end), drag.most / mass
        self.fine = unit
        self.most = most
        self.p = release.position
        self.v = release.velocity
        self.q0 = release.quat_xyzw
        wx, wy, wz = release.angular_velocity
        ex, ey, ez = (float(c) for c in body_axis(release.quat_xyzw))
        # angular momentum / I1 = ω + (I3/I1 − 1)(ω·e)e; the body's own turn λ = (1 − I3/I1)(ω·e)
        we = wx * ex + wy * ey + wz * ez
        k = i3 / i1 - 1.0
        lx, ly, lz = wx + k * we * ex, wy + k * we * ey, wz + k * we * ez
        self.rate = math.sqrt(lx * lx + ly * ly + lz * lz)  # precession rate |L|/I1, rad/s
        self.lam = -k * we
        self.l_hat = (lx / self.rate, ly / self.rate, lz / self.rate) if self.rate > 0.0 else (0.0, 0.0, 1.0)
        ux, uy, uz = self.l_hat
        along = ex * ux + ey * uy + ez * uz
        # axis(t) = par + cos(rate t)·perp + sin(rate t)·cross
        self.par = (along * ux, along * uy, along * uz)
        self.perp = (ex - along * ux, ey - along * uy, ez - along * uz)
        self.cross = (uy * ez - uz * ey, uz * ex - ux * ez, ux * ey - uy * ex)
        self.spin = math.sqrt(wx * wx + wy * wy + wz * wz)  # |ω| is constant
        self.t = 0
        """units flown"""
        self.axis_now = (ex, ey, ez)

    def longest(self) -> int:
        """The longest next step, units: at most :attr:`most` and :data:`FAR_STEP_TURN` of turn,
        a power of two aligned to its length."""
        m = self.most
        while m > 1 and (self.t % m or self.spin * m * self.fine > FAR_STEP_TURN):
            m //= 2
        return m

    def axis(self, seconds: float) -> tuple[float, float, float]:
        """The long axis at ``seconds`` after the release."""
        a = self.rate * seconds
        c, s = math.cos(a), math.sin(a)
        (px, py, pz), (qx, qy, qz), (rx, ry, rz) = self.par, self.perp, self.cross
        return (px + c * qx + s * rx, py + c * qy + s * ry, pz + c * qz + s * rz)

    def quat(self, seconds: float) -> tuple[float, float, float, float]:
        """The orientation (quat_xyzw) at ``seconds`` after the release: the release orientation
        turned about the body's long axis by λ·t, then about L by |L|/I₁·t."""
        half = 0.5 * self.lam * seconds
        own = (0.0, 0.0, math.sin(half), math.cos(half))
        half = 0.5 * self.rate * seconds
        s = math.sin(half)
        ux, uy, uz = self.l_hat
        q = quat_multiply((ux * s, uy * s, uz * s, math.cos(half)), quat_multiply(self.q0, own))
        n = math.sqrt(sum(c * c for c in q))
        return (q[0] / n, q[1] / n, q[2] / n, q[3] / n)

    def omega(self, seconds: float) -> tuple[float, float, float]:
        """The angular velocity, rad/s, at ``seconds`` after the release."""
        ex, ey, ez = self.axis(seconds)
        ux, uy, uz = self.l_hat
        r, lam = self.rate, self.lam
        return (r * ux + lam * ex, r * uy + lam * ey, r * uz + lam * ez)

    def accel(self, vx: float, vy: float, vz: float, axis) -> tuple[float, float, float]:
        """m/s²: gravity and drag (:meth:`~kubb3d.physics.aero.RodDrag.force` over the mass) at
        velocity (vx, vy, vz) with the long axis ``axis``."""
        if self.drag is None:
            return (0.0, 0.0, -GRAVITY)
        speed = math.sqrt(vx * vx + vy * vy + vz * vz)
        if speed == 0.0:
            return (0.0, 0.0, -GRAVITY)
        k, side, end = self.drag
        cos_a = abs(vx * axis[0] + vy * axis[1] + vz * axis[2]) / speed
        k *= (side * math.sqrt(max(0.0, 1.0 - cos_a * cos_a)) + end * cos_a) * speed
        return (k * vx, k * vy, k * vz - GRAVITY)

    def advance(self, m: int) -> None:
        """One classical Runge–Kutta step of ``m`` fine steps."""
        if self.drag is None:
            self._advance_generic(m)
            return
        # :meth:`axis` and :meth:`accel` written out, the same operations in the same order (one
        # Python call instead of seven per step: issue #32; tests/test_free_flight.py holds it
        # to _advance_generic bit for bit)
        h = m * self.fine
        t = self.t * self.fine
        (px, py, pz), (vx, vy, vz) = self.p, self.v
        rate, (ax, ay, az), (bx, by, bz), (cx, cy, cz) = self.rate, self.par, self.perp, self.cross
        sqrt, cos, sin = math.sqrt, math.cos, math.sin
        a = rate * (t + 0.5 * h)
        c, s = cos(a), sin(a)
        mx, my, mz = ax + c * bx + s * cx, ay + c * by + s * cy, az + c * bz + s * cz
        a = rate * (t + h)
        c, s = cos(a), sin(a)
        ex, ey, ez = ax + c * bx + s * cx, ay + c * by + s * cy, az + c * bz + s * cz
        k0, side, end = self.drag
        half = 0.5 * h
        nx, ny, nz = self.axis_now
        speed = sqrt(vx * vx + vy * vy + vz * vz)
        if speed == 0.0:
            k1x, k1y, k1z = 0.0, 0.0, -GRAVITY
        else:
            cos_a = abs(vx * nx + vy * ny + vz * nz) / speed
            r = 1.0 - cos_a * cos_a
            k = k0 * ((side * sqrt(r if r > 0.0 else 0.0) + end * cos_a) * speed)
            k1x, k1y, k1z = k * vx, k * vy, k * vz - GRAVITY
        v2x, v2y, v2z = vx + half * k1x, vy + half * k1y, vz + half * k1z
        speed = sqrt(v2x * v2x + v2y * v2y + v2z * v2z)
        if speed == 0.0:
            k2x, k2y, k2z = 0.0, 0.0, -GRAVITY
        else:
            cos_a = abs(v2x * mx + v2y * my + v2z * mz) / speed
            r = 1.0 - cos_a * cos_a
            k = k0 * ((side * sqrt(r if r > 0.0 else 0.0) + end * cos_a) * speed)
            k2x, k2y, k2z = k * v2x, k * v2y, k * v2z - GRAVITY
        v3x, v3y, v3z = vx + half * k2x, vy + half * k2y, vz + half * k2z
        speed = sqrt(v3x * v3x + v3y * v3y + v3z * v3z)
        if speed == 0.0:
            k3x, k3y, k3z = 0.0, 0.0, -GRAVITY
        else:
            cos_a = abs(v3x * mx + v3y * my + v3z * mz) / speed
            r = 1.0 - cos_a * cos_a
            k = k0 * ((side * sqrt(r if r > 0.0 else 0.0) + end * cos_a) * speed)
            k3x, k3y, k3z = k * v3x, k * v3y, k * v3z - GRAVITY
        v4x, v4y, v4z = vx + h * k3x, vy + h * k3y, vz + h * k3z
        speed = sqrt(v4x * v4x + v4y * v4y + v4z * v4z)
        if speed == 0.0:
            k4x, k4y, k4z = 0.0, 0.0, -GRAVITY
        else:
            cos_a = abs(v4x * ex + v4y * ey + v4z * ez) / speed
            r = 1.0 - cos_a * cos_a
            k = k0 * ((side * sqrt(r if r > 0.0 else 0.0) + end * cos_a) * speed)
            k4x, k4y, k4z = k * v4x, k * v4y, k * v4z - GRAVITY
        s = h / 6.0
        self.p = (
            px + s * (vx + 2.0 * (v2x + v3x) + v4x),
            py + s * (vy + 2.0 * (v2y + v3y) + v4y),
            pz + s * (vz + 2.0 * (v2z + v3z) + v4z),
        )
        self.v = (
            vx + s * (k1x + 2.0 * (k2x + k3x) + k4x),
            vy + s * (k1y + 2.0 * (k2y + k3y) + k4y),
            vz + s * (k1z + 2.0 * (k2z + k3z) + k4z),
        )
        self.t += m
        self.axis_now = (ex, ey, ez)

    def _advance_generic(self, m: int) -> None:
        """:meth:`advance` through :meth:`axis` and :meth:`accel` (any drag, or none)."""
        h = m * self.fine
        t = self.t * self.fine
        (px, py, pz), (vx, vy, vz) = self.p, self.v
        a_mid, a_end = self.axis(t + 0.5 * h), self.axis(t + h)
        accel, half = self.accel, 0.5 * h
        k1x, k1y, k1z = accel(vx, vy, vz, self.axis_now)
        v2x, v2y, v2z = vx + half * k1x, vy + half * k1y, vz + half * k1z
        k2x, k2y, k2z = accel(v2x, v2y, v2z, a_mid)
        v3x, v3y, v3z = vx + half * k2x, vy + half * k2y, vz + half * k2z
        k3x, k3y, k3z = accel(v3x, v3y, v3z, a_mid)
        v4x, v4y, v4z = vx + h * k3x, vy + h * k3y, vz + h * k3z
        k4x, k4y, k4z = accel(v4x, v4y, v4z, a_end)
        s = h / 6.0
        self.p = (
            px + s * (vx + 2.0 * (v2x + v3x) + v4x),
            py + s * (vy + 2.0 * (v2y + v3y) + v4y),
            pz + s * (vz + 2.0 * (v2z + v3z) + v4z),
        )
        self.v = (
            vx + s * (k1x + 2.0 * (k2x + k3x) + k4x),
            vy + s * (k1y + 2.0 * (k2y + k3y) + k4y),
            vz + s * (k1z + 2.0 * (k2z + k3z) + k4z),
        )
        self.t += m
        self.axis_now = a_end

    def max_tilt(self, nx: float, ny: float) -> float:
        """rad: the largest angle between the long axis and the vertical plane of horizontal normal
        (nx, ny) over the flight so far."""
        c = self.par[0] * nx + self.par[1] * ny
        a = self.perp[0] * nx + self.perp[1] * ny
        b = self.cross[0] * nx + self.cross[1] * ny
        span = self.rate * self.t * self.fine
        best = max(abs(c + a), abs(c + a * math.cos(span) + b * math.sin(span)))
        r = math.hypot(a, b)
        if r > 0.0:
            u = math.atan2(b, a)  # c + r·cos(θ − u) is extreme at θ = u + kπ
            k = math.ceil(-u / math.pi)
            while u + k * math.pi <= span:
                best = max(best, abs(c + r * math.cos(k * math.pi)))
                k += 1
        return math.asin(min(1.0, best))

    def helicopter(self, measure: Callable[[float, float, float], float]) -> float:
        """rad: ∫|measure(ω(t))| dt over the flight so far, ``measure`` linear in ω."""
        ux, uy, uz = self.l_hat
        r, lam = self.rate, self.lam
        base = (r * ux + lam * self.par[0], r * uy + lam * self.par[1], r * uz + lam * self.par[2])
        return _abs_harmonic_integral(
            measure(*base),
            lam * measure(*self.perp),
            lam * measure(*self.cross),
            self.rate,
            self.t * self.fine,
        )


class FreeFlight(Flight):
    """:class:`Flight` in a world: the thrown piece far from everything, handed back to the
    engine, state and clock, before its bounding box can come within :data:`FLIGHT_MARGIN` of
    anything (:meth:`~kubb3d.physics.stepping.Stepper.set_flight_state`). Steps are whole fine
    steps of the world (at most :data:`FAR_STEP_FINE_STEPS`), so the clock stays on the fine grid
    and the 30 Hz samples fall on step ends."""

    def __init__(self, world: World, piece: str, release: FlightStart, gap_of: FlightClearance) -> None:
        kind = world.kind(piece)
        mass, inertia = world.mass_properties(piece)
        spec = world.equipment.piece(kind)
        hx, hy, hz = spec.half_extents
        i1, i3 = inertia[0], inertia[2]
        self.ok = (
            inertia[0] == inertia[1] and hx == hy and i1 > 0 and i3 > 0 and not any(com_local(world.equipment, kind))
        )
        """False: not a symmetric top about its bounding box's long axis (the engine flies it)."""
        drag = piece_drag(world.equipment, kind) if world.engine.air_drag else None
        super().__init__(release, mass, (i1, i3) if self.ok else (1.0, 1.0), drag, world.dt, FAR_STEP_FINE_STEPS)
        # the lowest point of the bounding box (or of the inscribed cylinder of a baton) below the
        # centre: hz·|axis_z| + across·√(1 − axis_z²)
        self.hz, self.across = hz, (hx if spec.shape == "cylinder" else math.sqrt(2.0) * hx)
        self.radius = math.sqrt(hx * hx + hy * hy + hz * hz)
        self.ground_top = gap_of.ground_clear - self.radius
        # the other pieces' spheres, each with a lower bound of its gap valid for as long as the
        # piece has travelled no farther than it had then (:attr:`path`, the sum of its steps'
        # chords, bounds how far it is from where any gap was taken)
        self.others = gap_of.others
        self.path = 0.0
        x, y, z = self.p
        self.bounds = [math.sqrt((x - ox) ** 2 + (y - oy) ** 2 + (z - oz) ** 2) - rr for ox, oy, oz, rr in self.others]
        self.nearest = min(self.bounds, default=math.inf)

    def step_for(self) -> int:
        """The longest next step, in fine steps (:meth:`longest`), after which no point of the
        piece can be within :data:`FLIGHT_MARGIN` of anything; 0: hand over now."""
        m = self.longest()
        vx, vy, vz = self.v
        speed = math.sqrt(vx * vx + vy * vy + vz * vz)
        az = self.axis_now[2]
        ground = self.p[2] - self.ground_top - self.hz * abs(az) - self.across * math.sqrt(max(0.0, 1.0 - az * az))
        while m >= 1:
            h = m * self.fine
            # the fastest any point of the piece can move during the step, m/s: its centre of mass
            # gains at most (g + drag)·h, and no point turns faster than |ω|·radius about it
            most = speed + h * GRAVITY
            most += h * self.drag_most * most * most + self.spin * self.radius
            need = FLIGHT_MARGIN + h * most
            if ground > need and self.clear_of_others(need):
                return m
            m //= 2
        return 0

    def clear_of_others(self, need: float) -> bool:
        """Is the piece's bounding sphere farther than ``need`` (m) from every other piece's? From the
        stored lower bounds (1 nm of slack for their rounding), taking the gap again only of the
        pieces whose bound does not answer."""
        path = self.path
        need += 1e-9
        if self.nearest - path > need:
            return True
        x, y, z = self.p
        bounds = self.bounds
        for i, (ox, oy, oz, rr) in enumerate(self.others):
            if bounds[i] - path <= need:
                bounds[i] = math.sqrt((x - ox) ** 2 + (y - oy) ** 2 + (z - oz) ** 2) - rr + path
        self.nearest = min(bounds, default=math.inf)
        return self.nearest - path > need

    def advance(self, m: int) -> None:
        x, y, z = self.p
        super().advance(m)
        self.path += math.dist(self.p, (x, y, z))

    def handover_velocity(self) -> tuple[float, float, float]:
        """The velocity to give the engine for its fine steps: half a step ahead, v − a·dt/2
        (:meth:`~kubb3d.physics.stepping.Stepper.shift_step`)."""
        a = self.accel(*self.v, self.axis_now)
        k = 0.5 * self.fine
        return (self.v[0] - a[0] * k, self.v[1] - a[1] * k, self.v[2] - a[2] * k)

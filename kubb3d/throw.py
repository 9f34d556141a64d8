"""Throws: release parameters, the underhand baton throw, the aim solver,
inkasts and lag throws, and throw legality measured from the simulated flight.

Conventions (README "The model"): SI units inside; degrees and revolutions per second
only in :class:`ThrowParams` fields whose names say so. The thrower's forward
direction is +x for side A and −x for side B; azimuth is measured from it,
positive to the thrower's left (counter-clockwise seen from above).

Flight legality (computed from the simulation, never copied from the input):

* **tilt**: the largest angle between the baton's long axis and the vertical
  plane of its flight (the plane through the release velocity), before the
  baton's first contact. ``DM §5``: more than 30° is illegal ("eine Schieflage
  von mehr als 30° ist dagegen verboten").
* **helicopter**: rotation about the vertical that is not the baton's end-over-end
  spin. The spin axis is the one the baton was released with (body y: the flight
  plane's normal, rolled by the tilt); throughout the free flight the angular
  velocity is split along that axis, the vertical and the direction normal to both,
  and the vertical part is accumulated (integrated exactly far from everything, step by
  step near the ground or a piece). A legal end-over-end throw, tilted or not,
  turns about its spin axis only and accumulates nothing, whatever its release angle;
  a baton turning about the vertical accumulates that turn whether its long axis is
  horizontal, raised or vertical (a baton spinning about its own vertical axis turns
  horizontally too). More than 90° before the first contact is a helicopter throw
  (``WS basic rule 5``: "no horizontal rotation"). If the release spin axis is within
  13° of the vertical, the spin itself is horizontal rotation and all vertical rotation
  counts.
* **foot fault**: the front foot of the stance (:meth:`ThrowParams.stance`) must be
  behind the throwing line at the release and after the follow-through step, and
  inside the extended sidelines (``DM §5``; ``WS basic rule 7``); the hand may be
  in front of it, within :data:`ARM_REACH`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from types import EllipsisType
from typing import Any, Callable, Generator, Mapping

import numpy as np

from kubb3d.errors import ThrowError
from kubb3d.judge.messages import msg
from kubb3d.equipment import LYING_DISK_KUBB, EquipmentSet
from kubb3d.physics.aero import RodDrag, piece_drag
from kubb3d.physics.flight import FLIGHT_MARGIN, Flight, FreeFlight, quat_multiply
from kubb3d.physics.poses import quaternion_from_euler
from kubb3d.physics.rest import SAMPLE_INTERVAL
from kubb3d.physics.world import DT, GRAVITY, World
from kubb3d.judge.rulebook import ThrowRules, get_rulebook, rulebook_names
from kubb3d.pitch import Pitch, opponent
from kubb3d.snapshot import GROUND_ID, Snapshot, body_axis

UPRIGHT_TILT = math.radians(10.0)
"""A kubb or king within 10° of vertical (either end up) counts as upright at rest in a
:class:`ThrowResult` (the judge makes the real ruling)."""

MAX_RELEASE_SPEED = 40.0
"""m/s: no underhand throw is faster (a baton at 8 m needs about 11 m/s); the aim solver's range."""

HAND_AHEAD_OF_FOOT = 0.40
"""m: how far in front of the toe of the front foot the hand releases an underhand throw by
default (a stance of one step with the arm swinging through; kubb3d's assumption)."""
ARM_REACH = 1.0
"""m: the farthest a release point may be from the front foot, horizontally."""

HELICOPTER_SPIN_AXIS_HORIZONTAL_MIN = 0.05
"""Squared horizontal length of the release spin axis below which (within 13° of the
vertical) all vertical rotation counts as helicopter rotation."""
HELICOPTER_LIMIT = math.radians(90.0)
"""rad: more rotation about the vertical than this before the first contact is a helicopter throw."""


@dataclass(frozen=True)
class Violation:
    """A broken throwing rule.

    Attributes:
        rule: citation, e.g. ``DM §5``.
        reason: one sentence for the player.
    """

    rule: str
    reason: str


@dataclass(frozen=True)
class Release:
    """The state of a thrown piece at the moment it leaves the hand.

    Attributes:
        position: centre of the piece, m, shape (3,).
        velocity: m/s, shape (3,).
        angular_velocity: rad/s, world frame, shape (3,).
        quat_xyzw: orientation.
    """

    position: tuple[float, float, float]
    velocity: tuple[float, float, float]
    angular_velocity: tuple[float, float, float]
    quat_xyzw: tuple[float, float, float, float]


@dataclass(frozen=True)
class ThrowParams:
    """An underhand throw as a player describes it.

    Attributes:
        side: thrower's side, ``A`` (throws towards +x) or ``B``.
        line_x: x of the throwing line, m (None: the side's baseline).
        lateral: y of the release point, m (must be within the extended sidelines).
        behind_line: how far behind the throwing line the release point (the hand) is, m
            (negative: the hand is past the line, which is allowed: the foot is judged).
        height: release height above the ground, m (typical underhand: 0.4–0.7).
        speed: release speed of the centre of mass, m/s (> 0).
        elevation_deg: angle of the release velocity above the horizontal, deg.
        azimuth_deg: horizontal angle from the forward direction, deg, positive left.
        spin_rps: end-over-end spin, revolutions per second; positive turns the
            top of the baton forward ("vorwärts", DM §5), negative backward.
        tilt_deg: roll of the baton about the flight direction, deg (DM §5 limit 30°).
        helicopter_rps: rotation about the vertical axis, rev/s (WS basic rule 5: 0).
        release_angle_deg: angle of the baton's long axis above the horizontal in the
            flight plane at release, deg.
        foot_behind_line: the stance: how far the toe of the front foot is behind the
            throwing line at the release, m (negative: over the line, a foot fault, DM §5,
            WS basic rule 7). None: :data:`HAND_AHEAD_OF_FOOT` behind the release point.
        foot_lateral: y of the front foot, m (DM §5: inside the extended sidelines). None:
            ``lateral``.
        step_after: how far the front foot moves forward after the release, m (DM §5: the
            line may not be crossed "infolge der Wurfbewegung" either).
    """

    side: str = "A"
    line_x: float | None = None
    lateral: float = 0.0
    behind_line: float = 0.05
    height: float = 0.5
    speed: float = 10.0
    elevation_deg: float = 20.0
    azimuth_deg: float = 0.0
    spin_rps: float = 1.5
    tilt_deg: float = 0.0
    helicopter_rps: float = 0.0
    release_angle_deg: float = 60.0
    foot_behind_line: float | None = None
    foot_lateral: float | None = None
    step_after: float = 0.0

    def stance(self) -> tuple[float, float]:
        """(toe of the front foot behind the line m, its y m) at the release."""
        foot = self.behind_line + HAND_AHEAD_OF_FOOT if self.foot_behind_line is None else self.foot_behind_line
        return float(foot), float(self.lateral if self.foot_lateral is None else self.foot_lateral)

    def validate(self) -> None:
        """Raise ThrowError naming the first bad field (NaN, non-positive speed, bad side, a release
        point out of arm's reach of the stance …)."""
        _check_side_and_numbers(
            self,
            (
                "lateral",
                "behind_line",
                "height",
                "speed",
                "elevation_deg",
                "azimuth_deg",
                "spin_rps",
                "tilt_deg",
                "helicopter_rps",
                "release_angle_deg",
                "step_after",
            ),
        )
        for name in ("foot_behind_line", "foot_lateral"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v)):
                raise ThrowError(f"{name} must be a finite number or None, got {v!r}")
        if self.step_after < 0:
            raise ThrowError(f"step_after must be >= 0 m, got {self.step_after}")
        foot, foot_y = self.stance()
        reach = math.hypot(foot - self.behind_line, foot_y - self.lateral)
        if reach > ARM_REACH:
            raise ThrowError(
                f"the release point must be within arm's reach ({ARM_REACH:.1f} m) of the front foot, got {reach:.2f} "
                "m (behind_line, lateral, foot_behind_line, foot_lateral)"
            )
        if not 0 < self.speed <= MAX_RELEASE_SPEED:
            raise ThrowError(f"speed must be > 0 and at most {MAX_RELEASE_SPEED:.0f} m/s, got {self.speed}")
        if self.height <= 0:
            raise ThrowError(f"height must be > 0 m, got {self.height}")
        if not -90 < self.elevation_deg < 90:
            raise ThrowError(f"elevation_deg must be between -90 and 90, got {self.elevation_deg}")
        if abs(self.spin_rps) > 20 or abs(self.helicopter_rps) > 20:
            raise ThrowError("spin_rps and helicopter_rps must be within ±20 rev/s")


def _check_side_and_numbers(params, names: tuple[str, ...]) -> None:
    """ThrowError unless ``params.side`` is A or B and every named field is a finite number
    (``line_x`` too, when set)."""
    if params.side not in ("A", "B"):
        raise ThrowError(f"side must be 'A' or 'B', got {params.side!r}")
    for name in names:
        value = getattr(params, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ThrowError(f"{name} must be a finite number, got {value!r}")
    if params.line_x is not None and not math.isfinite(params.line_x):
        raise ThrowError(f"line_x must be a finite number, got {params.line_x!r}")


def _frame(forward: np.ndarray, tilt: float, release_angle: float) -> tuple[np.ndarray, np.ndarray]:
    """Baton orientation matrix and spin axis for a flight direction (unit, horizontal)."""
    z = np.array((0.0, 0.0, 1.0))
    normal = np.cross(z, forward)  # plane normal; +spin about it turns the top forward
    # roll the flight plane's frame about the forward direction by the tilt
    c, s = math.cos(tilt), math.sin(tilt)
    up_t = c * z - s * normal
    normal_t = c * normal + s * z
    axis = math.cos(release_angle) * forward + math.sin(release_angle) * up_t
    e3 = axis / np.linalg.norm(axis)
    e2 = normal_t
    e1 = np.cross(e2, e3)
    return np.column_stack((e1, e2, e3)), normal_t


def _quat_from_matrix(m: np.ndarray) -> tuple[float, float, float, float]:
    return quaternion_from_euler(_euler_from_matrix(m))


def _euler_from_matrix(m: np.ndarray) -> tuple[float, float, float]:
    # PyBullet's Euler convention: R = Rz(yaw) Ry(pitch) Rx(roll)
    pitch = math.asin(max(-1.0, min(1.0, -m[2, 0])))
    if abs(m[2, 0]) < 1 - 1e-12:
        roll = math.atan2(m[2, 1], m[2, 2])
        yaw = math.atan2(m[1, 0], m[0, 0])
    else:
        roll = 0.0
        yaw = math.atan2(-m[0, 1], m[1, 1])
    return (roll, pitch, yaw)


def release_from_params(params: ThrowParams, pitch: Pitch, ground_z: float = 0.0) -> Release:
    """Turn a player's throw description into a :class:`Release`.

    Raises:
        ThrowError: see :meth:`ThrowParams.validate`.
    """
    params.validate()
    fwd_sign = pitch.forward(params.side)
    line_x = pitch.baseline_x(params.side) if params.line_x is None else params.line_x
    az = math.radians(params.azimuth_deg)
    forward = np.array((fwd_sign * math.cos(az), fwd_sign * math.sin(az), 0.0))
    el = math.radians(params.elevation_deg)
    velocity = params.speed * (math.cos(el) * forward + np.array((0.0, 0.0, math.sin(el))))
    matrix, spin_axis = _frame(forward, math.radians(params.tilt_deg), math.radians(params.release_angle_deg))
    omega = 2 * math.pi * params.spin_rps * spin_axis + np.array((0.0, 0.0, 2 * math.pi * params.helicopter_rps))
    position = (line_x - fwd_sign * params.behind_line, params.lateral, ground_z + params.height)
    return Release(
        position=tuple(float(v) for v in position),
        velocity=tuple(float(v) for v in velocity),
        angular_velocity=tuple(float(v) for v in omega),
        quat_xyzw=_quat_from_matrix(matrix),
    )


# ---------------------------------------------------------------------- results
@dataclass(frozen=True)
class FirstContact:
    """The thrown piece's first contact.

    Attributes:
        piece: what it touched (a piece id or ``ground``).
        time: seconds after release.
        position: contact point, m.
    """

    piece: str
    time: float
    position: tuple[float, float, float]


@dataclass
class Trajectory:
    """Sampled poses of the pieces that moved.

    Attributes:
        times: s after release, shape (T,).
        poses: piece id → array (T, 7): bounding-box centre x, y, z (m) and quat_xyzw.
    """

    times: np.ndarray
    poses: dict[str, np.ndarray]

    def fall_order(self, tipping: Mapping[str, float]) -> tuple[str, ...]:
        """The pieces whose long axis turned more than their tipping angle (``tipping``: piece
        id → rad; pieces not named are left out) away from their first sampled direction, in
        the order of the first sample at which they did (ties by id). For the referee option
        ``baseline_after_field`` = ``contact order`` (``ThrowContext.fall_order``, DM §5)."""
        when = []
        for pid in sorted(self.poses):
            if pid not in tipping or len(self.poses[pid]) == 0:
                continue
            axes = np.array([body_axis(q) for q in self.poses[pid][:, 3:7]])
            turned = np.flatnonzero(axes @ axes[0] < math.cos(tipping[pid]))
            if turned.size:
                when.append((int(turned[0]), pid))
        return tuple(pid for _, pid in sorted(when))


@dataclass(frozen=True)
class FlightMetrics:
    """Measured from the simulated flight, before the first contact.

    Attributes:
        max_tilt: largest tilt out of the vertical flight plane, rad.
        helicopter: accumulated rotation about the vertical besides the end-over-end spin, rad.
        flight_time: s from release to first contact (None if nothing was touched).
    """

    max_tilt: float
    helicopter: float
    flight_time: float | None


@dataclass
class ThrowResult:
    """Everything a throw produced.

    Attributes:
        piece: the thrown piece's id.
        release: the release state.
        params: the player's parameters (None for a raw release).
        metrics: flight legality measurements.
        violations: broken rules (empty: legal).
        first_contact: the first contact or None.
        touched: ids of the pieces that the thrown piece touched or that moved.
        trajectory: sampled poses.
        final: snapshot at rest (contacts with fresh normal forces).
        rest_time: s from release until everything was at rest.
        at_rest: False if the time limit ended the simulation first.
        final_tilt: piece id → tilt from vertical at rest, rad (kubbs and king).
    """

    piece: str
    release: Release
    params: ThrowParams | FlickParams | None
    metrics: FlightMetrics
    violations: list[Violation]
    first_contact: FirstContact | None
    touched: list[str]
    trajectory: Trajectory
    final: Snapshot
    rest_time: float
    at_rest: bool
    final_tilt: dict[str, float]

    @property
    def legal(self) -> bool:
        """True when no rule was broken."""
        return not self.violations

    @property
    def upright(self) -> list[str]:
        """Kubbs and king standing on an end face at rest (within :data:`UPRIGHT_TILT`)."""
        return sorted(pid for pid, t in self.final_tilt.items() if t < UPRIGHT_TILT or t > math.pi - UPRIGHT_TILT)

    @property
    def toppled(self) -> list[str]:
        """Kubbs and king not upright at rest."""
        up = set(self.upright)
        return sorted(pid for pid in self.final_tilt if pid not in up)

    def to_json(self) -> dict:
        """The CLI's ``--json`` document (see the README)."""
        fc = self.first_contact
        return {
            "piece": self.piece,
            "legal": self.legal,
            "violations": [{"rule": v.rule, "reason": v.reason} for v in self.violations],
            "flight_time_s": self.metrics.flight_time,
            "max_tilt_deg": math.degrees(self.metrics.max_tilt),
            "helicopter_deg": math.degrees(self.metrics.helicopter),
            "first_contact": None
            if fc is None
            else {"piece": fc.piece, "time_s": fc.time, "position_m": list(fc.position)},
            "touched": self.touched,
            "upright": self.upright,
            "toppled": self.toppled,
            "rest_time_s": self.rest_time,
            "at_rest": self.at_rest,
            "release": {
                "position_m": list(self.release.position),
                "velocity_mps": list(self.release.velocity),
                "angular_velocity_radps": list(self.release.angular_velocity),
                "quat_xyzw": list(self.release.quat_xyzw),
            },
        }


# ---------------------------------------------------------------------- simulation
@dataclass(frozen=True)
class ThrowFrame:
    """One sample of a throw while it is being simulated (:func:`simulate_iter`), for a view
    that draws the throw as it comes.

    Attributes:
        piece: id of the thrown piece.
        time_s: seconds since the release (0 for the release itself).
        samples: id → (centre of mass (3,) m, quat_xyzw) of the pieces read at this sample:
            during the free flight only the thrown piece (nothing else can move before its
            first contact), after it every movable piece; in the last frame every piece of the
            result's snapshot, by its frame position (see :meth:`poses`).
        final: True for the last frame: the poses of :attr:`ThrowResult.final`, at rest.
    """

    piece: str
    time_s: float
    samples: Mapping[str, tuple]
    final: bool = False
    to_frame: Callable[[str, Any, Any], Any] | None = None

    def poses(self) -> dict[str, np.ndarray]:
        """id → pose (7,) (frame position m, quat_xyzw) of every piece in this frame, as the
        trajectories and snapshots give them."""
        conv = self.to_frame
        return {
            pid: np.array((*(conv(pid, com, q) if conv is not None else com), *q), dtype=float)
            for pid, (com, q) in self.samples.items()
        }


def run_frames(frames: Generator[Any, None, Any]) -> Any:
    """Run a generator of frames (:func:`simulate_iter`, :func:`throw_iter`) to its end without
    looking at them; returns what it returns (the :class:`ThrowResult`)."""
    while True:
        try:
            next(frames)
        except StopIteration as stop:
            return stop.value


def simulate(world: World, piece: str, release: Release, **kwargs: Any) -> ThrowResult:
    """Release ``piece`` and simulate until everything rests: :func:`simulate_iter` run to its
    end (the same arguments, result and errors)."""
    return run_frames(simulate_iter(world, piece, release, **kwargs))


def simulate_iter(
    world: World,
    piece: str,
    release: Release,
    *,
    kind: str = "baton",
    params: ThrowParams | FlickParams | None = None,
    rules: ThrowRules | None = None,
    line_x: float | None = None,
    side: str | None = None,
    max_time: float = 15.0,
    record_every: float | None = None,
    sliding: bool = False,
    settle_s: float | None = None,
) -> Generator[ThrowFrame, None, ThrowResult]:
    """Release ``piece`` (added to the world if missing) and simulate until everything rests: a
    generator that yields a :class:`ThrowFrame` at the release, at every trajectory sample
    (:data:`~kubb3d.physics.rest.SAMPLE_INTERVAL`, 30 Hz) and at rest (``final``), and
    returns the :class:`ThrowResult`. Reading the frames changes nothing: the result is the
    same bit for bit as :func:`simulate`'s.

    Args:
        world: the world (modified: the piece stays where it came to rest).
        piece: id of the thrown piece (``baton1`` … or a kubb id for an inkast).
        release: its release state.
        kind: the piece's kind if it has to be added.
        params: the player's parameters, kept in the result.
        rules: throwing rules to check (None: only measure, no violations).
        line_x: throwing line for the foot-fault check (default: thrower's baseline).
        side: thrower's side for the foot-fault check (default ``params.side``).
        max_time: simulated seconds at most.
        record_every: seconds between trajectory samples and rest checks after the first
            contact (default :data:`~kubb3d.physics.rest.SAMPLE_INTERVAL`, 30 Hz); the free
            flight is recorded at 30 Hz.
        sliding: the piece starts on the ground (a flick): its first contact is the first
            one with anything but the ground, and the free phase ends there.
        settle_s: how long, s, everything must stay at rest before the result is taken (the
            referee option ``settle_s``, :mod:`kubb3d.judge.options`; default the world's
            :attr:`~kubb3d.physics.rest.Rest.settle_s`).

    Raises:
        PhysicsGlitch: the simulation blew up (NaN, piece outside the world).
    """
    if not world.has_piece(piece):
        world.add_piece(piece, kind, release.position, release.quat_xyzw, sleeping=False)
    world.set_pose(
        piece,
        release.position,
        release.quat_xyzw,
        linear_velocity=release.velocity,
        angular_velocity=release.angular_velocity,
    )
    engine, stepper = world.engine, world.stepper
    com_pose, com_velocity, contacts_of = engine.com_pose, engine.com_velocity, engine.contacts_of
    apply_drag = world.forces.apply_drag
    t0 = world.time
    recorder = _Recorder(world, t0)
    first_sample = world.rest.sample()
    recorder.record(world.time, first_sample)
    to_frame = world.engine.frame_position
    yield ThrowFrame(piece, 0.0, first_sample, to_frame=to_frame)
    start = {pid: (world.engine.frame_position(pid, com, q), q) for pid, (com, q) in first_sample.items()}

    # --- free flight until the first contact: integrated outside the engine while the piece is
    # far from everything (kubb3d.physics.flight.FreeFlight), then engine steps of world.dt near
    # the ground or a piece (world.quiet_dt if it is far again). Velocities are kept half a step ahead against gravity
    # (see World.set_flight_step), so the engine's flight does not depend on its steps either.
    vx, vy, _ = release.velocity
    hn = math.hypot(vx, vy)
    nx, ny = (-vy / hn, vx / hn) if hn > 1e-9 else (0.0, 1.0)  # horizontal normal of the flight plane
    max_tilt = 0.0
    heli = 0.0
    # the release spin axis (body y at release) and the horizontal normal to it and the vertical
    rx, ry, rz, rw = release.quat_xyzw
    sx, sy, sz = 2 * (rx * ry - rz * rw), 1 - 2 * (rx * rx + rz * rz), 2 * (ry * rz + rx * rw)
    sh2 = sx * sx + sy * sy
    upright_spin = sh2 < HELICOPTER_SPIN_AXIS_HORIZONTAL_MIN
    hx_n, hy_n = (sy / math.sqrt(sh2), -sx / math.sqrt(sh2)) if not upright_spin else (0.0, 0.0)
    first: FirstContact | None = None
    end = t0 + max_time - 1e-9
    gap_of = world.stepper.flight_clearance(piece) if not sliding else None
    h = 0.0
    next_record = t0 + SAMPLE_INTERVAL - 1e-9
    quiet, fine = world.quiet_dt, world.dt

    def heli_rate(wx: float, wy: float, wz: float) -> float:
        """rad/s, signed: the rotation about the vertical besides the spin (linear in ω)."""
        if upright_spin:
            return wz
        # ω = α·spin axis + β·vertical + γ·(horizontal normal): drop γ, then α from the
        # horizontal part, β what is left of the vertical part
        g = wx * hx_n + wy * hy_n
        alpha = ((wx - g * hx_n) * sx + (wy - g * hy_n) * sy) / sh2
        return wz - alpha * sz

    # far from everything the flight is integrated outside the engine (exact rotation, RK4 drag)
    # and handed over before anything can be touched; plain stepping (quiet_dt = dt) keeps the
    # engine's flight throughout
    flight = (
        FreeFlight(world, piece, release, gap_of)
        if not sliding and quiet > fine and world.stepper.others_at_rest(piece)
        else None
    )
    if flight is not None and flight.ok:
        while True:
            t = flight.t * fine
            if t0 + t >= end:
                break
            m = flight.step_for()
            if m == 0:
                break
            flight.advance(m)
            now = t0 + flight.t * fine
            if now >= next_record:
                flying = {piece: (flight.p, flight.quat(flight.t * fine))}
                recorder.record(now, flying)
                next_record += SAMPLE_INTERVAL
                yield ThrowFrame(piece, now - t0, flying, to_frame=to_frame)
        if flight.t:
            t = flight.t * fine
            max_tilt, heli = flight.max_tilt(nx, ny), flight.helicopter(heli_rate)
            handover = flight.handover_velocity()
            world.stepper.set_flight_state(piece, t, flight.p, flight.quat(t), handover, flight.omega(t))
            world.use_step(fine)
            h = fine
    while not sliding and engine.time < end:
        com, q = com_pose(piece)
        v, (wx, wy, wz) = com_velocity(piece)
        speed = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
        far = gap_of.exceeds(com, 2.0 * speed * quiet + FLIGHT_MARGIN)
        want = quiet if far else fine
        if want != h:
            world.set_flight_step(piece, h, want)
            h = want
            v = com_velocity(piece)[0]
        qx, qy, qz, qw = q
        ax, ay = 2 * (qx * qz + qy * qw), 2 * (qy * qz - qx * qw)
        tilt = math.asin(min(1.0, abs(ax * nx + ay * ny)))
        if tilt > max_tilt:
            max_tilt = tilt
        heli += abs(heli_rate(wx, wy, wz)) * h
        apply_drag(piece, (com, q, v))
        stepper.step(1, rolling=False)  # nothing touches it yet, everything else is at rest
        if engine.time >= next_record:
            flying = {piece: com_pose(piece)}
            recorder.record(world.time, flying)
            next_record += SAMPLE_INTERVAL
            yield ThrowFrame(piece, world.time - t0, flying, to_frame=to_frame)
        if far:
            # a step of at most two steps' travel left it FLIGHT_MARGIN clear of everything (it
            # moved by |v|·h, and gravity and drag change |v| by ≈ 0.05 m/s in a step): no contact
            # point can exist, and reading none costs as much as the step (≈ 1 µs)
            continue
        cps = contacts_of(piece)
        if cps:
            nearest = min(cps, key=lambda contact: (contact.distance, contact.body))
            first = FirstContact(nearest.other, world.time - t0, tuple(float(v) for v in nearest.position))
            break
    world.use_step(world.dt)

    # --- after the first contact (a sliding piece: from the start) until everything rests
    touched: set[str] = set()
    stats = None
    if first is not None or sliding:
        if first is not None:
            touched.add(first.piece)

        # every step (before it: the contacts of the step just taken), so no short touch is
        # missed; the same read gives the ground's normal force for the plowing, and air drag
        # until the piece first drops below DRAG_MIN_SPEED
        watch = world.forces.contact_watch(piece, drag_until=DRAG_MIN_SPEED)
        world.stepper.add_step_hook(watch.hook, watch=not watch.active)
        try:
            run = world.rest.iter_until_rest(
                max(0.0, max_time - (world.time - t0)), sample_every=record_every, settle_s=settle_s
            )
            while True:
                try:
                    t, sample = next(run)
                except StopIteration as stop:
                    stats = stop.value
                    break
                recorder.record(t, sample)
                yield ThrowFrame(piece, t - t0, sample, to_frame=to_frame)
        finally:
            world.stepper.clear_step_hooks()
        touched |= watch.touched
        if first is None and watch.first is not None:
            other, when, pos = watch.first
            first = FirstContact(other, when - t0, tuple(float(v) for v in pos))
    metrics = FlightMetrics(max_tilt, heli, None if first is None else first.time)
    rest_time = world.time - t0
    world.settle_forces()
    final = world.snapshot()
    world.sleep_all()
    yield ThrowFrame(piece, rest_time, {pid: (p.position, p.quat_xyzw) for pid, p in final.pieces.items()}, final=True)

    for pid, (p0, q0) in start.items():
        p1, q1 = final[pid].position, final[pid].quat_xyzw
        if math.dist(p0, p1) > 0.002 or abs(sum(a * b for a, b in zip(q0, q1))) < math.cos(math.radians(1.0) / 2):
            touched.add(pid)
    touched = sorted(touched - {GROUND_ID, piece})

    final_tilt = {pid: p.tilt for pid, p in final.pieces.items() if p.kind in ("kubb", "king") and pid != piece}
    violations = (
        check_legality(metrics, release, rules, world.pitch, side or (params.side if params else None), line_x, params)
        if rules
        else []
    )
    traj = recorder.trajectory(keep={piece, *touched})
    return ThrowResult(
        piece,
        release,
        params,
        metrics,
        violations,
        first,
        touched,
        traj,
        final,
        rest_time,
        bool(stats and stats.at_rest),
        final_tilt,
    )


DRAG_MIN_SPEED = 3.0
"""m/s: after its first contact a thrown piece gets air drag until it is slower than this
(a baton at 3 m/s feels ≈ 0.08 N of drag against 2.8 N of weight)."""


class _Recorder:
    """Collects raw (centre of mass, quat) samples and turns them into a :class:`Trajectory`.

    A piece missing from a sample (pieces other than the thrown one are not read during the
    free flight: they cannot move before the first contact) repeats its first later pose,
    or its start pose.
    """

    def __init__(self, world: World, t0: float) -> None:
        self.world = world
        self.t0 = t0
        self.times: list[float] = []
        self.samples: list[dict] = []

    def record(self, t: float, sample: dict) -> None:
        """Keep one sample {id: (centre of mass, quat)} taken at world time ``t``."""
        self.times.append(t - self.t0)
        self.samples.append(sample)

    def trajectory(self, keep: set[str]) -> Trajectory:
        poses = {}
        for pid in sorted(keep):
            if not self.world.has_piece(pid):
                continue
            rows = [s.get(pid) for s in self.samples]
            fill = next((r for r in rows if r is not None), None)
            if fill is None:
                continue
            out = []
            for r in rows:
                com, q = r if r is not None else fill
                out.append((*self.world.engine.frame_position(pid, com, q), *q))
            poses[pid] = np.array(out)
        return Trajectory(np.array(self.times), poses)


def check_legality(
    metrics: FlightMetrics,
    release: Release,
    rules: ThrowRules,
    pitch: Pitch,
    side: str | None,
    line_x: float | None,
    params: "ThrowParams | None" = None,
) -> list[Violation]:
    """The broken throwing rules, from measured flight metrics and the stance.

    The foot is judged, not the hand (DM §5, WS basic rule 7): with ``params`` the front foot
    of :meth:`ThrowParams.stance`, also after its ``step_after``; for a raw release without
    parameters the release point stands in for the foot."""
    out = []
    if rules.max_tilt_deg is not None and math.degrees(metrics.max_tilt) > rules.max_tilt_deg:
        out.append(
            Violation(
                rules.tilt_rule,
                msg(
                    "the baton tilted {tilt_deg:.0f}° out of the vertical plane of its flight; more "
                    "than {max_deg:.0f}° is not allowed",
                    tilt_deg=math.degrees(metrics.max_tilt),
                    max_deg=rules.max_tilt_deg,
                ),
            )
        )
    if rules.forbid_helicopter and metrics.helicopter > HELICOPTER_LIMIT:
        out.append(
            Violation(
                rules.helicopter_rule,
                msg(
                    "helicopter throw: the baton turned {turn_deg:.0f}° about the vertical "
                    "(besides its end-over-end spin) before its first contact",
                    turn_deg=math.degrees(metrics.helicopter),
                ),
            )
        )
    if side is not None and isinstance(params, ThrowParams):
        lx = pitch.baseline_x(side) if line_x is None else line_x
        foot, foot_y = params.stance()
        if foot < -1e-9:
            out.append(
                Violation(
                    rules.foot_rule,
                    msg(
                        "foot fault: the front foot is {past_m:.2f} m past the throwing line at the release",
                        past_m=-foot,
                    ),
                )
            )
        elif foot - params.step_after < -1e-9:
            out.append(
                Violation(
                    rules.foot_rule,
                    msg(
                        "foot fault: the front foot steps {past_m:.2f} m past the throwing line after the release",
                        past_m=params.step_after - foot,
                    ),
                )
            )
        if abs(foot_y) > pitch.half_width + 1e-9:
            out.append(
                Violation(
                    rules.foot_rule,
                    msg(
                        "foot fault: the front foot is outside the extended sidelines (|y| = {y_m:.2f} m > "
                        "{half_width_m:.2f} m)",
                        y_m=abs(foot_y),
                        half_width_m=pitch.half_width,
                    ),
                )
            )
    elif side is not None:
        lx = pitch.baseline_x(side) if line_x is None else line_x
        x, y, _ = release.position
        if pitch.forward(side) * (x - lx) > 1e-9:
            out.append(
                Violation(
                    rules.foot_rule,
                    msg("foot fault: the release point is {past_m:.2f} m past the throwing line", past_m=abs(x - lx)),
                )
            )
        if abs(y) > pitch.half_width + 1e-9:
            out.append(
                Violation(
                    rules.foot_rule,
                    msg(
                        "foot fault: the release point is outside the extended sidelines (|y| = {y_m:.2f} m > "
                        "{half_width_m:.2f} m)",
                        y_m=abs(y),
                        half_width_m=pitch.half_width,
                    ),
                )
            )
    return out


def throw(world: World, params: ThrowParams, **kwargs: Any) -> ThrowResult:
    """Throw a baton as described by ``params`` and simulate until rest: :func:`throw_iter` run
    to its end (the same arguments, result and errors)."""
    return run_frames(throw_iter(world, params, **kwargs))


def throw_iter(
    world: World,
    params: ThrowParams,
    *,
    baton: str = "baton1",
    ruleset: str = "dm",
    max_time: float = 15.0,
    max_tilt_deg: float | None | EllipsisType = ...,
    settle_s: float | None = None,
) -> Generator[ThrowFrame, None, ThrowResult]:
    """Throw a baton as described by ``params`` and simulate until rest, yielding the
    :class:`ThrowFrame` of :func:`simulate_iter` as they are simulated; returns the
    :class:`ThrowResult`.

    Args:
        max_tilt_deg: the referee option ``max_tilt_deg`` (:mod:`kubb3d.judge.options`): the
            largest tilt out of the flight plane, deg, None for no limit; ``...`` takes the
            ruleset's (DM §5: 30°; WS basic rule 5 gives no number: none). A throw tilted more
            breaks the ruleset's tilt rule (``DM §5``, ``WS basic rule 5``).
        settle_s: the referee option ``settle_s``: how long everything must stay at rest
            before the result is taken, s (None: the world's).

    Raises:
        ThrowError: bad parameters or unknown ruleset.
        PhysicsGlitch: the simulation blew up.
    """
    rules = get_rulebook(ruleset).throw_rules
    if rules is None:
        raise ThrowError(
            f"the {ruleset} ruleset has no baton throws; expected one of {rulebook_names(baton_throws=True)}"
        )
    if max_tilt_deg is not ...:
        if max_tilt_deg is not None and not 0.0 <= max_tilt_deg <= 90.0:
            raise ThrowError(f"max_tilt_deg must be from 0 to 90 or None, got {max_tilt_deg!r}")
        rules = replace(rules, max_tilt_deg=max_tilt_deg)
    release = release_from_params(params, world.pitch)
    return (
        yield from simulate_iter(
            world,
            baton,
            release,
            kind="baton",
            params=params,
            rules=rules,
            line_x=params.line_x,
            side=params.side,
            max_time=max_time,
            settle_s=settle_s,
        )
    )


# ---------------------------------------------------------------------- aim solver
def _hermite(s: float, h: float, a: float, b: float, da: float, db: float) -> float:
    """The cubic over a step of ``h`` s with values a, b and slopes da, db (per second) at its
    ends, at the fraction ``s`` of the step."""
    s2, s3 = s * s, s * s * s
    return (2 * s3 - 3 * s2 + 1) * a + (s3 - 2 * s2 + s) * h * da + (3 * s2 - 2 * s3) * b + (s3 - s2) * h * db


def predict_flight(
    release: Release,
    drag: RodDrag | None,
    mass: float,
    dt: float,
    until_x: float,
    direction: float = 1.0,
    inertia: tuple[float, float] | None = None,
) -> tuple[float, float] | None:
    """Integrate the free flight as the world does far from everything (:class:`~kubb3d.physics.flight.Flight`: exact
    rotation, drag at the centre of mass with the long axis where it is, classical Runge–Kutta in
    steps of up to 4 ``dt``, exact for gravity alone) until the centre of mass crosses ``until_x``
    (m, moving in ``direction`` ±1 along x); the crossing is interpolated by the cubic through
    both ends of its step and their velocities.

    Args:
        release: the state at the release.
        drag: the drag model (None: none).
        mass: kg.
        dt: the world's quiet step, s (:attr:`~kubb3d.physics.world.World.quiet_dt`).
        until_x: m.
        direction: ±1.
        inertia: (I₁, I₃) kg·m² about a short axis and the long axis (None: a constant spin).

    Returns:
        (height z m, time s) at the crossing, or None if it falls below −1 m first.
    """
    f = Flight(release, mass, inertia or (1.0, 1.0), drag, dt, 4)
    for _ in range(100000):
        (x0, _, z0), (u0, _, w0) = f.p, f.v
        m = f.longest()
        f.advance(m)
        (x1, _, z1), (u1, _, w1) = f.p, f.v
        if direction * (x1 - until_x) >= 0:
            h = m * dt
            s = (until_x - x0) / (x1 - x0)
            for _ in range(3):  # Newton on x(s) = until_x (x is nearly linear in time)
                slope = (6 * s * s - 6 * s) * x0 + (3 * s * s - 4 * s + 1) * h * u0 + (6 * s - 6 * s * s) * x1
                slope += (3 * s * s - 2 * s) * h * u1
                s -= (_hermite(s, h, x0, x1, u0, u1) - until_x) / slope
            return _hermite(s, h, z0, z1, w0, w1), (f.t - m + s * m) * dt
        if z1 < -1.0:
            return None
    return None


@dataclass(frozen=True)
class AimSolution:
    """Result of :func:`aim`.

    Attributes:
        params: the throw with speed and azimuth filled in.
        flight_time: predicted time to reach the target, s.
    """

    params: ThrowParams
    flight_time: float


def unknown_target(world: World, target: str) -> ThrowError:
    """The one-line error for a target that is no piece of ``world``, listing the kubbs and king
    it could have named (a lower-case id gets a hint)."""
    choices = world.piece_ids("kubb", "king")
    hint = next((f" (did you mean {name}?)" for name in choices if name.lower() == target.lower()), "")
    return ThrowError(f"unknown target {target!r}{hint}; expected one of {', '.join(choices)}")


def aim_point(world: World, target: str) -> tuple[float, float, float]:
    """Where a thrower aims at a piece, m: a kubb's centre raised by a tenth of its height (60 %
    of the way up; kubb3d's choice, the rules say nothing), the centre of anything else.

    Raises:
        ThrowError: no piece ``target`` in the world.
    """
    if not world.has_piece(target):
        raise unknown_target(world, target)
    pos, _ = world.pose(target)
    lift = 0.1 * world.equipment.kubb.height if world.kind(target) == "kubb" else 0.0
    return (float(pos[0]), float(pos[1]), float(pos[2]) + lift)


def aim(
    world: World, target: str | tuple[float, float, float], base: ThrowParams, *, piece_kind: str = "baton"
) -> AimSolution:
    """Find the azimuth and speed that carry the thrown piece's centre of mass through the
    target with no noise (elevation, spin and tilt as in ``base``), with the world's drag and
    time step (see :func:`solve_aim`).

    A kubb target is aimed at 60 % of its height, the king at its centre; a point target
    (x, y, z in m) as given.

    Args:
        world: the world (read only).
        target: piece id or point.
        base: the throw; its speed and azimuth are replaced.
        piece_kind: ``baton`` or ``kubb`` (an inkast).

    Raises:
        ThrowError: unknown target, target behind the line, or out of reach at this elevation.
    """
    if isinstance(target, str):
        tx, ty, tz = aim_point(world, target)
    else:
        tx, ty, tz = (float(v) for v in target)
    return solve_aim(
        world.equipment,
        world.pitch,
        (tx, ty, tz),
        base,
        piece_kind=piece_kind,
        dt=world.quiet_dt,
        air_drag=world.engine.air_drag,
    )


def solve_aim(
    equipment: EquipmentSet,
    pitch: Pitch,
    target: tuple[float, float, float],
    base: ThrowParams,
    *,
    piece_kind: str = "baton",
    dt: float = DT,
    air_drag: bool = True,
) -> AimSolution:
    """The noise-free throw whose centre of mass passes through ``target`` (x, y, z in m).

    The azimuth is exact (drag acts along the velocity, so the flight stays in its vertical
    plane). The speed solves height(speed) = target height on :func:`predict_flight` (the
    drag model and time step the world applies): a secant iteration from the drag-free
    ballistic speed, to 0.01 mm, with bisection over 0.5–40 m/s as the fallback.

    Raises:
        ThrowError: target behind the line, unknown ``piece_kind``, or out of reach.
    """
    tx, ty, tz = target
    fwd = pitch.forward(base.side)
    line_x = pitch.baseline_x(base.side) if base.line_x is None else base.line_x
    rx, ry = line_x - fwd * base.behind_line, base.lateral
    dx, dy = tx - rx, ty - ry
    if fwd * dx <= 0.1:
        raise ThrowError(f"target at x={tx:.2f} m is not in front of the throwing line of side {base.side}")
    if piece_kind not in ("baton", "kubb"):
        raise ThrowError(f"piece_kind must be 'baton' or 'kubb', got {piece_kind!r}")
    azimuth = math.degrees(math.atan2(fwd * dy, fwd * dx))
    distance = math.hypot(dx, dy)
    drag = piece_drag(equipment, piece_kind) if air_drag else None
    mass = equipment.mass(piece_kind) if piece_kind == "kubb" else equipment.baton_mass
    spec = equipment.piece(piece_kind)
    inertia = None
    if hasattr(spec, "inertia_diagonal"):
        i1, _, i3 = spec.inertia_diagonal(mass)
        inertia = (i1, i3)

    memo: dict[float, tuple[float, float]] = {}

    def error(speed: float) -> tuple[float, float]:
        """(height above the target when the flight reaches it, m — very negative if it
        falls short; time, s); each speed is integrated once (the solution's is asked again)."""
        if speed in memo:
            return memo[speed]
        rel = release_from_params(replace(base, speed=speed, azimuth_deg=azimuth), pitch)
        # the flight stays in its vertical plane: turn it about the vertical onto +x, from the
        # release point, the orientation and the spin with it (the drag depends on the angle
        # between the velocity and the long axis)
        (vx, vy, vz), (wx, wy, wz) = rel.velocity, rel.angular_velocity
        half = -0.5 * math.atan2(vy, vx)
        c, s = math.cos(2 * half), math.sin(2 * half)
        planar = Release(
            (0.0, 0.0, rel.position[2]),
            (c * vx - s * vy, 0.0, vz),
            (c * wx - s * wy, s * wx + c * wy, wz),
            quat_multiply((0.0, 0.0, math.sin(half), math.cos(half)), rel.quat_xyzw),
        )
        h = predict_flight(planar, drag, mass, dt, distance, inertia=inertia)
        memo[speed] = out = (-100.0, math.nan) if h is None else (h[0] - tz, h[1])
        return out

    def done(speed: float) -> AimSolution:
        return AimSolution(replace(base, speed=speed, azimuth_deg=azimuth), error(speed)[1])

    th = math.radians(base.elevation_deg)
    rise = tz - base.height  # release heights are above a flat ground at z = 0
    denom = 2 * math.cos(th) ** 2 * (distance * math.tan(th) - rise)
    v0 = math.sqrt(GRAVITY * distance**2 / denom) if denom > 0 else 10.0
    v1 = v0 * 1.03
    e0, e1 = error(v0)[0], error(v1)[0]
    for _ in range(12):
        if abs(e1) < 1e-5 and 0.5 <= v1 <= MAX_RELEASE_SPEED:
            return done(v1)
        if e1 == e0 or e1 <= -100.0 or e0 <= -100.0:
            break
        v0, v1, e0 = v1, v1 - e1 * (v1 - v0) / (e1 - e0), e1
        if not 0.5 <= v1 <= MAX_RELEASE_SPEED:
            break
        e1 = error(v1)[0]
    lo, hi = 0.5, MAX_RELEASE_SPEED
    if error(hi)[0] < 0:
        raise ThrowError(f"target out of reach at elevation {base.elevation_deg}° (needs more than {hi} m/s)")
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        if error(mid)[0] < 0:
            lo = mid
        else:
            hi = mid
    return done(hi)


def inkast(
    world: World, kubb: str, target_xy: tuple[float, float], base: ThrowParams, *, max_time: float = 15.0
) -> ThrowResult:
    """Throw a kubb (``DM §6`` "Einwerfen", ``WS basic rule 10``) so that its centre of mass would
    land at ``target_xy`` (m) with no noise, and simulate until rest.

    The kubb is released like a baton (``base``: side, line, height, elevation, spin…), its
    long axis in the flight plane. No throwing-technique rule applies to inkasts. On grass a
    flat inkast (35°) slides and tumbles metres past its landing point; lobbed at about 60°
    with little spin it stays within ~10 cm of it (measured on ``grass``).
    The kubb is added to the world if missing; either way it now belongs to the half it is
    thrown into (``PieceState.side``).

    Raises:
        ThrowError: bad parameters or unreachable target.
    """
    target_side = opponent(base.side)
    if world.has_piece(kubb):
        world.set_side(kubb, target_side)
    else:
        world.add_piece(kubb, "kubb", (0.0, 0.0, -10.0), side=target_side, sleeping=False)
    half = world.equipment.kubb.width / 2
    sol = aim(world, (target_xy[0], target_xy[1], world.ground_height(*target_xy) + half), base, piece_kind="kubb")
    release = release_from_params(sol.params, world.pitch)
    return simulate(world, kubb, release, kind="kubb", params=sol.params, max_time=max_time)


def distance_to_king(snapshot: Snapshot, baton: str, samples: int = 41) -> float:
    """Shortest distance between a baton and the king, m (``DM §3``: the whole baton counts,
    "sowohl Mantel- als auch Deckelfläche"); the king as its bounding box. 0 when they touch.

    The baton is its flat-ended cylinder, sampled on its surface: ``samples`` rings along the
    mantle and rings on both end faces, 64 points each, so the result is within 0.05 mm of the
    exact distance for a regulation baton (a capsule, the axis widened by the radius, read 0 up
    to a few millimetres short of the king at the baton's ends).
    """
    b = snapshot[baton]
    k = snapshot["king"]
    rotation = b.rotation
    axis, u, v = rotation[:, 2], rotation[:, 0], rotation[:, 1]
    half_len, radius = b.half_extents[2], b.half_extents[0]
    angles = np.linspace(0.0, 2.0 * math.pi, 64, endpoint=False)
    ring = np.cos(angles)[:, None] * u + np.sin(angles)[:, None] * v  # (64, 3) unit directions
    along = np.linspace(-half_len, half_len, samples)
    mantle = along[:, None, None] * axis + radius * ring[None, :, :]
    radii = np.linspace(0.0, radius, 8)
    caps = np.concatenate(
        [end * half_len * axis + radii[:, None, None] * ring[None, :, :] for end in (-1.0, 1.0)]
    )
    points = np.asarray(b.position) + np.concatenate([mantle.reshape(-1, 3), caps.reshape(-1, 3)])
    local = (points - np.asarray(k.position)) @ k.rotation  # into the king's frame
    outside = np.maximum(np.abs(local) - np.asarray(k.half_extents), 0.0)
    return float(np.sqrt((outside * outside).sum(axis=1)).min())


def lag_throw(
    world: World, params: ThrowParams, *, baton: str = "baton1", ruleset: str = "dm"
) -> tuple[ThrowResult, float]:
    """The lag throw (``DM §3`` "Anwurf"): a baton thrown from the baseline to land as close to
    the king as possible without felling it.

    Returns:
        (the throw's result, the baton's distance to the king at rest in m; see
        :func:`distance_to_king`).
    """
    result = throw(world, params, baton=baton, ruleset=ruleset)
    return result, distance_to_king(result.final, baton)


# ---------------------------------------------------------------------- Kubbuteo flicks
@dataclass(frozen=True)
class FlickParams:
    """A Kubbuteo flick (rule book ``KT`` "Rules": batons and kubbs are flicked by finger): a disk
    lying flat on the board at the flicking line is struck horizontally.

    Attributes:
        side: flicker's side, ``A`` (towards +x) or ``B``.
        line_x: x of the flicking line, m (None: the side's baseline).
        lateral: y of the disk's centre, m (flick through a gap between your own baseline kubbs).
        behind_line: how far behind the flicking line the disk's centre starts, m.
        speed: speed given to the disk, m/s (> 0).
        azimuth_deg: direction from straight ahead, deg, positive left.
        spin_rps: spin about the vertical, rev/s (positive counter-clockwise seen from above).
        offset: sideways distance of the finger's contact point from the disk's centre, m
            (positive left); an off-centre strike adds spin −m·v·offset/I_z.
    """

    side: str = "A"
    line_x: float | None = None
    lateral: float = 0.0
    behind_line: float = 0.025
    speed: float = 1.5
    azimuth_deg: float = 0.0
    spin_rps: float = 0.0
    offset: float = 0.0

    def validate(self) -> None:
        """Raise ThrowError naming the first bad field."""
        _check_side_and_numbers(self, ("lateral", "behind_line", "speed", "azimuth_deg", "spin_rps", "offset"))
        if self.speed <= 0:
            raise ThrowError(f"speed must be > 0 m/s, got {self.speed}")


def release_from_flick(world: World, params: FlickParams, kind: str = "baton") -> Release:
    """The release state of a flicked disk (``kind`` ``baton`` or ``kubb``) lying flat on the board.

    Raises:
        ThrowError: bad parameters, or an equipment set without disks.
    """
    params.validate()
    eq = world.equipment
    if eq.board is None:
        raise ThrowError(f"flicks need a table-top set such as 'kubbuteo', not {eq.name!r}")
    pitch = world.pitch
    fwd_sign = pitch.forward(params.side)
    line_x = pitch.baseline_x(params.side) if params.line_x is None else params.line_x
    az = math.radians(params.azimuth_deg)
    fwd = (fwd_sign * math.cos(az), fwd_sign * math.sin(az))
    if kind == "baton":
        quat, half_thickness = (0.0, 0.0, 0.0, 1.0), eq.baton.length / 2
        radius = eq.baton.radius
    elif kind == "kubb":
        quat, half_thickness = LYING_DISK_KUBB, eq.kubb.thickness / 2
        radius = eq.kubb.radius
    else:
        raise ThrowError(f"only batons and kubbs are flicked, not {kind!r}")
    mass = eq.mass(kind)
    i_z = 0.5 * mass * radius * radius  # solid disk about its axis
    spin = 2 * math.pi * params.spin_rps - mass * params.speed * params.offset / i_z
    return Release(
        position=(line_x - fwd_sign * params.behind_line, params.lateral, half_thickness + 1e-4),
        velocity=(params.speed * fwd[0], params.speed * fwd[1], 0.0),
        angular_velocity=(0.0, 0.0, spin),
        quat_xyzw=quat,
    )


def flick(world: World, piece: str, params: FlickParams, *, kind: str = "baton", max_time: float = 15.0) -> ThrowResult:
    """Flick a disk (added to the world if missing) and simulate until everything rests.

    Raises:
        ThrowError: bad parameters.
        PhysicsGlitch: the simulation blew up.
    """
    release = release_from_flick(world, params, kind)
    return simulate(world, piece, release, kind=kind, max_time=max_time, sliding=True)


def aim_flick(
    world: World, target: str | tuple[float, float], base: FlickParams, arrive_speed: float = 0.6
) -> FlickParams:
    """Direction and speed for a flick that reaches ``target`` (a piece id or (x, y) in m) still
    moving at ``arrive_speed`` m/s, by v₀² = v² + 2 μ g d for a disk sliding on the board
    (``μ`` the ground's friction).

    Raises:
        ThrowError: unknown target or target behind the line.
    """
    if isinstance(target, str):
        if not world.has_piece(target):
            raise unknown_target(world, target)
        tx, ty = (float(v) for v in world.pose(target)[0][:2])
    else:
        tx, ty = (float(v) for v in target)
    pitch = world.pitch
    fwd = pitch.forward(base.side)
    line_x = pitch.baseline_x(base.side) if base.line_x is None else base.line_x
    dx, dy = tx - (line_x - fwd * base.behind_line), ty - base.lateral
    if fwd * dx <= 0:
        raise ThrowError(f"target at x={tx:.3f} m is not in front of the flicking line of side {base.side}")
    distance = math.hypot(dx, dy)
    speed = math.sqrt(arrive_speed**2 + 2 * world.ground.friction * GRAVITY * distance)
    return replace(base, speed=speed, azimuth_deg=math.degrees(math.atan2(fwd * dy, fwd * dx)))

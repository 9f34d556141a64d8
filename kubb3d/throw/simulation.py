"""Simulating a released piece until everything rests: the free flight, the contacts after
it, the rest, and the :class:`ThrowResult`; throws and flicks from a player's parameters."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from types import EllipsisType
from typing import Any, Callable, Generator

import numpy as np

from kubb3d.errors import ThrowError
from kubb3d.judge.rulebook import ThrowRules, get_rulebook, rulebook_names
from kubb3d.judge.options import default, option_cite
from kubb3d.physics.flight import FLIGHT_MARGIN, FreeFlight
from kubb3d.physics.rest import SAMPLE_INTERVAL
from kubb3d.physics.world import World
from kubb3d.snapshot import GROUND_ID
from kubb3d.throw.legality import HELICOPTER_SPIN_AXIS_HORIZONTAL_MIN, check_legality
from kubb3d.throw.params import FlickParams, Release, ThrowParams, release_from_flick, release_from_params, vec3
from kubb3d.throw.results import FirstContact, FlightMetrics, ThrowFrame, ThrowResult, Trajectory

DRAG_MIN_SPEED = 3.0
"""m/s: after its first contact a thrown piece gets air drag until it is slower than this
(a baton at 3 m/s feels ≈ 0.08 N of drag against 2.8 N of weight)."""


@dataclass(frozen=True)
class SimulationOptions:
    """How :func:`simulate_iter` releases a piece and follows it to rest.

    Attributes:
        kind: the piece's kind if it has to be added to the world.
        params: the player's parameters, kept in the result.
        rules: throwing rules to check (None: only measure, no violations).
        line_x: throwing line for the foot-fault check, m (None: the thrower's baseline).
        side: thrower's side for the foot-fault check (None: ``params.side``).
        max_time: simulated seconds at most.
        record_every: seconds between trajectory samples and rest checks after the first
            contact (None: :data:`~kubb3d.physics.rest.SAMPLE_INTERVAL`, 30 Hz); the free
            flight is recorded at 30 Hz.
        sliding: the piece starts on the ground (a flick): its first contact is the first
            one with anything but the ground, and the free phase ends there.
        settle_s: how long, s, everything must stay at rest before the result is taken (the
            referee option ``settle_s``, :mod:`kubb3d.judge.options`; None: the world's
            :attr:`~kubb3d.physics.rest.Rest.settle_s`).
    """

    kind: str = "baton"
    params: ThrowParams | FlickParams | None = None
    rules: ThrowRules | None = None
    line_x: float | None = None
    side: str | None = None
    max_time: float = 15.0
    record_every: float | None = None
    sliding: bool = False
    settle_s: float | None = None


def run_frames(frames: Generator[Any, None, Any]) -> Any:
    """Run a generator of frames (:func:`simulate_iter`, :func:`throw_iter`) to its end without
    looking at them; returns what it returns (the :class:`ThrowResult`)."""
    while True:
        try:
            next(frames)
        except StopIteration as stop:
            return stop.value


def simulate(
    world: World, piece: str, release: Release, options: SimulationOptions | None = None, **fields: Any
) -> ThrowResult:
    """Release ``piece`` and simulate until everything rests: :func:`simulate_iter` run to its
    end (the same arguments, result and errors)."""
    return run_frames(simulate_iter(world, piece, release, options, **fields))


def simulate_iter(
    world: World, piece: str, release: Release, options: SimulationOptions | None = None, **fields: Any
) -> Generator[ThrowFrame, None, ThrowResult]:
    """Release ``piece`` (added to the world if missing) and simulate until everything rests: a
    generator that yields a :class:`ThrowFrame` at the release, at every trajectory sample
    (:data:`~kubb3d.physics.rest.SAMPLE_INTERVAL`, 30 Hz) and at rest (``final``), and
    returns the :class:`ThrowResult`. Reading the frames changes nothing: the result is the
    same bit for bit as :func:`simulate`'s.

    The phases: the free flight far from everything (outside the engine), the flight in
    engine steps until the first contact, the contacts until everything rests, the result.

    Args:
        world: the world (modified: the piece stays where it came to rest).
        piece: id of the thrown piece (``baton1`` … or a kubb id for an inkast).
        release: its release state.
        options: how to simulate (None: the defaults of :class:`SimulationOptions`).
        fields: :class:`SimulationOptions` fields by name, replacing those of ``options``
            (``simulate_iter(world, "X1", release, kind="kubb")``).

    Raises:
        TypeError: a field :class:`SimulationOptions` does not have.
        PhysicsGlitch: the simulation blew up (NaN, piece outside the world).
    """
    opts = options or SimulationOptions()
    if fields:
        opts = replace(opts, **fields)
    if not world.has_piece(piece):
        world.add_piece(piece, opts.kind, release.position, release.quat_xyzw, sleeping=False)
    world.set_pose(
        piece,
        release.position,
        release.quat_xyzw,
        linear_velocity=release.velocity,
        angular_velocity=release.angular_velocity,
    )
    run = _Run(world, piece, opts)
    first_sample = world.rest.sample()
    yield run.sample(world.time, first_sample)
    start = {pid: (world.engine.frame_position(pid, com, q), q) for pid, (com, q) in first_sample.items()}
    flying = _Flying(release, run.t0)
    if not opts.sliding:
        gap_of = world.stepper.flight_clearance(piece)
        yield from _far_flight(run, release, flying, gap_of)
        yield from _near_flight(run, flying, gap_of)
    world.use_step(world.dt)
    touched, stats, first = yield from _until_rest(run, flying.first)
    return (yield from _result(run, release, flying, start, touched, first, bool(stats and stats.at_rest)))


class _Run:
    """What the phases of one simulation share: the world, the piece, the options, the clock
    (``t0`` the release's world time, ``end`` the time limit) and the recorder."""

    def __init__(self, world: World, piece: str, opts: SimulationOptions) -> None:
        self.world, self.piece, self.opts = world, piece, opts
        self.t0 = world.time
        self.end = self.t0 + opts.max_time - 1e-9
        self.recorder = _Recorder(world, self.t0)
        self.to_frame = world.engine.frame_position

    def sample(self, t: float, sample: dict) -> ThrowFrame:
        """Record ``sample`` {id: (centre of mass, quat)} taken at world time ``t``; its frame."""
        self.recorder.record(t, sample)
        return ThrowFrame(self.piece, t - self.t0, sample, to_frame=self.to_frame)


def _helicopter_rate(release: Release) -> Callable[[float, float, float], float]:
    """rad/s, signed, from the angular velocity (world frame): the rotation about the vertical
    besides the spin about the release spin axis (body y at the release); linear in ω."""
    rx, ry, rz, rw = release.quat_xyzw
    sx, sy, sz = 2 * (rx * ry - rz * rw), 1 - 2 * (rx * rx + rz * rz), 2 * (ry * rz + rx * rw)
    sh2 = sx * sx + sy * sy
    upright_spin = sh2 < HELICOPTER_SPIN_AXIS_HORIZONTAL_MIN
    # the horizontal normal to the spin axis and the vertical
    hx_n, hy_n = (sy / math.sqrt(sh2), -sx / math.sqrt(sh2)) if not upright_spin else (0.0, 0.0)

    def heli_rate(wx: float, wy: float, wz: float) -> float:
        if upright_spin:
            return wz
        # ω = α·spin axis + β·vertical + γ·(horizontal normal): drop γ, then α from the
        # horizontal part, β what is left of the vertical part
        g = wx * hx_n + wy * hy_n
        alpha = ((wx - g * hx_n) * sx + (wy - g * hy_n) * sy) / sh2
        return wz - alpha * sz

    return heli_rate


class _Flying:
    """The flight's measures until the first contact, carried from phase to phase: the largest
    tilt out of the flight plane (rad), the helicopter rotation (rad), the engine's step ``h``
    (s; 0 before the engine takes over), the world time of the next sample, the first contact."""

    def __init__(self, release: Release, t0: float) -> None:
        vx, vy, _ = release.velocity
        hn = math.hypot(vx, vy)
        # horizontal normal of the flight plane
        self.nx, self.ny = (-vy / hn, vx / hn) if hn > 1e-9 else (0.0, 1.0)
        self.heli_rate = _helicopter_rate(release)
        self.max_tilt = 0.0
        self.heli = 0.0
        self.h = 0.0
        self.next_record = t0 + SAMPLE_INTERVAL - 1e-9
        self.first: FirstContact | None = None


def _far_flight(run: _Run, release: Release, flying: _Flying, gap_of: Any) -> Generator[ThrowFrame, None, None]:
    """The free flight far from everything, integrated outside the engine (exact rotation, RK4
    drag: :class:`~kubb3d.physics.flight.FreeFlight`) and handed over to the engine before
    anything can be touched. Plain stepping (quiet_dt = dt) keeps the engine's flight throughout."""
    world, piece = run.world, run.piece
    quiet, fine = world.quiet_dt, world.dt
    if not (quiet > fine and world.stepper.others_at_rest(piece)):
        return
    flight = FreeFlight(world, piece, release, gap_of)
    if not flight.ok:
        return
    t0, end = run.t0, run.end
    while True:
        t = flight.t * fine
        if t0 + t >= end:
            break
        m = flight.step_for()
        if m == 0:
            break
        flight.advance(m)
        now = t0 + flight.t * fine
        if now >= flying.next_record:
            flying.next_record += SAMPLE_INTERVAL
            yield run.sample(now, {piece: (flight.p, flight.quat(flight.t * fine))})
    if flight.t:
        t = flight.t * fine
        flying.max_tilt, flying.heli = flight.max_tilt(flying.nx, flying.ny), flight.helicopter(flying.heli_rate)
        handover = flight.handover_velocity()
        world.stepper.set_flight_state(piece, t, flight.p, flight.quat(t), handover, flight.omega(t))
        world.use_step(fine)
        flying.h = fine


def _near_flight(run: _Run, flying: _Flying, gap_of: Any) -> Generator[ThrowFrame, None, None]:
    """The flight in engine steps until the first contact: steps of world.dt near the ground or
    a piece, world.quiet_dt when far again. Velocities are kept half a step ahead against
    gravity (see World.set_flight_step), so the flight does not depend on its steps either."""
    world, piece, end = run.world, run.piece, run.end
    engine, stepper = world.engine, world.stepper
    com_pose, com_velocity, contacts_of = engine.com_pose, engine.com_velocity, engine.contacts_of
    apply_drag = world.forces.apply_drag
    quiet, fine = world.quiet_dt, world.dt
    nx, ny, heli_rate = flying.nx, flying.ny, flying.heli_rate
    max_tilt, heli, h, next_record = flying.max_tilt, flying.heli, flying.h, flying.next_record
    while engine.time < end:
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
            next_record += SAMPLE_INTERVAL
            yield run.sample(world.time, {piece: com_pose(piece)})
        if far:
            # a step of at most two steps' travel left it FLIGHT_MARGIN clear of everything (it
            # moved by |v|·h, and gravity and drag change |v| by ≈ 0.05 m/s in a step): no contact
            # point can exist, and reading none costs as much as the step (≈ 1 µs)
            continue
        cps = contacts_of(piece)
        if cps:
            nearest = min(cps, key=lambda contact: (contact.distance, contact.body))
            flying.first = FirstContact(nearest.other, world.time - run.t0, vec3(nearest.position))
            break
    flying.max_tilt, flying.heli, flying.h, flying.next_record = max_tilt, heli, h, next_record


def _until_rest(
    run: _Run, first: FirstContact | None
) -> Generator[ThrowFrame, None, tuple[set[str], Any, FirstContact | None]]:
    """After the first contact (a sliding piece: from the start) until everything rests; returns
    (the pieces the thrown one touched, the rest's statistics or None, the first contact)."""
    world, piece, opts = run.world, run.piece, run.opts
    touched: set[str] = set()
    if first is None and not opts.sliding:
        return touched, None, None
    if first is not None:
        touched.add(first.piece)
    # every step (before it: the contacts of the step just taken), so no short touch is
    # missed; the same read gives the ground's normal force for the plowing, and air drag
    # until the piece first drops below DRAG_MIN_SPEED
    watch = world.forces.contact_watch(piece, drag_until=DRAG_MIN_SPEED)
    body = world.engine.pieces[piece]
    world.stepper.add_step_hook(watch.hook, watch=not watch.active, reads=body if body.roll is not None else None)
    try:
        rest = world.rest.iter_until_rest(
            max(0.0, opts.max_time - (world.time - run.t0)), sample_every=opts.record_every, settle_s=opts.settle_s
        )
        while True:
            try:
                t, sample = next(rest)
            except StopIteration as stop:
                stats = stop.value
                break
            yield run.sample(t, sample)
    finally:
        world.stepper.clear_step_hooks()
    touched |= watch.touched
    if first is None and watch.first is not None:
        other, when, pos = watch.first
        first = FirstContact(other, when - run.t0, vec3(pos))
    return touched, stats, first


def _result(
    run: _Run,
    release: Release,
    flying: _Flying,
    start: dict[str, tuple[Any, Any]],
    touched: set[str],
    first: FirstContact | None,
    at_rest: bool,
) -> Generator[ThrowFrame, None, ThrowResult]:
    """At rest: the final snapshot (yielded as the last frame), the pieces that moved, the
    broken rules and the :class:`ThrowResult`."""
    world, piece, opts = run.world, run.piece, run.opts
    metrics = FlightMetrics(flying.max_tilt, flying.heli, None if first is None else first.time)
    rest_time = world.time - run.t0
    world.settle_forces()
    final = world.snapshot()
    world.sleep_all()
    yield ThrowFrame(piece, rest_time, {pid: (p.position, p.quat_xyzw) for pid, p in final.pieces.items()}, final=True)

    for pid, (p0, q0) in start.items():
        p1, q1 = final[pid].position, final[pid].quat_xyzw
        if math.dist(p0, p1) > 0.002 or abs(sum(a * b for a, b in zip(q0, q1))) < math.cos(math.radians(1.0) / 2):
            touched.add(pid)
    moved = sorted(touched - {GROUND_ID, piece})

    standing = [pid for pid, p in final.pieces.items() if p.kind in ("kubb", "king") and pid != piece]
    if world.engine.surface.terrain is None:
        final_tilt = {pid: final[pid].tilt for pid in standing}
    else:  # from the ground under it: a kubb standing flush on a slope is upright (docs/physics.md
        # "Setting up on uneven ground")
        tilt = world.engine.surface.tilt_on_ground
        final_tilt = {pid: tilt(final[pid].kind, final[pid].position, final[pid].quat_xyzw) for pid in standing}
    params = opts.params
    side = opts.side or (params.side if params else None)
    rules = opts.rules
    violations = check_legality(metrics, release, rules, world.pitch, side, opts.line_x, params) if rules else []
    trajectory = run.recorder.trajectory(keep={piece, *moved})
    return ThrowResult(
        piece, release, params, metrics, violations, first, moved, trajectory, final, rest_time, at_rest, final_tilt
    )


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


def throw(world: World, params: ThrowParams, **kwargs: Any) -> ThrowResult:
    """Throw a baton as described by ``params`` and simulate until rest: :func:`throw_iter` run
    to its end (the same arguments, result and errors)."""
    return run_frames(throw_iter(world, params, **kwargs))



def throw_rules_for(
    ruleset: str, *, max_tilt_deg: float | None | EllipsisType = ..., helicopter_limit: float | None = None
) -> ThrowRules:
    """The throwing rules a baton throw under ``ruleset`` is checked by, with the referee options
    ``max_tilt_deg`` (``...``: the ruleset's) and ``helicopter_limit`` (None: the ruleset's). A
    limit other than the rule book's default is cited as the option (``option max_tilt_deg=45``),
    not as the clause whose number it replaces (DM §5 says 30°).

    Raises:
        ThrowError: a limit out of range, or a ruleset without baton throws.
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
        if max_tilt_deg != default("max_tilt_deg", ruleset):  # a foul is the option's, not the clause's
            rules = replace(rules, tilt_rule=option_cite("max_tilt_deg", max_tilt_deg))
    if helicopter_limit is not None:
        if not 0.0 <= helicopter_limit <= 360.0:
            raise ThrowError(f"helicopter_limit must be from 0 to 360 degrees, got {helicopter_limit!r}")
        rules = replace(rules, helicopter_limit_deg=helicopter_limit)
        if helicopter_limit != default("helicopter_limit", ruleset):
            rules = replace(rules, helicopter_rule=option_cite("helicopter_limit", helicopter_limit))
    return rules


def throw_iter(
    world: World,
    params: ThrowParams,
    *,
    baton: str = "baton1",
    ruleset: str = "dm",
    max_time: float = 15.0,
    max_tilt_deg: float | None | EllipsisType = ...,
    helicopter_limit: float | None = None,
    settle_s: float | None = None,
    line_x: float | None = None,
) -> Generator[ThrowFrame, None, ThrowResult]:
    """Throw a baton as described by ``params`` and simulate until rest, yielding the
    :class:`ThrowFrame` of :func:`simulate_iter` as they are simulated; returns the
    :class:`ThrowResult`.

    Args:
        max_tilt_deg: the referee option ``max_tilt_deg`` (:mod:`kubb3d.judge.options`): the
            largest tilt out of the flight plane, deg, None for no limit; ``...`` takes the
            ruleset's (DM §5: 30°; WS basic rule 5 gives no number: none). A throw tilted more
            breaks the ruleset's tilt rule (``DM §5``, ``WS basic rule 5``).
        helicopter_limit: the referee option ``helicopter_limit``: the most turn about the
            vertical before the first contact, deg, that is no helicopter throw where the ruleset
            forbids one (WS basic rule 5); None takes the ruleset's (VM 2019: 90°).
        settle_s: the referee option ``settle_s``: how long everything must stay at rest
            before the result is taken, s (None: the world's).
        line_x: the line the thrower may throw from, m, for the foot-fault check (None:
            ``params.line_x``). A match passes its action's line, so that parameters claiming a
            line nearer the centre than the one allowed are a foot fault (WS basic rule 7, DM §5).

    Raises:
        ThrowError: bad parameters or unknown ruleset.
        PhysicsGlitch: the simulation blew up.
    """
    rules = throw_rules_for(ruleset, max_tilt_deg=max_tilt_deg, helicopter_limit=helicopter_limit)
    release = release_from_params(params, world.pitch)
    return (
        yield from simulate_iter(
            world,
            baton,
            release,
            SimulationOptions(
                kind="baton",
                params=params,
                rules=rules,
                line_x=params.line_x if line_x is None else line_x,
                side=params.side,
                max_time=max_time,
                settle_s=settle_s,
            ),
        )
    )


def flick(world: World, piece: str, params: FlickParams, *, kind: str = "baton", max_time: float = 15.0) -> ThrowResult:
    """Flick a disk (added to the world if missing) and simulate until everything rests.

    Raises:
        ThrowError: bad parameters.
        PhysicsGlitch: the simulation blew up.
    """
    release = release_from_flick(world, params, kind)
    return simulate(world, piece, release, SimulationOptions(kind=kind, max_time=max_time, sliding=True))

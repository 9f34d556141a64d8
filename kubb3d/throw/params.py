"""What a player chooses for a throw or a flick, and the release state it gives the piece.

Units: SI, except the :class:`ThrowParams` and :class:`FlickParams` fields whose names say
degrees (``_deg``) or revolutions per second (``_rps``). Forward is +x for side A, −x for
side B; azimuths are measured from it, positive to the thrower's left.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Callable

import numpy as np
from kubb3d.linear import norm3

from kubb3d.equipment import LYING_DISK_KUBB, DiskPiece
from kubb3d.errors import ThrowError
from kubb3d.judge.messages import msg
from kubb3d.physics.poses import quaternion_from_euler
from kubb3d.physics.world import World
from kubb3d.pitch import Pitch
from kubb3d.ranges import Range, expected, span
from kubb3d.throw_bounds import MAX_RELEASE_SPEED as MAX_RELEASE_SPEED
from kubb3d.throw_bounds import STEP_AFTER_RANGE, THROW_RANGES


HAND_AHEAD_OF_FOOT = 0.40
"""m: how far in front of the toe of the front foot the hand releases an underhand throw by
default (a stance of one step with the arm swinging through; kubb3d's assumption)."""
ARM_REACH = 1.0
"""m: the farthest a release point may be from the front foot, horizontally."""


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

    The numbers' allowed values are :data:`kubb3d.throw_bounds.THROW_RANGES` (those of
    ``kubb3d throw`` and of an experiment spec's ``[throw]``).

    Raises:
        ThrowError: a field out of its allowed values, named in one line (:meth:`validate`).
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
        return stance(self.behind_line, self.lateral, self.foot_behind_line, self.foot_lateral)

    def __post_init__(self) -> None:
        self.validate()

    def check_fields(self) -> None:
        """Raise ThrowError naming the first field out of its allowed values: ``side`` A or B,
        each number of :data:`~kubb3d.throw_bounds.THROW_RANGES` within its range (the bounds of
        ``kubb3d throw`` and of an experiment spec's ``[throw]``: one table), ``line_x``,
        ``foot_behind_line`` and ``foot_lateral`` finite or None, ``step_after`` within
        :data:`~kubb3d.throw_bounds.STEP_AFTER_RANGE`."""
        _check_side(self)
        for name, rng in THROW_RANGES.items():
            _check_in(name, getattr(self, name), rng)
        for name in ("line_x", "foot_behind_line", "foot_lateral"):
            v = getattr(self, name)
            if v is not None and not _finite(v):
                raise ThrowError(msg("{name} must be a finite number or None, got {got}", name=name, got=repr(v)))
        _check_in("step_after", self.step_after, STEP_AFTER_RANGE)

    def validate(self) -> None:
        """Raise ThrowError naming the first bad field (:meth:`check_fields`), or a release point
        out of arm's reach of the stance. Run when a ThrowParams is made (``replace`` too): a
        ThrowParams that exists can be thrown (``line_x`` on the pitch is checked by the
        command line, which knows the pitch)."""
        self.check_fields()
        reach_error = out_of_reach(self.behind_line, self.lateral, self.foot_behind_line, self.foot_lateral,
                                   ("behind_line", "lateral", "foot_behind_line", "foot_lateral"))
        if reach_error:
            raise ThrowError(reach_error)


def stance(behind_line: float, lateral: float, foot_behind_line: float | None,
           foot_lateral: float | None) -> tuple[float, float]:
    """(toe of the front foot behind the line m, its y m) for a release ``behind_line`` m behind
    the line at y = ``lateral`` m: the foot's own numbers, or :data:`HAND_AHEAD_OF_FOOT` behind
    the release and in line with it where they are None."""
    foot = behind_line + HAND_AHEAD_OF_FOOT if foot_behind_line is None else foot_behind_line
    return float(foot), float(lateral if foot_lateral is None else foot_lateral)


def out_of_reach(behind_line: float, lateral: float, foot_behind_line: float | None, foot_lateral: float | None,
                 names: tuple[str, ...]) -> str | None:
    """The error line when the release point is beyond :data:`ARM_REACH` of the front foot
    (:func:`stance`), naming ``names``: what the caller lets set the two (field names, or a
    command line's options); None when within reach or when a number is not finite (its own
    check names it)."""
    foot, foot_y = stance(behind_line, lateral, foot_behind_line, foot_lateral)
    reach = math.hypot(foot - behind_line, foot_y - lateral)
    if not reach > ARM_REACH:
        return None
    return msg("the release point must be within arm's reach ({reach:.1f} m) of the front foot, got {got:.2f} m "
               "({names})", reach=ARM_REACH, got=reach, names=", ".join(names))


def _finite(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, float)) and math.isfinite(v)


def _check_in(name: str, value: Any, rng: Range) -> None:
    """ThrowError ``<name>: expected <range>, got <value>`` unless ``value`` is a number within ``rng``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ThrowError(expected(name, span(), repr(value)))
    if not (math.isfinite(value) and rng.ok(value)):
        raise ThrowError(expected(name, rng.text, rng.outside(value)))


def _check_side(params: Any) -> None:
    if params.side not in ("A", "B"):
        raise ThrowError(expected("side", msg("A or B"), repr(params.side)))


def _check_side_and_numbers(params: Any, names: tuple[str, ...]) -> None:
    """ThrowError unless ``params.side`` is A or B and every named field is a finite number
    (``line_x`` too, when set)."""
    _check_side(params)
    for name in names:
        value = getattr(params, name)
        if not _finite(value):
            raise ThrowError(f"{name} must be a finite number, got {value!r}")
    if params.line_x is not None and not _finite(params.line_x):
        raise ThrowError(f"line_x must be a finite number, got {params.line_x!r}")


def vec3(values: Any) -> tuple[float, float, float]:
    """The three numbers of a point or vector (a sequence or an array of shape (3,)) as floats."""
    x, y, z = (float(v) for v in values)
    return (x, y, z)


def _frame(forward: np.ndarray, tilt: float, release_angle: float) -> tuple[np.ndarray, np.ndarray]:
    """Baton orientation matrix and spin axis for a flight direction (unit, horizontal)."""
    z = np.array((0.0, 0.0, 1.0))
    normal = np.cross(z, forward)  # plane normal; +spin about it turns the top forward
    # roll the flight plane's frame about the forward direction by the tilt
    c, s = math.cos(tilt), math.sin(tilt)
    up_t = c * z - s * normal
    normal_t = c * normal + s * z
    axis = math.cos(release_angle) * forward + math.sin(release_angle) * up_t
    e3 = axis / norm3(axis)
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


def _heading(params: ThrowParams, pitch: Pitch) -> tuple[np.ndarray, np.ndarray]:
    """(the horizontal unit vector of the throw's azimuth, the unit vector of its release
    velocity), shape (3,) each."""
    fwd_sign = pitch.forward(params.side)
    az = math.radians(params.azimuth_deg)
    forward = np.array((fwd_sign * math.cos(az), fwd_sign * math.sin(az), 0.0))
    el = math.radians(params.elevation_deg)
    return forward, math.cos(el) * forward + np.array((0.0, 0.0, math.sin(el)))


def release_from_params(params: ThrowParams, pitch: Pitch, ground_z: float = 0.0) -> Release:
    """Turn a player's throw description into a :class:`Release`.

    Raises:
        ThrowError: see :meth:`ThrowParams.validate`.
    """
    params.validate()
    fwd_sign = pitch.forward(params.side)
    line_x = pitch.baseline_x(params.side) if params.line_x is None else params.line_x
    forward, heading = _heading(params, pitch)
    velocity = params.speed * heading
    matrix, spin_axis = _frame(forward, math.radians(params.tilt_deg), math.radians(params.release_angle_deg))
    omega = 2 * math.pi * params.spin_rps * spin_axis + np.array((0.0, 0.0, 2 * math.pi * params.helicopter_rps))
    position = (line_x - fwd_sign * params.behind_line, params.lateral, ground_z + params.height)
    return Release(
        position=vec3(position),
        velocity=vec3(velocity),
        angular_velocity=vec3(omega),
        quat_xyzw=_quat_from_matrix(matrix),
    )


def release_at_speeds(params: ThrowParams, pitch: Pitch) -> Callable[[float], Release]:
    """``speed ↦ release_from_params(replace(params, speed=speed), pitch)``, the same floats, with
    what does not depend on the speed (the orientation, the spin, the release point, the
    direction) worked out at the first call (an aim solver tries many speeds).

    Raises:
        ThrowError: as :func:`release_from_params` (the first call checks every field, the
            others the speed).
    """
    known: list[tuple[Release, np.ndarray]] = []

    def at(speed: float) -> Release:
        if not known:
            first = replace(params, speed=speed)
            release = release_from_params(first, pitch)
            known.append((release, _heading(first, pitch)[1]))
            return release
        _check_in("speed", speed, THROW_RANGES["speed"])  # the check ThrowParams makes of the speed
        release, heading = known[0]
        return Release(release.position, vec3(speed * heading), release.angular_velocity, release.quat_xyzw)

    return at


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


def flick_behind(pitch: Pitch, side: str, line_x: float, radius: float,
                 wanted: float = FlickParams.behind_line) -> float:
    """How far behind the flicking line ``line_x`` of ``side`` a disk of ``radius`` (m) starts,
    m (:attr:`FlickParams.behind_line`): ``wanted`` where the board leaves room behind that for
    the whole disk, else as far back as keeps the whole disk on the board, and 0 (its centre on
    the line, the disk overhanging the board's end) where not even that is left. A line can lie
    between the baseline and the board's end (``KT rules``: the field kubb closest to the king
    "represents that player's baseline"), and a disk laid down beyond the end would fall off
    before it is flicked (kubb3d's decision, :mod:`kubb3d.rules.kubbuteo`)."""
    room = pitch.forward(side) * line_x + pitch.length / 2  # from the line back to the board's end
    return max(0.0, min(wanted, room - radius))


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
        if not isinstance(eq.kubb, DiskPiece):
            raise ThrowError(f"flicks need disk kubbs, and the {eq.name!r} set has blocks")
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

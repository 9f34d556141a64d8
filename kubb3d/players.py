"""Simulated players: a skill model (release noise) and a strategy.

Skill model. A player intends a noise-free throw (found by :func:`fast_aim`) and releases
it with Gaussian errors, one standard deviation per release parameter:

================  =======================  ===========================================
parameter         unit                     effect
================  =======================  ===========================================
``speed_rel_sd``  fraction of the speed    long / short
``elevation_sd``  deg                      long / short, high / low
``azimuth_sd``    deg                      left / right (8 m × 1° ≈ 14 cm)
``spin_sd``       rev/s                    how the baton arrives (flat or upright)
``tilt_sd``       deg                      the baton's lean out of its flight plane
================  =======================  ===========================================

Presets (:data:`SKILLS`) are calibrated with ``kubb3d calibrate`` (docs/calibration.md) against
the fraction of 8 m baseline kubbs felled per baton: competitive players knock down about
42 % (docs/physics.md "Reference numbers"); ``elite`` aims at 40–45 %, ``club`` at 20–30 %,
``novice`` below that. The measured figures are in the preset docstrings.

Kubbuteo (rule book ``KT``) flickers use :class:`FlickSkill` noise (speed, azimuth, spin) under the
same preset names (:data:`FLICK_SKILLS`); they aim with :func:`kubb3d.throw.aim_flick`, flick
from the baseline through a gap between their own kubbs (the nearest one whose straight path
gives the king a berth of three standard deviations of their direction error), prefer targets
such a path reaches, return kubbs to a group past the centre line beside the king, aimed inside
the receiving half by their own spread, and flick firmly at the king (:class:`Strategy`).
Measured over 50 club-vs-club matches: docs/speed.md "Fifth round".

Strategy (:class:`Player`), kubb3d's choices where the rules leave the player free:

* Baton targets: a standing field kubb first (``DM §5``, WS basic rule 8), the one nearest
  the throwing line; then the baseline kubbs; the thrower stands behind the line in line
  with the target (``lateral``) so that every throw is straight.
* Inkast (``DM §6``): lobbed kubbs aimed at a tight group 1.3–1.6 m beyond the centre line,
  1 m to the side of the king (close to the thrower's own line next turn, away from the
  king so as not to fell it early).
* Penalty kubbs: thrown (DM) or placed (WS) by the receiving side deep in its own half near
  a sideline; the inkaster's alternating throws aim like an inkast.
* Stößel (``DM §7``): placed by the inkaster next to the group, near the centre line.
* Lag throw: aimed to land 0.25 m short of the king. Lag winner opens; tie-break decider
  winner takes the tie-break advantage; a tie-break baseline kubb is picked in id order.
* The king: thrown at as soon as the rules allow (they force it, ``DM §10``).

All randomness comes from a passed :class:`numpy.random.Generator`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Mapping, Sequence

import numpy as np

from kubb3d.equipment import EquipmentSet
from kubb3d.errors import MatchSetupError, PlayerError, UnknownNameError
from kubb3d.pitch import Pitch
from kubb3d.ranges import did_you_mean, listed, unknown_name
from kubb3d.throw import FlickParams, ThrowParams, flick_behind, solve_aim


@dataclass(frozen=True)
class Skill:
    """Release noise of a player (standard deviations; see the module table).

    Attributes:
        name: preset name.
        speed_rel_sd: relative speed error (0.03 = 3 %).
        elevation_sd_deg: deg.
        azimuth_sd_deg: deg.
        spin_sd_rps: rev/s.
        tilt_sd_deg: deg.
    """

    name: str
    speed_rel_sd: float
    elevation_sd_deg: float
    azimuth_sd_deg: float
    spin_sd_rps: float
    tilt_sd_deg: float

    def __post_init__(self) -> None:
        for f in ("speed_rel_sd", "elevation_sd_deg", "azimuth_sd_deg", "spin_sd_rps", "tilt_sd_deg"):
            v = getattr(self, f)
            if not (math.isfinite(v) and v >= 0):
                raise PlayerError(f"{f} must be a finite number >= 0, got {v!r}")

    def perturb(self, params: ThrowParams, rng: np.random.Generator) -> ThrowParams:
        """The intended throw with release noise (draws 5 normals from ``rng``)."""
        z = rng.standard_normal(5)
        speed = max(0.5, params.speed * (1.0 + self.speed_rel_sd * z[0]))
        elev = float(np.clip(params.elevation_deg + self.elevation_sd_deg * z[1], -80.0, 80.0))
        return replace(
            params,
            speed=float(speed),
            elevation_deg=elev,
            azimuth_deg=float(params.azimuth_deg + self.azimuth_sd_deg * z[2]),
            spin_rps=float(np.clip(params.spin_rps + self.spin_sd_rps * z[3], -19.0, 19.0)),
            tilt_deg=float(params.tilt_deg + self.tilt_sd_deg * z[4]),
        )


SKILLS: dict[str, Skill] = {
    "novice": Skill("novice", 0.0375, 1.875, 1.2, 0.30, 6.75),
    "club": Skill("club", 0.0255, 1.275, 0.68, 0.2125, 5.1),
    "elite": Skill("elite", 0.018, 0.9, 0.43, 0.15, 4.0),
}
"""Named presets. Measured with ``kubb3d calibrate --throws 400 --seed 7`` at the
physics default (DM pitch, ``dm-small``, grass; kubbs felled per baton at 8 m, 95 % interval):
elite 0.410 (164 of 400, 0.36–0.46), club 0.225 (0.18–0.27), novice 0.102 (0.07–0.13).
Re-tuned for the converged physics (1/960 s contacts, plowing): the presets of the first
version (tuned at 1/240 s) gave elite 0.410, club 0.177, novice 0.058 there; elite kept its
noise, club's and novice's standard deviations were all scaled by 0.85 and 0.75 (scales
tried: club 0.8 → 0.237, 0.7 → 0.300; novice 0.6 → 0.160)."""


@dataclass(frozen=True)
class FlickSkill:
    """Release noise of a Kubbuteo flicker (rule book ``KT``: disks flicked by finger), standard
    deviations of the flick's parameters (:class:`~kubb3d.throw.FlickParams`).

    Attributes:
        name: preset name.
        speed_rel_sd: relative speed error (a disk slides v²/(2μg): 5 % in speed is 10 % in
            distance).
        azimuth_sd_deg: direction error, deg (over the 0.9 m from baseline to baseline, 1° ≈ 16 mm,
            half a disk's width).
        spin_sd_rps: spin about the vertical from an off-centre strike, rev/s.
    """

    name: str
    speed_rel_sd: float
    azimuth_sd_deg: float
    spin_sd_rps: float

    def __post_init__(self) -> None:
        for f in ("speed_rel_sd", "azimuth_sd_deg", "spin_sd_rps"):
            v = getattr(self, f)
            if not (math.isfinite(v) and v >= 0):
                raise PlayerError(f"{f} must be a finite number >= 0, got {v!r}")

    def perturb(self, params, rng: np.random.Generator):
        """The intended flick with noise (draws 3 normals from ``rng``)."""
        z = rng.standard_normal(3)
        return replace(
            params,
            speed=float(max(0.05, params.speed * (1.0 + self.speed_rel_sd * z[0]))),
            azimuth_deg=float(params.azimuth_deg + self.azimuth_sd_deg * z[1]),
            spin_rps=float(params.spin_rps + self.spin_sd_rps * z[2]),
        )


FLICK_SKILLS: dict[str, FlickSkill] = {
    "novice": FlickSkill("novice", 0.12, 9.0, 1.0),
    "club": FlickSkill("club", 0.08, 4.5, 0.6),
    "elite": FlickSkill("elite", 0.05, 1.8, 0.3),
}
"""Flick presets under the same names as :data:`SKILLS`, set by hand so that the fraction of
baseline kubbs knocked per flick resembles Kubb's (elite ≈ 42 %, docs/physics.md "Reference
numbers"; ``KT`` gives no figures). Measured (:data:`FLICK_CALIBRATION`) with ``kubb3d
calibrate`` (:func:`kubb3d.calibrate.flick_trial`): 60 flicks per preset from A's baseline at
B1…B5 in turn, each on a fresh standard board, aimed by :meth:`Player.baton_flick`; a flick
counts every B kubb it topples. The azimuth noise dominates: elite with 0.8° knocked 0.82 per
flick (first version)."""

FLICK_CALIBRATION: dict[str, tuple[float, float]] = {
    "elite": (0.517, 0.000),
    "club": (0.333, 0.000),
    "novice": (0.350, 0.033),
}
"""Preset → (baseline kubbs knocked per flick, fraction of flicks that knocked the king), from
60 flicks each (docs/calibration.md: the knocked rate ±0.13, the king share 0.00–0.06 for club
and elite, 0.01–0.11 for novice at 95 %); see :data:`FLICK_SKILLS`. Before the players gave their
own king a berth (:class:`Strategy` ``king_clearance_sd``) the king share was 0.08–0.13 per flick,
which is why simulated Kubbuteo matches often ended by an early king."""


def get_flick_skill(name: str) -> FlickSkill:
    """A flick preset by name. Raises UnknownNameError listing the known ones."""
    try:
        return FLICK_SKILLS[name]
    except KeyError:
        raise UnknownNameError(unknown_name("skill", name, FLICK_SKILLS)) from None


def get_skill(name: str) -> Skill:
    """A preset by name. Raises UnknownNameError listing the known ones."""
    try:
        return SKILLS[name]
    except KeyError:
        raise UnknownNameError(unknown_name("skill", name, SKILLS)) from None


# ---------------------------------------------------------------------- aiming
def fast_aim(
    equipment: EquipmentSet,
    pitch: Pitch,
    target: tuple[float, float, float],
    base: ThrowParams,
    *,
    kind: str = "baton",
    dt: float = 1.0 / 240.0,
    air_drag: bool = True,
) -> ThrowParams:
    """The noise-free throw whose centre of mass passes through ``target`` (x, y, z, m):
    :func:`kubb3d.throw.solve_aim` (the world's flight model, drag and time step), cached.

    Raises:
        ThrowError: the target is not in front of the throwing line, or out of reach.
    """
    return _aim_cached(equipment, pitch, tuple(round(float(v), 6) for v in target), base, kind, dt, air_drag)


@lru_cache(maxsize=4096)
def _aim_cached(equipment, pitch, target, base, kind, dt, air_drag) -> ThrowParams:
    return solve_aim(equipment, pitch, target, base, piece_kind=kind, dt=dt, air_drag=air_drag).params


# ---------------------------------------------------------------------- strategy
@dataclass(frozen=True)
class Style:
    """A player's intended release (before noise).

    Attributes:
        height: release height, m.
        elevation_deg: baton throws, deg.
        spin_rps: end-over-end spin of a baton, rev/s (forward).
        behind_line: release distance behind the line, m.
        inkast_elevation_deg: lobbed inkasts, deg.
        inkast_spin_rps: rev/s.
    """

    height: float = 0.5
    elevation_deg: float = 22.0
    spin_rps: float = 1.5
    behind_line: float = 0.1
    inkast_elevation_deg: float = 55.0
    inkast_spin_rps: float = 0.3


@dataclass(frozen=True)
class Strategy:
    """How a simulated player chooses where the rules leave him free: a named, swappable part of
    a :class:`Player` (:data:`STRATEGIES`).

    Attributes:
        name: registry name.
        field_order: which standing field kubb to throw at first: ``nearest`` (nearest the
            throwing line) or ``cluster`` (the one with most standing field kubbs within
            :data:`CLUSTER_RADIUS` of it, a baton may take several; then nearest).
        inkast_depth_m: distance of the inkast group's first row beyond the centre line, m
            (kept 0.5 m inside the opponent's baseline).
        inkast_side_m: lateral offset of the group from the pitch's long axis, m (away from the
            king so as not to fell it).
        lag_short_m: the lag throw aims this far short of the king, m.
        return_depth_m: Kubbuteo (``KT rules``): the least distance of the returned kubbs' first
            row past the centre line, m (deeper where the returner's spread needs it,
            ``return_margin_sd``).
        return_side_m: Kubbuteo: the returned kubbs' lane beside the king: no return is aimed
            nearer the board's long axis (and the king on it), m. Field kubbs nearer the king
            bring early kings: with 0.14 m, 3 of the first 13 club matches ended by one
            (docs/speed.md "Fifth round").
        king_clearance_sd: Kubbuteo: a flick past the king starts where its straight path
            passes the king with at least this many standard deviations of the flicker's
            direction error to spare (beyond the two radii): from the baseline the nearest such
            gap between own kubbs, else the one with the widest berth (:meth:`Player.flick_start`).
        return_margin_sd: Kubbuteo: a returned kubb is aimed at least this many standard
            deviations of the flicker's own spread inside the receiving half (``KT rules``: short
            of the centre line or off the board is a misflick): its slide (2 × the relative speed
            error × the distance, since a slide goes as v²) from the centre line, its sideways
            error (the direction error over the distance) from the long edge
            (:meth:`Player.return_target`).
        king_arrive_mps: Kubbuteo: a flick at the king is aimed to reach it still moving at this
            speed, m/s (a firm flick: measured, a club flick that touches the king topples it 8
            times in 12 at 0.7 m/s, 11 in 12 at 1.0 and 1.5 m/s, 12 in 12 at 2.0 m/s;
            docs/speed.md "Fifth round").
        description: one line for ``--help`` and reports.
    """

    name: str
    field_order: str = "nearest"
    inkast_depth_m: float = 1.3
    inkast_side_m: float = 0.9
    lag_short_m: float = 0.25
    return_depth_m: float = 0.12
    return_side_m: float = 0.2
    king_clearance_sd: float = 3.0
    return_margin_sd: float = 1.5
    king_arrive_mps: float = 2.0
    description: str = ""

    def __post_init__(self) -> None:
        if self.field_order not in ("nearest", "cluster"):
            raise PlayerError(
                f"strategy {self.name!r}: field_order must be 'nearest' or 'cluster', got {self.field_order!r}"
            )
        for f in (
            "inkast_depth_m",
            "inkast_side_m",
            "lag_short_m",
            "return_depth_m",
            "return_side_m",
            "king_clearance_sd",
            "return_margin_sd",
            "king_arrive_mps",
        ):
            v = getattr(self, f)
            if not (math.isfinite(v) and v >= 0):
                raise PlayerError(f"strategy {self.name!r}: {f} must be a finite number >= 0, got {v!r}")


CLUSTER_RADIUS = 0.35
"""m: field kubbs this close to each other (centre to centre) count as one cluster."""

RETURN_SPACING = 0.035
"""m: spacing of the columns of a Kubbuteo return group across the board (a standing kubb is
1.25 in = 31.75 mm across, ``KT`` "Equipment"; kubb3d's choice)."""

RETURN_ROW = 0.025
"""m: spacing of the rows of a Kubbuteo return group along the board (a standing kubb is 0.3 in
= 7.6 mm thick that way, ``KT`` "Equipment"; kubb3d's choice)."""

STRATEGIES: dict[str, Strategy] = {
    s.name: s
    for s in (
        Strategy(
            "default",
            description="field kubbs nearest the line first; inkast a tight group 1.3 m past the centre line, "
            "0.9 m beside the king; lag 0.25 m short of the king",
        ),
        Strategy(
            "deep-inkast",
            inkast_depth_m=2.6,
            description="as default, but the inkast group lands deep, 2.6 m past the centre line",
        ),
        Strategy(
            "cluster-first",
            field_order="cluster",
            description="as default, but the field kubb with most neighbours is thrown at first",
        ),
    )
}
"""Named strategies; ``default`` is what every simulated player did before strategies had names."""


def get_strategy(name: str) -> Strategy:
    """A strategy by name. Raises UnknownNameError listing the known ones."""
    try:
        return STRATEGIES[name]
    except KeyError:
        raise UnknownNameError(f"unknown strategy {name!r}"
            f"{did_you_mean(name, sorted(STRATEGIES))}; expected one of {listed(sorted(STRATEGIES))}") from None


@dataclass(frozen=True)
class Player:
    """A simulated player (or WS team): skill and strategy.

    Attributes:
        name: player or team name.
        skill: release noise.
        style: intended release.
        team_size: players in a WS team (for reporting only; the skill is the team's).
        flick: Kubbuteo flick noise (None: not a table-top player).
        strategy: the choices the rules leave free (:data:`STRATEGIES`).
    """

    name: str
    skill: Skill
    style: Style = field(default_factory=Style)
    team_size: int = 1
    flick: FlickSkill | None = None
    strategy: Strategy = STRATEGIES["default"]

    # -------------------------------------------------------------- batons
    def choose_target(self, side: str, kubbs: Sequence[tuple[str, bool, Sequence[float], bool]], line_x: float) -> str:
        """Pick the kubb to throw at.

        Args:
            side: thrower's side.
            kubbs: (id, is_baseline, position m, physically upright) for every kubb that counts
                as standing in the opponent's half.
            line_x: throwing line, m.

        Returns:
            A kubb id: field kubbs first (``DM §5``); among them the strategy's order
            (:attr:`Strategy.field_order`), then nearest the line; upright ones preferred.

        Raises:
            PlayerError: no kubbs.
        """
        if not kubbs:
            raise PlayerError("no kubbs to throw at")
        field_xy = [(pos[0], pos[1]) for _, base, pos, _ in kubbs if not base]
        cluster = self.strategy.field_order == "cluster"

        def key(k):
            kid, base, pos, upright = k
            near = (
                sum(1 for x, y in field_xy if math.hypot(x - pos[0], y - pos[1]) < CLUSTER_RADIUS)
                if cluster and not base
                else 0
            )
            return (base, not upright, -near, abs(pos[0] - line_x), abs(pos[1]), kid)

        return min(kubbs, key=key)[0]

    def baton_throw(
        self,
        equipment: EquipmentSet,
        pitch: Pitch,
        side: str,
        line_x: float,
        target: tuple[float, float, float],
        rng: np.random.Generator,
        *,
        dt: float = 1.0 / 240.0,
    ) -> tuple[ThrowParams, ThrowParams]:
        """(intended, released) parameters for a baton thrown at ``target`` (x, y, z m) from
        the line ``line_x`` (``DM §8``); the thrower stands in line with the target."""
        st = self.style
        lateral = float(np.clip(target[1], -pitch.half_width + 0.05, pitch.half_width - 0.05))
        base = ThrowParams(
            side=side,
            line_x=line_x,
            lateral=lateral,
            behind_line=st.behind_line,
            height=st.height,
            elevation_deg=st.elevation_deg,
            spin_rps=st.spin_rps,
        )
        intended = fast_aim(equipment, pitch, target, base, dt=dt)
        return intended, self.skill.perturb(intended, rng)

    def lag_throw(
        self, equipment: EquipmentSet, pitch: Pitch, side: str, rng: np.random.Generator, *, dt: float = 1.0 / 240.0
    ) -> tuple[ThrowParams, ThrowParams]:
        """A lag throw (``DM §3``) aimed to land :attr:`Strategy.lag_short_m` (0.25 m) short of the king."""
        f = pitch.forward(side)
        target = (-f * self.strategy.lag_short_m, 0.0, equipment.baton.radius)
        return self.baton_throw(equipment, pitch, side, pitch.baseline_x(side), target, rng, dt=dt)

    # -------------------------------------------------------------- kubbs
    def inkast_target(self, pitch: Pitch, side: str, index: int) -> tuple[float, float]:
        """Where the ``index``-th kubb of an inkast should land (x, y m), in the opponent's
        half: a group beyond the centre line, beside the king (module doc)."""
        f = pitch.forward(side)
        row, col = divmod(index, 3)
        st = self.strategy
        x = f * min(st.inkast_depth_m + 0.3 * row, pitch.length / 2 - 0.5)
        y = min(st.inkast_side_m + 0.3 * col, pitch.half_width - 0.3)
        return (x, y)

    def penalty_target(self, pitch: Pitch, from_side: str, receiving: bool, index: int) -> tuple[float, float]:
        """Aim point of a DM penalty throw from ``from_side``'s baseline (``DM §6``): the
        receiving side throws it deep into its own half; the inkaster like an inkast."""
        if not receiving:
            return self.inkast_target(pitch, from_side, index)
        f = pitch.forward(from_side)
        return (f * (pitch.length / 2 - 0.9), -(pitch.half_width - 0.8))

    def kubb_throw(
        self,
        equipment: EquipmentSet,
        pitch: Pitch,
        from_side: str,
        target_xy: tuple[float, float],
        rng: np.random.Generator,
        *,
        dt: float = 1.0 / 240.0,
    ) -> tuple[ThrowParams, ThrowParams]:
        """(intended, released) parameters of a kubb lobbed from ``from_side``'s baseline."""
        st = self.style
        lateral = float(np.clip(target_xy[1], -pitch.half_width + 0.05, pitch.half_width - 0.05))
        base = ThrowParams(
            side=from_side,
            line_x=None,
            lateral=lateral,
            behind_line=st.behind_line,
            height=st.height,
            elevation_deg=st.inkast_elevation_deg,
            spin_rps=st.inkast_spin_rps,
            release_angle_deg=0.0,
        )
        target = (target_xy[0], target_xy[1], equipment.kubb.width / 2)
        intended = fast_aim(equipment, pitch, target, base, kind="kubb", dt=dt)
        return intended, self.skill.perturb(intended, rng)

    def place_spots(self, pitch: Pitch, half: str, reason: str, placer_owns_half: bool) -> list[tuple[float, float]]:
        """Candidate spots (x, y m) for a hand-placed kubb, best first.

        The receiving side puts a penalty kubb deep in its half near a sideline (WS basic rule
        11); the inkaster puts a stößel near the centre line beside the group (``DM §7``).
        """
        s = 1.0 if half == "B" else -1.0  # B's half is x > 0
        out = []
        if pitch.length < 2.0:  # a Kubbuteo board (KT rules): the same choices at table scale
            hw = pitch.half_width
            if placer_owns_half:
                for dx in (0.12, 0.16, 0.20, 0.24):
                    for y in (hw - 0.03, -(hw - 0.03), hw - 0.07, -(hw - 0.07), 0.15, -0.15):
                        out.append((s * (pitch.length / 2 - dx), y))
            else:
                for dx in (0.12, 0.16, 0.2):
                    for y in (0.09, 0.13, -0.09, -0.13):
                        out.append((s * dx, y))
            return out
        if placer_owns_half:
            for dx in (0.35, 0.6, 0.85, 1.1):
                for y in (2.3, -2.3, 2.0, -2.0, 1.25, -1.25):
                    out.append((s * (pitch.length / 2 - dx), y))
        else:
            for dx in (0.6, 0.9, 1.2, 1.5):
                for y in (0.6, 0.9, 1.2, 1.5, -0.6, -0.9):
                    out.append((s * dx, y))
        return out

    # -------------------------------------------------------------- Kubbuteo flicks
    def flick_start(
        self, world, side: str, line_x: float, target: tuple[float, float], *, poses: Mapping | None = None
    ) -> float:
        """Lateral start (y, m) of a flick from ``line_x`` at ``target`` (x, y m): from the
        baseline a gap between two own baseline kubbs (or a kubb and the board edge), the one
        nearest the target whose straight path clears the king by the strategy's
        ``king_clearance_sd`` (else the one with the widest berth); from an advance line the
        spot nearest the target's y, in steps of 1 cm, whose straight path keeps the disk 2 mm
        clear of every standing piece near the line and clears the king in the same way. The king counts
        only when it stands between the line and the target (not for a throw at the king or a
        lag flick that stops short of it). ``poses``: the bounding-box centres of the world's kubbs
        and king as :meth:`~kubb3d.physics.world.World.pose` gives them now, if the caller has
        read them (None: read here)."""
        from kubb3d.pitch import KING_ID

        if poses is None:
            poses = {pid: world.pose(pid)[0] for pid in world.piece_ids("kubb", "king")}
        eq = world.equipment
        pitch = world.pitch
        r = eq.baton.radius
        hw = pitch.half_width - r - 0.002
        target_y = target[1]
        own = []
        for pid in world.piece_ids("kubb", "king"):
            pos = poses[pid]
            if pos[2] > 0 and abs(pos[0] - line_x) < 0.06 and math.hypot(pos[0] - target[0], pos[1] - target[1]) > 0.01:
                own.append((float(pos[0]), float(pos[1])))
        start_x = line_x - pitch.forward(side) * flick_behind(pitch, side, line_x, r)
        from_baseline = abs(line_x - pitch.baseline_x(side)) < 1e-9
        if from_baseline:
            gap = pitch.width / 6
            cands = sorted((-pitch.half_width + (i + 0.5) * gap for i in range(6)), key=lambda y: abs(y - target_y))
        else:
            cands = sorted((target_y + 0.01 * k for k in range(-30, 31)), key=lambda y: abs(y - target_y))
        # the disk's whole path, not only its start, must pass own pieces at the line
        tx = float(target[0])
        free = [
            y
            for y in cands
            if abs(y) <= hw
            and all(_path_clearance((start_x, y), (tx, target_y), o) > r + eq.kubb.radius + 0.002 for o in own)
        ]
        if not free:
            return float(np.clip(target_y, -hw, hw))
        f = pitch.forward(side)
        king = poses[KING_ID] if world.has_piece(KING_ID) else None
        if king is not None and (float(king[0]) - start_x) * f > 0 and (target[0] - float(king[0])) * f > 0:
            # the king stands between the line and the target: give it a berth
            need = self._king_berth(world, start_x, king)
            berth = [_path_clearance((start_x, y), target, (float(king[0]), float(king[1]))) for y in free]
            safe = [y for y, b in zip(free, berth) if b >= need]
            return float(safe[0] if safe else free[max(range(len(free)), key=lambda i: (berth[i], -i))])
        return float(free[0])

    def _king_berth(self, world, start_x: float, king=None) -> float:
        """How far, m, a flick's straight path from ``start_x`` should pass the king's centre
        (``king``: its bounding-box centre if the caller has read it): the two radii plus
        ``king_clearance_sd`` standard deviations of the flicker's direction error over the
        distance to the king."""
        from kubb3d.pitch import KING_ID

        eq = world.equipment
        skill = self.flick or FLICK_SKILLS["club"]
        if king is None:
            king = world.pose(KING_ID)[0]
        spread = math.radians(skill.azimuth_sd_deg) * abs(float(king[0]) - start_x)
        return eq.king.diameter / 2 + eq.baton.radius + self.strategy.king_clearance_sd * spread

    def choose_flick_target(
        self, world, side: str, kubbs: Sequence[tuple[str, bool, tuple[float, float, float], bool]], line_x: float
    ) -> str:
        """Pick the kubb to flick at (arguments as :meth:`choose_target`): as there, field kubbs
        first (``KT rules``), but among them (and among baseline kubbs) one whose straight path
        from its start (:meth:`flick_start`) gives the king the berth of :meth:`_king_berth`
        before one that does not."""
        from kubb3d.pitch import KING_ID

        if not kubbs:
            raise PlayerError("no kubbs to flick at")
        # the poses once for every candidate (the world does not move while a player chooses)
        poses = {pid: world.pose(pid)[0] for pid in world.piece_ids("kubb", "king")}
        kp = poses[KING_ID] if world.has_piece(KING_ID) else None
        f = world.pitch.forward(side)

        def blocked(pos) -> bool:
            if kp is None:
                return False
            start_x = line_x - f * flick_behind(world.pitch, side, line_x, world.equipment.baton.radius)
            if not ((float(kp[0]) - start_x) * f > 0 and (pos[0] - float(kp[0])) * f > 0):
                return False
            y0 = self.flick_start(world, side, line_x, pos[:2], poses=poses)
            return _path_clearance((start_x, y0), pos[:2], kp[:2]) < self._king_berth(world, start_x, kp)

        def key(k):
            kid, base, pos, upright = k
            return (base, blocked(pos), not upright, abs(pos[0] - line_x), abs(pos[1]), kid)

        return min(kubbs, key=key)[0]

    def baton_flick(
        self,
        world,
        side: str,
        line_x: float,
        target: tuple[float, float],
        rng: np.random.Generator,
        *,
        arrive_speed: float = 0.7,
        kind: str = "baton",
    ):
        """(intended, released) :class:`~kubb3d.throw.FlickParams` of a disk flicked from the line
        at ``target`` (x, y m), arriving there at ``arrive_speed`` m/s (0: to stop there)."""
        from kubb3d.throw import aim_flick

        lateral = self.flick_start(world, side, line_x, target)
        radius = world.equipment.kubb.radius if kind == "kubb" else world.equipment.baton.radius
        behind = flick_behind(world.pitch, side, line_x, radius)
        base = FlickParams(side=side, line_x=line_x, lateral=lateral, behind_line=behind)
        intended = aim_flick(world, (target[0], target[1]), base, arrive_speed=arrive_speed)
        skill = self.flick or FLICK_SKILLS["club"]
        return intended, skill.perturb(intended, rng)

    def lag_flick(self, world, side: str, rng: np.random.Generator):
        """A lag flick (kubb3d's start rule for ``KT``): a baton to stop 2 in short of the king."""
        f = world.pitch.forward(side)
        return self.baton_flick(world, side, world.pitch.baseline_x(side), (-f * 0.05, 0.0), rng, arrive_speed=0.0)

    def return_target(self, pitch: Pitch, from_side: str, index: int, kubb_radius: float) -> tuple[float, float]:
        """Where the ``index``-th returned kubb should stop (x, y m) in the opponent's half: a
        tight group past the centre line beside the king ("good strategy to group them close to
        each other", ``KT rules``), reachable for the returner's own next flicks.

        The group is aimed where the returner's own spread (:class:`FlickSkill`) keeps it in the
        receiving half: its first row at least :attr:`Strategy.return_margin_sd` standard
        deviations of the slide past the centre line (never less than
        :attr:`Strategy.return_depth_m`), and each kubb that many sideways standard deviations
        at its distance plus ``kubb_radius`` (m) inside the long edge, never nearer the board's
        axis than :attr:`Strategy.return_side_m` (the king's lane comes first when the two
        conflict). Six kubbs a group on the returner's left, in three rows of two columns
        (:data:`RETURN_ROW`, :data:`RETURN_SPACING` apart) where the edge leaves room for two,
        else in one file six deep; the next six go to the other side of the king.
        """
        f = pitch.forward(from_side)
        st = self.strategy
        skill = self.flick or FLICK_SKILLS["club"]
        # slide from the flick's start (behind the baseline) to the centre line, m
        to_centre = abs(pitch.baseline_x(from_side)) + FlickParams().behind_line
        k_slide = 2.0 * skill.speed_rel_sd * st.return_margin_sd  # a slide goes as v²
        depth = st.return_depth_m if k_slide >= 1.0 else max(st.return_depth_m, k_slide * to_centre / (1.0 - k_slide))
        tan_sd = math.tan(math.radians(skill.azimuth_sd_deg))

        def outer(x: float) -> float:  # the furthest out a return to depth x keeps the margin, m
            return pitch.half_width - kubb_radius - st.return_margin_sd * tan_sd * (to_centre + x)

        # two columns where the edge leaves room for both at the group's last row, else one file
        cols = 2 if outer(depth + 2 * RETURN_ROW) - RETURN_SPACING >= st.return_side_m else 1
        row, col = divmod(index % 6, cols)
        x = depth + RETURN_ROW * row
        y = max(st.return_side_m, outer(x) - RETURN_SPACING * col)
        # each player's groups start on his own left (+y seen from A, -y from B): the two players'
        # first six returns do not cross a group the other one left standing in the returner's half
        return (f * x, f * y if (index // 6) % 2 == 0 else -f * y)

    def choose(self, options: Sequence) -> object:
        """Pick among :class:`~kubb3d.rules.Choose` options: open the set oneself, keep the
        current end, take the tie-break advantage (module doc)."""
        for o in options:
            if o.what == "start" and o.value == self.name:
                return o
            if o.what == "advantage" and o.value == "tiebreak":
                return o
        return options[0]


def _path_clearance(a, b, c) -> float:
    """Distance, m, from point ``c`` to the segment from ``a`` to ``b`` (x, y)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d2 = dx * dx + dy * dy
    u = 0.0 if d2 <= 1e-24 else min(1.0, max(0.0, ((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / d2))
    return math.hypot(a[0] + u * dx - c[0], a[1] + u * dy - c[1])


def make_players(
    names: Sequence[str], skills: Sequence[str], team_size: int = 1, strategies: Sequence[str] = ("default", "default")
) -> tuple[Player, Player]:
    """Two players from names, skill preset names and strategy names. Raises MatchSetupError or UnknownNameError for
    unknown skills or strategies."""
    if len(skills) != 2 or len(names) != 2 or len(strategies) != 2:
        raise MatchSetupError("need exactly two players")
    return tuple(
        Player(n, get_skill(s), team_size=team_size, strategy=get_strategy(st))
        for n, s, st in zip(names, skills, strategies)
    )  # type: ignore[return-value]

"""``kubb3d validate``: the physics checked against formulas, measured references and itself.

Every row is one quantity: the reference (a formula or a measured source, with its source), what
the simulator gives, the tolerance and whether it passes. The groups:

==============  =================================================================================
``pieces``      mass and principal moments of inertia of every piece the engine holds, against
                the solid's formulas (density × volume; m(a² + b²)/12, m r²/2 …)
``tipping``     static tipping angle of a kubb (both sets), the crowned king, the Kubbuteo
                kubb (sideways, in its plane and towards the corners of its flat) and the
                Kubbuteo king, found by bisection on the release angle, against atan(half width
                / height of the centre of mass)
``balance``     a kubb released 0.1° inside / outside its tipping angle is judged on the pose it
                finally settles in (upright / lying)
``rebound``     height a flat-dropped baton and an end-dropped kubb reach after a 1 m drop, on
                each ground, flat and on a flat heightfield, the worst of four drops over one
                step's fall, against e²·h plus the step's rise v·dt/2, and at half the step
                (less that rise) against the default step
``slide``       distance a lying kubb (2 m/s) and a lying baton (6 m/s, along its axis: the
                case that used to freeze) slide on each ground, and on grass as a flat
                heightfield at several headings across its triangles, against v²/(2 μ g), and at
                half the step against the default step
``drift``       sideways drift (against 0) and time to rest (against v/(μ g) plus the settle
                window) of the baton's and the kubb's slides on every ground and on a flat
                heightfield at headings 0°, 30° and 60°, their drift at 30° with the step halved
                and quartered; the kubb's slide along the push (against v²/(2 μ g)) at each
``roll``        distance a baton rolls from 3 m/s on each ground (and across the ground's axes
                on grass, and on grass as a flat heightfield), against
                (1 + I/(m r²)) v²/(2 c_rr g); a baton laid across a plane slope below and above
                its rolling resistance, against 0 and ½ g (sin θ − c_rr cos θ) t² / (1 + ½)
``rest``        time until a sliding kubb is at rest: v/(μ g) plus the settle window
``plowing``     the speed from which an upright kubb sliding on a low-friction grass starts to
                tip forward, against statics with friction and the plowing where it touches
                acting at its base (at its centre of mass the plowing has no torque), and at
                half the step
``table``       Kubbuteo disks sliding on the board (against v²/(2 μ g), and their time to rest)
                and a disk dropped flat onto it (against e²·h)
``flight``      range of a baton back to its release height, without drag against v² sin 2θ / g
                and with drag against a fine Runge–Kutta integration of the same drag law
``tunnelling``  batons fired broadside at a kubb at 10–40 m/s (the largest accepted release
                speed), random orientation, 3 rev/s: every one touches it
``terrain``     kubbs resting on uneven ground rest on the surface :meth:`World.ground_height`
                reports
``throws``      player throws at 8 m (elite, ``dm-small``, grass): kubbs felled per baton at the
                default step and at half of it (paired: the 95 % interval of the difference must
                lie inside the tolerance); where a baton that touched only the ground rests
                moves no more at half the step than with a release 0.1 % faster; slide after
                landing; no throw at rest with a piece faster than 0.05 m/s; none at the time
                limit; the same throw twice gives bit-identical results
``flicks``      seeded Kubbuteo flicks (novice, club, elite): how many more flicks change their
                set of toppled pieces when the step is halved than with the flick 0.01 % faster,
                and the same for the pieces knocked per flick, paired flick by flick: halving may
                change no more than that nudge does (docs/physics.md "Flick outcomes against the
                time step")
==============  =================================================================================

Every row has a kind (:data:`KINDS`): a ``check`` holds the simulation against a reference that
does not come from the parameter it checks (a formula from other inputs, a measured source, the
same quantity at half the step); ``plumbing`` holds the engine against kubb3d's own inputs (does
it apply the e, μ or mass it was given); ``tuned`` holds a figure against the band a parameter was
tuned to. They are listed apart. Rows whose result depends on when the motion stops (rebounds,
slides, where a thrown baton comes to rest) are also run at half the step.

``run_validation(quick=True)`` runs a subset in a few seconds (the tests use it).
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
from dataclasses import asdict, dataclass, field
from typing import Callable, Iterable, Sequence

import numpy as np

import kubb3d.physics.world as physics_world
from kubb3d import targets
from kubb3d.calibrate import BANDS, baton_trial, run_flicks, run_throws
from kubb3d.equipment import get_set
from kubb3d.experiment.stats import Z95, t95
from kubb3d.physics.ground import GROUNDS
from kubb3d.physics.world import DT, GRAVITY, SETTLE_S, TABLE_DT, TABLE_SETTLE_S, Terrain, World
from kubb3d.ranges import counted

DROP_HEIGHT = 1.0
"""m: drop height of the rebound rows (lowest point above the ground)."""
MAX_RELEASE_SPEED = 40.0
"""m/s: the largest release speed ``kubb3d throw`` accepts (the tunnelling sweep goes that far)."""
FAST_AT_REST = 0.05
"""m/s: no piece of a throw declared at rest may be faster than this."""
FELLED_RATE_TOLERANCE = 0.015
"""kubbs per baton: the felled-per-baton rate may change by less than this when dt is halved; the
row passes only when the paired change's whole 95 % interval lies inside ±this."""
REBOUND_TOLERANCE = 0.01
"""A drop's rebound may differ from e²·h plus the step's rise (:func:`step_rise`) by this share
(docs/physics.md "Ground contact": "a drop on the flat ground rebounds within 1 % of e²·h plus half
a step's travel at the rebound speed"), and at half the step from the rebound at the step by as
much (each less its step's rise)."""
SLIDE_TOLERANCE = 0.02
"""A slide on the flat ground may differ from v²/(2 μ g) by this share (docs/physics.md "Ground
contact": "a kubb sliding on grass stops within 2 %"), and at half the step from the slide at the
step by as much."""
TERRAIN_SLIDE_TOLERANCE = 0.05
"""The same on a flat heightfield (docs/physics.md "Ground contact": "within 5 % on a flat
heightfield"; its triangles' edges take a little)."""
TIPPING_TOLERANCE_DEG = 0.3
"""°: a measured tipping angle may differ this much from its geometric formula (docs/physics.md
"Tipping a Kubbuteo kubb": "against the formula (±0.3°)"; the bisections resolve 0.05–0.06° in
the full run, 0.25–0.4° in the quick one)."""
TABLE_TOLERANCE = 0.05
"""Kubbuteo disks on the board: slide and rebound against their formulas."""
BATON_REST_SPREAD = 0.10
"""m: a thrown baton rests this far or farther from where it rests at half the step: "moved"."""
RELEASE_NUDGE = 0.001
"""The share by which the nudged throws' release speed is faster (0.1 %, about 9 mm/s at 8 m, far
below a player's spread). Where a baton that touched only the ground comes to rest is sensitive:
a release 0.1 % faster moved it 10 cm or more in 26 of 142 such throws of 300, 0.01 % in 4 of 146,
0.001 % in 2 of 147, and halving the step moved it in 14 of 145 from 1/960 s and in 16 of 145 from
1/1920 s, not fewer at the finer step (docs/physics.md "Where a thrown baton comes to rest"). So the
step may move as many such throws as the nudge does, not none."""
THROWS = 2000
"""Seeded elite throws per step of the ``throws`` group: the paired change of the felled rate
when the step is halved had a 95 % interval of ±0.010 over 1,000 throws and ±0.017 over 300, wider
than :data:`FELLED_RATE_TOLERANCE` with the change; about ±0.007 over 2,000."""
FLICKS = 100
"""Seeded Kubbuteo flicks per preset (novice, club, elite) of the ``flicks`` group, each at the
table's step, at half of it and 0.01 % faster: 900 flicks, about 30 s of CPU. Over these 300 the
halving changed 8 and the nudge 6, the paired excess's 95 % interval about ±2 points
(docs/kubbuteo_convergence.json)."""
FLICK_NUDGE = 0.0001
"""The share by which the nudged flicks are faster (0.01 %; a player's speed spread is 5–12 %,
docs/physics.md "Flick outcomes against the time step")."""
KINDS = {
    "check": "against a reference independent of the parameter it checks",
    "plumbing": "the engine against kubb3d's own inputs (does it apply what it was given)",
    "tuned": "a figure against the band a parameter was tuned to",
}
"""Row kinds (module doc), in the order they are listed."""


@dataclass(frozen=True)
class Row:
    """One validated quantity.

    Attributes:
        group: see the module table.
        quantity: what is measured, with its set-up.
        reference: the expected value as text (formula or measured range).
        source: where the reference comes from.
        expected: the reference value (or the middle of a range), in ``unit``.
        simulated: the simulator's value, in ``unit``.
        unit: unit of ``expected`` and ``simulated``.
        tolerance: the allowed deviation as text.
        passed: within tolerance.
        kind: ``check``, ``plumbing`` or ``tuned`` (:data:`KINDS`).
    """

    group: str
    quantity: str
    reference: str
    source: str
    expected: float
    simulated: float
    unit: str
    tolerance: str
    passed: bool
    kind: str = "check"

    def __post_init__(self) -> None:
        # plain Python values (numpy scalars do not go into JSON)
        object.__setattr__(self, "expected", float(self.expected))
        object.__setattr__(self, "simulated", float(self.simulated))
        object.__setattr__(self, "passed", bool(self.passed))
        if self.kind not in KINDS:
            raise ValueError(f"row kind must be one of {', '.join(KINDS)}, got {self.kind!r}")


@dataclass
class Report:
    """All rows, plus the per-dt series for the figure."""

    rows: list[Row] = field(default_factory=list)
    felled_vs_dt: list[tuple[float, float, float, int]] = field(default_factory=list)
    """(dt s, felled per baton, 95 % half-width, throws)."""

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.rows)

    def to_json(self) -> dict:
        """``passed``, ``rows`` (each with its ``kind``) and ``felled_vs_dt``."""
        return {
            "passed": self.passed,
            "rows": [asdict(r) for r in self.rows],
            "felled_vs_dt": [list(x) for x in self.felled_vs_dt],
        }


def tolerance_text(rel: float, abs_tol: float = 0.0, unit: str = "") -> str:
    """A tolerance as the tables print it: ``±1.5 %``, ``±0.0667 s`` or ``±2 % or ±0.0001 m``.

    ``rel`` is a fraction of the expected value, ``abs_tol`` an amount in ``unit``; each to three
    significant digits, a zero part left out (both zero: ``exact``)."""
    parts = [f"±{rel * 100:.3g} %" if rel else "", f"±{abs_tol:.3g} {unit}".rstrip() if abs_tol else ""]
    return " or ".join(p for p in parts if p) or "exact"


def _rel_row(group, quantity, reference, source, expected, simulated, unit, rel, abs_tol=0.0, kind="check") -> Row:
    ok = abs(simulated - expected) <= max(rel * abs(expected), abs_tol)
    tol = tolerance_text(rel, abs_tol, unit)
    return Row(group, quantity, reference, source, float(expected), float(simulated), unit, tol, bool(ok), kind)


def _half_step_row(row: Row, at_half: float, rel: float) -> Row:
    """The quantity of ``row`` (simulated at the default step) simulated again at half the step:
    a check against the default step's value within ``rel``."""
    return _rel_row(
        row.group,
        f"{row.quantity}, dt = 1/{round(2 / DT)} s",
        f"the same at dt = 1/{round(1 / DT)} s",
        "convergence: halving the step must not move a result",
        row.simulated,
        at_half,
        row.unit,
        rel,
    )


# ---------------------------------------------------------------------- pieces
def check_pieces() -> list[Row]:
    rows = []
    for set_name in ("standard", "dm-small"):
        with World(set_name, ground="plane", stakes=False) as w:
            eq = w.equipment
            k, b = eq.kubb, eq.baton
            w.add_piece("k", "kubb", (0, 0, 1))
            w.add_piece("b", "baton", (1, 0, 1))
            w.add_piece("K", "king", (2, 0, 1))
            src = f"{set_name} set dimensions (docs/physics.md 'Reference numbers'), wood {eq.wood_density:g} kg/m³"
            m, inertia = w.mass_properties("k")
            mk = eq.wood_density * k.width**2 * k.height
            rows.append(_rel_row("pieces", f"{set_name} kubb mass", "ρ w² h", src, mk, m, "kg", 0.01, kind="plumbing"))
            rows.append(
                _rel_row(
                    "pieces",
                    f"{set_name} kubb I across",
                    "m (w² + h²) / 12",
                    src,
                    mk * (k.width**2 + k.height**2) / 12,
                    inertia[0],
                    "kg·m²",
                    0.01,
                    kind="plumbing",
                )
            )
            rows.append(
                _rel_row(
                    "pieces",
                    f"{set_name} kubb I along",
                    "m w² / 6",
                    src,
                    mk * k.width**2 / 6,
                    inertia[2],
                    "kg·m²",
                    0.01,
                    kind="plumbing",
                )
            )
            m, inertia = w.mass_properties("b")
            mb = eq.wood_density * math.pi * b.radius**2 * b.length
            rows.append(
                _rel_row("pieces", f"{set_name} baton mass", "ρ π r² L", src, mb, m, "kg", 0.01, kind="plumbing")
            )
            rows.append(
                _rel_row(
                    "pieces",
                    f"{set_name} baton I across",
                    "m (3 r² + L²) / 12",
                    src,
                    mb * (3 * b.radius**2 + b.length**2) / 12,
                    inertia[0],
                    "kg·m²",
                    0.01,
                    kind="plumbing",
                )
            )
            rows.append(
                _rel_row(
                    "pieces",
                    f"{set_name} baton I along",
                    "m r² / 2",
                    src,
                    mb * b.radius**2 / 2,
                    inertia[2],
                    "kg·m²",
                    0.01,
                    kind="plumbing",
                )
            )
            m, _ = w.mass_properties("K")
            rows.append(
                _rel_row(
                    "pieces",
                    f"{set_name} king mass (with crown)",
                    "ρ × volume of the king mesh",
                    src,
                    eq.mass("king"),
                    m,
                    "kg",
                    0.01,
                    kind="plumbing",
                )
            )
    return rows


# ---------------------------------------------------------------------- tipping and balance
def _on_edge(set_name: str, kind: str, angle: float, settle: float = 6.0) -> float:
    """Release a block on a bottom edge at ``angle`` rad from vertical; final tilt, rad."""
    with World(set_name, ground="plane", stakes=False) as w:
        piece = w.equipment.piece(kind)
        hx, _, hz = piece.half_extents
        # rotate about y: the bottom edge at body x = +hx stays lowest
        z = hz * math.cos(angle) + hx * math.sin(angle) + 1e-5
        w.add_piece("p", kind, (0.0, 0.0, z), (0.0, -math.sin(angle / 2), 0.0, math.cos(angle / 2)), sleeping=False)
        w.run_until_rest(settle)
        return w.snapshot()["p"].tilt


def measured_tipping_angle(set_name: str, kind: str, span_deg: float = 4.0, iterations: int = 7) -> float:
    """The release angle (rad) above which a block on its edge falls, by bisection around the
    geometric value (resolution span / 2^iterations)."""
    ref = _reference_tipping(set_name, kind)
    lo, hi = ref - math.radians(span_deg), ref + math.radians(span_deg)
    for _ in range(iterations):
        mid = (lo + hi) / 2
        if _on_edge(set_name, kind, mid) > math.radians(45):
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


def _reference_tipping(set_name: str, kind: str) -> float:
    from kubb3d.equipment import get_set

    return get_set(set_name).piece(kind).tipping_angle


def tilted_disk_pose(
    angle: float, direction: float
) -> tuple[tuple[float, float, float], tuple[float, float, float, float]]:
    """(bounding-box centre m, ``quat_xyzw``) of a Kubbuteo kubb at the board's centre, turned
    from upright by ``angle`` rad so that its top moves towards ``direction`` rad of its own
    frame (0 towards its +x face, π/2 along its rim towards +y), the lowest point of its
    collision shape (the inset mesh padded by :data:`~kubb3d.equipment.CONVEX_MARGIN`) 10 µm
    above the board."""
    from kubb3d.assets import disk_kubb_mesh
    from kubb3d.equipment import CONVEX_MARGIN, kubbuteo_disk
    from kubb3d.snapshot import quat_to_matrix

    half = math.sin(angle / 2)
    q = (-math.sin(direction) * half, math.cos(direction) * half, 0.0, math.cos(angle / 2))  # about ẑ × direction
    inner = np.asarray(disk_kubb_mesh(kubbuteo_disk(), inset=CONVEX_MARGIN).vertices) @ quat_to_matrix(q).T
    return (0.0, 0.0, 1e-5 + CONVEX_MARGIN - float(inner[:, 2].min())), q


def disk_tips(angle: float, direction: float, dt: float | None = None, seconds: float = 1.5) -> bool:
    """Release a Kubbuteo kubb at rest on the board, tilted by ``angle`` rad towards
    ``direction`` rad of its own frame (0 sideways towards its +x face, π/2 in its own plane
    along its rim towards +y), its lowest point 10 µm above the board, and step it at ``dt`` s
    (default the board's step): True if it tips on (its lean sideways or in its plane,
    :func:`kubb3d.snapshot.leans`, grows 1° past its value at the release), False if it falls back
    towards its flat first (its tilt halves; or neither happens within ``seconds``).

    Neither the end pose nor the tilt alone tells: past the end of its flat in its own plane
    the disk rolls on along its rim and may swing back onto its flat seconds later; released
    towards a corner of its flat it can fall back onto it and then over on the rebound, or turn
    about the corner (its tilt shrinking) onto the flat's long edge and over that
    (docs/physics.md "Tipping a Kubbuteo kubb")."""
    from kubb3d.snapshot import leans, quat_to_matrix

    position, q = tilted_disk_pose(angle, direction)
    side0, plane0 = leans(q)
    one, back = math.radians(1.0), math.cos(angle / 2)
    with World("kubbuteo", stakes=False, dt=dt, quiet_dt=dt) as w:
        w.add_piece("k", "kubb", position, q, sleeping=False)
        for _ in range(w.steps_for(seconds)):
            w.step(1)
            qk = w.com_pose("k")[1]
            side, plane = leans(qk)
            if side > side0 + one or plane > plane0 + one:
                return True
            if quat_to_matrix(qk)[2, 2] > back:
                return False
    return False


def tilted_king_pose(
    angle: float, direction: float
) -> tuple[tuple[float, float, float], tuple[float, float, float, float]]:
    """(bounding-box centre m, ``quat_xyzw``) of the Kubbuteo king at the board's centre, turned
    from upright by ``angle`` rad so that its top moves towards ``direction`` rad (0: +x), the
    lowest point of its stem's foot 10 µm above the board."""
    from kubb3d.equipment import kubbuteo_king

    king = kubbuteo_king()
    half = math.sin(angle / 2)
    q = (-math.sin(direction) * half, math.cos(direction) * half, 0.0, math.cos(angle / 2))
    # the foot's rim is lowest where it dips: half the height and the stem's radius, turned
    low = king.height / 2 * math.cos(angle) + king.stem_diameter / 2 * math.sin(angle)
    return (0.0, 0.0, 1e-5 + low), q


def king_tips(angle: float, direction: float, dt: float | None = None, seconds: float = 1.5) -> bool:
    """Release the Kubbuteo king at rest on the board, tilted by ``angle`` rad towards
    ``direction`` (:func:`tilted_king_pose`), and step it at ``dt`` s (default the board's step):
    True if it tips on (its tilt grows 1° past the release), False if it falls back onto its foot
    first (its tilt halves; or neither happens within ``seconds``)."""
    from kubb3d.snapshot import quat_to_matrix

    position, q = tilted_king_pose(angle, direction)
    on, back = math.cos(angle + math.radians(1.0)), math.cos(angle / 2)
    with World("kubbuteo", stakes=False, dt=dt, quiet_dt=dt) as w:
        w.add_piece("king", "king", position, q, sleeping=False)
        for _ in range(w.steps_for(seconds)):
            w.step(1)
            up = quat_to_matrix(w.com_pose("king")[1])[2, 2]
            if up < on:
                return True
            if up > back:
                return False
    return False


def measured_disk_tipping(
    direction: float,
    dt: float | None = None,
    resolution: float = math.radians(0.1),
    lo: float = 0.05,
    hi: float = 0.7,
    tips: Callable[[float, float, float | None], bool] = disk_tips,
) -> tuple[float, float]:
    """(lo, hi) rad, at most ``resolution`` apart: released at ``lo`` towards ``direction``
    (see :func:`disk_tips`) the Kubbuteo kubb falls back onto its flat, at ``hi`` it tips on;
    with ``tips`` = :func:`king_tips` the same for the king.

    Raises:
        ValueError: the starting bracket does not bracket the tipping angle.
    """
    if tips(lo, direction, dt) or not tips(hi, direction, dt):
        raise ValueError(f"the bracket {math.degrees(lo):.1f}°–{math.degrees(hi):.1f}° does not hold the tipping angle")
    while hi - lo > resolution:
        mid = (lo + hi) / 2
        if tips(mid, direction, dt):
            hi = mid
        else:
            lo = mid
    return lo, hi


def check_tipping(quick: bool = False) -> list[Row]:
    rows = []
    cases = (
        [("standard", "kubb")]
        if quick
        else [("standard", "kubb"), ("dm-small", "kubb"), ("standard", "king"), ("dm-small", "king")]
    )
    for set_name, kind in cases:
        ref = _reference_tipping(set_name, kind)
        sim = measured_tipping_angle(set_name, kind, iterations=5 if quick else 7)
        formula = "atan(w/2 ÷ centre-of-mass height)" + (" (crown included)" if kind == "king" else " = atan(w/h)")
        rows.append(
            Row(
                "tipping",
                f"{set_name} {kind} tipping angle",
                formula,
                f"{set_name} set geometry",
                math.degrees(ref),
                math.degrees(sim),
                "°",
                f"±{TIPPING_TOLERANCE_DEG:g}°",
                abs(math.degrees(sim - ref)) <= TIPPING_TOLERANCE_DEG,
            )
        )
    from kubb3d.equipment import kubbuteo_disk, kubbuteo_king

    disk, king = kubbuteo_disk(), kubbuteo_king()
    directions = [("sideways", 0.0), ("in its plane", 90.0)]
    if not quick:
        directions[1:1] = [("towards 45°", 45.0), ("towards 60°", 60.0)]
    tips_fn = Callable[[float, float, float | None], bool]
    table_cases: list[tuple[str, str, str, float, float, tips_fn]] = [
        (
            f"kubbuteo kubb tipping angle {name}",
            "atan(reach of the flat, shrunk by the 1 mm edge rounding ÷ centre-of-mass height)",
            "'Tipping a Kubbuteo kubb'",
            disk.tipping_angle_towards(math.radians(d)),
            d,
            disk_tips,
        )
        for name, d in directions
    ]
    table_cases += [
        (
            f"kubbuteo king tipping angle{name}",
            "atan((stem radius − 1 mm rounding) ÷ (centre-of-mass height − 1 mm))",
            "'The Kubbuteo king'",
            king.tipping_angle,
            d,
            king_tips,
        )
        for name, d in ([("", 0.0)] if quick else [("", 0.0), (" towards 45°", 45.0)])
    ]
    for quantity, formula, section, ref, d, tips in table_cases:
        lo, hi = measured_disk_tipping(math.radians(d), resolution=math.radians(0.4 if quick else 0.05), tips=tips)
        rows.append(
            Row(
                "tipping",
                quantity,
                formula,
                f"kubbuteo set geometry (docs/physics.md {section})",
                math.degrees(ref),
                math.degrees((lo + hi) / 2),
                "°",
                f"±{TIPPING_TOLERANCE_DEG:g}°",
                abs(math.degrees((lo + hi) / 2 - ref)) <= TIPPING_TOLERANCE_DEG,
            )
        )
    return rows


def check_balance() -> list[Row]:
    rows = []
    ref = _reference_tipping("standard", "kubb")
    for off, expect in ((-0.1, 0.0), (0.1, 90.0)):
        tilt = math.degrees(_on_edge("standard", "kubb", ref + math.radians(off)))
        rows.append(
            Row(
                "balance",
                f"kubb released {off:+.1f}° from its tipping angle: final tilt",
                "upright" if expect == 0 else "lying",
                "statics: the centre of mass is inside / outside the supporting edge",
                expect,
                tilt,
                "°",
                "±2°",
                abs(tilt - expect) <= 2.0,
            )
        )
    return rows


# ---------------------------------------------------------------------- rebound
REBOUND_PHASES = 4
"""Drops per rebound row, from heights a quarter of a step's fall apart: where in a step a piece
strikes the ground changed its rebound by up to 13 % before the ground took out the whole
penetration (docs/physics.md "Ground contact"); a row holds the worst of them."""


def drop_bounce(
    ground: str, kind: str, terrain: bool, height: float = DROP_HEIGHT, dt: float | None = None
) -> tuple[float, float]:
    """(highest rise m of the lowest point after the first bounce, upward speed m/s just after
    it): a baton dropped lying flat or a kubb dropped on its end from ``height`` m onto
    ``ground`` (flat box, or a flat heightfield), stepped at ``dt`` s (default the world's)."""
    with World("standard", ground=ground, stakes=False, terrain=Terrain(0.0) if terrain else None, dt=dt) as w:
        eq = w.equipment
        if kind == "baton":
            q, half = (math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5)), eq.baton.radius
        else:
            q, half = (0.0, 0.0, 0.0, 1.0), eq.kubb.height / 2
        return _rebound(w, kind, q, w.ground_height(0.0, 0.0) + half, height)


def drop_rebound(
    ground: str, kind: str, terrain: bool, height: float = DROP_HEIGHT, dt: float | None = None
) -> float:
    """Highest rise, m, of :func:`drop_bounce`."""
    return drop_bounce(ground, kind, terrain, height, dt)[0]


def _rebound(w: World, kind: str, q, rest_z: float, height: float) -> tuple[float, float]:
    """Drop a piece ``height`` m above the centre height ``rest_z`` at which it rests on the
    ground; (the highest rise m after its first bounce, its upward speed m/s in the step after
    the bounce; 0, 0 if it did not bounce)."""
    w.add_piece("p", kind, (0.0, 0.0, rest_z + height), q, sleeping=False)
    w.use_step(w.dt)
    prev_vz, bounced, rising, top, speed = 0.0, False, False, 0.0, 0.0
    while w.time < 3.0:
        w.step(1)
        vz = w.velocity("p")[0][2]
        z = w.pose("p")[0][2] - rest_z
        if not bounced and prev_vz < -1.0 and vz > prev_vz + 1.0:
            bounced, speed = True, max(vz, 0.0)
        if bounced:
            rising = rising or vz > 0.05
            top = max(top, z)
            if rising and vz < -0.05:
                break
        prev_vz = vz
    return top, speed


def step_rise(speed: float, dt: float) -> float:
    """m: how much higher than v²/(2 g) a piece leaving the ground at ``speed`` m/s climbs when
    stepped at ``dt`` s: half a step's travel, v·dt/2. The engine integrates semi-implicitly
    (velocity, then position with the new velocity), and the highest of the positions it steps
    through lies v·dt/2 above the parabola's top to first order (docs/physics.md "Ground
    contact")."""
    return speed * dt / 2


def _worst(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """The (expected, simulated) pair of ``pairs`` farthest from its expected value, relatively."""
    return max(pairs, key=lambda p: abs(p[1] - p[0]) / abs(p[0]) if p[0] else abs(p[1]))


def check_rebound(quick: bool = False) -> list[Row]:
    """Each drop from :data:`REBOUND_PHASES` heights spread over one step's fall: the rise
    against e²·h plus :func:`step_rise` (plumbing: e is kubb3d's input), and at half the step the
    rise less its :func:`step_rise` at the measured rebound speed against the same at the step
    (a check that does not use e)."""
    rows = []
    grounds = ["grass"] if quick else ["grass", "wet-grass", "turf"]
    for g in grounds:
        e = GROUNDS[g].restitution
        impact = math.sqrt(2 * GRAVITY * DROP_HEIGHT)
        heights = [DROP_HEIGHT + k * impact * DT / REBOUND_PHASES for k in range(REBOUND_PHASES)]
        for kind in ("baton", "kubb"):
            for terrain in (False, True):
                what = "baton dropped lying flat" if kind == "baton" else "kubb dropped on its end"
                where = "flat heightfield" if terrain else "flat ground"
                at, half = [], []
                for h in heights:
                    top, speed = drop_bounce(g, kind, terrain, h, DT)
                    at.append((100 * (e * e * h + step_rise(e * math.sqrt(2 * GRAVITY * h), DT)), 100 * top))
                    top2, speed2 = drop_bounce(g, kind, terrain, h, DT / 2)
                    half.append((100 * (top - step_rise(speed, DT)), 100 * (top2 - step_rise(speed2, DT / 2))))
                expected, simulated = _worst(at)
                rows.append(
                    _rel_row(
                        "rebound",
                        f"{what} from 1 m on {g} ({where}), worst of {REBOUND_PHASES} drops over one step's fall",
                        f"e² h + e √(2 g h) dt / 2, e = {e:g}",
                        f"ground {g!r} restitution (kubb3d/physics/ground.py); the step's rise "
                        "(docs/physics.md 'Ground contact')",
                        expected,
                        simulated,
                        "cm",
                        REBOUND_TOLERANCE,
                        kind="plumbing",
                    )
                )
                expected, simulated = _worst(half)
                rows.append(
                    _rel_row(
                        "rebound",
                        f"{what} from 1 m on {g} ({where}), worst of {REBOUND_PHASES} drops, rise less v dt / 2, "
                        f"dt = 1/{round(2 / DT)} s",
                        f"the same at dt = 1/{round(1 / DT)} s",
                        "convergence: halving the step must not move a result (v: the measured rebound speed)",
                        expected,
                        simulated,
                        "cm",
                        REBOUND_TOLERANCE,
                    )
                )
    return rows


# ---------------------------------------------------------------------- slide, roll, rest
def _lying(w: World, kind: str, pid: str = "p", heading: float = 0.0, at: tuple[float, float] = (0.0, 0.0)) -> None:
    """A piece (kubb, king or baton) lying on the ground at ``at`` (m) with its long axis along
    ``heading`` rad from x."""
    eq = w.equipment
    r = {"kubb": eq.kubb.width / 2, "king": eq.king.width / 2}.get(kind, eq.baton.radius)
    c, s = math.cos(heading / 2), math.sin(heading / 2)
    sy, cy = math.sin(math.pi / 4), math.cos(math.pi / 4)
    q = (-s * sy + 0.0, c * sy, s * cy, c * cy)  # the long axis (body z) turned down to x, then by heading
    w.add_piece(pid, kind, (at[0], at[1], w.ground_height(*at) + r), q, sleeping=False)
    w.step(w.steps_for(0.1))


@dataclass(frozen=True)
class Slide:
    """A lying piece pushed along its long axis (:func:`slide`).

    Attributes:
        along: m, how far its bounding-box centre moved along the push.
        sideways: m, how far it moved across the push (+ to the left of it).
        time: s, from the push until the world was at rest (the settle window included), or the
            time limit.
        at_rest: False if the world was still moving at the time limit.
    """

    along: float
    sideways: float
    time: float
    at_rest: bool


def slide(
    ground: str,
    kind: str,
    v: float,
    heading: float = 0.0,
    terrain: bool = False,
    dt: float | None = None,
    limit: float = 15.0,
) -> Slide:
    """A lying piece given ``v`` m/s along its long axis, which points ``heading`` rad from x, on the
    flat ground or on a flat heightfield (``terrain``), stepped at ``dt`` s (default the world's),
    followed to rest or for ``limit`` s."""
    back = v * v / (4 * GRAVITY * GROUNDS[ground].friction) if terrain else 0.0  # half a slide back
    at = (-back * math.cos(heading) + 0.0, -back * math.sin(heading) + 0.0)
    with World("standard", ground=ground, stakes=False, terrain=Terrain(0.0) if terrain else None, dt=dt) as w:
        _lying(w, kind, heading=heading, at=at)
        p0, q0 = w.pose("p")
        t0 = w.time
        w.set_pose("p", p0, q0, linear_velocity=(v * math.cos(heading), v * math.sin(heading), 0.0))
        stats = w.run_until_rest(limit)
        dx, dy = (w.pose("p")[0] - p0)[:2]
        c, s = math.cos(heading), math.sin(heading)
        return Slide(float(dx * c + dy * s), float(dy * c - dx * s), stats.time - t0, stats.at_rest)


def slide_distance(
    ground: str, kind: str, v: float, heading: float = 0.0, terrain: bool = False, dt: float | None = None
) -> tuple[float, float]:
    """(distance m along the push, time to rest s) of :func:`slide`."""
    r = slide(ground, kind, v, heading, terrain, dt)
    return r.along, r.time


def roll_distance(ground: str, v: float, heading: float = 0.0, terrain: bool = False, dt: float | None = None) -> float:
    """Distance, m, a lying baton rolls from ``v`` m/s (rolling without slipping) along the
    direction ``heading`` rad from x (its axis across it: along y at heading 0), on the flat ground
    or on a flat heightfield (``terrain``), stepped at ``dt`` s (default the world's)."""
    with World("standard", ground=ground, stakes=False, terrain=Terrain(0.0) if terrain else None, dt=dt) as w:
        r = w.equipment.baton.radius
        c, s = math.cos(heading / 2), math.sin(heading / 2)
        sy, cy = math.sin(math.pi / 4), math.cos(math.pi / 4)
        q = (c * sy, s * sy, s * cy, c * cy)  # axis along y, then turned by heading
        w.add_piece("p", "baton", (0.0, 0.0, w.ground_height(0.0, 0.0) + r), q, sleeping=False)
        w.step(w.steps_for(0.1))
        p0, q0 = w.pose("p")
        ch, sh = math.cos(heading), math.sin(heading)
        w.set_pose("p", p0, q0, linear_velocity=(v * ch, v * sh, 0.0), angular_velocity=(-v / r * sh, v / r * ch, 0.0))
        w.run_until_rest(20.0)
        dx, dy = (w.pose("p")[0] - p0)[:2]
        return float(dx * ch + dy * sh)


@dataclass
class Gradient(Terrain):
    """A plane ground rising along x by ``tan`` per metre, as a terrain heightfield (its bumps'
    ``amplitude`` is not used: pass 0; pass ``level_spots=False`` for the bare plane)."""

    tan: float = 0.0

    def heights(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Height z(x, y) = tan · x, m, for a grid (len(ys), len(xs))."""
        return self.tan * np.meshgrid(xs, ys)[0]


def gradient_roll(ground: str, tan: float, seconds: float = 2.0) -> float:
    """How far, m (along the slope), a baton laid across a plane slope of gradient ``tan`` with its
    axis level rolls down it in ``seconds`` s from rest."""
    with World("standard", ground=ground, stakes=False, terrain=Gradient(0.0, tan=tan, level_spots=False)) as w:
        r = w.equipment.baton.radius
        cos = 1 / math.sqrt(1 + tan * tan)
        h = math.sin(math.pi / 4)
        q = (-h * h, h * h, h * h, h * h)  # the axis (body z) turned down to x, then to y
        w.add_piece("p", "baton", (1.0, 0.0, w.ground_height(1.0, 0.0) + r / cos + 0.0005), q, sleeping=False)
        x0 = w.com_pose("p")[0][0]
        w.step(w.steps_for(seconds))
        return (x0 - w.com_pose("p")[0][0]) / cos


def check_slide(quick: bool = False) -> list[Row]:
    rows = []
    grounds = ["grass"] if quick else ["grass", "wet-grass", "turf", "plane"]
    for g in grounds:
        mu = GROUNDS[g].friction
        for kind, v in (("kubb", 2.0), ("baton", 6.0)):
            d, _ = slide_distance(g, kind, v)
            what = (
                "lying kubb sliding from 2 m/s" if kind == "kubb" else "lying baton sliding along its axis from 6 m/s"
            )
            row = _rel_row(
                "slide",
                f"{what} on {g}",
                f"v² / (2 μ g), μ = {mu:g}",
                f"ground {g!r} friction (kubb3d/physics/ground.py)",
                v * v / (2 * mu * GRAVITY),
                d,
                "m",
                SLIDE_TOLERANCE,
                kind="plumbing",
            )
            rows += [row, _half_step_row(row, slide_distance(g, kind, v, dt=DT / 2)[0], SLIDE_TOLERANCE)]
    # the same on a flat heightfield (the ground of --terrain-cm), by heading across its triangles
    mu = GROUNDS["grass"].friction
    cases = [("kubb", 2.0, 0.0)] if quick else [("kubb", 2.0, h) for h in (0.0, 30.0, 45.0, 90.0)]
    if not quick:
        cases += [("baton", 6.0, h) for h in (0.0, 45.0)]
    for kind, v, heading in cases:
        d, _ = slide_distance("grass", kind, v, math.radians(heading), terrain=True)
        what = "lying kubb sliding from 2 m/s" if kind == "kubb" else "lying baton sliding along its axis from 6 m/s"
        row = _rel_row(
            "slide",
            f"{what} on grass (flat heightfield, heading {heading:g}°)",
            f"v² / (2 μ g), μ = {mu:g}",
            "ground 'grass' friction (kubb3d/physics/ground.py); docs/physics.md 'Ground contact'",
            v * v / (2 * mu * GRAVITY),
            d,
            "m",
            TERRAIN_SLIDE_TOLERANCE,
            kind="plumbing",
        )
        half = slide_distance("grass", kind, v, math.radians(heading), terrain=True, dt=DT / 2)[0]
        rows += [row, _half_step_row(row, half, TERRAIN_SLIDE_TOLERANCE)]
    return rows


SLIDE_SPEED = {"kubb": 2.0, "baton": 6.0}
"""m/s: the push of the slide rows, by kind (a kubb knocked flat, a baton after landing)."""
DRIFT_TOLERANCE = 0.01
"""The sideways drift of a slide may be this share of v²/(2μg) on the flat ground (a piece pushed
along its axis on level ground slides straight: 0 is the reference)."""
TERRAIN_DRIFT_TOLERANCE = 0.05
"""The same on a flat heightfield (its slides scatter by a few % across the triangles,
docs/physics.md "Ground contact")."""
BATON_TERRAIN_DRIFT_LIMIT = 0.02
"""m: the sideways drift a baton's slide may have on a flat heightfield: 0.3–15 mm measured, not
growing at finer steps, from the triangles' edges (a kubb's slide drifts as far there); with
Bullet's rolling friction throughout it drifted 12–52 mm at 30–60°, more at finer steps
(docs/physics.md "A baton sliding on the ground")."""
BATON_DRIFT_LIMIT = 0.001
"""m: the sideways drift a baton's slide may have on the flat ground, tighter than
:data:`DRIFT_TOLERANCE`: it drifted 2.5–81 mm on the lawn grounds at 30–60° while Bullet's rolling
friction acted on it, more at finer steps; below 0.005 mm since its rolling resistance acts about
its own axis (docs/physics.md "A baton sliding on the ground")."""
DRIFT_HEADINGS = (0.0, 30.0, 60.0)
"""°: headings of the drift rows (0° along the ground's axes, 30° and 60° across them)."""
DRIFT_STEPS = (1 / 1920, 1 / 3840)
"""s: the finer steps of the drift rows' convergence check (heading 30°)."""


def _drift_rows(
    ground: str,
    kind: str,
    heading: float,
    terrain: bool,
    dt: float | None,
    drift: bool = True,
    rest: bool = True,
    along: bool = False,
) -> list[Row]:
    v = SLIDE_SPEED[kind]
    mu = GROUNDS[ground].friction
    d = v * v / (2 * mu * GRAVITY)
    r = slide(ground, kind, v, math.radians(heading), terrain, dt)
    where = f"{ground}{' (flat heightfield)' if terrain else ''}, heading {heading:g}°"
    step = f", dt = 1/{round(1 / dt)} s" if dt else ""
    what = f"lying {kind} pushed along its axis at {v:g} m/s on {where}{step}"
    tol = TERRAIN_DRIFT_TOLERANCE if terrain else DRIFT_TOLERANCE
    if kind == "baton":
        limit, tol_text = (BATON_TERRAIN_DRIFT_LIMIT if terrain else BATON_DRIFT_LIMIT), ""
    else:
        limit, tol_text = tol * d, f" ({tol * 100:.3g} % of v²/(2 μ g))"
    rows = []
    if drift:
        rows.append(
            Row(
                "drift",
                f"{what}: sideways drift",
                "0 (friction acts against the motion)",
                "docs/physics.md 'A baton sliding on the ground'",
                0.0,
                r.sideways,
                "m",
                f"±{limit:.3g} m{tol_text}",
                abs(r.sideways) <= limit,
            )
        )
    if along:
        rows.append(
            _rel_row(
                "drift",
                f"{what}: slide along the push",
                f"v² / (2 μ g), μ = {mu:g}",
                f"ground {ground!r} friction (kubb3d/physics/ground.py); "
                "docs/physics.md 'A kubb sliding on the ground'",
                d,
                r.along,
                "m",
                tol,
                kind="plumbing",
            )
        )
    if rest:
        rows.append(
            _rel_row(
                "drift",
                f"{what}: time until at rest",
                "v / (μ g) + settle window",
                "Coulomb friction; the settle window is kubb3d's (kubb3d/physics/rest.py SETTLE_S)",
                v / (mu * GRAVITY) + SETTLE_S,
                r.time,
                "s",
                0.0,
                2 / 30,
                kind="plumbing",
            )
        )
    return rows


def check_drift(quick: bool = False) -> list[Row]:
    """Sideways drift and time to rest of lying batons and kubbs pushed along their axis, on every
    field ground and on a flat heightfield, at :data:`DRIFT_HEADINGS`, their drift at 30° also at
    :data:`DRIFT_STEPS`; the kubbs' slide along the push against v²/(2 μ g) at each of those, within
    the drift's share (docs/physics.md "A baton sliding on the ground", "A kubb sliding on the
    ground")."""
    if quick:
        return _drift_rows("plane", "baton", 0.0, False, None)
    rows = []
    for ground, terrain in [(g, False) for g in ("grass", "wet-grass", "turf", "plane")] + [("grass", True)]:
        for heading in DRIFT_HEADINGS:
            rows += _drift_rows(ground, "baton", heading, terrain, None)
            rows += _drift_rows(ground, "kubb", heading, terrain, None, along=True)
        for dt in DRIFT_STEPS:
            rows += _drift_rows(ground, "baton", 30.0, terrain, dt, rest=False)
            rows += _drift_rows(ground, "kubb", 30.0, terrain, dt, rest=False, along=True)
    return rows


TERRAIN_ROLL_TOLERANCE = 0.015
"""A baton's roll on a flat heightfield may end this share short of or past the formula: measured
0.2–1.2 % short over headings 0–60° and two steps (the triangles' edges take a little, as they do
from a slide; docs/physics.md "A baton sliding on the ground"); with Bullet's rolling friction
throughout it stopped 28–30 % short at 30–45°."""
GRADIENTS = (0.2, 0.4)
"""Gradients of the slope rows on grass (c_rr = 0.25): one below, one above its rolling
resistance."""


def check_roll(quick: bool = False) -> list[Row]:
    rows = []
    cases = (
        [("turf", 0.0, False)] if quick else [("grass", 0.0, False), ("wet-grass", 0.0, False), ("turf", 0.0, False)]
    )
    if not quick:
        cases += [("grass", 45.0, False), ("grass", 0.0, True), ("grass", 45.0, True)]
    for g, heading, terrain in cases:
        crr = GROUNDS[g].rolling_resistance
        v = 3.0
        ref = 1.5 * v * v / (2 * crr * GRAVITY)
        across = f", rolling at {heading:g}° to the ground's axes" if heading else ""
        where = f"{g} (flat heightfield)" if terrain else g
        rows.append(
            _rel_row(
                "roll",
                f"baton rolling from 3 m/s on {where}{across}",
                f"(1 + ½) v² / (2 c_rr g), c_rr = {crr:g}",
                f"ground {g!r} rolling resistance (kubb3d/physics/ground.py); docs/physics.md "
                "'A baton sliding on the ground'",
                ref,
                roll_distance(g, v, math.radians(heading), terrain=terrain),
                "m",
                TERRAIN_ROLL_TOLERANCE if terrain else 0.05,
                kind="plumbing",
            )
        )
    if quick:
        return rows
    crr = GROUNDS["grass"].rolling_resistance
    for tan in GRADIENTS:
        th = math.atan(tan)
        acc = max(0.0, GRAVITY * (math.sin(th) - crr * math.cos(th)) / 1.5)
        rows.append(
            _rel_row(
                "roll",
                f"baton laid across a slope of gradient {tan:g} on grass, let go: rolled in 2 s",
                "0 below c_rr, else ½ a t², a = g (sin θ − c_rr cos θ) / (1 + ½)",
                "ground 'grass' rolling resistance (kubb3d/physics/ground.py); docs/physics.md "
                "'A baton sliding on the ground'",
                acc * 2.0**2 / 2,
                gradient_roll("grass", tan, 2.0),
                "m",
                0.02,
                1e-4,
                kind="plumbing",
            )
        )
    return rows


def check_rest() -> list[Row]:
    mu = GROUNDS["grass"].friction
    _, t = slide_distance("grass", "kubb", 2.0)
    ref = 2.0 / (mu * GRAVITY) + SETTLE_S
    return [
        _rel_row(
            "rest",
            "time until a kubb sliding from 2 m/s on grass is at rest",
            "v / (μ g) + settle window",
            "Coulomb friction; the settle window is kubb3d's (kubb3d/physics/rest.py SETTLE_S)",
            ref,
            t,
            "s",
            0.0,
            2 / 30,
            kind="plumbing",
        )
    ]


# ---------------------------------------------------------------------- plowing
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
    row = _rel_row(
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
    return [row, _half_step_row(row, plow_tip_speed(DT / 2), PLOW_TIP_TOLERANCE)]


# ---------------------------------------------------------------------- table top
def table_slide(kind: str, v: float) -> tuple[float, float]:
    """(distance m, time to rest s) of a Kubbuteo disk (``baton`` or ``kubb``) lying flat on the
    board and given ``v`` m/s."""
    from kubb3d.equipment import LYING_DISK_KUBB

    with World("kubbuteo") as w:
        eq = w.equipment
        # a disk lies on a face: its centre half its thickness (``width``) above the board
        q, z = ((0.0, 0.0, 0.0, 1.0), eq.baton.length / 2) if kind == "baton" else (LYING_DISK_KUBB, eq.kubb.width / 2)
        w.add_piece("p", kind, (-0.3, 0.0, z), q, sleeping=False)
        w.step(w.steps_for(0.1))
        p0, q0 = w.pose("p")
        t0 = w.time
        w.set_pose("p", p0, q0, linear_velocity=(v, 0.0, 0.0))
        stats = w.run_until_rest(5.0)
        return float(w.pose("p")[0][0] - p0[0]), stats.time - t0


def table_drop_rebound(height: float = DROP_HEIGHT) -> float:
    """Highest rise, m, after the first bounce of a Kubbuteo baton disk dropped lying flat from
    ``height`` m onto the board."""
    with World("kubbuteo") as w:
        return _rebound(w, "baton", (0.0, 0.0, 0.0, 1.0), w.equipment.baton.length / 2, height)[0]


def check_table() -> list[Row]:
    """Kubbuteo (rule book ``KT``): disks sliding on the board and a disk dropped onto it."""
    board = GROUNDS["board"]
    mu, e = board.friction, board.restitution
    rows = []
    for kind, v in (("baton", 1.5), ("kubb", 1.0)):
        d, t = table_slide(kind, v)
        what = f"Kubbuteo {'baton' if kind == 'baton' else 'kubb'} disk lying flat, sliding from {v:g} m/s on the board"
        rows.append(
            _rel_row(
                "table",
                what,
                f"v² / (2 μ g), μ = {mu:g}",
                "ground 'board' friction (kubb3d/physics/ground.py)",
                v * v / (2 * mu * GRAVITY),
                d,
                "m",
                TABLE_TOLERANCE,
                kind="plumbing",
            )
        )
        rows.append(
            _rel_row(
                "table",
                "time until that disk is at rest",
                "v / (μ g) + settle window",
                "Coulomb friction; kubb3d/physics/rest.py TABLE_SETTLE_S",
                v / (mu * GRAVITY) + TABLE_SETTLE_S,
                t,
                "s",
                0.0,
                2 / 30,
                kind="plumbing",
            )
        )
    rows.append(
        _rel_row(
            "table",
            "Kubbuteo baton disk dropped lying flat from 1 m onto the board",
            f"e² h, e = {e:g}",
            "ground 'board' restitution (kubb3d/physics/ground.py)",
            e * e * DROP_HEIGHT * 100,
            table_drop_rebound() * 100,
            "cm",
            TABLE_TOLERANCE,
            kind="plumbing",
        )
    )
    return rows


# ---------------------------------------------------------------------- flight
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
            _rel_row(
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
            _rel_row(
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


# ---------------------------------------------------------------------- tunnelling
def tunnelling_hits(speeds: Iterable[float], per_speed: int, seed: int = 7) -> tuple[int, int]:
    """(hits, throws): a baton whose centre flies straight at a kubb's broad side, random
    orientation in the flight plane, 3 rev/s end over end; a hit is a contact with the kubb."""
    rng = np.random.default_rng(seed)
    hits = n = 0
    with World("standard", ground="grass", stakes=False) as w:
        kubb = w.equipment.kubb
        w.add_piece("K", "kubb", (2.0, 0.0, kubb.height / 2))
        w.add_piece("b", "baton", (1.0, 0.0, 0.5), sleeping=False)
        for speed in speeds:
            for _ in range(per_speed):
                phase = rng.uniform(0, 2 * math.pi)
                q = (0.0, math.sin(phase / 2), 0.0, math.cos(phase / 2))
                start = 2.0 - 0.2 - speed * 0.02  # reaches the kubb after about 20 ms
                w.set_pose(
                    "b",
                    (start, rng.uniform(-0.02, 0.02), 0.17),
                    q,
                    linear_velocity=(speed, 0, 0),
                    angular_velocity=(0, 2 * math.pi * 3.0, 0),
                )
                w.set_pose("K", (2.0, 0.0, kubb.height / 2), (0, 0, 0, 1))
                w.use_step(w.dt)
                n += 1
                for _ in range(w.steps_for(0.06)):
                    w.step(1)
                    if any({c.a, c.b} == {"b", "K"} for c in w.contacts()):
                        hits += 1
                        break
    return hits, n


def check_tunnelling(quick: bool = False) -> list[Row]:
    speeds = [10.0, 20.0, 30.0, MAX_RELEASE_SPEED]
    hits, n = tunnelling_hits(speeds, 5 if quick else 25)
    return [
        Row(
            "tunnelling",
            f"batons fired broadside at a kubb at {', '.join(f'{s:g}' for s in speeds)} m/s that touch it",
            "all of them",
            "a rigid kubb cannot be passed through",
            float(n),
            float(hits),
            "throws",
            "0 missed",
            hits == n,
        )
    ]


# ---------------------------------------------------------------------- terrain
def check_terrain() -> list[Row]:
    gaps = []
    with World.standard(terrain=Terrain(0.01, seed=3), sleeping=False) as w:
        w.run_until_rest(3.0)
        for pid in w.piece_ids("kubb"):
            gaps.append(min(c[2] - w.ground_height(c[0], c[1]) for c in w.box_corners(pid)))
    worst = max(abs(g) for g in gaps) * 1000
    return [
        Row(
            "terrain",
            "lowest corner of 10 kubbs resting on 1 cm terrain, above World.ground_height",
            "0 (on the surface)",
            "the heightfield's triangles (kubb3d/physics/world.py ground_height)",
            0.0,
            worst,
            "mm",
            "±1 mm",
            worst <= 1.0,
        )
    ]


# ---------------------------------------------------------------------- throws
def _rate(rows: list[dict]) -> tuple[float, float]:
    """(kubbs felled per baton, half width of its Student's t 95 % interval; NaN for one throw,
    which has none: it was a zero width)."""
    x = np.array([r["felled"] for r in rows], dtype=float)
    if len(x) < 2:
        return float(x.mean()), math.nan
    return float(x.mean()), float(t95(len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x)))


def _rests_apart(a_runs: list[dict], b_runs: list[dict]) -> tuple[int, int, int]:
    """(throws whose baton touched only the ground in both runs and rests :data:`BATON_REST_SPREAD`
    or farther apart, how many touched only the ground in both, throws that rest that far apart of
    all) of two runs of the same seeded throws."""
    apart = [math.dist(a["baton_rest"][:2], b["baton_rest"][:2]) for a, b in zip(a_runs, b_runs)]
    alone = [d for d, a, b in zip(apart, a_runs, b_runs) if not a["touched"] and not b["touched"]]
    return (
        sum(1 for d in alone if d >= BATON_REST_SPREAD),
        len(alone),
        sum(1 for d in apart if d >= BATON_REST_SPREAD),
    )


def check_throws(
    n: int, seed: int = 7, workers: int = 1, series: list | None = None, progress=None, dts: Iterable[float] = ()
) -> list[Row]:
    rows = []
    base = run_throws(n, seed, DT, workers=workers, progress=progress)
    half = run_throws(n, seed, DT / 2, workers=workers, progress=progress)
    p0, c0 = _rate(base)
    p1, c1 = _rate(half)
    d = np.array([b["felled"] - a["felled"] for a, b in zip(base, half)], dtype=float)  # half − default
    # paired: Student's t of the differences (kubb3d.experiment.stats)
    diff, ci = float(d.mean()), float(t95(max(1, len(d) - 1)) * d.std(ddof=1) / math.sqrt(len(d)))
    lo, hi = BANDS["elite"]
    target = targets.TARGETS["elite"]
    rows.append(
        Row(
            "throws",
            f"kubbs felled per baton, {n} elite throws at 8 m (dm-small, grass), dt = 1/{round(1 / DT)} s "
            f"(95 % ±{c0:.3f})",
            f"≈ {target:.2f} (band {lo:.2f}–{hi:.2f})",
            f"competitive players fell about {100 * target:.0f} % at 8 m (docs/physics.md 'Reference numbers'); the "
            "elite preset is tuned into the band (kubb3d/calibrate.py)",
            target,
            p0,
            "kubbs/baton",
            f"in {lo:.2f}–{hi:.2f}",
            lo <= p0 <= hi,
            "tuned",
        )
    )
    rows.append(
        Row(
            "throws",
            f"change of that rate when dt is halved (1/{round(2 / DT)} s: {p1:.3f}); paired 95 % ±{ci:.3f}",
            "0",
            "convergence: halving the step must not move a result",
            0.0,
            diff,
            "kubbs/baton",
            f"95 % interval inside ±{FELLED_RATE_TOLERANCE}",
            abs(diff) + ci < FELLED_RATE_TOLERANCE,
        )
    )
    nudged = run_throws(n, seed, DT, workers=workers, progress=progress, speed_scale=1 + RELEASE_NUDGE)
    moved, alone, moved_all = _rests_apart(base, half)
    nudge_moved, nudge_alone, _ = _rests_apart(base, nudged)
    share = moved / alone if alone else 0.0
    nudge_share = nudge_moved / nudge_alone if nudge_alone else 0.0
    rows.append(
        Row(
            "throws",
            f"throws whose baton touched only the ground that rests {BATON_REST_SPREAD * 100:g} cm or more from "
            f"where it rests at dt = 1/{round(2 / DT)} s: {moved} of {alone} (all throws: {moved_all} of {n}); with "
            f"a release {RELEASE_NUDGE * 100:g} % faster at dt = 1/{round(1 / DT)} s: {nudge_moved} of {nudge_alone}",
            f"no more than with a release {RELEASE_NUDGE * 100:g} % faster",
            "sensitivity: halving the step must not move a result more than a change far below a player's "
            "spread does (docs/physics.md 'Where a thrown baton comes to rest')",
            nudge_share * 100,
            share * 100,
            "%",
            "≤ the nudge's share",
            share <= nudge_share,
        )
    )
    slides = [r["slide"] for r in base if r["slide"] is not None]
    med = float(np.median(slides)) if slides else float("nan")
    rows.append(
        Row(
            "throws",
            f"median slide of a baton after it lands first on grass ({counted(len(slides), 'throw')})",
            "0.3–1.5 m",
            "estimate from play (no measured figure found): a baton stops within about a metre of where it lands; "
            "the ground's plowing is tuned to it (docs/physics.md 'Plowing')",
            0.9,
            med,
            "m",
            "in 0.3–1.5 m",
            0.3 <= med <= 1.5,
            "tuned",
        )
    )
    fast = sum(1 for r in base + half if r["at_rest"] and r["fastest"] > FAST_AT_REST)
    rows.append(
        Row(
            "throws",
            f"throws declared at rest with a piece faster than {FAST_AT_REST} m/s (of {2 * n})",
            "0",
            "definition of rest",
            0.0,
            float(fast),
            "throws",
            "0",
            fast == 0,
        )
    )
    limit = sum(1 for r in base + half if not r["at_rest"])
    rows.append(
        Row(
            "throws",
            f"throws that reached the 15 s time limit (of {2 * n})",
            "0",
            "every throw comes to rest",
            0.0,
            float(limit),
            "throws",
            "0",
            limit == 0,
        )
    )
    again = baton_trial((0, n, seed, DT, "elite", "dm-small", "grass", 8.0))
    same = again["final"] == base[0]["final"]
    rows.append(
        Row(
            "throws",
            "the same throw simulated twice in fresh worlds: final poses bit-identical",
            "identical",
            "determinism",
            1.0,
            1.0 if same else 0.0,
            "",
            "exact",
            same,
        )
    )
    if series is not None:
        series.append((DT, p0, c0, n))
        series.append((DT / 2, p1, c1, n))
        for dt in dts:
            res = run_throws(n, seed, dt, workers=workers, progress=progress)
            p, c = _rate(res)
            series.append((dt, p, c, n))
        series.sort()
    return rows


# ---------------------------------------------------------------------- flicks
def against_nudge_floor(by_step: Sequence[float], by_nudge: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high) of ``by_step − by_nudge`` flick by flick, with a paired normal 95 %
    interval: how much more a change of step moves each flick's outcome than a nudge of the flick
    does (booleans: how many more flicks it changes, as a share; for 0/1 values the interval is
    the paired Wald one, √(b + c − (b − c)²/n)/n with b, c the two kinds of discordant flick).
    The step is within the nudge floor when ``low`` ≤ 0. Fewer than two flicks have no interval:
    (−∞, ∞), never the zero width one flick once had."""
    d = np.array(by_step, dtype=float) - np.array(by_nudge, dtype=float)
    n = len(d)
    mean = float(d.mean()) if n else math.nan
    if n < 2:
        return mean, -math.inf, math.inf
    half = Z95 * math.sqrt(max(float(np.sum((d - mean) ** 2)), 0.0)) / n
    return mean, mean - half, mean + half


def flick_rows(base: list[list[str]], half: list[list[str]], nudged: list[list[str]]) -> list[Row]:
    """The ``flicks`` rows from the pieces each flick toppled at the table's step (``base``), at
    half of it (``half``) and :data:`FLICK_NUDGE` faster at the step (``nudged``), flick by flick."""
    n = len(base)
    if not n or len(half) != n or len(nudged) != n:
        raise ValueError(
            f"flick_rows: three runs of the same flicks expected, got {len(base)}, {len(half)}, {len(nudged)}"
        )
    steps = f"1/{round(1 / TABLE_DT)} → 1/{round(2 / TABLE_DT)} s"
    nudge = f"{FLICK_NUDGE * 100:g} % faster"
    by_step = [a != b for a, b in zip(base, half)]
    by_nudge = [a != b for a, b in zip(base, nudged)]
    step_only = sum(s and not u for s, u in zip(by_step, by_nudge))
    nudge_only = sum(u and not s for s, u in zip(by_step, by_nudge))
    share, lo, hi = against_nudge_floor(by_step, by_nudge)
    source = (
        "sensitivity: halving the step must not change more flicks than a nudge far below a player's spread "
        "does (docs/physics.md 'Flick outcomes against the time step')"
    )
    knocked_step = [len(b) - len(a) for a, b in zip(base, half)]
    knocked_nudge = [len(b) - len(a) for a, b in zip(base, nudged)]
    k_step, k_lo, k_hi = against_nudge_floor(knocked_step, [0] * n)
    k_excess, ke_lo, ke_hi = against_nudge_floor(knocked_step, knocked_nudge)
    return [
        Row(
            "flicks",
            f"Kubbuteo flicks: knocked set changed by halving the step vs by a {FLICK_NUDGE * 100:g} % nudge, "
            f"{counted(n, 'flick')}: "
            f"by halving ({steps}) {sum(by_step)}, by a flick {nudge} {sum(by_nudge)}; by the halving only "
            f"{step_only}, by the nudge only {nudge_only}; paired excess 95 % {lo * 100:+.1f} to {hi * 100:+.1f} "
            "points",
            f"no more than with a flick {nudge}",
            source,
            sum(by_nudge) / n * 100,
            sum(by_step) / n * 100,
            "%",
            "paired 95 % interval of the excess reaches 0 or lies below",
            lo <= 0.0,
        ),
        Row(
            "flicks",
            f"change of the pieces knocked per flick when the step is halved ({steps}; 95 % {k_lo:+.3f} to "
            f"{k_hi:+.3f}), less the change with a flick {nudge}: paired 95 % {ke_lo:+.3f} to {ke_hi:+.3f}",
            f"no more than with a flick {nudge}",
            source,
            float(np.mean(knocked_nudge)),
            k_step,
            "pieces/flick",
            "paired 95 % interval of the difference reaches 0",
            ke_lo <= 0.0 <= ke_hi,
        ),
    ]


def check_flicks(per_skill: int = FLICKS, seed: int = 7, workers: int = 1, progress=None) -> list[Row]:
    """:func:`flick_rows` of ``per_skill`` seeded flicks of each preset (:func:`run_flicks`)."""
    runs = [
        run_flicks(per_skill, seed, dt, speed_scale=scale, workers=workers, progress=progress)
        for dt, scale in ((TABLE_DT, 1.0), (TABLE_DT / 2, 1.0), (TABLE_DT, 1.0 + FLICK_NUDGE))
    ]
    return flick_rows(*runs)


# ---------------------------------------------------------------------- the whole suite
def run_validation(
    *,
    quick: bool = False,
    throws: int = THROWS,
    seed: int = 7,
    workers: int | None = None,
    progress=None,
    extra_dts: Iterable[float] = (1 / 240, 1 / 480),
    flicks: int = FLICKS,
) -> Report:
    """Run the validation; ``quick`` runs a fast subset (no player throws, no flicks).

    Args:
        quick: the subset the tests run (a few seconds).
        throws: player throws per time step in the ``throws`` group.
        seed: seed of the player throws.
        workers: processes for the player throws (default: all cores).
        progress: called with the number of player throws done since the last call.
        extra_dts: further time steps, s, whose felled-per-baton rate goes into the figure.
        flicks: seeded Kubbuteo flicks per preset in the ``flicks`` group.
    """
    report = Report()
    steps: list[Callable[[], list[Row]]] = [
        check_pieces,
        lambda: check_tipping(quick),
        check_balance,
        lambda: check_rebound(quick),
        lambda: check_slide(quick),
        lambda: check_drift(quick),
        lambda: check_roll(quick),
        check_rest,
        check_plowing,
        check_table,
        lambda: check_flight(quick),
        lambda: check_tunnelling(quick),
        check_terrain,
    ]
    for step in steps:
        report.rows.extend(step())
    if not quick:
        w = workers or os.cpu_count() or 1
        report.rows.extend(check_throws(throws, seed, w, report.felled_vs_dt, progress, extra_dts))
        report.rows.extend(check_flicks(flicks, seed, w, progress))
    return report


def short_label(quantity: str) -> str:
    """A figure's short name of a rebound, slide or roll row: the piece, the speed of a slide
    or roll, the ground, ``hf`` for a flat heightfield and the heading or angle, e.g.
    ``"baton, wet-grass hf"``, ``"kubb 2 m/s, grass hf 30°"``, ``"baton roll 3 m/s, grass 45°"``."""
    piece = "kubb" if quantity.split()[0] == "kubb" or quantity.startswith("lying kubb") else "baton"
    speed = re.search(r"from (\d+(?:\.\d+)?) m/s", quantity)
    grounds = re.findall(r" on ([\w-]+)", quantity)  # the last: "on its end from 1 m on grass"
    angle = re.search(r"(?:heading|at) (\d+)°", quantity)
    words = [piece + (" roll" if "rolling" in quantity else "") + (f" {speed.group(1)} m/s" if speed else "")]
    place = (grounds[-1] if grounds else "?") + (" hf" if "heightfield" in quantity else "")
    return f"{words[0]}, {place}" + (f" {angle.group(1)}°" if angle else "")


def figure(report: Report):
    """The figure of :func:`write_figure` (a matplotlib ``Figure``): horizontal bars, one row a
    quantity under its short name (:func:`short_label`), so that no two labels overlap."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.transforms import offset_copy

    def formula(group: str, row: Row) -> bool:  # the rows against a formula, not a halved step
        halved = row.reference.startswith("the same at")
        return row.group in group.split() and not halved and "slope" not in row.quantity

    rebound = "e² h + e √(2 g h) dt / 2"
    slide = "v² / (2 μ g); rolling: (1 + ½) v² / (2 c_rr g)"
    panels = [
        ([r for r in report.rows if formula("rebound", r)], rebound, "rebound, cm", "Rebound after a 1 m drop",
         ("#9bb", "#386")),
        ([r for r in report.rows if formula("slide roll", r)], slide, "distance, m", "Slide and roll distances",
         ("#bb9", "#a63")),
    ]
    tallest = max(len(rows) for rows, *_ in panels)
    fig, axes = plt.subplots(1, 3, figsize=(16, max(4.5, 1.6 + 0.26 * tallest)), width_ratios=(1, 1, 1.1))
    for ax, (rows, reference, unit, title, (c_ref, c_sim)) in zip(axes, panels):
        ys = np.arange(len(rows))[::-1]  # the first row on top
        ax.barh(ys + 0.2, [r.expected for r in rows], 0.4, label=reference, color=c_ref)
        ax.barh(ys - 0.2, [r.simulated for r in rows], 0.4, label="simulated", color=c_sim)
        ax.set_yticks(ys, [short_label(r.quantity) for r in rows], fontsize=8)
        ax.set_ylim(-0.7, len(rows) - 0.3)
        ax.set_xlabel(unit)
        ax.set_title(title)
        # under the bars, 34 points below the axes whatever their height: at -0.09 of the axes'
        # height, the short panels of --quick put it over the tick labels and the axis label
        below = offset_copy(ax.transAxes, fig=fig, y=-34, units="points")
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=below, frameon=False)
    ax = axes[2]
    if report.felled_vs_dt:
        dts = [1 / d for d, *_ in report.felled_vs_dt]
        ax.errorbar(
            dts,
            [p for _, p, _, _ in report.felled_vs_dt],
            yerr=[c for _, _, c, _ in report.felled_vs_dt],
            fmt="o-",
            capsize=4,
        )
        ax.set_xscale("log", base=2)
        ax.set_xticks(dts, [f"1/{round(d)}" for d in dts])
        ax.minorticks_off()
        ax.axvline(1 / DT, color="grey", ls=":", label="default step")
        ax.legend(fontsize=8)
    else:  # --quick plays no throws: say so rather than leave an empty frame
        ax.set_xticks([])
        ax.set_yticks([])
        ax.text(0.5, 0.5, "not run: --quick plays no player throws", ha="center", va="center", fontsize=9,
                transform=ax.transAxes)
    ax.set_xlabel("time step, s")
    ax.set_ylabel("kubbs felled per baton (elite, 8 m)")
    ax.set_title("Hit rate against the time step")
    fig.text(0.005, 0.005, "hf: flat heightfield", fontsize=8)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


def write_figure(report: Report, path) -> None:
    """A PNG: rebound per piece and ground (the formula against the simulation), slide and roll
    distance per piece and ground, and kubbs felled per baton against the time step (with 95 %
    intervals)."""
    import matplotlib.pyplot as plt

    fig = figure(report)
    fig.savefig(path, dpi=110, format="png")
    plt.close(fig)


KIND_TITLES = {"check": "Checks", "plumbing": "Plumbing", "tuned": "Tuned"}
"""Section titles of :func:`markdown`, by row kind."""


def row_cells(r: Row, failed: str) -> tuple[str, ...]:
    """A row's cells in table order (group, quantity, reference, source, expected, simulated,
    tolerance, pass); ``failed`` is what the pass cell says of a failed row."""
    return (
        r.group,
        r.quantity,
        r.reference,
        r.source,
        f"{r.expected:.4g} {r.unit}",
        f"{r.simulated:.4g} {r.unit}",
        r.tolerance,
        "yes" if r.passed else failed,
    )


def row_line(r: Row) -> str:
    """One row of :func:`markdown`'s tables: ``| group | quantity | … | pass |``."""
    return "| " + " | ".join(c.replace("|", "\\|") for c in row_cells(r, "**no**")) + " |"


def markdown(report: Report, command: str, image: str | None = None) -> str:
    """``docs/validation.md``: the rows, one table per kind (:data:`KINDS`), generated."""
    failed = [r for r in report.rows if not r.passed]
    lines = [
        "# Physics validation",
        "",
        f"Generated by `{command}`; do not edit by hand. Each row: the quantity, its reference and",
        "the reference's source, what kubb3d simulates at its defaults, the tolerance and the verdict.",
        "",
        "**"
        + ("All rows pass." if not failed else f"{len(failed)} of {counted(len(report.rows), 'row')} fail.")
        + "**",
    ]
    for kind, meaning in KINDS.items():
        rows = [r for r in report.rows if r.kind == kind]
        if not rows:
            continue
        lines += [
            "",
            f"## {KIND_TITLES[kind]}: {meaning}",
            "",
            "| group | quantity | reference | source | expected | simulated | tolerance | pass |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        lines += [row_line(r) for r in rows]
    if report.felled_vs_dt:
        lines += [
            "",
            "## Kubbs felled per baton against the time step (same seeded throws)",
            "",
            "| dt | felled per baton | 95 % | throws |",
            "| --- | --- | --- | --- |",
        ]
        for dt, p, c, n in report.felled_vs_dt:
            lines.append(f"| 1/{round(1 / dt)} s | {p:.3f} | ±{c:.3f} | {n} |")
    if image:
        lines += ["", f"![Rebounds, slides and the hit rate against the time step]({image})"]
    return "\n".join(lines) + "\n"

"""``tipping`` and ``balance`` rows of ``kubb3d validate``: the static tipping angle of a kubb
(both sets), the crowned king, the Kubbuteo kubb and king, found by bisection on the release
angle, against atan(half width / height of the centre of mass); a kubb released just inside /
outside that angle judged on the pose it settles in (docs/physics.md "Tipping a Kubbuteo kubb",
"The Kubbuteo king")."""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from kubb3d.physics.world import World
from kubb3d.validate.rows import Row

TIPPING_TOLERANCE_DEG = 0.3
"""°: a measured tipping angle may differ this much from its geometric formula (docs/physics.md
"Tipping a Kubbuteo kubb": "against the formula (±0.3°)"; the bisections resolve 0.05–0.06° in
the full run, 0.25–0.4° in the quick one)."""


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

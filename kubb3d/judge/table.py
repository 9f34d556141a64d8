"""Status of the tabletop pieces (Kubbuteo, rule book ``KT``): disk kubbs on a board and the
mushroom king. Pure functions over a :class:`~kubb3d.snapshot.Snapshot` (no PyBullet);
:func:`kubb3d.judge.status.analyse` hands pieces of shape ``disk`` and ``mushroom`` to
:func:`analyse_table_piece`. Tolerances: :attr:`kubb3d.judge.rulebook.Rulebook.params` of the
``kubbuteo`` book (lengths scaled to the disk).

Status of a disk kubb (body +x its axis, +z from its sanded flat through its centre;
``half_extents`` = (thickness/2, r, height/2)):

1. **Off the board**: it touches the floor (contact id ``floor``) or its centre rests below
   the board top (z < 0) → ``off the board``; it counts as knocked (``KT rules``).
2. **No contact with the board**: resting on other pieces only → ``fallen``.
3. **Lying on a face**: the disk's plane at least ``lying_tilt`` (70°) from vertical →
   ``fallen``.
4. **On its flat**: the vertical through its centre of mass meets the flat (the flat as the
   physics shapes it: shrunk by the 1 mm rounding of the edges, :attr:`DiskPiece.support
   <kubb3d.equipment.DiskPiece.support>`) at least ``tip_margin`` inside its edge, measured
   on the board → ``standing``: gravity alone turns it back onto its flat. So the tilt it
   stands up to depends on the direction: 11.2° sideways, 19.1° in its own plane, up to 21.7°
   towards a corner of the flat (:meth:`DiskPiece.tipping_angle_towards
   <kubb3d.equipment.DiskPiece.tipping_angle_towards>`; the physics agrees to 0.2°,
   docs/physics.md "Tipping a Kubbuteo kubb"). A disk balanced on its round rim does not stand
   on its flat, so it is not standing (kubb3d's reading of ``KT`` "Equipment": kubbs are
   "sanded on the edge to provide a flat surface" to be stood up on).
5. Otherwise held by another body carrying at least ``support_force_fraction`` of its
   weight → ``leaning`` (counts as knocked, as in Kubb); else ``fallen``.

The king (shape ``mushroom``): off the board as above; else ``fallen`` when its axis is at
least ``lying_tilt`` from vertical or the vertical through its centre of mass leaves its stem's
foot (shrunk by the foot's 1 mm rounding, as the physics shapes it: past 12.6° of tilt,
:attr:`MushroomPiece.tipping_angle <kubb3d.equipment.MushroomPiece.tipping_angle>`) without
support, ``leaning`` with support, else ``standing``.
"""

from __future__ import annotations

import functools
import math

from kubb3d.equipment import kubbuteo_disk, kubbuteo_king
from kubb3d.judge.messages import ids, msg, piece_object, piece_subject
from kubb3d.judge.analysis import Analysis, ContactIndex
from kubb3d.judge.geometry import apply, com, rot
from kubb3d.judge.params import JudgeParams
from kubb3d.judge.rulings import Status
from kubb3d.snapshot import GROUND_ID, PieceState, Snapshot

FLOOR_ID = "floor"
"""Contact id of the floor under the board (same value as :data:`kubb3d.physics.engine.FLOOR_ID`)."""

RIM_SAMPLES = 72
"""Points per face on a disk's outline (5° apart) when finding its lowest points."""


@functools.lru_cache(maxsize=None)
def _disk_rim(t2: float, r: float, h2: float) -> tuple[tuple[float, float, float, bool], ...]:
    """The points of :func:`_disk_outline` in the disk's body frame (x, y, z m, on the flat),
    for half extents (t2, r, h2); computed once per shape."""
    zc = h2 - r  # the disk's centre in the body frame (the flat cuts the circle below)
    out = []
    for i in range(RIM_SAMPLES):
        th = 2 * math.pi * i / RIM_SAMPLES
        y, z = r * math.sin(th), zc - r * math.cos(th)
        flat = z <= -h2 + 1e-9
        if flat:
            z = -h2
            y = max(-math.sqrt(max(r * r - (h2 + zc) ** 2, 0.0)), min(y, math.sqrt(max(r * r - (h2 + zc) ** 2, 0.0))))
        for x in (-t2, t2):
            out.append((x, y, z, flat))
    return tuple(out)


def _disk_outline(p: PieceState) -> list[tuple[tuple[float, float, float], bool]]:
    """Points of a disk kubb's outline in the world, each with "on the flat": the rim circle
    of both faces, clipped by the flat chord at body z = −height/2."""
    t2, r, h2 = p.half_extents
    (a, b, c), (d, e, f), (g, h, k) = rot(p.quat_xyzw)
    px, py, pz = p.position
    # geometry.apply written out (the same operations in the same order)
    return [
        (
            (
                px + (a * x + b * y + c * z),
                py + (d * x + e * y + f * z),
                pz + (g * x + h * y + k * z),
            ),
            flat,
        )
        for x, y, z, flat in _disk_rim(t2, r, h2)
    ]


def flat_margin(p: PieceState) -> float:
    """How far inside the disk's flat the vertical through its centre of mass passes, m, on the
    board (negative: outside; ``-inf`` with the flat facing up). The flat is the rectangle the
    physics' rounded disk pivots on (:attr:`DiskPiece.support
    <kubb3d.equipment.DiskPiece.support>`, 2a × 2b, at body z = −height/2 + ρ): the vertical
    through the centre of mass meets its plane at (X, Y) in the disk's frame, and the margin is
    the least distance of that point from the rectangle's sides, foreshortened onto the board.
    Positive: gravity turns the disk back onto its flat (module doc, step 4)."""
    disk = kubbuteo_disk()
    a, b, _ = disk.support
    rm = rot(p.quat_xyzw)
    gx, gy, gz = rm[2]  # the vertical in the disk's frame
    if gz <= 1e-9:
        return -math.inf
    cx, cy, cz = p.com_local
    s = (-p.half_extents[2] + disk.edge_radius - cz) / gz
    x, y = cx + s * gx, cy + s * gy
    # a distance d in the flat's plane along body x (y) shows on the board as d·√(1 − gx²) (√(1 − gy²))
    return min((a - abs(x)) * math.sqrt(1.0 - gx * gx), (b - abs(y)) * math.sqrt(1.0 - gy * gy))


def off_board(snapshot: Snapshot, piece_id: str, index: ContactIndex) -> bool:
    """True if the piece touches the floor or its bounding-box centre is below the board top."""
    recs = index.by_piece.get(piece_id) or ()
    return any(o == FLOOR_ID for o, *_ in recs) or snapshot.pieces[piece_id].position[2] < 0.0


def analyse_table_piece(snapshot: Snapshot, p: PieceState, params: JudgeParams, index: ContactIndex) -> Analysis:
    """Status of a disk kubb or the mushroom king (module doc)."""
    name = piece_subject(p.id)  # every reason opens with the piece
    recs = index.by_piece.get(p.id)
    forces: dict[str, float] = {}
    up: dict[str, float] = {}
    grounded = False
    for other, _pos, n, f in recs or ():
        if other == GROUND_ID:
            grounded = True
        elif other != FLOOR_ID:
            forces[other] = forces.get(other, 0.0) + f
            up[other] = max(up.get(other, -1.0), n[2])
    touching = tuple(sorted(forces, key=lambda o: (-forces[o], o)))
    weight = p.mass * snapshot.gravity
    strong = tuple(
        o
        for o in touching
        if (not index.has_forces or forces[o] >= params.support_force_fraction * weight) and up.get(o, 0.0) > -0.5
    )
    rm = rot(p.quat_xyzw)
    if p.shape == "disk":
        ax = (rm[0][0], rm[1][0], rm[2][0])
        tilt = math.asin(min(1.0, abs(ax[2])))  # the disk's plane from vertical
    else:
        tilt = math.acos(max(-1.0, min(1.0, rm[2][2])))
    if off_board(snapshot, p.id, index):
        return Analysis(
            piece=p.id,
            status=Status.OFF_BOARD,
            reason=msg("{name} went off the board.", name=name),
            tilt=tilt,
            margin=-math.inf,
            grounded=False,
            touching=touching,
            supporters=(),
            doubt=False,
        )
    pts = _disk_outline(p) if p.shape == "disk" else None
    if recs is None:
        if pts:
            zlow = min(q[0][2] for q in pts)
        else:  # the lowest point of the rim of the king's foot
            foot_r = kubbuteo_king().stem_diameter / 2
            zlow = p.position[2] - p.half_extents[2] * math.cos(tilt) - foot_r * math.sin(tilt)
        grounded = zlow <= params.ground_tol
    if not grounded:
        if touching:
            return Analysis(
                piece=p.id,
                status=Status.FALLEN,
                reason=msg(
                    "{name} rests on {others} and does not touch the board.",
                    name=name,
                    others=ids(touching, piece_object),
                ),
                tilt=tilt,
                margin=-math.inf,
                grounded=False,
                touching=touching,
                supporters=touching,
                doubt=False,
            )
        return Analysis(
            piece=p.id,
            status=Status.FALLEN,
            reason=msg("{name} does not rest on the board.", name=name),
            tilt=tilt,
            margin=-math.inf,
            grounded=False,
            touching=touching,
            supporters=(),
            doubt=False,
        )
    if tilt >= params.lying_tilt:
        lies = (
            msg("{name} lies on a face on the board.", name=name)
            if p.shape == "disk"
            else msg("{name} lies on its side on the board.", name=name)
        )
        return Analysis(
            piece=p.id,
            status=Status.FALLEN,
            reason=lies,
            tilt=tilt,
            margin=-math.inf,
            grounded=True,
            touching=touching,
            supporters=(),
            doubt=False,
        )
    cm = com(p)
    if pts is not None:
        margin = flat_margin(p)
    else:
        king = kubbuteo_king()
        reach, _ = king.support  # the circle it pivots on: the rounding of its foot
        foot = apply(rm, (0.0, 0.0, king.edge_radius - p.half_extents[2]))
        fx, fy = p.position[0] + foot[0], p.position[1] + foot[1]
        margin = reach * math.cos(tilt) - math.hypot(cm[0] - fx, cm[1] - fy)
    deg = math.degrees(tilt)
    if margin >= params.tip_margin:
        reason = (
            msg("{name} stands on its flat and carries its own weight.", name=name)
            if p.shape == "disk"
            else msg("{name} stands on its stem and carries its own weight.", name=name)
        )
        if strong:
            reason = msg(
                "{name} stands on its own: it touches {others} but its centre of mass is over its base.",
                name=name,
                others=ids(strong, piece_object),
            )
        return Analysis(
            piece=p.id,
            status=Status.STANDING,
            reason=reason,
            tilt=tilt,
            margin=margin,
            grounded=True,
            touching=touching,
            supporters=(),
            doubt=bool(strong) and margin < params.doubt_margin,
        )
    if strong:
        return Analysis(
            piece=p.id,
            status=Status.LEANING,
            reason=msg(
                "{name} is tilted {deg:.0f}° and only stays up because it leans on {others}.",
                name=name,
                deg=deg,
                others=ids(strong, piece_object),
            ),
            tilt=tilt,
            margin=margin,
            grounded=True,
            touching=touching,
            supporters=strong,
            doubt=margin > -params.doubt_margin,
        )
    if p.shape == "disk" and margin > -math.inf and tilt < math.radians(5):
        return Analysis(
            piece=p.id,
            status=Status.FALLEN,
            reason=msg("{name} rests on its round rim, not on its flat.", name=name),
            tilt=tilt,
            margin=margin,
            grounded=True,
            touching=touching,
            supporters=(),
            doubt=False,
        )
    return Analysis(
        piece=p.id,
        status=Status.FALLEN,
        reason=msg("{name} is tilted {deg:.0f}°, past its tipping angle.", name=name, deg=deg),
        tilt=tilt,
        margin=margin,
        grounded=True,
        touching=touching,
        supporters=(),
        doubt=False,
    )

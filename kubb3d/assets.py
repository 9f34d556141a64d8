"""Meshes (OBJ) and URDF files for every piece of every equipment set.

``kubb3d models build --in-place`` writes them into the top-level ``models/`` folder
(installed as the package data of ``kubb3d.models``); ``kubb3d models check``
rebuilds them in memory and compares with the files on disk: the URDF text
must be identical and the OBJ geometry equal to 1e-9 m (so that a trimesh
upgrade that only changes number formatting does not fail the check).

Body frames: long axis +z, origin at the centre of the piece's bounding box.
The king's centre of mass lies a few millimetres above that origin because of
the crown; the URDF's ``<inertial>`` origin says where.
"""

from __future__ import annotations

import math
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any, cast

import numpy as np
import trimesh

from kubb3d.model_files import MASS_PROPERTIES, piece_key
from kubb3d.model_files import com_local as com_local
from kubb3d.model_files import king_com_height as king_com_height
from kubb3d.model_files import model_path as model_path
from kubb3d.model_files import models_dir as models_dir
from kubb3d.ranges import counted
from kubb3d.equipment import (
    EQUIPMENT_SETS,
    BoxPiece,
    CylinderPiece,
    DiskPiece,
    EquipmentSet,
    KingPiece,
    CONVEX_MARGIN,
    MushroomPiece,
)

FACE_SPHERES = 3
"""Contact spheres on each face of a table-top disk: a baton's evenly round its rim, a kubb's at
the two ends of its flat and at the top of its rim (:func:`face_sphere_centres`). Bullet's convex
contact (GJK/EPA) finds one point per step and its contact cache drops a point once the bodies
have slid 2 mm (the contact breaking threshold) past it, so a disk sliding flat on the board
rested on one point at a time and sank 0.9 mm into it at 1/960 s (0.07 mm at 1/3840 s). A
sphere's contact is exact and follows it, so a disk lying on a face rests on its three spheres
at every step and every step size (docs/physics.md "Table-top sets": 3, 4, 6 and 8 per face
measured alike; each sphere costs time every step, so the fewest that hold a disk flat)."""
FACE_SPHERE_RADIUS = 0.001
"""m: radius of a face sphere, the same as :data:`CONVEX_MARGIN`: each sphere sits in the rim's
corner inside the true shape, touching the face and the rim (for the kubb's collision mesh, whose
edges the margin rounds by 1 mm, exactly in the rounding), so the pieces' outer shape is
unchanged."""

END_SPHERE_INSET = 2.5e-4
"""m: a field baton's collision cylinder is this much thinner than the baton, and two spheres of
the baton's full radius on its axis, each touching an end face from inside, carry its contacts
with the ground when it lies (:func:`end_sphere_centres`). Bullet's convex contact gave a baton
lying on the flat ground one new contact point per step while it slid, at one end rim and then the
other (its contact cache drops a point once the bodies have slid 2 mm past it): pushed along its
axis it rocked at about 0.1 rad/s and drifted sideways, 0.2-0.6 m at headings of 30° and 60° on
grass, and on the ground without rolling resistance (``plane``) it kept rolling and never came
to rest. A sphere's contact is exact and follows it, so a lying baton rests on both spheres at
every step (docs/physics.md "A baton sliding on the ground"). The inset keeps the cylinder's own
contact off the ground while the spheres carry the baton: flush, the cylinder still pulled a baton
resting on the ``plane`` ground into a roll at 1/960 s; the spheres sink 0.01 mm into the flat
ground while they slide and up to 0.2 mm into a heightfield, and with an inset of 0.02 mm a baton
sliding on a flat heightfield slid up to 5 % short again (0.25 mm: 0.9-2.5 %)."""

CORNER_SPHERE_RADIUS = 0.0001
"""m: radius of the eight spheres in a field kubb's corners (:func:`corner_sphere_centres`) on the
flat ground. A standing kubb rests on the spheres' lowest points, one radius in from its edges, so
sliding upright it tips at μ > (w − 2r)/h instead of the block's w/h: with 1 mm, 0.453 for the
standard kubb, 0.7 % above grass's 0.45, and it fell at every step (docs/physics.md "An upright
kubb sliding"); with 0.1 mm, 0.465."""
TERRAIN_CORNER_SPHERE_RADIUS = 0.01
"""m: the same on a terrain heightfield (the model ``<set>-kubb-terrain.urdf``). Bullet collides a
sphere with a heightfield triangle from either side: a sphere whose centre has sunk below a
triangle, by less than its radius, gets a contact pushing it down, which stops the rebound of a
kubb landing flat on a face. A face sinks up to v·dt in the step its contact is found, so the
radius keeps that out of reach: with 1 mm a kubb dropped on its end from 1 m stuck in 7 of 10 drops
at 1/960 s; with 10 mm it would take a landing faster than 9.6 m/s at 1/960 s. The flat ground (a
box) has no such window and keeps 1 mm: with 10 mm there, one of 4,000 validation throws reached
the time limit and the hit rate moved by +0.009 ± 0.007 when the step was halved
(docs/physics.md "Ground contact")."""
CORNER_SPHERE_INSET = 2e-5
"""m: a field kubb's collision box is this much inside each of its faces, and eight spheres of
:data:`CORNER_SPHERE_RADIUS`, each touching the three faces of a corner from inside, carry its
contacts with a face it rests on (:func:`corner_sphere_centres`). Bullet's box-box contact gave a
kubb lying on the ground two or three points per step with unequal forces: pushed along its axis
at 2 m/s it turned while it slid, 16-156 mm sideways depending on the ground, and slid 1.5-4.8 %
short of v²/(2 μ g), differently at each step. A sphere's contact is exact (one point below its
centre, kept at every step), so a kubb lying or standing on a face rests on its four corners at
every step (docs/physics.md "A kubb sliding on the ground"). Tilted by more than about 17° (1.2°
with 1 mm spheres), the box's edge reaches lower than the spheres and takes the contact."""

CYLINDER_SECTIONS = 32
"""Facets around a round piece's visual mesh (collision uses an exact cylinder)."""

PIECE_KINDS = ("kubb", "king", "baton", "stake")


def kubb_mesh(kubb: BoxPiece) -> trimesh.Trimesh:
    """The kubb block centred on the origin, long axis +z."""
    return trimesh.creation.box(extents=(kubb.width, kubb.width, kubb.height))


def _crown_parts(king: KingPiece) -> list[trimesh.Trimesh]:
    """Crown parts above the body box: a band (30 % of the crown height) and four
    pyramid points on its corners (the rest). Parts touch only at faces, so
    their volumes add up."""
    w, h, ch = king.width, king.height, king.crown_height
    top_of_body = h / 2 - ch
    band_h = 0.3 * ch
    band = trimesh.creation.box(extents=(w, w, band_h))
    band.apply_translation((0, 0, top_of_body + band_h / 2))
    parts = [band]
    s = w / 3  # side of a point's square base
    point_h = ch - band_h
    base_z = top_of_body + band_h
    for sx in (-1, 1):
        for sy in (-1, 1):
            cx, cy = sx * (w - s) / 2, sy * (w - s) / 2
            vertices = np.array(
                [
                    [cx - s / 2, cy - s / 2, base_z],
                    [cx + s / 2, cy - s / 2, base_z],
                    [cx + s / 2, cy + s / 2, base_z],
                    [cx - s / 2, cy + s / 2, base_z],
                    [cx, cy, base_z + point_h],
                ]
            )
            faces = np.array([[0, 2, 1], [0, 3, 2], [0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]])
            parts.append(trimesh.Trimesh(vertices, faces, process=False))
    return parts


def king_body_mesh(king: KingPiece) -> trimesh.Trimesh:
    """The king's body box (below the crown), in the king's frame."""
    body = king.body
    mesh = trimesh.creation.box(extents=(body.width, body.width, body.height))
    mesh.apply_translation((0, 0, -king.height / 2 + body.height / 2))
    return mesh


def king_mesh(king: KingPiece) -> trimesh.Trimesh:
    """The whole king (body + crown band + four points), origin at the bounding-box centre."""
    return cast(trimesh.Trimesh, trimesh.util.concatenate([king_body_mesh(king), *_crown_parts(king)]))


def convex_prism(points_yz: np.ndarray, thickness: float) -> trimesh.Trimesh:
    """Extrude a convex polygon given in the y-z plane (counter-clockwise, shape (N, 2)) along x,
    centred on x = 0."""
    n = len(points_yz)
    h = thickness / 2
    left = np.column_stack((np.full(n, -h), points_yz))
    right = np.column_stack((np.full(n, h), points_yz))
    centre = points_yz.mean(axis=0)
    vertices = np.vstack((left, right, [[-h, *centre], [h, *centre]]))
    cl, cr = 2 * n, 2 * n + 1
    faces = []
    for i in range(n):
        j = (i + 1) % n
        faces += [[i, n + j, n + i], [i, j, n + j]]  # side, outward
        faces += [[cl, j, i], [cr, n + i, n + j]]  # caps
    mesh = trimesh.Trimesh(vertices, np.array(faces), process=False)
    return mesh


def disk_kubb_mesh(disk: DiskPiece, sections: int = CYLINDER_SECTIONS * 2 + 1, inset: float = 0.0) -> trimesh.Trimesh:
    """A Kubbuteo kubb: a disk (axis +x) with a flat on its rim at −z, origin at the bounding-box
    centre (rule book KT: "sanded on the edge to provide a flat surface").

    ``inset`` (m) shrinks every face inwards (collision meshes, see :data:`CONVEX_MARGIN`)."""
    r_true = disk.radius
    below_true = -(r_true - disk.flat_depth)
    r = r_true - inset
    below = below_true + inset  # z of the flat, disk centre at 0
    half_chord = math.sqrt(max(r * r - below * below, 0.0))
    a0 = math.atan2(below, half_chord)  # the flat's +y end
    a1 = math.atan2(below, -half_chord) + 2 * math.pi  # its −y end, going round over the top
    arc = np.linspace(a0, a1, sections)
    pts = np.column_stack((r * np.array([math.cos(t) for t in arc]), r * np.array([math.sin(t) for t in arc])))
    mesh = convex_prism(pts, disk.thickness - 2 * inset)
    # the true bounding box spans z = below … r: move its centre to the origin
    mesh.apply_translation((0.0, 0.0, -(r_true + below_true) / 2))
    return mesh


def rounded_disk_mesh(
    disk: CylinderPiece, fillet: float, inset: float = 0.0, sections: int = CYLINDER_SECTIONS * 2, arc: int = 6
) -> trimesh.Trimesh:
    """A disk (axis +z, centre at the origin) whose two rims are rounded with radius ``fillet``, m
    (a quarter circle from the face to the side, ``arc`` segments), ``sections`` round.

    ``inset`` (m) pulls every surface in by that much and the fillet with it (collision meshes,
    see :data:`CONVEX_MARGIN`: the margin puts it back). Raises ``ValueError`` when the fillet is
    not between ``inset`` and half the disk's thickness, or the mesh does not close."""
    if not inset <= fillet <= disk.length / 2:
        raise ValueError(f"fillet {fillet} m: expected {inset} to {disk.length / 2} m")
    r, h, f = disk.radius - inset, disk.length / 2 - inset, fillet - inset
    angles = np.linspace(-math.pi / 2, 0.0, arc + 1)
    lower = [(r - f + f * math.cos(a), -h + f + f * math.sin(a)) for a in angles]
    upper = [(x, -z) for x, z in reversed(lower)]
    profile = [(0.0, -h), *lower, *upper, (0.0, h)]
    if f == 0.0:
        profile = [(0.0, -h), (r, -h), (r, h), (0.0, h)]
    mesh = trimesh.creation.revolve(np.array(profile), sections=sections)
    if not mesh.is_watertight:  # trimesh merged profile points lying too close together
        raise ValueError(f"fillet {fillet} m with {counted(arc, 'segment')}: the mesh is not closed; use fewer")
    return mesh


def mushroom_parts(king: MushroomPiece, inset: float = 0.0) -> tuple[trimesh.Trimesh, trimesh.Trimesh]:
    """(stem, cap) meshes of the Kubbuteo king, origin at the bounding-box centre, axis +z
    (the cap shrunk by ``inset``, m, for collision)."""
    parts = []
    for prof in king.profiles(inset):
        m = trimesh.creation.revolve(np.array(prof), sections=CYLINDER_SECTIONS)
        m.apply_translation((0.0, 0.0, -king.height / 2))
        parts.append(m)
    return parts[0], parts[1]


def mushroom_mesh(king: MushroomPiece) -> trimesh.Trimesh:
    """The whole mushroom king."""
    return cast(trimesh.Trimesh, trimesh.util.concatenate(list(mushroom_parts(king))))


def piece_mesh(piece) -> trimesh.Trimesh:
    """The visual (and mass) mesh of any piece description, in its body frame."""
    if isinstance(piece, KingPiece):
        return king_mesh(piece)
    if isinstance(piece, MushroomPiece):
        return mushroom_mesh(piece)
    if isinstance(piece, DiskPiece):
        return disk_kubb_mesh(piece)
    if isinstance(piece, BoxPiece):
        return kubb_mesh(piece)
    if isinstance(piece, CylinderPiece):
        return cylinder_mesh(piece)
    raise TypeError(f"no mesh for {type(piece).__name__}")


def mesh_com(piece) -> tuple[float, float, float]:
    """m: the centre of mass of a piece's mesh (:func:`piece_mesh`) in its body frame, built
    (:func:`kubb3d.model_files.mesh_com` reads the stored value first)."""
    x, y, z = (float(v) for v in piece_mesh(piece).center_mass)
    return (x, y, z)


def mesh_volume(piece) -> float:
    """m³: the volume of a piece's mesh (:func:`piece_mesh`), built (:func:`kubb3d.model_files.mesh_volume`
    reads the stored value first)."""
    return float(piece_mesh(piece).volume)


def mass_properties(eq_sets=None) -> str:
    """The text of ``mass_properties.json``: per distinct piece description of the shipped sets
    (:data:`~kubb3d.equipment.EQUIPMENT_SETS`) its key (:func:`kubb3d.model_files.piece_key`),
    mesh volume and mesh centre of mass, built from the meshes, floats written in full."""
    rows = {}
    for _, eq in sorted((eq_sets or EQUIPMENT_SETS).items()):
        for kind in PIECE_KINDS:
            piece = getattr(eq, kind)
            if piece is None:
                continue
            key = piece_key(piece)
            rows[key] = {"piece": key, "volume_m3": mesh_volume(piece), "com_m": list(mesh_com(piece))}
    data = {
        "generator": "kubb3d.assets",
        "about": "mesh volume (m^3) and centre of mass in the body frame (m) of each piece, read by "
        "kubb3d.model_files without building the meshes",
        "pieces": [rows[k] for k in sorted(rows)],
    }
    return json.dumps(data, indent=1) + "\n"


def king_crown(king: KingPiece, inset: float = 0.0) -> trimesh.Trimesh:
    """The crown alone; as a collision mesh PyBullet uses the convex hull of its vertices.
    ``inset`` (m) pulls the sides and top in (collision meshes, see :data:`CONVEX_MARGIN`)."""
    crown = cast(trimesh.Trimesh, trimesh.util.concatenate(_crown_parts(king)))
    v = crown.vertices.copy()
    half = king.width / 2
    v[:, :2] *= (half - inset) / half
    top = king.height / 2
    v[:, 2] = np.minimum(v[:, 2], top - inset)
    return trimesh.Trimesh(v, crown.faces, process=False)


def cylinder_mesh(piece: CylinderPiece) -> trimesh.Trimesh:
    """A round piece centred on the origin, axis +z."""
    return trimesh.creation.cylinder(radius=piece.radius, height=piece.length, sections=CYLINDER_SECTIONS)


def _inertial(mass: float, diag, com=(0.0, 0.0, 0.0)) -> str:
    ixx, iyy, izz = diag
    com = tuple(0.0 if abs(v) < 1e-12 else float(v) for v in com)  # drop round-off from symmetric meshes
    return (
        "  <inertial>\n"
        f'    <origin xyz="{com[0]:.9g} {com[1]:.9g} {com[2]:.9g}"/>\n'
        f'    <mass value="{mass:.9g}"/>\n'
        f'    <inertia ixx="{ixx:.9g}" ixy="0" ixz="0" iyy="{iyy:.9g}" iyz="0" izz="{izz:.9g}"/>\n'
        "  </inertial>\n"
    )


def face_sphere_centres(disk: CylinderPiece | DiskPiece, fillet: float = 0.0) -> list[tuple[float, float, float]]:
    """Centres of the face spheres of a table-top disk in its body frame, m (a list of
    2 × :data:`FACE_SPHERES` (x, y, z)), each :data:`FACE_SPHERE_RADIUS` in from a face and from
    the rim or the flat.

    A baton disk (:class:`CylinderPiece`, axis +z, centre at the origin) has them evenly round
    the rim; with its rims rounded with radius ``fillet`` (m, :func:`rounded_disk_mesh`, larger
    than the spheres' radius) ``fillet`` in from it, where the rounding starts. A kubb
    (:class:`DiskPiece`, axis +x, its centre ``flat_depth / 2`` below the origin) has them at the
    two ends of its flat (so that standing, and tipping over the flat's long edge, it rests on the
    flat's four corners at every step) and at the top of its rim."""
    s = FACE_SPHERE_RADIUS
    if isinstance(disk, DiskPiece):
        rho, face, shift = disk.radius - s, disk.thickness / 2 - s, disk.flat_depth / 2
        flat = -(disk.radius - disk.flat_depth) + s  # z (from the disk's centre) of a sphere on the flat
        end = math.sqrt(rho * rho - flat * flat)
        rim = [(-end, flat), (end, flat), (0.0, rho)]
        return [(sx * face, y, z - shift) for y, z in rim for sx in (-1, 1)]
    rho, face = disk.radius - max(s, fillet), disk.length / 2 - s
    centres = []
    for k in range(FACE_SPHERES):
        a = 2 * math.pi * k / FACE_SPHERES
        centres += [(rho * math.cos(a), rho * math.sin(a), -face), (rho * math.cos(a), rho * math.sin(a), face)]
    return centres


def end_sphere_centres(baton: CylinderPiece) -> list[tuple[float, float, float]]:
    """Centres of a field baton's two end spheres (radius: the baton's) in its body frame (axis
    +z, centre at the origin), m: on its axis, one radius in from each end face, so that each
    touches an end face and the whole round of the baton's side there from inside
    (:data:`END_SPHERE_INSET`)."""
    z = baton.length / 2 - baton.radius
    return [(0.0, 0.0, -z), (0.0, 0.0, z)]


def corner_sphere_centres(
    kubb: BoxPiece, r: float = CORNER_SPHERE_RADIUS
) -> list[tuple[float, float, float]]:
    """Centres of a field kubb's eight corner spheres of radius ``r`` m in its body frame (long
    axis +z, centre at the origin), m: ``r`` in from each of the three faces of a corner."""
    x, z = kubb.width / 2 - r, kubb.height / 2 - r
    return [(sx * x, sy * x, sz * z) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]


def _sphere_geometries(centres: list[tuple[float, float, float]], radius: float = FACE_SPHERE_RADIUS) -> list[str]:
    return [
        f'<origin xyz="{x:.9g} {y:.9g} {z:.9g}"/>\n    <geometry><sphere radius="{radius:.9g}"/></geometry>'
        for x, y, z in (tuple(round(v, 12) + 0.0 for v in c) for c in centres)
    ]


def _urdf(name: str, inertial: str, visual_obj: str, collisions: list[str], color: str) -> str:
    coll = "".join(f"  <collision>\n    {c}\n  </collision>\n" for c in collisions)
    return (
        '<?xml version="1.0"?>\n'
        f'<!-- generated by `kubb3d models build`; do not edit -->\n<robot name="{name}">\n'
        f'<link name="{name}">\n{inertial}'
        "  <visual>\n"
        f'    <geometry><mesh filename="{visual_obj}"/></geometry>\n'
        f'    <material name="{name}-wood"><color rgba="{color}"/></material>\n'
        "  </visual>\n"
        f"{coll}</link>\n</robot>\n"
    )


WOOD_RGBA = {
    "kubb": "0.80 0.66 0.45 1",
    "king": "0.85 0.72 0.50 1",
    "baton": "0.62 0.45 0.28 1",
    "stake": "0.55 0.40 0.25 1",
    "board": "0.76 0.60 0.40 1",
}


def _mesh_inertial(mesh: trimesh.Trimesh, rho: float) -> str:
    """Inertial block from a closed mesh and a density (inertia about the centre of mass)."""
    mesh.density = rho
    inertia = mesh.moment_inertia
    return _inertial(
        mesh.mass, (inertia[0, 0], inertia[1, 1], inertia[2, 2]), tuple(float(v) for v in mesh.center_mass)
    )


BOARD_COLLISION_DEPTH = 0.2
"""m: depth of a table-top board's collision box below its top face (the board itself is 18 mm,
the visual shows that). On an 18 mm static box a disk lying at rest got one-step spins of about
1 rad/s (its rest came 0.5 s late); on a 0.2 m box it does not (docs/physics.md "Table-top
sets")."""


def _box_geometry(sx: float, sy: float, sz: float, z: float = 0.0) -> str:
    origin = f'<origin xyz="0 0 {z:.9g}"/>\n    ' if z else ""
    return f'{origin}<geometry><box size="{sx:.9g} {sy:.9g} {sz:.9g}"/></geometry>'


def _cylinder_geometry(radius: float, length: float, z: float = 0.0) -> str:
    origin = f'<origin xyz="0 0 {z:.9g}"/>\n    ' if z else ""
    return f'{origin}<geometry><cylinder radius="{radius:.9g}" length="{length:.9g}"/></geometry>'


def build_set(eq: EquipmentSet) -> dict[str, str]:
    """All files of one equipment set: file name → text (OBJ or URDF).

    Collision shapes: boxes and cylinders as exact primitives; the king's crown, a disk
    kubb and a mushroom cap as convex meshes (PyBullet takes their convex hull); table-top disks
    (baton and kubb) also carry their face spheres (:data:`FACE_SPHERES`), field batons their
    end spheres (:data:`END_SPHERE_INSET`), field kubbs their corner spheres
    (:data:`CORNER_SPHERE_INSET`).
    """
    rho = eq.wood_density
    n = eq.name
    files: dict[str, str] = {}

    def add(
        kind: str,
        visual: trimesh.Trimesh,
        inertial: str,
        collisions: list[str],
        extra: dict[str, trimesh.Trimesh] | None = None,
    ) -> None:
        files[f"{n}-{kind}.obj"] = cast(str, visual.export(file_type="obj"))
        for name, mesh in (extra or {}).items():
            files[name] = cast(str, mesh.export(file_type="obj"))
        files[f"{n}-{kind}.urdf"] = _urdf(f"{n}-{kind}", inertial, f"{n}-{kind}.obj", collisions, WOOD_RGBA[kind])

    kubb = eq.kubb
    if isinstance(kubb, BoxPiece):
        m = kubb.volume * rho
        inset = 2 * CORNER_SPHERE_INSET  # see CORNER_SPHERE_INSET
        box = [_box_geometry(kubb.width - inset, kubb.width - inset, kubb.height - inset)]
        inertial = _inertial(m, kubb.inertia_diagonal(m))
        spheres = _sphere_geometries(corner_sphere_centres(kubb), CORNER_SPHERE_RADIUS)
        add("kubb", kubb_mesh(kubb), inertial, box + spheres)
        # the same kubb for a terrain heightfield: see TERRAIN_CORNER_SPHERE_RADIUS
        spheres = _sphere_geometries(
            corner_sphere_centres(kubb, TERRAIN_CORNER_SPHERE_RADIUS), TERRAIN_CORNER_SPHERE_RADIUS
        )
        terrain = _urdf(f"{n}-kubb", inertial, f"{n}-kubb.obj", box + spheres, WOOD_RGBA["kubb"])
        files[f"{n}-kubb-terrain.urdf"] = terrain
    else:
        mesh = disk_kubb_mesh(kubb)
        add(
            "kubb",
            mesh,
            _mesh_inertial(mesh.copy(), rho),
            [f'<geometry><mesh filename="{n}-kubb-collision.obj"/></geometry>']
            + _sphere_geometries(face_sphere_centres(kubb)),
            {f"{n}-kubb-collision.obj": disk_kubb_mesh(kubb, inset=CONVEX_MARGIN)},
        )

    king = eq.king
    if isinstance(king, KingPiece):
        body = king.body
        add(
            "king",
            king_mesh(king),
            _mesh_inertial(king_mesh(king), rho),
            [
                _box_geometry(body.width, body.width, body.height, -king.height / 2 + body.height / 2),
                f'<geometry><mesh filename="{n}-king-crown.obj"/></geometry>',
            ],
            {f"{n}-king-crown.obj": king_crown(king, CONVEX_MARGIN)},
        )
    else:
        _, cap = mushroom_parts(king, CONVEX_MARGIN)
        add(
            "king",
            mushroom_mesh(king),
            _mesh_inertial(mushroom_mesh(king), rho),
            [
                _cylinder_geometry(king.stem_diameter / 2, king.stem_height, -king.height / 2 + king.stem_height / 2),
                f'<geometry><mesh filename="{n}-king-cap.obj"/></geometry>',
            ],
            {f"{n}-king-cap.obj": cap},
        )

    m = eq.baton.volume * rho
    if eq.board is not None:
        # a table-top baton is a disk sliding on the board: see FACE_SPHERES
        baton = [_cylinder_geometry(eq.baton.radius, eq.baton.length)]
        baton += _sphere_geometries(face_sphere_centres(eq.baton))
    else:
        # a field baton lies on its side: see END_SPHERE_INSET
        baton = [_cylinder_geometry(eq.baton.radius - END_SPHERE_INSET, eq.baton.length)]
        baton += _sphere_geometries(end_sphere_centres(eq.baton), eq.baton.radius)
    add("baton", cylinder_mesh(eq.baton), _inertial(m, eq.baton.inertia_diagonal(m)), baton)
    if eq.stake is not None:
        add(
            "stake",
            cylinder_mesh(eq.stake),
            _inertial(0.0, (0.0, 0.0, 0.0)),
            [_cylinder_geometry(eq.stake.radius, eq.stake.length)],
        )
    if eq.board is not None:
        b = eq.board
        # the collision box reaches BOARD_COLLISION_DEPTH below the board's top (see there)
        add(
            "board",
            trimesh.creation.box(extents=(b.length, b.width, b.thickness)),
            _inertial(0.0, (0.0, 0.0, 0.0)),
            [_box_geometry(b.length, b.width, BOARD_COLLISION_DEPTH, b.thickness / 2 - BOARD_COLLISION_DEPTH / 2)],
        )
    return files


def build_all() -> dict[str, str]:
    """Files for every registered equipment set plus ``manifest.json`` (the parameters used)."""
    files: dict[str, str] = {}
    manifest: dict[str, Any] = {"generator": "kubb3d.assets", "sets": {}}
    for name, eq in sorted(EQUIPMENT_SETS.items()):
        files.update(build_set(eq))
        manifest["sets"][name] = asdict(eq)
    files["manifest.json"] = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    files[MASS_PROPERTIES] = mass_properties()
    return files


def write_models(out: Path) -> list[Path]:
    """Build every file and write it to ``out`` (the folder kubb3d reads is :func:`models_dir`:
    no default, so that nothing rebuilds it unasked). Returns the paths.

    The folder is made if its parent exists (never its parents); each file is written by the
    output rule (:mod:`kubb3d.files`: no symbolic link followed, a failed write leaves nothing).

    Raises:
        kubb3d.files.FileSafetyError: the folder or a file breaks the rule, or the disk is full.
    """
    from kubb3d.files import output_folder, write_output

    out = output_folder(out, "--out")
    written = []
    for name, text in build_all().items():
        data = text.encode("utf-8")

        def fill(tmp: Path, data: bytes = data) -> None:
            tmp.write_bytes(data)

        written.append(write_output(out / name, fill, "--out"))
    return written


def _obj_arrays(text: str) -> tuple[np.ndarray, np.ndarray]:
    v, f = [], []
    for line in text.splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "v":
            v.append([float(x) for x in parts[1:4]])
        elif parts[0] == "f":
            f.append([int(x.split("/")[0]) for x in parts[1:]])
    return np.array(v), np.array(f)


def check_models(where: Path | None = None) -> list[str]:
    """Compare the files on disk with a fresh build.

    Returns:
        A list of problems (empty when everything matches): missing, extra or
        differing files, each as a readable sentence.
    """
    where = where or models_dir()
    problems = []
    fresh = build_all()
    on_disk = {p.name for p in where.iterdir() if p.suffix in (".obj", ".urdf", ".json")}
    for extra in sorted(on_disk - set(fresh)):
        problems.append(f"{extra}: on disk but not produced by the build")
    for name, text in sorted(fresh.items()):
        path = where / name
        if not path.is_file():
            problems.append(f"{name}: missing")
            continue
        old = path.read_text()
        if name.endswith(".obj"):
            try:
                (v0, f0), (v1, f1) = _obj_arrays(old), _obj_arrays(text)
            except ValueError:
                problems.append(f"{name}: not a readable OBJ file")
                continue
            if (
                v0.shape != v1.shape
                or f0.shape != f1.shape
                or not np.array_equal(f0, f1)
                or not np.allclose(v0, v1, atol=1e-9, rtol=0)
            ):
                problems.append(f"{name}: geometry differs from a fresh build")
        elif name == MASS_PROPERTIES:
            try:
                same = _same_numbers(json.loads(old), json.loads(text))
            except ValueError:
                same = False
            if not same:
                problems.append(f"{name}: differs from a fresh build")
        elif old != text:
            problems.append(f"{name}: differs from a fresh build")
    return problems


def _same_numbers(a: Any, b: Any) -> bool:
    """Equal JSON values, numbers to 1e-12 relative (a trimesh upgrade may change last bits: the
    stored values stay what the simulation uses until the models are rebuilt)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_numbers(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_numbers(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        numbers = isinstance(a, (int, float)) and isinstance(b, (int, float))
        return numbers and math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)
    return a == b

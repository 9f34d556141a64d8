"""Regulation equipment sets: kubbs, king, batons and stakes, in SI units.

Every set is a frozen dataclass; dimensions are metres, densities kg/m³,
masses kg, inertias kg·m². Pieces are described in their own body frame with
the long axis along +z and the origin at the centre of mass of the body box
(for the king: the centre of its body box; the crown sits on top).

Sources of the numbers
----------------------
* ``standard``: the set of the World Championship and US rules: kubb
  7×7×15 cm, king 9×9×30 cm with a crown, baton Ø4.4 cm × 30 cm, pitch
  5×8 m (project reference numbers, docs/physics.md "Reference numbers").
* ``dm-small``: rule book ``DM §2`` ("König 7,5 cm; Kubbs 6,0 cm; Wurfhölzer
  4,0 cm"). The rule book gives only the square size of king and kubbs and the
  diameter of the batons. **Assumption** (retail "small" sets): kubbs
  6×6×15 cm, king 7.5×7.5×28 cm, batons 28 cm long.
* Wood density: rubberwood ≈ 595–640 kg/m³ (default 620), beech ≈ 720 kg/m³.
  With rubberwood a standard kubb weighs ≈ 0.46 kg, a baton ≈ 0.28 kg.
* Stakes: not specified by any seed; we use round wooden pegs Ø3 cm standing
  25 cm out of the ground (common in retail sets).
* ``kubbuteo`` (rule book ``KT`` "Equipment"): "smooth wooden disks 1.25 inches in
  diameter, 0.3 inches in height" for batons and kubbs, the kubbs "sanded on
  the edge to provide a flat surface" (we assume a flat 0.4 in = 1.0 cm wide),
  and a "wooden mushroom shaped" king "1.25 inches in diameter and 2 inches in
  height" (we assume a stem Ø0.6 in rising 1.2 in, then a domed cap). Beech.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace

from kubb3d.errors import EquipmentError, UnknownNameError
from kubb3d.ranges import did_you_mean, listed

RUBBERWOOD_DENSITY = 620.0
"""kg/m³, middle of the 595–640 kg/m³ range for rubberwood (docs/physics.md)."""

BEECH_DENSITY = 720.0
"""kg/m³, European beech (docs/physics.md)."""

WOODS = {"rubberwood": RUBBERWOOD_DENSITY, "beech": BEECH_DENSITY}


INCH = 0.0254
"""m per inch (exact)."""

CONVEX_MARGIN = 0.001
"""m: PyBullet pads a convex-mesh collision shape by this margin (measured: a disk kubb with a
convex-mesh collision shape rests 0.99 mm higher than its mesh says). Collision meshes are
therefore built this much inside the true surface, so that with the margin they match it (and
their edges come out rounded by 1 mm, like sanded wood). The judge's tipping geometry of a
Kubbuteo kubb uses the same rounding (:meth:`DiskPiece.tipping_angle_towards`)."""


@dataclass(frozen=True)
class BoxPiece:
    """A square-section wooden block standing on an end face (kubb, king body).

    Attributes:
        width: side of the square cross-section, m.
        height: length along the long axis (+z in body frame), m.
    """

    width: float
    height: float

    shape = "box"

    @property
    def half_extents(self) -> tuple[float, float, float]:
        """(hx, hy, hz) in m."""
        return (self.width / 2, self.width / 2, self.height / 2)

    @property
    def volume(self) -> float:
        """m³."""
        return self.width * self.width * self.height

    @property
    def lying_height(self) -> float:
        """Height of the centre above the ground when lying on a side, m."""
        return self.width / 2

    @property
    def tipping_angle(self) -> float:
        """Static tipping angle on its end face, rad: atan(width/height)."""
        return math.atan2(self.width, self.height)

    def inertia_diagonal(self, mass: float) -> tuple[float, float, float]:
        """Principal moments about the centre of mass, kg·m² (solid box)."""
        w, h = self.width, self.height
        return (mass * (w * w + h * h) / 12, mass * (w * w + h * h) / 12, mass * (w * w + w * w) / 12)


@dataclass(frozen=True)
class KingPiece:
    """The king: a square block with a crown on top.

    The crown is ``crown_height`` tall and made of a chamfered cap with four
    corner points (see :func:`kubb3d.assets.king_mesh`). ``height`` is the
    total height including the crown.

    Attributes:
        width: side of the square body, m.
        height: total height including the crown, m.
        crown_height: height of the crown above the body box, m.
    """

    width: float
    height: float
    crown_height: float

    shape = "box"

    @property
    def body(self) -> BoxPiece:
        """The body box below the crown."""
        return BoxPiece(self.width, self.height - self.crown_height)

    @property
    def half_extents(self) -> tuple[float, float, float]:
        """Half extents of the bounding box (body + crown), m."""
        return (self.width / 2, self.width / 2, self.height / 2)

    @property
    def tipping_angle(self) -> float:
        """Static tipping angle on its end face, rad: atan(half width / height of the centre of
        mass above the base). The crown is lighter than the body it tops, so the centre of mass
        sits below the bounding box's centre (:func:`kubb3d.model_files.king_com_height`): 18.4° for
        the standard 9×9×30 cm king, not the 16.7° of a plain block of its full height."""
        from kubb3d.model_files import king_com_height

        return math.atan2(self.width / 2, self.height / 2 + king_com_height(self))


@dataclass(frozen=True)
class CylinderPiece:
    """A round wooden rod (baton, stake), long axis along +z.

    Attributes:
        diameter: m.
        length: m.
    """

    diameter: float
    length: float

    shape = "cylinder"

    @property
    def half_extents(self) -> tuple[float, float, float]:
        """(r, r, L/2) in m."""
        return (self.radius, self.radius, self.length / 2)

    @property
    def height(self) -> float:
        """Extent along the axis, m (= length)."""
        return self.length

    @property
    def radius(self) -> float:
        """m."""
        return self.diameter / 2

    @property
    def volume(self) -> float:
        """m³."""
        return math.pi * self.radius**2 * self.length

    def inertia_diagonal(self, mass: float) -> tuple[float, float, float]:
        """Principal moments about the centre of mass, kg·m² (solid cylinder)."""
        r, length = self.radius, self.length
        transverse = mass * (3 * r * r + length * length) / 12
        return (transverse, transverse, mass * r * r / 2)


LYING_DISK_KUBB = (0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4))
"""quat_xyzw of a Kubbuteo disk kubb lying flat on a face (its disk axis, body x, turned to vertical)."""


@dataclass(frozen=True)
class DiskPiece:
    """A wooden disk with a flat sanded on its rim so that it stands on edge (Kubbuteo kubb, KT).

    Body frame: the disk's axis is +x; +z points from the flat through the centre, so the
    disk stands upright on its flat with identity orientation. The origin is the centre of
    the bounding box, which lies ``flat_depth / 2`` above the disk's centre.

    Attributes:
        diameter: m.
        thickness: m.
        flat_width: width of the sanded flat (a chord), m.
    """

    diameter: float
    thickness: float
    flat_width: float

    shape = "disk"

    @property
    def radius(self) -> float:
        """m."""
        return self.diameter / 2

    @property
    def flat_depth(self) -> float:
        """How deep the flat cuts into the disk (sagitta of the chord), m."""
        r, c = self.radius, self.flat_width / 2
        return r - math.sqrt(r * r - c * c)

    @property
    def height(self) -> float:
        """Standing height on the flat, m."""
        return self.diameter - self.flat_depth

    @property
    def width(self) -> float:
        """Thickness, m (the disk's narrow dimension, as ``BoxPiece.width`` is a kubb's)."""
        return self.thickness

    @property
    def half_extents(self) -> tuple[float, float, float]:
        """Bounding box half sizes (thickness/2, r, height/2), m."""
        return (self.thickness / 2, self.radius, self.height / 2)

    @property
    def lying_height(self) -> float:
        """Height of the centre above the board when lying flat, m."""
        return self.thickness / 2

    @property
    def com_height(self) -> float:
        """Height of the centre of mass above the flat, m: the disk's centre √(r² − c²) above it
        (c half the flat's width) plus the lift from the sawn-off segment (area A = r²(α − sin α cos α),
        centroid 2 r sin³α / (3(α − sin α cos α)) below the centre, sin α = c / r; the rest of the
        disk's centroid moves up by that moment / (π r² − A)): 15.04 + 0.11 mm for the KT disk."""
        r, c = self.radius, self.flat_width / 2
        alpha = math.asin(c / r)
        seg = r * r * (alpha - math.sin(alpha) * math.cos(alpha))
        below = 2 * r * math.sin(alpha) ** 3 / (3 * (alpha - math.sin(alpha) * math.cos(alpha)))
        return math.sqrt(r * r - c * c) + seg * below / (math.pi * r * r - seg)

    @property
    def edge_radius(self) -> float:
        """Rounding of every edge of the collision shape, m (:data:`CONVEX_MARGIN`)."""
        return CONVEX_MARGIN

    @property
    def support(self) -> tuple[float, float, float]:
        """The rectangle a standing disk pivots on when it tips, and the centre of mass above it:
        (half size across the thickness, half size along the flat, height of the centre of mass
        above it), m.

        With its edges rounded by ``ρ`` = :attr:`edge_radius` the disk is the inner disk (radius
        r − ρ, thickness t − 2ρ, flat ρ higher) padded by ρ in every direction; tilted, it rests
        on the rounding under the inner flat's edge, so it turns back onto its flat while the
        vertical through the centre of mass (:attr:`com_height`) meets the inner flat
        (docs/physics.md "Tipping a Kubbuteo kubb"). 2.81 mm × 4.91 mm, 14.15 mm up for the KT disk."""
        rho = self.edge_radius
        flat = math.sqrt(self.radius**2 - (self.flat_width / 2) ** 2) - rho  # the disk's centre above the inner flat
        half_chord = math.sqrt(max((self.radius - rho) ** 2 - flat**2, 0.0))
        return (self.thickness / 2 - rho, half_chord, self.com_height - rho)

    def tipping_angle_towards(self, direction: float) -> float:
        """Static tipping angle of the disk standing on its flat, tilted towards ``direction``
        (rad in the disk's own frame: 0 sideways, towards a face (body +x); π/2 in its own plane,
        rolling along its rim (body +y)), rad.

        The vertical through the centre of mass leaves the inner flat (:attr:`support`) at
        tan θ = min(a / |cos d|, b / |sin d|) / h: 11.2° sideways, 19.1° in its plane, 21.7° towards
        the flat's corner for the KT disk (measured in the physics to within 0.2°: docs/physics.md
        "Tipping a Kubbuteo kubb"). Past the flat's end in its plane the disk rests on its rim,
        whose centre lies 0.11 mm below the centre of mass: it rolls on, off its flat."""
        a, b, h = self.support
        c, s = abs(math.cos(direction)), abs(math.sin(direction))
        reach = min(a / c if c > 1e-12 else math.inf, b / s if s > 1e-12 else math.inf)
        return math.atan2(reach, h)

    @property
    def tipping_angle(self) -> float:
        """Static tipping angle sideways (towards a face, the smallest of any direction), rad:
        :meth:`tipping_angle_towards` (0), 11.2° for the KT disk (14.1° for a disk with sharp edges)."""
        return self.tipping_angle_towards(0.0)


@dataclass(frozen=True)
class MushroomPiece:
    """The Kubbuteo king: a wooden mushroom (rule book KT "Equipment"), a stem with a domed cap.

    Body frame: +z up the stem, origin at the centre of the bounding box.

    Attributes:
        diameter: cap diameter, m.
        height: total height, m.
        stem_diameter: m.
        stem_height: height of the cylindrical stem below the cap, m.
    """

    diameter: float
    height: float
    stem_diameter: float
    stem_height: float

    shape = "mushroom"

    @property
    def width(self) -> float:
        """Cap diameter, m."""
        return self.diameter

    @property
    def half_extents(self) -> tuple[float, float, float]:
        """(r_cap, r_cap, height/2), m."""
        return (self.diameter / 2, self.diameter / 2, self.height / 2)

    DOME_POINTS = 9
    """Points on the quarter ellipse of the cap's dome in :meth:`profiles` (the mesh's too)."""

    def profiles(self, inset: float = 0.0) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
        """(stem, cap) outlines as closed lists of (r, z) from the base at z = 0, m, each turned
        about the axis to make its part (kubb3d's shape of the KT king: a stem, a cap whose underside
        widens from the stem to the rim 15 % of the way up the cap, then a domed top, a quarter
        ellipse of :attr:`DOME_POINTS` points). ``inset`` (m) shrinks the cap for its collision mesh
        (:data:`CONVEX_MARGIN`)."""
        rs, rc = self.stem_diameter / 2, self.diameter / 2 - inset
        hs, h = self.stem_height + inset, self.height - inset
        stem = [(0.0, 0.0), (rs, 0.0), (rs, hs), (0.0, hs)]
        rim = hs + 0.15 * (h - hs)
        step = (math.pi / 2) / (self.DOME_POINTS - 1)
        dome = [(rc * math.cos(i * step), rim + (h - rim) * math.sin(i * step)) for i in range(self.DOME_POINTS)]
        return stem, [(0.0, hs), (rs, hs), *dome]

    @property
    def com_height(self) -> float:
        """Height of the centre of mass above the foot of the stem, m: stem and cap of
        :meth:`profiles` turned about the axis, each outline edge from (r0, z0) to (r1, z1)
        adding π ∫ r² dz to the volume and π ∫ r² z dz to its moment (r linear along the edge).
        30.71 mm for the KT king (its mid height is 25.40 mm: the cap is the heavier part); equal
        to the mesh's (a regular polygon turned about the axis scales every slice alike)."""
        volume = moment = 0.0
        for outline in self.profiles():
            for (r0, z0), (r1, z1) in zip(outline, outline[1:] + outline[:1]):
                dr, dz = r1 - r0, z1 - z0
                area = r0 * r0 + r0 * dr + dr * dr / 3  # mean r² along the edge
                volume += dz * area
                moment += dz * (z0 * area + dz * (r0 * r0 / 2 + 2 * r0 * dr / 3 + dr * dr / 4))
        return moment / volume

    @property
    def edge_radius(self) -> float:
        """Rounding of the stem's foot in the physics, m (:data:`CONVEX_MARGIN`: PyBullet builds
        the stem as a cylinder shape whose 1 mm collision margin lies inside its size, so its
        edges are rounded by it; measured through the tipping angle, docs/physics.md
        "The Kubbuteo king")."""
        return CONVEX_MARGIN

    @property
    def support(self) -> tuple[float, float]:
        """The circle a standing king pivots on when it tips, and its centre of mass above it:
        (radius, height of the centre of mass above its plane), m. Tilted, the king rests on the
        rounding of its foot (:attr:`edge_radius` ρ), whose centre line is a circle of radius
        r_stem − ρ, ρ above the foot: 6.62 mm, 29.71 mm for the KT king."""
        rho = self.edge_radius
        return (self.stem_diameter / 2 - rho, self.com_height - rho)

    @property
    def tipping_angle(self) -> float:
        """Static tipping angle on its stem, rad, the same in every direction (the king is round):
        tan θ = (r_stem − ρ) / (h_com − ρ) (:attr:`support`), 12.56° for the KT king (measured in
        the physics 12.56–12.57°; with the centre of mass at mid height and a sharp foot it was
        taken as 16.7°: docs/physics.md "The Kubbuteo king")."""
        reach, h = self.support
        return math.atan2(reach, h)


@dataclass(frozen=True)
class Board:
    """A table-top playing surface (Kubbuteo): pieces can fall off its edges.

    Attributes:
        length, width: m.
        thickness: m.
        table_height: height of the board top above the floor, m.
    """

    length: float
    width: float
    thickness: float = 0.018
    table_height: float = 0.75


@dataclass(frozen=True)
class EquipmentSet:
    """One regulation set of pieces.

    Attributes:
        name: registry name (``standard``, ``dm-small``).
        kubb: the kubb block.
        king: the king.
        baton: the throwing baton.
        stake: the corner / centre-line stakes (the part above ground).
        wood_density: kg/m³ used for every wooden piece.
        source: where the dimensions come from.
    """

    name: str
    kubb: BoxPiece | DiskPiece
    king: KingPiece | MushroomPiece
    baton: CylinderPiece
    stake: CylinderPiece | None = field(default_factory=lambda: CylinderPiece(0.03, 0.25))
    wood_density: float = RUBBERWOOD_DENSITY
    board: Board | None = None
    baseline_inset: float = 0.0
    source: str = ""

    def piece(self, kind: str):
        """The piece description of a kind (``kubb``, ``king``, ``baton``, ``stake``).

        Raises:
            EquipmentError: unknown kind, or a kind this set does not have (no stakes on a board).
        """
        piece = {"kubb": self.kubb, "king": self.king, "baton": self.baton, "stake": self.stake}.get(kind)
        if piece is None:
            raise EquipmentError(f"equipment set {self.name!r} has no piece of kind {kind!r}")
        return piece

    @property
    def kubb_mass(self) -> float:
        """kg."""
        return self.mass("kubb")

    def mass(self, kind: str) -> float:
        """Mass of a piece from its mesh volume and the wood density, kg (stakes are fixed: 0)."""
        if kind == "stake":
            return 0.0
        return _mesh_volume(self.piece(kind)) * self.wood_density

    @property
    def baton_mass(self) -> float:
        """kg (exact cylinder volume: the 32-facet mesh would be 0.6 % light)."""
        return self.baton.volume * self.wood_density

    @property
    def king_mass(self) -> float:
        """kg, with the crown or mushroom cap (from the king mesh volume)."""
        return self.mass("king")

    def with_wood(self, wood: str | float) -> "EquipmentSet":
        """The same set made of another wood (name in :data:`WOODS` or density kg/m³).

        Raises:
            UnknownNameError, EquipmentError: unknown wood name or non-positive density.
        """
        density = WOODS.get(wood) if isinstance(wood, str) else float(wood)
        if density is None:
            raise UnknownNameError(
                f"unknown wood {wood!r}"
                f"{did_you_mean(str(wood), sorted(WOODS))}"
                f"; expected one of {listed(sorted(WOODS))} or a density in kg/m³"
            )
        if not density > 0:
            raise EquipmentError(f"wood density must be > 0 kg/m³, got {density}")
        return replace(self, wood_density=density)


STANDARD = EquipmentSet(
    name="standard",
    kubb=BoxPiece(0.07, 0.15),
    king=KingPiece(0.09, 0.30, 0.05),
    baton=CylinderPiece(0.044, 0.30),
    source="World Championship / US rules set: kubb 7x7x15 cm, king 9x9x30 cm, baton 4.4x30 cm",
)

DM_SMALL = EquipmentSet(
    name="dm-small",
    kubb=BoxPiece(0.06, 0.15),
    king=KingPiece(0.075, 0.28, 0.045),
    baton=CylinderPiece(0.040, 0.28),
    source="DM §2 (king 7.5 cm, kubbs 6.0 cm, batons 4.0 cm); heights and lengths assumed from retail small sets",
)

KUBBUTEO = EquipmentSet(
    name="kubbuteo",
    kubb=DiskPiece(1.25 * INCH, 0.3 * INCH, 0.4 * INCH),
    king=MushroomPiece(1.25 * INCH, 2.0 * INCH, 0.6 * INCH, 1.2 * INCH),
    baton=CylinderPiece(1.25 * INCH, 0.3 * INCH),
    stake=None,
    wood_density=BEECH_DENSITY,
    board=Board(48 * INCH, 24 * INCH),
    baseline_inset=3.5 * INCH,
    source="KT 'Equipment': board 4 ft x 2 ft, baselines 3.5 in from the ends, disks 1.25 in x 0.3 in, king 1.25 in x "
           "2 in",
)

def kubbuteo_disk() -> DiskPiece:
    """The Kubbuteo kubb (:data:`KUBBUTEO`'s ``kubb``) as a :class:`DiskPiece`."""
    disk = KUBBUTEO.kubb
    assert isinstance(disk, DiskPiece)
    return disk


def kubbuteo_king() -> MushroomPiece:
    """The Kubbuteo king (:data:`KUBBUTEO`'s ``king``) as a :class:`MushroomPiece`."""
    king = KUBBUTEO.king
    assert isinstance(king, MushroomPiece)
    return king


EQUIPMENT_SETS: dict[str, EquipmentSet] = {s.name: s for s in (STANDARD, DM_SMALL, KUBBUTEO)}
"""Registry of equipment sets by name."""


def get_set(name: str) -> EquipmentSet:
    """Look up an equipment set by name.

    Raises:
        UnknownNameError: unknown name (the message lists the known ones).
    """
    try:
        return EQUIPMENT_SETS[name]
    except KeyError:
        raise UnknownNameError(f"unknown equipment set {name!r}"
                               f"{did_you_mean(name, sorted(EQUIPMENT_SETS))}"
                               f"; expected one of {listed(sorted(EQUIPMENT_SETS))}") from None


@functools.lru_cache(maxsize=None)
def _mesh_volume(piece) -> float:
    """m³: the volume of a piece's mesh (kubb3d.assets.piece_mesh; stored in models/, else built), once per piece
    description (a flick's release asked for it at every flick: 3 % of a Kubbuteo match)."""
    from kubb3d.model_files import mesh_volume

    return mesh_volume(piece)

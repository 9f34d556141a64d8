"""Regulation equipment sets: kubbs, king, batons and stakes, in SI units.

Every set is a frozen dataclass; dimensions are metres, densities kg/m³,
masses kg, inertias kg·m². Pieces are described in their own body frame with
the long axis along +z and the origin at the centre of mass of the body box
(for the king: the centre of its body box; the crown sits on top).

Sources of the numbers
----------------------
* ``standard``: the set of the World Championship and US rules: kubb
  7×7×15 cm, king 9×9×30 cm with a crown, baton Ø4.4 cm × 30 cm, pitch
  5×8 m (project reference numbers, ``DESIGN.md`` "Reference numbers").
* ``dm-small``: seed ``DM §2`` ("König 7,5 cm; Kubbs 6,0 cm; Wurfhölzer
  4,0 cm"). The seed gives only the square size of king and kubbs and the
  diameter of the batons. **Assumption** (retail "small" sets): kubbs
  6×6×15 cm, king 7.5×7.5×28 cm, batons 28 cm long.
* Wood density: rubberwood ≈ 595–640 kg/m³ (default 620), beech ≈ 720 kg/m³.
  With rubberwood a standard kubb weighs ≈ 0.46 kg, a baton ≈ 0.28 kg.
* Stakes: not specified by any seed; we use round wooden pegs Ø3 cm standing
  25 cm out of the ground (common in retail sets).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

RUBBERWOOD_DENSITY = 620.0
"""kg/m³, middle of the 595–640 kg/m³ range for rubberwood (DESIGN.md)."""

BEECH_DENSITY = 720.0
"""kg/m³, European beech (DESIGN.md)."""

WOODS = {"rubberwood": RUBBERWOOD_DENSITY, "beech": BEECH_DENSITY}


@dataclass(frozen=True)
class BoxPiece:
    """A square-section wooden block standing on an end face (kubb, king body).

    Attributes:
        width: side of the square cross-section, m.
        height: length along the long axis (+z in body frame), m.
    """

    width: float
    height: float

    @property
    def half_extents(self) -> tuple[float, float, float]:
        """(hx, hy, hz) in m."""
        return (self.width / 2, self.width / 2, self.height / 2)

    @property
    def volume(self) -> float:
        """m³."""
        return self.width * self.width * self.height

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
        """Static tipping angle of the body on its end face, rad (crown ignored: it raises the
        centre of mass by a few mm only)."""
        return math.atan2(self.width, self.height)


@dataclass(frozen=True)
class CylinderPiece:
    """A round wooden rod (baton, stake), long axis along +z.

    Attributes:
        diameter: m.
        length: m.
    """

    diameter: float
    length: float

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
    kubb: BoxPiece
    king: KingPiece
    baton: CylinderPiece
    stake: CylinderPiece = field(default_factory=lambda: CylinderPiece(0.03, 0.25))
    wood_density: float = RUBBERWOOD_DENSITY
    source: str = ""

    @property
    def kubb_mass(self) -> float:
        """kg."""
        return self.kubb.volume * self.wood_density

    @property
    def baton_mass(self) -> float:
        """kg."""
        return self.baton.volume * self.wood_density

    @property
    def king_mass(self) -> float:
        """kg, body and crown (from the king mesh volume)."""
        from kubb3d.assets import king_mesh

        return king_mesh(self.king).volume * self.wood_density

    def with_wood(self, wood: str | float) -> "EquipmentSet":
        """The same set made of another wood (name in :data:`WOODS` or density kg/m³).

        Raises:
            ValueError: unknown wood name or non-positive density.
        """
        density = WOODS.get(wood) if isinstance(wood, str) else float(wood)
        if density is None:
            raise ValueError(f"unknown wood {wood!r}; expected one of {sorted(WOODS)} or a density in kg/m³")
        if not density > 0:
            raise ValueError(f"wood density must be > 0 kg/m³, got {density}")
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

EQUIPMENT_SETS: dict[str, EquipmentSet] = {s.name: s for s in (STANDARD, DM_SMALL)}
"""Registry of equipment sets by name. ``kubbuteo`` joins later (seed KT)."""


def get_set(name: str) -> EquipmentSet:
    """Look up an equipment set by name.

    Raises:
        ValueError: unknown name (the message lists the known ones).
    """
    try:
        return EQUIPMENT_SETS[name]
    except KeyError:
        raise ValueError(f"unknown equipment set {name!r}; expected one of {sorted(EQUIPMENT_SETS)}") from None

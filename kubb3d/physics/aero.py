"""Air drag on a flying baton or kubb.

Quadratic drag F = −½ ρ C_d A |v| v with an orientation-dependent projected
area. A rod of diameter d and length L seen at angle α between its axis and
the flow has cross-flow area d·L·sin α and end area π d²/4 · |cos α|; we blend
the two drag coefficients the same way (independence principle for inclined
cylinders). Drag acts at the centre of mass, so it exerts no torque: the spin
of a baton is constant in flight (air resistance to the spin itself is not
modelled).

Sources: air density 1.204 kg/m³ at 20 °C, sea level; drag coefficient of a
circular cylinder in cross-flow ≈ 1.0–1.2 for 10⁴ < Re < 2·10⁵ (a 4.4 cm
baton at 10 m/s has Re ≈ 3·10⁴): 1.1; a short cylinder end-on ≈ 0.8–0.9:
0.85.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar


AIR_DENSITY = 1.204


@dataclass(frozen=True)
class RodDrag:
    """Drag model of a rod (baton) or block (kubb, treated as a rod of equal area).

    Attributes:
        diameter: m (for a square kubb: the side, area d·L matches).
        length: m.
        cd_cross: drag coefficient across the axis.
        cd_axial: drag coefficient along the axis.
        air_density: kg/m³.
    """

    diameter: float
    length: float
    cd_cross: float = 1.1
    cd_axial: float = 0.85
    air_density: float = AIR_DENSITY
    # set once per instance by __post_init__ (not fields: no init, repr or comparison)
    _side: ClassVar[float]
    _end: ClassVar[float]
    _half_rho: ClassVar[float]

    def __post_init__(self) -> None:
        # the constant factors of force(), grouped exactly as force() evaluates them left to
        # right, so the result is bit-identical to the written-out formula
        object.__setattr__(self, "_side", self.cd_cross * self.diameter * self.length)
        object.__setattr__(self, "_end", self.cd_axial * math.pi * self.diameter**2 / 4)
        object.__setattr__(self, "_half_rho", -0.5 * self.air_density)

    @property
    def factors(self) -> tuple[float, float, float]:
        """(−½·ρ kg/m³, c_cross·d·L m², c_axial·π·d²/4 m²): :meth:`force` is
        −½·ρ·(c_cross·d·L·sin α + c_axial·π·d²/4·cos α)·|v|·v, for callers that write it out in
        their own loops (the same floats, grouped as :meth:`force` groups them)."""
        return self._half_rho, self._side, self._end

    @property
    def most(self) -> float:
        """N/(m/s)²: the largest |force| / |v|² at any angle of attack, ½·ρ·(c_cross·d·L +
        c_axial·π·d²/4) (an upper bound: sin α and cos α are at most 1)."""
        return -self._half_rho * (self._side + self._end)

    def force(self, velocity, axis) -> tuple[float, float, float]:
        """Drag force, N, as a tuple (fx, fy, fz).

        Args:
            velocity: centre-of-mass velocity relative to the air, m/s, shape (3,).
            axis: unit vector along the rod's long axis, shape (3,).
        """
        vx, vy, vz = velocity
        speed = math.sqrt(vx * vx + vy * vy + vz * vz)
        if speed == 0.0:
            return (0.0, 0.0, 0.0)
        ax, ay, az = axis
        cos_a = abs(vx * ax + vy * ay + vz * az) / speed
        sin_a = math.sqrt(max(0.0, 1.0 - cos_a * cos_a))
        # = cd_cross·d·L·sin α + cd_axial·π·d²/4·cos α, then −½·ρ·cda·|v|
        cda = self._side * sin_a + self._end * cos_a
        k = self._half_rho * cda * speed
        return (k * vx, k * vy, k * vz)


def piece_drag(equipment, kind: str) -> RodDrag | None:
    """The drag model of a thrown piece of an equipment set: a baton is a rod; a kubb is treated
    as a rod of equal side area with C_d 1.05 for a square section (flat plates and square
    prisms across the flow: ≈ 1.0–1.2). None for table-top sets (disks slide, air drag is
    negligible) and for the king and stakes (never thrown)."""
    if equipment.board is not None:
        return None
    if kind == "baton":
        return RodDrag(equipment.baton.diameter, equipment.baton.length)
    if kind == "kubb":
        return RodDrag(equipment.kubb.width, equipment.kubb.height, cd_cross=1.05, cd_axial=1.05)
    return None

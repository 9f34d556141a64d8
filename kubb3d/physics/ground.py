"""Grounds: the surface the pitch is played on.

PyBullet combines two bodies' coefficients per contact: sliding friction and
restitution multiply, rolling and spinning friction combine as
``r_a·μ_b + r_b·μ_a``. kubb3d therefore sets the wood's coefficients so that
the *pair* values below are what a contact gets:

* wood on wood: μ = 0.5 (static ≈ 0.5, kinetic ≈ 0.3; we use one value, the
  static one, DESIGN.md "Reference numbers"), restitution 0.5 (hardwood blocks
  dropped on hardwood rebound to ≈ 25 % of their height: e = √0.25).
* wood on ground: ``Ground.friction``, ``Ground.restitution``.
* rolling and spinning friction act only between batons and the ground (a
  cylinder needs them to stop rolling, DESIGN.md); kubbs get none so that their
  static tipping angle stays atan(w/h).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

WOOD_ON_WOOD_FRICTION = 0.5
WOOD_ON_WOOD_RESTITUTION = 0.5


@dataclass(frozen=True)
class Ground:
    """A playing surface.

    Attributes:
        name: registry name.
        friction: sliding friction coefficient of wood on this ground, dimensionless.
        rolling_resistance: rolling resistance coefficient c_rr of a baton
            rolling on it (resisting torque = c_rr · r · N), dimensionless.
        spinning_friction: torsional friction length of a baton spinning flat on
            it, m (resisting torque = value · N).
        restitution: coefficient of restitution of wood on this ground.
        contact_stiffness: N/m, or None for a rigid contact (grass gives way).
        contact_damping: N·s/m, used with ``contact_stiffness``.
        plowing: s/m, the plowing resistance of soft ground acting on a thrown piece that
            slides on it: an extra horizontal force k · N · v_h (see
            :meth:`kubb3d.physics.world.World.apply_plowing`); 0 on hard ground.
        source: where the numbers come from.
    """

    name: str
    friction: float
    rolling_resistance: float
    spinning_friction: float
    restitution: float
    contact_stiffness: float | None = None
    contact_damping: float | None = None
    plowing: float = 0.0
    source: str = ""

    def __post_init__(self) -> None:
        for field_name in ("friction", "rolling_resistance", "spinning_friction", "restitution", "plowing"):
            value = getattr(self, field_name)
            if not (math.isfinite(value) and value >= 0):
                raise ValueError(f"ground {self.name!r}: {field_name} must be a finite number >= 0, got {value}")
        if self.restitution > 1:
            raise ValueError(f"ground {self.name!r}: restitution must be <= 1, got {self.restitution}")


GRASS = Ground(
    name="grass",
    friction=0.45,
    rolling_resistance=0.25,
    spinning_friction=0.004,
    restitution=0.15,
    plowing=float(__import__("os").environ.get("K_PLOW", "0.2")),
    source=(
        "dry mown lawn: wood sliding friction 0.4-0.5 and wet about 0.2 (DESIGN.md); "
        "rolling resistance of a rod on turf grass 0.2-0.3 (lawn-bowls green speeds give "
        "0.03 for a bowl on a fine green, a 2 cm rod sinks into long grass far more); "
        "restitution 0.15 and a soft contact (grass gives way); measured: a baton dropped flat "
        "from 1 m rebounds 1.0 cm (the nominal e = 0.15 would give 2.3 cm: the contact "
        "damping absorbs part of it)"
    ),
)

WET_GRASS = Ground(
    name="wet-grass",
    friction=0.2,
    rolling_resistance=0.2,
    spinning_friction=0.003,
    restitution=0.1,
    source="wet lawn: sliding friction about 0.2 (DESIGN.md); otherwise as grass",
)

TURF = Ground(
    name="turf",
    friction=0.35,
    rolling_resistance=0.05,
    spinning_friction=0.002,
    restitution=0.3,
    source=(
        "hard, short artificial turf: lower sliding and rolling friction than lawn, rigid contact; "
        "nominal restitution 0.3, but measured: a baton dropped flat from 1 m rebounds only 0.8 cm "
        "(PyBullet's two-point line contact of a lying cylinder loses most of the rebound)"
    ),
)

PLANE = Ground(
    name="plane",
    friction=0.5,
    rolling_resistance=0.0,
    spinning_friction=0.0,
    restitution=0.0,
    source="an idealised rigid plane for analytic tests: Coulomb friction only",
)

BOARD = Ground(
    name="board",
    friction=0.3,
    rolling_resistance=0.01,
    spinning_friction=0.0005,
    restitution=0.5,
    source=(
        "smooth (planed, varnished) wood under a wooden disk, seed KT 'Equipment': kinetic friction "
        "of wood on smooth wood 0.2-0.4 (DESIGN.md gives 0.3 for wood on wood); hard, lively contact"
    ),
)

GROUNDS: dict[str, Ground] = {g.name: g for g in (GRASS, WET_GRASS, TURF, PLANE, BOARD)}


def get_ground(name: str) -> Ground:
    """Look up a ground by name.

    Raises:
        ValueError: unknown name.
    """
    try:
        return GROUNDS[name]
    except KeyError:
        raise ValueError(f"unknown ground {name!r}; expected one of {sorted(GROUNDS)}") from None

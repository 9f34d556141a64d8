"""Grounds: the surface the pitch is played on.

PyBullet combines two bodies' coefficients per contact: sliding friction and
restitution multiply, rolling and spinning friction combine as
``r_a·μ_b + r_b·μ_a``. kubb3d therefore sets the wood's coefficients so that
the *pair* values below are what a contact gets:

* wood on wood: μ = 0.5, the static coefficient (measured on sawn timber: static 0.46–0.47,
  kinetic 0.33–0.36, means). The engine has one coefficient for sticking and sliding; a kubb
  leaning on another rests on it, so the static value is kept and the kinetic one is the low end
  of its range (docs/physics.md "Material and ground parameters"). Restitution 0.5 (hardwood
  blocks dropped on hardwood rebound to ≈ 25 % of their height: e = √0.25; unmeasured).
* wood on ground: ``Ground.friction``, ``Ground.restitution``.
* rolling and spinning friction act only on batons (a cylinder needs them to
  stop rolling, docs/physics.md); kubbs get none so that their static tipping
  angle stays atan(w/h). On the flat field ground a baton's rolling resistance
  is a torque about its own axis (:meth:`kubb3d.physics.forces.Forces.resist_rolling`),
  not PyBullet's rolling friction, which acts about the ground's fixed axes and
  made a sliding baton drift (docs/physics.md "A baton sliding on the ground");
  on a terrain heightfield only while the baton moves faster than
  ``TERRAIN_ROLL_SPEED``, PyBullet's rolling friction while it is slower.
* plowing: a thrown piece that slides on soft ground ploughs through it (see
  :meth:`kubb3d.physics.forces.Forces.apply_plowing`); 0 on hard ground.
* every ground is a rigid contact (a static box or heightfield with split
  impulse): the grounds differ by their coefficients only, and a flat ground
  and a flat heightfield give the same rebounds (docs/validation.md). The field
  grounds carry :data:`RIGID_CONTACT_STIFFNESS` so that a contact's whole
  penetration is removed in the step it is found (docs/physics.md "Ground contact").
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Iterator

WOOD_ON_WOOD_FRICTION = 0.5
"""Friction of wood on wood, static: timber on timber 0.47 (mean; kinetic 0.36), chestnut on
chestnut 0.36–0.55 static and 0.28–0.39 kinetic by face and direction (docs/physics.md "Material
and ground parameters")."""
WOOD_ON_WOOD_RESTITUTION = 0.5
RIGID_CONTACT_STIFFNESS = 1e12
"""N/m: the contact stiffness of the field grounds, with no damping: not a soft contact but
Bullet's way to set one body's error reduction. It turns ERP into dt·k / (dt·k + c) = 1 for
ground contacts (the pieces add c = 0.1 N·s/m: 1 − 10⁻¹⁰) with a CFM of 1/(dt²·k), under 10⁻⁵
down to 1/3840 s, so split impulse removes a contact's whole penetration in the step it is
found, with no speed added. With PyBullet's 0.08 a piece that struck the ground kept most of
the up to v·dt it had sunk in while it bounced off, so a 1 m drop rebounded 1.96–2.26 cm on
grass depending on where in the step it struck (e²·h = 2.25 cm). The flat ground only: a terrain
heightfield keeps Bullet's ERP (:meth:`kubb3d.physics.terrain.GroundSurface.set_surface`; docs/physics.md
"Ground contact")."""


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
        contact_stiffness: N/m, or None for Bullet's default contact (ERP 0.08). Every
            shipped ground is rigid: the field grounds carry :data:`RIGID_CONTACT_STIFFNESS`
            with no damping, which only sets the share of a penetration removed per step to
            1; a soft contact (finite stiffness with damping) made rebounds and hit rates
            depend on the time step (docs/physics.md "Ground contact").
        contact_damping: N·s/m, used with ``contact_stiffness``.
        plowing: s/m, the plowing resistance of soft ground acting on a thrown piece that
            slides on it: extra horizontal forces k · N · v at its centre of mass and where it
            touches (see
            :meth:`kubb3d.physics.forces.Forces.apply_plowing`); 0 on hard ground.
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
    contact_stiffness=RIGID_CONTACT_STIFFNESS,
    contact_damping=0.0,
    friction=0.45,
    rolling_resistance=0.25,
    spinning_friction=0.004,
    restitution=0.15,
    plowing=0.13,
    source=(
        "dry mown lawn: wood sliding friction 0.4-0.5, wet about 0.2 (docs/physics.md 'Reference "
        "numbers'); rolling resistance of a 2 cm rod in lawn grass 0.25 (a football on artificial "
        "turf rolls with 0.13-0.25, derived from the FIFA ball-roll range; a thin rod sinks "
        "deeper into longer grass); restitution 0.15 (a dropped kubb barely bounces on a lawn; "
        "measured: rebound e²·h within 5 %); plowing 0.13 s/m, calibrated so that a baton landing "
        "from an 8 m throw stops 0.3-1.5 m further on (an estimate from play, no measured figure "
        "found; simulated median 0.5 m, docs/physics.md 'Plowing')"
    ),
)

WET_GRASS = Ground(
    name="wet-grass",
    contact_stiffness=RIGID_CONTACT_STIFFNESS,
    contact_damping=0.0,
    friction=0.2,
    rolling_resistance=0.2,
    spinning_friction=0.003,
    restitution=0.1,
    plowing=0.11,
    source=(
        "wet lawn: sliding friction about 0.2 (docs/physics.md 'Reference numbers'); rolling "
        "resistance a little lower and restitution lower than dry grass (water film, soft soil); "
        "plowing 0.11 s/m, tuned to the slide after landing (median 0.8 m) that dry grass's "
        "plowing gave it before the plowing acted where the ground touches (docs/physics.md 'Plowing')"
    ),
)

TURF = Ground(
    name="turf",
    contact_stiffness=RIGID_CONTACT_STIFFNESS,
    contact_damping=0.0,
    friction=0.35,
    rolling_resistance=0.15,
    spinning_friction=0.002,
    restitution=0.3,
    plowing=0.06,
    source=(
        "short artificial turf with sand and rubber infill: lower sliding friction than lawn; "
        "rolling resistance 0.15, the middle of the 0.13-0.25 that the FIFA ball-roll range (4-8 m "
        "from a 1 m ramp) gives for a football (docs/physics.md 'Ground'); livelier rebound "
        "(restitution 0.3); plowing 0.06 s/m, tuned to the slide after landing (median 1.5 m) that half "
        "a lawn's plowing gave it before the plowing acted where the ground touches (estimate: the "
        "infill gives way less; docs/physics.md 'Plowing')"
    ),
)

PLANE = Ground(
    name="plane",
    contact_stiffness=RIGID_CONTACT_STIFFNESS,
    contact_damping=0.0,
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
        "smooth (planed, varnished) wood under a wooden disk, rule book KT 'Equipment': kinetic friction "
        "of sawn timber on timber 0.28-0.39, a varnished board perhaps less (docs/physics.md 'Material and "
        "ground parameters'); hard, lively contact"
    ),
)

GROUNDS: dict[str, Ground] = {g.name: g for g in (GRASS, WET_GRASS, TURF, PLANE, BOARD)}


@dataclass(frozen=True)
class Materials:
    """The material parameters a world is built with: wood on wood, and the grounds by name
    (those not given are :data:`GROUNDS`'). The default is what the code ships.

    Attributes:
        wood_friction: wood-on-wood friction μ, dimensionless.
        wood_restitution: wood-on-wood restitution e, dimensionless.
        grounds: the grounds that replace the shipped ones of their names.
    """

    wood_friction: float = WOOD_ON_WOOD_FRICTION
    wood_restitution: float = WOOD_ON_WOOD_RESTITUTION
    grounds: tuple[Ground, ...] = ()


_SHIPPED = Materials()
_MATERIALS: ContextVar[Materials | None] = ContextVar("kubb3d_materials", default=None)


def current_materials() -> Materials:
    """The materials a world built now gets: those of the innermost :func:`use_materials`, else
    the shipped ones."""
    return _MATERIALS.get() or _SHIPPED


@contextmanager
def use_materials(materials: Materials) -> Iterator[Materials]:
    """Build the worlds made inside the ``with`` block (and the grounds :func:`get_ground` gives)
    with ``materials``; a world keeps them after the block. Nothing global changes: the
    setting is a context variable, undone when the block is left."""
    token = _MATERIALS.set(materials)
    try:
        yield materials
    finally:
        _MATERIALS.reset(token)


def get_ground(name: str) -> Ground:
    """Look up a ground by name (as :func:`use_materials` replaced it, if it did).

    Raises:
        ValueError: unknown name.
    """
    try:
        shipped = GROUNDS[name]
    except KeyError:
        raise ValueError(f"unknown ground {name!r}; expected one of {sorted(GROUNDS)}") from None
    for ground in current_materials().grounds:
        if ground.name == name:
            return ground
    return shipped

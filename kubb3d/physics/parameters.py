"""Every material and ground parameter the physics uses, with its plausible range and source.

:data:`PARAMETERS` reads each value from the code that uses it (:mod:`kubb3d.physics.ground`,
:mod:`kubb3d.physics.aero`, :mod:`kubb3d.equipment`); :func:`markdown_table` is the table in
docs/physics.md "Material and ground parameters" (a test holds the page to it). A parameter with
no measured source says so: "unmeasured", the range assumed and why.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping

from kubb3d.equipment import BEECH_DENSITY, RUBBERWOOD_DENSITY
from kubb3d.physics.aero import AIR_DENSITY, RodDrag
from kubb3d.physics.ground import GROUNDS, WOOD_ON_WOOD_FRICTION, WOOD_ON_WOOD_RESTITUTION, Materials

UNMEASURED = "unmeasured"
"""How a source cell that rests on no measurement starts."""

GROUND_FIELDS = ("friction", "rolling_resistance", "spinning_friction", "restitution", "plowing")
"""The material fields of :class:`~kubb3d.physics.ground.Ground`: every ground has a row for each."""

_WOOD_ON_WOOD = (
    "measured: sawn chestnut on chestnut, static 0.36–0.55 and kinetic 0.28–0.39 by face and sliding "
    "direction, means 0.46 and 0.33 (Villar-García et al. 2020, Int. Agrophysics 34:65, doi "
    "10.31545/intagr/112270); timber on timber, means 0.47 static and 0.36 kinetic (Villar-García et "
    "al. 2022, Forests 13:1078, doi 10.3390/f13071078); air-dry wood on wood about as on rough steel, "
    "0.65 static falling to 0.4 at 4 m/s (McKenzie & Karpovich 1968, Wood Sci. Technol. 2:139). The "
    "engine has one coefficient for sticking and sliding: a kubb leaning on another rests on it, so "
    "the static value is used, and the kinetic one, for pieces that meet sliding, is its range's low end"
)
_NO_LAWN = "no measured restitution or friction of wood on grass was found (docs/physics.md 'Reference numbers')"


@dataclass(frozen=True)
class Parameter:
    """One row of the table.

    Attributes:
        name: what it is.
        applies_to: the material pair or ground it belongs to.
        value: reads the value the code uses now.
        unit: its unit ("" for a pure number).
        low: lower end of the plausible range.
        high: upper end of the plausible range.
        source: the measured source, or "unmeasured: …" with why the range was assumed.
        code: where the code keeps it (``ground:grass.friction`` for a :class:`Ground` field, else
            the constant's name).
    """

    name: str
    applies_to: str
    value: Callable[[], float]
    unit: str
    low: float
    high: float
    source: str
    code: str = ""

    @property
    def unmeasured(self) -> bool:
        """True when no measured source gives the value (the source says "unmeasured")."""
        return self.source.startswith(UNMEASURED) or f"({UNMEASURED})" in self.source


def _ground(name: str, field_name: str) -> Callable[[], float]:
    return lambda: float(getattr(GROUNDS[name], field_name))


def _lawn(
    ground: str,
    friction: tuple[float, float],
    crr: tuple[float, float],
    e: tuple[float, float],
    plowing: tuple[float, float],
    spin: tuple[float, float],
    why_friction: str,
) -> list[Parameter]:
    return [
        Parameter(
            "sliding friction μ",
            f"wood on {ground}",
            _ground(ground, "friction"),
            "",
            *friction,
            f"{UNMEASURED}: {why_friction}; {_NO_LAWN}",
            f"ground:{ground}.friction",
        ),
        Parameter(
            "rolling resistance c_rr",
            f"baton on {ground}",
            _ground(ground, "rolling_resistance"),
            "",
            *crr,
            f"{UNMEASURED}: the FIFA ball-roll range (a football rolls 4–8 m from a 1 m ramp) "
            "gives 0.13–0.25 for a football on turf; a thin baton sinks deeper into longer pile",
            f"ground:{ground}.rolling_resistance",
        ),
        Parameter(
            "spinning friction length",
            f"baton on {ground}",
            _ground(ground, "spinning_friction"),
            "m",
            *spin,
            f"{UNMEASURED}: of the order of a tenth of the baton's radius (2 cm); half to twice the value assumed",
            f"ground:{ground}.spinning_friction",
        ),
        Parameter(
            "restitution e",
            f"wood on {ground}",
            _ground(ground, "restitution"),
            "",
            *e,
            f"{UNMEASURED}: a dropped kubb barely bounces on a lawn; {_NO_LAWN}",
            f"ground:{ground}.restitution",
        ),
        Parameter(
            "plowing k",
            f"thrown piece on {ground}",
            _ground(ground, "plowing"),
            "s/m",
            *plowing,
            f"{UNMEASURED}: tuned so that a baton landing from an 8 m throw stops 0.3–1.5 m on (an "
            "estimate from play, docs/physics.md 'Plowing'); 0 (no plowing) to twice the value",
            f"ground:{ground}.plowing",
        ),
    ]


PARAMETERS: list[Parameter] = [
    Parameter(
        "density",
        "rubberwood (standard and dm-small sets)",
        lambda: RUBBERWOOD_DENSITY,
        "kg/m³",
        595.0,
        640.0,
        "rubberwood 595–640 kg/m³ (docs/physics.md 'Reference numbers')",
        "RUBBERWOOD_DENSITY",
    ),
    Parameter(
        "density",
        "beech (kubbuteo set)",
        lambda: BEECH_DENSITY,
        "kg/m³",
        680.0,
        750.0,
        "European beech about 720 kg/m³ air-dry (docs/physics.md 'Reference numbers')",
        "BEECH_DENSITY",
    ),
    Parameter(
        "friction μ (static; kinetic 0.36)",
        "wood on wood",
        lambda: WOOD_ON_WOOD_FRICTION,
        "",
        0.28,
        0.55,
        _WOOD_ON_WOOD,
        "WOOD_ON_WOOD_FRICTION",
    ),
    Parameter(
        "restitution e",
        "wood on wood",
        lambda: WOOD_ON_WOOD_RESTITUTION,
        "",
        0.4,
        0.6,
        f"{UNMEASURED}: hardwood blocks dropped on hardwood rebound to about a quarter of their height "
        "(e ≈ 0.5); no measured figure for the pieces' woods was found, and a ball's rebound on wood "
        "varies with the wood's density (J. Soc. Mat. Sci. Japan 71:603, 2022)",
        "WOOD_ON_WOOD_RESTITUTION",
    ),
    *_lawn(
        "grass",
        (0.35, 0.55),
        (0.15, 0.35),
        (0.05, 0.3),
        (0.0, 0.26),
        (0.002, 0.008),
        "dry mown lawn taken as 0.4–0.5, widened",
    ),
    *_lawn(
        "wet-grass",
        (0.15, 0.3),
        (0.1, 0.3),
        (0.05, 0.2),
        (0.0, 0.22),
        (0.0015, 0.006),
        "a water film on the blades, about half of dry grass",
    ),
    *_lawn(
        "turf",
        (0.25, 0.45),
        (0.13, 0.25),
        (0.15, 0.45),
        (0.0, 0.12),
        (0.001, 0.004),
        "short artificial turf with infill, below a lawn's",
    ),
    Parameter(
        "sliding friction μ",
        "plane (analytic test ground)",
        _ground("plane", "friction"),
        "",
        0.5,
        0.5,
        "not a playing surface: an idealised plane for tests against formulas (Coulomb friction only)",
        "ground:plane.friction",
    ),
    Parameter(
        "rolling resistance c_rr",
        "plane (analytic test ground)",
        _ground("plane", "rolling_resistance"),
        "",
        0.0,
        0.0,
        "not a playing surface: no rolling resistance by definition",
        "ground:plane.rolling_resistance",
    ),
    Parameter(
        "spinning friction length",
        "plane (analytic test ground)",
        _ground("plane", "spinning_friction"),
        "m",
        0.0,
        0.0,
        "not a playing surface: none by definition",
        "ground:plane.spinning_friction",
    ),
    Parameter(
        "restitution e",
        "plane (analytic test ground)",
        _ground("plane", "restitution"),
        "",
        0.0,
        0.0,
        "not a playing surface: a dead contact by definition",
        "ground:plane.restitution",
    ),
    Parameter(
        "plowing k",
        "plane (analytic test ground)",
        _ground("plane", "plowing"),
        "s/m",
        0.0,
        0.0,
        "not a playing surface: hard, no plowing",
        "ground:plane.plowing",
    ),
    Parameter(
        "sliding friction μ",
        "wooden disk on the board",
        _ground("board", "friction"),
        "",
        0.2,
        0.4,
        "measured for sawn timber: kinetic 0.28–0.39 (Villar-García et al. 2020, as wood on wood); a "
        "planed, varnished board may slide easier: 0.2 taken as the low end (unmeasured)",
        "ground:board.friction",
    ),
    Parameter(
        "rolling resistance c_rr",
        "disk on the board",
        _ground("board", "rolling_resistance"),
        "",
        0.005,
        0.02,
        f"{UNMEASURED}: a hard disk on a hard board rolls far; half to twice the value",
        "ground:board.rolling_resistance",
    ),
    Parameter(
        "spinning friction length",
        "disk on the board",
        _ground("board", "spinning_friction"),
        "m",
        0.00025,
        0.001,
        f"{UNMEASURED}: half to twice the value",
        "ground:board.spinning_friction",
    ),
    Parameter(
        "restitution e",
        "wooden disk on the board",
        _ground("board", "restitution"),
        "",
        0.4,
        0.6,
        f"{UNMEASURED}: as wood on wood",
        "ground:board.restitution",
    ),
    Parameter(
        "plowing k",
        "board",
        _ground("board", "plowing"),
        "s/m",
        0.0,
        0.0,
        "hard board: no plowing",
        "ground:board.plowing",
    ),
    Parameter(
        "density",
        "air",
        lambda: AIR_DENSITY,
        "kg/m³",
        1.1,
        1.25,
        "dry air at 20 °C and sea level 1.204 kg/m³; 1.1–1.25 from 0–30 °C and 0–800 m altitude",
        "AIR_DENSITY",
    ),
    Parameter(
        "drag coefficient across the axis",
        "baton and kubb in flight",
        lambda: RodDrag(0.04, 0.3).cd_cross,
        "",
        1.0,
        1.2,
        "measured for a circular cylinder in cross-flow: 1.0–1.2 for Reynolds numbers 10⁴–2·10⁵ "
        "(docs/physics.md 'Reference numbers')",
        "RodDrag.cd_cross",
    ),
    Parameter(
        "drag coefficient along the axis",
        "baton and kubb in flight",
        lambda: RodDrag(0.04, 0.3).cd_axial,
        "",
        0.8,
        0.9,
        "measured for a short cylinder end-on: 0.8–0.9 (docs/physics.md 'Reference numbers')",
        "RodDrag.cd_axial",
    ),
]
"""Every row of the table, in its order."""


def _number(x: float) -> str:
    return f"{x:g}"


def markdown_table() -> str:
    """The Markdown table of :data:`PARAMETERS`: parameter, applies to, value (as the code has it
    now), plausible range, source."""
    lines = [
        "| parameter | applies to | value | plausible range | source |",
        "| --- | --- | --- | --- | --- |",
    ]
    for p in PARAMETERS:
        unit = f" {p.unit}" if p.unit else ""
        span = _number(p.low) if p.low == p.high else f"{_number(p.low)}–{_number(p.high)}"
        lines.append(f"| {p.name} | {p.applies_to} | {_number(p.value())}{unit} | {span}{unit} | {p.source} |")
    return "\n".join(lines) + "\n"


_WOOD_CODES = {"WOOD_ON_WOOD_FRICTION": "wood_friction", "WOOD_ON_WOOD_RESTITUTION": "wood_restitution"}


def by_code(code: str) -> Parameter:
    """The row of :data:`PARAMETERS` whose :attr:`Parameter.code` is ``code``.

    Raises:
        KeyError: no such row.
    """
    for p in PARAMETERS:
        if p.code == code:
            return p
    raise KeyError(code)


def overridable(code: str) -> bool:
    """True when :func:`materials` can set the parameter of that code: a ground field
    (``ground:NAME.FIELD``) or wood on wood; densities and drag are not."""
    return code in _WOOD_CODES or code.startswith("ground:")


def materials(values: Mapping[str, float]) -> Materials:
    """The :class:`~kubb3d.physics.ground.Materials` that give the parameters of the codes in
    ``values`` those values and leave the others as shipped; use it with
    :func:`kubb3d.physics.ground.use_materials`.

    Raises:
        ValueError: a code that is not a row of :data:`PARAMETERS` or not :func:`overridable`,
            or a value the ground refuses (:class:`~kubb3d.physics.ground.Ground`).
    """
    wood: dict[str, float] = {}
    fields: dict[str, dict[str, Any]] = {}
    for code, value in values.items():
        if not (overridable(code) and any(p.code == code for p in PARAMETERS)):
            raise ValueError(f"parameter {code!r} cannot be overridden; expected a ground field or wood on wood")
        if code in _WOOD_CODES:
            wood[_WOOD_CODES[code]] = float(value)
        else:
            ground, field_name = code[len("ground:"):].split(".")
            fields.setdefault(ground, {})[field_name] = float(value)
    grounds = tuple(replace(GROUNDS[name], **changed) for name, changed in fields.items())
    return Materials(grounds=grounds, **wood)

"""The scenario file's model and its validation (``scenarios/*.toml``, schema version 1): the
pydantic models of a file (:class:`ScenarioSpec` and its tables), the bounds of its numbers,
and the referee options a file or ``kubb3d judge --option`` may set. The format is described
in :mod:`kubb3d.scenario`; every field in :mod:`kubb3d.scenario_doc` (``docs/scenarios.md``).
Reading a file: :mod:`kubb3d.scenario_load`.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal, Mapping, Union

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictFloat,
    field_validator,
    model_validator,
)

from kubb3d.equipment import EQUIPMENT_SETS, EquipmentSet, get_set
from kubb3d.judge import Consequence, Status
from kubb3d.judge.messages import msg
from kubb3d.judge.rulebook import rulebook_names, ruleset_alias
from kubb3d.pitch import PITCH_LENGTH_M, PITCH_WIDTH_M, Pitch
from kubb3d.rules import get_ruleset
from kubb3d.ranges import did_you_mean, MAX_ID_CHARS, MAX_TEXT_CHARS, MAX_TITLE_CHARS, listed, unknown_option


RulesetName = Annotated[Literal[tuple(rulebook_names())], BeforeValidator(ruleset_alias)]  # type: ignore[valid-type]
"""The registered ruleset names (:func:`kubb3d.judge.rulebook.rulebook_names`), as a type for the schema."""

SCHEMA_VERSION = 1
RAISED_TOL = 0.02
"""m: default tolerance of an expected raised position."""
MAX_COORD_M = 100.0
"""m: the largest |coordinate| in a scenario file (pitches are at most 30 m, :data:`kubb3d.pitch.PITCH_LENGTH_M`)."""

# numbers in a scenario file: strict (``true`` or ``"30"`` is refused, not converted), finite,
# and within a range that means something (angles one turn either way, places near the pitch)
Deg = Annotated[StrictFloat, Field(ge=-360.0, le=360.0)]
Coord = Annotated[StrictFloat, Field(ge=-MAX_COORD_M, le=MAX_COORD_M)]


# ---------------------------------------------------------------- schema
class _Model(BaseModel):
    # allow_inf_nan=False: no inf or nan anywhere in a scenario file (they end in math errors)
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


HistoryDeg = Annotated[StrictFloat, Field(ge=0.0, le=180.0)]
"""A turn in a piece's history, deg (0 to 180)."""


class PieceSpec(_Model):
    id: str = Field(min_length=1, max_length=MAX_ID_CHARS)
    kind: Literal["kubb", "king", "baton"] | None = None
    side: Literal["A", "B"] | None = None
    place: Literal["standing", "baseline", "lying", "tilted", "leaning", "stacked", "across_line", "pose"] = "standing"
    at: tuple[Coord, Coord] | None = None
    yaw_deg: Deg = 0.0
    upside_down: bool = False
    tilt_deg: StrictFloat | None = Field(default=None, ge=0.0, le=90.0)
    toward_deg: Deg = 0.0
    on: Union[str, list[str], None] = None
    from_deg: Deg = 0.0
    line: Literal["sideline-left", "sideline-right", "centre", "baseline-A", "baseline-B"] | None = None
    along: Coord = 0.0
    inside: StrictFloat = Field(default=0.5, ge=0.0, le=1.0)
    half: Literal["A", "B"] | None = None
    position: tuple[Coord, Coord, Coord] | None = None
    quat_xyzw: tuple[StrictFloat, StrictFloat, StrictFloat, StrictFloat] | None = None
    max_tilt_deg: StrictFloat | None = Field(default=None, ge=0.0, le=180.0)
    max_lean_deg: tuple[HistoryDeg, HistoryDeg] | None = None
    felled_earlier: bool = False
    accident: bool = False
    origin: tuple[Coord, Coord] | None = None

    @model_validator(mode="after")
    def _needs(self) -> "PieceSpec":
        need = {
            "standing": ("at",),
            "lying": ("at",),
            "tilted": ("at", "tilt_deg"),
            "leaning": ("on", "tilt_deg"),
            "stacked": ("on",),
            "across_line": ("line",),
            "pose": ("position", "quat_xyzw"),
        }.get(self.place, ())
        for name in need:
            if getattr(self, name) is None:
                raise ValueError(msg("place = {place} needs the field {name}", place=repr(self.place), name=repr(name)))
        if self.place == "leaning" and not isinstance(self.on, str):
            raise ValueError(msg("place = 'leaning' needs 'on' to be one piece id"))
        if self.place == "stacked" and isinstance(self.on, str):
            object.__setattr__(self, "on", [self.on])
        if self.place == "stacked" and not self.on:
            raise ValueError(msg("place = 'stacked' needs 'on' to name at least one piece"))
        for name in ("at", "position", "quat_xyzw", "origin"):
            v = getattr(self, name)
            if v is not None and not all(math.isfinite(c) for c in v):
                raise ValueError(msg("{name} must hold finite numbers, got {got}", name=name, got=str(v)))
        return self


class ThrowSpec(_Model):
    thrower: Literal["A", "B"] = "A"
    legal: bool = True
    violations: list[dict[str, str]] = []
    king_throw: bool = False
    field_kubbs: list[str] | None = None
    hand_check: bool = True

    @field_validator("violations")
    @classmethod
    def _violations(cls, v: list[dict[str, str]]) -> list[dict[str, str]]:
        for item in v:
            if set(item) != {"rule", "reason"}:
                raise ValueError(msg("each violation needs exactly the keys 'rule' and 'reason'"))
        return v


class InkastSpec(_Model):
    inkasting_side: Literal["A", "B"]
    inkasted: list[str] = Field(min_length=1)
    attempt: Literal[1, 2] = 1
    prefer: Literal["back", "front"] = "back"


class ExpectSpec(_Model):
    piece: str
    status: Status | None = None
    consequence: Consequence | None = None
    rules: list[str] = []
    hand_check: bool | None = None
    valid: bool | None = None
    raised_at: tuple[Coord, Coord] | None = None
    tol_m: StrictFloat = Field(default=RAISED_TOL, gt=0.0, le=1.0)


class OutcomeSpec(_Model):
    winner: Literal["A", "B"] | None = None
    loser: Literal["A", "B"] | None = None
    penalty: Literal["throw", "place"] | None = None


class PitchSpec(_Model):
    length: StrictFloat = Field(gt=0.0, le=PITCH_LENGTH_M[1])
    width: StrictFloat = Field(gt=0.0, le=PITCH_WIDTH_M[1])


class ScenarioSpec(_Model):
    schema_: Literal[1] = Field(alias="schema")
    title: str = Field(min_length=1, max_length=MAX_TITLE_CHARS)
    description: str = Field(default="", max_length=MAX_TEXT_CHARS)
    explanation: str = Field(default="", max_length=MAX_TEXT_CHARS)
    ruleset: RulesetName
    equipment: str | None = None
    pitch: Union[RulesetName, PitchSpec, None] = None
    ground: str = "grass"
    stakes: bool = True
    setup: Literal["standard", "empty"] = "standard"
    event: Literal["throw", "inkast"]
    quiz: list[str] = []
    throw: ThrowSpec | None = None
    inkast: InkastSpec | None = None
    pieces: list[PieceSpec] = []
    expect: list[ExpectSpec] = []
    outcome: OutcomeSpec | None = None
    options: dict[str, Any] = {}

    @field_validator("options")
    @classmethod
    def _options(cls, v: dict[str, Any]) -> dict[str, Any]:
        return judge_options(v)

    @field_validator("equipment")
    @classmethod
    def _equipment(cls, v: str | None) -> str | None:
        if v is not None and v not in EQUIPMENT_SETS:
            raise ValueError(msg("unknown equipment set {name}{near}; expected one of {names}", name=repr(v),
                             near=did_you_mean(v, sorted(EQUIPMENT_SETS)), names=listed(sorted(EQUIPMENT_SETS))))
        return v

    @model_validator(mode="after")
    def _event(self) -> "ScenarioSpec":
        if self.event == "throw" and self.inkast is not None:
            raise ValueError(msg("event = 'throw' takes a [throw] table, not [inkast]"))
        if self.event == "inkast" and self.inkast is None:
            raise ValueError(msg("event = 'inkast' needs an [inkast] table"))
        if self.event == "inkast" and self.throw is not None:
            raise ValueError(msg("event = 'inkast' takes an [inkast] table, not [throw]"))
        ids = [p.id for p in self.pieces]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(msg("piece ids must be unique, repeated: {ids}", ids=listed(dup)))
        return self

    @property
    def pitch_obj(self) -> Pitch:
        if isinstance(self.pitch, PitchSpec):
            return Pitch(self.pitch.length, self.pitch.width)
        return get_ruleset(self.pitch or self.ruleset).pitch

    @property
    def equipment_set(self) -> EquipmentSet:
        return get_set(self.equipment or get_ruleset(self.ruleset).equipment)

    @property
    def ground_name(self) -> str:
        """The ground; a scenario that leaves the default ``grass`` plays on its ruleset's ground
        (a Kubbuteo scenario on the board)."""
        return get_ruleset(self.ruleset).ground if self.ground == "grass" else self.ground


def judge_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Referee options for judging one throw or inkast (:mod:`kubb3d.judge.options`), each
    value checked; options of a whole match (the advance line, the tilt limit …) are refused.

    Raises:
        ValueError: an unknown option, a bad value, or one the judge does not read.
    """
    from kubb3d.judge.options import BY_NAME, option_value

    out = {}
    for name, value in options.items():
        if name not in BY_NAME:
            raise ValueError(unknown_option(name))
        if BY_NAME[name].applies != "judge":
            scope = (
                "applies to whole matches"
                if BY_NAME[name].applies == "ruleset"
                else "applies to simulating a throw (a scenario states its throw's legality with `legal`)"
            )
            raise ValueError(
                f"referee option {name!r} {scope}, not to judging one throw or inkast; it is set on "
                f"{BY_NAME[name].set_on}; expected one of "
                f"{', '.join(n for n, o in BY_NAME.items() if o.applies == 'judge')}"
            )
        out[name] = option_value(name, value)
    return out


def changes_options(spec: ScenarioSpec, options: Mapping[str, Any] | None) -> bool:
    """``options`` (``judge --option``) set an option to another value than the file's own
    ``[options]`` or, where it sets none, the rule book's default."""
    from kubb3d.judge.options import default

    return any(spec.options.get(k, default(k, spec.ruleset)) != v for k, v in (options or {}).items())

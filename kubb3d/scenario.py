"""Judge scenarios: TOML files holding one rule situation and the rulings a referee
should give (``scenarios/*.toml``).

A scenario is built in physics (:class:`~kubb3d.physics.world.World`), left to
settle (≤ 2 s simulated), judged by :func:`kubb3d.judge.judge_throw` or
:func:`kubb3d.judge.judge_inkast` (with the DM §5 physics hand check), and the
rulings are compared with the expected ones.

Schema version 1 (every length in m, every angle in degrees, names end in ``_deg``)::

    schema = 1
    title = "Kubb leaning on a field kubb"
    ruleset = "dm"                 # dm | wikinger | kubbuteo (table scale, rule book KT)
    equipment = "standard"         # default: dm-small for dm, standard for wikinger
    pitch = "dm"                   # dm | wikinger | {length = 8.0, width = 5.0}; default: ruleset's
    setup = "standard"             # standard: ten baseline kubbs and the king; empty: nothing
    event = "throw"                # throw | inkast
    quiz = ["B1"]                  # pieces the quiz asks about (default: the first expected one)

    [throw]                        # event = "throw"
    thrower = "A"
    legal = true
    violations = [{rule = "DM §5", reason = "foot over the baseline"}]
    king_throw = false
    field_kubbs = ["B1"]           # default: kubbs of the target half that are not its baseline kubbs
    hand_check = true

    [inkast]                       # event = "inkast"
    inkasting_side = "B"
    inkasted = ["B1", "B2"]
    attempt = 1
    prefer = "back"

    [[pieces]]                     # added to / replacing the setup's pieces
    id = "B1"
    kind = "kubb"                  # kubb | king | baton (default from the id)
    place = "leaning"              # see below
    on = "A3"
    tilt_deg = 30
    from_deg = 180

    [[expect]]                     # optional for `kubb3d judge` (then it only rules)
    piece = "B1"
    status = "leaning"
    consequence = "counts as felled"
    rules = ["DM §5"]              # each must be cited

    [outcome]                      # optional
    winner = "A"

Placements (``place``):

========================  ==========================================================
``standing``              upright at ``at`` = [x, y], ``yaw_deg``; ``upside_down``
``baseline``              upright at its baseline spot (ids A1…B5) or the king's spot
``lying``                 flat at ``at``, long axis along ``yaw_deg``
``tilted``                pivoting on a base edge: base centre ``at``, ``tilt_deg``
                          towards ``toward_deg``
``leaning``               leaning at ``tilt_deg`` on piece ``on`` (kubb, king, stake,
                          baton), its foot on the side ``from_deg`` of it
``stacked``               lying on the pieces ``on`` (a list), above their centre or
                          ``at``, axis along ``yaw_deg`` (a stößel)
``across_line``           lying across ``line`` (``sideline-left``, ``sideline-right``: left
                          and right as seen from side A's baseline, so left is +y;
                          ``centre``, ``baseline-A``, ``baseline-B``) at ``along``, with
                          the fraction ``inside`` of its length in half ``half``
``pose``                  explicit ``position`` (bounding-box centre) and ``quat_xyzw``
========================  ==========================================================

Kubbuteo (``ruleset = "kubbuteo"``): equipment ``kubbuteo``, the board as pitch and ground
(the floor 0.75 m below; a piece placed there by ``pose`` is off the board); ``lying`` lays a
disk kubb on a face; the judge's tolerances are scaled to the disks
(the ``kubbuteo`` rule book's :attr:`~kubb3d.judge.rulebook.Rulebook.params`).

Piece history: ``max_tilt_deg`` (largest angle of the long axis from the upright direction of
its last set-up or the start of the round, DM §5; an upright or upside-down kubb starts at
0), ``max_lean_deg`` = [sideways, in plane] (the same split by direction, for a Kubbuteo
kubb towards a face and along its rim: :attr:`~kubb3d.snapshot.PieceState.max_lean`; the
whole turn is then at least the larger of the two), ``felled_earlier``
(already ruled felled this round), ``accident`` (moved by wind/ground/accident),
``origin`` = [x, y] (spot at the start of the round, for raising again).

Errors: :class:`ScenarioError` names the file, the field and what was expected;
overlapping pieces are named as a pair.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal, Mapping, Sequence, Union

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictFloat,
    ValidationError,
    field_validator,
    model_validator,
)

from kubb3d.equipment import EQUIPMENT_SETS, LYING_DISK_KUBB, EquipmentSet, get_set
from kubb3d.errors import ScenarioError as ScenarioError, message as error_message
from kubb3d.judge import (
    Consequence,
    InkastContext,
    JudgeParams,
    Pose,
    Status,
    ThrowContext,
    judge_inkast,
    judge_throw,
)
from kubb3d.judge.geometry import quat_from_rows, rot
from kubb3d.judge.messages import concat, known, msg
from kubb3d.judge.rulebook import get_rulebook, rulebook_names, ruleset_alias
from kubb3d.pitch import KING_ID, LEFT_OF_SIDE_A, PITCH_LENGTH_M, PITCH_WIDTH_M, SIDES, Pitch, baseline_ids, opponent
from kubb3d.rules import get_ruleset
from kubb3d.snapshot import Snapshot
from kubb3d.ranges import did_you_mean, MAX_ID_CHARS, MAX_TEXT_CHARS, MAX_TITLE_CHARS, shown, listed, unknown_option

RulesetName = Annotated[Literal[tuple(rulebook_names())], BeforeValidator(ruleset_alias)]  # type: ignore[valid-type]
"""The registered ruleset names (:func:`kubb3d.judge.rulebook.rulebook_names`), as a type for the schema."""

SCHEMA_VERSION = 1
OVERLAP_TOL = 0.002
"""m: pieces interpenetrating by more than this in a scenario file are an error."""
SETTLE_TIME = 2.0
"""s: the longest a scenario is simulated to settle."""
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


def _fmt_loc(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


def load(path: str | Path) -> ScenarioSpec:
    """Read and validate a scenario file.

    Raises:
        ScenarioError: unreadable file, bad TOML, or a field that fails the schema
            (the message names the file, the field and what was expected).
    """
    path = Path(path)
    from kubb3d.files import FileSafetyError, load_toml

    if not path.exists():
        raise ScenarioError(msg("{path}: no such file", path=str(path)))
    try:
        # special files, huge files and deep nesting refused; no line of the file is echoed
        data = load_toml(path, "scenario")
    except FileSafetyError as exc:
        raise ScenarioError(error_message(exc)) from None
    from kubb3d.library import other_toml_kind

    if (other := other_toml_kind(data, path, "scenario")) is not None:
        raise ScenarioError(other)
    if "schema" not in data:
        raise ScenarioError(msg("{where}: schema: missing; expected schema = {schema}", where=str(path),
                                schema=SCHEMA_VERSION))
    if data.get("schema") != SCHEMA_VERSION:
        raise ScenarioError(msg("{where}: schema: expected {schema}, got {got}", where=str(path), schema=SCHEMA_VERSION,
                                got=repr(data.get("schema"))))
    try:
        spec = ScenarioSpec.model_validate(data)
    except ValidationError as exc:
        # the deepest error is the most specific one (a union's other branches are noise)
        # (a misspelt name before the "missing" field it causes: kubb3d.fieldnames)
        from kubb3d.fieldnames import prefer_unknown, unknown_field

        err = max(prefer_unknown(exc.errors(), ScenarioSpec), key=lambda e: len(e["loc"]))
        loc = _fmt_loc(
            tuple(x for x in err["loc"] if not (isinstance(x, str) and (x.startswith("literal[") or x[:1].isupper())))
        )
        loc = _piece_loc(loc, data)
        from kubb3d.ranges import pydantic_message

        given = "input" in err and not isinstance(err["input"], dict)
        got = msg(" (got {value})", value=shown(err["input"])) if given else ""
        more = msg(" (+{n} more)", n=len(exc.errors()) - 1) if len(exc.errors()) > 1 else ""
        why = pydantic_message(err)
        if err.get("type") == "extra_forbidden" and err["loc"]:
            why = unknown_field(ScenarioSpec, tuple(err["loc"]), listed_by="docs/scenarios.md lists them")
            got = ""
        from kubb3d.ranges import pydantic_bound

        if pydantic_bound(err) is not None:
            why, got = pydantic_bound(err), ""
        raise ScenarioError(concat(f"{path}: {loc}: ", why, got, more)) from None
    _check_on_the_pitch(path, spec, data)
    return spec


def _check_on_the_pitch(path: Path, spec: ScenarioSpec, data: dict) -> None:
    """Every place a scenario gives (a piece's ``at``, ``position``, ``origin``; an expected
    ``raised_at``) lies on its pitch or near it (:func:`kubb3d.pitch.off_the_pitch`).

    Raises:
        ScenarioError: ``FILE: pieces[0] (id B2).at: expected x from -6 to 6 m …, got (15, 0)``.
    """
    from kubb3d.ranges import off_the_pitch

    pitch = spec.pitch_obj
    places = [
        (f"pieces[{i}].{name}", getattr(piece, name))
        for i, piece in enumerate(spec.pieces)
        for name in ("at", "position", "origin")
    ]
    places += [(f"expect[{i}].raised_at", e.raised_at) for i, e in enumerate(spec.expect)]
    for loc, place in places:
        if place is not None:
            why = off_the_pitch(pitch, place[0], place[1])
            if why is not None:
                raise ScenarioError(concat(f"{path}: {_piece_loc(loc, data)}: ", why))


def _piece_loc(loc: str, data: dict) -> str:
    """'pieces[2].tilt_deg' → 'pieces[2] (id B1).tilt_deg' for readability."""
    if loc.startswith("pieces["):
        try:
            i = int(loc[7 : loc.index("]")])
            pid = data["pieces"][i].get("id")
            if pid:
                return f"pieces[{i}] (id {pid})" + loc[loc.index("]") + 1 :]
        except (ValueError, IndexError, KeyError, AttributeError):
            pass
    return loc


# ---------------------------------------------------------------- building
def _kind(spec: PieceSpec) -> str:
    if spec.kind:
        return spec.kind
    if spec.id == KING_ID:
        return "king"
    if spec.id.startswith("baton"):
        return "baton"
    return "kubb"


def _yaw_rows(yaw: float):
    c, s = math.cos(yaw), math.sin(yaw)
    return ((c, -s, 0.0), (s, c, 0.0), (0.0, 0.0, 1.0))


def _mul(a, b):
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3))


def _tilt_rows(direction: float, tilt: float):
    """Yaw the piece to face ``direction`` then tilt its long axis by ``tilt`` towards it."""
    ry = ((math.cos(tilt), 0.0, math.sin(tilt)), (0.0, 1.0, 0.0), (-math.sin(tilt), 0.0, math.cos(tilt)))
    return _mul(_yaw_rows(direction), ry)


def _lying_rows(yaw: float):
    return _tilt_rows(yaw, math.pi / 2)


def _apply(r, v):
    return tuple(r[i][0] * v[0] + r[i][1] * v[1] + r[i][2] * v[2] for i in range(3))


@dataclass
class Built:
    """A scenario built in physics and settled.

    Attributes:
        spec: the validated file.
        path: where it came from.
        world: the physics world (still open: close it, or use it to render).
        snapshot: the world at rest, with the file's history applied.
        round_start: poses at the start of the round (where pieces are raised again).
        initial: poses as built, before settling.
    """

    spec: ScenarioSpec
    path: Path
    world: Any
    snapshot: Snapshot
    round_start: dict[str, Pose]
    initial: dict[str, Pose]

    def close(self) -> None:
        self.world.close()


def _half_extents(eq: EquipmentSet, kind: str) -> tuple[float, float, float]:
    if kind == "kubb":
        return eq.kubb.half_extents
    if kind == "king":
        return eq.king.half_extents
    return (eq.baton.radius, eq.baton.radius, eq.baton.length / 2)


def build(path: str | Path, spec: ScenarioSpec | None = None, *, dt: float | None = None) -> Built:
    """Build a scenario in physics and let it settle.

    ``dt`` is the world's time step, s (default: the world's own, :data:`kubb3d.physics.world.DT`);
    convergence checks build the same scene at finer steps.

    Raises:
        ScenarioError: bad file, a placement that names an unknown piece, overlapping
            pieces (named as a pair), a piece below the ground.
    """
    from kubb3d.physics.world import World

    path = Path(path)
    spec = spec or load(path)
    pitch = spec.pitch_obj
    eq = spec.equipment_set
    try:
        world = World(eq, pitch, spec.ground_name, stakes=spec.stakes, air_drag=False, dt=dt)
    except ValueError as exc:
        raise ScenarioError(f"{path}: ground: {exc}") from None
    try:
        initial, round_start, sides = _place_all(path, spec, world, pitch, eq)
        _check_overlaps(path, world)
        world.clear_history()
        world.run_until_rest(max_time=SETTLE_TIME)
        world.settle_forces()
        snap = world.snapshot()
    except Exception:
        world.close()
        raise
    pieces = dict(snap.pieces)
    for p in spec.pieces:
        if p.max_tilt_deg is not None and p.id in pieces:
            pieces[p.id] = replace(pieces[p.id], max_tilt=math.radians(p.max_tilt_deg))
        if p.max_lean_deg is not None and p.id in pieces:
            side, plane = (math.radians(v) for v in p.max_lean_deg)
            whole = max(pieces[p.id].max_tilt, side, plane)
            pieces[p.id] = replace(pieces[p.id], max_lean=(side, plane), max_tilt=whole)
    snap = replace(snap, pieces=pieces)
    return Built(spec, path, world, snap, round_start, initial)


def _place_all(path: Path, spec: ScenarioSpec, world, pitch: Pitch, eq: EquipmentSet):
    specs: dict[str, PieceSpec] = {}
    if spec.setup == "standard":
        for side in SIDES:
            for kid in baseline_ids(side):
                specs[kid] = PieceSpec(id=kid, place="baseline")
        specs[KING_ID] = PieceSpec(id=KING_ID, place="baseline")
    for p in spec.pieces:
        specs[p.id] = p
    # pieces that others lean or lie on are placed first
    order = [k for k, s in specs.items() if s.place not in ("leaning", "stacked")]
    order += [k for k, s in specs.items() if s.place in ("leaning", "stacked")]
    initial: dict[str, Pose] = {}
    round_start: dict[str, Pose] = {}
    sides: dict[str, str | None] = {}
    baseline_spots = {**pitch.baseline_kubb_positions("A"), **pitch.baseline_kubb_positions("B")}
    for pid in order:
        s = specs[pid]
        kind = _kind(s)
        he = _half_extents(eq, kind)
        where = f"{path}: pieces (id {pid})"
        if s.place == "baseline":
            if pid in baseline_spots:
                x, y = baseline_spots[pid]
            elif pid == KING_ID:
                x, y = pitch.king_position
            else:
                raise ScenarioError(
                    f"{where}.place: 'baseline' needs a baseline kubb id (A1…B5) or 'king', got {pid!r}"
                )
            pos, rows = (x, y, he[2]), _yaw_rows(0.0)
        elif s.place == "standing":
            rows = _yaw_rows(math.radians(s.yaw_deg))
            if s.upside_down:
                rows = _mul(rows, ((1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, -1.0)))
            pos = (s.at[0], s.at[1], he[2])
        elif s.place == "lying" and kind == "kubb" and eq.kubb.shape == "disk":
            # a Kubbuteo disk lies on a face (KT): its axis vertical, turned by yaw_deg
            rows = _mul(_yaw_rows(math.radians(s.yaw_deg)), rot(LYING_DISK_KUBB))
            pos = (s.at[0], s.at[1], he[0])
        elif s.place == "lying":
            rows = _lying_rows(math.radians(s.yaw_deg))
            pos = (s.at[0], s.at[1], he[0])
        elif s.place == "tilted":
            d = math.radians(s.toward_deg)
            rows = _tilt_rows(d, math.radians(s.tilt_deg))
            edge = (s.at[0] + he[0] * math.cos(d), s.at[1] + he[0] * math.sin(d), 0.0)
            off = _apply(rows, (he[0], 0.0, -he[2]))
            pos = (edge[0] - off[0], edge[1] - off[1], edge[2] - off[2])
        elif s.place == "across_line":
            pos, rows = _across(where, s, pitch, he)
        elif s.place == "pose":
            q = s.quat_xyzw
            n = math.sqrt(sum(c * c for c in q))
            if n < 1e-9:
                raise ScenarioError(concat(f"{where}.quat_xyzw: ", msg("expected a non-zero quaternion, got {got}",
                                                                       got=str(list(q)))))
            rows = rot(tuple(c / n for c in q))
            pos = s.position
        elif s.place == "leaning":
            pos, rows = _lean(where, s, world, he, kind)
        else:  # stacked
            pos, rows = _stack(where, s, world, he, kind)
        q = quat_from_rows(rows)
        side = s.side
        if kind == "kubb" and side is None:
            side = pid[0] if (s.place == "baseline" and pid[0] in SIDES) else pitch.half_of(pos[0])
        sides[pid] = side
        try:
            world.add_piece(pid, kind, pos, q, side=side if kind == "kubb" else None, sleeping=False)
        except ValueError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
        initial[pid] = Pose(tuple(float(c) for c in pos), q)
        if s.origin is not None:
            round_start[pid] = Pose((s.origin[0], s.origin[1], he[2]))
        elif pid in baseline_spots and side == pid[0]:
            bx, by = baseline_spots[pid]
            round_start[pid] = Pose((bx, by, he[2]))
        elif pid == KING_ID:
            round_start[pid] = Pose((pitch.king_position[0], pitch.king_position[1], he[2]))
        elif kind == "kubb":
            round_start[pid] = Pose((pos[0], pos[1], he[2]))
    return initial, round_start, sides


def _across(where: str, s: PieceSpec, pitch: Pitch, he) -> tuple:
    length = 2 * he[2]
    f = s.inside
    hw = pitch.half_width
    if s.line in ("sideline-left", "sideline-right"):
        # left and right as seen from side A's baseline (kubb3d.pitch.LEFT_OF_SIDE_A)
        sign = LEFT_OF_SIDE_A if s.line == "sideline-left" else -LEFT_OF_SIDE_A
        inward = -sign
        y = sign * hw + inward * (f - 0.5) * length
        return (s.along, y, he[0]), _lying_rows(math.pi / 2)
    if s.line == "centre":
        half = s.half or "A"
        inward = -1.0 if half == "A" else 1.0
        return (inward * (f - 0.5) * length, s.along, he[0]), _lying_rows(0.0)
    side = s.line[-1]
    inward = 1.0 if side == "A" else -1.0
    x = pitch.baseline_x(side) + inward * (f - 0.5) * length
    return (x, s.along, he[0]), _lying_rows(0.0)


def _lean(where: str, s: PieceSpec, world, he, kind: str) -> tuple:
    on = s.on
    if not world.has_piece(on):
        raise ScenarioError(
            concat(f"{where}.on: ", msg("no piece {name} placed before it (it must not itself be leaning or stacked)",
                                        name=repr(on)))
        )
    sp, _ = world.pose(on)
    frm = math.radians(s.from_deg)
    toward = frm + math.pi  # the kubb leans towards the supporter
    rows = _tilt_rows(toward, math.radians(s.tilt_deg))
    d = (math.cos(toward), math.sin(toward))
    off = _apply(rows, (he[0], 0.0, -he[2]))
    tmp = "__lean_probe__"
    world.add_piece(tmp, kind, (50.0, 0.0, 5.0), quat_from_rows(rows), sleeping=True)
    probe = world.engine.body_of(tmp)
    target = [on]

    def place(rho: float):
        edge = (sp[0] - d[0] * rho, sp[1] - d[1] * rho, 0.0005)
        pos = (edge[0] - off[0], edge[1] - off[1], edge[2] - off[2])
        world.set_pose(tmp, pos, quat_from_rows(rows), wake=False)
        return pos

    try:
        lo, hi = 0.0, 0.6
        place(hi)
        if world.engine.closest_distance(tmp, target, 0.05) < 0.0005:
            raise ScenarioError(concat(f"{where}: ", msg("cannot lean on {on} from {deg}°: it is in the way even 0.6 m "
                                                         "away", on=repr(on), deg=str(s.from_deg))))
        for _ in range(32):
            mid = (lo + hi) / 2
            place(mid)
            if world.engine.closest_distance(tmp, target, 0.05) < 0.0005:
                lo = mid
            else:
                hi = mid
        pos = place(hi)
    finally:
        world.remove_piece(tmp)
    del probe
    return pos, rows


def _stack(where: str, s: PieceSpec, world, he, kind: str) -> tuple:
    ons = list(s.on)
    for o in ons:
        if not world.has_piece(o):
            raise ScenarioError(concat(f"{where}.on: ", msg("no piece {name} placed before it", name=repr(o))))
    if s.at is not None:
        x, y = s.at
    else:
        pts = [world.pose(o)[0] for o in ons]
        x, y = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    rows = _lying_rows(math.radians(s.yaw_deg))
    tmp = "__stack_probe__"
    world.add_piece(tmp, kind, (50.0, 0.0, 5.0), quat_from_rows(rows), sleeping=True)
    others = [o for o in world.piece_ids() if o != tmp]
    try:
        lo, hi = he[0], 1.0
        for _ in range(32):
            mid = (lo + hi) / 2
            world.set_pose(tmp, (x, y, mid), quat_from_rows(rows), wake=False)
            if world.engine.closest_distance(tmp, others, 0.05) < 0.0005:
                lo = mid
            else:
                hi = mid
    finally:
        world.remove_piece(tmp)
    return (x, y, hi), rows


def _check_overlaps(path: Path, world) -> None:
    from kubb3d.judge.geometry import corners

    ids = world.piece_ids()
    snap = world.snapshot()
    for i, a in enumerate(ids):
        if world.kind(a) != "stake":
            low = min(c[2] for c in corners(snap.pieces[a]))
            board = world.equipment.board
            px, py, _ = snap.pieces[a].position
            if board is not None and (abs(px) > board.length / 2 or abs(py) > board.width / 2):
                low += board.table_height  # beside a table-top board: the floor is the ground
            if low < -OVERLAP_TOL:
                raise ScenarioError(concat(f"{path}: pieces: ", msg("{a} is {mm:.0f} mm below the ground", a=a,
                                                                    mm=-low * 1000)))
        for b in ids[i + 1 :]:
            if world.kind(a) == "stake" and world.kind(b) == "stake":
                continue
            d = world.engine.closest_distance(a, [b], 0.0)
            if d < -OVERLAP_TOL:
                raise ScenarioError(concat(f"{path}: pieces: ", msg("{a} and {b} overlap by {mm:.0f} mm", a=a, b=b,
                                                                    mm=-d * 1000)))


# ---------------------------------------------------------------- judging
@dataclass
class Result:
    """A judged scenario.

    Attributes:
        path: the file.
        spec: the validated file.
        judgement: a ThrowJudgement or InkastJudgement.
        mismatches: differences from the expected rulings (empty: as expected).
        hand_checks: physics hand checks run.
    """

    path: Path
    spec: ScenarioSpec
    judgement: Any
    mismatches: list[str] = field(default_factory=list)
    hand_checks: int = 0
    not_compared: tuple[str, ...] = ()
    """Pieces (and ``outcome``) whose expectations were not compared: options other than the
    file's own (``judge --option``) change their rulings (:mod:`kubb3d.scenario_expect`)."""

    @property
    def compared(self) -> bool:
        """The file states expectations that the rulings were compared with."""
        return has_expectations(self.spec)

    def to_dict(self) -> dict:
        return {
            "file": str(self.path),
            "title": self.spec.title,
            "ruleset": self.spec.ruleset,
            **self.judgement.to_dict(),
            "ok": not self.mismatches,
            "compared": self.compared,
            "mismatches": self.mismatches,
            "not_compared": list(self.not_compared),
        }


def has_expectations(spec: ScenarioSpec) -> bool:
    """The file says what the rulings should be (``[[expect]]`` or ``[outcome]``); without,
    ``kubb3d judge`` only rules (a referee's "what is the ruling here?"), ``--check`` and the
    quiz refuse it."""
    return bool(spec.expect) or spec.outcome is not None


def judge_built(b: Built, options: Mapping[str, Any] | None = None) -> tuple[Any, int]:
    """Judge a built scenario; returns (judgement, number of hand checks run). ``options``:
    referee options over the file's own ``[options]`` (:func:`judge_options`).

    Raises:
        ScenarioError: a context field names a piece that does not exist.
    """
    from kubb3d.handcheck import PhysicsHandCheck

    spec, snap = b.spec, b.snapshot
    if spec.ruleset == "kubbuteo":
        params = get_rulebook("kubbuteo").params  # lengths scaled to the disks (KT)
    else:
        params = JudgeParams(baton_length=spec.equipment_set.baton.length)
    specs = {p.id: p for p in spec.pieces}
    if spec.event == "throw":
        t = spec.throw or ThrowSpec()
        target = opponent(t.thrower)
        felled_earlier = frozenset(p.id for p in spec.pieces if p.felled_earlier)
        if t.field_kubbs is None:
            fk = frozenset(
                pid
                for pid, p in snap.pieces.items()
                if p.kind == "kubb"
                and p.side == target
                and pid not in baseline_ids(target)
                and pid not in felled_earlier
            )
        else:
            fk = frozenset(t.field_kubbs)
        ctx_args = dict(
            ruleset=spec.ruleset,
            thrower=t.thrower,
            legal=t.legal,
            violations=tuple((v["rule"], known(v["reason"])) for v in t.violations),  # a catalog message
            king_throw=t.king_throw,
            round_start=b.round_start,
            options={**spec.options, **(options or {})},
            field_kubbs=fk,
            already_felled=felled_earlier,
            accidents=frozenset(p.id for p in spec.pieces if p.accident),
            # kubbs of the thrower's own half with an ``origin``: where they stood when the
            # throw began (one the throw moved is stood up again there)
            own_standing={
                p.id: b.round_start[p.id]
                for p in spec.pieces
                if p.origin is not None
                and p.id in b.round_start
                and snap.pieces.get(p.id) is not None
                and snap.pieces[p.id].side == t.thrower
                and not p.felled_earlier
            },
        )
        for name in ("field_kubbs", "already_felled", "accidents"):
            bad = sorted(set(ctx_args[name]) - set(snap.pieces))
            if bad:
                raise ScenarioError(concat(f"{b.path}: throw.{name}: ", msg("unknown pieces {ids}", ids=listed(bad))))
        hc = PhysicsHandCheck(spec.equipment_set, spec.ground_name) if t.hand_check else None
        j = judge_throw(snap, ThrowContext(**ctx_args), params, hc)
        return j, (hc.calls if hc else 0)
    k = spec.inkast
    bad = sorted(set(k.inkasted) - set(snap.pieces))
    if bad:
        raise ScenarioError(concat(f"{b.path}: inkast.inkasted: ", msg("unknown pieces {ids}", ids=listed(bad))))
    notkubb = [i for i in k.inkasted if snap.pieces[i].kind != "kubb"]
    if notkubb:
        raise ScenarioError(concat(f"{b.path}: inkast.inkasted: ", msg("expected kubbs, got {got}", got=str(notkubb))))
    before = {}
    for pid, p in snap.pieces.items():
        if p.kind not in ("kubb", "king") or pid in k.inkasted:
            continue
        ps = specs.get(pid)
        if ps is not None and ps.origin is not None:
            before[pid] = b.round_start[pid]
        elif ps is None or ps.place in ("standing", "baseline"):
            before[pid] = b.initial[pid]
    referee = {**spec.options, **(options or {})}
    ctx = InkastContext(spec.ruleset, k.inkasting_side, tuple(k.inkasted), k.attempt, before, k.prefer, referee)
    return judge_inkast(snap, ctx, params), 0


def compare(spec: ScenarioSpec, judgement: Any, skip: Sequence[str] = ()) -> list[str]:
    """Differences between a judgement and the file's expectations
    (:func:`kubb3d.scenario_expect.compare`)."""
    from kubb3d.scenario_expect import compare as differences

    return differences(spec, judgement, skip)


def run(
    path: str | Path, *, keep_world: bool = False, options: Mapping[str, Any] | None = None
) -> tuple[Result, Built | None]:
    """Load, build, settle, judge and compare one scenario (``options``: referee options over
    the file's own, :func:`judge_options`).

    Returns:
        (result, built) — ``built`` only if ``keep_world`` (the caller closes it).

    Raises:
        ScenarioError: see :func:`load` and :func:`build`.
    """
    from kubb3d.scenario_expect import touched

    built = build(path)
    try:
        judgement, calls = judge_built(built, options)
        # expectations are written for the file's own options: what other options change is not compared
        own = judge_built(built)[0] if changes_options(built.spec, options) else judgement
        skip = touched(own, judgement)
        res = Result(Path(path), built.spec, judgement, compare(built.spec, judgement, skip), calls, skip)
    except Exception:
        built.close()
        raise
    if keep_world:
        return res, built
    built.close()
    return res, None


def check_all(paths: Sequence[Path]) -> list[str]:
    """Load and validate every scenario file before any of them is run (exit 2 means nothing was done).

    Returns:
        One error line per bad file (see :func:`load`), in the order of ``paths``; empty if all are good.
    """
    errors = []
    for path in paths:
        try:
            load(path)
        except ScenarioError as exc:
            errors.append(error_message(exc))  # a translatable message stays one (the error line's language)
    return errors


def collect(paths: Sequence[str | Path]) -> list[Path]:
    """Scenario files from files and directories (``*.toml`` directly inside a directory,
    sorted; sub-directories such as ``scenarios/experiments/`` are not searched). A name that
    is no file, such as ``dm_king_felled_early``, is looked up in the shipped library
    (:func:`kubb3d.library.resolve_scenario`).

    Raises:
        ScenarioError: a path that does not exist, or a directory without scenarios.
    """
    from kubb3d.library import resolve_scenario

    out: list[Path] = []
    for p in map(resolve_scenario, paths):
        if p.is_dir():
            found = sorted(p.glob("*.toml"))
            if not found:
                raise ScenarioError(msg("{path}: no *.toml scenario files in this directory", path=str(p)))
            out += found
        elif p.exists():
            out.append(p)
        else:
            from kubb3d.library import not_found

            raise ScenarioError(not_found(p))
    return out

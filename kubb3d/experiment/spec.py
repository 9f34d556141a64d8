"""Experiment specs: the TOML files in ``scenarios/experiments/``, validated with pydantic.

A spec says what to set up, what to throw, how often, from which seed, and what to record.
Every numeric release or set-up parameter may be

==============================  ==========================================================
form                            meaning
==============================  ==========================================================
``10.0``                        fixed value
``{grid = [8, 9, 10]}``         a factor: every value is a grid point (also strings, for
                                ``target``, ``skill`` and ``ground``)
``{linspace = [8, 12, 5]}``     a factor: ``n`` evenly spaced values from start to stop
``{uniform = [0, 30]}``         drawn per trial, uniform in [lo, hi)
``{normal = [0, 5]}``           drawn per trial, mean and standard deviation
``{choice = ["B1", "B2"]}``     drawn per trial, one of the values with equal chance
==============================  ==========================================================

The grid points are the Cartesian product of all factors, in the order the factors appear in
the file. Trial ``i`` runs grid point ``i mod P`` (P points) for the ``i div P``-th time, so
a run stopped early covers every point about equally (a part run with ``--max-trials`` takes
them in a stride through the grid: :func:`kubb3d.experiment.runner.spread_order`), and raising ``trials_per_point``
extends a finished run without changing its rows. Trial ``i`` draws everything random from
``numpy.random.default_rng(SeedSequence(seed).spawn(N)[i])``: first the ``uniform`` /
``normal`` / ``choice`` values in file order, then the skill preset's release noise.

Units: SI, with degrees and revolutions per second only in fields named ``*_deg`` / ``*_rps``.
Positions are in the pitch frame of the README's "The model" (x from side A to side B, m).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    BeforeValidator,
    Field,
    StrictFloat,
    StrictInt,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from kubb3d.errors import SpecError as SpecError
from kubb3d.judge.messages import concat, msg, nmsg
from kubb3d.judge.rulebook import rulebook_names, ruleset_alias
from kubb3d.pitch import PITCH_LENGTH_M, PITCH_WIDTH_M
from kubb3d.throw_bounds import THROW_RANGES
from kubb3d.ranges import did_you_mean, MAX_ID_CHARS, MAX_TEXT_CHARS, MAX_TITLE_CHARS, shown, listed
from kubb3d.ranges import counted, unknown_name
from kubb3d.errors import message
from kubb3d.experiment.spec_locations import field_path, most_telling, short_loc, union_field
from kubb3d.experiment.forms import (
    FACTOR_FORMS,
    RANDOM_FORMS,
    Choice,
    Grid,
    Linspace,
    Name,
    Normal,
    Num,
    Range,
    SpecModel,
    Uniform,
    Whole,
    form_values,
)

SCHEMA_VERSION = 1

MEASURES = (
    "hit", "felled", "first_contact", "landing", "tilt", "flight_time", "rest", "rulings", "status", "match", "turns"
)
"""What a trial can record (columns in :mod:`kubb3d.experiment.trial`):

* ``hit`` — ``hit``: the throw's ``target`` (or, without one, any kubb of the target half)
  is not upright at rest; ``kubbs_felled``: how many kubbs of the target half are not.
* ``felled`` — ``felled`` (ids not upright at rest, kubbs and king) and ``n_felled``.
* ``first_contact`` — ``first_contact`` (piece id or ``ground``), ``first_contact_time_s`` and
  where it was, ``first_contact_x_m``, ``first_contact_y_m``.
* ``landing`` — where the baton came to rest, ``baton_rest_x_m``, ``baton_rest_y_m``, and
  ``slide_m``: the horizontal distance from its first contact to its rest position.
* ``tilt`` — ``max_tilt_deg`` (flight, out of plane), ``legal``, ``violations`` (citations).
* ``flight_time`` — ``flight_time_s``.
* ``rest`` — ``rest_time_s``, ``at_rest``, ``rest_positions`` (id → [x, y, z] m).
* ``rulings`` — the judge's word after a throw: ``judge_felled``, ``judge_raise``,
  ``judge_winner``, ``judge_status`` (id → status).
* ``status`` — ``status_<id>`` for every id in ``watch``: the judge's piece status
  (standing / fallen / leaning / stößel).
* ``match`` — a whole match per trial: ``match_winner``, ``match_draw``, ``match_skill_a``/``_b``,
  ``match_strategy_a``/``_b``, ``match_opener``, ``match_opener_won``, ``match_felled_a``/``_b``,
  ``match_termination``, ``match_points_a``/``_b``, ``match_turns``, ``match_minutes``
  (see :mod:`kubb3d.experiment.trial`); ``match_sets`` when the spec sets ``sets``.
* ``turns`` — with ``match``: one record per throwing turn (``turns``: field kubbs standing and
  inkasted at the first baton, field kubbs the first baton felled, advance line, 8 m throws,
  field kubbs left) and per-side sums ``turns_*_a``/``_b`` (:mod:`kubb3d.experiment.turns`).
"""

AIM_OFFSETS = ("speed_offset", "elevation_offset_deg", "azimuth_offset_deg")
"""[throw] fields added to the aim solution (``aim = true``): m/s, deg, deg."""

THROW_FIELDS = (
    "speed",
    "elevation_deg",
    "azimuth_deg",
    "spin_rps",
    "tilt_deg",
    "helicopter_rps",
    "release_angle_deg",
    "height",
    "lateral",
    "behind_line",
)
"""Numeric :class:`kubb3d.throw.ThrowParams` fields a spec may set."""


TERRAIN_CM_MAX = 10.0
"""cm: the largest bump amplitude of uneven ground (a kubb is 15 cm tall; docs/experiments.md)."""

DISTURB_SPEED_MAX = 20.0
"""m/s: the fastest kick of [disturb] (a baton arrives at about 10 m/s, docs/physics.md)."""

MAX_SETS = 9
"""The most sets a match is played over (best of 9), as ``kubb3d match --sets``."""

LEAN_TILT_MAX_DEG = 80.0
"""deg: the steepest tilt of a leaning kubb from the vertical (beyond it the kubb lies)."""


PIECE_COORD_MAX_M = 100.0
"""m: the largest |x| or |y| of a spec's piece, the scenario loader's bound
(:data:`kubb3d.scenario_spec.MAX_COORD_M`; tests/experiment/test_rows_checked.py ties them)."""


# ------------------------------------------------------------------ sections
class GroundSpec(SpecModel):
    """A named ground with some coefficients replaced (see :class:`kubb3d.physics.ground.Ground`)."""

    base: str = "grass"
    friction: Annotated[Num | None, Range(0.0, 2.0, "from 0 to 2")] = None
    restitution: Annotated[Num | None, Range(0.0, 1.0, "from 0 to 1")] = None
    rolling_resistance: Annotated[Num | None, Range(0.0, 1.0, "from 0 to 1")] = None


class PitchSpec(SpecModel):
    """A pitch of its own size (:data:`kubb3d.pitch.PITCH_LENGTH_M`, :data:`kubb3d.pitch.PITCH_WIDTH_M`)."""

    length: Annotated[StrictFloat, Range(*PITCH_LENGTH_M, f"from {PITCH_LENGTH_M[0]:g} to {PITCH_LENGTH_M[1]:g} m")]
    width: Annotated[StrictFloat, Range(*PITCH_WIDTH_M, f"from {PITCH_WIDTH_M[0]:g} to {PITCH_WIDTH_M[1]:g} m")]


class PieceSpec(SpecModel):
    """An extra piece for ``layout = "standard"`` or ``"empty"``.

    ``place = "standing"``: upright at ``at`` (x, y m), turned by ``yaw_deg``.
    ``place = "leaning"``: a kubb tilted by ``tilt_deg`` whose top edge rests against the
    face of the standing piece ``on``; ``from_deg`` (0, 90, 180, 270) picks the face, measured
    in the supporter's frame counter-clockwise from its +x face.
    """

    # letters, digits, _ and -: an id names results columns (``L_tilt_deg``), and SQLite's
    # JSON paths cannot name a key with " or \ (the results view's column was NULL)
    id: str = Field(min_length=1, max_length=MAX_ID_CHARS, pattern=r"^[A-Za-z0-9_-]+$")
    kind: Literal["kubb", "king"] = "kubb"
    place: Literal["standing", "leaning"] = "standing"
    at: tuple[StrictFloat, StrictFloat] | None = None
    yaw_deg: Annotated[StrictFloat, Range(-360.0, 360.0, "from -360 to 360 degrees")] = 0.0

    @field_validator("at")
    @classmethod
    def _at(cls, v):
        if v is not None and not all(abs(c) <= PIECE_COORD_MAX_M for c in v):
            raise ValueError(msg("expected [x, y] each from {lo:g} to {hi:g} m, got {got}", lo=-PIECE_COORD_MAX_M,
                                     hi=PIECE_COORD_MAX_M, got=str(list(v))))
        return v
    on: str | None = None
    tilt_deg: Annotated[
        Num | None,
        Range(0.0, LEAN_TILT_MAX_DEG, f"more than 0 and at most {LEAN_TILT_MAX_DEG:g} degrees", open_lo=True),
    ] = None
    from_deg: Literal[0, 90, 180, 270] = 0
    side: Literal["A", "B"] | None = None

    @model_validator(mode="after")
    def _needs(self):
        if self.place == "standing" and self.at is None:
            raise ValueError(msg("place = 'standing' needs 'at' = [x, y] in m"))
        if self.place == "leaning":
            if self.on is None or self.tilt_deg is None:
                raise ValueError(msg("place = 'leaning' needs 'on' (a piece id) and 'tilt_deg'"))
            if self.kind != "kubb":
                raise ValueError(msg("only a kubb can be placed leaning"))
        return self


BatonRuleset = Annotated[
    Literal[tuple(rulebook_names(baton_throws=True))],  # type: ignore[valid-type]
    BeforeValidator(ruleset_alias),
]
"""The registered rulesets with baton throws (:func:`kubb3d.judge.rulebook.rulebook_names`)."""


class SetupSpec(SpecModel):
    ruleset: BatonRuleset = "dm"
    equipment: str = "standard"
    pitch: Union[Literal["dm", "wikinger"], PitchSpec] = "dm"
    ground: Union[GroundSpec, Name] = "grass"
    layout: Literal["standard", "empty", "scenario"] = "standard"
    scenario: str | None = None
    stakes: bool = True
    terrain_cm: Annotated[Num, Range(0.0, TERRAIN_CM_MAX, f"from 0 to {TERRAIN_CM_MAX:g} cm")] = 0.0
    terrain_seed: StrictInt = Field(default=0, ge=0, lt=2**63)
    pieces: list[PieceSpec] = []

    @field_validator("equipment")
    @classmethod
    def _equipment(cls, v: str) -> str:
        from kubb3d.equipment import EQUIPMENT_SETS

        if v not in EQUIPMENT_SETS:
            raise ValueError(msg("unknown equipment set {name}{near}; expected one of {names}", name=repr(v),
                             near=did_you_mean(v, sorted(EQUIPMENT_SETS)), names=listed(sorted(EQUIPMENT_SETS))))
        if EQUIPMENT_SETS[v].board is not None:  # every ruleset here throws batons on a pitch
            pitch_sets = sorted(n for n, e in EQUIPMENT_SETS.items() if e.board is None)
            raise ValueError(msg("{name} is a table-top set; a baton throw on a pitch needs one of {names}",
                                     name=repr(v), names=listed(pitch_sets)))
        return v

    @model_validator(mode="after")
    def _layout(self):
        if self.layout == "scenario" and not self.scenario:
            raise ValueError(msg("layout = 'scenario' needs 'scenario' = path of a scenario file"))
        if self.layout != "scenario" and self.scenario:
            raise ValueError(msg("'scenario' is only used with layout = 'scenario'"))
        if self.layout == "scenario" and self.pieces:
            raise ValueError(msg("layout = 'scenario' takes its pieces from the scenario file, not from 'pieces'"))
        ids = [p.id for p in self.pieces]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(msg("piece ids must be unique, repeated: {ids}", ids=listed(dup)))
        if self.layout == "standard":
            clash = sorted(i for i in ids if _is_standard_id(i))
            if clash:
                raise ValueError(msg("piece ids {ids} are pieces of the standard layout already; choose other ids",
                                         ids=listed(clash)))
        placed: set[str] = set()
        for p in self.pieces:
            if (
                p.place == "leaning"
                and p.on not in placed
                and not (self.layout == "standard" and _is_standard_id(p.on))
            ):
                raise ValueError(msg("piece {id} leans on {on}, which is not placed before it", id=repr(p.id),
                                     on=repr(p.on)))
            placed.add(p.id)
        return self

    @model_validator(mode="after")
    def _no_overlap(self):
        """Standing pieces (and the standard layout's kubbs and king) must not overlap: their
        square footprints may touch but not cut into each other by more than the scenario
        loader's tolerance (:data:`kubb3d.scenario_build.OVERLAP_TOL`, 2 mm)."""
        from kubb3d.equipment import EQUIPMENT_SETS
        from kubb3d.judge.geometry import overlap_depth, square
        from kubb3d.pitch import PITCHES, Pitch
        from kubb3d.scenario_build import OVERLAP_TOL

        if self.layout == "scenario":
            return self
        eq = EQUIPMENT_SETS[self.equipment]
        pitch = Pitch(self.pitch.length, self.pitch.width) if isinstance(self.pitch, PitchSpec) else PITCHES[self.pitch]
        from kubb3d.ranges import off_the_pitch

        for i, p in enumerate(self.pieces):  # a place far off the pitch is a mistake (x = 15 on 8 m)
            why = None if p.at is None else off_the_pitch(pitch, p.at[0], p.at[1])
            if why is not None:
                raise ValueError(concat(f"pieces[{i}] (id {p.id}).at: ", why))
        feet: list[tuple[str, list]] = []
        if self.layout == "standard":
            for side in "AB":
                for pid, xy in pitch.baseline_kubb_positions(side).items():
                    feet.append((pid, square(xy, (1.0, 0.0), eq.kubb.half_extents[0])))
            feet.append(("king", square(pitch.king_position, (1.0, 0.0), eq.king.half_extents[0])))
        for p in self.pieces:
            if p.place == "standing":
                yaw = math.radians(p.yaw_deg)
                half = (eq.king if p.kind == "king" else eq.kubb).half_extents[0]
                feet.append((p.id, square(p.at, (math.cos(yaw), math.sin(yaw)), half)))
        for i, (a, fa) in enumerate(feet):
            for b, fb in feet[:i]:
                d = overlap_depth(fa, fb)
                if d > OVERLAP_TOL:
                    raise ValueError(msg("pieces {first} and {second} overlap by {mm:.0f} mm; move one of them",
                                             first=repr(b), second=repr(a), mm=d * 1000))
        return self


def _is_standard_id(pid: str | None) -> bool:
    return pid == "king" or (pid is not None and len(pid) == 2 and pid[0] in "AB" and pid[1] in "12345")


class ThrowSpec(SpecModel):
    """The baton throw of every trial (fields as :class:`kubb3d.throw.ThrowParams`).

    ``target``: the piece thrown at (the ``hit`` measure asks whether it fell); unless
    ``lateral`` is given the thrower stands in line with it. ``aim = true``: the aim solver
    picks speed and azimuth through the target (then ``speed`` and ``azimuth_deg`` must not
    be given). ``skill``: a player preset of :mod:`kubb3d.players` whose release noise is
    added to the intended throw.
    """

    side: Literal["A", "B"] = "A"
    baton: str = "baton1"
    line_x: Num | None = None
    target: Name | None = None
    aim: bool = False
    skill: Name | None = None
    speed: Annotated[Num | None, THROW_RANGES["speed"]] = None
    elevation_deg: Annotated[Num | None, THROW_RANGES["elevation_deg"]] = None
    azimuth_deg: Annotated[Num | None, THROW_RANGES["azimuth_deg"]] = None
    spin_rps: Annotated[Num | None, THROW_RANGES["spin_rps"]] = None
    tilt_deg: Annotated[Num | None, THROW_RANGES["tilt_deg"]] = None
    helicopter_rps: Annotated[Num | None, THROW_RANGES["helicopter_rps"]] = None
    release_angle_deg: Annotated[Num | None, THROW_RANGES["release_angle_deg"]] = None
    height: Annotated[Num | None, THROW_RANGES["height"]] = None
    lateral: Annotated[Num | None, THROW_RANGES["lateral"]] = None
    behind_line: Annotated[Num | None, THROW_RANGES["behind_line"]] = None
    max_time_s: StrictFloat = Field(default=15.0, gt=0.0, le=120.0)
    speed_offset: Annotated[Num | None, Range(-40.0, 40.0, "from -40 to 40 m/s")] = None
    elevation_offset_deg: Annotated[Num | None, Range(-90.0, 90.0, "from -90 to 90 degrees")] = None
    azimuth_offset_deg: Annotated[Num | None, Range(-90.0, 90.0, "from -90 to 90 degrees")] = None

    @model_validator(mode="after")
    def _aim(self):
        if self.aim and self.target is None:
            raise ValueError(msg("aim = true needs a 'target' (a piece id)"))
        offsets = [n for n in AIM_OFFSETS if getattr(self, n) is not None]
        if offsets and not self.aim:
            raise ValueError(nmsg("{names} shifts the aim solution: it needs aim = true",
                                  "{names} shift the aim solution: they need aim = true", len(offsets),
                                  names=", ".join(offsets)))
        if self.aim and (self.speed is not None or self.azimuth_deg is not None):
            raise ValueError(msg(
                "with aim = true the aim solver sets speed and azimuth: remove 'speed' and 'azimuth_deg'"))
        return self

    @field_validator("skill")
    @classmethod
    def _skill(cls, v):
        if v is None:
            return v
        names = [v] if isinstance(v, str) else (v.grid if isinstance(v, Grid) else v.choice)
        try:
            from kubb3d.players import SKILLS
        except ImportError:  # the seam: presets come from kubb3d.players
            raise ValueError("skill presets need kubb3d.players, which is not available") from None
        bad = [n for n in names if n not in SKILLS]
        if bad:
            raise ValueError(unknown_name("skill preset", bad[0], SKILLS))
        return v


class DisturbSpec(SpecModel):
    """A kick given to one piece after the scene has settled (before any throw):
    horizontal velocity ``speed_mps`` (m/s) towards ``direction_deg`` (deg, from +x,
    counter-clockwise), e.g. a nudge from a neighbouring impact."""

    piece: str
    speed_mps: Annotated[Num, Range(0.0, DISTURB_SPEED_MAX, f"from 0 to {DISTURB_SPEED_MAX:g} m/s")] = 0.0
    direction_deg: Annotated[Num, Range(-360.0, 360.0, "from -360 to 360 degrees")] = 0.0


class MatchSpec(SpecModel):
    """A whole simulated match per trial (:mod:`kubb3d.match`), for the ``match`` measure.

    ``skill_a``/``skill_b``: the players' presets (fixed, ``grid`` or ``choice``);
    ``strategy_a``/``strategy_b``: their strategies (:data:`kubb3d.players.STRATEGIES`; fixed,
    ``grid`` or ``choice``; unset: ``default``);
    ``sets``: best of this many sets, an odd number from 1 to 9, as ``kubb3d match --sets`` (DM §3;
    fixed, ``grid`` or ``choice``; unset: the ruleset's one set; not with ``wikinger``, one game
    against the clock);
    ``round_cap``: turns per set before the match is cut off; ``time_limit_min``: the
    organiser's time limit in minutes (none by default; WS games use 20); ``ground``: the
    playing surface (default grass; a factor or draw allowed). Matches play the standard
    equipment on flat ground. The match's seed is
    drawn from the trial's own seed, so matches are as reproducible as throws.
    """

    ruleset: BatonRuleset = "dm"
    skill_a: Name = "club"
    skill_b: Name = "club"
    strategy_a: Name | None = None
    strategy_b: Name | None = None
    sets: Whole | None = None  # after ruleset: its check reads the ruleset
    round_cap: StrictInt = Field(default=40, ge=3, le=200)  # a match needs >= 3 (as `match --round-cap`)
    time_limit_min: StrictFloat | None = Field(default=None, gt=0, le=1440)
    ground: Name | None = None

    @field_validator("skill_a", "skill_b")
    @classmethod
    def _skills(cls, v):
        return ThrowSpec._skill(v)

    @field_validator("sets")
    @classmethod
    def _sets(cls, v, info: ValidationInfo):
        """As ``kubb3d match --sets``: best of an odd number from 1 to 9 (one side wins more,
        DM §3); a Wikinger-Schach match is one game against the clock."""
        if v is None:
            return v
        if info.data.get("ruleset") == "wikinger":
            raise ValueError(msg("does not apply to ruleset 'wikinger' (a Wikinger-Schach match is one game "
                                 "against the clock)"))
        for n in form_values(v):
            if not 1 <= n <= MAX_SETS or n % 2 != 1:
                raise ValueError(msg("expected {what}, got {got}", what=msg("an odd number from 1 to 9"), got=repr(n)))
        return v

    @field_validator("ground")
    @classmethod
    def _ground(cls, v):
        if v is None:
            return v
        from kubb3d.physics.ground import GROUNDS

        names = [v] if isinstance(v, str) else (v.grid if isinstance(v, Grid) else v.choice)
        bad = [n for n in names if n not in GROUNDS or n == "board"]
        if bad:
            raise ValueError(unknown_name("ground", bad[0], [g for g in GROUNDS if g != "board"]))
        return v

    @field_validator("strategy_a", "strategy_b")
    @classmethod
    def _strategies(cls, v):
        from kubb3d.players import STRATEGIES

        bad = [
            n
            for n in ([] if v is None else [v] if isinstance(v, str) else v.grid if isinstance(v, Grid) else v.choice)
            if n not in STRATEGIES
        ]
        if bad:
            raise ValueError(unknown_name("strategy", bad[0], STRATEGIES))
        return v


class ExperimentSpec(SpecModel):
    schema_: Literal[1] = Field(alias="schema")
    title: str = Field(min_length=1, max_length=MAX_TITLE_CHARS)
    description: str = Field(default="", max_length=MAX_TEXT_CHARS)
    seed: StrictInt = Field(ge=0, lt=2**63)
    trials_per_point: StrictInt = Field(ge=1, le=1_000_000)
    measures: list[Literal[MEASURES]] = Field(min_length=1)  # type: ignore[valid-type]
    watch: list[str] = []
    setup: SetupSpec = SetupSpec()
    throw: ThrowSpec | None = None
    disturb: DisturbSpec | None = None
    match: MatchSpec | None = None
    options: dict[str, Any] = {}

    @field_validator("options")
    @classmethod
    def _options(cls, v: dict[str, Any]) -> dict[str, Any]:
        """Each option's value as the option holds it, or a grid of such values (a factor: the
        study of a rule variant, e.g. ``opening = { grid = ["2-4-6", "6-6-6"] }``)."""
        from kubb3d.judge.options import BY_NAME, option_value

        for name in v:
            if name not in BY_NAME:
                from kubb3d.ranges import unknown_option

                raise ValueError(unknown_option(name))
        out: dict[str, Any] = {}
        for name, value in v.items():
            if isinstance(value, Grid) or (isinstance(value, dict) and set(value) == {"grid"}):
                words = value.grid if isinstance(value, Grid) else value["grid"]
                if not isinstance(words, list) or not words:
                    raise ValueError(msg("{name}: a grid needs a list of values", name=name))
                out[name] = Grid(grid=[option_value(name, word) for word in words])
            else:
                out[name] = option_value(name, value)
        return out

    @model_validator(mode="after")
    def _line_on_pitch(self):
        if self.throw is not None and self.throw.line_x is not None:
            half = self.pitch_obj.length / 2
            for x in form_values(self.throw.line_x):  # a fixed value, every grid value, a draw's ends
                if not isinstance(x, str) and abs(x) > half:  # (a string: refused as no number later)
                    raise ValueError(msg("{field}: {got} is off the pitch; expected from {lo:g} to {hi:g} m",
                                         field="throw.line_x", got=repr(x), lo=-half, hi=half))
        return self

    @model_validator(mode="after")
    def _measures(self):
        if len(set(self.measures)) != len(self.measures):
            raise ValueError(msg("measures must not repeat"))
        if (self.match is not None) != ("match" in self.measures):
            raise ValueError(msg("the 'match' measure and a [match] table go together"))
        if "turns" in self.measures and self.match is None:
            raise ValueError(msg("the 'turns' measure counts the turns of a whole match: it needs a [match] table"))
        if self.match is not None:
            if not set(self.measures) <= {"match", "turns"} or self.throw is not None or self.disturb is not None:
                raise ValueError(
                    "a [match] trial plays a whole match: no [throw] or [disturb] table, and 'match' (with 'turns') "
                    "as the only measures"
                )
            # a match sets up its own pitch: a [setup] table or 'watch' would be silently ignored
            if self.setup != SetupSpec() or self.watch:
                raise ValueError(
                    "a [match] trial sets up its own pitch: remove the [setup] table and 'watch' (they would be "
                    "ignored; [match] takes ground)"
                )
            return self
        throw_only = {"hit", "first_contact", "landing", "tilt", "flight_time", "rulings"} & set(self.measures)
        if self.throw is None and throw_only:
            raise ValueError(msg("measures {names} need a [throw] table", names=listed(sorted(throw_only))))
        if "status" in self.measures and not self.watch:
            raise ValueError(msg("the 'status' measure needs 'watch' = [piece ids]"))
        if self.throw is None and self.disturb is None:
            raise ValueError(msg("nothing happens in a trial: give a [throw] or a [disturb] table"))
        return self

    @property
    def pitch_obj(self):
        """The :class:`kubb3d.pitch.Pitch`."""
        from kubb3d.pitch import PITCHES, Pitch

        p = self.setup.pitch
        return Pitch(p.length, p.width) if isinstance(p, PitchSpec) else PITCHES[p]


# ------------------------------------------------------------------ loading
@dataclass(frozen=True)
class Factor:
    """One grid factor.

    Attributes:
        name: column name in the results (``speed``, ``ground_friction``, ``L_tilt_deg`` …).
        path: where it sits in the spec (tuple of keys / list indices).
        values: the grid values.
    """

    name: str
    path: tuple
    values: tuple


@dataclass(frozen=True)
class Draw:
    """One value drawn per trial: column ``name``, spec location ``path``, distribution ``dist``."""

    name: str
    path: tuple
    dist: Any


@dataclass(frozen=True)
class LoadedSpec:
    """A validated spec with its grid expanded.

    Attributes:
        spec: the validated model.
        path: the file (None for a spec given as a dict).
        factors: grid factors in file order.
        draws: per-trial random values in file order.
        scenario_sha256: content hash of the scenario file (layout ``scenario``) or None.
        scenario_path: absolute path of that file, or None.
    """

    spec: ExperimentSpec
    path: Path | None
    factors: tuple[Factor, ...]
    draws: tuple[Draw, ...]
    scenario_sha256: str | None = None
    scenario_path: str | None = None

    @property
    def n_points(self) -> int:
        """Number of grid points (1 without factors)."""
        return math.prod(len(f.values) for f in self.factors)

    @property
    def n_trials(self) -> int:
        """Total trials: points × ``trials_per_point``."""
        return self.n_points * self.spec.trials_per_point

    def point(self, index: int) -> dict[str, Any]:
        """Factor values of grid point ``index`` (0 ≤ index < n_points), by column name."""
        out = {}
        for f in reversed(self.factors):
            index, k = divmod(index, len(f.values))
            out[f.name] = f.values[k]
        return {f.name: out[f.name] for f in self.factors}

    def points(self) -> list[dict[str, Any]]:
        """All grid points in order."""
        return [
            dict(zip([f.name for f in self.factors], combo))
            for combo in itertools.product(*[f.values for f in self.factors])
        ]

    def normalised(self) -> dict:
        """The spec as plain data for hashing: defaults filled in, without ``title``,
        ``description`` and ``trials_per_point`` (which do not change any trial's row),
        plus the scenario file's hash."""
        d = self.spec.model_dump(mode="json", by_alias=True)
        for k in ("title", "description", "trials_per_point"):
            d.pop(k, None)
        if d.get("throw"):
            # fields added later are left out while unset, so older results files keep their hash
            for k in AIM_OFFSETS:
                if d["throw"].get(k) is None:
                    d["throw"].pop(k, None)
        if d.get("match"):
            for k in ("ground", "strategy_a", "strategy_b", "sets"):
                if d["match"].get(k) is None:
                    d["match"].pop(k, None)
        if not d.get("options"):
            d.pop("options", None)
        d["scenario_sha256"] = self.scenario_sha256
        return d

    @property
    def sha256(self) -> str:
        """Hash of :meth:`normalised` (sorted-key JSON)."""
        return hashlib.sha256(json.dumps(self.normalised(), sort_keys=True).encode()).hexdigest()

    def to_json(self) -> str:
        """The validated spec (with ``trials_per_point``), JSON; :func:`from_json` reads it back."""
        return json.dumps(
            {
                "spec": self.spec.model_dump(mode="json", by_alias=True),
                "path": None if self.path is None else str(self.path),
                "scenario_sha256": self.scenario_sha256,
                "scenario_path": self.scenario_path,
            },
            sort_keys=True,
        )


def _walk(model: BaseModel, path: tuple, out_f: list, out_d: list, names: dict) -> None:
    for fname in model.__class__.model_fields:
        value = getattr(model, fname)
        here = path + (fname,)
        if isinstance(value, BaseModel) and not isinstance(value, (Grid, Linspace, Uniform, Normal, Choice)):
            _walk(value, here, out_f, out_d, names)
        elif isinstance(value, list) and value and isinstance(value[0], BaseModel):
            for i, item in enumerate(value):
                _walk(item, here + (i,), out_f, out_d, names)
        elif fname == "options" and not path:
            for option, setting in value.items():
                if isinstance(setting, Grid):
                    name = f"option_{option}"
                    names[name] = here + (option,)
                    out_f.append(Factor(name, here + (option,), tuple(setting.values())))
        elif isinstance(value, FACTOR_FORMS + RANDOM_FORMS):
            name = _column_name(here, model)
            if name in names:
                raise SpecError(
                    f"two factors would both be called {name!r} ({field_path(names[name])} and {field_path(here)})"
                )
            names[name] = here
            if isinstance(value, FACTOR_FORMS):
                out_f.append(Factor(name, here, tuple(value.values())))
            else:
                out_d.append(Draw(name, here, value))


def _column_name(path: tuple, model: BaseModel) -> str:
    if path[0] == "throw":
        return path[-1]
    if path[:2] == ("setup", "ground"):
        return "ground" if len(path) == 2 else f"ground_{path[-1]}"
    if path[:2] == ("setup", "pieces"):
        return f"{model.id}_{path[-1]}"
    if path[0] == "disturb":
        return f"disturb_{path[-1]}"
    if path[0] == "match":
        return f"match_{path[-1]}"
    return path[-1]


def validate(data: dict, path: Path | None = None) -> LoadedSpec:
    """Validate a spec given as a dict (as read from TOML).

    Raises:
        SpecError: ``file: field: reason``, naming the first failing field.
    """
    where = str(path) if path is not None else "<spec>"
    if not isinstance(data, dict):
        raise SpecError(msg("{where}: expected a table", where=where))
    if "schema" not in data:
        raise SpecError(msg("{where}: schema: missing; expected schema = {schema}", where=where,
                                schema=SCHEMA_VERSION))
    if data["schema"] != SCHEMA_VERSION:
        raise SpecError(msg("{where}: schema: expected {schema}, got {got}", where=where, schema=SCHEMA_VERSION,
                                got=repr(data["schema"])))
    try:
        spec = ExperimentSpec.model_validate(data)
    except ValidationError as exc:
        from kubb3d.fieldnames import prefer_unknown, unknown_field

        err = most_telling(prefer_unknown(exc.errors(), ExperimentSpec))
        loc = field_path(short_loc(tuple(err["loc"])))
        from kubb3d.ranges import pydantic_message

        why = pydantic_message(err)
        got = (
            msg(" (got {value})", value=shown(err["input"]))
            if "input" in err and not isinstance(err["input"], dict) and repr(err["input"]) not in why
            else ""
        )
        if err.get("type") == "extra_forbidden" and err["loc"]:
            why = unknown_field(ExperimentSpec, tuple(err["loc"]), listed_by="`kubb3d experiment fields` lists them")
            got = ""
        from kubb3d.ranges import pydantic_bound

        if pydantic_bound(err) is not None:
            why, got = pydantic_bound(err), ""
        # other fields that fail (a value failing every branch of a union is one field)
        fields = {union_field(tuple(e["loc"])) for e in exc.errors()} - {union_field(tuple(err["loc"]))}
        more = msg(" (+{n} more)", n=len(fields)) if fields else ""
        raise SpecError(concat(f"{where}: {'' if loc == field_path(()) else loc + ': '}", why, got, more)) from None
    try:
        factors: list[Factor] = []
        draws: list[Draw] = []
        _walk(spec, (), factors, draws, {})
    except SpecError as exc:
        raise SpecError(concat(f"{where}: ", message(exc))) from None
    _check_kinds(spec, factors, draws, where)
    sha = None
    if spec.setup.layout == "scenario":
        sc = Path(spec.setup.scenario)
        if not sc.is_absolute() and path is not None:
            sc = path.parent / sc
        if not sc.is_file():
            raise SpecError(concat(f"{where}: setup.scenario: ", msg("no such file {path}", path=repr(str(sc)))))
        from kubb3d.scenario import ScenarioError, load

        try:
            scenario = load(sc)
        except ScenarioError as exc:
            raise SpecError(concat(f"{where}: setup.scenario: ", message(exc))) from None
        if spec.throw is not None:
            from kubb3d.scenario_build import _kind

            _check_baton(spec.throw.baton, {p.id for p in scenario.pieces if _kind(p) != "baton"}, where)
        sha = hashlib.sha256(sc.read_bytes()).hexdigest()
    loaded = LoadedSpec(spec, path, tuple(factors), tuple(draws), sha, None if sha is None else str(sc.resolve()))
    if loaded.n_points > 1_000_000:
        raise SpecError(f"{where}: the grid has {counted(loaded.n_points, 'point')}; at most 1000000")
    return loaded


def _check_kinds(spec: ExperimentSpec, factors, draws, where: str) -> None:
    """String values only where names are expected; names that exist."""
    from kubb3d.physics.ground import GROUNDS

    name_fields = {
        ("throw", "target"),
        ("throw", "skill"),
        ("setup", "ground"),
        ("match", "skill_a"),
        ("match", "skill_b"),
        ("match", "ground"),
        ("match", "strategy_a"),
        ("match", "strategy_b"),
    }
    for item in list(factors) + list(draws):
        if item.path[0] == "options":  # checked by the option itself (ExperimentSpec._options)
            continue
        values = item.values if isinstance(item, Factor) else getattr(item.dist, "choice", [])
        is_name = item.path in name_fields
        for v in values:
            if is_name and not isinstance(v, str):
                got = msg("expected names (strings), got {got}", got=repr(v))
                raise SpecError(concat(f"{where}: {field_path(item.path)}: ", got))
            if not is_name and isinstance(v, str):
                got = msg("expected numbers, got {got}", got=repr(v))
                raise SpecError(concat(f"{where}: {field_path(item.path)}: ", got))
        if item.path == ("setup", "ground"):
            for v in values:
                if v not in GROUNDS:
                    raise SpecError(concat(f"{where}: setup.ground: ", unknown_name("ground", v, GROUNDS)))
        if (
            item.path in (("throw", "target"), ("throw", "skill"))
            and isinstance(item, Draw)
            and not isinstance(item.dist, Choice)
        ):
            raise SpecError(concat(f"{where}: {field_path(item.path)}: ", msg("expected a name, a grid or a choice")))
    g = spec.setup.ground
    base = g if isinstance(g, str) else (g.base if isinstance(g, GroundSpec) else None)
    if base is not None and base not in GROUNDS:
        raise SpecError(concat(f"{where}: setup.ground: ", unknown_name("ground", base, GROUNDS)))
    ids = {p.id for p in spec.setup.pieces}
    if spec.setup.layout == "standard":
        ids |= {f"{s}{i}" for s in "AB" for i in range(1, 6)} | {"king"}
    if spec.setup.layout != "scenario":
        for name, pid in [("watch", w) for w in spec.watch] + (
            [("disturb.piece", spec.disturb.piece)] if spec.disturb else []
        ):
            if pid not in ids:
                raise SpecError(concat(f"{where}: {name}: ", _no_piece(pid, ids)))
        tg = spec.throw.target if spec.throw else None
        targets = (
            [] if tg is None else [tg] if isinstance(tg, str) else list(tg.grid if isinstance(tg, Grid) else tg.choice)
        )
        for a in targets:
            if a not in ids:
                raise SpecError(concat(f"{where}: throw.target: ", _no_piece(a, ids)))
    if spec.throw is not None:
        _check_baton(spec.throw.baton, ids | {f"{s}{i}" for s in "AB" for i in range(1, 6)} | {"king"}, where)


def _no_piece(pid: str, ids: set[str]) -> str:
    return msg("no piece {id} in the set-up{near}; expected one of {names}", id=repr(pid),
               near=did_you_mean(pid, sorted(ids)), names=listed(sorted(ids)))


def _check_baton(baton: str, piece_ids: set[str], where: str) -> None:
    """``throw.baton`` names the thrown baton: never a kubb or the king of the set-up (it would
    be thrown), nor a standard piece's id.

    Raises:
        SpecError: the name is taken.
    """
    if baton in piece_ids:
        raise SpecError(msg("{where}: throw.baton: {name} is a kubb or the king of the set-up; name a baton "
                                "(default 'baton1')", where=where, name=repr(baton)))


def load_spec(path: str | Path) -> LoadedSpec:
    """Read and validate an experiment spec file.

    Raises:
        SpecError: unreadable file, bad TOML, or a field that fails validation; the message
            names the file, the field and the reason.
    """
    path = Path(path)
    from kubb3d.files import FileSafetyError, load_toml

    if not path.exists():
        from kubb3d.library import not_found

        raise SpecError(not_found(path, "spec"))
    try:
        # special files, huge files and deep nesting refused; no line of the file is echoed
        data = load_toml(path, "experiment spec")
    except FileSafetyError as exc:
        from kubb3d.errors import message

        raise SpecError(message(exc)) from None
    from kubb3d.library import other_toml_kind

    if (other := other_toml_kind(data, path, "spec")) is not None:
        raise SpecError(other)
    return validate(data, path)


def from_json(text: str) -> LoadedSpec:
    """Inverse of :meth:`LoadedSpec.to_json` (used to ship a spec to worker processes)."""
    d = json.loads(text)
    spec = ExperimentSpec.model_validate(d["spec"])
    factors: list[Factor] = []
    draws: list[Draw] = []
    _walk(spec, (), factors, draws, {})
    return LoadedSpec(
        spec,
        None if d["path"] is None else Path(d["path"]),
        tuple(factors),
        tuple(draws),
        d["scenario_sha256"],
        d["scenario_path"],
    )


def field_range(spec: ExperimentSpec, path: tuple) -> Range | None:
    """The :class:`Range` of the number field at a spec location, or None (a name, no range)."""
    parent = get_at(spec, path[:-1])
    info = type(parent).model_fields.get(path[-1]) if isinstance(parent, BaseModel) else None
    return None if info is None else next((m for m in info.metadata if isinstance(m, Range)), None)


def get_at(model: Any, path: tuple) -> Any:
    """The value at a spec location (see :attr:`Factor.path`)."""
    for part in path:
        model = model[part] if isinstance(part, int) else getattr(model, part)
    return model

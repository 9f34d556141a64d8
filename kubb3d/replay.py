"""The one reader of match replay files (JSON lines, schema 2; see :mod:`kubb3d.match`).

A replay is input like any other file: every record is validated with pydantic before a
match is resumed (:meth:`kubb3d.match.Match.resume`) or shown (:mod:`kubb3d.viewer.replay`).
Errors name the file, the line and the field, and give the allowed range; they never quote
the file's content. A last line cut off by an interruption is dropped, with a warning.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError, field_validator

from kubb3d.files import ReplayError as ReplayError  # the one error of every replay reader
from kubb3d.judge.messages import N_
from kubb3d.ranges import listed
from kubb3d.rules.core import DEFAULT_ROUND_CAP
from kubb3d.rules.core import MAX_ROUND_CAP as MAX_ROUND_CAP
from kubb3d.rules.core import MAX_TIME_LIMIT_S as MAX_TIME_LIMIT_S

SCHEMA = 2
"""Replay format version. 2: action records say where the pieces are after the action
(``after``, ``before``). Schema 1 files are refused in one line (they lack those poses, and a
reader would have to redo the rules to show them; docs/viewer.md "What a replay records").
Reasons with their message beside them (``reason_msg``) are schema 2 too: an optional key that
readers without it ignore."""
OLD_SCHEMAS = {1: N_("it does not record where the pieces are after each action")}
MAX_POSITION_M = 100.0
"""Largest |coordinate| of a recorded pose, m (pitches are at most a few tens of metres)."""

OVERLAP_TOL_M = 0.01
"""m: how far two recorded pieces may cut into each other before a replay is refused. Pieces
at rest press a few millimetres into each other in the engine (and a raised kubb may stand
that close to a neighbour); interpenetration beyond 1 cm is not a pose the match writes."""


Finite = Annotated[float, Field(allow_inf_nan=False)]


class ConfigRecord(BaseModel):
    """The ``config`` of a header: the fields of :class:`kubb3d.match.MatchConfig`."""

    model_config = ConfigDict(extra="forbid")

    ruleset: str = "dm"
    skills: tuple[str, str] = ("club", "club")
    names: tuple[str, str] | None = None
    seed: StrictInt = Field(0, ge=0)
    sets: StrictInt | None = Field(None, ge=1, le=9)
    time_limit_s: Finite | None = -1.0
    round_cap: StrictInt = Field(DEFAULT_ROUND_CAP, ge=3, le=MAX_ROUND_CAP)
    team_size: Union[
        Annotated[StrictInt, Field(ge=1, le=12)],
        tuple[Annotated[StrictInt, Field(ge=1, le=12)], Annotated[StrictInt, Field(ge=1, le=12)]],
        None,
    ] = None
    ground: str = "grass"
    strategies: tuple[str, str] = ("default", "default")
    trajectory_hz: Finite = Field(15.0, gt=0, le=1000)
    options: dict[str, Any] = {}
    difficulty: str = "exact"

    @field_validator("sets")
    @classmethod
    def _sets(cls, v: int | None) -> int | None:
        if v is not None and v % 2 == 0:  # best of N sets: one side must win more (DM §3)
            from kubb3d.judge.messages import msg

            raise ValueError(msg("expected an odd number of sets (best of 1, 3, 5, 7 or 9)"))
        return v

    @field_validator("difficulty")
    @classmethod
    def _difficulty(cls, v: str) -> str:
        from kubb3d.match.human import DIFFICULTIES

        if v not in DIFFICULTIES:
            raise ValueError(f"unknown difficulty; expected one of {', '.join(DIFFICULTIES)}")
        return v

    @field_validator("options")
    @classmethod
    def _options(cls, v: dict[str, Any]) -> dict[str, Any]:
        from kubb3d.judge.options import BY_NAME, option_value

        unknown = sorted(set(v) - set(BY_NAME))
        if unknown:
            from kubb3d.ranges import unknown_option

            raise ValueError(unknown_option(unknown[0]))
        return {name: option_value(name, value) for name, value in v.items()}

    @field_validator("ruleset")
    @classmethod
    def _ruleset(cls, v: str) -> str:
        from kubb3d.rules import ruleset_names

        if v not in ruleset_names():
            raise ValueError(f"unknown ruleset; expected one of {listed(ruleset_names())}")
        return v

    @field_validator("skills")
    @classmethod
    def _skills(cls, v: tuple[str, str]) -> tuple[str, str]:
        from kubb3d.players import SKILLS

        bad = [s for s in v if s not in SKILLS]
        if bad:
            raise ValueError(f"unknown skill; expected one of {listed(sorted(SKILLS))}")
        return v

    @field_validator("strategies")
    @classmethod
    def _strategies(cls, v: tuple[str, str]) -> tuple[str, str]:
        from kubb3d.players import STRATEGIES

        if any(x not in STRATEGIES for x in v):
            raise ValueError(f"unknown strategy; expected one of {listed(sorted(STRATEGIES))}")
        return v

    @field_validator("ground")
    @classmethod
    def _ground(cls, v: str) -> str:
        from kubb3d.physics.ground import GROUNDS

        if v not in GROUNDS:
            raise ValueError(f"unknown ground; expected one of {listed(sorted(GROUNDS))}")
        return v

    @field_validator("time_limit_s")
    @classmethod
    def _time_limit(cls, v: float | None) -> float | None:
        if v is not None and v != -1.0 and not 0 < v <= MAX_TIME_LIMIT_S:
            raise ValueError(f"must be -1 (ruleset default), null (none) or from 0 to {MAX_TIME_LIMIT_S:g} s")
        return v


class HeaderRecord(BaseModel):
    model_config = ConfigDict(extra="allow")

    type: Literal["header"]
    schema_: Literal[2] = Field(alias="schema")
    config: ConfigRecord | None = None
    """None only in files for viewing (a match cannot be resumed without it)."""
    people: list[str] | None = None
    """The players a person played (``kubb3d play --opponent``); left out when none."""


def _pose_ok(p: list[float]) -> list[float]:
    from kubb3d.judge.messages import msg

    if any(abs(c) > MAX_POSITION_M for c in p[:3]):
        raise ValueError(msg("position beyond {far:g} m of the pitch centre", far=MAX_POSITION_M))
    n = math.sqrt(sum(q * q for q in p[3:]))
    if abs(n - 1.0) > 1e-3:
        raise ValueError(msg("quaternion of length {n:.3g}, expected a unit quaternion", n=n))
    return p


def _poses_ok(v: dict[str, list[float]] | None) -> dict[str, list[float]] | None:
    for pid, pose in (v or {}).items():
        try:
            _pose_ok(pose)
        except ValueError as exc:
            from kubb3d.errors import message
            from kubb3d.judge.messages import concat

            raise ValueError(concat(f"{pid}: ", message(exc))) from None
    return v


Pose7 = Annotated[list[Finite], Field(min_length=7, max_length=7)]


class WorldRecord(BaseModel):
    model_config = ConfigDict(extra="allow")

    type: Literal["world"]
    i: StrictInt = Field(ge=0)
    set: StrictInt = Field(ge=1)
    turn: StrictInt = Field(ge=0)
    poses: dict[str, Pose7]
    sides: dict[str, Literal["A", "B"]] = {}

    @field_validator("poses")
    @classmethod
    def _poses(cls, v: dict[str, list[float]]) -> dict[str, list[float]]:
        return _poses_ok(v) or {}


class AfterRecord(BaseModel):
    """Where the pieces are once an action is over (see :func:`kubb3d.match.poses_after`)."""

    model_config = ConfigDict(extra="forbid")

    poses: dict[str, Pose7] = {}
    gone: list[str] = []

    @field_validator("poses")
    @classmethod
    def _poses(cls, v: dict[str, list[float]]) -> dict[str, list[float]]:
        return _poses_ok(v) or {}


class ActionRecord(BaseModel):
    model_config = ConfigDict(extra="allow")

    type: Literal["action"]
    i: StrictInt = Field(ge=0)
    action: dict[str, Any]
    outcome: dict[str, Any] | None = None
    before: dict[str, Pose7] | None = None
    after: AfterRecord | None = None

    @field_validator("before")
    @classmethod
    def _before(cls, v: dict[str, list[float]] | None) -> dict[str, list[float]] | None:
        return _poses_ok(v)


class OutcomeRecord(BaseModel):
    model_config = ConfigDict(extra="allow")

    type: Literal["outcome"]


Record = Union[WorldRecord, ActionRecord, OutcomeRecord]
_BY_TYPE = {"world": WorldRecord, "action": ActionRecord, "outcome": OutcomeRecord}


@dataclass
class Replay:
    """A validated replay: header, the later records with their line numbers, and the raw
    lines (for a resume that keeps a prefix of the file byte for byte)."""

    path: Path
    header: HeaderRecord
    header_dict: dict
    records: list[tuple[int, Record, dict]]
    lines: list[str]


def _field_error(path: Path, n: int, exc: ValidationError) -> ReplayError:
    err = exc.errors()[0]
    loc = ".".join(str(x) for x in err["loc"] if x not in ("function-after[_pose_ok(), list[float]]",)) or "record"
    loc = loc.replace("schema_", "schema")
    from kubb3d.judge.messages import concat
    from kubb3d.ranges import pydantic_message

    return ReplayError(concat(f"{path}:{n}: {loc}: ", pydantic_message(err)))


def read_replay(path: str | Path, warn: bool = True) -> Replay:
    """Read and validate a replay file. A truncated file is read as far as it goes, with one
    :class:`~kubb3d.files.InputWarning` (``warn``; off for a resume, which expects one) for
    every command that reads replays alike: a cut last line (dropped), or a match replay
    without its result line.

    Raises:
        ReplayError: unreadable or special file, not JSON lines, a record that fails the
            schema (file, line, field and allowed range named).
    """
    from kubb3d.files import FileSafetyError, read_input

    path = Path(path)
    try:
        text = read_input(path, "replay file", torn_tail=True)
    except FileSafetyError as exc:
        from kubb3d.errors import message

        raise ReplayError(message(exc)) from None
    from kubb3d.files import REPLAY_KIND, wrong_kind

    from kubb3d.judge.messages import msg

    other = wrong_kind(path, text, REPLAY_KIND, msg("expected a replay written by kubb3d match --replay"))
    if other is not None:
        raise ReplayError(other)
    lines = text.splitlines()
    docs: list[tuple[int, Any]] = []
    cut = _torn(path, text)  # read_input dropped the bytes of a cut last character
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            docs.append((n, json.loads(line)))
        except (ValueError, RecursionError) as exc:  # ValueError: also an integer of > 4300 digits
            if n == len(lines):
                cut = True
                break  # a line cut off by the interruption
            from kubb3d.judge.messages import concat, msg

            why = msg(" (a number with too many digits)") if "digits" in str(exc) else ""
            if not docs:  # its first line: no replay at all; say which file is read here
                why = concat(why, "; ", msg("expected a replay written by kubb3d match --replay"))
            raise ReplayError(concat(f"{path}:{n}: ", msg("not a JSON line"), why)) from None
    if not docs or not isinstance(docs[0][1], dict) or docs[0][1].get("type") != "header":
        from kubb3d.judge.messages import concat, msg

        raise ReplayError(concat(f"{path}:1: ", msg("not a kubb3d match replay (no header line)")))
    n0, head = docs[0]
    if head.get("schema") != SCHEMA:
        s = head.get("schema")
        why = OLD_SCHEMAS.get(s) if isinstance(s, int) else None
        from kubb3d.judge.messages import concat, msg

        raise ReplayError(concat(
            f"{path}:{n0}: ",
            msg("schema: missing in the header line, expected {schema}", schema=SCHEMA)
            if s is None
            else msg("replay schema {found}, expected {schema}", found=s, schema=SCHEMA)
            if _number(s)
            else msg("schema: not a number, expected {schema}", schema=SCHEMA),
            msg(" ({why}; play the match again with kubb3d match --replay)", why=msg(why)) if why else "",
        ))
    try:
        header = HeaderRecord.model_validate(head)
    except ValidationError as exc:
        raise _field_error(path, n0, exc) from None
    records = []
    for n, d in docs[1:]:
        if not isinstance(d, dict):
            from kubb3d.judge.messages import concat, msg

            raise ReplayError(concat(f"{path}:{n}: ", msg("a replay record must be a JSON object, got {kind}",
                                                          kind=type(d).__name__)))
        model = _BY_TYPE.get(d.get("type"))  # type: ignore[arg-type]
        if model is None:
            from kubb3d.judge.messages import concat, msg

            raise ReplayError(concat(f"{path}:{n}: type: ", msg("expected one of {names}",
                                                                names=listed(sorted(_BY_TYPE)))))
        try:
            records.append((n, model.model_validate(d), d))
        except ValidationError as exc:
            raise _field_error(path, n, exc) from None
    _check_overlaps(path, header, records)
    if warn:
        _warn_truncated(path, header, records, cut)
    return Replay(path, header, head, records, lines)


def _number(s: Any) -> bool:
    return isinstance(s, (int, float)) and not isinstance(s, bool)


def _torn(path: Path, text: str) -> bool:
    """True if the file has more bytes than ``text`` (a cut last line dropped on reading)."""
    try:
        return path.stat().st_size > len(text.encode("utf-8"))
    except OSError:
        return False


def _warn_truncated(path: Path, header: HeaderRecord, records: list, cut: bool) -> None:
    """One line on stderr (through the CLI's warnings) for a replay cut off: its last line
    incomplete, or a match replay whose result line is missing."""
    import warnings

    from kubb3d.files import InputWarning
    from kubb3d.judge.messages import msg, nmsg

    actions = sum(1 for _, r, _ in records if r.type == "action")
    result = any(r.type == "outcome" for _, r, _ in records)
    if cut:
        warnings.warn(InputWarning(nmsg(
            "{path}: last line incomplete (cut off?); {n} action read, {result}",
            "{path}: last line incomplete (cut off?); {n} actions read, {result}",
            actions, path=str(path), n=actions, result=msg("the result read") if result else msg("no result"),
        )), stacklevel=3)
    elif not result and header.config is not None:
        warnings.warn(InputWarning(nmsg(
            "{path}: no result line (cut off, or the match was not finished); {n} action read",
            "{path}: no result line (cut off, or the match was not finished); {n} actions read",
            actions, path=str(path), n=actions,
        )), stacklevel=3)


def _check_overlaps(path: Path, header: HeaderRecord, records: list) -> None:
    """ReplayError for a world record with two pieces (kubbs, king; boxes of the match's
    equipment) cutting into each other by more than :data:`OVERLAP_TOL_M`."""
    from kubb3d.equipment import EQUIPMENT_SETS
    from kubb3d.judge.geometry import box_overlap_depth
    from kubb3d.rules import get_ruleset

    if header.config is not None:
        name = get_ruleset(header.config.ruleset).equipment
    else:  # a file for viewing only: its header's equipment, if it names one
        name = getattr(header, "equipment", None)
        name = name if isinstance(name, str) and name in EQUIPMENT_SETS else "standard"
    eq = EQUIPMENT_SETS[name]
    for n, r, _ in records:
        if r.type != "world":
            continue
        items = sorted(r.poses.items())
        for i, (a, pa) in enumerate(items):
            ha = (eq.king if a == "king" else eq.kubb).half_extents
            for b, pb in items[i + 1 :]:
                hb = (eq.king if b == "king" else eq.kubb).half_extents
                depth = box_overlap_depth(pa[:3], pa[3:], ha, pb[:3], pb[3:], hb)
                if depth > OVERLAP_TOL_M:
                    from kubb3d.judge.messages import concat, msg

                    raise ReplayError(concat(f"{path}:{n}: poses: ", msg(
                        "{a} and {b} overlap by {mm:.0f} mm (pieces cannot pass through each other)",
                        a=a, b=b, mm=depth * 1000)))

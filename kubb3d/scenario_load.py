"""Reading scenario files: :func:`load` reads and validates one (every error one line naming the
file, the field and what was expected; every place on or near its pitch), :func:`check_all`
validates many before any is run, :func:`collect` finds them in files, directories and the
shipped library (:mod:`kubb3d.library`). The model: :mod:`kubb3d.scenario_spec`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from pydantic import ValidationError

from kubb3d.errors import ScenarioError, message as error_message
from kubb3d.judge.messages import concat, msg
from kubb3d.ranges import shown
from kubb3d.scenario_spec import SCHEMA_VERSION, ScenarioSpec


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

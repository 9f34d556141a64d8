"""The scenario file reference: every field of the pydantic models in :mod:`kubb3d.scenario_spec`
with its unit and meaning, every placement with an example from the shipped library.

:func:`reference_markdown` writes ``docs/scenarios.md`` (``kubb3d scenario reference``);
:func:`kubb3d.cli.scenario.scenario_schema` puts the same descriptions into the JSON Schema.
The tests check that every model field is described here and that ``docs/scenarios.md`` is
the generated text, so neither can drift from the models.
"""

from __future__ import annotations

import enum
import json
import tomllib
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from kubb3d.pitch import AROUND_PITCH_M
from kubb3d import scenario_spec as sc

# (model, field) → (unit, meaning); unit "" when the field has none
FIELDS: dict[tuple[str, str], tuple[str, str]] = {
    ("ScenarioSpec", "schema"): ("", "file format version; must be 1"),
    ("ScenarioSpec", "title"): (
        "",
        "one line naming the situation, not its ruling (shown by judge, quiz and view; the quiz before its questions)",
    ),
    ("ScenarioSpec", "description"): (
        "",
        "what happened, in a sentence or two, without the ruling (shown by the quiz before its questions)",
    ),
    ("ScenarioSpec", "explanation"): (
        "",
        "why the rulings are what they are (shown by the quiz after its answers and by view once revealed)",
    ),
    ("ScenarioSpec", "ruleset"): ("", "whose rules the judge applies: dm, wikinger or kubbuteo (table scale)"),
    ("ScenarioSpec", "equipment"): (
        "",
        "equipment set (standard, dm-small, kubbuteo); default dm-small for dm, kubbuteo for kubbuteo, standard "
        "otherwise",
    ),
    ("ScenarioSpec", "pitch"): (
        "m",
        "dm, wikinger or kubbuteo for that ruleset's pitch, or a table {length, width}; default the ruleset's",
    ),
    ("ScenarioSpec", "ground"): ("", "playing surface (grass, wet-grass, turf, plane); kubbuteo plays on its board"),
    ("ScenarioSpec", "stakes"): ("", "place the corner and centre-line stakes"),
    ("ScenarioSpec", "setup"): ("", "standard: the ten baseline kubbs and the king first; empty: only the [[pieces]]"),
    ("ScenarioSpec", "event"): ("", "what is judged: a baton throw or an inkast"),
    ("ScenarioSpec", "quiz"): ("", "piece ids the quiz asks about (default: the first expected piece)"),
    ("ScenarioSpec", "throw"): ("", "the throw being judged (event = throw; defaults apply when left out)"),
    ("ScenarioSpec", "inkast"): ("", "the inkast being judged (event = inkast; required then)"),
    ("ScenarioSpec", "pieces"): ("", "pieces added to the set-up, or replacing set-up pieces of the same id"),
    ("ScenarioSpec", "expect"): (
        "", "the rulings a referee should give; without any, judge only rules (--check and the quiz need them)"
    ),
    ("ScenarioSpec", "outcome"): ("", "the expected game outcome or penalty, if any"),
    ("ScenarioSpec", "options"): (
        "",
        "referee options for judging this situation, NAME = VALUE (kubb3d rules show; those of a single throw or "
        "inkast only: own_half_knock, standing_outside, raise_order, first_foul_warning, baseline_after_field, "
        "field_kubb_inside)",
    ),
    ("ThrowSpec", "thrower"): ("", "side that threw: A or B (the target half is the other side's)"),
    ("ThrowSpec", "legal"): ("", "false if the throw broke a throwing rule"),
    ("ThrowSpec", "violations"): ("", "the broken rules, each {rule, reason}"),
    ("ThrowSpec", "king_throw"): (
        "",
        "the throw was a king throw from the baseline after every kubb of the target half fell",
    ),
    ("ThrowSpec", "field_kubbs"): (
        "",
        "field kubbs standing in the target half when the throw began (default: its kubbs that are not baseline kubbs "
        "and not felled earlier)",
    ),
    ("ThrowSpec", "hand_check"): ("", "let the judge use the DM §5 physics hand check on doubtful pieces"),
    ("InkastSpec", "inkasting_side"): ("", "side that throws the kubbs in: A or B"),
    ("InkastSpec", "inkasted"): ("", "ids of the kubbs thrown in, at least one"),
    ("InkastSpec", "attempt"): ("", "1 for the first attempt, 2 for the rethrow"),
    ("InkastSpec", "prefer"): ("", "which way a kubb is raised when the rules leave the choice: back or front"),
    ("PieceSpec", "id"): ("", "piece id: A1…B5 for baseline kubbs, king, baton1…, or any name for a field kubb"),
    ("PieceSpec", "kind"): ("", "kubb, king or baton (default from the id: king, baton…, else kubb)"),
    ("PieceSpec", "side"): (
        "",
        "owner side of a kubb (default: its baseline side for place = baseline, else the half it lies in)",
    ),
    ("PieceSpec", "place"): ("", "how the piece is placed: see Placements"),
    ("PieceSpec", "at"): (
        "m",
        "[x, y] on the pitch (origin at its centre, x from side A to side B), at most "
        f"{AROUND_PITCH_M:g} m beyond its lines",
    ),
    ("PieceSpec", "yaw_deg"): ("deg", "turn about the vertical axis (the long axis of a lying piece)"),
    ("PieceSpec", "upside_down"): ("", "a standing piece stands on its top end"),
    ("PieceSpec", "tilt_deg"): ("deg", "tilt from the vertical, 0 to 90 (tilted and leaning pieces)"),
    ("PieceSpec", "toward_deg"): ("deg", "direction a tilted piece leans towards, counter-clockwise from +x"),
    ("PieceSpec", "on"): ("", "the supporting piece id (leaning), or the ids it lies on (stacked)"),
    ("PieceSpec", "from_deg"): (
        "deg",
        "side of the supporter the leaning piece's foot is on, counter-clockwise from +x",
    ),
    ("PieceSpec", "line"): (
        "",
        "line a piece lies across: sideline-left (y = +half width), sideline-right (y = −half width), centre, "
        "baseline-A, baseline-B; left and right as seen from side A's baseline",
    ),
    ("PieceSpec", "along"): ("m", "position along that line (y for centre and baselines, x for sidelines)"),
    ("PieceSpec", "inside"): ("", "fraction of the piece's length inside the pitch or in the given half, 0 to 1"),
    ("PieceSpec", "half"): ("", "half (A or B) that inside counts for, across the centre line (default A)"),
    ("PieceSpec", "position"): ("m", "[x, y, z] of the bounding-box centre (place = pose)"),
    ("PieceSpec", "quat_xyzw"): ("", "orientation quaternion [x, y, z, w] (place = pose)"),
    ("PieceSpec", "max_tilt_deg"): (
        "deg",
        "largest angle of the long axis from the upright direction of its last set-up, this round (DM §5 "
        "history; a kubb set up upright on either end starts at 0), 0 to 180",
    ),
    ("PieceSpec", "max_lean_deg"): (
        "deg",
        "[sideways, in plane]: the largest lean of the long axis towards the piece's own ±x sides and towards its ±y "
        "sides this round (a Kubbuteo kubb: towards a face, along its rim), each 0 to 180",
    ),
    ("PieceSpec", "felled_earlier"): ("", "already ruled felled earlier this round"),
    ("PieceSpec", "accident"): ("", "moved by wind, ground or accident (DM §5): stood up again"),
    ("PieceSpec", "origin"): ("m", "[x, y] of the piece at the start of the round (where it is raised again)"),
    ("ExpectSpec", "piece"): ("", "piece id the ruling is about"),
    ("ExpectSpec", "status"): ("", "expected status: standing, fallen, leaning, stößel …"),
    ("ExpectSpec", "consequence"): ("", "expected consequence: counts as felled, raise here, rethrow …"),
    ("ExpectSpec", "rules"): ("", "citations the ruling must give (each one, others allowed)"),
    ("ExpectSpec", "hand_check"): ("", "whether the ruling must (true) or must not (false) come from the hand check"),
    ("ExpectSpec", "valid"): ("", "expected validity of an inkasted kubb"),
    ("ExpectSpec", "raised_at"): ("m", "expected [x, y] where the kubb is raised"),
    ("ExpectSpec", "tol_m"): ("m", "tolerance of raised_at"),
    ("OutcomeSpec", "winner"): ("", "side expected to win the game on this event"),
    ("OutcomeSpec", "loser"): ("", "side expected to lose the game on this event"),
    ("OutcomeSpec", "penalty"): ("", "expected penalty: throw (a penalty throw) or place (a penalty kubb placed)"),
    ("PitchSpec", "length"): ("m", "baseline to baseline, > 0"),
    ("PitchSpec", "width"): ("m", "sideline to sideline, > 0"),
}

PLACEMENTS: dict[str, str] = {
    "standing": "upright with its base centre at `at`, turned by `yaw_deg`; `upside_down` stands it on its top end",
    "baseline": "upright at its baseline spot (ids A1…B5) or, for the king, on the centre point",
    "lying": "flat on the ground at `at`, its long axis along `yaw_deg` (a Kubbuteo disk on a face)",
    "tilted": "pivoting on an edge of its base: base centre `at`, tilted by `tilt_deg` towards `toward_deg`",
    "leaning": "leaning at `tilt_deg` on the piece `on` (placed before it), its foot on the side `from_deg` of it",
    "stacked": "lying on the pieces `on`, above their centre or `at`, long axis along `yaw_deg` (a stößel)",
    "across_line": "lying across `line` at `along`, with the fraction `inside` of its length inside (or in `half`)",
    "pose": "explicit `position` (bounding-box centre) and `quat_xyzw`",
}

TABLES = (
    ("Top level", "ScenarioSpec", ""),
    ("[throw]", "ThrowSpec", 'event = "throw"'),
    ("[inkast]", "InkastSpec", 'event = "inkast"'),
    ("[[pieces]]", "PieceSpec", "one table per piece"),
    ("[[expect]]", "ExpectSpec", "one table per expected ruling"),
    ("[outcome]", "OutcomeSpec", "optional"),
    ("pitch = {…}", "PitchSpec", "a custom pitch"),
)


def models() -> dict[str, type[BaseModel]]:
    """The scenario models by class name."""
    return {name: getattr(sc, name) for _, name, _ in TABLES}


def field_name(model: type[BaseModel], name: str) -> str:
    """The name a field has in the file (its alias, e.g. ``schema``)."""
    info = model.model_fields[name]
    return info.alias or name


def missing_descriptions() -> list[str]:
    """``Model.field`` of every model field without an entry in :data:`FIELDS`, and entries
    of :data:`FIELDS` that name no field (empty: the reference is complete)."""
    have = {(m, field_name(cls, f)) for m, cls in models().items() for f in cls.model_fields}
    return sorted(f"{m}.{f} (undocumented)" for m, f in have - set(FIELDS)) + sorted(
        f"{m}.{f} (no such field)" for m, f in set(FIELDS) - have
    )


def _type(annotation: Any) -> str:
    """A type as the file writes it: ``string``, ``"A" / "B"``, ``[number, number]`` …"""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:  # StrictFloat and constrained types: the type underneath
        return _type(args[0])
    if origin in (Union, types.UnionType):
        return " or ".join(_type(a) for a in args if a is not type(None))
    if origin is Literal:
        return " / ".join(f"`{json.dumps(a, ensure_ascii=False)}`" for a in args)
    if origin is list:
        return f"list of {_type(args[0])}"
    if origin is tuple:
        return "[" + ", ".join(_type(a) for a in args) + "]"
    if origin is dict:
        return "table"
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return " / ".join(f"`{json.dumps(e.value, ensure_ascii=False)}`" for e in annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "table"
    return {str: "string", float: "number", int: "integer", bool: "boolean"}.get(annotation, str(annotation))


def _default(info) -> str:
    if info.default is PydanticUndefined and info.default_factory is None:
        return "required"
    value = info.default_factory() if info.default_factory is not None else info.default
    if value is None:
        return "—"
    if isinstance(value, BaseModel):
        return "its defaults"
    if hasattr(value, "value"):
        value = value.value
    return f"`{json.dumps(value, ensure_ascii=False)}`"


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"no TOML for {v!r}")


EXAMPLE_FILES: dict[str, str] = {
    "standing": "dm_baseline_kubb_felled_early",
    "lying": "dm_accident_wind",
    "leaning": "dm_inkast_leaning_supporter_first",
    "stacked": "dm_inkast_stossel_invalid",
    "across_line": "dm_inkast_across_centre_line",
    "pose": "kt_king_flick_wins",
}
"""The shipped scenario whose first piece of each placement is shown as its example."""
OWN_EXAMPLES: dict[str, dict] = {
    "baseline": {"id": "B2", "place": "baseline"},
    "tilted": {"id": "F1", "place": "tilted", "at": [2.0, 0.5], "tilt_deg": 20, "toward_deg": 90},
}
"""Examples of the placements no shipped scenario uses."""


def placement_examples() -> dict[str, tuple[str | None, dict]]:
    """placement → (shipped scenario name or None, a ``[[pieces]]`` table placing a piece that way).

    Raises:
        ValueError: a file of :data:`EXAMPLE_FILES` no longer places a piece that way.
    """
    from kubb3d.library import scenarios_dir

    out: dict[str, tuple[str | None, dict]] = {k: (None, v) for k, v in OWN_EXAMPLES.items()}
    for place, stem in EXAMPLE_FILES.items():
        data = tomllib.loads((scenarios_dir() / f"{stem}.toml").read_text(encoding="utf-8"))
        piece = next((p for p in data.get("pieces", []) if p.get("place", "standing") == place), None)
        if piece is None:
            raise ValueError(f"{stem}.toml places no piece {place!r}: choose another example in kubb3d/scenario_doc.py")
        out[place] = (stem, piece)
    return out


def reference_markdown() -> str:
    """The text of ``docs/scenarios.md``."""
    lines = [
        "# Scenario files",
        "",
        "<!-- Generated by `kubb3d scenario reference > docs/scenarios.md` from the models in",
        "kubb3d/scenario_spec.py and the descriptions in kubb3d/scenario_doc.py; a test keeps it current. -->",
        "",
        "A scenario is a TOML file holding one rule situation and the rulings a referee should give.",
        "`kubb3d judge FILE` builds it in physics, lets it settle and judges it; `kubb3d judge --check`",
        "checks the shipped library (`kubb3d scenario list`); `kubb3d quiz` asks about it.",
        "`kubb3d scenario schema` prints the JSON Schema of the format for editors.",
        "",
        "With them, `kubb3d judge FILE` ends with each difference (`differs from expected: …`) or one line",
        "saying the rulings match (`matches the expected rulings (2 expectations compared)`).",
        "",
        "`[[expect]]` is optional: a file without it (and without `[outcome]`) asks \"what is the ruling",
        "here?\"; `kubb3d judge FILE` prints the rulings and compares nothing. `kubb3d judge --check` and",
        "`kubb3d quiz` refuse such a file in one line before anything runs: there is nothing to check, and",
        "the quiz asks only rulings that are checked against what the file expects.",
        "",
        "Expectations are for the file's own options (its `[options]`, else the rule book's defaults).",
        "`kubb3d judge FILE --option NAME=VALUE` with another value judges the file a second time under its",
        "own options and compares only the expectations of pieces whose ruling the option leaves as it was;",
        "the others are named on one line, `not compared: B1 (…)`, and are no failure of `--check`. A ruling",
        "the option changed cites it (`option standing_outside=stays`) and its reason says so.",
        "",
        "Units: lengths in m, angles in degrees (field names end in `_deg`). The pitch origin is its",
        "centre, x runs from side A's baseline to side B's, y to the left of side A, z up. Left and right in",
        "every name (`sideline-left`, `stake-A-right`, …) are side A's, seen from its baseline: left is +y.",
        "Piece ids: `A1`…`A5` and `B1`…`B5` (baseline kubbs, numbered in +y), `king`,",
        "`baton1`…, any other name for a field kubb.",
        "",
    ]
    for title, name, note in TABLES:
        cls = models()[name]
        lines += [f"## {title}", ""]
        if note:
            lines += [f"({note})", ""]
        lines += ["| field | type | default | unit | meaning |", "| --- | --- | --- | --- | --- |"]
        for fname, info in cls.model_fields.items():
            key = field_name(cls, fname)
            unit, meaning = FIELDS.get((name, key), ("", "(undocumented)"))
            lines.append(f"| `{key}` | {_type(info.annotation)} | {_default(info)} | {unit or '—'} | {meaning} |")
        lines.append("")
    lines += [
        "## Placements",
        "",
        "`place` in a `[[pieces]]` table, each with an example (most from a shipped scenario).",
        "",
    ]
    examples = placement_examples()
    for place, text in PLACEMENTS.items():
        lines += [f"### `{place}`", "", text + ".", ""]
        if place in examples:
            stem, piece = examples[place]
            lines += [f"From `{stem}`:" if stem else "For example:", "", "```toml", "[[pieces]]"]
            lines += [f"{k} = {_toml_value(v)}" for k, v in piece.items()]
            lines += ["```", ""]
    lines += ["## A whole file", "", "From `dm_leaning_on_field_kubb`:", "", "```toml"]
    from kubb3d.library import scenarios_dir

    lines += (scenarios_dir() / "dm_leaning_on_field_kubb.toml").read_text(encoding="utf-8").rstrip("\n").splitlines()
    lines += ["```", ""]
    return "\n".join(lines)


def described_schema(schema: dict) -> dict:
    """``schema`` (from :meth:`ScenarioSpec.model_json_schema`) with the descriptions and units
    of :data:`FIELDS` on every property."""
    defs = schema.get("$defs", {})
    for name in models():
        node = schema if name == "ScenarioSpec" else defs.get(name)
        if node is None:
            continue
        for key, prop in node.get("properties", {}).items():
            unit, meaning = FIELDS.get((name, key), ("", ""))
            if meaning:
                prop["description"] = meaning + (f" ({unit})" if unit else "")
    return schema

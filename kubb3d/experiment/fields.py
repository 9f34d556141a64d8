"""The experiment spec reference: every field of every table of a spec with its type, default,
unit and meaning, the value forms (factors and draws) and the results columns of each measure.

``kubb3d experiment fields`` prints :func:`reference_markdown`; ``docs/experiments.md`` is the
same text. The tests check that every model field of :mod:`kubb3d.experiment.spec` is described
here and that the document is current, so the reference cannot drift from the models.
:func:`suggest` gives the "did you mean" of an unknown field.
"""

from __future__ import annotations

import difflib
from typing import get_args

from pydantic import BaseModel

from kubb3d.experiment import spec as S
from kubb3d.scenario_doc import _default, _type

# (table, field) → (unit, meaning)
FIELDS: dict[tuple[str, str], tuple[str, str]] = {
    ("top level", "schema"): ("", "spec format version; must be 1"),
    ("top level", "title"): ("", "one line naming the experiment (shown by run, summary and plot)"),
    ("top level", "description"): ("", "what the experiment asks and how"),
    ("top level", "seed"): ("", "root seed: trial i draws from child i of SeedSequence(seed)"),
    ("top level", "trials_per_point"): ("", "trials at every grid point (raising it extends a finished run)"),
    ("top level", "measures"): ("", "what each trial records: see Measures"),
    ("top level", "watch"): ("", "piece ids whose judge status the status measure records (not with [match])"),
    ("top level", "setup"): ("", "the [setup] table (not with [match], which sets up its own pitch)"),
    ("top level", "throw"): ("", "the [throw] table: one baton per trial"),
    ("top level", "disturb"): ("", "the [disturb] table: a kick to one piece after settling"),
    ("top level", "match"): ("", "the [match] table: a whole match per trial (the match measure)"),
    ("top level", "options"): (
        "",
        "the [options] table: referee options NAME = VALUE for every trial (kubb3d rules show; the match's, or the "
        "throw's and the judge's for a throw), or NAME = { grid = [...] } for a factor (column option_NAME)",
    ),
    ("[setup]", "ruleset"): ("", "whose rules judge the throw: dm or wikinger"),
    ("[setup]", "equipment"): ("", "equipment set: standard, dm-small or kubbuteo"),
    ("[setup]", "pitch"): ("m", "dm or wikinger pitch, or a table {length, width}"),
    ("[setup]", "ground"): (
        "",
        "ground name (grass, wet-grass, turf, plane; a factor or draw allowed), or a [setup.ground] table",
    ),
    ("[setup]", "layout"): (
        "",
        "standard: ten baseline kubbs and the king; empty: only [[setup.pieces]]; scenario: the pieces of a scenario "
        "file",
    ),
    ("[setup]", "scenario"): ("", "scenario file for layout = scenario, relative to the spec's folder"),
    ("[setup]", "stakes"): ("", "place the corner and centre-line stakes"),
    ("[setup]", "terrain_cm"): ("cm", "bump amplitude (standard deviation) of uneven ground; 0 = flat"),
    ("[setup]", "terrain_seed"): ("", "seed of the bumps"),
    ("[setup]", "pieces"): ("", "extra pieces: [[setup.pieces]] tables"),
    ("[setup.ground]", "base"): ("", "the named ground whose coefficients are the defaults"),
    ("[setup.ground]", "friction"): ("", "sliding friction coefficient (results column ground_friction)"),
    ("[setup.ground]", "restitution"): ("", "bounciness, 0 to 1 (column ground_restitution)"),
    ("[setup.ground]", "rolling_resistance"): ("", "rolling friction coefficient (column ground_rolling_resistance)"),
    ("[setup.pitch]", "length"): ("m", "baseline to baseline"),
    ("[setup.pitch]", "width"): ("m", "sideline to sideline"),
    ("[[setup.pieces]]", "id"): ("", "piece id (a factor on it is column <id>_<field>, e.g. L_tilt_deg)"),
    ("[[setup.pieces]]", "kind"): ("", "kubb or king"),
    ("[[setup.pieces]]", "place"): ("", "standing at `at`, or leaning on the piece `on`"),
    ("[[setup.pieces]]", "at"): ("m", "[x, y] of a standing piece"),
    ("[[setup.pieces]]", "yaw_deg"): ("deg", "turn about the vertical axis"),
    ("[[setup.pieces]]", "on"): ("", "the standing piece a leaning kubb rests against (placed before it)"),
    ("[[setup.pieces]]", "tilt_deg"): ("deg", "tilt of a leaning kubb from the vertical"),
    ("[[setup.pieces]]", "from_deg"): (
        "deg",
        "face of the supporter it leans on: 0, 90, 180 or 270 from the supporter's +x face",
    ),
    ("[[setup.pieces]]", "side"): ("", "owner side A or B (default: the half it stands in)"),
    ("[throw]", "side"): ("", "thrower's side: A throws towards +x, B towards −x"),
    ("[throw]", "baton"): ("", "id of the thrown baton"),
    ("[throw]", "line_x"): ("m", "x of the throwing line, on the pitch (default the side's baseline); a factor or "
                               "draw varies the throwing distance, every value held to the pitch"),
    ("[throw]", "target"): ("", "piece thrown at (the hit measure asks whether it fell); a factor or draw allowed"),
    ("[throw]", "aim"): ("", "let the aim solver pick speed and azimuth through the target"),
    ("[throw]", "skill"): ("", "player preset (novice, club, elite) whose release noise is added"),
    ("[throw]", "speed"): ("m/s", "release speed of the centre of mass"),
    ("[throw]", "elevation_deg"): ("deg", "release angle above the horizontal"),
    ("[throw]", "azimuth_deg"): ("deg", "horizontal angle from straight ahead, positive to the left"),
    ("[throw]", "spin_rps"): ("rev/s", "end-over-end spin, positive turns the top forward"),
    ("[throw]", "tilt_deg"): ("deg", "tilt out of the flight plane (DM §5 allows 30)"),
    ("[throw]", "helicopter_rps"): ("rev/s", "horizontal spin (WS basic rule 5 forbids it)"),
    ("[throw]", "release_angle_deg"): ("deg", "angle of the baton above the horizontal at release"),
    ("[throw]", "height"): ("m", "release height"),
    ("[throw]", "lateral"): ("m", "sideways release position (default: in line with the target)"),
    ("[throw]", "behind_line"): (
        "m",
        "release distance behind the throwing line (negative: the hand is past the line, allowed: the foot is judged)",
    ),
    ("[throw]", "max_time_s"): ("s", "longest simulated time until rest"),
    ("[throw]", "speed_offset"): (
        "m/s",
        "added to the aim solution's speed (aim = true): a factor around the aimed throw",
    ),
    ("[throw]", "elevation_offset_deg"): ("deg", "added to the elevation after aiming (aim = true)"),
    ("[throw]", "azimuth_offset_deg"): ("deg", "added to the aim solution's azimuth (aim = true)"),
    ("[disturb]", "piece"): ("", "the piece kicked"),
    ("[disturb]", "speed_mps"): ("m/s", "horizontal speed given to it (column disturb_speed_mps)"),
    ("[disturb]", "direction_deg"): (
        "deg",
        "direction of the kick, counter-clockwise from +x (column disturb_direction_deg)",
    ),
    ("[match]", "ruleset"): ("", "dm or wikinger"),
    ("[match]", "skill_a"): ("", "side A's player preset (column match_skill_a when a factor)"),
    ("[match]", "skill_b"): ("", "side B's player preset (column match_skill_b when a factor)"),
    ("[match]", "strategy_a"): (
        "",
        "side A's strategy, kubb3d.players.STRATEGIES; unset: default (column match_strategy_a)",
    ),
    ("[match]", "strategy_b"): ("", "side B's strategy (column match_strategy_b)"),
    ("[match]", "sets"): (
        "",
        "best of this many sets, an odd number from 1 to 9, as `kubb3d match --sets` (DM §3); a factor or choice "
        "allowed (column match_sets); unset: one set; not with ruleset wikinger (one game against the clock)",
    ),
    ("[match]", "round_cap"): ("", "turns per set before the match is cut off"),
    ("[match]", "time_limit_min"): ("min", "organiser's time limit of simulated time (none by default)"),
    ("[match]", "ground"): (
        "",
        "playing surface: grass (default), wet-grass, turf or plane; a factor or draw allowed (column match_ground)",
    ),
}

TABLES: tuple[tuple[str, type[BaseModel]], ...] = (
    ("top level", S.ExperimentSpec),
    ("[setup]", S.SetupSpec),
    ("[setup.ground]", S.GroundSpec),
    ("[setup.pitch]", S.PitchSpec),
    ("[[setup.pieces]]", S.PieceSpec),
    ("[throw]", S.ThrowSpec),
    ("[disturb]", S.DisturbSpec),
    ("[match]", S.MatchSpec),
)

MEASURE_COLUMNS: dict[str, str] = {
    "hit": "`hit` (the target, or any kubb of the target half, not upright at rest; true/false), `kubbs_felled` "
           "(kubbs of the target half not upright)",
    "felled": "`felled` (ids not upright at rest, JSON list), `n_felled`",
    "first_contact": "`first_contact` (piece id or ground), `first_contact_time_s` (s), `first_contact_x_m`, "
                     "`first_contact_y_m` (where, m)",
    "landing": "`baton_rest_x_m`, `baton_rest_y_m` (where the baton came to rest, m), `slide_m` (horizontal distance "
               "from its first contact to its rest, m)",
    "tilt": "`max_tilt_deg` (largest tilt out of the flight plane, deg), `legal` (true/false), `violations` "
            "(citations, JSON list)",
    "flight_time": "`flight_time_s` (s, release to first contact)",
    "rest": "`rest_time_s` (s), `at_rest` (true/false), `rest_positions` (id → [x, y, z] m, JSON)",
    "rulings": "`judge_felled`, `judge_raise` (JSON lists), `judge_winner`, `judge_status` (id → status, JSON)",
    "status": "`status_<id>` for every id in `watch`: standing, fallen, leaning or stößel",
    "match": "`match_winner` (A, B or null), `match_draw` (true/false), `match_skill_a`, `match_skill_b`, "
    "`match_ground`, `match_strategy_a`, `match_strategy_b`, `match_opener` (A or B: who threw first), "
    "`match_opener_won` (true/false, null for a draw), `match_felled_a`, `match_felled_b` (kubbs felled by each "
    "side's throws), `match_termination`, `match_points_a`, `match_points_b` (DM: sets won; WS: 2/1/0), "
    "`match_turns`, `match_minutes` (simulated), `match_seed`; `match_sets` (best of how many sets) when the spec "
    "sets `sets`",
    "turns": "with `match`: `turns` (one record per throwing turn, JSON list: `set_no`, `turn_no`, `side`, "
    "`advance_line`, `field_standing` and `field_inkasted` at the first baton, `first_baton_field_felled`, `batons`, "
    "`eight_m_throws`, `eight_m_felled`, `field_left`, null when the set ended in the turn); per side A and B: "
    "`turns_field_standing_a`, `turns_field_inkasted_a`, `turns_first_baton_felled_a`, `turns_advantage_lines_a` "
    "(turns that left field kubbs standing), `turns_eight_m_throws_a`, `turns_eight_m_felled_a` (and `_b`); "
    "`turns_first_advantage_line` (A, B or null: who left the match's first advantage line)",
}

FORMS = (
    ("`10.0`", "a fixed value"),
    ("`{grid = [8, 9, 10]}`", "a factor: every value is a grid point (strings too: target, skill, ground)"),
    ("`{linspace = [8, 12, 5]}`", "a factor: n evenly spaced values from start to stop"),
    ("`{uniform = [0, 30]}`", "drawn per trial, uniform in [lo, hi)"),
    ("`{normal = [0, 5]}`", "drawn per trial: mean and standard deviation"),
    ('`{choice = ["B1", "B2"]}`', "drawn per trial, each value equally likely"),
)


def _spec_type(annotation) -> str:
    """As :func:`kubb3d.scenario_doc._type`, with the value forms named."""
    args = set(get_args(annotation)) - {type(None)}
    if args and args == set(get_args(S.Num)):
        return "number or form"
    if args and args == set(get_args(S.Name)):
        return "string or form"
    if args and args == set(get_args(S.Whole)):
        return "integer or form"
    if args and args >= set(get_args(S.Name)):
        return "string or form or table"
    return _type(annotation)


def _key(cls: type[BaseModel], name: str) -> str:
    return cls.model_fields[name].alias or name


def missing_descriptions() -> list[str]:
    """Model fields without a description, and descriptions of no field (empty: complete)."""
    have = {(t, _key(cls, f)) for t, cls in TABLES for f in cls.model_fields}
    return sorted(f"{t} {f} (undocumented)" for t, f in have - set(FIELDS)) + sorted(
        f"{t} {f} (no such field)" for t, f in set(FIELDS) - have
    )


def all_field_names() -> set[str]:
    """Every field name of every spec table."""
    return {_key(cls, f) for _, cls in TABLES for f in cls.model_fields}


def suggest(name: str) -> str | None:
    """The spec field name closest to a misspelt ``name``, or None."""
    close = difflib.get_close_matches(name, sorted(all_field_names()), n=1, cutoff=0.6)
    return close[0] if close else None


def reference_markdown() -> str:
    """The text of ``docs/experiments.md``."""
    lines = [
        "# Experiment specs",
        "",
        "<!-- Generated by `kubb3d experiment fields > docs/experiments.md` from the models in",
        "kubb3d/experiment/spec.py and the descriptions in kubb3d/experiment/fields.py; a test keeps it current. -->",
        "",
        "An experiment spec is a TOML file: what to set up, what to throw (or which match to play), how",
        "often, from which seed, and what to record. `kubb3d experiment run SPEC` runs it (a shipped spec",
        "by its short name, see `kubb3d experiment list`); each trial is one row of the results file,",
        "whose `results` view has one SQL column per factor, draw and measure.",
        "",
        "Units: SI, with degrees and revolutions per second only in fields named `*_deg` / `*_rps`.",
        "Positions are in the pitch frame: origin at the centre, x from side A's baseline to side B's.",
        "",
        "## Values: fixed, factors and draws",
        "",
        "A field typed *number or form* below takes any of these:",
        "",
        "| form | meaning |",
        "| --- | --- |",
    ]
    lines += [f"| {form} | {meaning} |" for form, meaning in FORMS]
    lines += [
        "",
        "A field typed *integer or form* takes a whole number, a `grid` or a `choice` of whole numbers.",
        "",
        "The grid is the Cartesian product of the factors in file order. A factor or draw becomes a",
        "results column: a `[throw]` field by its own name (`speed`), `[setup.ground]` fields as",
        "`ground_<field>`, `[[setup.pieces]]` fields as `<id>_<field>`, `[disturb]` fields as",
        "`disturb_<field>`, `[match]` fields as `match_<field>`.",
        "",
    ]
    for title, cls in TABLES:
        lines += [f"## {title}", "", "| field | type | default | unit | meaning |", "| --- | --- | --- | --- | --- |"]
        for fname, info in cls.model_fields.items():
            key = _key(cls, fname)
            unit, meaning = FIELDS.get((title, key), ("", "(undocumented)"))
            typ = _spec_type(info.annotation)
            meaning += "".join(f"; allowed: {m.text}" for m in info.metadata if isinstance(m, S.Range))
            lines.append(f"| `{key}` | {typ} | {_default(info)} | {unit or '—'} | {meaning} |")
        lines.append("")
    lines += [
        "## Measures",
        "",
        "`measures = [...]`; each adds these results columns:",
        "",
        "| measure | columns |",
        "| --- | --- |",
    ]
    lines += [f"| `{m}` | {MEASURE_COLUMNS[m]} |" for m in S.MEASURES]
    lines += [
        "",
        "Every row also has `trial`, `point`, `rep` (trial = rep · points + point), `seed_entropy`,",
        "`spawn_key`, `ok`, `error`, the `thrown_*` values of the released throw and `wall_s`.",
        "",
        "A true/false column is 1/0 in SQL (the `results` view), `true`/`false` in a CSV export and",
        "a bool column in Parquet; `kubb3d experiment summary` and `plot` give its rate.",
        "An experiment's `hit` asks only whether the piece fell: it ignores legality (a foul's felled",
        "kubbs are raised again by the rules, DM §5), unlike the Gym environment's `hit`; use `legal`",
        "too (`tilt` measure). In a `[match]` spec `A` and `B` in `match_winner`, `match_opener` and",
        "`judge_winner` name the `skill_a` and `skill_b` players (P1 and P2), not end A or B of the",
        "pitch: the players change ends between sets.",
        "",
        "A rate (`experiment summary`, `plot`) counts every finished trial in its denominator: one",
        "without a value (`match_opener_won` of a draw) counts as a no, for a column (`hit`) and",
        "for `column=value` alike; `column=null` gives the rate of having no value, and",
        "`--where match_draw=0` keeps decided matches only. A mean leaves such a trial out. Either",
        "way the summary says how many trials had no value (`no value`; `no_value` in `--json`).",
        "A failed trial (its `error` says why) counts in neither.",
        "",
        "Provenance: the results file's `meta` table holds the spec, its seed and the versions of",
        "kubb3d, PyBullet, numpy and Python (`sqlite3 RESULTS \"SELECT * FROM meta\"`); a Parquet",
        "export carries the same keys in its schema metadata, a CSV export with `--meta` writes them",
        "to `OUT.meta.json` beside it.",
        "",
    ]
    return "\n".join(lines)

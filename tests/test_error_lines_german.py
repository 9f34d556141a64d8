"""Every error line a user can provoke on the command line speaks the command line's language,
the whole line (docs/german.md): with ``--lang de`` or a German environment the line after
``Fehler:`` was English for most refusals (``unknown skill 'pro' in --players``, a scenario's
``Input should be 'standing', …``) and half English for a range (``erwartet more than 0 and at
most 40 m/s``). A relation over a table of bad command lines of many commands, each run in
English and in German (in this process): the German line differs from the English, starts with
``Fehler:`` and holds none of the English marker words; the English line is the one the
commands printed before (byte for byte). Errors carry their message (kubb3d.judge.messages.msg)
to the error line, which translates it (kubb3d/cli/lang.py); pydantic's messages are made
messages by their error type (kubb3d.ranges.pydantic_message).

The same relation runs over every line of the bad-input table (tests/test_bad_inputs.py): the
German run ends as the English one does and quotes what the user typed as the English line does.
Only an unknown ``--lang`` stays English (its own error, docs/german.md)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app

BAD = Path(__file__).resolve().parent / "bad_inputs"

SCENARIO = """schema = 1
title = "bad"
ruleset = "dm"
event = "throw"

[throw]
thrower = "A"

[[pieces]]
id = "A1"
{piece}

[[expect]]
piece = "A1"
status = "fallen"
consequence = "counts as felled"
rules = ["DM §5"]
"""

CASES = [
    # (command line, its English error line as the commands printed it before)
    ('throw --speed 500',
     'error: --speed: expected more than 0 and at most 40 m/s, got 500.0'),
    ('throw --elevation-deg 95',
     'error: --elevation-deg: expected between -90 and 90 degrees, got 95.0'),
    ('view dm_accident_wind --screenshot shot.jpg',
     'error: --screenshot must name a .png file (a PNG picture), got shot.jpg'),
    ('view dm_accident_wind --screenshot start.png',
     'error: --screenshot: start.png already exists; choose another file (or --force to replace it)'),
    ('throw --target B3 --elevation-deg 89',
     'error: target out of reach at elevation 89° (needs more than 40 m/s)'),
    ('throw --target B3 --elevation-deg -30',
     'error: target out of reach at elevation -30° (needs more than 40 m/s)'),
    ('throw --target b3',
     "error: unknown target 'b3' (did you mean B3?); expected one of A1, A2, A3, A4, A5, B1, B2, B3, "
     'B4, B5, king'),
    ('match --players club,pro',
     "error: unknown skill 'pro' in --players; expected one of club, elite, novice"),
    ('match --strategy default,nope',
     "error: unknown strategy 'nope' in --strategy; expected one of cluster-first, deep-inkast, defau"
     'lt'),
    ('match --option nosuch=1',
     "error: --option: unknown referee option 'nosuch'; expected one of own_half_knock, standing_outs"
     'ide, raise_order, advance_line, penalty_distance, first_foul_warning, max_tilt_deg, helicopter_'
     'limit, settle_s, baseline_after_field, opening, field_kubb_inside, time_up'),
    ('match --replay notes.txt',
     'error: --replay must name a .jsonl file (a replay (JSON lines)), got notes.txt'),
    ('match --resume junk.jsonl',
     'error: junk.jsonl:1: not a kubb3d match replay (no header line)'),
    ('match --resume replay_seed_negative.jsonl',
     'error: replay_seed_negative.jsonl:1: config.seed: Input should be greater than or equal to 0'),
    ('match --resume replay_three_skills.jsonl',
     'error: replay_three_skills.jsonl:1: config.skills: Tuple should have at most 2 items after vali'
     'dation, not 3'),
    ('export sideways.toml --html page.txt',
     'error: --html must name a .html or .htm file (an HTML page), got page.txt'),
    ('judge sideways.toml',
     "error: sideways.toml: pieces[0] (id A1).place: Input should be 'standing', 'baseline', 'lying',"
     " 'tilted', 'leaning', 'stacked', 'across_line' or 'pose' (got 'sideways')"),
    ('judge lean_b9.toml',
     "error: lean_b9.toml: pieces (id A1).on: no piece 'B9' placed before it (it must not itself be l"
     'eaning or stacked)'),
    ('judge hits.sqlite',
     'error: hits.sqlite is an experiment results file (SQLite), not a scenario'),
    ('judge scenario_tilt_str.toml',
     'error: scenario_tilt_str.toml: pieces[1] (id A2).tilt_deg: Input should be a valid number (got '
     "'30')"),
    ('quiz --no-images scenario_at_nan.toml',
     'error: scenario_at_nan.toml: pieces[0] (id A1).at[1]: Input should be a finite number (got nan)'),
    ('view junk.jsonl',
     'error: junk.jsonl:1: not a kubb3d match replay (no header line)'),
    ('experiment run spec_elevation_95.toml --out o.sqlite',
     'error: spec_elevation_95.toml: throw.elevation_deg: expected between -90 and 90 degrees, got 95'
     '.0'),
    ('experiment run spec_speed_nan.toml --out o.sqlite',
     'error: spec_speed_nan.toml: throw.speed: Input should be a finite number (got nan)'),
    ('experiment run spec_empty_grid.toml --out o.sqlite',
     'error: spec_empty_grid.toml: throw.speed.grid: List should have at least 1 item after validatio'
     'n, not 0 (got [])'),
    ('tournament --ground mud',
     "error: unknown ground 'mud'; expected one of grass, plane, turf, wet-grass"),
    ('models build --out no-such-folder/models',
     'error: --out: the folder no-such-folder does not exist (it is not created)'),
    ('judge scenario_stacked_on_nothing.toml --option nosuch=stays',
     "error: --option: unknown referee option 'nosuch'; expected one of own_half_knock, standing_outs"
     'ide, raise_order, advance_line, penalty_distance, first_foul_warning, max_tilt_deg, helicopter_'
     'limit, settle_s, baseline_after_field, opening, field_kubb_inside, time_up'),
    # the rarer lines: the command's own checks, file syntax, results files, spec names
    ('throw --line-x 10', 'error: --line-x must lie on the pitch, from -4 to 4 m, got 10.0'),
    ('match --resume replay_sets_100.jsonl --seed 99',
     'error: --resume continues the match recorded in the file; --seed cannot change it (drop it)'),
    ('match --resume replay_world_far_pose.jsonl',
     'error: replay_world_far_pose.jsonl:2: poses: A1: position beyond 100 m of the pitch centre'),
    ('match --option opening=xyz',
     "error: --option opening: expected 1 to 12 whole numbers of batons from 1 to 6 such as 2-4-6, got 'xyz'"),
    ('judge not_a_spec.txt',
     "error: scenario not_a_spec.txt: not valid TOML at line 2, column 4: Expected '=' after a key in a key/value "
     'pair'),
    ('experiment run spec_broken_toml.toml --out o.sqlite',
     'error: experiment spec spec_broken_toml.toml: not valid TOML at line 3, column 3: Invalid initial character for '
     'a key part'),
    ('experiment summary not_a_spec.txt', 'error: not_a_spec.txt: not a kubb3d results file (file is not a database)'),
    ('experiment summary other.sqlite', 'error: other.sqlite: not a kubb3d results file (tables foo)'),
    ('experiment run spec_skill_pro.toml --out o.sqlite',
     "error: spec_skill_pro.toml: throw.skill: unknown skill preset 'pro'; expected one of club, elite, novice"),
    ('experiment run spec_ground_mud.toml --out o.sqlite',
     "error: spec_ground_mud.toml: setup.ground: unknown ground 'mud'; expected one of board, grass, plane, turf, "
     'wet-grass'),
    ('experiment run spec_pieces_overlap.toml --out o.sqlite',
     "error: spec_pieces_overlap.toml: setup: pieces 'P' and 'Q' overlap by 49 mm; move one of them"),
    ('experiment run spec_speed_nan.toml --backend serial --workers 8 --out o.sqlite',
     'error: --workers does not apply to --backend serial (one trial after another in this process)'),
    ("quiz --out '' --no-images", 'error: --out: expected a value, got an empty string'),
    ('notation --json', 'error: kubb3d notation: give either a REPLAY or --read FILE (exactly one)'),
    ('dames play --players random,random --depth 7',
     'error: --depth apply to the search player only; --players has none'),
]

ENGLISH_MARKERS = (
    "expected", "must", "unknown", "already exists", "not a", "Input should", "should have", "got ", "at most",
    "between", "degrees", "does not", "cannot", "needs", "missing", "not valid", "overlap", "beyond", "apply",
    "give ", "no such", " is ", " are ", " of the ", "with ", "the ", "only ",
)
"""Words of the English lines that a German line must not hold (outside what the user typed, :func:`_words`)."""


def _words(line: str) -> str:
    """``line`` without what stays as the user typed it: quoted values, options, paths and file names
    (``spec_pieces_overlap.toml`` holds "overlap")."""
    line = re.sub(r"'[^']*'", "", line)
    line = re.sub(r"--[\w-]+", "", line)
    line = re.sub(r"/\S+", "", line)
    return re.sub(r"[\w.-]+\.(toml|jsonl|sqlite|txt|png|html|htm|json|csv)\b", "", line)


def _english_words(german: str) -> list[str]:
    return [word for word in ENGLISH_MARKERS if word in _words(german)]


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """The files the command lines name: bad inputs, a results file, a replay that is none."""
    d = tmp_path_factory.mktemp("errors")
    for name in ("replay_seed_negative.jsonl", "replay_three_skills.jsonl", "scenario_tilt_str.toml",
                 "scenario_at_nan.toml", "spec_elevation_95.toml", "spec_speed_nan.toml", "spec_empty_grid.toml",
                 "scenario_stacked_on_nothing.toml", "replay_sets_100.jsonl", "replay_world_far_pose.jsonl",
                 "not_a_spec.txt", "spec_broken_toml.toml", "spec_pieces_overlap.toml"):
        shutil.copy(BAD / name, d / name)
    spec = (BAD / "spec_speed_nan.toml").read_text()
    (d / "spec_skill_pro.toml").write_text(spec.replace("speed = nan", 'speed = 8.0\nskill = "pro"'))
    (d / "spec_ground_mud.toml").write_text(spec.replace('"grass"', '"mud"').replace("nan", "8.0"))
    (d / "sideways.toml").write_text(SCENARIO.replace("{piece}", 'place = "sideways"'))
    (d / "lean_b9.toml").write_text(SCENARIO.replace("{piece}", 'place = "leaning"\non = "B9"\ntilt_deg = 30'))
    (d / "junk.jsonl").write_text('{"hello": 1}\n')
    (d / "notes.txt").write_text("notes\n")
    (d / "start.png").write_text("png\n")
    with sqlite3.connect(d / "hits.sqlite") as db:
        db.execute("CREATE TABLE trials (trial INTEGER, row TEXT)")
    db.close()
    with sqlite3.connect(d / "other.sqlite") as db:  # another program's database
        db.execute("CREATE TABLE foo (x INTEGER)")
    db.close()
    return d


def _line(args: list[str], language: str) -> str:
    res = CliRunner().invoke(app, args, env={"LANGUAGE": language})
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert res.exit_code == 2 and len(lines) == 1, (args, language, res.stderr)
    return lines[0]


def test_the_table_covers_many_commands():
    assert len(CASES) >= 20
    assert len({line.split()[0] for line, _ in CASES}) >= 8


def test_docs_german_counts_the_table_as_it_is():
    """docs/german.md says how many bad command lines of how many commands this file runs."""
    doc = " ".join((Path(__file__).resolve().parents[1] / "docs" / "german.md").read_text(encoding="utf-8").split())
    commands = len({line.split()[0] for line, _ in CASES})
    assert f"runs {len(CASES)} bad command lines of {commands} commands" in doc


@pytest.mark.parametrize("line, english", CASES, ids=[c[0] for c in CASES])
def test_an_error_line_is_german_under_a_german_language(line, english, folder, monkeypatch):
    _register_subapps()
    monkeypatch.chdir(folder)
    before = sorted(os.listdir(folder))
    args = shlex.split(line)
    assert _line(args, "en") == english
    german = _line(args, "de")
    assert german != english and german.startswith("Fehler: "), german
    found = _english_words(german)
    assert not found, (found, german)
    assert sorted(os.listdir(folder)) == before


# ---------------------------------------------------------------- every bad input, in both languages
import test_bad_inputs as bad  # noqa: E402  (its table, its scratch folder and its results file)

results_file = bad.results_file
scratch = bad.scratch

ENGLISH_ONLY = ("--lang xx",)
"""Command lines whose error stays English on purpose: an unknown ``--lang`` (docs/german.md)."""


def _typed(line: str) -> set[str]:
    """What the user typed, as an error line quotes it: quoted values, options, paths."""
    found = re.findall(r"'[^']*'|--[\w-]+|(?<!\S)/\S+", line)  # a path: a word that starts with /
    return {re.sub(r"[:;,)]+$", "", t) for t in found}


@pytest.mark.parametrize("line", [c[0] for c in bad.CASES], ids=[c[0] for c in bad.CASES])
def test_every_bad_input_speaks_german_and_keeps_what_was_typed(line, scratch):
    """A relation over the whole bad-input table (tests/test_bad_inputs.py): the German run ends as
    the English one does (exit code, the JSON document of ``--json``, which is data), its one line
    starts ``Fehler:`` and holds none of the English marker words outside what was typed, and
    quotes every value, option and path the English line quotes."""
    d, notes = scratch
    _register_subapps()
    args = bad._argv(line, d, notes)
    runs = {lang: CliRunner().invoke(app, args, env={"LANGUAGE": lang}) for lang in ("en", "de")}
    english, german = (runs[lang].stderr.strip() for lang in ("en", "de"))
    assert runs["de"].exit_code == runs["en"].exit_code == 2
    assert runs["de"].stdout == runs["en"].stdout  # the --json document: English data
    assert "\n" not in german and english.startswith("error: "), (english, german)
    if any(word in line for word in ENGLISH_ONLY):
        assert german == english
        return
    assert german.startswith("Fehler: ") and german != english, german
    found = _english_words(german)
    assert not found, (found, german)
    assert _typed(english) <= _typed(german), (english, german)

"""The bad-input corpus: every case is a command line (with files from ``tests/bad_inputs/``)
that a user could type by mistake. Each must end, under a timeout, with exit code 2 and one
line ``error: …`` on stderr, no traceback, and no file changed that it was not asked to write.

Cases run in this process through Typer's test runner (fast); cases that read special files
(FIFOs, devices) run in a subprocess with a timeout. ``{d}`` in a command line is a scratch
copy of ``tests/bad_inputs/`` (the only folder a case may touch), ``{x}`` a scratch file that
exists (notes the user cares about). Add a case for every fault found later.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
import signal
from pathlib import Path

import pytest
from cli_process import run_python
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app

HERE = Path(__file__).resolve().parent / "bad_inputs"
TIMEOUT_S = 60

# (command line, words the error must contain)
CASES: list[tuple[str, str]] = [
    # --- Typer's own checks: one line, not a boxed panel
    ("throw --speed abc", "--speed"),
    ("throw --seed -1", "--seed"),
    ("match --bogus", "no such option"),
    ("nosuch", "no such command"),
    ("experiment run {d}/spec_speed_nan.toml --backend nosuch", "--backend"),
    # --- throw: values that would report a legal throw
    ("throw --azimuth-deg 180", "--azimuth-deg"),
    ("throw --azimuth-deg 1e6", "--azimuth-deg"),
    ("throw --line-x 10", "--line-x"),
    ("throw --pitch-length 0.01", "--pitch-length"),
    ("throw --pitch-length inf", "--pitch-length"),
    ("throw --speed nan", "speed"),
    ("throw --speed -2", "speed"),
    ("throw --elevation-deg 95", "elevation"),
    ("throw --height -1", "height"),
    ("throw --tilt-deg 200", "tilt"),
    ("throw --terrain-cm nan", "terrain"),
    ("throw --side C", "side"),
    ("throw --target B3 --azimuth-deg 500", "--azimuth-deg cannot be given with --target"),
    ("throw --target B3 --speed 8", "--speed cannot be given with --target"),
    # the aim solver's answer needs more than the release speeds allow: the reach, not the speed, is named
    ("throw --target B3 --elevation-deg 89", "target out of reach at elevation 89° (needs more than 40 m/s)"),
    ("throw --target B3 --elevation-deg -30", "target out of reach at elevation -30° (needs more than 40 m/s)"),
    # --- every throw number has the range of a spec's [throw]
    ("throw --release-angle-deg 1e9", "--release-angle-deg"),
    ("throw --spin-rps nan", "--spin-rps"),
    ("throw --helicopter-rps inf", "--helicopter-rps"),
    ("throw --lateral 1e9", "--lateral"),
    ("throw --behind-line -1e9", "--behind-line"),
    ("throw --height 1e9", "--height"),
    ("throw --speed 1e9", "--speed"),
    ("throw --terrain-cm 1e9", "--terrain-cm"),
    # --- unbounded work
    ("bench --throws 1000000000", "--throws"),
    ("bench --memory-throws 1000000000", "--memory-throws"),
    ("experiment plot {d}/not_a_spec.txt --x speed --bins 1000000000", "--bins"),
    # --- a match the replay reader could not resume is refused when it is asked for
    ("match --round-cap 1000000", "--round-cap"),
    ("match --time-limit 100000", "--time-limit"),
    # --- match flags
    ("match --sets 100", "--sets"),
    ("match --sets 2", "odd number"),
    ("match --time-limit nan", "--time-limit"),
    ("match --round-cap 1", "--round-cap"),
    ("match --ruleset wikinger --sets 3", "--sets"),
    ("match --players elite", "--players"),
    ("match --resume {d}/replay_sets_100.jsonl --seed 99", "--seed"),
    ("match --resume {d}/replay_sets_100.jsonl --players elite,club --ruleset wikinger", "--resume"),
    ("match --force", "--force"),
    ("match --replay {x}", "must name a .jsonl file"),  # the notes, whatever their name:
    ("match --replay {d}/replay_sets_2.jsonl", "already exists"),
    ("match --replay {d}/no-such-folder/r.jsonl", "does not exist"),
    ("match --replay {d}", "folder"),
    ("match --replay /dev/null --force", "regular file"),
    # --- replay files are input
    ("match --resume {d}/replay_seed_string.jsonl", "seed"),
    ("match --resume {d}/replay_seed_float.jsonl", "seed"),
    ("match --resume {d}/replay_seed_negative.jsonl", "seed"),
    ("match --resume {d}/replay_hz_zero.jsonl", "trajectory_hz"),
    ("match --resume {d}/replay_hz_nan.jsonl", "trajectory_hz"),
    ("match --resume {d}/replay_round_cap_string.jsonl", "round_cap"),
    ("match --resume {d}/replay_array_line.jsonl", "replay"),
    ("match --resume {d}/replay_null_line.jsonl", "replay"),
    ("match --resume {d}/replay_config_list.jsonl", "config"),
    ("match --resume {d}/replay_three_skills.jsonl", "skills"),
    ("match --resume {d}/replay_sets_100.jsonl", "sets"),
    ("match --resume {d}/replay_sets_2.jsonl", "odd number of sets"),
    ("match --resume {d}/replay_action_without_i.jsonl", ":2"),
    ("match --resume {d}/replay_action_i_string.jsonl", ":2"),
    ("match --resume {d}/replay_world_short_pose.jsonl", ":2"),
    ("match --resume {d}/replay_world_unknown_piece.jsonl", "Z9"),
    ("match --resume {d}/replay_world_zero_quat.jsonl", ":2"),
    ("match --resume {d}/replay_world_far_pose.jsonl", ":2"),
    ("match --resume {d}/replay_no_config.jsonl", "config"),
    ("match --resume {d}/replay_world_overlap.jsonl", "overlap"),
    ("view {d}/replay_world_overlap.jsonl", "A1 and A2 overlap"),
    ("view {d}/replay_view_king_overlap.jsonl", "B3 and king overlap"),
    ("view {d}/replay_world_far_pose.jsonl", ":2"),
    ("view {d}/replay_schema_1.jsonl", "replay schema 1, expected 2"),
    ("match --resume {d}/replay_schema_1.jsonl", "replay schema 1, expected 2"),
    ("match --resume {d}/empty.toml", "replay"),
    ("match --resume {d}/not_a_spec.txt", "not a JSON line"),
    ("match --resume {d}/no-such.jsonl", "no-such.jsonl"),
    # --- experiment specs: bad values named with file, field and range at load time
    ("experiment run {d}/spec_speed_negative.toml --out {d}/o.sqlite", "speed"),
    ("experiment run {d}/spec_speed_nan.toml --out {d}/o.sqlite", "speed"),
    ("experiment run {d}/spec_speed_inf.toml --out {d}/o.sqlite", "speed"),
    ("experiment run {d}/spec_elevation_95.toml --out {d}/o.sqlite", "elevation"),
    ("experiment run {d}/spec_height_negative.toml --out {d}/o.sqlite", "height"),
    ("experiment run {d}/spec_tilt_200.toml --out {d}/o.sqlite", "tilt"),
    ("experiment run {d}/spec_empty_grid.toml --out {d}/o.sqlite", "speed"),
    ("experiment run {d}/spec_speed_huge.toml --out {d}/o.sqlite", "speed"),
    ("experiment run {d}/deep_nesting.toml --out {d}/o.sqlite", "deep_nesting.toml"),
    ("experiment run {d}/spec_broken_toml.toml --out {d}/o.sqlite", "spec_broken_toml.toml"),
    ("experiment run {d}/empty.toml --out {d}/o.sqlite", "empty.toml"),
    ("experiment run {d}/spec_speed_nan.toml --backend serial --workers 8 --out {d}/o.sqlite", "--workers"),
    ("experiment run {d}/spec_speed_nan.toml --scheduler tcp://127.0.0.1:1 --out {d}/o.sqlite", "--scheduler"),
    ("experiment run {d}/no-such.toml", "no-such.toml"),
    ("experiment run hit-8m --out /dev/null", "regular file"),
    # --- every numeric field of a spec: range, finiteness, type, geometry, size
    ("experiment run {d}/spec_disturb_speed_huge.toml --out {d}/o.sqlite", "disturb.speed_mps"),
    ("experiment run {d}/spec_friction_negative.toml --out {d}/o.sqlite", "friction"),
    ("experiment run {d}/spec_friction_nan.toml --out {d}/o.sqlite", "friction"),
    ("experiment run {d}/spec_restitution_above_one.toml --out {d}/o.sqlite", "restitution"),
    ("experiment run {d}/spec_terrain_negative.toml --out {d}/o.sqlite", "terrain_cm"),
    ("experiment run {d}/spec_terrain_huge.toml --out {d}/o.sqlite", "terrain_cm"),
    ("experiment run {d}/spec_line_x_off_pitch.toml --out {d}/o.sqlite", "line_x"),
    ("experiment run {d}/spec_piece_on_b3.toml --out {d}/o.sqlite", "overlap"),
    ("experiment run {d}/spec_pieces_overlap.toml --out {d}/o.sqlite", "overlap"),
    ("experiment run {d}/spec_tiny_pitch.toml --out {d}/o.sqlite", "pitch.length"),
    ("experiment run {d}/spec_speed_bool.toml --out {d}/o.sqlite", "speed"),
    ("experiment run {d}/spec_speed_string.toml --out {d}/o.sqlite", "speed"),
    ("experiment run {d}/spec_seed_float.toml --out {d}/o.sqlite", "seed"),
    ("experiment run {d}/spec_yaw_inf.toml --out {d}/o.sqlite", "yaw_deg"),
    ("experiment run {d}/spec_lean_tilt_85.toml --out {d}/o.sqlite", "tilt_deg"),
    ("experiment run {d}/spec_time_limit_huge.toml --out {d}/o.sqlite", "time_limit_min"),
    ("experiment run {d}/spec_linspace_bool.toml --out {d}/o.sqlite", "linspace"),
    ("experiment run {d}/spec_huge_grid.toml --out {d}/o.sqlite", "--max-trials"),
    # --- results readers and their outputs
    # (plot --out RESULTS replaced the results by the picture; run --out NOTES printed its
    # banner before refusing a file that is no results file)
    ("experiment plot {d}/not_a_spec.txt --x speed --out {d}/not_a_spec.txt", "must name a .png file"),
    ("experiment export {d}/not_a_spec.txt --out {d}/not_a_spec.txt", "must name a .csv or .parquet file"),
    ("experiment plot {d}/results.sqlite --x speed --out {d}/results.sqlite", "must name a .png file"),
    ("experiment run hit-8m --out {x}", "must name a .sqlite or .sqlite3 or .db file"),
    ("experiment summary {d}/empty.toml", "empty.toml"),
    ("experiment summary {d}/not_a_spec.txt", "not_a_spec.txt"),
    ("experiment export {d}/not_a_spec.txt --out {d}/o.csv", "not_a_spec.txt"),
    ("experiment plot {d}/not_a_spec.txt --x speed", "not_a_spec.txt"),
    # --- scenarios: non-finite numbers and empty lists
    ("judge {d}/scenario_yaw_inf.toml", "yaw_deg"),
    ("judge {d}/scenario_at_nan.toml", "at"),
    ("judge {d}/scenario_stacked_on_nothing.toml", "on"),
    ("judge {d}/scenario_pitch_inf.toml", "length"),
    ("judge {d}/scenario_from_deg_inf.toml", "from_deg"),
    ("judge {d}/deep_nesting.toml", "deep_nesting.toml"),
    # --- scenarios: numbers are strict (no true / "30") and within a meaningful range
    ("judge {d}/scenario_at_bool.toml", "at[0]"),
    ("judge {d}/scenario_tilt_str.toml", "tilt_deg"),
    ("judge {d}/scenario_tilt_bool.toml", "tilt_deg"),
    ("quiz {d}/scenario_tilt_bool.toml", "tilt_deg"),
    ("quiz --lang xx --no-images", "available: de, en"),
    ("judge {d}/scenario_at_huge.toml", "at[0]"),
    ("judge {d}/scenario_pose_high.toml", "position[2]"),
    ("judge {d}/scenario_yaw_huge.toml", "yaw_deg"),
    ("judge {d}/scenario_pitch_huge.toml", "pitch.length"),
    ("judge {d}/scenario_along_huge.toml", "along"),
    ("judge {d}/not_a_spec.txt", "not_a_spec.txt"),
    ("judge {d}/scenario_at_nan.toml --json", "at"),
    # --- --json: the error is also the document on stdout
    ("throw --json --speed -1", "--speed: expected"),
    ("throw --json --seed -1", "--seed: expected 0 or more"),
    ("match --json --sets 0", "--sets: expected"),
    ("audit --json --matches 0", "--matches: expected"),
    ("rules show nosuch --json", "unknown ruleset"),
    ("experiment summary {d}/not_a_spec.txt --json", "not_a_spec.txt"),
    ("match --json --lang xx", "available: de, en"),
    ("tournament --json --teams 1", "--teams: expected"),
    ("dames selfplay --json --games 0", "--games: expected"),
    ("judge --json ''", "empty string"),
    # --- an empty word is refused before any work (a path '' was the current folder: `judge ''`
    # ruled on every *.toml there, `audit --replay-dir ''` wrote replays into it)
    ("judge ''", "argument 2 is an empty string"),
    ("quiz --no-images ''", "empty string"),
    ("quiz --out '' --no-images", "--out: expected a value, got an empty string"),
    ("audit --replay-dir ''", "--replay-dir: expected a value"),
    ("tournament --replay-dir ''", "--replay-dir: expected a value"),
    ("match --replay=", "--replay: expected a value"),
    ("throw --ruleset ''", "--ruleset: expected a value"),
    ("throw --target ''", "--target: expected a value"),
    ("experiment run '' --out {d}/o.sqlite", "empty string"),
    ("experiment run {d}/spec_speed_nan.toml --out ''", "--out: expected a value"),
    ("experiment summary ''", "empty string"),
    ("rules show ''", "empty string"),
    ("dames play --position ''", "--position"),
    # --- the output rule (tests/test_output_rule.py walks every writer)
    ("match --replay {d}/newdir/", "not a folder"),
    ("models build --out {d}/no-such-folder/models", "does not exist"),
    ("quiz --out {d}/no-such-folder/images {d}/scenario_tilt_str.toml", "does not exist"),
    ("audit --replay-dir {d}/no-such-folder/replays --matches 1", "does not exist"),
    # --- experiment rows that could not be right: refused at load
    ("experiment run {d}/spec_baton_is_a_kubb.toml --out {d}/o.sqlite", "throw.baton"),
    ("experiment run {d}/spec_baton_is_the_king.toml --out {d}/o.sqlite", "throw.baton"),
    ("experiment run {d}/spec_kubbuteo_on_pitch.toml --out {d}/o.sqlite", "table-top"),
    ("experiment run {d}/spec_piece_at_huge.toml --out {d}/o.sqlite", "setup.pieces[0].at"),
    ("experiment run {d}/spec_piece_id_standard.toml --out {d}/o.sqlite", "standard layout"),
    ("experiment run {d}/spec_round_cap_1.toml --out {d}/o.sqlite", "round_cap"),
    ("experiment run {d}/spec_sets_2.toml --out {d}/o.sqlite", "match.sets: expected an odd number from 1 to 9, got 2"),
    ("experiment run {d}/spec_sets_grid_4.toml --out {d}/o.sqlite", "match.sets: expected an odd number from 1 to 9"),
    ("experiment run {d}/spec_sets_wikinger.toml --out {d}/o.sqlite", "match.sets: does not apply to ruleset"),
    ("experiment run {d}/spec_piece_id_quote.toml --out {d}/o.sqlite", "setup.pieces[1].id"),
    ("experiment run {d}/spec_seed_5000_digits.toml --out {d}/o.sqlite", "too many digits"),
    ("experiment run {d}/spec_speed_nan.toml --backend dask --workers 100000 --out {d}/o.sqlite", "--workers"),
    # --- integers past Python's 4300 digits, replays that miss a piece, sizes that hang
    ("judge {d}/scenario_tilt_5000_digits.toml", "too many digits"),
    ("view {d}/scenario_tilt_5000_digits.toml", "too many digits"),
    ("quiz --no-images {d}/scenario_tilt_5000_digits.toml", "too many digits"),
    ("match --resume {d}/replay_seed_5000_digits.jsonl", "too many digits"),
    ("view {d}/replay_seed_5000_digits.jsonl", "too many digits"),
    ("match --resume {d}/replay_world_missing_piece.jsonl", "missing B3"),
    ("view {d}/scenario_title_too_long.toml", "at most 200 characters"),
    ("judge {d}/scenario_id_too_long.toml", "at most 40 characters"),
    # --- notation: a replay it cannot read, malformed notation (line and column), one input
    ("notation {d}/replay_schema_1.jsonl", "replay schema 1"),
    ("notation {d}/replay_no_config.jsonl", "config"),
    ("notation --read {d}/not_a_spec.txt", "not_a_spec.txt:1:1: a player token needs a ':'"),
    ("notation --read {d}/no-such.txt", "no-such.txt"),
    ("notation --read ''", "--read: expected a value"),
    ("notation --json", "give either a REPLAY or --read FILE"),
    ("notation {d}/replay_no_config.jsonl --read {d}/not_a_spec.txt", "exactly one"),
    ("notation --read {d}/not_a_spec.txt --out {d}/no-such-folder/o.txt", "does not exist"),
    ("notation --read {d}/empty.toml --lang xx", "available: de, en"),
    # --- dames: bounded work
    ("dames play --players search,search --depth 100", "--depth"),
    ("dames play --players random,random --depth 7", "--depth"),
    ("dames selfplay --games 1000000000", "--games"),
    ("dames play --players search,search --time-limit nan", "--time-limit"),
    # --- unknown names: listed as words to type, each once (readable() checks every case)
    ("match --ruleset xx", "expected one of dm, kubbuteo (kt), wikinger (ws)"),
    ("rules show xx", "expected one of dm, kubbuteo (kt), wikinger (ws)"),
    ("audit --ruleset xx --matches 1", "expected one of dm,"),
    ("match --players club,pro", "expected one of club, elite, novice"),
    ("match --strategy default,nope", "expected one of cluster-first, deep-inkast, default"),
    ("tournament --teams 2 --players club,pro", "expected one of club, elite, novice"),
    ("tournament --ground mud", "expected one of grass,"),
    # --- a mistyped name: the closest one offered
    ("match --ruleset wikingr", "did you mean 'wikinger'?"),
    ("rules show kubuteo", "did you mean 'kubbuteo'?"),
    ("match --players club,elit", "did you mean 'elite'?"),
    ("match --strategy default,deep-inkats", "did you mean 'deep-inkast'?"),
    ("tournament --teams 2 --players club,novise", "did you mean 'novice'?"),
    ("tournament --ground gras", "did you mean 'grass'?"),
    ("experiment plot {d}/results.sqlite --x spd", "did you mean 'speed'?"),
    ("experiment plot {d}/results.sqlite --x speed --measure hitt", "did you mean 'hit'?"),
    ("experiment summary {d}/results.sqlite --by elevaton", "did you mean 'elevation_deg'?"),
]

# read special files: in a subprocess, under a timeout
SUBPROCESS_CASES: list[tuple[str, str]] = [
    ("judge /dev/zero", "/dev/zero"),
    ("experiment run /dev/zero --out {d}/o.sqlite", "/dev/zero"),
    ("match --resume /dev/zero", "/dev/zero"),
    ("judge {d}/fifo.toml", "fifo.toml"),
    ("experiment run {d}/fifo.toml --out {d}/o.sqlite", "fifo.toml"),
    ("match --resume {d}/fifo.toml", "fifo.toml"),
    ("notation --read /dev/zero", "/dev/zero"),
    ("notation --read {d}/fifo.toml", "fifo.toml"),
    ("audit --matches 1 --log {d}/fifo.toml", "not a regular file"),
]


def _snapshot(folder: Path) -> dict[str, str]:
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_symlink() or not p.exists():
            out[str(p)] = "link"
        elif p.is_file():
            out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
        else:
            out[str(p)] = "dir" if p.is_dir() else "special"
    return out


@pytest.fixture(scope="session")
def results_file(tmp_path_factory) -> Path:
    """A small experiment's results (``{d}/results.sqlite``): 4 throws of the tiny spec."""
    import importlib.util

    where = Path(__file__).resolve().parent / "experiment" / "experiment_helpers.py"
    helpers = importlib.util.module_from_spec(importlib.util.spec_from_file_location("tiny_spec", where))
    helpers.__loader__.exec_module(helpers)  # type: ignore[union-attr]
    write_tiny = helpers.write_tiny
    _register_subapps()
    folder = tmp_path_factory.mktemp("results")
    spec = write_tiny(folder, trials_per_point=1)
    res = CliRunner().invoke(app, ["experiment", "run", str(spec), "--out", str(folder / "results.sqlite"),
                                   "--workers", "1"])
    assert res.exit_code == 0, res.output
    return folder / "results.sqlite"


@pytest.fixture
def scratch(tmp_path, monkeypatch, results_file):
    d = tmp_path / "bad_inputs"
    shutil.copytree(HERE, d)
    shutil.copy(results_file, d / "results.sqlite")
    os.mkfifo(d / "fifo.toml")
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    monkeypatch.chdir(tmp_path)
    return d, notes


def _argv(line: str, d: Path, x: Path) -> list[str]:
    return [a.replace("{d}", str(d)).replace("{x}", str(x)) for a in shlex.split(line)]


UNREADABLE = [
    (re.compile(r"[\[(]\s*'[^']*'\s*[,\])]"), "a Python list or tuple of names"),
    (re.compile(r"\b([\w-]+) \(\1\)"), "a name repeated in parentheses"),
    (re.compile(r"\b(True|False)\b"), "a Python boolean"),
]
"""What an error line must not show a reader: Python's spelling of values (``['club', 'elite']``,
``True``) or a name that repeats itself (``dm (dm)``)."""


def readable(line: str) -> None:
    for pattern, what in UNREADABLE:
        found = pattern.search(line)
        assert found is None, f"{what} ({found.group(0)!r}) in: {line}"


def test_readable_catches_what_it_names():
    readable("error: unknown skill 'pro'; expected one of club, elite, novice")
    for bad in ("expected one of ['club', 'elite']", "expected one of dm (dm), wikinger (ws)", "allowed: True"):
        with pytest.raises(AssertionError):
            readable(bad)


def _check(code: int, stdout: str, stderr: str, words: str, line: str) -> None:
    text = stdout + stderr
    if "--json" in line.split():
        # a program reading stdout gets the error as the one JSON object, not a half document
        import json

        assert json.loads(stdout) == {"error": stderr.strip().removeprefix("error: ")}, stdout
        assert stdout.count("\n") == 1
    assert "Traceback" not in text, text
    assert code == 2, f"exit {code}: {text}"
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    assert words.lower() in lines[0].lower(), lines[0]
    readable(lines[0])
    assert "secret-line" not in text  # never echo a file the user did not ask to read


class _Timeout(Exception):
    pass


@pytest.mark.parametrize("line,words", CASES, ids=[c[0] for c in CASES])
def test_bad_input_in_process(line, words, scratch):
    d, notes = scratch
    _register_subapps()
    before = _snapshot(d.parent)

    def alarm(signum, frame):
        raise _Timeout(f"no answer within {TIMEOUT_S} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(TIMEOUT_S)
    try:
        res = CliRunner().invoke(app, _argv(line, d, notes), catch_exceptions=True)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        import traceback

        pytest.fail("".join(traceback.format_exception(res.exception)))
    _check(res.exit_code, res.stdout, res.stderr, words, line)
    assert _snapshot(d.parent) == before


@pytest.mark.parametrize("line,words", SUBPROCESS_CASES, ids=[c[0] for c in SUBPROCESS_CASES])
def test_bad_input_in_subprocess(line, words, scratch):
    d, notes = scratch
    before = _snapshot(d.parent)
    res = run_python(["-c", "from kubb3d.cli import main; main()", *_argv(line, d, notes)], timeout=TIMEOUT_S,
                     cwd=d.parent)
    _check(res.returncode, res.stdout, res.stderr, words, line)
    assert _snapshot(d.parent) == before


def test_corpus_files_are_all_used():
    used = " ".join(line for line, _ in CASES + SUBPROCESS_CASES)
    unused = [p.name for p in HERE.iterdir() if p.name not in used]
    assert unused == []
    assert len(CASES) + len(SUBPROCESS_CASES) >= 80


def _takes_json(command) -> bool:
    return any("--json" in p.opts for p in getattr(command, "params", ()))


_WALKED = []


def _walked():
    if not _WALKED:
        import sys as _sys

        _sys.path.insert(0, str(Path(__file__).resolve().parent))
        from cli_walk import commands

        _WALKED.extend(commands())
    return _WALKED


@pytest.mark.parametrize("bad", [["--no-such-option"], ["--out="]], ids=["unknown option", "empty value"])
def test_json_error_is_printed_once_by_every_command(bad, tmp_path, monkeypatch):
    """Every command, given ``--json`` and a bad word (one Click refuses, one refused before
    Click parses), prints the error once: one ``error: …`` line on stderr and, only if the
    command takes ``--json`` (its output is a JSON document), the same words as the one JSON
    object on stdout. A command with no JSON output (``quiz``) printed the error twice, the
    second time as a JSON document it never makes. Click's refusal names the command."""
    import json

    monkeypatch.chdir(tmp_path)
    walked = _walked()
    assert len(walked) >= 30 and sum(_takes_json(c) for _, c in walked) >= 15
    wrong: dict[str, str] = {}
    for path, command in walked:
        res = CliRunner().invoke(app, [*path, "--json", *bad], catch_exceptions=False)
        lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
        said = lines[0].removeprefix("error: ") if len(lines) == 1 and lines[0].startswith("error: ") else None
        want = json.dumps({"error": said}, ensure_ascii=False) + "\n" if _takes_json(command) else ""
        # the line names the command, as every usage error does (the dames commands' did not)
        named = bad != ["--no-such-option"] or f"{' '.join(path)}: No such option: --" in (said or "")
        if bad == ["--no-such-option"] and not _takes_json(command):  # nothing offered in place of --json
            named = named and (said or "").endswith(f"{' '.join(path)}: No such option: --json")
        if res.exit_code != 2 or said is None or res.stdout != want or not named:
            wrong[" ".join(path)] = f"exit {res.exit_code}, stderr {res.stderr!r}, stdout {res.stdout!r}"
    assert not wrong, "\n".join(f"{name}: {what}" for name, what in wrong.items())

"""Input mistakes a new user made, each checked over every command that could make it (the
commands and options are found in the Typer app):

* a mistyped shipped name (``export dm_acident_wind``): the nearest shipped name is suggested,
  wherever a shipped scenario or spec is taken;
* the wrong kind of file (a notation record given as a replay, a replay to ``notation --read``):
  one line naming the file, what it is and what was expected;
* an option given no value (``match --option`` at the end, or ``--option --seed 3``, which took
  ``--seed`` as its value): one line naming the option.
"""

from __future__ import annotations

import typing
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli_walk import commands
from kubb3d.cli import app
from kubb3d.cli.outputs import output_of
from kubb3d.library import experiment_files, scenario_files

REQUIRED = {"--at": "1"}
"""A value for each required option of a command the walk runs (a new one must be added)."""
NEEDS = {("export",): ["--html", "x.html"]}
"""What a command needs before it reads its input (export: something to write)."""


COMMANDS = commands()


def _takes_a_path(param) -> bool:
    annotation = param.type_descriptor.annotation
    return annotation is Path or Path in typing.get_args(annotation)


def _inputs(word: str):
    """(command, parameter) of each path the command reads whose help names ``word``."""
    return [
        (path, param)
        for path, cmd in COMMANDS
        for param in cmd.params
        if _takes_a_path(param) and output_of(param) is None and word in (param.help or "").lower()
    ]


def _argv(path, param, value: str, cmd) -> list[str]:
    words = [*path]
    words += [value] if not param.opts[0].startswith("-") else [param.opts[0], value]
    for other in cmd.params:
        if other is not param and other.required and other.opts[0].startswith("-"):
            assert other.opts[0] in REQUIRED, f"{' '.join(path)}: give a value for {other.opts[0]} in REQUIRED"
            words += [other.opts[0], REQUIRED[other.opts[0]]]
    return words + NEEDS.get(tuple(path), [])


def _one_line(args: list[str], cwd: Path, monkeypatch) -> str:
    monkeypatch.chdir(cwd)
    res = CliRunner().invoke(app, args, catch_exceptions=False)
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert res.exit_code == 2, (args, res.stdout, res.stderr)
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    return lines[0]


SHIPPED = _inputs("short name")


def test_the_walk_finds_every_command_that_takes_a_shipped_name():
    found = {" ".join(path) for path, _ in SHIPPED}
    assert {"judge", "quiz", "view", "export", "experiment run"} <= found, found


def _mistyped(name: str) -> str:
    return name[:3] + name[4:]  # one letter dropped: dm_acident_wind


@pytest.mark.parametrize("path,param", SHIPPED, ids=[" ".join(p) for p, _ in SHIPPED])
def test_a_mistyped_shipped_name_gets_the_nearest_one(path, param, tmp_path, monkeypatch):
    cmd = dict(COMMANDS)[path]
    shipped = experiment_files() if "spec" in (param.help or "") else scenario_files()
    real = next(f.stem for f in shipped if len(f.stem) > 8)
    line = _one_line(_argv(path, param, _mistyped(real), cmd), tmp_path, monkeypatch)
    assert line.startswith(f"error: {_mistyped(real)}: ") and f"did you mean {real!r}?" in line, line
    assert list(tmp_path.iterdir()) == []


def test_a_name_near_nothing_gets_no_suggestion(tmp_path, monkeypatch):
    line = _one_line(["export", "zzzzzzzz", "--html", "x.html"], tmp_path, monkeypatch)
    assert "did you mean" not in line and "no such file" in line


@pytest.mark.parametrize("path,param", SHIPPED, ids=[" ".join(p) for p, _ in SHIPPED])
def test_a_file_of_the_other_kind_is_named_with_the_command_it_is_for(path, param, tmp_path, monkeypatch):
    """`kubb3d judge scenarios/experiments/hit-8m.toml` said "throw.side: unknown field in
    [throw]; expected one of: field_kubbs, … (+13 more)", as if a scenario had a typo, and
    `experiment run scenarios/dm_accident_wind.toml` the same the other way. Every command that
    reads a scenario, given a shipped spec, and `experiment run`, given a shipped scenario, says
    in one line which kind the file is and the command that takes it."""
    cmd = dict(COMMANDS)[path]
    takes_spec = "spec" in (param.help or "")
    other = (scenario_files() if takes_spec else experiment_files())[0]
    line = _one_line(_argv(path, param, str(other), cmd), tmp_path, monkeypatch)
    if takes_spec:
        assert line == (f"error: {other}: a judge scenario (it has expect), not an experiment spec; "
                        f"rule on it with kubb3d judge {other}"), line
    else:
        assert line.startswith(f"error: {other}: an experiment spec (it has ") and line.endswith(
            f"), not a judge scenario; run it with kubb3d experiment run {other}"), line
    assert list(tmp_path.iterdir()) == []


def test_every_shipped_file_is_told_apart_from_the_other_kind():
    """The kinds are told by top-level fields only one kind has: no shipped scenario is taken
    for a spec, no shipped spec for a scenario, and each is refused by the other's reader."""
    import tomllib

    from kubb3d.library import other_toml_kind

    for kind, files in (("scenario", scenario_files()), ("spec", experiment_files())):
        other = "spec" if kind == "scenario" else "scenario"
        for f in files:
            data = tomllib.loads(f.read_text(encoding="utf-8"))
            assert other_toml_kind(data, f, kind) is None, f
            assert other_toml_kind(data, f, other) is not None, f


REPLAY_READERS = _inputs("replay")


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    """A finished short replay and its record in the notation."""
    folder = tmp_path_factory.mktemp("kinds")
    runner = CliRunner()
    replay = folder / "m.jsonl"
    res = runner.invoke(app, ["match", "--seed", "1", "--round-cap", "3", "--replay", str(replay), "-q"])
    assert res.exit_code == 0, res.stderr
    record = folder / "m.txt"
    res = runner.invoke(app, ["notation", str(replay), "--out", str(record)])
    assert res.exit_code == 0, res.stderr
    return {"replay": replay, "record": record}


def test_the_walk_finds_the_replay_readers_the_tryout_used():
    found = {(" ".join(path), param.name) for path, param in REPLAY_READERS}
    assert {("stats", "replay"), ("view", "path"), ("analyse", "replay"), ("match", "resume")} <= found, found


@pytest.mark.parametrize("path,param", REPLAY_READERS, ids=[" ".join(p) + " " + q.name for p, q in REPLAY_READERS])
def test_a_notation_record_given_as_a_replay_is_named(path, param, files, tmp_path, monkeypatch):
    cmd = dict(COMMANDS)[path]
    record = files["record"]
    line = _one_line(_argv(path, param, str(record), cmd), tmp_path, monkeypatch)
    assert line == (
        f"error: {record} is a match record in the game notation, not a kubb3d match replay; "
        "expected a replay written by kubb3d match --replay"
    )
    assert list(tmp_path.iterdir()) == []


READERS = [*SHIPPED, *REPLAY_READERS, *_inputs("record")]


@pytest.mark.parametrize("path,param", READERS, ids=[" ".join(p) + " " + q.name for p, q in READERS])
def test_a_results_file_given_as_text_is_named(path, param, tmp_path_factory, tmp_path, monkeypatch):
    """`kubb3d export hits.sqlite --html m.html` said "replay file hits.sqlite is not UTF-8 text
    (byte 102)". An experiment's results file given to any command that reads a scenario, a
    spec, a replay or a notation record is named for what it is, in one line."""
    import sqlite3

    results = tmp_path_factory.mktemp("results") / "hits.sqlite"
    with sqlite3.connect(results) as db:
        db.execute("CREATE TABLE trials (trial INTEGER, row TEXT)")
        db.execute("INSERT INTO trials VALUES (0, 'é' || char(0))")
    db.close()
    cmd = dict(COMMANDS)[path]
    line = _one_line(_argv(path, param, str(results), cmd), tmp_path, monkeypatch)
    assert line.startswith(f"error: {results} is an experiment results file (SQLite), not a"), line
    assert "UTF-8" not in line
    assert list(tmp_path.iterdir()) == []


def test_a_replay_given_to_notation_read_is_named(files, tmp_path, monkeypatch):
    replay = files["replay"]
    line = _one_line(["notation", "--read", str(replay)], tmp_path, monkeypatch)
    assert line.startswith(f"error: {replay} is a kubb3d match replay, not a match record in the game notation")
    assert "kubb3d notation REPLAY --out" in line
    # what each reads is still read
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(app, ["notation", "--read", str(files["record"])]).exit_code == 0
    assert CliRunner().invoke(app, ["stats", str(replay)]).exit_code == 0


def _value_options():
    for path, cmd in COMMANDS:
        for param in cmd.params:
            if param.opts[0].startswith("-") and not getattr(param, "is_flag", False) and not param.count:
                yield path, param


VALUE_OPTIONS = list(_value_options())


def test_the_walk_finds_the_option_of_the_tryout():
    assert (("match",), "--option") in {(p, q.opts[0]) for p, q in VALUE_OPTIONS}
    assert len(VALUE_OPTIONS) > 100


@pytest.mark.parametrize("path,param", VALUE_OPTIONS, ids=[" ".join(p) + " " + q.opts[0] for p, q in VALUE_OPTIONS])
def test_an_option_without_its_value_is_named(path, param, tmp_path, monkeypatch):
    option = param.opts[0]
    line = _one_line([*path, option], tmp_path, monkeypatch)
    named = f"error: kubb3d {' '.join(path)} {option}: expected a value"  # the command named, as the tryout asked
    assert line.startswith(named) and line.endswith("got nothing"), line
    cmd = dict(COMMANDS)[path]
    other = next(o for p in cmd.params if p is not param for o in p.opts if o.startswith("--"))
    line = _one_line([*path, option, other, "1"], tmp_path, monkeypatch)
    assert line.startswith(named) and line.endswith(f"got the option {other}"), line


SCENARIO = (Path(__file__).resolve().parents[1] / "scenarios" / "dm_accident_wind.toml").read_text()
SPEC = """schema = 1
title = "one piece"
seed = 7
trials_per_point = 1
measures = ["hit"]

[setup]
ruleset = "dm"
layout = "empty"

[throw]
target = "X1"

[[setup.pieces]]
id = "X1"
at = [{x}, 0.0]
"""


def _placed(folder: Path, spec: bool, x: float) -> Path:
    """A scenario (or spec) whose piece lies at ``x`` m (the DM pitch is 8 m long: ends at ±4)."""
    if spec:
        path = folder / f"spec_{x}.toml"
        path.write_text(SPEC.format(x=x))
    else:
        path = folder / f"scenario_{x}.toml"
        path.write_text(SCENARIO.replace("at = [3.9, -0.833]", f"at = [{x}, -0.833]"))
    return path


@pytest.mark.parametrize("path,param", SHIPPED, ids=[" ".join(p) for p, _ in SHIPPED])
def test_a_piece_far_off_the_pitch_is_refused_with_file_field_and_range(path, param, tmp_path, monkeypatch):
    """The tryout's scenario had a piece at x = 15 m, off the 8 × 5 m pitch, and was judged."""
    cmd = dict(COMMANDS)[path]
    spec = "spec" in (param.help or "")
    bad = _placed(tmp_path, spec, 15.0)
    line = _one_line(_argv(path, param, str(bad), cmd), tmp_path, monkeypatch)
    field = "setup: pieces[0] (id X1).at" if spec else "pieces[0] (id B2).at"
    assert line.startswith(f"error: {bad}: {field}: expected x from -6 to 6 m and y from -4.5 to 4.5 m"), line
    assert line.endswith("(the 8 × 5 m pitch and 2 m around it), got (15, " + ("0)" if spec else "-0.833)")), line
    assert sorted(p.name for p in tmp_path.iterdir()) == [bad.name]


@pytest.mark.parametrize("spec", [False, True], ids=["scenario", "spec"])
def test_the_bound_is_two_metres_past_the_end_line(spec, tmp_path):
    from kubb3d.errors import ScenarioError, SpecError
    from kubb3d.experiment import load_spec
    from kubb3d.scenario import load

    read = load_spec if spec else load
    read(_placed(tmp_path, spec, 5.9))  # 1.9 m past the end: a baton can roll that far
    with pytest.raises(SpecError if spec else ScenarioError, match="expected x from -6 to 6 m"):
        read(_placed(tmp_path, spec, 6.1))


TOML_READERS = [(path, param) for path, param in SHIPPED if "replay" not in (param.help or "").lower()]


def test_the_walk_finds_the_toml_readers_the_tryout_used():
    assert {"judge", "experiment run"} <= {" ".join(path) for path, _ in TOML_READERS}


@pytest.mark.parametrize("path,param", TOML_READERS, ids=[" ".join(p) for p, _ in TOML_READERS])
@pytest.mark.parametrize("name", ["m.jsonl", "m.toml"])
def test_a_replay_given_for_a_toml_file_is_named_with_the_commands_it_is_for(path, param, name, files, tmp_path,
                                                                            monkeypatch):
    """`kubb3d judge m.jsonl` and `kubb3d experiment run m.jsonl` said "not valid TOML at line 1,
    column 1": a replay, known by its name or its header line, is named with the commands that take it."""
    cmd = dict(COMMANDS)[path]
    replay = tmp_path / "given" / name
    replay.parent.mkdir()
    replay.write_bytes(files["replay"].read_bytes())
    line = _one_line(_argv(path, param, str(replay), cmd), tmp_path, monkeypatch)
    kind = "an experiment spec" if "spec" in (param.help or "") else "a judge scenario"
    assert line == (f"error: {replay} is a kubb3d match replay, not {kind}; read it with kubb3d analyse {replay} "
                    f"or watch it with kubb3d view {replay}"), line
    assert [p.name for p in tmp_path.iterdir()] == ["given"]

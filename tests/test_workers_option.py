"""One ``--workers`` rule across the commands (kubb3d/cli/processes.py): every command that has
``--workers`` defaults to all cores, takes 1 to 256, refuses 0 in one line, and says so in its
``--help`` in the same words. The commands are found by walking the Typer app, so a new command
with its own ``--workers`` fails here."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from cli_walk import commands
from kubb3d.cli import app
from kubb3d.cli.processes import MAX_WORKERS, WORKERS_HELP, workers_for


def _with_workers() -> dict[tuple[str, ...], object]:
    found = {}
    for path, cmd in commands():
        for param in cmd.params:
            if "--workers" in param.opts:
                found[path] = param
    return found


WITH_WORKERS = _with_workers()


def test_the_walk_finds_the_commands_the_user_named():
    names = {" ".join(p) for p in WITH_WORKERS}
    assert {"experiment run", "audit", "calibrate", "validate", "sensitivity", "tournament", "whatif",
            "analyse"} <= names, names


@pytest.mark.parametrize("path", sorted(WITH_WORKERS), ids=" ".join)
def test_every_workers_option_follows_the_one_rule(path):
    param = WITH_WORKERS[path]
    assert param.default is None  # all cores
    assert (param.min, param.max) == (1, MAX_WORKERS)
    assert param.help.startswith(WORKERS_HELP)


def test_the_help_says_it_the_same_way_everywhere():
    helps = {p.help.split(".")[0] for p in WITH_WORKERS.values()}  # each command's first sentence
    assert helps == {WORKERS_HELP.split(".")[0]}
    assert "default: all cores" in WORKERS_HELP and f"1 to {MAX_WORKERS}" in WORKERS_HELP


@pytest.mark.parametrize("path", sorted(WITH_WORKERS), ids=" ".join)
def test_zero_workers_is_one_error_line(path):
    res = CliRunner().invoke(app, [*path, "--workers", "0"])
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert res.exit_code == 2, res.stderr
    assert len(lines) == 1 and re.search(rf"--workers: expected from 1 to {MAX_WORKERS}, got 0", lines[0]), lines


def test_the_default_is_every_core_but_no_more_than_the_jobs(monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 6)
    assert workers_for(None) == 6
    assert workers_for(None, jobs=4) == 4
    assert workers_for(3, jobs=10) == 3
    assert workers_for(None, jobs=0) == 1


def test_the_readme_states_the_rule_for_the_commands_that_have_it():
    from pathlib import Path

    readme = " ".join((Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8").split())
    rule = re.search(r"`--workers N` means the same on every command that has it \((.*?)\): N worker processes, "
                     r"1 to (\d+) \(0 is refused\), all cores when it is not given", readme)
    assert rule, "README states no --workers rule"
    assert set(re.findall(r"`([^`]+)`", rule.group(1))) == {" ".join(p) for p in WITH_WORKERS}
    assert int(rule.group(2)) == MAX_WORKERS


@pytest.mark.parametrize(
    "args, timing",
    [
        (("tournament", "--teams", "3", "--seed", "2", "--json"), ()),
        (("audit", "--matches", "2", "--json"), ("wall_s",)),
    ],
    ids=["tournament", "audit"],
)
def test_the_result_does_not_depend_on_the_workers(cli, args, timing):
    """Every ``--help`` says "the result does not depend on it": audit and tournament (whatif,
    analyse and experiments have their own tests) give the same document on 1 and 2 workers,
    their timings aside."""
    import json

    docs = []
    for workers in ("1", "2"):
        res = cli(*args, "--workers", workers)
        assert res.returncode == 0, res.stderr
        doc = json.loads(res.stdout)
        docs.append({k: v for k, v in doc.items() if k not in timing})
    assert docs[0] == docs[1]

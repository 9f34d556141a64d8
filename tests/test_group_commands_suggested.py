"""A command of a group typed without its group (``kubb3d summary``) is suggested with it: a new
user's trial read "No such command 'summary'." where ``experiment summary`` was meant. Walked
over every command of every group (tests/cli_walk.py), so a new one is checked unlisted."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cli_walk import commands, group
from kubb3d.cli import app

TOP = set(group().commands)
NESTED = sorted({path[-1] for path, _ in commands() if len(path) == 2 and path[-1] not in TOP})


def test_the_walk_finds_the_command_the_tryout_typed():
    assert "summary" in NESTED and "run" in NESTED and len(NESTED) >= 10, NESTED


@pytest.mark.parametrize("name", NESTED)
def test_a_group_command_without_its_group_is_suggested_with_it(name):
    res = CliRunner().invoke(app, [name, "x"])
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert res.exit_code == 2 and len(lines) == 1, res.output
    assert lines[0].startswith("error: ") and f": No such command '{name}'; did you mean " in lines[0], lines
    homes = sorted(" ".join(path) for path, _ in commands() if len(path) == 2 and path[-1] == name)
    assert all(f"'{home}'" in lines[0] for home in homes), (homes, lines)


def test_the_suggestion_in_german():
    res = CliRunner().invoke(app, ["summary", "x", "--lang", "de"])
    assert res.stderr.startswith("Fehler: ")
    assert res.stderr.strip().split(": ", 2)[2] == "Kein solcher Befehl 'summary'; meinten Sie 'experiment summary'?"

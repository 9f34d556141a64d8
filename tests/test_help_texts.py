"""Every ``--help`` of the command line as a reader sees it: paragraphs wrap at the terminal's
width, not where the docstring's source lines happen to break."""

from __future__ import annotations

import inspect

from typer.main import get_command
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app


def _commands(group, path=()):
    for name, command in sorted(group.commands.items()):
        yield (*path, name), command
        if hasattr(command, "commands"):
            yield from _commands(command, (*path, name))


def _help(args: list[str]) -> list[str]:
    r = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": "1000"})
    assert r.exit_code == 0, r.output
    return r.output.splitlines()


def test_no_help_breaks_a_sentence_at_a_source_line():
    # `kubb3d --help` at 80 columns showed "masses and inertia, tipping" on one line and
    # "angles, rebounds, …" on the next: Typer's rich help keeps a docstring's line breaks
    _register_subapps()
    root = get_command(app)
    groups = [((), root)] + [(p, c) for p, c in _commands(root) if hasattr(c, "commands")]
    for path, group in groups:
        lines = _help(list(path))
        top = next(i for i, line in enumerate(lines) if "Commands" in line)
        rows = [line for line in lines[top + 1:] if line.startswith("│")]
        assert len(rows) == len(group.commands), (path, rows)  # one line per command at 1000 columns
    for path, command in _commands(root):
        if hasattr(command, "commands") or not command.help:
            continue
        lines = _help(list(path))
        start = next(i for i, line in enumerate(lines) if "Usage:" in line) + 1
        end = next(i for i, line in enumerate(lines) if line.startswith("╭"))
        shown = [line.strip() for line in lines[start:end] if line.strip()]
        paragraphs = inspect.cleandoc(command.help).split("\n\n")
        assert len(shown) == len(paragraphs), (path, shown)

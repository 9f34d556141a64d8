"""Every command of the ``kubb3d`` app, found by walking the Typer app: for tests of one rule
across all commands, so a new command is checked without being listed."""

from __future__ import annotations

import typer.main

from kubb3d.cli import _register_subapps, app


def group():
    """The app's click group, every sub-app registered."""
    _register_subapps()
    return typer.main.get_command(app)


def commands(of=None) -> list[tuple[tuple[str, ...], object]]:
    """``[(("experiment", "run"), click_command), …]``: each leaf command with its path, of the
    click group ``of`` (a new :func:`group` if not given)."""

    def walk(group, prefix=()):
        for name, cmd in getattr(group, "commands", {}).items():
            if getattr(cmd, "commands", None):
                yield from walk(cmd, (*prefix, name))
            else:
                yield (*prefix, name), cmd

    return list(walk(group() if of is None else of))

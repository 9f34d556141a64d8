"""The ``kubb3d`` command line (Typer).

Every subcommand turns a user mistake into a one-line error on stderr and a
non-zero exit code (2), never a traceback: raise :class:`UserError` for that.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    help="kubb3d: a 3D physics simulator of the outdoor game Kubb, with a referee.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class UserError(Exception):
    """A mistake in the user's input: printed as one line, exit code 2."""


def _register_subapps() -> None:
    from kubb3d.dames.cli import app as dames_app

    app.add_typer(dames_app, name="dames", help="Roll Kubb Dames, the board game of rolling dice-kubbs (seed RKD).")


def main() -> None:
    """Console-script entry point."""
    _register_subapps()
    try:
        app()
    except UserError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise SystemExit(2) from None

"""The ``--lang`` option the commands that speak to people share (docs/german.md)."""

from __future__ import annotations

from typing import Any, Optional

import typer

from kubb3d.ranges import one_line

from kubb3d.i18n import LanguageError, Translator, translator

LANG_HELP = (
    "Language of the text: en or de (default: the LANGUAGE / LANG environment, e.g. LANG=de_DE.UTF-8, else en)."
)


def lang_option() -> Any:
    """The ``--lang`` Typer option (``None``: from the environment)."""
    return typer.Option(None, "--lang", help=LANG_HELP, metavar="LANG")


def translator_for(lang: Optional[str]) -> Translator:
    """The translator for ``--lang`` (or the environment); an unknown language is one error line
    naming the available ones, exit 2."""
    try:
        return translator(lang)
    except LanguageError as exc:
        from kubb3d.cli import _json_error

        typer.echo(f"error: {one_line(exc)}", err=True)
        _json_error(str(exc))
        raise typer.Exit(2) from None

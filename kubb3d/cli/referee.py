"""The ``--option NAME=VALUE`` option the commands that referee share (``match``, ``judge``,
``audit``, ``play``): the referee's options of :mod:`kubb3d.judge.options`, listed with their
choices and defaults by ``kubb3d rules show RULESET``."""

from __future__ import annotations

from typing import Any, Optional

import typer

OPTION_HELP = (
    "A referee option NAME=VALUE for what the rule books leave open (repeatable; the names, choices and "
    "defaults: kubb3d rules show RULESET)."
)


def referee_option(when: str = "") -> Any:
    """The repeatable ``--option`` Typer option (``None``: every option at its ruleset's default);
    ``when``: the help's opening, where a command takes it only with another option."""
    text = when + OPTION_HELP[0].lower() + OPTION_HELP[1:] if when else OPTION_HELP
    return typer.Option(None, "--option", help=text, metavar="NAME=VALUE")


def referee_options(values: Optional[list[str]]) -> dict[str, Any]:
    """The options given on the command line as a dict; a bad one is one error line, exit 2."""
    from kubb3d.judge.options import parse_options

    try:
        return parse_options(values or ())
    except ValueError as exc:
        from kubb3d.cli import _json_error

        from kubb3d.cli.lang import error_line

        typer.echo(error_line(exc), err=True)
        _json_error(str(exc))
        raise typer.Exit(2) from None


def ruleset_named(name: str) -> str:
    """The ruleset a match can be played under, given by its name or its rule book's short
    name in any case (``WS`` → ``wikinger``). Raises ValueError worded for a reader: the names,
    each with its short name only where that is another word (``dm, wikinger (ws), …``, not
    ``dm (dm)``)."""
    from kubb3d.errors import UnknownNameError
    from kubb3d.judge.rulebook import canonical_ruleset, get_rulebook
    from kubb3d.rules import ruleset_names

    try:
        found = canonical_ruleset(name)
    except UnknownNameError:
        found = None
    if found in ruleset_names():
        return found
    names = []
    for n in ruleset_names():
        short = get_rulebook(n).seed.lower()
        names.append(n if short == n else f"{n} ({short})")
    from kubb3d.ranges import did_you_mean

    spelt = [n for n in ruleset_names()] + [get_rulebook(n).seed.lower() for n in ruleset_names()]
    from kubb3d.judge.messages import msg

    raise ValueError(msg("unknown ruleset {name}{near}; expected one of {names}", name=repr(name),
                         near=did_you_mean(name.lower(), spelt), names=", ".join(names)))

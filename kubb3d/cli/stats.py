"""``kubb3d stats REPLAY``: per-player figures of a match (:mod:`kubb3d.stats`), as text or ``--json``."""

from __future__ import annotations

from kubb3d.errors import message as error_message

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from kubb3d.cli.lang import lang_option, translator_for


def stats(
    replay: Path = typer.Argument(
        ..., help="A replay written by `kubb3d match --replay` or `kubb3d play --opponent … --replay`."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object: player → figures."),
    lang: Optional[str] = lang_option(),
) -> None:
    """Per-player figures of a match: the batons that hit (felled a kubb the referee counts),
    also by the distance from the release to the first piece moved; kubbs felled a turn; the
    inkast spread (root mean square distance of an inkast's kubbs from their centre) and the
    share of inkasted kubbs ruled invalid."""
    from kubb3d.cli import UserError
    from kubb3d.errors import ReplayError
    from kubb3d.stats import replay_stats, stats_lines

    tr = translator_for(lang)
    try:
        figures = replay_stats(replay)
    except ReplayError as exc:
        raise UserError(error_message(exc)) from None
    if as_json:
        sys.stdout.write(json.dumps({name: ps.to_dict() for name, ps in figures.items()}, ensure_ascii=False) + "\n")
        return
    for line in stats_lines(figures):
        typer.echo(tr(line))


def register(app: typer.Typer) -> None:
    """Add the ``stats`` command to ``app``."""
    app.command("stats")(stats)

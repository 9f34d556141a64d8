"""``kubb3d sensitivity``: the uncertainty budget of the headline figures over the unmeasured
material and ground parameters (:mod:`kubb3d.sensitivity`). Call :func:`register` with the main
Typer app.

Exit code 0; user mistakes print one line ``error: …`` and exit 2 before any work.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, List, Optional

import typer

from kubb3d.cli.processes import workers_for, workers_option
from kubb3d.cli.outputs import force_option, output_option


def sensitivity(
    throws: int = typer.Option(
        300, min=2, max=100_000, help="Throws per preset at 8 m per one-at-a-time point (the same seeded throws)."
    ),
    morris_throws: int = typer.Option(
        50, "--morris-throws", min=0, max=100_000, help="Throws per preset per point of the global design (0: none)."
    ),
    trajectories: int = typer.Option(
        4, min=0, max=1000, help="Morris trajectories of the global design (0: one at a time only)."
    ),
    flicks: int = typer.Option(
        200, min=0, max=100_000, help="Club Kubbuteo flicks per one-at-a-time point (0: leave the figure out)."
    ),
    morris_flicks: int = typer.Option(
        50, "--morris-flicks", min=0, max=100_000, help="Flicks per point of the global design (0: none)."
    ),
    matches: int = typer.Option(
        12, min=0, max=100_000, help="Club v club DM matches per point (0: leave the figure out)."
    ),
    match_drivers: int = typer.Option(
        2,
        "--match-drivers",
        min=0,
        max=20,
        help="Play the matches at the ends of this many parameters, those that move the kubbs felled most.",
    ),
    parameter: Optional[List[str]] = typer.Option(
        None,
        "--parameter",
        help="Vary only this parameter (its code in docs/sensitivity.md, e.g. ground:grass.plowing); repeat it.",
    ),
    seed: int = typer.Option(7, min=0, help="Seed of every trial (those of `kubb3d calibrate`) and of the design."),
    workers: Optional[int] = workers_option(),
    markdown: Optional[Path] = output_option(
        "--markdown",
        "Also write the budget as Markdown (docs/sensitivity.md is made this way).",
        suffixes=(".md",),
        kind="Markdown",
    ),
    save: Optional[Path] = output_option(
        "--save",
        "Also write the report as JSON (docs/sensitivity.json, which `kubb3d calibrate --sensitivity` quotes).",
        suffixes=(".json",),
        kind="JSON",
    ),
    force: bool = force_option(),
    as_json: bool = typer.Option(False, "--json", help="Print the report as one JSON document instead of the table."),
) -> None:
    """Re-compute the headline figures (kubbs felled per baton at 8 m per preset, slide after
    landing, a Kubbuteo flick's knock rate, the first player's win rate in club v club DM
    matches) across the plausible range of every unmeasured material and ground parameter: one
    at a time and with a global Morris design. Prints each figure with its band and the
    parameters that drive it."""
    from kubb3d.files import check_output
    from kubb3d.sensitivity import candidates

    if parameter:
        known = candidates()
        for code in parameter:
            if code not in known:
                raise typer.BadParameter(
                    f"{code!r} is not varied; expected one of {', '.join(known)}", param_hint="'--parameter'"
                )
    if trajectories and (morris_throws or morris_flicks):
        import importlib.util

        if importlib.util.find_spec("SALib") is None:
            from kubb3d.errors import UserError

            raise UserError("the global design needs SALib: pip install 'kubb3d[sensitivity]' (or --trajectories 0)")
    for out, what in ((markdown, "--markdown"), (save, "--save")):
        if out is not None:
            check_output(out, what, overwrite=force)
    from rich.progress import Progress

    from kubb3d.sensitivity import markdown as to_markdown
    from kubb3d.sensitivity import plan_size, run_sensitivity

    settings: dict[str, Any] = dict(
        throws=throws,
        morris_throws=morris_throws,
        trajectories=trajectories,
        flicks=flicks,
        morris_flicks=morris_flicks,
        matches=matches,
        match_drivers=match_drivers,
        only=list(parameter) if parameter else None,
    )
    with Progress(transient=True, disable=as_json or not sys.stderr.isatty()) as bar:
        task = bar.add_task("throws, flicks and matches", total=plan_size(**settings))
        report = run_sensitivity(
            seed=seed, workers=workers_for(workers), progress=lambda k: bar.advance(task, k), **settings
        )
    from kubb3d.files import atomic_write

    command = report.command() + "".join(
        f" {what} {path}" for path, what in ((markdown, "--markdown"), (save, "--save")) if path is not None
    )
    from kubb3d.cli.outputs import say_wrote

    if save is not None:
        atomic_write(save, (json.dumps(report.to_json(), ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
        say_wrote(save)
    if markdown is not None:
        atomic_write(markdown, to_markdown(report, command).encode("utf-8"))
        say_wrote(markdown)
    if as_json:
        sys.stdout.write(json.dumps(report.to_json(), ensure_ascii=False) + "\n")
        return
    from kubb3d.cli.tables import print_rows
    from kubb3d.sensitivity import figure_rows

    print_rows(
        "kubb3d uncertainty budget over the unmeasured parameters",
        ("figure", "shipped (95 % interval)", "trials per point", "band, one at a time", "band, global", "driven by"),
        figure_rows(report),
    )


def register(app: typer.Typer) -> None:
    """Add the ``sensitivity`` command to ``app``."""
    app.command("sensitivity")(sensitivity)

"""``kubb3d calibrate``: the simulated players held against real play (:mod:`kubb3d.calibrate`).
Call :func:`register` with the main Typer app.

Exit code 0 when every banded figure is inside its band, 1 otherwise; user mistakes print one
line ``error: …`` and exit 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from kubb3d.cli.processes import workers_for, workers_option
from kubb3d.cli.outputs import force_option, output_option


def calibrate(
    throws: int = typer.Option(400, min=10, max=100_000, help="Throws per preset at 8 m."),
    turns: int = typer.Option(200, min=10, max=100_000, help="Six-baton turns for the elite distribution."),
    distance_throws: int = typer.Option(
        150, min=10, max=100_000, help="Throws per preset at each of 4, 5, 6 and 7 m."
    ),
    inkasts: int = typer.Option(100, min=10, max=100_000, help="Inkasts per preset."),
    flicks: int = typer.Option(60, min=10, max=100_000, help="Kubbuteo flicks per preset."),
    seed: int = typer.Option(7, min=0, help="Seed of every trial (child seeds per trial)."),
    workers: Optional[int] = workers_option(),
    png: Optional[Path] = output_option(
        "--png",
        "Also write a figure: hit rate against distance, six-baton distribution.",
        suffixes=(".png",),
        kind="a PNG picture",
    ),
    markdown: Optional[Path] = output_option(
        "--markdown",
        "Also write the figures as Markdown (docs/calibration.md is made this way).",
        suffixes=(".md",),
        kind="Markdown",
    ),
    force: bool = force_option(),
    sensitivity: Optional[Path] = typer.Option(
        None,
        "--sensitivity",
        help="Quote in the Markdown how far the unmeasured parameters move each figure, from this report "
        "of `kubb3d sensitivity --save` (docs/sensitivity.json).",
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print the report as one JSON document instead of the table."
    ),
) -> None:
    """Measure the skill presets against real play (see :func:`calibrate_help`)."""
    from kubb3d.calibrate import markdown as to_markdown
    from kubb3d.calibrate import run_calibration, write_figure
    from kubb3d.files import check_output

    for out, what in ((png, "--png"), (markdown, "--markdown")):
        if out is not None:
            check_output(out, what, overwrite=force)
    shifts = None
    if sensitivity is not None:
        from kubb3d.sensitivity import read_shifts

        shifts = read_shifts(sensitivity)
    from rich.progress import Progress

    total = 3 * (throws + 4 * distance_throws + inkasts + flicks) + turns
    with Progress(transient=True, disable=as_json or not sys.stderr.isatty()) as bar:
        task = bar.add_task("calibration trials", total=total)
        cal = run_calibration(
            throws=throws,
            turns=turns,
            distance_throws=distance_throws,
            inkasts=inkasts,
            flicks=flicks,
            seed=seed,
            workers=workers_for(workers),
            progress=lambda k: bar.advance(task, k),
        )
    from kubb3d.cli.validate import output_options, write_outputs

    command = (
        f"kubb3d calibrate --throws {throws} --turns {turns} --distance-throws {distance_throws} "
        f"--inkasts {inkasts} --flicks {flicks} --seed {seed}"
    ) + (f" --sensitivity {sensitivity}" if sensitivity is not None else "") + output_options(png, markdown)
    write_outputs(
        cal, png, markdown, command, write_figure, lambda r, c, i: to_markdown(r, c, i, shifts)
    )
    if as_json:
        sys.stdout.write(json.dumps(cal.to_json(), ensure_ascii=False) + "\n")
    else:
        from kubb3d.cli.tables import print_rows

        print_rows("kubb3d player calibration", CALIBRATION_COLUMNS, calibration_rows(cal))
        if cal.curves:  # the hit rate against distance the help promises, as --markdown gives it
            from kubb3d.calibrate import DISTANCES

            typer.echo("")
            print_rows(
                "kubbs felled per baton against the distance from the throwing line (95 % interval)",
                ("preset", *(f"{d:g} m" for d in DISTANCES)),
                distance_rows(cal),
            )
    raise typer.Exit(0 if cal.passed else 1)


def distance_rows(cal) -> list[tuple[str, ...]]:
    """The printed rows of a calibration's hit rate against distance: per preset its name, then
    per distance of :data:`kubb3d.calibrate.DISTANCES` ``value (low–high)``, as docs/calibration.md
    has them (``n = 1: no interval`` for a single throw)."""
    from kubb3d.experiment.stats import interval_text

    return [
        (skill, *(f"{value:.2f} ({interval_text(low, high, 2)})" for _, value, low, high in curve))
        for skill, curve in cal.curves.items()
    ]


CALIBRATION_COLUMNS = ("figure", "value", "spread", "trials", "reference", "in band")


def calibration_rows(cal) -> list[tuple[str, ...]]:
    """The printed table's rows of a :class:`kubb3d.calibrate.Calibration`, one per figure, a cell per
    :data:`CALIBRATION_COLUMNS`: the spread names its kind (95 % interval or quartiles), or says
    there is none (the mean of a single trial); a figure without a reference or band leaves those
    cells empty (omitted where rows print as blocks)."""
    from kubb3d.experiment.stats import interval_text

    return [
        (
            f.label,
            f"{f.value:.3f}",
            interval_text(f.low, f.high, n=f.trials) + ("" if f.low is None else f" ({f.spread})"),
            str(f.trials),
            f.reference,
            "" if f.passed is None else ("yes" if f.passed else "[red]NO[/red]"),
        )
        for f in cal.figures
    ]


def calibrate_help() -> str:
    """The help of ``kubb3d calibrate``, its targets from :mod:`kubb3d.targets` (the one source
    of the figures the calibration table and docs/calibration.md hold the presets against)."""
    from kubb3d.targets import targets_in_words

    return (
        "Measure the skill presets against real play: kubbs felled per baton at 8 m against each "
        f"preset's target ({targets_in_words()}; elite is the rate of competitive players, and "
        "what the presets measure is in docs/calibration.md), the elite six-baton distribution "
        "against the binomial, hit rate against distance, inkast spread and Kubbuteo flicks, each "
        "with its 95 % interval."
    )


def register(app: typer.Typer) -> None:
    """Add the ``calibrate`` command to ``app``."""
    app.command("calibrate", help=calibrate_help())(calibrate)

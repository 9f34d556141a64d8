"""``kubb3d validate``: the physics validation suite (:mod:`kubb3d.validate`). Call
:func:`register` with the main Typer app.

Exit code 0 when every row passes, 1 when some fail; user mistakes print one line ``error: …``
and exit 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from kubb3d.cli.processes import workers_for, workers_option
from kubb3d.cli.outputs import force_option, output_option
from kubb3d.ranges import counted


def write_outputs(report, png: Optional[Path], markdown: Optional[Path], command: str, figure, to_markdown) -> None:
    """Write a report's PNG (``figure(report, path)``) and Markdown (``to_markdown(report,
    command, image)``, the image linked relative to the Markdown file) where asked."""
    from kubb3d.files import atomic_write, write_output

    from kubb3d.cli.outputs import say_wrote

    if png is not None:
        say_wrote(write_output(png, lambda tmp: figure(report, tmp), "--png"))
    if markdown is not None:
        image = None
        if png is not None:
            try:
                image = str(png.resolve().relative_to(markdown.resolve().parent))
            except ValueError:
                image = str(png)
        atomic_write(markdown, to_markdown(report, command, image).encode("utf-8"))
        say_wrote(markdown)


def output_options(png: Optional[Path], markdown: Optional[Path]) -> str:
    """`` --png P --markdown M`` as given (the part of the command a generated page quotes that
    says where its picture came from; docs/images/*.png: tests/test_images.py)."""
    return "".join(f" {what} {path}" for path, what in ((png, "--png"), (markdown, "--markdown")) if path is not None)


THROWS = 2000
""":data:`kubb3d.validate.THROWS`, here so that ``--help`` loads no physics (a test ties them)."""
FLICKS = 100
""":data:`kubb3d.validate.FLICKS` (the same)."""


def validate(
    throws: int = typer.Option(
        THROWS,
        min=10,
        max=100_000,
        help="Seeded elite player throws per time step for the hit-rate and rest rows (the default is enough "
        "for the hit rate's convergence row: its 95 % interval narrower than its tolerance).",
    ),
    quick: bool = typer.Option(
        False, "--quick", help="Only the fast rows (no player throws, no Kubbuteo flicks): a few seconds."
    ),
    seed: int = typer.Option(7, min=0, help="Seed of the player throws and the Kubbuteo flicks."),
    workers: Optional[int] = workers_option("They play the player throws and flicks."),
    png: Optional[Path] = output_option(
        "--png",
        "Also write a figure: rebounds and slides per ground, hit rate against the time step.",
        suffixes=(".png",),
        kind="a PNG picture",
    ),
    markdown: Optional[Path] = output_option(
        "--markdown",
        "Also write the table as Markdown (docs/validation.md is made this way).",
        suffixes=(".md",),
        kind="Markdown",
    ),
    force: bool = force_option(),
    as_json: bool = typer.Option(
        False, "--json", help="Print the report as one JSON document instead of the table."
    ),
) -> None:
    """Check the physics against formulas and measured references: masses and inertia, tipping
    angles, rebounds, slide and roll distances, time to rest, flight range with and without
    drag, tunnelling up to 40 m/s, terrain contact, the hit rate's convergence when the time
    step is halved, Kubbuteo flicks against the step, and bit-identical repeats. One row per
    quantity with its reference's source."""
    from kubb3d.files import check_output
    from kubb3d.validate import markdown as to_markdown
    from kubb3d.validate import run_validation, write_figure

    for out, what in ((png, "--png"), (markdown, "--markdown")):
        if out is not None:
            check_output(out, what, overwrite=force)
    if quick:
        report = run_validation(quick=True)
    else:
        from rich.progress import Progress

        # the step, half of it, a nudged release, 1/480 s, 1/240 s; the flicks at the table's step, half, nudged
        total = throws * 5 + FLICKS * 3 * 3
        with Progress(transient=True, disable=as_json or not sys.stderr.isatty()) as bar:
            task = bar.add_task("player throws and flicks", total=total)
            report = run_validation(
                throws=throws, seed=seed, workers=workers_for(workers), progress=lambda k: bar.advance(task, k)
            )
    command = "kubb3d validate" + (" --quick" if quick else f" --throws {throws} --seed {seed}") + output_options(
        png, markdown
    )
    write_outputs(report, png, markdown, command, write_figure, to_markdown)
    if as_json:
        sys.stdout.write(json.dumps(report.to_json(), ensure_ascii=False) + "\n")
    else:
        from kubb3d.cli.tables import print_rows
        from kubb3d.validate import KIND_TITLES, KINDS, row_cells

        for kind, meaning in KINDS.items():
            rows = [r for r in report.rows if r.kind == kind]
            if not rows:
                continue
            print_rows(
                f"kubb3d physics validation: {KIND_TITLES[kind].lower()} ({meaning})",
                ("group", "quantity", "reference", "source", "expected", "simulated", "tolerance", "pass"),
                [row_cells(r, "[red]NO[/red]") for r in rows],
                head=2,
            )
        failed = sum(not r.passed for r in report.rows)
        typer.echo(f"{len(report.rows) - failed} of {counted(len(report.rows), 'row')} pass")
    raise typer.Exit(0 if report.passed else 1)


def register(app: typer.Typer) -> None:
    """Add the ``validate`` command to ``app``."""
    app.command("validate")(validate)

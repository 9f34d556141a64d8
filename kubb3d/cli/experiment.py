"""``kubb3d experiment …``: run, export, plot and summarise experiments.

Wired into the main app by :func:`register`. User mistakes (bad spec, another spec's results
file, unknown column) become :class:`kubb3d.cli.UserError`: one line, exit code 2.
"""

from __future__ import annotations

from kubb3d.errors import message as error_message

from enum import Enum
from pathlib import Path
from typing import Any, List, Optional

import typer

from kubb3d.cli.processes import MAX_WORKERS, workers_option
from kubb3d.cli.outputs import Output, check, force_option, output_option
from kubb3d.errors import FileSafetyError, UserError
from kubb3d.ranges import expected, span
from kubb3d.ranges import counted
from kubb3d.judge.messages import msg, nmsg



class Backend(str, Enum):
    local = "local"
    serial = "serial"
    dask = "dask"


class Format(str, Enum):
    csv = "csv"
    parquet = "parquet"


def _not_the_input(out: Optional[Path], results: Path) -> None:
    """Refuse an ``--out`` that is the results file being read (``plot --out hits.sqlite``
    replaced the results by the picture)."""
    import os

    if out is not None and out.exists() and results.exists() and os.path.samefile(out, results):
        raise _user_error(f"--out: {out} is the results file being read; give another file name")


def _user_error(msg: str) -> Exception:
    from kubb3d.cli import UserError

    return UserError(msg)


def _comma_list(values: List[str]) -> List[str]:
    """The names of a repeatable option, each given alone or in a comma list (``--by a,b`` is
    ``--by a --by b``), stripped; an empty one is kept as it is for the caller to refuse."""
    return [part.strip() for value in values for part in value.split(",")]


experiment_app = typer.Typer(
    help="Batch experiments: thousands of simulated throws over parameters and seeds.", no_args_is_help=True
)

@experiment_app.command("run")
def run_cmd(
    spec: Path = typer.Argument(
        ...,
        help="Experiment spec (TOML file), or the short name of a shipped spec such as hit-8m (see `kubb3d "
             "experiment list`).",
    ),
    out: Optional[Path] = output_option(
        "--out",
        "Results file (SQLite; default: SPEC-NAME.sqlite in the current folder). Running again with the same "
        "spec resumes it.",
        suffixes=(".sqlite", ".sqlite3", ".db"),
        kind="a results file (SQLite)",
        existing="append",
        aliases=("-o",),
    ),
    force: bool = force_option("Accepted for every writing command; a results file is resumed, never replaced."),
    workers: Optional[int] = workers_option("With --backend dask: the size of a Dask LocalCluster."),
    backend: Backend = typer.Option(
        Backend.local, help="local processes, serial (this process) or a dask cluster."
    ),
    scheduler: Optional[str] = typer.Option(
        None, help="Dask scheduler address, e.g. tcp://10.0.0.5:8786 (default: a LocalCluster)."
    ),
    min_workers: int = typer.Option(
        1,
        min=1,
        help="With --scheduler: wait for this many Dask workers before the first trial (up to Dask's connect "
             "timeout, 30 s unless DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT is set).",
    ),
    max_trials: Optional[int] = typer.Option(
        None,
        min=0,
        help="Run at most N more trials in this call, not N in all: on resume the trials the results file "
             "holds already do not count (a file with 10 stored and --max-trials 5 ends with at most 15). They "
             "are taken from the trials still to run, spread over the grid (a stride through it set by the "
             "spec's seed, every point once before any twice), not the grid's first points; repeat the command "
             "to run the next part. 0 runs none.",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    as_json: bool = typer.Option(
        False, "--json", help="Print what the run did as one JSON document (no progress bar)."
    ),
    mix_versions: bool = typer.Option(
        False,
        "--mix-versions",
        help="Add rows to a results file whose rows another kubb3d, PyBullet, numpy or Python made (refused "
             "otherwise); the mix is recorded in the file.",
    ),
) -> None:
    """Run every trial of SPEC not yet in RESULTS, in parallel, storing rows as they finish.

    With --backend dask --scheduler, the client, scheduler and every worker must have the same kubb3d,
    PyBullet, numpy and Python (checked before the first trial; docs/cluster.md). A failure of the cluster
    stops the run with exit 1 and stores nothing for the trials it had: run the same command to resume.
    """
    from kubb3d.experiment import ClusterFailed, SpecError, StoreError, load_spec, run
    from kubb3d.experiment.runner import check_size
    from kubb3d.library import resolve_experiment

    spec = resolve_experiment(spec)
    if out is None:
        out = Path(f"{spec.stem}.sqlite")
    if scheduler and backend is not Backend.dask:
        raise _user_error(msg("--scheduler needs --backend dask"))
    if workers is not None and workers > MAX_WORKERS:  # a local Dask cluster of 100000 processes hung
        raise _user_error(expected("--workers", span(1, MAX_WORKERS), workers))
    if workers is not None and backend is Backend.serial:
        raise _user_error(msg("--workers does not apply to --backend serial (one trial after another in this process)"))
    if min_workers != 1 and not scheduler:
        raise _user_error(msg(
            "--min-workers applies only with --scheduler (use --workers for the size of a local run)"
        ))
    if workers is not None and scheduler:
        raise _user_error(msg(
            "--workers does not apply with --scheduler (the cluster's workers run the trials: start as many as "
            "you want with `dask worker --nworkers N`)"
        ))
    if backend is Backend.dask:
        import importlib.util

        if importlib.util.find_spec("dask") is None or importlib.util.find_spec("distributed") is None:
            raise _user_error(msg("--backend dask needs Dask: pip install 'kubb3d[dask]'"))
        import logging

        import distributed  # noqa: F401  (sets its loggers' levels from Dask's configuration)

        # a lost scheduler or worker is reported in one line (ClusterFailed), not by Dask's
        # client logging its tracebacks (its own loggers, e.g. distributed.client, have levels)
        for name in ["distributed", *logging.root.manager.loggerDict]:
            if name == "distributed" or name.startswith("distributed."):
                logging.getLogger(name).setLevel(logging.CRITICAL)
    try:
        loaded = load_spec(spec)
        check_size(loaded, max_trials)
    except (SpecError, ValueError) as exc:
        raise _user_error(error_message(exc)) from None
    import signal

    def on_term(signum, frame):  # SIGTERM: stop like Ctrl-C (workers stopped, message, resumable)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    from kubb3d.files import FileSafetyError, check_output

    try:  # before the banner: a refused --out is the only line
        check_output(out, "--out", overwrite=True)
    except FileSafetyError as exc:
        raise _user_error(error_message(exc)) from None
    if out.exists() and out.stat().st_size > 0:
        with open(out, "rb") as fh:
            if fh.read(16) != b"SQLite format 3\x00":
                raise _user_error(
                    f"--out: {out} exists and is not a kubb3d results file (SQLite); give another file name"
                )
    def banner() -> None:  # once the results file is accepted: a refusal is the only line
        typer.echo(
            f"{loaded.spec.title}: {counted(loaded.n_points, 'grid point')} × {loaded.spec.trials_per_point} = "
            f"{counted(loaded.n_trials, 'trial')} "
            f"→ {out}",
            err=True,
        )

    try:
        first_error: list[str] = []

        def note(rows: list[dict]) -> None:
            if not first_error:
                first_error.extend(str(r.get("error")) for r in rows[:1] if not r.get("ok"))

        report = run(
            loaded,
            out,
            workers=workers,
            backend=backend.value,
            scheduler=scheduler,
            progress=not (quiet or as_json),
            max_trials=max_trials,
            on_rows=note,
            mix_versions=mix_versions,
            min_workers=min_workers,
            on_start=banner,
        )
    except StoreError as exc:
        raise _user_error(error_message(exc)) from None
    except ClusterFailed as exc:  # rows of the trials that finished are kept
        from kubb3d.experiment import open_results

        with open_results(out) as store:
            n, _ = store.count()
        message = (
            f"{exc}; {n} of {counted(loaded.n_trials, 'trial')} stored in {out}, the rest are left: run the same "
            "command to "
            "resume"
        )
        if as_json:
            import json

            typer.echo(json.dumps({"error": message, "stored": n, "total": loaded.n_trials}, ensure_ascii=False))
        typer.echo(f"error: {message}", err=True)
        raise typer.Exit(1) from None
    except (RuntimeError, ValueError) as exc:  # an unreachable Dask scheduler, too many trials
        raise _user_error(error_message(exc)) from None
    except KeyboardInterrupt:
        from kubb3d.experiment import open_results

        try:  # (an interrupt while the results file was being made leaves none to count)
            with open_results(out) as store:
                n, _ = store.count()
        except StoreError:
            n = 0
        typer.echo(
            f"interrupted: {n} of {counted(loaded.n_trials, 'trial')} stored in {out}; run the same command to resume",
            err=True,
        )
        raise typer.Exit(130) from None
    done = report.skipped + report.ran
    per_worker = report.rate / max(1, min(report.workers, max(report.ran, 1)))
    if report.ran:  # (stderr: stdout stays the summary line or the JSON document)
        from kubb3d.cli.outputs import say_wrote

        say_wrote(out)
    if as_json:
        import json

        typer.echo(
            json.dumps(
                {
                    "spec": str(spec),
                    "title": loaded.spec.title,
                    "results": str(out),
                    "total": report.total,
                    "stored": done,
                    "skipped": report.skipped,
                    "ran": report.ran,
                    "failed": report.failed,
                    "seconds": report.seconds,
                    "trials_per_s": report.rate,
                    "workers": report.workers,
                    "threads": report.threads,
                    "backend": report.backend,
                    "versions": report.versions,
                }
            )
        )
    elif not report.ran:  # no rate of nothing: say why nothing ran
        typer.echo(
            f"nothing left to run: all {counted(report.total, 'trial')} are already stored in {out}"
            if done >= report.total
            else f"no trial run (--max-trials {max_trials}); {done}/{report.total} stored in {out}"
        )
    else:
        typer.echo(
            f"{counted(report.ran, 'trial')} run ({report.failed} failed) in {report.seconds:.1f} s: {report.rate:.2f} "
            f"trials/s, {per_worker:.2f} per worker ({counted(report.workers, 'worker')}, "
            f"{counted(report.threads, 'thread')}); {done}/{report.total} stored in {out}"
            + (f" ({report.skipped} {'was' if report.skipped == 1 else 'were'} already there)"
               if report.skipped else "")
        )
    if report.ran and report.failed == report.ran:
        # not a silent success: every trial of this call failed (exit 1, the rows are kept)
        typer.echo(
            f"error: {'the' if report.ran == 1 else 'all'} {counted(report.ran, 'trial')} failed; the first: "
            f"{' '.join((first_error or ['?'])[0].split())[:300]}",
            err=True,
        )
        raise typer.Exit(1)

@experiment_app.command("list")
def list_cmd(
    as_json: bool = typer.Option(
        False, "--json", help="Print a JSON list of {name, title, measures, trials, path}."
    ),
) -> None:
    """List the shipped experiment specs: short name (usable as `kubb3d experiment run NAME`), trials and title."""
    import json

    from kubb3d.experiment import load_spec
    from kubb3d.library import experiment_files

    rows: list[dict[str, Any]] = []
    for path in experiment_files():
        loaded = load_spec(path)
        rows.append(
            {
                "name": path.stem,
                "title": loaded.spec.title,
                "measures": list(loaded.spec.measures),
                "trials": loaded.n_trials,
                "path": str(path),
            }
        )
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        typer.echo(f"{r['name']:<{width}}  {r['trials']:>6} {'trial ' if r['trials'] == 1 else 'trials'}  {r['title']}")

@experiment_app.command("fields")
def fields_cmd() -> None:
    """Print the spec reference: every field of every table with type, default, unit and
    meaning, the factor and draw forms, and the results columns of each measure
    (docs/experiments.md is this text)."""
    from kubb3d.experiment.fields import reference_markdown

    typer.echo(reference_markdown())

@experiment_app.command("export")
def export_cmd(
    results: Path = typer.Argument(..., help="Results file (SQLite)."),
    fmt: Format = typer.Option(Format.csv, "--format", help="csv or parquet."),
    out: Optional[Path] = output_option(
        "--out",
        "Output file (default: RESULTS with the format's suffix).",
        suffixes=(".csv", ".parquet"),
        kind="CSV or Parquet",
        aliases=("-o",),
    ),
    force: bool = force_option(),
    timing: bool = typer.Option(
        True,
        "--timing/--no-timing",
        help="Keep the wall_s column (--no-timing: exports of identical runs are identical).",
    ),
    meta: bool = typer.Option(
        False,
        "--meta",
        help="With CSV: also write the results file's provenance (spec with its seed, versions) to OUT.meta.json "
             "beside it. A Parquet file always carries it in its schema metadata.",
    ),
) -> None:
    """Write the results as one row per trial (CSV or Parquet), with their provenance: the spec,
    its seed and the versions that made them (Parquet: schema metadata; CSV: --meta)."""
    from kubb3d.experiment import StoreError
    from kubb3d.experiment.export import export

    _not_the_input(out, results)
    if out is not None and out.suffix.lower() != "." + fmt.value:
        raise _user_error(f"--out: {out} does not end in .{fmt.value}, the suffix of --format {fmt.value}")
    if out is None:  # the default name, checked as a given one is
        try:
            check(results.with_suffix("." + fmt.value), Output("--out", ("." + fmt.value,), fmt.value), force=force)
        except (UserError, FileSafetyError) as exc:
            raise _user_error(error_message(exc)) from None

    try:
        path = export(results, fmt.value, out, timing=timing, meta=meta)
    except (StoreError, RuntimeError, ValueError) as exc:
        raise _user_error(error_message(exc)) from None
    typer.echo(f"wrote {path}")
    if meta and fmt is Format.csv:
        from kubb3d.experiment.export import meta_path

        typer.echo(f"wrote {meta_path(path)}")

@experiment_app.command("plot")
def plot_cmd(
    results: Path = typer.Argument(..., help="Results file (SQLite)."),
    x: str = typer.Option(..., help="Column on the horizontal axis, e.g. speed."),
    measure: str = typer.Option("hit", help="Column (hit, n_felled …) or column=value (status_L=leaning)."),
    y: Optional[str] = typer.Option(None, help="Second column: draw a heatmap, e.g. elevation."),
    group: Optional[str] = typer.Option(None, help="One curve per value of this column (curves only)."),
    bins: int = typer.Option(12, min=2, max=1000, help="Bins for continuous columns."),
    out: Optional[Path] = output_option(
        "--out", "PNG file (default: RESULTS-<measure>-<x>[-<y>].png).", suffixes=(".png",), kind="a PNG picture",
        aliases=("-o",),
    ),
    force: bool = force_option(),
    where: List[str] = typer.Option(
        [], "--where", help="Keep only trials with column=value (repeatable), e.g. --where spin=1.5."
    ),
) -> None:
    """Plot a measure: a heatmap over --x and --y, or curves with 95 % Wilson intervals.
    Grid factors on no axis and in no --where are pooled over (a note says which). A column is
    named in full, without its unit (speed for speed_mps) or by a start only it has (sk for skill)."""
    from kubb3d.experiment import StoreError, open_results
    from kubb3d.experiment.plot import plot
    from kubb3d.experiment.export import columns
    from kubb3d.experiment.stats import match_column

    _not_the_input(out, results)
    try:
        with open_results(results) as store:
            rows = list(store.rows())
            _some_trials(results, rows)
            title = _title(store)
            cols = columns(rows)
            used = {match_column(c, cols) for c in (x, y, group) if c} | {
                match_column(w.split("=", 1)[0].strip(), cols) for w in where if "=" in w
            }
            pooled = _pooled(store, used)
            grid = _grid(store)
        rows = _where(rows, where)
    except StoreError as exc:
        raise _user_error(error_message(exc)) from None
    except ValueError as exc:
        raise _user_error(error_message(exc)) from None
    if not rows:
        raise _user_error(msg("no trial matches --where"))
    if out is None:

        def safe(text: str) -> str:  # a column name never makes a path (no / or ..)
            return "".join(ch if ch.isalnum() or ch == "_" else "-" for ch in text)

        out = results.with_name(f"{results.stem}-{safe(measure)}-{safe(x)}" + (f"-{safe(y)}" if y else "") + ".png")
        try:  # the default name, checked as a given one is
            check(out, Output("--out", (".png",), "a PNG picture"), force=force)
        except (UserError, FileSafetyError) as exc:
            raise _user_error(error_message(exc)) from None
    try:
        path = plot(rows, out, x=x, y=y, measure=measure, group_by=group, bins=bins, title=title, grid_values=grid)
    except ValueError as exc:
        raise _user_error(error_message(exc)) from None
    if pooled:  # after the plot: an error stays the only line
        typer.echo(
            f"note: pooled over the factors {', '.join(pooled)} (use --group or --where to separate them)", err=True
        )
    typer.echo(f"wrote {path}")

def _some_trials(results: Path, rows: list) -> None:
    """ValueError naming the file when it holds no trial yet (``run --max-trials 0``, or a run
    stopped before its first trial finished): ``summary`` and ``plot`` once answered "no column
    'speed' (columns: )"."""
    if not rows:
        raise ValueError(
            f"{results}: no trial stored yet; `kubb3d experiment run SPEC --out {results}` runs them"
        )
    if not any(r.get("ok") for r in rows):  # once: "no column 'hit' (columns: elevation_deg)"
        first = " ".join(str(rows[0].get("error") or "?").split())
        raise ValueError(nmsg(
            "{path}: its one trial failed, so no measure has a value; it failed with: {error} (the error "
            "column of `kubb3d experiment export {path}` gives it)",
            "{path}: all {n} trials failed, so no measure has a value; the first failed with: {error} (the error "
            "column of `kubb3d experiment export {path}` gives each trial's)",
            len(rows),
            path=str(results), n=len(rows), error=first[:200] + ("…" if len(first) > 200 else ""),
        ))


@experiment_app.command("summary")
def summary_cmd(
    results: Path = typer.Argument(..., help="Results file (SQLite)."),
    by: List[str] = typer.Option(
        [], "--by", help="Group by this column (repeatable, or a comma list), e.g. --by skill or --by ground,spin_rps; "
                         "a unique start of a column's name will do (--by sk)."
    ),
    measure: str = typer.Option(
        "hit", help="Column or column=value, as for plot; a text column gives the rate of each of its values."
    ),
    where: List[str] = typer.Option(
        [], "--where", help="Keep only trials with column=value (repeatable), e.g. --where skill=club."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the groups as one JSON document."),
) -> None:
    """Print the measure per group with 95 % intervals (Wilson for rates, Student's t for means;
    a group of one value has none). A trial that finished without a value (a draw has no winner,
    no match_opener_won) counts in every rate's denominator as a "no", for a column (hit) and for
    column=value alike (column=null asks for the rate of no value), and is left out of a mean;
    the "no value" column says how many (--where match_draw=0 keeps decided matches only). Grid
    factors in no --by and no --where are pooled over (a note says which). A column is named in
    full, without its unit (speed for speed_mps) or by a start only it has (sk for skill)."""
    from rich.console import Console
    from rich.table import Table

    from kubb3d.experiment import StoreError, open_results
    from kubb3d.experiment.export import columns
    from kubb3d.experiment.stats import group as group_rows
    from kubb3d.experiment.stats import (
        KNOWN_VALUES,
        design_keys,
        floor_of,
        match_column,
        measure_column,
        measure_fn,
        no_interval,
        text_values,
    )

    try:
        with open_results(results) as store:
            rows = list(store.rows())
            title = _title(store)
        _some_trials(results, rows)
    except StoreError as exc:
        raise _user_error(error_message(exc)) from None
    except ValueError as exc:
        raise _user_error(error_message(exc)) from None
    cols = columns(rows)
    try:
        keys = [match_column(b, cols) for b in _comma_list(by)]
        label, fn, binary = measure_fn(measure, cols)
        column = measure_column(measure, cols)
        narrowed = {match_column(w.split("=", 1)[0].strip(), cols) for w in where if "=" in w}
        used = set(keys) | narrowed
        rows = _where(rows, where)
    except ValueError as exc:
        raise _user_error(error_message(exc)) from None
    if not rows:
        raise _user_error(msg("no trial matches --where"))
    try:
        with open_results(results) as store:
            pooled = _pooled(store, used)
            grid = _grid(store)
    except StoreError:
        pooled, grid = [], {}
    # every arm of the grid and every side a winner can be gets its row, at zero if need be
    expected = design_keys(keys, grid, rows, narrowed)
    texts = None if binary else text_values(rows, fn, KNOWN_VALUES.get(label, ()))

    def missing(r: dict) -> bool:  # a finished trial without a value (a draw's winner)
        return r.get(column) is None

    try:
        if texts is not None:
            # a text column (a winner, a first contact …): the rate of each of its values
            from dataclasses import replace as _replace

            cells = []
            for value in texts:
                _, fv, _ = measure_fn(f"{label}={value}", cols)
                cells += [_replace(c, key=(*c.key, value))
                          for c in group_rows(rows, keys, fv, True, expected=expected, missing=missing)]
            keys = [*keys, label]
            label = f"{label}: rate of each value"
        else:
            cells = group_rows(rows, keys, fn, True if binary else None, floor=floor_of(label), expected=expected,
                               missing=missing)
    except ValueError as exc:  # a value of the wrong kind in a hand-edited file
        raise _user_error(error_message(exc)) from None
    if pooled and not as_json:
        typer.echo(
            f"note: pooled over the factors {', '.join(pooled)} (use --by or --where to separate them)", err=True
        )
    failed = sum(1 for r in rows if not r.get("ok"))
    rate = bool(cells) and all(c.k is not None for c in cells)
    no_value = sum(1 for r in rows if r.get("ok") and missing(r))
    if as_json:
        import json
        import math

        def num(x):
            return None if isinstance(x, float) and not math.isfinite(x) else x

        doc = {
            "title": title,
            "measure": label,
            "trials": len(rows),
            "failed": failed,
            # finished trials without a value: in a rate's n as a "no", left out of a mean's
            "no_value": no_value,
            "by": keys,
            "where": list(where),
            "pooled_over": pooled,
            "statistic": "rate" if rate else "mean",
            # a mean's: Student's t (null lo and hi for a group of one value: no interval)
            "interval": "wilson 95 %" if rate else "student t 95 %",
            "groups": [
                {
                    "key": dict(zip(keys, c.key)),
                    "n": c.n,
                    "k": c.k,
                    "no_value": c.no_value,
                    "value": num(c.value),
                    "lo": num(c.lo),
                    "hi": num(c.hi),
                }
                for c in cells
            ],
        }
        typer.echo(json.dumps(doc))
        return
    table = Table(
        title=f"{label} ({counted(len(rows), 'trial')}, {failed} failed"
        + (f", {no_value} without a value)" if no_value else ")"),
        caption=None if not no_value else (
            "no value: counted in n as a no" if rate else "no value: left out of n and the mean"
        ),
    )
    for k in keys:
        table.add_column(k)
    table.add_column("n", justify="right")
    if rate:
        table.add_column("k", justify="right")
    if no_value:
        table.add_column("no value", justify="right")
    table.add_column("rate" if rate else "mean", justify="right")
    table.add_column("95 % interval", justify="right")
    for c in cells:
        vals = [str(v) if not isinstance(v, float) else f"{v:g}" for v in c.key]
        extra = ([str(c.k)] if rate else []) + ([str(c.no_value)] if no_value else [])
        span = no_interval(c.n) if c.lo is None or c.hi is None else f"{c.lo:.3f} – {c.hi:.3f}"
        value = "–" if not c.n else f"{c.value:.3f}"  # an arm no finished trial reached
        table.add_row(*vals, str(c.n), *extra, value, span)
    con = Console(width=160)
    con.print(f"[bold]{title}[/]")
    con.print(table)


@experiment_app.command("studies")
def studies_cmd(
    sources: List[Path] = typer.Argument(
        ...,
        help="Results files of the shipped studies (opening-advantage, first-baton; partial runs too), or one "
        "studies JSON document (docs/studies.json) to render as Markdown.",
    ),
    sensitivity: Optional[Path] = typer.Option(
        None,
        "--sensitivity",
        help="docs/sensitivity.json: adds the physics band to the summary; with a studies JSON document, "
        "replaces its physics section (no results files needed).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON (docs/studies.json)."),
) -> None:
    """Summarise the research studies: with results files, their figures and 95 % intervals (--json:
    the JSON document docs/studies.json); with that JSON document, the page docs/studies.md.

    After a physics change regenerates docs/sensitivity.json, `kubb3d experiment studies
    docs/studies.json --sensitivity docs/sensitivity.json --json > studies.json` prints the document
    with its physics section refreshed; move studies.json over docs/studies.json (a shell redirect
    into the file it reads would empty it first)."""
    import json

    from kubb3d.experiment import StoreError
    from kubb3d.errors import StudyError
    from kubb3d.experiment.studies import physics_band, render, summarise

    band = None
    if sensitivity is not None:
        try:
            band = json.loads(sensitivity.read_text(encoding="utf-8"))
            if not isinstance(band, dict) or not isinstance(band.get("figures"), list):
                raise ValueError("no list of figures")
            physics = physics_band(band)
        except (OSError, ValueError) as exc:
            raise _user_error(f"--sensitivity: {sensitivity}: not a sensitivity document ({exc})") from None
        except (KeyError, TypeError) as exc:
            raise _user_error(f"--sensitivity: {sensitivity}: not a sensitivity document (no {exc})") from None
    sensitivity_words = []
    if sensitivity is not None:
        sensitivity_words = [
            "--sensitivity", sensitivity.as_posix() if not sensitivity.is_absolute() else sensitivity.name
        ]
    if len(sources) == 1 and sources[0].suffix == ".json":
        try:
            doc = json.loads(sources[0].read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise _user_error(f"{sources[0]}: cannot read a studies JSON document ({exc})") from None
        words = ["kubb3d experiment studies", sources[0].as_posix(), *sensitivity_words]
        if band is not None and isinstance(doc, dict):
            doc["physics"] = physics
        try:
            page = render(doc, " ".join(words), source=sources[0].as_posix())
        except StudyError as exc:
            raise _user_error(f"{sources[0]}: {exc}") from None
        if as_json:
            typer.echo(json.dumps(doc, indent=1, ensure_ascii=False))
        else:
            typer.echo(page, nl=False)
        return
    try:
        doc = summarise(sources, band)
    except (StoreError, StudyError) as exc:
        raise _user_error(error_message(exc)) from None
    # the command as docs quote it: results files by name (no folders of this machine)
    words = ["kubb3d experiment studies", *(p.name for p in sources), *sensitivity_words]
    doc["command"] = " ".join(words + ["--json"])
    if as_json:
        typer.echo(json.dumps(doc, indent=1, ensure_ascii=False))
    else:
        typer.echo(render(doc, " ".join(words)), nl=False)


def _where(rows: list[dict], conditions: list[str]) -> list[dict]:
    """The rows matching every ``column=value`` (numbers compared as numbers).

    Raises:
        ValueError: a condition without ``=`` or naming no column.
    """
    from kubb3d.experiment.export import columns
    from kubb3d.experiment.stats import match_column

    cols = columns(rows)
    for cond in conditions:
        if "=" not in cond:
            raise ValueError(f"--where needs column=value, got {cond!r}")
        name, want = (part.strip() for part in cond.split("=", 1))
        col = match_column(name, cols)

        def same(v, want=want) -> bool:
            if isinstance(v, bool):
                return v == (want.lower() in ("true", "1", "yes"))
            if isinstance(v, (int, float)):
                try:
                    return float(v) == float(want)
                except ValueError:
                    return False
            return ("null" if v is None else str(v)) == want

        kept = [r for r in rows if same(r.get(col))]
        if rows and not kept:  # say what there is: the values of that column in the trials left
            raise ValueError(msg("no trial matches --where {condition}; {column} has {values}", condition=cond,
                                 column=col, values=_values(rows, col)))
        rows = kept
    return rows


def _values(rows: list[dict], col: str, most: int = 12) -> str:
    """The values ``col`` takes in ``rows``, as ``--where`` takes them back: sorted, numbers as
    numbers (``9.6, 10.4``), at most ``most`` of them; more numbers as their range, more words
    cut off after ``most`` with how many there are."""
    values = {r.get(col) for r in rows}
    numbers = sorted(v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool))
    words = sorted(("null" if v is None else str(v)) for v in values if v not in numbers or isinstance(v, bool))
    shown = [f"{v:g}" if isinstance(v, float) else str(v) for v in numbers] + words
    if len(shown) > most and not words:  # a drawn column (azimuth): its range
        return f"{len(numbers)} values from {numbers[0]:g} to {numbers[-1]:g}"
    if len(shown) > most:
        return ", ".join(shown[:most]) + f", … ({len(shown)} values)"
    return ", ".join(shown)


def _pooled(store, used: set[str]) -> list[str]:
    """The spec's grid factors that are neither grouped, on an axis nor filtered: the rates
    shown pool over them."""
    from kubb3d.experiment.spec import from_json

    try:
        loaded = from_json(store.meta().get("spec_json") or "")
    except (ValueError, KeyError, TypeError):
        return []
    return [f.name for f in loaded.factors if f.name not in used and len(f.values) > 1]


def _grid(store) -> dict[str, tuple]:
    """The spec's grid factors, column → values (empty for a file without its spec)."""
    from kubb3d.experiment.spec import from_json

    try:
        loaded = from_json(store.meta().get("spec_json") or "")
    except (ValueError, KeyError, TypeError):
        return {}
    return {f.name: tuple(f.values) for f in loaded.factors}


def _title(store) -> str:
    import json

    try:
        return json.loads(store.meta().get("spec_json") or "{}")["spec"]["title"]
    except (KeyError, ValueError, TypeError):
        return "experiment"


def register(app: typer.Typer) -> None:
    """Add the ``experiment`` sub-app (run, list, fields, export, plot, summary) to the main ``kubb3d`` app."""
    app.add_typer(
        experiment_app, name="experiment", help="Batch experiments: run specs in parallel, resume, export, plot."
    )


def main() -> None:
    """Run the ``experiment`` sub-app on its own (``python -m kubb3d.cli.experiment run …``),
    with the main app's error handling: a :class:`kubb3d.cli.UserError` is one line, exit 2."""
    import sys

    from kubb3d.cli import UserError

    try:
        experiment_app(prog_name="kubb3d experiment")
    except UserError as exc:
        from kubb3d.cli.lang import error_line

        typer.echo(error_line(exc), err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()

"""``kubb3d audit``: play seeded matches and check the referee's invariants after every action
(:mod:`kubb3d.audit`). Call :func:`register` with the main Typer app.

User mistakes print one line ``error: …`` on stderr and exit with code 2; a finished audit
exits 0 without violations and 1 with some.
"""

from __future__ import annotations

from kubb3d.errors import message as error_message

import json
import os
import sys
from pathlib import Path
from typing import NoReturn, Optional

import typer

from kubb3d.cli.processes import workers_for, workers_option
from kubb3d.cli.outputs import Output, check, force_option, output_option
from kubb3d.errors import UserError
from kubb3d.cli.referee import referee_option, referee_options
from kubb3d.ranges import counted


def _fail(msg: str) -> NoReturn:
    from kubb3d.cli import _json_error

    from kubb3d.cli.lang import error_line

    typer.echo(error_line(msg), err=True)
    _json_error(msg)
    raise typer.Exit(2)


rules_app = typer.Typer(
    help="The rulesets and the referee's options for what the rule books leave open.", no_args_is_help=True
)

@rules_app.command("show")
def rules_show(
    ruleset: str = typer.Argument(..., help="dm, wikinger or kubbuteo."),
    as_json: bool = typer.Option(False, "--json", help="Print the options as JSON."),
) -> None:
    """List a ruleset's referee options (decisions the rule books leave open) with their defaults
    (an option the ruleset does not read says so) and where each is set: --option NAME=VALUE on
    match, audit and play or an experiment file's options table take every option; judge and a
    scenario's options table take those the judge reads."""
    from kubb3d.judge.options import OPTIONS
    from kubb3d.cli.referee import ruleset_named
    from kubb3d.rules import get_ruleset

    try:
        ruleset = ruleset_named(ruleset)
    except ValueError as exc:
        _fail(error_message(exc))
    rs = get_ruleset(ruleset)
    rows = [
        {
            "option": o.name,
            "default": o.defaults[ruleset],
            "choices": None if o.choices is None else list(o.choices),
            "question": o.question,
            "concerns": o.concerns,
            "where": o.where,
            "set_by": o.set_by,
            "accepts": o.accepts,
            "set_on": o.set_on,
            "variants": [{"value": value, "source": source} for value, source in o.variants.items()],
            "read": ruleset not in o.not_read,
            "not_read": o.not_read.get(ruleset),
        }
        for o in OPTIONS
    ]
    if as_json:
        sys.stdout.write(
            json.dumps(
                {"ruleset": ruleset, "pitch_m": [rs.pitch.length, rs.pitch.width], "options": rows},
                ensure_ascii=False,
            )
            + "\n"
        )
        return
    # one block per option, not a seven-column table: at 80 columns the table squeezed the
    # sentences into columns a word wide (330 lines for dm)
    from rich.console import Console
    from rich.padding import Padding
    from rich.text import Text

    console = Console(highlight=False)
    console.print(
        Text(
            f"referee options of ruleset {ruleset} (decisions the rule books leave open; docs/rules.md); set one "
            "with --option NAME=VALUE or an [options] table where its 'set on' line says; --json also names "
            "the code that applies each"
        )
    )
    for r in rows:
        choices = "a number" if r["choices"] is None and not r["accepts"] else r["accepts"]
        if r["choices"] is not None:
            choices = " | ".join(option_word(c) for c in r["choices"])
        console.print()
        console.print(
            Text.assemble((r["option"], "bold"), f"  default: {option_word(r['default'])}  (choices: {choices})")
        )
        if r["not_read"]:  # its value changes nothing under this ruleset (docs/rules.md says so too)
            console.print(Padding(Text(f"not read under {ruleset}: {r['not_read']}"), (0, 0, 0, 2), expand=False))
        for label, key in (("open", "question"), ("concerns", "concerns"), ("set on", "set_on")):
            console.print(Padding(Text(f"{label}: {r[key]}"), (0, 0, 0, 2), expand=False))
        for v in r["variants"]:
            line = f"variant {option_word(v['value'])}: {v['source']}"
            console.print(Padding(Text(line), (0, 0, 0, 2), expand=False))


def option_word(value: object) -> str:
    """A referee option's value as a referee reads it and ``--option NAME=VALUE`` takes it back:
    ``yes``/``no`` for a yes-or-no option (not Python's ``True``/``False``), ``none``, ``30``
    for the number 30.0, a choice as it is."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)

def audit(
    ruleset: str = typer.Option("dm", help="Ruleset: dm, wikinger or kubbuteo."),
    matches: int = typer.Option(20, help="Number of seeded matches (seeds --first-seed, --first-seed + 1, …)."),
    players: Optional[str] = typer.Option(
        None, help="Skill of each side, e.g. 'elite,club' (novice, club, elite)."
    ),
    workers: Optional[int] = workers_option(),
    first_seed: int = typer.Option(0, min=0, help="Seed of the first match."),
    replay_dir: Path = output_option(
        "--replay-dir",
        "Folder for the replay files of matches with a violation (for `kubb3d view`).",
        folder_files=("*.jsonl",),
        default=Path("kubb3d-audit"),
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as one JSON document."),
    log: Optional[Path] = output_option(
        "--log",
        "Append each finished match's report to this file as one JSON line (a long run can be read while it "
        "goes on).",
        suffixes=(".jsonl",),
        kind="JSON lines",
        existing="append",
    ),
    force: bool = force_option(),
    option: Optional[list[str]] = referee_option(),
) -> None:
    """Play seeded matches and check after every action that the referee ruled right."""
    from kubb3d.audit import CHECKS, run_audit
    from kubb3d.cli.match import parse_players
    from kubb3d.ranges import expected, span
    from kubb3d.cli.referee import ruleset_named

    options = referee_options(option)
    try:
        ruleset = ruleset_named(ruleset)
    except ValueError as exc:
        _fail(error_message(exc))
    if not 1 <= matches <= 100_000:
        _fail(expected("--matches", span(1, 100_000), matches))
    workers = workers_for(workers, matches)
    try:
        skills, team = parse_players(players, ruleset)
    except ValueError as exc:
        _fail(error_message(exc))
    if team is not None:
        _fail("--players takes skills only here (no team sizes)")
    from kubb3d.files import ExclusiveFile, FileSafetyError, check_output

    if os.path.lexists(replay_dir) and (replay_dir.is_symlink() or not replay_dir.is_dir()):
        _fail(f"--replay-dir {replay_dir} exists and is not a folder (a symbolic link is not followed)")
    if not os.path.lexists(replay_dir) and not replay_dir.parent.is_dir():
        _fail(f"--replay-dir: the folder {replay_dir.parent} does not exist (it is not created)")
    try:  # the default folder (not checked as the line was read): replays of the same seeds would be replaced
        check(replay_dir, Output("--replay-dir", (), "", folder_files=("*.jsonl",)), force=force)
    except UserError as exc:
        _fail(error_message(exc))

    log_fh = None
    if log is not None:
        # appended under a lock; never through a symbolic link, never a FIFO (it would block)
        try:
            check_output(log, "--log", overwrite=True)
            log_fh = ExclusiveFile(log, create=True)
        except FileSafetyError as exc:
            _fail(error_message(exc))

    def write_log(r) -> None:
        if log_fh is not None:
            log_fh.write(json.dumps(r.to_dict(), ensure_ascii=False) + "\n")

    from functools import partial

    audit = partial(
        run_audit,
        ruleset,
        matches,
        players=skills,
        workers=workers,
        first_seed=first_seed,
        replay_dir=replay_dir,
        options=options,
    )
    if as_json:
        rep = audit(on_match=write_log)
        _say_written(rep, log)
        sys.stdout.write(json.dumps(rep.to_dict(), ensure_ascii=False) + "\n")
        raise typer.Exit(1 if rep.violations else 0)

    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.table import Table

    console = Console(highlight=False)
    found = [0]
    with Progress(
        TextColumn("[bold]audit {task.fields[ruleset]}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("violations {task.fields[bad]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as prog:
        task = prog.add_task("audit", total=matches, ruleset=ruleset, bad=0)

        def on_match(r) -> None:
            write_log(r)
            found[0] += len(r.violations)
            prog.update(task, advance=1, bad=found[0])

        rep = audit(on_match=on_match)
    played = counted(rep.matches, f"{ruleset} match", f"{ruleset} matches")
    t = Table(title=f"audit of {played} (seeds {first_seed}–{first_seed + matches - 1})")
    t.add_column("check")
    t.add_column("what must hold")
    t.add_column("checked", justify="right")
    t.add_column("violations", justify="right")
    for k, desc in CHECKS.items():
        n = rep.count(k)
        t.add_row(k, desc, str(rep.checked.get(k, 0)), f"[red]{n}[/red]" if n else "0")
    console.print(t)
    pct = 100.0 * rep.felled_standing / rep.felled if rep.felled else 0.0
    console.print(
        f"kubbs counted felled by a throw: {rep.felled}; of them ruled standing at rest (turned over and back up, "
        f"DM §5): "
        f"{rep.felled_standing} ({pct:.1f} %)"
    )
    if rep.wall_s:
        slow = max(sorted(rep.wall_s), key=rep.wall_s.__getitem__)
        console.print(
            f"wall time per match (on {counted(workers, 'worker')}, load average {os.getloadavg()[0]:.1f} at the end): "
            "mean "
            f"{sum(rep.wall_s.values()) / len(rep.wall_s):.1f} s, slowest seed {slow} ({rep.wall_s[slow]:.1f} s)"
        )
    for v in sorted(rep.violations, key=lambda v: (v.seed, v.action, v.check)):
        console.print(
            f"[red]{v.check}[/red] seed {v.seed} action {v.action}: {v.detail.replace('[', chr(92) + '[')}  "
            f"[dim]{v.replay}[/dim]"
        )
    kept = sorted({v.replay for v in rep.violations if v.replay})
    where = (
        f"; {counted(len(kept), 'replay')} in {replay_dir}" if kept
        else f"; no replay kept ({replay_dir} is made only for a match with a violation)"
    )
    console.print(f"[bold]{counted(len(rep.violations), 'violation')}[/bold]{where}")
    _say_written(rep, log)
    raise typer.Exit(1 if rep.violations else 0)


def _say_written(rep, log: Optional[Path]) -> None:
    """``wrote PATH`` on stderr for each replay kept in --replay-dir and for --log."""
    from kubb3d.cli.outputs import say_wrote

    for path in sorted({v.replay for v in rep.violations if v.replay}):
        say_wrote(path)
    if log is not None:
        say_wrote(log)


def register(app: typer.Typer) -> None:
    """Add the ``audit`` command and the ``rules`` group (``rules show``) to ``app``."""
    app.add_typer(rules_app, name="rules")
    app.command("audit")(audit)

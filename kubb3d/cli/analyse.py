"""``kubb3d analyse``: each side's win probability after the actions of a recorded match, by
rollouts, as a curve with its 95 % band (PNG), the actions that moved it most, and with
``--at ACTION --alternatives`` the choices a player had there (:mod:`kubb3d.analyse`).

Call :func:`register` with the main Typer app. Bad input (a bad replay, an action out of range,
an option out of its range, an output that cannot be written) is one line ``error: …`` on
stderr and exit code 2, before any match is played and with nothing written.
"""

from __future__ import annotations

from kubb3d.errors import message as error_message

import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from kubb3d.cli.processes import workers_for, workers_option
from kubb3d.cli.outputs import force_option, output_option
from kubb3d.cli.whatif import _fail, _percent
from kubb3d.ranges import counted

DEFAULT_SAMPLES = 4
DEFAULT_EVERY = 1
DEFAULT_SEED = 1
TOP_MOVES = 5


def curve_lines(doc: dict) -> list[str]:
    """The text report of an ``analyse`` document (:func:`kubb3d.analyse.curve_document`)."""
    from kubb3d.cli.match import ending_name

    players = doc["players"]
    played = doc["played"]
    out = [
        f"win probability: {doc['replay']}",  # a line of its own: the path is as long as the user gave it
        f"{counted(len(doc['points']), 'point')}, {counted(doc['samples'], 'rollout')} each "
        f"(every {counted(doc['every'], 'action')}), seed {doc['seed']}",
        f"as played: {played['winner'] + ' wins' if played['winner'] else 'draw'} "
        f"(ended by {ending_name(played['termination'])})",
    ]
    draws = any(point["draws"]["p"] for point in doc["points"])
    columns = [f"{p} wins" for p in players] + ["draw"] * draws
    out.append(f"each cell: the probability with its 95 % interval; {END_MARK} the match's end (as played)")
    head = "".join(f"  {c[:CELL_WIDTH]:<{CELL_WIDTH}}" for c in columns)
    out.append(f"{'after':>5}  {'action':<{ACTION_WIDTH}}{head}")
    for point in doc["points"]:
        label = "start" if point["after"] < 0 else str(point["after"]) + (END_MARK if point["exact"] else "")
        rates = [point["wins"][p] for p in players] + [point["draws"]] * draws
        action = (point["action"] or "before the first action")[:ACTION_WIDTH]
        cells = "".join(f"  {_cell(rate):<{CELL_WIDTH}}" for rate in rates)
        out.append(f"{label:>5}  {action:<{ACTION_WIDTH}}{cells}")
    moved = [step for step in doc["moves"] if round(100 * step["change"]) != 0]
    if not moved:  # a change that rounds to 0 points says nothing ("+0 points")
        out.append(f"no action moved {players[0]}'s chance by 1 point or more")
        return [line.rstrip() for line in out]
    out.append(f"moved {players[0]}'s chance most:")
    for step in moved:
        span = str(step["last"]) if step["first"] == step["last"] else f"{step['first']}–{step['last']}"
        out.append(
            f"  action {span} ({step['action']}): {100 * step['before']:.0f} % → {100 * step['after']:.0f} % "
            f"({100 * step['change']:+.0f} points)"
        )
    return [line.rstrip() for line in out]


ACTION_WIDTH = 26
CELL_WIDTH = 17
END_MARK = "*"
TEXT_WIDTH = 100
"""The widest line of the text report (:func:`curve_lines`): ``5 + 2 + 26 + 3 × (2 + 17)`` = 90."""


def _cell(rate: dict) -> str:
    """``  62.5 % (31–86)``: a probability and its 95 % interval in whole percent (the JSON has them all)."""
    lo, hi = rate["ci95"]
    return f"{100 * rate['p']:5.1f} % ({100 * lo:.0f}–{100 * hi:.0f})"


def alternatives_lines(doc: dict) -> list[str]:
    """The text report of an ``analyse --alternatives`` document."""
    player = doc["player"]
    n = doc["alternatives"][0]["summary"]["samples"]
    out = [
        f"choices at action {doc['at']} ({doc['action']}) of {doc['replay']}: {counted(n, 'rollout')} each, "
        f"seed {doc['seed']}",
    ]
    width = max(len(alt["label"]) for alt in doc["alternatives"])
    for alt in doc["alternatives"]:
        rate = alt["summary"]["wins"].get(player)
        text = _percent(rate) if rate is not None else "?"
        out.append(f"  {alt['label']:<{width}}  {player} wins {text}")
    return out


def register(app: typer.Typer) -> None:
    """Add the ``analyse`` command to ``app``."""

    @app.command("analyse")
    def analyse_command(
        replay: Path = typer.Argument(..., help="A replay written by `kubb3d match --replay` (a finished match)."),
        samples: int = typer.Option(
            DEFAULT_SAMPLES,
            "--samples",
            min=1,
            max=100_000,
            help="Rollouts per point. Each rebuilds the world, replays the turn up to its action and plays "
                 "the match on: about the cost of a whole match, so a curve costs SAMPLES × ACTIONS/EVERY "
                 "matches: seconds for a --round-cap 3 match, minutes of CPU for a whole match (use --every "
                 "and --workers; a progress bar shows how far it is; docs/analysis.md \"Cost\").",
        ),
        every: int = typer.Option(
            DEFAULT_EVERY, "--every", min=1, help="Analyse every K-th action only (0, K, 2K … and the last)."
        ),
        seed: int = typer.Option(
            DEFAULT_SEED, "--seed", min=0, help="Root seed of the rollouts: the same seed gives the same result."
        ),
        workers: Optional[int] = workers_option(),
        png: Optional[Path] = output_option(
            "--png", "Draw the curve with its 95 % band into this PNG file.", suffixes=(".png",), kind="a PNG picture"
        ),
        force: bool = force_option(),
        at: Optional[int] = typer.Option(
            None, "--at", help="With --alternatives: the action (its index `i` in the replay) whose choices to compare."
        ),
        with_alternatives: bool = typer.Option(
            False,
            "--alternatives",
            help="Compare the choices at --at by the acting side's win probability: every standing target of a "
                 "baton throw, or the player's own inkast and a few other spots.",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the result as one JSON document."),
    ) -> None:
        """Estimate each side's win probability after every action of a recorded match by rollouts
        (the match continued from the next action with fresh seeds, as `kubb3d whatif` does), list
        the actions that moved it most and draw the curve with its 95 % band (--png); with --at
        ACTION --alternatives, compare the choices the player had at that action."""
        from kubb3d.analyse import (
            alternatives,
            alternatives_document,
            analysed_actions,
            choices_at,
            curve_document,
            win_curve,
        )
        from kubb3d.files import FileSafetyError, ReplayError, check_output, write_output
        from kubb3d.whatif import WhatIfError, read_recorded

        try:
            if at is not None and not with_alternatives:
                raise WhatIfError("--at: give it with --alternatives (the curve covers every action)")
            if with_alternatives and at is None:
                raise WhatIfError("--alternatives: give the action with --at ACTION")
            if with_alternatives and png is not None:
                raise WhatIfError("--png: draws the curve; leave it out with --alternatives")
            if png is not None:
                check_output(png, "--png", overwrite=force)
            recorded = read_recorded(replay, warn=with_alternatives)  # else it refuses one without outcome
            if with_alternatives:
                assert at is not None
                choices = choices_at(recorded, at)
                total = len(choices) * samples
                workers = workers_for(workers, samples)
            else:
                if recorded.outcome is None:
                    raise WhatIfError(
                        f"{recorded.path.name}: the replay has no outcome (an interrupted match); finish it "
                        "with kubb3d match --resume"
                    )
                total = samples * (len(analysed_actions(max(recorded.actions), every)) - 1)
                workers = workers_for(workers, total)
        except (ReplayError, FileSafetyError, ValueError) as exc:
            _fail(error_message(exc))
        from kubb3d.cli.tables import count_bar

        bar = count_bar("analyse")
        doc: dict[str, Any]
        with bar:
            task = bar.add_task("rollouts", total=total)
            try:
                if with_alternatives:
                    assert at is not None
                    found = alternatives(
                        recorded, at, samples, seed=seed, workers=workers,
                        progress=lambda done, n: bar.update(task, completed=done),
                    )
                    doc = alternatives_document(recorded, at, seed, found)
                else:
                    points = win_curve(
                        recorded, samples, every=every, seed=seed, workers=workers,
                        progress=lambda done, n: bar.update(task, completed=done),
                    )
                    doc = curve_document(recorded, points, samples=samples, every=every, seed=seed, top=TOP_MOVES)
                    if png is not None:
                        from kubb3d.analyse import write_png

                        write_output(
                            png, lambda tmp: write_png(recorded, points, tmp, TOP_MOVES), "--png", overwrite=force
                        )
            except (ReplayError, WhatIfError, FileSafetyError) as exc:
                bar.stop()
                _fail(error_message(exc))
        if png is not None and not with_alternatives:
            from kubb3d.cli.outputs import say_wrote

            say_wrote(png)
        if as_json:
            sys.stdout.write(json.dumps(doc, ensure_ascii=False) + "\n")
            return
        for line in alternatives_lines(doc) if with_alternatives else curve_lines(doc):
            typer.echo(line)

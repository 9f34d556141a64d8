"""``kubb3d whatif``: continue a recorded match from one of its actions many times with fresh
seeds (optionally with another choice there) and print how it ends (:mod:`kubb3d.whatif`).

Call :func:`register` with the main Typer app. A bad replay, an action out of range or a choice
the action does not offer is one line ``error: …`` on stderr and exit code 2, before any match
is played where the replay alone shows it.
"""

from __future__ import annotations

from kubb3d.errors import message as error_message

import json
import sys
from pathlib import Path
from typing import NoReturn, Optional

import typer

from kubb3d.cli.processes import workers_for, workers_option


DEFAULT_SAMPLES = 20
DEFAULT_SEED = 1


def _fail(text: str) -> NoReturn:
    from kubb3d.cli import _json_error

    from kubb3d.cli.lang import error_line

    typer.echo(error_line(text), err=True)
    _json_error(text)
    raise typer.Exit(2)


def _point(text: str) -> tuple[float, float]:
    """``X,Y`` (m) as two floats; ValueError naming what was expected."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        raise ValueError(
            f"--inkast-at: expected X,Y in m (two numbers and a comma, e.g. 2.5,0.3), got {text!r}"
        ) from None
    return x, y


def _percent(rate: dict) -> str:
    lo, hi = rate["ci95"]
    return f"{100 * rate['p']:5.1f} %  (95 % interval {100 * lo:.1f}–{100 * hi:.1f} %)"


def report_lines(doc: dict) -> list[str]:
    """The text report of a what-if document (:func:`whatif_document`)."""
    from kubb3d.cli.match import ending_name

    s = doc["summary"]
    n = s["samples"]
    choice = doc["choice"]
    chosen = (
        f", aimed at {choice['target']}" if choice["target"]
        else f", inkast aimed at ({choice['inkast_at'][0]:g}, {choice['inkast_at'][1]:g}) m" if choice["inkast_at"]
        else ""
    )
    out = [
        f"what if: {doc['replay']} from action {doc['at']} ({doc['action']}{chosen}); {n} sample{'s' * (n != 1)}, "
        f"seed {doc['seed']}",
    ]
    played = doc["played"]
    if played is not None:
        out.append(
            f"as played: {played['winner'] + ' wins' if played['winner'] else 'draw'} "
            f"(ended by {ending_name(played['termination'])})"
        )
    width = max(len(p) for p in s["wins"])
    for player, rate in s["wins"].items():
        out.append(f"{player:<{width}} wins {rate['count']:>{len(str(n))}}/{n}  {_percent(rate)}")
    if s["draws"]["count"]:
        out.append(f"{'draws':<{width + 5}} {s['draws']['count']:>{len(str(n))}}/{n}  {_percent(s['draws'])}")
    ended = ", ".join(f"{ending_name(k)} {v}" for k, v in s["terminations"].items())
    out.append(f"ended by: {ended}")
    t = s["turns_left"]
    out.append(f"turns left: mean {t['mean']:.1f}, least {t['min']}, most {t['max']}")
    return out


def whatif_document(recorded, at: int, seed: int, choice, results) -> dict:
    """The ``whatif --json`` document: the replay, the action, the seed and choice, the replay's
    own ending (``played``, null for an interrupted replay), the ``summary``
    (:func:`kubb3d.whatif.summarise`) and every sample (its match seed and ending)."""
    from kubb3d.whatif import describe_action, summarise

    played = recorded.outcome
    return {
        "replay": str(recorded.path),
        "at": at,
        "action": describe_action(recorded, at),
        "seed": seed,
        "choice": choice.to_dict(),
        "played": None if played is None else {"winner": played.get("winner"),
                                               "termination": played.get("termination")},
        "summary": summarise(recorded.players, results),
        "results": [
            {
                "seed": r.seed,
                "winner": r.winner,
                "termination": r.termination,
                "turns_left": r.turns_left,
                "actions_left": r.actions_left,
                "clock_left_s": r.clock_left_s,
            }
            for r in results
        ],
    }


def whatif_command(
    replay: Path = typer.Argument(..., help="A replay written by `kubb3d match --replay`."),
    at: int = typer.Option(
        ..., "--at", help="The action to continue from (its index `i` in the replay, from 0): it is played again."
    ),
    samples: int = typer.Option(
        DEFAULT_SAMPLES,
        "--samples",
        min=1,
        max=100_000,
        help="How many continuations: each costs about what a whole match costs, so tens of them take "
             "minutes of CPU (a progress bar shows how far it is; --workers spreads them).",
    ),
    seed: int = typer.Option(
        DEFAULT_SEED, "--seed", min=0, help="Root seed of the samples: the same seed gives the same samples."
    ),
    target: Optional[str] = typer.Option(
        None, "--target", help="At a baton throw: the kubb aimed at instead (a kubb standing in the target half)."
    ),
    inkast_at: Optional[str] = typer.Option(
        None,
        "--inkast-at",
        help="At an inkast: where the first kubb is aimed instead, X,Y in m (pitch coordinates, end A at "
             "x = -length/2); the others keep the player's spacing.",
    ),
    workers: Optional[int] = workers_option(),
    as_json: bool = typer.Option(False, "--json", help="Print the outcome distribution as one JSON document."),
) -> None:
    """Continue a recorded match from one of its actions N times with fresh seeds (optionally with
    another choice there) and print each side's win probability with its 95 % interval, the
    turns left and how the samples ended."""
    from kubb3d.files import ReplayError
    from kubb3d.whatif import Choice, WhatIfError, check_at, check_choice, read_recorded, whatif

    try:
        point = None if inkast_at is None else _point(inkast_at)
        choice = Choice(target=target, inkast_at=point)
        recorded = read_recorded(replay)
        check_at(recorded, at)
        check_choice(recorded, at, choice)
    except (ReplayError, ValueError) as exc:
        _fail(error_message(exc))
    from kubb3d.cli.tables import count_bar

    bar = count_bar("what if")
    with bar:
        task = bar.add_task("samples", total=samples)
        try:
            results = whatif(
                recorded,
                at,
                samples,
                seed=seed,
                choice=choice,
                workers=workers_for(workers, samples),
                progress=lambda j, r: bar.advance(task),
            )
        except (ReplayError, WhatIfError) as exc:
            bar.stop()
            _fail(error_message(exc))
    doc = whatif_document(recorded, at, seed, choice, results)
    if as_json:
        sys.stdout.write(json.dumps(doc, ensure_ascii=False) + "\n")
        return
    for line in report_lines(doc):
        typer.echo(line)


def register(app: typer.Typer) -> None:
    """Add the ``whatif`` command to ``app``."""
    app.command("whatif")(whatif_command)

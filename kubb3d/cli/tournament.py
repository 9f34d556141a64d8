"""``kubb3d tournament``: a Wikinger-Schach group stage in physics (:mod:`kubb3d.tournament`).
Call :func:`register` with the main Typer app. User mistakes print one line ``error: …`` and
exit 2."""

from __future__ import annotations

from kubb3d.errors import message as error_message

import json
import sys
from pathlib import Path
from typing import NoReturn, Optional

import typer

from kubb3d.cli.processes import workers_for, workers_option
from kubb3d.cli.outputs import force_option, output_option
from kubb3d.ranges import expected, span


def points_line() -> str:
    """The first line of the games: what a game's points are, with the rule, the figures from
    the WS ruleset (:data:`kubb3d.rules.wikinger.WIN_POINTS`, its clock)."""
    from kubb3d.rules import get_ruleset
    from kubb3d.rules.wikinger import CLOCK_WIN_POINTS, WIN_POINTS

    limit = get_ruleset("wikinger").time_limit_s
    clock = f"the {limit / 60:g} minutes" if limit else "the clock"
    return (
        f"group points per game: {WIN_POINTS} for felling the king (or the other team's early king), "
        f"{CLOCK_WIN_POINTS} for more baseline kubbs standing when {clock} or the turn cap end it, 0 for a "
        'loss or a draw (WS "End of the Game"; the turn cap is kubb3d\'s rule: docs/rules.md)'
    )


def game_line(game, how: str, why: str) -> str:
    """One group game in words: ``T1 – T2: T1 wins (the king felled), 2:0 points — <reason>``;
    ``how`` a ``Termination`` name in lower case (``""``: not known), ``why`` the referee's reason."""
    from kubb3d.cli.match import ENDINGS

    if game.points1 == game.points2:
        head = "draw"
    else:
        head = f"{game.team1 if game.points1 > game.points2 else game.team2} wins"
    if how:
        head += f" ({ENDINGS.get(how, how)})"
    line = f"{game.team1} – {game.team2}: {head}, {game.points1}:{game.points2} points"
    return f"{line} — {why}" if why else line


def tournament(
    ruleset: str = typer.Option(
        "wikinger", help="Ruleset of the tournament: wikinger (the WS group stage with its Stechen)."
    ),
    teams: int = typer.Option(4, help="Teams in the group (2 to 16), named T1, T2 …"),
    seed: int = typer.Option(1, min=0, help="Root seed: the same seed plays the same tournament."),
    players: Optional[str] = typer.Option(
        None, help="Skill of each team, comma-separated (novice, club, elite); default club for all."
    ),
    ground: str = typer.Option("grass", help="Ground of every game: grass, wet-grass, turf or plane."),
    workers: Optional[int] = workers_option(),
    replay_dir: Optional[Path] = output_option(
        "--replay-dir",
        "Write each game's replay into this existing folder (T1-T2.jsonl …, for kubb3d view).",
        folder_files=("*.jsonl",),
    ),
    force: bool = force_option(),
    as_json: bool = typer.Option(
        False, "--json", help="Print the games, the ranking and the Stechen rounds as one JSON document."
    ),
) -> None:
    """Play a Wikinger-Schach group in physics: every team against every other (20-minute
    games, points 2/1/0), ranked by points and head to head, teams still level by a Stechen
    thrown in physics (WS "Tie-Break After the Group Stage")."""
    from kubb3d.physics.ground import GROUNDS
    from kubb3d.tournament import run_tournament

    def fail(msg: str) -> NoReturn:
        from kubb3d.cli import _json_error

        from kubb3d.cli.lang import error_line

        typer.echo(error_line(msg), err=True)
        _json_error(msg)
        raise typer.Exit(2)

    if ruleset != "wikinger":
        fail(f"tournament: only --ruleset wikinger has a group stage in the rule documents (WS), got {ruleset!r}")
    if not 2 <= teams <= 16:
        fail(expected("--teams", span(2, 16), teams))
    if ground not in GROUNDS or ground == "board":
        from kubb3d.ranges import unknown_name

        fail(unknown_name("ground", ground, (g for g in GROUNDS if g != "board")))
    if replay_dir is not None and replay_dir.is_symlink():
        fail(f"--replay-dir {replay_dir} is a symbolic link; give the path of the folder itself")
    if replay_dir is not None and not replay_dir.is_dir():
        fail(f"--replay-dir {replay_dir} is not an existing folder (the folder {replay_dir.parent} does not exist "
             "or it is a file; it is not created)" if not replay_dir.parent.is_dir() else
             f"--replay-dir {replay_dir} is not an existing folder")
    skills = None
    if players is not None:
        skills = [p.strip() for p in players.split(",")]
    from rich.progress import Progress

    n_games = teams * (teams - 1) // 2
    try:
        with Progress(transient=True, disable=as_json or not sys.stderr.isatty()) as bar:
            task = bar.add_task("group games", total=n_games)
            res = run_tournament(
                teams,
                seed,
                skills=skills,
                ground=ground,
                workers=workers_for(workers, n_games),
                replay_dir=replay_dir,
                progress=lambda k: bar.advance(task, k),
            )
    except ValueError as exc:
        fail(error_message(exc))
    if replay_dir is not None:  # one line on stderr, as models build names the files it wrote
        from kubb3d.ranges import counted

        kept = [g for g in res.games if (replay_dir / f"{g.team1}-{g.team2}.jsonl").is_file()]
        typer.echo(f"wrote {counted(len(kept), 'replay')} to {replay_dir}", err=True)
    if as_json:
        sys.stdout.write(json.dumps(res.to_json(), ensure_ascii=False) + "\n")
        return
    typer.echo(points_line())
    for g, (how, why) in zip(res.games, res.endings or [("", "")] * len(res.games)):
        typer.echo(game_line(g, how, why))
    for ts, felled in res.stechen:
        typer.echo(
            "Stechen " + ", ".join(f"{t} {felled[t]}" for t in ts) + " pawns (WS Tie-Break After the Group Stage)"
        )
    typer.echo("rank  team  skill   points")
    for i, t in enumerate(res.ranking):
        typer.echo(f"{i + 1:4d}  {t:4s}  {res.skills[t]:6s}  {res.points[t]:6d}")


def register(app: typer.Typer) -> None:
    """Add the ``tournament`` command to ``app``."""
    app.command("tournament")(tournament)

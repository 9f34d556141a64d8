"""``kubb3d dames``: play Roll Kubb Dames in the terminal, or let computers play.

Commands:

* ``play``: one game; each seat is ``human`` or a computer player
  (``--players human,search``, the first entry is the first player).  A person
  types moves like ``b1NE@d5`` (see ``help`` in the game).  Reads plain lines
  from stdin, so moves can be piped in.
* ``selfplay``: many computer games, then win rates and average length.

A bad flag value prints one ``error: ...`` line on stderr and exits with code
2; a bad move or position typed during a game prints one line and the game
goes on.
"""

from __future__ import annotations

from kubb3d.errors import message as error_message

import math
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from typer.core import TyperCommand

try:  # recent Typer ships its own copy of Click
    from typer._click.exceptions import NoArgsIsHelpError, UsageError
except ImportError:  # pragma: no cover - older Typer on top of Click
    from click.exceptions import NoArgsIsHelpError, UsageError  # type: ignore[no-redef,assignment]

from kubb3d.cli.outputs import force_option, output_option
from kubb3d.dames.board import DamesBoard, IllegalMoveError, Move
from kubb3d.dames.die import STEP
from kubb3d.dames.players import PLAYER_KINDS, Player, make_player, run_selfplay
from kubb3d.dames.render import SEAT_NAME, describe_roll, render
from kubb3d.dames.rules import DamesRules, cell_name
from kubb3d.ranges import expected, span
from kubb3d.ranges import counted


class _OneLineErrors(TyperCommand):
    """A command whose bad options give one ``error:`` line and exit code 2 (no usage box)."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except NoArgsIsHelpError:
            raise
        except UsageError as exc:
            from kubb3d.cli import OneLineErrors

            if parent is not None and isinstance(parent.find_root().command, OneLineErrors):
                raise  # under kubb3d: its group words the error as for every command (naming it)
            _fail(" ".join(exc.format_message().split()))


app = typer.Typer(
    help="Roll Kubb Dames: dice-kubbs rolling on an 8x8 board (rule book RKD).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _fail(message: str) -> NoReturn:
    # one line here, not kubb3d.cli.UserError: this app also runs alone (its tests)
    from kubb3d.cli import _json_error

    from kubb3d.cli.lang import error_line

    typer.echo(error_line(message), err=True)
    _json_error(message)
    raise typer.Exit(2)


def _console() -> Console:
    return Console(file=sys.stdout, highlight=False, soft_wrap=True)


# ----- shared options ------------------------------------------------------

_RULE_HELP = "Rules panel"


def _rules(
    nplayers: int,
    straight_only: bool,
    diagonal_combat: bool,
    multi_combat: str,
    roll_through: bool,
    opening: str,
    forced_capture: bool,
    eliminated: str,
    start_front: int,
    start_right: int,
) -> DamesRules:
    try:
        return DamesRules(
            players=nplayers,  # type: ignore[arg-type]
            start_front=start_front,
            start_right=start_right,
            straight_only=straight_only,
            diagonal_combat=diagonal_combat,
            multi_combat=multi_combat,  # type: ignore[arg-type]
            roll_through_kubbs=roll_through,
            opening_placement=opening,  # type: ignore[arg-type]
            forced_capture=forced_capture,
            eliminated=eliminated,  # type: ignore[arg-type]
        )
    except ValueError as exc:
        _fail(error_message(exc))


def _parse_players(text: str, allow_human: bool) -> list[str]:
    kinds = [k.strip().lower() for k in text.split(",")]
    allowed = (("human",) if allow_human else ()) + PLAYER_KINDS
    for k in kinds:
        if k not in allowed:
            _fail(f"--players: unknown player {k!r}; use a comma-separated list of {', '.join(allowed)}")
    if len(kinds) not in (2, 4):
        _fail(f"--players: Roll Kubb Dames needs 2 or 4 players, got {len(kinds)} ({text})")
    return kinds


MAX_DEPTH = 6
"""Deepest search look-ahead accepted (turns); the work grows exponentially with it."""
MAX_GAMES = 100_000
MAX_TIME_LIMIT_S = 600.0


def _check_search(kinds: list[str], depth: int | None, time_limit: float | None) -> int:
    """Check the search options against the players; returns the depth to use."""
    if "search" not in kinds:
        given = [flag for flag, v in (("--depth", depth), ("--time-limit", time_limit)) if v is not None]
        if given:
            from kubb3d.judge.messages import msg

            options = given[0] if len(given) == 1 else msg("{first} and {last}", first=given[0], last=given[1])
            _fail(msg("{options} apply to the search player only; --players has none", options=options))
    if depth is not None and not 1 <= depth <= MAX_DEPTH:
        _fail(expected("--depth", span(1, MAX_DEPTH), depth))
    if time_limit is not None and not (math.isfinite(time_limit) and 0 < time_limit <= MAX_TIME_LIMIT_S):
        _fail(expected("--time-limit", span(0, MAX_TIME_LIMIT_S, " seconds", open_lo=True), time_limit))
    return 2 if depth is None else depth


StraightOpt = typer.Option(False, "--straight-only", help="Moves are straight runs (no "
                                                          "turning).", rich_help_panel=_RULE_HELP)
DiagOpt = typer.Option(False, "--diagonal-combat", help="Diagonal neighbours fight too.", rich_help_panel=_RULE_HELP)
MultiOpt = typer.Option(
    "simultaneous", "--multi-combat", help="simultaneous | weakest_first | strongest_first.", rich_help_panel=_RULE_HELP
)
ThroughOpt = typer.Option(False, "--roll-through", help="Paths may cross other kubbs.", rich_help_panel=_RULE_HELP)
OpeningOpt = typer.Option(
    "none", "--opening", help="Who places the ti-kubb before move 1: none | last_player.", rich_help_panel=_RULE_HELP
)
ForcedOpt = typer.Option(
    False,
    "--forced-capture",
    help="A roll that takes a kubb must be played if there is one.",
    rich_help_panel=_RULE_HELP,
)
ElimOpt = typer.Option(
    "ends_game",
    "--eliminated",
    help="A player with no kubbs left: ends_game (default: the game is over, as the rule book says) | "
    "drops_out (a variant: the others play on).",
    rich_help_panel=_RULE_HELP,
)
FrontOpt = typer.Option(2, "--start-front", help="Face towards the goal at the start.", rich_help_panel=_RULE_HELP)
RightOpt = typer.Option(4, "--start-right", help="Face on the owner's right at the start.", rich_help_panel=_RULE_HELP)


# ----- play ----------------------------------------------------------------------

_HELP_TEXT = """\
Type a move as <kubb cell><roll directions>@<ti-kubb cell>, e.g. b1NE@d5:
the kubb on b1 rolls north then east (one letter N/E/S/W per cell, as many as
the ti-kubb shows), then the ti-kubb goes on d5 for the next player.
<from>-<to>@<cell> works when only one path leads there (b1-c2@d5).
Commands: moves (list legal rolls), position (print the position string),
load <position> (set a position), undo, help, quit."""


def _describe_move(board_before: DamesBoard, board: DamesBoard, move: Move) -> str:
    seat = board_before.turn
    if move.start is None:
        return f"{seat} places the ti-kubb on {cell_name(move.place)}"  # type: ignore[arg-type]
    text = f"{seat} {move}"
    kubb = board.kubb_at(_end_cell(move))
    if kubb is not None:
        text += f" (top {kubb.top}{', frozen on its last line' if board.is_frozen(_end_cell(move)) else ''})"
    for cell, k in board.last_removed:
        text += f"; {k.seat}{k.top} on {cell_name(cell)} is out"
    return text


def _end_cell(move: Move) -> int:
    c = move.start
    assert c is not None
    for d in move.path:
        dx, dy = STEP[d]
        c += dx + 8 * dy
    return c


@app.command(cls=_OneLineErrors)
def play(
    players: str = typer.Option(
        "human,search",
        "--players",
        help="Comma-separated, one per seat in turn order (2 or 4): human, random, greedy, search.",
    ),
    seed: int | None = typer.Option(None, "--seed", help="Seed of the computer players (printed if not given)."),
    depth: int | None = typer.Option(
        None, "--depth", help="Look-ahead of the search player, in turns (default 2, at most 6)."
    ),
    time_limit: float | None = typer.Option(None, "--time-limit", help="Seconds per search move (not reproducible)."),
    position: str | None = typer.Option(
        None,
        "--position",
        help="Start from this position string, as the in-game 'position' command prints it "
        "(ranks 8 to 1, a kubb as seat letter and top-north-east faces, e.g. S124; then seats, "
        "seat to roll, ti value, ti cell, turns).",
    ),
    show_board: bool = typer.Option(False, "--show-board", help="Show the board after every move."),
    view: bool = typer.Option(
        False, "--view", help="Show the game in a 3D window, each move animated (people type moves in the terminal)."
    ),
    screenshot: Path | None = output_option(
        "--screenshot",
        "Render the board in 3D headless to this PNG and exit (computer players only).",
        suffixes=(".png",),
        kind="a PNG picture",
    ),
    force: bool = force_option(),
    after: int = typer.Option(0, "--after", help="With --screenshot: the position after this many moves."),
    straight_only: bool = StraightOpt,
    diagonal_combat: bool = DiagOpt,
    multi_combat: str = MultiOpt,
    roll_through: bool = ThroughOpt,
    opening: str = OpeningOpt,
    forced_capture: bool = ForcedOpt,
    eliminated: str = ElimOpt,
    start_front: int = FrontOpt,
    start_right: int = RightOpt,
) -> None:
    """Play one game: a person against the computer, or computers against each other.

    Moves are written <kubb's cell><path>@<ti-kubb's cell>, e.g. b1NE@d5: the kubb
    on b1 rolls one cell north, then one cell east (one letter N, E, S or W per
    cell, as many cells as the ti-kubb shows; N is towards rank 8, E towards
    file h), then its player puts the ti-kubb on d5 for the next move. A roll
    that ends the game has no @ part (c7N). b1-c2@d5 names the end cell instead
    of the path when only one path leads there. The game prints moves the same
    way; type 'help' during a game for the commands.
    """
    kinds = _parse_players(players, allow_human=True)
    _check_view(view, screenshot, after, kinds)
    depth = _check_search(kinds, depth, time_limit)
    if seed is not None and seed < 0:
        _fail(expected("--seed", span(0), seed))
    rules = _rules(
        len(kinds),
        straight_only,
        diagonal_combat,
        multi_combat,
        roll_through,
        opening,
        forced_capture,
        eliminated,
        start_front,
        start_right,
    )
    try:
        board = DamesBoard(position, rules)
    except ValueError as exc:
        _fail(f"--position: {exc}")
    console = _console()
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % 2**32)  # type: ignore[operator]
    streams = np.random.SeedSequence(seed).spawn(len(kinds))
    seats = rules.seats
    agents: dict[str, Player | None] = {}
    for seat, kind, ss in zip(seats, kinds, streams):
        agents[seat] = None if kind == "human" else make_player(kind, np.random.default_rng(ss), depth, time_limit)
    console.print(
        "Roll Kubb Dames: "
        + ", ".join(f"{seat} ({SEAT_NAME[seat]}) = {kind}" for seat, kind in zip(seats, kinds))
        + f"; seed {seed}"
    )
    humans = any(a is None for a in agents.values())
    if screenshot is not None:
        _screenshot(board, agents, after, screenshot)
        return
    if humans:
        console.print("Type 'help' for how to write a move.")
    if view:
        _play_in_window(console, board, agents)
        return
    shown = False
    if not humans:
        console.print(render(board))
        shown = True
    while board.outcome() is None:
        agent = agents[board.turn]
        if agent is None:
            if not shown:
                console.print(render(board))
            if not _human_turn(console, board):
                console.print("game stopped")
                return
            shown = False
            continue
        before = board.copy()
        move = agent.choose(board)
        board.push(move)
        console.print(f"{board.ply:3d}. {_describe_move(before, board, move)}")
        shown = False
        if show_board:
            console.print(render(board))
            shown = True
    outcome = board.outcome()
    assert outcome is not None
    if not shown:
        console.print(render(board))
    console.print(f"game over after {counted(board.ply, 'turn')}: {outcome.result()}")


def _check_view(view: bool, screenshot: Path | None, after: int, kinds: list[str]) -> None:
    """Flag errors of --view, --screenshot and --after."""
    if after < 0:
        _fail(expected("--after", span(0), after))
    if after and screenshot is None:
        _fail("--after only makes sense with --screenshot")
    if view and screenshot is None and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        _fail("no display to open a window on (DISPLAY is not set); use --screenshot OUT.png to render headless")
    if screenshot is None:
        return
    if view:
        _fail("--view and --screenshot exclude each other")
    if screenshot.suffix.lower() != ".png":
        _fail(f"--screenshot must name a .png file, got {screenshot}")
    from kubb3d.files import FileSafetyError, check_output

    try:
        check_output(screenshot, "--screenshot", overwrite=True)
    except FileSafetyError as exc:
        _fail(error_message(exc))
    if after and "human" in kinds:
        _fail("--screenshot --after needs computer players only (no human seat)")


def _screenshot(board: DamesBoard, agents: dict[str, Player | None], after: int, out: Path) -> None:
    """Play ``after`` moves with the computer players, then render the board headless."""
    for _ in range(after):
        if board.outcome() is not None:
            break
        agent = agents[board.turn]
        assert agent is not None
        board.push(agent.choose(board))
    try:
        from kubb3d.dames.view import screenshot as render_png
    except ImportError as exc:  # pragma: no cover - pyglet missing
        _fail(f"the 3D view is not available: {exc}")
    from kubb3d.files import FileSafetyError

    try:
        path = render_png(board, out)
    except FileSafetyError as exc:  # the output rule, a full disk
        _fail(error_message(exc))
    except Exception as exc:  # no OpenGL (EGL) on this machine
        _fail(f"could not render the 3D view: {exc}")
    typer.echo(f"wrote {path} (after {counted(board.ply, 'turn')})")


def _play_in_window(console: Console, board: DamesBoard, agents: dict[str, Player | None]) -> None:
    """The game in a 3D window; the terminal still shows the moves and takes a person's moves."""
    from kubb3d.dames.view import play_in_window
    from kubb3d.viewer.app import NoDisplay

    def on_move(before: DamesBoard, after: DamesBoard, move: Move) -> None:
        console.print(f"{after.ply:3d}. {_describe_move(before, after, move)}")

    def human(b: DamesBoard) -> bool:
        console.print(render(b))
        return _human_turn(console, b)

    try:
        result = play_in_window(board, agents, on_move, human)
    except NoDisplay as exc:
        _fail(error_message(exc))
    if result is not None:
        console.print(f"game over after {counted(board.ply, 'turn')}: {result}")
    else:
        console.print("game stopped")


def _human_turn(console: Console, board: DamesBoard) -> bool:
    """Read lines until one move is pushed; False on end of input or quit."""
    seat = board.turn
    while True:
        if board.state.pending:
            prompt = f"{seat}, place the ti-kubb (value {board.ti_value}) for {board.roller}: @"
        else:
            prompt = f"{seat} to move, roll {board.ti_value}> "
        console.print(prompt, end="")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            console.print("\nend of input")
            return False
        text = line.strip()
        if not sys.stdin.isatty():
            console.print(text)
        if not text:
            continue
        word, _, rest = text.partition(" ")
        word = word.lower()
        if word in ("quit", "exit"):
            return False
        if word in ("help", "?"):
            console.print(_HELP_TEXT)
            continue
        if word == "moves":
            rolls = board.legal_rolls()
            if board.state.pending:
                console.print("place the ti-kubb on any free cell: @cell")
            for roll in rolls:
                console.print("  " + describe_roll(board, roll))
            continue
        if word == "position":
            console.print(board.position())
            continue
        if word == "load":
            try:
                board.set_position(rest.strip())
            except ValueError as exc:
                console.print(f"bad position: {exc}")
                continue
            return True
        if word == "undo":
            if not board.move_stack:
                console.print("nothing to undo")
                continue
            board.pop()
            while board.move_stack and board.turn != seat:
                board.pop()
            return True
        if board.state.pending and not text.startswith("@"):
            text = "@" + text
        before = board.copy()
        try:
            move = board.parse_move(text)
            board.push(move)
        except IllegalMoveError as exc:
            console.print(f"illegal move: {exc}")
            continue
        console.print(f"{board.ply:3d}. {_describe_move(before, board, move)}")
        return True


# ----- selfplay ------------------------------------------------------------------


@app.command(cls=_OneLineErrors)
def selfplay(
    games: int = typer.Option(100, "--games", help="Number of games."),
    seed: int = typer.Option(0, "--seed", help="Seed; game i uses the seed sequence (seed, i)."),
    players: str = typer.Option(
        "random,random", "--players", help="Comma-separated computer players (2 or 4): random, greedy, search."
    ),
    depth: int | None = typer.Option(
        None, "--depth", help="Look-ahead of the search player, in turns (default 2, at most 6)."
    ),
    time_limit: float | None = typer.Option(None, "--time-limit", help="Seconds per search move (not reproducible)."),
    rotate: bool = typer.Option(
        True, "--rotate/--fixed-seats", help="Rotate the players round the seats from game to game."
    ),
    straight_only: bool = StraightOpt,
    diagonal_combat: bool = DiagOpt,
    multi_combat: str = MultiOpt,
    roll_through: bool = ThroughOpt,
    opening: str = OpeningOpt,
    forced_capture: bool = ForcedOpt,
    eliminated: str = ElimOpt,
    start_front: int = FrontOpt,
    start_right: int = RightOpt,
    as_json: bool = typer.Option(False, "--json", help="Print the results as one JSON document."),
) -> None:
    """Play many computer games and print each player's win rate and the average game length."""
    if not 1 <= games <= MAX_GAMES:
        _fail(expected("--games", span(1, MAX_GAMES), games))
    if seed < 0:
        _fail(expected("--seed", span(0), seed))
    kinds = _parse_players(players, allow_human=False)
    depth = _check_search(kinds, depth, time_limit)
    rules = _rules(
        len(kinds),
        straight_only,
        diagonal_combat,
        multi_combat,
        roll_through,
        opening,
        forced_capture,
        eliminated,
        start_front,
        start_right,
    )
    if sys.stderr.isatty():
        bar = Progress(
            TextColumn("self-play"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(file=sys.stderr),
        )
        with bar:
            task = bar.add_task("games", total=games)
            result = run_selfplay(
                kinds,
                games,
                seed,
                rules,
                depth=depth,
                time_limit=time_limit,
                rotate=rotate,
                on_game=lambda i, record: bar.advance(task),
            )
    else:  # no progress bar drawn into a pipe or a log file
        result = run_selfplay(kinds, games, seed, rules, depth=depth, time_limit=time_limit, rotate=rotate)
    if as_json:
        import json

        doc = {
            "games": games,
            "seed": seed,
            "seats": rules.seats,
            "rotate": rotate,
            "players": list(result.labels),
            "wins": dict(result.wins),
            "win_rates": {label: result.win_rate(label) for label in result.wins},
            "ties": result.ties,
            "turns": list(result.turns),
            "mean_turns": result.mean_turns,
            "terminations": dict(result.terminations),
            "seconds": result.seconds,
        }
        sys.stdout.write(json.dumps(doc) + "\n")
        return
    console = _console()
    table = Table(title=f"{counted(games, 'game')}, seed {seed}, seats {rules.seats}{' rotated' if rotate else ''}")
    table.add_column("player")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    for label, wins in result.wins.items():
        table.add_row(label, str(wins), f"{100 * result.win_rate(label):.1f} %")
    table.add_row("ties", str(result.ties), f"{100 * result.ties / games:.1f} %")
    console.print(table)
    console.print(
        f"average game length: {result.mean_turns:.1f} turns (min {min(result.turns)}, max {max(result.turns)})"
    )
    ends = ", ".join(f"{k}: {v}" for k, v in result.terminations.items())
    console.print(f"endings: {ends}; {result.seconds:.1f} s")

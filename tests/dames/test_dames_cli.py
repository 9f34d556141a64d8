"""``kubb3d dames play`` and ``selfplay`` through Typer's CliRunner (and once through the real entry point)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import run_python
from typer.testing import CliRunner

from kubb3d.cli.dames import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def test_play_with_piped_moves() -> None:
    # S (a person) plays two moves; the second line is illegal and reported,
    # the game goes on; the random N answers each move.  Then input ends.
    moves = "b1NN@h4\nb3NNN@h5\nhelp\nmoves\nposition\nc1NN@h5\n"
    result = runner.invoke(app, ["play", "--players", "human,random", "--seed", "4"], input=moves)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "  1. S b1NN@h4 (top 6)" in out
    assert "  2. N " in out
    assert "illegal move: the ti-kubb shows 1: roll exactly 1 cell, not 3" in out
    assert "Type a move as" in out  # 'help'
    assert "  c1N -> c2, top 5" in out  # 'moves' lists the rolls of 1 now possible
    assert "illegal move: the ti-kubb shows 1: roll exactly 1 cell, not 2" in out  # c1NN
    assert " SN S 1 " in out  # the 'position' command
    assert "end of input" in out and "game stopped" in out
    assert "Traceback" not in out


def test_play_bad_position_typed_keeps_the_game() -> None:
    result = runner.invoke(
        app, ["play", "--players", "human,greedy", "--seed", "1"], input="load 8/8/8 SN S 2 - 0\nb1NN@h4\nquit\n"
    )
    assert result.exit_code == 0
    assert "bad position: the board needs 8 ranks separated by '/', got 3" in result.output
    assert "  1. S b1NN@h4" in result.output


def test_play_load_position_and_undo() -> None:
    pos = "7N153/8/8/8/8/8/S1247/8 SN S 1 - 0"
    result = runner.invoke(app, ["play", "--players", "human,human"], input=f"load {pos}\na2N@e5\nundo\na2N@e4\nquit\n")
    assert result.exit_code == 0, result.output
    assert "  1. S a2N@e5" in result.output and "  1. S a2N@e4" in result.output


def test_play_to_the_end_computers_only() -> None:
    result = runner.invoke(app, ["play", "--players", "search,greedy", "--seed", "5"])
    assert result.exit_code == 0, result.output
    assert "game over after" in result.output
    again = runner.invoke(app, ["play", "--players", "search,greedy", "--seed", "5"])
    assert again.output == result.output


def test_play_four_players_with_a_person_finishing_by_piped_moves() -> None:
    result = runner.invoke(app, ["play", "--players", "random,random,random,human", "--seed", "2"], input="quit\n")
    assert result.exit_code == 0
    assert "W (West) = human" in result.output and "W to move" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--players", "human,wizard"], "unknown player 'wizard'"),
        (["play", "--players", "human,random,random"], "needs 2 or 4 players"),
        (["play", "--depth", "0"], "--depth: expected from 1 to 6, got 0"),
        (["play", "--position", "nonsense"], "--position: a position has 6 fields"),
        (["play", "--multi-combat", "loudest"], "multi_combat must be one of"),
        (["play", "--start-front", "5", "--start-right", "2"], "impossible"),
        (["play", "--screenshot", "shot.jpg"], "--screenshot must name a .png file"),
        (["play", "--after", "3"], "--after only makes sense with --screenshot"),
        (["selfplay", "--games", "0"], "--games: expected from 1 to 100000, got 0"),
        (["selfplay", "--games", "many"], "Invalid value for '--games'"),
        (["selfplay", "--players", "human,random"], "unknown player 'human'"),
        (["selfplay", "--no-such-flag"], "No such option"),
        (["play", "--seed", "-3"], "--seed: expected 0 or more, got -3"),
    ],
)
def test_bad_flags_exit_2_with_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert result.stdout == ""


def test_selfplay_prints_win_rates_and_length() -> None:
    result = runner.invoke(app, ["selfplay", "--games", "6", "--seed", "3", "--players", "greedy,random"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "greedy" in out and "random" in out and "win rate" in out and "ties" in out
    assert "average game length:" in out and "turns" in out


def test_selfplay_is_reproducible() -> None:
    def table(seed: int) -> str:
        out = runner.invoke(app, ["selfplay", "--games", "8", "--seed", str(seed)]).stdout
        return out.rsplit(";", 1)[0]  # drop the elapsed time

    assert table(1) == table(1)


def test_through_the_main_entry_point() -> None:
    code = "from kubb3d.cli import main; main()"
    bad = run_python(["-c", code, "dames", "selfplay", "--games", "x"], cwd=ROOT)
    assert bad.returncode == 2
    assert bad.stderr.strip().count("\n") == 0 and bad.stderr.startswith("error: ")
    assert "Traceback" not in bad.stderr
    ok = run_python(["-c", code, "dames", "play", "--players", "human,random", "--seed", "1"], input="b1NN@h4\n",
                    cwd=ROOT)
    assert ok.returncode == 0 and "  1. S b1NN@h4" in ok.stdout
    # no 3D libraries are loaded by the board game
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, kubb3d.cli.dames; print('pyglet' in sys.modules, 'pybullet' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert probe.stdout.strip() == "False False"


def test_the_readmes_game_against_the_computer_asks_a_person_to_move() -> None:
    """The README offered `kubb3d dames play --players search,random` to play "against a computer
    player in the terminal": that plays two computers against each other and never asks for a
    move. The command the README gives there must seat a person (a prompt for a move) and a
    computer player (a move made without input)."""
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    m = re.search(r"against a computer player in the terminal \(`kubb3d dames ([^`]*)`", text)
    assert m, "the README's sentence on playing against the computer"
    args = m.group(1).split()
    result = runner.invoke(app, [*args, "--seed", "1"], input="")
    assert result.exit_code == 0, result.output
    assert "to move, roll" in result.output and "end of input" in result.output
    seats = re.search(r"Roll Kubb Dames: (.*); seed", result.output).group(1)
    assert "human" in seats and any(k in seats for k in ("search", "greedy", "random")), seats


def test_play_help_explains_the_move_notation() -> None:
    # A player reading `kubb3d dames play --help` learns how moves are written and
    # printed; the example there is a real move of the opening, ending where it says.
    from kubb3d.dames import DamesBoard

    result = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Moves are written <kubb's cell><path>@<ti-kubb's cell>, e.g. b1NE@d5" in text
    assert "one letter N, E, S or W per cell, as many cells as the ti-kubb shows" in text
    assert "A roll that ends the game has no @ part" in text
    assert "as the in-game 'position' command prints it" in text and "top-north-east faces, e.g. S124" in text
    board = DamesBoard()
    move = board.parse_move("b1NE@d5")
    board.push(move)
    assert board.kubb_at(1 * 8 + 2) is not None and board.kubb_at(1) is None  # now on c2, b1 empty
    assert board.ti_cell == 4 * 8 + 3  # d5

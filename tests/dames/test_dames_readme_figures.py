"""The self-play figures kubb3d/dames/README.md quotes come from the commands it names.

The row "A player with no kubb left" quotes the ties of ``kubb3d dames selfplay --seed 0`` (100
games of random players) with 2 and 4 players under both values of ``--eliminated``, and "Every
game ends" the average length of the 2-player default run; this test runs those commands (about
1 s each) and reads the README's numbers back.  The benchmark's figures are a dated record there.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kubb3d.cli.dames import app

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "kubb3d" / "dames" / "README.md"
runner = CliRunner()
FOUR = "random,random,random,random"


def _selfplay(players: str, eliminated: str | None) -> dict:
    flags = [] if eliminated is None else ["--eliminated", eliminated]
    result = runner.invoke(app, ["selfplay", "--seed", "0", "--players", players, *flags, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def runs() -> dict[tuple[int, str | None], dict]:
    """``(players, --eliminated)`` -> the JSON of the run; None: the flag left out (the default)."""
    return {
        (n, e): _selfplay("random,random" if n == 2 else FOUR, e)
        for n in (2, 4)
        for e in (None, "ends_game", "drops_out")
        if e is not None or n == 2
    }


def _text() -> str:
    return " ".join(README.read_text(encoding="utf-8").split())


def test_the_ties_quoted_for_a_player_with_no_kubb_left(runs) -> None:
    m = re.search(
        r"`kubb3d dames selfplay --seed 0`, with `--players random,random,random,random` for four, and "
        r"`--eliminated drops_out` for the option\): (\d+) ties with 2 players and (\d+) with 4 players by "
        r"default, against (\d+) and (\d+) with `drops_out`",
        _text(),
    )
    assert m, "the README row no longer quotes the ties in the form this test reads"
    quoted = tuple(int(g) for g in m.groups())
    measured = (
        runs[2, "ends_game"]["ties"],
        runs[4, "ends_game"]["ties"],
        runs[2, "drops_out"]["ties"],
        runs[4, "drops_out"]["ties"],
    )
    assert quoted == measured
    assert all(r["games"] == 100 for r in runs.values())


def test_the_default_is_ends_game(runs) -> None:
    default, drops_out = runs[2, None], runs[2, "drops_out"]
    assert (default["ties"], default["turns"]) == (runs[2, "ends_game"]["ties"], runs[2, "ends_game"]["turns"])
    assert default["turns"] != drops_out["turns"]


def test_the_length_of_random_games(runs) -> None:
    m = re.search(
        r"Random games last about (\d+) turns \(`kubb3d dames selfplay --seed 0`: ([\d.]+) on average over 100 games\)",
        _text(),
    )
    assert m
    mean = runs[2, "ends_game"]["mean_turns"]
    assert f"{mean:.1f}" == m.group(2)
    assert int(m.group(1)) == round(mean)

"""How a match ended, said in words (a new user read "P1 wins (round_cap; points P1 0, P2 0)"
without knowing what ended it or what the points were): the result line of ``kubb3d match`` and
each game line of ``kubb3d tournament``, for every way a match can end, in English and German."""

from __future__ import annotations

import re

import pytest

from kubb3d.cli.match import ENDINGS, TERMINATIONS, result_line
from kubb3d.cli.tournament import game_line, points_line
from kubb3d.i18n import translator
from kubb3d.rules.outcomes import Outcome, Termination
from kubb3d.rules.wikinger import CLOCK_WIN_POINTS, WIN_POINTS, GameResult

CODE_WORD = re.compile(r"\b[a-z]+_[a-z_]+\b")  # round_cap, early_king: names for programs


def _outcome(termination: Termination, winner: str | None, points: dict[str, int]) -> Outcome:
    return Outcome(termination, winner, points, {"P1": 0, "P2": 0}, "the referee's reason (DM §10)")


@pytest.mark.parametrize("termination", list(Termination))
@pytest.mark.parametrize("ruleset", ["dm", "wikinger", "kubbuteo"])
def test_every_ending_is_words_and_says_what_the_points_are(termination, ruleset):
    out = _outcome(termination, "P1", {"P1": 1, "P2": 0})
    how = termination.name.lower()
    assert how in TERMINATIONS and how in ENDINGS  # every Termination has its words
    for lang in ("en", "de"):
        line = translator(lang)(result_line(out, 90.0, ruleset))
        assert CODE_WORD.search(line) is None, line
        assert "the referee's reason (DM §10)" in line
    line = result_line(out, 90.0, ruleset)
    assert f"({ENDINGS[how]})" in line
    # DM and KT score a match by its sets (DM §3); WS by 2/1/0 points (WS "End of the Game")
    assert ("WS points" in line) == (ruleset == "wikinger")
    assert ("sets won: P1 1, P2 0" in line) == (ruleset != "wikinger")
    german = translator("de")(result_line(out, 90.0, ruleset))
    assert ENDINGS[how] not in german and "1,5 min" in german


def test_the_turn_cap_is_said_to_be_kubb3ds_rule_and_found_in_the_rules_doc():
    from pathlib import Path

    rules = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text()
    assert "docs/rules.md" in ENDINGS["round_cap"]
    assert "round cap ends the match when a set reaches 60 turns" in rules and "no rule book has one" in rules


def test_a_draw_is_a_draw():
    line = result_line(_outcome(Termination.ROUND_CAP, None, {"P1": 0, "P2": 0}), 60.0, "dm")
    assert line.startswith("result: draw (turn cap reached")


@pytest.mark.parametrize(
    "how,points,head",
    [
        ("king", (WIN_POINTS, 0), "T1 wins (the king felled)"),
        ("early_king", (0, WIN_POINTS), "T2 wins (the king felled early)"),
        ("time", (CLOCK_WIN_POINTS, 0), "T1 wins (time up)"),
        ("round_cap", (0, CLOCK_WIN_POINTS), "T2 wins (turn cap reached"),
        ("time", (0, 0), "draw (time up)"),
    ],
)
def test_a_tournament_game_says_how_it_ended(how, points, head):
    line = game_line(GameResult("T1", "T2", *points), how, "why (WS End of the Game)")
    assert line.startswith(f"T1 – T2: {head}") and f"{points[0]}:{points[1]} points" in line
    assert line.endswith("— why (WS End of the Game)") and CODE_WORD.search(line) is None


def test_the_points_line_gives_the_ws_points():
    from kubb3d.rules import get_ruleset

    line = points_line()
    assert f"{WIN_POINTS} for felling the king" in line and 'WS "End of the Game"' in line
    assert f"{CLOCK_WIN_POINTS} for more baseline kubbs standing when the " in line
    limit = get_ruleset("wikinger").time_limit_s
    assert limit is not None and f"the {limit / 60:g} minutes" in line

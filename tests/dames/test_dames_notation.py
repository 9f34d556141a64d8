"""Text notations for positions and moves: exact forms, errors, round trips."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubb3d.dames import DamesBoard, DamesRules, Move
from kubb3d.dames.players import RandomPlayer

START_2 = "1N153N153N153N153N153N1531/8/8/8/8/8/8/1S124S124S124S124S124S1241 SN S 2 - 0"
START_4 = "2N153N153N153N1532/8/W1326E145/W1326E145/W1326E145/W1326E145/8/2S124S124S124S1242 SENW S 2 - 0"


def test_start_positions() -> None:
    # RKD Règle du jeu: set-up (applied): „avec la valeur 1, sur la première ligne de son camp“
    assert DamesBoard().position() == START_2
    assert DamesBoard(rules=DamesRules(players=4)).position() == START_4
    assert DamesBoard(rules=DamesRules(opening_placement="last_player")).position().endswith(" SN S 2 ? 0")
    assert DamesBoard(START_4).rules.players == 4


def test_move_text() -> None:
    assert str(Move(1, "NE", 35)) == "b1NE@d5"
    assert str(Move(50, "N", None)) == "c7N"
    assert str(Move(None, "", 35)) == "@d5"
    assert Move.parse("B1ne@D5") == Move(1, "NE", 35)
    assert Move.parse("@d5") == Move(None, "", 35)


@pytest.mark.parametrize("text", ["", "b1", "b1NX@d5", "b1NE@", "b1NE@z9", "@", "i1N@d5", "b1NE@d5@e5", "NE"])
def test_bad_move_text(text: str) -> None:
    with pytest.raises(ValueError):
        Move.parse(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("8/8 SN S 2 - 0", "8 ranks"),
        ("8/8/8/8/8/8/8/8 SX S 2 - 0", "seats"),
        ("8/8/8/8/8/8/8/7 SN S 2 - 0", "rank 1 describes 7"),
        ("8/8/8/8/8/8/8/S1247 SN S 4 - 0", "ti-kubb value"),
        ("8/8/8/8/8/8/8/S1177 SN S 2 - 0", "bad kubb"),
        ("8/8/8/8/8/8/8/X1247 SN S 2 - 0", "unexpected 'X'"),
        ("8/8/8/8/8/8/8/S1247 SN E 2 - 0", "player to roll"),
        ("8/8/8/8/8/8/8/S1247 SN S 2 a1 0", "a kubb is there"),
        ("8/8/8/8/8/8/8/S1247 SN S 2 - x", "turn count"),
        ("8/8/8/8/8/8/8/S1247 SN S 2 j9 0", "cell"),
        ("8/8/8/8/8/8/8/8 SN S 2", "6 fields"),
        ("S124S124S124S124S124S124S1241/8/8/8/8/8/8/8 SN S 2 - 0", "7 kubbs"),
    ],
)
def test_bad_positions(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        DamesBoard(text)


def test_rules_must_match_the_seats() -> None:
    with pytest.raises(ValueError, match="seats SN but the rules are for SENW"):
        DamesBoard(START_2, DamesRules(players=4))


def _random_board(seed: int, plies: int, players: int, opening: str) -> DamesBoard:
    rules = DamesRules(players=players, opening_placement=opening)  # type: ignore[arg-type]
    board = DamesBoard(rules=rules)
    player = RandomPlayer(np.random.default_rng(seed))
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(player.choose(board))
    return board


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 40),
    players=st.sampled_from([2, 4]),
    opening=st.sampled_from(["none", "last_player"]),
)
def test_position_round_trip(seed: int, plies: int, players: int, opening: str) -> None:
    board = _random_board(seed, plies, players, opening)
    text = board.position()
    again = DamesBoard(text, board.rules)
    assert again.state == board.state
    assert again.position() == text
    assert again.count_legal_moves() == board.count_legal_moves()
    # every legal move prints and reads back as itself
    for move in list(board.legal_moves())[::37]:
        assert Move.parse(str(move)) == move
        assert board.parse_move(str(move)) == move


@given(
    start=st.one_of(st.none(), st.integers(0, 63)),
    path=st.text(alphabet="NESW", min_size=1, max_size=3),
    place=st.one_of(st.none(), st.integers(0, 63)),
)
def test_move_round_trip(start: int | None, path: str, place: int | None) -> None:
    if start is None and place is None:
        return
    move = Move(start, path if start is not None else "", place)
    assert Move.parse(str(move)) == move
    assert Move.parse(str(move).lower()) == move

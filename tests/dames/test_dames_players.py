"""Computer players: legal self-play, reproducibility, the search against brute force."""

from __future__ import annotations

import inspect
import random

import numpy as np
import pytest

from kubb3d.dames import DamesBoard, DamesRules, Outcome, Termination
from kubb3d.dames.board import LAST_LINE, finished_seat
from kubb3d.dames.players import (
    GreedyPlayer,
    RandomPlayer,
    SearchPlayer,
    evaluate,
    make_player,
    play_game,
    terminal_score,
)


def check_outcome(board: DamesBoard, outcome: Outcome) -> None:
    """The outcome is one the rules allow for the final position."""
    geo = board._geo
    assert outcome.points == board.points()
    best = max(outcome.points.values())
    leaders = [s for s, p in outcome.points.items() if p == best]
    assert outcome.winner == (leaders[0] if len(leaders) == 1 else None)
    if outcome.termination is Termination.ALL_ON_LAST_LINE:
        # that player has no kubb left off his last line
        assert all(
            geo.line[k.seat][c] == LAST_LINE for c, k in board.kubbs().items() if k.seat == outcome.player
        )
    else:
        assert finished_seat(geo, board.state) is None
        assert board.turn == outcome.player and board.legal_rolls() == []


def replay(record, rules: DamesRules) -> DamesBoard:
    board = DamesBoard(record.start_position, rules)
    for move in record.moves:
        board.push(move)  # raises if any move was illegal
    return board


def test_two_hundred_random_games_end_legally() -> None:
    rules = DamesRules()
    lengths = []
    for i in range(200):
        streams = np.random.SeedSequence([2024, i]).spawn(2)
        players = [RandomPlayer(np.random.default_rng(s)) for s in streams]
        record = play_game(players, rules)
        assert record.outcome is not None
        board = replay(record, rules)
        assert board.outcome() == record.outcome
        check_outcome(board, record.outcome)
        lengths.append(record.turns)
    # every move advances a kubb or takes one out, so games are short
    assert max(lengths) < 120


@pytest.mark.parametrize(
    "rules",
    [
        DamesRules(players=4),
        DamesRules(players=4, eliminated="drops_out", diagonal_combat=True),
        DamesRules(straight_only=True, multi_combat="weakest_first", opening_placement="last_player"),
        DamesRules(roll_through_kubbs=True, forced_capture=True, multi_combat="strongest_first"),
        DamesRules(eliminated="drops_out", start_front=3, start_right=2),
    ],
    ids=["4p", "4p-dropout-diag", "straight-weakest-opening", "through-forced-strongest", "dropout-mirror-die"],
)
def test_random_games_under_other_rules(rules: DamesRules) -> None:
    for i in range(25):
        streams = np.random.SeedSequence([7, i]).spawn(rules.players)
        players = [RandomPlayer(np.random.default_rng(s)) for s in streams]
        record = play_game(players, rules)
        board = replay(record, rules)
        assert record.outcome is not None and board.outcome() == record.outcome
        check_outcome(board, record.outcome)


@pytest.mark.parametrize(
    "kinds", [("random", "greedy"), ("search", "random"), ("greedy", "search", "random", "search")]
)
def test_same_seed_same_game(kinds: tuple[str, ...]) -> None:
    rules = DamesRules(players=len(kinds))  # type: ignore[arg-type]

    def game(seed: int) -> list[str]:
        streams = np.random.SeedSequence(seed).spawn(len(kinds))
        players = [make_player(k, np.random.default_rng(s), depth=2) for k, s in zip(kinds, streams)]
        return [str(m) for m in play_game(players, rules).moves]

    assert game(11) == game(11)
    assert game(11) != game(12)


def test_players_use_no_global_random_state() -> None:
    np_state = np.random.get_state()[1].copy()
    py_state = random.getstate()
    kinds = ("random", "greedy", "search")
    for kind in kinds:
        params = inspect.signature(
            {"random": RandomPlayer, "greedy": GreedyPlayer, "search": SearchPlayer}[kind]
        ).parameters
        assert params["rng"].default is inspect.Parameter.empty
    streams = np.random.SeedSequence(3).spawn(2)
    play_game(
        [
            make_player("search", np.random.default_rng(streams[0])),
            make_player("greedy", np.random.default_rng(streams[1])),
        ]
    )
    assert np.array_equal(np.random.get_state()[1], np_state)
    assert random.getstate() == py_state


def test_bad_player_arguments() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="unknown player"):
        make_player("clever", rng)
    with pytest.raises(ValueError, match="depth"):
        SearchPlayer(rng, depth=0)
    with pytest.raises(ValueError, match="time limit"):
        SearchPlayer(rng, time_limit=0)
    with pytest.raises(ValueError, match="2 players needed"):
        play_game([RandomPlayer(rng)])


# ----- the search is exact minimax --------------------------------------------


def brute_force(board: DamesBoard, root: str, depth: int) -> float:
    """Plain minimax over every move (roll and ti-kubb cell), paranoid for 4 players.

    The static evaluation ignores the ti-kubb, so at the last level one
    placement per roll stands for all of them.
    """
    geo, st = board._geo, board.state
    if finished_seat(geo, st) is not None:
        return terminal_score(geo, st, root)
    if depth == 0:
        return evaluate(geo, st, root)
    if board.outcome() is not None:  # blockade
        return terminal_score(geo, st, root)
    values = []
    moves = list(board.legal_moves())
    if depth == 1:
        seen = set()
        moves = [m for m in moves if (m.start, m.path) not in seen and not seen.add((m.start, m.path))]
    for move in moves:
        board.push(move)
        values.append(brute_force(board, root, depth - 1))
        board.pop()
    return max(values) if board.turn == root else min(values)


SMALL_POSITIONS = [
    # two kubbs each in the middle game, S to roll 2
    ({"c3": "S531", "f4": "S124", "d6": "N153", "e5": "N312"}, "SN", "S", 2, None),
    # a race to the last lines with a possible blockade, N to roll 1
    ({"b7": "S124", "a8": "S531", "g2": "N624", "h1": "N153", "d4": "N213"}, "SN", "N", 1, "c5"),
    # four players, W to roll 3
    ({"b4": "W132", "e2": "S124", "f5": "E145", "d6": "N153"}, "SENW", "W", 3, None),
]


@pytest.mark.parametrize("case", SMALL_POSITIONS, ids=["2p-middle", "2p-race", "4p"])
def test_search_value_equals_brute_force(case) -> None:
    kubbs, seats, to_roll, value, ti = case
    rules = DamesRules(players=len(seats))  # type: ignore[arg-type]
    board = DamesBoard.from_kubbs(kubbs, rules=rules, to_roll=to_roll, ti_value=value, ti_cell=ti)
    player = SearchPlayer(np.random.default_rng(0), depth=2)
    move = player.choose(board)
    assert board.is_legal(move)
    assert player.stats.value == pytest.approx(brute_force(board, board.turn, 2))
    # the move it picked is worth that value
    board.push(move)
    child = (
        brute_force(board, to_roll, 1) if board.outcome() is None else terminal_score(board._geo, board.state, to_roll)
    )
    assert child == pytest.approx(player.stats.value)


def test_search_blocks_to_end_a_won_game() -> None:
    # S leads 5-0 (a8).  N's only kubb, h2, will roll 2: SW (via h1) and WS (via
    # g2) both end on g1, its last line; SS leaves the board, WW is sideways.
    # A ti-kubb on g1 blocks N completely, which ends the game in S's favour:
    # the search must find that placement.
    board = DamesBoard.from_kubbs({"a8": "S531", "d5": "S124", "h2": "N153"}, to_roll="S", ti_value=1)
    move = SearchPlayer(np.random.default_rng(1), depth=2).choose(board)
    assert move.place == 6  # g1
    board.push(move)
    out = board.outcome()
    assert out is not None and out.termination is Termination.BLOCKADE and out.winner == "S"


def test_search_time_limit() -> None:
    board = DamesBoard()
    player = SearchPlayer(np.random.default_rng(0), depth=8, time_limit=0.2)
    move = player.choose(board)
    assert board.is_legal(move)
    assert 1 <= player.stats.depth < 8


def test_search_beats_random_in_a_few_games() -> None:
    wins = 0
    for i in range(6):
        streams = np.random.SeedSequence([99, i]).spawn(2)
        search = SearchPlayer(np.random.default_rng(streams[0]), depth=2)
        rand = RandomPlayer(np.random.default_rng(streams[1]))
        players = [search, rand] if i % 2 == 0 else [rand, search]
        record = play_game(players)
        assert record.outcome is not None
        wins += record.outcome.winner == ("S" if i % 2 == 0 else "N")
    assert wins >= 5

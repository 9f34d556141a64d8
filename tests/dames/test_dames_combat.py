"""Combat, frozen kubbs, the end of the game and scoring, four players.

The RKD rule book, Combat: « Si le Kubb d'un joueur venant de jouer est positionné à
côté d'un Kubb adverse, il y a combat : le Kubb ayant la valeur la plus élevée
remporte le combat et « prend » le Kubb ... ayant la valeur la plus faible ...
Si les 2 valeurs sont identiques ... les 2 Kubbs sont « sortis » du jeu.  Les
Kubbs de la dernière ligne de chaque camp restent « figés » et ne peuvent plus
être déplacés, ni combattre, ni être combattus. »
But du jeu: the game ends when a player has all his kubbs still in play on his
last line, or cannot play (blockade); the most points (top values on the last
line) wins.
"""

from __future__ import annotations

import pytest

from kubb3d.dames import DamesBoard, DamesRules, IllegalMoveError, Move, Termination, parse_cell

# A mover on d3 with die top 5, north 3, east 1 rolls N to d4 and shows 7 - 3 = 4.
MOVER = {"d3": "S531"}
# Reserve kubbs far away, so that nobody runs out of kubbs.
RESERVES = {"a1": "S124", "h8": "N153"}


def board_with(opponents: dict[str, str], rules: DamesRules | None = None) -> DamesBoard:
    return DamesBoard.from_kubbs({**MOVER, **RESERVES, **opponents}, rules=rules, ti_value=1)


def test_mover_top_value_after_the_roll() -> None:
    board = board_with({})
    board.push(Move.parse("d3N@h5"))
    assert board.kubb_at(27).top == 4  # d4


@pytest.mark.parametrize(
    ("their_top", "mover_stays", "they_stay"),
    [
        (2, True, False),  # higher (4 > 2) takes the lower
        (6, False, True),  # lower (4 < 6) is taken
        (4, False, False),  # equal values: both leave the game
    ],
)
def test_single_combat(their_top: int, mover_stays: bool, they_stay: bool) -> None:
    # RKD Combat (applied): „le Kubb ayant la valeur la plus élevée remporte le combat“
    die = {2: "N213", 6: "N624", 4: "N412"}[their_top]
    board = board_with({"d5": die})
    board.push(Move.parse("d3N@h5"))
    assert (board.kubb_at(27) is not None) == mover_stays  # d4
    assert (board.kubb_at(35) is not None) == they_stay  # d5
    assert len(board.last_removed) == (not mover_stays) + (not they_stay)
    board.pop()
    assert board.kubb_at(35) is not None and board.kubb_at(19) is not None


def test_only_the_moved_kubb_fights() -> None:
    # N's kubb on e3 already touches S's d3 mover-to-be; nothing happens until
    # a kubb moves next to an opponent, and then only that kubb fights.
    # RKD Combat (boundary): „le Kubb ayant la valeur la plus élevée remporte le combat“
    board = board_with({"e3": "N624", "c5": "N213"})
    board.push(Move.parse("a1N@h5"))  # S's reserve moves: no combat on d3/e3
    assert board.kubb_at(20) is not None and board.kubb_at(19) is not None
    assert board.last_removed == ()


def test_diagonal_neighbours_fight_only_with_the_option() -> None:
    # After d3N the mover (top 4) is on d4, diagonal to N's top-2 kubb on e5.
    board = board_with({"e5": "N213"})
    board.push(Move.parse("d3N@h5"))
    assert board.kubb_at(36) is not None
    board = board_with({"e5": "N213"}, DamesRules(diagonal_combat=True))
    board.push(Move.parse("d3N@h5"))
    assert board.kubb_at(36) is None


# Three opponents round d4 for the mover (top 4): c4 top 2, e4 top 4, d5 top 4.
THREE = {"c4": "N213", "e4": "N412", "d5": "N415"}


@pytest.mark.parametrize(
    ("mode", "left"),
    [
        # every pair fights on the values at arrival: 2 is taken, both 4s leave
        # with the mover.
        ("simultaneous", set()),
        # c4 (2) is taken, then e4 and d5 (both 4) fight together: both leave
        # with the mover.
        ("weakest_first", set()),
        # e4 and d5 (4) first, together: both leave with the mover; c4 never fights.
        ("strongest_first", {"c4"}),
    ],
)
def test_several_opponents(mode: str, left: set[str]) -> None:
    board = board_with(THREE, DamesRules(multi_combat=mode))  # type: ignore[arg-type]
    board.push(Move.parse("d3N@h5"))
    assert board.kubb_at(27) is None  # the mover is out in every mode
    still = {name for name, cell in {"c4": 26, "e4": 28, "d5": 35}.items() if board.kubb_at(cell) is not None}
    assert still == left


# THREE with the colours swapped: the board turned half round (d4 -> e5, c4 -> f5,
# e4 -> d5, d5 -> e4), S and N exchanged, each die turned with it (north and east
# faces become south and west: top, 7 - north, 7 - east).
THREE_SWAPPED = {"e6": "N546", "f5": "S264", "d5": "S465", "e4": "S462", "h8": "N153", "a1": "S124"}
TURNED = {"c4": "f5", "e4": "d5", "d5": "e4"}


@pytest.mark.parametrize("mode", ["simultaneous", "weakest_first", "strongest_first"])
def test_several_opponents_do_not_depend_on_which_side_the_board_is_seen_from(mode: str) -> None:
    # Swapping the colours must swap the result: which of two equal opponents
    # fights first may not follow the board's a1..h8 order (found by the
    # colour-swap relation of the independent RKD engine's comparison).
    rules = DamesRules(multi_combat=mode)  # type: ignore[arg-type]
    board = board_with(THREE, rules)
    board.push(Move.parse("d3N@h5"))
    swapped = DamesBoard.from_kubbs(THREE_SWAPPED, rules=rules, to_roll="N", ti_value=1)
    swapped.push(Move.parse("e6S@a4"))
    left = {c for c in TURNED if board.kubb_at(parse_cell(c)) is not None}
    left_swapped = {c for c, t in TURNED.items() if swapped.kubb_at(parse_cell(t)) is not None}
    assert left == left_swapped
    assert swapped.kubb_at(parse_cell("e5")) is None  # the mover is out, as on the other side


def test_frozen_kubbs_neither_fight_nor_are_fought() -> None:
    # N's kubb on c1 is on N's last line (rank 1): frozen.  S's c3 kubb rolling
    # south to c2 would touch it but that is no attack, so the backward roll is
    # illegal; S's b2 kubb rolling east to c2 likewise.
    # RKD Combat: frozen (applied): „Les Kubbs de la dernière ligne de chaque camp restent“
    board = DamesBoard.from_kubbs({"c1": "N624", "c3": "S124", "b2": "S124", "h8": "N153"}, ti_value=1)
    for text in ("c3S@h5", "b2E@h5"):
        with pytest.raises(IllegalMoveError, match="advance"):
            board.push(Move.parse(text))
    # A kubb arriving on its own last line is frozen at once and does not fight:
    # S's c7 kubb rolls onto c8 next to N's d8 kubb (N's first line, not frozen).
    board = DamesBoard.from_kubbs({"c7": "S124", "d8": "N153", "a1": "S124", "h1": "N153"}, ti_value=1)
    board.push(Move.parse("c7N@h5"))
    assert board.is_frozen(58) and board.kubb_at(59) is not None
    # ... nor is it fought: N's d8 kubb rolling 2 (S then W) to c7, next to it,
    # leaves both in place.
    board.push(Move.parse("d8SW@h5"))
    assert board.kubb_at(58) is not None and board.kubb_at(50) is not None
    assert board.last_removed == ()


def test_blockade_ends_the_game() -> None:
    # S's only movable kubb, h7, must roll 1: h8 holds the ti-kubb, g7 is
    # sideways with no opponent near, h6 goes back.  S is blocked.
    # Points: S has a8 (5) + b8 (3) = 8 on rank 8, N has a1 (6) on rank 1.
    # RKD Règle du jeu: blocked (applied): „Si un joueur ne peut pas jouer (blocage), fin de la partie“
    board = DamesBoard.from_kubbs(
        {"h7": "S124", "a8": "S531", "b8": "S312", "a1": "N624", "d5": "N153"}, ti_value=1, ti_cell="h8"
    )
    assert board.legal_rolls() == [] and list(board.legal_moves()) == []
    out = board.outcome()
    assert out is not None
    assert out.termination is Termination.BLOCKADE and out.player == "S"
    assert out.points == {"S": 8, "N": 6} and out.winner == "S"
    with pytest.raises(IllegalMoveError, match="over"):
        board.push(Move.parse("h7W@a3"))


def test_all_on_last_line_ends_the_game_and_scores() -> None:
    # S's last movable kubb a7 rolls N onto a8 (top 7 - 2 = 5); b8 (top 3) is
    # already there.  The game ends with that roll: no ti-kubb placement.
    # RKD But du jeu (applied): „le plus de points avec les Kubbs de la dernière ligne de son camp“
    board = DamesBoard.from_kubbs({"a7": "S124", "b8": "S312", "c1": "N624", "d5": "N153"}, ti_value=1)
    assert list(board.legal_moves()) == [Move(48, "N", None)]  # a7E would be sideways
    with pytest.raises(IllegalMoveError, match="ends the game"):
        board.push(Move.parse("a7N@e5"))
    assert board.parse_move("a7N@e5") == Move(48, "N", None)  # a person's extra placement is dropped
    board.push(Move.parse("a7N"))
    out = board.outcome()
    assert out is not None and out.termination is Termination.ALL_ON_LAST_LINE and out.player == "S"
    assert out.points == {"S": 8, "N": 6} and out.winner == "S"
    assert "S wins 8-6" in out.result()


def test_equal_points_is_a_tie() -> None:
    # RKD But du jeu (boundary): „le plus de points avec les Kubbs de la dernière ligne de son camp“
    board = DamesBoard.from_kubbs({"a7": "S124", "c1": "N531", "d5": "N153"}, ti_value=1)
    board.push(Move.parse("a7N"))
    out = board.outcome()
    assert out is not None and out.points == {"S": 5, "N": 5} and out.winner is None


def test_losing_every_kubb_ends_the_game_by_default() -> None:
    # RKD But du jeu: no kubb left (applied): « Quand un joueur à tous ses Kubbs (ceux qui sont encore enjeu) sur la
    # dernière ligne de son camp, ou ne peut pas jouer (blocage) la partie est finie ».
    # S's only kubb d4 rolls E to e4 showing 3 next to N's f4 kubb of top 3: both leave.
    # All of S's (zero) kubbs still in play are on his last line and he cannot play: the
    # game ends at once, so d4E has no placement (61 + 1 moves).  The end message says
    # so instead of "all his kubbs".
    kubbs = {"d4": "S124", "f4": "N312", "a8": "N153"}
    board = DamesBoard.from_kubbs(kubbs, ti_value=1)
    assert board.rules.eliminated == "ends_game"
    assert board.count_legal_moves() == 61 + 1
    board.push(Move.parse("d4E"))
    out = board.outcome()
    assert out is not None and out.termination is Termination.ALL_ON_LAST_LINE
    assert out.player == "S" and out.winner is None and out.kubbs_left == 0
    assert out.result() == "tie 0-0 (S has no kubb left in play)"
    # kubb3d's variant: S drops out, d4E needs a placement among 63 free cells
    # (61 + 63 moves), and N plays on alone.
    board = DamesBoard.from_kubbs(kubbs, rules=DamesRules(eliminated="drops_out"), ti_value=1)
    assert board.count_legal_moves() == 61 + 63
    board.push(Move.parse("d4E@h1"))
    assert board.outcome() is None and board.turn == "N"
    board.push(board.parse_move("a8SS@h5"))
    assert board.turn == "N"  # S is skipped; N places the ti-kubb for himself


def test_a_player_with_one_kubb_left_plays_on() -> None:
    # RKD But du jeu: no kubb left (boundary): « tous ses Kubbs (ceux qui sont encore enjeu) sur
    # la dernière ligne »: the same combat with a second S kubb on b2, off his last line: S
    # still has a kubb in play that can roll, so the game goes on and d4E needs a placement.
    board = DamesBoard.from_kubbs({"d4": "S124", "b2": "S124", "f4": "N312", "a8": "N153"}, ti_value=1)
    board.push(Move.parse("d4E@h1"))
    assert sorted(c for c, _ in board.last_removed) == [parse_cell("e4"), parse_cell("f4")]
    assert set(board.kubbs()) == {parse_cell("b2"), parse_cell("a8")}
    assert board.outcome() is None and board.turn == "N"


def test_four_players_turn_order_and_directions() -> None:
    # Counter-clockwise seen from above: S (rank 1), E (file h), N (rank 8), W (file a).
    # RKD Règle du jeu: turn order (applied): „dans le sens contraire des aiguilles d'une montre“
    rules = DamesRules(players=4)
    board = DamesBoard(rules=rules)
    assert rules.seats == "SENW"
    board.push(Move.parse("c1NN@a8"))
    # E (h3..h6) now rolls 3 towards file a (its last line).  Counted by hand:
    #   h3: WWW; WNW, WWN, WSW, WWS, SWW; WNN, WSS, SWN, SWS, SSW  (11; paths
    #       starting N hit h4)
    #   h6: the mirror image: 11
    #   h4, h5: only paths starting W (N and S hit neighbours): WWW, WNW, WSW,
    #       WWN, WWS, WNN, WSS: 7 each
    # 11 + 11 + 7 + 7 = 36
    assert board.turn == "E" and board.ti_value == 3
    assert len(board.legal_rolls()) == 36
    assert all(r.end % 8 < r.start % 8 for r in board.legal_rolls())  # all gain ground westwards
    turns, values = [], []
    for _ in range(6):
        turns.append(board.turn)
        values.append(board.ti_value)
        roll = board.legal_rolls()[0]
        free = next(c for c in range(64) if board.kubb_at(c) is None and c != roll.end)
        board.push(Move(roll.start, roll.path, free))
    assert turns == ["E", "N", "W", "S", "E", "N"]
    assert values == [3, 1, 2, 3, 1, 2]


def test_four_players_everyone_else_is_an_opponent_and_last_lines() -> None:
    rules = DamesRules(players=4)
    # W's kubb on b4 (die of W: top 1, north 3, east 2) rolls E to c4 showing 7 - 2 = 5
    # next to S's kubb on c3 (top 2) and E's kubb on d4 (top 6): simultaneous
    # combat: S's c3 is taken, E's d4 takes the mover.
    board = DamesBoard.from_kubbs(
        {"b4": "W132", "c3": "S213", "d4": "E624", "a5": "W132", "e1": "S124", "h5": "E145", "d8": "N153"},
        rules=rules,
        to_roll="W",
        ti_value=1,
    )
    board.push(Move.parse("b4E@h3"))
    assert board.kubb_at(26) is None and board.kubb_at(18) is None and board.kubb_at(27) is not None
    assert board.turn == "S"
    # last lines: S rank 8, E file a, N rank 1, W file h
    assert DamesBoard.from_kubbs({"a4": "E145"}, rules=rules).is_frozen(24)
    assert DamesBoard.from_kubbs({"h4": "W132"}, rules=rules).is_frozen(31)
    assert not DamesBoard.from_kubbs({"h4": "E145"}, rules=rules).is_frozen(31)

"""Legal moves: counts worked out by hand (perft style), the ti-kubb, the rule options.

The RKD rule book, Déroulement du jeu: the player rolls ONE kubb exactly the ti-kubb's
value, orthogonally (« sauf diagonale »), never back over its own path, and
« Il doit progresser/avancer d'au moins une ligne à chaque coup, sauf quand il
attaque un Kubb adverse »; then he puts the ti-kubb on any free cell.

A move here is a roll plus the ti-kubb's cell, so a position's move count is
the sum over its legal rolls of the free cells left after that roll (or 1 when
the roll ends the game and no placement follows).
"""

from __future__ import annotations

import pytest

from kubb3d.dames import DamesBoard, DamesRules, IllegalMoveError, Move


def perft(board: DamesBoard, depth: int) -> int:
    """Number of move sequences of length ``depth`` (python-chess style)."""
    if depth == 0:
        return 1
    if depth == 1:
        return board.count_legal_moves()
    total = 0
    for move in list(board.legal_moves()):
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def rolls(board: DamesBoard) -> list[str]:
    return sorted(str(r) for r in board.legal_rolls())


# ----- the opening ---------------------------------------------------------------


def test_start_two_players() -> None:
    # S has kubbs on b1..g1 and rolls 2 (the ti-kubb starts at 2 and is off the
    # board).  A roll must gain a line, so every path starts or ends going north:
    #   every kubb: NN, NE, NW (3 each, 18); the sideways-first paths EN / WN
    #   need the neighbouring cell of rank 1 free: only b1 (via a1) and g1
    #   (via h1) have one: +2.  EE, WW stay on the first line: not advancing.
    # 20 rolls; none fights, so 12 kubbs stay and 64 - 12 = 52 cells are free
    # for the ti-kubb: 20 * 52 = 1040 moves.
    # RKD Règle du jeu: turn order (boundary): „dans le sens contraire des aiguilles d'une montre“
    # RKD Nombre de joueurs (applied): „Kubbs par joueur“
    board = DamesBoard()
    assert board.turn == "S" and board.ti_value == 2 and board.ti_cell is None
    assert len(board.legal_rolls()) == 20
    assert "b1WN" in rolls(board) and "g1EN" in rolls(board) and "c1EN" not in rolls(board)
    assert board.count_legal_moves() == 1040
    assert len(list(board.legal_moves())) == 1040
    assert perft(board, 1) == 1040


def test_start_four_players() -> None:
    # S has c1..f1: NN, NE, NW each (12) + c1WN (via b1) + f1EN (via g1) = 14
    # rolls; 16 kubbs on the board leave 48 free cells: 14 * 48 = 672 moves.
    # RKD Nombre de joueurs (boundary): „Kubbs par joueur“
    board = DamesBoard(rules=DamesRules(players=4))
    assert len(board.legal_rolls()) == 14
    assert board.count_legal_moves() == 14 * 48


# ----- one kubb in the open --------------------------------------------------


@pytest.mark.parametrize(
    ("value", "n_rolls"),
    [
        # value 1: only N gains a line.
        (1, 1),
        # value 2: NN, NE, NW, EN, WN gain a line; EE, WW, ES, WS, SE, SW, SS do not.
        (2, 5),
        # value 3: the 36 non-reversing 3-roll paths; gaining a line needs more
        # N than S rolls, and an S next to an N would be a reversal, so no S:
        #   NNN (1); two N and one E/W anywhere (3 places x 2 = 6);
        #   one N and two E/W that do not reverse each other:
        #   N first or last with EE or WW (2 + 2), N in the middle with any
        #   of E/W on each side (4): 8.   1 + 6 + 8 = 15.
        (3, 15),
    ],
)
def test_lone_kubb_in_the_middle(value: int, n_rolls: int) -> None:
    # S on d4, far from N's only kubb on a8: 2 kubbs, 62 free cells after any roll.
    # RKD Déroulement du jeu: rolling (applied): „dans n'importe quelle direction sauf diagonale“
    # RKD Règle du jeu: blocked (boundary): „Si un joueur ne peut pas jouer (blocage), fin de la partie“
    board = DamesBoard.from_kubbs({"d4": "S124", "a8": "N153"}, ti_value=value)
    assert len(board.legal_rolls()) == n_rolls
    assert board.count_legal_moves() == n_rolls * 62


def test_corner_kubb() -> None:
    # S on a1 rolling 2: NN (a3), NE (b2), EN (b1 then b2); everything else
    # either leaves the board or stays on rank 1.
    board = DamesBoard.from_kubbs({"a1": "S124", "h8": "N153"}, ti_value=2)
    assert rolls(board) == ["a1EN", "a1NE", "a1NN"]


def test_ti_kubb_blocks_its_cell() -> None:
    # As the value-2 case above with the ti-kubb on d5: NN, NE and NW all pass
    # d5, leaving EN and WN.  The ti-kubb is picked up, so 62 cells are free.
    # RKD Règle du jeu: ti-kubb (boundary): „La valeur du petit Kubb noir (le ti-kubb) débute à 2“
    board = DamesBoard.from_kubbs({"d4": "S124", "a8": "N153"}, ti_value=2, ti_cell="d5")
    assert rolls(board) == ["d4EN", "d4WN"]
    assert board.count_legal_moves() == 2 * 62
    # ... and the ti-kubb may go back where it was
    assert board.is_legal(Move.parse("d4EN@d5"))
    with pytest.raises(IllegalMoveError, match="ti-kubb on d5 blocks"):
        board.push(Move.parse("d4NN@a1"))


def test_perft_two_turns_with_blocking_placements() -> None:
    # S on a6 rolls 1: only a6N gains a line (b6 is sideways and no opponent is
    # near): 1 roll x 62 free cells = 62 moves.
    # N on h3 then rolls 2 towards rank 1.  Without the ti-kubb in the way it has
    #   h3SS -> h1 (its last line: frozen, N then has every kubb there, the game
    #             ends, so this move has no placement: counts 1),
    #   h3SW -> g2 and h3WS -> g2 (62 placements each).
    # So N has 1 + 62 + 62 = 125 moves, unless S's ti-kubb is on a path cell:
    #   h2 (SS and SW pass it): 62;  h1 (end of SS): 124;  g2 (end of SW and
    #   WS): 1;  g3 (WS passes it): 63.   The other 58 free cells: 125 each.
    # perft(2) = 58 * 125 + 62 + 124 + 1 + 63 = 7500.
    board = DamesBoard.from_kubbs({"a6": "S124", "h3": "N153"}, ti_value=1)
    assert perft(board, 1) == 62
    assert perft(board, 2) == 7500


def test_sideways_move_is_allowed_only_as_an_attack() -> None:
    # S on b4 rolling 1: N (b5) gains a line; E (c4) is an attack on N's d4...
    # no: c4 touches d4, so it is an attack and allowed; W (a4) is neither.
    # RKD Déroulement du jeu: progress (applied): „sauf quand il attaque un Kubb adverse“
    board = DamesBoard.from_kubbs({"b4": "S124", "d4": "N312", "a8": "N153"}, ti_value=1)
    assert rolls(board) == ["b4E", "b4N"]
    with pytest.raises(IllegalMoveError, match="advance at least one line"):
        board.push(Move.parse("b4W@h5"))


def test_backward_attack_is_allowed() -> None:
    # S on d5 rolling 1 south to d4 touches N's d3 kubb: an attack, so allowed.
    # RKD Déroulement du jeu: progress (boundary): „sauf quand il attaque un Kubb adverse“
    board = DamesBoard.from_kubbs({"d5": "S124", "d3": "N312", "a8": "N153"}, ti_value=1)
    assert "d5S" in rolls(board)


def test_kubbs_block_paths_and_cells() -> None:
    # S on d4 and d5 rolling 2.  d4: NN, NE, NW pass d5 (own kubb): only EN, WN.
    # d5: NN, NE, NW, EN, WN (d4 behind it is not in the way).  7 rolls.
    board = DamesBoard.from_kubbs({"d4": "S124", "d5": "S124", "a8": "N153"}, ti_value=2)
    assert len(board.legal_rolls()) == 7
    # with roll_through_kubbs d4 may cross d5: NN, NE, NW come back: 10.
    rules = DamesRules(roll_through_kubbs=True)
    board = DamesBoard.from_kubbs({"d4": "S124", "d5": "S124", "a8": "N153"}, rules=rules, ti_value=2)
    assert len(board.legal_rolls()) == 10
    # ... but never onto an occupied cell or through the ti-kubb
    board = DamesBoard.from_kubbs(
        {"d4": "S124", "d6": "S124", "a8": "N153"}, rules=rules, ti_value=2, ti_cell="e5"
    )
    assert "d4NN" not in rolls(board) and "d4NE" not in rolls(board)


def test_straight_only_option() -> None:
    # Straight runs only: the lone d4 kubb can only go north (NN), not NE, EN...
    rules = DamesRules(straight_only=True)
    board = DamesBoard.from_kubbs({"d4": "S124", "a8": "N153"}, rules=rules, ti_value=3)
    assert rolls(board) == ["d4NNN"]
    with pytest.raises(IllegalMoveError, match="straight"):
        board.push(Move.parse("d4NEN@a1"))


def test_frozen_kubbs_do_not_move() -> None:
    # S's kubb on c8 is on its last line: frozen; only d4 moves (value 1: N).
    # RKD Combat: frozen (boundary): „Les Kubbs de la dernière ligne de chaque camp restent“
    board = DamesBoard.from_kubbs({"c8": "S124", "d4": "S124", "a8": "N153"}, ti_value=1)
    assert rolls(board) == ["d4N"]
    with pytest.raises(IllegalMoveError, match="frozen"):
        board.push(Move.parse("c8S@a1"))


def test_reasons_for_illegal_moves() -> None:
    # RKD Déroulement du jeu: rolling (boundary): „dans n'importe quelle direction sauf diagonale“
    board = DamesBoard()
    cases = {
        "a1NN@e5": "no kubb on a1",
        "b8SS@e5": "belongs to N",
        "b1N@e5": "roll exactly 2",
        "b1NS@e5": "go back over its own path",
        "b1WW@e5": "leaves the board",
        "b1EN@e5": "c1 is occupied",
        "b1NN@c1": "free cell",
        "b1NN": "where the ti-kubb goes",
        "@e5": "must roll",
    }
    for text, reason in cases.items():
        with pytest.raises(IllegalMoveError, match=reason):
            board.push(Move.parse(text))
    assert board.move_stack == []


def test_forced_capture_option() -> None:
    # S on b4 (die 1,2,4) rolling 1: N to b5 (top 5) or E to c4 (top 3) next to
    # N's d4 kubb of top 2, which the roll E would take.  Normally both rolls
    # are legal; with forced_capture only the taking one is.
    kubbs = {"b4": "S124", "d4": "N213", "a8": "N153"}
    assert rolls(DamesBoard.from_kubbs(kubbs, ti_value=1)) == ["b4E", "b4N"]
    board = DamesBoard.from_kubbs(kubbs, rules=DamesRules(forced_capture=True), ti_value=1)
    assert rolls(board) == ["b4E"]
    with pytest.raises(IllegalMoveError, match="compulsory"):
        board.push(Move.parse("b4N@h5"))


def test_opening_placement_by_the_last_player() -> None:
    # With opening_placement="last_player", N (last in the round) first puts the
    # ti-kubb down for S's first move (52 free cells), then S rolls 2.
    rules = DamesRules(opening_placement="last_player")
    board = DamesBoard(rules=rules)
    assert board.turn == "N" and board.roller == "S" and board.legal_rolls() == []
    assert board.count_legal_moves() == 52
    board.push(Move.parse("@d2"))
    # d2 blocks c1NE, d1NN, d1NE, d1NW, e1NW: 20 - 5 = 15 rolls
    assert board.turn == "S" and board.ti_cell == 11 and board.ply == 0
    assert len(board.legal_rolls()) == 15
    assert board.position().endswith(" SN S 2 d2 0")


def test_push_pop_restores_everything() -> None:
    board = DamesBoard()
    start = board.position()
    for text in ["b1NN@e5", "c8SSS@d2", "b3N@a8"]:
        board.push(board.parse_move(text))
    assert board.ply == 3 and board.ti_value == 2
    assert [str(m) for m in board.move_stack] == ["b1NN@e5", "c8SSS@d2", "b3N@a8"]
    for _ in range(3):
        board.pop()
    assert board.position() == start
    with pytest.raises(IndexError):
        board.pop()


def test_ti_value_cycle() -> None:
    # « débute à 2, avec le premier joueur, puis 3 ... puis 1 ... puis 2 »
    # RKD Règle du jeu: ti-kubb (applied): „La valeur du petit Kubb noir (le ti-kubb) débute à 2“
    board = DamesBoard()
    values = []
    for text in ["b1NN@h4", "b8SSS@h5", "b3N@h4", "c8SS@h5", "c1NNN@h4"]:
        values.append(board.ti_value)
        board.push(board.parse_move(text))
    assert values == [2, 3, 1, 2, 3]


def test_parse_move_conveniences() -> None:
    board = DamesBoard()
    # lower case, spaces, a space instead of '@'
    assert board.parse_move(" b1 nn @ e5 ") == Move(1, "NN", 36)
    assert board.parse_move("b1NN e5") == Move(1, "NN", 36)
    # destination instead of path when the path is unique
    assert board.parse_move("b1-b3@e5") == Move(1, "NN", 36)
    # b1 to a2 has two paths (NW, WN) leaving different faces on top
    with pytest.raises(IllegalMoveError, match="several paths"):
        board.parse_move("b1-a2@e5")
    with pytest.raises(IllegalMoveError, match="no legal roll"):
        board.parse_move("b1-b2@e5")
    with pytest.raises(IllegalMoveError, match="cannot read"):
        board.parse_move("hello")

"""Roll Kubb Dames: the board game of rolling dice-kubbs (seed ``RKD``).

An 8×8 board on which each kubb is a die that moves by rolling over its edges;
a small black ti-kubb sets the distance of each move (2, 3, 1, 2, ...) and
blocks the cell it stands on.  See ``kubb3d/dames/README.md`` for the rules as
implemented and every reading of the seed that had to be chosen.

Modules: :mod:`~kubb3d.dames.die` (die orientation), :mod:`~kubb3d.dames.rules`
(:class:`DamesRules` and board geometry), :mod:`~kubb3d.dames.board` (the
rules engine), :mod:`~kubb3d.dames.players` (computer players and self-play),
:mod:`~kubb3d.dames.render` (terminal board), :mod:`~kubb3d.dames.cli` (the
``kubb3d dames`` commands).
"""

from kubb3d.dames.board import (
    DamesBoard,
    IllegalMoveError,
    Kubb,
    Move,
    Outcome,
    Roll,
    Termination,
)
from kubb3d.dames.die import Die
from kubb3d.dames.rules import DamesRules, cell_name, parse_cell

__all__ = [
    "DamesBoard",
    "DamesRules",
    "Die",
    "IllegalMoveError",
    "Kubb",
    "Move",
    "Outcome",
    "Roll",
    "Termination",
    "cell_name",
    "parse_cell",
]

"""Roll Kubb Dames: the board game of rolling dice-kubbs (rule book ``RKD``).

An 8×8 board on which each kubb is a die that moves by rolling over its edges;
a small black ti-kubb sets the distance of each move (2, 3, 1, 2, ...) and
blocks the cell it stands on.  See ``kubb3d/dames/README.md`` for the rules as
implemented, the notation and the computer players.

Readings of the RKD rule book chosen here; the starred ones are options of
:class:`DamesRules`:

* goal: « la dernière ligne de son camp » is the edge facing the player's
  first line (pieces cross the board, as in draughts).
* set-up: 1 on top (« avec la valeur 1 »), 2 towards the goal, 4 on the
  owner's right: a standard Western die (*``start_front``, ``start_right``).
* moves: a path of single-cell orthogonal rolls that may turn but never
  revisits a cell (« sauf diagonale », « pas autorisé à revenir sur ses
  pas ») (*``straight_only``); other kubbs block the path and the end cell
  (*``roll_through_kubbs`` for crossing); the ti-kubb blocks its cell.
* a move is the roll plus the ti-kubb placement (« Le joueur qui vient de
  jouer ... le pose sur n'importe quelle case libre »); before the first move
  nobody has just played, so the ti-kubb is off the board
  (*``opening_placement="last_player"``).
* « avancer d'au moins une ligne »: the end cell is at least one line nearer
  the owner's last line (rank for S/N, file for E/W); waived when the move
  ends next to an opposing kubb that can fight (« sauf quand il attaque »).
* « à côté »: the four orthogonal neighbours (*``diagonal_combat``); only the
  kubb that moved fights; against several opponents each pair fights at once
  on the values at arrival (*``multi_combat``); « prise obligatoire » means
  the fight cannot be declined (*``forced_capture`` for the draughts rule
  that a taking roll must be played).
* kubbs on their last line are frozen (« ni être déplacés, ni combattre, ni
  être combattus »).
* end: a player with all his kubbs still in play on his last line (« tous
  ses Kubbs (ceux qui sont encore enjeu) sur la dernière ligne de son camp »),
  which includes a player whose kubbs were all taken: he has none off that
  line and cannot play (*``eliminated="drops_out"``, kubb3d's variant: he
  drops out and the others play on); or the player to move blocked (« ne peut
  pas jouer (blocage) »); most last-line points wins, a shared best score is
  a tie.
* order: S, E, N, W, counter-clockwise (« dans le sens contraire des
  aiguilles d'une montre »); the ti-kubb value runs 2, 3, 1, 2, ... per move.

Modules: :mod:`~kubb3d.dames.die` (die orientation), :mod:`~kubb3d.dames.rules`
(:class:`DamesRules` and board geometry), :mod:`~kubb3d.dames.board` (the
rules engine), :mod:`~kubb3d.dames.players` (computer players and self-play),
:mod:`~kubb3d.dames.render` (terminal board), :mod:`~kubb3d.cli.dames` (the
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

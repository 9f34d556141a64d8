"""The Roll Kubb Dames ruleset and the board geometry of each seat.

Every point the rule book ``RKD`` leaves open is a field of :class:`DamesRules`;
the defaults are the readings argued in ``kubb3d/dames/README.md``.

Board and seats
---------------
Cells are numbered ``0..63`` as ``y * 8 + x``; ``x`` is the file ``a..h`` and
``y`` the rank ``1..8`` minus one, so ``a1 = 0``, ``h1 = 7``, ``a8 = 56``.
Each player sits at one side of the board and is named by it: ``S`` (south,
rank 1), ``E`` (east, file h), ``N`` (north, rank 8), ``W`` (west, file a).
A player's *first line* is the edge row in front of him, his *last line* the
opposite edge, which is his goal (``RKD`` But du jeu: « Atteindre la dernière
ligne de son camp »).  The *line* of a cell for a player counts from 0 on his
first line to 7 on his last line.

Turn order is counter-clockwise seen from above (``RKD`` Règle du jeu: « dans le
sens contraire des aiguilles d'une montre »): S, E, N, W.  Two players are S
and N; four players are S, E, N, W.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kubb3d.dames.die import Die
from kubb3d.errors import DamesError

SEAT_ORDER = "SENW"
"""All seats in counter-clockwise turn order, starting with the first player."""

MULTI_COMBAT = ("simultaneous", "weakest_first", "strongest_first")
OPENING = ("none", "last_player")
ELIMINATED = ("ends_game", "drops_out")


def cell_name(cell: int) -> str:
    """``0 -> "a1"``, ``63 -> "h8"``.

    Raises:
        DamesError: ``cell`` outside ``0..63``.
    """
    if not 0 <= cell < 64:
        raise DamesError(f"cell index must be 0..63, got {cell}")
    return "abcdefgh"[cell % 8] + str(cell // 8 + 1)


def parse_cell(text: str) -> int:
    """``"a1" -> 0``, ``"h8" -> 63`` (case-insensitive).

    Raises:
        DamesError: not a file letter a..h followed by a rank digit 1..8.
    """
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in "abcdefgh" or t[1] not in "12345678":
        raise DamesError(f"a cell is a file a-h and a rank 1-8, like e4; got {text!r}")
    return "abcdefgh".index(t[0]) + 8 * (int(t[1]) - 1)


def line_of(seat: str, cell: int) -> int:
    """The line of ``cell`` counted from ``seat``'s first line (0) to his last line (7)."""
    x, y = cell % 8, cell // 8
    if seat == "S":
        return y
    if seat == "N":
        return 7 - y
    if seat == "E":
        return 7 - x
    if seat == "W":
        return x
    raise DamesError(f"unknown seat {seat!r}")


def lateral_of(seat: str, cell: int) -> int:
    """Position of ``cell`` along ``seat``'s lines (0..7, same scale for all seats)."""
    x, y = cell % 8, cell // 8
    return x if seat in "SN" else y


def frame_to_board(seat: str, top: int, front: int, right: int) -> Die:
    """Convert an orientation seen by the player at ``seat`` into board faces.

    ``front`` is the face looking towards the player's last line, ``right`` the
    face on his right hand as he looks that way.

    Raises:
        DamesError: the three faces are not a possible orientation.
    """
    if seat == "S":
        return Die.make(top, front, right)
    if seat == "N":
        return Die.make(top, 7 - front, 7 - right)
    if seat == "E":
        return Die.make(top, right, 7 - front)
    if seat == "W":
        return Die.make(top, 7 - right, front)
    raise DamesError(f"unknown seat {seat!r}")


@dataclass(frozen=True)
class DamesRules:
    """One consistent reading of the Roll Kubb Dames rules (rule book ``RKD``).

    Attributes:
        players: 2 (6 kubbs each) or 4 (the rule book's « VARIANTE : 4 joueurs / 4
            Kubbs par joueurs »).
        start_front: face looking towards the owner's last line at the start,
            the top being 1 (« avec la valeur 1 »).  Default 2.
        start_right: face on the owner's right at the start.  Default 4, which
            with top 1 and front 2 makes a standard Western die (1, 2, 3
            counter-clockwise); with the mirror face 3 it is a mirrored die.
        straight_only: a move is one straight run instead of a path of
            orthogonal single-cell rolls that may turn.  Default False: the
            rule book forbids only diagonals and going back over one's own path
            (« Il n'est pas autorisé à revenir sur ses pas »), which only
            matters if the path can turn.
        diagonal_combat: « à côté » includes the four diagonal neighbours.
            Default False (orthogonal neighbours only, like the moves).
        multi_combat: how a kubb that ends next to several opposing kubbs
            fights: ``"simultaneous"`` (default; each pair fights on the values
            at arrival: every lower opponent is taken, every equal one leaves
            with the mover, any equal-or-higher one removes the mover),
            ``"weakest_first"`` or ``"strongest_first"`` (one value after the other
            in that order, stopping when the mover is out; opponents showing the
            same value fight together, as in ``"simultaneous"``).
        roll_through_kubbs: the path may cross cells holding kubbs (never the
            ti-kubb, never ending on an occupied cell).  Default False.
        opening_placement: who puts the ti-kubb down before the first move:
            ``"none"`` (default; nobody has « just played », so it waits off the
            board and blocks nothing on the first move) or ``"last_player"``
            (the player who moves last in the round places it, as if he had
            just played).
        forced_capture: the draughts reading of « prise obligatoire »: when some
            legal roll would take an opposing kubb, the player must play one of
            those.  Default False: the words are read as part of the combat
            rule (a kubb that ends next to an opponent must fight, neither
            side can decline), not as a constraint on the choice of move.
        eliminated: what happens when a player has no kubb left at all:
            ``"ends_game"`` (default; ``RKD`` But du jeu: « Quand un joueur à
            tous ses Kubbs (ceux qui sont encore enjeu) sur la dernière ligne
            de son camp, ou ne peut pas jouer (blocage) la partie est finie »:
            all of his kubbs still in play, none, are on his last line and he
            cannot play, so the game ends at once and the points decide) or
            ``"drops_out"`` (kubb3d's variant, not in the rule book:
            he is out of the game, his turns are skipped and the others play
            on until someone still in play finishes or is blocked, or nobody
            has a kubb left).
    """

    players: Literal[2, 4] = 2
    start_front: int = 2
    start_right: int = 4
    straight_only: bool = False
    diagonal_combat: bool = False
    multi_combat: Literal["simultaneous", "weakest_first", "strongest_first"] = "simultaneous"
    roll_through_kubbs: bool = False
    opening_placement: Literal["none", "last_player"] = "none"
    forced_capture: bool = False
    eliminated: Literal["ends_game", "drops_out"] = "ends_game"

    def __post_init__(self) -> None:
        if self.players not in (2, 4):
            raise DamesError(f"Roll Kubb Dames is played by 2 or 4 players, got {self.players!r}")
        if self.multi_combat not in MULTI_COMBAT:
            raise DamesError(f"multi_combat must be one of {', '.join(MULTI_COMBAT)}; got {self.multi_combat!r}")
        if self.opening_placement not in OPENING:
            raise DamesError(
                f"opening_placement must be one of {', '.join(OPENING)}; got {self.opening_placement!r}"
            )
        if self.eliminated not in ELIMINATED:
            raise DamesError(f"eliminated must be one of {', '.join(ELIMINATED)}; got {self.eliminated!r}")
        try:
            frame_to_board("S", 1, self.start_front, self.start_right)
        except ValueError:
            raise DamesError(
                f"start faces front={self.start_front}, right={self.start_right} are impossible with 1 on top "
                "(use two different faces from 2..5 that are not opposite)"
            ) from None

    @property
    def seats(self) -> str:
        """The seats in play, in turn order: ``"SN"`` or ``"SENW"``."""
        return "SN" if self.players == 2 else "SENW"

    @property
    def kubbs_per_player(self) -> int:
        """6 for two players, 4 for four (``RKD`` Nombre de joueurs)."""
        return 6 if self.players == 2 else 4

    def start_die(self, seat: str) -> Die:
        """Board orientation of ``seat``'s kubbs at the start (1 on top)."""
        return frame_to_board(seat, 1, self.start_front, self.start_right)

    def start_cells(self, seat: str) -> list[int]:
        """The central cells of ``seat``'s first line: 6 of 8 (2 players) or 4 of 8 (4 players).

        ``RKD`` Règle du jeu: « sur les six cases centrales de sa première ligne »;
        the 4-player variant keeps its 4 kubbs central the same way.
        """
        k = self.kubbs_per_player
        lo = (8 - k) // 2
        return sorted(
            c for c in range(64) if line_of(seat, c) == 0 and lo <= lateral_of(seat, c) < lo + k
        )

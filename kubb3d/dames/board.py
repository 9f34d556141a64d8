"""The Roll Kubb Dames rules engine: positions, legal moves, push/pop, outcome.

Pure Python, no I/O, in the style of python-chess: a mutable
:class:`DamesBoard` with :meth:`~DamesBoard.push` / :meth:`~DamesBoard.pop`, a
lazy :meth:`~DamesBoard.legal_moves`, an :meth:`~DamesBoard.outcome`, and text
notations for moves and positions that round-trip.

Moves (rule book ``RKD``, Déroulement du jeu)
----------------------------------------
A :class:`Move` is one player's whole turn: he rolls ONE of his kubbs exactly as
many cells as the ti-kubb shows, orthogonally, then puts the ti-kubb down on any
free cell with the value of the coming move (« Le joueur qui vient de jouer,
prend le ti-Kubb noir et le pose sur n'importe quelle case libre »).  Written
``<start><path>@<cell>``, e.g. ``b1NE@d5``: the kubb on b1 rolls north then
east, and the ti-kubb goes to d5.  The path names every single-cell roll
because two paths to the same cell leave the die showing different faces.
A roll that ends the game has no placement (``c7N``).  With the
``opening_placement="last_player"`` ruleset the game starts with a
placement-only move ``@d5``.

Inside the engine a turn is two half-steps, the roll and the placement; a
:class:`State` between them is "pending" (the ti-kubb is in the hand of the
player who just rolled).  The public API only shows whole turns.

Positions
---------
``<rank 8>/<rank 7>/.../<rank 1> <seats> <to roll> <ti value> <ti cell> <turns>``,
for example the 2-player start::

    1N153N153N153N153N153N1531/8/8/8/8/8/8/1S124S124S124S124S124S1241 SN S 2 - 0

Each rank lists its cells from file a to h: a digit is that many empty cells, a
kubb is its owner's seat letter followed by its die as top-north-east digits
(``S124``: top 1, north 2, east 4).  ``<seats>`` is ``SN`` or ``SENW``;
``<to roll>`` the seat whose kubb moves next; ``<ti value>`` 1, 2 or 3, the
distance of that move; ``<ti cell>`` where the ti-kubb stands, ``-`` when it is
off the board (before the first move) or ``?`` when the player before
``<to roll>`` still has to place it (``?W``: player W has to); ``<turns>`` the number of rolls played.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from kubb3d.dames.die import DIRECTIONS, OPPOSITE, STEP, Die
from kubb3d.dames.rules import DamesRules, cell_name, line_of, parse_cell
from kubb3d.errors import DamesError, IllegalMoveError as IllegalMoveError
from kubb3d.ranges import counted

TI_CYCLE = {2: 3, 3: 1, 1: 2}
"""The ti-kubb value of the move after a move with the key's value.

``RKD`` Règle du jeu: « débute à 2, avec le premier joueur, puis 3 au joueur
suivant puis 1 au joueur suivant, puis 2 au joueur suivant et ainsi de suite »."""

FIRST_TI_VALUE = 2
LAST_LINE = 7


class Kubb(NamedTuple):
    """A die-kubb on the board: its owner's seat letter and its orientation."""

    seat: str
    die: Die

    @property
    def top(self) -> int:
        """The top value, the one that fights and scores."""
        return self.die.top


class Roll(NamedTuple):
    """The rolling part of a move.

    ``start`` and ``end`` are cell indices, ``path`` the roll directions
    (``"NE"``), ``die`` the kubb's orientation on arrival.
    """

    start: int
    path: str
    end: int
    die: Die

    def __str__(self) -> str:
        return cell_name(self.start) + self.path


_ROLL_RE = re.compile(r"([a-hA-H][1-8])([NESWnesw]+)")
_CELL_RE = re.compile(r"[a-hA-H][1-8]")


@dataclass(frozen=True, slots=True)
class Move:
    """One turn: a roll (``start`` cell, ``path`` of directions) and where the ti-kubb goes.

    Attributes:
        start: cell index 0..63 of the kubb that rolls, or None for a
            placement-only move (only in the opening with
            ``opening_placement="last_player"``).
        path: roll directions, one of ``N E S W`` per cell; ``""`` when
            ``start`` is None.
        place: cell index where the mover puts the ti-kubb afterwards, or None
            when the roll ends the game.
    """

    start: int | None
    path: str = ""
    place: int | None = None

    def __post_init__(self) -> None:
        if self.start is None:
            if self.path or self.place is None:
                raise DamesError("a move without a kubb must be a ti-kubb placement only (@cell)")
        else:
            if not 0 <= self.start < 64:
                raise DamesError(f"start cell must be 0..63, got {self.start}")
            if not self.path or any(d not in DIRECTIONS for d in self.path):
                raise DamesError(f"path must be one or more of N, E, S, W, got {self.path!r}")
        if self.place is not None and not 0 <= self.place < 64:
            raise DamesError(f"ti-kubb cell must be 0..63, got {self.place}")

    def __str__(self) -> str:
        text = "" if self.start is None else cell_name(self.start) + self.path
        if self.place is not None:
            text += "@" + cell_name(self.place)
        return text

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse ``"b1NE@d5"``, ``"c7N"`` or ``"@d5"`` (case and spaces ignored).

        Raises:
            DamesError: the text does not have that shape.
        """
        t = "".join(text.split())
        head, at, tail = t.partition("@")
        m = _ROLL_RE.fullmatch(head) if head else None
        roll_ok = m is not None if head else bool(at)  # a roll, or nothing before '@'
        place_ok = _CELL_RE.fullmatch(tail) is not None if at else True
        if not (roll_ok and place_ok):
            raise DamesError(
                f"cannot read move {text!r}: write the kubb's cell, the roll directions and "
                "the ti-kubb's cell, like b1NE@d5"
            )
        start = parse_cell(m.group(1)) if m else None
        place = parse_cell(tail) if at else None
        return cls(start, m.group(2).upper() if m else "", place)


class Termination(enum.Enum):
    """Why a game ended (``RKD`` But du jeu)."""

    ALL_ON_LAST_LINE = "all_on_last_line"
    """A player has all his kubbs still in play on his last line (possibly none left)."""
    BLOCKADE = "blockade"
    """The player to move has no legal move (« ne peut pas jouer (blocage) »)."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game.

    Attributes:
        termination: why it ended.
        player: the seat that ended it: the one with all kubbs on his last line,
            or the blocked one.
        points: per seat, the sum of the top values of his kubbs on his last
            line (« le plus de points avec les Kubbs de la dernière ligne »).
        winner: the seat with the most points, or None when the best score is shared.
        kubbs_left: kubbs ``player`` still has in play (0: none left, all taken).
    """

    termination: Termination
    player: str
    points: dict[str, int]
    winner: str | None
    kubbs_left: int = -1

    def result(self) -> str:
        """Short text like ``"S wins 9-4 (blockade of N)"`` or ``"tie 5-5 (...)"``."""
        score = "-".join(str(self.points[s]) for s in self.points)
        if self.termination is Termination.BLOCKADE:
            why = f"{self.player} is blocked"
        elif self.kubbs_left == 0:
            why = f"{self.player} has no kubb left in play"
        else:
            why = f"{self.player} has all his kubbs on his last line"
        head = f"{self.winner} wins" if self.winner else "tie"
        return f"{head} {score} ({why})"


# --------------------------------------------------------------------------
# Rules-dependent tables and the internal state
# --------------------------------------------------------------------------


class Geometry:
    """Tables that depend only on the ruleset; shared by every board with those rules."""

    def __init__(self, rules: DamesRules) -> None:
        self.rules = rules
        self.seats = rules.seats
        self.nseats = len(self.seats)
        self.line = {s: tuple(line_of(s, c) for c in range(64)) for s in "SENW"}
        self.paths: dict[int, list[list[tuple[str, tuple[int, ...]]]]] = {
            n: [self._paths_from(c, n) for c in range(64)] for n in (1, 2, 3)
        }
        steps = [(0, 1), (1, 0), (0, -1), (-1, 0)]
        if rules.diagonal_combat:
            steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        self.combat_neighbours = tuple(
            tuple(
                (c // 8 + dy) * 8 + c % 8 + dx
                for dx, dy in steps
                if 0 <= c % 8 + dx < 8 and 0 <= c // 8 + dy < 8
            )
            for c in range(64)
        )

    def _paths_from(self, start: int, n: int) -> list[tuple[str, tuple[int, ...]]]:
        """Every on-board path of ``n`` single-cell rolls that never revisits a cell."""
        out: list[tuple[str, tuple[int, ...]]] = []

        def walk(cell: int, path: str, cells: tuple[int, ...]) -> None:
            if len(path) == n:
                out.append((path, cells))
                return
            for d in DIRECTIONS:
                if self.rules.straight_only and path and d != path[0]:
                    continue
                dx, dy = STEP[d]
                x, y = cell % 8 + dx, cell // 8 + dy
                if not (0 <= x < 8 and 0 <= y < 8):
                    continue
                nxt = y * 8 + x
                if nxt == start or nxt in cells:
                    continue
                walk(nxt, path + d, cells + (nxt,))

        walk(start, "", ())
        return out


@lru_cache(maxsize=64)
def geometry(rules: DamesRules) -> Geometry:
    """The cached :class:`Geometry` of ``rules``."""
    return Geometry(rules)


class State(NamedTuple):
    """An immutable position (internal; :class:`DamesBoard` wraps it).

    Attributes:
        cells: 64 entries, a :class:`Kubb` or None.
        turn: index into the seats of the player whose kubb rolls next.
        ti_value: the distance of that roll (1, 2 or 3).
        ti_cell: cell of the ti-kubb, or -1 when it is not on the board.
        pending: the ti-kubb is in the hand of player ``placer``, who must put it down.
        ply: the number of rolls played so far.
        placer: index of the player who places the ti-kubb when ``pending``:
            the one who rolled last (at the start, the one before ``turn``).
    """

    cells: tuple[Kubb | None, ...]
    turn: int
    ti_value: int
    ti_cell: int
    pending: bool
    ply: int
    placer: int


def start_state(rules: DamesRules) -> State:
    """The opening position of ``rules`` (``RKD`` Règle du jeu)."""
    cells: list[Kubb | None] = [None] * 64
    for seat in rules.seats:
        die = rules.start_die(seat)
        for c in rules.start_cells(seat):
            cells[c] = Kubb(seat, die)
    pending = rules.opening_placement == "last_player"
    return State(tuple(cells), 0, FIRST_TI_VALUE, -1, pending, 0, len(rules.seats) - 1)


def is_attack(geo: Geometry, cells: tuple[Kubb | None, ...], seat: str, end: int) -> bool:
    """Would a kubb of ``seat`` arriving on ``end`` fight?  (Next to a non-frozen opponent, not frozen itself.)"""
    if geo.line[seat][end] == LAST_LINE:
        return False
    for c in geo.combat_neighbours[end]:
        k = cells[c]
        if k is not None and k.seat != seat and geo.line[k.seat][c] != LAST_LINE:
            return True
    return False


def gen_rolls(geo: Geometry, st: State) -> list[Roll]:
    """All legal rolls of the player ``st.turn`` (ignores ``st.pending``)."""
    seat = geo.seats[st.turn]
    line = geo.line[seat]
    cells = st.cells
    ti = st.ti_cell
    through = geo.rules.roll_through_kubbs
    paths = geo.paths[st.ti_value]
    out: list[Roll] = []
    for start in range(64):
        k = cells[start]
        if k is None or k.seat != seat or line[start] == LAST_LINE:
            continue
        l0 = line[start]
        for path, pcells in paths[start]:
            end = pcells[-1]
            if end == ti or cells[end] is not None:
                continue
            blocked = False
            for c in pcells[:-1]:
                if c == ti or (not through and cells[c] is not None):
                    blocked = True
                    break
            if blocked:
                continue
            if line[end] <= l0 and not is_attack(geo, cells, seat, end):
                continue
            out.append(Roll(start, path, end, k.die.roll_path(path)))
    if geo.rules.forced_capture:
        taking = [r for r in out if takes(geo, cells, r)]
        if taking:
            return taking
    return out


def takes(geo: Geometry, cells: tuple[Kubb | None, ...], roll: Roll) -> bool:
    """Would ``roll`` take at least one opposing kubb out of play in its combat?"""
    k = cells[roll.start]
    assert k is not None
    if not is_attack(geo, cells, k.seat, roll.end):
        return False
    trial = list(cells)
    trial[roll.start] = None
    trial[roll.end] = Kubb(k.seat, roll.die)
    return any(c != roll.end for c in fight(geo, trial, roll.end))


def fight(geo: Geometry, cells: list[Kubb | None], end: int) -> list[int]:
    """Resolve the combat of the kubb that just arrived on ``end`` (``RKD`` Combat).

    Mutates ``cells`` and returns the cells emptied, in the order the kubbs left.
    """
    mover = cells[end]
    assert mover is not None
    seat = mover.seat
    if geo.line[seat][end] == LAST_LINE:
        return []
    opponents = [
        c
        for c in geo.combat_neighbours[end]
        if (k := cells[c]) is not None and k.seat != seat and geo.line[k.seat][c] != LAST_LINE
    ]
    if not opponents:
        return []
    v = mover.top
    removed: list[int] = []
    mode = geo.rules.multi_combat
    if mode == "simultaneous":
        mover_out = False
        for c in opponents:
            w = cells[c].top  # type: ignore[union-attr]
            if w <= v:
                removed.append(c)
            if w >= v:
                mover_out = True
        if mover_out:
            removed.append(end)
    else:
        # One value after the other; opponents showing the same value fight together, so
        # that no order of the cells (which would differ for the two sides of the board)
        # decides which of them is taken.
        tops = {c: cells[c].top for c in opponents}  # type: ignore[union-attr]
        for w in sorted(set(tops.values()), reverse=mode == "strongest_first"):
            group = [c for c in opponents if tops[c] == w]
            if w < v:
                removed.extend(group)
                continue
            if w == v:
                removed.extend(group)
            removed.append(end)
            break
    for c in removed:
        cells[c] = None
    return removed


def apply_roll(geo: Geometry, st: State, roll: Roll) -> tuple[State, list[tuple[int, Kubb]]]:
    """The pending state after ``roll`` and its combat, with the kubbs removed as ``(cell, kubb)``.

    ``roll`` must be legal (as from :func:`gen_rolls`); the ti-kubb is picked up
    and the turn passes on, the placement still to come.
    """
    cells = list(st.cells)
    k = cells[roll.start]
    assert k is not None
    cells[roll.start] = None
    cells[roll.end] = Kubb(k.seat, roll.die)
    before = {c: cells[c] for c in geo.combat_neighbours[roll.end]}
    before[roll.end] = cells[roll.end]
    removed = [(c, before[c]) for c in fight(geo, cells, roll.end)]
    n = geo.nseats
    nxt = (st.turn + 1) % n
    if geo.rules.eliminated == "drops_out":
        present = {k.seat for k in cells if k is not None}
        for i in range(1, n + 1):
            if geo.seats[(st.turn + i) % n] in present:
                nxt = (st.turn + i) % n
                break
    return (
        State(tuple(cells), nxt, TI_CYCLE[st.ti_value], -1, True, st.ply + 1, st.turn),
        removed,  # type: ignore[return-value]
    )


def apply_place(st: State, cell: int, nseats: int | None = None) -> State:
    """The state after the pending ti-kubb is placed on ``cell`` (must be free).

    Once the ti-kubb is down the placer no longer matters; with ``nseats`` it is set to the
    seat before ``turn``, the one a position string implies, so that a position read back is
    the same state even when a seat that dropped out lies in between."""
    placer = st.placer if nseats is None else (st.turn - 1) % nseats
    return st._replace(ti_cell=cell, pending=False, placer=placer)


def finished_seat(geo: Geometry, st: State) -> str | None:
    """A seat with no kubb left in play off its last line, if any.

    ``RKD`` But du jeu: « Quand un joueur a tous ses Kubbs (ceux qui sont encore
    en jeu) sur la dernière ligne de son camp ... la partie est finie ».  With
    ``eliminated="ends_game"`` a player whose kubbs were all taken has all of
    his (zero) remaining kubbs there; with ``"drops_out"`` he is ignored, and
    the game ends only when nobody has a kubb left.  Seats are checked from
    the one who rolled last (``st.placer``), in turn order.
    """
    moving = {s: False for s in geo.seats}
    present = {s: False for s in geo.seats}
    for c, k in enumerate(st.cells):
        if k is not None:
            present[k.seat] = True
            if geo.line[k.seat][c] != LAST_LINE:
                moving[k.seat] = True
    drops_out = geo.rules.eliminated == "drops_out"
    for i in range(geo.nseats):
        seat = geo.seats[(st.placer + i) % geo.nseats]
        if not moving[seat] and (present[seat] or not drops_out):
            return seat
    if drops_out and not any(present.values()):
        return geo.seats[st.placer]
    return None


def points_of(geo: Geometry, st: State) -> dict[str, int]:
    """Per seat, the sum of the top values of his kubbs on his last line."""
    pts = {s: 0 for s in geo.seats}
    for c, k in enumerate(st.cells):
        if k is not None and geo.line[k.seat][c] == LAST_LINE:
            pts[k.seat] += k.top
    return pts


def state_outcome(geo: Geometry, st: State, rolls: list[Roll] | None = None) -> Outcome | None:
    """The outcome of ``st`` or None if play goes on.  ``rolls`` may pass precomputed :func:`gen_rolls`."""
    seat = finished_seat(geo, st)
    termination = Termination.ALL_ON_LAST_LINE
    if seat is None:
        if st.pending:
            return None
        if rolls is None:
            rolls = gen_rolls(geo, st)
        if rolls:
            return None
        seat = geo.seats[st.turn]
        termination = Termination.BLOCKADE
    pts = points_of(geo, st)
    best = max(pts.values())
    leaders = [s for s, p in pts.items() if p == best]
    left = sum(1 for k in st.cells if k is not None and k.seat == seat)
    return Outcome(termination, seat, pts, leaders[0] if len(leaders) == 1 else None, left)


# --------------------------------------------------------------------------
# Position notation
# --------------------------------------------------------------------------


def format_position(geo: Geometry, st: State) -> str:
    """The position string of ``st`` (see the module docstring)."""
    ranks = []
    for y in range(7, -1, -1):
        text, run = "", 0
        for x in range(8):
            k = st.cells[y * 8 + x]
            if k is None:
                run += 1
                continue
            if run:
                text += str(run)
                run = 0
            text += k.seat + str(k.die)
        if run:
            text += str(run)
        ranks.append(text)
    if st.pending:
        ti = "?" if st.placer == (st.turn - 1) % geo.nseats else "?" + geo.seats[st.placer]
    else:
        ti = "-" if st.ti_cell < 0 else cell_name(st.ti_cell)
    return f"{'/'.join(ranks)} {geo.seats} {geo.seats[st.turn]} {st.ti_value} {ti} {st.ply}"


def parse_position(text: str, rules: DamesRules | None = None) -> tuple[DamesRules, State]:
    """Read a position string; ``rules`` default to the standard ones for its seats.

    Raises:
        DamesError: malformed string, or inconsistent with ``rules`` (the
            message names the offending field).
    """
    fields = text.split()
    if len(fields) not in (5, 6):
        raise DamesError(
            f"a position has 6 fields (board seats to-roll ti-value ti-cell turns), got {len(fields)}"
        )
    grid, seats, to_roll, ti_value_s, ti_s = fields[:5]
    ply_s = fields[5] if len(fields) == 6 else "0"
    if seats not in ("SN", "SENW"):
        raise DamesError(f"seats must be SN (2 players) or SENW (4 players), got {seats!r}")
    if rules is None:
        rules = DamesRules(players=len(seats))  # type: ignore[arg-type]
    elif rules.seats != seats:
        raise DamesError(f"position is for seats {seats} but the rules are for {rules.seats}")
    ranks = grid.split("/")
    if len(ranks) != 8:
        raise DamesError(f"the board needs 8 ranks separated by '/', got {len(ranks)}")
    cells: list[Kubb | None] = [None] * 64
    for r, rank in enumerate(ranks):
        y = 7 - r
        x, i = 0, 0
        while i < len(rank):
            ch = rank[i]
            if ch in "12345678":
                x += int(ch)
                i += 1
            elif ch in seats:
                if x >= 8:
                    break
                try:
                    die = Die.parse(rank[i + 1 : i + 4])
                except ValueError as exc:
                    raise DamesError(f"rank {y + 1}: bad kubb {rank[i:i + 4]!r}: {exc}") from None
                cells[y * 8 + x] = Kubb(ch, die)
                x += 1
                i += 4
            else:
                raise DamesError(f"rank {y + 1}: unexpected {ch!r} (use digits 1-8 and seat letters {seats})")
        if x != 8:
            raise DamesError(f"rank {y + 1} describes {counted(x, 'cell')} instead of 8")
    for seat in seats:
        n = sum(1 for k in cells if k is not None and k.seat == seat)
        if n > rules.kubbs_per_player:
            raise DamesError(f"{seat} has {counted(n, 'kubb')}, more than the {rules.kubbs_per_player} of the game")
    if len(to_roll) != 1 or to_roll not in seats:
        raise DamesError(f"the player to roll must be one of {', '.join(seats)}, got {to_roll!r}")
    if ti_value_s not in ("1", "2", "3"):
        raise DamesError(f"the ti-kubb value must be 1, 2 or 3, got {ti_value_s!r}")
    pending, ti_cell = False, -1
    turn = seats.index(to_roll)
    placer = (turn - 1) % len(seats)
    if ti_s.startswith("?"):
        pending = True
        if len(ti_s) > 1:
            if len(ti_s) != 2 or ti_s[1] not in seats:
                raise DamesError(f"'?' may be followed by the seat holding the ti-kubb, got {ti_s!r}")
            placer = seats.index(ti_s[1])
    elif ti_s != "-":
        ti_cell = parse_cell(ti_s)
        if cells[ti_cell] is not None:
            raise DamesError(f"the ti-kubb cannot stand on {ti_s}: a kubb is there")
    if not ply_s.isdigit():
        raise DamesError(f"the turn count must be a whole number, got {ply_s!r}")
    return rules, State(tuple(cells), turn, int(ti_value_s), ti_cell, pending, int(ply_s), placer)


# --------------------------------------------------------------------------
# The board
# --------------------------------------------------------------------------


class DamesBoard:
    """A Roll Kubb Dames game in progress, with its move stack.

    Args:
        position: a position string (see the module docstring); None for the
            start position of ``rules``.
        rules: the ruleset; None for the default :class:`DamesRules` (with the
            number of players taken from ``position`` if given).

    Raises:
        DamesError: malformed ``position`` or mismatch with ``rules``.
    """

    def __init__(self, position: str | None = None, rules: DamesRules | None = None) -> None:
        if position is None:
            rules = rules or DamesRules()
            st = start_state(rules)
        else:
            rules, st = parse_position(position, rules)
        self.rules: DamesRules = rules
        self._geo = geometry(rules)
        self._st = st
        self._stack: list[tuple[Move, State, tuple[tuple[int, Kubb], ...]]] = []
        self._rolls_cache: tuple[State, list[Roll]] | None = None

    @classmethod
    def from_kubbs(
        cls,
        kubbs: dict[str, str],
        rules: DamesRules | None = None,
        to_roll: str = "S",
        ti_value: int = FIRST_TI_VALUE,
        ti_cell: str | None = None,
        ply: int = 0,
    ) -> DamesBoard:
        """Build a position from ``{"d4": "S124", ...}`` (cell name -> seat and die top-north-east).

        ``ti_cell`` is a cell name, None for off the board, or ``"?"`` for a
        pending placement by the player before ``to_roll``.

        Raises:
            DamesError: bad cell, kubb or field (as for a position string).
        """
        rules = rules or DamesRules()
        grid: list[str | None] = [None] * 64
        for name, piece in kubbs.items():
            grid[parse_cell(name)] = piece
        ranks = []
        for y in range(7, -1, -1):
            text, run = "", 0
            for x in range(8):
                token = grid[y * 8 + x]
                if token is None:
                    run += 1
                    continue
                if run:
                    text += str(run)
                    run = 0
                text += token
            ranks.append(text + (str(run) if run else ""))
        ti = "-" if ti_cell is None else ti_cell
        return cls(f"{'/'.join(ranks)} {rules.seats} {to_roll} {ti_value} {ti} {ply}", rules)

    # ----- state access ------------------------------------------------

    @property
    def state(self) -> State:
        """The current immutable :class:`State`."""
        return self._st

    @property
    def turn(self) -> str:
        """The seat that acts now: the one to roll, or the one who must place the ti-kubb."""
        st = self._st
        return self._geo.seats[st.placer if st.pending else st.turn]

    @property
    def roller(self) -> str:
        """The seat whose kubb rolls next."""
        return self._geo.seats[self._st.turn]

    @property
    def ti_value(self) -> int:
        """Distance of the next roll (1, 2 or 3)."""
        return self._st.ti_value

    @property
    def ti_cell(self) -> int | None:
        """Cell of the ti-kubb, or None when it is off the board or in a player's hand."""
        return None if self._st.ti_cell < 0 else self._st.ti_cell

    @property
    def ply(self) -> int:
        """Number of rolls played."""
        return self._st.ply

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed so far, oldest first (a copy)."""
        return [m for m, _, _ in self._stack]

    @property
    def last_removed(self) -> tuple[tuple[int, Kubb], ...]:
        """Kubbs taken out by the last pushed move's combat, as ``(cell, kubb)``."""
        return self._stack[-1][2] if self._stack else ()

    def kubb_at(self, cell: int) -> Kubb | None:
        """The kubb on ``cell`` (0..63) or None."""
        return self._st.cells[cell]

    def kubbs(self) -> dict[int, Kubb]:
        """All kubbs on the board by cell."""
        return {c: k for c, k in enumerate(self._st.cells) if k is not None}

    def is_frozen(self, cell: int) -> bool:
        """True if a kubb stands on ``cell`` on its owner's last line (``RKD`` Combat: « figés »)."""
        k = self._st.cells[cell]
        return k is not None and self._geo.line[k.seat][cell] == LAST_LINE

    def points(self) -> dict[str, int]:
        """Current points per seat: top values of kubbs on their owner's last line."""
        return points_of(self._geo, self._st)

    def position(self) -> str:
        """The position string; ``DamesBoard(board.position(), board.rules)`` recreates the position."""
        return format_position(self._geo, self._st)

    def set_position(self, position: str) -> None:
        """Replace the position (same rules) and clear the move stack.

        Raises:
            DamesError: malformed position or one for other seats; the board is then unchanged.
        """
        _, st = parse_position(position, self.rules)
        self._st = st
        self._stack = []
        self._rolls_cache = None

    def copy(self) -> DamesBoard:
        """An independent board with the same rules, position and move stack."""
        other = DamesBoard.__new__(DamesBoard)
        other.rules = self.rules
        other._geo = self._geo
        other._st = self._st
        other._stack = list(self._stack)
        other._rolls_cache = self._rolls_cache
        return other

    def __str__(self) -> str:
        return self.position()

    def __repr__(self) -> str:
        return f"DamesBoard({self.position()!r})"

    # ----- move generation --------------------------------------------------

    def legal_rolls(self) -> list[Roll]:
        """The rolls the player to roll may make now (empty while a placement is pending)."""
        st = self._st
        if st.pending or finished_seat(self._geo, st) is not None:
            return []
        if self._rolls_cache is None or self._rolls_cache[0] is not st:
            self._rolls_cache = (st, gen_rolls(self._geo, st))
        return list(self._rolls_cache[1])

    def legal_moves(self) -> Iterator[Move]:
        """Every legal :class:`Move`, lazily: each legal roll with each free cell for the ti-kubb."""
        st = self._st
        if finished_seat(self._geo, st) is not None:
            return
        if st.pending:
            for c in range(64):
                if st.cells[c] is None:
                    yield Move(None, "", c)
            return
        for roll in self.legal_rolls():
            after, _ = apply_roll(self._geo, st, roll)
            if finished_seat(self._geo, after) is not None:
                yield Move(roll.start, roll.path, None)
                continue
            for c in range(64):
                if after.cells[c] is None:
                    yield Move(roll.start, roll.path, c)

    def count_legal_moves(self) -> int:
        """``len(list(legal_moves()))`` without building the moves."""
        st = self._st
        if finished_seat(self._geo, st) is not None:
            return 0
        if st.pending:
            return sum(1 for k in st.cells if k is None)
        total = 0
        for roll in self.legal_rolls():
            after, _ = apply_roll(self._geo, st, roll)
            if finished_seat(self._geo, after) is not None:
                total += 1
            else:
                total += sum(1 for k in after.cells if k is None)
        return total

    def is_legal(self, move: Move) -> bool:
        """True if ``move`` may be pushed now."""
        try:
            self._resolve(move)
        except IllegalMoveError:
            return False
        return True

    # ----- making moves -------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play ``move``.

        Raises:
            IllegalMoveError: the move is not legal here; the message says why.
        """
        new, removed = self._resolve(move)
        self._stack.append((move, self._st, tuple(removed)))
        self._st = new

    def push_text(self, text: str) -> Move:
        """Parse ``text`` with :meth:`parse_move` and push it; returns the move.

        Raises:
            IllegalMoveError: unreadable or illegal (``ValueError`` subclass).
        """
        move = self.parse_move(text)
        self.push(move)
        return move

    def pop(self) -> Move:
        """Take back the last move and return it.

        Raises:
            IndexError: no move to take back.
        """
        if not self._stack:
            raise IndexError("no move to take back")
        move, prev, _ = self._stack.pop()
        self._st = prev
        return move

    def outcome(self) -> Outcome | None:
        """The game's :class:`Outcome`, or None while it goes on."""
        st = self._st
        rolls = None if st.pending else self.legal_rolls()
        return state_outcome(self._geo, st, rolls)

    def is_game_over(self) -> bool:
        """``outcome() is not None``."""
        return self.outcome() is not None

    # ----- notation --------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        """Read a move typed by a person, checked against this position.

        Accepts the notation of :meth:`Move.parse` and also a destination
        instead of the path (``b1-c2@d5``) when only one legal path leads
        there with one final orientation.  Whitespace may replace ``@``
        (``b1NE d5``).  A placement given with a roll that ends the game is
        ignored.

        Raises:
            IllegalMoveError: unreadable, ambiguous or illegal, with the reason.
        """
        words = text.split()
        if len(words) >= 2 and "@" not in text:
            text = "".join(words[:-1]) + "@" + words[-1]
        t = "".join(text.split())
        m = re.match(r"^([a-hA-H][1-8])-([a-hA-H][1-8])(@.*)?$", t)
        try:
            if m:
                start, end = parse_cell(m.group(1)), parse_cell(m.group(2))
                place = parse_cell(m.group(3)[1:]) if m.group(3) else None
                candidates = [r for r in self.legal_rolls() if r.start == start and r.end == end]
                if not candidates:
                    raise IllegalMoveError(
                        f"no legal roll of {self.ti_value} from {cell_name(start)} to {cell_name(end)}"
                    )
                if len({r.die for r in candidates}) > 1:
                    options = ", ".join(str(r) for r in candidates)
                    raise IllegalMoveError(f"several paths lead there with different faces: give the path ({options})")
                move = Move(start, candidates[0].path, place)
            else:
                move = Move.parse(t)
        except IllegalMoveError:
            raise
        except ValueError as exc:
            raise IllegalMoveError(str(exc)) from None
        if move.start is not None and move.place is not None:
            roll = self._find_roll(move)
            after, _ = apply_roll(self._geo, self._st, roll)
            if finished_seat(self._geo, after) is not None:
                move = Move(move.start, move.path, None)
        self._resolve(move)
        return move

    # ----- validation ------------------------------------------------------

    def _find_roll(self, move: Move) -> Roll:
        for r in self.legal_rolls():
            if r.start == move.start and r.path == move.path:
                return r
        raise IllegalMoveError(self._why_roll_illegal(move))

    def _resolve(self, move: Move) -> tuple[State, list[tuple[int, Kubb]]]:
        """New state and removals for ``move``, or IllegalMoveError with the reason."""
        geo, st = self._geo, self._st
        if self.outcome() is not None:
            raise IllegalMoveError("the game is over")
        if st.pending:
            if move.start is not None:
                raise IllegalMoveError(f"{self.turn} must first place the ti-kubb (write @cell)")
            assert move.place is not None
            if st.cells[move.place] is not None:
                raise IllegalMoveError(f"the ti-kubb must go on a free cell; {cell_name(move.place)} is taken")
            return apply_place(st, move.place, self._geo.nseats), []
        if move.start is None:
            raise IllegalMoveError(f"{self.turn} must roll a kubb before placing the ti-kubb")
        roll = self._find_roll(move)
        after, removed = apply_roll(geo, st, roll)
        if finished_seat(geo, after) is not None:
            if move.place is not None:
                raise IllegalMoveError("this roll ends the game: no ti-kubb placement")
            return after, removed
        if move.place is None:
            raise IllegalMoveError("say where the ti-kubb goes next, e.g. " + str(roll) + "@d5")
        if after.cells[move.place] is not None:
            raise IllegalMoveError(f"the ti-kubb must go on a free cell; {cell_name(move.place)} is taken")
        return apply_place(after, move.place, self._geo.nseats), removed

    def _why_roll_illegal(self, move: Move) -> str:
        geo, st = self._geo, self._st
        seat = geo.seats[st.turn]
        start = move.start
        assert start is not None
        name = cell_name(start)
        k = st.cells[start]
        if k is None:
            return f"there is no kubb on {name}"
        if k.seat != seat:
            return f"the kubb on {name} belongs to {k.seat}; {seat} is to move"
        if geo.line[seat][start] == LAST_LINE:
            return f"the kubb on {name} is on its last line: frozen, it cannot move"
        if len(move.path) != st.ti_value:
            return f"the ti-kubb shows {st.ti_value}: roll exactly {counted(st.ti_value, 'cell')}, not {len(move.path)}"
        if geo.rules.straight_only and len(set(move.path)) > 1:
            return "these rules allow straight rolls only"
        cell, seen = start, {start}
        line = geo.line[seat]
        for i, d in enumerate(move.path):
            if i and d == OPPOSITE[move.path[i - 1]]:
                return "a kubb may not go back over its own path during a move"
            dx, dy = STEP[d]
            x, y = cell % 8 + dx, cell // 8 + dy
            if not (0 <= x < 8 and 0 <= y < 8):
                return f"the path leaves the board after {cell_name(cell)}"
            nxt = y * 8 + x
            if nxt in seen:
                return "a kubb may not go back over its own path during a move"
            if nxt == st.ti_cell:
                return f"the ti-kubb on {cell_name(nxt)} blocks the way"
            if st.cells[nxt] is not None and (i == len(move.path) - 1 or not geo.rules.roll_through_kubbs):
                return f"{cell_name(nxt)} is occupied by a kubb"
            seen.add(nxt)
            cell = nxt
        if line[cell] <= line[start] and not is_attack(geo, st.cells, seat, cell):
            return "the kubb must advance at least one line unless it attacks an opposing kubb"
        if geo.rules.forced_capture:
            return "a roll that takes an opposing kubb is possible, and taking is compulsory"
        return f"{move} is not legal here"  # pragma: no cover - every rule is covered above

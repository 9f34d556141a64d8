"""A second, independent implementation of the Roll Kubb Dames rules (the RKD rule book).

Written from the RKD rule book's words alone (« Roll Kubb Dames — REGLES
OFFICIELLES »), before reading the bodies of kubb3d's rules engine.  What else
was read before the comparison: kubb3d/dames/README.md (rules as implemented,
notation), the help of ``kubb3d dames`` and its sub-commands, and the public
signatures and docstrings of :mod:`kubb3d.dames` (to read position strings and
write moves).  Nothing here imports kubb3d: positions are read from kubb3d's
documented position string and moves are written in its documented notation,
so the comparison (``rkd_comparison.py``) only meets kubb3d at those two texts.

The rule book's sentences and what this file makes of them
----------------------------------------------------------
* Matériel: « 1 Damier de 64 cases (8 X 8) »; « chaque Kubb a les valeurs de 1
  à 6 comme un dé »; « 1 petit Kubb noir (le ti-Kubb) ayant les valeurs : 1, 2
  et 3 ».
* Nombre de joueurs: 2 players × 6 kubbs, « VARIANTE : 4 joueurs / 4 Kubbs ».
* Règle du jeu: kubbs start « avec la valeur 1, sur la première ligne de son
  camp : sur les six cases centrales »; turns go « dans le sens contraire des
  aiguilles d'une montre »; the ti-kubb's value « débute à 2, avec le premier
  joueur, puis 3 ... puis 1 ... puis 2 ... »; the ti-kubb « sert en plus à
  bloquer suivant sa position l'avancé d'un Kubb adverse »; « Si un joueur ne
  peut pas jouer (blocage), fin de la partie ».
* Déroulement du jeu: « Le joueur qui vient de jouer, prend le ti-Kubb noir et
  le pose sur n'importe quelle case libre, avec la valeur imposée du coup à
  venir »; the next player « déplace en faisant "rouler" dans n'importe quelle
  direction sauf diagonale, un de ses Kubbs de la valeur du ti-Kubb noir ; Il
  n'est pas autorisé "à revenir" sur ses pas »; « Un seul Kubb est déplacé à
  chaque coup »; « Il doit progresser/avancer d'au moins une ligne à chaque
  coup, sauf quand il attaque un Kubb adverse ».
* Combat: « Si le Kubb d'un joueur venant de jouer est positionné à côté d'un
  Kubb adverse, il y a combat : le Kubb ayant la valeur la plus élevée remporte
  le combat et "prend" le Kubb (prise obligatoire) ayant la valeur la plus
  faible »; « Si les 2 valeurs sont identiques ... les 2 Kubbs sont "sortis" »;
  « Les Kubbs de la dernière ligne de chaque camp restent "figés" et ne peuvent
  plus être déplacés, ni combattre, ni être combattus ».
* But du jeu: « Quand un joueur à tous ses Kubbs (ceux qui sont encore enjeu)
  sur la dernière ligne de son camp, ou ne peut pas jouer (blocage) la partie
  est finie »; « Le vainqueur est celui qui obtient le plus de points avec les
  Kubbs de la dernière ligne de son camp ».

READINGS (places where the rule book is silent; each is marked ``READING`` in the
code below with the choice made)
------------------------------------------------------------------------------
R1  goal: « la dernière ligne de son camp » is the board edge opposite one's
    first line (the pieces cross the board, as in draughts).
R2  seats: with 2 players they face each other (south and north edges); with 4,
    one per edge.  Counter-clockwise seen from above: S, E, N, W.
R3  4-player start: the four central cells of the first line.
R4  die faces at the start: only the top (1) is given.  Standard Western die
    (opposite faces sum to 7, 1-2-3 counter-clockwise round their corner), 2
    towards the goal; then 3 is on the owner's left and 4 on his right
    (worked out in :func:`start_die`, not copied).  Parameters ``front`` and
    ``right`` allow other dice.
R5  path: one cell per roll, orthogonal; it may turn (« n'importe quelle
    direction ») but never enters a cell it has already been on (« revenir sur
    ses pas »; the start cell included).
R6  other kubbs block the path and the end cell (a die cannot roll over or onto
    a die); the ti-kubb blocks its cell the same way (« bloquer suivant sa
    position »).  Option ``roll_through`` lets paths cross kubbs.
R7  « avancer d'au moins une ligne »: the end cell is at least one line nearer
    the goal than the start cell (rank for S/N, file for E/W).
R8  « sauf quand il attaque »: the move ends orthogonally next to an opposing
    kubb that can be fought (not frozen), and the mover itself is not frozen on
    arrival.
R9  « à côté »: the four orthogonal neighbours.  Option ``diagonal``.
R10 only the kubb that moved fights (« le Kubb ... venant de jouer »).
R11 several opponents next to it: every pair fights on the values on arrival;
    every lower opponent is taken, every equal one leaves with the mover, and
    the mover leaves if any opponent is equal or higher.
R12 « prise obligatoire »: the combat cannot be declined (nothing to choose).
    Option ``forced_capture``: as in draughts, a roll whose combat takes an opposing
    kubb must be played when there is one.
R13 before the first move nobody « vient de jouer », so the ti-kubb is off the
    board and blocks nothing.
R14 a move is the roll plus the cell where the mover puts the ti-kubb (any cell
    without a kubb, its old cell included since it was picked up); the roll
    that ends the game has no placement.
R15 end after a move when some player has every one of his kubbs still in play
    on his last line; a player whose kubbs were all taken satisfies this
    (« tous ses Kubbs (ceux qui sont encore enjeu) »: none is off the line).
R16 end when the player to roll has no legal roll (« blocage »), checked once
    the ti-kubb is down.
R17 points: sum of the top values on the owner's last line; equal best scores
    are a tie (no winner).
R18 the ti value cycles 2, 3, 1 with every move, whoever moves.
R19 when one move finishes several players at once (say two lose their last
    kubbs in one equal fight), the game end names the first of them in the seat
    order S, E, N, W.  Option ``finisher="last_mover"``: the first in turn
    order from the player who has just rolled.  Only the name in the end
    message depends on it; points and winner do not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# ---------------------------------------------------------------- board ----

FILES = "abcdefgh"
SIZE = 8
STEP = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}
OPPOSITE_DIR = {"N": "S", "S": "N", "E": "W", "W": "E"}

# READING R2: seat -> (forward direction, index of first line, index of last line)
FORWARD = {"S": (0, 1), "N": (0, -1), "E": (-1, 0), "W": (1, 0)}
TURN_ORDER = "SENW"  # counter-clockwise seen from above (Règle du jeu)


def name(cell: tuple[int, int]) -> str:
    return f"{FILES[cell[0]]}{cell[1] + 1}"


def cell_of(text: str) -> tuple[int, int]:
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in FILES or not text[1].isdigit() or not 1 <= int(text[1]) <= 8:
        raise ValueError(f"bad cell {text!r}")
    return FILES.index(text[0]), int(text[1]) - 1


def on_board(c: tuple[int, int]) -> bool:
    return 0 <= c[0] < SIZE and 0 <= c[1] < SIZE


def line(seat: str, c: tuple[int, int]) -> int:
    """0 on the seat's first line .. 7 on its last line (READING R1)."""
    fx, fy = FORWARD[seat]
    if fy == 1:
        return c[1]
    if fy == -1:
        return 7 - c[1]
    if fx == 1:
        return c[0]
    return 7 - c[0]


def is_last_line(seat: str, c: tuple[int, int]) -> bool:
    return line(seat, c) == 7


def neighbours(c: tuple[int, int], diagonal: bool = False) -> list[tuple[int, int]]:
    deltas = [(0, 1), (0, -1), (1, 0), (-1, 0)]
    if diagonal:
        deltas += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    out = []
    for dx, dy in deltas:
        n = (c[0] + dx, c[1] + dy)
        if on_board(n):
            out.append(n)
    return out


# ------------------------------------------------------------------ die ----
# A die is a dict-free 6-tuple of the values looking (up, down, north, south, east, west).
UP, DOWN, NO, SO, EA, WE = range(6)
VEC = {UP: (0, 0, 1), DOWN: (0, 0, -1), NO: (0, 1, 0), SO: (0, -1, 0), EA: (1, 0, 0), WE: (-1, 0, 0)}


def roll(die: tuple[int, ...], d: str) -> tuple[int, ...]:
    """Tip the die over its bottom edge on side ``d``: for N the top turns to face north,
    the north face goes down, the bottom faces south and the south face comes up."""
    u, dn, n, s, e, w = die
    if d == "N":
        return (s, n, u, dn, e, w)
    if d == "S":
        return (n, s, dn, u, e, w)
    if d == "E":
        return (w, e, n, s, u, dn)
    if d == "W":
        return (e, w, n, s, dn, u)
    raise ValueError(d)


def _cross(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[int, int, int]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return sum(x * y for x, y in zip(a, b))


def handedness(die: tuple[int, ...]) -> int:
    """+1 if faces 1, 2, 3 run counter-clockwise round their common corner seen from outside
    (a Western die), -1 for the mirror die."""
    where = {v: VEC[i] for i, v in enumerate(die)}
    return _dot(_cross(where[1], where[2]), where[3])


def die_from(top: int, north: int, east: int) -> tuple[int, ...]:
    return (top, 7 - top, north, 7 - north, east, 7 - east)


def start_die(seat: str, front: int = 2, right: int | None = None) -> tuple[int, ...]:
    """READING R4: 1 on top, ``front`` towards the goal; ``right`` on the owner's right.
    With ``right=None`` the right face is whichever makes a Western die."""
    fx, fy = FORWARD[seat]
    rx, ry = fy, -fx  # the right hand of someone looking along (fx, fy), seen from above

    def build(r: int) -> tuple[int, ...]:
        faces = [0] * 6
        faces[UP], faces[DOWN] = 1, 6
        for vec_i, (vx, vy, _vz) in VEC.items():
            if (vx, vy) == (fx, fy):
                faces[vec_i] = front
            elif (vx, vy) == (-fx, -fy):
                faces[vec_i] = 7 - front
            elif (vx, vy) == (rx, ry):
                faces[vec_i] = r
            elif (vx, vy) == (-rx, -ry):
                faces[vec_i] = 7 - r
        return tuple(faces)

    if right is not None:
        return build(right)
    for r in (1, 2, 3, 4, 5, 6):
        if r in (1, 6, front, 7 - front):
            continue
        d = build(r)
        if handedness(d) == 1:
            return d
    raise AssertionError("no Western die")


# ---------------------------------------------------------------- state ----


@dataclass(frozen=True)
class Rules:
    players: int = 2
    front: int = 2
    right: int | None = None  # None: the Western die (READING R4)
    roll_through: bool = False  # READING R6
    diagonal: bool = False  # READING R9
    vacuous_finish: bool = True  # READING R15 (a player with no kubb has finished)
    straight_only: bool = False  # READING R5 (False: the path may turn)
    finisher: str = "seat_order"  # READING R19: "seat_order" or "last_mover"
    multi_combat: str = "simultaneous"  # READING R11; "weakest_first" / "strongest_first": one by one
    forced_capture: bool = False  # READING R12 (True: the draughts reading of « prise obligatoire »)

    @property
    def seats(self) -> str:
        return "SN" if self.players == 2 else TURN_ORDER

    @property
    def per_player(self) -> int:
        return 6 if self.players == 2 else 4


@dataclass
class Pos:
    kubbs: dict[tuple[int, int], tuple[str, tuple[int, ...]]]
    seats: str
    to_move: str
    ti: int
    ti_cell: tuple[int, int] | None
    turns: int = 0

    def copy(self) -> Pos:
        return Pos(dict(self.kubbs), self.seats, self.to_move, self.ti, self.ti_cell, self.turns)

    def key(self) -> tuple:
        return (tuple(sorted(self.kubbs.items())), self.seats, self.to_move, self.ti, self.ti_cell, self.turns)


def start(rules: Rules = Rules()) -> Pos:
    kubbs: dict[tuple[int, int], tuple[str, tuple[int, ...]]] = {}
    for seat in rules.seats:
        lo = (8 - rules.per_player) // 2  # READING R3: the central cells
        for k in range(lo, lo + rules.per_player):
            fx, fy = FORWARD[seat]
            if fy == 1:
                c = (k, 0)
            elif fy == -1:
                c = (k, 7)
            elif fx == -1:
                c = (7, k)
            else:
                c = (0, k)
            kubbs[c] = (seat, start_die(seat, rules.front, rules.right))
    # READING R13: the ti-kubb is off the board before the first move; it starts at 2.
    return Pos(kubbs, rules.seats, rules.seats[0], 2, None, 0)


def next_ti(v: int) -> int:
    return {2: 3, 3: 1, 1: 2}[v]  # READING R18


def frozen(pos: Pos, c: tuple[int, int]) -> bool:
    k = pos.kubbs.get(c)
    return k is not None and is_last_line(k[0], c)


@dataclass(frozen=True)
class RollResult:
    start: tuple[int, int]
    path: str
    end: tuple[int, int]
    die: tuple[int, ...]


def enemies_next_to(pos: Pos, kubbs: dict, seat: str, c: tuple[int, int], rules: Rules) -> list[tuple[int, int]]:
    out = []
    for n in neighbours(c, rules.diagonal):
        k = kubbs.get(n)
        if k is not None and k[0] != seat and not is_last_line(k[0], n):
            out.append(n)
    return out


def _walk(
    pos: Pos,
    rules: Rules,
    seat: str,
    start_cell: tuple[int, int],
    rest: dict,
    cur: tuple[int, int],
    path: str,
    d: tuple[int, ...],
    seen: frozenset,
    out: list[RollResult],
) -> None:
    if len(path) == pos.ti:
        if cur in rest:
            return  # READING R6: never ends on a kubb
        advances = line(seat, cur) > line(seat, start_cell)  # READING R7
        attacks = (not is_last_line(seat, cur)) and bool(enemies_next_to(pos, rest, seat, cur, rules))  # R8
        if advances or attacks:
            out.append(RollResult(start_cell, path, cur, d))
        return
    for dname, (dx, dy) in STEP.items():
        n = (cur[0] + dx, cur[1] + dy)
        if not on_board(n) or n in seen or n == pos.ti_cell:  # READING R5, R6
            continue
        if n in rest and not (rules.roll_through and len(path) + 1 < pos.ti):
            continue
        if rules.straight_only and path and dname != path[-1]:
            continue
        _walk(pos, rules, seat, start_cell, rest, n, path + dname, roll(d, dname), seen | {n}, out)


def legal_rolls(pos: Pos, rules: Rules = Rules()) -> list[RollResult]:
    seat = pos.to_move
    out: list[RollResult] = []
    for c, (owner, die) in sorted(pos.kubbs.items()):
        if owner != seat or is_last_line(seat, c):  # frozen kubbs do not move
            continue
        rest = dict(pos.kubbs)
        del rest[c]
        _walk(pos, rules, seat, c, rest, c, "", die, frozenset({c}), out)
    if rules.forced_capture:
        taking = [r for r in out if any(n != r.end for n in apply_roll(pos, r, rules)[1])]
        if taking:
            return taking
    return out


def apply_roll(pos: Pos, r: RollResult, rules: Rules = Rules()) -> tuple[Pos, list[tuple[int, int]]]:
    """The position after the roll and its combat, before the ti-kubb is placed
    (``ti_cell`` None, ``to_move`` the next seat, ``ti`` the next value)."""
    p = pos.copy()
    seat, _ = p.kubbs.pop(r.start)
    p.kubbs[r.end] = (seat, r.die)
    removed: list[tuple[int, int]] = []
    if not is_last_line(seat, r.end):  # a frozen kubb does not fight
        mine = r.die[UP]
        mover_out = False
        foes = enemies_next_to(p, p.kubbs, seat, r.end, rules)  # READING R10, R11
        if rules.multi_combat != "simultaneous":
            # kubb3d's variants: one value after the other, equal values together
            sign = 1 if rules.multi_combat == "weakest_first" else -1
            foes.sort(key=lambda n: sign * p.kubbs[n][1][UP])
        out_at = None  # the value of the group that put the mover out
        for n in foes:
            if out_at is not None and rules.multi_combat != "simultaneous" and p.kubbs[n][1][UP] != out_at:
                break  # the fights stop when the mover is out (after that group)
            theirs = p.kubbs[n][1][UP]
            if theirs >= mine and out_at is None:
                out_at = theirs
            if mine > theirs:
                removed.append(n)
            elif mine == theirs:
                removed.append(n)
                mover_out = True
            else:
                mover_out = True
        if mover_out:
            removed.append(r.end)
        for n in removed:
            del p.kubbs[n]
    p.ti_cell = None
    p.ti = next_ti(p.ti)
    p.turns += 1
    i = p.seats.index(seat)
    p.to_move = p.seats[(i + 1) % len(p.seats)]
    return p, removed


def finished_seat(pos: Pos, rules: Rules = Rules()) -> str | None:
    """READING R15: some seat has none of its kubbs off its last line.  When several have,
    READING R19 names one: the first in the seat order S, E, N, W (``seat_order``), or the
    first in turn order from the seat that rolled last (``last_mover``)."""
    seats = pos.seats
    if rules.finisher == "last_mover":
        i = (seats.index(pos.to_move) - 1) % len(seats)
        seats = seats[i:] + seats[:i]
    for seat in seats:
        mine = [c for c, (s, _) in pos.kubbs.items() if s == seat]
        if not mine and not rules.vacuous_finish:
            continue
        if all(is_last_line(seat, c) for c in mine):
            return seat
    return None


def points(pos: Pos) -> dict[str, int]:
    pts = {s: 0 for s in pos.seats}
    for c, (s, d) in pos.kubbs.items():
        if is_last_line(s, c):
            pts[s] += d[UP]
    return pts


@dataclass
class Result:
    reason: str  # "finished" or "blocked"
    seat: str
    points: dict[str, int] = field(default_factory=dict)
    winner: str | None = None


def result_of(pos: Pos, rules: Rules = Rules(), after_roll: bool = False) -> Result | None:
    """The end of the game at ``pos`` (ti-kubb down), or None.  ``after_roll``: ``pos`` is
    the position straight after a roll, before any placement: only R15 applies."""
    pts = points(pos)
    best = max(pts.values())
    leaders = [s for s, v in pts.items() if v == best]
    winner = leaders[0] if len(leaders) == 1 else None  # READING R17
    f = finished_seat(pos, rules)
    if f is not None:
        return Result("finished", f, pts, winner)
    if after_roll:
        return None
    if not legal_rolls(pos, rules):  # READING R16: blocked once the ti-kubb is down
        return Result("blocked", pos.to_move, pts, winner)
    return None


def place(pos: Pos, c: tuple[int, int]) -> Pos:
    if c in pos.kubbs:
        raise ValueError("ti-kubb on a kubb")
    p = pos.copy()
    p.ti_cell = c
    return p


def legal_moves(pos: Pos, rules: Rules = Rules()) -> list[str]:
    """Every whole move in kubb3d's documented notation ``<start><path>@<cell>``;
    a roll that ends the game has no ``@<cell>`` (READING R14)."""
    out = []
    for r in legal_rolls(pos, rules):
        after, _ = apply_roll(pos, r, rules)
        head = name(r.start) + r.path
        if finished_seat(after, rules) is not None:
            out.append(head)
            continue
        for y in range(8):
            for x in range(8):
                if (x, y) not in after.kubbs:
                    out.append(f"{head}@{name((x, y))}")
    return out


def play(pos: Pos, move: str, rules: Rules = Rules()) -> Pos:
    """Apply a move written ``b1NE@d5`` (or ``b1NE`` when it ends the game)."""
    head, _, cell = move.partition("@")
    s = cell_of(head[:2])
    path = head[2:].upper()
    for r in legal_rolls(pos, rules):
        if r.start == s and r.path == path:
            after, _ = apply_roll(pos, r, rules)
            if cell:
                return place(after, cell_of(cell))
            return after
    raise ValueError(f"illegal move {move}")


# ------------------------------------------------- kubb3d's position text ----
# The documented format (kubb3d/dames/README.md, Notation): ranks 8..1 separated by
# '/', digits for empty cells, a kubb as seat letter + top, north, east digits;
# then seats, seat to roll, ti value, ti cell ('-' off board, '?' pending), turns.


def parse_position(text: str) -> Pos:
    fields = text.split()
    if len(fields) != 6:
        raise ValueError(text)
    ranks = fields[0].split("/")
    kubbs = {}
    for i, row in enumerate(ranks):
        y = 7 - i
        x = 0
        j = 0
        while j < len(row):
            ch = row[j]
            if ch.isdigit():
                x += int(ch)
                j += 1
            else:
                top, north, east = (int(v) for v in row[j + 1 : j + 4])
                kubbs[(x, y)] = (ch, die_from(top, north, east))
                x += 1
                j += 4
        if x != 8:
            raise ValueError(f"rank {y + 1} has {x} cells")
    ti_cell_text = fields[4]
    if ti_cell_text.startswith("?"):
        raise ValueError("pending placement: not a position to roll from")
    ti_cell = None if ti_cell_text == "-" else cell_of(ti_cell_text)
    return Pos(kubbs, fields[1], fields[2], int(fields[3]), ti_cell, int(fields[5]))


def format_position(pos: Pos) -> str:
    rows = []
    for y in range(7, -1, -1):
        row = ""
        empty = 0
        for x in range(8):
            k = pos.kubbs.get((x, y))
            if k is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            d = k[1]
            row += f"{k[0]}{d[UP]}{d[NO]}{d[EA]}"
        if empty:
            row += str(empty)
        rows.append(row)
    ti = "-" if pos.ti_cell is None else name(pos.ti_cell)
    return f"{'/'.join(rows)} {pos.seats} {pos.to_move} {pos.ti} {ti} {pos.turns}"


# ------------------------------------------------------------ symmetries ----


def mirror_cell(c: tuple[int, int]) -> tuple[int, int]:
    return (7 - c[0], c[1])


def rotate_cell(c: tuple[int, int]) -> tuple[int, int]:
    return (7 - c[0], 7 - c[1])


MIRROR_DIR = {"N": "N", "S": "S", "E": "W", "W": "E"}
ROTATE_DIR = {"N": "S", "S": "N", "E": "W", "W": "E"}
MIRROR_SEAT = {"S": "S", "N": "N", "E": "W", "W": "E"}
ROTATE_SEAT = {"S": "N", "N": "S", "E": "W", "W": "E"}


def mirror_die(d: tuple[int, ...]) -> tuple[int, ...]:
    u, dn, n, s, e, w = d
    return (u, dn, n, s, w, e)


def rotate_die(d: tuple[int, ...]) -> tuple[int, ...]:
    u, dn, n, s, e, w = d
    return (u, dn, s, n, w, e)


def transform(pos: Pos, kind: str) -> Pos:
    """``mirror``: reflect files a<->h (dice become their mirror images, E<->W seats);
    ``rotate``: turn the board half round (S<->N, E<->W): the colours swap sides."""
    fc, fd, fs = (mirror_cell, mirror_die, MIRROR_SEAT) if kind == "mirror" else (rotate_cell, rotate_die, ROTATE_SEAT)
    kubbs = {fc(c): (fs[s], fd(d)) for c, (s, d) in pos.kubbs.items()}
    # The same seats play, in the same turn order (with 4 players a mirror reverses the
    # sense of rotation, so only the moves of the seat to roll map onto each other).
    return Pos(kubbs, pos.seats, fs[pos.to_move], pos.ti, None if pos.ti_cell is None else fc(pos.ti_cell), pos.turns)


def transform_move(move: str, kind: str) -> str:
    fc, fdir = (mirror_cell, MIRROR_DIR) if kind == "mirror" else (rotate_cell, ROTATE_DIR)
    head, at, cell = move.partition("@")
    out = name(fc(cell_of(head[:2]))) + "".join(fdir[ch] for ch in head[2:].upper())
    if at:
        out += "@" + name(fc(cell_of(cell)))
    return out

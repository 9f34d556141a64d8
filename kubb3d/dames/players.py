"""Computer players for Roll Kubb Dames and a self-play loop.

Every player takes a :class:`numpy.random.Generator` when built and draws all
its randomness from it (there is no default generator and no global random
state): the same seeds give the same game.

* :class:`RandomPlayer` picks a legal roll uniformly, then a free cell for the
  ti-kubb uniformly.
* :class:`GreedyPlayer` picks the roll with the best immediate result
  (:func:`evaluate` right after the roll and its combat: points on the last
  line, kubbs taken, lines advanced), and puts the ti-kubb on a random free
  cell.
* :class:`SearchPlayer` looks ``depth`` turns ahead with minimax and
  alpha-beta pruning (paranoid for 4 players: every other player is assumed
  to play against it).

Searching the ti-kubb placement exactly
---------------------------------------
The ti-kubb only matters for the very next roll: its next mover picks it up
(``RKD`` Déroulement du jeu).  So when player *m* has rolled and must place it
before player *q* rolls, all cells off the path of *q*'s best reply are worth
the same (*q* plays that reply anyway), and only the at most three cells of
that path can do better, by blocking it.  The search therefore scores each of
*q*'s replies once, without the ti-kubb on the board, and derives the value of
every useful placement from those scores: one placement node costs no more
than the replies themselves.  Alpha-beta still applies: a node fails low as
soon as the replies scoring at most alpha cannot all be blocked by one cell.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from kubb3d.dames.board import (
    LAST_LINE,
    DamesBoard,
    Geometry,
    Move,
    Outcome,
    Roll,
    State,
    Termination,
    apply_place,
    apply_roll,
    finished_seat,
    gen_rolls,
    points_of,
)
from kubb3d.dames.die import STEP
from kubb3d.dames.rules import DamesRules
from kubb3d.errors import DamesError
from kubb3d.ranges import counted

WIN = 1000.0
"""Score of a won game in :func:`evaluate` units (plus the point margin)."""


class Player(Protocol):
    """Anything that picks a move: ``choose(board) -> Move`` (a legal one)."""

    name: str

    def choose(self, board: DamesBoard) -> Move:  # pragma: no cover - protocol
        ...


# --------------------------------------------------------------------------
# Evaluation
# --------------------------------------------------------------------------

KUBB_BASE = 1.5
"""Worth of a kubb still in play on its first line, in points."""
KUBB_PER_LINE = 0.35
"""Extra worth of a kubb in play per line it has advanced (line 6: 3.6 points)."""


def seat_strength(geo: Geometry, st: State) -> dict[str, float]:
    """Heuristic worth per seat: last-line points plus expected points of kubbs in play."""
    worth = {s: 0.0 for s in geo.seats}
    for c, k in enumerate(st.cells):
        if k is None:
            continue
        line = geo.line[k.seat][c]
        if line == LAST_LINE:
            worth[k.seat] += k.die.top
        else:
            worth[k.seat] += KUBB_BASE + KUBB_PER_LINE * line
    return worth


def terminal_score(geo: Geometry, st: State, seat: str) -> float:
    """Final score of a finished game for ``seat``: ±:data:`WIN` plus the point margin, 0 + margin on a tie."""
    pts = points_of(geo, st)
    mine = pts[seat]
    best_other = max(p for s, p in pts.items() if s != seat)
    margin = float(mine - best_other)
    if mine > best_other:
        return WIN + margin
    if mine < best_other:
        return -WIN + margin
    return margin


def evaluate(geo: Geometry, st: State, seat: str) -> float:
    """Score of ``st`` for ``seat``: its :func:`seat_strength` minus the best opponent's.

    Finished games (a player with every kubb on his last line) get
    :func:`terminal_score`.  A blockade is only detected by the search.
    """
    if finished_seat(geo, st) is not None:
        return terminal_score(geo, st, seat)
    worth = seat_strength(geo, st)
    return worth[seat] - max(w for s, w in worth.items() if s != seat)


def roll_cells(roll: Roll) -> tuple[int, ...]:
    """The cells a roll passes through and ends on (its start excluded)."""
    cells = []
    c = roll.start
    for d in roll.path:
        dx, dy = STEP[d]
        c += dx + 8 * dy
        cells.append(c)
    return tuple(cells)


def _free_cells(st: State) -> list[int]:
    return [c for c in range(64) if st.cells[c] is None]


def _finish(board: DamesBoard, roll: Roll, place: int | None) -> Move:
    after, _ = apply_roll(board._geo, board.state, roll)
    if finished_seat(board._geo, after) is not None:
        return Move(roll.start, roll.path, None)
    return Move(roll.start, roll.path, place)


def _random_place(rng: np.random.Generator, st: State, avoid: set[int] | frozenset[int] = frozenset()) -> int:
    free = [c for c in _free_cells(st) if c not in avoid] or _free_cells(st)
    return free[int(rng.integers(len(free)))]


def _opening_placement(board: DamesBoard, rng: np.random.Generator) -> Move:
    return Move(None, "", _random_place(rng, board.state))


# --------------------------------------------------------------------------
# Players
# --------------------------------------------------------------------------


class RandomPlayer:
    """Uniformly random legal roll, then a uniformly random free cell for the ti-kubb.

    Args:
        rng: the only source of randomness.
    """

    name = "random"

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def choose(self, board: DamesBoard) -> Move:
        """A random legal move.  Raises DamesError if the game is over."""
        if board.is_game_over():
            raise DamesError("the game is over")
        if board.state.pending:
            return _opening_placement(board, self.rng)
        rolls = board.legal_rolls()
        roll = rolls[int(self.rng.integers(len(rolls)))]
        after, _ = apply_roll(board._geo, board.state, roll)
        return _finish(board, roll, _random_place(self.rng, after))


class GreedyPlayer:
    """Best immediate roll by :func:`evaluate` (ties broken at random), ti-kubb on a random free cell.

    Args:
        rng: the only source of randomness.
    """

    name = "greedy"

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def choose(self, board: DamesBoard) -> Move:
        """The greedy move.  Raises DamesError if the game is over."""
        if board.is_game_over():
            raise DamesError("the game is over")
        if board.state.pending:
            return _opening_placement(board, self.rng)
        geo, st, me = board._geo, board.state, board.turn
        scored = []
        for roll in board.legal_rolls():
            after, _ = apply_roll(geo, st, roll)
            scored.append((evaluate(geo, after, me), roll, after))
        best = max(v for v, _, _ in scored)
        top = [(r, a) for v, r, a in scored if v >= best - 1e-9]
        roll, after = top[int(self.rng.integers(len(top)))]
        return _finish(board, roll, _random_place(self.rng, after))


class _Timeout(Exception):
    pass


@dataclass
class SearchStats:
    """What the last :meth:`SearchPlayer.choose` did."""

    depth: int = 0
    nodes: int = 0
    value: float = 0.0
    seconds: float = 0.0


@dataclass
class _Ctx:
    geo: Geometry
    root: str
    deadline: float | None
    nodes: int = 0
    cells_cache: dict[tuple[int, str], frozenset[int]] = field(default_factory=dict)


class SearchPlayer:
    """Minimax with alpha-beta over whole turns, ti-kubb placement searched exactly.

    Args:
        rng: the only source of randomness (ties between equally good moves,
            and which irrelevant cell gets the ti-kubb).
        depth: turns to look ahead, its own included (1 = greedy roll, harmless
            placement; 2 = also every reply, and the placement that blocks the
            best one; ...).  Must be >= 1.
        time_limit: seconds; if given, iterative deepening from depth 1 up to
            ``depth`` stops when it runs out and the deepest finished search
            decides.  Results then depend on machine speed (not reproducible).

    Raises:
        DamesError: ``depth < 1`` or ``time_limit <= 0``.
    """

    name = "search"

    def __init__(self, rng: np.random.Generator, depth: int = 2, time_limit: float | None = None) -> None:
        if depth < 1:
            raise DamesError(f"search depth must be at least 1, got {depth}")
        if time_limit is not None and time_limit <= 0:
            raise DamesError(f"time limit must be positive, got {time_limit}")
        self.rng = rng
        self.depth = depth
        self.time_limit = time_limit
        self.stats = SearchStats()

    def choose(self, board: DamesBoard) -> Move:
        """The move the search prefers.  Raises DamesError if the game is over."""
        if board.is_game_over():
            raise DamesError("the game is over")
        if board.state.pending:
            return self._choose_opening_placement(board)
        t0 = time.perf_counter()
        deadline = None if self.time_limit is None else t0 + self.time_limit
        ctx = _Ctx(board._geo, board.turn, deadline)
        rolls = board.legal_rolls()
        best: tuple[float, list[tuple[Roll, int | None, State]]] | None = None
        depths = range(1, self.depth + 1) if deadline is not None else [self.depth]
        done = 0
        for d in depths:
            try:
                best = self._root(ctx, board.state, rolls, d)
                done = d
            except _Timeout:
                break
        if best is None:  # not even depth 1 finished in time: fall back to it untimed
            ctx.deadline = None
            best = self._root(ctx, board.state, rolls, 1)
            done = 1
        value, choices = best
        roll, place, after = choices[int(self.rng.integers(len(choices)))]
        if place is None:
            place = self._irrelevant_cell(ctx, after)
        self.stats = SearchStats(done, ctx.nodes, value, time.perf_counter() - t0)
        return _finish(board, roll, place)

    # ----- internals ---------------------------------------------------------

    def _choose_opening_placement(self, board: DamesBoard) -> Move:
        geo = board._geo
        ctx = _Ctx(geo, board.turn, None)
        value, place = self._after_roll(ctx, board.state, self.depth, -np.inf, np.inf)
        if place is None:
            place = self._irrelevant_cell(ctx, board.state)
        return Move(None, "", place)

    def _irrelevant_cell(self, ctx: _Ctx, pending: State) -> int:
        """A free cell on no path of the next roller (so it blocks nothing), chosen at random."""
        if finished_seat(ctx.geo, pending) is not None:
            return _random_place(self.rng, pending)
        used: set[int] = set()
        for r in gen_rolls(ctx.geo, pending._replace(pending=False, ti_cell=-1)):
            used.update(self._cells(ctx, r))
        return _random_place(self.rng, pending, used)

    def _root(
        self, ctx: _Ctx, st: State, rolls: list[Roll], depth: int
    ) -> tuple[float, list[tuple[Roll, int | None, State]]]:
        geo, me = ctx.geo, ctx.root
        children = []
        for roll in rolls:
            after, _ = apply_roll(geo, st, roll)
            children.append((evaluate(geo, after, me), roll, after))
        children.sort(key=lambda t: -t[0])
        alpha = -np.inf
        best_value = -np.inf
        best: list[tuple[Roll, int | None, State]] = []
        for _static, roll, after in children:
            # search with a window just below alpha so that equal moves stay exact
            value, place = self._after_roll(ctx, after, depth - 1, alpha - 1e-6, np.inf)
            if value > best_value + 1e-9:
                best_value, best = value, [(roll, place, after)]
            elif value >= best_value - 1e-9:
                best.append((roll, place, after))
            alpha = max(alpha, best_value)
        return float(best_value), best

    def _cells(self, ctx: _Ctx, roll: Roll) -> frozenset[int]:
        key = (roll.start, roll.path)
        cells = ctx.cells_cache.get(key)
        if cells is None:
            cells = frozenset(roll_cells(roll))
            ctx.cells_cache[key] = cells
        return cells

    def _after_roll(
        self, ctx: _Ctx, x: State, depth: int, alpha: float, beta: float
    ) -> tuple[float, int | None]:
        """Value for the root of the pending state ``x`` and the best ti-kubb cell (None: anywhere harmless).

        ``depth`` counts the turns still to search.  Fail-hard alpha-beta: the
        value is clamped to ``[alpha, beta]``.
        """
        ctx.nodes += 1
        if ctx.deadline is not None and ctx.nodes % 64 == 0 and time.perf_counter() > ctx.deadline:
            raise _Timeout
        geo, root = ctx.geo, ctx.root
        if finished_seat(geo, x) is not None:
            return _clamp(terminal_score(geo, x, root), alpha, beta), None
        if depth <= 0:
            return _clamp(evaluate(geo, x, root), alpha, beta), None
        placer = geo.seats[x.placer]
        roller = geo.seats[x.turn]
        free_st = x._replace(pending=False, ti_cell=-1)
        replies = gen_rolls(geo, free_st)
        if not replies:  # blocked wherever the ti-kubb goes
            return _clamp(terminal_score(geo, x, root), alpha, beta), None
        roller_max = roller == root
        placer_max = placer == root
        # order replies by their static value, best for the roller first
        scored = []
        for r in replies:
            after, _ = apply_roll(geo, free_st, r)
            scored.append((evaluate(geo, after, root), r, after))
        scored.sort(key=lambda t: -t[0] if roller_max else t[0])
        values: list[tuple[float, frozenset[int]]] = []
        # refutations: replies already known to reach the roller's cut-off bound;
        # if no single cell lies on all of them, the placer cannot stop them all.
        common: frozenset[int] | None = None
        for static, r, after in scored:
            if depth == 1:
                v = _clamp(static, alpha, beta)
            else:
                v, _ = self._after_roll(ctx, after, depth - 1, alpha, beta)
            cells = self._cells(ctx, r)
            values.append((v, cells))
            if not placer_max and not roller_max and v <= alpha:
                return alpha, None  # the placer leaves this reply open
            if placer_max and not roller_max and v <= alpha:
                common = cells if common is None else common & cells
                if not common:
                    return alpha, None
            elif roller_max and not placer_max and v >= beta:
                common = cells if common is None else common & cells
                if not common:
                    return beta, None
        pick = min if not roller_max else max
        best_v, best_cells = pick(values, key=lambda t: t[0])
        result, place = best_v, None
        blockade = None
        for c in sorted(best_cells):
            rest = [v for v, cells in values if c not in cells]
            if rest:
                v = pick(rest)
            else:
                if blockade is None:
                    blockade = terminal_score(geo, apply_place(x, c, geo.nseats), root)
                v = blockade
            if (placer_max and v > result + 1e-9) or (not placer_max and v < result - 1e-9):
                result, place = v, c
        return _clamp(result, alpha, beta), place


def _clamp(v: float, lo: float, hi: float) -> float:
    return lo if v < lo else hi if v > hi else v


# --------------------------------------------------------------------------
# Self-play
# --------------------------------------------------------------------------

PLAYER_KINDS = ("random", "greedy", "search")


def make_player(kind: str, rng: np.random.Generator, depth: int = 2, time_limit: float | None = None) -> Player:
    """Build a computer player by name (``random``, ``greedy``, ``search``).

    Raises:
        DamesError: unknown ``kind``.
    """
    if kind == "random":
        return RandomPlayer(rng)
    if kind == "greedy":
        return GreedyPlayer(rng)
    if kind == "search":
        return SearchPlayer(rng, depth=depth, time_limit=time_limit)
    raise DamesError(f"unknown player {kind!r}; choose from {', '.join(PLAYER_KINDS)}")


@dataclass
class GameRecord:
    """A finished (or abandoned) game: its moves in order and its outcome."""

    moves: list[Move]
    outcome: Outcome | None
    turns: int
    start_position: str


def play_game(
    players: Sequence[Player],
    rules: DamesRules | None = None,
    position: str | None = None,
    on_move: Callable[[DamesBoard, Move], None] | None = None,
    max_turns: int | None = None,
) -> GameRecord:
    """Play one game between computer players, seated in turn order (S, N or S, E, N, W).

    Args:
        players: one per seat of ``rules``.
        rules: default :class:`DamesRules` (or those implied by ``position``).
        position: start position string, default the opening.
        on_move: called after each move with the board and the move.
        max_turns: stop (outcome None) after this many moves; by default the
            game runs to its end, which always comes (every move either
            advances a kubb or removes one).

    Raises:
        DamesError: wrong number of players for the rules.
    """
    board = DamesBoard(position, rules)
    if len(players) != len(board.rules.seats):
        raise DamesError(
            f"{counted(len(board.rules.seats), 'player')} needed for seats {board.rules.seats}, got {len(players)}"
        )
    by_seat = dict(zip(board.rules.seats, players))
    start = board.position()
    moves: list[Move] = []
    while (outcome := board.outcome()) is None:
        if max_turns is not None and len(moves) >= max_turns:
            break
        move = by_seat[board.turn].choose(board)
        board.push(move)
        moves.append(move)
        if on_move is not None:
            on_move(board, move)
    return GameRecord(moves, outcome, board.ply, start)


@dataclass
class SelfPlaySummary:
    """Results of :func:`run_selfplay`.

    Attributes:
        labels: one per entry of the player list (``search``, or ``random#1``
            and ``random#2`` when a kind appears twice).
        wins: games won per label.
        ties: games without a single winner.
        turns: length of each game in turns (rolls).
        terminations: number of games per :class:`Termination` value.
        seconds: wall-clock time of the whole run.
    """

    labels: list[str]
    wins: dict[str, int]
    ties: int
    turns: list[int]
    terminations: dict[str, int]
    seconds: float

    @property
    def games(self) -> int:
        """Number of games played."""
        return len(self.turns)

    @property
    def mean_turns(self) -> float:
        """Average game length in turns."""
        return float(np.mean(self.turns))

    def win_rate(self, label: str) -> float:
        """Fraction of the games won by ``label`` (0..1)."""
        return self.wins[label] / self.games


def run_selfplay(
    kinds: Sequence[str],
    games: int,
    seed: int,
    rules: DamesRules | None = None,
    depth: int = 2,
    time_limit: float | None = None,
    rotate: bool = True,
    on_game: Callable[[int, GameRecord], None] | None = None,
) -> SelfPlaySummary:
    """Play ``games`` seeded games between computer players of the given kinds.

    Game ``i`` seeds its players from ``SeedSequence([seed, i])`` (one child
    stream per player), so a run is reproducible and any single game can be
    replayed.  With ``rotate`` the list of players is rotated by ``i`` places
    before seating, so every player starts from every seat equally often.

    Raises:
        DamesError: unknown kind, or not one player per seat of ``rules``.
    """
    rules = rules or DamesRules(players=len(kinds))  # type: ignore[arg-type]
    n = len(kinds)
    labels = [k if list(kinds).count(k) == 1 else f"{k}#{i + 1}" for i, k in enumerate(kinds)]
    summary = SelfPlaySummary(labels, {label: 0 for label in labels}, 0, [], {t.value: 0 for t in Termination}, 0.0)
    t0 = time.perf_counter()
    for i in range(games):
        shift = i % n if rotate else 0
        order = list(range(shift, n)) + list(range(shift))
        streams = np.random.SeedSequence([seed, i]).spawn(n)
        agents = [make_player(kinds[j], np.random.default_rng(streams[j]), depth, time_limit) for j in order]
        record = play_game(agents, rules)
        outcome = record.outcome
        assert outcome is not None
        summary.turns.append(record.turns)
        summary.terminations[outcome.termination.value] += 1
        if outcome.winner is None:
            summary.ties += 1
        else:
            summary.wins[labels[order[rules.seats.index(outcome.winner)]]] += 1
        if on_game is not None:
            on_game(i, record)
    summary.seconds = time.perf_counter() - t0
    return summary

"""Compare kubb3d's Roll Kubb Dames engine with the independent one (``independent_rkd``).

The two meet only at kubb3d's documented texts: the position string (read by
:func:`independent_rkd.parse_position`) and the move notation (written by
:func:`independent_rkd.legal_moves`).  For every position compared, and for
each ti value 1, 2 and 3 (the "die roll" that sets the distance):

* the legal rolls (start cell, path, die orientation on arrival);
* the number of whole moves (roll × ti-kubb cell), and for the ti value of the
  game itself the full set of move texts;
* for every legal roll, the position after it (pushed with one ti-kubb cell),
  the kubbs its combat took out, and the game end and winner after it;
* the game end and winner of the position itself.

Games come from seeded ``numpy.random.Generator`` draws over kubb3d's legal
moves and from kubb3d's own computer players.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import independent_rkd as ind
import numpy as np

from kubb3d.dames import DamesBoard, DamesRules, Move
from kubb3d.dames.players import GreedyPlayer, RandomPlayer, SearchPlayer

TERMINATION = {"all_on_last_line": "finished", "blockade": "blocked"}


@dataclass
class Tally:
    games: int = 0
    positions: int = 0
    roll_sets: int = 0  # (position, ti value) pairs whose roll sets were compared
    rolls: int = 0  # rolls compared one by one (position after, removed, outcome)
    moves: int = 0  # whole moves counted on both sides
    move_sets: int = 0  # positions whose full move-text sets were compared
    outcomes: int = 0
    typed: int = 0  # typed moves checked for acceptance (compare_typed_moves)
    ends: Counter = field(default_factory=Counter)  # game ends among the outcomes, by kind
    disagreements: Counter = field(default_factory=Counter)
    examples: dict = field(default_factory=dict)

    def disagree(self, kind: str, detail: str) -> None:
        self.disagreements[kind] += 1
        self.examples.setdefault(kind, detail)

    def add(self, other: Tally) -> None:
        for f in ("games", "positions", "roll_sets", "rolls", "moves", "move_sets", "outcomes", "typed"):
            setattr(self, f, getattr(self, f) + getattr(other, f))
        self.disagreements.update(other.disagreements)
        self.ends.update(other.ends)
        for k, v in other.examples.items():
            self.examples.setdefault(k, v)


def mine_rules(krules: DamesRules) -> ind.Rules:
    """The independent rules set to kubb3d's documented reading of each option."""
    return ind.Rules(
        players=krules.players,
        front=krules.start_front,
        right=krules.start_right,
        roll_through=krules.roll_through_kubbs,
        diagonal=krules.diagonal_combat,
        vacuous_finish=krules.eliminated == "ends_game",
        straight_only=krules.straight_only,
        forced_capture=krules.forced_capture,
        multi_combat=krules.multi_combat,
        finisher="last_mover",  # kubb3d's reading (README, End of the game)
    )


def cell_text(index: int) -> str:
    return ind.name((index % 8, index // 8))


def k_rolls(board: DamesBoard) -> set[tuple[str, str, tuple[int, int, int]]]:
    return {(cell_text(r.start), r.path, (r.die[0], r.die[1], r.die[2])) for r in board.legal_rolls()}


def i_rolls(pos: ind.Pos, rules: ind.Rules) -> set[tuple[str, str, tuple[int, int, int]]]:
    return {
        (ind.name(r.start), r.path, (r.die[ind.UP], r.die[ind.NO], r.die[ind.EA])) for r in ind.legal_rolls(pos, rules)
    }


def k_outcome(board: DamesBoard) -> tuple | None:
    o = board.outcome()
    if o is None:
        return None
    return (TERMINATION[o.termination.value], o.player, dict(o.points), o.winner)


def i_outcome(res: ind.Result | None) -> tuple | None:
    if res is None:
        return None
    return (res.reason, res.seat, dict(res.points), res.winner)


def with_ti(position: str, ti: int) -> str:
    f = position.split()
    f[3] = str(ti)
    return " ".join(f)


def compare_position(
    position: str, krules: DamesRules, tally: Tally, full_moves: bool = True, irules: ind.Rules | None = None
) -> None:
    """Compare everything at one position (ti-kubb down, not pending).  ``irules``: the
    independent side's rules, by default the same readings as ``krules``."""
    rules = mine_rules(krules) if irules is None else irules
    actual_ti = int(position.split()[3])
    tally.positions += 1
    kb0 = DamesBoard(position, krules)
    pos0 = ind.parse_position(position)
    tally.outcomes += 1
    ko, io = k_outcome(kb0), i_outcome(ind.result_of(pos0, rules))
    if ko is not None:
        tally.ends[ko[0]] += 1
    if ko != io:
        tally.disagree("outcome", f"{position}: kubb3d {ko} / independent {io}")
    if ko is not None or io is not None:
        return
    for ti in (1, 2, 3):
        text = with_ti(position, ti)
        kb = DamesBoard(text, krules)
        pos = ind.parse_position(text)
        tally.roll_sets += 1
        kr, ir = k_rolls(kb), i_rolls(pos, rules)
        if kr != ir:
            tally.disagree(
                "rolls",
                f"{text}: only kubb3d {sorted(kr - ir)[:4]} / only independent {sorted(ir - kr)[:4]}",
            )
            continue
        km, im = kb.count_legal_moves(), len(ind.legal_moves(pos, rules))
        tally.moves += km
        if km != im:
            tally.disagree("move count", f"{text}: kubb3d {km} / independent {im}")
        if full_moves and ti == actual_ti:
            tally.move_sets += 1
            ks = {str(m).upper() for m in kb.legal_moves()}
            iset = {m.upper() for m in ind.legal_moves(pos, rules)}
            if ks != iset:
                tally.disagree(
                    "move set", f"{text}: only kubb3d {sorted(ks - iset)[:3]} / only ind {sorted(iset - ks)[:3]}"
                )
        for r in ind.legal_rolls(pos, rules):
            tally.rolls += 1
            after, removed = ind.apply_roll(pos, r, rules)
            ended = ind.result_of(after, rules, after_roll=True)
            if ended is None:
                free = [(x, y) for y in range(8) for x in range(8) if (x, y) not in after.kubbs]
                cell = free[(r.start[0] * 7 + r.start[1] * 3 + len(r.path)) % len(free)]
                after = ind.place(after, cell)
                mtext = f"{ind.name(r.start)}{r.path}@{ind.name(cell)}"
                ended = ind.result_of(after, rules)
            else:
                mtext = f"{ind.name(r.start)}{r.path}"
            try:
                kb.push(Move.parse(mtext))
            except ValueError as exc:
                tally.disagree("move refused", f"{text} + {mtext}: kubb3d says {exc}")
                continue
            kpos_text = kb.position()
            if kpos_text.split()[4].startswith("?") and ended is not None:
                # a roll that ends the game leaves the ti-kubb in the hand: no placement
                kpos_text = _unpend(kpos_text)
            kpos = None if kpos_text.split()[4].startswith("?") else ind.parse_position(kpos_text)
            if kpos is None or kpos.key() != after.key():
                tally.disagree(
                    "after roll", f"{text} + {mtext}: kubb3d {kb.position()} / ind {ind.format_position(after)}"
                )
            k_removed = sorted(cell_text(c) for c, _ in kb.last_removed)
            if k_removed != sorted(ind.name(c) for c in removed):
                tally.disagree(
                    "combat", f"{text} + {mtext}: kubb3d took {k_removed} / ind {[ind.name(c) for c in removed]}"
                )
            tally.outcomes += 1
            ko, io = k_outcome(kb), i_outcome(ended)
            if ko is not None:
                tally.ends[ko[0]] += 1
            if ko != io:
                tally.disagree("outcome after roll", f"{text} + {mtext}: kubb3d {ko} / ind {io}")
            kb.pop()


def compare_typed_moves(position: str, krules: DamesRules, tally: Tally, irules: ind.Rules | None = None) -> None:
    """What a person may type: every cell as a start and every path of the ti value's
    length (4**ti of them), pushed with a free cell for the ti-kubb; kubb3d must accept
    exactly the independent engine's legal rolls.  Then every one of the 64 cells as the
    placement of one legal roll: exactly the cells without a kubb after it."""
    rules = mine_rules(krules) if irules is None else irules
    kb = DamesBoard(position, krules)
    pos = ind.parse_position(position)
    if ind.result_of(pos, rules) is not None:
        return
    legal = {(r.start, r.path): r for r in ind.legal_rolls(pos, rules)}
    paths = [""]
    for _ in range(pos.ti):
        paths = [p + d for p in paths for d in "NESW"]
    for y in range(8):
        for x in range(8):
            for path in paths:
                r = legal.get(((x, y), path))
                move = Move(y * 8 + x, path, None)
                if r is None:
                    end = (x, y)
                    for d in path:
                        end = (end[0] + ind.STEP[d][0], end[1] + ind.STEP[d][1])
                    cell = next(i for i in range(64) if (i % 8, i // 8) not in pos.kubbs and (i % 8, i // 8) != end)
                    move = Move(y * 8 + x, path, cell)
                else:
                    after, _ = ind.apply_roll(pos, r, rules)
                    if ind.result_of(after, rules, after_roll=True) is None:
                        free = [c for c in range(64) if (c % 8, c // 8) not in after.kubbs]
                        move = Move(y * 8 + x, path, free[0])
                tally.typed += 1
                if kb.is_legal(move) != (r is not None):
                    tally.disagree("typed move", f"{position}: {move} kubb3d legal {kb.is_legal(move)}")
    # The destination form b1-c2@d5 (README, Notation): accepted when one path leads there.
    ends: dict[tuple, list] = {}
    for r in legal.values():
        ends.setdefault((r.start, r.end), []).append(r)
    for (start, end), rolls in ends.items():
        free = next(c for c in range(64) if (c % 8, c // 8) not in pos.kubbs and (c % 8, c // 8) != end)
        text = f"{ind.name(start)}-{ind.name(end)}@{cell_text(free)}"
        try:
            got = kb.parse_move(text)
            accepted = True
        except ValueError:
            accepted = False
        tally.typed += 1
        unique = len({r.die for r in rolls}) == 1
        if accepted != unique or (accepted and (got.start, got.path) != (start[1] * 8 + start[0], rolls[0].path)):
            tally.disagree("destination form", f"{position}: {text} accepted {accepted}, {len(rolls)} paths")
    for r in list(legal.values())[:1]:
        after, _ = ind.apply_roll(pos, r, rules)
        if ind.result_of(after, rules, after_roll=True) is not None:
            continue
        for c in range(64):
            tally.typed += 1
            move = Move(r.start[1] * 8 + r.start[0], r.path, c)
            if kb.is_legal(move) != ((c % 8, c // 8) not in after.kubbs):
                tally.disagree("placement", f"{position}: {move} kubb3d legal {kb.is_legal(move)}")


def positions_of_game(kind: str, seed: int, krules: DamesRules, max_turns: int = 200) -> list[str]:
    """Positions (before each move, and the final one) of one seeded game.

    ``kind``: ``uniform`` (a uniform draw over kubb3d's whole legal moves), or a
    kubb3d player name for every seat: ``random``, ``greedy``, ``search1``, ``search2``.
    """
    rng = np.random.default_rng(seed)
    board = DamesBoard(rules=krules)
    players = None
    if kind != "uniform":
        streams = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(krules.players)]
        make = {
            "random": RandomPlayer,
            "greedy": GreedyPlayer,
            "search1": lambda g: SearchPlayer(g, depth=1),
            "search2": lambda g: SearchPlayer(g, depth=2),
        }
        players = [make[kind](g) for g in streams]
    out = [board.position()]
    while board.outcome() is None and board.ply < max_turns:
        if players is None:
            moves = list(board.legal_moves())
            move = moves[int(rng.integers(len(moves)))]
        else:
            move = players[board.state.turn].choose(board)
        board.push(move)
        out.append(board.position())
    return out


def compare_games(
    kind: str,
    seeds: range | list[int],
    krules: DamesRules,
    full_moves: bool = True,
    irules: ind.Rules | None = None,
    every: int = 1,
    typed_every: int = 4,
) -> Tally:
    """Compare at every ``every``-th position of each seeded game (and its last one)."""
    tally = Tally()
    for seed in seeds:
        tally.games += 1
        positions = positions_of_game(kind, seed, krules)
        picked = positions[::every] + ([positions[-1]] if (len(positions) - 1) % every else [])
        for position in picked:
            if position.split()[4].startswith("?"):
                position = _unpend(position)  # the game-ending roll leaves the ti-kubb in hand
            compare_position(position, krules, tally, full_moves, irules)
            if typed_every and tally.positions % typed_every == 0:
                compare_typed_moves(position, krules, tally, irules)
    return tally


# ------------------------------------------------------------------ perft ----


def k_perft(board: DamesBoard, depth: int, tis: tuple[int, ...]) -> int:
    """Whole-move sequences of length ``depth``; the ti value of ply ``i`` is forced to ``tis[i]``."""
    board = DamesBoard(with_ti(board.position(), tis[0]), board.rules)
    if depth == 1:
        return board.count_legal_moves()
    total = 0
    for move in list(board.legal_moves()):
        board.push(move)
        if board.outcome() is None and not board.position().split()[4].startswith("?"):
            total += k_perft(board, depth - 1, tis[1:])
        board.pop()
    return total


def i_perft(pos: ind.Pos, rules: ind.Rules, depth: int, tis: tuple[int, ...]) -> int:
    pos = pos.copy()
    pos.ti = tis[0]
    moves = ind.legal_moves(pos, rules)
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        nxt = ind.play(pos, m, rules)
        if "@" in m and ind.result_of(nxt, rules) is None:
            total += i_perft(nxt, rules, depth - 1, tis[1:])
    return total


def k_roll_perft(position: str, krules: DamesRules, tis: tuple[int, ...], park: str) -> int:
    """Roll sequences of length ``len(tis)``, the ti-kubb always put on ``park`` (or the
    first free cell after it in a1, b1, ... order when a kubb stands there)."""
    board = DamesBoard(with_ti(position, tis[0]), krules)
    rolls = board.legal_rolls()
    if len(tis) == 1:
        return len(rolls)
    total = 0
    for r in rolls:
        head = f"{cell_text(r.start)}{r.path}"
        probe = DamesBoard(board.position(), krules)
        kubbs = probe.kubbs()
        occupied = {cell_text(c) for c in kubbs if c != r.start} | {cell_text(r.end)}
        cell = _park_cell(park, occupied)
        try:
            probe.push(Move.parse(f"{head}@{cell}"))
        except Exception:
            probe.push(Move.parse(head))
        if probe.outcome() is None:
            total += k_roll_perft(probe.position(), krules, tis[1:], park)
    return total


def _park_cell(park: str, occupied: set[str]) -> str:
    order = [ind.name((x, y)) for y in range(8) for x in range(8)]
    i = order.index(park)
    for c in order[i:] + order[:i]:
        if c not in occupied:
            return c
    raise AssertionError


def i_roll_perft(pos: ind.Pos, rules: ind.Rules, tis: tuple[int, ...], park: str) -> int:
    pos = pos.copy()
    pos.ti = tis[0]
    rolls = ind.legal_rolls(pos, rules)
    if len(tis) == 1:
        return len(rolls)
    total = 0
    for r in rolls:
        after, removed = ind.apply_roll(pos, r, rules)
        if ind.result_of(after, rules, after_roll=True) is not None:
            continue
        occupied = {ind.name(c) for c in pos.kubbs if c != r.start} | {ind.name(r.end)}
        after = ind.place(after, ind.cell_of(_park_cell(park, occupied)))
        if ind.result_of(after, rules) is None:
            total += i_roll_perft(after, rules, tis[1:], park)
    return total


# ------------------------------------------------------------- relations ----


def relation_check(position: str, krules: DamesRules, kind: str, tally: Tally) -> None:
    """Mirror (files a<->h) or rotate (colours swap sides): kubb3d's legal moves of the
    transformed position must be the transformed legal moves, and each move's result
    must be the transformed result.  Checked on kubb3d alone and on the independent one."""
    rules = mine_rules(krules)
    pos = ind.parse_position(position)
    tpos = ind.transform(pos, kind)
    # A mirrored Western die is a mirror die; kubb3d's position string holds any of the
    # 48 orientations, so the mirrored position is read with the same rules.
    trules = krules
    ttext = ind.format_position(tpos)
    kb, tkb = DamesBoard(position, krules), DamesBoard(ttext, trules)
    tally.positions += 1
    km = {str(m).upper() for m in kb.legal_moves()}
    tkm = {str(m).upper() for m in tkb.legal_moves()}
    mapped = {ind.transform_move(m, kind).upper() for m in km}
    tally.moves += len(km)
    if mapped != tkm:
        tally.disagree(f"{kind}: kubb3d moves", f"{position}: {sorted(mapped - tkm)[:3]} / {sorted(tkm - mapped)[:3]}")
    im = {m.upper() for m in ind.legal_moves(pos, rules)}
    tim = {m.upper() for m in ind.legal_moves(tpos, rules)}
    if {ind.transform_move(m, kind).upper() for m in im} != tim:
        tally.disagree(f"{kind}: independent moves", position)
    for m in sorted(km)[:: max(1, len(km) // 40)]:
        tally.rolls += 1
        kb.push(Move.parse(m))
        try:
            tkb.push(Move.parse(ind.transform_move(m, kind)))
        except ValueError as exc:
            tally.disagree(f"{kind}: kubb3d refuses", f"{position} + {m}: {exc}")
            kb.pop()
            continue
        a, b = kb.position(), tkb.position()
        if "?" in a.split()[4] or "?" in b.split()[4]:
            same = b.split()[0] == ind.format_position(ind.transform(ind.parse_position(_unpend(a)), kind)).split()[0]
        else:
            ta = ind.transform(ind.parse_position(a), kind)
            tb = ind.parse_position(b)
            same = {c: v for c, v in ta.kubbs.items()} == tb.kubbs and ta.ti_cell == tb.ti_cell and ta.ti == tb.ti
            if kind == "rotate" or krules.players == 2:
                same = same and ta.to_move == tb.to_move
        if not same:
            tally.disagree(f"{kind}: kubb3d result", f"{position} + {m}: {a} / {b}")
        ko, tko = kb.outcome(), tkb.outcome()
        if kind == "mirror" and krules.players == 4:
            # the mirror reverses the sense of play: another seat rolls next, so only the
            # ends after the move itself (all on the last line) map onto each other
            ko = None if ko is not None and ko.termination.value == "blockade" else ko
            tko = None if tko is not None and tko.termination.value == "blockade" else tko
        seatmap = ind.MIRROR_SEAT if kind == "mirror" else ind.ROTATE_SEAT
        if (ko is None) != (tko is None) or (
            ko is not None
            and tko is not None
            and (
                {seatmap[s]: v for s, v in ko.points.items()} != tko.points
                or (ko.winner and seatmap[ko.winner]) != tko.winner
            )
        ):
            tally.disagree(f"{kind}: kubb3d outcome", f"{position} + {m}")
        kb.pop()
        tkb.pop()


def _unpend(position: str) -> str:
    f = position.split()
    f[4] = "-"
    return " ".join(f)


# ------------------------------------------------------- random positions ----

ORIENTATIONS = sorted(
    {
        (t, n, e)
        for t in range(1, 7)
        for n in range(1, 7)
        for e in range(1, 7)
        if len({t, n, e, 7 - t, 7 - n, 7 - e}) == 6
    }
)  # all 48 (Western and mirror dice)


def relation_random_positions(seeds: range | list[int], krules: DamesRules, kind: str) -> Tally:
    """The mirror or colour-swap relation on dense random positions (several opponents)."""
    tally = Tally()
    for seed in seeds:
        position = random_position(np.random.default_rng(seed), krules.players, dense=True)
        if DamesBoard(position, krules).outcome() is None:
            relation_check(position, krules, kind, tally)
    return tally


def random_position(rng: np.random.Generator, players: int, dense: bool = False) -> str:
    """A random position, not necessarily reachable: kubbs anywhere (last lines
    included, so some are frozen), any die orientation, the ti-kubb on a random
    free cell or off the board.  ``dense`` packs the kubbs into a 4×4 square so
    that moves end next to several opponents."""
    seats = "SN" if players == 2 else "SENW"
    per = 6 if players == 2 else 4
    if dense:
        x0, y0 = (int(v) for v in rng.integers(0, 5, size=2))
        region = [(x0 + dx, y0 + dy) for dx in range(4) for dy in range(4)]
    else:
        region = [(x, y) for x in range(8) for y in range(8)]
    order = rng.permutation(len(region))
    kubbs = {}
    i = 0
    for seat in seats:
        for _ in range(int(rng.integers(1, per + 1))):
            if i >= len(order):
                break
            t, n, e = ORIENTATIONS[int(rng.integers(len(ORIENTATIONS)))]
            kubbs[region[int(order[i])]] = (seat, ind.die_from(t, n, e))
            i += 1
    free = [(x, y) for x in range(8) for y in range(8) if (x, y) not in kubbs]
    ti_cell = None if rng.random() < 0.1 else free[int(rng.integers(len(free)))]
    pos = ind.Pos(
        kubbs, seats, seats[int(rng.integers(len(seats)))], int(rng.integers(1, 4)), ti_cell, int(rng.integers(1, 40))
    )
    return ind.format_position(pos)


def compare_random_positions(
    seeds: range | list[int], krules: DamesRules, dense: bool = False, irules: ind.Rules | None = None
) -> Tally:
    tally = Tally()
    for seed in seeds:
        rng = np.random.default_rng(seed)
        position = random_position(rng, krules.players, dense)
        compare_position(position, krules, tally, False, irules)
        if seed % 4 == 0:
            compare_typed_moves(position, krules, tally, irules)
    return tally

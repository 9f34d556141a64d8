"""Match records in the Planet Kubb Game Notation (docs/notation.md): a kubb3d replay written as
the community's text notation (:func:`replay_notation`), and such a text read back as a typed
list of turns (:func:`parse_notation`, :func:`format_record` is its inverse).

Pure: no physics, no files. A replay is turned into notation by pushing its recorded actions and
outcomes through the rules engine (:class:`~kubb3d.rules.MatchState`), which says which felled
kubb was a baseline kubb and whose turn it was. Malformed notation raises
:class:`NotationError` naming the line and column (1-based).

A text is lines: ``# ...`` comments (four of them are headers kubb3d reads: ``# player a: P1``,
``# set 1: a opens from end B``, ``# set 1 won by a``, ``# result: a wins (king)``), blank
lines, and one line per turn: an optional turn number ``n.``, the inkast entries separated by
spaces, then the baton entries separated by ``/`` (``|`` and spaces are read too). An entry is an
optional player token (letters) and ``:``, then actions, each a letter with an optional count
before it (``2F``), or ``-`` (a baton that felled nothing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence, Union

from kubb3d.errors import NotationError
from kubb3d.judge.messages import msg

INKAST_LETTERS = "IRPYQN"
"""Actions that mark an entry as one of the kubb tossing (inkast) phase (planetkubb.com, "Planet
Kubb Game Notation": I thrown in, R rethrown, P penalty, Y failed rescue attempt, Q rescued,
N neighbour kubbs)."""
BATON_LETTERS = "FBK"
"""Baton phase actions: F field kubb, B baseline kubb, K king (same page)."""
MISS = "-"
"""A baton that felled nothing."""
COUNT_RANGE = {"I": (0, 10), "R": (0, 10), "P": (0, 10), "Y": (0, 10), "Q": (0, 10), "N": (0, 5),
               "F": (0, 10), "B": (0, 10)}
"""Allowed count before each letter (the page's 0–10; N 0–5). K and ``-`` take no count."""
NO_DEFAULT = frozenset("N")
"""Letters that must carry a count (the page gives N no default)."""
BATONS_PER_TURN = 6
"""Batons of a set (every rule book kubb3d knows): a turn has at most six baton entries."""

TERMINATIONS = ("king", "early_king", "sets", "time", "round_cap")
"""How a match ended (``Termination`` names in lower case, as ``--json`` gives them)."""
RESULT_WORDS = {how: how.replace("_", " ") for how in TERMINATIONS}
"""Each of :data:`TERMINATIONS` as the result line writes it (``# result: a wins (round cap)``);
the reader takes the token too (``round_cap``, as records written before said it)."""

_PLAYER = re.compile(r"^# player ([A-Za-z]+): (.+)$")
_SET = re.compile(r"^# set ([1-9][0-9]*): ([A-Za-z]+) opens from end ([AB])$")
_SET_WON = re.compile(r"^# set ([1-9][0-9]*) won by ([A-Za-z]+)$")
_RESULT = re.compile(r"^# result: (?:([A-Za-z]+) wins|draw) \(([a-z_ ]+)\)$")


# ---------------------------------------------------------------------- the typed record
@dataclass(frozen=True)
class Action:
    """One notation action: ``letter`` (upper case, or ``-``) and the count written before it
    (None: not written; the letter's default 1 applies)."""

    letter: str
    count: int | None = None

    @property
    def n(self) -> int:
        """The count, its default 1 when none was written (0 for ``-``)."""
        if self.letter == MISS:
            return 0
        return 1 if self.count is None else self.count

    def text(self) -> str:
        return ("" if self.count is None else str(self.count)) + self.letter


@dataclass(frozen=True)
class Entry:
    """One entry: who (a player token, or None) and the actions in the order written."""

    token: str | None
    actions: tuple[Action, ...]

    def total(self, letter: str) -> int:
        """The sum of the counts of ``letter`` (``3IR`` and ``IIIR`` both give I 3)."""
        return sum(a.n for a in self.actions if a.letter == letter)

    @property
    def king(self) -> bool:
        return any(a.letter == "K" for a in self.actions)

    def text(self) -> str:
        return ("" if self.token is None else self.token + ":") + "".join(a.text() for a in self.actions)

    def to_dict(self) -> dict[str, Any]:
        return {"token": self.token, "actions": [[a.letter, a.count] for a in self.actions]}


@dataclass(frozen=True)
class Turn:
    """One turn: its number (None: not written), the set it belongs to (1 without set headers),
    the side whose turn it is (the team token of ``# player``; None without a ``# set`` header),
    the inkast entries and the baton entries. ``line``: where it was read (not compared)."""

    number: int | None
    set: int
    side: str | None
    inkast: tuple[Entry, ...]
    batons: tuple[Entry, ...]
    line: int = field(default=0, compare=False)

    def inkast_total(self, letter: str) -> int:
        """The sum of ``letter``'s counts over the inkast entries (``I``: kubbs thrown in)."""
        return sum(e.total(letter) for e in self.inkast)

    def text(self) -> str:
        parts = [] if self.number is None else [f"{self.number}."]
        parts += [e.text() for e in self.inkast]
        if self.batons:
            parts.append("/".join(e.text() for e in self.batons))
        return " ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "set": self.set,
            "number": self.number,
            "side": self.side,
            "line": self.line,
            "inkast": {
                "kubbs_in": self.inkast_total("I"),
                "rethrown": self.inkast_total("R"),
                "penalty": self.inkast_total("P"),
                "rescue_attempts": self.inkast_total("Y"),
                "rescued": self.inkast_total("Q"),
                "neighbours": self.inkast_total("N"),
                "field": self.inkast_total("F"),
                "king": any(e.king for e in self.inkast),
                "entries": [e.to_dict() for e in self.inkast],
            },
            "batons": [
                {"token": e.token, "field": e.total("F"), "baseline": e.total("B"), "king": e.king,
                 "actions": [[a.letter, a.count] for a in e.actions]}
                for e in self.batons
            ],
        }


@dataclass(frozen=True)
class Player:
    """``# player a: P1``: a token and the name it stands for."""

    token: str
    name: str

    def text(self) -> str:
        return f"# player {self.token}: {self.name}"


@dataclass(frozen=True)
class SetStart:
    """``# set 1: a opens from end B``: the set's number, who opens it and from which end."""

    number: int
    opener: str
    end: str

    def text(self) -> str:
        return f"# set {self.number}: {self.opener} opens from end {self.end}"


@dataclass(frozen=True)
class SetWon:
    """``# set 1 won by a``."""

    number: int
    winner: str

    def text(self) -> str:
        return f"# set {self.number} won by {self.winner}"


@dataclass(frozen=True)
class Result:
    """``# result: a wins (king)`` or ``# result: draw (time)``: the winner's token (None: a
    draw) and how the match ended (:data:`TERMINATIONS`)."""

    winner: str | None
    how: str

    def text(self) -> str:
        how = RESULT_WORDS.get(self.how, self.how)
        return f"# result: {'draw' if self.winner is None else self.winner + ' wins'} ({how})"


@dataclass(frozen=True)
class Comment:
    """Any other ``#`` line, kept as written (without the ``#`` and one space)."""

    text_: str

    def text(self) -> str:
        return "#" + ("" if not self.text_ else " " + self.text_)


Line = Union[Player, SetStart, SetWon, Result, Comment, Turn]


@dataclass(frozen=True)
class Record:
    """A match record: its lines in order (blank lines are not kept)."""

    lines: tuple[Line, ...]

    @property
    def turns(self) -> list[Turn]:
        return [x for x in self.lines if isinstance(x, Turn)]

    @property
    def players(self) -> dict[str, str]:
        return {x.token: x.name for x in self.lines if isinstance(x, Player)}

    @property
    def result(self) -> Result | None:
        return next((x for x in reversed(self.lines) if isinstance(x, Result)), None)

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` form: players, sets, turns (with their counts), result, comments."""
        players = self.players
        turns = []
        for t in self.turns:
            d = t.to_dict()
            d["player"] = players.get(t.side) if t.side is not None else None
            turns.append(d)
        result = self.result
        return {
            "players": players,
            "sets": [
                {"number": x.number, "opener": x.opener, "end": x.end}
                for x in self.lines if isinstance(x, SetStart)
            ],
            "set_winners": {str(x.number): x.winner for x in self.lines if isinstance(x, SetWon)},
            "turns": turns,
            "result": None if result is None else {
                "winner": result.winner,
                "player": None if result.winner is None else players.get(result.winner),
                "how": result.how,
            },
            "comments": [x.text_ for x in self.lines if isinstance(x, Comment)],
        }


def format_record(record: Record) -> str:
    """The text of ``record``: one line per item, ending in a newline (the inverse of
    :func:`parse_notation` for text it wrote)."""
    return "".join(x.text() + "\n" for x in record.lines)


# ---------------------------------------------------------------------- reading
def _header(text: str, n: int) -> Line:
    for pattern, build in (
        (_PLAYER, lambda m: Player(m[1], m[2])),
        (_SET, lambda m: SetStart(int(m[1]), m[2], m[3])),
        (_SET_WON, lambda m: SetWon(int(m[1]), m[2])),
    ):
        m = pattern.match(text)
        if m:
            return build(m)
    m = _RESULT.match(text)
    if m:
        how = m[2].replace(" ", "_")
        if how not in TERMINATIONS:
            col = text.index("(") + 2
            raise NotationError(n, col, msg("result: expected how the match ended, one of {names}; got '{got}'",
                                            names=", ".join(RESULT_WORDS.values()), got=m[2]))
        return Result(m[1], how)
    if text.startswith("# result:"):
        raise NotationError(n, 1, msg("result: expected '# result: TOKEN wins (HOW)' or '# result: draw (HOW)'"))
    body = text[1:]
    return Comment(body[1:] if body.startswith(" ") else body)


def _entry(line: str, i: int, n: int, thrown_in: list[bool]) -> tuple[Entry, int]:
    """The entry starting at ``line[i]`` and the index after it. ``thrown_in[0]``: an ``I`` was
    read earlier in the turn (an ``R`` repeats kubbs thrown in, so it cannot come first)."""
    start = i
    token = None
    m = re.compile(r"[A-Za-z]+:").match(line, i)
    if m:
        token = m.group()[:-1]
        i = m.end()
    if i < len(line) and line[i] == MISS:
        i += 1
        if i < len(line) and not _separator(line[i]):
            raise NotationError(n, i + 1, msg("expected a separator after '-' (a miss stands alone), got '{char}'",
                                              char=line[i]))
        return Entry(token, (Action(MISS),)), i
    actions: list[Action] = []
    while i < len(line) and not _separator(line[i]):
        m = re.compile(r"[0-9]+").match(line, i)
        count = None
        if m:
            count = int(m.group()) if len(m.group()) < 4 else 10_000
            i = m.end()
            if i >= len(line) or _separator(line[i]):
                raise NotationError(n, i + 1, msg("expected an action letter after the count"))
        letter = line[i].upper()
        if letter not in INKAST_LETTERS + BATON_LETTERS:
            letters = INKAST_LETTERS + BATON_LETTERS
            what = msg("expected an action letter ({letters}) or '-', got '{char}'", letters=letters, char=line[i])
            if line[i].isalpha() and token is None:
                what = msg("a player token needs a ':' after it; {what}", what=what)
            raise NotationError(n, i + 1, what)
        if letter == "K" and count is not None:
            raise NotationError(n, m.start() + 1 if m else i + 1, msg("K (the king felled) takes no count"))
        if count is not None:
            lo, hi = COUNT_RANGE[letter]
            if not lo <= count <= hi:
                raise NotationError(n, m.start() + 1 if m else i + 1,
                                    msg("{letter}: expected a count from {lo} to {hi}, got {got}",
                                        letter=letter, lo=lo, hi=hi, got=m.group() if m else str(count)))
        elif letter in NO_DEFAULT:
            raise NotationError(n, i + 1, msg("{letter} needs a count before it (it has no default)", letter=letter))
        if letter == "I":
            thrown_in[0] = True
        elif letter == "R" and not thrown_in[0]:
            raise NotationError(n, m.start() + 1 if m else i + 1,
                                msg("R (kubbs thrown again) before any I (kubbs thrown in) of the turn"))
        actions.append(Action(letter, count))
        i += 1
    if not actions:
        where = i + 1 if i > start else start + 1
        raise NotationError(n, where, msg("expected an action (a letter, or '-' for a miss)"))
    return Entry(token, tuple(actions)), i


def _separator(c: str) -> bool:
    return c in " \t/|"


def _turn(line: str, n: int, set_no: int, side: str | None) -> Turn:
    i = len(line) - len(line.lstrip())
    number = None
    m = re.compile(r"([0-9]+)\.").match(line, i)
    if m:
        number = int(m[1]) if len(m[1]) < 7 else 10**6
        if not 1 <= number < 10**6:
            raise NotationError(n, i + 1, msg("turn number: expected from 1 to 999999, got {got}", got=m[1]))
        i = m.end()
    inkast: list[Entry] = []
    batons: list[Entry] = []
    thrown_in = [False]
    last_sep = " "
    while True:
        while i < len(line) and line[i] in " \t":
            i += 1
        if i >= len(line):
            break
        if line[i] in "/|":
            raise NotationError(n, i + 1, msg("expected an entry before the separator"))
        col = i + 1
        entry, i = _entry(line, i, n, thrown_in)
        is_inkast = any(a.letter in INKAST_LETTERS for a in entry.actions)
        if is_inkast:
            if batons:
                raise NotationError(
                    n, col, msg("an inkast entry after a baton (the kubbs are thrown in before the batons)")
                )
            if last_sep != " ":
                raise NotationError(n, col, msg("an inkast entry after '/' (inkast entries are separated by spaces)"))
            inkast.append(entry)
        else:
            batons.append(entry)
            if len(batons) > BATONS_PER_TURN:
                raise NotationError(n, col, msg("more than {n} batons in one turn", n=BATONS_PER_TURN))
        # the separator after the entry
        j = i
        while j < len(line) and line[j] in " \t":
            j += 1
        if j < len(line) and line[j] in "/|":
            last_sep = line[j]
            i = j + 1
            k = i
            while k < len(line) and line[k] in " \t":
                k += 1
            if k >= len(line):
                if last_sep == "|":  # the 2013 article ends a turn with "|"
                    break
                raise NotationError(n, i + 1, msg("expected a baton entry after '/'"))
        else:
            last_sep = " "
            i = j
    if not inkast and not batons:
        raise NotationError(n, i + 1, msg("expected the turn's entries after its number"))
    return Turn(number, set_no, side, tuple(inkast), tuple(batons), n)


def parse_notation(text: str) -> Record:
    """Read a match record (module doc for the lines it holds).

    A turn's side is the token of the ``# set`` header's opener for the set's odd turns and
    the other player's for the even ones (turns alternate; None without a ``# set`` header or
    without two ``# player`` tokens).

    Raises:
        NotationError: a line that is neither a comment nor a turn, a bad entry, count or
            header (line and column named).
    """
    lines: list[Line] = []
    tokens: list[str] = []
    set_no, opener, in_set = 1, None, 0
    seen_set = False
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip():
            continue
        if line.lstrip().startswith("#"):
            item = _header(line.lstrip(), n)
            if isinstance(item, Player):
                if item.token in tokens:
                    raise NotationError(n, 10, msg("player token '{token}' declared twice", token=item.token))
                tokens.append(item.token)
            elif isinstance(item, SetStart):
                if item.opener not in tokens:
                    raise NotationError(n, line.index(":") + 3,
                                        msg("set: '{token}' is not a declared player token", token=item.opener))
                if seen_set and item.number != set_no + 1:
                    raise NotationError(
                        n, 7, msg("set: expected set {want}, got {got}", want=set_no + 1, got=item.number)
                    )
                set_no, opener, in_set, seen_set = item.number, item.opener, 0, True
            elif isinstance(item, (SetWon, Result)) and item.winner is not None and item.winner not in tokens:
                col = line.rindex(" " + item.winner) + 2 if isinstance(item, SetWon) else line.index(": ") + 3
                raise NotationError(n, col, msg("'{token}' is not a declared player token", token=item.winner))
            lines.append(item)
            continue
        in_set += 1
        side = None
        if opener is not None and len(tokens) == 2:
            other = tokens[1] if opener == tokens[0] else tokens[0]
            side = opener if in_set % 2 else other
        lines.append(_turn(line, n, set_no, side))
    return Record(tuple(lines))


# ---------------------------------------------------------------------- writing a replay
SIDE_TOKENS = ("a", "b")
"""The tokens of the first and second player (team) of the match's configuration."""
COMMENTED_EVENTS = ("lag", "choice", "place", "line", "foul", "tiebreak", "clock")
"""Event kinds with no notation, written as comment lines with the replay's own text."""


def member_token(side_token: str, thrower: int, team_size: int) -> str:
    """The token of a thrower: the side's token in a duel, else the side's token and a letter
    per team member (``aa``, ``ab`` …: tokens are letters only)."""
    return side_token if team_size == 1 else side_token + "abcdefghijklmnopqrstuvwxyz"[thrower]


def replay_notation(config: Mapping[str, Any], actions: Iterable[tuple[dict, dict | None, Sequence[dict]]],
                    outcome: Mapping[str, Any] | None) -> Record:
    """The record of a replayed match in the notation.

    Args:
        config: the replay header's ``config`` (:class:`kubb3d.match.MatchConfig` fields).
        actions: per recorded action, in order: the action dict, its outcome dict (or None) and
            its events (dicts with ``kind`` and ``text``).
        outcome: the replay's ``outcome`` record (None: the match was interrupted).

    Raises:
        ValueError: a recorded action that does not fit the match (from the rules engine).
    """
    from kubb3d.match import Match, MatchConfig
    from kubb3d.pitch import opponent
    from kubb3d.rules import action_from_dict, outcome_from_dict

    match = Match(MatchConfig.from_dict(dict(config)))  # the rules engine's state; no world until it plays
    match.close()
    state = match.state
    token = dict(zip(state.players, SIDE_TOKENS))
    out: list[Line] = [Comment("Planet Kubb Game Notation, written by kubb3d (docs/notation.md)"),
                       Comment(f"ruleset: {state.ruleset.name}; seed: {config.get('seed', 0)}")]
    out += [Player(token[p], p) for p in state.players]
    pending: list[Comment] = []
    inkast: list[Entry] = []
    batons: list[Entry] = []
    current: tuple[int, int] | None = None
    turn_player = ""
    penalised: set[str] = set()
    started: set[int] = set()

    def close_turn() -> None:
        nonlocal inkast, batons
        if current is not None and (inkast or batons):
            if current[1] > 1 and not inkast:  # "0i": no kubb thrown in (planetkubb.com)
                inkast = [Entry(token[turn_player], (Action("I", 0),))]
            out.extend(pending)
            pending.clear()
            out.append(Turn(current[1], current[0], token[turn_player], tuple(inkast), tuple(batons)))
        inkast, batons = [], []
        penalised.clear()  # P counts a turn's penalty kubbs: the same kubb may be one again later

    def add_inkast(tok: str, *acts: Action) -> None:
        if inkast and inkast[-1].token == tok:
            merged = list(inkast[-1].actions)
            for a in acts:
                if merged and merged[-1].letter == a.letter and a.letter != "K":
                    merged[-1] = Action(a.letter, merged[-1].n + a.n)
                else:
                    merged.append(a)
            inkast[-1] = Entry(tok, tuple(merged))
        else:
            inkast.append(Entry(tok, tuple(acts)))

    for action, result, events in actions:
        before = (state.set_no, state.turn_no)
        if before != current:
            close_turn()
            current = before if before[0] > 0 and state.turn_side is not None else None
            if current is not None and state.turn_side is not None:
                turn_player = state.player_at(state.turn_side)
        kind = action["type"]
        if kind == "Inkast":
            acts = [Action("I" if action.get("attempt", 1) == 1 else "R", len(action["kubbs"]))]
            if result and result.get("stossel"):
                acts.append(Action("N", len(result["stossel"])))
            if result and result.get("king_felled"):
                acts.append(Action("K"))
            add_inkast(token[state.player_at(action["side"])], *acts)
        elif kind == "PenaltyThrow" or (kind == "PlaceKubb" and action.get("reason") == "penalty"):
            inkaster = action["from_side"] if kind == "PenaltyThrow" else opponent(action["half"])
            acts = []
            if action["kubb"] not in penalised:
                penalised.add(action["kubb"])
                acts.append(Action("P", 1))
            if result and result.get("king_felled"):
                acts.append(Action("K"))
            if acts:
                add_inkast(token[state.player_at(inkaster)], *acts)
        elif kind in ("BatonThrow", "KingThrow"):
            tok = member_token(token[turn_player], int(action.get("thrower", 0)), state.team_sizes[turn_player])
            felled = (result or {}).get("felled", [])
            field_n = sum(1 for k in felled if not state.kubbs[k].baseline)
            base_n = len(felled) - field_n
            acts = []
            if field_n:
                acts.append(Action("F", None if field_n == 1 else field_n))
            if base_n:
                acts.append(Action("B", None if base_n == 1 else base_n))
            if result and result.get("winner") is not None:
                acts.append(Action("K"))
            batons.append(Entry(tok, tuple(acts) or (Action(MISS),)))
        sets_before = len(state.set_winners)
        state.push(action_from_dict(action), outcome_from_dict(result))
        for e in events:
            if e.get("kind") in COMMENTED_EVENTS:
                pending.append(Comment(f"{e['kind']}: {e['text']}"))
        if len(state.set_winners) > sets_before:
            close_turn()
            current = None
            out.extend(pending)
            pending.clear()
            out.append(SetWon(len(state.set_winners), token[state.set_winners[-1]]))
        if state.set_no > 0 and state.set_no not in started and state.turn_side is not None:
            started.add(state.set_no)
            out.extend(pending)
            pending.clear()
            out.append(SetStart(state.set_no, token[state.player_at(state.turn_side)], state.turn_side))
    close_turn()
    out.extend(pending)
    if outcome is not None:
        winner = outcome.get("winner")
        out.append(Result(None if winner is None else token[winner], str(outcome.get("termination", "")).lower()))
    return Record(tuple(out))

"""Roll Kubb Dames situation files (rule book ``RKD``) for the examinations, run through the
public engine :class:`kubb3d.dames.DamesBoard` because the judge's scenario format has no board
game.

A file gives a position (``players``, ``to_roll``, ``ti_value``, ``ti_cell``, ``kubbs`` as cell ->
seat letter and die top-north-east) and ``[[check]]`` tables, each one of:

* ``move`` with ``legal`` and, for a legal move, optionally ``removed`` (cells emptied by the
  combat), ``tops`` (top values after the move), ``over``, ``winner`` ("" for a tie),
  ``termination`` and ``points``;
* ``from`` with ``ends``: every cell the kubb on ``from`` may end its roll on;
* ``over`` (and ``winner`` …) alone: the position itself;
* ``sequence`` with ``rollers`` and ``ti_values``: the seat to roll and the roll's distance before
  each move of the sequence;
* ``start``: the opening position of ``players`` players.

:func:`observe` reports what the engine does for one check in the same keys, and
:func:`transformed_doc` makes the mirrored (file a <-> h), swapped (turned 180°, S <-> N) or
relabelled (turned 90°, S -> E -> N -> W -> S) copy of a file, so copies can be compared.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from kubb3d.dames import DamesBoard, DamesRules, IllegalMoveError, Move, cell_name, parse_cell

SEATS = {2: "SN", 4: "SENW"}


def load(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def board_of(doc: dict) -> DamesBoard:
    rules = DamesRules(players=doc.get("players", 2))
    ti = doc.get("ti_cell") or None
    return DamesBoard.from_kubbs(
        dict(doc["kubbs"]), rules, to_roll=doc.get("to_roll", "S"), ti_value=doc.get("ti_value", 2), ti_cell=ti
    )


def _outcome(board: DamesBoard) -> dict:
    out = board.outcome()
    if out is None:
        return {"over": False}
    return {
        "over": True,
        "winner": out.winner or "",
        "termination": out.termination.value,
        "points": {k: v for k, v in out.points.items()},
    }


def _first_line(seat: str, cell: int) -> bool:
    x, y = cell % 8, cell // 8
    return {"S": y == 0, "N": y == 7, "E": x == 7, "W": x == 0}[seat]


def _central(seat: str, cell: int) -> bool:
    x, y = cell % 8, cell // 8
    return 1 <= (x if seat in "SN" else y) <= 6


def observe(doc: dict, check: dict) -> dict:
    """What the engine does for ``check`` on the position of ``doc``, in the check's own keys."""
    if check.get("start"):
        players = doc.get("players", 2)
        board = DamesBoard(rules=DamesRules(players=players))
        kubbs = board.kubbs()
        return {
            "start": True,
            "seats": "".join(sorted({k.seat for k in kubbs.values()})),
            "per_seat": sorted({sum(1 for k in kubbs.values() if k.seat == s) for s in SEATS[players]}),
            "start_tops": sorted({k.die.top for k in kubbs.values()}),
            "on_first_line": all(_first_line(k.seat, c) for c, k in kubbs.items()),
            "central": all(_central(k.seat, c) for c, k in kubbs.items()),
            "roller": board.roller,
            "ti_value": board.ti_value,
        }
    board = board_of(doc)
    if "sequence" in check:
        rollers, values = [], []
        for text in check["sequence"]:
            rollers.append(board.roller)
            values.append(board.ti_value)
            board.push(Move.parse(text))
        return {"rollers": rollers, "ti_values": values}
    if "from" in check:
        start = parse_cell(check["from"])
        ends = sorted({cell_name(r.end) for r in board.legal_rolls() if r.start == start})
        return {"ends": ends}
    if "move" not in check:
        return _outcome(board)
    before = board.kubbs()
    if not _push(board, check["move"]):
        return {"legal": False}
    after = board.kubbs()
    removed = sorted(cell_name(c) for c in before if c not in after and c != Move.parse(check["move"]).start)
    end = _end_cell(check["move"])
    if end not in after:  # the kubb that rolled was taken out in its combat
        removed.append(cell_name(end))
    got = {"legal": True, "removed": sorted(removed)}
    got["tops"] = {cell_name(c): k.die.top for c, k in after.items()}
    got.update(_outcome(board))
    return got


def _push(board: DamesBoard, text: str) -> bool:
    """Push ``text``; the ti-kubb placement is moot when the roll ends the game, so a roll that is
    legal with the placement left out (game over) or added (game on) counts as legal too."""
    tries = [text, text.split("@")[0]] if "@" in text else [text]
    if "@" not in text:
        tries.append(f"{text}@{cell_name(Move.parse(text).start)}")  # the cell it leaves is free
    for attempt in tries:
        try:
            board.push(Move.parse(attempt))
        except IllegalMoveError:
            continue
        return True
    return False


def _end_cell(text: str) -> int:
    move = Move.parse(text)
    x, y = move.start % 8, move.start // 8
    for d in move.path:
        dx, dy = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}[d]
        x, y = x + dx, y + dy
    return y * 8 + x


def expected_part(check: dict, got: dict) -> dict:
    """``got`` cut down to the keys ``check`` states (``tops`` only for its cells)."""
    part = {}
    for key, want in check.items():
        if key in ("move", "from", "sequence"):
            continue
        if key == "tops" and "tops" in got:
            part[key] = {c: got["tops"].get(c) for c in want}
        else:
            part[key] = got.get(key)
    return part


def stated(check: dict) -> dict:
    return {k: v for k, v in check.items() if k not in ("move", "from", "sequence")}


# ---- copies -------------------------------------------------------------------------------

_DIRS = {
    "mirror": {"N": "N", "S": "S", "E": "W", "W": "E"},
    "swap": {"N": "S", "S": "N", "E": "W", "W": "E"},
    "relabel": {"N": "W", "E": "N", "S": "E", "W": "S"},
}
_SEAT = {
    "mirror": {"S": "S", "N": "N", "E": "W", "W": "E"},
    "swap": {"S": "N", "N": "S", "E": "W", "W": "E"},
    "relabel": {"S": "E", "E": "N", "N": "W", "W": "S"},
}


def t_cell(name: str, how: str) -> str:
    c = parse_cell(name)
    x, y = c % 8, c // 8
    x, y = {"mirror": (7 - x, y), "swap": (7 - x, 7 - y), "relabel": (7 - y, x)}[how]
    return cell_name(y * 8 + x)


def t_kubb(text: str, how: str) -> str:
    seat, top, north, east = text[0], int(text[1]), int(text[2]), int(text[3])
    if how == "mirror":
        north, east = north, 7 - east
    elif how == "swap":
        north, east = 7 - north, 7 - east
    else:  # turned 90° counter-clockwise: the east face looks north, the south face east
        north, east = east, 7 - north
    return f"{_SEAT[how][seat]}{top}{north}{east}"


def t_move(text: str, how: str) -> str:
    move = Move.parse(text)
    out = t_cell(cell_name(move.start), how) + "".join(_DIRS[how][d] for d in move.path)
    if move.place is not None:
        out += "@" + t_cell(cell_name(move.place), how)
    return out


def t_value(key: str, value, how: str):
    """A check value of the original as it must read in the copy."""
    seat = _SEAT[how]
    if key in ("removed", "ends"):
        return sorted(t_cell(c, how) for c in value)
    if key == "tops":
        return {t_cell(c, how): v for c, v in value.items()}
    if key == "winner":
        return seat.get(value, value)
    if key == "points":
        return {seat[s]: v for s, v in value.items()}
    if key == "rollers":
        return [seat[s] for s in value]
    if key == "move":
        return t_move(value, how)
    if key == "from":
        return t_cell(value, how)
    if key == "sequence":
        return [t_move(m, how) for m in value]
    return value


def transformed_doc(doc: dict, how: str) -> dict:
    """``doc`` (position and checks, comments aside) mirrored, swapped or relabelled."""
    out = {k: v for k, v in doc.items() if k not in ("kubbs", "check", "title")}
    out["kubbs"] = {t_cell(c, how): t_kubb(k, how) for c, k in doc["kubbs"].items()}
    out["to_roll"] = _SEAT[how][doc.get("to_roll", "S")]
    if doc.get("ti_cell"):
        out["ti_cell"] = t_cell(doc["ti_cell"], how)
    out["check"] = [{k: t_value(k, v, how) for k, v in check.items()} for check in doc["check"]]
    return out


def same_position(a: dict, b: dict) -> bool:
    keys = ("players", "to_roll", "ti_value", "ti_cell", "kubbs")
    return all(a.get(k) == b.get(k) for k in keys) and a["check"] == b["check"]

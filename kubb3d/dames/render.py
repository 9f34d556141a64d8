"""Terminal rendering of a Roll Kubb Dames board with rich.

Each cell shows a kubb as its owner's seat letter and top value (``S3``), a
frozen kubb (on its owner's last line) with a ``*`` (``N5*``), the ti-kubb as
``(2)`` with the value of the coming move, an empty cell as ``·``.  Colours
are added when the output is a terminal; the text alone is complete.
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from kubb3d.dames.board import DamesBoard, Roll, is_attack
from kubb3d.dames.rules import cell_name
from kubb3d.ranges import counted

SEAT_STYLE = {"S": "bold red", "N": "bold blue", "E": "bold green", "W": "bold magenta"}
SEAT_NAME = {"S": "South", "N": "North", "E": "East", "W": "West"}


def cell_text(board: DamesBoard, cell: int) -> Text:
    """The 3-character text of one cell: ``S3 ``, ``N5*``, ``(2)`` or `` · ``."""
    k = board.kubb_at(cell)
    if k is not None:
        frozen = board.is_frozen(cell)
        return Text(
            f"{k.seat}{k.top}{'*' if frozen else ' '}", style=SEAT_STYLE[k.seat] + (" underline" if frozen else "")
        )
    if board.ti_cell == cell:
        return Text(f"({board.ti_value})", style="bold white on black")
    return Text(" · ", style="dim")


def board_text(board: DamesBoard) -> Text:
    """The 8×8 board as text lines, rank 8 at the top, files a..h left to right."""
    out = Text()
    files = Text("   " + "".join(f" {f}  " for f in "abcdefgh") + "\n", style="dim")
    out.append_text(files)
    for y in range(7, -1, -1):
        out.append(f"{y + 1}  ", style="dim")
        for x in range(8):
            out.append_text(cell_text(board, y * 8 + x))
            out.append(" ")
        out.append(f" {y + 1}\n", style="dim")
    out.append_text(files[:-1])
    return out


def status_line(board: DamesBoard) -> Text:
    """One line: turn number, who acts, the ti-kubb, the points."""
    pts = "  ".join(f"{s} {p}" for s, p in board.points().items())
    if board.state.pending:
        act = f"{board.turn} places the ti-kubb (value {board.ti_value}) before {board.roller} rolls"
    else:
        where = cell_name(board.ti_cell) if board.ti_cell is not None else "off the board"
        act = f"{board.turn} rolls {counted(board.ti_value, 'cell')}; ti-kubb {where}"
    return Text(f"turn {board.ply + 1}: {act}   points: {pts}")


def render(board: DamesBoard) -> Group:
    """Board and status line, ready for ``Console.print``."""
    return Group(board_text(board), status_line(board))


def describe_roll(board: DamesBoard, roll: Roll) -> str:
    """``"b1NE -> c2, top 3"``, with ``", attacks"`` when it ends next to an opponent that can fight."""
    seat = board.roller
    text = f"{roll} -> {cell_name(roll.end)}, top {roll.die.top}"
    if is_attack(board._geo, board.state.cells, seat, roll.end):
        text += ", attacks"
    return text

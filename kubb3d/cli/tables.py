"""Tables of the command line that stay readable at any terminal width.

A rich table of six or eight columns of sentences, printed into an 80-column terminal or pipe,
squeezes every sentence into a column a word or two wide (``kubb3d validate --quick`` printed
over 300 lines). :func:`print_rows` prints the table when it fits and one block per row when it
does not. :func:`count_bar` is the progress bar of a command that counts its work to stderr.
"""

from __future__ import annotations

from typing import Sequence

from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from kubb3d.ranges import counted


def fits(columns: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> bool:
    """Whether a table of ``columns`` and ``rows`` (cells as plain text) fits ``width``
    characters without wrapping a cell: each column as wide as its longest cell, plus rich's
    borders (three characters a column and one)."""
    natural = [max([len(c)] + [len(Text.from_markup(r[i]).plain) for r in rows]) for i, c in enumerate(columns)]
    return sum(natural) + 3 * len(columns) + 1 <= width


def print_rows(
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    head: int = 1,
    console: Console | None = None,
) -> None:
    """Print ``rows`` (each one string per column of ``columns``; rich markup allowed) as a
    table titled ``title`` if it fits the console's width (:func:`fits`), else as one block per
    row: its first ``head`` cells on one line, then ``column: cell`` for each other column with
    a non-empty cell, indented. Errors: ValueError if a row has not one cell per column."""
    if any(len(r) != len(columns) for r in rows):
        raise ValueError(f"every row needs {counted(len(columns), 'cell')} ({', '.join(columns)})")
    console = console or Console()
    if fits(columns, rows, console.width):
        table = Table(title=title)
        for col in columns:
            table.add_column(col, overflow="fold")
        for r in rows:
            table.add_row(*r)
        console.print(table)
        return
    console.print(Text(title, style="bold"))
    for r in rows:
        console.print()
        console.print(Text.from_markup("  ".join(r[:head])))
        line: list[Text] = []  # short cells side by side, a long one on its own line
        for col, cell in zip(columns[head:], r[head:]):
            if not Text.from_markup(cell).plain.strip():  # nothing to say: no "reference:" left empty
                continue
            text = Text(f"{col}: ") + Text.from_markup(cell)
            if len(text.plain) > SHORT:
                _indented(console, line)
                line = []
                _indented(console, [text])
            else:
                line.append(text)
        _indented(console, line)


SHORT = 30
"""Cells (with their column's name) up to this many characters share a line in a row's block."""


def _indented(console: Console, parts: list[Text]) -> None:
    if parts:
        console.print(Padding(Text("  ·  ").join(parts), (0, 0, 0, 2), expand=False))


def count_bar(label: str):
    """A transient rich progress bar on stderr, shown only on a terminal: ``label``, the bar,
    done of total, the time left (``kubb3d whatif``, ``kubb3d analyse``)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    return Progress(
        TextColumn(label),
        BarColumn(bar_width=20),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        TextColumn("left"),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )

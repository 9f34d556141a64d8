"""The command line as a reader sees it: every ``--help`` wraps its paragraphs at the terminal's
width, not where the docstring's source lines happen to break, and tables of sentences stay
readable in an 80-column terminal or pipe."""

from __future__ import annotations

import inspect
import io
import os
import re

from cli_process import run_kubb3d
from rich.console import Console
from typer.main import get_command
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app
from kubb3d.cli.tables import print_rows


def _commands(group, path=()):
    for name, command in sorted(group.commands.items()):
        yield (*path, name), command
        if hasattr(command, "commands"):
            yield from _commands(command, (*path, name))


def _help(args: list[str]) -> list[str]:
    r = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": "1000"})
    assert r.exit_code == 0, r.output
    return r.output.splitlines()


def test_no_help_breaks_a_sentence_at_a_source_line():
    # `kubb3d --help` at 80 columns showed "masses and inertia, tipping" on one line and
    # "angles, rebounds, …" on the next: Typer's rich help keeps a docstring's line breaks
    _register_subapps()
    root = get_command(app)
    groups = [((), root)] + [(p, c) for p, c in _commands(root) if hasattr(c, "commands")]
    for path, group in groups:
        lines = _help(list(path))
        top = next(i for i, line in enumerate(lines) if "Commands" in line)
        rows = [line for line in lines[top + 1:] if line.startswith("│")]
        assert len(rows) == len(group.commands), (path, rows)  # one line per command at 1000 columns
    for path, command in _commands(root):
        if hasattr(command, "commands") or not command.help:
            continue
        lines = _help(list(path))
        start = next(i for i, line in enumerate(lines) if "Usage:" in line) + 1
        end = next(i for i, line in enumerate(lines) if line.startswith("╭"))
        shown = [line.strip() for line in lines[start:end] if line.strip()]
        paragraphs = inspect.cleandoc(command.help).split("\n\n")
        assert len(shown) == len(paragraphs), (path, shown)


COLUMNS = ("figure", "value", "reference")
ROWS = [("elite: kubbs felled per baton at 8 m", "0.410", "competitive players about 42 % (docs/calibration.md)")]


def _printed(width: int) -> str:
    out = io.StringIO()
    print_rows("calibration", COLUMNS, ROWS, console=Console(file=out, width=width, highlight=False))
    return out.getvalue()


def test_rows_are_a_table_where_they_fit_and_blocks_where_they_do_not():
    wide = _printed(120)
    assert "┃ figure" in wide and ROWS[0][2] in wide  # one line per row
    narrow = _printed(60)
    assert "┃" not in narrow
    assert narrow.splitlines()[2] == ROWS[0][0]
    assert narrow.splitlines()[3] == "  value: 0.410"
    assert " ".join(narrow.split()).endswith("reference: " + ROWS[0][2])


def test_validate_is_readable_in_an_80_column_pipe():
    # a piped `kubb3d validate --quick` is 80 columns wide: its eight-column table had cut each
    # quantity into words a column apart
    r = run_kubb3d("validate", "--quick", timeout=300, env={**os.environ, "COLUMNS": "80"})
    assert r.returncode in (0, 1), r.stderr  # 1: a row fails (docs/validation.md says which)
    text = " ".join(r.stdout.split())
    for quantity in ("standard kubb mass", "range back to release height, 10 m/s at 30°, no drag"):
        assert quantity in text, r.stdout


def test_no_help_loses_a_bracketed_word_to_markup():
    # `kubb3d rules --help` read "or in an  table": Typer's rich help took "[options]" for a
    # markup tag and dropped it. Every bracketed word of a command's or option's help is shown.
    _register_subapps()
    root = get_command(app)
    bracket = re.compile(r"\[[a-z][a-z _.-]*\]")
    lost = []
    for path, command in _commands(root):
        texts = [command.help or ""] + [getattr(param, "help", None) or "" for param in command.params]
        wanted = {match.group(0) for text in texts for match in bracket.finditer(text)}
        if not wanted:
            continue
        shown = " ".join(" ".join(_help(list(path))).split())
        lost += [f"kubb3d {' '.join(path)}: {word}" for word in sorted(wanted) if word not in shown]
    assert not lost, lost


def test_no_help_shows_a_value_placeholder_on_an_on_off_flag():
    # `kubb3d match --help` showed `--json <bool>` as if the flag took a value: every command's
    # help is read; options that take a value keep their placeholder (`--seed <int range>`)
    _register_subapps()
    root = get_command(app)
    helps = {path: "\n".join(_help(list(path))) for path, c in _commands(root) if not hasattr(c, "commands")}
    assert [p for p, text in helps.items() if "<bool>" in text] == []
    # nor Python's type names: `--by <list[str]>`, `<list[Path]>`, `<Path>`
    assert [p for p, text in helps.items() if re.search(r"<(list\[|Path>)", text)] == []
    assert re.search(r"--by +<str>", helps[("experiment", "summary")])
    assert "--json  " in helps[("match",)] and re.search(r"--seed +<int", helps[("match",)])
    assert sum("<int" in text for text in helps.values()) > 10


def test_no_help_points_a_reader_into_the_code():
    # `kubb3d match --help` said "see kubb3d/players.py STRATEGIES", `audit` "seeds FIRST_SEED, …",
    # `stats` "definitions: kubb3d/stats.py": a file of the source, a constant, a module path
    _register_subapps()
    root = get_command(app)
    code = re.compile(r"kubb3d/[\w/]+\.py|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b(True|False)\b|\bkubb3d\.\w+\.\w+")
    environment = {"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT"}  # a variable the reader sets: a name to type
    found = []
    for path, _command in _commands(root):
        text = "\n".join(_help(list(path)))
        found += [(path, m.group(0)) for m in code.finditer(text) if m.group(0) not in environment]
    assert found == []


def test_blocks_leave_out_empty_cells_and_calibration_names_its_quartiles():
    # `kubb3d calibrate` printed the inkast median's quartiles as "95 % interval: …" and rows
    # without a reference as "reference:   ·  in band:" with nothing after the colons
    from kubb3d.calibrate import Calibration, Figure
    from kubb3d.cli.calibrate import CALIBRATION_COLUMNS, calibration_rows

    cal = Calibration(
        [
            Figure("inkast", "club: inkast rest offset from the aimed spot, median (quartiles)", 0.31, 0.18, 0.52, 40,
                   spread="quartiles"),
            Figure("felled", "elite: kubbs felled per baton at 8 m", 0.41, 0.37, 0.45, 600, "about 42 %", True),
        ]
    )
    out = io.StringIO()
    print_rows("calibration", CALIBRATION_COLUMNS, calibration_rows(cal),
               console=Console(file=out, width=60, highlight=False))
    blocks = out.getvalue().split("\n\n")[1:]
    assert len(blocks) == 2
    assert "spread: 0.180–0.520 (quartiles)" in blocks[0] and "95 %" not in blocks[0]
    assert "reference" not in blocks[0] and "in band" not in blocks[0]
    assert "spread: 0.370–0.450 (95 % interval)" in blocks[1]
    assert "reference: about 42 %" in blocks[1] and "in band: yes" in blocks[1]

"""docs/rules.md's clause tables are held to the tests (issue #37 item 1).

Every clause row of the DM, WS, KT and RKD tables names an "applied" test (the rule at work) and a
"boundary" test (the case just the other way), each a test function (``file.py::name``) or a
situation file (``tests/judge/situations/NAME.toml``), and quotes the rule book's words it rests
on. Each named test must exist and quote those words (with the book's short name) in its
docstring, comments or leading comment; a row borrowed from another book says so and why. A test
or situation that cites a clause with no row fails, and so does one marked as a row's test
(``# DM §7 validity (boundary):``) that the row does not name. The "also checked by" column may name
scenario files, whole test files, audit checks and commands; each must exist.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = ROOT / "docs" / "rules.md"
SITUATIONS = ROOT / "tests" / "judge" / "situations"
BOOKS = ("DM", "WS", "KT", "RKD")
NOT_SIMULATED = "—"
"""The dash in "applied" and "boundary" of a clause kubb3d does not simulate (grass and leaves, a
referee called on request, teammates entering the pitch); its "what kubb3d does" says why."""
HEADER = (
    "clause",
    "the rule book's words",
    "in short",
    "what kubb3d does",
    "where",
    "applied",
    "boundary",
    "also checked by",
)
CITATION = re.compile(r"\b(DM §\d+|WS basic rule \d+|RKD [A-ZÉÈ][a-zéèê]+)")
"""A clause as tests cite it; each must begin the clause of a row (DM §7 -> "DM §7 validity")."""


@dataclass(frozen=True)
class Row:
    book: str  # the table's book: DM, WS, KT or RKD
    clause: str
    words: str  # the rule book's words, without the quotation marks
    lender: str  # the book the words come from (another one for a borrowed rule)
    does: str
    applied: str
    boundary: str
    also: str


def parse_rows(text: str) -> list[Row]:
    """The clause rows of the DM, WS, KT and RKD tables of *text* (docs/rules.md's Markdown).

    Raises:
        ValueError: a table row of such a section without the eight columns, or words not in quotes.
    """
    rows, book = [], ""
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("## "):
            book = line[3:].split()[0] if line[3:].split()[0] in BOOKS else ""
        if not book or not line.startswith("| ") or line.startswith("| ---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if tuple(cells) == HEADER:
            continue
        if len(cells) != len(HEADER):
            raise ValueError(f"docs/rules.md line {number}: expected {len(HEADER)} columns {HEADER}")
        quoted = re.fullmatch(r"(?:(DM|WS|KT|RKD) )?[„“\"«]\s*(.+?)\s*[“”\"»]", cells[1])
        if not quoted:
            raise ValueError(f"docs/rules.md line {number}: the rule book's words must be quoted: {cells[1]}")
        lender = quoted.group(1) or book
        rows.append(Row(book, cells[0], quoted.group(2), lender, cells[3], cells[5], cells[6], cells[7]))
    return rows


@cache
def clause_rows() -> tuple[Row, ...]:
    return tuple(parse_rows(RULES_MD.read_text(encoding="utf-8")))


def normalised(text: str) -> str:
    """Lower case, comment markers and line breaks gone, runs of white space one space."""
    text = re.sub(r"(?m)^\s*#+", " ", text)
    text = text.replace('"""', " ").replace("\\\n", " ").replace("\u2019", "'")
    return re.sub(r"\s+", " ", text).strip().lower()


@cache
def sources_of_tests() -> dict[str, dict[str, str]]:
    """Test file name -> test function name -> its text: the comment lines right above it, its
    decorators, docstring and body."""
    out: dict[str, dict[str, str]] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        functions = out.setdefault(path.name, {})
        for node in ast.parse(source).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                start = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
                while start > 0 and lines[start - 1].lstrip().startswith("#"):
                    start -= 1
                functions[node.name] = "\n".join(lines[start : node.end_lineno])
    return out


def situation_text(stem: str) -> str | None:
    path = SITUATIONS / f"{stem}.toml"
    return path.read_text(encoding="utf-8") if path.exists() else None


def resolve(cell: str) -> tuple[dict[str, str | None], list[str]]:
    """The tests a row's "applied" or "boundary" cell names -> their text (None: names nothing that
    exists), and the names that are neither a ``file.py::test`` nor a situation."""
    found: dict[str, str | None] = {}
    malformed, last_file = [], ""
    for name in re.findall(r"`([^`]+)`", cell):
        if "::" in name:
            file, _, func = name.partition("::")
            last_file = Path(file).name if file else last_file
            found[f"{last_file}::{func}"] = sources_of_tests().get(last_file, {}).get(func)
        elif re.fullmatch(r"[a-z0-9_]+", name):
            found[name] = situation_text(name)
        else:
            malformed.append(name)
    return found, malformed


def also_unresolved(cell: str) -> list[str]:
    """The references of an "also checked by" cell that name nothing that exists."""
    from kubb3d.audit import CHECKS

    bad = []
    for name in re.findall(r"`([^`]+)`", cell):
        if name.startswith("kubb3d ") or name in CHECKS:
            continue
        if "::" in name:
            file, _, func = name.partition("::")
            if func not in sources_of_tests().get(Path(file).name, {}):
                bad.append(name)
        elif name.endswith(".py") or "/" in name:
            if not ((ROOT / name).exists() or Path(name).name in sources_of_tests()):
                bad.append(name)
        elif not ((ROOT / "scenarios" / f"{name}.toml").exists() or situation_text(name) is not None):
            bad.append(name)
    return bad


def row_problems(row: Row) -> list[str]:
    """Why *row* is not held by its tests ([] when it is)."""
    problems = []
    if row.lender != row.book and not re.search(r"\bborrowed\b", row.does):
        problems.append(f"quotes {row.lender} but its 'what kubb3d does' does not say it is borrowed, and why")
    problems += [f"also checked by: {name} names nothing that exists" for name in also_unresolved(row.also)]
    if row.applied == row.boundary == NOT_SIMULATED:
        return problems
    words = normalised(row.words)
    named: dict[str, list[str]] = {}
    for kind, cell in (("applied", row.applied), ("boundary", row.boundary)):
        found, malformed = resolve(cell)
        problems += [f"{kind}: {name} is neither file.py::test nor a situation" for name in malformed]
        if not found:
            problems.append(f"names no {kind} test")
        for name, text in found.items():
            named.setdefault(name, []).append(kind)
            if text is None:
                problems.append(f"{kind}: {name} does not exist")
            elif words not in normalised(text) or row.lender not in text:
                problems.append(f"{kind}: {name} does not quote {row.lender}: \u201c{row.words}\u201d")
    problems += [f"{name} is named as both applied and boundary" for name, kinds in named.items() if len(kinds) > 1]
    return problems


def claimed_clauses(text: str) -> set[str]:
    """The clauses a test's docstring and comments, or a situation's comments, cite (not its code:
    a test may feed the judge a clause that does not exist to see it refused)."""
    comments = [line for line in text.splitlines() if line.lstrip().startswith("#")]
    docstring = re.search(r'"""(.*?)"""', text, re.DOTALL)
    return set(CITATION.findall("\n".join(comments) + (docstring.group(1) if docstring else "")))


def unknown_claims(text: str, rows: tuple[Row, ...] | list[Row]) -> list[str]:
    """The clauses *text* cites that begin no row's clause."""
    clauses = [row.clause for row in rows]
    return sorted(
        c for c in claimed_clauses(text) if not any(k == c or k.startswith((c + " ", c + ":")) for k in clauses)
    )


MARKER = re.compile(r"^\s*#\s*(?P<clause>[^#\n]+?) \((?P<kind>applied|boundary)\):", re.MULTILINE)
"""A test's or situation's own claim on a row: ``# DM §7 validity (boundary): „…“``."""


def marker_problems(name: str, text: str, rows: tuple[Row, ...] | list[Row]) -> list[str]:
    """Why the claims *text* (the test or situation *name*) makes are wrong: a claimed row that does
    not exist, or a row that does not name the test in the claimed column."""
    by_clause = {row.clause: row for row in rows}
    problems = []
    for match in MARKER.finditer(text):
        clause, kind = match.group("clause"), match.group("kind")
        row = by_clause.get(clause)
        if row is None:
            problems.append(f"{name} claims row {clause!r}, which docs/rules.md does not have")
        elif name not in resolve(getattr(row, kind))[0]:
            problems.append(f"{name} claims to be the {kind} test of {clause!r}, which names other tests")
    return problems


@pytest.mark.parametrize("row", clause_rows(), ids=lambda row: row.clause)
def test_every_clause_row_has_an_applied_and_a_boundary_test_quoting_it(row):
    assert row_problems(row) == []


def test_the_tables_cover_every_rule_book():
    books = {row.book for row in clause_rows()}
    assert books == set(BOOKS)
    assert len(clause_rows()) >= 70


@pytest.mark.parametrize("path", sorted(SITUATIONS.glob("*.toml")), ids=lambda p: p.stem)
def test_every_situation_cites_a_clause_with_a_row(path):
    """A situation written from a rule book's words names the clause it checks in its leading
    comment (DM §7 -> a row starting "DM §7"); a clause with no row fails."""
    head = "".join(line for line in path.read_text(encoding="utf-8").splitlines(True) if line.startswith("#"))
    assert re.search(r"\b(DM|WS|KT|RKD)\b", head), f"{path.name}: its leading comment quotes no clause"
    assert unknown_claims(head, clause_rows()) == [], f"{path.name} cites clauses without a row in docs/rules.md"


def test_every_test_cites_only_clauses_with_a_row():
    """A test whose docstring or comments cite a clause (``DM §12``, ``WS basic rule 15``) claims a
    row: the clause must have one."""
    claims = {
        f"{file}::{name}": unknown_claims(text, clause_rows())
        for file, functions in sources_of_tests().items()
        if file != Path(__file__).name
        for name, text in functions.items()
    }
    assert {name: bad for name, bad in claims.items() if bad} == {}


def test_every_claim_of_a_row_is_the_rows():
    """A test marked ``# CLAUSE (applied):`` or ``(boundary):`` is that row's test in that column."""
    problems = [
        problem
        for file, functions in sources_of_tests().items()
        if file != Path(__file__).name
        for name, text in functions.items()
        for problem in marker_problems(f"{file}::{name}", text, clause_rows())
    ]
    for path in sorted(SITUATIONS.glob("*.toml")):
        problems += marker_problems(path.stem, path.read_text(encoding="utf-8"), clause_rows())
    assert problems == []


# ---- the checker itself can fail ---------------------------------------------------------------

GOOD = """## DM — x

| clause | the rule book's words | in short | what kubb3d does | where | applied | boundary | also checked by |
| --- | --- | --- | --- | --- | --- | --- | --- |
| DM §4 opening | „Spieler A startet mit 2 Hölzern, B wirft 4“ | 2, 4, 6 | as written | `rules.dm` | \
`test_rule_boundaries.py::test_dm_baton_schedule_2_4_then_6` | `test_procedure.py::test_batons_per_turn` | — |
"""


def test_the_checker_accepts_a_held_row_and_refuses_each_kind_of_fault():
    (row,) = parse_rows(GOOD)
    assert row.words == "Spieler A startet mit 2 Hölzern, B wirft 4" and row_problems(row) == []
    missing = parse_rows(GOOD.replace("test_batons_per_turn", "test_no_such_test"))[0]
    assert row_problems(missing) == ["boundary: test_procedure.py::test_no_such_test does not exist"]
    unquoted = parse_rows(GOOD.replace("test_batons_per_turn", "test_round_cap_ends_match"))[0]
    assert [p.split(":")[0] for p in row_problems(unquoted)] == ["boundary"]
    same = parse_rows(
        GOOD.replace(
            "test_procedure.py::test_batons_per_turn", "test_rule_boundaries.py::test_dm_baton_schedule_2_4_then_6"
        )
    )[0]
    assert row_problems(same)[-1].endswith("is named as both applied and boundary")
    none = parse_rows(GOOD.replace("`test_procedure.py::test_batons_per_turn`", "—"))[0]
    assert row_problems(none) == ["names no boundary test"]
    borrowed = parse_rows(GOOD.replace("| „Spieler", "| WS „Spieler"))[0]
    assert "borrowed" in row_problems(borrowed)[0]
    with pytest.raises(ValueError, match="must be quoted"):
        parse_rows(GOOD.replace("„Spieler A startet mit 2 Hölzern, B wirft 4“", "two, then four"))
    assert unknown_claims("# DM §4: ... DM §12: ...", [row]) == ["DM §12"]
    assert unknown_claims("# RKD Combat", [row]) == ["RKD Combat"]
    applied = "test_rule_boundaries.py::test_dm_baton_schedule_2_4_then_6"
    assert marker_problems(applied, "    # DM §4 opening (applied): „…“", [row]) == []
    assert marker_problems(applied, "    # DM §4 opening (boundary): „…“", [row]) == [
        f"{applied} claims to be the boundary test of 'DM §4 opening', which names other tests"
    ]
    assert marker_problems(applied, "    # DM §4 schedule (applied): „…“", [row]) == [
        f"{applied} claims row 'DM §4 schedule', which docs/rules.md does not have"
    ]
    assert unknown_claims('check(citation="DM §12")', [row]) == []  # code, not a claim


def test_the_kt_rows_figures_are_the_equipments_and_the_examinations():
    """The row "KT ← DM §5 knocked over" quotes the disk's and the king's static tipping angles
    (from the equipment, :mod:`kubb3d.equipment`) and, with "KT rules: advance line", counts of
    the recorded Kubbuteo play examination, which must be the ones that examination gives."""
    import math

    from kubb3d.equipment import EQUIPMENT_SETS

    text = " ".join(RULES_MD.read_text(encoding="utf-8").split())
    kt = EQUIPMENT_SETS["kubbuteo"]
    face, rim = (math.degrees(kt.kubb.tipping_angle_towards(d)) for d in (0.0, math.pi / 2))
    king = math.degrees(kt.king.tipping_angle)
    assert f"({face:.1f}° towards a face, {rim:.1f}° along its rim)" in text
    assert f"a king rocked past its {king:.1f}° standing" in text
    exam_page = ROOT / "docs" / "examinations" / "2026-12-07-kubbuteo-play.md"
    exam = " ".join(exam_page.read_text(encoding="utf-8").split())
    flicks = re.search(r"(\d+) flicks \(\d+ of them at the king\)", exam)
    assert flicks is not None
    for finding, count in (("2", "23"), ("3", "28")):
        assert re.search(rf"### {finding}\. [^#]*\({count} flicks", exam), (finding, count)
        assert f"finding {finding}: {count} of {flicks.group(1)} flicks" in text

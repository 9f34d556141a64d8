"""docs/rules.md's clause tables are held to the tests (issue #37 item 1): every reference in a
row's "checked by" column names a scenario file, a test function or an audit check that exists,
every clause row that kubb3d simulates names at least one, and every situation written from the
rule books' words (tests/judge/situations/) cites a clause that has a row."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = ROOT / "docs" / "rules.md"
NOT_SIMULATED = "—"
"""A row whose "checked by" is this dash documents a clause kubb3d does not simulate (grass and
leaves, a referee called on request, teammates entering the pitch); its "what kubb3d does" says why."""


def clause_rows() -> list[tuple[str, str, str]]:
    """(table heading, clause, checked by) of every row of the DM, WS and KT clause tables."""
    rows, heading = [], ""
    for line in RULES_MD.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            heading = line[3:]
        if not (heading.startswith(("DM", "WS", "KT")) and line.startswith("| ") and not line.startswith("| ---")):
            continue
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        if len(cells) != 5 or cells[0] == "clause":
            continue
        rows.append((heading, cells[0], cells[4]))
    return rows


@cache
def defined_tests() -> dict[str, set[str]]:
    """Test file name → names of the test functions defined in it (every file under tests/)."""
    out: dict[str, set[str]] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith("test")}
        out.setdefault(path.name, set()).update(names)
    return out


def _scenario_exists(stem: str) -> bool:
    return (ROOT / "scenarios" / f"{stem}.toml").exists() or (ROOT / "tests/judge/situations" / f"{stem}.toml").exists()


def unresolved(checked_by: str) -> list[str]:
    """The references of a "checked by" cell that name nothing that exists."""
    from kubb3d.audit import CHECKS

    bad, last_file = [], None
    for name in re.findall(r"`([^`]+)`", checked_by):
        if name.startswith("kubb3d "):
            continue  # a command named for the reader
        if name in CHECKS:
            continue
        if "::" in name:
            file, _, func = name.partition("::")
            file = Path(file).name if file else last_file
            last_file = file
            if func not in defined_tests().get(file or "", set()):
                bad.append(name)
            continue
        if name.endswith(".py") or "/" in name:
            last_file = Path(name).name
            if not ((ROOT / name).exists() or Path(name).name in defined_tests()):
                bad.append(name)
            continue
        if not _scenario_exists(name):
            bad.append(name)
    return bad


@pytest.mark.parametrize("heading, clause, checked_by", clause_rows(), ids=lambda v: str(v)[:40])
def test_every_clause_row_names_checks_that_exist(heading, clause, checked_by):
    if checked_by == NOT_SIMULATED:
        return
    assert unresolved(checked_by) == [], f"{clause}: these references name nothing in the repository"
    assert re.search(r"`", checked_by), f"{clause}: names no test, scenario or audit check"


def test_the_tables_cover_every_rule_book():
    headings = {h.split()[0] for h, _, _ in clause_rows()}
    assert headings == {"DM", "WS", "KT"}
    assert len(clause_rows()) >= 60


@pytest.mark.parametrize("path", sorted((ROOT / "tests/judge/situations").glob("*.toml")), ids=lambda p: p.stem)
def test_every_situation_cites_a_clause_with_a_row(path):
    """A situation written from a rule book's words names the clause it checks in its leading
    comment; that clause must have a row in docs/rules.md (DM §7 → a row starting "DM §7")."""
    head = "".join(line for line in path.read_text(encoding="utf-8").splitlines(True) if line.startswith("#"))
    cites = {m.group(1) for m in re.finditer(r"(DM §\d+|WS basic rule \d+|KT)", head)}
    if "WS" in head and not any(c.startswith("WS") for c in cites):
        found = re.finditer(r"WS \(?(Sequence of Play|Start of Play|End of the Game|notes)\)?", head)
        cites |= {"WS " + m.group(1) for m in found}
    assert cites, f"{path.name}: its leading comment quotes no clause"
    clauses = [c for _, c, _ in clause_rows()]
    missing = sorted(c for c in cites if not any(row == c or row.startswith((c + " ", c + ":")) for row in clauses))
    assert missing == [], f"{path.name} cites clauses without a row in docs/rules.md"

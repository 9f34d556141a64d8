"""Users know ``--seed`` as a random seed, so the rule documents are called rule books in
everything they read (README, docs/, the package's READMEs and docstrings, the message catalog):
never "seed DM", "the seed's words" or "the seeds leave open". "DM seed 1" (a DM match of random
seed 1) is the other meaning and allowed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
JARGON = re.compile(
    r"\bseeds?\s+`{0,2}(DM|WS|RKD|KT)\b"  # "seed DM", "Seed ``RKD``"
    r"|\bseed's\s+(words?|wording|text|rules?|clauses?)\b"  # "the seed's words"
    r"|\bthe seeds?\s+(leaves?|says?|speaks?|do(es)?\s+not|is\s+silent|are\s+silent|allows?|forbids?)\b"
    r"|\bthe\s+\*{0,2}seeds?\*{0,2}\s+of\s+the\s+project\b(?!')",  # docs/sources.md called them so
    re.IGNORECASE,
)


def _read_by_users() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    files += sorted((ROOT / "kubb3d").rglob("*.md")) + sorted((ROOT / "kubb3d").rglob("*.py"))
    files += sorted((ROOT / "kubb3d").rglob("*.po")) + sorted((ROOT / "scenarios").rglob("*.toml"))
    files += sorted((ROOT / "tests").rglob("*.py"))
    return [path for path in files if path.name != Path(__file__).name]


def test_the_pattern_finds_the_jargon_and_spares_random_seeds():
    for jargon in (
        "the seed DM says",
        "Seed ``RKD`` (Matériel)",
        "the seed's words",
        "the seeds leave open",
        "four rule documents, the *seeds* of the project",
    ):
        assert JARGON.search(jargon), jargon
    for plain in (
        "kubb3d match --seed 7",
        "DM seed 1",
        "the same seed gives the same game",
        "WS seed 79",
        "one seed's outcome",
        "the seeds of the project's experiments",
    ):
        assert not JARGON.search(plain), plain


@pytest.mark.parametrize("path", _read_by_users(), ids=lambda path: str(path.relative_to(ROOT)))
def test_rule_documents_are_called_rule_books(path):
    text = path.read_text(encoding="utf-8")
    found = [f"line {text.count(chr(10), 0, match.start()) + 1}: {match.group(0)!r}" for match in JARGON.finditer(text)]
    assert not found, f"{path.relative_to(ROOT)} calls a rule book a seed: {found}"

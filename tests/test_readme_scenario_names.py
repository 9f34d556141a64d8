"""Every shipped scenario the README and docs/ name in a command or a ``kubb3d.show`` call is
given by its short name, which works from any folder (``kubb3d view kt_return_short``); a path
such as ``scenarios/kt_return_short.toml`` works only from the checkout's root, and a new user
who installed the package and copied ``kubb3d.show("scenarios/dm_king_felled_early.toml")`` got
"no such file"."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from kubb3d.library import resolve_scenario, scenario_files

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
COMMANDS = ("view", "judge", "export", "quiz", "scenario show")
"""The commands that take a scenario (a file, a folder or a short name)."""


def _spans(text: str) -> list[str]:
    """The code of a Markdown text: its ``inline`` spans and the lines of its indented or fenced blocks."""
    spans = re.findall(r"`([^`\n]+)`", text)
    spans += [line for line in text.splitlines() if line.startswith("    ")]
    return spans


def _named(span: str) -> list[str]:
    """The scenario arguments of the commands and ``kubb3d.show`` calls in one span of code."""
    out = re.findall(r"kubb3d\.show\(\s*\"([^\"]+)\"", span)
    for command in COMMANDS:
        for m in re.finditer(rf"\bkubb3d {command}\b([^#|;]*)", span):
            try:
                words = shlex.split(m.group(1))
            except ValueError:
                continue
            out += [w for w in words if not w.startswith("-") and not w.isupper()]
    return out


def _shipped_or_path(word: str) -> bool:
    """A shipped scenario, by name or by its path in the checkout (``scenarios/…``); not a
    placeholder (``SCENARIO.toml``) nor another file of the repository (an examination's)."""
    stem = Path(word).stem
    return word.startswith("scenarios") or stem in {f.stem for f in scenario_files()}


def test_the_scan_finds_the_names_the_tryout_copied():
    named = {w for doc in DOCS for s in _spans(doc.read_text(encoding="utf-8")) for w in _named(s)}
    assert {"dm_king_felled_early", "kt_return_short", "dm_leaning_on_field_kubb"} <= named


def test_every_scenario_the_docs_name_is_a_short_name_that_works_anywhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # not the checkout: a path relative to it would not be found
    bad = []
    for doc in DOCS:
        for span in _spans(doc.read_text(encoding="utf-8")):
            for word in filter(_shipped_or_path, _named(span)):
                if "/" in word or word.endswith(".toml") or not resolve_scenario(word).is_file():
                    bad.append(f"{doc.relative_to(ROOT)}: {word}")
    assert bad == []

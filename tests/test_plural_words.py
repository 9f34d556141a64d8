"""A count and its noun agree, everywhere: "1 rollout", "4 rollouts" (the tryout read
"1 rollouts" in ``kubb3d analyse --samples 1``, and "on 1 worker(s)" in ``audit``).

Every f-string and every ``msg()`` template of the package is read (its syntax tree): a number
put straight before a plural noun of :data:`NOUNS` must come from ``counted()`` (English text)
or ``nmsg()`` (translated text), unless it is a constant (``{BATONS_PER_TURN} batons``), a
decimal (``{x:.2f} kubbs``), the second of a ratio or score (``{hits}/{batons} batons``), or
one of :data:`EXEMPT`, each with the reason its count is never 1.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from kubb3d.ranges import counted

PACKAGE = Path(__file__).resolve().parents[1] / "kubb3d"

NOUNS = {
    "actions", "batons", "cells", "files", "flicks", "frames", "games", "inkasts", "kubbs", "levels",
    "matches", "numbers", "parameters", "players", "points", "poses", "questions", "rollouts", "rows",
    "scenarios", "seeds", "segments", "sets", "situations", "steps", "threads", "throws", "times",
    "trajectories", "trials", "turns", "violations", "workers",
}
"""Plural nouns kubb3d prints after a count."""

EXEMPT = {
    ("judge/raising.py", "{half} throws"): "a verb: side A throws it into its own half",
    ("rules/inkast_phase.py", "{player} inkasts"): "a verb: P1 inkasts 3 kubbs",
    ("notation.py", "{n} batons"): "n is BATONS_PER_TURN, 6",
    ("rules/core.py", "{cap} turns"): "the round cap is 3 or more (match --round-cap)",
    ("rules/turns.py", "{sets} sets"): "best-of-N sets, a compound of the rule books' own",
    ("challenges.py", "{points} points"): "a drill's points are multiples of 5",
    ("cli/challenge.py", "{most} points"): "a drill's most points are 50 or more",
    ("viewer/challenge_mode.py", "{score} points"): "a drill's points are multiples of 5",
    ("cli/audit.py", "{ruleset} matches"): "the plural form handed to counted()",
    ("stats.py", "{per_turn} kubbs"): "a decimal written beforehand: 1.50 kubbs a turn",
    ("experiment/studies.py", "{real_adv['k']} games"): "88 % of 32 games, 28",
}
"""(file under kubb3d/, placeholder and noun) → why the count there is never 1."""

_CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*")
_DECIMAL = re.compile(r"\.\d+[fe%]|[eg%]$")


def _pairs():
    """(file, line, placeholder text, noun) for each count straight before a noun of NOUNS."""
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                parts = node.values
                for before, value, after in zip([None, *parts], parts, [*parts[1:], None]):
                    if not isinstance(value, ast.FormattedValue) or not isinstance(after, ast.Constant):
                        continue
                    lazy = re.match(r" ([a-z ]+\(s\))", str(after.value))  # "1 worker(s)": never right
                    if lazy:
                        yield rel, node.lineno, "{" + ast.unparse(value.value) + "}", lazy.group(1)
                        continue
                    word = re.match(r" ([a-z]+)\b", str(after.value))
                    if not word or word.group(1) not in NOUNS:
                        continue
                    spec = ast.unparse(value.format_spec) if value.format_spec else ""
                    text = ast.unparse(value.value)
                    previous = str(before.value) if isinstance(before, ast.Constant) else ""
                    constant = _CONSTANT.fullmatch(text.split(".")[-1])
                    if constant or _DECIMAL.search(spec) or previous.endswith(("/", ":")):
                        continue
                    yield rel, node.lineno, "{" + text + "}", word.group(1)
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "msg"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                for found in re.finditer(r"(.)?\{(\w+)(:[^}]*)?\} ([a-z]+(\(s\))?)", node.args[0].value):
                    if (found.group(4) in NOUNS or found.group(5)) and found.group(1) not in ("/", ":"):
                        if not (found.group(3) and _DECIMAL.search(found.group(3))):
                            yield rel, node.lineno, "{" + found.group(2) + "}", found.group(4)


def test_every_count_before_a_noun_agrees_with_it():
    bad = [
        f"kubb3d/{rel}:{line}: {text} {noun}"
        for rel, line, text, noun in _pairs()
        if (rel, f"{text} {noun}") not in EXEMPT
    ]
    assert bad == [], "use counted(n, noun) or nmsg(...):\n" + "\n".join(bad)


def test_every_exemption_is_still_needed():
    found = {(rel, f"{text} {noun}") for rel, _, text, noun in _pairs()}
    assert set(EXEMPT) <= found, sorted(set(EXEMPT) - found)


def test_the_scan_finds_the_kind_it_is_for(tmp_path, monkeypatch):
    """The check reads the code the tryout's line came from as it was: it would fail on it."""
    (tmp_path / "old.py").write_text(
        'n = 1\nline = f"{n} rollouts each, seed 1"\nok = f"{n:.2f} kubbs"\nlazy = f"on {n} worker(s)"\n'
    )
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path)
    assert [(t, w) for _, _, t, w in _pairs()] == [("{n}", "rollouts"), ("{n}", "worker(s)")]


@pytest.mark.parametrize("n, words", [(0, "0 rollouts"), (1, "1 rollout"), (2, "2 rollouts")])
def test_counted(n, words):
    assert counted(n, "rollout") == words
    assert counted(n, "match", "matches") == words.replace("rollout", "match").replace("matchs", "matches")


def test_analyse_with_one_rollout_says_one_rollout(cli, tmp_path):
    replay = tmp_path / "m.jsonl"
    r = cli("match", "--seed", "1", "--round-cap", "3", "--replay", str(replay), "-q")
    assert r.returncode == 0, r.stderr
    r = cli("analyse", str(replay), "--samples", "1", "--every", "1000")
    assert r.returncode == 0, r.stderr
    counts = r.stdout.splitlines()[1]  # (the first line names the replay)
    assert re.match(r"\d+ points, 1 rollout each \(every 1000 actions\), seed 1$", counts), counts

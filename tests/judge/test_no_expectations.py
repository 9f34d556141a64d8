"""A scenario without ``[[expect]]`` asks "what is the ruling here?": ``kubb3d judge`` gives the
ruling and compares nothing; ``--check`` and the quiz refuse it in one line (docs/scenarios.md)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kubb3d.library import resolve_scenario
from kubb3d.quiz import run_quiz
from kubb3d.scenario import ScenarioError

import pytest


def _without_expect(tmp_path, name="dm_leaning_on_field_kubb"):
    text = resolve_scenario(name).read_text(encoding="utf-8")
    head = text[: text.index("[[expect]]")]
    path = tmp_path / "question.toml"
    path.write_text(head, encoding="utf-8")
    return path


def test_judge_gives_the_ruling_and_compares_nothing(judge_app, tmp_path):
    path = _without_expect(tmp_path)
    res = CliRunner().invoke(judge_app, ["judge", str(path)])
    assert res.exit_code == 0, res.output
    assert "A2       leaning   → counts as felled  [DM §5]" in res.output
    assert "differs" not in res.output and "error" not in res.output
    doc = json.loads(CliRunner().invoke(judge_app, ["judge", str(path), "--json"]).stdout)
    assert doc["compared"] is False and doc["ok"] is True and doc["mismatches"] == []
    assert next(r for r in doc["rulings"] if r["piece"] == "A2")["consequence"] == "counts as felled"


def test_check_refuses_it_in_one_line_before_judging(judge_app, tmp_path):
    path = _without_expect(tmp_path)
    res = CliRunner().invoke(judge_app, ["judge", "--check", str(path), "dm_king_felled_early"])
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert lines == [f"error: {path}: expect: --check compares the rulings with the file's [[expect]], and it has "
                     "none (without --check judge prints the rulings)"]
    german = CliRunner().invoke(judge_app, ["judge", "--check", str(path), "--lang", "de"])
    assert german.exit_code == 2 and german.output.startswith("Fehler: ") and "hat keine" in german.output


def test_the_quiz_refuses_it_and_says_why(tmp_path):
    path = _without_expect(tmp_path)
    said = []
    with pytest.raises(ScenarioError, match=r"expect: the quiz asks only rulings the file's \[\[expect\]\] checks, "
                                            r"and it has none \(kubb3d judge gives its ruling\)$"):
        run_quiz([path], seed=0, say=said.append, ask=lambda _: "1")
    assert said == []


def test_the_quiz_refusal_is_one_line_in_german_too(tmp_path):
    from kubb3d.cli.lang import error_line
    from kubb3d.i18n import translator

    path = _without_expect(tmp_path)
    with pytest.raises(ScenarioError) as caught:
        run_quiz([path], seed=0, say=lambda _: None, ask=lambda _: "1")
    line = error_line(caught.value, translator("de"))
    assert line == (f"Fehler: {path}: expect: das Quiz fragt nur Entscheidungen ab, die die [[expect]]-Tabellen der "
                    "Datei prüfen, und sie hat keine (kubb3d judge gibt ihre Entscheidung aus)")

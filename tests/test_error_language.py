"""A refused input's one error line speaks the command line's language (docs/german.md): with
``--lang de`` or ``LANG=de_DE.UTF-8`` the line of every command was English ("error: --seed:
expected 0 or more, got -1"), because it is written before the command reads its ``--lang``
(Click's checks, the range checks, an unknown option) or by a command without one. Now the
error handler reads the language from the command line itself (kubb3d/cli/lang.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_process import run_kubb3d

ROOT = Path(__file__).resolve().parents[1]

CASES = [
    # (command line, German line, English line)
    (["match", "--seed", "-1"], "Fehler: --seed: erwartet 0 oder mehr, erhalten -1",
     "error: --seed: expected 0 or more, got -1"),
    (["match", "--bogus"], "Fehler: kubb3d match: Keine solche Option: --bogus",
     "error: kubb3d match: No such option: --bogus"),
    (["judge", "no_such_scenario"],
     "Fehler: no_such_scenario: weder eine Datei oder ein Ordner noch ein mitgeliefertes Szenario dieses Namens "
     "(kubb3d scenario list)",
     "error: no_such_scenario: no such file or directory, nor a shipped scenario of that name (kubb3d scenario list)"),
    (["quiz", "--count", "0"], "Fehler: --count: erwartet 1 oder mehr, erhalten 0",
     "error: --count: expected 1 or more, got 0"),
    (["throw", "--side", "C"], "Fehler: --side: erwartet A oder B, erhalten 'C'",
     "error: --side: expected A or B, got 'C'"),
    (["match", "--players", "foo"], "Fehler: --players braucht zwei durch Komma getrennte Angaben, erhalten 'foo'",
     "error: --players needs two comma-separated entries, got 'foo'"),
    (["match", "--ruleset", "xx"],
     "Fehler: unbekanntes Regelwerk 'xx'; erwartet eines von dm, kubbuteo (kt), wikinger (ws)",
     "error: unknown ruleset 'xx'; expected one of dm, kubbuteo (kt), wikinger (ws)"),
    (["play", "--camera", "foo"],
     "Fehler: kubb3d play: Ungültiger Wert für '--camera': 'foo' ist keiner von 'thrower', 'orbit', 'top', 'follow'.",
     "error: kubb3d play: Invalid value for '--camera': 'foo' is not one of 'thrower', 'orbit', 'top', 'follow'."),
    (["match", "--sets", "2"], "Fehler: --sets: erwartet eine ungerade Zahl von 1 bis 9, erhalten 2",
     "error: --sets: expected an odd number from 1 to 9, got 2"),
    (["tournament", "--teams", "1"], "Fehler: --teams: erwartet von 2 bis 16, erhalten 1",
     "error: --teams: expected from 2 to 16, got 1"),
    (["experiment", "run", "no-such-spec", "-o", "x.sqlite"],
     "Fehler: no-such-spec: weder eine Datei oder ein Ordner noch eine mitgelieferte Versuchsbeschreibung dieses "
     "Namens (kubb3d experiment list)",
     "error: no-such-spec: no such file or directory, nor a shipped spec of that name (kubb3d experiment list)"),
    (["matchh"], "Fehler: kubb3d: Kein solcher Befehl 'matchh'; meinten Sie 'match'?",
     "error: kubb3d: No such command 'matchh'; did you mean 'match'?"),
]


def _run(args, tmp_path, **env):
    clean = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    r = run_kubb3d(*args, timeout=120, cwd=tmp_path, env={**clean, "LANG": "C.UTF-8", **env})
    assert r.returncode == 2, (args, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


@pytest.mark.parametrize("args, german, english", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_error_lines_speak_the_command_lines_language(args, german, english, tmp_path):
    # --lang where the command has one; the environment for every command (judge's --lang or not)
    if args[0] in ("match", "judge", "quiz", "throw", "play"):
        assert _run([*args, "--lang", "de"], tmp_path) == german
    assert _run(args, tmp_path, LANG="de_DE.UTF-8") == german
    assert _run(args, tmp_path) == english


def test_an_unknown_language_is_refused_in_english(tmp_path):
    assert _run(["match", "--lang", "xx"], tmp_path) == "error: --lang: unknown language 'xx'; available: de, en"
    # and --lang en wins over a German environment
    assert _run(["match", "--seed", "-1", "--lang", "en"], tmp_path, LANG="de_DE.UTF-8") == (
        "error: --seed: expected 0 or more, got -1")

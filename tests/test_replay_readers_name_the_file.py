"""Every command that reads a replay names the file it reads when given another: a new user's
``whatif dm.html`` (the page ``export --html`` wrote) said "dm.html:1: not a JSON line", where
other refusals say "expected a replay written by kubb3d match --replay"."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app

_register_subapps()
EXPECTED = "expected a replay written by kubb3d match --replay"
READERS = (("whatif", "{f}", "--at", "3"), ("view", "{f}"), ("stats", "{f}"), ("analyse", "{f}"),
           ("notation", "{f}"), ("export", "{f}", "--html", "out.html"), ("match", "--resume", "{f}"))
"""Every command that reads a replay (tests/test_output_policy.py READS), with what else it needs."""


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_every_command_that_reads_a_replay_names_it_for_a_page_or_a_text(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    page = tmp_path / "dm.html"
    page.write_text("<!DOCTYPE html>\n<html><body>a replay's page</body></html>\n")
    text = tmp_path / "notes.txt"
    text.write_text("my notes\nof the match\n")
    for given, said in ((page, f"error: {page} is an HTML page, not a kubb3d match replay; {EXPECTED}"),
                        (text, f"error: {text}:1: not a JSON line; {EXPECTED}")):
        res = CliRunner().invoke(app, [a.format(f=given) for a in command])
        lines = [line for line in res.stderr.splitlines() if line.strip()]
        assert res.exit_code == 2 and lines == [said], (command, res.output)

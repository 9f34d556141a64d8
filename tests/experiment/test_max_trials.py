"""`experiment run --max-trials N` on a resumed file: N *more* trials, not N in all, as its
--help says (the help once said "at most this many of the trials still to run" and left a
reader to guess which)."""

from __future__ import annotations

import json

from experiment_helpers import write_tiny
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app
from kubb3d.experiment import read_rows


def _run(*args):
    _register_subapps()
    res = CliRunner().invoke(app, ["experiment", "run", *map(str, args), "--backend", "serial", "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_max_trials_runs_that_many_more_on_resume(tmp_path):
    spec = write_tiny(tmp_path, trials_per_point=4)  # 16 trials
    out = tmp_path / "r.sqlite"
    first = _run(spec, "--out", out, "--max-trials", 5)
    assert (first["ran"], first["skipped"], first["stored"]) == (5, 0, 5)
    again = _run(spec, "--out", out, "--max-trials", 5)  # 5 more: 10 stored, not still 5
    assert (again["ran"], again["skipped"], again["stored"]) == (5, 5, 10)
    none = _run(spec, "--out", out, "--max-trials", 0)
    assert (none["ran"], none["stored"]) == (0, 10)
    rest = _run(spec, "--out", out, "--max-trials", 100)  # more than are left: only those
    assert (rest["ran"], rest["skipped"], rest["stored"], rest["total"]) == (6, 10, 16, 16)
    assert sorted(r["trial"] for r in read_rows(out)) == list(range(16))


def test_the_help_says_more_not_in_all():
    _register_subapps()
    res = CliRunner().invoke(app, ["experiment", "run", "--help"])
    words = " ".join(w for w in res.stdout.split() if w != "│")
    assert "Run at most N more trials in this call, not N in all: on resume the trials the results file holds " \
           "already do not count (a file with 10 stored and --max-trials 5 ends with at most 15)." in words, words


def test_the_progress_bar_counts_this_run_and_its_rate_is_the_reports(tmp_path, monkeypatch):
    """`run --max-trials 10` of a 210-trial spec drew `10/210 … 0:00:11 left`, and the bar's
    trials/s (rich's recent-window speed) disagreed with the final line's (this call's trials over
    its seconds). The bar now counts the trials of this call, at the report's rate."""
    import io
    import re

    from rich.console import Console

    from kubb3d.experiment import load_spec, run
    from kubb3d.experiment import runner

    screen = io.StringIO()
    monkeypatch.setattr(runner, "_console", lambda: Console(file=screen, force_terminal=True, width=150))
    spec = load_spec(write_tiny(tmp_path, trials_per_point=4))  # 16 trials
    out = tmp_path / "r.sqlite"
    run(spec, out, backend="serial", progress=False, max_trials=3)
    report = run(spec, out, backend="serial", progress=True, max_trials=2)
    assert (report.ran, report.skipped) == (2, 3)
    last = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen.getvalue()).replace("\r", "\n").strip().splitlines()[-1]
    assert " 2/2 " in f" {last} " and "/16" not in last, last
    shown = float(re.search(r"([0-9.]+) trials/s", last).group(1))
    assert shown == round(report.rate, 2), (last, report.rate)
    assert "0:00:00 left" in last, last

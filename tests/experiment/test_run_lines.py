"""What ``kubb3d experiment run`` says when there is nothing to run or it refuses its results
file. A new user's trial resumed a finished experiment and read "0.00 trials/s, 0.00 per worker",
and a results file of another spec printed the banner "… 4 trials → w.sqlite" before its refusal."""

from __future__ import annotations

import json
import sqlite3

from experiment_helpers import write_tiny
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app


def _run(*args, code: int = 0):
    _register_subapps()
    res = CliRunner().invoke(app, ["experiment", "run", *map(str, args), "--backend", "serial", "-q"])
    assert res.exit_code == code, res.output
    return res


def test_a_finished_experiment_says_nothing_was_left_to_run(tmp_path):
    spec = write_tiny(tmp_path, trials_per_point=1)  # 4 trials
    out = tmp_path / "w.sqlite"
    first = _run(spec, "--out", out)
    assert "4 trials run (0 failed)" in first.stdout and "wrote" in first.stderr
    again = _run(spec, "--out", out)
    assert again.stdout.strip() == f"nothing left to run: all 4 trials are already stored in {out}"
    assert "wrote" not in again.stderr and "trials/s" not in again.output
    bigger = write_tiny(tmp_path, trials_per_point=2, name="tiny2.toml")  # the same spec, 8 trials
    none = _run(bigger, "--out", out, "--max-trials", 0)
    assert none.stdout.strip() == f"no trial run (--max-trials 0); 4/8 stored in {out}"
    one = _run(bigger, "--out", out, "--max-trials", 1)
    assert one.stdout.rstrip().endswith("5/8 stored in " + str(out) + " (4 were already there)")


def test_every_refusal_of_the_results_file_is_the_only_line(tmp_path):
    spec = write_tiny(tmp_path, trials_per_point=1)
    out = tmp_path / "w.sqlite"
    _run(spec, "--out", out)
    other = tmp_path / "other.toml"
    other.write_text(spec.read_text().replace("seed = 7", "seed = 8"))
    stale = tmp_path / "stale.sqlite"
    stale.write_bytes(out.read_bytes())
    with sqlite3.connect(stale) as db:  # rows another kubb3d made
        versions = json.loads(db.execute("SELECT value FROM meta WHERE key = 'versions'").fetchone()[0])
        db.execute("UPDATE meta SET value = ? WHERE key = 'versions'", (json.dumps({**versions, "numpy": "0.1"}),))
    for args, said in (((other, "--out", out), "holds results of a different spec"),
                       ((spec, "--out", stale), "--mix-versions")):
        res = _run(*args, code=2)
        lines = [line for line in res.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: ") and said in lines[0], res.stderr
        assert res.stdout == ""

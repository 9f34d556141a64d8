"""`experiment summary` shows every side a winner can be and every arm of the grid, at zero
when no trial gave it: the strategy lab's summary had no B row when B never won, and an arm a
stopped run had not reached yet had no row at all (kubb3d/experiment/stats.py)."""

from __future__ import annotations

import json
import sqlite3

import pytest
from experiment_helpers import write_tiny
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app
from kubb3d.experiment import load_spec, run


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """The tiny spec's results (speed × elevation grid, 2 trials a point), every trial's winner
    set to A as if B never won, and the trials at speed 10.4 removed as if not reached yet."""
    d = tmp_path_factory.mktemp("rows")
    out = d / "r.sqlite"
    run(load_spec(write_tiny(d, trials_per_point=2)), out, backend="serial", progress=False)
    con = sqlite3.connect(out)
    with con:
        con.execute("UPDATE trials SET row = json_set(row, '$.match_winner', 'A')")
        con.execute("DELETE FROM trials WHERE json_extract(row, '$.speed') = 10.4")
    con.close()
    return out


def _summary(results, *args):
    _register_subapps()
    res = CliRunner().invoke(app, ["experiment", "summary", str(results), *map(str, args)])
    assert res.exit_code == 0, res.output
    return res


def test_a_side_that_never_won_has_its_row_at_zero(results):
    doc = json.loads(_summary(results, "--by", "elevation", "--measure", "match_winner", "--json").stdout)
    got = {(g["key"]["elevation_deg"], g["key"]["match_winner"]): (g["n"], g["k"]) for g in doc["groups"]}
    assert got == {(26.0, "A"): (2, 2), (26.0, "B"): (2, 0), (34.0, "A"): (2, 2), (34.0, "B"): (2, 0)}
    table = _summary(results, "--by", "elevation", "--measure", "match_winner").stdout
    cells = [[c.strip() for c in line.split("│")[1:-1]] for line in table.splitlines() if "│ B " in line]
    assert [c[:4] for c in cells] == [["26", "B", "2", "0"], ["34", "B", "2", "0"]], table


def test_an_arm_no_trial_reached_has_its_row_at_zero(results):
    doc = json.loads(_summary(results, "--by", "speed", "--measure", "match_winner", "--json").stdout)
    got = {(g["key"]["speed"], g["key"]["match_winner"]): (g["n"], g["k"], g["value"]) for g in doc["groups"]}
    assert got == {(9.6, "A"): (4, 4, 1.0), (9.6, "B"): (4, 0, 0.0), (10.4, "A"): (0, 0, None),
                   (10.4, "B"): (0, 0, None)}
    doc = json.loads(_summary(results, "--by", "speed", "--measure", "n_felled", "--json").stdout)
    assert [(g["key"]["speed"], g["n"]) for g in doc["groups"]] == [(9.6, 4), (10.4, 0)]
    table = _summary(results, "--by", "speed", "--measure", "n_felled").stdout
    assert "no trial: no interval" in table
    # a --where that keeps one arm keeps only it
    doc = json.loads(_summary(results, "--by", "speed", "--where", "speed=9.6", "--measure", "hit", "--json").stdout)
    assert [g["key"]["speed"] for g in doc["groups"]] == [9.6]

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


@pytest.fixture(scope="module")
def drawn(results, tmp_path_factory):
    """The results above with ``match_opener_won`` set as a match study has it: at elevation 26
    won, lost (a draw: null); at elevation 34 won, won."""
    import shutil

    out = tmp_path_factory.mktemp("drawn") / "d.sqlite"
    shutil.copy(results, out)
    con = sqlite3.connect(out)
    with con:
        for elevation, values in ((26.0, ["true", "null"]), (34.0, ["true", "true"])):
            trials = [t for (t,) in con.execute(
                "SELECT trial FROM trials WHERE json_extract(row, '$.elevation_deg') = ? ORDER BY trial", (elevation,)
            )]
            for t, v in zip(trials, values):
                con.execute("UPDATE trials SET row = json_set(row, '$.match_opener_won', json(?)) WHERE trial = ?",
                            (v, t))
    con.close()
    return out


def test_a_trial_without_a_value_counts_alike_in_both_forms_of_a_rate(drawn):
    """`--measure match_opener_won` gave 1 of 1 at elevation 26 (the draw dropped) while
    `--measure match_opener_won=true` gave 1 of 2: one rule now, and the draw is shown."""
    got = {}
    plain = json.loads(_summary(drawn, "--by", "elevation", "--measure", "match_opener_won", "--json").stdout)
    assert [(g["n"], g["k"]) for g in plain["groups"]] == [(2, 1), (2, 2)]  # was [(1, 1), (2, 2)]
    for measure in ("match_opener_won", "match_opener_won=true", "match_opener_won=1"):
        doc = json.loads(_summary(drawn, "--by", "elevation", "--measure", measure, "--json").stdout)
        got[measure] = [(g["key"]["elevation_deg"], g["n"], g["k"], g.get("no_value")) for g in doc["groups"]]
        assert doc.get("no_value") == 1, measure
    assert got["match_opener_won"] == [(26.0, 2, 1, 1), (34.0, 2, 2, 0)]
    assert got["match_opener_won=true"] == got["match_opener_won"] == got["match_opener_won=1"]
    table = _summary(drawn, "--by", "elevation", "--measure", "match_opener_won").stdout
    assert "1 without a value)" in table and "no value: counted in n as a no" in table, table
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in table.splitlines() if "│ 26 " in line]
    assert rows[0][:5] == ["26", "2", "1", "1", "0.500"], table


def test_a_mean_leaves_a_trial_without_a_value_out_and_says_so(drawn):
    con = sqlite3.connect(drawn)
    with con:
        con.execute("UPDATE trials SET row = json_set(row, '$.n_felled', json('null')) WHERE trial = "
                    "(SELECT min(trial) FROM trials)")
    con.close()
    doc = json.loads(_summary(drawn, "--measure", "n_felled", "--json").stdout)
    assert doc["groups"][0]["n"] == 3
    assert (doc["groups"][0].get("no_value"), doc.get("no_value")) == (1, 1)
    assert "no value: left out of n and the mean" in _summary(drawn, "--measure", "n_felled").stdout


def test_a_file_whose_every_trial_failed_says_so(results, tmp_path):
    """summary of a run whose every trial raised ThrowError said "no column 'hit' (columns:
    elevation_deg)": now it says all trials failed, the first error and where to see each."""
    import shutil

    out = tmp_path / "bad2.sqlite"
    shutil.copy(results, out)
    con = sqlite3.connect(out)
    with con:
        for trial, row in list(con.execute("SELECT trial, row FROM trials")):
            r = json.loads(row)
            kept = {k: r[k] for k in ("trial", "point", "rep", "seed_entropy", "spawn_key", "elevation_deg")}
            error = "ThrowError: the release point is 6.0 m\nbehind the line"
            con.execute("UPDATE trials SET ok = 0, error = ?, row = ? WHERE trial = ?",
                        (error, json.dumps({**kept, "ok": False, "error": error}), trial))
    con.close()
    _register_subapps()
    for command in (["summary", str(out)], ["plot", str(out), "--x", "elevation"]):
        res = CliRunner().invoke(app, ["experiment", *command])
        assert res.exit_code == 2, res.output
        line = res.output.strip()
        assert "no column" not in line, line
        assert f"{out}: all 4 trials failed" in line, line
        assert "the first failed with: ThrowError: the release point is 6.0 m behind the line" in line, line
        assert f"`kubb3d experiment export {out}`" in line and len(res.output.strip().splitlines()) == 1
    res = CliRunner().invoke(app, ["experiment", "summary", str(out)], env={"LANGUAGE": "de"})
    assert f"{out}: alle 4 Versuche sind fehlgeschlagen" in res.output, res.output

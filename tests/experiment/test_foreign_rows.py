"""Results files edited by hand or written by another program: summary, plot and export skip
rows that are not trial rows (one warning line) and refuse values of the wrong kind for a
measure (one error line, exit 2); never a traceback."""

from __future__ import annotations

import json
import sqlite3

import pytest
from experiment_helpers import write_tiny
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app
from kubb3d.experiment import load_spec, read_rows, run


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    d = tmp_path_factory.mktemp("foreign")
    out = d / "good.sqlite"
    run(load_spec(write_tiny(d, trials_per_point=2)), out, backend="serial", progress=False)
    return out


def _edit(src, dst, sql):
    dst.write_bytes(src.read_bytes())
    con = sqlite3.connect(dst)
    with con:
        for stmt in sql:
            con.execute(stmt)
    con.close()
    return dst


def _cli(*args):
    _register_subapps()
    res = CliRunner().invoke(app, ["experiment", *map(str, args)])
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise res.exception
    return res


@pytest.mark.parametrize(
    "row,why",
    [
        ("{broken", "not valid JSON"),
        ("[1,2,3]", "not a JSON object"),
        ("null", "not a JSON object"),
        ('{"trial": 5, "ok": true}', "'trial' field"),
    ],
)
def test_rows_that_are_not_trial_rows_are_skipped_with_one_warning(results, tmp_path, row, why):
    f = _edit(results, tmp_path / "bad.sqlite", [f"UPDATE trials SET row = '{row}' WHERE trial = 3"])
    n = len(read_rows(results))
    with pytest.warns(UserWarning, match=why):
        assert [r["trial"] for r in read_rows(f)] == [i for i in range(n) if i != 3]
    for args in (
        ["summary", f, "--json"],
        ["summary", f, "--measure", "felled"],
        ["plot", f, "--x", "speed", "--out", tmp_path / "p.png"],
        ["export", f, "--out", tmp_path / "e.csv"],
    ):
        res = _cli(*args)
        assert res.exit_code == 0, res.output
        warns = [ln for ln in res.stderr.splitlines() if ln.startswith("warning:")]
        assert len(warns) == 1 and "skipped 1 row" in warns[0] and why in warns[0], res.stderr
    doc = json.loads(_cli("summary", f, "--json").stdout)
    assert doc["trials"] == n - 1
    assert sum(1 for _ in open(tmp_path / "e.csv")) == n  # header + n - 1 rows


def test_a_value_of_the_wrong_kind_is_one_error_line(results, tmp_path):
    f = _edit(
        results,
        tmp_path / "bad.sqlite",
        ["UPDATE trials SET row = json_set(row, '$.n_felled', json('[1]')) WHERE trial = 2"],
    )
    for args in (
        ["summary", f, "--measure", "n_felled", "--by", "speed"],
        ["plot", f, "--x", "speed", "--measure", "n_felled", "--out", tmp_path / "p.png"],
    ):
        res = _cli(*args)
        assert res.exit_code == 2, res.output
        assert (
            res.stderr.strip().splitlines() == [res.stderr.strip()]
            and "trial 2" in res.stderr
            and "not a number" in res.stderr
        )
    assert not (tmp_path / "p.png").exists()
    # a text value among numbers makes a summary of each value's rate (the text-column rule)
    g = _edit(
        results,
        tmp_path / "text.sqlite",
        ["UPDATE trials SET row = json_set(row, '$.n_felled', 'many') WHERE trial = 2"],
    )
    doc = json.loads(_cli("summary", g, "--measure", "n_felled", "--json").stdout)
    assert [x["k"] for x in doc["groups"] if x["key"]["n_felled"] == "many"] == [1]


def test_tables_and_lists_in_group_columns_are_keys_not_crashes(results, tmp_path):
    f = _edit(
        results,
        tmp_path / "bad.sqlite",
        ["""UPDATE trials SET row = json_set(row, '$.speed', json('{"a": 1}')) WHERE trial = 1"""],
    )
    doc = json.loads(_cli("summary", f, "--by", "speed", "--json").stdout)
    keys = [g["key"]["speed"] for g in doc["groups"]]
    assert '{"a":1}' in keys and len(keys) == 3
    assert sum(g["n"] for g in doc["groups"]) == len(read_rows(results))


def test_a_list_measure_gives_the_rate_of_each_item(results):
    rows = read_rows(results)
    doc = json.loads(_cli("summary", results, "--measure", "felled", "--json").stdout)
    ids = sorted({i for r in rows for i in r["felled"]})
    assert [g["key"]["felled"] for g in doc["groups"]] == ids
    for g in doc["groups"]:
        assert g["k"] == sum(1 for r in rows if g["key"]["felled"] in r["felled"]) and g["n"] == len(rows)

"""The ``results`` view of a results file: plain SQL column names, typed values, kept up to
date when a run is resumed."""

import sqlite3

from kubb3d.experiment import read_rows


def test_results_can_be_queried_with_plain_column_names(cli, tmp_path):
    out = tmp_path / "hits.sqlite"
    r = cli("experiment", "run", "hit-8m", "-o", str(out), "--max-trials", "4", "--backend", "serial", "-q")
    assert r.returncode == 0, r.stderr
    db = sqlite3.connect(out)
    cols = [c[1] for c in db.execute("PRAGMA table_info(results)")]
    assert cols[:3] == ["trial", "ok", "error"] and cols[-1] == "wall_s"
    assert {"speed", "elevation_deg", "hit", "n_felled", "felled", "first_contact"} <= set(cols)
    rows = read_rows(out)
    got = db.execute(
        "SELECT trial, speed, hit, n_felled, felled, typeof(speed), typeof(hit) FROM results ORDER BY trial"
    ).fetchall()
    assert [g[0] for g in got] == [r["trial"] for r in rows]
    for g, row in zip(got, rows):
        assert g[1] == row["speed"] and g[2] == int(row["hit"]) and g[3] == row["n_felled"]
        assert g[5] == "real" and g[6] == "integer"
        assert g[4].startswith("[")  # a list stays JSON text
    db.close()
    # resuming adds the new trials to the view
    r = cli("experiment", "run", "hit-8m", "-o", str(out), "--max-trials", "3", "--backend", "serial", "-q")
    assert r.returncode == 0, r.stderr
    db = sqlite3.connect(out)
    assert db.execute("SELECT COUNT(*), SUM(ok) FROM results").fetchone() == (7, 7)
    mean = db.execute("SELECT AVG(hit) FROM results").fetchone()[0]
    assert mean == sum(r["hit"] for r in read_rows(out)) / 7
    db.close()

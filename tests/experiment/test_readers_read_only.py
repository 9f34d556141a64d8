"""Results files are only read when read: summary, plot and export leave nothing beside the
file; a run never changes another program's SQLite file before refusing it."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest
from experiment_helpers import strip_wall
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app
from kubb3d.experiment import read_rows
from kubb3d.experiment.store import ResultStore


def _files(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.fixture
def at_rest(tmp_path, tiny_reference) -> Path:
    _spec, _rows, out = tiny_reference
    copy = tmp_path / "r.sqlite"
    shutil.copy(out, copy)
    assert copy.read_bytes()[18:20] == b"\x02\x02"  # WAL mode in the header, as a run leaves it
    return copy


@pytest.mark.parametrize(
    "line,made",
    [
        ("experiment summary {r}", None),
        ("experiment summary {r} --json", None),
        ("experiment export {r} --out {d}/o.csv", "o.csv"),
        ("experiment plot {r} --x speed --out {d}/o.png", "o.png"),
    ],
)
def test_readers_leave_nothing_beside_the_results(line, made, at_rest):
    _register_subapps()
    before = _files(at_rest.parent)
    argv = line.replace("{r}", str(at_rest)).replace("{d}", str(at_rest.parent)).split()
    res = CliRunner().invoke(app, argv)
    assert res.exit_code == 0, res.output
    after = _files(at_rest.parent)
    if made is not None:
        assert after.pop(made)
    assert after == before  # no -wal, no -shm, the results byte for byte


def test_a_reader_sees_the_rows_of_a_run_in_progress(tmp_path, tiny_reference):
    _spec, rows, out = tiny_reference
    store = ResultStore(tmp_path / "live.sqlite", "0" * 64, "{}")  # a run holding its lock
    try:
        store.add([({"trial": i, "ok": True, "error": None, "x": i}, 0.0) for i in range(3)])
        assert [r["x"] for r in read_rows(tmp_path / "live.sqlite")] == [0, 1, 2]  # from the WAL
    finally:
        store.close()
    assert strip_wall(read_rows(out)) == rows


def test_a_run_never_switches_a_foreign_file_to_wal(tmp_path, tiny_reference):
    spec, _rows, _out = tiny_reference
    foreign = tmp_path / "other.db"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE notes(text)")
    db.execute("INSERT INTO notes VALUES ('mine')")
    db.commit()
    db.close()
    before = foreign.read_bytes()
    _register_subapps()
    res = CliRunner().invoke(app, ["experiment", "run", str(spec), "--out", str(foreign), "--backend", "serial"])
    assert res.exit_code == 2 and "not a kubb3d results file" in res.stderr
    assert foreign.read_bytes() == before  # journal mode byte (WAL = 2) and all
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]


def test_a_results_file_interrupted_while_made_can_be_run_again(tmp_path, monkeypatch):
    """An interrupt between the tables and the meta rows left tables without meta: the same
    command then refused the file ("results layout None") instead of resuming it."""
    from kubb3d.experiment import store as store_mod

    class Interrupted(sqlite3.Connection):
        def executemany(self, *args, **kwargs):
            raise KeyboardInterrupt

    real = sqlite3.connect
    monkeypatch.setattr(store_mod.sqlite3, "connect", lambda *a, **k: real(*a, factory=Interrupted, **k))
    path = tmp_path / "r.sqlite"
    with pytest.raises(KeyboardInterrupt):
        ResultStore(path, "0" * 64, "{}")
    monkeypatch.setattr(store_mod.sqlite3, "connect", real)
    with ResultStore(path, "0" * 64, "{}") as again:
        assert again.meta()["spec_sha256"] == "0" * 64

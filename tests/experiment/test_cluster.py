"""Experiments on a Dask cluster (docs/cluster.md): the versions that made the rows are recorded
and checked, a failure of the cluster is never stored as a failed trial, a refused start writes
nothing, and the run reports the cluster's workers and threads."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from experiment_helpers import strip_wall

from kubb3d.experiment import ClusterFailed, ClusterRefused, StoreError, load_spec, read_rows, run
from kubb3d.experiment import versions as versions_module
from kubb3d.experiment.versions import FIELDS, code_digest, differences, versions

ROOT = Path(__file__).resolve().parents[2]


def _stored_versions(path: Path) -> tuple[dict | None, list]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        meta = dict(con.execute("SELECT key, value FROM meta"))
    finally:
        con.close()
    stored = json.loads(meta["versions"]) if "versions" in meta else None
    return stored, json.loads(meta.get("mixed_versions") or "[]")


def _fake(monkeypatch, **changes: str) -> dict:
    fake = {**versions(), **changes}
    monkeypatch.setattr(versions_module, "versions", lambda: dict(fake))
    return fake


def test_versions_name_the_installed_releases_and_the_code():
    from importlib.metadata import version
    import platform

    found = versions()
    assert tuple(found) == FIELDS
    assert (found["kubb3d"], found["pybullet"], found["numpy"], found["python"]) == (
        version("kubb3d"), version("pybullet"), version("numpy"), platform.python_version()
    )
    assert len(found["kubb3d_code"]) == 12 and int(found["kubb3d_code"], 16) >= 0
    assert differences(found, found) == ""
    assert differences({**found, "numpy": "1.0"}, found) == f"numpy 1.0 (ours {found['numpy']})"


def test_the_code_digest_changes_with_one_byte_of_kubb3d(tmp_path, monkeypatch):
    """Two copies of the package that differ by one byte of one module have other digests."""
    import shutil

    import kubb3d

    copy = tmp_path / "kubb3d"
    shutil.copytree(Path(kubb3d.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    script = "from kubb3d.experiment.versions import code_digest; print(code_digest())"
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}

    def digest() -> str:
        return subprocess.run([sys.executable, "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True,
                              check=True).stdout.strip()

    first = digest()
    assert first == code_digest()  # the same files as this install's (the models found the same way)
    rules = copy / "rules" / "__init__.py"
    rules.write_text(rules.read_text() + "\n#\n")
    assert digest() != first


def test_the_results_file_records_the_versions_and_refuses_rows_of_others(tiny_reference, tmp_path, monkeypatch):
    spec, reference, _ = tiny_reference
    loaded = load_spec(spec)
    out = tmp_path / "mixed.sqlite"
    run(loaded, out, backend="serial", max_trials=4, progress=False)
    assert _stored_versions(out) == (versions(), [])
    before = out.read_bytes()
    _fake(monkeypatch, pybullet="0.0.1")
    with pytest.raises(StoreError, match=r"holds 4 rows made by kubb3d .*PyBullet " + versions()["pybullet"]
                       + r".*this run has .*PyBullet 0\.0\.1.*--mix-versions"):
        run(loaded, out, backend="serial", max_trials=4, progress=False)
    assert out.read_bytes() == before  # refused before anything was written
    report = run(loaded, out, backend="serial", max_trials=4, progress=False, mix_versions=True)
    assert report.ran == 4 and report.versions["pybullet"] == "0.0.1"
    stored, mixed = _stored_versions(out)
    assert stored["pybullet"] != "0.0.1"  # the first rows' versions stay the file's
    assert [(m["versions"]["pybullet"], m["stored_before"]) for m in mixed] == [("0.0.1", 4)]
    assert strip_wall(read_rows(out)) == reference[:8]


def test_a_file_of_unrecorded_versions_is_refused_unless_mixed(tiny_reference, tmp_path):
    spec, _, _ = tiny_reference
    loaded = load_spec(spec)
    out = tmp_path / "old.sqlite"
    run(loaded, out, backend="serial", max_trials=2, progress=False)
    con = sqlite3.connect(out)
    with con:
        con.execute("DELETE FROM meta WHERE key = 'versions'")  # as files written before versions were recorded
    con.close()
    with pytest.raises(StoreError, match="made by versions it does not record"):
        run(loaded, out, backend="serial", max_trials=2, progress=False)
    assert run(loaded, out, backend="serial", max_trials=2, progress=False, mix_versions=True).ran == 2


def test_a_task_on_a_worker_of_other_versions_raises_before_any_trial(tiny_reference, monkeypatch):
    """A worker that joins after the run's check: its first task refuses (the trials never run)."""
    from kubb3d.experiment import runner
    from kubb3d.experiment.dask_task import VersionMismatch, run_trials

    spec, reference, _ = tiny_reference
    ran: list = []
    monkeypatch.setattr(runner, "_work_batch", lambda spec_json, indices: ran.append(indices))
    ours = versions()
    _fake(monkeypatch, kubb3d="9.9.9")
    mismatch = rf"^the Dask worker this process has kubb3d 9\.9\.9 \(ours {ours['kubb3d']}\)$"
    with pytest.raises(VersionMismatch, match=mismatch):
        run_trials(load_spec(spec).to_json(), [0, 1], ours)
    assert ran == []
    run_trials(load_spec(spec).to_json(), [0, 1], None)  # without expected versions (unchecked)
    assert ran == [[0, 1]]


FAILING_PRELOAD = """
from kubb3d.experiment.dask_worker import dask_setup  # the real preload's set-up
import kubb3d.experiment.dask_task as task

# Dask executes a preload file twice in a worker: keep the first, real function
_real = task.__dict__.setdefault("_real_run_trials", task.run_trials)


def run_trials(spec_json, indices, expected=None):
    if max(indices) >= {first_bad}:
        raise ImportError("No module named 'pybullet' (the worker's environment, faked)")
    return _real(spec_json, indices, expected)


task.run_trials = run_trials
"""
"""A Dask worker preload whose tasks fail like a worker without PyBullet from trial ``first_bad`` on."""


def test_a_failure_of_the_cluster_is_not_stored_and_the_trials_run_on_resume(tiny_reference, tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from kubb3d.experiment import runner

    spec, reference, _ = tiny_reference
    loaded = load_spec(spec)
    environ = dict(os.environ)
    preload = tmp_path / "failing_preload.py"
    preload.write_text(FAILING_PRELOAD.replace("{first_bad}", "6"))
    monkeypatch.setattr(runner, "DASK_PRELOAD", str(preload))
    out = tmp_path / "broken.sqlite"
    with pytest.raises(ClusterFailed, match=r"^the Dask cluster failed \(not trials? [\d-]+\): ImportError: No module"):
        run(loaded, out, backend="dask", workers=2, progress=False)
    rows = strip_wall(read_rows(out))
    assert rows and all(r["ok"] for r in rows)
    # the command: one line, exit 1, how to go on
    import typer
    from typer.testing import CliRunner

    from kubb3d.cli import experiment as experiment_cli

    app = typer.Typer()
    app.callback()(lambda: None)
    experiment_cli.register(app)

    cli_out = tmp_path / "broken-cli.sqlite"
    args = ["experiment", "run", str(spec), "--out", str(cli_out), "--backend", "dask", "--workers", "2", "-q"]
    got = CliRunner().invoke(app, args)
    assert got.exit_code == 1, got.output
    errors = [line for line in got.stderr.splitlines() if "error" in line.lower() or "Traceback" in line]
    assert len(errors) == 1 and re.fullmatch(
        r"error: the Dask cluster failed \(not trials? [\d-]+\): ImportError: No module named 'pybullet' \(the "
        r"worker's environment, faked\); \d of 16 trials stored in .*broken-cli\.sqlite, the rest are left: run the "
        r"same command to resume",
        errors[0],
    ), got.stderr
    assert all(r["ok"] and r["trial"] < 6 for r in read_rows(cli_out))
    assert rows and all(r["ok"] for r in rows)  # no failed row for the cluster's failure
    assert {r["trial"] for r in rows} <= set(range(6))
    assert rows == [reference[r["trial"]] for r in rows]
    monkeypatch.undo()
    report = run(loaded, out, backend="dask", workers=2, progress=False)
    assert report.skipped == len(rows) and report.failed == 0
    assert (report.workers, report.threads) == (2, 2)
    assert strip_wall(read_rows(out)) == reference
    # the LocalCluster's nannies set OMP_NUM_THREADS=1 (and more) in this process: put back
    assert dict(os.environ) == environ


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _cli(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from kubb3d.cli import main; main()", "experiment", "run", *args],
        cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True, timeout=120,
    )


def test_an_unreachable_scheduler_is_one_line_exit_2_and_no_file(tiny_reference, tmp_path):
    pytest.importorskip("distributed")
    spec, _, _ = tiny_reference
    out = tmp_path / "none.sqlite"
    address = f"tcp://127.0.0.1:{_closed_port()}"
    got = _cli(str(spec), "--out", str(out), "--backend", "dask", "--scheduler", address, cwd=tmp_path,
               env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"})
    assert got.returncode == 2, got.stderr
    errors = [line for line in got.stderr.splitlines() if line.startswith("error")]
    assert errors == [f"error: cannot reach the Dask scheduler '{address}': OSError: Timed out trying to connect to "
                      f"{address} after 1 s"], got.stderr
    assert not out.exists()


def test_workers_and_min_workers_are_refused_where_they_do_not_apply(tiny_reference, tmp_path):
    spec, _, _ = tiny_reference
    got = _cli(str(spec), "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1", "--workers", "2", cwd=tmp_path)
    assert got.returncode == 2 and "--workers does not apply with --scheduler" in got.stderr
    got = _cli(str(spec), "--backend", "dask", "--min-workers", "2", cwd=tmp_path)
    assert got.returncode == 2 and "--min-workers applies only with --scheduler" in got.stderr
    assert list(tmp_path.iterdir()) == []


BLOCK_KUBB3D = "import sys\nsys.modules['kubb3d'] = None  # as a scheduler without kubb3d installed\n"


def _start(args: list[str], cwd: Path, started: list[subprocess.Popen]) -> subprocess.Popen:
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "dask"), *args], cwd=cwd, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True,
    )
    started.append(proc)
    return proc


def _scheduler(cwd: Path, started: list[subprocess.Popen], *preload: str) -> tuple[subprocess.Popen, str]:
    """A ``dask scheduler`` on a free loopback port (with ``--preload`` files); (process, address)
    once it listens."""
    port = _closed_port()
    args = ["scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"]
    proc = _start(args + [a for path in preload for a in ("--preload", path)], cwd, started)
    deadline = time.monotonic() + 60
    while True:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return proc, f"tcp://127.0.0.1:{port}"
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.2)


def _stop(started: list[subprocess.Popen]) -> None:
    for proc in started:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_a_scheduler_without_kubb3d_is_refused_before_any_trial(tiny_reference, tmp_path):
    pytest.importorskip("distributed")
    from kubb3d.experiment.runner import DaskCluster

    (tmp_path / "block.py").write_text(BLOCK_KUBB3D)
    started: list[subprocess.Popen] = []
    try:
        _, address = _scheduler(tmp_path, started, str(tmp_path / "block.py"))
        spec, _, _ = tiny_reference
        out = tmp_path / "none.sqlite"
        with pytest.raises(ClusterRefused, match=r"^the Dask scheduler tcp://127\.0\.0\.1:\d+ cannot run kubb3d "
                           r"\(ModuleNotFoundError: .*install the same kubb3d there"):
            run(load_spec(spec), out, backend="dask", scheduler=address, progress=False)
        assert not out.exists()
        with pytest.raises(ClusterRefused):
            DaskCluster(address, 1)
    finally:
        _stop(started)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_a_lost_scheduler_stops_the_run_with_exit_1_and_stores_no_failed_trial(tmp_path):
    """kill -9 of the scheduler mid-run: exit 1 in one line, only finished trials stored (as on
    the serial backend), none as failed."""
    pytest.importorskip("distributed")
    from experiment_helpers import write_tiny
    from process_helpers import stored_trials

    spec = write_tiny(tmp_path, trials_per_point=50, name="long.toml")  # 200 trials
    started: list[subprocess.Popen] = []
    try:
        scheduler, address = _scheduler(tmp_path, started)
        _start(["worker", address, "--host", "127.0.0.1", "--no-dashboard", "--nworkers", "1", "--nthreads", "1",
                "--local-directory", str(tmp_path / "scratch")], tmp_path, started)
        out = tmp_path / "lost.sqlite"
        cmd = [sys.executable, "-c", "from kubb3d.cli import main; main()", "experiment", "run", str(spec), "--out",
               str(out), "--backend", "dask", "--scheduler", address, "-q"]
        run_proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    env={**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "60s"})
        deadline = time.monotonic() + 120
        while stored_trials(out) < 3:
            assert run_proc.poll() is None and time.monotonic() < deadline, run_proc.stderr.read()
            time.sleep(0.05)
        scheduler.kill()
        _, err = run_proc.communicate(timeout=120)
        assert run_proc.returncode == 1, err
        errors = [line for line in err.splitlines() if line.startswith("error") or "Traceback" in line]
        assert len(errors) == 1 and errors[0].startswith("error: the Dask cluster failed"), err
        assert "run the same command to resume" in errors[0]
        rows = read_rows(out)
        assert 3 <= len(rows) < 200 and all(r["ok"] for r in rows)
    finally:
        _stop(started)

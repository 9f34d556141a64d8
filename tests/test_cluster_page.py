"""docs/cluster.md followed literally on loopback: its step blocks run in order in bash (only the
ports changed to free ones), a scheduler and two workers, with and without TLS; the rows equal
the serial backend's, the versions are recorded, a worker with another kubb3d and a client
without the TLS certificate are refused with one line and nothing written, and stopping as the
page says leaves no process and no scratch folder."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from process_helpers import session_members_of

pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "cluster.md"

FAKE_VERSION_PRELOAD = """
import kubb3d.experiment.versions as reported

def versions():  # from the real, cached answer (Dask executes a preload file twice)
    return {**dict(reported._versions()), "kubb3d": "9.9.9"}

reported.versions = versions
"""
"""A Dask worker preload that makes the worker report another kubb3d release."""


def page_steps() -> dict[str, str]:
    """The page's step blocks by name (``<!-- step: NAME -->`` before a bash block)."""
    text = PAGE.read_text(encoding="utf-8")
    return dict(re.findall(r"<!-- step: ([\w-]+) -->\n```bash\n(.*?)```", text, re.S))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_page_has_the_steps_this_test_runs():
    steps = page_steps()
    assert set(steps) == {
        "settings", "scheduler", "workers", "run", "stop", "certificates", "tls-settings", "tls-scheduler",
        "tls-workers",
    }
    # the settings block exports what kubb3d gives as its Dask settings
    from kubb3d.experiment.runner import dask_environ

    assert dict(re.findall(r"(DASK_\S+)=(\S+)", steps["settings"])) == dask_environ()
    for name in ("scheduler", "workers", "tls-scheduler", "tls-workers"):  # never on every interface
        assert '--host "$HOST"' in steps[name] and "--dashboard-address 127.0.0.1:" in steps[name], name


def _bash(script: str, cwd: Path, env: dict, started: list[int], timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``script`` in bash in a session of its own, whose id goes to ``started`` (for the
    clean-up of what it left running)."""
    proc = subprocess.Popen(
        ["bash", "-e", "-c", script], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )
    started.append(proc.pid)
    out, err = proc.communicate(timeout=timeout)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("tls", [False, True], ids=["tcp", "tls"])
def test_the_cluster_page_runs_on_loopback(tmp_path, tls):
    from kubb3d.experiment import load_spec, read_rows, run
    from kubb3d.experiment.versions import versions
    from kubb3d.library import resolve_experiment

    if tls and shutil.which("openssl") is None:
        pytest.skip("the page's TLS example needs openssl (.ci/run installs it)")
    steps = page_steps()
    scheduler_port, dashboard_port = free_port(), free_port()

    def literal(name: str) -> str:
        text = steps[name].replace(":8786", f":{scheduler_port}").replace("--port 8786", f"--port {scheduler_port}")
        return text.replace(":8787", f":{dashboard_port}")

    start = ["settings", "certificates", "tls-settings", "tls-scheduler", "tls-workers"] if tls else [
        "settings", "scheduler", "workers"]
    # a shell as a user's: no Dask settings, none of the variables a Dask nanny sets for its worker
    # (OMP_NUM_THREADS=1 makes `nproc` say 1), in case a test of this process leaked them
    nanny_sets = {"OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MALLOC_TRIM_THRESHOLD_"}
    env = {k: v for k, v in os.environ.items() if not k.startswith("DASK_") and k not in nanny_sets}
    env.update(HOME=str(tmp_path), PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}")
    env["DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT"] = "60s"  # the workers' start on a loaded machine
    started: list[int] = []  # the sessions of the page's commands
    try:
        up = _bash("\n".join(literal(n) for n in start + ["run"]), tmp_path, env, started, timeout=180)
        assert up.returncode == 0, up.stderr[-2000:]
        report = json.loads((tmp_path / "run.json").read_text())
        assert (report["workers"], report["threads"], report["ran"], report["failed"]) == (2, 2, 24, 0)
        assert report["versions"] == versions()
        rows = read_rows(tmp_path / "hits.sqlite")
        serial = tmp_path / "serial.sqlite"
        run(load_spec(resolve_experiment(Path("hit-8m"))), serial, backend="serial", max_trials=24, progress=False)
        strip = [{k: v for k, v in r.items() if k != "wall_s"} for r in rows]
        assert strip == [{k: v for k, v in r.items() if k != "wall_s"} for r in read_rows(serial)]
        import sqlite3

        con = sqlite3.connect(f"file:{tmp_path / 'hits.sqlite'}?mode=ro", uri=True)
        assert json.loads(con.execute("SELECT value FROM meta WHERE key = 'versions'").fetchone()[0]) == versions()
        con.close()

        refused = tmp_path / "refused.sqlite"
        run_line = literal("run").replace("hits.sqlite", refused.name).replace(" --json > run.json", "")
        if tls:
            # a client without the cluster's certificate: refused before any trial
            script = literal("settings") + f"\nexport SCHEDULER=tls://127.0.0.1:{scheduler_port}\n" + run_line
            env_plain = {**env, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "5s"}
            got = _bash(script, tmp_path, env_plain, started)
            assert got.returncode == 2, got.stderr
            assert "cannot reach the Dask scheduler" in got.stderr
        else:
            # a third worker that reports another kubb3d release joins: refused, naming it
            (tmp_path / "fake_version.py").write_text(FAKE_VERSION_PRELOAD)
            fake = literal("workers").replace('--nworkers "$(nproc)"', "--nworkers 1").replace(
                "--preload kubb3d.experiment.dask_worker", f"--preload {tmp_path / 'fake_version.py'}"
            ).replace("workers.pid", "fake.pid").replace("workers.log", "fake.log")
            script = literal("settings") + fake + run_line.replace("--min-workers 2", "--min-workers 3")
            got = _bash(script, tmp_path, env, started)
            assert got.returncode == 2, got.stderr
            named = r"the Dask worker tcp://127\.0\.0\.1:\d+ has kubb3d 9\.9\.9 \(ours "
            assert re.search(named, got.stderr), got.stderr
            assert "Traceback" not in got.stderr
        lines = [line for line in got.stderr.splitlines() if line.startswith("error")]
        assert len(lines) == 1, got.stderr
        assert not refused.exists()
        if not tls:
            assert _bash(literal("settings") + 'kill "$(cat fake.pid)"', tmp_path, env, started).returncode == 0

        stop = _bash(literal("settings") + literal("stop"), tmp_path, env, started)
        assert stop.returncode == 0, stop.stderr
        deadline = time.monotonic() + 20
        while any(session_members_of(sid) for sid in started) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert [session_members_of(sid) for sid in started] == [[]] * len(started), "processes left after stop"
        assert not (tmp_path / "kubb3d-scratch").exists()
    finally:
        for sid in started:
            for pid in session_members_of(sid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

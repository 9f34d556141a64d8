"""Experiment throughput: trials per second with 1 and 2 local worker processes, and on Dask.

Runs the same slice of ``scenarios/experiments/hit-8m.toml`` (the first ``--trials`` trials,
full throws from release to rest on the standard set-up) with ``--workers`` 1 and 2 into fresh
results files, and reports wall time, trials/s, trials/s per worker and the speed-up (issue
#16: ≥ 1.8× from 1 to 2 workers). Pool start-up (spawning workers, importing kubb3d and
PyBullet) is included, as a user sees it; the per-trial worker time (``wall_s``) gives the
figure inside a worker, the time to the first stored row the start-up, and the parent's CPU
time what the parent took from the workers' cores.

``--dask`` also runs 2 workers on a Dask cluster whose scheduler and workers are separate
processes (``dask scheduler`` and ``dask worker --nworkers 2 --nthreads 1`` on the loopback
interface, started before the timed run, as a cluster stands before a researcher uses it; its
start-up is printed apart): once with bare workers, which import kubb3d and PyBullet in their
first task as the local pool's workers do, and once with workers that preload them
(``--preload kubb3d.throw --preload kubb3d.experiment.trial``, docs/speed.md); and on a
``LocalCluster`` started inside the run (start-up included). Issue #16 asks the cluster for
at least the local backend's throughput.

The rows of all runs are compared (they must be equal).

Usage::

    .venv/bin/python benchmarks/experiment_scaling.py [--trials 600] [--spec PATH] [--dask]

Other processes on the machine share its cores: run it on an idle machine for clean figures
(the load average is printed before and after).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kubb3d.experiment import load_spec, read_rows, run

ROOT = Path(__file__).resolve().parents[1]
PRELOAD = ("kubb3d.throw", "kubb3d.experiment.trial")
"""Modules a standing cluster's workers can import at start (docs/speed.md)."""


def measure(
    spec_path: Path,
    trials: int,
    workers: int,
    folder: Path,
    backend: str = "local",
    scheduler: str | None = None,
    label: str | None = None,
) -> dict:
    """Run ``trials`` trials with ``workers`` processes on ``backend`` into a new results file
    named by ``label`` (default: the backend); returns figures and rows."""
    loaded = load_spec(spec_path)
    label = label or backend
    out = folder / f"{label}-w{workers}.sqlite"
    if out.exists():
        raise ValueError(f"{out} exists: each run needs its own label")
    first: list[float] = []
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    report = run(
        loaded,
        out,
        workers=workers,
        max_trials=trials,
        progress=False,
        backend=backend,
        scheduler=scheduler,
        on_rows=lambda rows: first or first.append(time.perf_counter() - t0),
    )
    seconds = time.perf_counter() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    rows = read_rows(out)
    busy = sum(r["wall_s"] for r in rows)
    return {
        "backend": label,
        "workers": workers,
        "trials": report.ran,
        "failed": report.failed,
        "seconds": seconds,
        "rate": report.ran / seconds,
        "rate_per_worker": report.ran / seconds / workers,
        "worker_rate": report.ran / busy if busy else 0.0,
        "first_row_s": first[0] if first else seconds,
        "parent_cpu_s": (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime),
        "rows": [{k: v for k, v in r.items() if k != "wall_s"} for r in rows],
    }


class Cluster:
    """A Dask scheduler and two single-threaded workers, each its own process, on 127.0.0.1."""

    def __init__(self, folder: Path, workers: int = 2, preload: tuple[str, ...] = ()) -> None:
        self.folder, self.workers, self.preload, self.procs = folder, workers, preload, []

    def __enter__(self) -> "Cluster":
        from dask.distributed import Client

        t0 = time.perf_counter()
        info = self.folder / "scheduler.json"
        dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
        self.procs.append(
            subprocess.Popen(
                [*dask, "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file", str(info)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        while not info.exists():
            if time.perf_counter() - t0 > 60:
                raise SystemExit("the Dask scheduler did not start within 60 s")
            time.sleep(0.05)
        worker = [sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", str(info)]
        self.procs.append(
            subprocess.Popen(
                [
                    *worker,
                    "--nworkers",
                    str(self.workers),
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                    "--local-directory",
                    str(self.folder),
                    *(a for m in self.preload for a in ("--preload", m)),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        with Client(scheduler_file=str(info), timeout="60s") as client:
            client.wait_for_workers(self.workers, timeout=120)
            self.address = client.scheduler.address
        self.start_s = time.perf_counter() - t0
        return self

    def __exit__(self, *exc) -> None:
        for p in reversed(self.procs):
            p.terminate()
        for p in reversed(self.procs):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=600)
    ap.add_argument("--spec", type=Path, default=ROOT / "scenarios" / "experiments" / "hit-8m.toml")
    ap.add_argument(
        "--dask",
        action="store_true",
        help="also run 2 workers on a Dask cluster of separate processes and on a LocalCluster",
    )
    a = ap.parse_args()
    print(
        f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}; spec {a.spec.name}, {a.trials} trials per run"
    )
    with tempfile.TemporaryDirectory() as tmp:
        res = [measure(a.spec, a.trials, w, Path(tmp)) for w in (1, 2)]
        if a.dask:
            cluster_start = []
            for preload in ((), PRELOAD):
                with Cluster(Path(tmp), preload=preload) as cluster:
                    cluster_start.append(cluster.start_s)
                    label = "dask-cluster" + ("+preload" if preload else "")
                    res.append(measure(a.spec, a.trials, 2, Path(tmp), "dask", cluster.address, label))
            res.append(measure(a.spec, a.trials, 2, Path(tmp), "dask"))
    for m in res:
        print(
            f"{m['backend']} workers={m['workers']}: {m['trials']} trials ({m['failed']} failed) in {m['seconds']:.2f} "
            f"s = {m['rate']:.1f} trials/s, {m['rate_per_worker']:.1f} per worker (inside a worker: "
            f"{m['worker_rate']:.1f} trials/s; parent CPU {m['parent_cpu_s']:.2f} s; first row after "
            f"{m['first_row_s']:.2f} s)"
        )
    print(
        f"speed-up 1 -> 2 workers (pool start-up included): {res[1]['rate'] / res[0]['rate']:.2f}x (goal >= 1.8x); "
        f"rows equal in every run: {all(m['rows'] == res[0]['rows'] for m in res)}"
    )
    if a.dask:
        for m, start in zip(res[2:4], cluster_start):
            print(
                f"{m['backend']} (scheduler and 2 workers as separate processes, started in {start:.1f} s before the "
                f"run) / local at 2 workers: {m['rate'] / res[1]['rate']:.2f}x (goal >= 1.0x)"
            )
        print(f"dask LocalCluster (start-up included) / local at 2 workers: {res[4]['rate'] / res[1]['rate']:.2f}x")
    print(f"load average now {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()

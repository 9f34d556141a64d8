"""Experiment throughput: trials per second per worker with 1 and 2 local worker processes.

Runs the same slice of ``scenarios/experiments/hit-8m.toml`` (the first ``--trials`` trials,
full throws from release to rest on the standard set-up) with ``--workers`` 1 and 2 into fresh
results files, and reports wall time, trials/s, trials/s per worker and the speed-up. The
rows of the two runs are compared (they must be equal). Pool start-up (spawning workers,
importing kubb3d and PyBullet, ~1–2 s) is included, as a user sees it; the per-trial worker
time (``wall_s``) gives the figure without it.

Usage::

    .venv/bin/python benchmarks/experiment_scaling.py [--trials 300] [--spec PATH] [--dask]

Other processes on the machine share its cores: run it on an idle machine for clean figures.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from kubb3d.experiment import load_spec, read_rows, run

ROOT = Path(__file__).resolve().parents[1]


def measure(spec_path: Path, trials: int, workers: int, folder: Path, backend: str = "local") -> dict:
    """Run ``trials`` trials with ``workers`` processes on ``backend``; returns figures and rows."""
    loaded = load_spec(spec_path)
    out = folder / f"{backend}-w{workers}.sqlite"
    t0 = time.perf_counter()
    report = run(loaded, out, workers=workers, max_trials=trials, progress=False, backend=backend)
    seconds = time.perf_counter() - t0
    rows = read_rows(out)
    busy = sum(r["wall_s"] for r in rows)
    return {
        "backend": backend,
        "workers": workers,
        "trials": report.ran,
        "failed": report.failed,
        "seconds": seconds,
        "rate": report.ran / seconds,
        "rate_per_worker": report.ran / seconds / workers,
        "worker_rate": report.ran / busy if busy else 0.0,
        "rows": [{k: v for k, v in r.items() if k != "wall_s"} for r in rows],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=300)
    ap.add_argument("--spec", type=Path, default=ROOT / "scenarios" / "experiments" / "hit-8m.toml")
    ap.add_argument(
        "--dask",
        action="store_true",
        help="also run 2 workers on a Dask LocalCluster (separate scheduler and worker processes)",
    )
    a = ap.parse_args()
    print(
        f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}; spec {a.spec.name}, {a.trials} trials per run"
    )
    runs = [("local", 1), ("local", 2)] + ([("dask", 2)] if a.dask else [])
    with tempfile.TemporaryDirectory() as tmp:
        res = [measure(a.spec, a.trials, w, Path(tmp), backend) for backend, w in runs]
    for m in res:
        print(
            f"{m['backend']} workers={m['workers']}: {m['trials']} trials ({m['failed']} failed) in {m['seconds']:.1f} "
            "s = "
            f"{m['rate']:.2f} trials/s, {m['rate_per_worker']:.2f} trials/s per worker "
            f"(inside a worker: {m['worker_rate']:.2f} trials/s)"
        )
    print(
        f"speed-up 1 -> 2 workers: {res[1]['rate'] / res[0]['rate']:.2f}x; rows equal: "
        f"{all(m['rows'] == res[0]['rows'] for m in res)}"
    )
    if a.dask:
        print(f"dask / local at 2 workers: {res[2]['rate'] / res[1]['rate']:.2f}x")
    print(f"load average now {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()

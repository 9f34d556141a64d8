"""Experiment throughput: trials per second with 1 and 2 local worker processes, and on Dask.

Runs the same slice of ``scenarios/experiments/hit-8m.toml`` (the first ``--trials`` trials,
full throws from release to rest on the standard set-up) with ``--workers`` 1 and 2 into fresh
results files, and reports wall time, trials/s, trials/s per worker and the speed-up (issue
#16: ≥ 1.8× from 1 to 2 workers). Every run is its own fresh Python process, as a user's
``kubb3d experiment run`` is: pool start-up (starting the workers, or the fork server that
forks them, and importing kubb3d and PyBullet) is included, and no run inherits a warm fork
server or warm imports from the one before. ``--repeat N`` alternates the configurations N
times and prints every speed-up.

Besides the rates, which the machine's load changes, each run prints figures the load changes
little: the time to the first stored row (start-up), the parent's CPU seconds (what it took
from the workers' cores), the workers' CPU seconds (every process the run started: workers,
fork server; a standing Dask cluster's workers, and its scheduler apart) and the number of
tasks handed out. ``--start-methods forkserver,spawn`` compares the local backend's ways of
starting workers (default: the runner's own, ``runner.START_METHOD``).

``--dask`` also runs 2 workers on a Dask cluster whose scheduler and workers are separate
processes (``dask scheduler`` and ``dask worker --nworkers 2 --nthreads 1`` on the loopback
interface, started before the timed run, as a cluster stands before a researcher uses it; its
start-up is printed apart): once as Dask starts it by default (bare workers, which import kubb3d
and PyBullet in their first task), and once as docs/cluster.md tells a user to start it
(``runner.dask_environ()`` in the environment of both commands, workers with ``--preload
kubb3d.experiment.dask_worker``); and on a ``LocalCluster`` started inside the run (start-up
included). Issue #16 asks the cluster for at least the local backend's throughput. The run's
process imports Dask inside the timed run, as ``kubb3d experiment run --backend dask`` does.
For the cluster runs it also prints the CPU seconds of every process (read from outside with
psutil, so nothing is added to the cluster): scheduler, nannies, workers (and of those the thread
that ran the trials), and the run's own process.

**Deciding cluster against local** (issue #16): ``--configs local-2,dask-cluster+kubb3d --repeat N``
runs N alternated pairs (local first in odd pairs, the cluster first in even ones, so a load that
drifts during the session weighs on both alike) and prints, for each size, the mean of the N
paired ratios cluster / local (wall rate, and CPU per trial in every process) with its 95 % t
interval, and the decision: ahead (the interval above 1), behind (below 1) or not decided.

``--trials 600,3000,10000`` times each configuration at each size in turn (a gap that is fixed
per run shrinks with the size; docs/speed.md "Dask (sixth round)" defines what is timed), and
``--configs`` picks the configurations (``local-1``, ``local-2``, ``dask-cluster``,
``dask-cluster+kubb3d``, ``dask-localcluster``). For each size and standing cluster it prints
the CPU besides the trials per run of each process (client, scheduler, nannies, the workers'
other threads), their sum per task and per trial, with 95 % t intervals over the repeats.

The rows of all runs of the same size are compared (they must be equal).

Usage::

    .venv/bin/python benchmarks/experiment_scaling.py [--trials 600[,3000,...]] [--spec PATH] [--dask]
        [--configs local-2,dask-cluster+kubb3d] [--repeat N] [--start-methods forkserver,spawn] [--json]

Other processes on the machine share its cores: run it on an idle machine for clean figures
(the load average is printed before and after).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRELOAD = "kubb3d.experiment.dask_worker"
"""The preload module docs/cluster.md gives a standing cluster's workers."""


def _clusters() -> list[tuple[str, str, dict]]:
    from kubb3d.experiment.runner import dask_environ

    return [("dask-cluster", "", {}), ("dask-cluster+kubb3d", PRELOAD, dask_environ())]


CLUSTERS = _clusters()
"""(label, worker preload, environment) of the standing clusters: as Dask starts them by default,
and as docs/cluster.md tells a user to."""


def _cpu_s(usage: resource.struct_rusage) -> float:
    return usage.ru_utime + usage.ru_stime


def measure(config: dict) -> dict:
    """One run, in this (fresh) process: ``config`` has spec, trials, workers, backend,
    scheduler, out and start_method. Returns the figures (rows stay in ``out``)."""
    from kubb3d.experiment import load_spec, read_rows, run
    from kubb3d.experiment import runner

    if config.get("start_method"):
        runner.START_METHOD = config["start_method"]
    loaded = load_spec(Path(config["spec"]))
    first: list[float] = []
    cpu0 = _cpu_s(resource.getrusage(resource.RUSAGE_SELF))
    t0 = time.perf_counter()
    report = run(
        loaded,
        Path(config["out"]),
        workers=config["workers"],
        max_trials=config["trials"],
        progress=False,
        backend=config["backend"],
        scheduler=config.get("scheduler"),
        on_rows=lambda rows: first or first.append(time.perf_counter() - t0),
    )
    seconds = time.perf_counter() - t0
    parent_cpu = _cpu_s(resource.getrusage(resource.RUSAGE_SELF)) - cpu0
    # a standing cluster's processes are measured from outside (Cluster.cpu)
    workers_cpu = None if config.get("scheduler") else _reaped_children_cpu()
    rows = read_rows(Path(config["out"]))
    busy = sum(r["wall_s"] for r in rows)
    return {
        "trials": report.ran,
        "failed": report.failed,
        "tasks": report.tasks,
        "seconds": seconds,
        "rate": report.ran / seconds,
        "rate_per_worker": report.ran / seconds / config["workers"],
        "worker_rate": report.ran / busy if busy else 0.0,
        "first_row_s": first[0] if first else seconds,
        "parent_cpu_s": parent_cpu,
        "workers_cpu_s": workers_cpu,
    }


def _reaped_children_cpu() -> float:
    """CPU seconds of every process this one started, once they have all ended: the local
    pool's workers (spawn: its children; forkserver: the server's, counted when the server is
    stopped) and, for a LocalCluster, its nannies and workers. Uses multiprocessing's own
    (private) stop of its fork server and resource tracker, benchmark-only."""
    from multiprocessing import forkserver, resource_tracker

    for child in multiprocessing.active_children():
        child.join(30)
    time.sleep(0.2)  # the fork server reaps its workers when told they ended
    for helper in (getattr(forkserver, "_forkserver", None), getattr(resource_tracker, "_resource_tracker", None)):
        stop = getattr(helper, "_stop", None)
        if stop is not None:
            stop()
    return _cpu_s(resource.getrusage(resource.RUSAGE_CHILDREN))


def run_child(config: dict) -> dict:
    """:func:`measure` in a fresh Python process; returns its figures and the rows."""
    from kubb3d.experiment import read_rows

    out = subprocess.run(
        [sys.executable, __file__, "--child", json.dumps(config)], capture_output=True, text=True, cwd=ROOT
    )
    if out.returncode != 0:
        raise SystemExit(f"run {config['label']} failed:\n{out.stderr}")
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    rows = read_rows(Path(config["out"]))
    figures.update(label=config["label"], workers=config["workers"])
    figures["rows"] = [{k: v for k, v in r.items() if k != "wall_s"} for r in rows]
    return figures


class Cluster:
    """A Dask scheduler and single-threaded workers (under one ``dask worker`` process with a
    nanny each), each its own process, on 127.0.0.1; ``environ`` is added to both commands'
    environment, ``preload`` given to the workers."""

    def __init__(self, folder: Path, workers: int = 2, preload: str = "", environ: dict | None = None) -> None:
        self.folder, self.workers, self.preload, self.environ = folder, workers, preload, environ or {}
        self.procs: list[subprocess.Popen] = []

    def __enter__(self) -> "Cluster":
        from dask.distributed import Client

        t0 = time.perf_counter()
        info = self.folder / "scheduler.json"
        info.unlink(missing_ok=True)
        env = {**os.environ, **self.environ}
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env}
        dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
        address = ["--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file", str(info)]
        self.procs.append(subprocess.Popen([*dask, *address], **quiet))  # type: ignore[call-overload]
        while not info.exists():
            if time.perf_counter() - t0 > 60:
                raise SystemExit("the Dask scheduler did not start within 60 s")
            time.sleep(0.05)
        worker = [sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", str(info)]
        flags = ["--nworkers", str(self.workers), "--nthreads", "1", "--no-dashboard", "--local-directory"]
        preload = ["--preload", self.preload] if self.preload else []
        self.procs.append(subprocess.Popen([*worker, *flags, str(self.folder), *preload], **quiet))  # type: ignore[call-overload]
        with Client(scheduler_file=str(info), timeout="60s") as client:
            client.wait_for_workers(self.workers, timeout=120)
            self.address = client.scheduler.address
        self.start_s = time.perf_counter() - t0
        time.sleep(1.0)  # let the workers' start-up settle before the CPU is read
        return self

    def cpu(self) -> dict[int, tuple[str, float, dict[int, float]]]:
        """pid -> (role, CPU seconds, {thread id: CPU seconds}) of every process of the cluster:
        ``scheduler``, ``nannies`` (the ``dask worker`` process), ``worker``; read with psutil."""
        import psutil

        roles = {self.procs[0].pid: "scheduler", self.procs[1].pid: "nannies"}
        for child in psutil.Process(self.procs[1].pid).children(recursive=True):
            roles[child.pid] = "worker" if "resource_tracker" not in " ".join(child.cmdline()) else "nannies"
        out = {}
        for pid, role in roles.items():
            p = psutil.Process(pid)
            t = p.cpu_times()
            out[pid] = (role, t.user + t.system, {th.id: th.user_time + th.system_time for th in p.threads()})
        return out

    def __exit__(self, *exc) -> None:
        for p in reversed(self.procs):
            p.terminate()
        for p in reversed(self.procs):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def cpu_between(before: dict, after: dict) -> dict[str, float]:
    """CPU seconds per role between two :meth:`Cluster.cpu` readings; ``trial_threads``: of the
    workers', the thread of each that used the most (the one running the trials)."""
    out = {"scheduler": 0.0, "nannies": 0.0, "workers": 0.0, "trial_threads": 0.0}
    for pid, (role, cpu, threads) in after.items():
        _, cpu0, threads0 = before.get(pid, (role, 0.0, {}))
        out[role if role != "worker" else "workers"] += cpu - cpu0
        if role == "worker":
            out["trial_threads"] += max(v - threads0.get(tid, 0.0) for tid, v in threads.items())
    return out


def _line(m: dict) -> str:
    cluster = m.get("cluster_cpu_s")
    if cluster is None:
        cpu = f"workers {m['workers_cpu_s']:.2f} s"
    else:
        cpu = (
            f"scheduler {cluster['scheduler']:.2f} s, nannies {cluster['nannies']:.2f} s, workers "
            f"{cluster['workers']:.2f} s (trial threads {cluster['trial_threads']:.2f} s)"
        )
    return (
        f"{m['label']} workers={m['workers']}: {m['trials']} trials ({m['failed']} failed, {m['tasks']} tasks) in "
        f"{m['seconds']:.2f} s = {m['rate']:.1f} trials/s, {m['rate_per_worker']:.1f} per worker (inside a worker: "
        f"{m['worker_rate']:.1f} trials/s; first row after {m['first_row_s']:.2f} s; CPU: parent "
        f"{m['parent_cpu_s']:.2f} s, {cpu}; {1e3 * m['cpu_per_trial_s']:.2f} ms per trial in all)"
    )


CONFIGS = ("local-1", "local-2", "dask-cluster", "dask-cluster+kubb3d", "dask-localcluster")
"""The configurations a run of this script can time (``--configs``)."""


def cluster_costs(runs: list[dict]) -> dict[str, tuple[float, float]]:
    """CPU seconds besides the trials of a standing cluster's runs (same size): per run for each
    process (``client``: the run's process; ``scheduler``; ``nannies``; ``worker_others``: the
    workers' threads other than the trials'), their sum, and that sum per task and per trial
    (ms); each as (mean, half width of its 95 % t interval; NaN for one run)."""
    import math

    from kubb3d.experiment.stats import t95

    def ci(values: list[float]) -> tuple[float, float]:
        m = statistics.fmean(values)
        if len(values) < 2:
            return m, math.nan
        return m, t95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))

    parts = {
        "client": [m["parent_cpu_s"] for m in runs],
        "scheduler": [m["cluster_cpu_s"]["scheduler"] for m in runs],
        "nannies": [m["cluster_cpu_s"]["nannies"] for m in runs],
        "worker_others": [m["cluster_cpu_s"]["workers"] - m["cluster_cpu_s"]["trial_threads"] for m in runs],
    }
    total = [sum(p[i] for p in parts.values()) for i in range(len(runs))]
    out = {k: ci(v) for k, v in parts.items()}
    out["all"] = ci(total)
    out["all_per_task_ms"] = ci([1e3 * t / max(1, m["tasks"]) for t, m in zip(total, runs)])
    out["all_per_trial_ms"] = ci([1e3 * t / max(1, m["trials"]) for t, m in zip(total, runs)])
    return out


def paired_ratio(ratios: list[float]) -> dict:
    """Mean of paired ratios (cluster / local, one per alternated pair) with the half width of its
    95 % t interval (NaN for one pair) and the decision: ``ahead`` if the interval lies above 1,
    ``behind`` if below, else ``not decided``."""
    import math

    from kubb3d.experiment.stats import t95

    mean = statistics.fmean(ratios)
    half = math.nan if len(ratios) < 2 else t95(len(ratios) - 1) * statistics.stdev(ratios) / math.sqrt(len(ratios))
    if math.isnan(half) or mean - half <= 1.0 <= mean + half:
        decision = "not decided"
    else:
        decision = "ahead" if mean - half > 1.0 else "behind"
    return {"n": len(ratios), "mean": mean, "half_width": half, "decision": decision}


def enough_trials(path: Path, trials: int, folder: Path, say) -> Path:
    """``path``, or where the spec has fewer than ``trials`` trials (``hit-8m``: 1,050), a copy in
    ``folder`` with ``trials_per_point`` raised just enough. A trial depends only on the spec's seed,
    its grid and its index (``trial.child_seed``), so the copy's first trials are the original's."""
    from kubb3d.experiment import load_spec

    loaded = load_spec(path)
    n, points = loaded.n_trials, loaded.n_points
    if n >= trials:
        return path
    text = path.read_text(encoding="utf-8")
    per_point = -(-trials // points)
    new, count = re.subn(r"(?m)^trials_per_point\s*=\s*\d+", f"trials_per_point = {per_point}", text)
    if count != 1:
        raise SystemExit(f"--spec: {path} has {n} trials and no trials_per_point line to raise")
    copy = folder / path.name
    copy.write_text(new, encoding="utf-8")
    say(f"{path.name} has {n} trials: the runs use a copy with trials_per_point = {per_point} ({per_point * points})")
    return copy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", default="600", help="trials per run; several sizes comma-separated (600,3000,10000)")
    ap.add_argument("--spec", type=Path, default=ROOT / "scenarios" / "experiments" / "hit-8m.toml")
    ap.add_argument(
        "--dask",
        action="store_true",
        help="also run 2 workers on a Dask cluster of separate processes and on a LocalCluster",
    )
    ap.add_argument(
        "--configs",
        default="",
        help=f"the configurations to time, comma-separated, of {','.join(CONFIGS)} (default: local-1,local-2, "
        "and the three Dask ones with --dask)",
    )
    ap.add_argument("--repeat", type=int, default=1, help="alternate the configurations this many times")
    ap.add_argument(
        "--start-methods",
        default="",
        help="local start methods to compare, comma-separated (default: the runner's START_METHOD)",
    )
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        print(json.dumps(measure(json.loads(a.child))))
        return
    try:
        sizes = [int(t) for t in a.trials.split(",")]
    except ValueError:
        raise SystemExit(f"--trials: expected whole numbers, comma-separated, got {a.trials!r}") from None
    if min(sizes) < 1 or a.repeat < 1:
        raise SystemExit("--trials and --repeat must be at least 1")
    if not a.spec.is_file():
        raise SystemExit(f"--spec: no file {a.spec}")
    configs = [c for c in a.configs.split(",") if c] or ["local-1", "local-2", *(CONFIGS[2:] if a.dask else ())]
    if any(c not in CONFIGS for c in configs):
        raise SystemExit(f"--configs: expected some of {','.join(CONFIGS)}, got {a.configs!r}")
    from kubb3d.experiment import runner

    methods = [m for m in a.start_methods.split(",") if m] or [runner.START_METHOD]
    allowed = [m for m in multiprocessing.get_all_start_methods() if m != "fork"]
    if any(m not in allowed for m in methods):
        raise SystemExit(f"--start-methods: expected some of {','.join(allowed)}, got {a.start_methods!r}")
    load0 = os.getloadavg()[0]
    say = (lambda *x: None) if a.json else print
    say(f"{os.cpu_count()} cores; load average {load0:.1f}; spec {a.spec.name}, {a.trials} trials per run")
    res: list[dict] = []
    cluster_start: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        spec = enough_trials(a.spec, max(sizes), folder, say)

        def one(trials: int, label: str, workers: int, backend: str = "local", **extra) -> None:
            config = {
                "spec": str(spec),
                "trials": trials,
                "workers": workers,
                "backend": backend,
                "label": label,
                "out": str(folder / f"{label.replace('/', '-')}-w{workers}-{len(res)}.sqlite"),
            }
            cluster = extra.pop("cluster", None)
            config.update(extra)
            before = cluster.cpu() if cluster else None
            m = run_child(config)
            if cluster:
                m["cluster_cpu_s"] = cpu_between(before, cluster.cpu())
                spent = sum(v for k, v in m["cluster_cpu_s"].items() if k != "trial_threads")
            else:
                spent = m["workers_cpu_s"]
            m["cpu_per_trial_s"] = (spent + m["parent_cpu_s"]) / max(1, m["trials"])
            m["load_average"] = os.getloadavg()[0]
            m["size"] = trials
            res.append(m)
            say(_line(m))

        def standing(trials: int, label: str, preload: str, environ: dict) -> None:
            with Cluster(folder, preload=preload, environ=environ) as cluster:
                cluster_start[label] = cluster.start_s
                one(trials, label, 2, "dask", scheduler=cluster.address, cluster=cluster)

        for trials in sizes:
            for rep in range(a.repeat):
                steps: list[tuple] = []  # (function, arguments, keyword arguments)
                for method in methods:
                    for w in (1, 2):
                        if f"local-{w}" in configs:
                            steps.append((one, (trials, f"local/{method}", w), {"start_method": method}))
                for label, preload, environ in CLUSTERS:
                    if label in configs:
                        steps.append((standing, (trials, label, preload, environ), {}))
                if "dask-localcluster" in configs:
                    steps.append((one, (trials, "dask-localcluster", 2, "dask"), {}))
                # alternated pairs: local first in odd pairs, last in even ones
                for fn, args, kwargs in steps if rep % 2 == 0 else reversed(steps):
                    fn(*args, **kwargs)
    equal = all(m["rows"] == next(r for r in res if r["size"] == m["size"])["rows"] for m in res)
    summary: dict = {"load_average_before": load0, "rows_equal": equal, "runs": res, "sizes": {}}
    for trials in sizes:
        runs = [m for m in res if m["size"] == trials]
        figures: dict = {"speed_up": {}, "dask": {}, "cluster_cpu": {}}
        summary["sizes"][str(trials)] = figures
        say(f"-- {trials} trials per run")
        for method in methods:
            ones = [m for m in runs if m["label"] == f"local/{method}" and m["workers"] == 1]
            twos = [m for m in runs if m["label"] == f"local/{method}" and m["workers"] == 2]
            if not ones or not twos:
                continue
            ups = [t["rate"] / o["rate"] for o, t in zip(ones, twos)]
            figures["speed_up"][method] = ups
            say(
                f"speed-up 1 -> 2 workers, {method} (pool start-up included): "
                f"{', '.join(f'{u:.2f}x' for u in ups)} (goal >= 1.8x)"
                + (f"; median {statistics.median(ups):.2f}x" if len(ups) > 1 else "")
            )
        local2 = [m for m in runs if m["label"] == f"local/{methods[0]}" and m["workers"] == 2]
        for label in [c[0] for c in CLUSTERS] + ["dask-localcluster"]:
            mine = [m for m in runs if m["label"] == label]
            if not mine:
                continue
            if label in cluster_start:
                costs = figures["cluster_cpu"][label] = cluster_costs(mine)
                say(
                    f"{label}: CPU besides the trials per run (mean ± 95 %): "
                    + ", ".join(f"{k} {m:.3f} ± {h:.3f} s" for k, (m, h) in costs.items() if not k.endswith("_ms"))
                    + f"; per task {costs['all_per_task_ms'][0]:.1f} ± {costs['all_per_task_ms'][1]:.1f} ms, per trial "
                    f"{costs['all_per_trial_ms'][0]:.3f} ± {costs['all_per_trial_ms'][1]:.3f} ms"
                )
            if not local2:
                continue
            ratios = [m["rate"] / l2["rate"] for m, l2 in zip(mine, local2)]
            figures["dask"][label] = ratios
            what = (
                f"{label} (scheduler and 2 workers as separate processes, started in {cluster_start[label]:.1f} s "
                "before the run)"
                if label in cluster_start
                else "dask LocalCluster (start-up included)"
            )
            goal = " (goal >= 1.0x)" if label in cluster_start else ""
            say(f"{what} / local at 2 workers: {', '.join(f'{r:.2f}x' for r in ratios)}{goal}")
            cpu = [l2["cpu_per_trial_s"] / m["cpu_per_trial_s"] for m, l2 in zip(mine, local2)]
            paired = figures.setdefault("paired", {})[label] = {"rate": paired_ratio(ratios), "cpu": paired_ratio(cpu)}
            for key, words in (("rate", "trials/s, cluster / local"), ("cpu", "CPU per trial in all, local / cluster")):
                p = paired[key]
                say(
                    f"{label}: {words}, mean of {p['n']} alternated pairs {p['mean']:.3f}"
                    + (f" ± {p['half_width']:.3f} (95 %)" if p["n"] > 1 else "")
                    + f": {p['decision']}"
                )
    say(f"rows equal in every run of the same size: {equal}")
    summary["load_average_after"] = os.getloadavg()[0]
    say(f"load average now {summary['load_average_after']:.1f}")
    if a.json:
        for m in res:
            m.pop("rows")
        print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()

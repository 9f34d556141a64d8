"""Running an experiment: backends, progress, resume.

Backends (each runs :func:`kubb3d.experiment.trial.run_trial`; rows are the same whichever
runs them, since a trial depends only on the spec and its index):

==========  ======================================================================
``local``   a pool of worker processes on this machine, default all cores; started by
            a fork server that has imported kubb3d once (:data:`START_METHOD`; ``spawn``
            where there is none), never by ``fork``
``serial``  this process, one trial after another (debugging, notebooks)
``dask``    a Dask distributed cluster: ``scheduler`` address, or a LocalCluster of
            ``workers`` single-threaded worker processes when no address is given.
            Remote workers need kubb3d installed (and a ``layout = "scenario"`` spec's
            scenario file at the same absolute path), and so does the scheduler, which
            unpickles every task: each calls :func:`kubb3d.experiment.dask_task.run_trials`,
            whose module imports nothing (:data:`DASK_TASK`). Start them as docs/cluster.md
            says: :func:`dask_environ` in the environment of the scheduler and workers,
            and ``dask worker --preload kubb3d.experiment.dask_worker``, which imports
            kubb3d and connects a PyBullet client once at start instead of in the first task
            (docs/speed.md). The client, scheduler and every worker must have the same
            versions (:class:`DaskCluster` checks them before the first trial, each task
            again on its worker).
==========  ======================================================================

The parent process alone writes the results file (:class:`~kubb3d.experiment.store.ResultStore`),
committing rows as they arrive. Trials already in the file are skipped, so running the same
spec into the same file again resumes a stopped run. At most ``2 × workers`` tasks are in
flight at any time, each of about :data:`LOCAL_TASK_S` (local) or :data:`DASK_TASK_S` (Dask) of
work (Dask: and the short tasks of the run's tail, :func:`dask_may_submit`), one running on each
worker: that is all a killed run can lose.

A trial that raises is stored as failed by the trial itself. A worker process that dies
(segfault, out of memory, killed) breaks the local pool: the trials that were in flight, or
handed out after the death, are then run again one at a time in a pool of one worker (a new
one after each death), and the one that kills its worker again is stored as failed with the
reason ``worker process died``; then a fresh pool takes the rest. On Dask, a task that raises
is a failure of the cluster, never stored (:func:`_dask`): the run stops with
:class:`ClusterFailed` and those trials run on resume.
"""

from __future__ import annotations

import itertools
import math
import os
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_all_start_methods, get_context
from pathlib import Path
from typing import Callable, Iterable, Iterator

import numpy as np

from kubb3d.errors import ClusterRefused as ClusterRefused, SpecError, UnknownNameError
from kubb3d.experiment.dask_task import run_trials
from kubb3d.experiment.spec import LoadedSpec, from_json
from kubb3d.experiment.store import ResultStore, StoreError
from kubb3d.ranges import did_you_mean, listed
from kubb3d.ranges import counted

BACKENDS = ("local", "serial", "dask")


@dataclass(frozen=True)
class RunReport:
    """What a call to :func:`run` did.

    Attributes:
        path: the results file.
        total: trials in the spec.
        skipped: trials already in the file before this call.
        ran: trials finished and stored by this call.
        failed: of those, how many failed.
        seconds: wall time of this call, s.
        workers: worker processes used (Dask: the cluster's workers when the run began).
        backend: ``local``, ``serial`` or ``dask``.
        tasks: tasks handed to worker processes (several trials each, see :data:`LOCAL_TASK_S`
            and :data:`DASK_TASK_S`; serial: one per trial).
        threads: the trials that could run at once (Dask: the workers' threads; else
            ``workers``).
        versions: the versions that made the rows (:mod:`kubb3d.experiment.versions`).
    """

    path: Path
    total: int
    skipped: int
    ran: int
    failed: int
    seconds: float
    workers: int
    backend: str
    tasks: int = 0
    threads: int = 0
    versions: dict = field(default_factory=dict)

    @property
    def rate(self) -> float:
        """Trials per second of this call (0 if none ran)."""
        return self.ran / self.seconds if self.ran and self.seconds > 0 else 0.0


# ------------------------------------------------------------------ worker side
_WORKER_SPECS: dict[str, LoadedSpec] = {}


def _spec_for(spec_json: str) -> LoadedSpec:
    loaded = _WORKER_SPECS.get(spec_json)
    if loaded is None:
        _WORKER_SPECS.clear()
        loaded = _WORKER_SPECS[spec_json] = from_json(spec_json)
    return loaded


def _init_worker(spec_json: str) -> None:
    """A local worker ignores SIGINT (the run's process stops it: a Ctrl-C reaches every process
    of the terminal's group) and ends when the run's process is gone, killed with SIGKILL or
    SIGTERM (:func:`kubb3d.workers.quiet_worker`; a ``forkserver`` worker's parent is the fork
    server, so the test is multiprocessing's pipe from the run's process, not the parent pid:
    docs/speed.md "Fourth round")."""
    from kubb3d.workers import quiet_worker

    quiet_worker(_spec_for, spec_json)


def _work(spec_json: str, index: int) -> tuple[dict, float]:
    """Run one trial in a worker; returns (row, wall seconds)."""
    from kubb3d.experiment.trial import run_trial

    t0 = time.perf_counter()
    row = run_trial(_spec_for(spec_json), index)
    return row, time.perf_counter() - t0


def _work_batch(spec_json: str, indices: list[int]) -> list[tuple[dict, float]]:
    """Run several trials in one worker task; returns [(row, wall seconds)] in order. A process's
    first batch first tunes its allocator (:func:`prepare_worker`)."""
    prepare_worker()
    return [_work(spec_json, i) for i in indices]


def prepare_worker() -> None:
    """Tune this worker process's allocator (:func:`tune_malloc`), once per process: done by its
    first batch, or at start by the Dask worker preload :mod:`kubb3d.experiment.dask_worker`."""
    global _malloc_tuned
    if not _malloc_tuned:
        _malloc_tuned = True
        tune_malloc()


_malloc_tuned = False
"""Whether this process's allocator has been tuned (once per worker process)."""

MMAP_THRESHOLD = 32 * 1024 * 1024
"""bytes: allocations above this go to their own mapping (glibc's ceiling for its own moving
threshold on 64-bit systems)."""
TRIM_THRESHOLD = 2 * MMAP_THRESHOLD
"""bytes: free memory at the top of the heap kept before it is given back (twice the above, as
glibc keeps it when it moves the threshold itself)."""


def tune_malloc() -> bool:
    """Undo, in this process, a fixed small ``MALLOC_TRIM_THRESHOLD_`` from the environment.

    Dask's nanny starts every worker process with ``MALLOC_TRIM_THRESHOLD_=65536`` (its setting
    ``distributed.nanny.pre-spawn-environ``). With any such variable glibc also fixes the mmap
    threshold at 128 KiB, so each world a trial builds and frees maps and unmaps its memory
    again: 150 ``hit-8m`` trials took 364 000 page faults and 0.7 s of system time instead of
    21 000 and 0.1 s, and a Dask worker ran 25-35 % fewer trials per second than a local one
    (docs/speed.md "Third round"). This sets the two thresholds to :data:`MMAP_THRESHOLD` and
    :data:`TRIM_THRESHOLD` with ``mallopt`` (memory stays within a world's size; results do not
    depend on the allocator).

    Returns:
        True if the thresholds were set; False without the variable, or where the C library
        has no ``mallopt`` (not glibc).
    """
    if "MALLOC_TRIM_THRESHOLD_" not in os.environ:
        return False
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3  # glibc's malloc.h
    return bool(mallopt(m_mmap_threshold, MMAP_THRESHOLD)) and bool(mallopt(m_trim_threshold, TRIM_THRESHOLD))


LOCAL_TASK_S = 0.2
"""s: the worker time one local task aims at. One task per ~12 ms trial cost the parent a
round trip, an unpickling and a committed SQLite transaction each; a second worker on a 2-core
machine then shared its core with that (docs/speed.md "Third round"). Rows do not depend on
the batching (a trial depends only on the spec and its index)."""

LOCAL_MAX_BATCH = 32
"""Most trials in one local task."""

DASK_TASK_S = 2.0
"""s: the worker time one Dask task aims at. A Dask task costs about 8 ms of CPU between the
scheduler, the worker and the client (measured: docs/speed.md "Fourth round" and "Dask (fifth
round)"), taken from the cores the trials run on; at 2 s of trials that is under 0.5 % (1 s until
the seventh round, when the tail moved to the scheduler: :func:`dask_may_submit`), and a killed
run loses at most the task running on each worker. Rows do not depend on the batching."""

DASK_MAX_BATCH = 256
"""Most trials in one Dask task."""

DASK_CONFIG: dict[str, object] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
}
"""Dask settings for the scheduler, nannies and workers that run kubb3d trials: no statistical
profiler, and the event-loop health tick (20 ms by default), the system monitor (500 ms) and the
memory monitor (100 ms) slowed down. All four only feed Dask's diagnostics (and the memory
limits, checked each second instead of ten times a second, far above a trial's 0.1 GB). With
Dask's defaults an idle cluster of a scheduler and 2 workers took 90 ms of CPU per second and
each busy worker woke its event loop (and so took the GIL from the trial) ~165 times a second:
0.8-0.9 ms of every 13 ms trial; with these, 11 ms/s and 0.1 ms (docs/speed.md "Dask (fifth
round)"). The backend sets them for the LocalCluster it starts; a standing cluster gets them
from the environment of ``dask scheduler`` and ``dask worker`` (:func:`dask_environ`,
docs/cluster.md)."""


DASK_TASK = run_trials
"""The function every Dask task calls (:func:`kubb3d.experiment.dask_task.run_trials`): the
scheduler unpickles it, which imports only :mod:`kubb3d.experiment.dask_task`, not this module."""

DASK_PRELOAD = "kubb3d.experiment.dask_worker"
"""The Dask worker preload module (imports the worker modules and tunes the allocator at start);
the LocalCluster's workers get it, a standing cluster's are started with ``--preload`` it."""


def dask_environ() -> dict[str, str]:
    """:data:`DASK_CONFIG` as the environment variables Dask reads at start (``DASK_`` and the
    key's parts in capitals joined by ``__``, hyphens as underscores), for a standing cluster."""
    return {
        "DASK_" + "__".join(part.upper().replace("-", "_") for part in key.split(".")): str(value)
        for key, value in DASK_CONFIG.items()
    }


def _batch_size(trial_s: float | None, remaining: int, slots: int, task_s: float, most: int, per_slot: int) -> int:
    """About ``task_s`` of trials of ``trial_s`` each (1 while no estimate), at most ``most``,
    few enough that ``per_slot`` tasks per worker slot remain of the ``remaining`` trials still
    to hand out (the last tasks are single trials, so the workers finish together); at least 1."""
    if trial_s is None:
        return 1
    by_time = int(task_s / max(trial_s, 1e-6))
    return max(1, min(most, by_time, remaining // (per_slot * max(1, slots))))


def local_batch_size(trial_s: float | None, remaining: int, workers: int) -> int:
    """Trials in the next local task: about :data:`LOCAL_TASK_S` of work at the estimated trial
    time (:class:`TrialTime`; 1 until a task has finished), at most :data:`LOCAL_MAX_BATCH`, and
    few enough that at least 4 tasks per worker remain; at least 1."""
    return _batch_size(trial_s, remaining, workers, LOCAL_TASK_S, LOCAL_MAX_BATCH, 4)


def dask_batch_size(trial_s: float | None, remaining: int, slots: int) -> int:
    """Trials in the next Dask task: about :data:`DASK_TASK_S` of work at the estimated trial
    time (1 until a task has finished), at most :data:`DASK_MAX_BATCH`, and few enough that at
    least 1 task per worker slot remains (a Dask task costs more than a local one, so the tail
    halves instead of shrinking by a quarter: 600 trials of 12.5 ms on 2 slots take 14 tasks
    instead of 30 at 0.5 s and 2 per slot, and a simulation of both finishes as soon: docs/speed.md
    "Dask (fifth round)"); at least 1."""
    return _batch_size(trial_s, remaining, slots, DASK_TASK_S, DASK_MAX_BATCH, 1)


def dask_may_submit(trial_s: float | None, remaining: int, in_flight: int, slots: int) -> bool:
    """Whether the next Dask task goes out now, with ``remaining`` trials still to hand out and
    ``in_flight`` tasks submitted and not yet collected: while fewer than 2 per worker slot are in
    flight (one running and one waiting on each worker); and, once the trials left are at most one
    :data:`DASK_TASK_S` task per slot at the estimated trial time ``trial_s``, all of them, as the
    halving tail of :func:`dask_batch_size` (10 tasks for 276 trials of 12.5 ms on 2 slots). The
    scheduler then holds the tail and gives each task, in the order submitted, to the first worker
    that frees, instead of waiting for a result to reach this process and a new task to come back:
    the tail's tasks are a few trials of ~12 ms, shorter than that round trip, and one worker
    could run out of work while the other still had a task queued (docs/speed.md "Dask (seventh
    round)"). A killed run still loses at most the one task running on each worker."""
    if remaining <= 0:
        return False
    if in_flight < 2 * slots:
        return True
    return trial_s is not None and remaining * trial_s <= slots * DASK_TASK_S


class TrialTime:
    """The time per trial that batches are sized from: the smallest mean wall time of the
    successful trials of any finished task, s (None until one has finished). Imports in a
    worker's first task, or other processes on its core, only lengthen a task, so the smallest
    mean is the closest to the trials' own work; a running mean took a bare Dask worker's
    0.3 s of imports into its first estimates and kept its first dozen tasks at 1-7 trials."""

    def __init__(self) -> None:
        self.s: float | None = None

    def add(self, rows: list[tuple[dict, float]]) -> None:
        """Take the (row, wall seconds) pairs of one finished task."""
        walls = [w for r, w in rows if r.get("ok")]
        if walls:
            mean = sum(walls) / len(walls)
            self.s = mean if self.s is None else min(self.s, mean)


MAX_TRIALS_PER_RUN = 10_000_000
"""The most trials one call of :func:`run` takes (about five days at the 24 trials/s of the local
backend in docs/speed.md); a larger spec runs in parts with ``max_trials``. It also bounds the
memory of the list of pending trials (80 MB)."""


GOLDEN = (math.sqrt(5) - 1) / 2
"""The stride of :func:`spread_order` as a share of the grid (a Weyl sequence's step)."""


def spread_order(loaded: LoadedSpec) -> Iterator[int]:
    """Every trial index once, in the order a run with ``--max-trials`` takes them: repetition
    by repetition as in index order (so every grid point runs ``k`` times before any runs
    ``k + 1`` times), but within a repetition the grid points in a stride through the grid
    (grid point ``(offset + j · stride) mod P``; ``stride`` ≈ 0.618 P, coprime with P;
    ``offset`` from the spec's seed). So the first N < P trials are spread over every factor's
    range rather than taking the first N points of the grid, the same N for the same spec,
    and parts run one after another cover every trial once. Lazy: a grid of 10^12 points
    enumerates only what it runs."""
    n = loaded.n_points
    stride = max(1, round(n * GOLDEN))
    while math.gcd(stride, n) != 1:
        stride += 1
    offset = int(np.random.SeedSequence(loaded.spec.seed).generate_state(2, dtype=np.uint64)[0]) % n
    for rep in range(loaded.spec.trials_per_point):
        base = rep * n
        for j in range(n):
            yield base + (offset + j * stride) % n


def check_size(loaded: LoadedSpec, max_trials: int | None) -> None:
    """Refuse, at once, a run of more than :data:`MAX_TRIALS_PER_RUN` trials.

    Raises:
        SpecError: the message says how to run the spec in parts.
    """
    total = loaded.n_trials
    if min(total, total if max_trials is None else max(0, max_trials)) > MAX_TRIALS_PER_RUN:
        from kubb3d.judge.messages import nmsg

        raise SpecError(nmsg(
            "{n} trial is more than one run takes ({most}); run them in parts with --max-trials N (repeat the command "
            "to go on) or make the grid smaller",
            "{n} trials are more than one run takes ({most}); run them in parts with --max-trials N (repeat the "
            "command to go on) or make the grid smaller", total, n=total, most=MAX_TRIALS_PER_RUN))


def _died_row(loaded: LoadedSpec, index: int, why: str) -> dict:
    from kubb3d.experiment.trial import child_seed

    seq = child_seed(loaded, index)
    n = loaded.n_points
    row = {
        "trial": index,
        "point": index % n,
        "rep": index // n,
        "seed_entropy": str(seq.entropy),
        "spawn_key": list(seq.spawn_key),
    }
    row.update(loaded.point(index % n))
    row.update(ok=False, error=why)
    return row


START_METHOD = "forkserver" if "forkserver" in get_all_start_methods() else "spawn"
"""How the local backend starts its workers. Never ``fork``: a PyBullet client, a thread or a
lock of the run's process must not be inherited. ``forkserver`` (POSIX): one server process,
started once per run's process, imports :func:`worker_modules` and forks every worker from
that, so workers start without importing (docs/speed.md "Fourth round"); ``spawn`` (Windows):
each worker starts a fresh interpreter and imports in its first trial. Rows are the same
either way (test)."""


def worker_modules(loaded: LoadedSpec) -> list[str]:
    """The modules a worker imports for its trials (the fork server imports them in advance):
    the runner, the trial, the throw with the physics, and the match for a match spec."""
    names = ["kubb3d.experiment.runner", "kubb3d.experiment.trial", "kubb3d.throw"]
    if loaded.spec.match is not None:
        names.append("kubb3d.match")
    return names


def _mp_context(loaded: LoadedSpec):
    """The multiprocessing context of :data:`START_METHOD`. For ``forkserver`` it sets the
    server's preload list (process-wide; it takes effect when this process starts its server,
    i.e. at its first local run)."""
    ctx = get_context(START_METHOD)
    if START_METHOD == "forkserver":
        # first the server's own quiet hook (kubb3d/_server_preload.py), then the workers' modules
        ctx.set_forkserver_preload(["kubb3d._server_preload", *worker_modules(loaded)])
        _start_forkserver()
    return ctx


def _start_forkserver() -> None:
    """Start this process's fork server now, with SIGINT blocked in the starting thread: the
    server inherits the blocked signal and ignores it once its imports are done (the standard
    library's forkserver), so a Ctrl-C to the terminal's group never reaches it while it
    imports (started by the pool's first worker instead, it printed a traceback). The resource
    tracker is started first: starting it unblocks SIGINT. The run's own process keeps its
    Ctrl-C handler throughout: setting SIGINT to "ignored" here, as before, lost a Ctrl-C that
    reached another thread (numpy's) meanwhile, and the run went on to its end with exit 0."""
    import signal
    import threading
    from multiprocessing import forkserver, resource_tracker

    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        forkserver.ensure_running()
        return
    resource_tracker.ensure_running()
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


# ------------------------------------------------------------------ backends
def _serial(loaded: LoadedSpec, todo: list[int], workers: int, scheduler, emit) -> int:
    spec_json = loaded.to_json()
    for i in todo:
        emit([_work(spec_json, i)])
    return len(todo)


def _local(loaded: LoadedSpec, todo: list[int], workers: int, scheduler, emit) -> int:
    spec_json = loaded.to_json()
    ctx = _mp_context(loaded)

    def new_pool(n: int) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=n, mp_context=ctx, initializer=_init_worker, initargs=(spec_json,))

    queue = list(reversed(todo))  # pop() from the end gives trial order
    retry: list[int] = []
    pool = new_pool(workers)
    inflight: dict = {}  # future -> the trials of its task
    trial_time = TrialTime()
    tasks = 0
    try:
        while queue or inflight or retry:
            if retry and not inflight:
                # a worker died: rerun the suspects one at a time (one in flight, so the one whose
                # worker dies again is the culprit); a single pool serves until it breaks
                pool.shutdown(wait=True, cancel_futures=True)
                single: ProcessPoolExecutor | None = None
                for i in sorted(retry):
                    try:
                        single = single or new_pool(1)
                        one = single.submit(_work, spec_json, i)
                    except BrokenProcessPool:  # its worker died while idle: not this trial's doing
                        single = new_pool(1)
                        one = single.submit(_work, spec_json, i)
                    tasks += 1
                    try:
                        emit([one.result()])
                    except BrokenProcessPool:
                        single.shutdown(wait=True, cancel_futures=True)
                        single = None
                        emit(
                            [
                                (
                                    _died_row(
                                        loaded, i, "worker process died (crashed or killed) while running this trial"
                                    ),
                                    0.0,
                                )
                            ]
                        )
                if single is not None:
                    single.shutdown(wait=True)
                retry = []
                pool = new_pool(workers)
                continue
            while queue and len(inflight) < 2 * workers and not retry:
                size = local_batch_size(trial_time.s, len(queue), workers)
                batch = [queue.pop() for _ in range(min(size, len(queue)))]
                tasks += 1
                try:
                    inflight[pool.submit(_work_batch, spec_json, batch)] = batch
                except BrokenProcessPool:  # a worker died since the last wait: the pool takes no more
                    retry += batch
            if not inflight:
                continue
            done, _ = wait(list(inflight), return_when=FIRST_COMPLETED)
            got: list[tuple[dict, float]] = []
            for fut in done:
                batch = inflight.pop(fut)
                try:
                    rows = fut.result()
                except BrokenProcessPool:
                    retry += batch
                    continue
                got += rows
                trial_time.add(rows)
            if got:
                emit(got)
            if retry:
                retry += [i for batch in inflight.values() for i in batch]
                inflight.clear()
    except BaseException:
        # interrupted (Ctrl-C, SIGTERM) or failed: stop the workers now, not after their trial
        from kubb3d.workers import terminate_workers

        terminate_workers(pool)
        raise
    finally:
        # wait for the pool's manager thread to end (the workers are idle or terminated, so it is
        # quick): left running, it raced the interpreter's exit, which wakes it through a pipe
        # it may be closing, and printed "OSError: Bad file descriptor" (1 SIGTERM in 8)
        pool.shutdown(wait=True, cancel_futures=True)
    return tasks


class ClusterFailed(RuntimeError):
    """The Dask cluster failed during the run (a task raised: a lost scheduler or worker,
    KilledWorker, a worker that cannot unpickle or import, a worker with other versions that
    joined later). No row is stored for the trials it had; they run on resume."""


def _one_line(exc: BaseException, most: int = 300) -> str:
    text = " ".join(str(exc).split()) or "(no message)"
    return f"{type(exc).__name__}: {text[:most]}"


class DaskCluster:
    """A connection to the Dask cluster of a run, checked before its first trial.

    Args:
        scheduler: the scheduler's address (``tcp://HOST:8786``, ``tls://…`` with Dask's
            ``distributed.comm.tls`` settings: docs/cluster.md); None: start a LocalCluster of
            ``workers`` single-threaded worker processes on this machine.
        workers: the LocalCluster's size; with ``scheduler``, the workers to wait for before the
            first trial (at least 1).

    Attributes:
        client: the Dask client.
        workers, threads: the cluster's worker processes and their threads (task slots): the
            most seen at once since the check (:meth:`refresh`).
        versions: the versions the client, scheduler and every worker share
            (:func:`kubb3d.experiment.versions.versions`).

    Raises:
        ClusterRefused: the scheduler is not reached within Dask's
            ``distributed.comm.timeouts.connect`` (30 s unless set), has fewer than ``workers``
            workers within it (with ``scheduler``),
            or it or a worker cannot import kubb3d or has other versions (the message names
            the process and the versions that differ).
    """

    def __init__(self, scheduler: str | None, workers: int) -> None:
        try:
            import dask
            from dask.distributed import Client, LocalCluster
            from dask.utils import parse_timedelta
        except ImportError:
            raise ClusterRefused("the dask backend needs Dask: pip install 'kubb3d[dask]'") from None
        import logging
        import tempfile

        from kubb3d.experiment.versions import versions

        self.cluster = None
        self.scratch = None
        self.environ: dict[str, str] | None = None
        self.versions = versions()
        timeout = float(parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), "s"))
        if scheduler:
            try:
                self.client = Client(scheduler, timeout=timeout)
            except Exception as exc:  # OSError, TimeoutError, a TLS error, a malformed address
                raise ClusterRefused(f"cannot reach the Dask scheduler {scheduler!r}: {_one_line(exc)}") from None
        else:
            # Dask always starts an HTTP server: bind it to a free port on the loopback interface
            # only (never the fixed, shared 8787); workers' scratch space goes into a temporary
            # folder of ours that is removed afterwards (not the system's shared one)
            self.scratch = tempfile.TemporaryDirectory(prefix="kubb3d-dask-")
            # Dask's nannies set their workers' variables (OMP_NUM_THREADS=1, MALLOC_TRIM_THRESHOLD_
            # ...: distributed.nanny.pre-spawn-environ) in this process's environment: put it back
            # at close, or a later `nproc` in this process's children said 1
            self.environ = dict(os.environ)
            with dask.config.set({**DASK_CONFIG, "temporary-directory": self.scratch.name}):
                self.cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address="127.0.0.1:0",
                    worker_dashboard_address="127.0.0.1:0",
                    silence_logs=logging.ERROR,
                    preload=[DASK_PRELOAD],
                )
            self.client = Client(self.cluster)
        try:
            self._check(scheduler or "the LocalCluster's", timeout, max(1, workers))
        except BaseException:
            self.close()
            raise

    def _check(self, address: str, timeout: float, wanted: int) -> None:
        from kubb3d.experiment.versions import describe, differences, versions

        client = self.client
        try:
            theirs = client.run_on_scheduler(versions)
        except Exception as exc:
            raise ClusterRefused(f"the Dask scheduler {address} cannot run kubb3d ({_one_line(exc, 160)}); install "
                                 f"the same kubb3d there ({describe(self.versions)})") from None
        differ = differences(theirs, self.versions)
        if differ:
            raise ClusterRefused(f"the Dask scheduler {address} has {differ}; install the same kubb3d, PyBullet, "
                                 "numpy and Python everywhere (docs/cluster.md)")
        try:
            client.wait_for_workers(wanted, timeout=timeout)
        except Exception:
            have = len(client.nthreads())
            raise ClusterRefused(f"the Dask scheduler {address} has {counted(have, 'worker')}, fewer than the {wanted} "
                                 f"waited for ({timeout:g} s); start them (docs/cluster.md)") from None
        try:
            answers = client.run(versions, on_error="return")
        except Exception:  # an answer Dask could not send back (it then fails the whole call): one by one
            answers = {}
            for worker in client.nthreads():
                try:
                    answers.update(client.run(versions, workers=[worker]))
                except Exception as exc:
                    answers[worker] = exc
        for worker, theirs in sorted(answers.items()):
            if isinstance(theirs, BaseException):
                raise ClusterRefused(f"the Dask worker {worker} cannot run kubb3d ({_one_line(theirs, 160)}); install "
                                     f"the same kubb3d there ({describe(self.versions)})")
            differ = differences(theirs, self.versions)
            if differ:
                raise ClusterRefused(f"the Dask worker {worker} has {differ}; stop it or install the same kubb3d, "
                                     "PyBullet, numpy and Python there (docs/cluster.md)")
        self.workers = self.threads = self._now = 0
        self._seen = 0.0
        self.refresh()

    def refresh(self, every: float = 0.0) -> int:
        """Read the cluster's workers and threads again (at most once per ``every`` seconds), keep
        the most seen in :attr:`workers` and :attr:`threads`; returns the threads now (at least 1)."""
        now = time.monotonic()
        if every and now - self._seen < every:
            return max(1, self._now)
        self._seen = now
        nthreads = self.client.nthreads()
        self._now = sum(nthreads.values())
        self.workers = max(self.workers, len(nthreads))
        self.threads = max(self.threads, self._now)
        return max(1, self._now)

    def close(self) -> None:
        """Close the client, and the LocalCluster and its scratch folder if this started them (and
        put back this process's environment, which the LocalCluster's nannies changed)."""
        try:
            self.client.close()
        finally:
            if self.cluster is not None:
                self.cluster.close()
            if self.scratch is not None:
                self.scratch.cleanup()
            if self.environ is not None:
                for key in set(os.environ) - set(self.environ):
                    del os.environ[key]
                os.environ.update(self.environ)


def _dask(loaded: LoadedSpec, todo: list[int], cluster: DaskCluster, emit) -> int:
    """Run ``todo`` on ``cluster``; returns the tasks submitted.

    Only rows a task returned are stored: a trial's own failure is a row (``ok`` false) from
    :func:`kubb3d.experiment.trial.run_trial`, which never raises for it, so a task that raises
    failed because of the cluster (Dask has already moved the tasks of a lost worker elsewhere,
    and raises KilledWorker after a task was on ``allowed-failures`` workers that died).

    Raises:
        ClusterFailed: the first task that raised, or the client's connection lost; the trials
            not stored run on resume (a trial that kills every worker it runs on is found and
            stored as failed by the local backend).
    """
    from dask.distributed import as_completed

    client, n_slots = cluster.client, cluster.refresh()
    spec_json = loaded.to_json()
    # trials go out in batches (dask_batch_size) that shrink with the trials still to hand out,
    # so the last tasks are single trials and the workers finish together
    queue = list(reversed(todo))  # pop() from the end gives trial order
    pending = as_completed()
    batch_of: dict = {}  # future key -> its trials
    trial_time = TrialTime()
    tasks = 0

    def submit() -> None:
        nonlocal tasks
        size = dask_batch_size(trial_time.s, len(queue), n_slots)
        batch = [queue.pop() for _ in range(min(size, len(queue)))]
        key = f"kubb3d-trials-{batch[0]}-{len(batch)}-{loaded.sha256[:12]}"
        fut = client.submit(DASK_TASK, spec_json, batch, cluster.versions, pure=False, key=key)
        batch_of[fut.key] = batch
        pending.add(fut)
        tasks += 1

    def top_up() -> None:
        while dask_may_submit(trial_time.s, len(queue), len(batch_of), n_slots):
            submit()

    try:
        top_up()
        for fut in pending:
            batch = batch_of.pop(fut.key)
            try:
                rows = fut.result()
            except Exception as exc:
                which = f"trial {batch[0]}" if len(batch) == 1 else f"trials {batch[0]}-{batch[-1]}"
                raise ClusterFailed(f"the Dask cluster failed (not {which}): {_one_line(exc)}") from None
            trial_time.add(rows)
            emit(rows)
            fut.release()
            n_slots = cluster.refresh(every=2.0)  # workers that joined or left
            top_up()
    except ClusterFailed:
        raise
    except (StoreError, KeyboardInterrupt):
        raise
    except Exception as exc:  # the client lost its scheduler while submitting or waiting
        raise ClusterFailed(f"the Dask cluster failed (not the trials): {_one_line(exc)}") from None
    return tasks


_BACKENDS: dict[str, Callable] = {"local": _local, "serial": _serial}


# ------------------------------------------------------------------ public
def run(
    loaded: LoadedSpec,
    out: str | Path,
    *,
    workers: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    progress: bool = True,
    max_trials: int | None = None,
    on_rows: Callable[[list[dict]], None] | None = None,
    mix_versions: bool = False,
    min_workers: int = 1,
    on_start: Callable[[], None] | None = None,
) -> RunReport:
    """Run every trial of ``loaded`` not yet stored in ``out``.

    Args:
        loaded: a validated spec (:func:`kubb3d.experiment.load_spec`).
        out: results file (SQLite); created, or resumed if it holds this spec's results.
        workers: worker processes (default: all cores); the Dask LocalCluster size.
        backend: ``local``, ``serial`` or ``dask`` (module doc).
        scheduler: Dask scheduler address (``tcp://host:8786``); None: a LocalCluster.
        progress: show a rich progress bar (rate, time left) on the terminal.
        max_trials: run at most this many of the trials still to run (None: all), taken in
            :func:`spread_order` (spread over the grid, not its first points).
        on_rows: called with each batch of stored rows.
        min_workers: with ``scheduler``, the workers to wait for before the first trial (up to
            Dask's ``distributed.comm.timeouts.connect``).
        mix_versions: append to a results file whose rows other versions made
            (:mod:`kubb3d.experiment.versions`); the mix is recorded in the file.
        on_start: called once ``out`` is open and accepted (its spec and versions), before the
            first trial: a command's banner comes after every refusal, never before one.

    Returns:
        A :class:`RunReport`.

    Raises:
        UnknownNameError, SpecError: unknown backend, workers < 1, or more than :data:`MAX_TRIALS_PER_RUN`
            trials asked for (raised before ``out`` is touched).
        ClusterRefused: the Dask cluster cannot serve the run (:class:`DaskCluster`; with a
            ``scheduler``, raised before ``out`` is touched).
        ClusterFailed: the Dask cluster failed during the run (:func:`_dask`); the rows stored
            are kept, the rest run on resume.
        StoreError: ``out`` holds another spec's results or rows of other versions, or another
            run is writing it.
    """
    if backend not in BACKENDS:
        raise UnknownNameError(f"unknown backend {backend!r}"
            f"{did_you_mean(backend, list(BACKENDS))}; expected one of {listed(list(BACKENDS))}")
    if backend == "serial":
        workers = 1
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise SpecError(f"workers must be >= 1, got {workers}")
    out = Path(out)
    total = loaded.n_trials
    check_size(loaded, max_trials)
    from kubb3d.experiment.versions import versions

    t0 = time.perf_counter()
    # a standing cluster is reached and checked before the results file is touched (a refused
    # start writes nothing); a LocalCluster, which is this install, starts only if trials are left
    cluster = DaskCluster(scheduler, min_workers) if backend == "dask" and scheduler else None
    threads = workers
    bar = _Bar("", 0, t0, enabled=False)
    try:
        with ResultStore(
            out, loaded.sha256, loaded.to_json(), versions=versions(), mix_versions=mix_versions
        ) as store:
            if on_start is not None:
                on_start()
            done = store.finished()
            # the trials still to run, enumerated lazily: a huge grid with --max-trials lists only those;
            # a part of a run (--max-trials) takes them spread over the grid (spread_order)
            order = range(total) if max_trials is None else spread_order(loaded)
            pending = (i for i in order if i not in done)
            todo = list(itertools.islice(pending, None if max_trials is None else max(0, max_trials)))
            skipped = sum(1 for i in done if i < total)
            counts = {"ran": 0, "failed": 0}
            # the bar counts what this call runs (--max-trials 10 of 210: 10), its rate is the report's
            bar = _Bar(loaded.spec.title, len(todo), t0, enabled=progress and bool(todo))

            def emit(batch: Iterable[tuple[dict, float]]) -> None:
                batch = list(batch)
                store.add(batch)
                failed = sum(1 for r, _ in batch if not r.get("ok"))
                counts["ran"] += len(batch)
                counts["failed"] += failed
                bar.advance(len(batch), counts["failed"])
                if on_rows is not None:
                    on_rows([r for r, _ in batch])

            tasks = 0
            with bar:
                if backend == "dask" and (todo or cluster is not None):
                    if cluster is None:
                        cluster = DaskCluster(None, workers)
                    workers, threads = cluster.workers, cluster.threads
                if todo:
                    if backend == "dask":
                        assert cluster is not None
                        tasks = _dask(loaded, todo, cluster, emit)
                    else:
                        tasks = _BACKENDS[backend](
                            loaded, todo, min(workers, len(todo)) if backend == "local" else workers, scheduler, emit
                        )
    finally:
        try:
            if cluster is not None:
                cluster.close()
        finally:
            seconds = time.perf_counter() - t0
            bar.finish(seconds)  # its last line at the report's rate
    return RunReport(
        out, total, skipped, counts["ran"], counts["failed"], seconds, workers, backend, tasks, threads, versions()
    )


def _console():
    """The terminal the progress bar draws on (stderr)."""
    from rich.console import Console

    return Console(stderr=True)


class _Bar:
    """A rich progress bar of the ``total`` trials this call runs, with trials/s and time left;
    silent when disabled. The rate is the :class:`RunReport`'s: trials finished by this call over
    the seconds since it began (``started``, a :func:`time.perf_counter` time), and the time
    left is the trials left at that rate."""

    def __init__(self, title: str, total: int, started: float, *, enabled: bool) -> None:
        self.progress = None
        self.started = started
        self.seconds: float | None = None  # the call's, once it has ended (:meth:`finish`)
        if not enabled:
            return
        console = _console()
        if not console.is_terminal:
            return
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            ProgressColumn,
            TextColumn,
            TimeElapsedColumn,
        )
        from rich.text import Text

        def speed(task) -> float | None:
            seconds = time.perf_counter() - started if self.seconds is None else self.seconds
            return task.completed / seconds if task.completed and seconds > 0 else None

        class Rate(ProgressColumn):
            def render(self, task) -> Text:
                v = speed(task)
                return Text("… trials/s" if v is None else f"{v:.2f} trials/s")

        class Left(ProgressColumn):
            def render(self, task) -> Text:
                v = speed(task)
                if v is None:
                    return Text("-:--:--")
                s = round((task.total - task.completed) / v)
                return Text(f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}")

        self.progress = Progress(
            BarColumn(bar_width=20),
            MofNCompleteColumn(),
            Rate(),
            TextColumn("{task.fields[failed]} failed"),
            TimeElapsedColumn(),
            Left(),
            TextColumn("left"),
            console=console,
            transient=False,
        )
        self.task = self.progress.add_task(title, total=total, completed=0, failed=0)

    def __enter__(self) -> "_Bar":
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, *exc) -> None:
        """Left running: :meth:`finish` draws the last line once the call's seconds are known."""

    def finish(self, seconds: float) -> None:
        """Draw the last line with the rate of ``seconds`` (the :class:`RunReport`'s) and stop."""
        if self.progress is not None:
            self.seconds = seconds
            self.progress.refresh()
            self.progress.stop()
            self.progress = None

    def advance(self, n: int, failed: int) -> None:
        if self.progress is not None:
            self.progress.update(self.task, advance=n, failed=failed)

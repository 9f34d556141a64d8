"""Process pools of the long commands (``audit``, ``calibrate``, ``validate``, ``tournament``)
that stop at once when the command is interrupted.

A Ctrl-C in a terminal sends SIGINT to every process of the foreground group, the workers too.
A worker that took it as :class:`KeyboardInterrupt` printed its own traceback (while waiting
for a task) or sent the exception back as a task's result; and a pool left by an exception
waited for every running task before the command could end (a minute for a match), or, after
SIGTERM to the command alone, kept its workers alive forever. Here a worker ignores SIGINT,
takes SIGTERM as the default (it ends), and ends itself when the process that started it is
gone; the command's process alone decides, and :func:`process_pool` terminates the workers when
the ``with`` block is left by an exception (README "What you can do": exit code 130).
"""

from __future__ import annotations

import os
import signal
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, Callable, Iterator


def watch_parent() -> None:
    """End this process (exit code 1) as soon as the process that started it through
    :mod:`multiprocessing` is gone; nothing when it was not started that way. The test is the
    pipe multiprocessing keeps from the parent (``parent_process().sentinel``), which reads as
    closed once the parent has died, under every start method."""
    import threading
    from multiprocessing import parent_process

    parent = parent_process()
    if parent is None:
        return

    def watch() -> None:
        parent.join()
        os._exit(1)

    threading.Thread(target=watch, name="kubb3d-parent-watch", daemon=True).start()


def quiet_start_failures() -> None:
    """Make this process (a fork server) print nothing for a worker that cannot start because
    the command is already taking its pool down: the pool's semaphores are unlinked
    (FileNotFoundError), its pipes closed (EOFError, BrokenPipeError). After a Ctrl-C or SIGTERM
    in the first second of ``experiment run`` such a worker printed a standard-library
    traceback after the command's ``interrupted`` line. Any other exception is printed as
    before."""
    import sys

    default = sys.excepthook

    def hook(kind, exc, tb) -> None:
        if issubclass(kind, (FileNotFoundError, EOFError, BrokenPipeError, ConnectionResetError)):
            return
        default(kind, exc, tb)

    sys.excepthook = hook


def quiet_worker(initializer: Callable[..., Any] | None = None, *initargs: Any) -> None:
    """Initializer of a pool worker: SIGINT ignored, SIGTERM ends it (a forked worker would
    otherwise inherit the command's SIGTERM handler), :func:`watch_parent`, then
    ``initializer(*initargs)`` if given."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    watch_parent()
    if initializer is not None:
        initializer(*initargs)


def terminate_workers(pool: ProcessPoolExecutor) -> None:
    """Send SIGTERM to every worker process of ``pool`` (they end within their current step)."""
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            proc.terminate()
        except (OSError, ValueError):  # already gone or closed
            pass


@contextmanager
def process_pool(
    workers: int,
    *,
    mp_context: Any = None,
    initializer: Callable[..., Any] | None = None,
    initargs: tuple = (),
) -> Iterator[ProcessPoolExecutor]:
    """A :class:`ProcessPoolExecutor` of ``workers`` processes whose workers run
    :func:`quiet_worker` first. Left normally, it waits for its tasks like the executor's own
    ``with``; left by an exception (:class:`KeyboardInterrupt` included) it terminates the
    workers, cancels what was queued and returns at once.

    Raises:
        ValueError: ``workers`` < 1 (from :class:`ProcessPoolExecutor`).
    """
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=mp_context, initializer=quiet_worker, initargs=(initializer, *initargs)
    )
    try:
        yield pool
    except BaseException:
        terminate_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def map_jobs(
    fn: Callable[[Any], Any],
    jobs: list,
    workers: int,
    progress: Callable[[int], None] | None = None,
    *,
    chunksize: int = 2,
) -> list:
    """``[fn(job) for job in jobs]``, in order, in this process (``workers`` ≤ 1) or on a
    :func:`process_pool` of ``workers``; ``progress(1)`` after each job. ``fn`` and the jobs
    must pickle for a pool."""
    if workers <= 1:
        out = []
        for job in jobs:
            out.append(fn(job))
            if progress:
                progress(1)
        return out
    results = []
    with process_pool(workers) as pool:
        for result in pool.map(fn, jobs, chunksize=chunksize):
            results.append(result)
            if progress:
                progress(1)
    return results

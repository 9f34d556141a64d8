"""The ``--workers`` option: one rule for every command that has it (README "What you can do").

Without ``--workers`` a command uses every core (``os.cpu_count()``, never more processes than
it has jobs); ``--workers N`` takes 1 to :data:`MAX_WORKERS`, and 0 or more than that is refused
in one line (``--workers: expected from 1 to 256, got 0``) with exit code 2. No command's result
depends on the number. tests/test_workers_option.py walks the Typer app and checks that every
``--workers`` is made here.
"""

from __future__ import annotations

import os
from typing import Any, Optional

import typer

MAX_WORKERS = 256
"""The most worker processes a command starts on this machine (a local Dask cluster of 100,000
workers hung)."""

WORKERS_HELP = "Worker processes, 1 to 256 (default: all cores); the result does not depend on it."
"""The first sentence of every ``--workers`` help, word for word."""


def workers_option(more: str = "") -> Any:
    """The ``--workers`` Typer option: default None (all cores), 1 … :data:`MAX_WORKERS`;
    ``more``: a sentence of the command's own after :data:`WORKERS_HELP`."""
    return typer.Option(
        None, "--workers", min=1, max=MAX_WORKERS, metavar="N", help=WORKERS_HELP + (" " + more if more else "")
    )


def workers_for(workers: Optional[int], jobs: Optional[int] = None) -> int:
    """The processes a command starts: ``workers``, or every core when it is None, and at most
    ``jobs`` (when given) and at least 1."""
    n = workers if workers is not None else (os.cpu_count() or 1)
    if jobs is not None:
        n = min(n, jobs)
    return max(1, n)

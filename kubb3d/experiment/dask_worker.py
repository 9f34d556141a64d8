"""Dask worker preload for kubb3d experiments: ``dask worker ... --preload kubb3d.experiment.dask_worker``.

Importing this module imports what a worker needs for any experiment's trials (the runner, the
trial, the throw with the physics, the match), so a worker started with it does that once when
it starts instead of in its first task, as the local backend's fork server does
(:func:`kubb3d.experiment.runner.worker_modules`), and numpy's random module, which numpy loads
only when a trial first seeds its generator. :func:`dask_setup`, which Dask calls when the worker
starts, tunes the worker's allocator at once (:func:`kubb3d.experiment.runner.prepare_worker`) and
connects the PyBullet client the first trial's world takes (:func:`kubb3d.physics.engine.prepare_client`):
a worker's first trial took ~25 ms more CPU than the next ones for these two (docs/speed.md "Dask
(seventh round)").
The Dask settings for such a cluster are :func:`kubb3d.experiment.runner.dask_environ`
(docs/cluster.md; why: docs/speed.md "Dask (fifth round)").
"""

from __future__ import annotations

import numpy.random

import kubb3d.experiment.trial
import kubb3d.match
import kubb3d.throw
from kubb3d.experiment import runner, versions
from kubb3d.physics import engine

PRELOADED = (
    kubb3d.experiment.trial.__name__,
    kubb3d.match.__name__,
    kubb3d.throw.__name__,
    runner.__name__,
    numpy.random.__name__,
)
"""The modules this preload imports."""


def dask_setup(worker: object) -> None:
    """Called by Dask in the worker process when it starts: tunes its allocator, connects the
    first world's PyBullet client and computes its versions (:mod:`kubb3d.experiment.versions`)."""
    runner.prepare_worker()
    engine.prepare_client()
    versions.versions()  # the digest of the code this worker loaded, not of files changed later

"""Experiments: many simulated throws over seeds and parameters, run in parallel, stored
durably, exported and plotted.

Entry points::

    from kubb3d.experiment import load_spec, run, read_rows
    spec = load_spec("scenarios/experiments/hit-8m.toml")
    report = run(spec, "hits.sqlite", workers=2)
    rows = read_rows("hits.sqlite")

====================  =========================================================
module                what
====================  =========================================================
:mod:`.spec`          TOML spec schema (pydantic), grid expansion, spec hash
:mod:`.trial`         one trial: fresh world, throw or disturb, measured row
:mod:`.store`         SQLite results file (WAL, one row per trial, resumable)
:mod:`.runner`        backends (local processes, serial, Dask), progress, resume
:mod:`.dask_task`     the function a Dask task calls (imports nothing at load)
:mod:`.versions`      the versions that make rows (checked across a cluster)
:mod:`.export`        CSV and Parquet export
:mod:`.stats`         Wilson intervals and grouped rates
:mod:`.plot`          heatmaps and curves (matplotlib, PNG)
====================  =========================================================

The names above are loaded on first use, so importing a submodule does not import the others:
a Dask scheduler, which imports the module of every task's function when it unpickles the task,
then imports only :mod:`.dask_task` (docs/speed.md "Dask (sixth round)"). Type checkers see
them through the ``TYPE_CHECKING`` imports below, which name the same objects as the lazy table
(``tests/test_packaging.py`` keeps the two in step).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubb3d._lazy import lazy_names

if TYPE_CHECKING:
    from kubb3d.experiment.runner import BACKENDS, ClusterFailed, ClusterRefused, RunReport, run
    from kubb3d.experiment.spec import MEASURES, SCHEMA_VERSION, LoadedSpec, SpecError, load_spec, validate
    from kubb3d.experiment.store import ResultStore, StoreError, open_results, read_rows
    from kubb3d.experiment.trial import run_trial

_LAZY: dict[str, str] = {
    "BACKENDS": "kubb3d.experiment.runner",
    "RunReport": "kubb3d.experiment.runner",
    "ClusterFailed": "kubb3d.experiment.runner",
    "ClusterRefused": "kubb3d.experiment.runner",
    "run": "kubb3d.experiment.runner",
    "MEASURES": "kubb3d.experiment.spec",
    "SCHEMA_VERSION": "kubb3d.experiment.spec",
    "LoadedSpec": "kubb3d.experiment.spec",
    "SpecError": "kubb3d.experiment.spec",
    "load_spec": "kubb3d.experiment.spec",
    "validate": "kubb3d.experiment.spec",
    "ResultStore": "kubb3d.experiment.store",
    "StoreError": "kubb3d.experiment.store",
    "open_results": "kubb3d.experiment.store",
    "read_rows": "kubb3d.experiment.store",
    "run_trial": "kubb3d.experiment.trial",
}

__all__ = [
    "BACKENDS",
    "ClusterFailed",
    "ClusterRefused",
    "LoadedSpec",
    "MEASURES",
    "ResultStore",
    "RunReport",
    "SCHEMA_VERSION",
    "SpecError",
    "StoreError",
    "load_spec",
    "open_results",
    "read_rows",
    "run",
    "run_trial",
    "validate",
]


__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals())

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
:mod:`.export`        CSV and Parquet export
:mod:`.stats`         Wilson intervals and grouped rates
:mod:`.plot`          heatmaps and curves (matplotlib, PNG)
====================  =========================================================
"""

from kubb3d.experiment.spec import MEASURES, SCHEMA_VERSION, LoadedSpec, SpecError, load_spec, validate
from kubb3d.experiment.store import ResultStore, StoreError, open_results, read_rows
from kubb3d.experiment.runner import BACKENDS, RunReport, run
from kubb3d.experiment.trial import run_trial

__all__ = [
    "BACKENDS",
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

"""The function every Dask task of an experiment calls, in a module that imports nothing.

Dask's scheduler unpickles each graph a client sends it (``Scheduler.update_graph`` in
distributed), and unpickling a task imports the module of the task's function. With
:func:`kubb3d.experiment.runner._work_batch` as that function, a scheduler imported kubb3d's
runner, spec, judge, rules and pydantic when a cluster served its first experiment: about
0.14 s of its 0.2-0.3 s of CPU in a 600-trial run, on the cores the trials run on
(docs/speed.md "Dask (sixth round)"). The scheduler now imports only this module (and the
package, whose names load lazily); the workers import the runner at start (the preload
:mod:`kubb3d.experiment.dask_worker`) and run the trials.
"""

from __future__ import annotations


class VersionMismatch(RuntimeError):
    """A worker whose versions (:func:`kubb3d.experiment.versions.versions`) are not the run's;
    the message names the worker and the versions that differ."""


def run_trials(spec_json: str, indices: list[int], expected: dict | None = None) -> list[tuple[dict, float]]:
    """Run the trials ``indices`` of the spec ``spec_json`` (its JSON form) in this worker;
    returns ``[(row, wall seconds)]`` in order, as :func:`kubb3d.experiment.runner._work_batch`.

    Raises:
        VersionMismatch: ``expected`` (the run's versions) differs from this worker's, before
            any trial runs (a worker that joined the cluster after the run's check).
    """
    if expected is not None:
        from kubb3d.experiment.versions import differences, versions

        differ = differences(versions(), expected)
        if differ:
            try:
                from distributed import get_worker

                where = get_worker().address
            except (ImportError, ValueError):
                where = "this process"
            raise VersionMismatch(f"the Dask worker {where} has {differ}")
    from kubb3d.experiment.runner import _work_batch

    return _work_batch(spec_json, indices)

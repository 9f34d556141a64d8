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


def run_trials(spec_json: str, indices: list[int]) -> list[tuple[dict, float]]:
    """Run the trials ``indices`` of the spec ``spec_json`` (its JSON form) in this worker;
    returns ``[(row, wall seconds)]`` in order, as :func:`kubb3d.experiment.runner._work_batch`."""
    from kubb3d.experiment.runner import _work_batch

    return _work_batch(spec_json, indices)

"""benchmarks/equivalence.py and benchmarks/far_steps.py (issue #32): the figures docs/speed.md
quotes are those of the committed runs (docs/speed_equivalence.json, docs/speed_far_steps.json),
and the scripts compute what they claim."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
from cli_process import run_python

ROOT = Path(__file__).resolve().parents[1]


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_quote_the_committed_equivalence_run_and_its_figures_follow_from_its_rows():
    equivalence = _script("equivalence")
    doc = json.loads((ROOT / "docs" / "speed_equivalence.json").read_text(encoding="utf-8"))
    figures = equivalence.figures(doc)
    assert json.loads(json.dumps(figures)) == doc["figures"]
    # recomputed by hand from the rows: the paired difference of the felled kubbs
    felled = {s: np.array([row["felled"] for row in doc["throws"][s]]) for s in ("kubb3d", "plain")}
    d = felled["kubb3d"] - felled["plain"]
    assert figures["throws"]["paired_difference"][0] == float(d.mean())
    assert figures["throws"]["differing_throws"] == int(np.count_nonzero(d))
    p1 = [row["winner"] == "P1" for row in doc["matches"]["plain"]]
    assert figures["matches"]["p1_wins"]["plain"][0] == sum(p1) / len(p1)
    text = (ROOT / "docs" / "speed.md").read_text(encoding="utf-8")
    assert equivalence.markdown(doc) in text
    assert doc["command"].endswith("--save docs/speed_equivalence.json --markdown")
    assert f"`{doc['command']}`" in text


def test_docs_quote_the_committed_far_steps_run():
    from kubb3d.bench import mean_ci95

    far_steps = _script("far_steps")
    figures = json.loads((ROOT / "docs" / "speed_far_steps.json").read_text(encoding="utf-8"))
    assert far_steps.summary(figures) in (ROOT / "docs" / "speed.md").read_text(encoding="utf-8")
    # the felled figures follow from the run's own felled counts (a typed rate or difference,
    # in the file and on the page alike, passed the line above)
    felled = {n: np.array(figures[f"felled_{n}"]) for n in ("default", "far")}
    throws = int(figures["command"].split("--throws ")[1].split()[0])
    assert len(felled["default"]) == len(felled["far"]) == throws
    assert figures["felled_per_baton"] == {n: float(v.mean()) for n, v in felled.items()}
    d = felled["far"] - felled["default"]
    assert figures["felled_difference"] == pytest.approx(mean_ci95(d), nan_ok=True)
    assert figures["differing_throws"] == int(np.count_nonzero(d))


def test_equivalence_script_pairs_the_same_throws_and_refuses_an_interval_of_one():
    r = run_python([str(ROOT / "benchmarks" / "equivalence.py"), "--throws", "3", "--matches", "0"], timeout=300)
    assert r.returncode == 0, r.stderr
    figures = json.loads(r.stdout.splitlines()[-1])
    throws = figures["throws"]
    assert throws["n"] == 3 and set(throws["felled_per_baton"]) == {"kubb3d", "plain"}
    # the plain schedule steps at 1/960 s throughout: several times the steps
    assert throws["steps_per_throw"]["plain"] > 2 * throws["steps_per_throw"]["kubb3d"]
    for args in (["--throws", "1", "--matches", "0"], ["--throws", "0", "--matches", "0"]):
        bad = run_python([str(ROOT / "benchmarks" / "equivalence.py"), *args])
        assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr


def test_step_phases_times_every_phase_and_the_engine_within_it():
    """benchmarks/step_phases.py --cpu: every counted phase has its CPU time, the engine's share
    of it is less than the whole, and timing the steps does not change what is counted."""
    step_phases = _script("step_phases")
    plain_counts, plain_throws = step_phases.count_steps("dm", 1)
    cpu: dict = {}
    counts, throws = step_phases.count_steps("dm", 1, cpu)
    assert (counts, throws) == (plain_counts, plain_throws)
    assert set(cpu["steps"]) == set(counts) and set(cpu["engine"]) <= set(counts)
    assert all(0.0 < cpu["engine"][key] < cpu["steps"][key] for key in cpu["engine"] if counts[key] > 100)
    text = step_phases.table(counts, throws, cpu)
    assert text.splitlines()[0].endswith("| CPU of the steps | µs per step (engine) |")
    # without --cpu the same rows, less the two CPU columns
    plain = step_phases.table(counts, throws).splitlines()
    timed = text.splitlines()
    assert len(plain) == len(timed)
    for short, long in zip(plain[2:], timed[2:]):
        assert long.startswith(short) and long.count("|") == short.count("|") + 2

"""benchmarks/engine_floor.py (issue #32, docs/speed.md "Sixteenth round"): its clock counts every
engine step kubb3d takes and leaves PyBullet as it found it, and a quick run's figures agree
with each other."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from cli_process import run_python

from kubb3d.physics._pybullet import pb
from kubb3d.physics.world import World
from kubb3d.throw import ThrowParams, throw

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "engine_floor.py"


def _module():
    spec = importlib.util.spec_from_file_location("engine_floor", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_clock_sees_every_step_a_throw_takes_and_restores_pybullet():
    before = pb.stepSimulation, pb.getContactPoints
    with _module().PyBulletClock() as clock:
        assert pb.stepSimulation is not before[0]
        with World.standard() as world:
            throw(world, ThrowParams())
            steps = world.steps
    assert (pb.stepSimulation, pb.getContactPoints) == before
    assert steps > 100 and clock.steps == steps
    assert clock.engine > 0.0 and clock.other > 0.0 and clock.calls > clock.steps
    top = clock.top(3)
    assert len(top) == 3 and top[0]["s"] >= top[1]["s"] >= top[2]["s"]
    assert sum(entry["s"] for entry in clock.top(1000)) == clock.other


def test_a_quick_run_gives_figures_that_agree_with_each_other():
    r = run_python([str(SCRIPT), "--throws", "3", "--seeds", "1", "--kubbuteo-seeds", "0", "--json"], timeout=600)
    assert r.returncode == 0, r.stderr
    figures = json.loads(r.stdout.splitlines()[-1])
    assert set(figures) == {"load_before", "bench", "dm", "load_after"}
    bench = figures["bench"]
    # the wrapped run takes the very steps the unwrapped one took
    assert bench["wrapped_steps_per_throw"] == bench["steps_per_throw"]
    assert bench["engine_s"] + bench["pybullet_other_s"] < bench["wrapped_s"]
    assert bench["ratio"] == bench["bare_s"] / bench["kubb3d_s"]
    assert bench["floor_engine_only"] > bench["floor_all_pybullet"] > 0.0
    dm = figures["dm"]
    (match,) = dm["matches"]
    assert match["seed"] == 1 and dm["median_cpu_s"] == match["cpu_s"] > match["engine_s"] > 0.0
    assert dm["median_pybullet_s"] == match["engine_s"] + match["pybullet_other_s"]
    assert "dm seed 1:" in r.stderr and "median" in r.stderr


def test_a_negative_count_is_refused_in_one_line():
    r = run_python([str(SCRIPT), "--throws", "-1"], timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip() == "engine_floor.py: --throws, --seeds and --kubbuteo-seeds must be 0 or more"

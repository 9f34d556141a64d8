"""The speed work leaves seeded outcomes unchanged (issue #16)."""

from __future__ import annotations

import json
import os
import math
import re
from pathlib import Path

import numpy as np
import pytest

from kubb3d.bench import reference_results
from kubb3d.physics.stepping import FlightClearance

REFERENCE = Path(__file__).parent / "data" / "reference_throws.json"


def test_seeded_throws_are_bit_identical_to_the_reference_from_before_the_speed_work():
    # generated from main before the speed work (benchmarks/reference_throws.py), rewritten when
    # the static bodies went to sleep (3 of 40 final poses changed in their last bits, the same
    # kubbs felled; 1,000 throws equivalent, docs/speed.md) and when batons got their end spheres
    # (every final pose changed, the same kubbs felled and pieces touched in 40 of 40; bench
    # equivalence in docs/physics.md), when kubbs got their corner spheres (the same again) and when
    # the batons' rolling resistance turned about their own axis (docs/physics.md "A baton sliding
    # on the ground"), when a field baton lying alone took the long step (docs/physics.md "A
    # field baton sliding alone": every final pose changed, the same kubbs felled and pieces
    # touched in 40 of 40, 791 -> 699 steps per throw), and when the free flight far from
    # everything was integrated outside the engine and the aim solver came to fly it too
    # (docs/speed.md "Ninth round: free flight": 39 of 40 the same kubbs felled, 40 of 40
    # the same pieces touched, 699 -> 443 steps per throw), and when a baton's rolling resistance
    # stopped turning a roll that had turned back (docs/physics.md "A baton that never came to
    # rest": the thrown baton's final pose moved by at most 0.5 mm in each, nothing else moved;
    # the same kubbs felled, pieces touched and steps in 40 of 40), and when the field grounds took
    # out a contact's whole penetration in a step (docs/physics.md "Ground contact": 39 of 40 the
    # same kubbs felled, 40 of 40 the same pieces touched, 443.5 -> 446.4 steps per throw), and
    # when left and right in the stakes' names became side A's (tests/test_named_sides.py: the
    # digests hash the ids; with the old names the 40 digests were the stored ones, every pose bit
    # for bit), and when the kubbs' corner spheres went from 1 to 0.1 mm (docs/physics.md "An
    # upright kubb sliding": 39 of 40 the same kubbs felled, B5 of throw 12 now slides 1.1 m
    # upright; 40 of 40 the same pieces touched, 446.4 -> 452.1 steps per throw), and when the
    # pieces that cannot tip went to sleep early in the settle window (docs/speed.md "Twelfth
    # round": before the corner spheres, 200 of 200 bench throws the same kubbs felled and pieces
    # touched, every final pose within 0.015 mm, 502.5 -> 407.0 steps), and when the plowing came
    # to act also where the ground touches, grass k 0.13 s/m (docs/physics.md "Plowing": every
    # final pose changed, 40 of 40 the same kubbs felled and pieces touched, 356.1 -> 524.3 steps
    # per throw): felled kubbs, touched pieces, step counts and a digest of every final pose must
    # all be equal
    stored = json.loads(REFERENCE.read_text())
    assert stored["seed"] == 0 and len(stored["throws"]) == 40
    rows = reference_results(40, seed=0)
    assert [r["felled"] for r in rows] == [r["felled"] for r in stored["throws"]]
    assert rows == stored["throws"]
    # the sample is not trivial: some throws fell kubbs, some touch nothing
    assert sum(len(r["felled"]) for r in rows) >= 5
    assert any(not r["touched"] for r in rows)


def test_flight_clearance_bound_answers_exactly_like_the_full_evaluation():
    rng = np.random.default_rng(3)
    others = [(float(x), float(y), 0.075, 0.25) for x, y in rng.uniform(-4, 4, (12, 2))]
    fast = FlightClearance(0.15, others)
    full = FlightClearance(0.15, others)
    answers = []
    # a flight from one baseline to the other (4 cm per step, a parabola up to 1.5 m) and a
    # random walk near the pieces
    path = [(x, 0.3 * x / 8, 0.5 + 1.0 * (1 - (x / 4) ** 2)) for x in np.arange(-4.0, 4.0, 0.04)]
    pos = np.array([0.0, 0.0, 0.3])
    for _ in range(1000):
        pos = pos + rng.normal(0, 0.02, 3)
        path.append(tuple(pos))
    for p in path:
        need = float(rng.uniform(0.05, 0.15))
        answers.append(fast.exceeds(tuple(float(v) for v in p), need))
        assert answers[-1] == (full(tuple(float(v) for v in p)) > need)
    # both answers occur, and the bound saved evaluations
    assert 0 < sum(answers) < len(answers)
    assert fast.evaluations < full.evaluations * 0.8
    # the gap is the nearer of the ground (height above ground_clear) and the other spheres
    assert math.isclose(FlightClearance(-10.0, [(0.0, 0.0, 0.0, 1.0)])((3.0, 4.0, 0.0)), 4.0)
    assert math.isclose(FlightClearance(-2.0, [(0.0, 0.0, 0.0, 1.0)])((3.0, 4.0, 0.0)), 2.0)


@pytest.mark.parametrize(
    "backend, per_task, tail_of_40, tasks_for_600, singles",
    [
        ("local", 16, 5, 62, 15),  # 0.2 s per task; at least 4 tasks per worker left
        ("dask", 160, 20, 12, 3),  # 2 s per task (a Dask task costs more); at least 1 per slot left
    ],
)
def test_tasks_hold_a_set_time_of_trials_and_end_in_single_trials(
    backend, per_task, tail_of_40, tasks_for_600, singles
):
    from kubb3d.experiment import runner

    size = getattr(runner, f"{backend}_batch_size")
    task_s, most = getattr(runner, f"{backend.upper()}_TASK_S"), getattr(runner, f"{backend.upper()}_MAX_BATCH")
    assert size(None, 600, 2) == 1  # no task finished yet: one trial per task
    assert size(0.0125, 600, 2) == round(task_s / 0.0125) == per_task
    assert size(0.001, 100_000, 64) == most
    assert size(2.0, 600, 2) == 1  # long trials (matches): one per task
    assert size(0.0125, 40, 2) == tail_of_40  # the tail
    assert size(0.0125, 5, 4) == 1  # never 0
    # 600 trials of 12.5 ms on 2 workers: full tasks, then shrinking to single trials
    sizes, left = [], 600
    while left:
        sizes.append(size(0.0125, left, 2))
        left -= sizes[-1]
    assert sizes[0] == per_task and sizes == sorted(sizes, reverse=True)
    assert sizes[-singles - 1 :] == [2] + [1] * singles
    assert len(sizes) == tasks_for_600  # Dask's old fixed batches of 16 made 38, the last of 16 trials


def test_batches_are_sized_from_the_fastest_finished_task():
    """A bare worker's first task carries its imports (0.3 s); the estimate is the smallest
    per-trial mean of a finished task, of successful trials only."""
    from kubb3d.experiment.runner import TrialTime

    t = TrialTime()
    assert t.s is None
    t.add([({"ok": True}, 0.31)])  # a worker's first trial, with its imports
    t.add([({"ok": True}, 0.012), ({"ok": True}, 0.014)])
    t.add([({"ok": True}, 0.02), ({"ok": False}, 0.0001)])  # a failed trial says nothing
    assert t.s == pytest.approx(0.013)
    t.add([({"ok": False}, 0.0001)])
    assert t.s == pytest.approx(0.013)


def test_bench_reports_ratio_steps_and_the_equivalence_check():
    from kubb3d.bench import run_bench

    f = run_bench(4, 0, 0, show=False)
    assert f["throws"] == 4 and f["full_throws_per_s"] > 0 and f["bare_throws_per_s"] > 0
    assert math.isclose(f["ratio_full_to_bare"], f["full_throws_per_s"] / f["bare_throws_per_s"])
    # kubb3d takes long steps in free flight and while everything is slow; the bare loop and
    # the plain stepping do not
    assert f["steps_per_throw"] < f["bare_steps_per_throw"] / 2
    assert f["steps_per_throw"] < f["plain_steps_per_throw"] / 2
    assert f["identical_rerun"] is True and f["rerun_throws"] == 4
    # the paired difference is of the two rates, and the verdict is its interval's
    assert f["felled_difference"] == pytest.approx(f["felled_per_baton"] - f["plain_felled_per_baton"])
    d, half = f["felled_difference"], f["felled_difference_ci95"]
    assert f["felled_equivalent"] == (d == 0.0 or abs(d) <= half)
    assert half >= 0 and len(f["load_average"]) == 2


@pytest.mark.parametrize(
    "timed, plain, difference, equivalent",
    [
        ([1] * 6, [0] * 6, 1.0, False),  # one more in every throw: no spread, not equivalent
        ([1, 1, 1, 1, 1, 0], [0] * 6, 5 / 6, False),  # ±0.428 (t, 5 degrees of freedom)
        ([1, 0, 1, 0, 1, 0], [0, 1, 0, 1, 0, 1], 0.0, True),  # every throw differs, the rates do not
        ([2] + [0] * 9, [0] * 10, 0.2, True),  # ±0.452 (t, 9 degrees of freedom)
    ],
)
def test_the_equivalence_check_pairs_the_plain_run_with_the_timed_one(
    monkeypatch, timed, plain, difference, equivalent
):
    """kubb3d bench's check (kubb3d.bench.equivalence) on made-up runs: the same throws stepped
    plainly (quiet_dt = DT) against the timed run's felled counts, paired, and a re-run's digests
    against the timed run's. Its verdict was only asserted to be a bool: a check that compared
    the timed run with itself and always said "equivalent" passed."""
    from kubb3d import bench
    from kubb3d.physics.world import DT

    throws = [(f"throw {i}", None) for i in range(len(timed))]
    digests = [f"digest {i}" for i in range(len(timed))]
    rerun = list(digests)

    def full_throws(some, *, felled=None, digests=None, quiet_dt=None):
        assert list(some) == throws[: len(some)]  # the same throws, in their order
        if quiet_dt == DT:
            felled.extend(plain)
            return 1.0, 500 * len(some)
        assert quiet_dt is None and felled is None
        digests.extend(rerun[: len(some)])
        return 1.0, 200 * len(some)

    monkeypatch.setattr(bench, "full_throws", full_throws)
    f = bench.equivalence(throws, timed, digests)
    assert f["felled_per_baton"] == pytest.approx(sum(timed) / len(timed))
    assert f["plain_felled_per_baton"] == pytest.approx(sum(plain) / len(plain))
    assert f["felled_difference"] == pytest.approx(difference)
    assert f["felled_equivalent"] is equivalent
    assert f["identical_rerun"] is True and f["rerun_throws"] == len(timed) and f["plain_steps_per_throw"] == 500
    rerun[-1] = "another digest"
    assert bench.equivalence(throws, timed, digests)["identical_rerun"] is False


def test_worker_malloc_tuning_undoes_the_dask_nanny_trim_threshold():
    """Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536, which makes every large
    allocation map fresh pages; tune_malloc() restores the reuse (docs/speed.md "Third round")."""
    import subprocess
    import sys

    script = """
import resource
from kubb3d.experiment.runner import tune_malloc

def faults():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(50):
        b = bytearray(4 << 20)  # 4 MiB written through: 1024 pages when freshly mapped
        del b
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

print(faults(), tune_malloc(), faults())
"""
    env = {**os.environ, "MALLOC_TRIM_THRESHOLD_": "65536"}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    before, tuned, after = out.stdout.split()
    if tuned == "False":
        pytest.skip("the C library has no mallopt (not glibc)")
    assert int(before) > 10_000  # most allocations mapped anew (1 024 pages each)
    assert int(after) < int(before) / 10
    plain = subprocess.run(
        [sys.executable, "-c", "from kubb3d.experiment.runner import tune_malloc; print(tune_malloc())"],
        env={k: v for k, v in os.environ.items() if k != "MALLOC_TRIM_THRESHOLD_"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert plain.stdout.strip() == "False"  # nothing to undo: the allocator is left alone


def test_dask_environment_gives_dask_the_kubb3d_settings_and_the_cluster_page_gives_that_environment():
    """A misspelt DASK_* variable is ignored by Dask without a word: read the variables back with
    Dask's own parser, and check that docs/cluster.md's commands export exactly them."""
    pytest.importorskip("distributed")  # registers Dask's distributed defaults
    config = pytest.importorskip("dask.config")
    from kubb3d.experiment.runner import DASK_CONFIG, dask_environ

    env = dask_environ()
    read = config.collect_env(env)
    assert {key: config.get(key, config=read) for key in DASK_CONFIG} == DASK_CONFIG
    assert all(config.get(key) != value for key, value in DASK_CONFIG.items())  # none is Dask's default
    page = (Path(__file__).resolve().parents[1] / "docs" / "cluster.md").read_text(encoding="utf-8")
    exported = re.search(r"export (DASK_\S+(?:\s+\\?\s*DASK_\S+)*)", page)
    assert exported is not None
    assert dict(pair.split("=", 1) for pair in re.findall(r"DASK_\S+=\S+", exported.group(1))) == env


def test_dask_worker_preload_imports_what_any_trial_needs_and_tunes_malloc_at_start():
    """``dask worker --preload kubb3d.experiment.dask_worker`` (docs/cluster.md): the worker
    imports, at start, every module the local fork server preloads for any spec (a match spec's
    included), its allocator is tuned and a PyBullet client connected before the first task."""
    import subprocess
    import sys

    from kubb3d.experiment import load_spec
    from kubb3d.experiment.runner import worker_modules

    root = Path(__file__).resolve().parents[1] / "scenarios" / "experiments"
    needed = {m for name in ("club-vs-elite", "hit-8m") for m in worker_modules(load_spec(root / f"{name}.toml"))}
    script = f"""
import sys
import kubb3d.experiment.dask_worker as preload
from kubb3d.experiment import runner
from kubb3d.physics import engine, world
tuned_before, pooled_before = runner._malloc_tuned, list(engine._CLIENT_POOL)
preload.dask_setup(None)
pooled = list(engine._CLIENT_POOL)
print(tuned_before, runner._malloc_tuned, [m for m in {sorted(needed)!r} if m not in sys.modules])
first = world.World()
print(pooled_before, len(pooled), first.engine.client == pooled[0], engine.prepare_client())
"""
    env = {**os.environ, "MALLOC_TRIM_THRESHOLD_": "65536"}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    tuned, pooled = out.stdout.strip().splitlines()
    assert tuned == "False True []"  # not tuned by the import, tuned at set-up; none missing
    # a PyBullet client connected at set-up, taken by the first world (which then holds it: the
    # pool is empty and prepare_client connects another)
    assert pooled == "[] 1 True True"


def test_the_integrated_flight_hands_over_clear_of_everything_and_the_engine_steps_find_no_contact(monkeypatch):
    # the free flight integrated outside the engine hands the piece back at least FLIGHT_MARGIN
    # (bounding box to ground, bounding spheres to pieces) from everything: the first fine step
    # after it has no contact point; a long engine step taken far from everything reads none
    # either (kubb3d/throw/simulation.py)
    from kubb3d.bench import _throws
    from kubb3d.physics import world as W
    from kubb3d.physics.stepping import Stepper
    from kubb3d.throw import throw

    state = {"far": False, "checked": 0, "handed": 0, "after": 0, "contacts": 0}
    exceeds, step, hand = FlightClearance.exceeds, Stepper.step, Stepper.set_flight_state

    def watched_exceeds(self, com, need):
        state["far"] = answer = exceeds(self, com, need)
        return answer

    def watched_step(self, n=1, **kwargs):
        step(self, n, **kwargs)
        if state["far"] or state["after"]:
            state["checked"] += 1
            assert self._engine.contacts_of("baton1") == []
        state["far"] = False
        state["after"] = 0

    def watched_hand(self, *args):
        hand(self, *args)
        state["handed"] += 1
        state["after"] = 1

    monkeypatch.setattr(FlightClearance, "exceeds", watched_exceeds)
    monkeypatch.setattr(Stepper, "step", watched_step)
    monkeypatch.setattr(Stepper, "set_flight_state", watched_hand)
    for params, _ in _throws(12, 0):
        with W.World.standard() as w:
            state["contacts"] += throw(w, params).first_contact is not None
    assert state["handed"] == 12 and state["checked"] >= 12 and state["contacts"] >= 10


def test_a_dask_task_imports_nothing_heavy_where_it_is_unpickled():
    """Dask's scheduler unpickles every task it is sent, which imports the module of the task's
    function: the function the Dask backend submits, unpickled in a fresh interpreter, must not
    bring in kubb3d's spec, judge or physics, pydantic or numpy (the runner's ``_work_batch`` took
    0.14 s of the scheduler's CPU in a cluster's first run: docs/speed.md "Dask (sixth round)")."""
    import pickle
    import subprocess
    import sys

    from kubb3d.experiment import runner

    heavy = ["kubb3d.experiment.runner", "kubb3d.experiment.spec", "kubb3d.judge", "kubb3d.physics"]
    heavy += ["pydantic", "numpy"]
    payload = pickle.dumps(runner.DASK_TASK)
    script = f"import pickle, sys; pickle.loads({payload!r}); print([m for m in {heavy!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def _stake_collisions(equipment, terrain):
    """A baton thrown into the centre-line stake and a kubb sliding into a corner stake; returns
    each stake's dynamics and AABB, what touched the two stakes, and the digest of the final
    poses."""
    import pybullet as pb

    from kubb3d.bench import snapshot_digest
    from kubb3d.physics.world import World

    with World.standard(equipment, terrain=terrain) as w:
        stakes = w.pitch.stake_positions()
        x, y = stakes["stake-mid-left"]
        lying = (-math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5))  # the baton's axis along y
        w.add_piece("b", "baton", (x - 0.6, y, w.ground_height(x - 0.6, y) + 0.15), lying, sleeping=False)
        w.set_pose("b", (x - 0.6, y, w.ground_height(x - 0.6, y) + 0.15), lying, linear_velocity=(5.0, 0.0, 0.5))
        kx, ky = stakes["stake-A-left"]
        z = w.height_on_ground("kubb", kx + 0.4, ky + 0.03)
        w.add_piece("k", "kubb", (kx + 0.4, ky + 0.03, z), sleeping=False)
        w.set_pose("k", (kx + 0.4, ky + 0.03, z), linear_velocity=(-2.5, 0.0, 0.0))
        touched = set()
        w.stepper.add_step_hook(
            lambda: touched.update((pid, other) for pid in ("b", "k") for _, _, other, _, _ in w.contacts_of(pid)),
            watch=True,
        )
        w.run_until_rest(10.0)
        c = w.engine.client
        bodies = [w.engine.body_of(sid) for sid in stakes]
        # (getDynamicsInfo's local inertial frame of a maximal-coordinate body is stale memory)
        info = [pb.getDynamicsInfo(b, -1, physicsClientId=c) for b in bodies]
        static = [(i[:3] + i[5:], pb.getAABB(b, physicsClientId=c)) for i, b in zip(info, bodies)]
        return static, touched, snapshot_digest(w.snapshot()), w.steps


@pytest.mark.parametrize("equipment, terrain", [("standard", None), ("standard", "bumps"), ("dm-small", None)])
def test_stakes_built_from_their_shapes_are_the_urdf_stakes_to_the_bit(monkeypatch, equipment, terrain):
    # the stakes are built with createMultiBody from a cylinder shape, all six in one call, not
    # loaded from their URDF (docs/speed.md "Ninth round"): the same bodies, the same collisions
    from kubb3d.physics import engine as engine_module
    from kubb3d.physics import world as world_module
    from kubb3d.physics.world import Terrain

    ground = Terrain(0.01, seed=3) if terrain else None
    assert engine_module.fixed_cylinder("standard", "stake") == (0.015, 0.25, (0.55, 0.40, 0.25, 1.0))
    assert engine_module.fixed_cylinder("standard", "kubb") is None  # a dynamic piece: its URDF
    built = _stake_collisions(equipment, ground)
    monkeypatch.setattr(engine_module, "fixed_cylinder", lambda *args: None)
    loaded = _stake_collisions(equipment, ground)
    assert built == loaded
    static, touched, _, steps = built
    # the baton hit the centre-line stake and the kubb the corner stake; the stakes are static
    assert ("b", "stake-mid-left") in touched and ("k", "stake-A-left") in touched
    assert all(dyn[0] == 0.0 and dyn[-1] == 0.001 for dyn, _ in static)  # no mass, 1 mm margin
    assert steps > 100
    # a renderer reading the client sees each stake as its bounding box in the URDF's colour
    import pybullet as pb

    monkeypatch.undo()
    with world_module.World(equipment) as w:
        stake = w.equipment.stake
        shape = pb.getVisualShapeData(w.engine.body_of("stake-mid-left"), physicsClientId=w.engine.client)[0]
        assert shape[2] == pb.GEOM_BOX and shape[3] == pytest.approx((stake.diameter, stake.diameter, stake.length))
        assert shape[7] == pytest.approx((0.55, 0.40, 0.25, 1.0))

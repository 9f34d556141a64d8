"""Running experiments: rows do not depend on the number of workers or the backend, a run
resumes (also after kill -9 of its process group) without lost or duplicated rows, failing
trials are stored with their reason, another spec's results file is refused."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from process_helpers import session_members_of, stored_trials
from experiment_helpers import strip_wall, write_tiny

from kubb3d.experiment import StoreError, load_spec, read_rows, run

ROOT = Path(__file__).resolve().parents[2]


def test_reference_rows_are_complete(tiny_reference):
    _, rows, _ = tiny_reference
    assert [r["trial"] for r in rows] == list(range(16))
    assert all(r["ok"] for r in rows), [r["error"] for r in rows if not r["ok"]]
    assert [(r["point"], r["rep"]) for r in rows[:5]] == [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1)]
    assert all(r["spawn_key"] == [r["trial"]] and r["seed_entropy"] == "7" for r in rows)
    # every requested measure produced its columns
    for col in (
        "hit",
        "kubbs_felled",
        "felled",
        "first_contact",
        "max_tilt_deg",
        "legal",
        "flight_time_s",
        "rest_positions",
        "judge_felled",
        "status_B2",
        "status_king",
    ):
        assert col in rows[0], col
    # the drawn values differ between trials of one grid point
    assert len({r["azimuth_deg"] for r in rows if r["point"] == 0}) == 4


def test_two_workers_equal_one_worker_row_for_row(tiny_reference, tmp_path):
    spec, reference, _ = tiny_reference
    loaded = load_spec(spec)
    one, two = tmp_path / "one.sqlite", tmp_path / "two.sqlite"
    r1 = run(loaded, one, workers=1, progress=False)
    r2 = run(loaded, two, workers=2, progress=False)
    assert (r1.ran, r2.ran, r1.failed, r2.failed) == (16, 16, 0, 0)
    assert strip_wall(read_rows(one)) == reference
    assert strip_wall(read_rows(two)) == reference


def test_rows_do_not_depend_on_the_start_method(tiny_reference, tmp_path, monkeypatch):
    """The default start method (forkserver where there is one) is the other tests'; spawn, the
    only one on Windows, gives the same rows."""
    from kubb3d.experiment import runner

    spec, reference, _ = tiny_reference
    monkeypatch.setattr(runner, "START_METHOD", "spawn")
    out = tmp_path / "spawn.sqlite"
    rep = run(load_spec(spec), out, workers=2, progress=False)
    assert (rep.ran, rep.failed) == (16, 0) and rep.tasks >= 4
    assert strip_wall(read_rows(out)) == reference


def test_resume_skips_finished_trials(tiny_reference, tmp_path):
    spec, reference, _ = tiny_reference
    loaded = load_spec(spec)
    out = tmp_path / "r.sqlite"
    first = run(loaded, out, backend="serial", max_trials=5, progress=False)
    second = run(loaded, out, backend="serial", progress=False)
    third = run(loaded, out, backend="serial", progress=False)
    assert (first.ran, second.skipped, second.ran, third.ran) == (5, 5, 11, 0)
    assert strip_wall(read_rows(out)) == reference


def test_results_of_another_spec_are_refused(tiny_reference, tmp_path):
    spec, _, _ = tiny_reference
    out = tmp_path / "r.sqlite"
    run(load_spec(spec), out, backend="serial", max_trials=1, progress=False)
    other = tmp_path / "other.toml"
    other.write_text(spec.read_text().replace("seed = 7", "seed = 99"))
    with pytest.raises(StoreError, match="holds results of a different spec"):
        run(load_spec(other), out, backend="serial", progress=False)
    assert len(read_rows(out)) == 1


def test_failing_trials_are_stored_with_their_reason(tmp_path, monkeypatch):
    from kubb3d.physics import world as world_mod
    from kubb3d.physics.rest import Rest

    spec = tmp_path / "lean.toml"
    text = """
schema = 1
title = "lean"
seed = 3
trials_per_point = TRIALS
measures = ["status", "felled"]
watch = ["L", "S"]
[setup]
layout = "empty"
ground = { base = "grass", friction = { grid = [0.03, 0.5] } }
[[setup.pieces]]
id = "S"
at = [2.0, 0.0]
[[setup.pieces]]
id = "L"
place = "leaning"
on = "S"
from_deg = 180
tilt_deg = TILT
[disturb]
piece = "L"
speed_mps = 0.05
"""
    spec.write_text(text.replace("TRIALS", "2").replace("TILT", "32.0"))
    out = tmp_path / "lean.sqlite"
    rep = run(load_spec(spec), out, backend="serial", progress=False)
    rows = read_rows(out)
    assert (rep.ran, rep.failed, len(rows)) == (4, 0, 4)
    good = {r["ground_friction"]: r["status_L"] for r in rows if r["ok"]}
    # A block leaning 32° on a block: its centre of mass is only 1.1 cm beyond its ground edge, so
    # the push on its supporter is about 0.07-0.09 of its weight (torque balance about the ground
    # edge, wall friction 0.5 to 0): ground friction 0.1 would hold it, 0.03 cannot.
    assert good == {0.03: "fallen", 0.5: "leaning"}

    # a tilt drawn per trial may leave (0, 80] (only the mean is checked at load): those trials
    # fail and are stored with their reason; which ones follows from each trial's own seed
    bad_spec = tmp_path / "lean_drawn.toml"
    bad_spec.write_text(text.replace("TRIALS", "3").replace("TILT", "{ normal = [60.0, 40.0] }"))
    loaded = load_spec(bad_spec)
    draws = [
        float(np.random.default_rng(np.random.SeedSequence(3, spawn_key=(i,))).normal(60.0, 40.0)) for i in range(6)
    ]
    expect_bad = {i for i, t in enumerate(draws) if not 0 < t <= 80}
    assert 0 < len(expect_bad) < 6  # the seed gives both kinds
    out3 = tmp_path / "drawn.sqlite"
    rep3 = run(loaded, out3, backend="serial", progress=False)
    rows3 = read_rows(out3)
    assert (rep3.ran, rep3.failed) == (6, len(expect_bad))
    assert {r["trial"] for r in rows3 if not r["ok"]} == expect_bad
    assert all(
        r["error"]
        == f"ValueError: L_tilt_deg: the trial's value {r['L_tilt_deg']!r} is outside the field's range (more than 0 "
        "and at most 80 degrees)"
        for r in rows3
        if not r["ok"]
    )

    # a physics glitch in every trial: all stored as failed, none dropped
    def glitch(self, *a, **k):  # a generator like the real one (run_until_rest runs it too)
        raise world_mod.PhysicsGlitch("piece L left the world")
        yield

    monkeypatch.setattr(Rest, "iter_until_rest", glitch)
    out2 = tmp_path / "glitch.sqlite"
    rep2 = run(load_spec(spec), out2, backend="serial", progress=False)
    rows2 = read_rows(out2)
    assert (rep2.ran, rep2.failed) == (4, 4)
    assert {r["error"] for r in rows2} == {"PhysicsGlitch: piece L left the world"}



def test_kill_9_and_resume(tiny_reference, tmp_path):
    _, reference, _ = tiny_reference
    spec = write_tiny(tmp_path, trials_per_point=12, name="long.toml")  # 48 trials, same hash as tiny
    out = tmp_path / "killed.sqlite"
    cmd = [sys.executable, "-m", "kubb3d.cli.experiment", "run", str(spec), "--out", str(out), "--workers", "2", "-q"]
    proc = subprocess.Popen(cmd, cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    try:
        while stored_trials(out) < 4:
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "no rows after 120 s"
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    stored = stored_trials(out)
    assert 4 <= stored < 48
    rep = run(load_spec(spec), out, workers=2, progress=False)
    rows = read_rows(out)
    assert rep.skipped == stored and rep.ran == 48 - stored
    assert [r["trial"] for r in rows] == list(range(48))
    # the first 16 trials equal the 4-per-point reference: trial i does not depend on N
    assert strip_wall(rows[:16]) == reference


def test_dask_local_cluster_gives_the_same_rows(tiny_reference, tmp_path, monkeypatch):
    """The LocalCluster's workers get the preload (a PyBullet client connected at start) and the
    tail goes out at once once the trial time is known (here all 12 trials left after the first
    results: more than 2 tasks per worker in flight, docs/speed.md "Dask (seventh round)"); the rows
    are those of the reference."""
    pytest.importorskip("dask.distributed")
    from kubb3d.experiment import runner

    in_flight: list[int] = []
    real = runner.dask_may_submit

    def spy(trial_s, remaining, tasks, slots):
        ok = real(trial_s, remaining, tasks, slots)
        if ok:
            in_flight.append(tasks + 1)
        return ok

    monkeypatch.setattr(runner, "dask_may_submit", spy)
    spec, reference, _ = tiny_reference
    out = tmp_path / "dask.sqlite"
    rep = run(load_spec(spec), out, backend="dask", workers=2, progress=False)
    assert (rep.ran, rep.failed) == (16, 0)
    assert strip_wall(read_rows(out)) == reference
    assert max(in_flight) > 4 and rep.tasks == len(in_flight)


def test_dask_tasks_in_flight_two_per_slot_then_the_whole_tail():
    """600 trials of 12.5 ms on 2 slots: 4 single trials until the first estimate, 2 s tasks with 2
    per slot in flight, then, with at most one such task per slot left, the halving tail all at once."""
    from kubb3d.experiment.runner import DASK_TASK_S, dask_batch_size, dask_may_submit

    assert DASK_TASK_S == 2.0
    assert not dask_may_submit(None, 0, 0, 2) and not dask_may_submit(0.0125, 0, 0, 2)
    assert dask_may_submit(None, 600, 3, 2) and not dask_may_submit(None, 600, 4, 2)
    assert not dask_may_submit(0.0125, 321, 4, 2) and dask_may_submit(0.0125, 320, 4, 2)
    queue, trial_s, sent, in_flight = 600, None, [], 0

    def top_up() -> None:
        nonlocal queue, in_flight
        while dask_may_submit(trial_s, queue, in_flight, 2):
            size = dask_batch_size(trial_s, queue, 2)
            queue -= size
            in_flight += 1
            sent.append((size, in_flight))

    top_up()
    assert sent == [(1, 1), (1, 2), (1, 3), (1, 4)]
    trial_s = 0.0125  # the first task's estimate
    while queue:  # a task finishes, the next ones go out
        in_flight -= 1
        top_up()
    assert [size for size, _ in sent[4:6]] == [160, 160]
    tail = [(size, n) for size, n in sent[6:]]
    assert [size for size, _ in tail] == [138, 69, 34, 17, 9, 4, 2, 1, 1, 1]
    assert [n for _, n in tail] == list(range(5, 15))  # all out together, the largest first
    assert sum(size for size, _ in sent) == 600



@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_no_orphan_workers_after_the_run_is_killed(tmp_path, sig):
    spec = write_tiny(tmp_path, trials_per_point=12, name="long.toml")
    out = tmp_path / "killed.sqlite"
    cmd = [
        sys.executable,
        "-c",
        "from kubb3d.cli import main; main()",
        "experiment",
        "run",
        str(spec),
        "--out",
        str(out),
        "--workers",
        "2",
        "-q",
    ]
    log = tmp_path / "stderr.txt"  # a file, not a pipe: an orphan would hold a pipe open
    with open(log, "wb") as fh:
        proc = subprocess.Popen(cmd, cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL, stderr=fh)
    deadline = time.monotonic() + 120
    try:
        while stored_trials(out) < 2:
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "no rows after 120 s"
            time.sleep(0.05)
        assert len(session_members_of(proc.pid)) >= 3  # the run, its 2 workers (and the resource tracker)
        proc.send_signal(sig)  # the parent only, not its process group
        proc.wait(timeout=30)
        err = log.read_text()
        if sig == signal.SIGTERM:
            assert "interrupted" in err and "Traceback" not in err
        gone_by = time.monotonic() + 5  # polled (it slept 5 s): an empty session stays empty
        left = session_members_of(proc.pid)
        while left and time.monotonic() < gone_by:
            time.sleep(0.1)
            left = session_members_of(proc.pid)
        assert left == [], f"processes left 5 s after the run was killed: {left}"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_a_huge_grid_runs_lazily_with_max_trials(tmp_path):
    """10^12 trials: --max-trials 1 runs one trial at once (nothing is enumerated eagerly)."""
    from kubb3d.experiment.runner import MAX_TRIALS_PER_RUN

    spec = Path(__file__).resolve().parents[1] / "bad_inputs" / "spec_huge_grid.toml"
    loaded = load_spec(spec)
    assert loaded.n_trials == 10**12 > MAX_TRIALS_PER_RUN
    out = tmp_path / "huge.sqlite"
    with pytest.raises(ValueError, match="--max-trials"):
        run(loaded, out, backend="serial", progress=False)
    assert not out.exists()
    t0 = time.perf_counter()
    rep = run(loaded, out, backend="serial", progress=False, max_trials=1)
    assert (rep.ran, rep.skipped, rep.total) == (1, 0, 10**12)
    rep2 = run(loaded, out, backend="serial", progress=False, max_trials=2)
    assert (rep2.ran, rep2.skipped) == (2, 1)
    from kubb3d.experiment.runner import spread_order

    first = list(itertools.islice(spread_order(loaded), 3))
    assert [r["trial"] for r in read_rows(out)] == sorted(first)  # spread over the grid, not 0, 1, 2
    assert time.perf_counter() - t0 < 60


GRID = """
schema = 1
title = "grid"
seed = {seed}
trials_per_point = 3
measures = ["hit"]

[setup]
ruleset = "dm"

[throw]
target = "B2"
speed = {{ grid = [8.0, 8.5, 9.0, 9.5, 10.0, 10.5, 11.0, 11.5, 12.0, 12.5] }}
elevation_deg = {{ grid = [20.0, 22.0, 24.0, 26.0, 28.0, 30.0, 32.0, 34.0, 36.0, 38.0] }}
spin_rps = {{ grid = [1.0, 2.0] }}
"""


def test_max_trials_takes_a_part_spread_over_the_grid(tmp_path):
    # --max-trials 20 of a 10 × 10 × 2 grid took the grid's first 20 points: one speed of ten
    from kubb3d.experiment.runner import spread_order

    spec = tmp_path / "grid.toml"
    spec.write_text(GRID.format(seed=7))
    loaded = load_spec(spec)
    order = list(spread_order(loaded))
    assert sorted(order) == list(range(loaded.n_trials))  # every trial once: parts add up to the run
    n = loaded.n_points
    # repetition by repetition: every point runs k times before any runs k + 1 times
    assert all(set(order[r * n:(r + 1) * n]) == set(range(r * n, (r + 1) * n)) for r in range(3))
    for k in (20, 40):
        part = [loaded.point(i % n) for i in order[:k]]
        for factor, size in (("speed", 10), ("elevation_deg", 10), ("spin_rps", 2)):
            assert len({p[factor] for p in part}) == size, (k, factor)  # every value of every factor
    tenth = [loaded.point(i % n) for i in order[:10]]
    assert min(len({p[f] for p in tenth}) for f in ("speed", "elevation_deg")) >= 5  # a stride, not strata
    # in grid order the first 20 trials held one speed of ten
    assert len({loaded.point(i)["speed"] for i in range(20)}) == 1
    assert len({loaded.point(i % n)["speed"] for i in order[:5]}) >= 4
    # the seed chooses where the part starts; the same seed the same part
    other = tmp_path / "other.toml"
    other.write_text(GRID.format(seed=8))
    assert list(itertools.islice(spread_order(load_spec(other)), 20)) != order[:20]
    assert list(itertools.islice(spread_order(load_spec(spec)), 20)) == order[:20]


def test_parts_of_a_run_add_up_to_the_whole_run(tiny_reference, tmp_path):
    spec, reference, _ = tiny_reference
    loaded = load_spec(spec)
    out = tmp_path / "parts.sqlite"
    ran = [run(loaded, out, backend="serial", max_trials=3, progress=False).ran for _ in range(6)]
    assert ran == [3, 3, 3, 3, 3, 1]
    assert strip_wall(read_rows(out)) == reference  # the same rows as one whole run


def test_a_run_whose_trials_all_fail_exits_1_with_one_line(tmp_path, monkeypatch):
    """Exit codes: 2 = the input was refused before any work (nothing written); 1 = the work
    ran and failed (here every trial: the rows are stored, as audit/validate exit 1)."""
    from typer.testing import CliRunner

    from kubb3d.cli import _register_subapps, app
    from kubb3d.physics import world as world_mod
    from kubb3d.physics.rest import Rest

    def glitch(self, *a, **k):  # a generator like the real one (run_until_rest runs it too)
        raise world_mod.PhysicsGlitch("piece B2 left the world")
        yield

    monkeypatch.setattr(Rest, "iter_until_rest", glitch)
    spec = write_tiny(tmp_path)
    out = tmp_path / "r.sqlite"
    _register_subapps()
    res = CliRunner().invoke(app, ["experiment", "run", str(spec), "--out", str(out), "--backend", "serial", "--quiet"])
    assert res.exit_code == 1, res.output
    errors = [ln for ln in res.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and "trials failed" in errors[0] and "PhysicsGlitch: piece B2 left the world" in errors[0]
    rows = read_rows(out)
    assert rows and not any(r["ok"] for r in rows)


def test_batched_local_tasks_give_the_same_rows(tiny_reference, tmp_path, monkeypatch):
    """Several trials per local task (docs/speed.md): the rows are those of one trial per task."""
    from kubb3d.experiment import runner

    _, reference, _ = tiny_reference
    sizes: list[int] = []
    real = runner.local_batch_size

    def spy(mean_trial_s, remaining, workers):
        sizes.append(real(mean_trial_s, remaining, workers))
        return sizes[-1]

    monkeypatch.setattr(runner, "LOCAL_TASK_S", 100.0)  # batches as large as the tail allows
    monkeypatch.setattr(runner, "local_batch_size", spy)
    out = tmp_path / "batched.sqlite"
    rep = run(load_spec(write_tiny(tmp_path, trials_per_point=8)), out, workers=2, progress=False)
    assert (rep.ran, rep.failed, rep.tasks) == (32, 0, len(sizes))
    assert max(sizes) >= 3 and sizes[:4] == [1, 1, 1, 1]
    # a trial depends only on the seed and its index: the first 16 are the 16 of the reference
    assert strip_wall(read_rows(out))[:16] == reference


@pytest.mark.parametrize("noticed", [False, True])
def test_a_worker_killed_mid_run_is_retried_and_the_rows_are_complete(tiny_reference, tmp_path, monkeypatch, noticed):
    """A worker process killed while trials are in flight breaks the local pool: the trials it
    held are run again (one at a time, in a pool of one worker) and the run goes on; the rows are complete
    and equal to the reference. ``noticed``: the run's next submit finds the pool already broken
    (the kill seen before the parent hands out more work), which must be retried too."""
    from kubb3d.experiment import runner

    pools: list = []

    class CountedPool(runner.ProcessPoolExecutor):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            pools.append(self)

    killed: list[int] = []

    def kill_one_worker(rows: list[dict]) -> None:
        if killed:
            return
        workers = list(pools[0]._processes.values())  # the run's first pool, not other children
        assert workers, "no worker process alive"
        victim = workers[0]
        os.kill(victim.pid, signal.SIGKILL)
        victim.join(10)
        killed.append(victim.exitcode)
        if noticed:
            time.sleep(0.5)  # the pool's manager thread marks the pool broken

    monkeypatch.setattr(runner, "ProcessPoolExecutor", CountedPool)
    spec, reference, _ = tiny_reference
    out = tmp_path / "killed-worker.sqlite"
    rep = run(load_spec(spec), out, workers=2, progress=False, on_rows=kill_one_worker)
    # -SIGKILL; under the fork server the status is relayed through a pipe that the pool's own
    # manager thread may read first, and the loser of that race reads 255 (multiprocessing's
    # "status lost"): seen once in a fresh-clone CI run
    assert len(killed) == 1 and killed[0] in (-signal.SIGKILL, 255)
    assert (rep.ran, rep.failed) == (16, 0)
    rows = read_rows(out)
    assert strip_wall(rows) == reference
    # the first pool broke; the trials in flight ran one by one in a pool of one worker, then a
    # fresh pool of two took the rest
    sizes = [p._max_workers for p in pools]
    assert sizes[0] == 2 and sizes[-1] == 2 and 1 in sizes[1:-1], sizes


def test_scaling_benchmark_runs_sizes_beyond_the_spec_on_a_copy_with_the_same_first_trials(tmp_path):
    """``benchmarks/experiment_scaling.py --trials 3000`` on hit-8m (1,050 trials) ran 1,050 trials
    and reported them as the 3,000-trial size (``run``'s ``max_trials`` only caps): sizes beyond the
    spec now run on a copy with ``trials_per_point`` raised, whose first trials are the spec's."""
    import importlib.util

    from kubb3d.experiment.trial import run_trial

    root = Path(__file__).resolve().parents[2]
    source = importlib.util.spec_from_file_location("experiment_scaling", root / "benchmarks" / "experiment_scaling.py")
    assert source is not None and source.loader is not None
    bench = importlib.util.module_from_spec(source)
    source.loader.exec_module(bench)
    hit = root / "scenarios" / "experiments" / "hit-8m.toml"
    said: list[str] = []
    assert bench.enough_trials(hit, 1000, tmp_path, said.append) == hit and said == []
    original, copy = load_spec(hit), load_spec(bench.enough_trials(hit, 3000, tmp_path, said.append))
    assert original.n_trials < 3000 <= copy.n_trials < 3000 + original.n_points and len(said) == 1
    last = original.n_trials - 1
    assert run_trial(copy, last) == run_trial(original, last)

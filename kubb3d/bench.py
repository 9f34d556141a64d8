"""``kubb3d bench``: throughput of full throws against a bare PyBullet loop, and memory.

A *full throw* is: build the standard scene in a fresh world (stakes, ten
baseline kubbs, king), release a baton aimed at a random baseline kubb of
side B with a little noise, simulate until everything rests (drag, flight
legality, trajectory recording, contacts), and take the final snapshot. The
aim solutions are computed before the clock starts.

The *bare loop* does the same physics with PyBullet alone: the same URDF
files, engine settings and dynamics, the same release, stepping at the fixed
time step :data:`~kubb3d.physics.world.DT` until every body is slow for the
same settle window, but without drag, plowing, legality tracking, the
stability check, recording or snapshots, and without kubb3d's free flight
integrated outside the engine and its long steps while everything is slow. The ratio tells what kubb3d's own
work costs against what its step schedule saves.

The *equivalence check* (:func:`equivalence`) runs the first throws again (the
final snapshots must be bit-identical) and all of them with plain stepping at
``DT`` throughout, and compares the kubbs felled per baton with a 95 % interval
of the paired difference. ``tests/test_speed.py`` also holds the results of
seeded throws to those of the code before the speed work, bit for bit.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import replace

import numpy as np

from kubb3d.physics._pybullet import pb
from kubb3d.ranges import counted


def rss_mb() -> float:
    """Resident set size of this process, MB (Linux /proc; 0 where unavailable)."""
    try:
        with open(f"/proc/{os.getpid()}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _throws(n: int, seed: int):
    from kubb3d.physics.world import World
    from kubb3d.throw import ThrowParams, aim, release_from_params

    rng = np.random.default_rng(seed)
    with World.standard() as w:
        sols = {f"B{i}": aim(w, f"B{i}", ThrowParams()).params for i in range(1, 6)}
        pitch = w.pitch
    out = []
    for _ in range(n):
        p = sols[f"B{rng.integers(1, 6)}"]
        p = replace(
            p,
            speed=p.speed * (1 + 0.02 * rng.standard_normal()),
            azimuth_deg=p.azimuth_deg + 0.8 * rng.standard_normal(),
        )
        out.append((p, release_from_params(p, pitch)))
    return out


def full_throws(
    throws, *, felled: list | None = None, digests: list | None = None, quiet_dt: float | None = None
) -> tuple[float, int]:
    """Run kubb3d throws, each in a fresh standard world; returns (seconds, total steps).

    Args:
        throws: from :func:`_throws`.
        felled: if given, the number of kubbs and kings not upright at rest is appended per throw.
        digests: if given, the :func:`snapshot_digest` of the final snapshot is appended per throw.
        quiet_dt: the worlds' long step, s (None: the default; ``DT``: the plain stepping).
    """
    from kubb3d.physics.world import World
    from kubb3d.throw import throw

    steps = 0
    t0 = time.perf_counter()
    for params, _ in throws:
        with World.standard(quiet_dt=quiet_dt) as w:
            r = throw(w, params)
            steps += w.steps
        if felled is not None:
            felled.append(len(r.toppled))
        if digests is not None:
            digests.append(snapshot_digest(r.final))
    return time.perf_counter() - t0, steps


def mean_ci95(values) -> tuple[float, float]:
    """(mean, half width of its Student's t 95 % interval, :func:`kubb3d.experiment.stats.t95`) of
    a sample; the half width is NaN for fewer than two values (no interval)."""
    from kubb3d.experiment.stats import t95

    x = np.asarray(values, dtype=float)
    if len(x) < 2:
        return float(x.mean()) if len(x) else math.nan, math.nan
    return float(x.mean()), float(t95(len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x)))


def equivalence(throws, felled: list[int], digests: list[str], rerun: int = 10) -> dict:
    """Does the speed-work path give the plain path's results?

    * **identical**: the first ``rerun`` throws run again give bit-identical final snapshots
      (digests equal to ``digests``, the timed run's).
    * **felled per baton**: the same throws stepped plainly, at :data:`~kubb3d.physics.world.DT`
      throughout (the engine flies the free flight, no long steps while everything is slow), against the timed
      run's ``felled``: both rates with their 95 % intervals and the paired difference with its
      95 % interval; ``equivalent`` when that interval contains 0.

    Returns:
        ``identical_rerun`` (bool), ``rerun_throws``, ``felled_per_baton``,
        ``felled_per_baton_ci95``, ``plain_felled_per_baton``, ``plain_felled_per_baton_ci95``,
        ``felled_difference``, ``felled_difference_ci95``, ``felled_equivalent`` (bool),
        ``plain_steps_per_throw``.
    """
    from kubb3d.physics.world import DT

    again: list[str] = []
    full_throws(throws[:rerun], digests=again)
    plain: list[int] = []
    _, plain_steps = full_throws(throws, felled=plain, quiet_dt=DT)
    m, h = mean_ci95(felled)
    pm, ph = mean_ci95(plain)
    d, dh = mean_ci95(np.subtract(felled, plain))
    return {
        "identical_rerun": again == digests[: len(again)],
        "rerun_throws": len(again),
        "felled_per_baton": m,
        "felled_per_baton_ci95": h,
        "plain_felled_per_baton": pm,
        "plain_felled_per_baton_ci95": ph,
        "felled_difference": d,
        "felled_difference_ci95": dh,
        "felled_equivalent": bool(d == 0.0 or abs(d) <= dh),
        "plain_steps_per_throw": plain_steps / len(throws),
    }


def snapshot_digest(snapshot) -> str:
    """SHA-256 of a snapshot's piece poses (ids in order, positions m and quaternions as exact
    hexadecimal floats): equal digests mean bit-identical poses."""
    import hashlib

    h = hashlib.sha256()
    for pid, p in snapshot.pieces.items():
        h.update(pid.encode())
        for x in (*p.position, *p.quat_xyzw):
            h.update(float(x).hex().encode())
    return h.hexdigest()


def reference_results(n: int, seed: int = 0) -> list[dict]:
    """The first ``n`` bench throws of ``seed``, each in a fresh standard world: per throw the
    felled kubbs (not upright at rest), the touched pieces, the physics steps taken and the
    :func:`snapshot_digest` of the final snapshot (``benchmarks/reference_throws.py``)."""
    from kubb3d.physics.world import World
    from kubb3d.throw import throw

    rows = []
    for params, _ in _throws(n, seed):
        with World.standard() as w:
            r = throw(w, params)
            rows.append(
                {"felled": r.toppled, "touched": r.touched, "steps": w.steps, "digest": snapshot_digest(r.final)}
            )
    return rows


def bare_loop(throws) -> tuple[float, int]:
    """The same scene and throws in plain PyBullet, stepped at the world's fixed time step
    :data:`~kubb3d.physics.world.DT` throughout; returns (seconds, total steps)."""
    from kubb3d.model_files import model_path
    from kubb3d.equipment import STANDARD
    from kubb3d.physics.engine import (
        CCD_ALLOWED_PENETRATION,
        DT,
        GRAVITY,
        REST_SPEED,
        REST_TURN,
        SPLIT_IMPULSE_THRESHOLD,
    )
    from kubb3d.physics.rest import SAMPLE_INTERVAL, SETTLE_S
    from kubb3d.physics.terrain import FLAT_GROUND_HALF_EXTENTS
    from kubb3d.physics.ground import GRASS, WOOD_ON_WOOD_FRICTION, WOOD_ON_WOOD_RESTITUTION
    from kubb3d.pitch import Pitch

    pitch = Pitch()
    dt = DT
    c = pb.connect(pb.DIRECT)
    mu = math.sqrt(WOOD_ON_WOOD_FRICTION)
    steps = 0
    per_sample = max(1, round(SAMPLE_INTERVAL / dt))
    hold = math.ceil(SETTLE_S / (per_sample * dt) - 1e-9)
    lin2, ang2 = REST_SPEED**2, REST_TURN**2
    t0 = time.perf_counter()
    for _, rel in throws:
        pb.resetSimulation(physicsClientId=c)
        pb.setPhysicsEngineParameter(
            fixedTimeStep=dt,
            numSubSteps=0,
            numSolverIterations=50,
            deterministicOverlappingPairs=1,
            enableConeFriction=1,
            restitutionVelocityThreshold=0.05,
            contactBreakingThreshold=0.002,
            allowedCcdPenetration=CCD_ALLOWED_PENETRATION,
            useSplitImpulse=1,
            splitImpulsePenetrationThreshold=SPLIT_IMPULSE_THRESHOLD,
            enableFileCaching=1,
            physicsClientId=c,
        )
        pb.setGravity(0, 0, -GRAVITY, physicsClientId=c)
        hz = FLAT_GROUND_HALF_EXTENTS[2]
        ground = pb.createMultiBody(
            0,
            pb.createCollisionShape(pb.GEOM_BOX, halfExtents=FLAT_GROUND_HALF_EXTENTS, physicsClientId=c),
            basePosition=(0, 0, -hz),
            useMaximalCoordinates=True,
            physicsClientId=c,
        )
        pb.changeDynamics(
            ground,
            -1,
            lateralFriction=GRASS.friction / mu,
            restitution=GRASS.restitution / math.sqrt(WOOD_ON_WOOD_RESTITUTION),
            physicsClientId=c,
        )

        def load(kind, pos, quat=(0, 0, 0, 1), fixed=False, sleep=True):
            b = pb.loadURDF(
                str(model_path("standard", kind)),
                pos,
                quat,
                useMaximalCoordinates=True,
                useFixedBase=fixed,
                flags=pb.URDF_USE_INERTIA_FROM_FILE | pb.URDF_USE_IMPLICIT_CYLINDER,
                physicsClientId=c,
            )
            pb.changeDynamics(
                b,
                -1,
                lateralFriction=mu,
                restitution=math.sqrt(WOOD_ON_WOOD_RESTITUTION),
                linearDamping=0,
                angularDamping=0,
                physicsClientId=c,
            )
            if not fixed:
                pb.changeDynamics(
                    b,
                    -1,
                    ccdSweptSphereRadius=0.8 * 0.022 if kind == "baton" else 0.8 * 0.035,
                    activationState=pb.ACTIVATION_STATE_ENABLE_SLEEPING,
                    physicsClientId=c,
                )
                if sleep:
                    pb.changeDynamics(b, -1, activationState=pb.ACTIVATION_STATE_SLEEP, physicsClientId=c)
            return b

        assert STANDARD.stake is not None
        for x, y in pitch.stake_positions().values():
            load("stake", (x, y, STANDARD.stake.length / 2), fixed=True)
        bodies = [
            load("kubb", (x, y, STANDARD.kubb.height / 2))
            for side in "AB"
            for x, y in pitch.baseline_kubb_positions(side).values()
        ]
        bodies.append(load("king", (0, 0, STANDARD.king.height / 2)))
        baton = load("baton", rel.position, rel.quat_xyzw, sleep=False)
        pb.changeDynamics(
            baton,
            -1,
            rollingFriction=GRASS.rolling_resistance * 0.022 / (GRASS.friction / mu),
            spinningFriction=GRASS.spinning_friction / (GRASS.friction / mu),
            physicsClientId=c,
        )
        pb.resetBaseVelocity(baton, rel.velocity, rel.angular_velocity, physicsClientId=c)
        bodies.append(baton)
        quiet, n = 0, 0
        while n * dt < 15.0 and quiet < hold:
            for _ in range(per_sample):
                pb.stepSimulation(physicsClientId=c)
            n += per_sample
            moving = False
            for b in bodies:
                v, w = pb.getBaseVelocity(b, physicsClientId=c)
                if v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > lin2 or w[0] * w[0] + w[1] * w[1] + w[2] * w[2] > ang2:
                    moving = True
                    break
            quiet = 0 if moving else quiet + 1
        steps += n
    elapsed = time.perf_counter() - t0
    pb.disconnect(c)
    return elapsed, steps


def world_memory_mb() -> float:
    """Resident memory of one standard World (with its PyBullet client), MB, measured in a fresh
    process as the RSS growth from creating it."""
    import subprocess
    import sys

    code = (
        "from kubb3d.bench import rss_mb\n"
        "from kubb3d.physics.world import World\n"
        "base = rss_mb()\n"
        "w = World.standard()\n"
        "w.step(w.steps_for(1.0))\n"
        "print(rss_mb() - base)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    return float(out.stdout.strip() or "nan")


def memory_growth_mb(n: int, seed: int) -> tuple[float, float]:
    """(RSS after a 200-throw warm-up, growth over the next ``n`` throws), MB."""
    throws = _throws(200 + n, seed)
    full_throws(throws[:200])
    start = rss_mb()
    full_throws(throws[200:])
    return start, rss_mb() - start


def _load() -> float:
    """The 1-minute load average (0 where unavailable): other processes share the cores."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def run_bench(n: int, memory_throws: int, seed: int, *, show: bool = True, check: bool = True) -> dict:
    """Run the benchmark and print a table (``show=False``: print nothing); returns the figures:
    ``throws``, ``full_throws_per_s``, ``bare_throws_per_s``, ``ratio_full_to_bare``,
    ``steps_per_throw``, ``bare_steps_per_throw``, ``load_average`` (before and after the
    timing), ``world_mb``; with ``check`` the :func:`equivalence` figures; with
    ``memory_throws``, ``rss_after_warmup_mb``, ``growth_mb``, ``memory_throws`` (MB, throws/s)."""
    from rich.console import Console
    from rich.table import Table

    from kubb3d.physics.world import DT

    con = Console()
    err = Console(stderr=True)

    def phase(text: str) -> None:  # a line per phase, no progress thread competing with the timing
        if show:
            err.print(f"[dim]bench: {text}[/dim]")

    throws = _throws(n, seed)
    full_throws(throws[: min(5, n)])  # warm caches (file caching, pooled client)
    felled: list[int] = []
    digests: list[str] = []
    load_before = _load()
    phase(f"timing {n} full throws…")
    t_full, s_full = full_throws(throws, felled=felled, digests=digests)
    phase(f"timing the bare PyBullet loop on the same {counted(n, 'throw')}…")
    t_bare, s_bare = bare_loop(throws)
    load_after = _load()
    figures = {
        "throws": n,
        "full_throws_per_s": n / t_full,
        "bare_throws_per_s": n / t_bare,
        "ratio_full_to_bare": (n / t_full) / (n / t_bare),
        "steps_per_throw": s_full / n,
        "bare_steps_per_throw": s_bare / n,
        "load_average": [load_before, load_after],
        "world_mb": world_memory_mb(),
    }
    if check:
        phase("equivalence check: the same throws at plain steps, and a re-run…")
        figures.update(equivalence(throws, felled, digests))
    if memory_throws:
        phase(f"memory growth over {counted(memory_throws, 'throw')}…")
        base, growth = memory_growth_mb(memory_throws, seed + 1)
        figures.update(rss_after_warmup_mb=base, growth_mb=growth, memory_throws=memory_throws)
    table = Table(title=f"kubb3d bench: {n} full throws at the standard set-up, one core")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("kubb3d full throws / s", f"{figures['full_throws_per_s']:.1f}")
    table.add_row("bare PyBullet loop throws / s", f"{figures['bare_throws_per_s']:.1f}")
    table.add_row("kubb3d / bare", f"{figures['ratio_full_to_bare']:.2f}")
    table.add_row(
        "steps per throw (kubb3d / bare)", f"{figures['steps_per_throw']:.0f} / {figures['bare_steps_per_throw']:.0f}"
    )
    table.add_row("load average (before / after timing)", f"{load_before:.1f} / {load_after:.1f}")
    if check:
        f = figures
        reruns = f["rerun_throws"]
        assert isinstance(reruns, int)
        table.add_row(
            f"re-run of {counted(reruns, 'throw')} bit-identical", "yes" if f["identical_rerun"] else "NO"
        )
        table.add_row(
            "felled per baton (kubb3d, 95 %)", f"{f['felled_per_baton']:.3f} ± {f['felled_per_baton_ci95']:.3f}"
        )
        table.add_row(
            f"felled per baton (plain steps of {1 / DT:.0f} Hz, 95 %)",
            f"{f['plain_felled_per_baton']:.3f} ± {f['plain_felled_per_baton_ci95']:.3f}",
        )
        table.add_row("steps per throw (plain)", f"{f['plain_steps_per_throw']:.0f}")
        table.add_row(
            "paired difference (95 %)",
            f"{f['felled_difference']:+.3f} ± {f['felled_difference_ci95']:.3f} "
            f"({'equivalent' if f['felled_equivalent'] else 'DIFFERENT'})",
        )
    table.add_row("memory of one World", f"{figures['world_mb']:.1f} MB")
    if memory_throws:
        table.add_row(
            f"memory growth over {counted(memory_throws, 'throw')}",
            f"{figures['growth_mb']:.1f} MB (from {figures['rss_after_warmup_mb']:.0f} MB)",
        )
    if show:
        con.print(table)
    return figures

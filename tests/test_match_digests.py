"""The thirteenth round of issue #32 changes no result: seeded matches are bit-identical to the
code before it (docs/speed.md "Thirteenth round")."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import os
import platform
from pathlib import Path

import numpy as np
import pytest

from kubb3d.errors import ThrowError
from kubb3d.judge.geometry import apply, rot
from kubb3d.judge.table import RIM_SAMPLES, _disk_outline
from kubb3d.pitch import Pitch
from kubb3d.snapshot import PieceState
from kubb3d.throw.params import ThrowParams, release_at_speeds, release_from_params

ROOT = Path(__file__).resolve().parents[1]


def _digests():
    spec = importlib.util.spec_from_file_location("match_digests", ROOT / "benchmarks" / "match_digests.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_seeded_matches_are_bit_identical_to_the_code_before_the_round():
    # tests/data/match_digests.json was written by main 4c66753 (before the round) and rewritten
    # when the plowing came to act also where the ground touches (docs/physics.md "Plowing": the
    # three DM matches changed, the Kubbuteo match on its board that does not plow did not), and the
    # Kubbuteo row when a baseline kubb stood up again stopped being set back on its spot after
    # every later flick of the turn (docs/examinations/2026-12-07-kubbuteo-play.md, finding 1: same
    # turns and winner), and the DM rows when the results stopped depending on the CPU's BLAS
    # kernels (docs/reliability.md, 7 December 2026); rewrite it only after a deliberate change
    # (benchmarks/match_digests.py --write)
    digests = _digests()
    stored = json.loads(digests.PATH.read_text())
    assert sorted(stored) == sorted(f"{r} {s}" for r, s in digests.MATCHES)
    for ruleset, seed in digests.MATCHES:
        row = digests.match_digest(ruleset, seed)
        assert row == stored[f"{ruleset} {seed}"], f"{ruleset} seed {seed}"
    # the sample is not trivial: each match took many snapshots over several turns
    assert all(row["count"] >= 20 and row["turns"] >= 3 for row in stored.values())


def test_the_snapshot_digest_sees_the_last_bit_of_a_velocity():
    digests = _digests()
    piece = PieceState(
        id="B1",
        kind="kubb",
        shape="box",
        half_extents=(0.035, 0.035, 0.075),
        position=(1.0, 2.0, 0.075),
        quat_xyzw=(0.0, 0.0, 0.0, 1.0),
        mass=1.0,
        com_local=(0.0, 0.0, 0.0),
        linear_velocity=(0.1, 0.0, 0.0),
        angular_velocity=(0.0, 0.0, 0.0),
    )
    nudged = dataclasses.replace(piece, linear_velocity=(math.nextafter(0.1, 1.0), 0.0, 0.0))

    class Shot:
        def __init__(self, p):
            self.time, self.pieces, self.contacts = 1.0, {"B1": p}, ()

    assert digests.snapshot_bytes(Shot(piece), 5) == digests.snapshot_bytes(Shot(piece), 5)
    assert digests.snapshot_bytes(Shot(piece), 5) != digests.snapshot_bytes(Shot(nudged), 5)
    assert digests.snapshot_bytes(Shot(piece), 5) != digests.snapshot_bytes(Shot(piece), 6)


def test_releases_at_many_speeds_are_the_releases_built_one_by_one():
    pitch = Pitch()
    rng = np.random.default_rng(13)
    for _ in range(40):
        base = ThrowParams(
            side=str(rng.choice(["A", "B"])),
            lateral=float(rng.uniform(-1.5, 1.5)),
            elevation_deg=float(rng.uniform(5, 60)),
            azimuth_deg=float(rng.uniform(-20, 20)),
            spin_rps=float(rng.uniform(-3, 3)),
            tilt_deg=float(rng.uniform(-30, 30)),
            helicopter_rps=float(rng.uniform(-2, 2)),
            release_angle_deg=float(rng.uniform(0, 90)),
        )
        at = release_at_speeds(base, pitch)
        for speed in rng.uniform(0.5, 40.0, 6):
            one = release_from_params(dataclasses.replace(base, speed=float(speed)), pitch)
            assert at(float(speed)) == one  # every float, bit for bit
    # a bad speed after the first is refused in validate's words
    at = release_at_speeds(ThrowParams(), Pitch())
    at(8.0)
    for bad in (41.0, -1.0, math.nan):
        with pytest.raises(ThrowError) as ours:
            at(bad)
        with pytest.raises(ThrowError) as theirs:
            release_from_params(dataclasses.replace(ThrowParams(), speed=bad), Pitch())
        assert str(ours.value) == str(theirs.value)


def test_the_cached_disk_outline_is_the_outline_worked_out_point_by_point():
    # the outline as it was before the cache: geometry.apply of each body-frame point
    def worked_out(p: PieceState):
        t2, r, h2 = p.half_extents
        zc = h2 - r
        rm = rot(p.quat_xyzw)
        out = []
        for i in range(RIM_SAMPLES):
            th = 2 * math.pi * i / RIM_SAMPLES
            y, z = r * math.sin(th), zc - r * math.cos(th)
            flat = z <= -h2 + 1e-9
            if flat:
                z = -h2
                half_chord = math.sqrt(max(r * r - (h2 + zc) ** 2, 0.0))
                y = max(-half_chord, min(y, half_chord))
            for x in (-t2, t2):
                v = apply(rm, (x, y, z))
                out.append(((p.position[0] + v[0], p.position[1] + v[1], p.position[2] + v[2]), flat))
        return out

    rng = np.random.default_rng(5)
    for _ in range(30):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        disk = PieceState(
            id="A1",
            kind="kubb",
            shape="disk",
            half_extents=(float(rng.uniform(0.004, 0.01)), float(rng.uniform(0.02, 0.03)), 0.027),
            position=tuple(float(v) for v in rng.uniform(-0.5, 0.5, 3)),
            quat_xyzw=tuple(float(v) for v in q),
            mass=0.02,
            com_local=(0.0, 0.0, 0.0),
            linear_velocity=(0.0, 0.0, 0.0),
            angular_velocity=(0.0, 0.0, 0.0),
        )
        assert _disk_outline(disk) == worked_out(disk)


_BITS_SCRIPT = """
import hashlib, json, sys
sys.path.insert(0, "benchmarks")
import match_digests
from kubb3d.physics.world import Terrain, World
from kubb3d.pitch import Pitch
from kubb3d.throw import ThrowParams, aim, throw

with World.standard("standard", Pitch(), "grass", terrain=Terrain(0.01, seed=3)) as world:
    result = throw(world, aim(world, "B3", ThrowParams()).params, ruleset="dm")
terrain = hashlib.sha256(json.dumps(result.to_json(), sort_keys=True).encode()).hexdigest()
print(json.dumps({"dm 1": match_digests.match_digest("dm", 1)["snapshots"], "terrain throw": terrain}))
"""


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="the OpenBLAS kernel names are x86-64 ones")
def test_the_bits_do_not_depend_on_the_linear_algebra_kernels_the_cpu_picks():
    """numpy hands ``@`` and a vector's norm to OpenBLAS, which picks its kernels by the CPU at
    run time: before kubb3d/linear.py, DM seed 1 had other snapshot bits on an AMD machine than
    on the Intel one that wrote tests/data/match_digests.json, and here forcing OpenBLAS's oldest
    x86-64 kernels (``OPENBLAS_CORETYPE=Prescott``) changed it too, and a throw on terrain. The
    same match and throw with the default kernels and with the oldest must give the same bits."""
    import subprocess
    import sys

    rows, cores = [], []
    for extra in ({}, {"OPENBLAS_CORETYPE": "Prescott"}):
        env = {**os.environ, "OPENBLAS_VERBOSE": "2", **extra}
        run = subprocess.run([sys.executable, "-c", _BITS_SCRIPT], cwd=ROOT, env=env, capture_output=True,
                             text=True, check=True)
        cores.append([line for line in (run.stdout + run.stderr).splitlines() if line.startswith("Core:")])
        rows.append(json.loads(run.stdout.splitlines()[-1]))
    assert cores[0] != cores[1], cores  # the two runs really used other kernels
    assert rows[0] == rows[1]
    stored = json.loads((ROOT / "tests" / "data" / "match_digests.json").read_text())
    assert rows[0]["dm 1"] == stored["dm 1"]["snapshots"]


def test_physics_md_quotes_the_stored_turns_of_dm_seed_2():
    """docs/physics.md ("A baton that never came to rest") says how the rolling-resistance fix
    moved the DM seed 2 match: its turns after are the stored digest's."""
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    stored = json.loads((root / "tests" / "data" / "match_digests.json").read_text(encoding="utf-8"))
    physics = " ".join((root / "docs" / "physics.md").read_text(encoding="utf-8").split())
    assert f"(DM seed 2: 23 turns before, {stored['dm 2']['turns']} after)" in physics

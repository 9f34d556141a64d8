"""Early sleep in the settle window (kubb3d/physics/rest.py ``Rest.sleep_resting``; docs/speed.md
"Twelfth round"): the window's rest is skipped only when stepping it would change nothing, blocks
near their balance stay awake, and the throws' outcomes stay those of the full window."""

from __future__ import annotations

import math

import pytest

from kubb3d.bench import _throws
from kubb3d.physics import rest as rest_module
from kubb3d.physics.engine import DT
from kubb3d.physics.world import World
from kubb3d.throw import throw


def _final(world: World, params) -> tuple[dict, float, int, list[str], list[str]]:
    result = throw(world, params)
    poses = {pid: (tuple(p.position), tuple(p.quat_xyzw)) for pid, p in result.final.pieces.items()}
    return poses, world.time, world.steps, list(result.toppled), list(result.touched)


def test_skipping_the_window_once_all_sleep_equals_stepping_it(monkeypatch):
    """Everything asleep, the remaining steps of the window move nothing: the same throws with the
    window stepped to its end give the same final poses bit for bit, at the same time."""
    throws = [params for params, _ in _throws(6, 0)]
    skipped = []
    for params in throws:
        with World.standard() as world:
            skipped.append(_final(world, params))
    original = rest_module.Rest.sleep_resting
    calls: list[bool] = []
    slept: list[bool] = []

    def sleep_but_step_on(self):
        calls.append(original(self))
        return False  # the loop steps the rest of the window as before

    monkeypatch.setattr(rest_module.Rest, "sleep_resting", sleep_but_step_on)
    for params, (poses, time_s, steps, felled, touched) in zip(throws, skipped):
        calls.clear()
        with World.standard() as world:
            poses2, time2, steps2, felled2, touched2 = _final(world, params)
        assert poses2 == poses  # bit for bit
        assert (felled2, touched2) == (felled, touched)
        assert time2 == pytest.approx(time_s, abs=1e-9)  # the clock ran to the window's end either way
        # ... but only where everything went to sleep early did the stepped run take more steps
        assert (steps2 > steps) == any(calls) and steps2 >= steps
        slept.append(any(calls))
    assert any(slept)  # the sample has throws in which everything went to sleep


def test_plain_stepping_keeps_the_full_window_and_the_same_outcomes():
    """World(quiet_dt=dt) (the reference of benchmarks/equivalence.py) does not sleep early; the
    same throws with and without early sleep fell the same kubbs, touch the same pieces and end
    within a tenth of a millimetre of each other."""
    steps = {"full": 0, "early": 0}
    for params, _ in _throws(12, 3):
        with World.standard(sleep_early=False) as world:
            assert not world.rest.sleep_early
            full = _final(world, params)
        with World.standard() as world:
            assert world.rest.sleep_early
            early = _final(world, params)
        assert early[3:] == full[3:]
        assert early[2] <= full[2]  # not fewer where a piece near its balance kept it awake
        steps["full"] += full[2]
        steps["early"] += early[2]
        for pid, (pos, _) in full[0].items():
            assert math.dist(pos, early[0][pid][0]) < 1e-4, pid
    assert steps["early"] < 0.9 * steps["full"]
    assert not World(quiet_dt=DT).rest.sleep_early
    assert not World("kubbuteo").rest.sleep_early  # on the flat field only


def test_a_block_sleeps_early_only_with_its_margin_inside_its_support(monkeypatch):
    """An upright kubb's centre of mass lies half its width inside the square of its base: it is
    put to sleep with a margin below that, and stays awake with a margin above it."""
    with World.standard() as world:
        half_width = world.equipment.piece("kubb").width / 2
        kubbs = [piece for piece in world.engine.movable if piece.kind == "kubb"]
        assert len(kubbs) == 10
        for margin, sleeps in ((half_width - 0.002, True), (half_width + 0.002, False)):
            monkeypatch.setattr(rest_module, "SLEEP_MARGIN", margin)
            for piece in world.engine.movable:
                piece.awake = piece.kind == "kubb"  # the king counts as asleep
            assert world.rest.sleep_resting() is sleeps
            assert all(piece.awake is not sleeps for piece in kubbs)

"""Longer steps for a piece moving fast alone, far from everything (``World(far_dt=...)``, off by
default: docs/speed.md "Eleventh round")."""

from __future__ import annotations

import math

import pytest

from kubb3d.physics.world import DT, World

LYING_ALONG_X = (0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4))
"""A baton's long axis turned from z to x: lying on the ground."""


def test_far_steps_are_off_by_default_and_refused_outside_dt_to_quiet_dt():
    with World() as world:
        assert world.engine.far_dt == world.dt
    for far_dt in (DT / 2, 8 * DT, math.nan):
        with pytest.raises(ValueError, match="far_dt"):
            World(far_dt=far_dt)


def _moving_baton(far_dt: float | None, at: tuple[float, float], velocity: tuple[float, float, float]) -> World:
    world = World.standard(far_dt=far_dt)
    r = world.equipment.baton.radius
    world.add_piece("baton1", "baton", (*at, r + 0.2), LYING_ALONG_X, sleeping=False)
    world.set_pose("baton1", (*at, r + 0.2), LYING_ALONG_X, linear_velocity=velocity, angular_velocity=(0, 20.0, 0))
    return world


def test_a_piece_far_only_while_it_moves_away_from_what_is_near():
    # falling (not the slide's case), 0.9 m from the king at the centre point (both reaches: 0.37 m)
    with _moving_baton(2 * DT, (-0.9, 0.0), (-3.0, 0.0, -1.0)) as world:
        assert world.stepper.far_for(world.engine.pieces["baton1"], 1 / 30, 0.0) is not None
    with _moving_baton(2 * DT, (-0.9, 0.0), (3.0, 0.0, -1.0)) as world:
        assert world.stepper.far_for(world.engine.pieces["baton1"], 1 / 30, 0.0) is None  # towards the king
    with _moving_baton(DT, (-0.9, 0.0), (-3.0, 0.0, -1.0)) as world:
        assert world.stepper.far_for(world.engine.pieces["baton1"], 1 / 30, 0.0) is None  # off


def test_a_tumbling_baton_alone_takes_far_steps_and_a_sliding_one_keeps_the_slide():
    steps = {}
    for far_dt in (None, 2 * DT):
        with _moving_baton(far_dt, (-1.5, 1.0), (-2.0, -1.0, 0.0)) as world:
            stats = world.run_until_rest()
            assert stats.at_rest
            steps[far_dt] = world.steps
    assert steps[2 * DT] < 0.8 * steps[None]
    # a baton put down sliding level (no bounce, no tumble): the slide's long steps, bit for bit
    finals = []
    for far_dt in (None, 2 * DT):
        with World.standard(far_dt=far_dt) as world:
            r = world.equipment.baton.radius
            world.add_piece("baton1", "baton", (-1.5, 1.0, r), LYING_ALONG_X, sleeping=False)
            world.set_pose("baton1", (-1.5, 1.0, r), LYING_ALONG_X, linear_velocity=(0.0, 3.0, 0.0))
            world.run_until_rest()
            finals.append((world.steps, world.com_pose("baton1")))
    assert finals[0] == finals[1]

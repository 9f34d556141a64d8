"""The material override (:func:`kubb3d.physics.ground.use_materials`, built from the parameter
table's codes by :func:`kubb3d.physics.parameters.materials`): it reaches the engine, it changes
what physics says it must change, and it leaks into nothing built outside its block."""

from __future__ import annotations

import math

import pytest

from kubb3d.calibrate import baton_trial
from kubb3d.physics.ground import GROUNDS, Materials, current_materials, get_ground, use_materials
from kubb3d.physics.parameters import PARAMETERS, materials, overridable
from kubb3d.physics.world import DT, World


def _rebound(height: float = 1.0) -> float:
    """Highest point, m, of a kubb's centre after it is dropped flat from ``height`` on grass."""
    with World("standard", ground="grass", stakes=False) as w:
        half = w.equipment.kubb.height / 2
        w.add_piece("K", "kubb", (0.0, 0.0, height + half), side="A", sleeping=False)
        top, landed, last = 0.0, False, height + half
        for _ in range(int(1.5 / w.dt)):
            w.step()
            z = float(w.pose("K")[0][2])
            if z > last and z - half < 0.01:
                landed = True
            if landed:
                top = max(top, z - half)
            last = z
        return top


def test_ground_restitution_reaches_the_engine_as_e_squared_h():
    """A drop rebounds to e²·h (Newton's restitution) with the e the override gives, not the
    shipped 0.15: the ratio of two rebounds is the ratio of the e² (an independent formula)."""
    shipped = _rebound()
    with use_materials(materials({"ground:grass.restitution": 0.3})):
        livelier = _rebound()
    assert livelier / shipped == pytest.approx((0.3 / 0.15) ** 2, rel=0.15)


def test_the_override_leaks_into_nothing_built_after_its_block():
    plain = baton_trial((3, 10, 7, DT, "elite", "dm-small", "grass", 8.0))
    with use_materials(materials({"ground:grass.plowing": 0.0, "WOOD_ON_WOOD_FRICTION": 0.3})):
        changed = baton_trial((3, 10, 7, DT, "elite", "dm-small", "grass", 8.0))
        assert get_ground("grass").plowing == 0.0 and current_materials().wood_friction == 0.3
    again = baton_trial((3, 10, 7, DT, "elite", "dm-small", "grass", 8.0))
    assert get_ground("grass") is GROUNDS["grass"] and current_materials() == Materials()
    assert again["final"] == plain["final"]  # bit for bit
    assert changed["final"] != plain["final"]


def test_shipped_values_as_an_override_change_nothing_bit_for_bit():
    shipped = {p.code: p.value() for p in PARAMETERS if overridable(p.code)}
    plain = baton_trial((5, 10, 7, DT, "club", "dm-small", "grass", 8.0))
    with use_materials(materials(shipped)):
        same = baton_trial((5, 10, 7, DT, "club", "dm-small", "grass", 8.0))
    assert same["final"] == plain["final"]


def test_less_plowing_lets_a_landed_baton_slide_further():
    """Plowing is a drag on the slide (k·N·v): with none the same seeded throws slide further
    than with twice the shipped k."""
    slides = {}
    for k in (0.0, 0.4):
        with use_materials(materials({"ground:grass.plowing": k})):
            trials = [baton_trial((i, 6, 11, DT, "elite", "dm-small", "grass", 8.0)) for i in range(6)]
        slides[k] = [t["slide"] for t in trials]
    pairs = [(a, b) for a, b in zip(slides[0.0], slides[0.4]) if a is not None and b is not None]
    assert len(pairs) >= 3
    assert sum(a for a, _ in pairs) > 1.3 * sum(b for _, b in pairs)


@pytest.mark.parametrize("code", ["RUBBERWOOD_DENSITY", "RodDrag.cd_cross", "ground:grass.colour", "nonsense"])
def test_parameters_the_engine_cannot_take_are_refused(code):
    with pytest.raises(ValueError, match="cannot be overridden"):
        materials({code: 1.0})


def test_a_value_the_ground_refuses_is_refused():
    with pytest.raises(ValueError, match="restitution must be <= 1"):
        materials({"ground:grass.restitution": 1.5})
    assert math.isfinite(GROUNDS["grass"].restitution)

"""Kubbuteo at table scale (seed KT): equipment, the board, flicks."""

import math

import pytest

from kubb3d.equipment import INCH, KUBBUTEO
from kubb3d.physics.world import FLOOR_ID, GRAVITY, World
from kubb3d.throw import FlickParams, aim_flick, flick


def test_equipment_in_si_from_the_inch_figures():
    assert KUBBUTEO.kubb.diameter == pytest.approx(0.03175)
    assert KUBBUTEO.kubb.thickness == pytest.approx(0.3 * INCH)
    assert KUBBUTEO.king.height == pytest.approx(0.0508)
    assert KUBBUTEO.board.length == pytest.approx(1.2192) and KUBBUTEO.board.width == pytest.approx(0.6096)
    # a beech disk 1.25 in x 0.3 in weighs about 4 g
    assert 0.003 < KUBBUTEO.baton_mass < 0.006


def test_setup_baselines_3_5_inches_from_the_ends_and_pieces_stand():
    with World.standard("kubbuteo", sleeping=False) as w:
        assert w.pitch.baseline_x("A") == pytest.approx(-1.2192 / 2 + 3.5 * INCH)
        w.run_until_rest(2.0)
        snap = w.snapshot()
    for pid in ("A1", "A5", "B3", "king"):
        assert snap[pid].tilt < math.radians(1)
        assert snap[pid].position[2] == pytest.approx(snap[pid].half_extents[2], abs=2e-4)  # on the board top


def test_flicked_disk_slides_v2_over_2_mu_g_within_5_percent():
    v = 1.5
    with World("kubbuteo") as w:
        r = flick(w, "baton1", FlickParams(speed=v))
        start = r.release.position[0]
        travelled = r.final["baton1"].position[0] - start
    assert travelled == pytest.approx(v * v / (2 * w.ground.friction * GRAVITY), rel=0.05)


def test_typical_flick_slides_the_length_of_a_half():
    """A flick at 2 m/s slides on a 0.3-friction board for v²/(2μg) ≈ 0.68 m, more than half the
    board (0.61 m): a typical flick reaches the opponent's baseline area."""
    with World("kubbuteo") as w:
        r = flick(w, "baton1", FlickParams(speed=2.0))
        assert r.final["baton1"].position[0] - r.release.position[0] > w.pitch.length / 2


def test_disk_knocked_off_the_edge_falls_to_the_floor():
    with World("kubbuteo") as w:
        r = flick(w, "baton1", FlickParams(speed=1.5, azimuth_deg=90.0))  # straight at the side edge
        snap = r.final
    assert snap["baton1"].position[2] < -KUBBUTEO.board.table_height + 0.01
    assert FLOOR_ID in snap.touching("baton1")


@pytest.mark.parametrize("target", ["B2", "B4"])
def test_aimed_flick_fells_the_targeted_kubb(target):
    with World.standard("kubbuteo") as w:
        a = w.pitch.baseline_kubb_positions("A")
        gap = (a["A2"][1] + a["A3"][1]) / 2  # flick through the gap between two own kubbs
        params = aim_flick(w, target, FlickParams(side="A", lateral=gap))
        r = flick(w, "baton1", params)
    assert r.first_contact.piece == target
    assert target in r.toppled

"""The Kubbuteo king (KT "Equipment": a wooden mushroom): its centre of mass from its parts, its
tipping angle against a release at rest in the physics, and a lying king sliding on the board
(docs/physics.md "The Kubbuteo king")."""

from __future__ import annotations

import math

import pytest

from kubb3d.assets import mushroom_mesh
from kubb3d.equipment import CONVEX_MARGIN, kubbuteo_king
from kubb3d.judge import Status, analyse, turned_over
from kubb3d.judge.geometry import quat_from_rows
from kubb3d.judge.rulebook import get_rulebook
from kubb3d.physics.world import GRAVITY, World
from kubb3d.snapshot import Snapshot, quat_to_matrix
from kubb3d.validate import king_tips, tilted_king_pose

KING = kubbuteo_king()
PARAMS = get_rulebook("kubbuteo").params


def test_centre_of_mass_from_the_parts_equals_the_mesh_the_physics_weighs():
    mesh = mushroom_mesh(KING)  # the URDF's inertial comes from this mesh
    assert KING.com_height == pytest.approx(float(mesh.center_mass[2]) + KING.height / 2, abs=1e-12)
    # the cap is the heavier part: well above mid height
    assert KING.com_height == pytest.approx(0.030708, abs=1e-6) and KING.com_height > KING.height / 2 + 0.005
    reach, h = KING.support
    assert (reach, h) == (KING.stem_diameter / 2 - CONVEX_MARGIN, KING.com_height - CONVEX_MARGIN)
    assert math.degrees(KING.tipping_angle) == pytest.approx(12.562, abs=0.001)


def _tilted(angle: float, direction: float):
    """The king as the world holds it, tilted at rest (nothing stepped), in a snapshot."""
    from kubb3d.rules.kubbuteo import kubbuteo_pitch

    position, q = tilted_king_pose(angle, direction)
    with World("kubbuteo", stakes=False) as w:
        w.add_piece("king", "king", position, q)
        p = w.snapshot()["king"]
    return Snapshot(0.0, {"king": p}, (), kubbuteo_pitch(), GRAVITY)


@pytest.mark.parametrize("direction", [0.0, 2.0])
@pytest.mark.parametrize("past", [False, True])
def test_judge_and_physics_agree_0_3_degrees_either_side_of_the_tipping_angle(direction, past):
    """Released at rest 0.3° inside its tipping angle the king swings back onto its foot, 0.3°
    past it it falls, in any direction; the judge rules it standing or fallen alike. With the
    centre of mass at mid height and a sharp foot the judge took 13.9° at rest and 27.3° for its
    history (the cap's radius): a king released at 12.9° fell and was ruled standing. Without
contact data the judge also took the king's lowest point on its axis, not on the rim of its
foot, so a king tilted 12° did not touch the board."""
    angle = KING.tipping_angle + math.radians(0.3 if past else -0.3)
    assert king_tips(angle, direction) is past
    ruling = analyse(_tilted(angle, direction), "king", PARAMS)
    assert ruling.grounded  # on the rim of its foot, without contact data (a hand-built snapshot)
    assert ruling.status is (Status.FALLEN if past else Status.STANDING)
    assert (ruling.margin < 0) is past


def test_history_counts_only_a_turn_over():
    # KT rules: a king standing at rest after the flick was knocked over only if it turned over
    # on the way (past 90°), not if it rocked past its tipping angle (12.6°) and swung back
    p = _tilted(0.0, 0.0).pieces["king"]
    from dataclasses import replace

    assert not turned_over(replace(p, max_tilt=KING.tipping_angle + math.radians(2.0)))
    assert not turned_over(replace(p, max_tilt=math.pi / 2))
    assert turned_over(replace(p, max_tilt=math.nextafter(math.pi / 2, 4.0)))


def _lying_slide(dt: float, v: float = 1.5) -> tuple[float, float, float]:
    """(distance m, direction deg from its axis, largest sink of its centre below where it lay m)
    of the king lying on the board on a facet of its cap, pushed at ``v`` along its axis."""
    c, s = math.cos(math.pi / 32), math.sin(math.pi / 32)
    # axis (body z) along +x, turned half a facet of the cap's 32 about it: it lies on an edge
    q = quat_from_rows(((0.0, 0.0, 1.0), (-s, c, 0.0), (-c, -s, 0.0)))
    with World("kubbuteo", stakes=False, dt=dt, quiet_dt=dt) as w:
        w.add_piece("king", "king", (-0.3, 0.0, KING.diameter / 2 + 5e-4), q, sleeping=False)
        w.step(w.steps_for(0.3))
        c0, q0 = w.com_pose("king")
        axis = quat_to_matrix(q0)[:, 2]
        heading = math.atan2(axis[1], axis[0])
        position, q1 = w.pose("king")
        w.set_pose("king", position, q1, linear_velocity=(v * math.cos(heading), v * math.sin(heading), 0.0))
        low = math.inf
        for _ in range(w.steps_for(1.0)):
            w.step(1)
            low = min(low, w.com_pose("king")[0][2])
        c1 = w.com_pose("king")[0]
    dx, dy = c1[0] - c0[0], c1[1] - c0[1]
    return math.hypot(dx, dy), math.degrees(math.atan2(dy, dx) - heading), c0[2] - low


def test_a_lying_king_slides_the_flat_law_at_every_step():
    """A king lying on its side rests on two points, one on each part (the stem's rim and the
    cap's), so Bullet's one new contact point per shape per step holds it: unlike the disks it
    needs no face spheres. Pushed along its axis at 1.5 m/s it slides v²/(2μg) = 382.3 mm,
    ending within v·dt of where it ends at half the step, on its line, without sinking."""
    v = 1.5
    d1, a1, s1 = _lying_slide(1 / 960, v)
    d2, a2, s2 = _lying_slide(1 / 1920, v)
    assert d1 == pytest.approx(v * v / (2 * 0.3 * GRAVITY), rel=0.005)
    assert abs(d1 - d2) < v / 960
    assert abs(a1) < 0.05 and abs(a2) < 0.05
    assert s1 < 0.03e-3 and s2 < 0.03e-3

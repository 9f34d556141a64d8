"""The separating-axis overlap of two boxes (used to refuse interpenetrating replay poses),
against analytic cases."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from kubb3d.judge.geometry import box_overlap_depth

H = (0.035, 0.035, 0.075)  # a standard kubb, m
UP = (0.0, 0.0, 0.0, 1.0)


def yaw(a: float) -> tuple[float, float, float, float]:
    return (0.0, 0.0, math.sin(a / 2), math.cos(a / 2))


@settings(max_examples=60, deadline=None)
@given(st.floats(-0.1, 0.1), st.floats(-math.pi, math.pi))
def test_side_by_side_depth_is_the_gap(dx, a):
    """Two upright kubbs turned alike, centres dx apart along their own x axis: depth 0.07 − |dx|."""
    c, s = math.cos(a), math.sin(a)
    d = box_overlap_depth((0, 0, 0.075), yaw(a), H, (dx * c, dx * s, 0.075), yaw(a), H)
    assert math.isclose(d, 0.07 - abs(dx), abs_tol=1e-9)


def test_a_kubb_turned_45_degrees_reaches_out_by_its_half_diagonal():
    r = 0.035 * math.sqrt(2)
    for gap in (-0.004, 0.001):
        d = box_overlap_depth((0, 0, 0.075), UP, H, (0.035 + r + gap, 0, 0.075), yaw(math.pi / 4), H)
        assert math.isclose(d, -gap, abs_tol=1e-9)


def test_a_kubb_lying_on_top_of_another_touches_and_a_sunk_one_overlaps():
    lying = (math.sin(math.pi / 4), 0.0, 0.0, math.cos(math.pi / 4))  # 90° about x: its long axis along y
    top = 0.15 + 0.035
    assert math.isclose(box_overlap_depth((0, 0, 0.075), UP, H, (0, 0, top), lying, H), 0.0, abs_tol=1e-9)
    assert math.isclose(box_overlap_depth((0, 0, 0.075), UP, H, (0, 0, top - 0.02), lying, H), 0.02, abs_tol=1e-9)


def test_far_apart_is_negative():
    assert box_overlap_depth((0, 0, 0.075), UP, H, (2.0, 1.0, 0.075), yaw(0.3), H) < -1.0


def _mul(q, r):
    """Quaternion product q·r (xyzw): r turned, then q."""
    x1, y1, z1, w1 = q
    x2, y2, z2, w2 = r
    return (w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2, w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2, w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2)


def _about(axis, angle):
    s = math.sin(angle / 2)
    return (axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle / 2))


def _turn(q, p):
    """The point p turned by the unit quaternion q."""
    x, y, z, _ = _mul(_mul(q, (*p, 0.0)), (-q[0], -q[1], -q[2], q[3]))
    return (x, y, z)


def test_two_kubbs_crossing_edge_on_edge_cut_by_the_depth_of_their_edges_however_the_pair_is_turned():
    """Two kubbs lying on an edge (turned 45° about their long axes), one on the other, their long
    axes 60° apart: only the cross product of the two edges separates them, and they cut into each
    other by their two half diagonals less the height between their centres. Turning the whole pair
    in space does not change that."""
    along_x = _mul(_about((1, 0, 0), math.pi / 4), _about((0, 1, 0), math.pi / 2))  # long axis x, an edge up
    at_60 = _mul(_about((0, 0, 1), math.pi / 3), along_x)  # the same, its long axis 60° from x
    reach = 0.035 * math.sqrt(2)
    for height in (2 * reach - 0.01, 2 * reach + 0.002):
        depth = box_overlap_depth((0, 0, 0), along_x, H, (0, 0, height), at_60, H)
        assert math.isclose(depth, 2 * reach - height, abs_tol=1e-9)
        for turn in (_about((0, 1, 0), math.pi / 2), _about((1, 0, 0), -math.pi / 2), _about((0.6, 0, 0.8), 1.0)):
            turned = box_overlap_depth((0, 0, 0), _mul(turn, along_x), H, _turn(turn, (0, 0, height)),
                                       _mul(turn, at_60), H)
            assert math.isclose(turned, depth, abs_tol=1e-9)

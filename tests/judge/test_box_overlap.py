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

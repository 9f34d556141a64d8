"""kubb3d.judge.geometry's small polygon and rotation helpers, held to their docstrings by
relations: a polygon and its reverse, a hull and the same points shuffled with inner ones, a
rotation matrix and the same matrix a little off."""

from __future__ import annotations

import math
import random

import pytest

from kubb3d.judge.geometry import ccw, convex_hull, quat_from_rows, rot


def _area(poly):
    return sum(poly[i][0] * poly[(i + 1) % len(poly)][1] - poly[(i + 1) % len(poly)][0] * poly[i][1]
               for i in range(len(poly))) / 2


def test_ccw_turns_a_clockwise_polygon_and_keeps_a_counter_clockwise_one():
    """"The polygon in counter-clockwise order": a triangle and a quadrilateral given either way
    round come back counter-clockwise (positive area), the counter-clockwise one unchanged."""
    for poly in ([(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)], [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0)]):
        assert _area(poly) > 0
        assert ccw(poly) == poly
        assert ccw(poly[::-1]) == poly


def test_ccw_leaves_a_polygon_without_area_as_it_is():
    """Points on one line have no turning sense to correct: the polygon comes back as given, in
    either order (a face seen exactly edge-on keeps its corners' order)."""
    line = [(0.0, 0.0), (1.0, 1.0), (3.0, 3.0)]
    assert _area(line) == 0
    assert ccw(line) == line and ccw(line[::-1]) == line[::-1]


def test_a_hull_is_the_outer_polygon_whatever_the_order_and_the_inner_points():
    """Andrew's monotone chain: the hull of a regular 12-gon's corners with inner points among
    them is the 12-gon, counter-clockwise, however the points are shuffled."""
    corners = [(round(math.cos(math.tau * i / 12), 12), round(math.sin(math.tau * i / 12), 12)) for i in range(12)]
    inner = [(0.1 * i - 0.4, 0.05 * i - 0.3) for i in range(9)]
    rng = random.Random(0)
    hulls = []
    for _ in range(3):
        points = corners + inner
        rng.shuffle(points)
        hulls.append(convex_hull(points))
    assert all(h == hulls[0] for h in hulls)
    assert sorted(hulls[0]) == sorted(corners) and _area(hulls[0]) > 0


def test_the_quaternion_of_rows_a_little_off_a_rotation_is_still_unit_length():
    """quat_from_rows normalises what Shepperd's method gives, so rows a little off a rotation
    (scaled by 1 %, as rounded axes can be) give a unit quaternion of the same rotation."""
    q = (0.2, -0.4, 0.5, math.sqrt(1 - 0.04 - 0.16 - 0.25))
    rows = rot(q)
    exact = quat_from_rows(rows)
    off = quat_from_rows(tuple(tuple(1.01 * c for c in row) for row in rows))
    assert math.fsum(c * c for c in off) == pytest.approx(1.0, abs=1e-12)
    assert exact == pytest.approx(q, abs=1e-12) and off == pytest.approx(q, abs=3e-3)

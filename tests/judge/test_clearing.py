"""kubb3d.judge.clearing.nearest_clear, the least move that clears a raised kubb's square base
(kubb3d's decision, docs/rules.md "Raising next to a disturbed kubb"), on squares given by hand:
its directions, and the bisection that leaves the base touching what stopped it."""

from __future__ import annotations

import math

import pytest

from kubb3d.judge import clearing
from kubb3d.judge.geometry import overlap_depth, square
from kubb3d.judge.params import DEFAULT_PARAMS

HALF = 0.035  # a kubb's half width, m


def test_the_directions_are_every_5_degrees_each_with_its_exact_mirror():
    """72 directions, one every 360°/72 = 5°, and (x, −y) of each off the long axis is one of
    them, exactly (0° and 180° are their own mirrors)."""
    dirs = clearing._directions()
    assert len(dirs) == clearing.DIRECTIONS == 72
    angles = sorted(round(math.degrees(math.atan2(uy, ux))) % 360 for ux, uy in dirs)
    assert angles == list(range(0, 360, 5))
    off_axis = {(ux, uy) for ux, uy in dirs if abs(uy) > 1e-12}
    assert len(off_axis) == 70 and {(ux, -uy) for ux, uy in off_axis} == off_axis


@pytest.mark.parametrize("depth", [0.002, 0.005, 0.03])
def test_a_base_overlapping_a_square_is_moved_until_it_only_touches_it(depth):
    """A base overlapping a square obstacle by ``depth`` along +x (less than a search step of a
    quarter of its half width, or more) is moved straight back along −x until the overlap is
    ``block_tol`` (it touches): by depth − block_tol, to 1e-9 m."""
    obstacle = {"K1": square((2 * HALF - depth, 0.0), (1.0, 0.0), HALF)}
    found = clearing.nearest_clear((0.0, 0.0), (1.0, 0.0), HALF, obstacle, DEFAULT_PARAMS)
    assert found is not None
    (x, y), moved = found
    assert moved == pytest.approx(depth - DEFAULT_PARAMS.block_tol, abs=1e-9)
    assert (x, y) == pytest.approx((-(depth - DEFAULT_PARAMS.block_tol), 0.0), abs=1e-9)
    touching = overlap_depth(square((x, y), (1.0, 0.0), HALF), obstacle["K1"])
    assert touching == pytest.approx(DEFAULT_PARAMS.block_tol, abs=1e-9)


def test_the_bisection_stops_once_the_touching_spot_is_bracketed_to_1e_10_m(monkeypatch):
    """nearest_clear steps out along each direction by a quarter of the half width (8.75 mm) and
    then bisects "to 1e-9 m": from one step, 27 halvings bracket the touching spot to 1e-10 m, so
    no direction tests the base at more than 27 points between its steps (the loop's own limit
    is 60)."""
    step = HALF / 4
    between: dict[int, int] = {}
    real = clearing.overlaps

    def counted(centre, *args):
        t = math.hypot(*centre)
        if abs(t / step - round(t / step)) > 1e-6:  # not a step's probe: a bisection point
            angle = round(math.degrees(math.atan2(centre[1], centre[0]))) % 360
            between[angle] = between.get(angle, 0) + 1
        return real(centre, *args)

    monkeypatch.setattr(clearing, "overlaps", counted)
    obstacle = {"K1": square((2 * HALF - 0.002, 0.0), (1.0, 0.0), HALF)}
    assert clearing.nearest_clear((0.0, 0.0), (1.0, 0.0), HALF, obstacle, DEFAULT_PARAMS) is not None
    assert math.ceil(math.log2(step / 1e-10)) == 27
    assert between[180] >= 20  # the direction that clears it first is bisected
    assert max(between.values()) <= 27


@pytest.mark.parametrize("ahead", [(0.06, 0.03), (0.06, -0.04)])
def test_a_base_is_moved_the_least_way_off_a_turned_square_and_then_only_touches_it(ahead):
    """An obstacle turned 45° ahead and to one side: the least move is along that face's normal,
    one of the 72 directions off the long axis, bisected along that same direction, so the base ends
    where it only touches the obstacle (overlap ``block_tol``), its centre moved as far as returned."""
    turned = (math.sqrt(0.5), math.sqrt(0.5))
    obstacle = {"K1": square(ahead, turned, HALF)}
    found = clearing.nearest_clear((0.0, 0.0), (1.0, 0.0), HALF, obstacle, DEFAULT_PARAMS)
    assert found is not None
    (x, y), moved = found
    assert x == pytest.approx(-abs(y)) and y * ahead[1] < 0  # straight away from it, at 45°
    assert moved == pytest.approx(math.hypot(x, y), abs=1e-12)
    touching = overlap_depth(square((x, y), (1.0, 0.0), HALF), obstacle["K1"])
    assert touching == pytest.approx(DEFAULT_PARAMS.block_tol, abs=1e-9)


@pytest.mark.parametrize("cy", [-1e-7, 0.0, 1e-7])
def test_a_base_squeezed_along_the_pitch_is_cleared_towards_plus_y_whatever_its_sub_micrometre_offset(cy):
    """A base between two squares that overlap it from +x and −x clears as well towards +y as
    towards −y (by the kubb's width less ``block_tol``). Equally far, the spot nearer the long axis
    wins, to the micrometre, then the one towards +y: a base 0.1 µm off the axis either way goes
    where the one on it goes, to +y."""
    obstacles = {"K1": square((2 * HALF - 0.01, cy), (1.0, 0.0), HALF),
                 "K2": square((-(2 * HALF - 0.01), cy), (1.0, 0.0), HALF)}
    found = clearing.nearest_clear((0.0, cy), (1.0, 0.0), HALF, obstacles, DEFAULT_PARAMS)
    assert found is not None
    (x, y), moved = found
    assert moved == pytest.approx(2 * HALF - DEFAULT_PARAMS.block_tol, abs=1e-9)
    assert (x, y - cy) == pytest.approx((0.0, moved), abs=1e-9)


@pytest.mark.parametrize("x", [-2.0, 2.0])
def test_a_base_squeezed_across_the_pitch_is_cleared_towards_the_end_of_its_half(x):
    """A base between two squares that overlap it from +y and −y clears as well towards +x as
    towards −x (by the kubb's width less ``block_tol``), both on the same line across the pitch:
    the one farther from the centre line wins, in either half (not +x in both, which moved A's
    kubb towards the centre line and B's towards its end)."""
    obstacles = {"K1": square((x, 0.5 + 2 * HALF - 0.01), (1.0, 0.0), HALF),
                 "K2": square((x, 0.5 - (2 * HALF - 0.01)), (1.0, 0.0), HALF)}
    found = clearing.nearest_clear((x, 0.5), (1.0, 0.0), HALF, obstacles, DEFAULT_PARAMS)
    assert found is not None
    (fx, fy), moved = found
    assert moved == pytest.approx(2 * HALF - DEFAULT_PARAMS.block_tol, abs=1e-9)
    assert (fx - x, fy) == pytest.approx((math.copysign(moved, x), 0.5), abs=1e-9)


def test_the_straight_push_between_two_squares_gives_up_after_50_pushes(monkeypatch):
    """push_clear: "At most 50 steps." A base at the pitch's centre overlapping two squares
    equally from either side along x is pushed +x (no way is nearer, and it is on both axes),
    then off one into the other and back: it is pushed exactly 50 times, still overlaps one of
    them, and names the first square it overlapped (a tie: by id)."""
    bases = []
    real = clearing.square

    def counted(centre, d, half):
        bases.append(centre)
        return real(centre, d, half)

    monkeypatch.setattr(clearing, "square", counted)
    obstacles = {"K1": real((2 * HALF - 0.01, 0.0), (1.0, 0.0), HALF),
                 "K2": real((-(2 * HALF - 0.01), 0.0), (1.0, 0.0), HALF)}
    pushed = clearing.push_clear((0.0, 0.0), (1.0, 0.0), HALF, obstacles, DEFAULT_PARAMS)
    assert pushed is not None and pushed[1] == "K1"
    assert len(bases) == 50 and bases[1][0] == pytest.approx(0.01 + DEFAULT_PARAMS.block_tol)
    end = real(pushed[0], (1.0, 0.0), HALF)
    assert max(overlap_depth(end, poly) for poly in obstacles.values()) > DEFAULT_PARAMS.block_tol


@pytest.mark.parametrize("x", [-2.0, 2.0])
def test_a_base_centred_on_a_square_is_pushed_towards_the_end_of_its_half(x):
    """push_clear: a base exactly on a square (no way off it is nearer) is pushed away from the
    centre line, towards the end of the half it is in, whichever half: not +x in both."""
    obstacles = {"K1": square((x, 0.5), (1.0, 0.0), HALF)}
    pushed = clearing.push_clear((x, 0.5), (1.0, 0.0), HALF, obstacles, DEFAULT_PARAMS)
    assert pushed is not None
    (px, py), who = pushed
    assert who == "K1" and py == 0.5
    assert px - x == pytest.approx(math.copysign(2 * HALF + DEFAULT_PARAMS.block_tol, x), abs=1e-12)


@pytest.mark.parametrize("deep, shallow", [("K1", "K2"), ("K2", "K1")])
def test_a_base_overlapping_two_squares_names_the_one_it_overlaps_deepest(deep, shallow):
    """clear_of: a base overlapping two pieces is moved the least way clear of both and named after
    "the obstacle overlapped deepest" (by id only on a tie), whichever id that one has."""
    obstacles = {deep: square((2 * HALF - 0.02, 0.0), (1.0, 0.0), HALF),
                 shallow: square((-(2 * HALF - 0.005), 0.0), (1.0, 0.0), HALF)}
    cleared = clearing.clear_of((0.0, 0.0), (1.0, 0.0), HALF, obstacles, DEFAULT_PARAMS)
    assert cleared is not None
    assert cleared[1] == deep and cleared[2] is not None and cleared[2] > 0

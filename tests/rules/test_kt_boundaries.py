"""Kubbuteo's rules engine (kubb3d.rules.kubbuteo) at its boundaries: each rule of the KT rule
book shown applied and just not applied (issue #37 item 5: the mutants these tests kill
survived the fast tests before; docs/mutation.md)."""

from __future__ import annotations

import math

import pytest

from kubb3d.equipment import INCH, get_set
from kubb3d.judge.rulings import Pose
from kubb3d.rules import MatchState, get_ruleset
from kubb3d.rules.core import KubbInfo
from kubb3d.rules.kubbuteo import (
    KING_CLEARANCE_M,
    OWN_KUBB_MOVED_M,
    OWN_KUBB_TILTED_RAD,
    after_flick,
    kubbuteo_pitch,
)

FOOT = 12 * INCH


def _tilted(angle: float) -> tuple[float, float, float, float]:
    """A quaternion tilting the upright axis by ``angle`` (rad) about x."""
    return (math.sin(angle / 2), 0.0, 0.0, math.cos(angle / 2))


@pytest.fixture
def kt():
    return get_ruleset("kubbuteo")


def _state(kt, kubbs: dict[str, tuple[str, bool, tuple[float, float]]]) -> MatchState:
    """A Kubbuteo state whose kubbs are exactly ``kubbs``: id -> (half, baseline, (x, y)), standing."""
    state = MatchState(kt)
    z = get_set("kubbuteo").kubb.height / 2
    state.kubbs = {kid: KubbInfo(kid, half, baseline, True, Pose((x, y, z))) for kid, (half, baseline, (x, y)) in
                   kubbs.items()}
    return state


def test_the_board_is_4_by_2_ft_with_baselines_3_5_in_from_the_ends():
    """KT Equipment: "The board is 4 foot by 2 foot ... Baselines are marked 3.5 inches from each
    of the narrow ends"."""
    pitch = kubbuteo_pitch()
    assert pitch.length == pytest.approx(4 * FOOT)
    assert pitch.width == pytest.approx(2 * FOOT)
    assert pitch.baseline_inset == pytest.approx(3.5 * INCH)
    assert pitch.baseline_x("A") == pytest.approx(-2 * FOOT + 3.5 * INCH)


def test_six_batons_every_turn_from_the_first(kt):
    """KT rules: "Player A flicks the six batons from their baseline" (no 2-4-6 opening)."""
    assert [kt.batons_for_turn(t) for t in (1, 2, 3, 7)] == [6, 6, 6, 6]
    with pytest.raises(ValueError, match="turn numbers start at 1, got 0"):
        kt.batons_for_turn(0)


def test_one_misflick_is_flicked_again_the_subsequent_ones_are_placed(kt):
    """KT rules: "1 misflick is allowed and the kubb is returned to Player B for reflicking.
    Subsequent misflicked kubbs will be placed by Player A"."""
    assert kt.split_misses(["B2", "B4", "B1"], attempt=1) == (("B2",), ("B4", "B1"))
    assert kt.split_misses(["B4"], attempt=1) == (("B4",), ())
    # the reflick is not allowed a second misflick: every miss of a later attempt is placed
    assert kt.split_misses(["B2", "B4"], attempt=2) == ((), ("B2", "B4"))
    assert kt.split_misses(["B4"], attempt=2) == ((), ("B4",))
    assert kt.split_misses([], attempt=1) == ((), ())


# ------------------------------------------------------------------ after each flick
def test_the_baton_and_the_knocked_kubbs_leave_the_board():
    """KT rules: "After each flick, keep the playing area clear by removing the baton and any
    knocked over kubbs" (in id order)."""
    done = after_flick("b3", {"B4", "B1"}, (), {}, {}, {})
    assert done.remove == ("b3",)
    assert done.pick_up == ("B1", "B4")
    assert done.stand_again == {}


def test_baseline_kubbs_knocked_while_field_kubbs_stand_are_stood_up_at_their_spot():
    """KT rules: "Any Baseline Kubbs knocked over while there are still Field Kubbs upright are
    simply stood up again": at their spot at the start of the turn, in id order; a kubb without
    a start spot is not stood up."""
    start = {"B2": Pose((0.52, -0.1, 0.016)), "B5": Pose((0.52, 0.2, 0.016))}
    done = after_flick("b1", {"B3"}, {"B5", "B2", "B9"}, start, {}, {})
    assert list(done.stand_again) == ["B2", "B5"]
    assert done.stand_again["B2"] == start["B2"] and done.stand_again["B5"] == start["B5"]
    assert done.pick_up == ("B3",)


@pytest.mark.parametrize("factor, disturbed", [(1.05, True), (0.95, False)])
def test_an_own_kubb_moved_just_past_the_tolerance_is_stood_again(factor, disturbed):
    """Module doc (kubb3d's choice): an own kubb the flick moved by more than
    OWN_KUBB_MOVED_M is stood up again where it stood; one merely brushed stays."""
    before = {"A2": Pose((-0.3, 0.05, 0.016))}
    for axis in range(2):  # along x and along y: the whole distance counts
        moved = list(before["A2"].position)
        moved[axis] += factor * OWN_KUBB_MOVED_M
        done = after_flick("b1", (), (), {}, before, {"A2": Pose(tuple(moved))})
        assert ("A2" in done.stand_again) is disturbed
        if disturbed:
            assert done.stand_again["A2"] == before["A2"]


@pytest.mark.parametrize("factor, disturbed", [(1.05, True), (0.95, False)])
def test_an_own_kubb_tilted_just_past_the_tolerance_is_stood_again(factor, disturbed):
    before = {"A2": Pose((-0.3, 0.05, 0.016))}
    now = {"A2": Pose((-0.3, 0.05, 0.016), _tilted(factor * OWN_KUBB_TILTED_RAD))}
    assert ("A2" in after_flick("b1", (), (), {}, before, now).stand_again) is disturbed


def test_an_own_kubb_moved_exactly_the_tolerance_stays():
    """"More than" OWN_KUBB_MOVED_M: a move of exactly that much is not a disturbance."""
    # KT rules: six flicks (boundary): "removing the baton and any knocked over kubbs"
    before = {"A2": Pose((0.0, 0.0, 0.016))}
    now = {"A2": Pose((OWN_KUBB_MOVED_M, 0.0, 0.016))}
    assert after_flick("b1", (), (), {}, before, now).stand_again == {}


def test_an_own_kubb_without_a_pose_now_is_not_checked():
    before = {"A2": Pose((-0.3, 0.05, 0.016)), "A3": Pose((-0.3, 0.15, 0.016))}
    now = {"A3": Pose((-0.2, 0.15, 0.016))}
    assert list(after_flick("b1", (), (), {}, before, now).stand_again) == ["A3"]


# ------------------------------------------------------------------ the advance line
def test_without_field_kubbs_the_line_is_the_baseline(kt):
    # KT rules: advance line (boundary): "the kubb closest to the King now represents that player's baseline"
    state = _state(kt, {"A1": ("A", True, (-0.5207, 0.0))})
    assert kt.throwing_line(state, "A") == pytest.approx(state.pitch.baseline_x("A"))
    assert kt.throwing_line(state, "B") == pytest.approx(state.pitch.baseline_x("B"))


@pytest.mark.parametrize("side", ["A", "B"])
def test_the_field_kubb_closest_to_the_king_is_the_new_baseline(kt, side):
    """KT rules: "If either player leaves Field Kubbs standing, the kubb closest to the King now
    represents that player's baseline": closest by distance, not by x alone (F1 is nearer the
    centre line but far out to the side)."""
    sign = -1.0 if side == "A" else 1.0
    state = _state(kt, {
        "F1": (side, False, (sign * 0.10, 0.25)),   # 0.269 m from the king
        "F2": (side, False, (sign * 0.20, 0.02)),   # 0.201 m: the closest
        "F3": (side, False, (sign * 0.30, 0.00)),
    })
    assert kt.throwing_line(state, side) == pytest.approx(sign * 0.20)


def test_two_field_kubbs_equally_close_to_the_king_the_lower_id_decides(kt):
    state = _state(kt, {"F7": ("A", False, (-0.2, 0.1)), "F3": ("A", False, (-0.1, 0.2))})
    assert kt.throwing_line(state, "A") == pytest.approx(-0.1)
    state = _state(kt, {"F3": ("A", False, (-0.2, 0.1)), "F7": ("A", False, (-0.1, 0.2))})
    assert kt.throwing_line(state, "A") == pytest.approx(-0.2)


@pytest.mark.parametrize("side", ["A", "B"])
def test_a_field_kubb_behind_the_baseline_moves_the_line_back(kt, side):
    """KT rules: "the kubb closest to the King now represents that player's baseline, and players
    now flick at their opponent's kubbs from that point": no exception for a field kubb between
    the baseline and the end of the board (docs/examinations/2026-12-07-kubbuteo-play.md,
    finding 3)."""
    state = _state(kt, {"F1": ("A" if side == "A" else "B", False, (0.0, 0.0))})
    base = state.pitch.baseline_x(side)
    behind = base - state.pitch.forward(side) * 0.03
    state.kubbs["F1"].pose = Pose((behind, 0.0, 0.016))
    assert kt.throwing_line(state, side) == pytest.approx(behind)
    ahead = base + state.pitch.forward(side) * 0.03
    state.kubbs["F1"].pose = Pose((ahead, 0.0, 0.016))
    assert kt.throwing_line(state, side) == pytest.approx(ahead)
    state.kubbs["F1"].pose = Pose((base, 0.0, 0.016))  # on the baseline: the baseline
    assert kt.throwing_line(state, side) == base


# ------------------------------------------------------------------ placing a misflicked kubb
def _limits(kt):
    disk = get_set("kubbuteo").kubb
    return disk.thickness / 2, disk.radius, kt.pitch


@pytest.mark.parametrize("half", ["A", "B"])
def test_a_placed_kubb_stands_on_the_board_inside_the_half(kt, half):
    """KT rules: "placed by Player A anywhere in their own half": the standing disk's footprint
    inside the half, both ends and the side edges; touching a line from inside is allowed, a
    hair outside is not."""
    hx, hy, pitch = _limits(kt)
    state = _state(kt, {})
    eps = 1e-4
    sign = -1.0 if half == "A" else 1.0
    end = -pitch.length / 2 + hx if half == "A" else pitch.length / 2 - hx   # against the board's end
    centre = 0.0 - hx if half == "A" else 0.0 + hx                          # against the centre line
    side = pitch.half_width - hy                                             # against a long edge
    for x, y in [(end, 0.1), (centre, 0.1), (sign * 0.3, side), (sign * 0.3, -side)]:
        assert kt.placement_error(state, "B1", half, (x, y)) is None, (x, y)
    for x, y in [(end + sign * eps, 0.1), (centre - sign * eps, 0.1),
                 (sign * 0.3, side + eps), (sign * 0.3, -side - eps), (-end, 0.1), (-centre, 0.1)]:
        error = kt.placement_error(state, "B1", half, (x, y))
        assert error == f"the kubb must stand on the board inside half {half} (KT rules)", (x, y)


def test_a_placed_kubb_stands_at_least_2_in_from_the_king(kt):
    """KT rules: "anywhere in their own half, but at least 2 inches from the King": exactly
    2 in is allowed, anything nearer is not, in every direction."""
    assert KING_CLEARANCE_M == pytest.approx(2 * INCH)
    state = _state(kt, {})
    assert kt.placement_error(state, "B1", "A", (-KING_CLEARANCE_M, 0.0)) is None
    for direction in (0.0, 0.6, 1.2):  # the distance, not one coordinate
        x, y = -KING_CLEARANCE_M * math.cos(direction), KING_CLEARANCE_M * math.sin(direction)
        assert kt.placement_error(state, "B1", "A", (x * 1.001, y * 1.001)) is None
        error = kt.placement_error(state, "B1", "A", (x * 0.99, y * 0.99))
        assert error == "the kubb must stand at least 2 in (5.08 cm) from the king (KT rules)"


def test_a_placed_kubb_does_not_overlap_another_standing_kubb(kt):
    """A free spot (module doc): the standing disks' footprints (thickness along x, diameter
    across) do not overlap; touching is allowed; a kubb that is down, out of the game or the
    placed kubb itself is no obstacle."""
    hx, hy, _ = _limits(kt)
    state = _state(kt, {"A3": ("A", True, (-0.3, 0.1)), "B1": ("A", False, (-0.3, -0.1))})
    for dx, dy in [(0.95, 0.95), (-0.95, 0.0), (0.0, -0.95), (0.5, 0.5)]:
        near = (-0.3 + 2 * hx * dx, 0.1 + 2 * hy * dy)
        assert kt.placement_error(state, "B1", "A", near) == "the kubb would overlap A3 (KT rules)", near
    for apart in [(-0.3 + 2 * hx * 1.05, 0.1), (-0.3, 0.1 + 2 * hy * 1.05), (-0.3, 0.1 - 2 * hy * 1.05),
                  ]:
        assert kt.placement_error(state, "B1", "A", apart) is None, apart
    # touching exactly (the numbers chosen so that the differences are exact floats)
    state.kubbs["A3"].pose = Pose((-2 * hx, 0.2, 0.016))
    assert kt.placement_error(state, "B1", "A", (-4 * hx, 0.2)) is None
    state.kubbs["A3"].pose = Pose((-0.3, 2 * hy, 0.016))
    assert kt.placement_error(state, "B1", "A", (-0.3, 4 * hy)) is None
    state.kubbs["A3"].pose = Pose((-0.3, 0.1, 0.016))
    # the placed kubb's own old spot is free
    assert kt.placement_error(state, "B1", "A", (-0.3, -0.1)) is None
    state.kubbs["A3"].standing = False
    assert kt.placement_error(state, "B1", "A", (-0.3, 0.1)) is None
    state.kubbs["A3"].standing = True
    state.kubbs["A3"].removed = True
    assert kt.placement_error(state, "B1", "A", (-0.3, 0.1)) is None


def test_no_pose_tilts_exactly_the_own_kubb_tolerance():
    """Why ``tilt > OWN_KUBB_TILTED_RAD`` and ``>=`` are the same rule (an equivalent mutant,
    docs/mutation.md): a tilt is acos of a float (kubb3d.snapshot.tilt_from_vertical), acos is
    monotone, and the two neighbouring floats around cos(3°) give tilts either side of 3°."""
    cos_t = math.cos(OWN_KUBB_TILTED_RAD)
    while math.acos(cos_t) < OWN_KUBB_TILTED_RAD:
        cos_t = math.nextafter(cos_t, -1.0)
    while math.acos(math.nextafter(cos_t, 2.0)) >= OWN_KUBB_TILTED_RAD:
        cos_t = math.nextafter(cos_t, 2.0)
    assert math.acos(cos_t) > OWN_KUBB_TILTED_RAD > math.acos(math.nextafter(cos_t, 2.0))

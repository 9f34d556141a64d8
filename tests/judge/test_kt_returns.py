"""Returned kubbs at table scale (kubb3d.judge.kubbuteo), on hand-built snapshots: each KT rule
of the return at its boundary (issue #37 item 5: the mutants these tests kill survived the fast
tests; docs/mutation.md).

KT rules: "Kubbs that are successfully knocked down are then flicked by Player B back into Player
A's half of the board and stood up where they come to rest. ... 1 misflick [when the kubb has not
gone far enough to reach the opponent's half, or has gone off the board] is allowed and the kubb
is returned to Player B for reflicking. Subsequent misflicked kubbs will be placed by Player A
anywhere in their own half, but at least 2 inches from the King."
"""

from __future__ import annotations

import math

import pytest

from kubb3d.equipment import get_set
from kubb3d.judge import analyse
from kubb3d.judge.inkast import InkastContext
from kubb3d.judge.kubbuteo import judge_return, stand_up_spot
from kubb3d.judge.rulebook import get_rulebook
from kubb3d.judge.rulings import Consequence, Pose, Status
from kubb3d.rules.kubbuteo import kubbuteo_pitch
from kubb3d.snapshot import PieceState, Snapshot

SET = get_set("kubbuteo")
DISK = SET.kubb.half_extents          # (thickness/2, radius, height/2)
KING = SET.king.half_extents
PARAMS = get_rulebook("kubbuteo").params
PITCH = kubbuteo_pitch()
FLAT = (0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4))   # a disk lying on a face
UPRIGHT = (0.0, 0.0, 0.0, 1.0)


def lying(pid: str, x: float, y: float, z: float | None = None) -> PieceState:
    return PieceState(pid, "kubb", "disk", DISK, (x, y, DISK[0] if z is None else z), FLAT, mass=0.005,
                      side=pid[0])


def standing(pid: str, x: float, y: float) -> PieceState:
    return PieceState(pid, "kubb", "disk", DISK, (x, y, DISK[2]), UPRIGHT, mass=0.005, side=pid[0])


def king(*, down: bool = False) -> PieceState:
    if down:
        return PieceState("king", "king", "mushroom", KING, (0.0, 0.05, KING[0]), FLAT, mass=0.02)
    return PieceState("king", "king", "mushroom", KING, (0.0, 0.0, KING[2]), UPRIGHT, mass=0.02)


def snapshot(*pieces: PieceState) -> Snapshot:
    return Snapshot(0.0, {p.id: p for p in pieces}, (), PITCH, 9.81)


def ruled(after: Snapshot, returned: tuple[str, ...], *, side: str = "B", attempt: int = 1, before=None):
    ctx = InkastContext(ruleset="kubbuteo", inkasting_side=side, inkasted=returned, attempt=attempt,
                        before=before or {})
    return judge_return(after, ctx, PARAMS)


def ruling(judgement, piece):
    return next(r for r in judgement.rulings if r.piece == piece)


# ------------------------------------------------------------------ the centre line
@pytest.mark.parametrize("side", ["A", "B"])
def test_a_return_short_of_the_centre_line_is_a_misflick_one_just_past_it_is_valid(side):
    """"when the kubb has not gone far enough to reach the opponent's half": its centre on the
    returning player's side of the centre line, by x alone (y is across the board)."""
    into = -1.0 if side == "B" else 1.0   # B returns into A's half (x < 0)
    # y across the board has the other sign than x each time: only x may decide
    after = snapshot(king(), lying("R1", -into * 0.001, into * 0.2), lying("R2", into * 0.001, -into * 0.2),
                     lying("R3", 0.0, 0.2))
    judgement = ruled(after, ("R1", "R2", "R3"), side=side)
    short, past, on = ruling(judgement, "R1"), ruling(judgement, "R2"), ruling(judgement, "R3")
    assert short.consequence is Consequence.RETHROW and short.valid is False
    assert short.reason == "R1 did not reach the receiving half: a misflick; the first misflick is flicked again."
    half = "A" if side == "B" else "B"
    for r in (past, on):   # a centre on the line has reached the half
        assert r.consequence is Consequence.RAISE_HERE and r.valid is True
        assert r.reason == f"{r.piece} came to rest in half {half}, so it is stood up where it rests."
    assert set(judgement.raised) == {"R2", "R3"} and judgement.penalty is None


def test_the_one_misflick_is_the_first_every_later_one_is_placed():
    """"1 misflick is allowed ... Subsequent misflicked kubbs will be placed by Player A": the
    first misflick in flicking order is flicked again, a later one (off the board here) is
    placed, and a valid kubb after them is still stood up."""
    after = snapshot(king(), lying("B1", 0.05, 0.1), lying("B2", -0.3, 0.1, z=-0.02), lying("B3", -0.2, -0.1))
    judgement = ruled(after, ("B1", "B2", "B3"))
    assert [ruling(judgement, k).consequence for k in ("B1", "B2", "B3")] == [
        Consequence.RETHROW, Consequence.PENALTY_KUBB, Consequence.RAISE_HERE]
    assert ruling(judgement, "B2").reason == (
        "B2 went off the board: a further misflick, so it becomes a penalty kubb: the receiving player places "
        "it anywhere in his half at least 2 in from the king.")
    assert judgement.penalty == "place" and set(judgement.raised) == {"B3"}
    # the reflick (attempt 2) has no misflick left: its first miss is placed
    again = ruled(snapshot(king(), lying("B1", 0.05, 0.1)), ("B1",), attempt=2)
    assert ruling(again, "B1").consequence is Consequence.PENALTY_KUBB and again.penalty == "place"
    # a first misflick off the board is flicked again, and says so
    off = ruled(snapshot(king(), lying("B2", -0.3, 0.1, z=-0.02)), ("B2",))
    assert ruling(off, "B2").reason == "B2 went off the board: a misflick; the first misflick is flicked again."


def test_a_returned_piece_that_is_not_a_kubb_is_refused():
    for returned in (("king",), ("B9",)):
        with pytest.raises(ValueError, match=rf"^inkasted piece '{returned[0]}' is not a kubb of the snapshot$"):
            ruled(snapshot(king(), lying("B1", -0.2, 0.0)), returned)


# ------------------------------------------------------------------ the king and the pieces standing
def test_a_returned_kubb_that_knocks_the_king_down_loses_for_the_returning_player():
    """KT: "if at any time during the game the King is knocked down by a poorly flicked baton,
    the offending player immediately loses the game" (module doc: a returned kubb alike)."""
    after = snapshot(king(down=True), lying("B1", -0.03, 0.05))
    judgement = ruled(after, ("B1",))
    why = analyse(after, "king", PARAMS).reason
    king_ruling = ruling(judgement, "king")
    assert king_ruling.consequence is Consequence.GAME_LOST
    assert king_ruling.reason == f"A returned kubb knocked the king down, so side B loses. ({why})"
    assert (judgement.winner, judgement.loser) == ("A", "B")
    assert ruled(snapshot(king(), lying("B1", -0.2, 0.05)), ("B1",)).winner is None


def test_pieces_a_return_moved_are_stood_up_again_where_they_stood():
    """Module doc (WS basic rule 14 by analogy): a standing piece moved by more than
    ``moved_tol`` is stood up again at once where it stood; one moved less stays; a piece no
    longer on the board is not judged."""
    start = {"A1": Pose((-0.52, -0.2, DISK[2])), "A2": Pose((-0.52, 0.0, DISK[2])),
             "A3": Pose((-0.52, 0.2, DISK[2]))}
    moved = PARAMS.moved_tol * 1.5
    after = snapshot(king(), lying("B1", -0.4, 0.0), standing("A2", -0.52 + moved, 0.0),
                     standing("A3", -0.52 + PARAMS.moved_tol * 0.5, 0.2))
    judgement = ruled(after, ("B1",), before=start)
    a2 = ruling(judgement, "A2")
    assert a2.consequence is Consequence.RAISE_AT_ORIGINAL_SPOT and a2.raised_pose == start["A2"]
    assert a2.reason == "A2 was moved by a returned kubb, so it is stood up again where it stood."
    assert judgement.raise_now == {"A2"}
    assert not any(r.piece in ("A1", "A3") for r in judgement.rulings)


def test_a_moved_piece_is_judged_with_the_tolerances_of_the_table():
    """The status of a piece a return moved is the one the KT book's tolerances give (its lengths
    scaled to the disk, kubb3d.judge.table): a disk 3 mm above the board does not rest on it,
    though a Kubb kubb would within the default ground_tol of 5 mm."""
    start = {"A2": Pose((-0.52, 0.0, DISK[2]))}
    lift = 3 * PARAMS.ground_tol
    assert lift < get_rulebook("dm").params.ground_tol
    lifted = PieceState("A2", "kubb", "disk", DISK, (-0.52 + 1.5 * PARAMS.moved_tol, 0.0, DISK[2] + lift), UPRIGHT,
                        mass=0.005, side="A")
    after = snapshot(king(), lying("B1", -0.4, 0.0), lifted)
    a2 = ruling(ruled(after, ("B1",), before=start), "A2")
    assert a2.consequence is Consequence.RAISE_AT_ORIGINAL_SPOT
    assert a2.status is analyse(after, "A2", PARAMS).status is Status.FALLEN
    assert analyse(after, "A2", get_rulebook("dm").params).status is Status.STANDING


# ------------------------------------------------------------------ where a returned kubb stands
def test_a_returned_kubb_is_stood_up_on_its_flat_exactly_where_it_rests_when_free():
    pose = stand_up_spot(snapshot(lying("B1", -0.2, 0.07)), "B1", "A", {})
    assert pose.position == pytest.approx((-0.2, 0.07, DISK[2]), abs=1e-12)
    assert pose.quat_xyzw == (0.0, 0.0, 0.0, 1.0)


@pytest.mark.parametrize("half, rest_x, expected_x", [
    ("A", -0.7, -PITCH.length / 2 + DISK[0]),   # over the board's end: its flat stays on the board
    ("A", -0.0005, -DISK[0]),                   # against the centre line, inside the half
    ("B", 0.7, PITCH.length / 2 - DISK[0]),
    ("B", 0.0005, DISK[0]),
])
def test_a_returned_kubb_is_stood_inside_its_half_and_on_the_board(half, rest_x, expected_x):
    pose = stand_up_spot(snapshot(lying("K1", rest_x, 0.1)), "K1", half, {})
    assert pose.position[0] == pytest.approx(expected_x, abs=1e-12) and pose.position[1] == pytest.approx(0.1)


def test_a_returned_kubb_over_the_side_edge_stands_with_its_flat_at_the_edge():
    edge = PITCH.half_width - DISK[1]
    for y in (0.31, -0.31):
        pose = stand_up_spot(snapshot(lying("B1", -0.2, y)), "B1", "A", {})
        assert pose.position[1] == pytest.approx(math.copysign(edge, y), abs=1e-12)


def test_a_returned_kubb_is_moved_sideways_in_mm_steps_first_to_plus_y():
    """Clear of a standing kubb on its spot: 1 mm steps, +y tried before −y; at the side edge,
    only −y is left."""
    blocker = {"A2": (-0.2, 0.0, 0.0)}
    pose = stand_up_spot(snapshot(lying("B1", -0.2, 0.0)), "B1", "A", blocker)
    need = 2 * DISK[1] + 1e-4          # the footprints apart by the block tolerance
    steps = math.ceil(need / 0.001 - 1e-9)
    assert pose.position[1] == pytest.approx(0.001 * steps)
    edge = PITCH.half_width - DISK[1]
    pose = stand_up_spot(snapshot(lying("B1", -0.2, edge)), "B1", "A", {"A2": (-0.2, edge, 0.0)})
    assert pose.position[1] == pytest.approx(edge - 0.001 * steps)


def test_a_returned_kubb_may_stand_exactly_0_1_mm_clear_of_a_blocker_but_not_closer(monkeypatch):
    """stand_up_spot's clearance is at least the block tolerance, 0.1 mm (``<= -1e-4``): a disk
    whose footprint is exactly 0.1 mm from a blocker's where it lies is stood there; one float
    step closer, it is moved on by the 1 mm steps. The gap is set below (a difference of
    coordinates does not land on the double nearest 0.1 mm)."""
    from kubb3d.judge import kubbuteo as kt_judge

    y0 = 0.0
    for gap, expected in ((-1e-4, y0), (math.nextafter(-1e-4, 0.0), y0 + 0.001)):
        def depth(here, _blocker, gap=gap):
            return gap if sum(y for _, y in here) / len(here) == y0 else -1.0  # clear everywhere else

        monkeypatch.setattr(kt_judge, "overlap_depth", depth)
        pose = stand_up_spot(snapshot(lying("B1", -0.2, y0)), "B1", "A", {"A2": (-0.2, 0.5, 0.0)})
        assert pose.position[1] == pytest.approx(expected, abs=1e-12), gap


def test_a_returned_kubb_is_kept_clear_of_the_kings_cap():
    """The king as a circle of its cap radius against the disk's rectangular footprint: the
    first 1 mm step that clears it, and not one step before."""
    # KT rules: returns (boundary): "stood up where they come to rest"
    king_r = SET.king.diameter / 2
    x = -(DISK[0] + 0.002)    # the footprint's near face 2 mm from the king's axis, across x
    pose = stand_up_spot(snapshot(lying("B1", x, 0.0)), "B1", "A", {"king": (0.0, 0.0, 0.0)})
    gap = lambda y: math.hypot(max(abs(x) - DISK[0], 0.0), max(abs(y) - DISK[1], 0.0))  # noqa: E731
    y = pose.position[1]
    assert gap(y) >= king_r + 1e-4 and gap(y - 0.001) < king_r + 1e-4 and y > 0


def test_a_turned_standing_kubb_blocks_with_its_turned_footprint():
    """A standing disk turned by its yaw reaches further along x than its thickness (Kubbuteo
    seed 33): the returned kubb is moved clear of the turned footprint, which turned the other
    way would have left it where it rests."""
    from kubb3d.judge.geometry import footprint, overlap_depth

    yaw = math.radians(-36.2)
    turned = (0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2))
    a5 = PieceState("A5", "kubb", "disk", DISK, (0.0793, 0.1746, DISK[2]), turned, mass=0.005, side="A")
    after = snapshot(a5, lying("B2", 0.0921, 0.1958))
    pose = stand_up_spot(after, "B2", "B", {"A5": (0.0793, 0.1746, yaw)})
    stood = PieceState("B2", "kubb", "disk", DISK, pose.position, pose.quat_xyzw, mass=0.005, side="B")
    assert overlap_depth(footprint(stood), footprint(a5)) < 0
    assert pose.position[1] != pytest.approx(0.1958)
    mirrored = stand_up_spot(after, "B2", "B", {"A5": (0.0793, 0.1746, -yaw)})
    assert mirrored.position[:2] == pytest.approx((0.0921, 0.1958))


@pytest.mark.parametrize("yaw_deg", [-36.2, 30.0, 45.0, -60.0, 135.0])
def test_a_kubb_stood_up_beside_a_turned_kubb_clears_its_footprint(yaw_deg):
    """Module doc ("a disk as its rectangular footprint turned by its yaw"): wherever a returned
    kubb resting against a turned standing disk is stood up, its footprint is clear of that
    disk's footprint as the geometry of the snapshot gives it, by the block tolerance."""
    from kubb3d.judge.geometry import footprint, overlap_depth

    yaw = math.radians(yaw_deg)
    turned = (0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2))
    a5 = PieceState("A5", "kubb", "disk", DISK, (-0.2, 0.05, DISK[2]), turned, mass=0.005, side="A")
    after = snapshot(a5, lying("B2", -0.2 + DISK[0], 0.05 + DISK[0]))
    pose = stand_up_spot(after, "B2", "A", {"A5": (-0.2, 0.05, yaw)})
    stood = PieceState("B2", "kubb", "disk", DISK, pose.position, pose.quat_xyzw, mass=0.005, side="A")
    assert overlap_depth(footprint(stood), footprint(a5)) <= -1e-4


def test_with_no_free_spot_across_the_board_the_kubb_stands_where_it_rests():
    wall = {f"W{i}": (-0.2, -0.3 + 0.03 * i, 0.0) for i in range(21)}
    pose = stand_up_spot(snapshot(lying("B1", -0.2, 0.01)), "B1", "A", wall)
    assert pose.position == pytest.approx((-0.2, 0.01, DISK[2]))

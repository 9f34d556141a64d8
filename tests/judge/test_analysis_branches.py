"""Every branch of the judge's status analysis read back in full (kubb3d.judge.status and
kubb3d.judge.table): the status, the reason a player reads, the tilt, the ground contact and
the doubt, each against the same piece in a neighbouring case (issue #37 item 5: the mutants
these tests kill survived the fast tests; docs/mutation.md).

DM §5: "Ein Kubb gilt als umgeworfen, wenn er nicht mehr aufrecht steht"; a kubb that only
stays up leaning on another counts as felled (WS basic rule 9: "A kubb that is leaning against
another kubb ... counts as knocked over"). KT: kubbs are disks stood on their flat.
"""

from __future__ import annotations

import math

import pytest

from kubb3d.equipment import get_set, kubbuteo_disk, kubbuteo_king
from kubb3d.judge import JudgeParams, analyse
from kubb3d.judge.geometry import quat_from_rows, quat_yaw, rot, rows_from_columns
from kubb3d.judge.messages import Msg, msg
from kubb3d.i18n import translator
from kubb3d.judge.rulebook import get_rulebook
from kubb3d.judge.rulings import Status
from kubb3d.judge.status import piece_status
from kubb3d.judge.table import flat_margin
from kubb3d.judge.throws import ThrowContext, _violation_rule, judge_accident
from kubb3d.model_files import com_local
from kubb3d.errors import JudgeInputError
from kubb3d.rules.kubbuteo import kubbuteo_pitch
from kubb3d.snapshot import GROUND_ID, Contact, PieceState, Snapshot
from kubb3d.throw import Violation

from helpers import HX, HZ, king, kubb, leaning_pair, snap, touch

# ---------------------------------------------------------------- kubbs and the king


def _rolled(pid: str, angle_deg: float, axis: str) -> PieceState:
    """A standard kubb turned by *angle_deg* about its own x or y axis, its lowest corner on the ground."""
    c, s = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    rows = ((1.0, 0.0, 0.0), (0.0, c, -s), (0.0, s, c)) if axis == "x" else ((c, 0.0, s), (0.0, 1.0, 0.0),
                                                                           (-s, 0.0, c))
    # the lowest corner of a box turned by the angle: centre height = half width · |sin| + half height · cos
    z = HX * abs(s) + HZ * c
    return PieceState(pid, "kubb", "box", (HX, HX, HZ), (1.0, 0.0, z), quat_from_rows(rows), 0.4557,
                      max_tilt=math.radians(abs(angle_deg)), side="B")


@pytest.mark.parametrize("angle", [10.0, -10.0])
def test_a_square_kubb_tilted_the_same_angle_towards_any_side_rules_the_same(angle):
    """Without contact records the judge finds the ground from the box's corners: a kubb turned
    about either of its short axes, either way, touches the ground with a corner of the side it
    leans to, and stands (10° is under its tipping angle)."""
    rulings = []
    for axis in ("x", "y"):
        piece = _rolled("B1", angle, axis)
        a = analyse(snap(piece, auto_ground=False), "B1")
        rulings.append((a.status, a.grounded, round(a.tilt, 12)))
    assert rulings[0] == rulings[1] == (Status.STANDING, True, round(math.radians(abs(angle)), 12))


def test_a_corner_exactly_at_the_ground_tolerance_touches_the_ground():
    """JudgeParams.ground_tol: "a corner within this height" counts as touching the ground
    (pieces without contact data); a hair above it does not."""
    piece = kubb("B1", 1.0, 0.0, z=HZ + 0.002)
    lowest = piece.position[2] + (-HZ)  # upright: the lowest corners are the centre less half the height
    at = analyse(snap(piece, auto_ground=False), "B1", JudgeParams(ground_tol=lowest))
    above = analyse(snap(piece, auto_ground=False), "B1", JudgeParams(ground_tol=math.nextafter(lowest, 0.0)))
    assert (at.status, at.grounded) == (Status.STANDING, True)
    assert (above.status, above.grounded) == (Status.FALLEN, False)
    assert str(above.reason) == "B1 does not rest on the ground."
    # nothing touches it, nothing holds it up, and nothing about it is in doubt
    assert (above.piece, above.touching, above.supporters, above.doubt) == ("B1", (), (), False)


@pytest.mark.parametrize("axis", ["x", "y"])
def test_a_tilted_kubb_finds_the_ground_with_its_lowest_corner_about_either_axis(axis):
    """Without contact records the judge takes the lowest of the box's eight corners: a kubb
    turned 10° about either short axis, lifted so that corner is 2 mm up, rests on the ground
    with ground_tol 3 mm and not with 1 mm (the corner's height is the half width times the
    sine plus the half height times the cosine below the centre, whichever axis it turned about)."""
    piece = _rolled("B1", 10.0, axis)
    lifted = PieceState("B1", "kubb", "box", piece.half_extents, (1.0, 0.0, piece.position[2] + 0.002),
                        piece.quat_xyzw, piece.mass, max_tilt=piece.max_tilt, side="B")
    near = analyse(snap(lifted, auto_ground=False), "B1", JudgeParams(ground_tol=0.003))
    far = analyse(snap(lifted, auto_ground=False), "B1", JudgeParams(ground_tol=0.001))
    assert (near.status, near.grounded) == (Status.STANDING, True)
    assert (far.status, far.grounded, str(far.reason)) == (Status.FALLEN, False, "B1 does not rest on the ground.")


def test_a_king_lying_on_a_kubb_off_the_ground_is_down_with_its_tilt_kept():
    """A piece off the ground resting on others is fallen (a kubb on kubbs is a stößel, DM §7:
    "Stößel"); the analysis keeps the tilt it measured, whatever the branch."""
    b1 = kubb("B1", 1.0, 0.0)
    tilt = math.radians(80.0)
    c, s = math.cos(tilt), math.sin(tilt)
    rows = ((c, 0.0, s), (0.0, 1.0, 0.0), (-s, 0.0, c))
    lying_king = PieceState("king", "king", "box", (0.045, 0.045, 0.15), (1.0, 0.0, 0.2), quat_from_rows(rows), 1.5,
                            (0.0, 0.0, -0.01), max_tilt=tilt)
    on_top = touch("king", "B1", (1.0, 0.0, 2 * HZ), (0.0, 0.0, 1.0), 14.0)
    snapshot = snap(b1, lying_king, contacts=[on_top], auto_ground=False)
    a = analyse(snapshot, "king")
    assert (a.status, a.grounded, a.doubt, a.supporters) == (Status.FALLEN, False, False, ("B1",))
    assert a.tilt == pytest.approx(tilt, abs=1e-12)
    assert str(a.reason) == "The king rests on B1 and does not touch the ground."  # a sentence opens with its article
    stossel = kubb("B2", 1.0, 0.0, lying_yaw_deg=0.0, z=2 * HZ + HX)
    snapshot = snap(b1, stossel, contacts=[touch("B2", "B1", (1.0, 0.0, 2 * HZ), (0.0, 0.0, 1.0), 4.0)],
                    auto_ground=False)
    b2 = analyse(snapshot, "B2")
    assert (b2.status, b2.grounded, b2.supporters) == (Status.STOSSEL, False, ("B1",))
    assert b2.tilt == pytest.approx(math.pi / 2, abs=1e-12)


def test_the_hand_check_names_the_kubb_it_took_away():
    """DM §5's hand check, when the kubb stands on its own once its neighbour is taken away: the
    reason names that neighbour; when it falls, the neighbour is its supporter."""
    b1 = kubb("B1", 1.0, 0.0, tilt_deg=5.0, toward_deg=0.0)
    lean = touch("B1", "B2", (1.0 + HX, 0.0, 0.1), (-1.0, 0.0, 0.0), 3.0)
    snapshot = snap(b1, kubb("B2", 1.0 + 2 * HX + 0.01, 0.0), contacts=[lean])
    stood = analyse(snapshot, "B1", hand_check=lambda _snapshot, _pid: True)
    fell = analyse(snapshot, "B1", hand_check=lambda _snapshot, _pid: False)
    assert (stood.status, stood.doubt, stood.hand_check, stood.supporters) == (Status.STANDING, True, True, ())
    assert str(stood.reason) == "B1 stood on its own in the hand check once B2 was taken away, so it is standing."
    assert (fell.status, fell.supporters) == (Status.LEANING, ("B2",))
    assert piece_status(snapshot, "B1", hand_check=lambda _snapshot, _pid: True) == (stood.status, stood.reason)
    assert piece_status(snapshot, "B1", hand_check=lambda _snapshot, _pid: False) == (fell.status, fell.reason)
    assert str(fell.reason) == "B1 fell in the hand check once B2 was taken away, so it only stood with that help."
    # the hand check decides the status only: the measured pose is the one without it
    unchecked = analyse(snapshot, "B1")
    for ruled in (stood, fell):
        assert (ruled.tilt, ruled.margin, ruled.grounded, ruled.touching) == (
            unchecked.tilt, unchecked.margin, unchecked.grounded, unchecked.touching)
    assert unchecked.grounded is True and unchecked.margin > 0.0 and unchecked.touching == ("B2",)


def test_the_hand_check_names_the_king_it_took_away_with_its_article():
    """The hand check's reason names the king after a preposition as ``the king`` (German ``dem
    König``), as every other reason does, when the kubb stood or fell once the king was taken away."""
    b1 = kubb("B1", 0.3, 0.0, tilt_deg=5.0, toward_deg=180.0)
    lean = touch("B1", "king", (0.3 - HX, 0.0, 0.1), (1.0, 0.0, 0.0), 3.0)
    snapshot = snap(b1, king(0.3 - HX - 0.045 - 0.01, 0.0), contacts=[lean])
    stood = analyse(snapshot, "B1", hand_check=lambda _snapshot, _pid: True)
    fell = analyse(snapshot, "B1", hand_check=lambda _snapshot, _pid: False)
    assert str(stood.reason) == (
        "B1 stood on its own in the hand check once the king was taken away, so it is standing.")
    assert str(fell.reason) == (
        "B1 fell in the hand check once the king was taken away, so it only stood with that help.")
    assert (stood.status, fell.status, fell.supporters) == (Status.STANDING, Status.LEANING, ("king",))
    assert stood.doubt is fell.doubt is True  # a hand check is made only in a doubtful case


# ---------------------------------------------------------------- Kubbuteo disks and the mushroom king

DISK = get_set("kubbuteo").kubb.half_extents  # (thickness/2, radius, height/2)
PARAMS = get_rulebook("kubbuteo").params
MASS = 0.005


def _disk(pid: str, *, tilt_deg: float = 0.0, spin_deg: float = 0.0, lift: float = 0.0) -> PieceState:
    """A disk kubb on its flat at (0.3, 0), its face tilted *tilt_deg* (about its own y axis) or
    turned *spin_deg* on its rim (about its own x axis, the flat leaving the board)."""
    t, u = math.radians(tilt_deg), math.radians(spin_deg)
    tilt_rows = ((math.cos(t), 0.0, math.sin(t)), (0.0, 1.0, 0.0), (-math.sin(t), 0.0, math.cos(t)))
    spin_rows = ((1.0, 0.0, 0.0), (0.0, math.cos(u), -math.sin(u)), (0.0, math.sin(u), math.cos(u)))
    rows = tuple(tuple(sum(tilt_rows[i][k] * spin_rows[k][j] for k in range(3)) for j in range(3)) for i in range(3))
    return PieceState(pid, "kubb", "disk", DISK, (0.3, 0.0, DISK[2] + lift), quat_from_rows(rows), mass=MASS,
                      side="B")


def _board(*pieces: PieceState, contacts=()) -> Snapshot:
    return Snapshot(0.0, {p.id: p for p in pieces}, tuple(contacts), kubbuteo_pitch(), 9.81)


def _on_board(p: PieceState) -> Contact:
    foot = (p.position[0], p.position[1], 0.0)
    return Contact(p.id, GROUND_ID, foot, foot, (0.0, 0.0, 1.0), MASS * 9.81)


def _against_b2(force: float) -> Contact:
    point = (0.3 + DISK[0], 0.0, DISK[2])
    return Contact("B1", "B2", point, point, (-1.0, 0.0, 0.0), force)


def test_a_disk_in_the_air_rests_on_nothing_and_keeps_its_tilt():
    lifted = analyse(_board(_disk("B1", tilt_deg=8.0, lift=0.05)), "B1", PARAMS)
    assert (lifted.status, lifted.grounded, lifted.doubt, lifted.margin) == (Status.FALLEN, False, False, -math.inf)
    assert lifted.tilt == pytest.approx(math.radians(8.0), abs=1e-12)
    assert str(lifted.reason) == "B1 does not rest on the board."
    assert (lifted.piece, lifted.touching, lifted.supporters) == ("B1", (), ())
    down = analyse(_board(_disk("B1", tilt_deg=8.0)), "B1", PARAMS)
    assert down.grounded and down.tilt == pytest.approx(lifted.tilt, abs=1e-12)


def test_a_disk_off_the_board_is_off_and_says_which():
    """KT rules: a kubb that leaves the board counts as knocked (module doc of kubb3d.judge.table):
    below the board top or on the floor, the analysis is of that disk, off the board, with no
    margin to stand on (as a disk in the air), held by nothing and no hand-check case."""
    below = _disk("B1", lift=-2 * DISK[2])
    on_floor = _disk("B2", tilt_deg=80.0)
    floor = Contact("B2", "floor", (0.3, 0.0, 0.0), (0.3, 0.0, 0.0), (0.0, 0.0, 1.0), MASS * 9.81)
    for snapshot, pid in ((_board(below), "B1"), (_board(on_floor, contacts=[floor]), "B2")):
        off = analyse(snapshot, pid, PARAMS)
        assert (off.piece, off.status, off.supporters, off.doubt) == (pid, Status.OFF_BOARD, (), False)
        assert off.margin == -math.inf and str(off.reason) == f"{pid} went off the board."


@pytest.mark.parametrize("direction_deg", [0.0, 28.6, 60.2, 90.0, 197.2])
def test_a_disks_margin_on_its_flat_runs_out_at_its_tipping_angle_in_every_direction(direction_deg):
    """Module doc, step 4: a disk stands while the vertical through its centre of mass meets its
    flat; the equipment gives the angle where it leaves it in each direction (tan θ = min(a /
    |cos d|, b / |sin d|) / h, DiskPiece.tipping_angle_towards: 11.2° sideways, 19.1° in its
    plane, 21.7° towards a corner). flat_margin is positive 0.02° short of it and negative 0.02° past it."""
    disk = kubbuteo_disk()
    direction = math.radians(direction_deg)
    axis = (-math.sin(direction), math.cos(direction), 0.0)  # turns body +z towards the direction

    def tilted(angle: float) -> PieceState:
        q = (axis[0] * math.sin(angle / 2), axis[1] * math.sin(angle / 2), 0.0, math.cos(angle / 2))
        return PieceState("B1", "kubb", "disk", DISK, (0.3, 0.0, DISK[2]), q, mass=MASS,
                          com_local=com_local(get_set("kubbuteo"), "kubb"), side="B")

    tipping = disk.tipping_angle_towards(direction)
    assert flat_margin(tilted(tipping - math.radians(0.02))) > 0 > flat_margin(tilted(tipping + math.radians(0.02)))


@pytest.mark.parametrize(("axis", "angle_deg"), [((0.0, 1.0), 6.0), ((0.0, 1.0), -6.0), ((1.0, 0.0), 12.0),
                                                 ((1.0, 0.0), -12.0)])
def test_a_disks_margin_is_the_distance_on_the_board_from_its_centre_of_mass_to_the_flats_edge(axis, angle_deg):
    """flat_margin's words: "the least distance of that point from the rectangle's sides,
    foreshortened onto the board", measured here in the world instead of the disk's frame. Tilted
    about one of its own axes (6° towards a face, 12° along its plane, short of its tipping
    angles), the flat's edge that way stays horizontal, and the margin is the horizontal distance
    from the centre of mass to that edge's line: the edge's point and the centre of mass rotated
    into the world, their difference across the edge."""
    disk = kubbuteo_disk()
    a, b, _ = disk.support
    angle = math.radians(angle_deg)
    q = (axis[0] * math.sin(angle / 2), axis[1] * math.sin(angle / 2), 0.0, math.cos(angle / 2))
    com = com_local(get_set("kubbuteo"), "kubb")
    piece = PieceState("B1", "kubb", "disk", DISK, (0.3, 0.0, DISK[2]), q, mass=MASS, com_local=com, side="B")
    rm = rot(q)
    flat_z = -DISK[2] + disk.edge_radius

    def world(point):
        return [sum(rm[i][k] * point[k] for k in range(3)) for i in range(3)]

    centre = world(com)
    # tilted about body y the edge governing is x = ±a (along body y, horizontal); about body x it is y = ±b
    across = 0 if axis == (0.0, 1.0) else 1
    edges = [world([sign * (a, b)[across] if k == across else 0.0 for k in range(2)] + [flat_z]) for sign in (1, -1)]
    distance = min(abs(edge[across] - centre[across]) for edge in edges)
    assert flat_margin(piece) == pytest.approx(distance, abs=1e-12)


def test_a_disk_weighted_to_one_face_keeps_less_margin_tilted_that_way():
    """Module doc, step 4, for a disk whose centre of mass sits 0.5 mm towards its +x face: tilted
    5° towards that face, the vertical through it comes nearer the flat's edge than tilted 5° the
    other way, and both nearer than upright."""
    cz = com_local(get_set("kubbuteo"), "kubb")[2]

    def tilted(direction: float, angle: float) -> PieceState:
        s = math.sin(angle / 2)
        q = (-math.sin(direction) * s, math.cos(direction) * s, 0.0, math.cos(angle / 2))
        return PieceState("B1", "kubb", "disk", DISK, (0.3, 0.0, DISK[2]), q, mass=MASS, com_local=(0.0005, 0.0, cz),
                          side="B")

    towards, away = flat_margin(tilted(0.0, math.radians(5.0))), flat_margin(tilted(math.pi, math.radians(5.0)))
    assert 0 < towards < away < flat_margin(tilted(0.0, 0.0))


def test_a_disk_weighted_to_one_side_of_its_plane_keeps_less_margin_tilted_that_way():
    """The same for a centre of mass 0.5 mm towards +y, in the disk's plane: tilted 15° with its top
    towards +y (about −x; its tipping angle that way is 19.1°) the vertical through it comes nearer
    the flat's end than tilted 15° towards −y, and both nearer than upright."""
    cz = com_local(get_set("kubbuteo"), "kubb")[2]

    def tilted(angle: float) -> PieceState:
        q = (-math.sin(angle / 2), 0.0, 0.0, math.cos(angle / 2))  # about −x: the top moves to +y
        return PieceState("B1", "kubb", "disk", DISK, (0.3, 0.0, DISK[2]), q, mass=MASS, com_local=(0.0, 0.0005, cz),
                          side="B")

    assert rot(tilted(math.radians(15.0)).quat_xyzw)[1][2] > 0  # the body's z axis leans to +y
    towards, away = flat_margin(tilted(math.radians(15.0))), flat_margin(tilted(math.radians(-15.0)))
    assert 0 < towards < away < flat_margin(tilted(0.0))


@pytest.mark.parametrize("direction", [0.0, 1.0, 2.5, 4.0])
def test_the_mushroom_king_stands_up_to_its_tipping_angle_and_not_past_it(direction):
    """Module doc (the king): it stands while the vertical through its centre of mass meets its
    stem's foot (MushroomPiece.tipping_angle, 12.6°, from the equipment's own sizes); 0.05° short
    of that it stands, 0.05° past it it has fallen, whichever way it leans and wherever it is on
    the board."""
    king_set = get_set("kubbuteo")
    he, tipping = king_set.king.half_extents, kubbuteo_king().tipping_angle
    for past, expected in ((-0.05, Status.STANDING), (0.05, Status.FALLEN)):
        angle = tipping + math.radians(past)
        s = math.sin(angle / 2)
        q = (-math.sin(direction) * s, math.cos(direction) * s, 0.0, math.cos(angle / 2))
        king = PieceState("king", "king", "mushroom", he, (0.3, 0.2, he[2]), q, mass=0.02,
                          com_local=com_local(king_set, "king"))
        ruled = analyse(_board(king, contacts=[_on_board(king)]), "king", PARAMS)
        assert ruled.status is expected, past
        if expected is Status.STANDING:
            assert str(ruled.reason) == "The king stands on its stem and carries its own weight."


def test_the_mushroom_king_upside_down_has_fallen_even_when_rounding_puts_its_axis_below_minus_one():
    """Turned half over about a horizontal axis at 45°, the king's axis height 1 − 2(x² + y²) comes
    out a hair below −1 in floats (−1.0000000000000004): it is clamped, so the king lies 180°
    from upright and has fallen, as with an exact −1."""
    king_set = get_set("kubbuteo")
    he = king_set.king.half_extents
    h = math.sqrt(0.5)
    rulings = []
    for q in ((h, h, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0)):
        king = PieceState("king", "king", "mushroom", he, (0.3, 0.2, he[2]), q, mass=0.02,
                          com_local=com_local(king_set, "king"))
        ruled = analyse(_board(king, contacts=[_on_board(king)]), "king", PARAMS)
        rulings.append((ruled.status, ruled.tilt))
    assert 1 - 2 * (h * h + h * h) < -1.0
    assert rulings == [(Status.FALLEN, math.pi), (Status.FALLEN, math.pi)]


@pytest.mark.parametrize("direction_deg", [0.0, 60.2, 90.0])
def test_a_disk_on_the_board_stands_short_of_its_tipping_angle_and_not_past_it(direction_deg):
    """The same as flat_margin's test, through analyse: 0.2° short of the equipment's tipping angle
    (DiskPiece.tipping_angle_towards) a disk on the board stands on its flat, 0.2° past it it has
    fallen (module doc, steps 4 and 5)."""
    direction = math.radians(direction_deg)
    tipping = kubbuteo_disk().tipping_angle_towards(direction)
    for past, expected in ((-0.2, Status.STANDING), (0.2, Status.FALLEN)):
        angle = tipping + math.radians(past)
        s = math.sin(angle / 2)
        q = (-math.sin(direction) * s, math.cos(direction) * s, 0.0, math.cos(angle / 2))
        disk = PieceState("B1", "kubb", "disk", DISK, (0.3, 0.0, DISK[2]), q, mass=MASS,
                          com_local=com_local(get_set("kubbuteo"), "kubb"), side="B")
        assert analyse(_board(disk, contacts=[_on_board(disk)]), "B1", PARAMS).status is expected, past


def test_a_disk_near_its_tipping_angle_is_a_doubtful_case_only_when_it_touches_another():
    """DM §5's hand check takes away the piece a kubb touches: a disk standing 1° short of its
    tipping angle (within doubt_margin of the flat's edge) is doubtful when it touches a neighbour,
    and not when it stands alone (nothing to take away)."""
    angle = kubbuteo_disk().tipping_angle_towards(0.0) - math.radians(1.0)
    q = (0.0, math.sin(angle / 2), 0.0, math.cos(angle / 2))
    b1 = PieceState("B1", "kubb", "disk", DISK, (0.3, 0.0, DISK[2]), q, mass=MASS,
                    com_local=com_local(get_set("kubbuteo"), "kubb"), side="B")
    alone = analyse(_board(b1, contacts=[_on_board(b1)]), "B1", PARAMS)
    touching = analyse(_board(b1, _disk("B2"), contacts=[_on_board(b1), _against_b2(MASS * 9.81)]), "B1", PARAMS)
    assert PARAMS.tip_margin <= alone.margin < PARAMS.doubt_margin
    assert (alone.status, alone.doubt) == (Status.STANDING, False)
    assert (touching.status, touching.doubt, touching.margin) == (Status.STANDING, True, alone.margin)


def test_a_disk_resting_on_its_rim_without_contact_data_touches_the_board_with_its_lowest_point():
    """Without contact data a disk rests on the board when the lowest point of its outline is
    within ground_tol of it. Rolled 40° in its plane, its flat off the board, that point is on its
    round rim, a radius below the circle's centre: with the centre a radius up it rests (on its rim,
    so it has fallen), lifted twice ground_tol it does not rest on the board."""
    t2, r, h2 = DISK
    roll = math.radians(40.0)
    q = (math.sin(roll / 2), 0.0, 0.0, math.cos(roll / 2))
    centre_z = r - (h2 - r) * math.cos(roll)  # the bounding box's centre with the circle's centre r up
    resting = PieceState("B1", "kubb", "disk", DISK, (0.3, 0.0, centre_z), q, mass=MASS, side="B")
    lifted = PieceState("B1", "kubb", "disk", DISK, (0.3, 0.0, centre_z + 2 * PARAMS.ground_tol), q, mass=MASS,
                        side="B")
    on_rim = analyse(_board(resting, contacts=[]), "B1", PARAMS)
    above = analyse(_board(lifted, contacts=[]), "B1", PARAMS)
    assert (on_rim.status, on_rim.grounded, str(on_rim.reason)) == (
        Status.FALLEN, True, "B1 rests on its round rim, not on its flat.")
    assert (above.status, above.grounded, str(above.reason)) == (
        Status.FALLEN, False, "B1 does not rest on the board.")


def test_a_tipped_disk_is_held_up_only_by_pieces_that_push_it_up_and_names_the_strongest_first():
    """Module doc, step 5: a disk past its tipping angle is leaning when another body carries at
    least support_force_fraction of its weight. A disk lying on top of it pushes it down and holds
    nothing up; of two it leans on, the one carrying more is named first, whatever their names."""
    b1, weight = _disk("B1", tilt_deg=40.0), MASS * 9.81
    point = (0.3 + DISK[0], 0.0, DISK[2])
    strong = Contact("B1", "B3", point, point, (-1.0, 0.0, 0.0), 0.8 * weight)
    weak = Contact("B1", "B2", point, point, (-1.0, 0.0, 0.0), 0.2 * weight)
    on_top = Contact("B1", "B4", point, point, (0.0, 0.0, -1.0), weight)
    two = analyse(_board(b1, _disk("B2"), _disk("B3"), contacts=[_on_board(b1), weak, strong]), "B1", PARAMS)
    pressed = analyse(_board(b1, _disk("B4"), contacts=[_on_board(b1), on_top]), "B1", PARAMS)
    assert (two.status, two.supporters, two.touching) == (Status.LEANING, ("B3", "B2"), ("B3", "B2"))
    assert str(two.reason) == "B1 is tilted 40° and only stays up because it leans on B3, B2."
    assert (pressed.status, pressed.supporters, pressed.touching) == (Status.FALLEN, (), ("B4",))


def test_a_disk_on_its_face_and_the_king_on_its_side_have_fallen_each_in_its_words():
    """Module doc of kubb3d.judge.table: a disk whose plane is at least lying_tilt from vertical
    lies on a face, the king whose axis is lies on its side; both have fallen on the board, held
    by nothing, with no margin to stand on and no doubt."""
    face = _disk("B1", tilt_deg=90.0, lift=DISK[0] - DISK[2])
    king_he = get_set("kubbuteo").king.half_extents
    side = PieceState("king", "king", "mushroom", king_he, (0.3, 0.2, king_he[0]),
                      (0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4)), mass=0.02)
    for piece, words in ((face, "B1 lies on a face on the board."), (side, "The king lies on its side on the board.")):
        down = analyse(_board(piece, contacts=[_on_board(piece)]), piece.id, PARAMS)
        assert (down.status, down.grounded, down.supporters, down.doubt) == (Status.FALLEN, True, (), False)
        assert down.margin == -math.inf and str(down.reason) == words
    # lying against B2 it has still fallen, held by nothing, and touches B2
    against = analyse(_board(face, _disk("B2"), contacts=[_on_board(face), _against_b2(MASS * 9.81)]), "B1", PARAMS)
    assert (against.status, against.touching, against.supporters, str(against.reason)) == (
        Status.FALLEN, ("B2",), (), "B1 lies on a face on the board.")


def test_a_disk_off_the_board_resting_on_another_is_down_and_held_up_by_it():
    """As a king or a stößel resting on a kubb (above): a disk that touches no board but rests on
    another disk has fallen, the disk under it is what holds it up, and it is no doubtful case
    for a hand check; the same disk on nothing has no supporter. Off the board neither has a base
    on it to stand on, so neither has a margin (minus infinity), as a disk off the board."""
    on_b2 = _disk("B1", tilt_deg=60.0, lift=0.02)
    point = (0.3, 0.0, 2 * DISK[2])
    carried = Contact("B1", "B2", point, point, (0.0, 0.0, 1.0), MASS * 9.81)
    resting = analyse(_board(on_b2, _disk("B2"), contacts=[carried]), "B1", PARAMS)
    alone = analyse(_board(on_b2, contacts=[]), "B1", PARAMS)
    assert (resting.status, resting.grounded, resting.touching) == (Status.FALLEN, False, ("B2",))
    assert resting.supporters == resting.touching and resting.doubt is False
    assert str(resting.reason) == "B1 rests on B2 and does not touch the board."
    assert (alone.status, alone.supporters, alone.doubt) == (Status.FALLEN, (), False)
    assert resting.margin == alone.margin == -math.inf


def test_a_disk_on_its_flat_touching_another_stands_on_its_own():
    """KT stands a kubb on its flat; one whose centre of mass is over the flat stands, whatever it
    touches: the reason says so and names what it touches."""
    b1, b2 = _disk("B1"), _disk("B2")
    weight = MASS * 9.81
    a = analyse(_board(b1, b2, contacts=[_on_board(b1), _against_b2(weight)]), "B1", PARAMS)
    alone = analyse(_board(b1, contacts=[_on_board(b1)]), "B1", PARAMS)
    assert (a.status, a.supporters, a.touching) == (Status.STANDING, (), ("B2",))
    assert str(a.reason) == "B1 stands on its own: it touches B2 but its centre of mass is over its base."
    assert (alone.status, alone.margin) == (Status.STANDING, a.margin)
    assert str(alone.reason) == "B1 stands on its flat and carries its own weight."


def test_a_disk_past_its_tipping_angle_leans_on_a_neighbour_or_has_fallen():
    """The same tilted disk with and without the disk it leans on: leaning (it only stays up
    because of B2: counts as felled, WS basic rule 9) or fallen; both name the tilt."""
    b1, b2 = _disk("B1", tilt_deg=40.0), _disk("B2")
    weight = MASS * 9.81
    leaning = analyse(_board(b1, b2, contacts=[_on_board(b1), _against_b2(weight)]), "B1", PARAMS)
    fallen = analyse(_board(b1, contacts=[_on_board(b1)]), "B1", PARAMS)
    assert (leaning.status, leaning.supporters, leaning.grounded) == (Status.LEANING, ("B2",), True)
    assert str(leaning.reason) == "B1 is tilted 40° and only stays up because it leans on B2."
    assert (fallen.status, fallen.supporters, fallen.grounded, fallen.doubt) == (Status.FALLEN, (), True, False)
    assert str(fallen.reason) == "B1 is tilted 40°, past its tipping angle."
    assert fallen.margin == leaning.margin < 0
    assert fallen.tilt == leaning.tilt == pytest.approx(math.radians(40.0), abs=1e-12)


def test_a_disk_on_its_rim_is_said_to_rest_on_it_only_while_it_leans_under_5_degrees():
    """A disk turned onto its round rim has fallen either way; the reason says it rests on its
    rim while its plane leans under 5° from vertical (it stands on the rim like a wheel), and
    gives the tilt from 5° on."""
    reasons = {}
    for tilt in (4.9, 5.1):
        disk = _disk("B1", tilt_deg=tilt, spin_deg=40.0)
        ruled = analyse(_board(disk, contacts=[_on_board(disk)]), "B1", PARAMS)
        assert (ruled.status, ruled.grounded, ruled.supporters) == (Status.FALLEN, True, ())
        reasons[tilt] = str(ruled.reason)
    assert reasons == {4.9: "B1 rests on its round rim, not on its flat.",
                       5.1: "B1 is tilted 5°, past its tipping angle."}


def test_a_disk_turned_onto_its_round_rim_has_fallen():
    """A disk upright but turned on its rim, its flat off the board, does not stand on its flat."""
    rim = analyse(_board(_disk("B1", spin_deg=40.0), contacts=[]), "B1", PARAMS)
    flat = analyse(_board(_disk("B1")), "B1", PARAMS)
    assert (rim.status, rim.doubt, rim.grounded) == (Status.FALLEN, False, True)
    assert str(rim.reason) == "B1 rests on its round rim, not on its flat."
    assert rim.margin < PARAMS.tip_margin <= flat.margin and flat.status is Status.STANDING
    assert rim.tilt == pytest.approx(0.0, abs=1e-9)


# ---------------------------------------------------------------- throws and accidents


def test_an_accident_is_ruled_with_the_thresholds_given():
    """judge_accident classifies each piece with the referee's thresholds, as analyse does: a kubb
    tilted 20° stands under the default margin and has fallen under a tip margin of 3 cm."""
    piece = kubb("B1", 1.0, 0.0, tilt_deg=20.0, toward_deg=0.0)
    snapshot = snap(piece)
    strict = JudgeParams(tip_margin=0.03, doubt_margin=0.031)
    default_ruling, = judge_accident(snapshot, {"B1"}, {}, "dm")
    strict_ruling, = judge_accident(snapshot, {"B1"}, {}, "dm", strict)
    assert default_ruling.status is analyse(snapshot, "B1").status is Status.STANDING
    assert strict_ruling.status is analyse(snapshot, "B1", strict).status is Status.FALLEN


def test_a_violation_keeps_its_translatable_reason_and_one_without_a_rule_is_refused():
    reason = msg("the baton was thrown overarm")
    rule, kept = _violation_rule(Violation("DM §5", reason))
    assert (rule, kept) == ("DM §5", "the baton was thrown overarm") and type(kept) is Msg
    assert type(_violation_rule(("DM §5", reason))[1]) is Msg
    with pytest.raises(JudgeInputError, match="a violation must be a kubb3d.throw.Violation or a"):
        ThrowContext(violations=(object(),))


# ---------------------------------------------------------------- geometry


def test_rows_from_columns_and_the_yaw_quaternion():
    """A matrix built from its columns has them as columns; a yaw by θ turns the x axis to
    (cos θ, sin θ, 0) and keeps the vertical (independent: the rotation's definition)."""
    x, y, z = (0.0, 0.0, 1.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)   # a proper rotation, every column different
    rows = rows_from_columns(x, y, z)
    assert tuple(tuple(rows[i][j] for i in range(3)) for j in range(3)) == (x, y, z)
    for theta in (0.3, -2.0):
        r = rot(quat_yaw(theta))
        assert [r[i][0] for i in range(3)] == pytest.approx([math.cos(theta), math.sin(theta), 0.0], abs=1e-12)
        assert [r[i][2] for i in range(3)] == pytest.approx([0.0, 0.0, 1.0], abs=1e-12)


def test_a_kubb_with_only_a_corner_over_the_line_has_that_corners_share_inside():
    """DM §7's validity reads the share of the footprint inside the half: a square turned 45°
    (half diagonal r) with only its corner d over the centre line has a triangle of area d²
    inside, a share of d² / (2 r²) (the triangle's own area, not the clipping's), in either half."""
    from kubb3d.judge.tipping import share_inside
    from kubb3d.pitch import Pitch

    pitch = Pitch(8.0, 5.0)
    r, d = 0.05, 0.01
    for side, sign in (("A", 1.0), ("B", -1.0)):
        centre = sign * (r - d)
        diamond = [(centre + r, 0.0), (centre, r), (centre - r, 0.0), (centre, -r)]
        assert share_inside(diamond, pitch, side, 0.0) == pytest.approx(d * d / (2 * r * r), rel=1e-9)


def test_a_throw_context_refuses_a_negative_foul_count_in_one_line():
    """ThrowContext.earlier_fouls counts fouls already called (DM §5's warning needs it): a
    negative count is refused with the field and the value, 0 is taken."""
    assert ThrowContext(earlier_fouls=0).earlier_fouls == 0
    with pytest.raises(JudgeInputError) as refused:
        ThrowContext(earlier_fouls=-1)
    assert str(refused.value) == "earlier_fouls must be 0 or more, got -1"


def test_the_mushroom_king_without_contact_data_rests_on_the_board_with_the_lowest_point_of_its_foot():
    """Without contact data the king rests on the board when the lowest point of its foot, a circle
    of the stem's diameter (the equipment) tilted with it, is within ground_tol of the board: that
    point lies half the stem's diameter times sin(tilt) below the foot's centre, which is the
    king's half height times cos(tilt) below its middle. Tilted 10° (short of its tipping angle)
    with that point 1 µm inside ground_tol it stands; 1 µm outside it does not rest on the board."""
    king_set = get_set("kubbuteo")
    he, foot_r = king_set.king.half_extents, kubbuteo_king().stem_diameter / 2
    tilt = math.radians(10.0)
    assert tilt < kubbuteo_king().tipping_angle
    q = (0.0, math.sin(tilt / 2), 0.0, math.cos(tilt / 2))
    ruled = {}
    for gap in (-1e-6, 1e-6):
        z = PARAMS.ground_tol + gap + he[2] * math.cos(tilt) + foot_r * math.sin(tilt)
        king = PieceState("king", "king", "mushroom", he, (0.3, 0.2, z), q, mass=0.02,
                          com_local=com_local(king_set, "king"))
        ruled[gap] = analyse(_board(king, contacts=[]), "king", PARAMS)
    assert (ruled[-1e-6].status, ruled[-1e-6].grounded) == (Status.STANDING, True)
    assert str(ruled[-1e-6].reason) == "The king stands on its stem and carries its own weight."
    assert (ruled[1e-6].status, ruled[1e-6].grounded, str(ruled[1e-6].reason)) == (
        Status.FALLEN, False, "The king does not rest on the board.")


def test_a_disk_leaning_just_past_its_tipping_angle_is_a_doubtful_case_and_one_far_past_it_is_not():
    """DM §5's hand check is for doubtful cases: a disk 0.5° past its tipping angle leaning on B2
    has its centre of mass within doubt_margin outside its flat, so it is a doubtful case; tilted
    40° it leans clearly and is not one. Both lean on B2 (WS basic rule 9: counts as felled)."""
    angle = kubbuteo_disk().tipping_angle_towards(0.0) + math.radians(0.5)
    q = (0.0, math.sin(angle / 2), 0.0, math.cos(angle / 2))
    just = PieceState("B1", "kubb", "disk", DISK, (0.3, 0.0, DISK[2]), q, mass=MASS,
                      com_local=com_local(get_set("kubbuteo"), "kubb"), side="B")
    far = _disk("B1", tilt_deg=40.0)
    weight = MASS * 9.81
    rulings = [analyse(_board(b1, _disk("B2"), contacts=[_on_board(b1), _against_b2(weight)]), "B1", PARAMS)
               for b1 in (just, far)]
    assert -PARAMS.doubt_margin < rulings[0].margin < 0 and rulings[1].margin < -PARAMS.doubt_margin
    assert [(r.status, r.supporters, r.doubt) for r in rulings] == [
        (Status.LEANING, ("B2",), True), (Status.LEANING, ("B2",), False)]


def test_a_kubb_standing_on_its_own_says_it_needs_neither_one_nor_two_pieces_it_touches():
    """DM §5: a kubb that stands on its own ("allein stehfähig") stands whatever touches it. The
    reason names what it touches, the strongest first, the king with its article, and says it
    does not need it (one piece) or them (two): the same sentence in the singular and plural."""
    a1 = kubb("A1", 1.0, 0.0, side="A")
    by_a2 = touch("A1", "A2", (1.0 + HX, 0.0, HZ), (-1.0, 0.0, 0.0), 1.0)
    by_king = touch("A1", "king", (1.0 - HX, 0.0, HZ), (1.0, 0.0, 0.0), 0.5)
    pieces = (a1, kubb("A2", 1.0 + 2 * HX, 0.0, side="A"), king(1.0 - HX - 0.045, 0.0))
    one = analyse(snap(*pieces, contacts=[by_king]), "A1")
    two = analyse(snap(*pieces, contacts=[by_a2, by_king]), "A1")
    assert [(a.status, a.touching, a.supporters, a.doubt) for a in (one, two)] == [
        (Status.STANDING, ("king",), (), False), (Status.STANDING, ("A2", "king"), (), False)]
    assert str(one.reason) == (
        "A1 stands on its own: it touches the king but its centre of mass is over its base, so it does not need it.")
    assert str(two.reason) == (
        "A1 stands on its own: it touches A2 and the king but its centre of mass is over its base, so it does not "
        "need them.")


def test_a_kubb_leaning_on_the_king_or_on_two_pieces_names_them_after_on():
    """DM §5: a kubb that only stays up because it leans on other pieces counts as felled; the
    reason names what holds it up, the king with its article after "on" (German "an dem König"), two
    supporters joined with "and", the one carrying more first."""
    s, leaner, by_s = leaning_pair(30.0, support_force=0.24)
    king_piece = king(s.position[0] + 0.01, s.position[1] + 0.2)
    by_king = touch("L", "king", by_s.position_on_a, by_s.normal_on_b, 0.3)
    on_king = analyse(snap(leaner, king_piece, contacts=[by_king]), "L")
    on_both = analyse(snap(s, leaner, king_piece, contacts=[by_s, by_king]), "L")
    assert [(a.status, a.supporters) for a in (on_king, on_both)] == [
        (Status.LEANING, ("king",)), (Status.LEANING, ("king", "S"))]
    assert str(on_king.reason) == "L is tilted 30° and only stays up because it leans on the king."
    assert str(on_both.reason) == "L is tilted 30° and only stays up because it leans on the king and S."
    assert translator("de")(on_king.reason) == (
        "L ist um 30° geneigt und hält sich nur aufrecht, weil er an dem König lehnt.")


def test_a_tipped_disk_leans_on_a_piece_carrying_at_least_the_support_fraction_of_its_weight():
    """Module doc of kubb3d.judge.table, step 5: a disk past its tipping angle is leaning when
    another body carries at least support_force_fraction of its weight. B2 carrying exactly that
    share holds it up; a float step less does not, and the disk has fallen."""
    b1 = _disk("B1", tilt_deg=40.0)
    share = PARAMS.support_force_fraction * (MASS * 9.81)
    rulings = [analyse(_board(b1, _disk("B2"), contacts=[_on_board(b1), _against_b2(force)]), "B1", PARAMS)
               for force in (share, math.nextafter(share, 0.0))]
    assert [(r.status, r.supporters, r.touching) for r in rulings] == [
        (Status.LEANING, ("B2",), ("B2",)), (Status.FALLEN, (), ("B2",))]


def test_a_piece_is_off_the_board_only_when_its_centre_is_below_the_board_top():
    """kubb3d.judge.table.off_board: a piece is off the board when it touches the floor or "its
    bounding-box centre is below the board top" (z = 0): a centre exactly at z = 0 is not below
    it, one a float step lower is."""
    from kubb3d.judge.analysis import ContactIndex
    from kubb3d.judge.table import off_board

    ruled = []
    for z in (0.0, math.nextafter(0.0, -1.0)):
        disk = PieceState("B1", "kubb", "disk", DISK, (0.3, 0.0, z), (0.0, 0.0, 0.0, 1.0), mass=MASS, side="B")
        snapshot = _board(disk)
        ruled.append(off_board(snapshot, "B1", ContactIndex(snapshot)))
    assert ruled == [False, True]


def test_a_disk_whose_margin_is_exactly_tip_margin_stands(monkeypatch):
    """JudgeParams.tip_margin: "the centre of mass must project at least this far inside the base
    footprint for the piece to count as self-supporting". A margin of exactly tip_margin stands, a
    float step less (with nothing to lean on) has fallen; the margin is set, as no pose lands on
    it exactly."""
    import kubb3d.judge.table as table

    disk = _disk("B1", tilt_deg=5.0)
    ruled = []
    for margin in (PARAMS.tip_margin, math.nextafter(PARAMS.tip_margin, 0.0)):
        monkeypatch.setattr(table, "flat_margin", lambda p, margin=margin: margin)
        a = analyse(_board(disk, contacts=[_on_board(disk)]), "B1", PARAMS)
        ruled.append((a.status, a.margin))
    assert ruled == [(Status.STANDING, PARAMS.tip_margin), (Status.FALLEN, math.nextafter(PARAMS.tip_margin, 0.0))]

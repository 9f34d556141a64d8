"""Piece status from hand-built snapshots (no physics)."""

import math

import pytest
from helpers import HX, HZ, MASS, G, ground_contacts, king, kubb, leaning_pair, snap, touch

from kubb3d.judge import JudgeParams, Status, analyse, piece_status
from kubb3d.snapshot import PieceState, Snapshot

DEFAULT_DOUBT_MARGIN = JudgeParams().doubt_margin


def test_upright_kubb_is_standing():
    status, reason = piece_status(snap(kubb("K", 1.0, 0.5)), "K")
    assert status is Status.STANDING
    assert "stands" in reason


def test_upside_down_kubb_is_standing():
    k = kubb("K", 1.0, 0.5, tilt_deg=180)
    assert piece_status(snap(k), "K")[0] is Status.STANDING


def test_lying_kubb_is_fallen():
    status, reason = piece_status(snap(kubb("K", 1.0, 0.5, lying_yaw_deg=30)), "K")
    assert status is Status.FALLEN
    assert "lies on the ground" in reason


def test_tilted_past_tipping_without_support_is_fallen():
    a = analyse(snap(kubb("K", 1.0, 0.0, tilt_deg=30)), "K")
    assert a.status is Status.FALLEN
    # the whole sentence: the tilt and the tipping angle atan(half width / half height) = 25.0°
    assert round(math.degrees(math.atan(HX / HZ))) == 25
    assert str(a.reason) == "K is tilted 30°, past its tipping angle of 25°."
    assert a.margin < 0


def test_leaning_on_kubb_needs_the_support():
    s, l, c = leaning_pair(30)
    sn = snap(s, l, contacts=[c])
    a = analyse(sn, "L")
    assert a.status is Status.LEANING
    assert a.supporters == ("S",)
    # the measured margin: COM 7.2 mm beyond the pivot edge
    assert a.margin == pytest.approx(-(HZ * math.sin(math.radians(30)) - HX * math.cos(math.radians(30))), abs=1e-6)
    assert analyse(sn, "S").status is Status.STANDING


def test_weak_touch_is_not_support():
    # 0.5 % of the weight is a touch, not a support: the kubb is past tipping and held by nothing
    s, l, c = leaning_pair(30, support_force=0.005 * MASS * G)
    sn = snap(s, l, contacts=[c])
    assert analyse(sn, "L").status is Status.FALLEN


def test_body_on_top_does_not_hold_up():
    low = kubb("A", 1.0, 0.0, lying_yaw_deg=0)
    top = kubb("B", 1.0, 0.0, lying_yaw_deg=90, z=3 * HX)
    c = touch("A", "B", (1.0, 0.0, 2 * HX), (0.0, 0.0, -1.0), MASS * G)  # B pushes A down
    sn = snap(low, top, contacts=[c, *ground_contacts(low)], auto_ground=False)
    a = analyse(sn, "A")
    assert a.status is Status.FALLEN and a.reason == "A lies on the ground."
    b = analyse(sn, "B")
    assert b.status is Status.STOSSEL and b.supporters == ("A",)


def test_stossel_needs_kubbs_under_it():
    top = kubb("B", 1.0, 0.0, lying_yaw_deg=90, z=3 * HX)
    baton = PieceState("baton1", "baton", "cylinder", (0.022, 0.022, 0.15), (1.0, 0.0, 0.022), mass=0.28)
    c = touch("B", "baton1", (1.0, 0.0, 0.044), (0.0, 0.0, 1.0), MASS * G)
    sn = snap(top, baton, contacts=[c], auto_ground=False)
    assert piece_status(sn, "B")[0] is Status.FALLEN


def test_no_contact_data_uses_geometry():
    sn = Snapshot(0.0, {"K": kubb("K", 0.0, 1.0)})
    assert piece_status(sn, "K")[0] is Status.STANDING
    floating = kubb("F", 0.0, 1.0, z=0.5)
    assert piece_status(Snapshot(0.0, {"F": floating}), "F")[0] is Status.FALLEN


def test_king_statuses():
    assert piece_status(snap(king()), "king")[0] is Status.STANDING
    assert piece_status(snap(king(lying=True)), "king")[0] is Status.FALLEN


def test_hand_check_decides_doubtful_case():
    # DM §5 hand check (applied): „ob ein Kubb allein stehfähig ist“
    s, l, c = leaning_pair(26.0)  # margin ≈ −1.3 mm, inside the 4 mm doubt band
    sn = snap(s, l, contacts=[c])
    calls = []

    def stands(snapshot, pid):
        calls.append(pid)
        return True

    a = analyse(sn, "L", hand_check=stands)
    assert calls == ["L"]
    assert a.status is Status.STANDING and a.hand_check
    b = analyse(sn, "L", hand_check=lambda s_, p: False)
    assert b.status is Status.LEANING and b.hand_check
    assert "hand check" in b.reason


def test_clear_case_skips_hand_check():
    # DM §5 hand check (boundary): „ob ein Kubb allein stehfähig ist“
    s, l, c = leaning_pair(35.0)
    sn = snap(s, l, contacts=[c])

    def boom(snapshot, pid):
        raise AssertionError("the hand check is only for doubtful cases")

    a = analyse(sn, "L", hand_check=boom)
    assert a.status is Status.LEANING and not a.hand_check


def test_tilted_standing_kubb_with_support_is_doubtful():
    k = kubb("K", 1.0, 0.0, tilt_deg=10, toward_deg=0)
    other = kubb("O", 1.2, 0.0)
    c = touch("K", "O", (1.1, 0.0, 0.14), (-1.0, 0.0, 0.0), 1.0)
    sn = snap(k, other, contacts=[c])
    a = analyse(sn, "K")
    assert a.status is Status.STANDING and a.doubt


def test_a_supported_kubb_is_doubtful_only_when_tilted_more_than_flat_tilt():
    """JudgeParams.flat_tilt: "a supported piece tilted more than this on its base is also" a
    doubtful case (DM §5's hand check). The same kubb, tilted 2° against another and well inside
    its base: with flat_tilt exactly its tilt it is not doubtful, with flat_tilt one float step
    below its tilt it is."""
    k = kubb("K", 1.0, 0.0, tilt_deg=2, toward_deg=0)
    sn = snap(k, kubb("O", 1.2, 0.0), contacts=[touch("K", "O", (1.1, 0.0, 0.14), (-1.0, 0.0, 0.0), 1.0)])
    tilt = analyse(sn, "K").tilt
    at = analyse(sn, "K", JudgeParams(flat_tilt=tilt))
    below = analyse(sn, "K", JudgeParams(flat_tilt=math.nextafter(tilt, 0.0)))
    assert at.margin >= DEFAULT_DOUBT_MARGIN and at.margin == below.margin
    assert [(a.status, a.doubt) for a in (at, below)] == [(Status.STANDING, False), (Status.STANDING, True)]


def test_errors():
    sn = snap(kubb("K", 0.0, 1.0))
    with pytest.raises(ValueError, match="no piece 'X'"):
        piece_status(sn, "X")
    baton = PieceState("baton1", "baton", "cylinder", (0.022, 0.022, 0.15), (1.0, 0.0, 0.022))
    with pytest.raises(ValueError, match="only kubbs and the king"):
        piece_status(Snapshot(0.0, {"baton1": baton}), "baton1")
    with pytest.raises(ValueError, match="lying_tilt"):
        JudgeParams(lying_tilt=2.0)
    with pytest.raises(ValueError, match="tip_margin"):
        JudgeParams(tip_margin=float("nan"))


def test_a_lying_kubb_says_what_props_it_up_with_the_king_in_the_dative():
    """A kubb on the ground past lying_tilt has fallen (DM §5), whatever props it up, and its reason
    names what does: "propped on the king" (German "an dem König", the dative of piece_object) or
    "propped on B2", nothing when it lies alone; its tilt is the same lying flat in every case."""
    from kubb3d.i18n import translator

    b1 = kubb("B1", 0.3, 0.0, lying_yaw_deg=0)
    alone = analyse(snap(b1), "B1")
    propped = [analyse(snap(b1, other, contacts=[touch("B1", other.id, (0.3, 0.035, 0.05), (0.0, -0.7, 0.7), 3.0)]),
                       "B1") for other in (king(), kubb("B2", 0.3, 0.1, lying_yaw_deg=0))]
    assert [a.reason for a in (alone, *propped)] == [
        "B1 lies on the ground.",
        "B1 lies on the ground, propped on the king.",
        "B1 lies on the ground, propped on B2.",
    ]
    assert translator("de")(propped[0].reason) == "B1 liegt auf dem Boden, an dem König gelehnt."
    assert all(a.status is Status.FALLEN and not a.doubt for a in (alone, *propped))
    assert alone.tilt == pytest.approx(math.pi / 2) and all(a.tilt == alone.tilt for a in propped)


def test_a_kubb_standing_alone_is_no_doubtful_case():
    """DM §5's hand check is for doubtful cases: a kubb standing upright or a little tilted with
    nothing touching it is not one, so its analysis is not marked doubtful and no hand check is asked."""

    def no_hand_check(snapshot, pid):
        raise AssertionError("no doubtful case")

    for tilt in (0.0, 1.0):
        a = analyse(snap(kubb("K", 1.0, 0.5, tilt_deg=tilt)), "K", hand_check=no_hand_check)
        assert a.status is Status.STANDING and a.doubt is False and a.hand_check is False


@pytest.mark.parametrize("toward_deg", [0.0, 90.0, 180.0, 270.0])
def test_a_slightly_tilted_kubb_gives_how_far_its_weighted_centre_is_inside_its_base(toward_deg):
    """Analysis.margin is "how far the centre of mass projects inside the base footprint". A kubb
    weighted 2 cm below its middle and tilted 2° over one edge (within flat_tilt, nothing touching
    it) gives the distance from its centre of mass's ground point to that edge, as the geometry
    of its base face gives it, and more than the same kubb evenly weighted (a lower centre of
    mass moves less towards the edge)."""
    from dataclasses import replace

    from kubb3d.judge.geometry import ccw, com, end_face, inside_margin

    even = kubb("K", 1.0, 0.5, tilt_deg=2.0, toward_deg=toward_deg)
    low = replace(even, com_local=(0.0, 0.0, -0.02))
    margins = []
    for p in (even, low):
        a = analyse(snap(p), "K")
        cm = com(p)
        face = ccw([(c[0], c[1]) for c in end_face(p, -1)])
        assert a.status is Status.STANDING and a.margin == pytest.approx(inside_margin((cm[0], cm[1]), face), abs=1e-12)
        margins.append(a.margin)
    assert margins[1] > margins[0]


def test_a_kubb_at_the_last_float_step_before_lying_flat_has_no_base_to_stand_on():
    """A kubb tilted π/2 − 1e-6 rad or more has no base face under it: its margin is −∞ (no base
    footprint to project into), a float step less tilted it is the margin its end face gives.
    The quaternion's y is chosen so that the analysis computes exactly that tilt."""
    from dataclasses import replace

    y = 0.7071064276330685
    at = replace(kubb("K", 1.0, 0.5, lying_yaw_deg=0), position=(1.0, 0.5, HX),
                 quat_xyzw=(0.0, y, 0.0, math.sqrt(1 - y * y)))
    below = replace(at, quat_xyzw=(0.0, math.nextafter(y, 0.0), 0.0, math.sqrt(1 - y * y)))
    a, b = analyse(snap(at), "K"), analyse(snap(below), "K")
    assert a.tilt == math.pi / 2 - 1e-6 and b.tilt < a.tilt
    assert a.status is b.status is Status.FALLEN
    assert a.margin == -math.inf and math.isfinite(b.margin)

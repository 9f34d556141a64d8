"""Inkast rulings and raising geometry from hand-built snapshots (DM §6, §7; WS basic rules 10–14)."""

import math

import pytest
from helpers import HX, HZ, MASS, ground_contacts, king, kubb, snap, touch

from kubb3d.judge import Consequence, InkastContext, JudgeParams, Pose, Status, judge_inkast
from kubb3d.judge.geometry import columns, quat_from_rows, rot
from kubb3d.snapshot import PieceState


def _det(q):
    r = rot(q)
    return (
        r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1])
        - r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0])
        + r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0])
    )


def test_lying_kubb_raised_towards_own_baseline():
    # DM §7 one valid direction (boundary): „Sind Kubbs nur in eine Richtung gültig im Feld aufstellbar, so ist
    # diese Richtung zu wählen“
    k = kubb("B1", -2.0, 0.5, lying_yaw_deg=0, side="A")
    j = judge_inkast(snap(k), InkastContext(inkasting_side="B", inkasted=("B1",)))
    r = j.ruling("B1")
    assert r.consequence is Consequence.RAISE_HERE and r.valid is True and r.rules == ("DM §7",)
    x, y, z = r.raised_pose.position
    # tipped over the −x end: base from x = −2 − HZ to −2 − HZ − 2·HX
    assert (x, y, z) == pytest.approx((-2.0 - HZ - HX, 0.5, HZ), abs=1e-9)
    assert columns(rot(r.raised_pose.quat_xyzw))[2][2] == pytest.approx(1.0, abs=1e-9) or columns(
        rot(r.raised_pose.quat_xyzw)
    )[2][2] == pytest.approx(-1.0, abs=1e-9)
    assert _det(r.raised_pose.quat_xyzw) == pytest.approx(1.0)
    front = judge_inkast(snap(k), InkastContext(inkasting_side="B", inkasted=("B1",), prefer="front"))
    assert front.raised["B1"].position[0] == pytest.approx(-2.0 + HZ + HX)


def test_only_valid_direction_is_used():
    k = kubb("B1", -2.0, -2.5, lying_yaw_deg=90, side="A")  # across the right sideline (-y), half out
    r = judge_inkast(snap(k), InkastContext(inkasting_side="B", inkasted=("B1",))).ruling("B1")
    assert r.raised_pose.position[1] == pytest.approx(-2.5 + HZ + HX)
    assert "only one direction" in r.reason


def test_invalid_rethrow_then_penalty():
    k = kubb("B1", -2.0, -2.5 - HZ - 0.02, lying_yaw_deg=90, side="A")
    r1 = judge_inkast(snap(k), InkastContext(inkasting_side="B", inkasted=("B1",), attempt=1))
    assert r1.ruling("B1").consequence is Consequence.RETHROW and r1.ruling("B1").valid is False
    assert r1.invalid == {"B1"} and r1.raised == {}
    r2 = judge_inkast(snap(k), InkastContext(inkasting_side="B", inkasted=("B1",), attempt=2))
    assert r2.ruling("B1").consequence is Consequence.PENALTY_KUBB and r2.penalty == "throw"
    w2 = judge_inkast(
        snap(k),
        InkastContext(ruleset="wikinger", inkasting_side="B", inkasted=("B1",), attempt=2),
        JudgeParams(baton_length=0.3),
    )
    assert (
        w2.penalty == "place" and "0.30 m" in w2.ruling("B1").reason and w2.ruling("B1").rules == ("WS basic rule 11",)
    )


def test_block_building_may_stand_out_under_dm_not_ws():
    # WS ← DM §7 tipping geometry (boundary): „über eine der kurzen Kanten auf ihre Grundfläche gekippt“
    # DM §7 clusters, block building (applied): „Blockbau immer erlaubt“
    lying = kubb("B1", -2.0, -2.5 + 0.3 * 2 * HZ - HZ, lying_yaw_deg=90, side="A")  # 30 % inside
    inner_end = -2.5 + 0.3 * 2 * HZ
    blocker = kubb("A1", -2.0, inner_end + 0.01 + HX, side="A")
    sn = snap(lying, blocker)
    dm = judge_inkast(sn, InkastContext(inkasting_side="B", inkasted=("B1",)))
    r = dm.ruling("B1")
    assert r.consequence is Consequence.RAISE_HERE and "tipped up against A1" in r.reason
    assert r.raised_pose.position[1] == pytest.approx(inner_end + 0.01 - HX, abs=1e-6)
    ws = judge_inkast(sn, InkastContext(ruleset="wikinger", inkasting_side="B", inkasted=("B1",)))
    assert ws.ruling("B1").consequence is Consequence.RETHROW


def test_raising_never_touches_the_king():
    # lying along y, its +y end 7.5 mm from the king; the other direction is free
    # DM §7 king (applied): „dürfen ihn beim Aufstellvorgang jedoch nicht berühren“
    k = kubb("B1", -0.05, -0.045 - 0.0075 - HZ, lying_yaw_deg=90, side="A")
    r = judge_inkast(snap(k, king()), InkastContext(inkasting_side="B", inkasted=("B1",))).ruling("B1")
    assert r.raised_pose.position[1] < -0.1
    assert "must not touch the king" in r.reason


def test_stossel_place_freely_and_invalid():
    a = kubb("B1", -2.0, -0.04, lying_yaw_deg=0, side="A")
    b = kubb("B2", -2.0, 0.04, lying_yaw_deg=0, side="A")
    top = kubb("B3", -2.0, 0.0, lying_yaw_deg=90, side="A", z=3 * HX)
    cs = [
        touch("B3", "B1", (-2.0, -0.04, 2 * HX), (0, 0, 1), 2.2),
        touch("B3", "B2", (-2.0, 0.04, 2 * HX), (0, 0, 1), 2.2),
    ]
    sn = snap(a, b, top, contacts=cs + ground_contacts(a) + ground_contacts(b), auto_ground=False)
    j = judge_inkast(sn, InkastContext(inkasting_side="B", inkasted=("B1", "B2", "B3")))
    r = j.ruling("B3")
    assert (r.status, r.consequence, r.valid) == (Status.STOSSEL, Consequence.PLACE_FREELY, True)
    assert j.stossel == {"B3"}
    assert set(j.raised) == {"B1", "B2", "B3"}


def test_leaning_kubb_tipped_over_ground_edge():
    # DM §7 leaning inkast (applied): „sind über diese Kante zu kippen“
    base = kubb("B1", -2.0, 0.0, lying_yaw_deg=0, side="A")
    # B2: foot on the ground at y = 0.12, body resting on B1 (60° from vertical, towards −y)
    lean = kubb("B2", -2.0, 0.12 + HX, tilt_deg=60, toward_deg=-90, side="A")
    foot = [c for c in ground_contacts(lean)]
    c = touch("B2", "B1", (-2.0, 0.03, 2 * HX), (0.0, 0.6, 0.8), 2.0)
    sn = snap(base, lean, contacts=[c, *foot, *ground_contacts(base)], auto_ground=False)
    j = judge_inkast(sn, InkastContext(inkasting_side="B", inkasted=("B1", "B2")))
    r = j.ruling("B2")
    assert r.consequence is Consequence.RAISE_HERE and "tipped over that edge" in r.reason
    # stands on its foot end, base from the ground edge outward (+y)
    assert r.raised_pose.position[1] == pytest.approx(0.12 + HX, abs=1e-6)


def test_king_felled_and_disturbed_pieces():
    k = kubb("B1", -0.3, 0.3, lying_yaw_deg=60, side="A")
    moved = kubb("B5", -1.5, 1.1, lying_yaw_deg=30, side="A")
    before = {"B5": Pose((-1.5, 1.0, HZ)), "king": Pose((0.0, 0.0, 0.15))}
    j = judge_inkast(
        snap(k, moved, king(lying=True)), InkastContext(inkasting_side="B", inkasted=("B1",), before=before)
    )
    assert j.ruling("king").consequence is Consequence.GAME_LOST and (j.winner, j.loser) == ("A", "B") and j.king_felled
    r = j.ruling("B5")
    assert (
        r.consequence is Consequence.RAISE_AT_ORIGINAL_SPOT and r.raised_pose == before["B5"] and j.raise_now == {"B5"}
    )
    ws = judge_inkast(
        snap(k, moved), InkastContext(ruleset="wikinger", inkasting_side="B", inkasted=("B1",), before=before)
    )
    assert ws.ruling("B5").rules == ("WS basic rule 14",)


def test_upright_landing_and_errors():
    # DM §7 raising (boundary): „über eine der kurzen Kanten auf ihre Grundfläche gekippt“
    up = kubb("B1", -1.2, 0.7, side="A")
    j = judge_inkast(snap(up), InkastContext(inkasting_side="B", inkasted=("B1",)))
    assert j.raised["B1"].position == pytest.approx((-1.2, 0.7, HZ))
    with pytest.raises(ValueError, match="not a kubb"):
        judge_inkast(snap(up), InkastContext(inkasting_side="B", inkasted=("X",)))
    with pytest.raises(ValueError, match="attempt"):
        InkastContext(attempt=3)
    assert "raised" in j.to_dict()


def test_a_lying_kubb_is_raised_to_the_same_spot_whichever_of_its_four_sides_is_down():
    """A kubb's cross-section is square (DM §7 raises it over the end's bottom edge, whichever side
    it lies on): the same kubb rolled 3°, 93°, −87° and 183° about its long axis is one and the same
    body, so it is raised to one and the same spot."""
    def rolled(roll_deg: float) -> PieceState:
        lying = kubb("B1", -2.0, 0.7, lying_yaw_deg=30.0)
        c, s = math.cos(math.radians(roll_deg)), math.sin(math.radians(roll_deg))
        r = rot(lying.quat_xyzw)
        turned = tuple(tuple(r[i][0] * c_ + r[i][1] * s_ for c_, s_ in ((c, s), (-s, c))) + (r[i][2],)
                       for i in range(3))
        return PieceState("B1", "kubb", "box", (HX, HX, HZ), lying.position, quat_from_rows(turned), MASS, side="B")

    spots = []
    for roll in (3.0, 93.0, -87.0, 183.0):
        j = judge_inkast(snap(rolled(roll)), InkastContext(inkasting_side="B", inkasted=("B1",)))
        assert j.ruling("B1").consequence is Consequence.RAISE_HERE
        spots.append(j.raised["B1"].position)
    for spot in spots[1:]:
        assert spot == pytest.approx(spots[0], abs=1e-9)


@pytest.mark.parametrize("yaw_deg", [0.0, 30.0, 90.0, 135.0])
def test_each_tip_option_stands_on_the_end_it_names(yaw_deg):
    """kubb3d.judge.tip_options gives "the ways to raise kubb p ... one per end in ends", and each
    option's end is "the end face it will stand on": raised over end −1 the kubb stands on its −z
    face (its axis up), over end +1 on its +z face (axis down), upright either way, and the two
    bases lie on either side of the lying kubb along its axis."""
    from kubb3d.judge import tip_options
    from kubb3d.pitch import Pitch

    lying = kubb("B1", 1.0, 0.5, lying_yaw_deg=yaw_deg)
    options = tip_options(lying, Pitch(), "B", {}, JudgeParams())
    assert [o.end for o in options] == [1, -1]
    assert [o.end for o in tip_options(lying, Pitch(), "B", {}, JudgeParams(), ends=(-1,))] == [-1]
    axis = columns(rot(lying.quat_xyzw))[2]
    for o in options:
        z_axis = columns(rot(o.pose.quat_xyzw))[2]
        assert z_axis[2] == pytest.approx(-o.end, abs=1e-9)
        along = (o.pose.position[0] - lying.position[0]) * axis[0] + (o.pose.position[1] - lying.position[1]) * axis[1]
        assert math.copysign(1.0, along) == o.end


def test_a_baton_lying_on_the_raising_spot_does_not_block_the_kubb_but_a_kubb_does():
    """A baton is not in the way of a kubb raised after an inkast (the raising's obstacles are the
    other kubbs and the king; batons are picked up before the inkast): A1 is raised to the same
    spot with a baton lying there as alone, and over its other end with a kubb there."""
    lying = kubb("A1", 1.5, 0.0, lying_yaw_deg=0, side="A")
    ctx = InkastContext(inkasting_side="A", inkasted=("A1",))
    alone = judge_inkast(snap(lying), ctx).ruling("A1").raised_pose
    x, y = alone.position[0], alone.position[1]
    baton = PieceState("baton1", "baton", "cylinder", (0.022, 0.022, 0.15), (x, y, 0.022), mass=0.28)
    blocker = PieceState("B9", "kubb", "box", lying.half_extents, (x, y, HZ), (0.0, 0.0, 0.0, 1.0), MASS, side="B")
    assert judge_inkast(snap(lying, baton), ctx).ruling("A1").raised_pose == alone
    other_end = judge_inkast(snap(lying, blocker), ctx).ruling("A1").raised_pose
    assert other_end.position[0] == pytest.approx(1.5 - (x - 1.5)) and other_end.position[1] == pytest.approx(y)


def test_a_lying_kubb_touches_the_ground_with_the_end_its_ground_contacts_are_near():
    """kubb3d.judge.raising._ground_ends: a ground contact within 2·base_tol of an end face counts
    for that end, one farther along the kubb for both (a kubb lying flat). A1 lies along x:
    contacts 1.5·base_tol and 2.5·base_tol from each end face along its axis, and at its middle."""
    from kubb3d.judge.analysis import ContactIndex
    from kubb3d.judge.raising import _ground_ends
    from kubb3d.snapshot import GROUND_ID, Contact

    params = JudgeParams()
    lying = kubb("A1", 1.5, 0.0, lying_yaw_deg=0, side="A")
    z_axis = columns(rot(lying.quat_xyzw))[2]

    def ends(along):
        point = (1.5 + along * z_axis[0], 0.0, 0.0)
        sn = snap(lying, contacts=[Contact("A1", GROUND_ID, point, point, (0.0, 0.0, 1.0), 1.0)], auto_ground=False)
        return _ground_ends(sn, ContactIndex(sn), lying, params)

    near, far = HZ - 1.5 * params.base_tol, HZ - 2.5 * params.base_tol
    assert [ends(a) for a in (near, far, 0.0, -far, -near)] == [{1}, {1, -1}, {1, -1}, {1, -1}, {-1}]

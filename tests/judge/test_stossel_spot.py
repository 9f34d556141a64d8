"""Where a stößel is placed (kubb3d.judge.raising): DM §7 "Stößel ... darf ... frei im Feld
platziert werden" on a free spot. The judge proposes the nearest free square to the one the
stößel would be raised to (issue #37 item 5: these tests kill mutants of the ring search that
survived the fast tests; docs/mutation.md)."""

from __future__ import annotations

import math

import pytest
from helpers import (
    HALF_TURN,
    HX,
    HZ,
    MIRROR_X,
    MIRROR_Y,
    Transform,
    assert_judgement_follows,
    ground_contacts,
    kubb,
    snap,
    touch,
)

from kubb3d.judge import Consequence, InkastContext, judge_inkast
from kubb3d.judge.geometry import footprint, overlap_depth
from kubb3d.judge.params import DEFAULT_PARAMS
from kubb3d.snapshot import PieceState


def _stood(pid: str, pose) -> PieceState:
    return PieceState(pid, "kubb", "box", (HX, HX, HZ), pose.position, pose.quat_xyzw, 0.4557, side="A")


def _stossel_on_two(x: float, y: float, blocked: bool = False):
    """B3 lying across B1 and B2 (a stößel); ``blocked``: field kubbs stand on both squares it
    would be tipped onto, so the judge must look further."""
    a = kubb("B1", x, y - 0.04, lying_yaw_deg=0, side="A")
    b = kubb("B2", x, y + 0.04, lying_yaw_deg=0, side="A")
    top = kubb("B3", x, y, lying_yaw_deg=90, side="A", z=3 * HX)
    pieces = [a, b, top]
    contacts = [touch("B3", "B1", (x, y - 0.04, 2 * HX), (0, 0, 1), 2.2),
                touch("B3", "B2", (x, y + 0.04, 2 * HX), (0, 0, 1), 2.2)]
    if blocked:
        for i, dy in enumerate((-0.11, 0.11)):
            field = kubb(f"F{i}", x, y + dy, side="A")
            pieces.append(field)
            contacts += ground_contacts(field)
    after = snap(*pieces, contacts=contacts + ground_contacts(a) + ground_contacts(b), auto_ground=False)
    return judge_inkast(after, InkastContext(inkasting_side="B", inkasted=("B1", "B2", "B3")))


def test_a_stossel_is_proposed_a_free_spot_next_to_the_kubbs_it_lay_on():
    """The spot overlaps none of the kubbs raised under it (footprints apart by at most the
    block tolerance), lies inside A's half, and is the nearest such square: one ring, one
    kubb width out, from where the stößel lay."""
    judgement = _stossel_on_two(-2.0, 0.0)
    assert judgement.ruling("B3").consequence is Consequence.PLACE_FREELY and judgement.stossel == {"B3"}
    # DM §7's words: it lay on kubbs without touching the ground, and the inkasting side places it freely
    assert judgement.ruling("B3").reason == (
        "B3 lies on B1, B2 without touching the ground and would stand fully inside from where it lies, so side "
        "B places it anywhere valid in the field.")
    spot = _stood("B3", judgement.raised["B3"])
    for other in ("B1", "B2"):
        depth = overlap_depth(footprint(spot), footprint(_stood(other, judgement.raised[other])))
        assert depth <= DEFAULT_PARAMS.block_tol, other
    x, y = spot.position[:2]
    assert -4.0 + HX <= x <= -HX and abs(y) <= 2.5 - HX
    step = 2 * HX + 2 * DEFAULT_PARAMS.block_tol
    assert math.hypot(x + 2.0, y) <= 2.5 * step


def test_a_stossel_against_the_sideline_gets_a_spot_inside_the_field():
    """Next to the sideline the ring's squares outside the field are passed over, not taken."""
    judgement = _stossel_on_two(-2.0, 2.5 - 0.12)
    spot = _stood("B3", judgement.raised["B3"])
    x, y = spot.position[:2]
    assert -4.0 + HX <= x <= -HX and abs(y) <= 2.5 - HX + 1e-9
    for other in ("B1", "B2"):
        depth = overlap_depth(footprint(spot), footprint(_stood(other, judgement.raised[other])))
        assert depth <= DEFAULT_PARAMS.block_tol, other


def test_with_its_squares_taken_a_stossel_gets_the_nearest_free_square_on_a_ring():
    """Both squares it would be tipped onto hold a standing field kubb: the proposed square is
    one kubb width (and the block tolerance) from the first, free of every standing kubb and
    every raised one, inside the field."""
    judgement = _stossel_on_two(-2.0, 0.0, blocked=True)
    assert judgement.ruling("B3").consequence is Consequence.PLACE_FREELY
    spot = _stood("B3", judgement.raised["B3"])
    others = [_stood(k, judgement.raised[k]) for k in ("B1", "B2")]
    others += [kubb(f"F{i}", -2.0, dy, side="A") for i, dy in enumerate((-0.11, 0.11))]
    for other in others:
        assert overlap_depth(footprint(spot), footprint(other)) <= DEFAULT_PARAMS.block_tol, other.id
    x, y = spot.position[:2]
    assert -4.0 + HX <= x <= -HX and abs(y) <= 2.5 - HX
    step = 2 * HX + 2 * DEFAULT_PARAMS.block_tol
    ring = min(math.hypot(x + 2.0, y - dy) for dy in (-0.11, 0.11)) / step
    assert ring == pytest.approx(round(ring), abs=1e-6) and 1 <= round(ring) <= 3


def test_a_stossel_by_the_centre_line_passes_over_the_squares_beyond_it():
    """DM §7: the stößel is placed „an einer frei wählbaren, gültigen Position im gegnerischen Feld“.
    By the centre line the first squares of the ring (towards +x, into B's half) are outside A's
    half: the search goes on round the ring instead of giving up, and the spot is in A's half."""
    judgement = _stossel_on_two(-0.1, 0.5, blocked=True)
    spot = _stood("B3", judgement.raised["B3"])
    x, y = spot.position[:2]
    assert judgement.ruling("B3").consequence is Consequence.PLACE_FREELY
    assert x <= -HX and abs(y) <= 2.5 - HX
    step = 2 * HX + 2 * DEFAULT_PARAMS.block_tol
    assert math.hypot(x + 0.1, y - 0.5) <= 3.5 * step


# ---------------------------------------------------------------------- the pitch's symmetries
SYMMETRIES = {
    "mirror y": Transform(MIRROR_Y),
    "sides swapped": Transform(HALF_TURN, swap_sides=True),
    "mirror x, sides swapped": Transform(MIRROR_X, swap_sides=True),
}

BLOCKERS = {
    "both squares": ((0.0, -0.11), (0.0, 0.11)),
    "both squares and towards B": ((0.0, -0.11), (0.0, 0.11), (0.11, 0.0)),
    "both squares and towards A": ((0.0, -0.11), (0.0, 0.11), (-0.11, 0.0)),
    "a corner of the ring": ((0.0, -0.11), (0.0, 0.11), (0.11, 0.08), (-0.11, -0.08)),
    "a wall on one side": ((0.0, -0.11), (0.0, 0.11), (0.08, 0.11), (-0.08, 0.11), (0.11, 0.0)),
}


def _stossel_among(x: float, y: float, blockers) -> tuple:
    """B3 lying across B1 and B2 (a stößel) at (x, y) in A's half, with field kubbs of A
    standing at (x, y) + each of ``blockers``: the snapshot and the inkast's context."""
    a = kubb("B1", x, y - 0.04, lying_yaw_deg=0, side="A")
    b = kubb("B2", x, y + 0.04, lying_yaw_deg=0, side="A")
    top = kubb("B3", x, y, lying_yaw_deg=90, side="A", z=3 * HX)
    pieces = [a, b, top]
    contacts = [touch("B3", "B1", (x, y - 0.04, 2 * HX), (0, 0, 1), 2.2),
                touch("B3", "B2", (x, y + 0.04, 2 * HX), (0, 0, 1), 2.2)]
    for i, (dx, dy) in enumerate(blockers):
        field = kubb(f"A{i + 1}", x + dx, y + dy, side="A")
        pieces.append(field)
        contacts += ground_contacts(field)
    after = snap(*pieces, contacts=contacts + ground_contacts(a) + ground_contacts(b), auto_ground=False)
    return after, InkastContext(inkasting_side="B", inkasted=("B1", "B2", "B3"))


@pytest.mark.parametrize("name", list(SYMMETRIES))
@pytest.mark.parametrize("blockers", list(BLOCKERS))
@pytest.mark.parametrize("where", [(-2.0003, 0.3003), (-1.5003, -0.7003), (-0.3003, 1.9003), (-3.7003, -2.2003)])
def test_a_stossel_in_a_mirrored_or_swapped_situation_is_proposed_the_image_spot(name, blockers, where):
    """The proposed spot follows the pitch: mirrored across the long axis, or turned with the
    sides swapped, the stößel gets the image of the spot (DM §7 names no direction; the ring
    search once took the first free square counter-clockwise from +x, so side B's stößel went
    towards the centre line where side A's went towards its baseline)."""
    after, ctx = _stossel_among(*where, BLOCKERS[blockers])
    before = judge_inkast(after, ctx)
    assert before.ruling("B3").consequence is Consequence.PLACE_FREELY
    t = SYMMETRIES[name]
    image = judge_inkast(t.snapshot(after), t.context(ctx))
    assert_judgement_follows(before, image, t, dict(after.pieces))

"""A round of free throws outside a match (:mod:`kubb3d.rules.practice`, the viewer's play
mode): the king throw once the target half is cleared (``DM §10``), the state carried from
throw to throw, and what a flick clears off a board (``KT rules``,
:func:`kubb3d.rules.kubbuteo.after_flick`). Hand-built snapshots, no physics."""

import math

import pytest
from helpers import king, kubb, snap

from kubb3d.judge import Pose, judge_throw
from kubb3d.pitch import Pitch
from kubb3d.rules.kubbuteo import OWN_KUBB_MOVED_M, after_flick
from kubb3d.rules.practice import PracticeRound

PITCH = Pitch(8.0, 5.0)
B = PITCH.baseline_kubb_positions("B")
A = PITCH.baseline_kubb_positions("A")
START = {
    **{k: Pose((x, y, 0.075)) for k, (x, y) in {**A, **B}.items()},
    "king": Pose((0.0, 0.0, 0.15)),
}


def _standing(*ids):
    return [kubb(k, *START[k].position[:2], side=k[0]) for k in ids]


def _lying(*ids):
    return [kubb(k, *START[k].position[:2], lying_yaw_deg=0.0, side=k[0]) for k in ids]


def _judge(r: PracticeRound, *pieces):
    s = snap(*pieces)
    j = judge_throw(s, r.context(True, (), s.pieces))
    r.record(j)
    return j


def test_king_felled_after_the_target_half_is_cleared_wins():
    r = PracticeRound("dm", "A", START)
    assert not r.king_throw
    _judge(r, *_standing(*A), *_lying("B1", "B2"), *_standing("B3", "B4", "B5"), king())
    assert r.felled == {"B1", "B2"} and not r.over
    _judge(r, *_standing(*A), *_lying(*B), king())
    assert r.felled == set(B) and r.king_throw and not r.over
    j = _judge(r, *_standing(*A), *_lying(*B), king(lying=True))
    assert (j.winner, j.loser) == ("A", "B") and r.winner == "A" and r.over
    with pytest.raises(RuntimeError):
        r.context(True, (), {})


def test_king_felled_while_kubbs_stand_loses():
    r = PracticeRound("dm", "A", START)
    _judge(r, *_standing(*A), *_lying("B1"), *_standing("B2", "B3", "B4", "B5"), king(lying=True))
    assert r.winner == "B"


def test_kubbs_picked_up_off_the_board_stay_felled():
    """On a board the knocked kubbs leave the world: the next snapshot lacks them, the round
    still counts them."""
    r = PracticeRound("kubbuteo", "A", START)
    _judge(r, *_standing(*A), *_lying("B1"), *_standing("B2", "B3", "B4", "B5"), king())
    _judge(r, *_standing(*A), *_lying("B2"), *_standing("B3", "B4", "B5"), king())
    assert r.felled == {"B1", "B2"}


def test_after_flick_clears_the_baton_and_knocked_kubbs_and_stands_disturbed_own_kubbs():
    nudged = START["A1"].position[0] + 0.5 * OWN_KUBB_MOVED_M
    shoved = START["A2"].position[0] + 2.0 * OWN_KUBB_MOVED_M
    tilt = math.radians(4.0)
    own_now = {
        "A1": Pose((nudged, *START["A1"].position[1:])),
        "A2": Pose((shoved, *START["A2"].position[1:])),
        "A3": Pose(START["A3"].position, (math.sin(tilt / 2), 0.0, 0.0, math.cos(tilt / 2))),
        "A4": START["A4"],
    }
    own_before = {k: START[k] for k in own_now}
    c = after_flick("baton3", ["B4", "B2"], ["B5"], START, own_before, own_now)
    assert c.remove == ("baton3",) and c.pick_up == ("B2", "B4")
    assert list(c.stand_again) == ["B5", "A2", "A3"]
    assert all(c.stand_again[k] == START[k] for k in c.stand_again)

"""Judgements as data: the inkast judgement's JSON dict key by key, and run-time strings that are
catalog messages (issue #37 item 5: each kills mutants of kubb3d/judge that survived the fast tests;
docs/mutation.md)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from helpers import HZ, king, kubb, snap

from kubb3d.judge import InkastContext, Pose, judge_inkast
from kubb3d.judge.geometry import columns, rot
from kubb3d.judge.messages import Msg, known
from kubb3d.judge.tipping import inflate


def test_an_inkast_judgement_as_json_names_every_field():
    """A lying kubb raised where it lies, one moved by the inkast set up again, and the king
    felled: every key of the dict, its raised poses as lists, the penalty and the outcome."""
    lying = kubb("B1", -0.3, 0.3, lying_yaw_deg=0, side="A")
    moved = kubb("B5", -1.5, 1.1, lying_yaw_deg=30, side="A")
    before = {"B5": Pose((-1.5, 1.0, HZ))}
    j = judge_inkast(
        snap(lying, moved, king(lying=True)), InkastContext(inkasting_side="B", inkasted=("B1",), before=before)
    )
    d = j.to_dict()
    assert list(d) == ["event", "rulings", "raised", "penalty", "raise_now", "winner", "loser"]
    assert d["event"] == "inkast" and d["penalty"] is None
    assert (d["winner"], d["loser"]) == ("A", "B") and d["raise_now"] == ["B5"]
    assert d["rulings"] == [r.to_dict() for r in j.rulings]
    assert list(d["raised"]) == sorted(j.raised)
    for piece, pose in j.raised.items():
        assert d["raised"][piece] == {"position_m": list(pose.position), "quat_xyzw": list(pose.quat_xyzw)}
    assert json.loads(json.dumps(d)) == d


def test_an_inkast_penalty_and_several_raise_now_are_sorted():
    """The second invalid attempt under WS basic rule 11: "the opposing team may place the kubb
    freely in its own field" (penalty "place"); pieces to stand up at once are listed sorted."""
    out = kubb("B1", -2.0, -2.8, lying_yaw_deg=90, side="A")
    moved = [kubb(pid, x, 1.1, lying_yaw_deg=30, side="A") for pid, x in (("B5", -1.5), ("B2", -3.0))]
    before = {"B5": Pose((-1.5, 1.0, HZ)), "B2": Pose((-3.0, 1.0, HZ))}
    ctx = InkastContext(ruleset="wikinger", inkasting_side="B", inkasted=("B1",), attempt=2, before=before)
    d = judge_inkast(snap(out, *moved), ctx).to_dict()
    assert d["penalty"] == "place" and d["raise_now"] == ["B2", "B5"]
    assert (d["winner"], d["loser"]) == (None, None)


@pytest.mark.parametrize("text", ["standing", "counts as felled", "raise at original spot"])
def test_a_plain_run_time_string_becomes_a_catalog_message(text):
    message = known(text)
    assert isinstance(message, Msg) and message == text and message.template == text


@pytest.mark.parametrize("text", ["a {piece} template", "only {", "only }", "{}"])
def test_a_string_with_braces_is_left_as_it_is(text):
    """A brace would be read as a placeholder of a message with no parameters: such a string is not a
    catalog message and is returned unchanged (not a Msg)."""
    assert known(text) is text and not isinstance(known(text), Msg)


def test_a_message_stays_the_same_message():
    message = Msg("{piece} fell.", piece="B3")
    assert known(message) is message


def test_a_ruling_as_json_has_its_reason_and_only_the_fields_it_has():
    """DM §7: an inkasted kubb raised where it lies has a validity and a raised pose; a ruling on a
    throw has neither, so its dict leaves them out."""
    raised = judge_inkast(
        snap(kubb("B1", -2.0, 0.5, lying_yaw_deg=0, side="A")), InkastContext(inkasting_side="B", inkasted=("B1",))
    ).ruling("B1")
    d = raised.to_dict()
    assert list(d) == ["piece", "status", "consequence", "rules", "reason", "hand_check", "valid", "raised_pose"]
    assert d["reason"] == raised.reason and d["reason"] and d["hand_check"] is False and d["valid"] is True
    assert d["raised_pose"] == {
        "position_m": list(raised.raised_pose.position),
        "quat_xyzw": list(raised.raised_pose.quat_xyzw),
    }
    plain = replace(raised, valid=None, raised_pose=None).to_dict()
    assert list(plain) == ["piece", "status", "consequence", "rules", "reason", "hand_check"]


def test_asking_for_a_piece_without_a_ruling_names_the_piece():
    j = judge_inkast(
        snap(kubb("B1", -2.0, 0.5, lying_yaw_deg=0, side="A")), InkastContext(inkasting_side="B", inkasted=("B1",))
    )
    with pytest.raises(KeyError) as error:
        j.ruling("B7")
    assert error.value.args == ("B7",)


def flat(points):
    return [v for point in points for v in point]


def test_a_kubb_landed_upright_on_its_top_end_is_raised_without_turning():
    """DM §7: the kubbs are raised „ohne Drehen oder Verschieben“: one that landed standing on its top
    end stays on it (its long axis down), where it stands."""
    upside_down = kubb("B1", -1.2, 0.7, tilt_deg=180, z=HZ, side="A")
    j = judge_inkast(snap(upside_down), InkastContext(inkasting_side="B", inkasted=("B1",)))
    pose = j.raised["B1"]
    assert pose.position == pytest.approx((-1.2, 0.7, HZ))
    assert flat(columns(rot(pose.quat_xyzw))) == pytest.approx([-1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0])


def test_inflating_a_square_moves_each_corner_out_along_its_diagonal():
    """The raising's safety margin around an obstacle: a square grown by ``by`` on every side."""
    grown = inflate([(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)], 0.1)
    assert flat(grown) == pytest.approx([-0.1, -0.1, 2.1, -0.1, 2.1, 2.1, -0.1, 2.1])
    out = 1.0 + 0.05 * 2**0.5
    diamond = inflate([(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)], 0.05)
    assert flat(diamond) == pytest.approx([out, 0.0, 0.0, out, -out, 0.0, 0.0, -out])

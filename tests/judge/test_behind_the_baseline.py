"""A standing field kubb a baton pushes out behind the baseline of its half (out of the back of
the pitch, not across a sideline). DM §2: „Kubb wird auf einem Spielfeld von 5m Breite x 8m Länge
gespielt, auf dessen Grundlinien jeweils 5 Kubbs stehen“ (the field is 5 × 8 m, the baseline kubbs
stand on its baselines): the field ends at the baseline. Neither DM nor WS says what becomes of a
kubb pushed out of the field that still stands; it was not knocked over (DM §1 „umzuwerfen“), so
it is not felled and not inkasted. kubb3d sets it back as it does across a sideline (option
``standing_outside``, cited ``kubb3d decision: standing outside``); a baseline kubb stands on its
baseline by the rule book and is not moved along the pitch."""

from __future__ import annotations

import pytest
from helpers import HX, kubb, snap

from kubb3d.judge import Consequence, Pose, ThrowContext, judge_throw
from kubb3d.judge.geometry import footprint, overlap_depth, square
from kubb3d.judge.rulings import Status

END = 4.0  # x of B's baseline on the DM pitch (8 m long); A's is -4.0


def test_dm_a_field_kubb_pushed_standing_behind_the_baseline_is_set_back_inside():
    """DM §2 behind the baseline (applied): „auf dessen Grundlinien jeweils 5 Kubbs stehen“: the
    field ends at the baseline. A's baton pushes field kubb F1 of B's half back until it stands
    5.5 cm behind B's baseline (its base from 3.985 to 4.055 m). It did not fall: not felled, not
    inkasted, but set back along the pitch just far enough for its whole base to be in the field
    (x = 4.0 − 3.5 cm), y kept; the same mirrored for B's throw into A's half."""
    for thrower, x, inside_x in (("A", END + 0.02, END - HX), ("B", -END - 0.02, -END + HX)):
        f1 = kubb("F1", x, 1.2, side="B" if thrower == "A" else "A")
        j = judge_throw(snap(f1), ThrowContext(thrower=thrower, field_kubbs=frozenset({"F1"})))
        r = j.ruling("F1")
        assert r.status is Status.STANDING and r.consequence is Consequence.SET_INSIDE
        assert r.raised_pose.position[:2] == pytest.approx((inside_x, 1.2), abs=1e-9)
        assert r.rules == ("DM §5", "kubb3d decision: standing outside")
        assert r.reason == ("F1 still stands but was pushed 5.5 cm across the baseline behind its half, so it is set "
                            "back just inside the field (kubb3d's decision).")
        assert "F1" not in j.felled and "F1" not in j.felled_total and "F1" not in j.raise_again


def test_dm_a_baseline_kubb_pushed_back_standing_stays_on_its_baseline():
    """DM §2 behind the baseline (boundary): „auf dessen Grundlinien jeweils 5 Kubbs stehen“: a
    baseline kubb stands on the baseline, half of its base behind it, so one pushed back 4 cm
    that still stands is not moved along the pitch (only a sideline would set it back). And a
    field kubb whose base ends 1 mm in front of the baseline is in the field: nothing happens."""
    b3 = kubb("B3", END + 0.04, 0.0)
    r = judge_throw(snap(b3), ThrowContext(thrower="A")).ruling("B3")
    assert r.status is Status.STANDING and r.consequence is Consequence.NONE and r.raised_pose is None
    f1 = kubb("F1", END - HX - 0.001, 1.2)
    r = judge_throw(snap(f1), ThrowContext(thrower="A", field_kubbs=frozenset({"F1"}))).ruling("F1")
    assert r.consequence is Consequence.NONE and r.raised_pose is None


def test_a_field_kubb_out_at_the_corner_is_set_back_across_both_lines():
    """DM §2: the field is „5m Breite x 8m Länge“: a field kubb pushed out at the corner, 1 cm
    across the sideline and 2 cm across the baseline, is set back across both."""
    f1 = kubb("F1", END - HX + 0.02, 2.5 - HX + 0.01)
    r = judge_throw(snap(f1), ThrowContext(thrower="A", field_kubbs=frozenset({"F1"}))).ruling("F1")
    assert r.consequence is Consequence.SET_INSIDE
    assert r.raised_pose.position[:2] == pytest.approx((END - HX, 2.5 - HX), abs=1e-9)
    assert r.reason == ("F1 still stands but was pushed 1.0 cm across the sideline and 2.0 cm across the baseline "
                        "behind its half, so it is set back just inside the field (kubb3d's decision).")


def test_a_kubb_set_back_inside_is_not_put_on_the_spot_of_a_baseline_kubb_stood_up_again():
    """DM §5: „Fällt ein Grundlinienkubb, während in der dazugehörigen Feldhälfte noch Kubbs
    stehen, so gilt er nicht als gefallen, wird jedoch erst am Ende der Wurfrunde wieder am
    ursprünglichen Ort aufgestellt“. F1, pushed through B3's spot, stands 3 cm behind the
    baseline; B3 lies behind it and is stood up at its spot at the end of the round. F1 set back
    just inside would stand on that spot, so it is moved off it until they touch (as a raised
    kubb is, docs/rules.md "Raising next to a disturbed kubb"), and stays in the field."""
    spot = Pose((END, 0.0, 0.075))
    f1 = kubb("F1", END - HX + 0.03, 0.02)
    b3 = kubb("B3", END + 0.3, 0.0, lying_yaw_deg=0)
    ctx = ThrowContext(thrower="A", field_kubbs=frozenset({"F1"}), round_start={"B3": spot})
    j = judge_throw(snap(f1, b3), ctx)
    assert j.ruling("B3").consequence is Consequence.RAISE_AT_ORIGINAL_SPOT and "B3" in j.raise_again
    r = j.ruling("F1")
    assert r.consequence is Consequence.SET_INSIDE
    x, y = r.raised_pose.position[:2]
    b3_spot = footprint(kubb("B3", END, 0.0))
    assert abs(overlap_depth(square((x, y), (1.0, 0.0), HX), b3_spot)) <= 0.001  # touching (block_tol)
    assert x + HX <= END and (x, y) != pytest.approx((END - HX, 0.02))
    assert r.reason.endswith("It would stand on B3's spot, so it is moved off it until they touch.")


def test_ws_and_the_stays_option_behind_the_baseline():
    """WS basic rule 13 (by analogy, as for a sideline): „If a kubb comes to rest on the line, it
    must be tipped into the field“: under WS too a standing field kubb behind the baseline (3.75 m)
    is set back inside; with option standing_outside=stays it stays where it stands."""
    from kubb3d.pitch import PITCHES

    ws_end = PITCHES["wikinger"].length / 2
    f1 = kubb("F1", ws_end + 0.01, -0.8)
    ctx = ThrowContext(ruleset="wikinger", thrower="A", field_kubbs=frozenset({"F1"}))
    r = judge_throw(snap(f1, pitch=PITCHES["wikinger"]), ctx).ruling("F1")
    assert r.consequence is Consequence.SET_INSIDE
    assert r.rules == ("WS basic rule 13", "kubb3d decision: standing outside")
    assert r.raised_pose.position[:2] == pytest.approx((ws_end - HX, -0.8), abs=1e-9)
    stays = judge_throw(snap(kubb("F1", END + 0.01, -0.8)), ThrowContext(
        thrower="A", field_kubbs=frozenset({"F1"}), options={"standing_outside": "stays"})).ruling("F1")
    assert stays.consequence is Consequence.NONE and stays.raised_pose is None
    assert stays.rules == ("DM §5", "option standing_outside=stays")
    assert stays.reason.startswith("F1 still stands but was pushed 4.5 cm across the baseline behind its half; it "
                                   "stays where it stands.")

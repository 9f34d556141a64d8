"""Clause rows of docs/rules.md about the pitch, the sets and the tie-break that had no test on one
side of their rule (issue #37 item 1). Each test quotes the rule book's words it checks."""

from __future__ import annotations

import pytest
from rules_helpers import finish_turn, inkast_all_valid, start, throw

from kubb3d.equipment import get_set
from kubb3d.pitch import PITCHES, baseline_ids
from kubb3d.rules import LagResult, LagThrow, MatchState, RemoveTieBreakKubb, ThrowOutcome, get_ruleset
from kubb3d.rules.kubbuteo import kubbuteo_pitch

INCH = 0.0254


def test_dm_pitch_is_5_by_8_m_with_five_kubbs_on_each_baseline():
    """DM §2: „Kubb wird auf einem Spielfeld von 5m Breite x 8m Länge gespielt, auf dessen Grundlinien
    jeweils 5 Kubbs stehen. In der Mitte des Spielfeldes steht der König.“"""
    pitch = get_ruleset("dm").pitch
    assert (pitch.width, pitch.length) == (5.0, 8.0) and pitch == PITCHES["dm"]
    for side, x in (("A", -4.0), ("B", 4.0)):
        spots = pitch.baseline_kubb_positions(side)
        assert list(spots) == list(baseline_ids(side)) and len(spots) == 5
        assert all(sx == x and abs(sy) < 2.5 for sx, sy in spots.values())
    assert pitch.king_position == (0.0, 0.0)


def test_the_field_ends_at_its_lines():
    """DM §2: „5m Breite x 8m Länge“; WS The Playing Field: "The playing field is 5 m wide and 7.50 m
    long and is bounded by the 4 corner sticks"; KT Setup: "5 kubbs are placed equidistant on each
    baseline" of a board whose baselines lie 3.5 in inside its ends. A point on a line is in the
    field, a millimetre beyond it is not; the kubbs stand on the baselines, which for KT are not
    the board's ends."""
    for name, length in (("dm", 8.0), ("wikinger", 7.5)):
        pitch = get_ruleset(name).pitch
        assert pitch.length == length and pitch.width == 5.0
        for x, y in ((length / 2, 0.0), (-length / 2, 2.5), (0.0, -2.5)):
            assert pitch.in_pitch(x, y)
        for x, y in ((length / 2 + 0.001, 0.0), (0.0, 2.501), (-length / 2 - 0.001, -1.0)):
            assert not pitch.in_pitch(x, y)
        assert pitch.in_half("A", -0.001, 0.0) and not pitch.in_half("A", 0.001, 0.0)
        assert pitch.baseline_x("B") == length / 2
    board = kubbuteo_pitch()
    assert board.baseline_x("B") == pytest.approx(24 * INCH - 3.5 * INCH)
    assert all(x == pytest.approx(20.5 * INCH) for x, _ in board.baseline_kubb_positions("B").values())


def test_kt_five_kubbs_equidistant_on_each_baseline_king_in_the_centre():
    """KT Setup: "The king is placed upright in the centre of the board, and 5 kubbs are placed
    equidistant on each baseline." Equidistant between the board's long edges: six equal gaps."""
    board = kubbuteo_pitch()
    for side in ("A", "B"):
        ys = sorted(y for _, y in board.baseline_kubb_positions(side).values())
        gaps = [b - a for a, b in zip([-12 * INCH, *ys], [*ys, 12 * INCH])]
        assert len(ys) == 5 and gaps == pytest.approx([4 * INCH] * 6)
    assert board.king_position == (0.0, 0.0)


def test_dm_small_set_has_the_rule_books_sizes():
    """DM §2: „Die DEM und DDM werden mit "kleinen" Kubbsets ausgetragen - König 7,5 cm; Kubbs 6,0 cm;
    Wurfhölzer 4,0 cm“. The DM ruleset plays that set: the king's and the kubbs' square side, the
    batons' diameter."""
    small = get_set(get_ruleset("dm").equipment)
    assert small.name == "dm-small"
    assert (small.king.width, small.kubb.width, small.baton.diameter) == (0.075, 0.06, 0.04)


def test_the_standard_set_is_not_the_small_set():
    """DM §2: „König 7,5 cm; Kubbs 6,0 cm; Wurfhölzer 4,0 cm“ is for the German championships only: WS
    plays the standard set (kubb 7 cm, king 9 cm, baton 4.4 cm), whose pieces are all larger."""
    standard, small = get_set(get_ruleset("wikinger").equipment), get_set("dm-small")
    assert standard.name == "standard"
    assert standard.kubb.width > small.kubb.width and standard.king.width > small.king.width
    assert standard.baton.diameter > small.baton.diameter


def test_before_the_tie_break_no_kubb_leaves_the_game():
    """DM §9: a tie-break kubb „wird komplett aus dem Spiel entfernt und nicht wieder eingeworfen“ only
    once the organiser's time is up („Nach Ablauf einer vom Veranstalter vorgegebenen Zeit startet
    der Tie-Break“). The same turns without a time limit: the felled kubb is inkasted and raised, no
    tie-break kubb is offered and none is out of the game."""
    s = MatchState(get_ruleset("dm"), ("Ann", "Bob"))
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1"})))
    throw(s)
    inkast_all_valid(s)
    for _ in range(4):
        throw(s)
    finish_turn(s)
    assert not any(isinstance(a, (RemoveTieBreakKubb, LagThrow)) for a in s.legal_actions())
    assert not any(k.removed for k in s.kubbs.values())
    assert s.kubbs["B1"].standing
    with pytest.raises(ValueError):
        s.push(LagThrow("A"), LagResult(0.5))

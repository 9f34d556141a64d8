"""Rules engine for Kubbuteo (rule book ``KT`` "Rules") with scripted outcomes: misflicks, the king,
the flicking line, placement."""

from __future__ import annotations

import pytest

from kubb3d.equipment import INCH
from kubb3d.judge.rulings import Pose
from kubb3d.rules import (
    BatonThrow,
    Inkast,
    InkastOutcome,
    KingThrow,
    LagResult,
    LagThrow,
    MatchState,
    PlaceKubb,
    Raise,
    Termination,
    ThrowOutcome,
    get_ruleset,
)


def _started() -> MatchState:
    s = MatchState(get_ruleset("kubbuteo"))
    s.push(LagThrow("A"), LagResult(0.01))
    s.push(LagThrow("B"), LagResult(0.05))  # A nearer: A opens, no choice (kubb3d's KT start)
    return s


def _throw(s: MatchState, felled=(), **kw):
    a = s.legal_actions()[0]
    s.push(a, ThrowOutcome(frozenset(felled), **kw))
    return a


def test_six_flicks_per_turn_from_the_baseline_and_returns_misflicks():
    s = _started()
    assert s.turn_side == "A" and s.batons_left == 6  # no 2-4-6 opening in KT
    a = _throw(s, {"B1", "B2", "B3"})
    assert isinstance(a, BatonThrow) and a.line_x == pytest.approx(-(48 / 2 - 3.5) * INCH)
    for _ in range(5):
        _throw(s)
    assert s.turn_side == "B"
    ink = s.legal_actions()[0]
    assert ink == Inkast("B", ("B1", "B2", "B3"), 1)
    # B2 and B3 misflicked (in that order): only the first is flicked again, B3 is placed by A
    up = Pose((-0.2, 0.1, 0.0156))
    s.push(ink, InkastOutcome(valid={"B1": up}, invalid=frozenset({"B2", "B3"})))
    assert s.legal_actions() == [Inkast("B", ("B2",), 2)]
    s.push(Inkast("B", ("B2",), 2), InkastOutcome(invalid=frozenset({"B2"})))
    # the reflick missed too: both are placed by the receiving player A in his half
    place = s.legal_actions()[0]
    assert isinstance(place, PlaceKubb) and place.side == "A" and place.half == "A" and place.kubb == "B3"
    near_king = PlaceKubb("A", "B3", (-0.04, 0.0), "penalty", "A")
    assert "2 in" in s.placement_error(near_king)
    s.push(PlaceKubb("A", "B3", (-0.45, 0.25), "penalty", "A"))
    s.push(PlaceKubb("A", "B2", (-0.45, -0.25), "penalty", "A"))
    assert s.legal_actions() == [Raise("A", ("B1",))]
    s.push(Raise("A", ("B1",)))
    assert s.field_kubbs("A") == frozenset({"B1", "B2", "B3"})


def test_flicking_line_is_the_own_field_kubb_closest_to_the_king():
    s = _started()
    _throw(s, {"B1", "B2"})
    for _ in range(5):
        _throw(s)
    # B returns both; A leaves them standing after his turn → A advances
    s.push(
        s.legal_actions()[0],
        InkastOutcome(valid={"B1": Pose((-0.10, 0.25, 0.0156)), "B2": Pose((-0.14, 0.02, 0.0156))}),
    )
    s.push(s.legal_actions()[0])  # raise
    for _ in range(6):
        _throw(s)  # B misses everything
    assert s.turn_side == "A"
    # B1 is nearer the centre line, but B2 is nearer the king (KT rules: "closest to the King")
    a = s.legal_actions()[0]
    assert isinstance(a, BatonThrow) and a.line_x == pytest.approx(-0.14)


def test_king_after_all_kubbs_from_the_baseline_wins_and_early_king_loses():
    s = _started()
    _throw(s, {f"B{i}" for i in range(1, 6)})
    a = s.legal_actions()[0]
    assert isinstance(a, KingThrow) and a.line_x == pytest.approx(-(48 / 2 - 3.5) * INCH)
    _throw(s)  # missed the king: the next baton may try again (no one-attempt limit in KT)
    assert isinstance(s.legal_actions()[0], KingThrow)
    _throw(s, winner="A")
    assert s.outcome().winner == "P1" and s.outcome().termination is Termination.KING
    early = _started()
    _throw(early, {"B1"}, loser="A")
    assert early.outcome().winner == "P2" and early.outcome().termination is Termination.EARLY_KING
    assert "KT rules" in early.outcome().reason

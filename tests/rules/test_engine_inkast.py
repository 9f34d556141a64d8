"""The rules engine's record of an inkast (kubb3d.rules.core): its outcome as data, the stößel
event's citation, a king felled by an inkasted kubb, and when the match is over (issue #37 item 5:
each test kills mutants of rules/core.py that survived the fast tests; docs/mutation.md)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_helpers import start, throw

from kubb3d.errors import OutcomeError
from kubb3d.judge.rulings import Pose
from kubb3d.rules import (
    Inkast,
    InkastOutcome,
    LagResult,
    LagThrow,
    MatchState,
    Raise,
    Termination,
    ThrowOutcome,
    get_ruleset,
)
from kubb3d.rules.core import outcome_from_dict


def dm() -> MatchState:
    return MatchState(get_ruleset("dm"), ("Ann", "Bob"))


def test_an_inkast_outcome_as_data_keeps_every_field():
    outcome = InkastOutcome(
        valid={"B2": Pose((-1.0, 0.5, 0.075)), "B1": Pose((-1.2, 0.1, 0.075))},
        invalid=frozenset({"B4", "B3"}),
        stossel=frozenset({"B5"}),
        king_felled=True,
        rulings=({"piece": "B1", "consequence": "raise here"},),
    )
    d = outcome.to_dict()
    assert list(d) == ["kind", "valid", "invalid", "stossel", "king_felled", "rulings"]
    assert d["kind"] == "inkast" and list(d["valid"]) == ["B1", "B2"]
    assert d["invalid"] == ["B3", "B4"] and d["stossel"] == ["B5"] and d["king_felled"] is True
    assert d["rulings"] == [{"piece": "B1", "consequence": "raise here"}]
    back = outcome_from_dict(d)
    assert isinstance(back, InkastOutcome) and back.rulings == outcome.rulings and back.stossel == outcome.stossel


def test_a_stossel_is_recorded_under_dm_7():
    """DM §7: „Kubbs, die auf anderen Kubbs liegen und keinen Bodenkontakt mehr haben, werden als
    “Stößel“ bezeichnet“; the play-by-play names it and cites the section."""
    s = dm()
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1", "B2"})))
    throw(s)
    s.push(Inkast("B", ("B1", "B2"), 1), InkastOutcome(valid={"B1": Pose((-1, 0.5, 0.075))}, stossel=frozenset({"B2"})))
    event = next(e for e in s.events if "stößel" in e.text)
    assert event.text == "stößel: B2 (placed freely after raising)" and event.rules == ("DM §7",)
    s.push(Raise("A", ("B1",)))


def test_a_king_felled_by_an_inkasted_kubb_is_down_and_the_match_over():
    """DM §1: „Wird der König vorzeitig mit Kubb oder Wurfholz zu Fall gebracht, hat die gegnerische
    Mannschaft gewonnen.“ The inkasting player (Bob) felled it: the king is down, the match is
    over and Ann has won; a valid inkast that leaves the king standing changes neither."""
    s = dm()
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1"})))
    throw(s)
    assert not s.is_over() and s.king_standing
    s.push(s.legal_actions()[0], InkastOutcome(valid={"B1": Pose((-1, 0, 0.075))}, king_felled=True))
    assert not s.king_standing and s.is_over()
    assert s.outcome().winner == "Ann" and s.outcome().termination == Termination.EARLY_KING
    calm = dm()
    start(calm)
    throw(calm, ThrowOutcome(felled=frozenset({"B1"})))
    throw(calm)
    calm.push(calm.legal_actions()[0], InkastOutcome(valid={"B1": Pose((-1, 0, 0.075))}))
    assert calm.king_standing and not calm.is_over()


def test_a_lag_baton_that_fells_the_king_is_named_in_the_play_by_play():
    """DM §3: „Fällt er jedoch, so einigen sich beide Parteien auf den Verursacher, welcher damit den
    Anwurf verliert.“ The lag line says the king was felled; a lag that only came near it does not."""
    s = dm()
    s.push(LagThrow("A"), LagResult(0.0, king_felled=True))
    s.push(LagThrow("B"), LagResult(0.4))
    lags = [e.text for e in s.events if e.kind == "lag"]
    assert lags[0] == "Ann lag throw from end A: 0.000 m from the king, king felled"
    assert lags[1] == "Bob lag throw from end B: 0.400 m from the king"


def test_a_stossel_placed_by_hand_is_named_and_cites_dm_7():
    """DM §7: „Der “Stößel” wird vom einwerfenden Team aufgenommen und nach dem Aufstellvorgang an
    einer frei wählbaren, gültigen Position im gegnerischen Feld platziert.“ The inkasting player
    (Bob) places it in A's half after the raising; the event says who placed which kubb where and
    cites DM §7, not the penalty kubb's clause."""
    s = dm()
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1", "B2"})))
    throw(s)
    s.push(Inkast("B", ("B1", "B2"), 1), InkastOutcome(valid={"B1": Pose((-1, 0.5, 0.075))}, stossel=frozenset({"B2"})))
    s.push(Raise("A", ("B1",)))
    [place] = s.legal_actions()
    assert (place.kubb, place.reason, place.side, place.half) == ("B2", "stößel", "B", "A")
    s.push(replace(place, position=(-2.0, -1.0)))
    event = s.events[-1]
    assert event.text == "Bob places stößel B2 at (-2.00, -1.00) m" and (event.side, event.player) == ("B", "Bob")
    assert event.rules == (s.ruleset.cite("stossel"),) == ("DM §7",)
    assert s.ruleset.cite("penalty_place") != s.ruleset.cite("stossel")
    assert s.kubbs["B2"].standing and s.kubbs["B2"].pose.position[:2] == (-2.0, -1.0)


def test_the_state_as_data_carries_the_outcome_once_the_match_is_over():
    """MatchState.to_dict's summary ends with the outcome: None while the match runs, the
    outcome's own data once the king fell early (DM §1)."""
    s = dm()
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1"})))
    throw(s)
    assert list(s.to_dict())[-1] == "outcome" and s.to_dict()["outcome"] is None
    s.push(s.legal_actions()[0], InkastOutcome(valid={"B1": Pose((-1, 0, 0.075))}, king_felled=True))
    over = s.outcome()
    assert over is not None and s.to_dict()["outcome"] == over.to_dict()
    assert s.to_dict()["outcome"]["winner"] == "Ann"


def test_a_throw_outcome_naming_one_side_winner_and_loser_is_refused_in_words():
    """A throw's outcome cannot make the same side win and lose; the engine says so in one line
    (bad input from a caller, not a traceback of its own)."""
    s = dm()
    start(s)
    with pytest.raises(OutcomeError) as refused:
        throw(s, ThrowOutcome(winner="A", loser="A"))
    assert str(refused.value) == "throw outcome names the same side as winner and loser"

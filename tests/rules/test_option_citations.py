"""An option at another value than the rule book's default is cited as the option, never as
the clause whose default it replaces: ``kubb3d match --option opening=4-6-6`` printed
``turn 1: P2 … with 4 batons (DM §4)`` though DM §4 says 2-4-6.

One relation over every option of the rules engine and of the throw check: the same scripted
match (no physics) under the default and under each other value; every event the option
changes cites it (``option NAME=VALUE``, docs/rules.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kubb3d.judge.options import BY_NAME, default, option_cite
from kubb3d.judge.rulebook import get_rulebook
from kubb3d.rules.ruleset import EVENT_OPTIONS
from kubb3d.pitch import opponent
from kubb3d.rules import (
    BatonThrow, Choose, Inkast, InkastOutcome, KingThrow, LagResult, LagThrow, MatchState, PenaltyThrow, PlaceKubb,
    Raise, RemoveTieBreakKubb, ThrowOutcome, get_ruleset,
)

sys.path.insert(0, str(Path(__file__).parent))
from rules_helpers import field_pose  # noqa: E402

RULESETS = ("dm", "wikinger", "kubbuteo")


def _values(name: str, ruleset: str) -> list:
    o = BY_NAME[name]
    values = list(o.choices) if o.choices is not None else list(o.variants)
    return [v for v in values if v != default(name, ruleset)]


CASES = [
    (r, o.name, v) for r in RULESETS for o in BY_NAME.values() if o.applies == "ruleset" for v in _values(o.name, r)
]


def _play(rs, limit: int = 400) -> list:
    """A scripted match: every third baton fells the first standing kubb of the half thrown at,
    inkasts land valid near the centre line (field kubbs: advance lines), a time limit of 20
    minutes ends it (time_up), penalty kubbs are placed near the king (penalty_distance)."""
    state = MatchState(rs, ("P1", "P2"), time_limit_s=1200.0)
    n = 0
    for _ in range(limit):
        if state.outcome() is not None:
            break
        a = state.legal_actions()[0]
        n += 1
        if isinstance(a, LagThrow):
            state.push(a, LagResult(0.1 if a.side == "A" else 0.4))
        elif isinstance(a, (BatonThrow, KingThrow)):
            standing = [k.id for k in state.standing_in(opponent(state.turn_side))]
            felled = frozenset(standing[:1]) if n % 3 == 0 and isinstance(a, BatonThrow) else frozenset()
            state.push(a, ThrowOutcome(felled=felled))
        elif isinstance(a, Inkast):
            half = opponent(a.side)
            valid = {k: field_pose(half, i, 0.5 + 0.4 * (n % 3)) for i, k in enumerate(a.kubbs)}
            state.push(a, InkastOutcome(valid=valid))
        elif isinstance(a, PenaltyThrow):
            state.push(a, InkastOutcome(valid={a.kubb: field_pose(opponent(a.from_side), 9)}))
        elif isinstance(a, PlaceKubb):
            x = 0.4 if a.half == "B" else -0.4
            state.push(PlaceKubb(a.side, a.kubb, (x, 0.0), a.reason, a.half))
        elif isinstance(a, (Raise, RemoveTieBreakKubb, Choose)):
            state.push(a)
        else:
            raise AssertionError(a)
    return list(state.events)


def _cites(ev, cite: str) -> bool:
    return cite in ev.rules or cite in ev.text


@pytest.mark.parametrize("ruleset, name, value", CASES)
def test_every_event_an_option_changes_cites_the_option(ruleset, name, value):
    plain, other = _play(get_ruleset(ruleset)), _play(get_ruleset(ruleset, **{name: value}))
    cite = option_cite(name, value)
    # the clauses whose default the option replaces (DM §4 for the opening, DM §8 for the line …)
    replaced = {get_rulebook(ruleset).events[k] for k, o in EVENT_OPTIONS.items() if o == name} - {
        get_rulebook(ruleset).events[k] for k, o in EVENT_OPTIONS.items() if o != name}
    changed = 0
    for d, e in zip(plain, other):
        if (d.kind, d.text, d.rules) == (e.kind, e.text, e.rules):
            continue
        changed += 1
        if d.kind != e.kind and changed > 1:  # the matches part ways after an event the option changed
            break
        assert _cites(e, cite), (d, e)
        assert not any(c in e.rules or f"({c})" in e.text for c in replaced), (d, e)
        if d.kind != e.kind:  # the first change parts the matches: later events follow from it
            break
    # at the default, no event cites an option
    assert not any("option " in " ".join(ev.rules) for ev in plain)
    if (name, ruleset) in {("opening", "dm"), ("opening", "wikinger"), ("advance_line", "dm"), ("time_up", "dm"),
                           ("time_up", "wikinger")}:
        assert changed, f"the scripted match shows no event {name}={value} changes"


def test_the_issues_opening_is_cited_as_the_option():
    events = _play(get_ruleset("dm", opening="4-6-6"))
    first = next(ev for ev in events if ev.kind == "turn")
    assert first.text.endswith("with 4 batons") and first.rules == ("option opening=4-6-6",)


@pytest.mark.parametrize("ruleset", ["dm", "wikinger"])
def test_a_throw_check_at_another_limit_cites_the_option(ruleset):
    from kubb3d.judge.rulebook import get_rulebook
    from kubb3d.throw.simulation import throw_rules_for

    book = get_rulebook(ruleset).throw_rules
    assert throw_rules_for(ruleset).tilt_rule == book.tilt_rule
    assert throw_rules_for(ruleset, max_tilt_deg=default("max_tilt_deg", ruleset)).tilt_rule == book.tilt_rule
    assert throw_rules_for(ruleset, max_tilt_deg=45.0).tilt_rule == "option max_tilt_deg=45"
    assert throw_rules_for(ruleset, helicopter_limit=120.0).helicopter_rule == "option helicopter_limit=120"

"""MatchState.copy() and pop() (issue #31 item 4): a copy continued with the same actions and
outcomes gives the same match, event for event, without touching the original; pop takes back
exactly the last push. Checked on whole recorded matches of DM, WS and Kubbuteo, at every action."""

from __future__ import annotations

import json

import pytest

from kubb3d.match import Match, MatchConfig
from kubb3d.rules import MatchState, action_from_dict, get_ruleset, outcome_from_dict


@pytest.fixture(
    scope="module", params=[("dm", 1), ("wikinger", 2), ("kubbuteo", 2)], ids=["dm", "wikinger", "kubbuteo"]
)
def recorded(request, tmp_path_factory):
    """(ruleset, the state before any action, [(action, outcome)]) of one played match."""
    ruleset, seed = request.param
    path = tmp_path_factory.mktemp("copy") / f"{ruleset}.jsonl"
    m = Match(MatchConfig(ruleset=ruleset, seed=seed, round_cap=8), replay=path)
    while m.state.outcome() is None:
        m.step()
    m.close()
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    steps = [
        (action_from_dict(r["action"]), outcome_from_dict(r.get("outcome")))
        for r in records
        if r.get("type") == "action"
    ]
    start = MatchState(get_ruleset(ruleset), MatchConfig(ruleset=ruleset).player_names(), round_cap=8)
    return start, steps


def _digest(state: MatchState) -> tuple:
    outcome = state.outcome()
    return (
        [e.to_dict() for e in state.events],
        None if outcome is None else outcome.to_dict(),
        sorted((k, v.half, v.standing, v.removed, tuple(v.pose.position)) for k, v in state.kubbs.items()),
        state.phase,
        state.clock,
        [type(a).__name__ for a in state.legal_actions()] if outcome is None else [],
    )


def test_a_copy_continues_as_the_original_and_leaves_it_alone(recorded):
    start, steps = recorded
    assert len(steps) > 20
    for cut in range(0, len(steps), max(1, len(steps) // 12)):
        original = start.copy()
        for action, outcome in steps[:cut]:
            original.push(action, outcome)
        before = _digest(original)
        branch = original.copy()
        for action, outcome in steps[cut:]:
            branch.push(action, outcome)
        assert _digest(original) == before  # the copy's pushes did not reach the original
        for action, outcome in steps[cut:]:
            original.push(action, outcome)
        assert _digest(branch) == _digest(original)
    assert original.outcome() is not None


def test_pop_takes_back_the_last_push(recorded):
    start, steps = recorded
    state = start.copy()
    for action, outcome in steps[: len(steps) // 2]:
        state.push(action, outcome)
    before = _digest(state)
    action, outcome = steps[len(steps) // 2]
    state.push(action, outcome)
    assert state.pop() == (action, outcome)
    assert _digest(state) == before
    with pytest.raises(IndexError):
        start.copy().pop()

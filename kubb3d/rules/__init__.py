"""Rules engine (no physics): the state (:mod:`~kubb3d.rules.core`, its phases in
:mod:`~kubb3d.rules.lag_phase`, :mod:`~kubb3d.rules.inkast_phase`,
:mod:`~kubb3d.rules.throw_phase` and :mod:`~kubb3d.rules.turns`, its records in
:mod:`~kubb3d.rules.records`), actions (:mod:`~kubb3d.rules.actions`), outcomes
(:mod:`~kubb3d.rules.outcomes`), the ruleset base and registry (:mod:`~kubb3d.rules.ruleset`)
and one module per ruleset (``dm``, ``wikinger``, ``kubbuteo``), found by name.

>>> from kubb3d.rules import MatchState, get_ruleset
>>> state = MatchState(get_ruleset("dm"))
>>> state.legal_actions()
[LagThrow(side='A', thrower=0)]
"""

from kubb3d.rules.core import (  # noqa: F401
    Action,
    BatonThrow,
    Choose,
    Event,
    IllegalAction,
    Inkast,
    InkastOutcome,
    KingThrow,
    LagResult,
    LagThrow,
    MatchState,
    Outcome,
    PenaltyThrow,
    Phase,
    PlaceKubb,
    Raise,
    RemoveTieBreakKubb,
    Ruleset,
    Termination,
    ThrowOutcome,
    TimeModel,
    action_from_dict,
    action_to_dict,
    get_ruleset,
    outcome_from_dict,
    ruleset_names,
)
from kubb3d.rules import dm, kubbuteo, wikinger  # noqa: F401,E402  (register the rulesets)

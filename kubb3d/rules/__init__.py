"""Rules engine (no physics): :mod:`~kubb3d.rules.core` plus rulesets found by name.

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

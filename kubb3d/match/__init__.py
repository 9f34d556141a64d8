"""A whole match in the physics world: rules engine + players + physics + judge, with replays.

:class:`Match` asks the :class:`~kubb3d.rules.MatchState` for the legal actions, lets the
acting :class:`~kubb3d.players.Player` decide, simulates the action in a
:class:`~kubb3d.physics.world.World`, has the judge rule on the result and pushes action and
outcome into the state, until :meth:`MatchState.outcome` is set.

Physical bookkeeping (kubb3d's choices):

* The world is rebuilt at every turn boundary from the poses of the pieces ("world"
  records of the replay): standing kubbs at the engine's poses (so kubbs ruled "raise
  again" stand at their original spot, ``DM §5``), felled kubbs where they lie (one lying on
  a piece the rules placed is moved off it, :mod:`kubb3d.match.room`), batons collected. Set
  starts use the standard set-up. Rebuilding from recorded poses makes a
  resumed match continue exactly like an uninterrupted one.
* Lag throws (``DM §3``, ``§9``; WS "Sequence of Play") are simulated one by one in a fresh
  standard world each (the two simultaneous throws do not interact); a king more than 30°
  from vertical at rest counts as felled by that throw.
* Inkasts (``DM §6``): the kubbs to inkast are picked up (parked behind the baseline) and
  lobbed one by one from the baseline; after each attempt the judge rules and the valid
  kubbs are raised at once at the judge's poses (the later kubbs of a rethrow then meet
  standing kubbs; anything they knock over is set up again, ``WS basic rule 14``,
  ``DM §5`` accidents). Invalid kubbs and stößel are picked up until thrown or placed.
* Physics glitches (``PhysicsGlitch``: NaN, a piece beyond the world; or at rest: a piece
  outside the pitch by more than :data:`GLITCH_MARGIN_M`, below the ground, or not at rest
  after the time limit and still faster than :data:`GLITCH_REST_SPEED`, or a sampled speed above
  :data:`GLITCH_MAX_SPEED`) are logged; the world is rebuilt as it was and the action is
  repeated with a fresh draw of the release noise (the accident rule, ``DM §5``), at most
  :data:`GLITCH_RETRIES` times; after that the throw counts as a throw without effect.
* Randomness: the generator of action number *i* (attempt *a*) is
  ``default_rng(SeedSequence(seed, spawn_key=(i, a)))``: no draw depends on earlier ones. The
  later kubbs of an inkast (the *n*-th, n ≥ 1, of one action) draw from ``spawn_key=(i, a, n)``
  (each kubb its own noise; docs/speed.md "Fifth round").

Replay file (JSON lines, ``schema`` 2): a ``header`` line (configuration), ``world`` lines
(poses at each turn boundary, with the index of the next action), one ``action`` line per
action (the action, its outcome, the events, the judge's rulings, and for every simulated
throw its parameters, :class:`~kubb3d.throw.Release` and the trajectories decimated to
:attr:`MatchConfig.trajectory_hz` and rounded to 0.1 mm / 1e-4), and an ``outcome`` line.
An action line also says where the pieces are once the action is over, after the rules have
cleared, raised, parked or placed pieces (``after``: the poses that differ from the record's
last trajectory samples, or from the earlier records for pieces that did not move, and the
pieces taken out of the world, ``gone``); a lag throw, simulated in a fresh world, gives that
world's poses before the throw (``before``). Every reason (a ruling's, a foul's, the result's)
has its message id and parameters beside it (``reason_msg``), for readers in other languages.
A reader needs no rules to show the match: docs/viewer.md "What a replay records".

The package, by concern:

=====================  ==================================================================
:mod:`.config`         :class:`MatchConfig`
:mod:`.protocol`       the step protocol's types (:class:`Pending`, :class:`StepResult`,
                       :class:`HumanRequest`) and the :class:`Judge` protocol
:mod:`.engine`         :class:`Match`: pending, step, run, resume; :func:`play`
:mod:`.core`           the world, the replay log, the per-action generators
:mod:`.throwing`       performing actions, glitch retries (:func:`glitch_reason`)
:mod:`.human`          a person's throws (the human-input protocol)
:mod:`.flow`           how pieces are thrown on grass; :mod:`.kubbuteo` flicked on a board
:mod:`.records`        the replay's records (:func:`poses_after`, :func:`causal_order`)
=====================  ==================================================================
"""

from kubb3d.errors import ReplayError
from kubb3d.match.config import MatchConfig
from kubb3d.match.engine import Match, play
from kubb3d.match.flow import KING_FELLED_TILT, PieceFlow, ThrowFlow
from kubb3d.match.kubbuteo import FLICK_MAX_TIME, FlickFlow
from kubb3d.match.protocol import ActionOutcome, HumanRequest, HumanThrow, Judge, Pending, StepResult
from kubb3d.match.records import ACTION_EVENT_KINDS, SCHEMA, causal_order, poses_after
from kubb3d.match.throwing import (
    GLITCH_MARGIN_M,
    GLITCH_MAX_SPEED,
    GLITCH_RETRIES,
    GLITCH_REST_SPEED,
    glitch_reason,
)
from kubb3d.rules import action_to_dict

__all__ = [
    "ACTION_EVENT_KINDS",
    "ActionOutcome",
    "FLICK_MAX_TIME",
    "FlickFlow",
    "GLITCH_MARGIN_M",
    "GLITCH_MAX_SPEED",
    "GLITCH_RETRIES",
    "GLITCH_REST_SPEED",
    "HumanRequest",
    "HumanThrow",
    "Judge",
    "KING_FELLED_TILT",
    "Match",
    "MatchConfig",
    "Pending",
    "PieceFlow",
    "ReplayError",
    "SCHEMA",
    "StepResult",
    "ThrowFlow",
    "action_to_dict",
    "causal_order",
    "glitch_reason",
    "play",
    "poses_after",
]

"""The step protocol of a match: what :meth:`~kubb3d.match.Match.pending` says is due, what a
person's throw is asked with, what :meth:`~kubb3d.match.Match.step` returns, and the judge a
match calls (a typed protocol: :mod:`kubb3d.judge` itself, or an object with its four names).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Generator, Protocol

from kubb3d.judge import InkastContext as InkastCtx
from kubb3d.judge import InkastJudgement
from kubb3d.judge import ThrowContext as ThrowCtx
from kubb3d.judge import ThrowJudgement
from kubb3d.rules import Action, Event, InkastOutcome, LagResult, MatchState, ThrowOutcome
from kubb3d.snapshot import Snapshot
from kubb3d.throw import FlickParams, ThrowFrame, ThrowParams

if TYPE_CHECKING:
    from kubb3d.physics.world import World

ActionOutcome = ThrowOutcome | InkastOutcome | LagResult | None
"""What an action's simulation gives the rules engine: a throw's, an inkast's (or penalty
kubb's) or a lag throw's outcome; None for choices, placements, raising."""

ThrowAnswer = ThrowParams | FlickParams
"""A person's throw: ``ThrowParams`` on grass, ``FlickParams`` on a table-top board."""


class Judge(Protocol):
    """The referee a match calls (:mod:`kubb3d.judge` is one): contexts built by the match,
    rulings read from the judgements (the audit passes a recording one)."""

    @property
    def ThrowContext(self) -> Callable[..., ThrowCtx]: ...

    @property
    def InkastContext(self) -> Callable[..., InkastCtx]: ...

    def judge_throw(self, after: Snapshot, ctx: ThrowCtx) -> ThrowJudgement: ...

    def judge_inkast(self, after: Snapshot, ctx: InkastCtx) -> InkastJudgement: ...


@dataclass(frozen=True)
class HumanRequest:
    """What a human player is told when it is his turn to throw (argument of a ``human`` callable).

    Attributes:
        kind: ``lag`` (lag throw, ``DM §3``), ``baton`` (at the opponent's kubbs), ``king``
            (king throw from the baseline), ``inkast`` (a felled kubb into the opponent's
            half) or ``penalty`` (a DM penalty kubb).
        player: the player's name (the key of the ``human`` mapping).
        side: the pitch end the player throws from (``A`` throws towards +x).
        piece: id of the piece thrown (``baton3``, ``B2`` …).
        line_x: x of the line to throw from, m (the advance line or the baseline).
        into: the half the kubb must land in (inkasts, penalty kubbs), else None.
        target: where the simulated strategy would aim, (x, y, z) m (batons: a kubb or the
            king; kubbs: the landing spot), a hint that may be ignored.
        attempt: 0; 1, 2 … when the throw is repeated after a physics glitch.
        state: the current :class:`~kubb3d.rules.MatchState` (read it, do not push).
        world: the current :class:`~kubb3d.physics.world.World` (read poses, do not step).
        flick: True on a table-top set (Kubbuteo): return a :class:`~kubb3d.throw.FlickParams`.
    """

    kind: str
    player: str
    side: str
    piece: str
    line_x: float
    into: str | None
    target: tuple[float, ...] | None
    attempt: int
    state: MatchState
    world: World
    flick: bool = False


HumanThrow = Callable[[HumanRequest], ThrowAnswer]
"""``human(request) -> ThrowParams`` (or ``FlickParams`` on a board): a person's throw."""


@dataclass(frozen=True)
class Pending:
    """What the match waits for (:meth:`~kubb3d.match.Match.pending`).

    Attributes:
        action: the rules action due (a :class:`~kubb3d.rules.LagThrow`,
            :class:`~kubb3d.rules.BatonThrow`, :class:`~kubb3d.rules.Inkast`,
            :class:`~kubb3d.rules.Choose` …), as the match would perform it: a simulated
            player's choice or placement is already made (pass another legal action to
            :meth:`~kubb3d.match.Match.step` to override it, unless a person's throw is under way).
        player: name of the player who acts.
        request: the person's throw asked for (answer it with ``step(params)``), or None:
            ``step()`` performs the action as the simulated player.
    """

    action: Action
    player: str
    request: HumanRequest | None = None


@dataclass(frozen=True)
class StepResult:
    """What one :meth:`~kubb3d.match.Match.step` did.

    Attributes:
        action: the rules action performed (or under way).
        done: False when only part of the action was performed: a person threw one kubb of a
            multi-kubb inkast and the next one is asked for (:meth:`~kubb3d.match.Match.pending`).
        outcome: the action's outcome (:class:`~kubb3d.rules.ThrowOutcome`,
            :class:`~kubb3d.rules.InkastOutcome`, :class:`~kubb3d.rules.LagResult`) or None
            (choices, placements, raising; and while not ``done``).
        events: the action's events in causal order (empty while not ``done``).
        throws: the throw records (replay format: piece, legality, release, trajectory,
            params …) simulated during this step, in order.
        records: the replay records written during this step (a ``world`` record at a turn
            boundary, the ``action`` record, the ``outcome`` record after the last action).
    """

    action: Action
    done: bool
    outcome: ActionOutcome = None
    events: tuple[Event, ...] = ()
    throws: tuple[dict, ...] = ()
    records: tuple[dict, ...] = ()

    @property
    def record(self) -> dict | None:
        """The ``action`` record written by this step (None while not ``done``)."""
        return next((r for r in self.records if r.get("type") == "action"), None)


Performed = tuple[ActionOutcome, dict[str, Any], list[Event]]
"""What performing an action returns: its outcome, the fields it adds to the replay's action
record (``throws``, ``judgement`` …) and its notes (glitches, rulings, fouls)."""

Performance = Generator[HumanRequest | ThrowFrame, ThrowAnswer | None, Performed]
"""Performing an action: a generator that yields every :class:`~kubb3d.throw.ThrowFrame` as it
is simulated and the :class:`HumanRequest` of a person's throw (then it is sent the answer)."""


@dataclass
class Current:
    """The action under way: the generator performing it and the request it waits on."""

    action: Action
    player: str
    run: Performance | None = None
    request: HumanRequest | None = None
    result: Performed | None = None

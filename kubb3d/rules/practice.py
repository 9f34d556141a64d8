"""A round of free throws (or free flicks on a board) outside a match: ``kubb3d play``
without an opponent. One side throws its batons at the other half's baseline kubbs and
king from its own baseline, set up as at the start of a game.

:class:`PracticeRound` carries the rule state from one throw to the next — kubbs felled
so far, kubbs waiting to be raised again, who won once the king decided the game — builds
the judge's :class:`~kubb3d.judge.throws.ThrowContext` for each throw, and on a board says
what each flick clears (``KT rules``, :func:`kubb3d.rules.kubbuteo.after_flick`). Pure: the
caller simulates the throw and moves the pieces.

Rules as in a match's turn (``DM §5``–``§10``, ``WS``, ``KT rules``): a throw at the king
counts as a king throw once every kubb of the target half is down (``DM §10``); before that,
the king knocked over loses the game for the thrower.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from kubb3d.judge.rulings import Pose
from kubb3d.judge.throws import ThrowContext, ThrowJudgement
from kubb3d.pitch import Side, baseline_ids, opponent
from kubb3d.rules.kubbuteo import AfterFlick, after_flick


@dataclass
class PracticeRound:
    """The rule state of one round of free throws.

    Args:
        ruleset: a rule book name (``dm``, ``wikinger``, ``kubbuteo``).
        thrower: the throwing side; the target half is the other one.
        round_start: id → pose of every kubb and the king at the start of the round.

    Attributes:
        felled: target-half kubbs that count as felled so far (those picked up off a board
            included).
        pending_raise: kubbs ruled to be raised again at the end of the round.
        winner: the side that won once the king decided the game, else None.
    """

    ruleset: str
    thrower: Side
    round_start: Mapping[str, Pose]
    felled: frozenset[str] = frozenset()
    pending_raise: frozenset[str] = frozenset()
    winner: Side | None = None
    _targets: frozenset[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._targets = frozenset(baseline_ids(opponent(self.thrower)))

    @property
    def over(self) -> bool:
        """The king decided the game."""
        return self.winner is not None

    @property
    def king_throw(self) -> bool:
        """Every kubb of the target half is down: the next throw is a king throw (``DM §10``)."""
        return self._targets <= self.felled

    def context(self, legal: bool, violations: tuple[Any, ...], pieces: Mapping[str, Any]) -> ThrowContext:
        """The judge's context for the next throw.

        Args:
            legal, violations: the throw's checks (:class:`kubb3d.throw.ThrowResult`).
            pieces: the pieces of the snapshot after the throw (id → anything): kubbs already
                picked up off the board are not in it and are not judged again.

        Raises:
            RuntimeError: the king has already decided this round.
        """
        if self.over:
            raise RuntimeError("the king has decided this round: start a new one")
        own = {k: p for k, p in self.round_start.items() if k in baseline_ids(self.thrower) and k in pieces}
        return ThrowContext(
            ruleset=self.ruleset,
            thrower=self.thrower,
            legal=legal,
            violations=tuple(violations),
            king_throw=self.king_throw,
            round_start=dict(self.round_start),
            already_felled=self.felled & frozenset(pieces),
            pending_raise=self.pending_raise,
            own_standing=own,
        )

    def record(self, j: ThrowJudgement) -> None:
        """Take the judge's rulings on a throw into the round's state."""
        self.felled = self.felled | frozenset(j.felled_total)
        self.pending_raise = (self.pending_raise | frozenset(j.raise_again)) - frozenset(j.raise_now)
        if j.winner is not None:
            self.winner = j.winner
        elif j.loser is not None:
            self.winner = opponent(j.loser)

    def after_flick(self, baton: str, j: ThrowJudgement, own_now: Mapping[str, Pose]) -> AfterFlick:
        """What a flick clears off the board (``KT rules``): the baton, the knocked kubbs; the
        kubbs to stand again (at their round-start spot, or the flicker's own where they stood).

        Args:
            own_now: the flicker's own kubbs' poses after the flick (id → pose).
        """
        own = {k: p for k, p in self.round_start.items() if k in own_now}
        return after_flick(baton, j.felled, j.raise_again, self.round_start, own, own_now)

"""The rules engine's match state (python-chess style, no physics): what may be done now, pushing
it, taking it back, and the round cap. Its vocabulary lives in :mod:`kubb3d.rules.actions`,
:mod:`kubb3d.rules.outcomes`, :mod:`kubb3d.rules.ruleset` and :mod:`kubb3d.rules.records` (all
importable from here); its phases in :mod:`kubb3d.rules.lag_phase` (lag throws and choices),
:mod:`kubb3d.rules.inkast_phase`, :mod:`kubb3d.rules.throw_phase` and :mod:`kubb3d.rules.turns`
(sets, turns, the time limit and the tie-break), bound as the state's methods.

A :class:`MatchState` is driven like a chess board: ask :meth:`MatchState.legal_actions`,
pick one, then :meth:`MatchState.push` it together with what physics and the judge made
of it (an *outcome*: :class:`LagResult`, :class:`ThrowOutcome`, :class:`InkastOutcome`, or
None for actions with no physical result). :meth:`MatchState.outcome` is None until the
match is over, then an :class:`Outcome`. The engine reads rulings, never PyBullet, so it is
tested with scripted outcomes.

Vocabulary. A *side* is a pitch end (``A`` at x = −L/2 throwing towards +x, ``B``); a
*player* is a name (a DM duellist or a WS team). Players change ends between sets
(``DM §3``), so actions of the game proper name the side, lag throws name the side the
player stands at, and choices name the player. A *turn* (DM "Wurfrunde", ``DM §9`` step 1)
runs from the first inkasted kubb to the last baton.

Phases of one turn of side S against side O = opponent(S):

======== ======================================================= ==========================
phase    actions                                                 rules
======== ======================================================= ==========================
inkast   ``Inkast(S, kubbs, attempt)``; invalid kubbs once more  DM §6, WS basic rules 10-11
penalty  DM: ``PenaltyThrow`` alternating O, S, O …             DM §6
         WS: ``PlaceKubb(O, kubb, pos, 'penalty')``              WS basic rule 11
raise    ``Raise(O, kubbs)`` (the judge's raised poses)          DM §7, WS basic rules 10, 12
place    ``PlaceKubb(S, kubb, pos, 'stößel')``                   DM §7
tiebreak ``RemoveTieBreakKubb`` (DM time limit only)             DM §9
throw    ``BatonThrow`` from the (advance) line, then            DM §4, §8, §10; WS basic
         ``KingThrow`` from the baseline once all is down        rules 2, 6, 8
======== ======================================================= ==========================

Decisions where the rules are silent (kubb3d's choices):

* A felled kubb belongs to the half it stood in before the throw, wherever it rolled.
* Kubbs the judge rules "raise again" (early baseline kubbs, illegal throws) count as
  standing for the engine all turn and are stood up at the end of the turn (``DM §5``).
  A side has "cleared" the opponent's half only when no kubb there counts as standing.
* The king falling to an inkasted kubb loses the match for the inkaster like any early
  king (``DM §1`` "mit Kubb oder Wurfholz"; WS "End of the Game").
* A penalty kubb that fails :data:`PENALTY_ALTERNATION_CAP` throws in a row is placed by
  the receiving side as under WS basic rule 11 (no endless alternation; DM §6 alternates "until
  the kubb lands validly"), cited ``kubb3d decision: penalty cap``.
* Time: the clock (:class:`TimeModel`) starts with the first throwing turn of the match
  ("Start of Play", WS); a time limit is checked at the end of every turn, so the turn in
  progress is always finished (``DM §9`` step 1, WS "End of the Game").
* Turn cap: after ``round_cap`` turns in one set (default :data:`DEFAULT_ROUND_CAP`) the
  match ends with termination ``ROUND_CAP``: the player with more sets wins, then the one
  with more of its own baseline kubbs standing, else a draw. A king that can never be hit
  therefore still ends in an outcome.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from types import EllipsisType
from typing import Any, Iterable, Mapping, Sequence, cast

from kubb3d.equipment import get_set
from kubb3d.errors import IllegalAction as IllegalAction, MatchSetupError
from kubb3d.judge.messages import msg
from kubb3d.judge.rulings import Pose
from kubb3d.pitch import BATON_IDS, SIDES, Side, opponent
from kubb3d.rules import inkast_phase, lag_phase, throw_phase, turns
from kubb3d.rules.actions import (  # the engine's vocabulary, importable from here as before
    Phase as Phase,
    LagThrow as LagThrow,
    Choose as Choose,
    Inkast as Inkast,
    PenaltyThrow as PenaltyThrow,
    PlaceKubb as PlaceKubb,
    Raise as Raise,
    RemoveTieBreakKubb as RemoveTieBreakKubb,
    BatonThrow as BatonThrow,
    KingThrow as KingThrow,
    Action as Action,
    ACTION_TYPES as ACTION_TYPES,
    action_to_dict as action_to_dict,
    action_from_dict as action_from_dict, action_words, legal_words,
)
from kubb3d.rules.outcomes import (  # the engine's vocabulary, importable from here as before
    Termination as Termination,
    Outcome as Outcome,
    LagResult as LagResult,
    ThrowOutcome as ThrowOutcome,
    InkastOutcome as InkastOutcome,
    outcome_from_dict as outcome_from_dict,
)
from kubb3d.rules.ruleset import (  # the engine's vocabulary, importable from here as before
    TimeModel as TimeModel,
    own_field_kubbs as own_field_kubbs,
    Ruleset as Ruleset,
    PLACE_REASONS as PLACE_REASONS,
    _over,
    register_ruleset as register_ruleset,
    get_ruleset as get_ruleset,
    ruleset_names as ruleset_names,
)
from kubb3d.rules.records import Event as Event, KubbInfo as KubbInfo  # importable from here as before

PENALTY_ALTERNATION_CAP = 10
"""Failed penalty throws of one kubb before it is placed by hand instead (kubb3d's choice: DM §6
sets no limit)."""

DEFAULT_ROUND_CAP = 60
"""Turns per set before the match is ended by the cap (kubb3d's choice, see module doc)."""
MAX_ROUND_CAP = 10_000
"""The largest ``round_cap`` a replay may hold (:mod:`kubb3d.replay`); ``kubb3d match --round-cap``
has the same bound."""
MAX_TIME_LIMIT_S = 1e6
"""s: the longest time limit a replay may hold (``kubb3d match --time-limit`` is bounded to match)."""


class MatchState:
    """A match under a ruleset, driven by actions and the outcomes physics and judge give them.

    Args:
        ruleset: a :class:`Ruleset` (see :func:`get_ruleset`).
        players: the two player (or team) names; the first starts at end A and is "listed
            on the left" (WS "Sequence of Play").
        sets: best of ``sets`` (default ``ruleset.sets``); the first to win more than half wins.
        time_limit_s: organiser's time limit, s (default ``ruleset.time_limit_s``; None: none).
        round_cap: turns per set before the match is cut off (module doc).
        team_sizes: player → team size (default ``ruleset.team_size`` for both).

    Raises:
        MatchSetupError: bad arguments.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        players: Sequence[str] = ("P1", "P2"),
        *,
        sets: int | None = None,
        time_limit_s: float | None | EllipsisType = ...,
        round_cap: int = DEFAULT_ROUND_CAP,
        team_sizes: Mapping[str, int] | None = None,
    ) -> None:
        if len(players) != 2 or players[0] == players[1]:
            raise MatchSetupError(f"need two different player names, got {players!r}")
        self.ruleset = ruleset
        self.players = tuple(players)
        self.sets = ruleset.sets if sets is None else int(sets)
        if self.sets < 1:
            raise MatchSetupError(f"sets must be >= 1, got {self.sets}")
        self.time_limit_s = ruleset.time_limit_s if time_limit_s is ... else time_limit_s
        if self.time_limit_s is not None and not self.time_limit_s > 0:
            raise MatchSetupError(f"time limit must be > 0 s, got {self.time_limit_s}")
        if round_cap < 3:
            raise MatchSetupError(f"round_cap must be >= 3, got {round_cap}")
        self.round_cap = int(round_cap)
        self.team_sizes = {p: int((team_sizes or {}).get(p, ruleset.team_size)) for p in players}
        if min(self.team_sizes.values()) < 1:
            raise MatchSetupError(f"team sizes must be >= 1, got {self.team_sizes}")
        self.pitch = ruleset.pitch
        eq = get_set(ruleset.equipment)
        self._kubb_z = eq.kubb.height / 2
        self.end_of: dict[str, Side] = {players[0]: "A", players[1]: "B"}
        self.set_wins = {p: 0 for p in players}
        self.set_no = 0
        self.clock = 0.0
        self.play_started = False
        self.phase = Phase.LAG
        self.lag_purpose = "start"
        self.lag_results: dict[Side, LagResult] = {}
        self.choice_queue: list[tuple[str, tuple[str, ...]]] = []
        self.opener: str | None = None
        self.kubbs: dict[str, KubbInfo] = {}
        self.king_standing = True
        self.turn_side: Side | None = None
        self.turn_no = 0
        self.total_turns = 0
        self.batons_left = 0
        self.batons_thrown = 0
        self.king_throws = 0
        self.line_x: float | None = None
        self.raise_at_end: set[str] = set()
        self.inkast_pending: tuple[str, ...] = ()
        self.inkast_attempt = 1
        self.inkasted_this_turn: list[str] = []
        self.penalty_queue: list[str] = []
        self.penalty_carry: list[str] = []
        self.penalty_number = 0
        self.to_raise: dict[str, Pose] = {}
        self.place_queue: list[tuple[str, str, Side, Side]] = []  # (kubb, reason, actor side, half)
        self.tb_stage: str | None = None
        self.tb_advantage: str | None = None
        self.tb_decider = False
        self.tb_pending_removals: list[tuple[Side, Side]] = []  # (remover side, half)
        self.time_expired = False
        self._chosen: set[str] = set()
        self._removal_then = "throw"
        self.set_winners: list[str] = []
        self._outcome: Outcome | None = None
        self.history: list[tuple[Action, Any]] = []
        self.events: list[Event] = []

    # ------------------------------------------------------------------ queries
    def player_at(self, side: Side) -> str:
        """The player at pitch end ``side`` in the current set."""
        return next(p for p, s in self.end_of.items() if s == side)

    def outcome(self) -> Outcome | None:
        """None while the match runs, else the :class:`Outcome`."""
        return self._outcome

    def is_over(self) -> bool:
        return self._outcome is not None

    def standing_in(self, half: Side) -> list[KubbInfo]:
        """Kubbs that count as standing in ``half`` (raise-again kubbs included), by id."""
        return [k for _, k in sorted(self.kubbs.items()) if k.half == half and k.standing and not k.removed]

    def field_kubbs(self, half: Side) -> frozenset[str]:
        """Standing field kubbs in ``half``."""
        return frozenset(k.id for k in self.standing_in(half) if not k.baseline)

    def felled_in(self, half: Side) -> list[str]:
        """Felled kubbs waiting to be inkasted from ``half``."""
        return [k.id for _, k in sorted(self.kubbs.items()) if k.half == half and not k.standing and not k.removed]

    def baseline_standing(self, side: Side) -> int:
        """Baseline kubbs still standing on ``side``'s baseline (WS "End of the Game")."""
        return sum(1 for k in self.standing_in(side) if k.baseline)

    def throwing_line(self, side: Side) -> float:
        """x of ``side``'s throwing line, m (:meth:`Ruleset.throwing_line`: the baseline, or the
        advance line of ``DM §8``, WS basic rule 6, ``KT rules``)."""
        return self.ruleset.throwing_line(self, side)

    def opponent_cleared(self, side: Side) -> bool:
        """No kubb counts as standing in the opponent's half (``DM §10``)."""
        return not self.standing_in(opponent(side))

    def round_start_poses(self) -> dict[str, Pose]:
        """Poses of the standing kubbs and king (for the judge's ``round_start``)."""
        out = {k.id: k.pose for k in self.kubbs.values() if k.standing and not k.removed}
        return out

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """Everything the side (or player) to act may do now; empty when the match is over.

        A :class:`PlaceKubb` is listed with ``position=None``: any position for which
        :meth:`placement_error` returns None is legal.
        """
        ph = self.phase
        if ph == Phase.OVER:
            return []
        if ph == Phase.LAG:
            side: Side = "A" if "A" not in self.lag_results else "B"
            return [LagThrow(side)]
        if ph == Phase.CHOOSE:
            player, whats = self.choice_queue[0]
            out: list[Action] = []
            for what in whats:
                if what == "end":
                    out += [Choose(player, "end", s) for s in SIDES]
                elif what == "start":
                    out += [Choose(player, "start", p) for p in self.players]
                elif what == "advantage":
                    out += [Choose(player, "advantage", v) for v in ("tiebreak", "choices")]
            return out
        s = self._side()
        o = opponent(s)
        if ph == Phase.INKAST:
            return [Inkast(s, self.inkast_pending, self.inkast_attempt)]
        if ph == Phase.PENALTY:
            k = self.penalty_queue[0]
            if self.ruleset.penalty == "place" or self.penalty_number >= PENALTY_ALTERNATION_CAP:
                return [PlaceKubb(o, k, None, "penalty", o)]
            thrower = o if self.penalty_number % 2 == 0 else s
            return [PenaltyThrow(thrower, k, self.penalty_number + 1, s)]
        if ph == Phase.RAISE:
            return [Raise(o, tuple(sorted(self.to_raise)))]
        if ph == Phase.PLACE:
            k, reason, actor, half = self.place_queue[0]
            return [PlaceKubb(actor, k, None, reason, half)]
        if ph == Phase.TIEBREAK:
            remover, half = self.tb_pending_removals[0]
            cands, chooser = self.tiebreak_candidates(remover, half)
            return [RemoveTieBreakKubb(chooser, k, half) for k in cands]
        if ph == Phase.THROW:
            baton = BATON_IDS[self.batons_thrown % len(BATON_IDS)]
            member = self.batons_thrown % self.team_sizes[self.player_at(s)]
            if self.opponent_cleared(s):
                return [KingThrow(s, baton, self.pitch.baseline_x(s), member)]
            return [BatonThrow(s, baton, cast(float, self.line_x), member)]
        raise AssertionError(ph)

    def tiebreak_candidates(self, remover: Side, half: Side) -> tuple[list[str], Side]:
        """``DM §9`` step 3: the standing kubb nearest the baseline of ``half``; when several
        stand on that baseline (or tie), the owner of the half picks among them.

        Returns:
            (candidate kubb ids, side that chooses).
        """
        standing = self.standing_in(half)
        bx = self.pitch.baseline_x(half)
        dist = {k.id: abs(k.pose.position[0] - bx) for k in standing}
        best = min(dist.values())
        cands = [k for k, d in dist.items() if d <= best + 1e-6]
        return (cands, half) if len(cands) > 1 else (cands, remover)

    def is_legal(self, action: Action) -> bool:
        """True if ``action`` may be pushed now."""
        return self._legal_error(action) is None

    def placement_error(self, action: PlaceKubb) -> str | None:
        """Why the position of a :class:`PlaceKubb` is not allowed (ruleset rules), or None."""
        if action.position is None:
            return "a placed kubb needs a position"
        return self.ruleset.placement_error(self, action.kubb, action.half, action.position)

    def _legal_error(self, action: Action) -> str | None:
        if self._outcome is not None:
            return "the match is over"
        legal = self.legal_actions()
        if isinstance(action, PlaceKubb):
            if not any(replace(action, position=None) == a for a in legal):
                return f"{action_words(action)} is not legal now; legal: {legal_words(legal)}"
            return self.placement_error(action)
        if action not in legal:
            return f"{action_words(action)} is not legal now (phase {self.phase.value}); legal: {legal_words(legal)}"
        return None

    # ------------------------------------------------------------------ push
    def copy(self) -> "MatchState":
        """An independent copy: pushing the same actions and outcomes into the copy and into this
        state gives the same events and outcome, and neither push changes the other (python-chess
        ``Board.copy``). The ruleset and the pitch (frozen) are shared."""
        memo = {id(self.ruleset): self.ruleset, id(self.pitch): self.pitch}
        return copy.deepcopy(self, memo)

    def pop(self) -> tuple[Action, Any]:
        """Take back the last pushed action: the state becomes what it was before it (rebuilt by
        pushing the history again into a fresh state; its cost grows with the match).

        Returns:
            The (action, outcome) taken back.

        Raises:
            IndexError: nothing was pushed.
        """
        if not self.history:
            raise IndexError("pop from a match state with no actions")
        last = self.history[-1]
        fresh = MatchState(
            self.ruleset,
            self.players,
            sets=self.sets,
            time_limit_s=self.time_limit_s,
            round_cap=self.round_cap,
            team_sizes=self.team_sizes,
        )
        for action, outcome in self.history[:-1]:
            fresh.push(action, outcome)
        self.__dict__.update(fresh.__dict__)
        return last

    def push(self, action: Action, outcome: Any = None) -> list[Event]:
        """Apply an action and what physics and the judge made of it.

        Args:
            action: one of :meth:`legal_actions` (a :class:`PlaceKubb` with a position).
            outcome: :class:`LagResult` for a lag throw, :class:`ThrowOutcome` for baton and
                king throws, :class:`InkastOutcome` for inkasts and penalty throws, None else.

        Returns:
            The events this push produced.

        Raises:
            IllegalAction: the action is not legal now.
            TypeError: wrong outcome type for the action.
        """
        err = self._legal_error(action)
        if err is not None:
            raise IllegalAction(err)
        expected = {
            LagThrow: LagResult,
            BatonThrow: ThrowOutcome,
            KingThrow: ThrowOutcome,
            Inkast: InkastOutcome,
            PenaltyThrow: InkastOutcome,
        }.get(type(action))
        if expected is not None and not isinstance(outcome, expected):
            raise TypeError(
                f"{type(action).__name__} needs a {expected.__name__} outcome, got {type(outcome).__name__}"
            )
        n0 = len(self.events)
        self.history.append((action, outcome))
        handler = getattr(self, f"_push_{type(action).__name__}")
        handler(action, outcome)
        return self.events[n0:]

    # ------------------------------------------------------------------ helpers
    def _emit(
        self, kind: str, text: str, rules: Iterable[str] = (), side: Side | None = None, player: str | None = None
    ) -> None:
        if player is None and side is not None and self.set_no > 0:
            player = self.player_at(side)
        self.events.append(
            Event(round(self.clock, 3), self.set_no, self.turn_no, kind, text, tuple(rules), side, player)
        )

    def _tick(self, seconds: float) -> None:
        if self.play_started:
            self.clock += seconds

    def _finish(
        self, termination: Termination, winner: str | None, reason: str, points: Mapping[str, int] | None = None
    ) -> None:
        pts = dict(points) if points is not None else dict(self.set_wins)
        self._outcome = Outcome(termination, winner, pts, dict(self.set_wins), reason)
        self.phase = Phase.OVER
        self._emit("result", _over(winner, reason))

    # ------------------------------------------------------------------ lag and choices
    # pushed by the functions of kubb3d.rules.lag_phase
    _push_LagThrow = lag_phase.push_lag_throw
    _after_lag = lag_phase.after_lag
    _push_Choose = lag_phase.push_choose

    # ------------------------------------------------------------------ sets and turns
    # begun, ended and timed by the functions of kubb3d.rules.turns
    _start_set = turns.start_set
    _next_turn = turns.next_turn
    _push_RemoveTieBreakKubb = turns.push_remove_tie_break_kubb
    _end_turn = turns.end_turn
    _time_check = turns.time_check
    _start_tiebreak = turns.start_tiebreak
    _end_set = turns.end_set
    _swap_for_next_set = turns.swap_for_next_set

    def _side(self) -> Side:
        """The side whose turn it is (there is one from the first turn on)."""
        if self.turn_side is None:
            raise RuntimeError("no turn has begun yet")
        return self.turn_side

    # the inkast phase, pushed by the functions of kubb3d.rules.inkast_phase
    _push_Inkast = inkast_phase.push_inkast
    _apply_inkast = inkast_phase.apply_inkast
    _push_PenaltyThrow = inkast_phase.push_penalty_throw
    _push_PlaceKubb = inkast_phase.push_place_kubb
    _after_inkast = inkast_phase.after_inkast
    _push_Raise = inkast_phase.push_raise
    _after_raise = inkast_phase.after_raise
    _after_place = inkast_phase.after_place

    # the throwing phase, pushed by the functions of kubb3d.rules.throw_phase
    _begin_throwing = throw_phase.begin_throwing
    _push_BatonThrow = throw_phase.push_baton_throw
    _push_KingThrow = throw_phase.push_king_throw
    _throw = throw_phase.throw

    # ------------------------------------------------------------------ the round cap
    def _cap(self) -> None:
        ws = self.set_wins
        p0, p1 = self.players
        w: str | None
        if ws[p0] != ws[p1]:
            w = p0 if ws[p0] > ws[p1] else p1
            why = msg(
                "the cap of {cap} turns per set was reached (kubb3d's rule): {player} has won more sets "
                "({won} to {lost})",
                cap=self.round_cap,
                player=w,
                won=ws[w],
                lost=ws[p1 if w == p0 else p0],
            )
        else:
            b0, b1 = self.baseline_standing(self.end_of[p0]), self.baseline_standing(self.end_of[p1])
            w = None if b0 == b1 else (p0 if b0 > b1 else p1)
            if w is None:
                why = msg(
                    "the cap of {cap} turns per set was reached (kubb3d's rule): sets and baseline kubbs standing "
                    "are even ({n} each), a draw",
                    cap=self.round_cap,
                    n=b0,
                )
            else:
                why = msg(
                    "the cap of {cap} turns per set was reached (kubb3d's rule): {player} has more baseline kubbs "
                    "standing ({mine} to {theirs})",
                    cap=self.round_cap,
                    player=w,
                    mine=max(b0, b1),
                    theirs=min(b0, b1),
                )
        pts = self.ruleset.match_points(self, w, Termination.ROUND_CAP)
        self._finish(Termination.ROUND_CAP, w, why, pts)

    # ------------------------------------------------------------------ replay helpers
    def to_dict(self) -> dict[str, Any]:
        """A summary of the state (phase, clock, kubbs) for logs and tests."""
        return {
            "phase": self.phase.value,
            "set": self.set_no,
            "turn": self.turn_no,
            "turn_side": self.turn_side,
            "clock_s": self.clock,
            "set_wins": dict(self.set_wins),
            "ends": dict(self.end_of),
            "batons_left": self.batons_left,
            "line_x": self.line_x,
            "kubbs": {
                k: {
                    "half": i.half,
                    "baseline": i.baseline,
                    "standing": i.standing,
                    "removed": i.removed,
                    "position_m": list(i.pose.position),
                }
                for k, i in sorted(self.kubbs.items())
            },
            "outcome": None if self._outcome is None else self._outcome.to_dict(),
        }

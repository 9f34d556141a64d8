"""The rules engine's match state (python-chess style, no physics); its vocabulary lives in
:mod:`kubb3d.rules.actions`, :mod:`kubb3d.rules.outcomes` and :mod:`kubb3d.rules.ruleset`
(all importable from here), its inkast phase in :mod:`kubb3d.rules.inkast_phase`.

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
import math
from dataclasses import dataclass, fields, replace
from types import EllipsisType
from typing import Any, Iterable, Mapping, Sequence, cast

from kubb3d.equipment import get_set
from kubb3d.errors import IllegalAction as IllegalAction, MatchSetupError, OutcomeError
from kubb3d.judge.messages import concat, ids, join, msg, nmsg, piece_name
from kubb3d.judge.rulings import Pose
from kubb3d.pitch import BATON_IDS, SIDES, Side, as_side, opponent
from kubb3d.rules import inkast_phase
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
    action_from_dict as action_from_dict, action_words, choice_message, legal_words,
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


# ---------------------------------------------------------------------- state
@dataclass
class KubbInfo:
    """The engine's view of one kubb.

    Attributes:
        id: kubb id (``A1`` …).
        half: the half it stands (or lies) in.
        baseline: still a baseline kubb of ``half`` (never felled).
        standing: counts as standing (False: felled, waiting to be inkasted).
        pose: last known pose (baseline spot at the start; raised pose after an inkast).
        removed: taken out of the game as a tie-break kubb (``DM §9``).
    """

    id: str
    half: Side
    baseline: bool
    standing: bool
    pose: Pose
    removed: bool = False


@dataclass
class Event:
    """One line of the play-by-play.

    Attributes:
        clock_s: match clock when it happened, s.
        set_no, turn_no: 1-based; 0 before the first set / turn.
        kind: short tag (``lag``, ``throw``, ``inkast`` …).
        text: one readable sentence.
        rules: citations.
        side, player: who acted (None if nobody in particular).
    """

    clock_s: float
    set_no: int
    turn_no: int
    kind: str
    text: str
    rules: tuple[str, ...] = ()
    side: Side | None = None
    player: str | None = None

    def to_dict(self) -> dict[str, Any]:
        # every field is immutable (numbers, strings, a tuple of strings): a shallow dict in field
        # order is what asdict gave without its deep copies (1.5 % of a match's time)
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["rules"] = list(self.rules)
        return d


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
    def _push_LagThrow(self, a: LagThrow, r: LagResult) -> None:
        rs = self.ruleset
        self._tick(rs.time.lag_throw_s)
        self.lag_results[a.side] = r
        d = msg("off the pitch") if r.distance is None else msg("{d_cm:.1f} cm from the king", d_cm=r.distance * 100) \
            if rs.flicks else msg("{d_m:.3f} m from the king", d_m=r.distance)  # cm on the Kubbuteo board
        who = self.player_at(a.side)
        felled = (
            msg(", king felled")
            if r.king_felled
            else msg(", king hit")
            if r.king_hit and rs.lag_lost(r)
            else ""
        )
        lag = {"player": who, "end": a.side, "where": d, "felled": felled}
        self._emit(
            "lag",
            msg("{player} lag flick from end {end}: {where}{felled}", **lag)
            if rs.flicks
            else msg("{player} lag throw from end {end}: {where}{felled}", **lag),
            (rs.cite("lag"),),
            a.side,
            who,
        )
        if len(self.lag_results) < 2:
            return
        ra, rb = self.lag_results["A"], self.lag_results["B"]
        self.lag_results = {}
        winner_side: Side | None
        lost_a, lost_b = rs.lag_lost(ra), rs.lag_lost(rb)
        if lost_a != lost_b:
            winner_side = "B" if lost_a else "A"
        elif lost_a and lost_b:
            winner_side = None
        else:
            da = math.inf if ra.distance is None else ra.distance
            db = math.inf if rb.distance is None else rb.distance
            winner_side = None if da == db else ("A" if da < db else "B")
        if winner_side is None:
            tie = rs.lag_tie_winner(self)
            winner_side = None if tie is None else self.end_of[tie]
            if winner_side is None:
                tied = msg("lag flick tied: repeated") if rs.flicks else msg("lag throw tied: repeated")
                self._emit("lag", tied, (rs.cite("lag"),))
                return
        winner = self.player_at(winner_side)
        won = (
            msg("{player} wins the lag flick", player=winner)
            if rs.flicks
            else msg("{player} wins the lag throw", player=winner)
        )
        self._emit("lag", won, (rs.cite("lag"),), winner_side, winner)
        self._after_lag(winner)

    def _after_lag(self, winner: str) -> None:
        if self.lag_purpose == "start":
            if self.ruleset.lag_choice:
                self.phase = Phase.CHOOSE
                self.choice_queue = [(winner, ("end", "start"))]
            else:
                self.opener = winner
                self._start_set()
        elif self.lag_purpose == "tiebreak":
            self.tb_advantage = winner
            self.tb_stage = "advantage_pending"
            self._emit(
                "tiebreak",
                msg("{player} has the tie-break advantage", player=winner),
                (self.ruleset.cite("tiebreak"),),
                player=winner,
            )
            self._next_turn()
        elif self.lag_purpose == "decider":
            self.phase = Phase.CHOOSE
            self.choice_queue = [(winner, ("advantage",))]

    def _push_Choose(self, a: Choose, _: None) -> None:
        rs = self.ruleset
        self._tick(rs.time.choose_s)
        self.choice_queue.pop(0)
        other = self.players[1] if a.player == self.players[0] else self.players[0]
        if a.what == "advantage":
            adv, chooser = (a.player, other) if a.value == "tiebreak" else (other, a.player)
            self.tb_advantage = adv
            said = choice_message(a.player, a.what, a.value, other)
            self._emit("choice", said, (rs.cite("tiebreak_decider"),), player=a.player)
            self.choice_queue = [(chooser, ("end",)), (chooser, ("start",))]
            self._chosen = set()
            return
        if a.what == "end":
            end = as_side(a.value)
            self.end_of[a.player] = end
            self.end_of[other] = opponent(end)
        else:
            self.opener = a.value
        self._emit("choice", choice_message(a.player, a.what, a.value, other), (rs.cite("lag"),), player=a.player)
        self._chosen.add(a.what)
        if not self.choice_queue:
            remaining = tuple(w for w in ("end", "start") if w not in self._chosen)
            if remaining:
                self.choice_queue = [(other, remaining)]
        if not self.choice_queue:
            self._chosen = set()
            self._start_set()

    # ------------------------------------------------------------------ sets and turns
    def _start_set(self) -> None:
        rs = self.ruleset
        self.set_no += 1
        self.play_started = True
        self.kubbs = {}
        for side in SIDES:
            for kid, (x, y) in self.pitch.baseline_kubb_positions(side).items():
                self.kubbs[kid] = KubbInfo(kid, side, True, True, Pose((x, y, self._kubb_z)))
        self.king_standing = True
        self.turn_no = 0
        self.raise_at_end = set()
        opener_side = self.end_of[cast(str, self.opener)]
        ends = join([msg("{player} at end {end}", player=p, end=self.end_of[p]) for p in self.players])
        self._emit(
            "set",
            msg("set {n}: {ends}; {opener} opens", n=self.set_no, ends=ends, opener=self.opener),
            (rs.cite("sets"),),
            opener_side,
            self.opener,
        )
        if self.tb_decider:
            self.tb_stage = "decider_pending"
        self.turn_side = opponent(opener_side)
        self._next_turn()

    def _side(self) -> Side:
        """The side whose turn it is (there is one from the first turn on)."""
        if self.turn_side is None:
            raise RuntimeError("no turn has begun yet")
        return self.turn_side

    def _next_turn(self) -> None:
        rs = self.ruleset
        self.turn_side = opponent(self._side())
        self.turn_no += 1
        self.total_turns += 1
        self.batons_left = rs.batons_for_turn(self.turn_no)
        self.batons_thrown = 0
        self.king_throws = 0
        self.inkasted_this_turn = []
        self.to_raise = {}
        self.place_queue = []
        self.penalty_queue = []
        self.penalty_carry = []
        self.tb_pending_removals = []
        s = self._side()
        self._emit(
            "turn",
            nmsg(
                "turn {n}: {player} (end {end}) with {batons} baton",
                "turn {n}: {player} (end {end}) with {batons} batons",
                self.batons_left,
                n=self.turn_no,
                player=self.player_at(s),
                end=s,
                batons=self.batons_left,
            ),
            (rs.cite("schedule"),),
            s,
        )
        felled = self.felled_in(s)
        if felled:
            self.inkast_pending = tuple(felled)
            self.inkast_attempt = 1
            self.phase = Phase.INKAST
        else:
            self._after_raise()

    # the inkast phase, pushed by the functions of kubb3d.rules.inkast_phase
    _push_Inkast = inkast_phase.push_inkast
    _apply_inkast = inkast_phase.apply_inkast
    _push_PenaltyThrow = inkast_phase.push_penalty_throw
    _push_PlaceKubb = inkast_phase.push_place_kubb
    _after_inkast = inkast_phase.after_inkast
    _push_Raise = inkast_phase.push_raise
    _after_raise = inkast_phase.after_raise
    _after_place = inkast_phase.after_place

    def _push_RemoveTieBreakKubb(self, a: RemoveTieBreakKubb, _: None) -> None:
        rs = self.ruleset
        self._tick(rs.time.tiebreak_removal_s)
        k = self.kubbs[a.kubb]
        k.removed = True
        k.standing = False
        self.raise_at_end.discard(a.kubb)
        self._emit(
            "tiebreak",
            msg("tie-break kubb {kubb} removed from half {half}", kubb=a.kubb, half=a.half),
            (rs.cite("tiebreak"),),
            a.side,
        )
        self.tb_pending_removals.pop(0)
        if self.tb_pending_removals:
            return
        if self._removal_then == "throw":
            self._begin_throwing()
        else:
            self._next_turn()

    def _begin_throwing(self) -> None:
        s = self._side()
        self.line_x = self.throwing_line(s)
        self.phase = Phase.THROW
        if self.line_x != self.pitch.baseline_x(s):
            self._emit(
                "line",
                msg("{player} advances to the line x = {x_cm:.1f} cm", player=self.player_at(s), x_cm=self.line_x * 100)
                if self.ruleset.flicks else msg("{player} advances to the line x = {x:.2f} m", player=self.player_at(s),
                                                x=self.line_x),
                (self.ruleset.cite("advance"),),
                s,
            )

    def _push_BatonThrow(self, a: BatonThrow, r: ThrowOutcome) -> None:
        self._throw(a, r, king=False)

    def _push_KingThrow(self, a: KingThrow, r: ThrowOutcome) -> None:
        self._throw(a, r, king=True)

    def _throw(self, a: BatonThrow | KingThrow, r: ThrowOutcome, king: bool) -> None:
        rs = self.ruleset
        s, o = a.side, opponent(a.side)
        self._tick(rs.time.baton_throw_s)
        self.batons_left -= 1
        self.batons_thrown += 1
        if king:
            self.king_throws += 1
        counted = []
        for kid in sorted(r.felled):
            k = self.kubbs.get(kid)
            if k is None or k.removed or not k.standing or k.half != o:
                self._emit(
                    "note",
                    msg(
                        "{kubb} cannot be felled by this throw (not standing in half {half}); ignored", kubb=kid, half=o
                    ),
                    (),
                    s,
                )
                continue
            k.standing = False
            self.raise_at_end.discard(kid)
            counted.append(kid)
        for kid in sorted(r.raise_again):
            if kid in self.kubbs and self.kubbs[kid].standing:
                self.raise_at_end.add(kid)
        for kid, pose in r.poses.items():
            k = self.kubbs.get(kid)
            if k is not None and k.standing and kid not in self.raise_at_end:
                k.pose = pose
        where = {"n": self.batons_thrown, "baton": piece_name(a.baton), "x": a.line_x}
        if rs.flicks:  # KT rules: "flicks the six batons"; lengths on the board in cm
            at = {"n": self.batons_thrown, "baton": piece_name(a.baton), "x_cm": a.line_x * 100}
            what = (msg("king flick {n} ({baton}, line x = {x_cm:.1f} cm)", **at) if king
                    else msg("flick {n} ({baton}, line x = {x_cm:.1f} cm)", **at))
        else:
            what = (
                msg("king throw {n} ({baton}, line x = {x:.2f} m)", **where)
                if king
                else msg("throw {n} ({baton}, line x = {x:.2f} m)", **where)
            )
        pieces: list[str] = list(counted)
        if r.winner is not None or r.loser is not None:
            pieces.append(msg("the king"))  # the king fell (DM §1, §10)
        res = concat(
            msg("felled {pieces}", pieces=join(pieces)) if pieces else msg("nothing felled"),
            msg("; to be raised again: {kubbs}", kubbs=ids(sorted(r.raise_again))) if r.raise_again else "",
            msg("; illegal throw") if not r.legal else "",
        )
        self._emit(
            "throw",
            msg("{player} {what}: {result}", player=self.player_at(s), what=what, result=res),
            (rs.cite("king") if king else rs.cite("throw"),) + rs.line_cites(a.line_x != self.pitch.baseline_x(s)),
            s,
        )
        if r.winner is not None or r.loser is not None:
            if r.winner is not None and r.loser is not None and r.winner == r.loser:
                raise OutcomeError("throw outcome names the same side as winner and loser")
            win_side = r.winner if r.winner is not None else opponent(cast(Side, r.loser))
            if win_side == s and not (king and r.legal):
                raise OutcomeError(
                    f"the judge gave the win to the thrower {s} for a throw that was not a legal king throw"
                )
            self.king_standing = False
            if win_side == s:
                self._end_set(
                    self.player_at(s),
                    Termination.KING,
                    msg(
                        "{player} felled the king with a king throw ({rule})",
                        player=self.player_at(s),
                        rule=rs.cite("king"),
                    ),
                )
            else:
                self._end_set(
                    self.player_at(o),
                    Termination.EARLY_KING,
                    msg(
                        "{player} felled the king early ({rule})", player=self.player_at(s), rule=rs.cite("early_king")
                    ),
                )
            return
        limit = rs.king_throws_per_turn
        if self.batons_left <= 0 or (king and limit is not None and self.king_throws >= limit):
            self._end_turn()

    def _end_turn(self) -> None:
        rs = self.ruleset
        s = self._side()
        if self.raise_at_end:
            self._emit(
                "raise",
                nmsg(
                    "raised again at its original spot: {kubbs}",
                    "raised again at their original spots: {kubbs}",
                    len(self.raise_at_end),
                    kubbs=ids(sorted(self.raise_at_end)),
                ),
                (rs.cite("early_baseline"),),
                s,
            )
        self.raise_at_end = set()
        self._tick(rs.time.change_ends_s)
        if self._time_check():
            self._emit(
                "clock",
                msg(
                    "time limit of {minutes:.0f} min reached; the turn in progress was finished",
                    minutes=(self.time_limit_s or 0.0) / 60,
                ),
                (rs.cite("time"),),
            )
            res = rs.time_up_result(self)
            if res is not None:
                self._outcome = res
                self.phase = Phase.OVER
                self._emit("result", _over(res.winner, res.reason))
                return
            self._start_tiebreak()
            return
        if self.turn_no >= self.round_cap:
            self._cap()
            return
        if self.tb_stage == "advantage_turn":
            self.tb_stage = "every"
        if self.tb_stage == "decider_pending" and self.turn_no == 3:
            adv_side = self.end_of[cast(str, self.tb_advantage)]
            self.tb_stage = "every"
            if self.standing_in(opponent(adv_side)):
                self.tb_pending_removals = [(adv_side, opponent(adv_side))]
                self._removal_then = "next_turn"
                self.phase = Phase.TIEBREAK
                return
        self._next_turn()

    def _time_check(self) -> bool:
        """True once, when the clock first passes the time limit (checked at turn and set ends)."""
        if self.time_limit_s is not None and self.clock >= self.time_limit_s and not self.time_expired:
            self.time_expired = True
            return True
        return False

    def _start_tiebreak(self) -> None:
        """``DM §9`` step 2: a second lag throw decides the tie-break advantage."""
        self.lag_purpose = "tiebreak"
        self.phase = Phase.LAG
        self.lag_results = {}

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

    def _end_set(self, winner: str, termination: Termination, reason: str) -> None:
        rs = self.ruleset
        self.set_wins[winner] += 1
        self.set_winners.append(winner)
        self._emit(
            "set", msg("set {n} to {player}: {reason}", n=self.set_no, player=winner, reason=reason), (), player=winner
        )
        need = self.sets // 2 + 1
        p0, p1 = self.players
        if self.set_wins[winner] >= need:
            pts = rs.match_points(self, winner, termination)
            self._finish(
                termination if self.sets == 1 else Termination.SETS,
                winner,
                reason
                if self.sets == 1
                else msg(
                    "{player} won {won} of best-of-{sets} sets ({rule})",
                    player=winner,
                    won=self.set_wins[winner],
                    sets=self.sets,
                    rule=rs.cite("sets"),
                ),
                pts,
            )
            return
        if self._time_check():
            self._emit(
                "clock",
                msg(
                    "time limit of {minutes:.0f} min reached at the end of set {n}",
                    minutes=(self.time_limit_s or 0.0) / 60,
                    n=self.set_no,
                ),
                (rs.cite("time"),),
            )
        if self.time_expired:
            if self.set_wins[p0] != self.set_wins[p1]:
                w = p0 if self.set_wins[p0] > self.set_wins[p1] else p1
                why = msg("time is up and {player} leads in sets ({rule})", player=w, rule=rs.cite("tiebreak_decider"))
                self._finish(Termination.TIME, w, why)
                return
            self.tb_decider = True
            self.tb_stage = None
            self.tb_advantage = None
            self.lag_purpose = "decider"
            self.phase = Phase.LAG
            self._tick(rs.time.set_break_s)
            self._emit(
                "tiebreak",
                msg("sets level after the time limit: a deciding set in tie-break, third lag throw"),
                (rs.cite("tiebreak_decider"),),
            )
            self._swap_for_next_set()
            self.opener = None
            return
        self._tick(rs.time.set_break_s)
        self._swap_for_next_set()
        self._start_set()

    def _swap_for_next_set(self) -> None:
        """``DM §3``: after each set the players change ends and the right to open."""
        p0, p1 = self.players
        self.end_of = {p0: self.end_of[p1], p1: self.end_of[p0]}
        if self.opener is not None:
            self.opener = p1 if self.opener == p0 else p0

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

"""What differs between rulesets (:class:`Ruleset`, one subclass per rule book in its own module),
the clock's time model, and the registry that finds a ruleset by name."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Sequence, cast

from kubb3d.equipment import get_set
from kubb3d.errors import UnknownNameError
from kubb3d.judge.geometry import rot
from kubb3d.judge.messages import N_, Nn_, msg, piece_object
from kubb3d.judge.rulebook import Rulebook, canonical_ruleset, get_rulebook, rulebook_names
from kubb3d.pitch import KING_ID, Pitch, Side
from kubb3d.rules.outcomes import LagResult, Outcome, Termination

if TYPE_CHECKING:
    from kubb3d.rules.core import KubbInfo, MatchState


# ---------------------------------------------------------------------- time

EVENT_OPTIONS = {
    "schedule": "opening",
    "advance": "advance_line",
    "time": "time_up",
    "tiebreak": "time_up",
    "tiebreak_decider": "time_up",
}
"""The ruleset option that decides the play-by-play events of a rule key (:meth:`Ruleset.cite`):
the batons of a turn, the advance line, what happens when time is up."""

@dataclass(frozen=True)
class TimeModel:
    """Simulated seconds each action takes, so that clocks run headless and deterministically.

    kubb3d's estimates from ordinary tournament play (a DM turn of six batons with a few
    inkasts takes about a minute; a DM set 15–25 minutes); override for experiments.

    Attributes:
        lag_throw_s: one lag throw including measuring (``DM §3``).
        choose_s: one choice of end or opener.
        baton_throw_s: one baton throw, from picking it up to the next throw.
        change_ends_s: between two turns: batons and kubbs collected, thrower ready.
        inkast_per_kubb_s: throwing one kubb into the opponent's half (``DM §6``).
        penalty_throw_s: one penalty throw.
        raise_per_kubb_s: raising one inkasted kubb (``DM §7``).
        place_s: placing one penalty kubb or stößel by hand.
        tiebreak_removal_s: taking out a tie-break kubb (``DM §9``).
        set_break_s: between two sets.
    """

    lag_throw_s: float = 15.0
    choose_s: float = 10.0
    baton_throw_s: float = 6.0
    change_ends_s: float = 15.0
    inkast_per_kubb_s: float = 4.0
    penalty_throw_s: float = 6.0
    raise_per_kubb_s: float = 4.0
    place_s: float = 6.0
    tiebreak_removal_s: float = 5.0
    set_break_s: float = 60.0


# ---------------------------------------------------------------------- ruleset
def own_field_kubbs(state: "MatchState", side: Side) -> list["KubbInfo"]:
    """The field kubbs standing in ``side``'s own half now, by where they stand (a kubb pushed
    across the centre line is not one of them: ``DM §8``, WS basic rule 6, KT rules)."""
    f = state.pitch.forward(side)
    return [k for k in state.standing_in(side) if not k.baseline and f * k.pose.position[0] <= 0.0]


@dataclass(frozen=True)
class Ruleset:
    """What differs between rulesets; subclasses are found by name with :func:`get_ruleset`.

    Attributes:
        name: registry name (``dm``, ``wikinger``).
        equipment: equipment set name (:mod:`kubb3d.equipment`).
        pitch: the pitch.
        ground: ground name (:mod:`kubb3d.physics.ground`).
        team_size: players per side (1 for a duel).
        sets: default number of sets (best of ``sets``).
        time_limit_s: default time limit, s (None: none).
        lag_choice: True: the lag winner chooses end or opener (``DM §3``); False: the lag
            winner opens (WS "Sequence of Play").
        king_throws_per_turn: None for no limit.
        penalty: ``throw`` (``DM §6``) or ``place`` (``WS basic rule 11``).
        min_king_distance_m: a placed penalty kubb's centre at least this far from the king.
        time: the time model.
        flicks: the batons and kubbs are flicked, not thrown (``KT rules``: "flicking",
            "after each flick"): the play-by-play names lag, baton and king flicks and returns.
        penalty_words: play-by-play line for kubbs that become penalty kubbs, for one kubb and
            for several (``{kubbs}``: their ids).
        advance_line: referee option (:mod:`kubb3d.judge.options`): the advance line passes
            through the field kubb's ``centre``, its ``front edge`` (towards the centre line) or
            its ``back edge`` (towards the own baseline).
        penalty_distance: referee option: ``min_king_distance_m`` is measured ``centre`` to
            centre or as the ``gap`` between the placed kubb and the king.
        opening: referee option: batons per turn of a set, ``"2-4-6"`` (``DM §4``), ``"6-6-6"``
            (WS basic rule 2, KT rules) or any schedule (:func:`kubb3d.judge.options.baton_schedule`).
        time_up: referee option: once the time limit is reached and the turn finished, the
            ``tie-break kubbs`` of ``DM §9`` or ``count baseline kubbs`` (WS "End of the Game"):
            more sets won, then more of one's own baseline kubbs standing wins, else a draw.
    """

    name: str = "base"
    equipment: str = "standard"
    pitch: Pitch = field(default_factory=Pitch)
    ground: str = "grass"
    team_size: int = 1
    sets: int = 1
    time_limit_s: float | None = None
    lag_choice: bool = True
    king_throws_per_turn: int | None = 1
    penalty: str = "throw"
    min_king_distance_m: float = 0.0
    time: TimeModel = field(default_factory=TimeModel)
    flicks: bool = False
    penalty_words: tuple[str, str] = Nn_("{kubbs} invalid twice: penalty kubb", "{kubbs} invalid twice: penalty kubbs")
    advance_line: str = "centre"
    penalty_distance: str = "centre"
    opening: str = "6-6-6"
    time_up: str = "tie-break kubbs"

    def __post_init__(self) -> None:
        from kubb3d.judge.options import baton_schedule

        object.__setattr__(self, "opening", baton_schedule(self.opening))  # ValueError for a bad one

    @property
    def book(self) -> Rulebook:
        """This ruleset's rule book: citations, judge tolerances, throwing limits, options
        (:mod:`kubb3d.judge.rulebook`).

        Raises:
            UnknownNameError: no rule book is registered under :attr:`name`.
        """
        return get_rulebook(self.name)

    def cite(self, key: str, option: str | None = None) -> str:
        """Citation for a rule key (``lag``, ``schedule``, ``advance`` …; the rule book's
        :attr:`~kubb3d.judge.rulebook.Rulebook.events`), or the ruleset's name. Where a referee
        option decides the event (``option``, else :data:`EVENT_OPTIONS` of the key) and this
        ruleset sets it to another value than the rule book's default, the option
        (``option opening=4-6-6``: DM §4 says 2-4-6; docs/rules.md "Decisions where the rule books
        are silent")."""
        from kubb3d.judge.options import default, option_cite

        name = option or EVENT_OPTIONS.get(key)
        if name is not None:
            value = getattr(self, name)
            try:
                changed = value != default(name, self.name)
            except ValueError:  # a ruleset without a rule book or default of its own (OptionError …)
                changed = False
            if changed:
                return option_cite(name, value)
        return self.book.events.get(key, self.name)

    def line_cites(self, advanced: bool) -> tuple[str, ...]:
        """What a throw from an ``advanced`` line cites besides the throwing rule: the option
        ``advance_line`` where it is not the rule book's default (it put the line there), else
        nothing (the line event cites the advance rule)."""
        cite = self.cite("advance")
        return (cite,) if advanced and cite.startswith("option ") else ()

    def batons_for_turn(self, turn_no: int) -> int:
        """Batons in the ``turn_no``-th turn of a set (1-based) under :attr:`opening`.

        Raises:
            ValueError: ``turn_no`` < 1.
        """
        from kubb3d.judge.options import batons_in_turn

        return batons_in_turn(self.opening, turn_no)

    def time_up_result(self, state: "MatchState") -> Outcome | None:
        """Called at the end of a turn once the clock passed the time limit: an Outcome to end
        the match, or None (then :meth:`MatchState._start_tiebreak` runs), by :attr:`time_up`:
        under ``count baseline kubbs`` the player with more sets wins, then the one with more of
        its own baseline kubbs standing (WS "End of the Game"), else it is a draw."""
        if self.time_up != "count baseline kubbs":
            return None
        p0, p1 = state.players
        ws = state.set_wins
        if ws[p0] != ws[p1]:
            winner: str | None = p0 if ws[p0] > ws[p1] else p1
            reason = msg("time is up and {player} leads in sets ({rule})", player=winner, rule=self.cite("time"))
        else:
            b0, b1 = state.baseline_standing(state.end_of[p0]), state.baseline_standing(state.end_of[p1])
            winner = None if b0 == b1 else (p0 if b0 > b1 else p1)
            reason = msg(
                "time is up with {b0}:{b1} baseline kubbs standing ({rule})", b0=b0, b1=b1, rule=self.cite("time")
            )
        points = self.match_points(state, winner, Termination.TIME)
        return Outcome(Termination.TIME, winner, dict(ws) if points is None else points, dict(ws), reason)

    def match_points(
        self, state: "MatchState", winner: str | None, termination: "Termination"
    ) -> dict[str, int] | None:
        """Points of the finished match (None: the sets won)."""
        return None

    def lag_lost(self, result: LagResult) -> bool:
        """Whether a lag throw loses the lag whatever the distances: it felled the king (``DM §3``
        "eine Berührung des Königs ist dabei erlaubt. Fällt er jedoch, ...")."""
        return result.king_felled

    def lag_tie_winner(self, state: "MatchState") -> str | None:
        """Player who wins a tied lag (both felled the king, or equal distances); None: the
        lag is repeated (``DM §3``)."""
        return None

    def throwing_line(self, state: "MatchState", side: Side) -> float:
        """x of ``side``'s throwing line, m: its baseline, or the line through its standing
        field kubb nearest the centre line (``DM §8``, WS basic rule 6), on the kubb's centre,
        its edge towards the centre line or its edge towards the baseline (referee option
        ``advance_line``; WS basic rule 7: "The tip of the foot must stay behind the frontmost
        pawn"): the edge of its base square as it is turned, so a kubb turned about the
        vertical puts the back edge on its rearmost corner. Only a kubb standing in the side's
        own half counts ("in der eigenen Feldhälfte", "in one's own field"): one pushed across
        the centre line gives no line."""
        f = state.pitch.forward(side)
        line = state.pitch.baseline_x(side)
        edge = {"centre": 0.0, "front edge": 1.0, "back edge": -1.0}[self.advance_line]
        hw = get_set(self.equipment).kubb.width / 2
        for k in own_field_kubbs(state, side):
            # the edge of the base square as it lies: a kubb turned about the vertical reaches
            # hw·(|cos| + |sin|) along the pitch, not hw
            r = rot(k.pose.quat_xyzw)
            reach = hw * (abs(r[0][0]) + abs(r[0][1]))
            x = k.pose.position[0] + edge * f * reach
            if f * (x - line) > 0:
                line = x
        return line

    def split_misses(self, missed: Sequence[str], attempt: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Which of the kubbs that landed invalid in inkast attempt ``attempt`` (in throwing
        order) are thrown again and which become penalty kubbs: (rethrow, penalty).

        Default (``DM §6``, WS basic rule 11): after the first attempt all are thrown again
        (in id order); after the second all are penalty kubbs."""
        missed = tuple(sorted(missed))
        return (missed, ()) if attempt == 1 else ((), missed)

    def placement_error(self, state: "MatchState", kubb: str, half: Side, position: tuple[float, float]) -> str | None:
        """Why a hand-placed kubb at ``position`` (m) is not allowed, or None.

        Default: the kubb's footprint must lie inside ``half`` (``DM §7`` "gesamte Grundfläche
        im Feld"), its centre at least ``min_king_distance_m`` + half a kubb from the king, and
        its square overlapping no standing kubb, the king or a stake by more than 0.1 mm.
        """
        x, y = position
        hw = get_set(self.equipment).kubb.width / 2
        p = self.pitch
        lo, hi = (-p.length / 2, 0.0) if half == "A" else (0.0, p.length / 2)
        if not (lo + hw <= x <= hi - hw and abs(y) <= p.half_width - hw):
            return msg("the kubb's footprint must lie inside half {half} ({rule})", half=half, rule=self.cite("place"))
        eq = get_set(self.equipment)
        king = eq.king.width / 2
        need = self.min_king_distance_m + (hw + king if self.penalty_distance == "gap" else 0.0)
        need = max(need, king + hw)
        if math.hypot(x, y) < need:
            return msg(
                "the kubb must stand at least {need_m:.2f} m from the king ({rule})",
                need_m=need,
                rule=self.cite("place", "penalty_distance"),
            )
        # no overlap with a standing kubb, the king or a stake (its footprint is a free spot)
        mine = _square((x, y), 0.0, hw)
        Square = list[tuple[float, float]]
        others: list[tuple[str, Square]] = [(piece_object(KING_ID), _square(self.pitch.king_position, 0.0, king))]
        for oid, k in sorted(state.kubbs.items()):
            if oid != kubb and k.standing and not k.removed:
                qx, qy, qz, qw = k.pose.quat_xyzw
                others.append(
                    (
                        oid,
                        _square(
                            k.pose.position[:2], math.atan2(2 * (qw * qz + qx * qy), 1 - 2 * (qy * qy + qz * qz)), hw
                        ),
                    )
                )
        if eq.stake is not None:
            for sid, xy in sorted(self.pitch.stake_positions().items()):
                others.append((sid, _square(xy, 0.0, eq.stake.radius)))
        from kubb3d.judge.geometry import overlap_depth

        for oid, poly in others:
            if overlap_depth(mine, poly) > 1e-4:
                return msg("the kubb would overlap {other} ({rule})", other=oid, rule=self.cite("place"))
        return None


PLACE_REASONS = (N_("penalty"), N_("stößel"))
"""Why a kubb is placed by hand (``PlaceKubb.reason``): a penalty kubb (WS basic rule 11) or a
stößel (DM §7)."""


def _over(winner: str | None, reason: str) -> str:
    """The play-by-play's last line."""
    if winner is None:
        return msg("match over: draw — {reason}", reason=reason)
    return msg("match over: {player} wins — {reason}", player=winner, reason=reason)


def _square(centre: tuple[float, float], yaw: float, half: float) -> list[tuple[float, float]]:
    """CCW square of half side ``half`` (m) centred on ``centre`` and turned by ``yaw`` (rad)."""
    c, s = math.cos(yaw), math.sin(yaw)
    cx, cy = float(centre[0]), float(centre[1])
    return [
        (cx + half * (sx * c - sy * s), cy + half * (sx * s + sy * c))
        for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1))
    ]


_RULESETS: dict[str, type[Ruleset]] = {}


def register_ruleset(cls: type[Ruleset]) -> type[Ruleset]:
    """Class decorator: register a :class:`Ruleset` subclass under its default ``name``.

    Reads the field's default rather than building an instance, so no method of the class runs
    while its module is still being imported (mutmut's trampolines are set up after the class).
    """
    _RULESETS[cast(str, next(f.default for f in fields(cls) if f.name == "name"))] = cls
    return cls


def get_ruleset(name: str, **overrides: Any) -> Ruleset:
    """A ruleset by name (``dm``, ``wikinger``) or its rule book's short name (``ws``, ``kt``),
    with field overrides. The built-in rulesets are registered by :mod:`kubb3d.rules`, which
    Python runs before this module (its package) whichever way it is imported.

    Raises:
        UnknownNameError: unknown name (the message lists the known ones).
    """
    cls = _RULESETS.get(name)
    if cls is None and name not in _RULESETS:
        try:
            cls = _RULESETS.get(canonical_ruleset(name))
        except ValueError:
            cls = None
    if cls is None:
        raise UnknownNameError(f"unknown ruleset {name!r}; expected one of {sorted(_RULESETS)}")
    return cls(**overrides)


def ruleset_names() -> list[str]:
    """The rulesets a match can be played under, sorted: the registered rule books
    (:func:`kubb3d.judge.rulebook.rulebook_names`) that have a rules-engine class."""
    return sorted(n for n in rulebook_names() if n in _RULESETS)

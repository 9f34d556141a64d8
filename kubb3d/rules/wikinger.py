"""Wikinger-Schach tournament rules for teams (rule book ``WS``).

========================  ====================================================  =====================
rule                      kubb3d                                                source
========================  ====================================================  =====================
pitch, set                5 × 7.5 m, ``standard`` set                            WS "The Playing Field"
teams                     ``team_size`` players (default 6), baton *i* thrown   WS basic rule 4
                          by player *i* mod team size
lag throw                 one throw each; nearer starts; a team that hits the   WS "Sequence of Play"
                          king loses the lag; both hit or equal: the left team
                          (first listed) starts; no choice of ends
turns                     six batons every turn, no 2-4-6 opening              WS basic rule 2
throwing line             baseline or the own front field kubb                  WS basic rule 6
foot faults, helicopter   illegal throw, fallen kubbs stood up again (judge)    WS basic rules 5, 7
field before baseline     as DM (judge)                                         WS basic rule 8
inkast                    one rethrow of the invalid kubbs; then the opponent   WS basic rule 11
                          places them freely in its own half, at least one
                          baton length (0.30 m) from the king
raising                   after all kubbs are in                                WS basic rules 10, 12
king                      from the baseline once the half is clear; every       WS "End of the Game"
                          remaining baton of the turn may be thrown at it
clock                     20 min from the start of play; the turn in progress   WS basic rule 1, "End
                          is finished; more baseline kubbs standing: 1 point,   of the Game"
                          equal: draw (0 points each); king win: 2 points
ranking                   points, head-to-head, then the Stechen                WS "Tie-Break After the
                                                                                Group Stage"
========================  ====================================================  =====================

Decisions where WS is silent:

* The early king of either kind (baton or inkasted kubb) gives the opponent 2 points.
* A placed penalty kubb's centre must be at least one baton length (0.30 m, standard set)
  from the king's centre and its footprint inside the half.
* Round cap (:mod:`kubb3d.rules.core`): scored like the clock (1 point for more baseline
  kubbs, else a draw).
* Stechen: each team throws the six batons (its two players alternating) within one
  minute of simulated time; throws that would end after the minute are not made. Teams
  level at the top throw another Stechen among themselves.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Sequence

from kubb3d.errors import IllegalAction, MatchSetupError, OutcomeError
from kubb3d.equipment import get_set
from kubb3d.pitch import PITCHES, Pitch
from kubb3d.rules.actions import action_words, legal_words
from kubb3d.rules.core import LagResult, MatchState, Ruleset, Termination, TimeModel, register_ruleset


WIN_POINTS = 2
"""Points for a win by the king or the opponent's early king (WS "End of the Game")."""
CLOCK_WIN_POINTS = 1
"""Points for more baseline kubbs when the clock has run out (WS "End of the Game")."""


@register_ruleset
@dataclass(frozen=True)
class Wikinger(Ruleset):
    """``WS``: teams, 20-minute clock, free placement of penalty kubbs, 2/1/0 points."""

    name: str = "wikinger"
    equipment: str = "standard"
    pitch: Pitch = field(default_factory=lambda: PITCHES["wikinger"])
    team_size: int = 6
    sets: int = 1
    time_limit_s: float | None = 20 * 60.0
    lag_choice: bool = False
    king_throws_per_turn: int | None = None
    penalty: str = "place"
    min_king_distance_m: float = field(default_factory=lambda: get_set("standard").baton.length)
    advance_line: str = "back edge"  # WS basic rule 7: the toe behind the frontmost pawn

    opening: str = "6-6-6"  # WS basic rule 2: the team receives all six batons every turn
    time_up: str = "count baseline kubbs"  # WS "End of the Game": 1 point for more baseline kubbs standing

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.team_size < 1:
            raise MatchSetupError(f"team size must be >= 1, got {self.team_size}")

    def lag_lost(self, result: LagResult) -> bool:
        """A lag baton that hit the king, felled or not, loses the lag (WS "Sequence of Play":
        "If the king is hit, the other team automatically gains the right to throw")."""
        return result.king_felled or result.king_hit

    def lag_tie_winner(self, state: MatchState) -> str | None:
        """Both teams hit the king, or equal distances: the left team starts, no re-throw (kubb3d's
        reading of WS "Sequence of Play": "The team listed on the left side of the game schedule
        starts"; WS has no re-throw, docs/rules.md row "WS Sequence of Play (tie)")."""
        return state.players[0]

    def match_points(self, state: MatchState, winner: str | None, termination: Termination) -> dict[str, int]:
        """2 for a win by the king (or the opponent's early king); 1/0 by baseline count for
        the clock and the round cap; a draw gives 0 each (WS "End of the Game")."""
        pts = {p: 0 for p in state.players}
        if winner is not None:
            pts[winner] = WIN_POINTS if termination in (Termination.KING, Termination.EARLY_KING) else CLOCK_WIN_POINTS
        return pts


# ---------------------------------------------------------------------- group stage
@dataclass(frozen=True)
class GameResult:
    """One group game: the two teams and the points each got (2/1/0)."""

    team1: str
    team2: str
    points1: int
    points2: int


def group_ranking(results: Sequence[GameResult]) -> list[tuple[str, ...]]:
    """Rank a group (WS "Tie-Break After the Group Stage").

    Teams are ordered by points; two teams level on points are ordered by their
    head-to-head game; a head-to-head draw, or three or more teams level, leaves a tier of
    several teams that a :class:`Stechen` decides.

    Returns:
        Tiers in ranking order; a tier of one team is decided, a longer tier needs a Stechen.
    """
    pts: dict[str, int] = defaultdict(int)
    h2h: dict[tuple[str, str], int] = defaultdict(int)
    for g in results:
        pts[g.team1] += g.points1
        pts[g.team2] += g.points2
        h2h[(g.team1, g.team2)] += g.points1 - g.points2
        h2h[(g.team2, g.team1)] += g.points2 - g.points1
    by_pts: dict[int, list[str]] = defaultdict(list)
    for t, p in pts.items():
        by_pts[p].append(t)
    tiers: list[tuple[str, ...]] = []
    for p in sorted(by_pts, reverse=True):
        teams = sorted(by_pts[p])
        if len(teams) == 2:
            a, b = teams
            d = h2h.get((a, b), 0)
            if d > 0:
                tiers += [(a,), (b,)]
                continue
            if d < 0:
                tiers += [(b,), (a,)]
                continue
        tiers.append(tuple(teams))
    return tiers


@dataclass(frozen=True)
class StechenThrow:
    """One baton of a Stechen: ``team``'s ``player`` (0 or 1) throws ``baton`` at the six kubbs."""

    team: str
    player: int
    baton: str


@dataclass
class Stechen:
    """The playoff after the group stage (WS "Tie-Break After the Group Stage"): every team in
    turn, two players, one minute, six baseline kubbs; most kubbs felled advances.

    Args:
        teams: the tied teams, in throwing order.
        kubbs: baseline kubbs to fell (6).
        batons: batons per team (6, kubb3d's choice: one set of batons).
        time_s: the minute, s.
        time: per-throw time model.

    Raises:
        MatchSetupError: fewer than two teams.
    """

    teams: Sequence[str]
    kubbs: int = 6
    batons: int = 6
    time_s: float = 60.0
    time: TimeModel = field(default_factory=TimeModel)
    felled: dict[str, int] = field(default_factory=dict)
    _team_index: int = 0
    _thrown: int = 0
    _elapsed: float = 0.0

    def __post_init__(self) -> None:
        if len(self.teams) < 2 or len(set(self.teams)) != len(self.teams):
            raise MatchSetupError(f"a Stechen needs at least two different teams, got {list(self.teams)}")
        self.felled = {t: 0 for t in self.teams}

    def _team_done(self) -> bool:
        t = self.teams[self._team_index]
        return (
            self._thrown >= self.batons
            or self.felled[t] >= self.kubbs
            or self._elapsed + self.time.baton_throw_s > self.time_s
        )

    def legal_actions(self) -> list[StechenThrow]:
        """The next throw, or [] when every team has thrown."""
        while self._team_index < len(self.teams) and self._team_done():
            self._team_index += 1
            self._thrown, self._elapsed = 0, 0.0
        if self._team_index >= len(self.teams):
            return []
        t = self.teams[self._team_index]
        return [StechenThrow(t, self._thrown % 2, f"baton{self._thrown + 1}")]

    def push(self, action: StechenThrow, felled: int) -> None:
        """Record a throw that felled ``felled`` more kubbs (a kubb knocked with the foot is
        not pushed: the referee stands it up, WS)."""
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalAction(f"{action_words(action)} is not legal now; legal: {legal_words(legal)}")
        if felled < 0:
            raise OutcomeError(f"felled must be >= 0, got {felled}")
        t = action.team
        self.felled[t] = min(self.kubbs, self.felled[t] + felled)
        self._thrown += 1
        self._elapsed += self.time.baton_throw_s

    def result(self) -> tuple[str | None, tuple[str, ...]]:
        """(winner, teams level at the top); the winner is None while throws remain or when
        several teams are level (they throw another Stechen).
        """
        if self.legal_actions():
            return None, ()
        best = max(self.felled.values())
        top = tuple(t for t in self.teams if self.felled[t] == best)
        return (top[0], top) if len(top) == 1 else (None, top)

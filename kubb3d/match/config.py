"""The configuration of a match: with its seed, everything that determines it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping

from kubb3d.errors import OptionError
from kubb3d.judge.options import BY_NAME, option_value
from kubb3d.rules import get_ruleset
from kubb3d.rules.core import DEFAULT_ROUND_CAP


@dataclass(frozen=True)
class MatchConfig:
    """Everything that determines a match (with the seed, the whole match).

    Attributes:
        ruleset: ``dm``, ``wikinger`` or ``kubbuteo`` (:func:`kubb3d.rules.ruleset_names`).
        skills: skill preset of each side's player (team), e.g. ``("club", "club")``.
        names: player (team) names; default ``P1``/``P2`` (a duel) or ``T1``/``T2`` (teams).
        seed: root seed.
        sets: best of ``sets`` (None: ruleset default).
        time_limit_s: time limit, s; None: none; -1: ruleset default (WS 20 min).
        round_cap: turns per set before the match is cut off (:mod:`kubb3d.rules.core`).
        team_size: WS players per team (None: ruleset default 6); a pair gives each team's size.
        ground: ground name.
        trajectory_hz: sampling rate of trajectories in the replay, Hz.
        strategies: each side's strategy name (:data:`kubb3d.players.STRATEGIES`).
        options: the referee's options that differ from the ruleset's defaults, as sorted
            (name, value) pairs (:mod:`kubb3d.judge.options`; ``--option NAME=VALUE``).
        difficulty: the release error of a person's throws (:data:`kubb3d.match.human.DIFFICULTIES`;
            ``exact``: none); simulated players keep their ``skills``.

    Raises:
        OptionError: an unknown referee option or a value it does not take.
    """

    ruleset: str = "dm"
    skills: tuple[str, str] = ("club", "club")
    names: tuple[str, str] | None = None
    seed: int = 0
    sets: int | None = None
    time_limit_s: float | None = -1.0
    round_cap: int = DEFAULT_ROUND_CAP
    team_size: int | tuple[int, int] | None = None
    ground: str = "grass"
    trajectory_hz: float = 15.0
    strategies: tuple[str, str] = ("default", "default")
    options: tuple[tuple[str, Any], ...] = ()
    difficulty: str = "exact"

    def __post_init__(self) -> None:
        from kubb3d.match.human import check_difficulty

        check_difficulty(self.difficulty)
        if isinstance(self.options, Mapping):
            object.__setattr__(self, "options", tuple(sorted(self.options.items())))
        for name, value in self.options:
            if name not in BY_NAME:
                from kubb3d.ranges import unknown_option

                raise OptionError(unknown_option(name))
            option_value(name, value)

    def player_names(self) -> tuple[str, str]:
        """The names given, else ``T1``/``T2`` for a ruleset of teams, ``P1``/``P2`` for a duel."""
        if self.names is not None:
            first, second = self.names
            return (first, second)
        return ("T1", "T2") if get_ruleset(self.ruleset).team_size > 1 else ("P1", "P2")

    def new_state(self, ruleset: Any):
        """A fresh :class:`~kubb3d.rules.MatchState` of this match under ``ruleset`` (a ruleset
        object): its players, sets, team sizes (when given), turn cap and time limit (a negative
        limit: the clock runs without one)."""
        from kubb3d.rules import MatchState

        names = self.player_names()
        ts = self.team_size
        sizes = None
        if ts is not None:
            pair = (ts, ts) if isinstance(ts, int) else tuple(ts)
            sizes = dict(zip(names, (int(x) for x in pair)))
        tl = self.time_limit_s
        return MatchState(
            ruleset,
            names,
            sets=self.sets,
            time_limit_s=(... if tl is not None and tl < 0 else tl),
            round_cap=self.round_cap,
            team_sizes=sizes,
        )

    def to_dict(self) -> dict:
        """The configuration as the replay's header keeps it (options only when set)."""
        d = asdict(self)
        d["skills"] = list(self.skills)
        d["strategies"] = list(self.strategies)
        if isinstance(self.team_size, tuple):
            d["team_size"] = list(self.team_size)
        d["names"] = list(self.player_names())
        if self.options:
            d["options"] = dict(self.options)
        else:
            del d["options"]  # replays of matches with the defaults stay as they were
        if self.difficulty == "exact":
            del d["difficulty"]  # likewise
        return d

    @classmethod
    def from_dict(cls, d: Mapping) -> MatchConfig:
        """Inverse of :meth:`to_dict` (lists back to tuples)."""
        kw = {f.name: d[f.name] for f in fields(cls) if f.name in d}
        kw["skills"] = tuple(kw.get("skills", ("club", "club")))
        kw["strategies"] = tuple(kw.get("strategies", ("default", "default")))
        if isinstance(kw.get("team_size"), list):
            kw["team_size"] = tuple(kw["team_size"])
        if kw.get("names") is not None:
            kw["names"] = tuple(kw["names"])
        kw["options"] = tuple(sorted(dict(kw.get("options") or {}).items()))
        return cls(**kw)

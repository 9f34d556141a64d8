"""``kubb3d tournament``: a Wikinger-Schach group stage played in physics (rule book ``WS``).

Every team plays every other once (a whole simulated WS match, 20-minute clock, points 2/1/0,
WS basic rule 1 and "Points"); the group is ranked by points, then head to head, and teams
still level throw the Stechen in physics (WS "Tie-Break After the Group Stage":
:class:`kubb3d.rules.wikinger.Stechen`).

kubb3d's decisions where the rule book is silent:

* Stechen set-up: the six pawns stand at equal distances along B's baseline between the corner
  sticks (seven gaps, like the five baseline kubbs' six); the team throws its six batons from
  A's baseline, its two players alternating; no king is set up (only pawns count).
* A Stechen throw that breaks a throwing rule (WS basic rule 5: no helicopter) fells nothing:
  the pawns it knocked are set up again.
* Teams level after a Stechen throw another among themselves, at most
  :data:`MAX_STECHEN_ROUNDS` times; after that their order is by team name.
* The whole group ranking, not only the first place, is decided this way.

Seeds: match ``k`` (in the order of :func:`pairings`) plays with seed
``SeedSequence(seed, spawn_key=(0, k))``; Stechen round ``r`` of the tier starting at rank
``i`` with ``SeedSequence(seed, spawn_key=(1, i, r))``, so results do not depend on how many
processes play the matches.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from kubb3d.errors import MatchSetupError, UnknownNameError
from kubb3d.ranges import unknown_name
from kubb3d.rules.wikinger import GameResult, Stechen, group_ranking
from kubb3d.workers import process_pool

MAX_STECHEN_ROUNDS = 5
"""Stechen rounds among the same level teams before the order falls back to team names."""


def pairings(teams: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair once (round robin), in a fixed order."""
    return [(a, b) for i, a in enumerate(teams) for b in teams[i + 1:]]


def _seed(*key: int, root: int) -> int:
    return (
        int(
            np.random.SeedSequence(root, spawn_key=key).generate_state(2, dtype=np.uint32).astype(np.uint64)
            @ np.array([1, 2**32], dtype=np.uint64)
        )
        >> 1
    )


def play_game(args) -> tuple[GameResult, str, str]:
    """One group game in physics: a whole WS match between two teams (picklable arguments:
    team1, team2, skill1, skill2, seed, ground, replay path or None). Returns the result, how
    the game ended (a ``Termination`` name in lower case: ``king``, ``time``, ``round_cap`` …)
    and the referee's reason (one English sentence with its rule)."""
    from kubb3d.match import MatchConfig, play

    team1, team2, skill1, skill2, seed, ground, replay = args
    config = MatchConfig(ruleset="wikinger", names=(team1, team2), skills=(skill1, skill2), seed=seed, ground=ground)
    outcome, match = play(config, replay=replay)
    close = getattr(match, "close", None)
    if close is not None:
        close()
    result = GameResult(team1, team2, int(outcome.points.get(team1, 0)), int(outcome.points.get(team2, 0)))
    return result, outcome.termination.name.lower(), str(outcome.reason)


def stechen_positions(pitch) -> list[tuple[float, float]]:
    """(x, y) of the six Stechen pawns on B's baseline, m (module doc)."""
    x = pitch.baseline_x("B")
    gap = pitch.width / 7
    return [(x, -pitch.half_width + gap * (i + 1)) for i in range(6)]


def throw_stechen(teams: Sequence[str], skills: dict[str, str], seed: int, ground: str = "grass") -> Stechen:
    """One Stechen in physics among ``teams`` (in throwing order); returns the finished
    :class:`Stechen` (its ``felled`` per team and :meth:`Stechen.result`)."""
    from kubb3d.physics.world import World
    from kubb3d.pitch import PITCHES
    from kubb3d.players import Player, get_skill
    from kubb3d.throw import aim_point, throw

    pitch = PITCHES["wikinger"]
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    st = Stechen(tuple(teams))
    world: World | None = None
    down: set[str] = set()
    current = None
    try:
        while True:
            legal = st.legal_actions()
            if not legal:
                break
            action = legal[0]
            if action.team != current:  # a fresh set-up for each team
                if world is not None:
                    world.close()
                world = World("standard", pitch, ground)
                for i, (x, y) in enumerate(stechen_positions(pitch)):
                    world.add_piece(f"S{i + 1}", "kubb", (x, y, world.equipment.kubb.height / 2), side="B")
                down, current = set(), action.team
            assert world is not None
            player = Player(action.team, get_skill(skills[action.team]))
            standing = [
                (k, True, tuple(float(v) for v in world.pose(k)[0]), True)
                for k in world.piece_ids("kubb")
                if k not in down
            ]
            felled = 0
            if standing:
                target = player.choose_target("A", standing, pitch.baseline_x("A"))
                aim_pt = aim_point(world, target)
                _, params = player.baton_throw(
                    world.equipment, pitch, "A", pitch.baseline_x("A"), aim_pt, rng, dt=world.quiet_dt
                )
                r = throw(world, params, baton=action.baton, ruleset="wikinger")
                new = {k for k in r.toppled if k.startswith("S")} - down
                if r.legal:
                    down |= new
                    felled = len(new)
                else:  # the referee sets them up again
                    h = world.equipment.kubb.height / 2
                    for k in sorted(new):
                        i = int(k[1:]) - 1
                        x, y = stechen_positions(pitch)[i]
                        world.set_pose(k, (x, y, h))
                    world.run_until_rest(2.0)
            st.push(action, felled)
    finally:
        if world is not None:
            world.close()
    return st


@dataclass
class TournamentResult:
    """A played group.

    Attributes:
        teams: team names.
        skills: team → skill preset.
        games: the group games.
        ranking: teams in rank order.
        points: team → group points.
        stechen: the Stechen rounds thrown: (teams, felled per team) each.
        endings: per game (in the order of ``games``) how it ended and the referee's reason, as
            :func:`play_game` returns them; ``("", "")`` where the player gave none.
    """

    teams: list[str]
    skills: dict[str, str]
    games: list[GameResult]
    ranking: list[str]
    points: dict[str, int]
    stechen: list[tuple[tuple[str, ...], dict[str, int]]] = field(default_factory=list)
    endings: list[tuple[str, str]] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "teams": self.teams,
            "skills": self.skills,
            "games": [
                {**asdict(g), "ended": how, "reason": why}
                for g, (how, why) in zip(self.games, self.endings or [("", "")] * len(self.games))
            ],
            "ranking": [
                {"rank": i + 1, "team": t, "points": self.points[t], "skill": self.skills[t]}
                for i, t in enumerate(self.ranking)
            ],
            "stechen": [{"teams": list(ts), "felled": f} for ts, f in self.stechen],
        }


def rank_group(
    games: Sequence[GameResult], skills: dict[str, str], seed: int, ground: str = "grass"
) -> tuple[list[str], list]:
    """Rank by points and head to head (:func:`group_ranking`), teams still level by Stechen in
    physics (module doc). Returns (ranking, Stechen rounds)."""
    ranking: list[str] = []
    rounds: list = []
    for tier in group_ranking(games):
        pending = [tuple(tier)]
        while pending:
            level = pending.pop(0)
            if len(level) == 1:
                ranking.append(level[0])
                continue
            start = len(ranking)
            order = None
            for r in range(MAX_STECHEN_ROUNDS):
                st = throw_stechen(level, skills, _seed(1, start, r, root=seed), ground)
                rounds.append((tuple(level), dict(st.felled)))
                by = sorted(set(st.felled.values()), reverse=True)
                groups = [tuple(t for t in level if st.felled[t] == v) for v in by]
                if len(groups) > 1 or r == MAX_STECHEN_ROUNDS - 1:
                    order = groups
                    break
            assert order is not None
            if len(order) == 1:  # still all level after the last round: by name
                ranking.extend(sorted(order[0]))
                continue
            pending = list(order) + pending
    return ranking, rounds


def run_tournament(
    n_teams: int,
    seed: int,
    *,
    skills: Sequence[str] | None = None,
    ground: str = "grass",
    workers: int = 1,
    replay_dir: Path | None = None,
    play: Callable = play_game,
    progress: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Play a WS group of ``n_teams`` teams (``T1`` … ``Tn``) in physics and rank it.

    Args:
        n_teams: 2 to 16.
        seed: root seed (module doc).
        skills: a preset per team (default ``club`` for all).
        ground: the ground of every game and Stechen.
        workers: processes for the group games (the result does not depend on it).
        replay_dir: write each game's replay there (``T1-T2.jsonl`` …).
        play: plays one game from :func:`play_game`'s arguments and returns what it returns, or
            only the :class:`GameResult` (tests pass a stand-in).
        progress: called with 1 after each game.

    Raises:
        MatchSetupError: team count or skills out of range.
    """
    from kubb3d.players import SKILLS

    if not 2 <= n_teams <= 16:
        raise MatchSetupError(f"teams must be from 2 to 16, got {n_teams}")
    teams = [f"T{i + 1}" for i in range(n_teams)]
    sk = list(skills) if skills is not None else ["club"] * n_teams
    if len(sk) != n_teams:
        raise MatchSetupError(f"give one skill per team ({n_teams}), got {len(sk)}")
    for s in sk:
        if s not in SKILLS:
            raise UnknownNameError(unknown_name("skill", s, SKILLS))
    skill_of = dict(zip(teams, sk))
    jobs = []
    for k, (a, b) in enumerate(pairings(teams)):
        replay = None if replay_dir is None else str(Path(replay_dir) / f"{a}-{b}.jsonl")
        jobs.append((a, b, skill_of[a], skill_of[b], _seed(0, k, root=seed), ground, replay))
    games: list[GameResult] = []
    endings: list[tuple[str, str]] = []

    def keep(played) -> None:
        game, how, why = played if isinstance(played, tuple) else (played, "", "")
        games.append(game)
        endings.append((how, why))
        if progress:
            progress(1)

    if workers <= 1 or play is not play_game:
        for j in jobs:
            keep(play(j))
    else:
        with process_pool(workers) as pool:
            for played in pool.map(play, jobs):
                keep(played)
    points = {t: 0 for t in teams}
    for g in games:
        points[g.team1] += g.points1
        points[g.team2] += g.points2
    ranking, rounds = rank_group(games, skill_of, seed, ground)
    return TournamentResult(teams, skill_of, games, ranking, points, rounds, endings)

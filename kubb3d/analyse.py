"""Win probability of a recorded match after its actions, and the choices a player had (issue #33
item 3).

:func:`win_curve` estimates each side's win probability after action *k* by rollouts: the match
is continued from action *k* + 1 with fresh seeds (:func:`kubb3d.whatif.continue_match`, sample
*j* with the match seed :func:`kubb3d.whatif.sample_seed` (seed, *j*)), so the point after action
*k* is ``kubb3d whatif REPLAY --at k+1`` with the same seed and samples. The point before the
first action (``after`` = −1) continues from action 0; the point after the last action is the
match's own ending, found by the rules engine from the recorded actions (no rollout).
:func:`moves` lists the steps of the curve; :func:`alternatives` compares the choices at one
action (each standing target of a baton throw, a few inkast spots) with the same seeds.

Intervals are 95 % Wilson intervals (:func:`kubb3d.experiment.stats.wilson`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from kubb3d.experiment.stats import wilson
from kubb3d.judge.messages import number_text
from kubb3d.pitch import opponent
from kubb3d.ranges import counted
from kubb3d.whatif import (
    MAX_SAMPLES,
    Choice,
    Continuation,
    Recorded,
    WhatIfError,
    check_at,
    continue_match,
    describe_action,
    sample_seed,
    state_at,
    summarise,
    whatif,
)

INKAST_DEPTHS = (0.25, 0.5, 0.75)
"""Inkast spots compared by :func:`alternatives`: fractions of the distance from the centre line
to the target half's baseline, on the long axis; the middle one also a quarter of the pitch's
width to either side."""


@dataclass(frozen=True)
class Point:
    """Each side's win probability after one action.

    Attributes:
        after: the action index (−1: before the first action).
        wins: player name → samples that player won.
        draws: samples that ended in a draw.
        samples: rollouts behind the point (0 for the exact final point).
        exact: the match is over after this action: ``wins`` and ``draws`` are its own ending (1 or 0).
    """

    after: int
    wins: dict[str, int]
    draws: int
    samples: int
    exact: bool = False

    @property
    def total(self) -> int:
        return self.samples if not self.exact else 1

    def p(self, player: str | None) -> float:
        """Win probability of ``player`` (None: a draw)."""
        k = self.draws if player is None else self.wins[player]
        return k / self.total

    def ci95(self, player: str | None) -> tuple[float, float]:
        """95 % Wilson interval of :meth:`p` ((p, p) for an exact point)."""
        if self.exact:
            return (self.p(player), self.p(player))
        return wilson(self.draws if player is None else self.wins[player], self.samples)


def analysed_actions(last: int, every: int) -> list[int]:
    """The actions a curve has a point after: −1 (before the first), 0, ``every``, 2·``every`` …
    and ``last`` (the final action) always."""
    if every < 1:
        raise WhatIfError(f"--every: expected 1 or more, got {every}")
    return [-1, *sorted(set(range(0, last + 1, every)) | {last})]


def _final(recorded: Recorded) -> Point:
    """The point after the last action: the rules engine's outcome of the recorded actions."""
    last = max(recorded.actions)
    outcome = state_at(recorded, last + 1).outcome()
    if outcome is None:
        raise WhatIfError(f"{recorded.path.name}: the match does not end after its last action {last} "
                           "(an interrupted replay); finish it with kubb3d match --resume")
    winner = outcome.to_dict()["winner"]
    return Point(last, {p: int(p == winner) for p in recorded.players}, int(winner is None), 0, exact=True)


def win_curve(
    recorded: Recorded,
    samples: int,
    *,
    every: int = 1,
    seed: int = 1,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> list[Point]:
    """The points of :func:`analysed_actions` (``every``), each from ``samples`` rollouts with
    the seeds :func:`sample_seed` (``seed``, 0 … samples − 1); the same whatever ``workers``
    (processes). ``progress(done, total)`` after each rollout.

    Raises:
        WhatIfError: ``samples`` outside 1 … MAX_SAMPLES, ``every`` or ``workers`` below 1, an
            interrupted replay, or as :func:`continue_match`.
        ReplayError: as :func:`continue_match`.
    """
    if not 1 <= samples <= MAX_SAMPLES:
        raise WhatIfError(f"--samples: expected from 1 to {MAX_SAMPLES}, got {samples}")
    if workers < 1:
        raise WhatIfError(f"--workers: expected 1 or more, got {workers}")
    last = max(recorded.actions)
    afters = analysed_actions(last, every)
    final = _final(recorded)
    tasks = [(after, j) for after in afters if after < last for j in range(samples)]
    seeds = [sample_seed(seed, j) for j in range(samples)]
    done: dict[tuple[int, int], Continuation] = {}

    def record(task: tuple[int, int], result: Continuation) -> None:
        done[task] = result
        if progress is not None:
            progress(len(done), len(tasks))

    if workers == 1:
        for after, j in tasks:
            record((after, j), continue_match(recorded, after + 1, seed=seeds[j]))
    else:
        from concurrent.futures import as_completed

        from kubb3d.workers import process_pool

        with process_pool(min(workers, len(tasks) or 1)) as pool:
            futures = {
                pool.submit(continue_match, recorded, after + 1, seed=seeds[j]): (after, j) for after, j in tasks
            }
            for future in as_completed(futures):
                record(futures[future], future.result())
    points = []
    for after in afters:
        if after == last:
            points.append(final)
            continue
        results = [done[(after, j)] for j in range(samples)]
        points.append(
            Point(
                after,
                {p: sum(1 for r in results if r.winner == p) for p in recorded.players},
                sum(1 for r in results if r.winner is None),
                samples,
            )
        )
    return points


def moves(recorded: Recorded, points: list[Point], top: int = 5) -> list[dict[str, Any]]:
    """The ``top`` steps of the curve by how far they moved the first player's win probability
    (largest first; ties by action): per step the actions it spans (``first`` … ``last``), the
    last one described, the probabilities before and after and the change."""
    player = recorded.players[0]
    steps: list[dict[str, Any]] = []
    for before, point in zip(points, points[1:]):
        steps.append(
            {
                "first": before.after + 1,
                "last": point.after,
                "action": describe_action(recorded, point.after),
                "player": player,
                "before": before.p(player),
                "after": point.p(player),
                "change": point.p(player) - before.p(player),
            }
        )
    steps.sort(key=lambda step: (-abs(step["change"]), step["last"]))
    return steps[:top]


@dataclass(frozen=True)
class Alternative:
    """One choice at an action and how the continuations ended."""

    label: str
    choice: Choice
    results: list[Continuation]


def choices_at(recorded: Recorded, at: int) -> list[tuple[str, Choice]]:
    """The choices the player had at action ``at``: the player's own (fresh seeds) first, then
    for a baton throw every kubb standing in the target half, for an inkast the spots of
    :data:`INKAST_DEPTHS` (pitch coordinates, m).

    Raises:
        WhatIfError: ``at`` out of range, or an action that is neither a baton throw nor an inkast.
    """
    check_at(recorded, at)
    action = recorded.actions[at][1]
    kind = action["type"]
    if kind not in ("BatonThrow", "Inkast"):
        raise WhatIfError(
            f"--alternatives: action {at} is {kind}; expected a BatonThrow (targets) or an Inkast (spots)"
        )
    state = state_at(recorded, at)
    half = opponent(action["side"])
    own: list[tuple[str, Choice]] = [("own choice", Choice())]
    if kind == "BatonThrow":
        return own + [(f"at {k.id}", Choice(target=k.id)) for k in state.standing_in(half)]
    pitch = state.pitch
    depth = pitch.baseline_x(half)
    spots = [(f * depth, 0.0) for f in INKAST_DEPTHS]
    spots += [(INKAST_DEPTHS[1] * depth, s * pitch.half_width / 2) for s in (-1.0, 1.0)]
    return own + [
        (f"inkast at ({number_text(x, '.2f')}, {number_text(y, '.2f')}) m", Choice(inkast_at=(x, y))) for x, y in spots
    ]


def alternatives(
    recorded: Recorded,
    at: int,
    samples: int,
    *,
    seed: int = 1,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> list[Alternative]:
    """Every choice of :func:`choices_at` played on with :func:`kubb3d.whatif.whatif` (``samples``,
    the same seeds for each, so the choices meet the same releases); ``progress(done, total)``."""
    choices = choices_at(recorded, at)
    total = len(choices) * samples
    out: list[Alternative] = []
    done = 0

    def advance(j: int, result: Continuation) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    for label, choice in choices:
        results = whatif(recorded, at, samples, seed=seed, choice=choice, workers=workers, progress=advance)
        out.append(Alternative(label, choice, results))
    return out


def alternatives_document(recorded: Recorded, at: int, seed: int, found: list[Alternative]) -> dict[str, Any]:
    """The ``analyse --at --alternatives --json`` document: the action, its player and, per
    choice, :func:`kubb3d.whatif.summarise` of its continuations."""
    action = recorded.actions[at][1]
    player = state_at(recorded, at).player_at(action["side"])
    return {
        "replay": str(recorded.path),
        "at": at,
        "action": describe_action(recorded, at),
        "player": player,
        "seed": seed,
        "alternatives": [
            {"label": alt.label, "choice": alt.choice.to_dict(), "summary": summarise(recorded.players, alt.results)}
            for alt in found
        ],
    }


def curve_document(
    recorded: Recorded, points: list[Point], *, samples: int, every: int, seed: int, top: int = 5
) -> dict[str, Any]:
    """The ``analyse --json`` document: settings, the match's own ending, per point each
    player's and the draws' probability with its interval, and the :func:`moves`."""
    played = recorded.outcome or {}

    def rate(point: Point, player: str | None) -> dict[str, Any]:
        return {"p": point.p(player), "ci95": list(point.ci95(player))}

    return {
        "replay": str(recorded.path),
        "samples": samples,
        "every": every,
        "seed": seed,
        "players": list(recorded.players),
        "played": {"winner": played.get("winner"), "termination": played.get("termination")},
        "points": [
            {
                "after": point.after,
                "action": None if point.after < 0 else describe_action(recorded, point.after),
                "samples": point.samples,
                "exact": point.exact,
                "wins": {p: rate(point, p) for p in recorded.players},
                "draws": rate(point, None),
            }
            for point in points
        ],
        "moves": moves(recorded, points, top),
    }


def write_png(recorded: Recorded, points: list[Point], path: Any, top: int = 5) -> None:
    """A PNG of the curve (:func:`curve_figure`)."""
    import matplotlib.pyplot as plt

    fig = curve_figure(recorded, points, top)
    fig.savefig(path, dpi=110, format="png")
    plt.close(fig)


def curve_figure(recorded: Recorded, points: list[Point], top: int = 5) -> Any:
    """The curve as a matplotlib figure: each player's win probability after each analysed
    action with its 95 % band, dotted lines at turn boundaries, the ``top`` moves marked; the
    actions on the x axis at whole numbers (an action 2.5 does not exist)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(10, 4.2))
    x = [p.after for p in points]
    for player, colour in zip(recorded.players, ("#1f5fa8", "#c0392b")):
        low, high = zip(*(p.ci95(player) for p in points))
        ax.fill_between(x, low, high, color=colour, alpha=0.18, lw=0, step=None)
        ax.plot(x, [p.p(player) for p in points], "o-", ms=3, color=colour, label=f"{player} wins")
    if any(p.draws for p in points):
        ax.plot(x, [p.p(None) for p in points], ":", color="grey", label="draw")
    for world_at, _ in recorded.worlds:
        ax.axvline(world_at - 0.5, color="grey", lw=0.5, ls=":")
    first = recorded.players[0]
    for step in moves(recorded, points, top):
        if step["change"] == 0:
            continue
        ax.annotate(
            f"{step['last']}",
            (step["last"], step["after"]),
            textcoords="offset points",
            xytext=(0, 8 if step["change"] > 0 else -14),
            ha="center",
            fontsize=8,
            color="#1f5fa8",
        )
    n = max(p.samples for p in points)
    ax.set_ylim(-0.04, 1.1)
    span = points[-1].after + 1
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ticks = [int(t) for t in ax.get_xticks() if 0.06 * span <= t <= points[-1].after]
    ax.set_xticks([-1, *ticks], ["start", *(str(t) for t in ticks)])
    ax.set_xlabel("after action (dotted: turn boundaries; numbers: the biggest moves of " + first + "'s chance)")
    ax.set_ylabel("win probability")
    ax.set_title(f"{recorded.path.name}: win probability, {counted(n, 'rollout')} per point, 95 % Wilson band")
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    return fig

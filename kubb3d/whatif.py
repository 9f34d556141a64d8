"""What-if from any moment of a recorded match (issue #33 item 2).

:func:`continue_match` plays a replay's match again up to action *k* and on to its end, from
action *k* on with another root seed (or the replay's own) and optionally another choice at
action *k* (:class:`Choice`: the kubb a baton is thrown at, where an inkast is aimed);
:func:`whatif` does it for *N* seeds and :func:`summarise` gives each side's win probability
with its 95 % Wilson interval, the turns left and how the samples ended.

How the world at action *k* is rebuilt: the replay is cut after its last ``world`` record at or
before *k* (a turn boundary, where the match itself rebuilds the world from recorded poses) and
resumed there with :meth:`kubb3d.match.Match.resume`; the actions from that boundary up to *k*
are played again with the replay's own seeds, and each must give the recorded line byte for
byte (else :class:`WhatIfError`: the replay was made by another version of the physics). So the
world at *k* is the one the match had, not one rebuilt from rounded poses, and continuing with
the replay's own seed gives the replay's own ending bit for bit (every record from action *k*
on; the ``outcome`` record's ``glitches`` counts those since the turn boundary only, as after
``kubb3d match --resume``).

Seeds: sample *j* of root seed *s* plays from action *k* on with the match seed
:func:`sample_seed` (*s*, *j*); the per-action generators of :mod:`kubb3d.match` then draw
from it. Same *s*, same samples, bit for bit.
"""

from __future__ import annotations

import json
import math
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from kubb3d.errors import WhatIfError as WhatIfError
from kubb3d.experiment.stats import wilson
from kubb3d.files import ReplayError
from kubb3d.pitch import opponent

MAX_SAMPLES = 100_000
"""The most samples one what-if may ask for."""


@dataclass(frozen=True)
class Choice:
    """Another choice at the chosen action, instead of the simulated player's own.

    Attributes:
        target: id of the kubb a baton throw is aimed at (``B3`` …); the action must be a
            baton throw at kubbs and the kubb one that stands in the target half then.
        inkast_at: (x, y) m, pitch coordinates (``A`` baseline at x = −L/2): where the first
            kubb of an inkast is aimed; the later ones keep the player's own spacing from it.
            The point must lie in the half the kubbs are thrown into.
    """

    target: str | None = None
    inkast_at: tuple[float, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"target": self.target, "inkast_at": None if self.inkast_at is None else list(self.inkast_at)}


@dataclass(frozen=True)
class Recorded:
    """A replay read for what-ifs: its lines, and per action index its line (0-based index
    into ``lines``), action and outcome (dicts as recorded)."""

    path: Path
    lines: list[str]
    header: dict
    actions: dict[int, tuple[int, dict, dict | None]]
    worlds: list[tuple[int, int]]
    """(action index, line index) of every ``world`` record, in file order."""
    outcome: dict | None

    @property
    def players(self) -> tuple[str, str]:
        names = self.header["config"].get("names") or ("P1", "P2")
        return (str(names[0]), str(names[1]))


def read_recorded(path: str | Path, *, warn: bool = True) -> Recorded:
    """Read and validate a replay (:func:`kubb3d.replay.read_replay`) for what-ifs. Its warning
    of a cut-off file (``warn``) is given only once the replay is accepted: a refusal is the one
    line a command prints.

    Raises:
        ReplayError: unreadable file, not a replay, a bad record (file, line, field named), no
            configuration, a player a person played (``kubb3d play``), no action, or a gap in the
            action numbers.
    """
    import warnings

    from kubb3d.replay import read_replay

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rp = read_replay(path, warn=warn)
    recorded = _validated(rp)
    for warning in caught:
        warnings.showwarning(warning.message, warning.category, warning.filename, warning.lineno)
    return recorded


def _validated(rp) -> Recorded:
    if rp.header.config is None:
        raise ReplayError(f"{rp.path}:1: config: missing (a what-if needs the match configuration)")
    if rp.header.people:  # their throws are no simulated player's: action 1 on never replays as recorded
        raise ReplayError(
            f"{rp.path}:1: people: {', '.join(rp.header.people)} played by a person (kubb3d play); a what-if "
            "replays every action with the simulated players, so it needs a match of kubb3d match --replay"
        )
    actions: dict[int, tuple[int, dict, dict | None]] = {}
    worlds: list[tuple[int, int]] = []
    outcome = None
    for n, record, raw in rp.records:
        if record.type == "action":
            actions[record.i] = (n - 1, raw["action"], raw.get("outcome"))
        elif record.type == "world":
            worlds.append((record.i, n - 1))
        else:
            outcome = raw
    if not actions:
        raise ReplayError(f"{rp.path}: no action recorded; a what-if needs at least one")
    missing = sorted(set(range(max(actions) + 1)) - set(actions))
    if missing:
        raise ReplayError(f"{rp.path}: action {missing[0]} is missing (actions are numbered from 0 without gaps)")
    header = dict(rp.header_dict)
    header["config"] = {**header["config"], "names": list(_names(rp.header.config.model_dump()))}
    return Recorded(rp.path, rp.lines, header, actions, worlds, outcome)


def _names(config: dict) -> tuple[str, str]:
    from kubb3d.match import MatchConfig

    return MatchConfig.from_dict(config).player_names()


def sample_seed(seed: int, sample: int) -> int:
    """The match seed of sample ``sample`` (0-based) of a what-if with root seed ``seed``: 63
    bits of ``SeedSequence(seed, spawn_key=(sample,))``, so samples are independent and the same
    for the same root seed."""
    words = np.random.SeedSequence(seed, spawn_key=(sample,)).generate_state(2, np.uint32)
    return int(words[0]) << 31 | int(words[1]) >> 1


@dataclass(frozen=True)
class Continuation:
    """One match continued from action *k* to its end.

    Attributes:
        seed: the match seed from action *k* on (None: the replay's own).
        outcome: the outcome's dict (:meth:`kubb3d.rules.Outcome.to_dict`): ``winner`` (None
            for a draw), ``termination`` (``KING``, ``EARLY_KING``, ``SETS``, ``TIME``,
            ``ROUND_CAP``), ``points``, ``sets``, ``reason``.
        turns_left: turns begun after action *k* (the turn in progress not counted).
        actions_left: actions from *k* to the end, *k* included.
        clock_left_s: simulated seconds from action *k* to the end.
        lines: the replay lines written from action *k* on (kept when asked), else empty.
    """

    seed: int | None
    outcome: dict
    turns_left: int
    actions_left: int
    clock_left_s: float
    lines: tuple[str, ...] = field(default=(), repr=False)

    @property
    def winner(self) -> str | None:
        return self.outcome["winner"]

    @property
    def termination(self) -> str:
        return str(self.outcome["termination"])


def describe_action(recorded: Recorded, at: int) -> str:
    """The action ``at`` in a few words (``B baton throw, baton 3``; ``A inkast, B1,B4``; a
    choice in the match's own sentence, ``P2 decides that P2 opens``), for the report: the
    action's type in words, not its class name (``BatonThrow``), a baton as the play-by-play
    names it."""
    import re

    action = recorded.actions[at][1]
    kind = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", str(action["type"])).lower()  # BatonThrow → baton throw
    if kind == "choose":
        from kubb3d.rules.actions import choice_message

        player = str(action.get("player"))
        other = next((name for name in recorded.players if name != player), player)
        return choice_message(player, str(action.get("what")), str(action.get("value")), other)
    words = [f"{action['side']} {kind}" if action.get("side") else kind]
    if action.get("baton"):
        baton = str(action["baton"])
        words.append(f"baton {baton[5:]}" if baton.startswith("baton") and baton[5:].isdigit() else baton)
    if action.get("kubb"):
        words.append(str(action["kubb"]))
    if action.get("kubbs"):
        words.append(",".join(action["kubbs"]))
    return ", ".join(words)


def check_at(recorded: Recorded, at: int) -> None:
    """WhatIfError unless ``at`` is an action of the replay."""
    last = max(recorded.actions)
    if not 0 <= at <= last:
        raise WhatIfError(f"--at: expected an action of {recorded.path.name} from 0 to {last}, got {at}")


def state_at(recorded: Recorded, at: int) -> Any:
    """The rules engine's :class:`~kubb3d.rules.MatchState` before action ``at``: the recorded
    actions and outcomes pushed (no physics).

    Raises:
        ReplayError: a recorded action that does not fit the match.
    """
    from kubb3d.match import Match, MatchConfig
    from kubb3d.rules import action_from_dict, outcome_from_dict

    match = Match(MatchConfig.from_dict(recorded.header["config"]))  # no world until it plays
    match.close()
    state = match.state
    for i in range(at):
        line, action, outcome = recorded.actions[i]
        try:
            state.push(action_from_dict(action), outcome_from_dict(outcome))
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            why = " ".join(str(exc).split())[:200]
            raise ReplayError(f"{recorded.path}:{line + 1}: recorded action does not fit the match: {why}") from None
    return state


ACTION_WORDS = {
    "LagThrow": "a lag throw",
    "Choose": "a choice of who opens",
    "Inkast": "an inkast",
    "PenaltyThrow": "a penalty kubb thrown",
    "PlaceKubb": "a penalty kubb placed",
    "Raise": "a raising",
    "RemoveTieBreakKubb": "a tie-break kubb taken out",
    "BatonThrow": "a baton throw",
    "KingThrow": "a king throw",
}
"""Each action type of a replay (:data:`kubb3d.rules.actions.ACTION_TYPES`) in the words of a
refusal: "action 10 is an inkast, not a baton throw" (it once named the classes, "action 10 is
Inkast, expected BatonThrow")."""


def action_words(kind: str) -> str:
    """An action type of a replay in words (:data:`ACTION_WORDS`); an unknown one as it is."""
    return ACTION_WORDS.get(kind, kind)


def check_choice(recorded: Recorded, at: int, choice: Choice) -> None:
    """WhatIfError for a choice the action ``at`` does not offer: another kind of action, a
    kubb that does not stand in the target half then, an inkast spot outside the half the kubbs
    are thrown into (seen from the replay's actions and outcomes, before any physics)."""
    kind = recorded.actions[at][1]["type"]
    if choice.target is not None and choice.inkast_at is not None:
        raise WhatIfError("--target and --inkast-at: give one of them (an action is a throw or an inkast)")
    if choice.target is not None and kind != "BatonThrow":
        raise WhatIfError(f"--target: action {at} is {action_words(kind)}, not a baton throw (--target names the "
                          "kubb a baton is thrown at)")
    if choice.inkast_at is not None:
        if kind != "Inkast":
            raise WhatIfError(f"--inkast-at: action {at} is {action_words(kind)}, not an inkast")
        x, y = choice.inkast_at
        if not (math.isfinite(x) and math.isfinite(y)):
            raise WhatIfError(f"--inkast-at: expected two finite numbers X,Y in m, got {x},{y}")
    if choice.target is None and choice.inkast_at is None:
        return
    state = state_at(recorded, at)
    side = recorded.actions[at][1]["side"]
    half = opponent(side)
    if choice.target is not None:
        standing = sorted(k.id for k in state.standing_in(half))
        if choice.target not in standing:
            raise WhatIfError(
                f"--target: {choice.target} does not stand in half {half} at action {at}; "
                f"expected one of {', '.join(standing)}"
            )
    if choice.inkast_at is not None:
        x, y = choice.inkast_at
        pitch = state.pitch
        if not pitch.in_half(half, x, y):
            lo, hi = sorted((0.0, pitch.baseline_x(half)))
            raise WhatIfError(
                f"--inkast-at: ({x:g}, {y:g}) m is not in half {half}, where the kubbs of action {at} are thrown; "
                f"expected x from {lo:g} to {hi:g} and y from {-pitch.half_width:g} to {pitch.half_width:g} m"
            )


class _ChosenPlayer:
    """A player that makes the given :class:`Choice` and otherwise plays as ``player``."""

    def __init__(self, player: Any, choice: Choice) -> None:
        self._player, self._choice = player, choice

    def __getattr__(self, name: str) -> Any:
        return getattr(self._player, name)

    def choose_target(self, side: str, kubbs: Sequence, line_x: float) -> str:
        return str(self._choice.target)

    def choose_flick_target(self, world: Any, side: str, kubbs: Sequence, line_x: float) -> str:
        return str(self._choice.target)

    def _moved(self, first: tuple[float, float], spot: tuple[float, float]) -> tuple[float, float]:
        """``spot`` moved by the step that takes the player's first spot to the chosen one (the
        step is formed first, so choosing the player's own spot moves nothing, to the bit)."""
        assert self._choice.inkast_at is not None
        cx, cy = self._choice.inkast_at
        return (spot[0] + (cx - first[0]), spot[1] + (cy - first[1]))

    def inkast_target(self, pitch: Any, side: str, index: int) -> tuple[float, float]:
        own = self._player.inkast_target
        return self._moved(own(pitch, side, 0), own(pitch, side, index))

    def return_target(self, pitch: Any, from_side: str, index: int, kubb_radius: float) -> tuple[float, float]:
        own = self._player.return_target
        return self._moved(own(pitch, from_side, 0, kubb_radius), own(pitch, from_side, index, kubb_radius))


def _install_choice(m: Any, choice: Choice) -> tuple[str, Any] | None:
    """Put a :class:`_ChosenPlayer` in place of the acting player of the pending action (checked
    by :func:`check_choice`); returns (name, the player) to put back, or None without a choice."""
    if choice.target is None and choice.inkast_at is None:
        return None
    # (the pending baton throw or inkast asks its player for the target only when performed)
    name = m.pending().player
    original = m.players[name]
    m.players[name] = _ChosenPlayer(original, choice)
    return name, original


def continue_match(
    recorded: Recorded,
    at: int,
    *,
    seed: int | None = None,
    choice: Choice = Choice(),
    keep_lines: bool = False,
) -> Continuation:
    """Play the replay's match to action ``at`` as recorded, then on to its end with the match
    seed ``seed`` from action ``at`` on (None: the replay's own) and ``choice`` at action ``at``.

    Raises:
        WhatIfError: ``at`` out of range, a choice the action does not offer, or a replay that
            the physics of this version does not reproduce up to ``at``.
        ReplayError: a replay that cannot be resumed (:meth:`kubb3d.match.Match.resume`).
    """
    from kubb3d.match import Match

    check_at(recorded, at)
    check_choice(recorded, at, choice)
    state_at(recorded, at)  # a recorded action that does not fit is named here (not "other physics")
    boundary = max((w for w in recorded.worlds if w[0] <= at), default=None)
    keep = recorded.lines[: boundary[1] + 1] if boundary is not None else recorded.lines[:1]
    with tempfile.TemporaryDirectory(prefix="kubb3d-whatif-") as tmp:
        path = Path(tmp) / "replay.jsonl"
        path.write_text("\n".join(keep) + "\n", encoding="utf-8")
        try:
            m = Match.resume(path)
        except ReplayError as exc:  # its lines are the file's first ones: name the file, not the copy
            raise ReplayError(str(exc).replace(str(path), str(recorded.path))) from None
        try:
            while m.action_index < at:
                i = m.action_index
                step = m.step()
                if step.record is None or _line(step.record) != recorded.lines[recorded.actions[i][0]]:
                    raise WhatIfError(
                        f"{recorded.path.name}: action {i} does not play as recorded (the replay was made with "
                        "other physics or rules); play the match again with kubb3d match --replay"
                    )
            state = m.state
            turns0, actions0, clock0 = state.total_turns, m.action_index, state.clock
            if seed is not None:
                m.config = replace(m.config, seed=seed)
            restore = _install_choice(m, choice)
            lines: list[str] = []
            while state.outcome() is None:
                step = m.step()
                if restore is not None and m.action_index > at:
                    m.players[restore[0]] = restore[1]
                    restore = None
                if keep_lines:
                    lines += [_line(r) for r in step.records]
            outcome = state.outcome()
            assert outcome is not None
            return Continuation(
                seed,
                outcome.to_dict(),
                state.total_turns - turns0,
                m.action_index - actions0,
                state.clock - clock0,
                tuple(lines),
            )
        finally:
            m.close()


def _line(record: dict) -> str:
    """A record as the replay writes it (:meth:`kubb3d.match.Match._write`)."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def whatif(
    recorded: Recorded,
    at: int,
    samples: int,
    *,
    seed: int = 1,
    choice: Choice = Choice(),
    workers: int = 1,
    progress: Callable[[int, Continuation], None] | None = None,
) -> list[Continuation]:
    """``samples`` continuations from action ``at`` with the seeds :func:`sample_seed` (``seed``,
    0 … samples − 1), in that order whatever ``workers`` (processes, :mod:`kubb3d.workers`);
    ``progress(j, continuation)`` as each is done. Errors as :func:`continue_match`, and
    WhatIfError for ``samples`` outside 1 … :data:`MAX_SAMPLES` or ``workers`` < 1."""
    if not 1 <= samples <= MAX_SAMPLES:
        raise WhatIfError(f"--samples: expected from 1 to {MAX_SAMPLES}, got {samples}")
    if workers < 1:
        raise WhatIfError(f"--workers: expected 1 or more, got {workers}")
    check_at(recorded, at)
    check_choice(recorded, at, choice)
    seeds = [sample_seed(seed, j) for j in range(samples)]
    done: dict[int, Continuation] = {}

    def record(j: int, result: Continuation) -> None:
        done[j] = result
        if progress is not None:
            progress(j, result)

    if workers == 1:
        for j, s in enumerate(seeds):
            record(j, continue_match(recorded, at, seed=s, choice=choice))
    else:
        from concurrent.futures import as_completed

        from kubb3d.workers import process_pool

        with process_pool(min(workers, samples)) as pool:
            futures = {pool.submit(continue_match, recorded, at, seed=s, choice=choice): j for j, s in enumerate(seeds)}
            for future in as_completed(futures):
                record(futures[future], future.result())
    return [done[j] for j in range(samples)]


def summarise(players: Sequence[str], results: Sequence[Continuation]) -> dict[str, Any]:
    """The outcome distribution of ``results``: per player the wins, the win probability and
    its 95 % Wilson interval (:func:`kubb3d.experiment.stats.wilson`); draws likewise; how the
    samples ended (termination → count); turns left (mean, least, most, value → count)."""
    n = len(results)

    def rate(k: int) -> dict[str, Any]:
        lo, hi = wilson(k, n)
        return {"count": k, "p": k / n if n else 0.0, "ci95": [lo, hi]}

    terminations: dict[str, int] = {}
    turns: dict[int, int] = {}
    for r in results:
        terminations[r.termination] = terminations.get(r.termination, 0) + 1
        turns[r.turns_left] = turns.get(r.turns_left, 0) + 1
    left = [r.turns_left for r in results]
    return {
        "samples": n,
        "wins": {p: rate(sum(1 for r in results if r.winner == p)) for p in players},
        "draws": rate(sum(1 for r in results if r.winner is None)),
        "terminations": dict(sorted(terminations.items())),
        "turns_left": {
            "mean": sum(left) / n if n else None,
            "min": min(left, default=None),
            "max": max(left, default=None),
            "counts": {str(k): v for k, v in sorted(turns.items())},
        },
    }

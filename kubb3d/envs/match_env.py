"""A whole match for two agents: a PettingZoo AEC environment over the caller-driven
:class:`~kubb3d.match.Match` (DM ruleset). docs/envs.md describes it for researchers; this is
the contract.

Agents: the two players, named as in the :class:`~kubb3d.match.MatchConfig` (``P1`` starts at
end A, ``P2`` at end B). A player keeps his name when the players change ends between sets
(``DM §3``). An agent acts at each decision the rules give him, in the match's order:

=====  =======  ==========================================================================
index  name     the decision
=====  =======  ==========================================================================
0      lag      a lag throw (``DM §3``, ``§9``) at the king
1      baton    a baton at a standing kubb of the opponent's half (``DM §5``, ``§8``)
2      king     a baton at the king (``DM §10``)
3      inkast   the felled kubbs thrown into the opponent's half (``DM §6``), all in one step
4      penalty  a penalty kubb (``DM §6``), thrown by either side
=====  =======  ==========================================================================

Everything else (choices of end and opener, raising, placing a stößel or a penalty kubb,
removing a tie-break kubb) is done as the simulated player does it (:mod:`kubb3d.players`).

Frame: every agent sees the pitch from its own end. Positions and quaternions of a player at
end B are turned by 180° about the vertical through the king, so that each agent throws
towards +x from its baseline at x = −L/2 (a proper rotation: the physics is the same).

Action: ``{"target": int in 0…10, "aim": float32 (3,) in [−1, 1]}``
(:func:`action_space`, a ``gymnasium.spaces.Dict`` whose ``sample(mask)`` takes the
observation's ``action_mask``, as PettingZoo's tools pass it). With ``actions="flat"`` (for
learners without ``Dict`` actions) the action is a float32 vector of 14 values in [−1, 1]:
11 scores, one per slot, and the ``aim``; the target is the legal slot with the highest score
(:func:`flat_to_dict`), so every vector is legal.

* ``target``: the piece slot aimed at (slot order below). Legal targets are the slots whose
  ``action_mask`` is 1: for ``baton`` the kubbs standing in the opponent's half, for ``lag`` and
  ``king`` the king; ``inkast`` and ``penalty`` have no target and allow only slot 10 (ignored).
  An illegal target raises :class:`~kubb3d.errors.IllegalAction`.
* ``aim`` = (a0, a1, a2), each value clipped to [−1, 1], changes the simulated player's
  intended throw (0, 0, 0 is exactly what that player intends; the player's skill then adds
  its release noise from the match's generator, as in ``kubb3d match``):

  - batons (``lag``, ``baton``, ``king``): the aim point moves by a0 · :data:`BATON_SPAN_M`
    forward and a1 · :data:`BATON_SPAN_M` to the thrower's left from the player's (the target's
    :func:`~kubb3d.throw.aim_point`; for the lag :attr:`~kubb3d.players.Strategy.lag_short_m`
    short of the king); the elevation is the player's (:attr:`~kubb3d.players.Style.elevation_deg`)
    + a2 · :data:`BATON_ELEVATION_SPAN_DEG`.
  - kubbs (``inkast``, ``penalty``): every kubb's landing spot moves by a0 · :data:`KUBB_SPAN_M`
    forward and a1 · :data:`KUBB_SPAN_M` to the left (the whole group of an inkast moves); the
    lob's elevation is the player's (:attr:`~kubb3d.players.Style.inkast_elevation_deg`) + a2 ·
    :data:`KUBB_ELEVATION_SPAN_DEG`.
  - the moved point is then kept :data:`AHEAD_M` in front of the line thrown from and
    :data:`EDGE_M` inside the sidelines (a kubb's also inside the far baseline), never
    further in than the player's own point (``aim_clamped`` in ``info`` says it was moved).

Observation: ``{"observation": float64 (OBS_SIZE,), "action_mask": int8 (11,)}``, in the
observing agent's frame:

* 11 piece slots of 12 values each: the kubbs of the agent's end's letter (``A1``…``A5`` at end
  A), then the other letter's, then the king (:func:`slot_ids`). Each: centre x, y, z (m, x and
  y clipped to [−10, 10], z to [−1, 3]), quaternion x, y, z, w, then flags (0/1): counts as
  standing (rules), baseline kubb, in the agent's own half, upright in the world (within 10° of
  vertical, either end up), out of the game (a tie-break kubb removed, ``DM §9``). Before the
  first set (the lag) the pieces are at the standard set-up (``DM §2``).
* 6 batons of 4: centre x, y, z (m, clipped as above) and 1 if the baton lies on the pitch.
* the decision due, one-hot (5, order of the table above; all 0 once the match is over).
* 9 scalars: 1 if this agent acts now; 1 if it plays from end B; batons left in the turn / 6;
  the acting agent's throwing line x (m; the advance line or the baseline; −L/2 when not acting);
  kubbs this step throws / 10; sets won by the agent / sets needed; sets won by the opponent /
  sets needed; turn number / the round cap; match clock / time limit (0 without a limit).

Rewards: at the end of the match +1 for the winner, −1 for the loser, 0 each for a draw;
0 before. The match ends by the rules (king felled, time, the round cap); every agent is then
``terminated``; nothing truncates.

``info`` of the agent that acted: ``decision``, ``action`` (the rules action performed, as a
dict), ``events`` (its play-by-play lines and those of the actions performed for the players
after it), ``throws`` (the replay's throw records of its step: piece, legality, ``intended`` and
released parameters, trajectory), ``aim_clamped``; once the match is over every agent's
``info`` holds ``outcome`` (:meth:`~kubb3d.rules.Outcome.to_dict`).

Seeding: ``reset(seed=s)`` plays the match of ``MatchConfig(seed=s)`` (``kubb3d match --seed
s``); ``reset()`` without a seed draws the next match seed from a generator seeded by the last
given seed (from fresh entropy if none was ever given). The same seed and actions give the same
match, bit for bit. ``reset(options=…)`` takes no options: unknown ones are warned about and
ignored (PettingZoo's ``api_test`` passes a placeholder).

Agents: :func:`baseline_agent` (the simulated player's own choices: the target of
:meth:`~kubb3d.players.Player.choose_target` and ``aim`` 0, so that two of them play exactly the
match ``kubb3d match`` plays) and :func:`random_agent`.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ModuleNotFoundError as missing:  # pragma: no cover - exercised in a subprocess by the tests
    raise ModuleNotFoundError(
        "kubb3d.envs.match_env needs PettingZoo, which kubb3d's 'gym' extra installs: pip install 'kubb3d[gym]'",
        name=missing.name,
    ) from None

from kubb3d.equipment import get_set
from kubb3d.errors import IllegalAction, MatchSetupError
from kubb3d.match import Match, MatchConfig
from kubb3d.match.flow import Make, Params, Run, ThrowFlow
from kubb3d.pitch import KING_ID, opponent
from kubb3d.players import Player, get_strategy
from kubb3d.ranges import listed
from kubb3d.rules import BatonThrow, Inkast, KingThrow, LagThrow, PenaltyThrow, action_to_dict
from kubb3d.rules.core import DEFAULT_ROUND_CAP
from kubb3d.snapshot import tilt_from_vertical

DECISIONS = ("lag", "baton", "king", "inkast", "penalty")
"""The decisions an agent makes, in the order of the observation's one-hot."""
SLOTS = 11
"""Piece slots: ten kubbs and the king (:func:`slot_ids`)."""
KING_SLOT = 10
BATONS = 6
SLOT_SIZE = 12
"""Values per piece slot: x, y, z, quaternion (4), five flags."""
SCALARS = 9
OBS_SIZE = SLOTS * SLOT_SIZE + BATONS * 4 + len(DECISIONS) + SCALARS
"""Length of the observation vector."""
BATON_SPAN_M = 1.0
"""m: how far ``aim`` a0 and a1 = ±1 move a baton's aim point."""
BATON_ELEVATION_SPAN_DEG = 18.0
"""deg: how far ``aim`` a2 = ±1 changes a baton's elevation."""
KUBB_SPAN_M = 2.0
"""m: how far ``aim`` a0 and a1 = ±1 move a kubb's landing spot."""
KUBB_ELEVATION_SPAN_DEG = 20.0
"""deg: how far ``aim`` a2 = ±1 changes a lob's elevation."""
AHEAD_M = 0.5
"""m: the least distance of an aim point in front of the throwing line."""
EDGE_M = 0.1
"""m: the least distance of an aim point inside the sidelines and the far baseline."""
RULESETS = ("dm",)
"""Rulesets the environment plays."""

_POS_LOW = (-10.0, -10.0, -1.0)
_POS_HIGH = (10.0, 10.0, 3.0)
_UPRIGHT = math.radians(10.0)


def slot_ids(end: str) -> tuple[str, ...]:
    """The piece ids of the 11 slots seen from pitch end ``end`` (``A``/``B``): the kubbs of that
    letter, the other letter's, the king."""
    other = opponent(end)  # type: ignore[arg-type]
    return (*(f"{end}{i}" for i in range(1, 6)), *(f"{other}{i}" for i in range(1, 6)), KING_ID)


def _turned(pos: Sequence[float], quat: Sequence[float], end: str) -> tuple[list[float], list[float]]:
    """Position and quaternion (xyzw) in the frame of a player at ``end``: turned by 180° about
    the vertical for end B."""
    if end == "A":
        return [float(v) for v in pos], [float(v) for v in quat]
    x, y, z, w = (float(v) for v in quat)
    # (0, 0, 1, 0) ⊗ (x, y, z, w): a half turn about z
    return [-float(pos[0]), -float(pos[1]), float(pos[2])], [-y, x, w, -z]


def _decision(action: Any) -> str | None:
    if isinstance(action, LagThrow):
        return "lag"
    if isinstance(action, KingThrow):
        return "king"
    if isinstance(action, BatonThrow):
        return "baton"
    if isinstance(action, Inkast):
        return "inkast"
    if isinstance(action, PenaltyThrow):
        return "penalty"
    return None


@dataclass
class _Decision:
    """An agent's decision for the action under way, read by :class:`_AgentFlow`."""

    kind: str
    target: str | None
    aim: np.ndarray
    forward: float
    clamped: bool = False


class _AgentFlow(ThrowFlow):
    """The grass flow with the agent's decision applied: its target, its aim point and
    elevation; without a decision exactly :class:`~kubb3d.match.flow.ThrowFlow`."""

    def __init__(self) -> None:
        self.decision: _Decision | None = None

    def _styled(self, player: Player, kubb: bool) -> Player:
        d = self.decision
        assert d is not None
        st = player.style
        if kubb:
            elevation = st.inkast_elevation_deg + float(d.aim[2]) * KUBB_ELEVATION_SPAN_DEG
            style = replace(st, inkast_elevation_deg=elevation)
        else:
            style = replace(st, elevation_deg=st.elevation_deg + float(d.aim[2]) * BATON_ELEVATION_SPAN_DEG)
        return replace(player, style=style)

    def _moved(
        self, match: Match, x: float, y: float, line_x: float, from_side: str, span: float, kubb: bool
    ) -> tuple[float, float]:
        """The aim point (x, y) moved by the decision's a0, a1 (in the agent's frame) and kept
        :data:`AHEAD_M` in front of the line ``line_x`` thrown from (by ``from_side``) and
        :data:`EDGE_M` inside the sidelines (a kubb also inside the far baseline); the
        player's own point (``x``, ``y``) is never moved by the bounds."""
        d = self.decision
        assert d is not None
        pitch = match.pitch
        f = pitch.forward(from_side)
        nx = x + d.forward * float(d.aim[0]) * span
        ny = y + d.forward * float(d.aim[1]) * span
        low = min(f * line_x + AHEAD_M, f * x)
        high = max(pitch.length / 2 - EDGE_M, f * x) if kubb else math.inf
        side = max(pitch.half_width - EDGE_M, abs(y))
        cx = f * float(np.clip(f * nx, low, high))
        cy = float(np.clip(ny, -side, side))
        if cx != nx or cy != ny:
            d.clamped = True
        return cx, cy

    def lag_release(self, match, player, side, holder) -> tuple[Make, Run]:  # type: ignore[override]
        own, run = super().lag_release(match, player, side, holder)
        if self.decision is None:
            return own, run
        w0 = holder["w"]
        eq = w0.equipment
        f = match.pitch.forward(side)
        line = match.pitch.baseline_x(side)
        x, y = self._moved(match, -f * player.strategy.lag_short_m, 0.0, line, side, BATON_SPAN_M, False)
        target = (x, y, eq.baton.radius)
        styled = self._styled(player, kubb=False)

        def make(rng: np.random.Generator) -> tuple[Params, Params]:
            return styled.baton_throw(eq, match.pitch, side, match.pitch.baseline_x(side), target, rng, dt=w0.quiet_dt)

        return make, run

    def baton_target(self, match, player, side, candidates, line_x) -> str:  # type: ignore[override]
        d = self.decision
        if d is not None and d.target is not None and any(c[0] == d.target for c in candidates):
            return d.target
        return super().baton_target(match, player, side, candidates, line_x)

    def baton_release(self, match, player, action, world, target, king) -> tuple[Make, Run]:  # type: ignore[override]
        if self.decision is None:
            return super().baton_release(match, player, action, world, target, king)
        x, y = self._moved(match, target[0], target[1], action.line_x, action.side, BATON_SPAN_M, False)
        return super().baton_release(match, self._styled(player, kubb=False), action, world, (x, y, target[2]), king)

    def inkast_target(self, match, player, from_side, receiving, index, eq) -> tuple[float, float]:  # type: ignore[override]
        x, y = super().inkast_target(match, player, from_side, receiving, index, eq)
        if self.decision is None:
            return x, y
        return self._moved(match, x, y, match.pitch.baseline_x(from_side), from_side, KUBB_SPAN_M, True)

    def inkast_release(self, match, player, world, kid, from_side, target) -> tuple[Make, Run]:  # type: ignore[override]
        if self.decision is not None:
            player = self._styled(player, kubb=True)
        return super().inkast_release(match, player, world, kid, from_side, target)


class _MaskedDict(spaces.Dict):
    """The action space: a ``Dict`` whose ``sample(mask)`` also takes the observation's
    ``action_mask`` (an int8 array over the target slots)."""

    def sample(self, mask: Any = None, probability: Any = None) -> dict[str, Any]:
        if isinstance(mask, np.ndarray):
            mask = {"target": mask.astype(np.int8), "aim": None}
        return super().sample(mask=mask, probability=probability)


class _MaskedBox(spaces.Box):
    """The flat action space: a ``Box`` whose ``sample(mask)`` accepts (and needs not) the
    observation's ``action_mask``: every vector is a legal action."""

    def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
        return super().sample()


ACTIONS = ("dict", "flat")
"""Action conventions (module doc)."""


def action_space(actions: str = "dict", seed: int | None = None) -> spaces.Space:
    """A new action space (module doc): ``dict``: ``target`` Discrete(11) and ``aim``
    Box(−1, 1, (3,), float32); ``flat``: Box(−1, 1, (14,), float32)."""
    if actions == "flat":
        return _MaskedBox(-1.0, 1.0, shape=(SLOTS + 3,), dtype=np.float32, seed=seed)
    return _MaskedDict(
        {"target": spaces.Discrete(SLOTS), "aim": spaces.Box(-1.0, 1.0, shape=(3,), dtype=np.float32)}, seed=seed
    )


def flat_to_dict(action: Any, mask: Any) -> dict[str, Any]:
    """The ``dict`` action of a ``flat`` one (14 values): the target is the legal slot (``mask``
    1) with the highest of the first 11 values (the lowest slot on a tie), ``aim`` the last 3.

    Raises:
        IllegalAction: not 14 finite numbers, or a mask without a legal slot.
    """
    vec = np.asarray(action, dtype=np.float64).reshape(-1)
    if vec.shape != (SLOTS + 3,) or not np.all(np.isfinite(vec)):
        raise IllegalAction(f"a flat action must be {SLOTS + 3} finite numbers in [-1, 1], got {action!r}")
    legal = np.flatnonzero(np.asarray(mask))
    if len(legal) == 0:
        raise IllegalAction("no target is legal now (the match is over or another agent acts)")
    slot = int(legal[int(np.argmax(vec[legal]))])
    return {"target": slot, "aim": vec[SLOTS:].astype(np.float32)}


def _observation_bounds() -> tuple[np.ndarray, np.ndarray]:
    slot_lo = [*_POS_LOW, -1.0, -1.0, -1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    slot_hi = [*_POS_HIGH, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    lo = slot_lo * SLOTS + [*_POS_LOW, 0.0] * BATONS + [0.0] * len(DECISIONS)
    hi = slot_hi * SLOTS + [*_POS_HIGH, 1.0] * BATONS + [1.0] * len(DECISIONS)
    lo += [0.0, 0.0, 0.0, _POS_LOW[0], 0.0, 0.0, 0.0, 0.0, 0.0]
    hi += [1.0, 1.0, 1.0, _POS_HIGH[0], 1.0, 1.0, 1.0, 1.0, 1.0]
    return np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)


class KubbMatchEnv(AECEnv):
    """A whole match between two agents (module doc).

    Args:
        render_mode: None or ``"rgb_array"`` (the position, drawn by the viewer's headless
            renderer, imported only then).
        ruleset: ``dm`` (the only one).
        skills: the two players' skill presets (:data:`kubb3d.players.SKILLS`): their release
            noise applies to the agents' throws.
        strategies: the two players' strategies (:data:`kubb3d.players.STRATEGIES`): what
            ``aim`` 0 means and the choices the agents do not make.
        names: the players' (agents') names; default ``P1``, ``P2``.
        sets, time_limit_s, round_cap: as :class:`~kubb3d.match.MatchConfig` (best of
            ``sets``; time limit s, None none, −1 the ruleset's; turns per set before the cut).
        actions: ``dict`` (the default) or ``flat`` (module doc).
        width, height: rendered image size, px.

    Raises:
        MatchSetupError, UnknownNameError: a bad value of any of them.
    """

    metadata = {"render_modes": ["rgb_array"], "name": "kubb3d_match_v0", "is_parallelizable": False}

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        ruleset: str = "dm",
        skills: tuple[str, str] = ("club", "club"),
        strategies: tuple[str, str] = ("default", "default"),
        names: tuple[str, str] | None = None,
        sets: int | None = None,
        time_limit_s: float | None = -1.0,
        round_cap: int = DEFAULT_ROUND_CAP,
        actions: str = "dict",
        width: int = 480,
        height: int = 360,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "rgb_array"):
            raise MatchSetupError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        if actions not in ACTIONS:
            raise MatchSetupError(f"actions must be one of {ACTIONS}, got {actions!r}")
        self.actions = actions
        if ruleset not in RULESETS:
            raise MatchSetupError(f"the match environment plays only {listed(list(RULESETS))}, got ruleset {ruleset!r}")
        self.render_mode = render_mode
        self.config = MatchConfig(
            ruleset=ruleset,
            skills=tuple(skills),  # type: ignore[arg-type]
            names=None if names is None else tuple(names),  # type: ignore[arg-type]
            sets=sets,
            time_limit_s=time_limit_s,
            round_cap=round_cap,
            strategies=tuple(strategies),  # type: ignore[arg-type]
        )
        Match(self.config).close()  # refuses bad skills, strategies, names, sets … now, not at reset
        self.possible_agents = list(self.config.player_names())
        self.agents: list[str] = []
        self._action_spaces = {a: action_space(actions) for a in self.possible_agents}
        lo, hi = _observation_bounds()
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(lo, hi, dtype=np.float64),
                    "action_mask": spaces.Box(0, 1, shape=(SLOTS,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.size = (int(width), int(height))
        self.match: Match | None = None
        """The match being played (:class:`~kubb3d.match.Match`; read it, do not step it)."""
        self._flow = _AgentFlow()
        self._seeds: np.random.Generator | None = None
        self._renderer: Any = None
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if options:
            warnings.warn(
                f"the match environment takes no reset options"
                f"; ignored {listed(sorted(options))}", stacklevel=2)
        if seed is not None:
            if not isinstance(seed, (int, np.integer)) or seed < 0:
                raise MatchSetupError(f"seed must be an integer >= 0, got {seed!r}")
            match_seed = int(seed)
            self._seeds = np.random.default_rng(match_seed)
        else:
            if self._seeds is None:
                self._seeds = np.random.default_rng()
            match_seed = int(self._seeds.integers(0, 2**31 - 1))
        if self.match is not None:
            self.match.close()
        self.match = Match(replace(self.config, seed=match_seed))
        self.match.flow = self._flow
        self._flow.decision = None
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._advance()

    def _advance(self) -> list[dict]:
        """Perform the actions no agent decides until an agent's decision is due or the match is
        over; returns their events (as dicts). Sets :attr:`agent_selection` and, at the end, the
        rewards and terminations."""
        m = self.match
        assert m is not None
        events: list[dict] = []
        while True:
            p = m.pending()
            if p is None:
                break
            if _decision(p.action) is not None:
                self.agent_selection = p.player
                return events
            events += [e.to_dict() for e in m.step().events]
        out = m.state.outcome()
        assert out is not None  # (the world stays open for the last observations and render())
        for a in self.agents:
            self.terminations[a] = True
            self.rewards[a] = 0.0 if out.winner is None else (1.0 if a == out.winner else -1.0)
            self.infos[a] = {**self.infos.get(a, {}), "outcome": out.to_dict()}
        return events

    def step(self, action: Mapping[str, Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        m = self.match
        if m is None:
            raise RuntimeError("call reset() before step()")
        pending = m.pending()
        assert pending is not None and pending.player == agent
        kind = _decision(pending.action)
        assert kind is not None
        target, aim = self._parse(action, agent)
        side = pending.action.side  # type: ignore[union-attr]
        self._flow.decision = _Decision(kind, target, aim, m.pitch.forward(side))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        for a in self.agents:
            self.infos[a] = {}
        try:
            result = m.step()
        finally:
            decision, self._flow.decision = self._flow.decision, None
        self.infos[agent] = {
            "decision": kind,
            "action": action_to_dict(result.action),
            "events": [e.to_dict() for e in result.events],
            "throws": list(result.throws),
            "aim_clamped": decision.clamped,
        }
        events = self._advance()
        self.infos[agent]["events"] += events
        self._accumulate_rewards()

    def _parse(self, action: Mapping[str, Any] | None, agent: str) -> tuple[str | None, np.ndarray]:
        """The target's piece id (None where the decision has none) and the aim, checked."""
        if self.actions == "flat":
            action = flat_to_dict(action, self._mask(agent))
        if not isinstance(action, Mapping) or set(action) != {"target", "aim"}:
            raise IllegalAction(f"{agent}'s action must be a dict with 'target' and 'aim', got {action!r}")
        aim = np.asarray(action["aim"], dtype=np.float64).reshape(-1)
        if aim.shape != (3,) or not np.all(np.isfinite(aim)):
            raise IllegalAction(f"{agent}'s aim must be 3 finite numbers in [-1, 1], got {action['aim']!r}")
        try:
            slot = int(action["target"])
        except (TypeError, ValueError):
            raise IllegalAction(f"{agent}'s target must be a slot 0…{SLOTS - 1}, got {action['target']!r}") from None
        mask = self._mask(agent)
        if not (0 <= slot < SLOTS and mask[slot]):
            legal = [int(i) for i in np.flatnonzero(mask)]
            raise IllegalAction(f"{agent}'s target slot {slot} is not legal now; legal slots are {legal}")
        pending = self.match.pending() if self.match is not None else None
        assert pending is not None
        target = None
        if _decision(pending.action) == "baton":
            target = slot_ids(self._end(agent))[slot]
        return target, np.clip(aim, -1.0, 1.0)

    # ------------------------------------------------------------------ observation
    def _end(self, agent: str) -> str:
        assert self.match is not None
        return self.match.state.end_of[agent]

    def _mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(SLOTS, dtype=np.int8)
        m = self.match
        if m is None or m.state.outcome() is not None:
            return mask
        p = m.pending()
        if p is None or p.player != agent:
            return mask
        kind = _decision(p.action)
        if kind == "baton":
            ids = slot_ids(self._end(agent))
            for k in m.state.standing_in(opponent(p.action.side)):  # type: ignore[union-attr]
                mask[ids.index(k.id)] = 1
        elif kind is not None:
            mask[KING_SLOT] = 1
        return mask

    def _poses(self) -> dict[str, tuple[Sequence[float], Sequence[float]]]:
        """Every piece's (position, quaternion) now: the world's, else the standard set-up."""
        m = self.match
        assert m is not None
        w = m.world
        if w is not None:
            return {pid: tuple(w.pose(pid)) for pid in w.piece_ids("kubb", "king", "baton")}  # type: ignore[misc]
        eq = get_set(m.ruleset.equipment)
        out: dict[str, tuple[Sequence[float], Sequence[float]]] = {}
        for side in ("A", "B"):
            for kid, (x, y) in m.pitch.baseline_kubb_positions(side).items():
                out[kid] = ((x, y, eq.kubb.height / 2), (0.0, 0.0, 0.0, 1.0))
        out[KING_ID] = ((0.0, 0.0, eq.king.height / 2), (0.0, 0.0, 0.0, 1.0))
        return out

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        m = self.match
        if m is None:
            raise RuntimeError("call reset() before observe()")
        s = m.state
        end = self._end(agent)
        poses = self._poses()
        values: list[float] = []
        for pid in slot_ids(end):
            pos, quat = poses.get(pid, ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)))
            p, q = _turned(pos, quat, end)
            tilt = tilt_from_vertical(tuple(quat))  # type: ignore[arg-type]
            upright = float(tilt < _UPRIGHT or tilt > math.pi - _UPRIGHT)
            if pid == KING_ID:
                flags = [float(s.king_standing), 0.0, 0.0, upright, 0.0]
            else:
                k = s.kubbs.get(pid)
                if k is None:  # before the first set
                    flags = [1.0, 1.0, float(pid[0] == end), upright, 0.0]
                else:
                    flags = [float(k.standing), float(k.baseline), float(k.half == end), upright, float(k.removed)]
            values += p + q + flags
        for i in range(1, BATONS + 1):
            bid = f"baton{i}"
            if bid in poses and m.world is not None:
                p, _ = _turned(*poses[bid], end)
                values += p + [1.0]
            else:
                values += [0.0, 0.0, 0.0, 0.0]
        pending = m.pending() if s.outcome() is None else None
        kind = None if pending is None else _decision(pending.action)
        values += [float(kind == d) for d in DECISIONS]
        acting = pending is not None and pending.player == agent
        f = m.pitch.forward(end)  # type: ignore[arg-type]
        line = -m.pitch.length / 2
        n_kubbs = 0
        if acting and pending is not None:
            line_x = getattr(pending.action, "line_x", None)
            if line_x is not None:
                line = f * float(line_x)
            if isinstance(pending.action, Inkast):
                n_kubbs = len(pending.action.kubbs)
            elif isinstance(pending.action, PenaltyThrow):
                n_kubbs = 1
        need = s.sets // 2 + 1
        other = next(a for a in self.possible_agents if a != agent)
        limit = s.time_limit_s
        values += [
            float(acting),
            float(end == "B"),
            s.batons_left / BATONS if kind in ("baton", "king") else 0.0,
            line,
            n_kubbs / 10,
            s.set_wins[agent] / need,
            s.set_wins[other] / need,
            s.turn_no / s.round_cap,
            0.0 if not limit else s.clock / limit,
        ]
        lo, hi = _observation_bounds()
        obs = np.clip(np.asarray(values, dtype=np.float64), lo, hi)
        return {"observation": obs, "action_mask": self._mask(agent)}

    # ------------------------------------------------------------------ rendering
    def render(self) -> np.ndarray | None:
        """The position as an RGB array (height, width, 3), uint8; None without
        ``render_mode="rgb_array"`` or before the first set."""
        if self.render_mode != "rgb_array" or self.match is None or self.match.world is None:
            return None
        snap = self.match.world.snapshot()
        if self._renderer is None:
            from kubb3d.viewer.still import StillRenderer

            self._renderer = StillRenderer(snap, self.match.world.equipment.name, *self.size, camera="orbit")
        return self._renderer.render(snap)

    def close(self) -> None:
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None
        if self.match is not None:
            self.match.close()
            self.match = None


def env(**kwargs: Any) -> KubbMatchEnv:
    """A :class:`KubbMatchEnv` (PettingZoo's ``env()`` convention); keyword arguments as there."""
    return KubbMatchEnv(**kwargs)


# ---------------------------------------------------------------------- agents
def _unpack(observation: Mapping[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, str | None, str]:
    vec = np.asarray(observation["observation"], dtype=np.float64)
    mask = np.asarray(observation["action_mask"])
    onehot = vec[SLOTS * SLOT_SIZE + BATONS * 4 : SLOTS * SLOT_SIZE + BATONS * 4 + len(DECISIONS)]
    kind = DECISIONS[int(np.argmax(onehot))] if onehot.max() > 0 else None
    end = "B" if vec[OBS_SIZE - SCALARS + 1] > 0.5 else "A"
    return vec, mask, kind, end


def baseline_agent(observation: Mapping[str, np.ndarray], strategy: str = "default") -> dict[str, Any]:
    """The simulated player's decision from an observation: for a baton the kubb
    :meth:`~kubb3d.players.Player.choose_target` of ``strategy`` picks (upright flag, baseline
    flag, position and throwing line read from the observation), ``aim`` 0 (the player's own
    aim point and elevation). Raises IllegalAction when the observation asks for no decision."""
    vec, mask, kind, end = _unpack(observation)
    legal = np.flatnonzero(mask)
    if kind is None or len(legal) == 0:
        raise IllegalAction("the observation asks for no decision (the match is over or another agent acts)")
    slot = int(legal[0])
    if kind == "baton":
        ids = slot_ids(end)
        line = float(vec[OBS_SIZE - SCALARS + 3])
        cands = []
        for i in legal:
            v = vec[i * SLOT_SIZE : (i + 1) * SLOT_SIZE]
            cands.append((ids[i], bool(v[8] > 0.5), (float(v[0]), float(v[1]), float(v[2])), bool(v[10] > 0.5)))
        player = Player("baseline", skill=None, strategy=get_strategy(strategy))  # type: ignore[arg-type]
        slot = ids.index(player.choose_target("A", cands, line))
    return {"target": slot, "aim": np.zeros(3, dtype=np.float32)}


def random_agent(observation: Mapping[str, np.ndarray], rng: np.random.Generator) -> dict[str, Any]:
    """A uniformly random legal decision: a target among the legal slots, each ``aim`` value in
    [−1, 1], drawn from ``rng``."""
    _, mask, _, _ = _unpack(observation)
    legal = np.flatnonzero(mask)
    if len(legal) == 0:
        raise IllegalAction("the observation asks for no decision (the match is over or another agent acts)")
    slot = int(legal[int(rng.integers(len(legal)))])
    return {"target": slot, "aim": rng.uniform(-1.0, 1.0, 3).astype(np.float32)}

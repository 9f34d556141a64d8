"""How the pieces of a match are thrown: the part of performing an action that depends on the
ruleset's way of playing. On grass (DM, WS) batons and kubbs are thrown underarm; on a
table-top board (Kubbuteo, ``KT rules``) they are flicked (:mod:`kubb3d.match.kubbuteo`). The
ruleset chooses (:attr:`kubb3d.rules.Ruleset.flicks`, :func:`kubb3d.match.core.flow_for`); the
match calls the hooks of :class:`PieceFlow` and never tests which one it has.

Each hook keeps the order in which the match touches the world and draws from its
generators: a seeded match gives the same replay, byte for byte.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, Generator, Mapping, Sequence

import numpy as np

from kubb3d.equipment import EquipmentSet
from kubb3d.judge import ThrowJudgement
from kubb3d.judge.rulings import Pose
from kubb3d.pitch import KING_ID
from kubb3d.players import FlickSkill, Player
from kubb3d.rules import BatonThrow, KingThrow, LagResult, Raise
from kubb3d.throw import (
    FlickParams,
    ThrowFrame,
    ThrowParams,
    ThrowResult,
    distance_to_king,
    release_from_params,
    SimulationOptions,
    simulate_iter,
    throw_iter,
)

if TYPE_CHECKING:
    from kubb3d.match.core import MatchCore
    from kubb3d.physics.world import World

KING_FELLED_TILT = math.radians(30.0)
"""rad: a king leaning further from vertical at rest counts as felled by a lag throw or an inkast."""

_LYING = (0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4))

Params = ThrowParams | FlickParams
Make = Callable[[np.random.Generator], tuple[Params, Params]]
"""A simulated player's release: the generator of the attempt → (intended, noisy) parameters."""
Run = Callable[[Params], Generator[ThrowFrame, None, ThrowResult]]
"""The simulation of one throw from its parameters (its frames yielded as they come)."""
Candidates = list[tuple[str, bool, tuple[float, float, float], bool]]
"""The kubbs a baton may be aimed at: (id, on the baseline, position m, upright)."""


class PieceFlow:
    """The hooks a match calls to throw its pieces (see the module doc); this base class is
    the game on grass (:class:`ThrowFlow`)."""

    flicks = False
    """True: a person's throw is a :class:`~kubb3d.throw.FlickParams`, else ``ThrowParams``."""
    placement_clearance = 0.15
    """m: a placed kubb's least distance from a standing piece when there is room."""

    def flick_skill(self, skill: str) -> FlickSkill | None:
        """The flicking skill of a player of skill preset ``skill`` (None: nobody flicks)."""
        return None

    def park(self, match: MatchCore, kid: str) -> None:
        """Pick a kubb up: lay it behind the baseline of the half it belongs to now."""
        s = match.state
        half = s.kubbs[kid].half
        slot = sorted(s.kubbs).index(kid)
        x = match.pitch.baseline_x(half) - match.pitch.forward(half) * 1.5
        eq = match._eq()
        match._w.set_pose(kid, (x, -2.25 + 0.5 * slot, eq.kubb.width / 2), _LYING, wake=False)

    def raise_kubbs(self, match: MatchCore, action: Raise) -> None:
        """Stand the kubbs of a Raise action at the poses the engine keeps (``DM §7``)."""
        for kid in sorted(action.kubbs):  # sorted: the order of pose resets reaches the engine
            pose = match.state.to_raise[kid]
            match._w.set_pose(kid, pose.position, pose.quat_xyzw, wake=False)

    # ------------------------------------------------------------------ lag
    def lag_release(self, match: MatchCore, player: Player, side: str, holder: Mapping[str, World]) -> tuple[Make, Run]:
        """A lag throw's release and simulation in the fresh world ``holder["w"]``."""
        w0 = holder["w"]

        def make(rng: np.random.Generator) -> tuple[Params, Params]:
            return player.lag_throw(w0.equipment, match.pitch, side, rng, dt=w0.quiet_dt)

        def run(p: Params) -> Generator[ThrowFrame, None, ThrowResult]:
            assert isinstance(p, ThrowParams)
            return throw_iter(holder["w"], p, baton="baton1", ruleset=match.ruleset.name, **match.throw_options)

        return make, run

    def lag_result(self, match: MatchCore, res: ThrowResult) -> LagResult:
        """The lag's outcome: the baton's distance to the king if it rests inside the pitch."""
        dist = distance_to_king(res.final, "baton1")
        felled = res.final[KING_ID].tilt > KING_FELLED_TILT
        inside = match.pitch.in_pitch(*res.final["baton1"].position[:2])
        return LagResult(dist if inside else None, felled, KING_ID in res.touched)

    # ------------------------------------------------------------------ batons
    def baton_target(self, match: MatchCore, player: Player, side: str, candidates: Candidates, line_x: float) -> str:
        """The kubb the player aims the baton at."""
        return player.choose_target(side, candidates, line_x)

    def before_baton(self, match: MatchCore, side: str) -> dict[str, Pose]:
        """What the flow needs to clear up after the throw (:meth:`baton_cleared`)."""
        return {}

    def baton_release(
        self,
        match: MatchCore,
        player: Player,
        action: BatonThrow | KingThrow,
        world: World,
        target: tuple[float, float, float],
        king: bool,
    ) -> tuple[Make, Run]:
        """A baton throw's release (``world``: the world as the action started) and simulation
        (in the match's world at the time)."""
        eq = world.equipment

        def make(rng: np.random.Generator) -> tuple[Params, Params]:
            return player.baton_throw(eq, match.pitch, action.side, action.line_x, target, rng, dt=world.quiet_dt)

        def run(p: Params) -> Generator[ThrowFrame, None, ThrowResult]:
            assert isinstance(p, ThrowParams)
            # the foot is judged against the line the action allows, not the one the thrower names
            return throw_iter(
                match._w, p, baton=action.baton, ruleset=match.ruleset.name, line_x=action.line_x, **match.throw_options
            )

        return make, run

    def baton_void(self, match: MatchCore, action: BatonThrow | KingThrow) -> None:
        """After a throw without effect (glitches in a row)."""

    def baton_settled(self, match: MatchCore, res: ThrowResult) -> ThrowResult:
        """The throw's result as the judge reads it."""
        return res

    def king_from_baseline(self, match: MatchCore, action: KingThrow, res: ThrowResult) -> bool:
        """Whether a king throw was made from the baseline, as the judge takes a king throw
        (on grass the foot is judged instead: :func:`kubb3d.throw.check_legality`)."""
        return True

    def baton_cleared(
        self, match: MatchCore, action: BatonThrow | KingThrow, judgement: ThrowJudgement, before_own: dict[str, Pose]
    ) -> None:
        """Clear up after the judge ruled (the baton stays where it lies on grass)."""

    # ------------------------------------------------------------------ kubbs
    def inkast_target(
        self, match: MatchCore, player: Player, from_side: str, receiving: bool, index: int, eq: EquipmentSet
    ) -> tuple[float, float]:
        """Where the ``index``-th kubb of the turn's inkast (or penalty kubb) is aimed."""
        if receiving:
            return player.penalty_target(match.pitch, from_side, True, index)
        return player.inkast_target(match.pitch, from_side, index)

    def inkast_release(
        self, match: MatchCore, player: Player, world: World, kid: str, from_side: str, target: tuple[float, float]
    ) -> tuple[Make, Run]:
        """An inkasted kubb's release (``world``: as the action started) and simulation."""
        eq = world.equipment

        def make(rng: np.random.Generator) -> tuple[Params, Params]:
            return player.kubb_throw(eq, match.pitch, from_side, target, rng, dt=world.quiet_dt)

        def run(p: Params) -> Generator[ThrowFrame, None, ThrowResult]:
            assert isinstance(p, ThrowParams)
            return simulate_iter(
                match._w,
                kid,
                release_from_params(p, match.pitch),
                SimulationOptions(kind="kubb", params=p, settle_s=match.throw_options.get("settle_s")),
            )

        return make, run

    def inkast_awaiting(self, match: MatchCore, kubbs: Sequence[str]) -> dict[str, Pose]:
        """The valid kubbs of earlier attempts not raised yet (the judge keeps their spots)."""
        return {k: p for k, p in match.state.to_raise.items() if k not in kubbs}

    def stand_valid(self, match: MatchCore, valid: Mapping[str, Pose]) -> None:
        """Valid kubbs lie where they landed until the Raise action (``DM §7`` "Danach";
        ``WS basic rule 12``)."""


class ThrowFlow(PieceFlow):
    """Batons and kubbs thrown underarm on grass (DM, WS)."""

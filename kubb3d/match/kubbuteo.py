"""Kubbuteo's flow (``KT rules``): batons and kubbs flicked on a table-top board. A lag flick
stops near the king; a flicked baton leaves the board after the judge ruled, the kubbs it
knocked off are parked beside the board and the ones to stand again are set
(:func:`kubb3d.rules.kubbuteo.after_flick`); a returned kubb stands where it rests at once."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Generator, Mapping, Sequence

import numpy as np

from kubb3d.equipment import DiskPiece, EquipmentSet, MushroomPiece
from kubb3d.judge import ThrowJudgement
from kubb3d.judge.rulings import Pose
from kubb3d.match.flow import KING_FELLED_TILT, Candidates, Make, Params, PieceFlow, Run
from kubb3d.pitch import KING_ID
from kubb3d.players import FlickSkill, Player, get_flick_skill
from kubb3d.rules import BatonThrow, KingThrow, LagResult, Raise
from kubb3d.rules.kubbuteo import after_flick
from kubb3d.throw import (
    LYING_DISK_KUBB,
    FlickParams,
    SimulationOptions,
    ThrowFrame,
    ThrowResult,
    release_from_flick,
    simulate_iter,
)

if TYPE_CHECKING:
    from kubb3d.match.core import MatchCore
    from kubb3d.physics.world import World

FLICK_MAX_TIME = 6.0
"""s: the longest a Kubbuteo flick is simulated (a disk at 2 m/s stops within 0.7 s; the rest
is for wobbling disks to settle)."""


def flick_iter(
    match: MatchCore, world: World, piece: str, p: Params, kind: str
) -> Generator[ThrowFrame, None, ThrowResult]:
    """Simulate a flick (``KT rules``) with its parameters kept in the result (its frames are
    yielded as they are simulated)."""
    assert isinstance(p, FlickParams)
    return simulate_iter(
        world,
        piece,
        release_from_flick(world, p, kind),
        SimulationOptions(
            kind=kind, params=p, max_time=FLICK_MAX_TIME, sliding=True, settle_s=match.throw_options.get("settle_s")
        ),
    )


class FlickFlow(PieceFlow):
    """Batons and kubbs flicked on a board (Kubbuteo)."""

    flicks = True
    placement_clearance = 0.035

    def flick_skill(self, skill: str) -> FlickSkill | None:
        return get_flick_skill(skill)

    def park(self, match: MatchCore, kid: str) -> None:
        """Pick a kubb up: on the floor beyond the board's end, out of play (``KT rules``)."""
        s = match.state
        eq = match._eq()
        half = s.kubbs[kid].half
        slot = sorted(s.kubbs).index(kid)
        x = match.pitch.forward(half) * -(match.pitch.length / 2 + 0.08 + 0.04 * (slot // 5))
        match._w.set_pose(
            kid,
            (x, -0.1 + 0.05 * (slot % 5), match._floor_z() + eq.kubb.thickness / 2),  # type: ignore[union-attr]
            LYING_DISK_KUBB,
            wake=False,
        )

    def raise_kubbs(self, match: MatchCore, action: Raise) -> None:
        """Nothing to do: a returned kubb stood up where it rests at once (:meth:`stand_valid`)."""

    # ------------------------------------------------------------------ lag
    def lag_release(self, match: MatchCore, player: Player, side: str, holder: Mapping[str, World]) -> tuple[Make, Run]:
        """Kubbuteo's start (kubb3d's choice, :mod:`kubb3d.rules.kubbuteo`): a baton flicked
        from the baseline to stop near the king."""

        def make(rng: np.random.Generator) -> tuple[Params, Params]:
            return player.lag_flick(holder["w"], side, rng)

        def run(p: Params) -> Generator[ThrowFrame, None, ThrowResult]:
            return flick_iter(match, holder["w"], "baton1", p, "baton")

        return make, run

    def lag_result(self, match: MatchCore, res: ThrowResult) -> LagResult:
        """The gap between the disk's rim and the king: its stem where the disk lies lower than
        the stem's top, else its cap (the king stands upright, the disk lies flat)."""
        b, king = res.final["baton1"], res.final[KING_ID]
        felled = king.tilt > KING_FELLED_TILT
        on_board = b.position[2] > 0 and match.pitch.in_pitch(*b.position[:2])
        mushroom = match._eq().king
        assert isinstance(mushroom, MushroomPiece)
        king_foot = king.position[2] - king.half_extents[2]
        below_cap = b.position[2] + min(b.half_extents) < king_foot + mushroom.stem_height
        reach = mushroom.stem_diameter / 2 if below_cap else mushroom.diameter / 2
        apart = math.hypot(b.position[0] - king.position[0], b.position[1] - king.position[1])
        dist = max(0.0, apart - max(b.half_extents) - reach)
        return LagResult(dist if on_board else None, felled, KING_ID in res.touched)

    # ------------------------------------------------------------------ batons
    def baton_target(self, match: MatchCore, player: Player, side: str, candidates: Candidates, line_x: float) -> str:
        return player.choose_flick_target(match._w, side, candidates, line_x)

    def before_baton(self, match: MatchCore, side: str) -> dict[str, Pose]:
        """The flicker's own standing kubbs (a flick may knock them; they stand again)."""
        return {k.id: k.pose for k in match.state.standing_in(side)}  # type: ignore[arg-type]

    def baton_release(
        self,
        match: MatchCore,
        player: Player,
        action: BatonThrow | KingThrow,
        world: World,
        target: tuple[float, float, float],
        king: bool,
    ) -> tuple[Make, Run]:
        """A king flick arrives firmly (:attr:`kubb3d.players.Strategy.king_arrive_mps`), a
        flick at a kubb as :meth:`~kubb3d.players.Player.baton_flick`'s default."""

        def make(rng: np.random.Generator) -> tuple[Params, Params]:
            aim = (target[0], target[1])
            if king:
                arrive = player.strategy.king_arrive_mps
                return player.baton_flick(match._w, action.side, action.line_x, aim, rng, arrive_speed=arrive)
            return player.baton_flick(match._w, action.side, action.line_x, aim, rng)

        def run(p: Params) -> Generator[ThrowFrame, None, ThrowResult]:
            return flick_iter(match, match._w, action.baton, p, "baton")

        return make, run

    def baton_void(self, match: MatchCore, action: BatonThrow | KingThrow) -> None:
        """A flick without effect: the baton leaves the board."""
        if match._w.has_piece(action.baton):
            match._w.remove_piece(action.baton)

    def baton_settled(self, match: MatchCore, res: ThrowResult) -> ThrowResult:
        """The pieces' contact forces settled before the judge reads the board."""
        match._w.settle_forces()
        return replace(res, final=match._w.snapshot())

    def king_from_baseline(self, match: MatchCore, action: KingThrow, res: ThrowResult) -> bool:
        """``KT rules``: "attempts to knock over the King also happen from the baseline.
        Knocking over the King from anywhere but the baseline will result in losing the game":
        the disk's centre starts on or behind the baseline (its flicking line, None: the
        baseline, less ``behind_line``). A person's flick can name a line nearer the centre;
        the judge then takes it for no king throw, and a king it knocks over loses."""
        p = res.params
        if not isinstance(p, FlickParams):
            return True
        pitch = match.pitch
        base = pitch.baseline_x(action.side)
        line = base if p.line_x is None else p.line_x
        start = line - pitch.forward(action.side) * p.behind_line
        return pitch.forward(action.side) * (start - base) <= 1e-9

    def baton_cleared(
        self, match: MatchCore, action: BatonThrow | KingThrow, judgement: ThrowJudgement, before_own: dict[str, Pose]
    ) -> None:
        """Apply :func:`kubb3d.rules.kubbuteo.after_flick`: the baton leaves the world, the
        knocked kubbs are parked off the board, the kubbs to stand again are set."""
        w = match._w
        now = {}
        for kid in before_own:
            pos, q = w.pose(kid)
            now[kid] = Pose(tuple(float(v) for v in pos), tuple(float(v) for v in q))  # type: ignore[arg-type]
        clear = after_flick(action.baton, judgement.felled, judgement.raise_again, match.round_start, before_own, now)
        for pid in clear.remove:
            if w.has_piece(pid):
                w.remove_piece(pid)
        for kid in clear.pick_up:
            if w.has_piece(kid):
                match._park(kid)
        for kid, p in clear.stand_again.items():
            if w.has_piece(kid):
                w.set_pose(kid, p.position, p.quat_xyzw, wake=False)
        match._make_room({kid for kid in clear.stand_again if w.has_piece(kid)})
        w.sleep_all()

    # ------------------------------------------------------------------ kubbs
    def inkast_target(
        self, match: MatchCore, player: Player, from_side: str, receiving: bool, index: int, eq: EquipmentSet
    ) -> tuple[float, float]:
        """Where a returned kubb is aimed (``KT rules``: returns)."""
        assert isinstance(eq.kubb, DiskPiece)
        return player.return_target(match.pitch, from_side, index, eq.kubb.radius)

    def inkast_release(
        self, match: MatchCore, player: Player, world: World, kid: str, from_side: str, target: tuple[float, float]
    ) -> tuple[Make, Run]:
        def make(rng: np.random.Generator) -> tuple[Params, Params]:
            return player.baton_flick(
                match._w, from_side, match.pitch.baseline_x(from_side), target, rng, arrive_speed=0.0, kind="kubb"
            )

        def run(p: Params) -> Generator[ThrowFrame, None, ThrowResult]:
            return flick_iter(match, match._w, kid, p, "kubb")

        return make, run

    def inkast_awaiting(self, match: MatchCore, kubbs: Sequence[str]) -> dict[str, Pose]:
        """None: a returned kubb stands at once."""
        return {}

    def stand_valid(self, match: MatchCore, valid: Mapping[str, Pose]) -> None:
        """A valid return is stood up where it rests at once (``KT rules``)."""
        for kid, pose in valid.items():
            match._w.set_pose(kid, pose.position, pose.quat_xyzw, wake=False)
        match._make_room(set(valid))

"""A small geometric stand-in for the judge (tests only), with the contract's names.

Rules (deliberately simple): a kubb or the king more than 30° from vertical is down; an
illegal throw has every felled kubb raised again; a baseline kubb that falls while a field
kubb of its half still stands is raised at the end of the round (DM §5); an inkasted kubb is
valid when its centre lies in the target half with half a kubb of margin, and is raised
upright on that spot; no stößel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping

from kubb3d.judge.rulings import Consequence, Pose, Ruling, Status
from kubb3d.pitch import opponent

DOWN = math.radians(30.0)


@dataclass(frozen=True)
class ThrowContext:
    ruleset: str = "dm"
    thrower: str = "A"
    legal: bool = True
    violations: tuple = ()
    king_throw: bool = False
    round_start: Mapping[str, Pose] = field(default_factory=dict)
    field_kubbs: frozenset = frozenset()
    already_felled: frozenset = frozenset()


@dataclass(frozen=True)
class ThrowJudgement:
    rulings: tuple
    felled: frozenset
    raise_again: frozenset
    winner: str | None = None
    loser: str | None = None

    def to_dict(self) -> dict:
        return {"rulings": [r.to_dict() for r in self.rulings], "felled": sorted(self.felled), "raise_again": sorted(self.raise_again), "winner": self.winner, "loser": self.loser}


@dataclass(frozen=True)
class InkastContext:
    ruleset: str = "dm"
    inkasting_side: str = "A"
    inkasted: tuple = ()
    attempt: int = 1


@dataclass(frozen=True)
class InkastJudgement:
    rulings: tuple
    raised: Mapping[str, Pose]

    def to_dict(self) -> dict:
        return {"rulings": [r.to_dict() for r in self.rulings]}


def _down(p) -> bool:
    return p.tilt > DOWN


def judge_throw(after, ctx: ThrowContext, params=None, hand_check=None) -> ThrowJudgement:
    half = opponent(ctx.thrower)
    rulings, felled, again = [], set(), set()
    kubbs = [p for pid, p in sorted(after.pieces.items()) if p.kind == "kubb" and pid in ctx.round_start and after.pitch.half_of(ctx.round_start[pid].position[0]) == half]
    down = {p.id for p in kubbs if _down(p) and p.id not in ctx.already_felled}
    field_standing = {k for k in ctx.field_kubbs if k not in down}
    for pid in sorted(down):
        if not ctx.legal:
            again.add(pid)
            rulings.append(Ruling(pid, Status.FALLEN, Consequence.RAISE_AT_ORIGINAL_SPOT, ("DM §5",), "illegal throw"))
        elif pid not in ctx.field_kubbs and field_standing:
            again.add(pid)
            rulings.append(Ruling(pid, Status.FALLEN, Consequence.RAISE_AT_ORIGINAL_SPOT, ("DM §5",), "baseline kubb before the field kubbs"))
        else:
            felled.add(pid)
            rulings.append(Ruling(pid, Status.FALLEN, Consequence.COUNTS_AS_FELLED, ("DM §5",), "down"))
    winner = loser = None
    if _down(after["king"]):
        all_down = all(p.id in felled or p.id in ctx.already_felled for p in kubbs)
        if ctx.king_throw and ctx.legal and all_down:
            winner, loser = ctx.thrower, half
            rulings.append(Ruling("king", Status.FALLEN, Consequence.GAME_WON, ("DM §10",), "king throw"))
        else:
            winner, loser = half, ctx.thrower
            rulings.append(Ruling("king", Status.FALLEN, Consequence.GAME_LOST, ("DM §1",), "early king"))
    return ThrowJudgement(tuple(rulings), frozenset(felled), frozenset(again), winner, loser)


def judge_inkast(after, ctx: InkastContext, params=None) -> InkastJudgement:
    half = opponent(ctx.inkasting_side)
    pitch = after.pitch
    rulings, raised = [], {}
    for kid in ctx.inkasted:
        p = after[kid]
        x, y, _ = p.position
        hw = p.half_extents[0]
        lo, hi = (-pitch.length / 2, 0.0) if half == "A" else (0.0, pitch.length / 2)
        if lo + hw <= x <= hi - hw and abs(y) <= pitch.half_width - hw and math.hypot(x, y) > 0.2:
            pose = Pose((x, y, p.half_extents[2]), (0.0, 0.0, 0.0, 1.0))
            raised[kid] = pose
            rulings.append(Ruling(kid, Status.FALLEN, Consequence.RAISE_HERE, ("DM §7",), "in the field", raised_pose=pose, valid=True))
        else:
            c = Consequence.RETHROW if ctx.attempt == 1 else Consequence.PENALTY_KUBB
            rulings.append(Ruling(kid, Status.FALLEN, c, ("DM §6",), "out of the field", valid=False))
    return InkastJudgement(tuple(rulings), raised)

"""The rules engine's records (no physics): :class:`KubbInfo`, the engine's view of one kubb,
and :class:`Event`, one line of a match's play-by-play. :class:`~kubb3d.rules.MatchState`
holds them; both are importable from :mod:`kubb3d.rules.core` as before."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from kubb3d.judge.rulings import Pose
from kubb3d.pitch import Side


@dataclass
class KubbInfo:
    """The engine's view of one kubb.

    Attributes:
        id: kubb id (``A1`` …).
        half: the half it stands (or lies) in.
        baseline: still a baseline kubb of ``half`` (never felled).
        standing: counts as standing (False: felled, waiting to be inkasted).
        pose: last known pose (baseline spot at the start; raised pose after an inkast).
        removed: taken out of the game as a tie-break kubb (``DM §9``).
    """

    id: str
    half: Side
    baseline: bool
    standing: bool
    pose: Pose
    removed: bool = False


@dataclass
class Event:
    """One line of the play-by-play.

    Attributes:
        clock_s: match clock when it happened, s.
        set_no, turn_no: 1-based; 0 before the first set / turn.
        kind: short tag (``lag``, ``throw``, ``inkast`` …).
        text: one readable sentence.
        rules: citations.
        side, player: who acted (None if nobody in particular).
    """

    clock_s: float
    set_no: int
    turn_no: int
    kind: str
    text: str
    rules: tuple[str, ...] = ()
    side: Side | None = None
    player: str | None = None

    def to_dict(self) -> dict[str, Any]:
        # every field is immutable (numbers, strings, a tuple of strings): a shallow dict in field
        # order is what asdict gave without its deep copies (1.5 % of a match's time)
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["rules"] = list(self.rules)
        return d


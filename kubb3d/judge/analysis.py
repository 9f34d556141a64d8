"""What the judge measures of a piece (:class:`Analysis`) and a snapshot's contacts grouped by
piece (:class:`ContactIndex`): the types the status analysis of Kubb (:mod:`kubb3d.judge.status`)
and of the tabletop game (:mod:`kubb3d.judge.table`) share."""

from __future__ import annotations

from dataclasses import dataclass

from kubb3d.judge.geometry import Vec
from kubb3d.judge.rulings import Status
from kubb3d.snapshot import Snapshot


class ContactIndex:
    """Contacts of a snapshot grouped by piece (built once per judgement).

    ``by_piece[id]`` is a list of ``(other_id, point_on_piece, normal_towards_piece,
    normal_force_N)``; a piece without any contact record is absent.
    """

    __slots__ = ("by_piece", "has_forces")

    def __init__(self, snapshot: Snapshot) -> None:
        by: dict[str, list[tuple[str, Vec, Vec, float]]] = {}
        has_forces = False
        for c in snapshot.contacts:
            n = c.normal_on_b
            f = c.normal_force
            if f > 0:
                has_forces = True
            by.setdefault(c.a, []).append((c.b, c.position_on_a, n, f))
            by.setdefault(c.b, []).append((c.a, c.position_on_b, (-n[0], -n[1], -n[2]), f))
        self.by_piece = by
        self.has_forces = has_forces


@dataclass(frozen=True, kw_only=True)
class Analysis:
    """Everything the judge measured about one piece.

    Attributes:
        piece: piece id.
        status: the status.
        reason: one sentence a referee would say.
        tilt: angle of the long axis from the vertical, rad (kubbs: from either end,
            in [0, π/2]; the king: from its base, in [0, π]).
        margin: how far the centre of mass projects inside the base footprint, m
            (negative: outside, the piece tips over without support).
        grounded: the piece touches the ground.
        touching: ids of the bodies (not the ground) it touches, strongest contact first.
        supporters: ids of the bodies that hold it up (``leaning``) or carry it
            (``stößel``), strongest first; empty otherwise.
        doubt: a doubtful case for the DM §5 hand check.
        hand_check: the hand check decided the status.
    """

    piece: str
    status: Status
    reason: str
    tilt: float
    margin: float
    grounded: bool
    touching: tuple[str, ...]
    supporters: tuple[str, ...]
    doubt: bool
    hand_check: bool = False

"""What physics and the judge made of an action (:class:`LagResult`, :class:`ThrowOutcome`,
:class:`InkastOutcome`, pushed with it), and how a match ended (:class:`Outcome`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Mapping

from kubb3d.errors import UnknownNameError
from kubb3d.judge.rulings import Pose
from kubb3d.pitch import Side


class Termination(str, Enum):
    """How a match ended."""

    KING = "king felled by a legal king throw"
    EARLY_KING = "king felled early"
    SETS = "sets won"
    TIME = "time limit"
    ROUND_CAP = "round cap"


@dataclass(frozen=True)
class Outcome:
    """The end of a match.

    Attributes:
        termination: how it ended (of the deciding set or the match).
        winner: player name, or None for a draw.
        points: player → points (DM: sets won; WS: 2/1/0, ``WS`` "End of the Game").
        sets: player → sets won.
        reason: one sentence with the rule citation.
    """

    termination: Termination
    winner: str | None
    points: Mapping[str, int]
    sets: Mapping[str, int]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly dict."""
        return {
            "termination": self.termination.name,
            "winner": self.winner,
            "points": dict(self.points),
            "sets": dict(self.sets),
            "reason": self.reason,
        }


# ---------------------------------------------------------------------- outcomes
def _pose_dict(p: Pose) -> dict[str, Any]:
    return {"position_m": list(p.position), "quat_xyzw": list(p.quat_xyzw)}


def _pose_from(d: Mapping[str, Any]) -> Pose:
    return Pose(tuple(d["position_m"]), tuple(d.get("quat_xyzw", (0, 0, 0, 1))))


@dataclass(frozen=True)
class LagResult:
    """What a lag throw achieved (``DM §3``).

    Attributes:
        distance: shortest distance baton–king at rest, m (None: the baton left the pitch,
            counted as infinitely far).
        king_felled: this throw felled the king (the thrower loses the lag).
        king_hit: the baton touched the king at any moment of the throw, felled or not
            (:meth:`Ruleset.lag_lost`: WS "Sequence of Play" "If the king is hit").
    """

    distance: float | None
    king_felled: bool = False
    king_hit: bool = False

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": "lag", "distance_m": self.distance, "king_felled": self.king_felled}
        if self.king_hit:
            d["king_hit"] = True
        return d


@dataclass(frozen=True)
class ThrowOutcome:
    """The judge's verdict on one baton or king throw.

    Attributes:
        felled: kubbs that count as felled (``DM §5``, WS basic rule 9).
        raise_again: kubbs stood up at their original spot at the end of the turn.
        winner, loser: sides, when the king fell (``DM §1``, ``§10``).
        legal: the throw kept the throwing rules (``DM §5``, WS basic rules 5, 7).
        poses: optional new poses of kubbs that still stand (moved by the throw).
        rulings: the judge's rulings, kept for the record (``Ruling.to_dict`` dicts).
    """

    felled: frozenset[str] = frozenset()
    raise_again: frozenset[str] = frozenset()
    winner: Side | None = None
    loser: Side | None = None
    legal: bool = True
    poses: Mapping[str, Pose] = field(default_factory=dict)
    rulings: tuple[Any, ...] = ()

    @classmethod
    def from_judgement(cls, j: Any, legal: bool = True, poses: Mapping[str, Pose] | None = None) -> "ThrowOutcome":
        """From a judge's ``ThrowJudgement`` (``felled``, ``raise_again``, ``raise_now``, ``winner``,
        ``loser``, ``rulings``): the kubbs of ``raise_again`` that the match stands up at once
        (``raise_now``: felled by a foul, DM §5, WS basic rule 7; the thrower's own) are not left for
        the end of the turn; standing again, they are targets like any other."""
        rulings = tuple(r.to_dict() if hasattr(r, "to_dict") else r for r in getattr(j, "rulings", ()))
        later = frozenset(j.raise_again) - frozenset(getattr(j, "raise_now", ()))
        return cls(frozenset(j.felled), later, j.winner, j.loser, legal, dict(poses or {}), rulings)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "throw",
            "felled": sorted(self.felled),
            "raise_again": sorted(self.raise_again),
            "winner": self.winner,
            "loser": self.loser,
            "legal": self.legal,
            "poses": {k: _pose_dict(p) for k, p in sorted(self.poses.items())},
            "rulings": list(self.rulings),
        }


@dataclass(frozen=True)
class InkastOutcome:
    """The judge's verdict on inkasted (or penalty) kubbs (``DM §6``, ``§7``; WS basic rules 10–13).

    Attributes:
        valid: kubb → pose it will stand in after raising (``RAISE_HERE``).
        invalid: kubbs that landed invalid (``RETHROW`` / ``PENALTY_KUBB``).
        stossel: valid stößel, placed freely by the inkaster (``DM §7``).
        king_felled: the king fell during the inkast.
        rulings: the judge's rulings, for the record.
    """

    valid: Mapping[str, Pose] = field(default_factory=dict)
    invalid: frozenset[str] = frozenset()
    stossel: frozenset[str] = frozenset()
    king_felled: bool = False
    rulings: tuple[Any, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "inkast",
            "valid": {k: _pose_dict(p) for k, p in sorted(self.valid.items())},
            "invalid": sorted(self.invalid),
            "stossel": sorted(self.stossel),
            "king_felled": self.king_felled,
            "rulings": list(self.rulings),
        }


def outcome_from_dict(d: Mapping[str, Any] | None) -> LagResult | ThrowOutcome | InkastOutcome | None:
    """Inverse of the ``to_dict`` methods of the outcome classes (None passes through)."""
    if d is None:
        return None
    kind = d.get("kind")
    if kind == "lag":
        return LagResult(d["distance_m"], bool(d["king_felled"]), bool(d.get("king_hit", False)))
    if kind == "throw":
        return ThrowOutcome(
            frozenset(d["felled"]),
            frozenset(d["raise_again"]),
            d["winner"],
            d["loser"],
            bool(d["legal"]),
            {k: _pose_from(p) for k, p in d.get("poses", {}).items()},
            tuple(d.get("rulings", ())),
        )
    if kind == "inkast":
        return InkastOutcome(
            {k: _pose_from(p) for k, p in d["valid"].items()},
            frozenset(d["invalid"]),
            frozenset(d["stossel"]),
            bool(d["king_felled"]),
            tuple(d.get("rulings", ())),
        )
    raise UnknownNameError(f"unknown outcome kind {kind!r}")

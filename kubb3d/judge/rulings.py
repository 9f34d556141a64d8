"""Rulings as data: what the judge says about each piece, with the rule it applies.

A :class:`Ruling` is the contract between the judge and the match engine (the
rules engine reads rulings, never physics). Citations use the seed short
names and sections of the rule documents (docs/sources.md): ``DM §5``, ``WS basic rule 13``.
The values of :class:`Status` and :class:`Consequence` are English and marked for translation
(``N_``); a reason is a :class:`kubb3d.judge.messages.Msg` where the judge builds it from a
template (docs/german.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from kubb3d.judge.messages import N_


class Status(str, Enum):
    """A kubb's or the king's state at rest (DM §5, §7; WS basic rules 8–9)."""

    STANDING = N_("standing")
    """Upright on an end face and self-supporting."""
    FALLEN = N_("fallen")
    """Lying, or tilted past its tipping angle."""
    LEANING = N_("leaning")
    """Upright-ish but held up by another body: counts as fallen (DM §5, WS basic rule 9)."""
    STOSSEL = N_("stößel")
    """Lying on other kubbs with no ground contact (DM §7)."""
    OFF_BOARD = N_("off the board")
    """Kubbuteo: the piece touches the floor or rests below the board top (KT rules); counts as knocked."""


class Consequence(str, Enum):
    """What has to happen to a piece after a ruling."""

    NONE = N_("none")
    """Nothing: the piece stays as it is (e.g. a standing kubb)."""
    COUNTS_AS_FELLED = N_("counts as felled")
    """The kubb is down: it will be inkasted by its owner (DM §6, WS basic rule 10)."""
    RAISE_AT_ORIGINAL_SPOT = N_("raise at original spot")
    """Stood up again where it stood before (early baseline kubb, illegal throw, accident)."""
    SET_INSIDE = N_("set inside")
    """A standing kubb pushed across a sideline (a field kubb also across the baseline behind its
    half) is set back just inside (kubb3d's decision),
    see ``Ruling.raised_pose``."""
    RAISE_HERE = N_("raise here")
    """An inkasted kubb is raised where it lies (DM §7), see ``Ruling.raised_pose``."""
    RETHROW = N_("rethrow")
    """An invalid inkast: thrown again once (DM §6, WS basic rule 11)."""
    PENALTY_KUBB = N_("penalty kubb")
    """Invalid twice: becomes a penalty kubb, thrown (DM §6) or placed by the opponent in its own field
    (WS basic rule 11)."""
    PLACE_FREELY = N_("place freely")
    """A valid stößel, placed by hand by the inkasting side at a valid spot (DM §7, WS basic rule 13)."""
    GAME_LOST = N_("game lost")
    """The king fell early: the thrower's side loses (DM §1, WS "End of the Game")."""
    GAME_WON = N_("game won")
    """The king fell to a legal king throw after all kubbs were down (DM §10)."""


@dataclass(frozen=True)
class Pose:
    """A piece pose: bounding-box centre (m) and ``quat_xyzw``."""

    position: tuple[float, float, float]
    quat_xyzw: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 1.0)


@dataclass(frozen=True, kw_only=True)
class Ruling:
    """The judge's word on one piece (built with keywords only: ``Ruling(piece=…, status=…)``).

    Attributes:
        piece: piece id.
        status: the piece's status at rest.
        consequence: what has to happen to it.
        rules: citations, e.g. ``("DM §5",)``.
        reason: one sentence a referee would say.
        hand_check: True if the counterfactual "hand check" (DM §5) decided it.
        raised_pose: where the kubb stands after raising (``RAISE_HERE`` / ``PLACE_FREELY``).
        valid: for inkasted kubbs, whether the inkast is valid (None otherwise).
    """

    piece: str
    status: Status
    consequence: Consequence
    rules: tuple[str, ...]
    reason: str
    hand_check: bool = False
    raised_pose: Pose | None = None
    valid: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly dict."""
        d: dict[str, Any] = {
            "piece": self.piece,
            "status": self.status.value,
            "consequence": self.consequence.value,
            "rules": list(self.rules),
            "reason": self.reason,
            "hand_check": self.hand_check,
        }
        if self.valid is not None:
            d["valid"] = self.valid
        if self.raised_pose is not None:
            d["raised_pose"] = {
                "position_m": list(self.raised_pose.position),
                "quat_xyzw": list(self.raised_pose.quat_xyzw),
            }
        return d


class RulingsLookup:
    """Mixin for judgements holding ``rulings: tuple[Ruling, ...]``: find one piece's ruling."""

    rulings: tuple[Ruling, ...]

    def ruling(self, piece: str) -> Ruling:
        """The ruling on one piece (KeyError if none)."""
        for r in self.rulings:
            if r.piece == piece:
                return r
        raise KeyError(piece)

"""An inkast as the judge sees it: its context (:class:`InkastContext`) and the judge's word on
it (:class:`InkastJudgement`), shared by the raising of Kubb (:mod:`kubb3d.judge.raising`) and
the returns of the tabletop game (:mod:`kubb3d.judge.kubbuteo`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from kubb3d.errors import JudgeInputError
from kubb3d.judge.options import option
from kubb3d.judge.rulebook import get_rulebook
from kubb3d.judge.rulings import Consequence, Pose, Ruling, RulingsLookup
from kubb3d.pitch import Side


@dataclass(frozen=True)
class InkastContext:
    """What the judge must know about an inkast besides the snapshot after it.

    Attributes:
        ruleset: a rule book name (:func:`kubb3d.judge.rulebook.rulebook_names`).
        inkasting_side: the side that threw the kubbs into the opponent's half.
        inkasted: ids of the kubbs thrown (in throwing order).
        attempt: 1 (first throw) or 2 (the one rethrow).
        before: pose of other pieces before the inkast (to detect and undo moved
            pieces, WS basic rule 14); empty: not checked.
        prefer: ``back`` or ``front``: the raising side's choice when both
            directions are valid (towards its own baseline, or towards the centre line).
        options: referee options (:mod:`kubb3d.judge.options`: ``raise_order``); missing
            keys take the ruleset's defaults.
        awaiting: kubbs of an earlier attempt of this inkast that landed valid and are not
            raised yet (DM §7 "Danach"; WS basic rule 12: raising waits for every kubb to be
            thrown), with the poses they will be raised to: there they block this attempt's
            raising, wherever they lie now.
        thrower: who threw the kubbs, if not the inkasting side: a penalty kubb thrown by the
            receiving side into its own half (``DM §6``). A king it fells loses for its thrower
            (``DM §1`` "mit Kubb oder Wurfholz").
    """

    ruleset: str = "dm"
    inkasting_side: Side = "B"
    inkasted: tuple[str, ...] = ()
    attempt: int = 1
    before: Mapping[str, Pose] = field(default_factory=dict)
    prefer: str = "back"
    options: Mapping[str, Any] = field(default_factory=dict)
    thrower: Side | None = None
    awaiting: Mapping[str, Pose] = field(default_factory=dict)

    @property
    def feller(self) -> Side:
        """The side that loses if the king falls: :attr:`thrower`, else the inkasting side."""
        return self.inkasting_side if self.thrower is None else self.thrower

    def __post_init__(self) -> None:
        get_rulebook(self.ruleset)
        option(self.options, "raise_order", self.ruleset)  # a bad value fails here
        if self.thrower not in (None, "A", "B"):
            raise JudgeInputError(f"thrower must be 'A', 'B' or None, got {self.thrower!r}")
        if self.inkasting_side not in ("A", "B"):
            raise JudgeInputError(f"inkasting_side must be 'A' or 'B', got {self.inkasting_side!r}")
        if self.attempt not in (1, 2):
            raise JudgeInputError(f"attempt must be 1 or 2, got {self.attempt!r}")
        if self.prefer not in ("back", "front"):
            raise JudgeInputError(f"prefer must be 'back' or 'front', got {self.prefer!r}")


@dataclass(frozen=True)
class InkastJudgement(RulingsLookup):
    """The judge's word on an inkast.

    Attributes:
        rulings: one per inkasted kubb (RAISE_HERE / PLACE_FREELY if valid, RETHROW or
            PENALTY_KUBB if not), plus pieces the inkast disturbed and the king if it fell.
        raised: kubb id → raised pose of every valid inkasted kubb (for a stößel: the
            judge's proposal of a free valid spot).
        penalty: None, or how penalty kubbs are brought in: ``throw`` (DM §6) or
            ``place`` (WS basic rule 11).
        raise_now: disturbed pieces to set up again at their spot before raising.
        winner, loser: set if an inkasted kubb felled the king.
    """

    rulings: tuple[Ruling, ...]
    raised: Mapping[str, Pose]
    penalty: str | None = None
    raise_now: frozenset[str] = frozenset()
    winner: Side | None = None
    loser: Side | None = None

    @property
    def valid(self) -> dict[str, Pose]:
        """Kubb → raised pose of the valid kubbs raised where they lie (``RAISE_HERE``)."""
        return {
            r.piece: r.raised_pose
            for r in self.rulings
            if r.consequence is Consequence.RAISE_HERE and r.raised_pose is not None
        }

    @property
    def invalid(self) -> frozenset[str]:
        """Inkasted kubbs that landed invalid (``RETHROW`` or ``PENALTY_KUBB``)."""
        return frozenset(
            r.piece for r in self.rulings if r.consequence in (Consequence.RETHROW, Consequence.PENALTY_KUBB)
        )

    @property
    def stossel(self) -> frozenset[str]:
        """Valid stößel, placed freely by the inkasting side (``PLACE_FREELY``, DM §7)."""
        return frozenset(r.piece for r in self.rulings if r.consequence is Consequence.PLACE_FREELY)

    @property
    def king_felled(self) -> bool:
        """An inkasted kubb felled the king (the inkasting side loses, DM §1)."""
        return self.loser is not None

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly dict."""
        return {
            "event": "inkast",
            "rulings": [r.to_dict() for r in self.rulings],
            "raised": {
                k: {"position_m": list(p.position), "quat_xyzw": list(p.quat_xyzw)}
                for k, p in sorted(self.raised.items())
            },
            "penalty": self.penalty,
            "raise_now": sorted(self.raise_now),
            "winner": self.winner,
            "loser": self.loser,
        }

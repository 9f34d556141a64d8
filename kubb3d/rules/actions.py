"""The phases of a match and its actions (python-chess's moves): what a player does, named by
side or player, and their dict form for replays (:func:`action_to_dict`, :func:`action_from_dict`)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, Mapping

from kubb3d.errors import UnknownNameError
from kubb3d.judge.messages import N_
from kubb3d.pitch import Side


class Phase(str, Enum):
    """Where the match stands (the table of :mod:`kubb3d.rules.core`)."""

    LAG = N_("lag throw")
    CHOOSE = N_("choose")
    INKAST = N_("inkast")
    PENALTY = N_("penalty kubb")
    RAISE = N_("raise")
    PLACE = N_("place stößel")
    TIEBREAK = N_("tie-break kubb")
    THROW = N_("throw")
    OVER = N_("over")


# ---------------------------------------------------------------------- actions
@dataclass(frozen=True)
class LagThrow:
    """A lag throw at the king from the baseline of ``side`` (``DM §3``, WS "Sequence of Play")."""

    side: Side
    thrower: int = 0


@dataclass(frozen=True)
class Choose:
    """A decision after a lag throw (``DM §3``, ``DM §9``).

    Attributes:
        player: who decides.
        what: ``end`` (value: the side ``A``/``B`` the player takes), ``start`` (value: the
            player who opens the set), ``advantage`` (value: ``tiebreak`` to take the
            tie-break advantage, ``choices`` to take end and opener choices, ``DM §9``).
        value: see ``what``.
    """

    player: str
    what: str
    value: str


def choice_message(player: str, what: str, value: str, other: str) -> str:
    """The play-by-play's sentence of a :class:`Choose` (``DM §3``, ``DM §9``): ``P2 takes end
    A``, ``P2 decides that P2 opens``, ``P1 takes the tie-break advantage; …``; ``other``: the
    other player (who gets the advantage the chooser leaves). One wording for the match's lines
    and the reports of ``kubb3d analyse`` and ``whatif``; a message of the catalog."""
    from kubb3d.judge.messages import msg

    if what == "end":
        return msg("{player} takes end {end}", player=player, end=value)
    if what == "start":
        return msg("{player} decides that {opener} opens", player=player, opener=value)
    if value == "tiebreak":  # what == "advantage" (action_from_dict checks the value)
        return msg(
            "{player} takes the tie-break advantage; {adv} has the tie-break advantage", player=player, adv=player
        )
    return msg(
        "{player} takes the choice of end and opener; {adv} has the tie-break advantage", player=player, adv=other
    )


@dataclass(frozen=True)
class Inkast:
    """Side throws the kubbs felled in its half into the opponent's half (``DM §6``).

    Attributes:
        side: the inkasting side.
        kubbs: kubb ids, in throwing order.
        attempt: 1, or 2 for the rethrow of the invalid ones.
    """

    side: Side
    kubbs: tuple[str, ...]
    attempt: int = 1


@dataclass(frozen=True)
class PenaltyThrow:
    """``DM §6``: a penalty kubb thrown from the inkaster's baseline into the opponent's half,
    first by the opponent, then alternating until it lands valid.

    Attributes:
        side: who throws it now.
        kubb: kubb id.
        number: 1-based count of throws of this penalty kubb.
        from_side: the baseline it is thrown from (the original inkaster's).
    """

    side: Side
    kubb: str
    number: int
    from_side: Side


@dataclass(frozen=True)
class PlaceKubb:
    """A kubb placed upright by hand: a WS penalty kubb (``WS basic rule 11``), a stößel
    (``DM §7``), or a penalty kubb after :data:`PENALTY_ALTERNATION_CAP` failures.

    Attributes:
        side: who places it.
        kubb: kubb id.
        position: (x, y) of the kubb's centre, m; None in :meth:`MatchState.legal_actions`
            (any position allowed by :meth:`MatchState.placement_error`).
        reason: ``penalty`` or ``stößel``.
        half: the half it goes into.
    """

    side: Side
    kubb: str
    position: tuple[float, float] | None
    reason: str
    half: Side


@dataclass(frozen=True)
class Raise:
    """The receiving side raises the inkasted kubbs (``DM §7``; in kubb3d the judge decides the poses)."""

    side: Side
    kubbs: tuple[str, ...]


@dataclass(frozen=True)
class RemoveTieBreakKubb:
    """``DM §9``: a tie-break kubb taken out of the game (actor: see :meth:`MatchState.legal_actions`)."""

    side: Side
    kubb: str
    half: Side


@dataclass(frozen=True)
class BatonThrow:
    """A baton thrown at the opponent's kubbs from the line ``line_x`` (``DM §8``, WS basic rule 6).

    Attributes:
        side: thrower's side.
        baton: ``baton1`` … ``baton6``.
        line_x: x of the throwing line, m.
        thrower: team member index (WS basic rule 4: one baton per player); 0 for a duel.
    """

    side: Side
    baton: str
    line_x: float
    thrower: int = 0


@dataclass(frozen=True)
class KingThrow:
    """A throw at the king from the own baseline after all opponent kubbs are down (``DM §10``)."""

    side: Side
    baton: str
    line_x: float
    thrower: int = 0


Action = LagThrow | Choose | Inkast | PenaltyThrow | PlaceKubb | Raise | RemoveTieBreakKubb | BatonThrow | KingThrow
ACTION_TYPES: dict[str, type[Action]] = {
    c.__name__: c
    for c in (LagThrow, Choose, Inkast, PenaltyThrow, PlaceKubb, Raise, RemoveTieBreakKubb, BatonThrow, KingThrow)
}


def action_to_dict(action: Action) -> dict[str, Any]:
    """JSON-friendly dict with a ``type`` key."""
    d: dict[str, Any] = {"type": type(action).__name__}
    for f in fields(action):
        v = getattr(action, f.name)
        d[f.name] = list(v) if isinstance(v, tuple) else v
    return d


def action_from_dict(d: Mapping[str, Any]) -> Action:
    """Inverse of :func:`action_to_dict`. Raises UnknownNameError for an unknown type."""
    cls = ACTION_TYPES.get(str(d.get("type")))
    if cls is None:
        known = ", ".join(sorted(ACTION_TYPES))
        raise UnknownNameError(f"unknown action type {d.get('type')!r}; expected one of {known}")
    kw: dict[str, Any] = {
        f.name: (tuple(d[f.name]) if isinstance(d.get(f.name), list) else d.get(f.name))
        for f in fields(cls)
        if f.name in d
    }
    return cls(**kw)


def action_words(action: Any) -> str:
    """An action in words for an error line, not a Python repr: ``baton throw (side A,
    baton baton1, line x 4.0, thrower 0)``; fields that are None are left out."""
    import re

    name = re.sub(r"(?<!^)(?=[A-Z])", " ", type(action).__name__).lower()
    try:
        given = [(f.name, getattr(action, f.name)) for f in fields(action)]
        parts = [f"{name.replace('_', ' ')} {value}" for name, value in given if value is not None]
    except TypeError:  # not a dataclass
        return str(action)
    return f"{name} ({', '.join(parts)})" if parts else name


def legal_words(actions: Any, most: int = 4) -> str:
    """The legal actions in words (:func:`action_words`), the first ``most`` and how many in all."""
    actions = list(actions)
    if not actions:
        return "none"
    shown = "; ".join(action_words(a) for a in actions[:most])
    return shown if len(actions) <= most else f"{shown}; … ({len(actions)} in all)"

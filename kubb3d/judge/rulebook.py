"""Rule books: everything the judge, the throw check and the rules engine read from a ruleset.

A :class:`Rulebook` carries one ruleset's citations (what the judge cites in each situation,
what the rules engine cites for each event), its judge tolerances, its throwing-legality
limits and the rule differences the judge applies (block building, how penalty kubbs are
put back) and, for a book the table of :mod:`kubb3d.judge.options` does not list, its
referee options' defaults.

The judge looks a book up by name with :func:`get_rulebook` and never branches on the name.
The built-in books are the modules of :mod:`kubb3d.judge.rulebooks` (``dm``, ``wikinger``,
``kubbuteo``); a new rule book is one new module there that calls :func:`register_rulebook`
(plus a rules-engine class in :mod:`kubb3d.rules` where its match flow differs). Every list
of ruleset names (command line, experiment specs, scenario files) comes from
:func:`rulebook_names`.

Layering (docs/architecture.md): this module is part of the pure judge; it imports no
physics engine and nothing from :mod:`kubb3d.rules`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, Mapping, cast

from kubb3d.errors import UnknownNameError
from kubb3d.judge.params import DEFAULT_PARAMS, JudgeParams
from kubb3d.judge.rulings import Status

Cites = tuple[str, ...]


@dataclass(frozen=True)
class JudgeCitations:
    """What the judge cites in each situation (citation strings of :mod:`kubb3d.judge.citations`).

    Attributes:
        felled: a kubb felled or standing after a throw, the plain case.
        leaning: a kubb that only stays up because it leans on another body, or that lies on
            other kubbs after a throw.
        stossel: a kubb lying on other kubbs after an inkast (stößel), and its free placement.
        turned_over: a kubb that stands again but turned over during the round (its history,
            :func:`kubb3d.judge.status.turned_over`), or one felled earlier that stands again.
        foul: a throw that broke a throwing rule (besides the rule of each violation, when
            :attr:`Rulebook.cite_violations`).
        accident: a piece moved by accident, not by a throw.
        standing_outside: a standing kubb pushed across a sideline (a field kubb also across the
            baseline behind its half), set back inside.
        own_half: a kubb of the thrower's own half moved by his throw.
        game_end: the king felled (or still standing), which ends the game or not.
        king_throw_won: the king felled by a legal king throw.
        king_throw_invalid: the king felled by a throw that does not count as a king throw.
        inkast_disturbed: a standing piece moved by an inkasted kubb.
        raising: an inkasted kubb raised into the field.
        inkast_invalid: an inkasted kubb that lands invalid (rethrow or penalty kubb).
        penalty_kubb: an inkasted kubb invalid again after its rethrow, which becomes a penalty kubb.
        warning: a first foul only warned (option ``first_foul_warning``; DM §5 "zunächst eine
            Verwarnung"), besides the rules the foul broke.
    """

    felled: Cites
    leaning: Cites
    stossel: Cites
    turned_over: Cites
    foul: Cites
    accident: Cites
    standing_outside: Cites
    own_half: Cites
    game_end: Cites
    king_throw_won: Cites
    king_throw_invalid: Cites
    inkast_disturbed: Cites
    raising: Cites
    inkast_invalid: Cites
    penalty_kubb: Cites
    warning: Cites

    def for_status(self, status: Status) -> Cites:
        """The citations of a piece's status: :attr:`leaning`, :attr:`stossel`, else :attr:`felled`."""
        if status is Status.LEANING:
            return self.leaning
        if status is Status.STOSSEL:
            return self.stossel
        return self.felled


@dataclass(frozen=True)
class ThrowRules:
    """Which throwing rules a ruleset enforces on a baton throw (checked by :mod:`kubb3d.throw`).

    Attributes:
        max_tilt_deg: largest allowed tilt out of the flight plane, deg (None: no limit).
        tilt_rule: citation for the tilt limit.
        forbid_helicopter: forbid horizontal (helicopter) rotation.
        helicopter_limit_deg: more turn about the vertical before the first contact than this,
            deg, is a helicopter throw (the referee option ``helicopter_limit``; VM 2019: 90°).
        helicopter_rule: citation for it.
        foot_rule: citation for the throwing-line check (the foot past the line).
        side_rule: citation for the sideline check (the thrower beyond the extended sidelines);
            None: the same as ``foot_rule`` (DM §5 has both in one clause).
    """

    max_tilt_deg: float | None = 30.0
    tilt_rule: str = "DM §5"
    forbid_helicopter: bool = False
    helicopter_limit_deg: float = 90.0
    helicopter_rule: str = "WS basic rule 5"
    foot_rule: str = "DM §5"
    side_rule: str | None = None

    @property
    def sideline_rule(self) -> str:
        """The citation of the sideline check: :attr:`side_rule`, else :attr:`foot_rule`."""
        return self.side_rule or self.foot_rule


@dataclass(frozen=True)
class Rulebook:
    """One ruleset as the judge, the throw check and the rules engine see it.

    Attributes:
        name: registry name (``dm`` …), as in scenario files, specs and ``--ruleset``.
        title: the rules' short name for people (``DM``, ``Wikinger-Schach``).
        summary: a few words for help texts.
        seed: short name of the rule document (``DM``, ``WS``, ``KT``).
        cites: what the judge cites, per situation.
        events: rule key → citation of the rules engine's play-by-play events (``lag``,
            ``throw``, ``raise`` …; :meth:`kubb3d.rules.core.Ruleset.cite`).
        cite_violations: rulings on a foul throw also cite the rule each violation broke.
        glitch: citation of a throw repeated after a physics glitch (the rule that a piece
            moved by something other than a throw is set up again).
        throw_rules: throwing-legality limits of a baton throw; None where pieces are not
            thrown as batons (Kubbuteo flicks disks).
        params: the judge's tolerances for this ruleset's equipment.
        block_building: a raised kubb that a kubb raised before it stops short of the field counts
            as valid when its ideal position is inside (``DM §7`` block building).
        penalty: a penalty kubb is thrown by the receiving side (``throw``, ``DM §6``) or placed
            by it (``place``, WS basic rule 11).
        returns_by_flick: inkasted kubbs are flicked disks judged by
            :func:`kubb3d.judge.kubbuteo.judge_return` instead of raised (``KT``).
        on_line: an inkasted kubb that comes to rest on a line of the field half (partly in,
            partly out) is ``outside`` unless raised with its whole base inside (``DM §7``
            "mit seiner gesamten Grundfläche im Feld"), or is valid and tipped into the field (``tip in``;
            WS basic rule 13: "it must be tipped into the field. The kubb may no longer be
            standing on the line").
        king_off_baseline: the king felled after every kubb of the target half was down, by a
            throw that is not a king throw from the baseline: the throw is invalid and the king
            is raised again (``raise``; WS "Tie-Break After the Group Stage" notes), or the thrower
            has lost (``lost``; KT "Rules": "Knocking over the King from anywhere but the baseline
            will result in losing the game").
        stand_again_now: a baseline kubb felled while field kubbs of its half stood is stood
            up again at once and is a target again like any standing kubb (``KT`` "Rules": "Any
            Baseline Kubbs knocked over while there are still Field Kubbs upright are simply
            stood up again"), instead of lying until it is raised at the end of the round
            (``DM §5``, WS basic rule 8).
        options: referee option → default under this book, where it differs from (or is
            missing in) the table of :mod:`kubb3d.judge.options`.
    """

    name: str
    title: str
    summary: str
    seed: str
    cites: JudgeCitations
    events: Mapping[str, str]
    cite_violations: bool = True
    glitch: str = ""
    throw_rules: ThrowRules | None = None
    params: JudgeParams = DEFAULT_PARAMS
    block_building: bool = False
    penalty: Literal["throw", "place"] = "throw"
    returns_by_flick: bool = False
    king_off_baseline: Literal["raise", "lost"] = "raise"
    on_line: Literal["outside", "tip in"] = "outside"
    stand_again_now: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)

    def foul_cites(self, violation_rules: Cites) -> Cites:
        """Citations of a foul throw: the rules the violations broke (when this book cites
        them), else :attr:`JudgeCitations.foul`."""
        return (violation_rules if self.cite_violations else ()) or self.cites.foul


_BOOKS: dict[str, Rulebook] = {}


def register_rulebook(book: Rulebook) -> Rulebook:
    """Add a rule book to the registry (ValueError: the name is taken by another book)."""
    old = _BOOKS.get(book.name)
    if old is not None and old != book:
        raise ValueError(f"a different rule book is already registered as {book.name!r}")
    _BOOKS[book.name] = book
    return book


def _load_builtin() -> None:
    importlib.import_module("kubb3d.judge.rulebooks")


def canonical_ruleset(name: str) -> str:
    """The registered name of a ruleset given by its name or its rule book's short name, in any
    case (``ws`` and ``WS`` → ``wikinger``, ``kt`` → ``kubbuteo``, ``DM`` → ``dm``).

    Raises:
        UnknownNameError: unknown name (the message lists the names and short names).
    """
    _load_builtin()
    if name in _BOOKS:
        return name
    for book in _BOOKS.values():
        if name.lower() in (book.name.lower(), book.seed.lower()):
            return book.name
    known = ", ".join(f"{b.name} ({b.seed.lower()})" for b in _BOOKS.values())
    raise UnknownNameError(f"unknown ruleset {name!r}; expected one of {known}")


def ruleset_alias(value: Any) -> Any:
    """``value`` as a registered name when it is a rule book's short name (``ws`` → ``wikinger``);
    anything else unchanged, for a field validator to refuse (pydantic ``BeforeValidator``)."""
    try:
        return canonical_ruleset(value) if isinstance(value, str) else value
    except ValueError:
        return value


def get_rulebook(name: str) -> Rulebook:
    """The rule book registered as ``name`` (or its short name, :func:`canonical_ruleset`).

    Raises:
        UnknownNameError: unknown name (the message lists the known ones).
    """
    _load_builtin()
    book = _BOOKS.get(name)
    if book is None:
        book = _BOOKS[canonical_ruleset(name)]
    return book


def ruleset_enum(*, baton_throws: bool = False) -> type[Enum]:
    """The registered names and their rule books' short names (``ws``, ``kt``) as a ``str``
    Enum, the choices of a ``--ruleset`` option (:func:`canonical_ruleset` maps a value back)."""
    names = {n: n for n in rulebook_names(baton_throws=baton_throws)}
    names |= {get_rulebook(n).seed.lower(): get_rulebook(n).seed.lower() for n in list(names)}
    return cast("type[Enum]", Enum("RulesetName", names, type=str))


def ruleset_help(*, baton_throws: bool = False) -> str:
    """The registered rule books for a help text: ``dm (German championship duel), …``."""
    books = [get_rulebook(n) for n in rulebook_names(baton_throws=baton_throws)]
    return ", ".join(f"{b.name} ({b.summary})" for b in books)


def rulebook_names(*, baton_throws: bool = False) -> list[str]:
    """Names of the registered rule books, in registration order (``dm``, ``wikinger``,
    ``kubbuteo`` for the built-in ones); ``baton_throws``: only those with baton throws."""
    _load_builtin()
    return [n for n, b in _BOOKS.items() if b.throw_rules is not None or not baton_throws]

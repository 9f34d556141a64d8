"""Referee options: the decisions the rule books leave open, each with a named default per ruleset.

The seeds (DM, WS, KT) do not say everything a referee must decide. Every such decision of
kubb3d is an option here, with its default, the alternatives, the clause it concerns and where
the code applies it. ``kubb3d rules show RULESET`` prints the table; ``docs/rules.md`` gives the
reasons. The judge reads an option with :func:`option` from the ``options`` mapping of its
context (a missing key means the default of the ruleset in force).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Literal, Mapping

from kubb3d.errors import OptionError
from kubb3d.judge.messages import msg
from kubb3d.judge.rulebook import get_rulebook


@dataclass(frozen=True)
class Option:
    """One open decision.

    Attributes:
        name: the option's key (``own_half_knock`` …).
        defaults: ruleset → default value (``dm``, ``wikinger``, ``kubbuteo``).
        choices: the allowed values (None: any number in the unit of the name).
        question: what the rule books leave open, in one sentence.
        concerns: the clauses it concerns (``DM §5`` …).
        where: ``module:function`` that applies it.
        set_by: how another value is chosen (``ThrowContext.options``, a ruleset field via
            ``get_ruleset(name, field=value)``, an argument of ``throw``/``simulate``).
        applies: which part reads it: the ``judge`` (its contexts' ``options``), the rules
            engine's ``ruleset`` (a field of :class:`kubb3d.rules.Ruleset`) or the ``throw``
            simulation (an argument of :func:`kubb3d.throw.throw_iter`).
        bounds: for a number (``choices`` None): its least and largest value.
        nullable: for a number: ``none`` (no limit) is allowed too.
        variants: value → where it is the rule: a rule book's clause, or "community variant"
            with where it is played (docs/rules.md "Rule variants").
        parse: for a value that is neither a choice nor a number (the opening batons): turns a
            word or a file's value into the option's value, ValueError otherwise.
        accepts: what ``parse`` accepts, for ``kubb3d rules show``.
        not_read: ruleset → why no code reads the option under it (its value changes nothing
            there; ``kubb3d rules show`` says so): a Kubbuteo return is judged where it rests
            (:func:`kubb3d.judge.kubbuteo.judge_return` reads no option), a flick is no baton
            throw (the KT rule book has no ``throw_rules``), DM bans no helicopter.
    """

    name: str
    defaults: Mapping[str, Any]
    choices: tuple[Any, ...] | None
    question: str
    concerns: str
    where: str
    set_by: str
    applies: Literal["judge", "ruleset", "throw"] = "judge"
    bounds: tuple[float, float] | None = None
    nullable: bool = False
    variants: Mapping[Any, str] = field(default_factory=dict)
    parse: Callable[[Any], Any] | None = None
    accepts: str | None = None
    not_read: Mapping[str, str] = field(default_factory=dict)

    @property
    def set_on(self) -> str:
        """Where the option can be set: every command that plays matches takes every option;
        ``judge`` and a scenario's ``[options]`` table only the judge's (a scenario is one throw
        or inkast whose throw states its legality, not a simulated throw or a match)."""
        where = "match, audit, play and experiment specs"
        return where + (", judge and a scenario's [options] table" if self.applies == "judge" else "")


MAX_BATONS = 6
"""Batons of a side (DM §4, WS basic rule 2, KT rules: six)."""
MAX_SCHEDULE = 12
"""Most turns an opening schedule may list (the last number holds for every later turn)."""


def baton_schedule(raw: Any) -> str:
    """An opening schedule as the option ``opening`` holds it: ``"2-4-6"`` from ``"2-4-6"``,
    ``"2,4,6"``, ``"2 4 6"`` or a list ``[2, 4, 6]`` (a TOML or JSON value). Turn *n* of a set
    has the *n*-th number of batons, every turn after the list the last one.

    Raises:
        OptionError: not 1 to :data:`MAX_SCHEDULE` whole numbers from 1 to :data:`MAX_BATONS`.
    """

    def whole(w: Any) -> bool:
        return not isinstance(w, bool) and (isinstance(w, int) or (isinstance(w, str) and w.isdigit() and len(w) < 3))

    if isinstance(raw, (list, tuple)):
        parts = list(raw)
    else:
        parts = raw.replace(",", " ").replace("-", " ").split() if isinstance(raw, str) else [raw]
    numbers = [int(w) for w in parts if whole(w)]
    if len(numbers) != len(parts) or not 1 <= len(numbers) <= MAX_SCHEDULE or not all(
        1 <= n <= MAX_BATONS for n in numbers
    ):
        raise OptionError(msg(
            "{option}: expected 1 to {most} whole numbers of batons from 1 to {batons} such as 2-4-6, got {got}",
            option="--option opening", most=MAX_SCHEDULE, batons=MAX_BATONS, got=repr(raw)))
    return "-".join(str(n) for n in numbers)


def batons_in_turn(schedule: str, turn_no: int) -> int:
    """Batons in the ``turn_no``-th turn of a set (1-based) under an opening schedule
    (:func:`baton_schedule`). Raises ValueError for ``turn_no`` < 1."""
    if turn_no < 1:
        raise ValueError(f"turn numbers start at 1, got {turn_no}")
    numbers = schedule.split("-")
    return int(numbers[min(turn_no, len(numbers)) - 1])


OPTIONS: tuple[Option, ...] = (
    Option(
        "own_half_knock",
        {"dm": "raise now", "wikinger": "raise now", "kubbuteo": "raise now"},
        ("raise now", "raise at end of round"),
        "A baton (also a king throw) that moves or fells a kubb standing in the thrower's own half: "
        "the kubb was never a target; it is stood up again where it stood, at once or at the end of the round.",
        "DM §5 (accident clause), §10; WS basic rule 14 by analogy; KT rules",
        "kubb3d.judge.throws:judge_throw",
        "ThrowContext.options",
    ),
    Option(
        "standing_outside",
        {"dm": "set inside", "wikinger": "set inside", "kubbuteo": "set inside"},
        ("set inside", "stays"),
        "A kubb that a throw pushes across a sideline (a field kubb also across the baseline behind its "
        "half) but that still stands: it was not felled; it is set back across the line just far enough "
        "for its whole base to be inside, off any piece standing there.",
        "DM §1, §5, §7 (whole base in the field); WS basic rule 13 by analogy",
        "kubb3d.judge.throws:judge_throw",
        "ThrowContext.options",
    ),
    Option(
        "raise_order",
        {"dm": "throwing order", "wikinger": "throwing order", "kubbuteo": "throwing order"},
        ("throwing order", "nearest baseline first"),
        "The order in which the raising side raises inkasted kubbs whose tipping squares overlap, "
        "where orders keep equally many kubbs inside (DM §7 makes raising the opponent's job and asks "
        "for as many as possible inside, but names no order).",
        "DM §7; WS basic rules 10, 12",
        "kubb3d.judge.raising:judge_inkast",
        "InkastContext.options",
        not_read={"kubbuteo": "a returned kubb is judged where it rests, not raised (KT rules)"},
    ),
    Option(
        "advance_line",
        {"dm": "centre", "wikinger": "back edge", "kubbuteo": "centre"},
        ("centre", "front edge", "back edge"),
        "Where the advance line lies on the field kubb it passes through (DM §8: 'durch den … Kubb'; "
        "WS basic rule 6: 'to the height of that kubb', and rule 7: 'The tip of the foot must stay behind "
        "the frontmost pawn', so WS puts it on the kubb's edge towards the thrower's baseline).",
        "DM §8; WS basic rules 6, 7; KT rules",
        "kubb3d.rules.core:Ruleset.throwing_line",
        "get_ruleset(name, advance_line=…)",
        applies="ruleset",
    ),
    Option(
        "penalty_distance",
        {"dm": "centre", "wikinger": "centre", "kubbuteo": "centre"},
        ("centre", "gap"),
        "How 'one throwing-stick length from the king' is measured for a placed penalty kubb: "
        "centre to centre, or the gap between the two pieces.",
        "WS basic rule 11; KT rules (2 in)",
        "kubb3d.rules.core:Ruleset.placement_error",
        "get_ruleset(name, penalty_distance=…)",
        applies="ruleset",
    ),
    Option(
        "first_foul_warning",
        {"dm": False, "wikinger": False, "kubbuteo": False},
        (False, True),
        "Whether a player's first foul is only warned (DM §5: 'zunächst eine Verwarnung'; single slips "
        "tolerated). Simulated players do not argue, so by default every foul is penalised.",
        "DM §5; WS basic rule 7",
        "kubb3d.judge.throws:judge_throw",
        "ThrowContext.options with ThrowContext.earlier_fouls",
    ),
    Option(
        "max_tilt_deg",
        {"dm": 30.0, "wikinger": None, "kubbuteo": None},
        None,
        "The largest tilt of the baton out of its flight plane, degrees: DM §5 gives 30°; WS basic "
        "rule 5 asks for a straight throw without a number, so WS has no limit (only the helicopter ban).",
        "DM §5; WS basic rule 5",
        "kubb3d.throw:check_legality",
        "throw(…, max_tilt_deg=…)",
        applies="throw",
        bounds=(0.0, 90.0),
        nullable=True,
        not_read={"kubbuteo": "disks are flicked, not thrown: a flick has no flight plane to leave (KT rules)"},
        variants={
            30.0: "DM §5; VM from 2026 and US rule book v4.0 (2024) (docs/rules.md 'Rule variants')",
            45.0: "VM until 2025, US rule book 2013 to v3.x (docs/rules.md 'Rule variants')",
            None: "WS basic rule 5 (no angle; the helicopter ban only)",
        },
    ),
    Option(
        "helicopter_limit",
        {"dm": 90.0, "wikinger": 90.0, "kubbuteo": 90.0},
        None,
        "How far a baton may turn about the vertical (besides its end-over-end spin) before its first "
        "contact, degrees, and not be a helicopter throw: WS basic rule 5 forbids 'horizontal rotation' "
        "and DM §5 allows only forward or backward rotation, neither with an angle; the VM rules of 2019 "
        "call a turn of more than 90° a helicopter. Read where the ruleset bans helicopters (WS); kubb3d "
        "holds DM throws to the tilt limit only.",
        "WS basic rule 5; DM §5",
        "kubb3d.throw:check_legality",
        "throw(…, helicopter_limit=…)",
        applies="throw",
        bounds=(0.0, 360.0),
        not_read={
            "dm": "DM bans no helicopter as such: its throws are held to the tilt limit (max_tilt_deg)",
            "kubbuteo": "disks are flicked, not thrown: a flick does not fly (KT rules)",
        },
        variants={
            90.0: "VM 2019 (the only rule book giving an angle; WS and DM forbid horizontal rotation "
            "without one) (docs/rules.md 'Rule variants')",
        },
    ),
    Option(
        "settle_s",
        {"dm": 0.5, "wikinger": 0.5, "kubbuteo": 0.25},
        None,
        "How long every piece must stay still (and no kubb balance on an edge) before the referee "
        "rules, s (a kubb that falls later than that falls in the next throw's time); at most 15 s "
        "after the release. The default is the physics world's rest time, shorter on the Kubbuteo "
        "table top, scaled to the disk's size (docs/physics.md 'Rest on a table top').",
        "DM §5 (no time given)",
        "kubb3d.throw:simulate (World.run_until_rest)",
        "simulate(…, settle_s=…)",
        applies="throw",
        bounds=(0.05, 15.0),
    ),
    Option(
        "baseline_after_field",
        {"dm": "throw start", "wikinger": "throw start", "kubbuteo": "throw start"},
        ("throw start", "contact order"),
        "One baton fells the last standing field kubb and then a baseline kubb of the same half: "
        "DM §5 judges the baseline kubb by whether field kubbs 'still stand'; kubb3d looks at the "
        "field kubbs standing when the throw began (a snapshot at rest has no order of falls); "
        "'contact order' counts it if those field kubbs went past tipping before it did and are down at rest.",
        "DM §5; WS basic rule 8; KT rules",
        "kubb3d.judge.throws:judge_throw",
        "ThrowContext.options with ThrowContext.fall_order (Trajectory.fall_order)",
    ),
    Option(
        "opening",
        {"dm": "2-4-6", "wikinger": "6-6-6", "kubbuteo": "6-6-6"},
        None,
        "How many batons each turn of a set has: the opener's first turn, the reply, then every "
        "later turn (the last number holds on).",
        "DM §4; WS basic rule 2; KT rules",
        "kubb3d.rules.core:Ruleset.batons_for_turn",
        "get_ruleset(name, opening=…)",
        applies="ruleset",
        variants={
            "2-4-6": "DM §4; US rule book; VM 2019 when the teams do not agree (docs/rules.md 'Rule variants')",
            "6-6-6": "WS basic rule 2; KT rules; VM 2017 when the teams do not agree",
            "4-6-6": "community variant 'Four to Start': Des Moines Kubb club, Asgardian festival tournament "
            "(docs/rules.md 'Rule variants')",
            "3-6-6": "community variant 'Basel 3' (three batons first); no published place of play found",
        },
        parse=lambda raw: baton_schedule(raw),
        accepts="batons per turn such as 2-4-6, 6-6-6, 4-6-6, 3-6-6 (1 to 6 each; the last holds on)",
    ),
    Option(
        "field_kubb_inside",
        {"dm": "whole", "wikinger": "whole", "kubbuteo": "whole"},
        ("whole", "half"),
        "How much of a raised field kubb's base must lie inside the field half for the inkast to "
        "be valid: all of it, or at least half of its area.",
        "DM §6, §7; WS basic rule 13",
        "kubb3d.judge.raising:_RaisingPlan.valid; kubb3d.judge.throws:judge_throw (unmoved, it stays partly out)",
        "InkastContext.options, ThrowContext.options",
        variants={
            "whole": "DM §7 ('gesamte Grundfläche im Feld'); WS basic rule 13; VM from 2024",
            "half": "US rule book (at least 50 % of the footprint); VM before 2024 (docs/rules.md 'Rule variants')",
        },
        not_read={"kubbuteo": "a returned kubb is judged where it rests, not raised (KT rules)"},
    ),
    Option(
        "time_up",
        {"dm": "tie-break kubbs", "wikinger": "count baseline kubbs", "kubbuteo": "tie-break kubbs"},
        ("tie-break kubbs", "count baseline kubbs"),
        "What decides a match when the time limit (--time-limit) is reached and the turn in progress "
        "is finished: the tie-break of DM §9 (a second lag, then a kubb taken out every turn) or a count "
        "(more sets won, then more of one's own baseline kubbs standing; else a draw).",
        "DM §9; WS End of the Game; KT rules (no time limit)",
        "kubb3d.rules.core:Ruleset.time_up_result",
        "get_ruleset(name, time_up=…)",
        applies="ruleset",
        variants={
            "tie-break kubbs": "DM §9; KT: kubb3d's choice (KT has no time limit)",
            "count baseline kubbs": "WS End of the Game; US practice (docs/rules.md 'Rule variants')",
        },
    ),
)
"""Every option, in the order of ``kubb3d rules show``."""

BY_NAME = {o.name: o for o in OPTIONS}


def default(name: str, ruleset: str) -> Any:
    """The default of an option under a ruleset: the rule book's own
    (:attr:`kubb3d.judge.rulebook.Rulebook.options`), else this module's table.

    Raises:
        KeyError: unknown option.
        OptionError: unknown ruleset, or a rule book that gives no default for the option.
    """
    book = get_rulebook(ruleset)
    if name in book.options:
        return book.options[name]
    defaults = BY_NAME[name].defaults
    if ruleset not in defaults:
        raise OptionError(f"the {ruleset} rule book gives no default for the referee option {name!r}")
    return defaults[ruleset]


def option(options: Mapping[str, Any] | None, name: str, ruleset: str) -> Any:
    """The value in force: ``options[name]`` if given, else the ruleset's default.

    Raises:
        OptionError: unknown option name or a value not among its choices.
    """
    if name not in BY_NAME:
        raise OptionError(f"unknown referee option {name!r}; expected one of {sorted(BY_NAME)}")
    if options and name in options:
        v = options[name]
        ch = BY_NAME[name].choices
        if ch is not None and v not in ch:
            raise OptionError(f"referee option {name} must be one of {list(ch)}, got {v!r}")
        return v
    return default(name, ruleset)


_TRUE = ("true", "on", "yes", "1")
_FALSE = ("false", "off", "no", "0")


def parse_option(text: str) -> tuple[str, Any]:
    """One ``NAME=VALUE`` of the command line (``--option``) or a file, as (name, value) of the
    option's own type: one of its choices (``true``/``false`` for a yes-or-no option), or a
    number inside its bounds (``none`` where no limit is allowed).

    Raises:
        OptionError: one line naming what is wrong and what was expected (no ``=``, an unknown
            name with the known ones, a value not among the choices or out of bounds).
    """
    name, sep, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    if not sep or not name:
        raise OptionError(msg("{option}: expected NAME=VALUE, got {got}", option="--option", got=repr(text)))
    if name not in BY_NAME:
        from kubb3d.judge.messages import concat

        raise OptionError(concat("--option: ", unknown_option(name)))
    return name, option_value(name, raw)


def typed(value: Any) -> str:
    """An option's value as one types it after ``--option NAME=``: ``set_inside`` for the
    choice ``set inside``, ``yes``/``no`` for a yes-or-no option, ``none`` for no limit, a
    number as ``45`` (:func:`option_value` reads each)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, float):
        return format(value, "g")
    return str(value).replace(" ", "_")


OPTION_CITE = "option"  # kubb3d.judge.citations.OPTION
"""Prefix of the citation of a referee option set to another value than the rule book's
default: ``option opening=4-6-6`` (:func:`option_cite`). Such a ruling or event cites the
option, not the clause whose default it replaces (``DM §4`` says 2-4-6)."""


def option_cite(name: str, value: Any) -> str:
    """The citation of option ``name`` at ``value``: ``option standing_outside=stays``."""
    return OPTION_CITE + " " + _set(name, value)


def _set(name: str, value: Any) -> str:
    """``NAME=VALUE`` as one types it (a name of a setting, not a sentence)."""
    return name + "=" + typed(value)


DEFAULT = object()
""":func:`changed_option`'s answer for an option at its default."""


def changed_option(options: Mapping[str, Any] | None, name: str, ruleset: str) -> Any:
    """The value of option ``name`` in ``options`` if it is not the ruleset's default, else
    :data:`DEFAULT` (the rule book decides, and is cited)."""
    value = option(options, name, ruleset)
    return DEFAULT if value == default(name, ruleset) else value



def source(name: str, value: Any) -> str:
    """Where ``value`` of option ``name`` is the rule, as ``kubb3d rules show`` lists it (its
    variant's source without the pointer to docs/rules.md), or "" for kubb3d's own alternative."""
    text = BY_NAME[name].variants.get(value, "")
    return text.replace(" (docs/rules.md 'Rule variants')", "")


def option_note(name: str, value: Any, ruleset: str) -> str:
    """The sentence a reason ends with when option ``name`` at the non-default ``value``
    decided it: `` The referee option field_kubb_inside=half decides this: US rule book …``, or
    for an alternative of kubb3d's own `` The referee option standing_outside=stays decides this,
    not the default set_inside (kubb3d rules show dm).``"""
    from kubb3d.judge.messages import msg

    where = source(name, value)
    if where:
        return msg(" The referee option {option} decides this: {source}.", option=_set(name, value),
                   source=where)
    return msg(
        " The referee option {option} decides this, not the default {default} (kubb3d rules show {ruleset}).",
        option=_set(name, value),
        default=typed(default(name, ruleset)),
        ruleset=ruleset,
    )


def decided_by(ruling: Any, name: str, value: Any, ruleset: str, *, replaces: Iterable[str] = ()) -> Any:
    """``ruling`` (a :class:`kubb3d.judge.rulings.Ruling`) as option ``name`` at the non-default
    ``value`` decided it: its reason ends naming the option and its source (:func:`option_note`),
    its citations name the option (:func:`option_cite`) in place of ``replaces``, the clauses
    of the default it replaces."""
    from dataclasses import replace

    from kubb3d.judge.messages import concat

    gone = set(replaces)
    rules = tuple(dict.fromkeys([r for r in ruling.rules if r not in gone] + [option_cite(name, value)]))
    return replace(ruling, rules=rules, reason=concat(ruling.reason, option_note(name, value, ruleset)))


def option_value(name: str, raw: Any) -> Any:
    """``raw`` (a word from the command line, or a value read from a file) as a value of the
    option ``name``: a choice with spaces may be written with underscores (``set_inside``),
    in any case. Raises OptionError as :func:`parse_option`."""
    o = BY_NAME[name]
    if o.parse is not None:
        return o.parse(raw)
    word = raw.strip().lower() if isinstance(raw, str) else raw
    where = "--option " + name  # the option as typed, for the error lines
    if o.choices is not None:
        if set(o.choices) == {False, True}:
            if word in _TRUE or word is True:
                return True
            if word in _FALSE or word is False:
                return False
            raise OptionError(msg("{option}: expected true or false, got {got}", option=where, got=repr(raw)))
        for choice in o.choices:  # `set_inside` is `set inside`: a value one can type unquoted
            if word == choice or (isinstance(word, str) and word.replace("_", " ") == choice):
                return choice
        raise OptionError(msg("{option}: expected one of {names}, got {got}", option=where,
                              names=", ".join(map(typed, o.choices)), got=repr(raw)))
    if o.nullable and (word is None or word == "none"):
        return None
    try:
        value = float(word) if not isinstance(word, bool) else math.nan
    except (TypeError, ValueError):
        value = math.nan
    lo, hi = o.bounds or (-math.inf, math.inf)
    if not lo <= value <= hi:
        extra = msg(" or none") if o.nullable else ""
        raise OptionError(msg("{option}: expected a number from {lo:g} to {hi:g}{extra}, got {got}",
                              option=where, lo=lo, hi=hi, extra=extra, got=repr(raw)))
    return value


def parse_options(texts: Iterable[str]) -> dict[str, Any]:
    """Every ``NAME=VALUE`` of a repeated ``--option``, later ones winning (:func:`parse_option`)."""
    return dict(parse_option(t) for t in texts)


def options_for(options: Mapping[str, Any] | None, applies: str) -> dict[str, Any]:
    """The options among ``options`` that the part ``applies`` reads (``judge``, ``ruleset``,
    ``throw``)."""
    return {k: v for k, v in (options or {}).items() if BY_NAME[k].applies == applies}


def unknown_option(name: str) -> str:
    """``unknown referee option 'x'; expected one of …`` (with the nearest name, if any), as a
    message: one wording for every reader of referee options (scenario, spec, replay, match)."""
    from kubb3d.judge.messages import did_you_mean, msg

    return msg(
        "unknown referee option {name}{near}; expected one of {names}",
        name=repr(name),
        near=did_you_mean(name, sorted(BY_NAME)),
        names=", ".join(BY_NAME),
    )

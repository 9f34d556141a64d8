"""One wording for a number out of its range, in every command and file reader that names an
option: ``<option>: expected <range>, got <value>`` (docs/reliability.md "Exit codes").

:func:`span` words a range; :func:`expected` makes the message. Typer's own ``min``/``max``
checks of an option are worded the same way by the CLI's error handler (kubb3d/cli/__init__.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Range:
    """The allowed values of a number field, with the range in words. An experiment spec checks
    every value a trial could use at load time (:mod:`kubb3d.experiment.forms`: the fixed value,
    every grid and choice value, the ends of a linspace and of a uniform draw, the mean of a
    normal draw; attached to a field as ``Annotated`` metadata); a throw's numbers share one
    table of them (:mod:`kubb3d.throw_bounds`).

    Attributes:
        lo, hi: bounds in the field's unit; ``lo`` is excluded when ``open_lo``.
        text: the range in words, for the error message and docs/experiments.md.
    """

    lo: float
    hi: float
    text: str
    open_lo: bool = False

    def ok(self, x: float) -> bool:
        return (self.lo < x if self.open_lo else self.lo <= x) and x <= self.hi

    def outside(self, x: float) -> str:
        """``x`` as an error line shows it: to 4 significant digits, more where fewer would make a
        refused value read as an allowed one (``40.00001`` is not ``40``)."""
        if not math.isfinite(x):
            return str(x)
        for digits in range(4, 18):
            text = f"{x:.{digits}g}"
            if not self.ok(float(text)):
                return text
        return repr(x)


def _num(x: float) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def span(lo: float | None = None, hi: float | None = None, unit: str = "", *, open_lo: bool = False) -> str:
    """A range in words: ``from 1 to 9``, ``0 or more``, ``more than 0 and at most 40 m/s``,
    ``at most 5 s``; ``unit`` (with its leading space, or ``°``) after the upper or only bound.
    A message (:func:`kubb3d.judge.messages.msg`): an error line gives it in the command line's
    language (kubb3d/cli/lang.py), the words of a unit (`` minutes``) too."""
    from kubb3d.judge.messages import N_, msg

    if unit in (N_(" minutes"), N_(" seconds")):
        unit = msg(unit)
    if lo is not None and hi is not None:
        if open_lo:
            return msg("more than {lo} and at most {hi}{unit}", lo=_num(lo), hi=_num(hi), unit=unit)
        return msg("from {lo} to {hi}{unit}", lo=_num(lo), hi=_num(hi), unit=unit)
    if lo is not None:
        return (
            msg("more than {lo}{unit}", lo=_num(lo), unit=unit)
            if open_lo
            else msg("{lo}{unit} or more", lo=_num(lo), unit=unit)
        )
    if hi is not None:
        return msg("at most {hi}{unit}", hi=_num(hi), unit=unit)
    return msg("a number")


def expected(option: str, what: str, got: object) -> str:
    """``<option>: expected <what>, got <got>`` (``got`` as given: a number, or the words), as a
    message (:func:`span`; a range in words given as text, ``more than 0 and at most 40 m/s``,
    is made a message by :func:`range_words`)."""
    from kubb3d.judge.messages import msg

    return msg("{option}: expected {what}, got {got}", option=option, what=range_words(what), got=got)


_RANGE_FORMS = (
    (r"from (?P<lo>\S+) to (?P<hi>\S+?)(?P<unit>(?: .*)?)", "from {lo} to {hi}{unit}"),
    (r"more than (?P<lo>\S+) and at most (?P<hi>\S+?)(?P<unit>(?: .*)?)", "more than {lo} and at most {hi}{unit}"),
    (r"between (?P<lo>\S+) and (?P<hi>\S+?)(?P<unit>(?: .*)?)", "between {lo} and {hi}{unit}"),
)
"""(pattern, template) of the ranges in words that :func:`range_words` reads (the templates are
:func:`span`'s and ``between``'s messages)."""


def _unit_words() -> tuple[str, ...]:
    from kubb3d.judge.messages import N_

    return (N_(" minutes"), N_(" seconds"), N_(" degrees"), N_(" degrees (forward)"), N_(" rev/s"))


def range_words(text: object) -> object:
    """A range written as text (a spec field's ``Range.text``: ``between -90 and 90 degrees``) as
    the message it reads as (:func:`span`'s wording, the unit's words translated too), so that an
    error line gives it in the command line's language; a message, or text of another form, as it is."""
    import re

    from kubb3d.judge.messages import Msg, msg

    if not isinstance(text, str) or isinstance(text, Msg):
        return text
    for pattern, template in _RANGE_FORMS:
        found = re.fullmatch(pattern, text)
        if found is not None:
            unit = found["unit"]
            made = msg(
                template,
                lo=found["lo"],
                hi=found["hi"],
                unit=msg(unit) if unit in _unit_words() else unit,
            )
            return made if str(made) == text else text
    return text


_PYDANTIC_TEMPLATES = {
    "finite_number": "Input should be a finite number",
    "float_type": "Input should be a valid number",
    "float_parsing": "Input should be a valid number, unable to parse string as a number",
    "int_type": "Input should be a valid integer",
    "int_parsing": "Input should be a valid integer, unable to parse string as an integer",
    "int_from_float": "Input should be a valid integer, got a number with a fractional part",
    "bool_type": "Input should be a valid boolean",
    "string_type": "Input should be a valid string",
    "list_type": "Input should be a valid list",
    "tuple_type": "Input should be a valid tuple",
    "dict_type": "Input should be a valid dictionary",
    "model_type": "Input should be a valid dictionary or instance of {class_name}",
    "missing": "Field required",
    "extra_forbidden": "Extra inputs are not permitted",
    "greater_than": "Input should be greater than {gt}",
    "greater_than_equal": "Input should be greater than or equal to {ge}",
    "less_than": "Input should be less than {lt}",
    "less_than_equal": "Input should be less than or equal to {le}",
    "string_pattern_mismatch": "String should match pattern '{pattern}'",
}
"""pydantic's English message of each error type this package meets, as a template of the
catalog (:func:`pydantic_message`)."""


def _pydantic_marks() -> None:  # pragma: no cover - only marks the templates for the catalog
    from kubb3d.judge.messages import N_, Nn_

    N_("Input should be a finite number")
    N_("Input should be a valid number")
    N_("Input should be a valid number, unable to parse string as a number")
    N_("Input should be a valid integer")
    N_("Input should be a valid integer, unable to parse string as an integer")
    N_("Input should be a valid integer, got a number with a fractional part")
    N_("Input should be a valid boolean")
    N_("Input should be a valid string")
    N_("Input should be a valid list")
    N_("Input should be a valid tuple")
    N_("Input should be a valid dictionary")
    N_("Input should be a valid dictionary or instance of {class_name}")
    N_("Field required")
    N_("Extra inputs are not permitted")
    N_("Input should be greater than {gt}")
    N_("Input should be greater than or equal to {ge}")
    N_("Input should be less than {lt}")
    N_("Input should be less than or equal to {le}")
    N_("String should match pattern '{pattern}'")
    N_("between {lo} and {hi}{unit}")
    N_("Input should be {names} or {last}")
    N_("Input should be {last}")
    N_(" (got {value})")
    N_(" (+{n} more)")
    Nn_("String should have at most {max_length} character", "String should have at most {max_length} characters")
    Nn_("String should have at least {min_length} character", "String should have at least {min_length} characters")
    Nn_(
        "{kind} should have at most {max_length} item after validation, not {actual_length}",
        "{kind} should have at most {max_length} items after validation, not {actual_length}",
    )
    Nn_(
        "{kind} should have at least {min_length} item after validation, not {actual_length}",
        "{kind} should have at least {min_length} items after validation, not {actual_length}",
    )
    N_("List")
    N_("Tuple")


def pydantic_message(err: dict) -> str:
    """The message of one pydantic error (an item of ``ValidationError.errors()``) as a message
    of the catalog made from its type and context (``Input should be a finite number``, ``Input
    should be 'standing' or 'fallen'``), so that the error line gives it in the command line's
    language; a validator's own error keeps the message it was raised with. The English is
    pydantic's, byte for byte: a type this does not know, or a text it does not give back, stays
    pydantic's text."""
    import re

    from kubb3d.judge.messages import Msg, msg, nmsg

    text = str(err.get("msg", "")).removeprefix("Value error, ")
    kind, ctx = err.get("type", ""), dict(err.get("ctx") or {})
    made: object = None
    if kind in ("value_error", "assertion_error"):
        cause = ctx.get("error")
        args: tuple[object, ...] = tuple(getattr(cause, "args", ()))
        made = args[0] if len(args) == 1 and isinstance(args[0], Msg) else None
    elif kind in ("literal_error", "enum"):  # an Enum field says it as a Literal does
        names, _, last = str(ctx.get("expected", "")).rpartition(" or ")
        if names:
            made = msg("Input should be {names} or {last}", names=names, last=last)
        else:
            made = msg("Input should be {last}", last=last)
    elif kind in ("string_too_long", "string_too_short"):
        word, n = ("most", ctx.get("max_length")) if kind == "string_too_long" else ("least", ctx.get("min_length"))
        key = "max_length" if word == "most" else "min_length"
        if isinstance(n, int):
            one = f"String should have at {word} {{{key}}} character"
            made = nmsg(one, one + "s", n, **{key: n})
    elif kind in ("too_long", "too_short"):
        found = re.match(r"(List|Tuple) ", text)
        key = "max_length" if kind == "too_long" else "min_length"
        n, actual = ctx.get(key), ctx.get("actual_length")
        if found and isinstance(n, int) and isinstance(actual, int):
            word = "most" if kind == "too_long" else "least"
            made = nmsg(
                f"{{kind}} should have at {word} {{{key}}} item after validation, not {{actual_length}}",
                f"{{kind}} should have at {word} {{{key}}} items after validation, not {{actual_length}}",
                n, kind=msg(found[1]), actual_length=actual, **{key: n},
            )
    elif kind in _PYDANTIC_TEMPLATES:
        params = {k: v for k, v in ctx.items() if isinstance(v, (int, float, str))}
        params.setdefault("class_name", str(ctx.get("class_name", "")))  # given twice was a TypeError
        try:
            made = msg(_PYDANTIC_TEMPLATES[kind], **params)
        except (KeyError, IndexError, ValueError):
            made = None
    if made is not None and str(made) == text:
        return made  # type: ignore[return-value]
    return text


_PYDANTIC_BOUNDS = {
    "greater_than_equal": ("ge", "{lo}{unit} or more"),
    "greater_than": ("gt", "more than {lo}{unit}"),
    "less_than_equal": ("le", "at most {hi}{unit}"),
    "less_than": ("lt", "less than {hi}{unit}"),
}


def pydantic_bound(err: dict) -> str | None:
    """The message of a pydantic ``ge``/``gt``/``le``/``lt`` error (one item of
    ``ValidationError.errors()``) in this module's wording, ``expected at most 1440, got 1e+12``
    (without the field, which the caller puts first); None for any other error."""
    from kubb3d.judge.messages import N_, msg

    kind = _PYDANTIC_BOUNDS.get(err.get("type", ""))
    if kind is None or kind[0] not in (err.get("ctx") or {}):
        return None
    N_("less than {hi}{unit}")  # the only one :func:`span` does not make
    bound = _num(err["ctx"][kind[0]])
    what = msg(kind[1], lo=bound, hi=bound, unit="")
    return msg("expected {what}, got {got}", what=what, got=repr(err.get("input")))


MAX_ID_CHARS = 40
"""The longest piece id of a scenario or spec (shipped ones: 6); a 5 MB id or title made the
3D view lay out text for minutes."""
MAX_TITLE_CHARS = 200
"""The longest title of a scenario or spec (shipped: 80)."""
MAX_TEXT_CHARS = 5000
"""The longest description or explanation (shipped: 300)."""


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` for an error message, cut to ``limit`` characters (a 5 MB title must
    not come back as a 5 MB error line). A boolean is spelt as in the TOML or JSON file the
    user wrote it in (``true``, not Python's ``True``)."""
    text = ("true" if value else "false") if isinstance(value, bool) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


MAX_ERROR_CHARS = 1000
"""The longest error line printed: a message that quotes a huge input is cut (with …)."""


def one_line(text: object) -> str:
    """``text`` as one line for ``error: …``: every run of white space, line breaks included
    (a ``\\r`` or ``\\u2028`` in a key the user typed), becomes one space; a line longer than
    :data:`MAX_ERROR_CHARS` is cut."""
    line = " ".join(str(text).split())
    return line if len(line) <= MAX_ERROR_CHARS else line[: MAX_ERROR_CHARS - 1] + "…"


def listed(names: object) -> str:
    """Names for a message, ``club, elite, novice``: the words a reader types, not a Python
    list (``['club', 'elite', 'novice']``). ``names``: any iterable; each item as ``str``."""
    return ", ".join(str(n) for n in names)  # type: ignore[attr-defined]


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` and its noun in English, singular for 1: ``1 rollout``, ``4 rollouts``, ``0 rollouts``
    (``plural``: for a noun that does not just add ``s``, ``matches``). Text that is translated
    uses :func:`kubb3d.judge.messages.nmsg` instead."""
    return f"{n} {singular if n == 1 else plural or singular + 's'}"


def did_you_mean(name: str, names: object) -> str:
    """:func:`kubb3d.judge.messages.did_you_mean` (kept here for the readers that import it)."""
    from kubb3d.judge.messages import did_you_mean as near

    return near(name, names)


def unknown_name(kind: str, name: str, names: object, where: str = "") -> str:
    """``unknown skill 'pro' in --players; did you mean …?; expected one of club, elite, novice``
    as a message (``kind``: one of :data:`NAME_KINDS`; ``where``: the option, if any)."""
    from kubb3d.judge.messages import msg

    known = sorted(str(n) for n in names)  # type: ignore[attr-defined]
    near = did_you_mean(name, known)
    if where:
        return msg("unknown {kind} {name} in {option}{near}; expected one of {names}", kind=msg(kind), name=repr(name),
                   option=where, near=near, names=listed(known))
    return msg("unknown {kind} {name}{near}; expected one of {names}", kind=msg(kind), name=repr(name), near=near,
               names=listed(known))


def _name_kinds() -> tuple[str, ...]:
    from kubb3d.judge.messages import N_

    return (N_("skill"), N_("strategy"), N_("ground"), N_("skill preset"))


def off_the_pitch(pitch: object, x: float, y: float) -> str | None:
    """:func:`kubb3d.pitch.off_the_pitch` as a message of the catalog (the pitch module builds
    no messages): None when (x, y) lies on the pitch or near it."""
    from kubb3d.judge.messages import msg
    from kubb3d.pitch import AROUND_PITCH_M, off_the_pitch as off

    if off(pitch, x, y) is None:  # type: ignore[arg-type]
        return None
    hx, hy = pitch.length / 2 + AROUND_PITCH_M, pitch.width / 2 + AROUND_PITCH_M  # type: ignore[attr-defined]
    return msg(
        "expected x from {lo_x:g} to {hi_x:g} m and y from {lo_y:g} to {hi_y:g} m (the {length:g} × {width:g} m pitch "
        "and {around:g} m around it), got ({x:g}, {y:g})", lo_x=-hx, hi_x=hx, lo_y=-hy, hi_y=hy,
        length=pitch.length, width=pitch.width, around=AROUND_PITCH_M, x=x, y=y,  # type: ignore[attr-defined]
    )


def unknown_option(name: str) -> str:
    """:func:`kubb3d.judge.options.unknown_option` (kept here for the readers that import it)."""
    from kubb3d.judge.options import unknown_option as unknown

    return unknown(name)

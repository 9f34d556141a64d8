"""One wording for a number out of its range, in every command and file reader that names an
option: ``<option>: expected <range>, got <value>`` (docs/reliability.md "Exit codes").

:func:`span` words a range; :func:`expected` makes the message. Typer's own ``min``/``max``
checks of an option are worded the same way by the CLI's error handler (kubb3d/cli/__init__.py).
"""

from __future__ import annotations


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
    message (:func:`span`)."""
    from kubb3d.judge.messages import msg

    return msg("{option}: expected {what}, got {got}", option=option, what=what, got=got)


_PYDANTIC_BOUNDS = {
    "greater_than_equal": ("ge", "{} or more"),
    "greater_than": ("gt", "more than {}"),
    "less_than_equal": ("le", "at most {}"),
    "less_than": ("lt", "less than {}"),
}


def pydantic_bound(err: dict) -> str | None:
    """The message of a pydantic ``ge``/``gt``/``le``/``lt`` error (one item of
    ``ValidationError.errors()``) in this module's wording, ``expected at most 1440, got 1e+12``
    (without the field, which the caller puts first); None for any other error."""
    kind = _PYDANTIC_BOUNDS.get(err.get("type", ""))
    if kind is None or kind[0] not in (err.get("ctx") or {}):
        return None
    return f"expected {kind[1].format(_num(err['ctx'][kind[0]]))}, got {err.get('input')!r}"


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
    """``; did you mean 'speed'?`` for the name of ``names`` closest to a mistyped ``name``
    (difflib's ratio of at least 0.6), else ``""``: to put after ``unknown … 'spd'``."""
    import difflib

    near = difflib.get_close_matches(name, [str(n) for n in names], n=1, cutoff=0.6)  # type: ignore[attr-defined]
    from kubb3d.judge.messages import msg

    return msg("; did you mean {name}?", name=repr(near[0])) if near else ""

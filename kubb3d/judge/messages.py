"""Translatable messages as data: the English text plus its template and parameters.

The judge, the rules engine and the match speak in :class:`Msg` values. A ``Msg`` *is* the
English sentence (a ``str``: printing, JSON and comparisons see the English text, byte for
byte as before), and it also keeps the message template (the gettext ``msgid``) and its named
parameters, so a program at the edge (the command line, the 3D view, the quiz) can produce the
same sentence in another language (:func:`kubb3d.i18n.render`, docs/german.md). Nothing here
knows about languages: there is no language state in the judge.

``N_`` only marks a literal for the catalog extractor and returns it unchanged; ``Nn_`` marks
a singular and plural pair. Where a count is printed, :func:`nmsg` keeps both forms and the
count, so each language picks its own form (gettext ``ngettext`` and the catalog's
``Plural-Forms``; English: the singular for 1, else the plural).
"""

from __future__ import annotations

import math
import numbers
import string
from typing import Any, Callable, Iterable, Mapping


def number_text(value: Any, spec: str = "") -> str:
    """``format(value, spec)``, but never a negative zero: a negative number that rounds to zero
    at the spec's precision prints as zero (``-0.001`` with ``.2f`` is ``0.00``, with ``+.1f``
    ``+0.0``; ``-0.0`` is ``0.0``). Every coordinate and figure the program prints for people
    goes through here (:class:`Msg` and :mod:`kubb3d.i18n` format with :data:`FORMATTER`)."""
    text = format(value, spec)
    if (
        isinstance(value, numbers.Real)
        and not isinstance(value, numbers.Integral)
        and math.isfinite(value)
        and math.copysign(1.0, float(value)) < 0
        and "-" in text
    ):
        plain = format(abs(value), spec)
        if not any(c in "123456789" for c in plain.partition("e")[0].partition("E")[0]):
            return plain  # only zeros left: the minus sign was all that was printed of the value
    return text


class PlainFormatter(string.Formatter):
    """``str.format`` whose numbers go through :func:`number_text` (no ``-0.00``)."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        return number_text(value, format_spec)


FORMATTER = PlainFormatter()
"""The formatter of every message (``FORMATTER.vformat(template, (), params)``)."""


def N_(text: str) -> str:
    """Mark ``text`` as translatable (returned as it is; the extractor collects it)."""
    return text


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular and plural pair of templates as translatable (returned as they are)."""
    return singular, plural


class Msg(str):
    """A sentence in English that remembers how it was made.

    ``Msg("{piece} fell.", piece="B3")`` equals the ``str`` ``"B3 fell."``; ``.template`` is
    ``"{piece} fell."`` and ``.params`` ``{"piece": "B3"}``. Parameters are named (never
    positional) and may be numbers, plain strings (piece ids, sides: not translated) or other
    ``Msg`` values (translated in turn). Format specs in the template (``{tilt:.0f}``) apply in
    every language.

    Raises:
        KeyError: a placeholder of the template has no parameter.
    """

    template: str
    params: Mapping[str, Any]
    forms: tuple[str, str, int] | None = None
    """Of a message with a count (:func:`nmsg`): (singular, plural, count); else None."""
    recorded: bool = False
    """English text read back from a file (:func:`recorded`), its template not known."""
    data: Any = None
    """Of a message read back from a file: its id and parameters as the file kept them
    (:func:`message_data`), or None."""

    def __new__(cls, template: str, /, **params: Any) -> Msg:
        text = template.split(CONTEXT)[-1]  # a context (:func:`pmsg`) is not part of the text
        self = super().__new__(cls, FORMATTER.vformat(text, (), params))
        self.template = template
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.template, dict(self.params), self.forms))


def _rebuild(template: str, params: dict[str, Any], forms: tuple[str, str, int] | None = None) -> Msg:
    return Msg(template, **params) if forms is None else nmsg(forms[0], forms[1], forms[2], **params)


def msg(template: str, /, **params: Any) -> Msg:
    """A :class:`Msg` (the name the catalog extractor looks for)."""
    return Msg(template, **params)


CONTEXT = "\x04"
"""Between a message's context and its template (gettext's ``msgctxt`` separator)."""


def pmsg(context: str, template: str, /, **params: Any) -> Msg:
    """A :class:`Msg` whose English ``template`` needs another translation in ``context`` (the
    catalog's ``msgctxt``): ``pmsg("after a preposition", "the king")`` is ``the king`` in
    English and ``dem König`` in German, where plain ``msg("the king")`` is ``der König``."""
    return Msg(f"{context}{CONTEXT}{template}", **params)


def nmsg(singular: str, plural: str, n: int, /, **params: Any) -> Msg:
    """A :class:`Msg` with a count: in English ``singular`` when ``n`` is 1, else ``plural``;
    rendered in another language with that language's form for ``n`` (``ngettext``). The
    count is passed on as a named parameter too where the templates print it."""
    m = Msg(singular if n == 1 else plural, **params)
    m.forms = (singular, plural, int(n))
    return m


BODIES = ("ground", "floor")
"""The bodies other than pieces that a contact names (:data:`kubb3d.snapshot.GROUND_ID`, the
ground or a table's board; ``floor``, the floor under a Kubbuteo table), as words in the
catalog (context ``a body touched``: German ``Boden``, where the surface of an experiment's
``ground`` column is ``Untergrund``)."""


def piece_name(piece_id: str) -> str:
    """A piece id as a message parameter: the king and a baton (``baton3`` → ``baton 3``,
    German ``Wurfholz 3``) and the ground (:data:`BODIES`) as translatable words, other ids
    (kubbs ``B3``) as they are."""
    if piece_id == "king":
        return msg("king")
    if piece_id == "ground":
        return pmsg("a body touched", "ground")
    if piece_id == "floor":
        return pmsg("a body touched", "floor")
    if piece_id.startswith("baton") and piece_id[5:].isdigit():
        return msg("baton {n}", n=int(piece_id[5:]))
    return piece_id


def piece_subject(piece_id: str) -> str:
    """A piece as the subject that opens a sentence: ``The king`` (German ``Der König``),
    ``Baton 3``, a kubb's id as it is (``{name} lies on the ground.``)."""
    if piece_id == "king":
        return msg("The king")
    if piece_id.startswith("baton") and piece_id[5:].isdigit():
        return msg("Baton {n}", n=int(piece_id[5:]))
    return piece_id


def piece_object(piece_id: str) -> str:
    """A piece after a preposition: ``the king`` (German ``dem König``: the German templates
    put it in the dative, ``an {others}``, ``auf {others}``, ``mit {others}``), other pieces as
    :func:`piece_name` (``baton 3``, ``B3``)."""
    return pmsg("after a preposition", "the king") if piece_id == "king" else piece_name(piece_id)


def at_spot(x: float, y: float) -> Msg:
    """Where a kubb is raised or set, as every line of one ruling writes it: ``at (-2.10, 0.03) m``,
    to the centimetre like the reasons (``… is raised over its short edge at (-2.10, 0.03) m``),
    so one spot reads the same both times (a tape measure reads centimetres)."""
    return msg("at ({x:.2f}, {y:.2f}) m", x=x, y=y)


def ids(pieces: Iterable[str], name: Callable[[str], str] | None = None) -> str:
    """Piece ids joined by commas for a message, the king translatable (``B1, king``);
    ``name``: how each is named (default :func:`piece_name`; :func:`piece_object` after a
    preposition)."""
    return join([(name or piece_name)(p) for p in pieces])


def names(ids: Iterable[str], name: Callable[[str], str] | None = None) -> str:
    """Piece ids for a message: ``B1``, ``B1 and B2``, ``B1, B2 and B3`` (the ``and``
    translatable); ``name`` as for :func:`ids`."""
    items = [(name or piece_name)(i) for i in ids]
    if len(items) <= 1:
        return items[0] if items else ""
    return msg("{first} and {last}", first=join(items[:-1]), last=items[-1])


def join(parts: Iterable[str], sep: str = ", ") -> str:
    """``parts`` joined by ``sep`` (a separator with no words), keeping each part a message of its
    own: the result renders each part in the target language."""
    items = list(parts)
    if not any(isinstance(p, Msg) for p in items):
        return sep.join(items)
    braced = sep.replace("{", "{{").replace("}", "}}")
    return Msg(braced.join(f"{{p{i}}}" for i in range(len(items))), **{f"p{i}": p for i, p in enumerate(items)})


def concat(*parts: str) -> str:
    """``parts`` one after the other (see :func:`join`)."""
    return join(parts, "")


def recorded(text: str, data: Any = None) -> str:
    """A sentence read back as text (a replay file keeps the judge's reasons and a match's result
    in English): a :class:`Msg` that a translator to another language first reads back into its
    template and parameters, from ``data`` (the sentence's message as :func:`message_data` wrote it,
    :func:`kubb3d.i18n.from_data`) where the file has it, else by parsing the text
    (:func:`kubb3d.i18n.parse`); one neither gives stays English."""
    if not text or isinstance(text, Msg):
        return text
    message = Msg(text.replace("{", "{{").replace("}", "}}"))
    message.recorded = True
    message.data = data
    return message


MAX_NESTING = 16
"""Deepest message in a message's parameters that :func:`message_data` writes (a reason nests 4 at most)."""


def message_data(text: str, _depth: int = 0) -> dict[str, Any] | None:
    """A message's id and parameters as JSON data, to be kept beside its English text (a replay's
    reasons, docs/viewer.md "What a replay records"): ``id`` (the template, the gettext ``msgid``),
    ``ctx`` (its context, :func:`pmsg`), ``plural`` and ``n`` (of :func:`nmsg`), ``params`` (name →
    number, piece id, or a message's data in turn); keys with nothing in them left out.

    None for a plain string, a message read back from a file (:func:`recorded`), or one with a
    parameter JSON cannot keep exactly (not a finite number, a string or a message)."""
    if not isinstance(text, Msg) or text.recorded or _depth > MAX_NESTING:
        return None
    context, _, template = text.template.rpartition(CONTEXT)
    out: dict[str, Any] = {"id": template}
    if context:
        out["ctx"] = context
    if text.forms is not None:
        out["id"], out["plural"], out["n"] = text.forms
    params: dict[str, Any] = {}
    for name, value in text.params.items():
        if isinstance(value, Msg):
            value = message_data(value, _depth + 1)
            if value is None:
                return None
        elif isinstance(value, str):
            value = str(value)
        elif isinstance(value, bool):
            return None
        elif isinstance(value, numbers.Integral):
            value = int(value)
        elif isinstance(value, numbers.Real) and math.isfinite(value):
            value = float(value)
        else:
            return None
        params[name] = value
    if params:
        out["params"] = params
    return out


def known(text: str) -> str:
    """A string computed at run time that is itself a catalog message (an enum value marked with
    ``N_`` where it is defined, e.g. a ruling's status): as a :class:`Msg`, so it is translated."""
    return text if isinstance(text, Msg) or "{" in text or "}" in text else Msg(text)


def did_you_mean(name: str, names: object) -> str:
    """``; did you mean 'speed'?`` for the name of ``names`` closest to a mistyped ``name``
    (difflib's ratio of at least 0.6), else ``""``: to put after ``unknown … 'spd'``."""
    import difflib

    near = difflib.get_close_matches(name, [str(n) for n in names], n=1, cutoff=0.6)  # type: ignore[attr-defined]
    return msg("; did you mean {name}?", name=repr(near[0])) if near else ""

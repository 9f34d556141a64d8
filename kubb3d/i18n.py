"""Languages at the edge: gettext catalogs, the chosen language, messages rendered in it.

English is the default and needs no catalog. Other languages are standard gettext catalogs
shipped in the package (``kubb3d/locale/<lang>/LC_MESSAGES/kubb3d.po`` and its compiled
``.mo``); the German terms and the DM sections they come from are in docs/german.md.

The language is chosen by a command's ``--lang`` option, else by the environment as gettext
reads it (``LANGUAGE``, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; ``de_DE.UTF-8`` → ``de``).
Nothing here is global: a :class:`Translator` is made at the edge and passed on.
"""

from __future__ import annotations

import functools
import gettext
import os
import re
import string
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from kubb3d.errors import LanguageError as LanguageError
from kubb3d.judge.messages import CONTEXT, FORMATTER, Msg, PlainFormatter

DOMAIN = "kubb3d"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DEFAULT = "en"
ENV_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
DECIMAL_COMMA = frozenset({"de"})
"""Languages that write a decimal comma: a float parameter formatted as ``3.25`` shows as ``3,25``."""


def available() -> tuple[str, ...]:
    """The language codes with a compiled catalog, plus ``en``, sorted."""
    found = {p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo")}
    return tuple(sorted(found | {DEFAULT}))


def _code(name: str) -> str:
    """``de_DE.UTF-8`` / ``de-DE`` / ``DE`` → ``de``; ``C`` and ``POSIX`` → ``en``."""
    base = name.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return DEFAULT if base in ("c", "posix") else base


def resolve(lang: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language code to use: ``lang`` if given (it must be available), else the first
    available language the environment names, else ``en``.

    Raises:
        LanguageError: ``lang`` is given but has no catalog (the message lists the available ones).
    """
    have = available()
    if lang is not None:
        code = _code(lang)
        if code not in have:
            raise LanguageError(f"--lang: unknown language {lang!r}; available: {', '.join(have)}")
        return code
    env = os.environ if environ is None else environ
    for var in ENV_VARS:
        value = env.get(var, "")
        if not value:
            continue
        for part in value.split(":"):
            if part and _code(part) in have:
                return _code(part)
        if var != "LANGUAGE":  # the first locale variable that is set decides
            break
    return DEFAULT


@dataclass(frozen=True)
class Translator:
    """Text in one language. ``tr(text)`` translates a plain string or renders a :class:`Msg`.

    Attributes:
        lang: the language code (``en``, ``de``).
    """

    lang: str
    catalog: gettext.NullTranslations

    def gettext(self, text: str) -> str:
        """The catalog's translation of ``text`` (``text`` itself when it has none)."""
        return self.catalog.gettext(text)

    def __call__(self, text: str) -> str:
        """``text`` in this language: a :class:`Msg` rendered from its translated template and
        parameters (nested messages translated too; one read back from a file, ``recorded``,
        first parsed into its template, :func:`parse`), any other string looked up as a whole."""
        if isinstance(text, Msg):
            return render(
                text,
                self.gettext,
                decimal_comma=self.lang in DECIMAL_COMMA,
                ngettext_=self.catalog.ngettext,
                parse_recorded=self.lang != DEFAULT,
            )
        return self.gettext(text) if text else text


class _CommaFormatter(PlainFormatter):
    """``str.format`` that writes floats with a decimal comma (and no ``-0,00``)."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        text = super().format_field(value, format_spec)
        return text.replace(".", ",") if isinstance(value, float) else text


_COMMA = _CommaFormatter()


def render(
    message: Msg, gettext_: Any, *, decimal_comma: bool = False, ngettext_: Any = None, parse_recorded: bool = False
) -> str:
    """``message`` made from ``gettext_(template)`` and its parameters, nested ``Msg``
    parameters rendered the same way; plain-string parameters (piece ids) are kept. A message
    with a count (:func:`~kubb3d.judge.messages.nmsg`) takes its form from
    ``ngettext_(singular, plural, n)`` (without one: its English form). ``parse_recorded``: a
    message read back from a file (``recorded``) is first parsed into its template (:func:`parse`)."""
    if parse_recorded and message.recorded:
        message = from_data(str(message), message.data) or parse(str(message)) or message
    opts = {"decimal_comma": decimal_comma, "ngettext_": ngettext_, "parse_recorded": parse_recorded}
    params = {k: render(v, gettext_, **opts) if isinstance(v, Msg) else v for k, v in message.params.items()}
    if message.forms is not None and ngettext_ is not None:
        template = str(ngettext_(*message.forms))
    else:
        template = str(gettext_(message.template)).split(CONTEXT)[-1]  # untranslated: without its context
    return (_COMMA if decimal_comma else FORMATTER).vformat(template, (), params)


@dataclass(frozen=True)
class _Template:
    """One English message form of the catalogs, ready to match a sentence: the regular
    expression, the message's context, its template, its (singular, plural) pair if it has a
    count, each placeholder's name and format spec."""

    pattern: re.Pattern[str]
    context: str
    template: str
    plural: tuple[str, str] | None
    fields: tuple[tuple[str, str], ...]  # (name, format spec), each name once
    adjacent: tuple[tuple[str, str], ...] = ()  # placeholders with no text between ("{where}{felled}")


def _catalog_messages() -> list[tuple[str, tuple[str, ...]]]:
    """(context, English forms) of every message of the first compiled catalog (the ``.mo``
    format: the original strings' table at the offset in bytes 12–16, entries of length and
    offset; ``context\\x04msgid``, plural forms split by ``\\x00``)."""
    found = sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    if not found:
        return []
    data = found[0].read_bytes()
    count, table = struct.unpack("<2I", data[8:16])
    out = []
    for i in range(count):
        length, offset = struct.unpack("<2I", data[table + 8 * i : table + 8 * i + 8])
        raw = data[offset : offset + length].decode("utf-8")
        if raw:
            context, _, ids = raw.rpartition(CONTEXT)
            out.append((context, tuple(ids.split("\x00"))))
    return out


@functools.lru_cache(maxsize=1)
def _templates() -> tuple[_Template, ...]:
    """Every English message form as a :class:`_Template`, the most literal text first."""
    out = []
    for context, forms in _catalog_messages():
        plural = (forms[0], forms[1]) if len(forms) == 2 else None
        for form in forms:
            regex, literal = "", 0
            fields: list[tuple[str, str]] = []
            adjacent: list[tuple[str, str]] = []
            groups: dict[str, str] = {}  # placeholder → its regex group
            previous = None  # the placeholder just before, with no text since
            for text, name, spec, _ in string.Formatter().parse(form):
                regex += re.escape(text)
                literal += len(text)
                if text:
                    previous = None
                if name is None:
                    continue
                if previous is not None and name not in groups:
                    adjacent.append((previous, name))
                previous = name
                if name in groups:  # the same value again
                    regex += f"(?P={groups[name]})"
                    continue
                groups[name] = f"g{len(groups)}"
                fields.append((name, spec or ""))
                regex += f"(?P<{groups[name]}>.*?)"
            pattern = re.compile(regex, re.S)
            out.append((literal, _Template(pattern, context, form, plural, tuple(fields), tuple(adjacent))))
    out.sort(key=lambda item: -item[0])
    return tuple(t for _, t in out)


@functools.lru_cache(maxsize=8)
def _in_context(context: str) -> tuple[_Template, ...]:
    """The templates of ``context`` first, then those without one."""
    return tuple(t for t in _templates() if context and t.context == context) + tuple(
        t for t in _templates() if not t.context
    )


OBJECTS = ("others", "other")
"""Placeholders that hold pieces after a preposition (their king is the context's form)."""
PREPOSITION = "after a preposition"
"""The context of a piece named after a preposition (:func:`kubb3d.judge.messages.piece_object`)."""


@functools.lru_cache(maxsize=4096)
def parse(text: str, context: str = "") -> Msg | None:
    """The message an English ``text`` was made from, found among the catalog's templates (the
    most literal first): its parameters read back (numbers as numbers where the template formats
    them, words and nested sentences parsed in turn, the pieces of :data:`OBJECTS` in the context
    :data:`PREPOSITION`), or None when no template gives back ``text`` exactly.

    Sentences read back from a file (a replay's reasons) are parsed so that they can be
    translated; the result renders to ``text`` in English, byte for byte."""
    from kubb3d.judge.messages import nmsg, pmsg

    if not text or not re.search(r"[a-z]{2}", text):
        return None  # ids, numbers and citations ("A3", "DM §5") are no sentence
    loose = None  # a template that gives the text back with words left unread in a parameter
    for t in _in_context(context):
        found = t.pattern.fullmatch(text)
        if found is None:
            continue
        raw = dict(zip((name for name, _ in t.fields), found.groups()))
        specs = dict(t.fields)

        def value(name: str, text: str, specs: dict[str, str] = specs) -> Any:
            return _value(text, specs[name], PREPOSITION if name in OBJECTS else context)

        params = {name: value(name, raw[name]) for name in raw}
        for first, second in t.adjacent:
            # "{where}{felled}": the text of both, split where each part reads back as a message
            # (the regex gives the first one nothing), or as no sentence at all (empty, a number)
            both = raw[first] + raw[second]
            for k in range(len(both) + 1):
                left, right = value(first, both[:k]), value(second, both[k:])
                if _read(left) and _read(right):
                    params[first], params[second] = left, right
                    break
        try:
            if t.plural is not None:
                # the count is one of the whole numbers, not always the first: "turn {n}: … with
                # {batons} batons" counts the batons ("turn 1: … with 2 batons" is no singular)
                counts = dict.fromkeys(v for v in params.values() if isinstance(v, int) and not isinstance(v, bool))
                made = next(
                    (m for c in counts if str(m := nmsg(t.plural[0], t.plural[1], c, **params)) == text), None
                )
                if made is None:
                    continue
            else:
                made = pmsg(t.context, t.template, **params) if t.context else Msg(t.template, **params)
        except (KeyError, ValueError, IndexError):
            continue
        if str(made) == text:
            # "nothing felled; to be raised again: B3" fits "{player} {what}: {result}" with
            # "felled; to be raised again" as its {what}: such a reading is kept only if no
            # other reads every word
            if all(_read(v) for v in params.values()):
                return made
            if loose is None:
                loose = made
    from kubb3d.judge.messages import concat

    # messages one after the other (concat: "nothing felled; to be raised again: B3"), each one
    # after the first beginning with its "; " or ", "
    for found in re.finditer(r"(?=[;,] )", text):
        k = found.start()
        left = parse(text[:k], context) if k else None
        if left is not None and _read(left) and (right := parse(text[k:], context)) is not None and _read(right):
            both = concat(left, right)
            if isinstance(both, Msg) and str(both) == text:
                return both
    parts = text.split(", ")  # a list made by join(): each part a message or an id
    if len(parts) > 1:
        read = [parse(part, context) or part for part in parts]
        if any(isinstance(part, Msg) for part in read) and all(_read(part) for part in read):
            from kubb3d.judge.messages import join

            joined = join(read)
            if isinstance(joined, Msg) and str(joined) == text:
                return joined
    if loose is not None:
        loose.loose = True  # type: ignore[attr-defined]
    return loose


def _read(value: Any) -> bool:
    """A parameter read back whole: a message with every word read, or no words at all (an id, a
    number, nothing)."""
    if isinstance(value, Msg):
        return not getattr(value, "loose", False)
    return not re.search(r"[a-z]{2}", str(value))


@functools.lru_cache(maxsize=1)
def _catalog_ids() -> frozenset[tuple[str, ...]]:
    """(context, English forms…) of every message of the catalog: the ids :func:`from_data` takes."""
    return frozenset((context, *forms) for context, forms in _catalog_messages())


def from_data(text: str, data: Any) -> Msg | None:
    """The message ``data`` describes (a sentence's id and parameters as a file kept them,
    :func:`kubb3d.judge.messages.message_data`), or None unless it gives back the English ``text``
    byte for byte and every template in it is a message of this version's catalog or a list made by
    :func:`~kubb3d.judge.messages.join` (data written by an older version whose wording has since
    changed, or edited by hand, is not used: the caller falls back to :func:`parse`)."""
    if not isinstance(data, dict):
        return None
    try:
        made = _from_data(data, 0)
    except (KeyError, ValueError, IndexError, TypeError, AttributeError):
        return None
    return made if made is not None and str(made) == text else None


def _from_data(data: Any, depth: int) -> Msg | None:
    from kubb3d.judge.messages import MAX_NESTING, nmsg, pmsg

    if not isinstance(data, dict) or depth > MAX_NESTING or not set(data) <= {"id", "ctx", "plural", "n", "params"}:
        return None
    template, context, plural, params = data.get("id"), data.get("ctx", ""), data.get("plural"), data.get("params", {})
    if not isinstance(template, str) or not isinstance(context, str) or not isinstance(params, dict):
        return None
    values: dict[str, Any] = {}
    for name, value in params.items():
        if isinstance(value, dict):
            value = _from_data(value, depth + 1)
        elif isinstance(value, bool) or not isinstance(value, (str, int, float)):
            value = None
        if value is None:
            return None
        values[name] = value
    if plural is not None:
        count = data.get("n")
        if not isinstance(plural, str) or not isinstance(count, int) or isinstance(count, bool):
            return None
        if (context, template, plural) not in _catalog_ids() or context:
            return None
        return nmsg(template, plural, count, **values)
    if (context, template) in _catalog_ids():
        return pmsg(context, template, **values) if context else Msg(template, **values)
    return Msg(template, **values) if not context and _is_join(template, values) else None


def _is_join(template: str, values: Mapping[str, Any]) -> bool:
    """``template`` is one :func:`~kubb3d.judge.messages.join` makes for ``values``: ``{p0}``,
    ``{p1}`` … in order, plain, between them one separator without letters."""
    parts = list(string.Formatter().parse(template))
    names = [name for _, name, _, _ in parts if name is not None]
    if names != [f"p{i}" for i in range(len(values))] or set(values) != set(names) or len(names) < 1:
        return False
    if any(spec or conversion for _, name, spec, conversion in parts if name is not None):
        return False
    seps = [literal for literal, name, _, _ in parts if name is not None][1:]
    trailing = [literal for literal, name, _, _ in parts if name is None]
    return parts[0][0] == "" and not any(trailing) and len(set(seps)) <= 1 and not re.search(r"[A-Za-z]", "".join(seps))


def _value(text: str, spec: str, context: str) -> Any:
    """A parameter read back: a number where the spec formats one, a parsed message, or the text."""
    if spec[-1:] in tuple("eEfFgG%"):
        try:
            return float(text.rstrip("%")) / (100 if spec.endswith("%") else 1)
        except ValueError:
            return text
    if spec.endswith("d"):
        try:
            return int(text)
        except ValueError:
            return text
    if text.isdigit():
        return int(text)
    return parse(text, context) or text


def translator(lang: str | None = None, environ: Mapping[str, str] | None = None) -> Translator:
    """The :class:`Translator` for ``lang`` (see :func:`resolve`).

    Raises:
        LanguageError: unknown ``lang``.
    """
    code = resolve(lang, environ)
    if code == DEFAULT:
        return Translator(code, gettext.NullTranslations())
    return Translator(code, gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[code]))


ENGLISH = Translator(DEFAULT, gettext.NullTranslations())
"""English: every text as it is."""

SCENARIO_TEXTS = ("title", "description", "explanation")
"""The fields of a scenario file (docs/scenarios.md) that the quiz shows, translated by the catalog;
so is each ``reason`` of a throw's ``violations`` (the judge's reason quotes it)."""


def extract_scenario_texts(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Any:
    """Babel extraction method for scenario files (``babel.cfg``): yields ``(line, None,
    text, [])`` for each title, description, explanation and violation reason, so they join the
    catalog like the code's messages."""
    import tomllib

    text = fileobj.read().decode("utf-8")
    doc = tomllib.loads(text)
    lines = text.splitlines()
    for key in SCENARIO_TEXTS:
        value = doc.get(key)
        if isinstance(value, str) and value:
            line = next((i for i, ln in enumerate(lines, 1) if ln.lstrip().startswith(key)), 1)
            yield line, None, value, []
    throw = doc.get("throw")
    for violation in throw.get("violations", ()) if isinstance(throw, dict) else ():
        reason = violation.get("reason") if isinstance(violation, dict) else None
        if isinstance(reason, str) and reason:
            line = next((i for i, ln in enumerate(lines, 1) if reason in ln), 1)
            yield line, None, reason, []

"""Languages at the edge: gettext catalogs, the chosen language, messages rendered in it.

English is the default and needs no catalog. Other languages are standard gettext catalogs
shipped in the package (``kubb3d/locale/<lang>/LC_MESSAGES/kubb3d.po`` and its compiled
``.mo``); the German terms and the DM sections they come from are in docs/german.md.

The language is chosen by a command's ``--lang`` option, else by the environment as gettext
reads it (``LANGUAGE``, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; ``de_DE.UTF-8`` → ``de``).
Nothing here is global: a :class:`Translator` is made at the edge and passed on.
"""

from __future__ import annotations

import gettext
import os
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from kubb3d.errors import LanguageError as LanguageError
from kubb3d.judge.messages import CONTEXT, Msg

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
        parameters (nested messages translated too), any other string looked up as a whole."""
        if isinstance(text, Msg):
            return render(text, self.gettext, decimal_comma=self.lang in DECIMAL_COMMA, ngettext_=self.catalog.ngettext)
        return self.gettext(text) if text else text


class _CommaFormatter(string.Formatter):
    """``str.format`` that writes floats with a decimal comma."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        text = super().format_field(value, format_spec)
        return text.replace(".", ",") if isinstance(value, float) else text


_COMMA = _CommaFormatter()


def render(message: Msg, gettext_: Any, *, decimal_comma: bool = False, ngettext_: Any = None) -> str:
    """``message`` made from ``gettext_(template)`` and its parameters, nested ``Msg``
    parameters rendered the same way; plain-string parameters (piece ids) are kept. A message
    with a count (:func:`~kubb3d.judge.messages.nmsg`) takes its form from
    ``ngettext_(singular, plural, n)`` (without one: its English form)."""
    params = {
        k: render(v, gettext_, decimal_comma=decimal_comma, ngettext_=ngettext_) if isinstance(v, Msg) else v
        for k, v in message.params.items()
    }
    if message.forms is not None and ngettext_ is not None:
        template = str(ngettext_(*message.forms))
    else:
        template = str(gettext_(message.template)).split(CONTEXT)[-1]  # untranslated: without its context
    return _COMMA.vformat(template, (), params) if decimal_comma else template.format(**params)


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

"""The ``--lang`` option the commands that speak to people share, and the language of every
command's error lines (docs/german.md).

An error line (``error: …``, exit code 2) is written in the language of the command line
(:func:`error_line`): its ``--lang``, else the environment (``LANGUAGE``, ``LANG`` …), read
from the words of the command line itself, because many errors come before the command
has read its own ``--lang`` (a flag value Click or the range checks refuse, an unknown
option) or from commands that take no ``--lang``. A message made with
:func:`~kubb3d.judge.messages.msg` is rendered in that language; a plain English one is read
back into the catalog's template it matches (:func:`kubb3d.i18n.parse`), part after part of
``where: what``; what matches no template stays English."""

from __future__ import annotations

from typing import Any, Optional

import typer

from kubb3d.ranges import one_line

from kubb3d.i18n import ENGLISH, LanguageError, Translator, translator
from kubb3d.judge.messages import N_, Msg, msg

LANG_HELP = (
    "Language of the text: en or de (default: the LANGUAGE / LANG environment, e.g. LANG=de_DE.UTF-8, else en)."
)


_CLICK_MESSAGES = (
    # Click's own usage errors (in English whatever the language), as messages of kubb3d's catalog
    (r"No such option: (?P<option>\S+) \(Possible options: (?P<options>.+)\)",
     N_("No such option: {option} (possible options: {options})")),
    (r"No such option: (?P<option>\S+) Did you mean (?P<other>\S+)\?",
     N_("No such option: {option}; did you mean {other}?")),
    (r"No such option: (?P<option>\S+)", N_("No such option: {option}")),
    (r"No such command (?P<command>'.+')\. Did you mean (?P<other>'.+')\?",
     N_("No such command {command}; did you mean {other}?")),
    (r"No such command (?P<command>'.+')\.", N_("No such command {command}.")),
    (r"Got unexpected extra arguments?(?:\(s\))? \((?P<words>.*)\)", N_("Got unexpected extra arguments ({words})")),
    (r"Missing argument (?P<name>'.+')\.", N_("Missing argument {name}.")),
    (r"Missing option (?P<name>'.+')\.", N_("Missing option {name}.")),
    (r"Invalid value for (?P<param>'.+?'): (?P<value>'.*') is not one of (?P<choices>.+)\.",
     N_("Invalid value for {param}: {value} is not one of {choices}.")),
    (r"Invalid value for (?P<param>'.+?'): (?P<value>'.*') is not a valid (?P<kind>integer|float|boolean)\.",
     N_("Invalid value for {param}: {value} is not a valid {kind}.")),
    (r"Invalid value for (?P<param>'.+?'): (?P<text>.+)", N_("Invalid value for {param}: {text}")),
)
"""(pattern of Click's English text, kubb3d's template) for :func:`usage_message`."""


WHERE = "{command}: {message}"
"""Where an error is and what it is: not a message of the catalog (it would read back every
``x: y`` sentence), so only its parts are translated."""


def usage_message(command: str, text: str) -> Msg:
    """``COMMAND: TEXT`` for Click's usage error ``text`` of ``command`` (``kubb3d match``), the
    text as a message of the catalog when it is one of :data:`_CLICK_MESSAGES` (translated in
    the error line, :func:`error_line`). The English is Click's, but for the plural
    "argument(s)" and the capital "Possible"."""
    import re

    for pattern, template in _CLICK_MESSAGES:
        found = re.fullmatch(pattern, text)
        if found is not None:
            params = found.groupdict()
            if "kind" in params:  # Click's word for the type
                kinds = {"integer": N_("integer"), "float": N_("float"), "boolean": N_("boolean")}
                params["kind"] = msg(kinds[params["kind"]])
            if "text" in params:  # a parser's own message (kubb3d.files.file_name), read back
                from kubb3d.i18n import parse

                params["text"] = parse(params["text"]) or params["text"]
            return Msg(WHERE, command=command, message=msg(template, **params))
    return Msg(WHERE, command=command, message=text)



def lang_option() -> Any:
    """The ``--lang`` Typer option (``None``: from the environment)."""
    return typer.Option(None, "--lang", help=LANG_HELP, metavar="LANG")


def translator_for(lang: Optional[str]) -> Translator:
    """The translator for ``--lang`` (or the environment); an unknown language is one error line
    naming the available ones, exit 2."""
    try:
        return translator(lang)
    except LanguageError as exc:
        from kubb3d.cli import _json_error

        typer.echo(error_line(exc, ENGLISH), err=True)  # an unknown --lang: its own error in English
        _json_error(str(exc))
        raise typer.Exit(2) from None


def command_line_translator(words: list[str] | None = None) -> Translator:
    """The language of ``words`` (default: the command line being run): the value of its
    ``--lang`` (``--lang de``, ``--lang=de``; before a ``--``), else the environment's; English
    when that ``--lang`` names no language (its own error line is then English)."""
    if words is None:
        from kubb3d.cli import _COMMAND_WORDS

        words = _COMMAND_WORDS[0]
    lang = None
    for i, word in enumerate(words):
        if word == "--":
            break
        if word == "--lang" and i + 1 < len(words):
            lang = words[i + 1]
        elif word.startswith("--lang="):
            lang = word.split("=", 1)[1]
    try:
        return translator(lang or None)
    except LanguageError:
        return ENGLISH


def translated(text: object, tr: Translator) -> str:
    """``text`` (an error message) in the language of ``tr``: a :class:`Msg` rendered, a plain
    string read back into a catalog template (:func:`kubb3d.i18n.parse`), else its part after
    the first ``": "`` in turn (``FILE: what is wrong``, ``kubb3d match: …``), else as it is."""
    if isinstance(text, BaseException):
        text = text.args[0] if len(text.args) == 1 and isinstance(text.args[0], Msg) else str(text)
    if tr.lang == ENGLISH.lang:
        return str(text)
    if isinstance(text, Msg):
        return tr(text)
    from kubb3d.i18n import parse

    text = str(text)
    found = parse(text)
    if found is not None:
        return tr(found)
    head, sep, tail = text.partition(": ")
    return head + sep + translated(tail, tr) if sep and tail else text


def warning_line(message: object, tr: Translator | None = None) -> str:
    """The one line ``warning: MESSAGE`` (German ``Warnung: …``) of something a command read
    past (a cut replay, bad result rows), in the command line's language as :func:`error_line`."""
    tr = command_line_translator() if tr is None else tr
    return tr(msg("warning: {message}", message=one_line(translated(message, tr))))


def error_line(message: object, tr: Translator | None = None) -> str:
    """The one line ``error: MESSAGE`` (German ``Fehler: …``) of a refused input, in the command
    line's language (:func:`command_line_translator`) or ``tr``'s."""
    tr = command_line_translator() if tr is None else tr
    return tr(msg("error: {message}", message=one_line(translated(message, tr))))

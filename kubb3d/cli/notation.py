"""``kubb3d notation``: a recorded match as a Planet Kubb Game Notation record, and such a
record read back as its turns (:mod:`kubb3d.notation`, docs/notation.md).

Call :func:`register` with the main Typer app. A bad replay, malformed notation (its line and
column named), both or neither input, or an output that cannot be written is one line
``error: …`` on stderr and exit code 2, with nothing written.
"""

from __future__ import annotations

from kubb3d.errors import message as error_message

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from kubb3d.cli.outputs import force_option, output_option
from kubb3d.cli.lang import lang_option, translator_for

from kubb3d.cli.whatif import _fail
from kubb3d.judge.messages import Msg, join, msg
from kubb3d.cli.match import ENDINGS


def record_of_replay(path: Path):
    """The :class:`~kubb3d.notation.Record` of the replay at ``path``.

    Raises:
        ReplayError: the replay cannot be read, or a recorded action does not fit the match.
    """
    from kubb3d.files import ReplayError
    from kubb3d.notation import replay_notation
    from kubb3d.replay import read_replay

    replay = read_replay(path)
    if replay.header.config is None:
        from kubb3d.judge.messages import concat, msg

        raise ReplayError(concat(f"{replay.path}:1: config: ",
                                 msg("missing (a match record needs the match's configuration)")))
    actions, outcome = [], None
    for _, record, raw in replay.records:
        if record.type == "action":
            events = raw.get("events")
            events = [e for e in events if isinstance(e, dict)] if isinstance(events, list) else []
            actions.append((raw["action"], raw.get("outcome"), events))
        elif record.type == "outcome":
            outcome = raw
    try:
        return replay_notation(replay.header_dict["config"], actions, outcome)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        why = " ".join(str(exc).split())[:200]
        raise ReplayError(f"{replay.path}: a recorded action does not fit the match: {why}") from None


def turn_lines(record) -> list[Msg]:
    """The turns of a record in words, one message per line (``kubb3d notation --read``)."""
    players = record.players
    out: list[Msg] = []
    for t in record.turns:
        parts = []
        if t.inkast:
            parts.append(msg(
                "{kubbs_in} thrown in, {rethrown} thrown again, {penalty} penalty kubbs",
                kubbs_in=t.inkast_total("I"), rethrown=t.inkast_total("R"), penalty=t.inkast_total("P"),
            ))
            if any(e.king for e in t.inkast):
                parts.append(msg("king felled"))
        batons = []
        for e in t.batons:
            felled = [msg("{n} field", n=e.total("F"))] * bool(e.total("F"))
            felled += [msg("{n} baseline", n=e.total("B"))] * bool(e.total("B")) + [msg("king")] * e.king
            batons.append(join(felled, " ") if felled else msg("miss"))
        if batons:
            parts.append(msg("batons: {batons}", batons=join(batons)))
        out.append(msg(
            "line {line}: set {set}, turn {turn}, {side} ({player}): {what}",
            line=t.line, set=t.set, turn="?" if t.number is None else t.number, side=t.side or "?",
            player=players.get(t.side, "?"), what=join(parts, "; "),
        ))
    result = record.result
    if result is not None:
        how = Msg(ENDINGS[result.how]) if result.how in ENDINGS else result.how  # as match's result line
        out.append(
            msg("result: draw ({how})", how=how) if result.winner is None
            else msg("result: {side} ({player}) wins ({how})", side=result.winner,
                     player=players.get(result.winner, "?"), how=how)
        )
    return out


def notation_command(
    replay: Optional[Path] = typer.Argument(
        None, help="A replay written by `kubb3d match --replay`: print its record in the notation."
    ),
    read: Optional[Path] = typer.Option(
        None, "--read", help="Read a record in the notation instead and print its turns (with --json: the typed form)."
    ),
    out: Optional[Path] = output_option(
        "--out",
        "Write the output to this file instead (.txt; .json with --json).",
        suffixes=(".txt", ".json"),
        kind="text",
    ),
    force: bool = force_option(),
    as_json: bool = typer.Option(
        False, "--json", help="Print the record read back: players, sets, each turn's inkast counts and batons, result."
    ),
    lang: Optional[str] = lang_option(),
) -> None:
    """Write a recorded match in the Planet Kubb Game Notation (one line per turn: inkast counts,
    then one entry per baton: F field kubb, B baseline kubb, K king, - a miss), or read such a
    record back (--read) as the list of its turns. The mapping and what the notation cannot
    hold: docs/notation.md."""
    from kubb3d.files import NOTATION_KIND, FileSafetyError, ReplayError, check_output, read_input, write_output
    from kubb3d.files import wrong_kind
    from kubb3d.notation import NotationError, format_record, parse_notation

    tr = translator_for(lang)  # the words of --read and its errors; the record and --json stay English (data)
    try:
        if (replay is None) == (read is None):
            from kubb3d.judge.messages import msg

            raise ValueError(msg("{command}: give either a REPLAY or --read FILE (exactly one)",
                                 command="kubb3d notation"))
        if out is not None:
            check_output(out, "--out", overwrite=force)
        if replay is not None:
            text = format_record(record_of_replay(replay))
            if as_json:  # the record as read back, with the line of each turn
                text = json.dumps(parse_notation(text).to_dict(), ensure_ascii=False) + "\n"
        else:
            assert read is not None
            source = read_input(read, "notation file")
            from kubb3d.judge.messages import msg

            hint = msg("--read expects a record such as kubb3d notation REPLAY --out m.txt writes")
            other = wrong_kind(read, source, NOTATION_KIND, hint)
            if other is not None:
                raise ValueError(other)
            try:
                record = parse_notation(source)
            except NotationError as exc:
                raise ValueError(f"{read}:{exc.line}:{exc.column}: {tr(exc.what)}") from None
            if as_json:
                text = json.dumps(record.to_dict(), ensure_ascii=False) + "\n"
            else:
                text = "".join(tr(line) + "\n" for line in turn_lines(record))
        if out is not None:
            write_output(out, lambda tmp: tmp.write_text(text, encoding="utf-8"), "--out", overwrite=force)
            from kubb3d.cli.outputs import say_wrote

            say_wrote(out)
            return
    except (ReplayError, FileSafetyError, ValueError) as exc:
        _fail(error_message(exc))
    sys.stdout.write(text)


def register(app: typer.Typer) -> None:
    """Add the ``notation`` command to ``app``."""
    app.command("notation")(notation_command)

"""``kubb3d notation``: a recorded match as a Planet Kubb Game Notation record, and such a
record read back as its turns (:mod:`kubb3d.notation`, docs/notation.md).

Call :func:`register` with the main Typer app. A bad replay, malformed notation (its line and
column named), both or neither input, or an output that cannot be written is one line
``error: …`` on stderr and exit code 2, with nothing written.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from kubb3d.cli.whatif import _fail
from kubb3d.files import file_name


def record_of_replay(path: Path):
    """The :class:`~kubb3d.notation.Record` of the replay at ``path``.

    Raises:
        ReplayError: the replay cannot be read, or a recorded action does not fit the match.
    """
    from kubb3d.files import ReplayError
    from kubb3d.notation import replay_notation
    from kubb3d.whatif import read_recorded

    recorded = read_recorded(path)
    actions = []
    for i in sorted(recorded.actions):
        line, action, outcome = recorded.actions[i]
        events = json.loads(recorded.lines[line]).get("events") or []
        actions.append((action, outcome, [e for e in events if isinstance(e, dict)]))
    try:
        return replay_notation(recorded.header["config"], actions, recorded.outcome)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        why = " ".join(str(exc).split())[:200]
        raise ReplayError(f"{recorded.path}: a recorded action does not fit the match: {why}") from None


def turn_lines(record) -> list[str]:
    """The turns of a record in words, one line each (``kubb3d notation --read``)."""
    players = record.players
    out = []
    for t in record.turns:
        who = "?" if t.side is None else f"{t.side} ({players.get(t.side, '?')})"
        number = "" if t.number is None else f" turn {t.number}"
        parts = []
        if t.inkast:
            parts.append(
                f"{t.inkast_total('I')} in, {t.inkast_total('R')} rethrown, {t.inkast_total('P')} penalty"
                + (", king felled" if any(e.king for e in t.inkast) else "")
            )
        batons = [
            "miss" if not (e.total("F") or e.total("B") or e.king)
            else " ".join(x for x in (f"{e.total('F')} field" * bool(e.total("F")),
                                      f"{e.total('B')} baseline" * bool(e.total("B")),
                                      "king" * e.king) if x)
            for e in t.batons
        ]
        if batons:
            parts.append("batons: " + ", ".join(batons))
        out.append(f"line {t.line}: set {t.set}{number}, {who}: " + "; ".join(parts))
    result = record.result
    if result is not None:
        who = "draw" if result.winner is None else f"{result.winner} ({players.get(result.winner, '?')}) wins"
        out.append(f"result: {who} ({result.how})")
    return out


def notation_command(
    replay: Optional[Path] = typer.Argument(
        None, help="A replay written by `kubb3d match --replay`: print its record in the notation."
    ),
    read: Optional[Path] = typer.Option(
        None, "--read", help="Read a record in the notation instead and print its turns (with --json: the typed form)."
    ),
    out: Optional[Path] = typer.Option(
        None, "--out", parser=file_name, help="Write the output to this file instead (replaced if it exists)."
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print the record read back: players, sets, each turn's inkast counts and batons, result."
    ),
) -> None:
    """Write a recorded match in the Planet Kubb Game Notation (one line per turn: inkast counts,
    then one entry per baton: F field kubb, B baseline kubb, K king, - a miss), or read such a
    record back (--read) as the list of its turns. The mapping and what the notation cannot
    hold: docs/notation.md."""
    from kubb3d.files import FileSafetyError, ReplayError, check_output, read_input, write_output
    from kubb3d.notation import NotationError, format_record, parse_notation

    try:
        if (replay is None) == (read is None):
            raise ValueError("kubb3d notation: give either a REPLAY or --read FILE (exactly one)")
        if out is not None:
            check_output(out, "--out", overwrite=True)
        if replay is not None:
            text = format_record(record_of_replay(replay))
            if as_json:  # the record as read back, with the line of each turn
                text = json.dumps(parse_notation(text).to_dict(), ensure_ascii=False) + "\n"
        else:
            assert read is not None
            source = read_input(read, "notation file")
            try:
                record = parse_notation(source)
            except NotationError as exc:
                raise ValueError(f"{read}:{exc}") from None
            if as_json:
                text = json.dumps(record.to_dict(), ensure_ascii=False) + "\n"
            else:
                text = "".join(line + "\n" for line in turn_lines(record))
        if out is not None:
            write_output(out, lambda tmp: tmp.write_text(text, encoding="utf-8"), "--out")
            return
    except (ReplayError, FileSafetyError, ValueError) as exc:
        _fail(str(exc))
    sys.stdout.write(text)


def register(app: typer.Typer) -> None:
    """Add the ``notation`` command to ``app``."""
    app.command("notation")(notation_command)

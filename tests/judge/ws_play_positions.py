"""Positions of simulated WS play, recorded with kubb3d's rulings and the match's records.

Like :mod:`play_positions` (whose JSON format each position keeps: ``seed``, ``ruleset``,
``config``, ``call``, ``kind``, ``snapshot``, ``ctx``, ``kubb3d``), with one field more,
``action``: the replay's record of the action the referee ruled on (the throw's ``line_x``,
the releases of its batons or kubbs, an inkast's kubbs and attempt), without trajectories.
The independent WS referee (independent_ws_referee.py) reads from it where a throw was made
(WS basic rules 6, 7, 10; End of the Game "thrown from its own baseline").

:func:`record_ws_match` also returns the match's other records in order (the lag throws,
raising, placed kubbs, the world records at each turn start, the outcome), for the checks of
procedure and of the result. Only public objects are used: :class:`kubb3d.audit.RecordingJudge`,
:class:`kubb3d.match.Match` and its replay file, :meth:`kubb3d.snapshot.Snapshot.to_dict`.
"""

from __future__ import annotations

from typing import Any

from play_positions import record_with_actions

RULESET = "wikinger"


def record_ws_match(
    seed: int, people: tuple[Any, Any] | None = None, **config: Any
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Play one seeded WS match: (positions, replay records without trajectories).

    Each judge call is matched, in order, with the replay action whose outcome is of its kind
    (``throw`` or ``inkast``); a count that does not match raises ``AssertionError``.
    ``people``: as for :func:`play_positions.record_with_actions`."""
    positions, records = record_with_actions(RULESET, seed, people, **config)
    # the records kept beside the positions: everything but the judged actions' bulky parts
    kept = []
    for r in records:
        if r.get("type") == "action" and (r.get("outcome") or {}).get("kind") in ("throw", "inkast"):
            kept.append({"type": "action", "i": r["i"], "action": r["action"], "judged": True})
        else:
            kept.append(r)
    return positions, kept

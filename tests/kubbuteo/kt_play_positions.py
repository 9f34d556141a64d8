"""Positions of simulated Kubbuteo play, recorded with kubb3d's rulings and the match's actions.

Like tests/judge/play_positions.py (whose JSON format each position keeps: ``seed``,
``ruleset``, ``config``, ``call``, ``kind``, ``snapshot``, ``ctx``, ``kubb3d``), with one field
more, ``action``: the replay's record of the action the referee ruled on (the flick's
``line_x`` and release, the returned kubbs and attempt), without its trajectories. The
independent KT referee (independent_kt_referee.py) reads where a flick started from it
(KT rules: "from their baseline", the advance line, king attempts "from the baseline").

:func:`record_kt_match` also returns the match's other actions in order (raising, placing a
misflicked kubb, the world records at each turn start), for the checks of procedure.
Only public objects are used: :class:`kubb3d.audit.RecordingJudge`, :class:`kubb3d.match.Match`
and its replay file, :meth:`kubb3d.snapshot.Snapshot.to_dict`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judge"))

from play_positions import record_with_actions  # noqa: E402


def record_kt_match(seed: int, **config: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Play one seeded Kubbuteo match: (positions, replay records without trajectories).

    Each judge call is matched, in order, with the replay action whose outcome is of its kind
    (``throw`` or ``inkast``); a count that does not match raises ``AssertionError``."""
    return record_with_actions("kubbuteo", seed, **config)

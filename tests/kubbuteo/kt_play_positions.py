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

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judge"))

from play_positions import ctx_to_dict, judgement_to_dict  # noqa: E402

from kubb3d.audit import RecordingJudge  # noqa: E402
from kubb3d.match import Match, MatchConfig  # noqa: E402

_JUDGED = {"throw": "throw", "inkast": "inkast"}


def _strip(record: dict[str, Any]) -> dict[str, Any]:
    """A replay record without its trajectories (they are large and not read here)."""
    out = dict(record)
    if "throws" in out:
        out["throws"] = [{k: v for k, v in t.items() if k != "trajectory"} for t in out["throws"]]
    out.pop("trajectory", None)
    return out


def record_kt_match(seed: int, **config: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Play one seeded Kubbuteo match: (positions, replay records without trajectories).

    Each judge call is matched, in order, with the replay action whose outcome is of its kind
    (``throw`` or ``inkast``); a count that does not match raises ``AssertionError``."""
    rj = RecordingJudge()
    fd, path = tempfile.mkstemp(suffix=".jsonl")
    os.close(fd)
    try:
        match = Match(MatchConfig(ruleset="kubbuteo", seed=seed, **config), judge=rj, replay=path)
        try:
            match.run()
        finally:
            match.close()
        records = [_strip(json.loads(line)) for line in Path(path).read_text(encoding="utf-8").splitlines()]
    finally:
        os.unlink(path)
    judged = [r for r in records if r.get("type") == "action" and (r.get("outcome") or {}).get("kind") in _JUDGED]
    assert len(judged) == len(rj.calls), (len(judged), len(rj.calls))
    positions = []
    cfg = {k: list(v) if isinstance(v, tuple) else v for k, v in config.items()}
    for n, ((kind, snap, ctx, j), rec) in enumerate(zip(rj.calls, judged)):
        assert rec["outcome"]["kind"] == kind, (n, kind, rec["outcome"]["kind"])
        positions.append(
            {
                "seed": seed,
                "ruleset": "kubbuteo",
                "config": cfg,
                "call": n,
                "kind": kind,
                "snapshot": snap.to_dict(),
                "ctx": ctx_to_dict(kind, ctx),
                "kubb3d": judgement_to_dict(j),
                "action": {"i": rec["i"], **rec["action"], "throws": rec.get("throws", [])},
            }
        )
    return positions, records

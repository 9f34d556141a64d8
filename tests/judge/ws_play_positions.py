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

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from play_positions import ctx_to_dict, judgement_to_dict

from kubb3d.audit import RecordingJudge
from kubb3d.match import Match, MatchConfig

RULESET = "wikinger"


def _strip(record: dict[str, Any]) -> dict[str, Any]:
    """A replay record without its trajectories (large, not read here)."""
    out = dict(record)
    if "throws" in out:
        out["throws"] = [{k: v for k, v in t.items() if k != "trajectory"} for t in out["throws"]]
    out.pop("trajectory", None)
    return out


def record_ws_match(seed: int, **config: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Play one seeded WS match: (positions, replay records without trajectories).

    Each judge call is matched, in order, with the replay action whose outcome is of its kind
    (``throw`` or ``inkast``); a count that does not match raises ``AssertionError``."""
    rj = RecordingJudge()
    fd, path = tempfile.mkstemp(suffix=".jsonl")
    os.close(fd)
    try:
        match = Match(MatchConfig(ruleset=RULESET, seed=seed, **config), judge=rj, replay=path)
        try:
            match.run()
        finally:
            match.close()
        records = [_strip(json.loads(line)) for line in Path(path).read_text(encoding="utf-8").splitlines()]
    finally:
        os.unlink(path)
    judged = [
        r for r in records if r.get("type") == "action" and (r.get("outcome") or {}).get("kind") in ("throw", "inkast")
    ]
    assert len(judged) == len(rj.calls), (len(judged), len(rj.calls))
    positions = []
    cfg = {k: list(v) if isinstance(v, tuple) else v for k, v in config.items()}
    for n, ((kind, snap, ctx, j), rec) in enumerate(zip(rj.calls, judged)):
        assert rec["outcome"]["kind"] == kind, (n, kind, rec["outcome"]["kind"])
        positions.append(
            {
                "seed": seed,
                "ruleset": RULESET,
                "config": cfg,
                "call": n,
                "kind": kind,
                "snapshot": snap.to_dict(),
                "ctx": ctx_to_dict(kind, ctx),
                "kubb3d": judgement_to_dict(j),
                "action": {"i": rec["i"], **rec["action"], "throws": rec.get("throws", [])},
            }
        )
    # the records kept beside the positions: everything but the judged actions' bulky parts
    kept = []
    for r in records:
        if r.get("type") == "action" and (r.get("outcome") or {}).get("kind") in ("throw", "inkast"):
            kept.append({"type": "action", "i": r["i"], "action": r["action"], "judged": True})
        else:
            kept.append(r)
    return positions, kept

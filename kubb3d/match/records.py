"""Replay writing: the records of a match file (JSON lines, :data:`SCHEMA`), the order of an
action's events, and the poses a reader has once an action is over (docs/viewer.md "What a
replay records")."""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from typing import TYPE_CHECKING, Any, Iterable, Mapping

import numpy as np

from kubb3d.judge.messages import message_data
from kubb3d.rules import Event
from kubb3d.throw import FlickParams, ThrowParams, ThrowResult

if TYPE_CHECKING:
    from kubb3d.files import ExclusiveFile

SCHEMA = 2
"""Version of the replay format written."""

ACTION_EVENT_KINDS = ("lag", "throw", "inkast", "penalty")
"""Event kinds that report the action itself (the throw, inkast … the notes are about)."""


def causal_order(notes: list[Event], events: list[Event]) -> list[Event]:
    """One action's events in the order they happened: physics glitches (while simulating),
    the action's own event (the throw, inkast …), the judge's rulings and fouls on it, then
    what the rules made of it (raising, turn, set, result)."""
    before = [n for n in notes if n.kind == "glitch"]
    after = [n for n in notes if n.kind != "glitch"]
    k = next((i + 1 for i, e in enumerate(events) if e.kind in ACTION_EVENT_KINDS), 0)
    if k:
        # a ruling is given when the action is done: on the clock of the action's event
        after = [replace(n, clock_s=events[k - 1].clock_s) for n in after]
    return [*before, *events[:k], *after, *events[k:]]


def _r(v: float, nd: int) -> float:
    return float(round(float(v), nd))


def _median(values: list[float]) -> float:
    """The median as ``np.median`` gives it (the middle value, or the mean of the two middle
    ones), without it: its first call imports ``numpy.ma``."""
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def pose_list(pos: Iterable[float], q: Iterable[float]) -> list[float]:
    """A pose as 7 floats: position (m) then quaternion (x, y, z, w)."""
    return [float(x) for x in pos] + [float(x) for x in q]


def pose_rounded(pos: Iterable[float], q: Iterable[float]) -> list[float]:
    """A pose as the replay's trajectories keep it: rounded to 0.1 mm and 1e-4."""
    return [_r(v, 4) for v in pos] + [_r(v, 4) for v in q]


def poses_after(base: Mapping[str, list[float]], now: Mapping[str, list[float]]) -> dict:
    """The ``after`` field of an action record: ``poses`` of the pieces of ``now`` whose pose is
    not the one in ``base`` (what a reader has after the action's trajectories), ``gone`` the
    pieces of ``base`` that are not in ``now``; empty keys left out (sorted: same bytes in every
    process)."""
    out: dict[str, Any] = {}
    moved = {pid: p for pid, p in sorted(now.items()) if base.get(pid) != p}
    gone = sorted(set(base) - set(now))
    if moved:
        out["poses"] = moved
    if gone:
        out["gone"] = gone
    return out


def throw_record(res: ThrowResult, hz: float, intended: ThrowParams | FlickParams | None = None) -> dict:
    """A simulated throw as the replay keeps it: piece, legality, release, the trajectory
    decimated to ``hz`` (Hz; first and last samples kept) and rounded to 0.1 mm / 1e-4, the
    rest time, the parameters and what the thrower intended."""
    t = res.trajectory.times
    step = 1
    if len(t) > 1:
        step = max(1, int(round((1.0 / hz) / max(1e-9, _median(np.diff(t).tolist())))))
    idx = list(range(0, len(t), step))
    if len(t) and idx[-1] != len(t) - 1:
        idx.append(len(t) - 1)
    # rows as lists of floats first (float(np.float64) is exact), then rounded like _r
    traj = {
        pid: [[round(v, 4) for v in row] for row in arr[idx].tolist()]
        for pid, arr in sorted(res.trajectory.poses.items())
    }
    rel = res.release
    d = {
        "piece": res.piece,
        "legal": res.legal,
        "violations": [{"rule": v.rule, "reason": v.reason} for v in res.violations],
        "release": {
            "position_m": list(rel.position),
            "velocity_mps": list(rel.velocity),
            "angular_velocity_radps": list(rel.angular_velocity),
            "quat_xyzw": list(rel.quat_xyzw),
        },
        "trajectory": {"times_s": [round(v, 4) for v in t[idx].tolist()], "poses": traj},
        "rest_time_s": res.rest_time,
    }
    if res.params is not None:
        d["params"] = asdict(res.params)
    if intended is not None:
        d["intended"] = asdict(intended)
    return d


def with_message_ids(rec: dict) -> dict:
    """``rec`` with the id and parameters of each sentence the judge, the throw check and the
    rules wrote in English (a ruling's ``reason``, a foul's ``reason``, the result's ``reason``)
    beside it as ``reason_msg`` (:func:`~kubb3d.judge.messages.message_data`), so that a reader
    translates it without parsing the English (docs/viewer.md "What a replay records")."""
    holders: list[dict] = [rec] if rec.get("type") == "outcome" else []
    for part in (rec.get("judgement"), rec.get("outcome")):
        if isinstance(part, dict):
            holders += [r for r in part.get("rulings") or () if isinstance(r, dict)]
    for throw in rec.get("throws") or ():
        holders += [v for v in throw.get("violations") or () if isinstance(v, dict)]
    for holder in holders:
        data = message_data(holder.get("reason", ""))
        if data is not None:
            holder["reason_msg"] = data
    return rec


class ReplayLog:
    """The records a match writes: to its replay file (if any), and kept until the step that
    wrote them hands them out (:attr:`~kubb3d.match.StepResult.records`)."""

    def __init__(self, fh: ExclusiveFile | None = None) -> None:
        self.fh = fh
        self.unreturned: list[dict] = []

    def write(self, rec: dict) -> None:
        """Keep ``rec`` (its sentences' message ids added, :func:`with_message_ids`) and append it
        to the file as one compact JSON line."""
        rec = with_message_ids(rec)
        self.unreturned.append(rec)
        if self.fh is not None:
            self.fh.write(json.dumps(rec, separators=(",", ":"), ensure_ascii=False) + "\n")

    def take(self) -> tuple[dict, ...]:
        """The records written since the last call."""
        out = tuple(self.unreturned)
        self.unreturned = []
        return out

    def close(self) -> None:
        if self.fh is not None:
            self.fh.close()
            self.fh = None

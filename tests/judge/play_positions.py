"""Positions of simulated play, recorded with kubb3d's rulings, for the independent referee.

A *position* is one call of the referee during a match: the snapshot at rest after a baton
throw or an inkast attempt, the context the match engine gave the referee, and the rulings
kubb3d's judge made. It is a plain JSON-able dict, so that a few can be stored under
tests/data/ and judged again later (:func:`rejudge`):

``{"seed", "ruleset", "call", "kind": "throw"|"inkast", "snapshot": Snapshot.to_dict(),
"ctx": {...}, "kubb3d": {...}}``

Only public objects are used: :class:`kubb3d.audit.RecordingJudge` (the real judge with its
calls kept), :class:`kubb3d.snapshot.Snapshot` and the judge's public entry points
``judge_throw`` / ``judge_inkast`` with their contexts. The judge's code is not read here.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from kubb3d.audit import RecordingJudge
from kubb3d.match import Match, MatchConfig
from kubb3d.snapshot import Snapshot

_POSE_MAPS = {
    "throw": ("round_start", "own_standing"),
    "inkast": ("before", "awaiting"),
}
_SETS = ("field_kubbs", "already_felled", "pending_raise", "accidents")


def _pose(p) -> dict[str, list[float]]:
    return {"position": list(p.position), "quat_xyzw": list(p.quat_xyzw)}


def _violation(v) -> list[str]:
    if isinstance(v, tuple):
        return [str(v[0]), str(v[1])]
    return [str(getattr(v, "rule", v)), str(getattr(v, "reason", ""))]


def ctx_to_dict(kind: str, ctx) -> dict[str, Any]:
    """The context as JSON: poses as dicts, sets as sorted lists."""
    out: dict[str, Any] = {}
    for name in ctx.__dataclass_fields__:
        value = getattr(ctx, name)
        if name in _POSE_MAPS[kind]:
            out[name] = {k: _pose(p) for k, p in value.items()}
        elif name in _SETS:
            out[name] = sorted(value)
        elif name == "violations":
            out[name] = [_violation(v) for v in value]
        elif isinstance(value, tuple):
            out[name] = list(value)
        elif name == "options":
            out[name] = dict(value)
        else:
            out[name] = value
    return out


def judgement_to_dict(j) -> dict[str, Any]:
    """kubb3d's rulings per piece (status, consequence, valid, raised spot) and the verdict."""
    rulings = {}
    for r in j.rulings:
        rulings[r.piece] = {
            "status": str(getattr(r.status, "value", r.status)),
            "consequence": str(getattr(r.consequence, "value", r.consequence)),
            "valid": r.valid,
            "raised": None if r.raised_pose is None else _pose(r.raised_pose),
            "rules": list(r.rules),
            "reason": r.reason,
        }
    sets = {}
    for name in ("felled", "felled_total", "raise_again", "raise_now"):
        if hasattr(j, name):
            sets[name] = sorted(getattr(j, name))
    return {
        "rulings": rulings,
        "winner": getattr(j, "winner", None),
        "loser": getattr(j, "loser", None),
        **sets,
    }


def record_match(seed: int, ruleset: str = "dm", **config: Any) -> list[dict[str, Any]]:
    """Play one seeded match and return every referee call of it as a position."""
    rj = RecordingJudge()
    match = Match(MatchConfig(ruleset=ruleset, seed=seed, **config), judge=rj)
    try:
        match.run()
    finally:
        match.close()
    positions = []
    for n, (kind, snap, ctx, j) in enumerate(rj.calls):
        positions.append(
            {
                "seed": seed,
                "ruleset": ruleset,
                "config": {k: list(v) if isinstance(v, tuple) else v for k, v in config.items()},
                "call": n,
                "kind": kind,
                "snapshot": snap.to_dict(),
                "ctx": ctx_to_dict(kind, ctx),
                "kubb3d": judgement_to_dict(j),
            }
        )
    return positions


def _strip(record: dict[str, Any]) -> dict[str, Any]:
    """A replay record without its trajectories (large, not read here)."""
    out = dict(record)
    if "throws" in out:
        out["throws"] = [{k: v for k, v in t.items() if k != "trajectory"} for t in out["throws"]]
    out.pop("trajectory", None)
    return out


def record_with_actions(
    ruleset: str, seed: int, people: tuple[Any, Any] | None = None, **config: Any
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Play one seeded match: (positions, replay records without trajectories).

    ``people``: (the ``human`` mapping of :class:`Match`, a function called with the match
    once it is made) to play throws through the match's input for a person's throws
    (tests/judge/invalid_play.py); None: every player simulated.

    Each position also keeps ``action``: the replay's record of the action the referee ruled on,
    without trajectories (tests/judge/ws_play_positions.py, tests/kubbuteo/kt_play_positions.py).
    Each judge call is matched, in order, with the replay action whose outcome is of its kind
    (``throw`` or ``inkast``); a count that does not match raises ``AssertionError``."""
    rj = RecordingJudge()
    fd, path = tempfile.mkstemp(suffix=".jsonl")
    os.close(fd)
    try:
        human, attach = people if people is not None else (None, None)
        match = Match(MatchConfig(ruleset=ruleset, seed=seed, **config), judge=rj, replay=path, human=human)
        if attach is not None:
            attach(match)
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
                "ruleset": ruleset,
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


def context_from_dict(kind: str, ctx: dict[str, Any]):
    """The judge's context of a stored position (inverse of :func:`ctx_to_dict`)."""
    import kubb3d.judge as judge
    from kubb3d.judge.rulings import Pose

    fields: dict[str, Any] = {}
    for name, value in ctx.items():
        if name in _POSE_MAPS[kind]:
            fields[name] = {k: Pose(tuple(p["position"]), tuple(p["quat_xyzw"])) for k, p in value.items()}
        elif name in _SETS:
            fields[name] = frozenset(value)
        elif name == "violations":
            fields[name] = tuple(tuple(v) for v in value)
        elif isinstance(value, list):
            fields[name] = tuple(value)
        else:
            fields[name] = value
    return judge.ThrowContext(**fields) if kind == "throw" else judge.InkastContext(**fields)


def judge_call(kind: str, snap: Snapshot, ctx):
    """kubb3d's judgement of one referee call (``judge_throw`` or ``judge_inkast``)."""
    import kubb3d.judge as judge

    return judge.judge_throw(snap, ctx) if kind == "throw" else judge.judge_inkast(snap, ctx)


def rejudge(position: dict[str, Any]) -> dict[str, Any]:
    """kubb3d's judge on a stored position, now (rulings as in :func:`judgement_to_dict`)."""
    kind = position["kind"]
    snap = Snapshot.from_dict(position["snapshot"])
    return judgement_to_dict(judge_call(kind, snap, context_from_dict(kind, position["ctx"])))


def stance_violations(position: dict[str, Any], rulebook: str) -> list:
    """kubb3d's throw checks now (:func:`kubb3d.throw.check_legality`, rule book ``rulebook``:
    ``"dm"``, ``"wikinger"``) on a stored throw's recorded release and parameters and the line
    the match allowed (its action's ``line_x``). The flight is taken as still: its tilt and
    spin checks need the flight, and a test keeps the match's; what is left is the stance
    (the foot and the line)."""
    from kubb3d.judge.rulebook import get_rulebook
    from kubb3d.pitch import Pitch
    from kubb3d.throw import FlightMetrics, Release, ThrowParams, check_legality

    throw = position["action"]["throws"][0]
    r = throw["release"]
    release = Release(
        tuple(r["position_m"]), tuple(r["velocity_mps"]), tuple(r["angular_velocity_radps"]), tuple(r["quat_xyzw"])
    )
    pitch = Pitch(position["snapshot"]["pitch"]["length"], position["snapshot"]["pitch"]["width"])
    rules = get_rulebook(rulebook).throw_rules
    assert rules is not None
    still = FlightMetrics(max_tilt=0.0, helicopter=0.0, flight_time=None)
    params = ThrowParams(**throw["params"])
    return check_legality(
        still, release, rules, pitch, position["ctx"]["thrower"], position["action"]["line_x"], params
    )


def image(value: Any, relation) -> Any:
    """An expected answer under a relation of the WS play tests (``RELATIONS`` of
    test_ws_play_referee.py; None: as played): sides swapped, kubb names renamed (lists
    sorted), tuples element by element; anything else as it is."""
    if relation is None:
        return value
    if isinstance(value, list):
        return sorted(relation.name(x) for x in value)
    if isinstance(value, tuple):
        return tuple(image(x, relation) for x in value)
    if value in ("A", "B"):
        return relation.side(value)
    return value

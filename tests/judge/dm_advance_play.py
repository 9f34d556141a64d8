"""Turns of simulated DM play, with the line kubb3d's match engine threw from, for DM §8.

A *turn* is one side's baton throws of one turn of a set: the poses of the pieces standing when
its baton throws begin (the ``round_start`` the match engine hands the referee, after the
inkast and the raising), which of them were ever inkasted this set (field kubbs) and which half
the engine keeps each kubb in, and the ``line_x`` of every baton and king throw of the turn (the
replay's actions). It is a small JSON-able dict, so that turns can be stored under tests/data/
and compared again without physics:

``{"seed", "config", "set", "turn", "side", "throws": [[type, line_x], …], "pieces": {id:
{"p": [x, y, z], "q": [x, y, z, w], "h": [hx, hy, hz], "field": bool, "half": "A"|"B"}},
"unlisted": [ids]}``

``unlisted``: pieces that stand alone in the thrower's own half in the snapshot after the turn's
first throw but are not among the standing pieces the engine handed the referee (a check on the
input; none is expected).

:func:`compare_turn` puts :func:`independent_dm_advance.dm_advance_line` beside the engine's lines;
:func:`engine_line` asks kubb3d's ``Ruleset.throwing_line`` about a turn's layout (for the
relations: mirrored, ends swapped, kubbs renamed), and :func:`relation_checks` applies them.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Callable

import numpy as np
from independent_dm_advance import AdvanceLine, depth_of, dm_advance_line
from independent_referee import Box, half_bounds
from play_positions import record_with_actions

PITCH = {"length": 8.0, "width": 5.0}  # DM §2
LINE_TOL = 1e-3  # m: a line this close to the allowed range agrees (the stored poses are rounded)


def _round(v, n: int) -> list[float]:
    return [round(float(x), n) for x in v]


def _set_turn(record: dict[str, Any]) -> tuple[int, int]:
    ev = record.get("events") or []
    return int(ev[0]["set_no"]), int(ev[0]["turn_no"])


def record_turns(seed: int, **config: Any) -> list[dict[str, Any]]:
    """Play one seeded DM match (``config``: :class:`kubb3d.match.MatchConfig` fields) and return
    its turns of baton throws (module doc)."""
    positions, records = record_with_actions("dm", seed, **config)
    by_i = {int(r["i"]): r for r in records if r.get("type") == "action"}
    sides: dict[tuple[int, int], dict[str, str]] = {}
    for r in records:
        if r.get("type") == "world":
            sides[(int(r["set"]), int(r["turn"]))] = dict(r["sides"])
    kubb_ids = {k for v in sides.values() for k in v}
    turns: dict[tuple[int, int], dict[str, Any]] = {}
    cfg = {k: list(v) if isinstance(v, tuple) else v for k, v in config.items()}
    for pos in positions:
        if pos["kind"] != "throw":
            continue
        rec = by_i[int(pos["action"]["i"])]
        set_no, turn_no = _set_turn(rec)
        key = (set_no, turn_no)
        side = rec["action"]["side"]
        if key not in turns:
            he = {p["id"]: p["half_extents"] for p in pos["snapshot"]["pieces"]}
            # inkasts of this set up to this turn: a kubb inkasted in a later turn was a
            # baseline kubb still (its record comes later in the replay)
            done = set()
            for r in records:
                if r.get("type") == "action" and int(r["i"]) >= int(rec["i"]):
                    break
                if r.get("type") == "action" and r["action"]["type"] == "Inkast" and _set_turn(r)[0] == set_no:
                    done.update(r["action"]["kubbs"])
            half = dict(sides.get(key, {}))
            for r in records:  # this turn's inkast puts its kubbs into the opponent's half
                if r.get("type") == "action" and r["action"]["type"] == "Inkast" and _set_turn(r) == key:
                    for k in r["action"]["kubbs"]:
                        half[k] = "B" if side == "A" else "A"
            pieces = {}
            for pid, pose in pos["ctx"]["round_start"].items():
                pieces[pid] = {
                    "p": _round(pose["position"], 6),
                    "q": _round(pose["quat_xyzw"], 6),
                    "h": list(he[pid]),
                    "field": pid in done,
                    "half": half.get(pid),
                }
            listed = set(pieces)
            unlisted = []
            x0, x1, _ = half_bounds(side, PITCH)
            for p in pos["snapshot"]["pieces"]:
                if p["id"] in listed or p["id"] not in kubb_ids:
                    continue
                box = Box(p)
                if not box.down() and x0 <= box.c[0] <= x1:
                    unlisted.append(p["id"])
            turns[key] = {
                "seed": seed,
                "config": cfg,
                "set": set_no,
                "turn": turn_no,
                "side": side,
                "throws": [],
                "pieces": pieces,
                "unlisted": sorted(unlisted),
            }
        turns[key]["throws"].append([rec["action"]["type"], float(rec["action"]["line_x"])])
    return [turns[k] for k in sorted(turns)]


def compact(turn: dict[str, Any], margin: float = 0.2) -> dict[str, Any]:
    """The turn as stored under tests/data/: only the kubbs whose centre lies in the thrower's
    own half or less than ``margin`` m past the centre line (no other piece enters DM §8's
    answer or kubb3d's line), poses rounded to 0.01 mm."""
    sign = -1.0 if turn["side"] == "A" else 1.0
    pieces = {
        k: {**v, "p": _round(v["p"], 5), "q": _round(v["q"], 5)}
        for k, v in turn["pieces"].items()
        if k != "king" and sign * v["p"][0] > -margin
    }
    return {**turn, "pieces": pieces}


def _base(piece: dict[str, Any]) -> np.ndarray | None:
    """The base square a piece stands on alone (corners x, y), None if it does not stand."""
    box = Box({"id": "-", "half_extents": piece["h"], "position": piece["p"], "quat_xyzw": piece["q"]})
    if not box.stands_alone():
        return None
    return box.base_square()


def dm_line(turn: dict[str, Any], king_throw: bool = False) -> AdvanceLine:
    """DM §8 (and §10 for a king throw) for a turn's layout."""
    field: dict[str, np.ndarray] = {}
    baseline: dict[str, np.ndarray] = {}
    side = turn["side"]
    for pid, piece in turn["pieces"].items():
        if pid == "king":
            continue  # DM §1, §2: the king is no kubb
        base = _base(piece)
        if base is None:
            continue
        if piece["field"]:
            field[pid] = base
        elif float(depth_of(base[:, 0].mean(), side, PITCH)) < PITCH["length"] / 2:
            baseline[pid] = base
    return dm_advance_line(field, side, PITCH, baseline=baseline, king_throw=king_throw)


def compare_turn(turn: dict[str, Any]) -> dict[str, Any]:
    """The turn's throws judged against DM §8 / §10: ``{"kind": "baseline"|"advance"|"silent",
    "line": AdvanceLine, "throws": [(type, line_x, depth, agrees or None)], "differ": n}``;
    ``kind`` is that of the baton throws (a king throw is always judged against the baseline)."""
    side = turn["side"]
    line = dm_line(turn)
    king = dm_line(turn, king_throw=True)
    out = []
    differ = 0
    for kind, x in turn["throws"]:
        ref = king if kind == "KingThrow" else line
        depth = float(depth_of(x, side, PITCH))
        agrees = None if ref.depth is None else ref.allows(depth, LINE_TOL)
        differ += agrees is False
        out.append((kind, x, depth, agrees))
    if line.depth is None:
        what = "silent"
    elif line.depth == (0.0, 0.0):
        what = "baseline"
    else:
        what = "advance"
    return {"kind": what, "line": line, "throws": out, "differ": differ}


def where_on_kubb(turn: dict[str, Any], result: dict[str, Any]) -> float | None:
    """Where the engine's baton line lies on the kubb DM's line passes through: 0 its back edge
    (towards the baseline), 0.5 the middle, 1 its front edge (a record, not compared)."""
    line = result["line"]
    if line.depth is None or line.kubb is None:
        return None
    lo, hi = line.depth
    depths = [d for kind, _, d, _ in result["throws"] if kind == "BatonThrow"]
    if not depths or hi - lo < 1e-9:
        return None
    return (depths[0] - lo) / (hi - lo)


# ------------------------------------------------------------------ kubb3d's line on a layout
def engine_line(turn: dict[str, Any], options: dict[str, Any] | None = None) -> float:
    """x of the throwing line kubb3d's DM ruleset gives the turn's side for the turn's layout:
    ``Ruleset.throwing_line`` on a match state holding exactly the turn's standing kubbs (with
    the engine's half and baseline flags); ``options``: ruleset fields (``advance_line``), else
    the referee options the turn was played with."""
    from kubb3d.judge.rulings import Pose
    from kubb3d.rules import MatchState, get_ruleset
    from kubb3d.rules.records import KubbInfo

    if options is None:  # the referee options the turn was played with (MatchConfig.options)
        options = {k: v for k, v in (turn.get("config") or {}).get("options", ())}
    rs = get_ruleset("dm", **options)
    state = MatchState(rs)
    state.kubbs = {
        pid: KubbInfo(pid, piece["half"], not piece["field"], True, Pose(tuple(piece["p"]), tuple(piece["q"])))
        for pid, piece in turn["pieces"].items()
        if pid != "king"
    }
    return float(rs.throwing_line(state, turn["side"]))


def _mirror_q(q, flip: int) -> list[float]:
    """The quaternion of a pose reflected in the plane normal to axis ``flip`` (0: x, 1: y)."""
    x, y, z, w = q
    return [x, -y, -z, w] if flip == 0 else [-x, y, -z, w]


def mirrored(turn: dict[str, Any]) -> dict[str, Any]:
    """The layout reflected across the pitch's long axis (y → −y)."""
    pieces = {
        k: {**v, "p": [v["p"][0], -v["p"][1], v["p"][2]], "q": _mirror_q(v["q"], 1)} for k, v in turn["pieces"].items()
    }
    return {**turn, "pieces": pieces}


def ends_swapped(turn: dict[str, Any]) -> dict[str, Any]:
    """The layout with the ends swapped (x → −x, end A ↔ B, kubb names A* ↔ B*)."""
    swap = {"A": "B", "B": "A"}

    def name(k: str) -> str:
        return swap[k[0]] + k[1:] if k[:1] in swap else k

    pieces = {
        name(k): {
            **v,
            "p": [-v["p"][0], v["p"][1], v["p"][2]],
            "q": _mirror_q(v["q"], 0),
            "half": swap.get(v["half"], v["half"]),
        }
        for k, v in turn["pieces"].items()
    }
    return {**turn, "side": swap[turn["side"]], "pieces": pieces, "throws": [[kind, -x] for kind, x in turn["throws"]]}


def renamed(turn: dict[str, Any]) -> dict[str, Any]:
    """The kubbs renamed (reverse order of their ids, a name the engine never gives: ``K…``), so
    that the lowest id is a different kubb."""
    ids = sorted(k for k in turn["pieces"] if k != "king")
    new = {old: f"K{len(ids) - n:02d}" for n, old in enumerate(ids)}
    pieces = {new.get(k, k): v for k, v in turn["pieces"].items()}
    return {**turn, "pieces": pieces}


RELATIONS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "mirror": mirrored,
    "ends swapped": ends_swapped,
    "renamed": renamed,
}


def _same_line(a: AdvanceLine, b: AdvanceLine) -> bool:
    if (a.depth is None) != (b.depth is None):
        return False
    if a.depth is None or b.depth is None:
        return True
    return all(math.isclose(x, y, abs_tol=1e-9) for x, y in zip(a.depth, b.depth))


def relation_checks(turn: dict[str, Any], counts: Counter[str] | None = None) -> list[str]:
    """Under each relation of :data:`RELATIONS` the line must follow: kubb3d's line for the
    changed layout is the recorded one changed the same way, and DM §8's answer is the same
    distance from the baseline. Returns what failed (``counts`` counts the checks)."""
    failed = []
    x = engine_line(turn)
    if counts is not None:
        counts["engine on the stored layout"] += 1
    baton = [lx for kind, lx in turn["throws"] if kind == "BatonThrow"]
    if baton and abs(x - baton[0]) > 2e-5:
        failed.append(f"engine line on the stored layout {x:.5f} != the match's {baton[0]:.5f}")
    dm = dm_line(turn)
    for name, rel in RELATIONS.items():
        t = rel(turn)
        xr = engine_line(t)
        expected = -x if name == "ends swapped" else x
        if counts is not None:
            counts[f"relation: {name}"] += 1
        if abs(xr - expected) > 1e-9:
            failed.append(f"{name}: engine line {xr:.6f}, expected {expected:.6f}")
        if not _same_line(dm_line(t), dm):
            failed.append(f"{name}: DM §8 answer {dm_line(t)} != {dm}")
    return failed

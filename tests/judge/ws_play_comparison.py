"""Compare kubb3d's rulings in a WS match with the independent WS referee's, call by call.

:func:`compare_match` walks a match recorded by :mod:`ws_play_positions` and returns one
:class:`Check` per thing both referees decide (docs/examinations/2026-12-07-ws-play.md lists
them with the WS rule book's words):

* throws: ``throw:status`` (a kubb stands alone), ``throw:ruling`` (a target kubb stands,
  counts, or does not count and is set up again: basic rules 7, 8, 9),
  ``throw:own-half-not-counted``, ``throw:field-kubbs`` (field kubbs of the target half
  standing at the throw's start), ``throw:king``, ``throw:verdict`` (End of the Game),
  ``throw:line-allowed`` (basic rules 6, 7), ``throw:king-from-baseline``, ``throw:foot``
  (basic rule 7), ``throw:helicopter`` (basic rule 5), ``throw:valid`` (both, judged from the
  throw's record: docs/examinations/2026-12-07-ws-invalid.md);
* inkasts: ``inkast:valid`` (basic rules 11, 13), ``inkast:invalid-consequence`` (basic rule
  11), ``inkast:raised-inside`` (basic rule 13), ``inkast:raised-tipped`` (basic rule 10),
  ``inkast:felled-other`` / ``inkast:moved-other`` / ``inkast:untouched`` (basic rule 14, by
  kubb3d's ruling), ``inkast:knocked-or-moved-set-back(next call)`` (basic rule 14, by its
  effect: the kubb stands where it stood when the referee is next called),
  ``inkast:king``, ``inkast:from-line`` (basic rule 10);
* ``raise:upright`` (every pose kubb3d sets a kubb up in stands on an end face);
* the match: ``turn:batons`` (basic rule 2), ``order:repeat-after-all`` (basic rule 11),
  ``order:raise-after-all`` (basic rule 12), ``place:own-half`` / ``place:from-king`` (basic
  rule 11), ``lag:starter`` (Sequence of Play), ``game:winner`` / ``game:points`` (End of the
  Game).

Kinds ending in ``(info)`` are counted, not compared: WS leaves them open.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from independent_ws_referee import (
    LINE_TOL,
    throw_validity,
    baseline_count,
    field_kubbs_before,
    front_line,
    inkast_toes,
    lag_starter,
    other,
    poses_of,
    raised_inside,
    raised_on_square,
    referee_inkast,
    referee_throw,
    world_before,
)
from play_check import Check
from play_comparison import _raised_upright, other_boxes


def _kubb3d_ruling(r: dict[str, Any] | None) -> tuple[bool, str]:
    """(standing, ruling) of kubb3d's ruling on a kubb in the referee's words."""
    if r is None:
        return True, "stands"  # kubb3d does not rule on a kubb the throw left alone
    c = r["consequence"]
    ruling = {"counts as felled": "counts", "none": "stands", "set inside": "stands"}.get(c)
    if ruling is None:
        ruling = "set_up" if c.startswith("raise") else c
    return r["status"] == "standing", ruling


def compare_throw(
    pos: dict[str, Any],
    field: set[str],
    theirs: dict[str, Any] | None = None,
    legal: bool | None = None,
    history: tuple[set[str], set[str]] | None = None,
) -> list[Check]:
    theirs = pos["kubb3d"] if theirs is None else theirs
    call = pos["call"]
    mine = referee_throw(pos, field, legal, history)
    invalid = (not pos["ctx"]["legal"]) if legal is None else not legal
    ctx = pos["ctx"]
    out: list[Check] = []
    later = set(theirs.get("raise_again", ())) - set(theirs.get("raise_now", ()))
    for k, m in mine["pieces"].items():
        standing, ruling = _kubb3d_ruling(theirs["rulings"].get(k))
        note = f"half {m['half']}, {'field' if m['field'] else 'baseline'}, max tilt {m['max_tilt_deg']:.1f} deg"
        out.append(Check("throw:status", k, m["standing"], standing, note, call))
        if m["ruling"] == "not_counted":
            out.append(Check("throw:own-half-not-counted", k, False, ruling == "counts", note, call))
            if ruling == "set_up":
                out.append(Check("throw:own-half-set-up(info)", k, "-", "-", note, call))
        else:
            out.append(Check("throw:ruling", k, m["ruling"], ruling, note, call))
            if m["ruling"] == "set_up" == ruling:
                when = "end of turn" if k in later else "at once"
                out.append(Check(f"throw:set-up-when(info, kubb3d {when})", k, "-", "-", note, call))
    target = other(ctx["thrower"])
    start = ctx["round_start"]
    in_target = {k for k in start if k != "king" and (start[k]["position"][0] < 0) == (target == "A")}
    # kubb3d's field kubbs standing: its list less those it holds knocked over this turn
    theirs_field = sorted(
        (set(ctx["field_kubbs"]) & in_target) - set(ctx["already_felled"]) - set(ctx["pending_raise"])
    )
    out.append(Check("throw:field-kubbs", "-", mine["field_standing_at_start"], theirs_field, "", call))
    kr = theirs["rulings"].get("king", {"status": "standing"})
    out.append(Check("throw:king", "king", not mine["king"]["down"], kr["status"] == "standing", "", call))
    # an invalid throw that knocks the king over: basic rule 7 sets up "Pawns"; End of the Game
    # "A team loses if it knocks over the king before ..." says nothing of validity (READING)
    verdict_kind = "throw:verdict"
    if invalid and mine["king"]["down"] and not mine["king"]["all_down"]:
        verdict_kind = "throw:verdict(invalid throw, reading)"
    out.append(
        Check(
            verdict_kind,
            "king",
            (mine["winner_side"], mine["loser_side"]),
            (theirs.get("winner"), theirs.get("loser")),
            f"all down {mine['king']['all_down']}, from baseline {mine['king']['from_baseline']}",
            call,
        )
    )
    out.extend(_with_call(_raised_upright(pos, theirs), call))
    return out


def _with_call(checks, call: int) -> list[Check]:
    return [Check(c.kind, c.piece, c.mine, c.theirs, c.note, call) for c in checks]


def compare_inkast(pos: dict[str, Any], theirs: dict[str, Any] | None = None) -> list[Check]:
    theirs = pos["kubb3d"] if theirs is None else theirs
    call = pos["call"]
    mine = referee_inkast(pos)
    ctx = pos["ctx"]
    pitch = pos["snapshot"]["pitch"]
    sizes = {p["id"]: p["half_extents"] for p in pos["snapshot"]["pieces"]}
    receiving = other(ctx["inkasting_side"])
    rulings = theirs["rulings"]
    out: list[Check] = []
    for k, m in mine["inkasted"].items():
        r = rulings.get(k, {})
        note = f"depth {m['depth'] * 1000:.2f} mm, {m['how']}"
        kind = "inkast:valid(borderline)" if m["borderline"] else "inkast:valid"
        if m["valid"] and m["how"] == "upright" and _blocked_on_the_line(pos, k, receiving):
            # basic rule 13 tips a kubb on the line into the field; WS says nothing of one whose
            # way in is taken by another piece (counted)
            kind = f"inkast:valid(info, standing on the line, its way in blocked; kubb3d {r.get('valid')})"
            out.append(Check(kind, k, "-", "-", note, call))
            continue
        out.append(Check(kind, k, m["valid"], r.get("valid"), note, call))
        if not m["on_ground"] or r.get("status") == "stößel":
            out.append(Check("inkast:on-others(info)", k, not m["on_ground"], r.get("status") == "stößel", note, call))
        if not m["valid"]:
            if ctx.get("thrower") not in (None, ctx["inkasting_side"]):
                expect = "penalty kubb"
            else:
                expect = "rethrow" if ctx["attempt"] == 1 else "penalty kubb"
            out.append(Check("inkast:invalid-consequence", k, expect, r.get("consequence"), note, call))
        raised = r.get("raised")
        if m["valid"] and raised is not None and mine["loser_side"]:
            # End of the Game "The game ends immediately": no raising after the king fell
            out.append(Check("inkast:raised(info, the king fell: the game is over)", k, "-", "-", note, call))
        elif m["valid"] and raised is not None:
            ok, margin = raised_inside(raised, sizes[k], receiving, pitch)
            out.append(Check("inkast:raised-inside", k, True, ok, f"margin {margin * 1000:.1f} mm; {note}", call))
            if m["how"] == "lying" and any(m["inside"]):
                free = [sq for sq, i in zip(m["squares"], m["inside"]) if i]
                on, d = raised_on_square(raised, sizes[k], free)
                kind = "inkast:raised-tipped"
                if not m["flat"]:
                    kind = f"inkast:raised-leaning(info, {'on' if on else 'off'} a square)"
                elif _crowded(pos, k, free, mine, rulings):
                    kind = f"inkast:raised-in-a-group(info, {'on' if on else 'off'} a square)"
                mine_on = on if "(info" in kind else True
                out.append(Check(kind, k, mine_on, on, f"{d * 1000:.1f} mm off; {note}", call))
            elif m["how"] == "lying":
                out.append(Check("inkast:raised-on-the-line(info)", k, "-", "-", note, call))
    for k, m in mine["others"].items():
        if not m["stood"]:
            continue
        t = rulings.get(k, {}).get("consequence") == "raise at original spot"
        note = f"shift {m['shift'] * 1000:.1f} mm, turn {np.degrees(m['turn']):.1f} deg"
        if m["felled"]:
            out.append(Check("inkast:felled-other", k, True, t, note, call))
        elif m["moved"]:
            out.append(Check("inkast:moved-other", k, True, t, note, call))
        else:
            out.append(Check("inkast:untouched", k, False, t, note, call))
    out.append(Check("inkast:king", "king", mine["loser_side"], theirs.get("loser"), "", call))
    # basic rule 10: thrown from the baseline or the front line. The toe past that line breaks
    # it; what follows WS does not say (basic rule 7's "the throw is invalid and may not be
    # repeated. Pawns that have fallen over are set up again" is written for the throws at
    # kubbs; basic rule 11 repeats only a kubb not at rest in the field): counted
    side = ctx["inkasting_side"]
    line = front_line(side, ctx["before"], sizes, pitch)
    toes = inkast_toes(pos)
    for t in pos.get("action", {}).get("throws", []):
        x = t["release"]["position_m"][0]
        behind = x <= line + LINE_TOL if side == "A" else x >= line - LINE_TOL
        from_side, toe = toes[t["piece"]]
        fwd = 1.0 if from_side == "A" else -1.0
        own = front_line(from_side, ctx["before"], sizes, pitch) if from_side == side else None
        past = fwd * (toe - own) if own is not None else 0.0
        if past > LINE_TOL:
            r = rulings.get(t["piece"], {})
            where = "in the field" if r.get("valid") else "not in the field"
            said = "legal" if t.get("legal") else "not legal"
            kind = f"inkast:from-line(info, the toe past the line; kubb3d: {where}, recorded {said})"
            note = f"toe x {toe:.3f}, line {own:.3f}, {past * 100:.1f} cm past"
            out.append(Check(kind, t["piece"], "-", "-", note, call))
            continue
        if own is not None and not behind:  # the foot is judged, not the hand (as for a baton)
            note = f"release x {x:.3f}, toe x {toe:.3f}, line {own:.3f}"
            kind = "inkast:from-line(info, the hand past the line, the toe behind)"
            out.append(Check(kind, t["piece"], "-", "-", note, call))
            continue
        kind, note = "inkast:from-line", f"release x {x:.3f}, line {line:.3f}"
        baseline = -fwd * pitch["length"] / 2
        if own is not None and own != baseline and fwd * (toe - baseline) > LINE_TOL:
            kind = "inkast:from-line(the toe past the baseline, behind the front line)"
            note = f"release x {x:.3f}, toe x {toe:.3f}, line {line:.3f}"
        out.append(Check(kind, t["piece"], True, behind, note, call))
    out.extend(_with_call(_raised_upright(pos, theirs), call))
    return out


def _blocked_on_the_line(pos: dict[str, Any], k: str, receiving: str) -> bool:
    """A kubb standing on a line of the receiving half (its base partly outside) whose base,
    moved straight across the line just far enough to lie inside, would overlap another piece
    (the king, a kubb) as it lies now."""
    from independent_referee import Box
    from independent_ws_referee import half_rect

    pieces = {p["id"]: p for p in pos["snapshot"]["pieces"] if p["kind"] in ("kubb", "king")}
    sq = Box(pieces[k]).base_square()[:, :2]
    x0, x1, yw = half_rect(receiving, pos["snapshot"]["pitch"])
    dx = max(0.0, x0 - float(sq[:, 0].min())) - max(0.0, float(sq[:, 0].max()) - x1)
    dy = max(0.0, -yw - float(sq[:, 1].min())) - max(0.0, float(sq[:, 1].max()) - yw)
    if dx == 0.0 and dy == 0.0:
        return False
    moved = sq + np.array([dx, dy])
    for pid, p in pieces.items():
        if pid != k and _polys_overlap(moved, _hull(Box(p).corners()[:, :2])):
            return True
    return False


GROUP_GAP = 0.01  # m: READING, kubbs whose tipping squares come this close are raised in a group


def _crowded(pos, k, squares, mine, rulings) -> bool:
    """A square kubb ``k`` could be tipped onto comes within GROUP_GAP of another kubb's tipping
    squares (kubbs raised in a group, on which WS is silent), of another piece standing or set
    up, or of the king."""
    from independent_referee import _overlap

    # a square grown by GROUP_GAP on every side: pieces that close are raised in a group
    sq = []
    for s in squares:
        a = np.array(s)
        c = a.mean(axis=0)
        half = float(np.linalg.norm(a[0] - a[1])) / 2
        sq.append(c + (a - c) * (1 + GROUP_GAP / half))
    for other_k, m in mine["inkasted"].items():
        if other_k != k and any(_overlap(a, np.array(b)) for a in sq for b in m["squares"]):
            return True
    for box in other_boxes(pos, k, rulings):
        if any(_polys_overlap(a, _hull(box.corners()[:, :2])) for a in sq):
            return True
    return False


def _hull(points: np.ndarray) -> np.ndarray:
    """Convex hull of points in the plane, counter-clockwise (monotone chain)."""
    pts = sorted(map(tuple, np.round(points, 12)))

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list = []
    upper: list = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return np.array(lower[:-1] + upper[:-1])


def _polys_overlap(p: np.ndarray, q: np.ndarray) -> bool:
    """Convex polygons overlap (separating axis test; touching edges do not overlap)."""
    for poly in (p, q):
        for i in range(len(poly)):
            e = poly[(i + 1) % len(poly)] - poly[i]
            n = np.array([-e[1], e[0]])
            a, b = p @ n, q @ n
            if a.max() <= b.min() + 1e-9 or b.max() <= a.min() + 1e-9:
                return False
    return True


def compare_match(positions: list[dict[str, Any]], records: list[dict[str, Any]]) -> list[Check]:
    """Every check of one match, in order."""
    out: list[Check] = []
    field_at = field_kubbs_before(records)
    sizes = {p["id"]: p["half_extents"] for p in positions[0]["snapshot"]["pieces"]} if positions else {}
    verdict = None
    last_throw = None
    turn = None
    already: set[str] = set()
    pending: set[str] = set()
    for pos in positions:
        action = pos.get("action", {})
        i = action.get("i", -1)
        w0 = world_before(records, i)
        if w0 is not None and w0["i"] != turn:
            # a new turn: nothing knocked over in it yet (the referee's own record of the turn)
            turn, already, pending = w0["i"], set(), set()
        if pos["kind"] == "throw":
            field = field_at.get(i, set())
            side = pos["ctx"]["thrower"]
            hl = pos["snapshot"]["pitch"]["length"] / 2
            x = action.get("line_x")
            line = line_at(pos, records, sizes)
            validity = throw_validity(pos, line)
            out.extend(validity_checks(pos, validity))
            legal = validity["valid"] if validity["valid"] is not None else bool(pos["ctx"]["legal"])
            history = (set(already), set(pending)) if turn is not None else None
            checks = compare_throw(pos, field, legal=legal, history=history)
            out.extend(checks)
            mine = referee_throw(pos, field, legal, history)
            for k, r in mine["pieces"].items():
                if r["ruling"] == "counts":
                    already.add(k)
                elif r["ruling"] == "set_up" and r["why"] == "early":
                    pending.add(k)
            last_throw = (pos, mine)
            if verdict is None and mine["winner_side"]:
                verdict = (mine["winner_side"], pos["call"])
            if action.get("type") == "KingThrow":
                ok = x is not None and abs(abs(x) - hl) <= LINE_TOL
                out.append(Check("throw:king-from-baseline", "-", True, ok, f"line x {x}", pos["call"]))
            elif x is not None:
                allowed = x <= line + LINE_TOL if side == "A" else x >= line - LINE_TOL
                note = f"line x {x:.4f}, front line {line:.4f}"
                out.append(Check("throw:line-allowed", "-", True, allowed, note, pos["call"]))
                at = abs(x - line) <= LINE_TOL
                out.append(
                    Check(
                        f"throw:line-used(info, {'at' if at else 'not at'} the front line)",
                        "-",
                        "-",
                        "-",
                        note,
                        pos["call"],
                    )
                )
        else:
            out.extend(compare_inkast(pos))
            out.extend(_set_back(pos, positions))
    out.extend(_procedure(records))
    out.extend(_placed(positions, records))
    out.extend(_result(positions, records, verdict, last_throw))
    return out


def line_at(pos: dict[str, Any], records: list[dict[str, Any]], sizes: dict[str, Any]) -> float:
    """The line the thrower of a baton throw may throw from (basic rules 6, 7): the front line
    of :func:`front_line` on the turn's start, once the kubbs thrown back in this turn are
    picked up (basic rule 10); the baseline for a throw at the king (End of the Game "thrown
    from its own baseline") or without a turn's start."""
    side = pos["ctx"]["thrower"]
    pitch = pos["snapshot"]["pitch"]
    hl = pitch["length"] / 2
    action = pos.get("action", {})
    i = action.get("i", -1)
    w = world_before(records, i)
    if not w or action.get("type") == "KingThrow":
        return -hl if side == "A" else hl
    gone = {
        k
        for r in records
        if r.get("type") == "action" and w["i"] <= r["i"] < i and r["action"]["type"] == "Inkast"
        for k in r["action"]["kubbs"]
    }
    poses = {k: v for k, v in poses_of(w).items() if k not in gone}
    return front_line(side, poses, sizes, pitch)


def validity_checks(pos: dict[str, Any], v: dict[str, Any]) -> list[Check]:
    """Basic rules 5 and 7 (:func:`independent_ws_referee.throw_validity`) against kubb3d's
    ``legal`` and its violations: ``throw:foot`` (basic rule 7), ``throw:helicopter`` (basic
    rule 5; a rotation partly about the vertical is counted, not compared), ``throw:valid``."""
    call = pos["call"]
    ctx = pos["ctx"]
    rules = [r for r, _ in ctx.get("violations", [])]
    note = (
        f"toe {v['toe']:.3f} (after the step {v['step_toe']:.3f}), line {v['line']:.3f}; "
        f"{v['vertical_rps']:.2f} rev/s about the vertical, axis {v['axis_deg']:.0f} deg off it; "
        f"kubb3d {', '.join(rules) or 'valid'}"
        if v["toe"] is not None
        else ""
    )
    out = [Check("throw:foot", "-", v["foot_ok"], not any("rule 7" in r for r in rules), note, call)]
    if v["helicopter"] is None:
        h = "helicopter" if any("rule 5" in r for r in rules) else "no helicopter"
        out.append(Check(f"throw:helicopter(info, partly about the vertical; kubb3d {h})", "-", "-", "-", note, call))
    else:
        out.append(Check("throw:helicopter", "-", v["helicopter"], any("rule 5" in r for r in rules), note, call))
    if v["valid"] is not None:
        out.append(Check("throw:valid", "-", v["valid"], bool(ctx["legal"]), note, call))
    return out


def _set_back(pos: dict[str, Any], positions: list[dict[str, Any]]) -> list[Check]:
    """Basic rule 14 by its effect: a kubb the attempt knocked over or moved stands where it
    stood (within 1 mm) when the referee is next called (whatever kubb3d's ruling said)."""
    out: list[Check] = []
    n = pos["call"] + 1
    if n >= len(positions) or positions[n]["call"] != n:
        return out
    nxt = positions[n]["ctx"]
    start = nxt.get("round_start") if positions[n]["kind"] == "throw" else nxt.get("before")
    mine = referee_inkast(pos)
    for k, m in mine["others"].items():
        if not m["stood"] or not (m["felled"] or m["moved"]) or not start or k not in start:
            continue
        was = np.array(pos["ctx"]["before"][k]["position"])
        now = np.array(start[k]["position"])
        back = float(np.linalg.norm(now - was)) <= 0.001
        note = f"shift {m['shift'] * 1000:.1f} mm; {np.linalg.norm(now - was) * 1000:.1f} mm off at the next call"
        out.append(Check("inkast:knocked-or-moved-set-back(next call)", k, True, back, note, pos["call"]))
    return out


def _turns(records: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    turns: list[list[dict[str, Any]]] = []
    for r in records:
        if r.get("type") == "world":
            turns.append([])
        elif r.get("type") == "action" and turns:
            turns[-1].append(r)
    return turns


def _procedure(records: list[dict[str, Any]]) -> list[Check]:
    out: list[Check] = []
    for n, turn in enumerate(_turns(records)):
        kinds = [r["action"]["type"] for r in turn]
        batons = [r["action"].get("baton") for r in turn if r["action"]["type"] in ("BatonThrow", "KingThrow")]
        if batons:
            out.append(
                Check("turn:batons", str(n), True, len(batons) <= 6 and len(set(batons)) == len(batons), f"{batons}")
            )
        inkasts = [j for j, k in enumerate(kinds) if k == "Inkast"]
        if inkasts:
            first = [j for j in inkasts if turn[j]["action"].get("attempt") == 1]
            second = [j for j in inkasts if turn[j]["action"].get("attempt") == 2]
            if second:
                out.append(Check("order:repeat-after-all", str(n), True, min(second) > max(first), f"{kinds}"))
            raises = [j for j, k in enumerate(kinds) if k == "Raise"]
            if raises:
                out.append(Check("order:raise-after-all", str(n), True, min(raises) > max(inkasts), f"{kinds}"))
    return out


def _placed(positions: list[dict[str, Any]], records: list[dict[str, Any]]) -> list[Check]:
    """Basic rule 11: a kubb thrown back in vain twice is placed by the opposing team freely in
    its own field, "one throwing-stick length from the king" (READING: centre to centre, at
    least). A kubb placed for another reason (one resting on others: WS is silent) is counted."""
    out: list[Check] = []
    if not positions:
        return out
    pieces = positions[0]["snapshot"]["pieces"]
    baton = max(2 * max(p["half_extents"]) for p in pieces if p["kind"] == "baton")
    hl = positions[0]["snapshot"]["pitch"]["length"] / 2
    for r in records:
        if r.get("type") != "action" or r["action"]["type"] != "PlaceKubb":
            continue
        a = r["action"]
        x, y = a["position"][:2]
        half = "A" if x < 0 else "B"
        note = f"{a['kubb']} at ({x:.3f}, {y:.3f}) by {a['side']}, reason {a.get('reason')}"
        if a.get("reason") not in (None, "penalty", "penalty kubb", "invalid"):
            by = "the receiving" if a["side"] == a.get("half") else "the throwing"
            out.append(
                Check(
                    f"place:{a.get('reason')}(info, by {by} team)",
                    a["kubb"],
                    "-",
                    "-",
                    note,
                )
            )
            continue
        recv = a.get("half") or half
        out.append(Check("place:by-receiving-team", a["kubb"], recv, a["side"], note))
        out.append(Check("place:own-half", a["kubb"], recv, half if abs(x) <= hl else "outside", note))
        out.append(Check("place:from-king", a["kubb"], True, math.hypot(x, y) >= baton - 1e-9, note))
    return out


def _result(positions, records, verdict, last_throw) -> list[Check]:
    out: list[Check] = []
    outcome = next((r for r in records if r.get("type") == "outcome"), None)
    header = next((r for r in records if r.get("type") == "header"), None)
    if outcome is None or header is None:
        return out
    names = header["config"]["names"]
    side_of = {names[0]: "A", names[1]: "B"}
    start = lag_starter(records)
    first = next(
        (
            r["action"]["side"]
            for r in records
            if r.get("type") == "action" and r["action"]["type"] in ("BatonThrow", "KingThrow")
        ),
        None,
    )
    if start is not None and first is not None:
        out.append(Check("lag:starter", "-", start, first))
    elif first is not None:
        # both lag batons hit the king (or lay equally near): WS is silent
        out.append(Check(f"lag:both-hit(info, kubb3d {first} starts)", "-", "-", "-"))
    theirs_winner = side_of.get(outcome.get("winner"))
    pts = outcome.get("points") or {}
    theirs_points = (pts.get(names[0]), pts.get(names[1]))
    if verdict is not None:
        w = verdict[0]
        out.append(Check("game:winner(king)", "-", w, theirs_winner, f"call {verdict[1]}"))
        out.append(Check("game:points", "-", (2, 0) if w == "A" else (0, 2), theirs_points))
    elif last_throw is not None and outcome.get("termination") == "TIME":
        pos, mine = last_throw
        count, off = baseline_count(pos, mine)
        w = None if count["A"] == count["B"] else ("A" if count["A"] > count["B"] else "B")
        note = f"baselines A {count['A']}, B {count['B']}"
        if off:
            out.append(Check("game:baseline-kubb-off-its-line(info)", ",".join(off), "-", "-", note, pos["call"]))
        out.append(Check("game:winner(time)", "-", w, theirs_winner, note, pos["call"]))
        out.append(Check("game:points", "-", {None: (0, 0), "A": (1, 0), "B": (0, 1)}[w], theirs_points, note))
    else:
        out.append(Check(f"game:ended(info, {outcome.get('termination')})", "-", "-", "-"))
    return out

"""Compare kubb3d's Kubbuteo rulings with the independent KT referee's, position by position.

:func:`compare_match` walks one match (its positions and replay records, as
kt_play_positions.py records them) and returns one :class:`Check` per thing both referees
decide (docs/examinations/2026-12-07-kubbuteo-play.md lists them with KT's words):

* flicks: ``flick:status`` (a kubb stands), ``flick:ruling`` (a kubb of the target half
  stands, counts as knocked down, or is stood up again), ``flick:own-half-not-counted``,
  ``flick:field-kubbs`` (the field kubbs standing when the flick began),
  ``flick:knocked-before`` (kubbs knocked earlier in the turn), ``flick:king``,
  ``flick:verdict``, ``flick:line`` (where the flick starts), ``flick:baton-removed`` and
  ``flick:kubbs-removed`` (KT rules, phase 1: "keep the playing area clear");
* returns: ``return:valid``, ``return:misflick``, ``return:stood-where-it-rests``,
  ``return:from-baseline``, ``return:kubbs`` (the kubbs knocked in the turn are the ones
  returned), ``return:king``;
* ``set-up:upright``: every pose kubb3d stands a kubb up in is upright on its flat;
* procedure: ``place:own-half``, ``place:from-king`` (KT rules, phase 2), ``turn:batons`` (six),
  ``game:winner``.

Kinds ending in ``(info)`` are counted, not compared: KT is silent there.
"""

from __future__ import annotations

import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from independent_kt_referee import (
    DISK_RADIUS,
    _flick_line,
    INCH,
    PLACE_FROM_KING,
    flat_upright,
    half_of,
    walk,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judge"))

from play_check import Check  # noqa: E402


_THEIR_RULING = {
    "counts as felled": "counts",
    "raise at original spot": "stood up again",
    "raise at end of round": "stood up again",
    "none": "stands",
}


def _their_ruling(r: dict[str, Any] | None) -> tuple[bool, str]:
    if r is None:
        return True, "stands"  # kubb3d does not rule on a piece the flick left alone
    return r["status"] == "standing", _THEIR_RULING.get(r["consequence"], r["consequence"])


def compare_flick(pos: dict[str, Any], prior: dict[str, Any], mine: dict[str, Any], theirs=None) -> list[Check]:
    theirs = pos["kubb3d"] if theirs is None else theirs
    ctx = pos["ctx"]
    rulings = theirs["rulings"]
    checks: list[Check] = []
    c = dict(call=pos["call"], seed=pos["seed"])
    for k, m in mine["pieces"].items():
        t_standing, t_ruling = _their_ruling(rulings.get(k))
        note = f"half {m['half']}, tilt {m['tilt_deg']:.1f} deg"
        p = next(p for p in pos["snapshot"]["pieces"] if p["id"] == k)
        if p.get("max_lean"):
            note += f", max lean {math.degrees(p['max_lean'][0]):.1f}/{math.degrees(p['max_lean'][1]):.1f} deg"
        checks.append(Check("flick:status", k, m["standing"], t_standing, note, **c))
        if m["ruling"] == "own half":
            checks.append(Check("flick:own-half-not-counted", k, False, t_ruling == "counts", note, **c))
            if t_ruling != "stands" or not m["standing"]:
                kind = f"flick:own-half-disturbed(info, kubb3d: {t_ruling})"
                checks.append(Check(kind, k, t_ruling, t_ruling, note, **c))
        else:
            kind = "flick:ruling(same flick)" if m["same_flick"] else "flick:ruling"
            if k in ctx["pending_raise"]:
                # stood up again after an earlier flick of this turn (kubb3d says it is raised
                # at the end of the round, though it already stands there): a target again
                kind = "flick:ruling(stood up earlier)"
                if t_standing and t_ruling == "stood up again":
                    t_ruling = "stands"
            checks.append(Check(kind, k, m["ruling"], t_ruling, note, **c))
    theirs_field = sorted(set(ctx["field_kubbs"]) - set(ctx["already_felled"]))
    checks.append(Check("flick:field-kubbs", "-", mine["field_standing_at_start"], theirs_field, **c))
    checks.append(Check("flick:knocked-before", "-", prior["counted_before"], sorted(ctx["already_felled"]), **c))
    kr = rulings.get("king", {"status": "standing"})
    checks.append(Check("flick:king", "king", mine["king"]["standing"], kr["status"] == "standing", **c))
    verdict = (theirs.get("winner"), theirs.get("loser"))
    checks.append(Check("flick:verdict", "king", (mine["winner_side"], mine["loser_side"]), verdict, **c))
    line = mine["line"]
    if line["actual"] is not None:
        ok = abs(line["actual"] - line["expected"]) <= 0.001
        kind = "flick:line(king)" if line["king_attempt"] else "flick:line"
        if not line["king_attempt"] and abs(prior.get("line_centre", line["expected"]) - line["expected"]) > 0.001:
            kind = "flick:line(closest to the king, not to the centre line)"
        note = f"expected x = {line['expected'] * 100:.1f} cm, flicked from {line['actual'] * 100:.1f} cm"
        checks.append(Check(kind, "-", round(line["expected"], 4), round(line["actual"], 4), note, agree=ok, **c))
        flicked = _flick_line(pos, line["actual"])
        fwd = 1.0 if ctx["thrower"] == "A" else -1.0
        if flicked is not None and fwd * (flicked - line["actual"]) > 0.001:
            # a person's flick from nearer the centre than the line the match gave: at kubbs
            # KT gives no consequence (counted); at the king the verdict above judges it
            what = "the king" if line["king_attempt"] else "kubbs"
            note = f"flicked from x = {flicked * 100:.1f} cm, the line {line['actual'] * 100:.1f} cm"
            checks.append(Check(f"flick:line(info, at {what}, from nearer the centre)", "-", "-", "-", note, **c))
    checks.append(Check("flick:baton-removed", "-", True, mine["batons_on_board"] <= 1, **c))
    pieces = {p["id"]: p for p in pos["snapshot"]["pieces"]}
    for k in prior["counted_before"]:
        from independent_kt_referee import on_board

        checks.append(Check("flick:kubbs-removed", k, True, not on_board(pieces[k]), **c))
    return checks


def compare_return(pos: dict[str, Any], prior: dict[str, Any], mine: dict[str, Any], theirs=None) -> list[Check]:
    theirs = pos["kubb3d"] if theirs is None else theirs
    ctx = pos["ctx"]
    rulings = theirs["rulings"]
    checks: list[Check] = []
    c = dict(call=pos["call"], seed=pos["seed"])
    for k, m in mine["returned"].items():
        r = rulings.get(k, {})
        note = f"rest ({m['rest_xy'][0] * 100:.1f}, {m['rest_xy'][1] * 100:.1f}) cm, margin {m['margin'] * 1000:.1f} mm"
        kind = "return:valid(borderline)" if m["borderline"] else "return:valid"
        checks.append(Check(kind, k, m["valid"], r.get("valid"), note, **c))
        if not m["valid"]:
            t = {"rethrow": "reflick", "penalty kubb": "placed"}.get(r.get("consequence"), r.get("consequence"))
            checks.append(Check("return:misflick", k, m["consequence"], t, note + f", attempt {ctx['attempt']}", **c))
        raised = r.get("raised")
        if m["valid"] and raised is not None:
            d = math.dist(raised["position"][:2], m["rest_xy"])
            kind = "return:stood-where-it-rests"
            if _blocked(pos, k, m["rest_xy"], rulings):
                kind += "(blocked, info)"
            checks.append(Check(kind, k, True, d <= DISK_RADIUS, note + f", stood {d * 1000:.1f} mm off", **c))
    for k, m in mine["others"].items():
        r = rulings.get(k)
        if not m["was_up"]:
            continue
        t = (r or {}).get("consequence", "none")
        if not m["standing"]:
            checks.append(
                Check(f"return:knocked-other(info, kubb3d: {t})", k, t, t, f"shift {m['shift'] * 1000:.1f} mm", **c)
            )
        elif m["shift"] > 0.001:
            checks.append(
                Check(f"return:moved-other(info, kubb3d: {t})", k, t, t, f"shift {m['shift'] * 1000:.1f} mm", **c)
            )
    for n, ok in enumerate(mine["release_behind_baseline"]):
        if not ok:
            # "fallen kubbs are returned from the original baseline": KT gives no consequence
            checks.append(Check("return:from-baseline(info, released in front of it)", str(n), "-", "-", **c))
            continue
        checks.append(Check("return:from-baseline", str(n), True, ok, **c))
    if ctx["attempt"] == 1 and prior["first_of_return"]:
        checks.append(Check("return:kubbs", "-", prior["last_turn_counted"], sorted(ctx["inkasted"]), **c))
    kr = rulings.get("king", {"status": "standing"})
    checks.append(
        Check("return:king", "king", mine["king"]["standing"], kr.get("status", "standing") == "standing", **c)
    )
    checks.append(Check("return:verdict", "king", mine["loser_side"], theirs.get("loser"), **c))
    return checks


def _blocked(pos, k, xy, rulings) -> bool:
    """The returned kubb cannot be stood up exactly where it rests (KT is silent then):
    another kubb stands, or is stood up by kubb3d, or the king stands, within a disk's diameter
    of ``xy`` (a lying king: within its length; the king's place at the centre point too), or
    the standing disk would overhang the board's edge there."""
    from independent_kt_referee import BOARD_LENGTH, BOARD_WIDTH, disk_upright, king_upright

    if abs(xy[1]) + DISK_RADIUS > BOARD_WIDTH / 2 or abs(xy[0]) + DISK_RADIUS > BOARD_LENGTH / 2:
        return True
    if math.hypot(*xy) < 2 * DISK_RADIUS:
        return True  # the king's place (KT Setup: "placed upright in the centre of the board")
    for p in pos["snapshot"]["pieces"]:
        if p["id"] == k or p["kind"] not in ("kubb", "king"):
            continue
        r = rulings.get(p["id"]) or {}
        if r.get("raised"):
            at = r["raised"]["position"]
        elif p["kind"] == "king" or disk_upright(p)["standing"]:
            at = p["position"]
        else:
            continue
        reach = 2 * DISK_RADIUS
        if p["kind"] == "king" and not r.get("raised") and not king_upright(p)["standing"]:
            reach = DISK_RADIUS + 2 * INCH  # a king lying on its side: 2 in long (KT Equipment)
        if math.dist(at[:2], xy) < reach:
            return True
    return False


def _set_up_upright(pos: dict[str, Any], theirs=None) -> list[Check]:
    """Every pose kubb3d stands a kubb up in (returned, stood up again) is upright on its flat."""
    theirs = pos["kubb3d"] if theirs is None else theirs
    sizes = {p["id"]: p["half_extents"] for p in pos["snapshot"]["pieces"]}
    out = []
    for k, r in theirs["rulings"].items():
        if r.get("raised") is not None and k in sizes and k != "king":
            ok = flat_upright(r["raised"], sizes[k])
            out.append(Check("set-up:upright", k, True, ok, f"{r['consequence']}", call=pos["call"], seed=pos["seed"]))
    return out


def compare_procedure(records: list[dict[str, Any]], results, seed: int) -> list[Check]:
    """Placed kubbs (KT rules, phase 2), six flicks a turn (KT rules, phase 1), the game's winner."""
    checks: list[Check] = []
    king_xy = (0.0, 0.0)  # KT Setup: "placed upright in the centre of the board"
    flicks: dict[tuple[int, int], int] = defaultdict(int)
    set_turn = (0, 0)
    for r in records:
        if r.get("type") == "world":
            set_turn = (r.get("set", 0), r.get("turn", 0))
        if r.get("type") != "action":
            continue
        a = r["action"]
        if a["type"] in ("BatonThrow", "KingThrow"):
            flicks[set_turn] += 1
        if a["type"] == "PlaceKubb":
            pose = (r.get("after") or {}).get("poses", {}).get(a["kubb"]) or [*a["position"], 0.0]
            x, y = pose[0], pose[1]
            d = math.hypot(x - king_xy[0], y - king_xy[1])
            checks.append(
                Check("place:own-half", a["kubb"], a["side"], half_of(x), f"at ({x:.3f}, {y:.3f})", seed=seed)
            )
            checks.append(
                Check("place:from-king", a["kubb"], True, d >= PLACE_FROM_KING - 1e-6, f"{d / INCH:.2f} in", seed=seed)
            )
            gap = d - DISK_RADIUS - 1.25 * INCH / 2
            checks.append(
                Check(
                    "place:from-king-gap(info)",
                    a["kubb"],
                    gap >= PLACE_FROM_KING,
                    gap >= PLACE_FROM_KING,
                    f"gap {gap / INCH:.2f} in",
                    seed=seed,
                )
            )
    for key, n in flicks.items():
        checks.append(Check("turn:batons", str(key), True, n <= 6, f"{n} flicks", seed=seed))
    end = [r for r in records if r.get("type") == "outcome"]
    verdicts = [m for _, _, m in results if m.get("winner_side") or m.get("loser_side")]
    if end:
        mine = None
        for m in verdicts:
            mine = m.get("winner_side") or (None if not m.get("loser_side") else "AB".replace(m["loser_side"], ""))
            break
        names = _side_names(records)
        theirs = names.get(end[0].get("winner"))
        if end[0].get("termination") == "KING" or mine is not None:
            checks.append(Check("game:winner", "-", mine, theirs, end[0].get("reason", ""), seed=seed))
        else:
            checks.append(Check(f"game:end(info, {end[0].get('termination')})", "-", theirs, theirs, seed=seed))
    return checks


def _side_names(records) -> dict[str, str]:
    """Player name → side, from the lag and turn events (a player whose opponent knocks the
    king in the first turn has had no turn, but has flicked the lag)."""
    out: dict[str, str] = {}
    for r in records:
        for e in r.get("events", []) or []:
            if e.get("player") and e.get("side") and e.get("kind") in ("lag", "turn"):
                out.setdefault(e["player"], e["side"])
    return out


def compare_match(
    positions: list[dict[str, Any]], records: list[dict[str, Any]] | None = None, theirs=None
) -> list[Check]:
    """Every check of one match; ``theirs`` (call → kubb3d rulings) replaces the recorded ones."""
    checks: list[Check] = []
    results = walk(positions)
    for pos, prior, mine in results:
        t = None if theirs is None else theirs[pos["call"]]
        if pos["kind"] == "throw":
            checks.extend(compare_flick(pos, prior, mine, t))
        else:
            checks.extend(compare_return(pos, prior, mine, t))
        checks.extend(_set_up_upright(pos, t))
    if records is not None and positions:
        checks.extend(compare_procedure(records, results, positions[0]["seed"]))
    return checks

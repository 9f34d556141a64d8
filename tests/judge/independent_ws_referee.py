"""A second referee for WS (Wikinger-Schach), written from the WS rule book's words.

It rules on the positions of :mod:`ws_play_positions` (the poses at rest after a baton throw
or an inkast attempt, the context the match engine passed, the replay's record of the action)
and on a whole match's records (the lag, the order of inkasts and raising, placed kubbs, the
result). The geometry (a box standing on an end face, its base square, the squares it can be
tipped onto) is the DM examination's (:mod:`independent_referee`), used only where WS's words
ask the same question. kubb3d's judge and rules code and docs/rules.md were not read to write
it. Readings where WS is silent are marked READING and listed in
docs/examinations/2026-12-07-ws-play.md. The pitch is WS's (Setup, The Playing Field: "5 m
wide and 7.50 m long"), end A at x < 0, the king "in the middle of the center line".

Clauses (the WS rule book's section names; basic rules by number):

* Knocked over (basic rule 8 "knock over all kubbs"; basic rule 9 "A kubb that is hit and then
  lies against a throwing stick or another hit kubb counts as knocked over"). READING: a kubb
  stands if it stands alone: every other piece taken away, it rests on an end face and its
  centre of mass lies over that face (the DM examination's test); anything held up by another
  piece (a baton, a hit kubb, and also a kubb not hit: WS names only the first two) is knocked
  over. READING: a kubb that went over (its tilt this round past 90°) was knocked over even if
  it stands again; a kubb knocked over earlier in the turn stays knocked over (WS is silent on
  both).
* Field kubbs first (basic rule 8 "All field kubbs in the opponent's field must be knocked over
  first before the baseline kubbs may be targeted"). READING: a baseline kubb knocked over by a
  throw that began with a field kubb of its half standing does not count and is set up again;
  when (at once or at the end of the turn) WS does not say: counted, not compared. Field kubbs
  are the kubbs thrown back (basic rule 10) at least once before the throw (the replay's
  inkast records).
* Invalid throws (basic rule 7 "the throw is invalid and may not be repeated. Pawns that have
  fallen over are set up again"; basic rule 5, no helicopter throw, READING: invalid the same
  way): nothing an invalid throw knocks over counts; READING: the kubbs are set up at once and
  are targets again. Whether a throw is invalid is judged from its record
  (:func:`throw_validity`: the toe against the line, the rotation about the vertical;
  docs/examinations/2026-12-07-ws-invalid.md), where the match's record is there.
* Own field (READING; WS is silent on a team's own kubbs knocked by its throw): never counted;
  knocked over or moved, set up again where it stood (basic rule 14 by analogy). Only "not
  counted" is compared.
* The throwing line (basic rule 6 "Throws are made from the baseline. Exception: if a kubb is
  standing in one's own field, one may advance to the height of that kubb (front line)";
  basic rule 7 "The tip of the foot must stay behind the frontmost pawn in one's own playing
  field"). READING: the front line is the edge towards the thrower's baseline of the kubb of
  his own half standing nearest the centre line at the start of the turn ("behind the
  frontmost pawn"); a throw is made from there or further back. A throw at the king is made
  from the baseline (End of the Game "thrown from its own baseline"; Tie-Break, second bullet).
* The king (End of the Game "A team loses if it knocks over the king before it has knocked
  over all kubbs in the opposing team's playing field"; "A team also wins if, within a single
  turn, it knocks over all kubbs in the other team's field and afterwards the king (thrown from
  its own baseline)"; Tie-Break, second bullet "If the king is not thrown at from the baseline
  in this situation, the throw is invalid and the king is set up again"). READING: "before"
  and "afterwards" are judged at the start of the throw: a king knocked over by a throw that
  began with a kubb of the target half standing loses; after all were down, from the baseline
  and valid: wins; not from the baseline: set up again, no verdict. A king knocked over by a
  thrown-back kubb loses for the team that threw it ("knocks over the king before ...").
* A kubb thrown back is valid (basic rule 11 "If kubbs do not come to rest in the opponent's
  field"; basic rule 13 "If a kubb comes to rest on the line, it must be tipped into the
  field"). READING: a kubb on a line of the receiving half has come to rest in it: valid if
  its outline seen from above overlaps the receiving half; wholly outside: not valid.
* Not valid (basic rule 11 "the throw must be repeated once, after all kubbs have been thrown.
  If the kubb still does not lie in the opponent's field after that, the opposing team may
  place the kubb freely in its own field. The kubb need only stand one throwing-stick length
  from the king"): first attempt: thrown again; second: placed by the receiving team in its
  own half. READING: "one throwing-stick length" from centre to centre, at least.
* Raising (basic rule 10 "Where they come to rest, the opposing team then stands them upright
  on their end faces. They may not be lifted off the ground while doing so"; basic rule 13
  "The kubb may no longer be standing on the line"). READING: a lying kubb is tipped up over
  the ground edge of one of its end faces (DM examination's two squares; compared for a kubb
  lying flat, a kubb leaning on another is counted apart); the raised kubb
  stands upright with its whole base inside the receiving half. The direction is the raising
  team's (WS is silent): only "one of the two squares" is compared, where one lies inside;
  where none does (a kubb on the line), only "inside".
* Other pieces when kubbs are thrown back (basic rule 14 "If other kubbs are knocked over or
  moved while kubbs are being thrown back, the referee must immediately set them up again at
  the position where they stood"). READING of "moved": a move a referee can see, more than
  5 mm or 2°. Kubbs lying (thrown back earlier in the turn) are not "set up again": not
  compared.
* Order (basic rule 11 "repeated once, after all kubbs have been thrown"; basic rule 12 "Kubbs
  may only be set up after all knocked-over kubbs have been thrown into the opponent's field";
  basic rule 2 "throws them all one after another": six batons a turn).
* The result (End of the Game): the king decides (two points); else, after the playing time
  and the current turn, "the team with the larger number of kubbs on its baseline wins and
  receives one point"; equal: a draw, no point. READING: the kubbs on a baseline are the
  baseline kubbs (basic rule 8) not knocked over after the turn's last throw, with those that
  are set up again, wherever a throw pushed them standing.
* The lag (Sequence of Play "The player who is closer gains the right to throw. If the king is
  hit, the other team automatically gains the right to throw and begins the game"): from the
  lag records' distances (kubb3d's measurement) and king flags.
"""

from __future__ import annotations

import math
from typing import Any, Iterable

import numpy as np
from independent_referee import GROUND_TOL, Box, _overlap, rot, upright

MOVED_TOL = 0.005  # m: basic rule 14 "moved" (READING)
MOVED_TILT = math.radians(2.0)
EDGE_TOL = 1e-4  # m: closer than this to a line is "borderline" (counted apart)
SPOT_TOL = 0.005  # m: a raised kubb this close to a tipping square was tipped onto it
LINE_TOL = 0.001  # m


def other(side: str) -> str:
    return "B" if side == "A" else "A"


def half_rect(side: str, pitch: dict[str, float]) -> tuple[float, float, float]:
    """(x_min, x_max, |y| max) of the half of end ``side`` (A at x < 0)."""
    hl, hw = pitch["length"] / 2, pitch["width"] / 2
    return (-hl, 0.0, hw) if side == "A" else (0.0, hl, hw)


def inside_margin(points: np.ndarray, side: str, pitch: dict[str, float]) -> float:
    """Smallest distance of the points inside the half (negative: one is outside)."""
    x0, x1, yw = half_rect(side, pitch)
    return float(min((points[:, 0] - x0).min(), (x1 - points[:, 0]).min(), (yw - np.abs(points[:, 1])).min()))


def overlap_depth(points: np.ndarray, side: str, pitch: dict[str, float]) -> float:
    """How far the outline (convex hull of ``points`` seen from above) reaches into the half:
    positive if it overlaps it, negative the gap (separating-axis distance along x or y)."""
    x0, x1, yw = half_rect(side, pitch)
    xs, ys = points[:, 0], points[:, 1]
    return float(min(xs.max() - x0, x1 - xs.min(), ys.max() + yw, yw - ys.min()))


def _half_of(pos) -> str:
    return "A" if pos[0] < 0 else "B"


def _pose_box(piece: dict[str, Any], pose: dict[str, Any]) -> Box:
    return Box({"id": piece["id"], "half_extents": piece["half_extents"], **pose})


def _moved(box: Box, before: Box) -> tuple[bool, float, float]:
    shift = float(np.linalg.norm(box.c - before.c))
    turn = math.acos(max(-1.0, min(1.0, float(box.R[:, 2] @ before.R[:, 2]))))
    return shift > MOVED_TOL or turn > MOVED_TILT, shift, turn


def front_line(side: str, poses: dict[str, dict[str, Any]], sizes: dict[str, Any], pitch) -> float:
    """Basic rules 6, 7: the line a team of end ``side`` may throw from, x (READING in the
    module doc): the back edge of its own kubb standing nearest the centre line, else the
    baseline."""
    hl = pitch["length"] / 2
    base = -hl if side == "A" else hl
    best = base
    for k, pose in poses.items():
        if k == "king" or k not in sizes:
            continue
        box = Box({"id": k, "half_extents": sizes[k], **pose})
        if _half_of(box.c) != side or not box.stands_alone():
            continue
        xs = box.base_square()[:, 0]
        back = float(xs.min()) if side == "A" else float(xs.max())
        if (side == "A" and back > best) or (side == "B" and back < best):
            best = back
    return best


# ---------------------------------------------------------------------- a valid throw
HAND_AHEAD = 0.40  # m: the throw parameters' documented stance when the foot is not given
HELI_NONE = 0.25  # rev/s: less rotation about the vertical than this is none (READING)
HELI_CLEAR = 1.0  # rev/s: at least this much, and ...
HELI_ANGLE = math.radians(80.0)  # ... the rotation's axis this close to the vertical: a helicopter


def toes(pos: dict[str, Any]) -> tuple[float, float]:
    """(x of the toe of the thrower's front foot at the release, x after the step that follows
    it) from the throw's record (:func:`throw_validity`); no record: the match's line."""
    throws = pos.get("action", {}).get("throws") or []
    side = pos["ctx"]["thrower"]
    hl = pos["snapshot"]["pitch"]["length"] / 2
    fwd = 1.0 if side == "A" else -1.0
    if not throws:
        x = pos.get("action", {}).get("line_x")
        x = -fwd * hl if x is None else x
        return x, x
    t = throws[0]
    p = t.get("params") or {}
    if not p:  # a raw release: the release point stands for the foot
        x = t["release"]["position_m"][0]
        return x, x
    base = p["line_x"] if p.get("line_x") is not None else -fwd * hl
    behind = p["foot_behind_line"] if p.get("foot_behind_line") is not None else p["behind_line"] + HAND_AHEAD
    toe = base - fwd * behind
    return toe, toe + fwd * p.get("step_after", 0.0)


def inkast_toes(pos: dict[str, Any]) -> dict[str, tuple[str, float]]:
    """Per kubb thrown in an inkast attempt (its record's parameters): (the side it was thrown
    from, x of the toe of the front foot at the release), the stance as for a baton
    (:func:`toes`); a kubb without parameters: its release point. The step after the release
    is the baton's (``step_after``), not given for a kubb: 0."""
    hl = pos["snapshot"]["pitch"]["length"] / 2
    out: dict[str, tuple[str, float]] = {}
    for t in pos.get("action", {}).get("throws") or []:
        p = t.get("params") or {}
        x = t["release"]["position_m"][0]
        side = p.get("side") or ("A" if x < 0 else "B")
        fwd = 1.0 if side == "A" else -1.0
        if not p:
            out[t["piece"]] = (side, x)
            continue
        base = p["line_x"] if p.get("line_x") is not None else -fwd * hl
        behind = p["foot_behind_line"] if p.get("foot_behind_line") is not None else p["behind_line"] + HAND_AHEAD
        out[t["piece"]] = (side, base - fwd * behind + fwd * p.get("step_after", 0.0))
    return out


def throw_validity(pos: dict[str, Any], line: float) -> dict[str, Any]:
    """Basic rules 5 and 7 on a baton throw, from the throw's record (its parameters and its
    release) and the line the thrower may throw from (``line``: :func:`front_line` at the throw,
    the baseline for a throw at the king).

    * The foot (basic rule 7 "Feet must not cross over. The tip of the foot must stay behind the
      frontmost pawn in one's own playing field. If a player crosses over, the throw is
      invalid"): the toe of the front foot, where the parameters put it (``foot_behind_line``
      behind their ``line_x``; not given: 0.40 m behind the release point, the parameters'
      documented stance), at the release and after the ``step_after`` that follows it (READING:
      "must not cross over" holds through the whole throwing movement), must not be past
      ``line`` (by more than LINE_TOL).
    * The rotation (basic rule 5 "thrown straight from below (no 'helicopter throw', i.e. no
      horizontal rotation)"), from the release's angular velocity. READING: "horizontal
      rotation" is rotation about the vertical. Under HELI_NONE rev/s about the vertical: none;
      at least HELI_CLEAR rev/s with the axis within 10° of the vertical (the baton turns in a
      plane within 10° of the horizontal): a helicopter throw;
      between (a baton spinning end over end in a tilted plane, or a little helicopter spin):
      WS gives no measure, ``helicopter`` is None (counted, not compared).

    ``valid``: False if either is broken; None if the foot is behind and the rotation is in
    between; True otherwise."""
    throws = pos.get("action", {}).get("throws") or []
    side = pos["ctx"]["thrower"]
    out: dict[str, Any] = {"line": line, "toe": None, "step_toe": None, "foot_ok": True, "helicopter": False}
    if not throws:
        return {**out, "valid": True, "vertical_rps": 0.0, "axis_deg": 0.0}
    t = throws[0]
    toe, step_toe = toes(pos)
    if side == "A":
        foot_ok = max(toe, step_toe) <= line + LINE_TOL
    else:
        foot_ok = min(toe, step_toe) >= line - LINE_TOL
    w = np.array(t["release"]["angular_velocity_radps"], dtype=float)
    vertical = abs(float(w[2])) / (2 * math.pi)
    norm = float(np.linalg.norm(w)) / (2 * math.pi)
    axis = math.acos(min(1.0, vertical / norm)) if norm > 0 else math.pi / 2  # the axis's angle off the vertical
    if vertical < HELI_NONE:
        heli: bool | None = False
    elif vertical >= HELI_CLEAR and axis <= math.pi / 2 - HELI_ANGLE:
        heli = True
    else:
        heli = None
    valid: bool | None = foot_ok and heli is False
    if foot_ok and heli is None:
        valid = None
    return {
        **out,
        "toe": toe,
        "step_toe": step_toe,
        "foot_ok": bool(foot_ok),
        "helicopter": heli,
        "vertical_rps": vertical,
        "axis_deg": math.degrees(axis),
        "valid": valid,
    }


# ---------------------------------------------------------------------- a baton throw
def referee_throw(
    pos: dict[str, Any],
    field: set[str],
    legal: bool | None = None,
    history: tuple[set[str], set[str]] | None = None,
) -> dict[str, Any]:
    """Rulings on a baton throw. ``field``: the kubbs thrown back at least once before it.

    Per kubb: ``standing`` (alone, at rest), ``down`` (knocked over), ``ruling`` (``stands``,
    ``counts``, ``set_up`` for a kubb that does not count and is set up again, ``not_counted``
    for the thrower's own kubbs); the king; the verdict. ``legal``: the throw's validity
    (:func:`throw_validity`); None: the match's (``ctx["legal"]``), for positions judged
    without their turn's start. ``history``: (the kubbs of the target half this referee
    counted as knocked over earlier in the turn, the baseline kubbs it ruled knocked over
    early and set up at the turn's end, READING) from the turn's earlier throws
    (ws_play_comparison.compare_match); None: the match's (``already_felled``,
    ``pending_raise``). Each ruling says why (``why``): a kubb set up again because the throw
    was invalid is set up at once and is a target again (basic rule 7 "set up again")."""
    snap, ctx = pos["snapshot"], pos["ctx"]
    pieces = {p["id"]: p for p in snap["pieces"] if p["kind"] in ("kubb", "king")}
    thrower = ctx["thrower"]
    target = other(thrower)
    start = ctx["round_start"]
    half = {k: _half_of(start[k]["position"]) for k in start if k != "king"}
    already, pending = (set(ctx["already_felled"]), set(ctx["pending_raise"])) if history is None else history
    target_kubbs = sorted(k for k, s in half.items() if s == target)
    field_standing = sorted(k for k in target_kubbs if k in field and k not in already and k not in pending)
    legal = bool(ctx["legal"]) if legal is None else legal
    out: dict[str, Any] = {"pieces": {}, "field_standing_at_start": field_standing}
    for k in sorted(half):
        box = Box(pieces[k])
        down = box.down()
        why = ""
        if half[k] != target:
            ruling = "not_counted"
        elif k in already:
            ruling, why = "counts", "earlier"
        elif k in pending:
            ruling, why = "set_up", "early"  # knocked over early this turn (basic rule 8): set up again
        elif not down:
            ruling = "stands"
        elif not legal:
            ruling, why = "set_up", "invalid"  # basic rule 7
        elif k not in field and field_standing:
            ruling, why = "set_up", "early"  # basic rule 8: field kubbs first
        else:
            ruling = "counts"
        out["pieces"][k] = {
            "standing": box.stands_alone(),
            "down": down,
            "ruling": ruling,
            "why": why,
            "half": half[k],
            "field": k in field,
            "max_tilt_deg": math.degrees(box.max_tilt),
        }
    king = Box(pieces["king"])
    king_down = king.down()
    all_down = all(k in already for k in target_kubbs)
    at_king = pos.get("action", {}).get("type") == "KingThrow"
    # End of the Game "thrown from its own baseline" (READING: the toe of the front foot not past
    # it at the release nor after the step; basic rule 6 lets a thrower stand further back)
    hl = snap["pitch"]["length"] / 2
    toe, step_toe = toes(pos)
    reach = max(toe, step_toe) if thrower == "A" else -min(toe, step_toe)
    from_baseline = reach <= -hl + LINE_TOL
    winner = loser = None
    if king_down:
        if all_down and from_baseline and legal:
            winner, loser = thrower, target
        elif all_down:
            pass  # Tie-Break, second bullet: invalid, the king is set up again
        else:
            winner, loser = target, thrower
    out["king"] = {"down": king_down, "all_down": all_down, "at_king": at_king, "from_baseline": from_baseline}
    out["winner_side"], out["loser_side"] = winner, loser
    return out


# ---------------------------------------------------------------------- an inkast attempt
def referee_inkast(pos: dict[str, Any]) -> dict[str, Any]:
    """Rulings on an attempt to throw kubbs back: per kubb thrown ``valid`` (basic rules 11,
    13), its tipping squares and which lie inside; per other piece that stood whether it must
    be set up again (basic rule 14); the king."""
    snap, ctx = pos["snapshot"], pos["ctx"]
    pitch = snap["pitch"]
    pieces = {p["id"]: p for p in snap["pieces"] if p["kind"] in ("kubb", "king")}
    receiving = other(ctx["inkasting_side"])
    out: dict[str, Any] = {"inkasted": {}, "others": {}}
    for k in ctx["inkasted"]:
        box = Box(pieces[k])
        outline = box.corners()[:, :2]
        depth = overlap_depth(outline, receiving, pitch)
        if box.stands_alone():
            squares, how = [box.base_square()], "upright"
        else:
            squares, how = box.raise_squares(), "lying"
        inside = [inside_margin(sq, receiving, pitch) >= 0 for sq in squares]
        out["inkasted"][k] = {
            "valid": depth > 0,
            "depth": depth,
            "borderline": abs(depth) < EDGE_TOL,
            "how": how,
            "squares": [sq.tolist() for sq in squares],
            "inside": inside,
            "on_ground": bool(box.corners()[:, 2].min() <= GROUND_TOL),
            # lying flat on a long face (a kubb leaning on another or resting on a long edge
            # is tipped some way WS does not say: its raising is counted, not compared)
            "flat": how == "lying"
            and math.asin(min(1.0, abs(float(box.R[2, 2])))) < math.radians(2.0)
            and int((box.corners()[:, 2] <= GROUND_TOL).sum()) >= 4,
        }
    thrown = set(ctx["inkasted"]) | set(ctx.get("awaiting", {}))
    king_fell = False
    for pid, pose in ctx["before"].items():
        if pid in thrown or pid not in pieces:
            continue
        box = Box(pieces[pid])
        before = _pose_box(pieces[pid], pose)
        moved, shift, turn = _moved(box, before)
        stood = before.stands_alone()
        felled = stood and box.down()
        if pid == "king":
            king_fell = felled
            continue
        out["others"][pid] = {"stood": stood, "felled": felled, "moved": moved, "shift": shift, "turn": turn}
    thrower = ctx.get("thrower") or ctx["inkasting_side"]
    out["loser_side"] = thrower if king_fell else None
    return out


def raised_on_square(raised: dict[str, Any], size, squares: list) -> tuple[bool, float]:
    """Whether a raised pose stands on one of the tipping squares (centre within SPOT_TOL)."""
    box = Box({"id": "-", "half_extents": size, **raised})
    c = box.base_square().mean(axis=0)
    d = min(float(np.linalg.norm(np.array(sq).mean(axis=0) - c)) for sq in squares)
    return d <= SPOT_TOL, d


def raised_inside(raised: dict[str, Any], size, side: str, pitch) -> tuple[bool, float]:
    """Basic rule 13: upright, its whole base inside the half (margin, m)."""
    box = Box({"id": "-", "half_extents": size, **raised})
    m = inside_margin(box.base_square(), side, pitch)
    return upright(raised, size) and m >= -1e-9, m


# ---------------------------------------------------------------------- a whole match
def field_kubbs_before(records: Iterable[dict[str, Any]]) -> dict[int, set[str]]:
    """For each action index, the kubbs thrown back (basic rule 10) in earlier actions."""
    seen: set[str] = set()
    out: dict[int, set[str]] = {}
    for r in records:
        if r.get("type") != "action":
            continue
        out[r["i"]] = set(seen)
        if r["action"]["type"] in ("Inkast", "PlaceKubb"):
            seen |= set(r["action"].get("kubbs", ()) or [r["action"].get("kubb")])
    return out


def turn_starts(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r.get("type") == "world"]


def world_before(records: list[dict[str, Any]], i: int) -> dict[str, Any] | None:
    """The last world record (a turn's start) at or before action ``i``."""
    best = None
    for r in records:
        if r.get("type") == "world" and r["i"] <= i:
            best = r
    return best


def poses_of(world: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {k: {"position": v[:3], "quat_xyzw": v[3:]} for k, v in world["poses"].items()}


def lag_starter(records: list[dict[str, Any]]) -> str | None:
    """Sequence of Play: the side closer to the king begins; a lag that hits the king gives
    the other team the right to throw."""
    lags = [r for r in records if r.get("type") == "action" and r["action"]["type"] == "LagThrow"]
    if len(lags) != 2:
        return None
    # "hit", not only felled (the record's ``king_hit``; older records: ``king_felled``)
    hit = [r["action"]["side"] for r in lags if r["outcome"].get("king_hit", r["outcome"].get("king_felled"))]
    if len(hit) == 1:
        return other(hit[0])
    if len(hit) == 2:
        return None  # READING: both hit: WS is silent (not compared)
    a, b = lags
    if a["outcome"]["distance_m"] == b["outcome"]["distance_m"]:
        return None
    return a["action"]["side"] if a["outcome"]["distance_m"] < b["outcome"]["distance_m"] else b["action"]["side"]


def baseline_count(pos: dict[str, Any], mine: dict[str, Any]) -> tuple[dict[str, int], list[str]]:
    """End of the Game: kubbs on each baseline after a turn's last throw (READING in the
    module doc): the baseline kubbs (never thrown back, basic rule 8's "baseline kubbs") not
    knocked over, or ruled set up again, wherever a throw pushed them standing; and those of
    them standing more than 5 cm from their place on the baseline (counted apart)."""
    count = {"A": 0, "B": 0}
    off: list[str] = []
    start = pos["ctx"]["round_start"]
    pieces = {p["id"]: p for p in pos["snapshot"]["pieces"]}
    hl = pos["snapshot"]["pitch"]["length"] / 2
    for k, r in mine["pieces"].items():
        if r["field"] or r["ruling"] == "counts":
            continue
        count[r["half"]] += 1
        if not r["down"]:
            x = Box(pieces[k]).c[0]
            if abs(abs(x) - hl) > 0.05 or abs(abs(start[k]["position"][0]) - hl) > 0.05:
                off.append(k)
    return count, off


__all__ = [
    "Box",
    "rot",
    "_overlap",
    "front_line",
    "referee_throw",
    "referee_inkast",
    "raised_on_square",
    "raised_inside",
    "field_kubbs_before",
    "world_before",
    "poses_of",
    "lag_starter",
    "baseline_count",
]

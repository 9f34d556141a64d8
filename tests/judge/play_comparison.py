"""Compare kubb3d's rulings on a position of play with the independent referee's.

:func:`compare` returns one :class:`Check` per thing both referees decide on a position
(docs/examinations/2026-12-07-play.md lists them with the rule book's words):

* throws: ``throw:status`` (a kubb stands, DM §5), ``throw:ruling`` (a target-half kubb
  stands, counts as felled, or is raised at the end of the round, DM §5),
  ``throw:own-half-not-counted``, ``throw:field-kubbs`` (field kubbs standing when the throw
  began), ``throw:king`` and ``throw:verdict`` (DM §1, §10);
* inkasts: ``inkast:valid`` (DM §6, §7), ``inkast:invalid-consequence`` (DM §6),
  ``inkast:raise-direction`` (the one valid direction, DM §7), ``inkast:stossel``,
  ``inkast:felled-other`` and ``inkast:untouched`` (DM §5), ``inkast:king`` (DM §1);
* ``raise:upright``: every pose kubb3d sets a kubb up in stands on its base (DM §5, §7).

Kinds ending in ``(info)`` are counted, not compared: DM leaves them open (the direction when
both are valid, a kubb only moved and still standing, raising beside blocking kubbs).
"""

from __future__ import annotations

import json

from typing import Any, Iterator

from independent_referee import Box, kubb3d_view_throw, referee_inkast, referee_throw, upright
from play_check import Check


def _side_of(pos: dict[str, Any], who: str | None) -> str | None:
    """kubb3d names the winner by side or by player; sides are what the referee knows."""
    if who in (None, "A", "B"):
        return who
    return str(who)


def compare(
    pos: dict[str, Any],
    theirs: dict[str, Any] | None = None,
    legal: bool | None = None,
    history: tuple[set[str], set[str]] | None = None,
) -> list[Check]:
    """Every check on one position; ``theirs`` defaults to the recorded kubb3d rulings;
    ``legal``: the independent referee's own finding on fouls (None: the match's);
    ``history``: its own record of the round (:class:`RoundRecord`; None: the match's)."""
    theirs = pos["kubb3d"] if theirs is None else theirs
    checks: list[Check] = []
    if pos["kind"] == "throw":
        mine = referee_throw(pos, legal, history)
        view = kubb3d_view_throw(pos, theirs)
        for k, m in mine["pieces"].items():
            t = view.get(k)
            if t is None:
                # kubb3d does not rule on a piece the throw left alone: it stands
                t = {"standing": True, "ruling": "stands"}
            note = f"half {m['half']}, max tilt {m['max_tilt_deg']:.1f} deg"
            checks.append(Check("throw:status", k, m["standing"], t["standing"], note))
            if m["ruling"] == "not_counted":
                counts = t["ruling"] == "counts"
                checks.append(Check("throw:own-half-not-counted", k, False, counts, note))
                if m["moved"] and not m["down"]:
                    kind = "throw:own-half-moved-standing(info, kubb3d " + (
                        "sets back)" if t["ruling"] != "stands" else "leaves)"
                    )
                    checks.append(Check(kind, k, t["ruling"], t["ruling"], note))
            else:
                checks.append(Check("throw:ruling", k, m["ruling"], t["ruling"], note))
        ctx = pos["ctx"]
        theirs_field = sorted(set(ctx["field_kubbs"]) - set(ctx["already_felled"]))
        checks.append(Check("throw:field-kubbs", "-", mine["field_standing_at_start"], theirs_field))
        kr = theirs["rulings"].get("king", {"status": "standing"})
        checks.append(Check("throw:king", "king", not mine["king"]["down"], kr["status"] == "standing"))
        verdict_mine = (mine["winner_side"], mine["loser_side"])
        verdict_theirs = (_side_of(pos, theirs.get("winner")), _side_of(pos, theirs.get("loser")))
        foul = (not pos["ctx"]["legal"]) if legal is None else not legal
        # a foul throw that fells the king before every kubb is down: DM §5 sets up "Kubbs"; §1
        # "Wird der König vorzeitig ... zu Fall gebracht" says nothing of fouls (READING)
        kind = "throw:verdict"
        if foul and mine["king"]["down"] and not mine["king"]["all_down"]:
            kind = "throw:verdict(foul throw, reading)"
        checks.append(Check(kind, "king", verdict_mine, verdict_theirs))
    else:
        mine = referee_inkast(pos)
        rulings = theirs["rulings"]
        for k, m in mine["inkasted"].items():
            t = rulings.get(k, {}).get("valid")
            note = f"margin {m['margin'] * 1000:.2f} mm, {m['how']}"
            kind = "inkast:valid-borderline" if m["borderline"] else "inkast:valid"
            checks.append(Check(kind, k, m["valid"], t, note))
            r = rulings.get(k, {})
            checks.append(Check("inkast:stossel", k, not m["on_ground"], r.get("status") == "stößel", note))
            if not m["valid"]:
                # DM §6: invalid after the first attempt: thrown again; after the second: a
                # penalty kubb; a penalty kubb thrown in vain: the other side tries again
                ctx = pos["ctx"]
                if ctx.get("thrower") not in (None, ctx["inkasting_side"]):
                    expect = "penalty kubb"
                else:
                    expect = "rethrow" if ctx["attempt"] == 1 else "penalty kubb"
                checks.append(Check("inkast:invalid-consequence", k, expect, r.get("consequence"), note))
            raised = r.get("raised")
            if m["how"] == "raised" and m["valid"] and raised is not None:
                checks.append(_raised_spot(pos, k, m, raised, rulings))
        for k, m in mine["moved"].items():
            if not m["stood"]:
                continue  # lying pieces (a kubb awaiting its inkast) are not set up
            t = rulings.get(k, {}).get("consequence") == "raise at original spot"
            note = f"shift {m['shift'] * 1000:.1f} mm, turn {m['turn'] * 57.2958:.1f} deg"
            if m["felled"] and k == "king":
                # DM §1: the game is lost (``inkast:king``); nothing is set up again after it
                checks.append(Check("inkast:felled-king(info, the game is over)", k, "-", "-", note))
            elif m["felled"]:
                checks.append(Check("inkast:felled-other", k, True, t, note))
            elif m["moved"]:
                # DM is silent: kubb3d's ruling is recorded, no verdict (mine copies it)
                kind = "inkast:moved-standing(info, kubb3d " + ("sets back)" if t else "leaves)")
                checks.append(Check(kind, k, t, t, note))
            else:
                checks.append(Check("inkast:untouched", k, False, t, note))
        verdict_theirs = _side_of(pos, theirs.get("loser"))
        checks.append(Check("inkast:king", "king", mine["loser_side"], verdict_theirs))
        checks.extend(_inkast_stance(pos))
    checks.extend(_raised_upright(pos, theirs))
    if pos.get("ruleset", "dm") != "dm":
        # other rule books: only what does not depend on DM's clauses (standing alone,
        # the king standing, Stößel, set-up poses upright)
        checks = [c for c in checks if c.kind in RULESET_FREE]
    return checks


def _inkast_stance(pos: dict[str, Any]) -> list[Check]:
    """Kubbs thrown with the toe past the baseline they were thrown from (as the stance of a
    baton, tests/judge/independent_ws_referee.py ``inkast_toes``). DM §5's „Das Überschreiten
    der Grundlinie bzw. vorverlegten Wurflinie … ist nicht gestattet“ stands under „Abwerfen der
    Kubbs“ (the baton throws); §6 names no line for an inkast (only the penalty kubbs' „von
    derselben Grundlinie aus“) and no consequence: counted, not compared."""
    from independent_ws_referee import inkast_toes

    hl = pos["snapshot"]["pitch"]["length"] / 2
    out = []
    for k, (side, toe) in inkast_toes(pos).items():
        fwd = 1.0 if side == "A" else -1.0
        past = fwd * (toe + fwd * hl)
        if past > 1e-6:
            r = pos["kubb3d"]["rulings"].get(k, {})
            where = "in the field" if r.get("valid") else "not in the field"
            note = f"toe x {toe:.3f}, {past * 100:.1f} cm past the baseline"
            out.append(Check(f"inkast:from-line(info, the toe past the baseline; kubb3d: {where})", k, "-", "-", note))
    return out


class RoundRecord:
    """The independent referee's own record of a round, fed each throw in order: the kubbs it
    counted as felled and the baseline kubbs it ruled felled early (raised at the round's end,
    DM §5). A new round (another ``round_start``, another seed) starts it again."""

    def __init__(self) -> None:
        self.key: object = None
        self.already: set[str] = set()
        self.pending: set[str] = set()

    def history(self, pos: dict[str, Any]) -> tuple[set[str], set[str]]:
        key = (pos["seed"], json.dumps(pos["ctx"]["round_start"], sort_keys=True))
        if key != self.key:
            self.key, self.already, self.pending = key, set(), set()
        return set(self.already), set(self.pending)

    def add(self, pos: dict[str, Any], legal: bool | None) -> None:
        mine = referee_throw(pos, legal, (set(self.already), set(self.pending)))
        for k, r in mine["pieces"].items():
            if r["ruling"] == "counts":
                self.already.add(k)
            elif r["ruling"] == "raise_end_of_round":
                self.pending.add(k)


RULESET_FREE = ("throw:status", "throw:king", "inkast:stossel", "raise:upright")


def _raised_spot(pos, k, m, raised, rulings) -> Check:
    """Where kubb3d raised a lying kubb against the square the rule gives (DM §7): the one
    valid direction, or the raising side's preferred one. Moved off it by blocking kubbs
    ('herangeklappt', allowed by DM §7) or a leaning kubb (geometry not fixed by DM): info."""
    import numpy as np

    c = np.array(raised["position"][:2])
    squares = [np.array(sq) for sq in m["squares"]]
    d = [float(np.linalg.norm(sq.mean(axis=0) - c)) for sq in squares]
    nearest = int(np.argmin(d))
    note = f"{d[nearest] * 1000:.1f} mm from square {nearest}"
    if d[nearest] <= 0.005:
        if not m["forced"]:
            return Check("inkast:raise-direction-free(info)", k, nearest, nearest, note)
        kind = "inkast:raise-direction" if m["flat"] else "inkast:raise-direction(leaning)"
        return Check(kind, k, m["choice"], nearest, note)
    if not m["flat"]:
        return Check("inkast:raised-spot-leaning(info)", k, "-", "-", note)
    if not m["forced"]:
        return Check("inkast:raised-spot-free(info)", k, "-", "-", note)
    blocked = _blocked(pos, k, squares[m["choice"]], rulings)
    return Check("inkast:raised-spot-blocked(info)" if blocked else "inkast:raised-spot", k, blocked, True, note)


def other_boxes(pos: dict[str, Any], k: str, rulings: dict[str, Any]) -> Iterator[Box]:
    """Every kubb and the king but ``k``, where kubb3d raised it in this attempt or else as it
    lies in the snapshot."""
    for p in pos["snapshot"]["pieces"]:
        if p["id"] == k or p["kind"] not in ("kubb", "king"):
            continue
        r = rulings.get(p["id"], {})
        pose = r.get("raised") or {"position": p["position"], "quat_xyzw": p["quat_xyzw"]}
        yield Box({"id": p["id"], "half_extents": p["half_extents"], **pose})


def _blocked(pos, k, square, rulings) -> bool:
    """The square overlaps another kubb standing, or raised by kubb3d in this attempt."""
    from independent_referee import _overlap

    for box in other_boxes(pos, k, rulings):
        if box.stands_alone() and _overlap(square, box.base_square()):
            return True
    return False


def _raised_upright(pos: dict[str, Any], theirs: dict[str, Any]) -> list[Check]:
    """Every pose kubb3d sets a piece up in is upright on its base (DM §5, §7)."""
    sizes = {p["id"]: p["half_extents"] for p in pos["snapshot"]["pieces"]}
    out = []
    for k, r in theirs["rulings"].items():
        if r.get("raised") is not None and k in sizes:
            ok = upright(r["raised"], sizes[k])
            out.append(Check("raise:upright", k, True, ok, f"{r['consequence']} at {r['raised']}"))
    return out

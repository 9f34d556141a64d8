"""Fouls of a DM baton throw, judged from the throw's record by the DM rule book's words.

DM §5: "Der Werfer muss mit beiden Füßen innerhalb der imaginär verlängerten Seitenlinien
stehen. Der Wurf ist einhändig von unten nach vorn auszuführen. Rückwärts oder vorwärts
gerichtete Rotationen sind dabei erlaubt, eine Schieflage von mehr als 30 ° ist dagegen
verboten." and "Das Überschreiten der Grundlinie bzw. vorverlegten Wurflinie während oder
infolge der Wurfbewegung ist nicht gestattet." The consequence ("Sämtliche Vergehen werden
bestraft, indem die jeweils gefallenen Kubbs wieder aufgestellt werden, ohne dass der Wurf
wiederholt werden darf") is independent_referee.py's (``referee_throw(pos, legal)``).

READINGS:

* The foot: the toe of the front foot where the throw's parameters put it (independent_ws_
  referee.toes: ``foot_behind_line`` behind their line, or 0.40 m behind the release point,
  the parameters' documented stance), at the release and after the step that follows it
  ("während oder infolge der Wurfbewegung"), must not be past the line the match gave the
  throw (the action's ``line_x``: the baseline or the advance line, DM §8; where that line
  lies is not judged here). Its y within the extended sidelines.
* "Schieflage": the tilt of the plane the baton turns in out of the vertical plane of its
  flight, from the release: the angle between the spin axis (the release's angular velocity)
  and the horizontal normal of the flight direction. A forward or backward rotation turns in
  the vertical flight plane (0°); a flat "helicopter" turn is 90°. More than 30° is a foul;
  within 5° of the limit the measure at release is too coarse for a verdict (counted, not
  compared); with less than 0.5 rev/s of rotation it is not measured (counted).
* "Im Interesse des Sports ist hier zunächst eine Verwarnung auszusprechen": a warning is the
  referee's discretion; every foul is compared as a foul.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from independent_ws_referee import LINE_TOL, toes
from play_check import Check

TILT_MAX = 30.0  # deg, DM §5
TILT_GRAY = 5.0  # deg either side of the limit: counted, not compared (READING)
SPIN_MIN = 0.5  # rev/s: less rotation than this: the tilt is not measured


def dm_throw_validity(pos: dict[str, Any]) -> dict[str, Any]:
    """The fouls of a DM baton throw (module doc): ``foot_ok``, ``sides_ok``, ``tilt_deg``,
    ``tilt_ok`` (None: not decided) and ``valid`` (None: not decided)."""
    throws = pos.get("action", {}).get("throws") or []
    side = pos["ctx"]["thrower"]
    hw = pos["snapshot"]["pitch"]["width"] / 2
    line = pos.get("action", {}).get("line_x")
    if not throws or line is None:
        return {"valid": None, "foot_ok": True, "sides_ok": True, "tilt_ok": None, "tilt_deg": None, "line": line}
    t = throws[0]
    toe, step_toe = toes(pos)
    if side == "A":
        foot_ok = max(toe, step_toe) <= line + LINE_TOL
    else:
        foot_ok = min(toe, step_toe) >= line - LINE_TOL
    p = t.get("params") or {}
    foot_y = p.get("foot_lateral") if p.get("foot_lateral") is not None else p.get("lateral", 0.0)
    sides_ok = abs(foot_y) <= hw + LINE_TOL
    w = np.array(t["release"]["angular_velocity_radps"], dtype=float)
    v = np.array(t["release"]["velocity_mps"], dtype=float)
    n = np.array([-v[1], v[0], 0.0])
    tilt = None
    tilt_ok: bool | None = None
    if np.linalg.norm(w) / (2 * math.pi) >= SPIN_MIN and np.linalg.norm(n) > 0:
        cos = abs(float(w @ n)) / (float(np.linalg.norm(w)) * float(np.linalg.norm(n)))
        tilt = math.degrees(math.acos(min(1.0, cos)))
        if tilt > TILT_MAX + TILT_GRAY:
            tilt_ok = False
        elif tilt <= TILT_MAX - TILT_GRAY:
            tilt_ok = True
    valid: bool | None = foot_ok and sides_ok and tilt_ok is True
    if foot_ok and sides_ok and tilt_ok is None:
        valid = None
    return {
        "valid": valid,
        "foot_ok": bool(foot_ok),
        "sides_ok": bool(sides_ok),
        "tilt_ok": tilt_ok,
        "tilt_deg": tilt,
        "line": line,
        "toe": toe,
        "step_toe": step_toe,
    }


def dm_validity_checks(pos: dict[str, Any], v: dict[str, Any]) -> list[Check]:
    """DM §5's fouls against kubb3d's: ``throw:foul-line`` (the foot, the sidelines),
    ``throw:foul-tilt`` (a tilt near the limit or not measured is counted), ``throw:valid``."""
    call = pos["call"]
    ctx = pos["ctx"]
    reasons = " ".join(r for _, r in ctx.get("violations", []))
    theirs_foot = "foot fault" in reasons
    theirs_tilt = "tilted" in reasons or "helicopter" in reasons
    tilt = "-" if v["tilt_deg"] is None else f"{v['tilt_deg']:.0f}"
    note = f"tilt {tilt} deg, toe {v.get('toe')}, line {v['line']}; kubb3d {reasons or 'no foul'}"
    out = [Check("throw:foul-line", "-", not (v["foot_ok"] and v["sides_ok"]), theirs_foot, note, call)]
    if v["tilt_ok"] is None:
        said = "foul" if theirs_tilt else "no foul"
        kind = f"throw:foul-tilt(info, near the limit or not measured; kubb3d {said})"
        out.append(Check(kind, "-", "-", "-", note, call))
    else:
        out.append(Check("throw:foul-tilt", "-", not v["tilt_ok"], theirs_tilt, note, call))
    if v["valid"] is not None:
        out.append(Check("throw:valid", "-", v["valid"], bool(ctx["legal"]), note, call))
    return out

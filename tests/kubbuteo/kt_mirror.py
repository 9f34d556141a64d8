"""Mirror a recorded Kubbuteo position: the same situation with the ends swapped or seen from
the other side of the board, so that a stored case checks its whole kind, not one example.

* ``swap``: the board turned end for end about the centre line (x → -x) and the sides' names
  swapped (A1 ↔ B1 …, the thrower, the returning side), so that end A's flick becomes end B's;
* ``flip``: the board mirrored left to right (y → -y).

A mirror is a reflection: positions and linear velocities change the sign of the mirrored
coordinate, orientations and angular velocities (axial vectors) the two others. Kubbuteo's
pieces are symmetric under both mirrors (KT Equipment: disks and a round king), so the mirrored
position is one the physics could have produced, and every ruling must mirror with it.
"""

from __future__ import annotations

import copy
from typing import Any


def _axis(kind: str) -> int:
    return 0 if kind == "swap" else 1


def _vec(v, i: int):
    out = list(v)
    out[i] = -out[i]
    return out


def _axial(v, i: int):
    return [-c if j != i else c for j, c in enumerate(v)]


def _quat(q, i: int):
    x, y, z, w = q
    ax = _axial((x, y, z), i)
    return [ax[0], ax[1], ax[2], w]


def _name(s: Any, kind: str) -> Any:
    if kind != "swap" or not isinstance(s, str):
        return s
    if s in ("A", "B"):
        return "B" if s == "A" else "A"
    if len(s) >= 2 and s[0] in "AB" and s[1:].isdigit():
        return ("B" if s[0] == "A" else "A") + s[1:]
    return s


def _pose(p: dict[str, Any], i: int) -> dict[str, Any]:
    return {**p, "position": _vec(p["position"], i), "quat_xyzw": _quat(p["quat_xyzw"], i)}


def mirror_position(pos: dict[str, Any], kind: str) -> dict[str, Any]:
    """The position (kt_play_positions.py format) under the mirror ``kind`` (``swap``/``flip``)."""
    i = _axis(kind)
    out = copy.deepcopy(pos)
    snap = out["snapshot"]
    pieces = []
    for p in snap["pieces"]:
        q = _pose(p, i)
        q["id"] = _name(p["id"], kind)
        q["side"] = _name(p.get("side"), kind)
        q["linear_velocity"] = _vec(p["linear_velocity"], i)
        q["angular_velocity"] = _axial(p["angular_velocity"], i)
        q["com_local"] = _vec(p["com_local"], i)  # the body is mirrored in its own frame too
        pieces.append(q)
    snap["pieces"] = sorted(pieces, key=lambda p: p["id"])
    contacts = []
    for c in snap["contacts"]:
        contacts.append(
            {
                **c,
                "a": _name(c["a"], kind),
                "b": _name(c["b"], kind),
                "position_on_a": _vec(c["position_on_a"], i),
                "position_on_b": _vec(c["position_on_b"], i),
                "normal_on_b": _vec(c["normal_on_b"], i),
            }
        )
    snap["contacts"] = contacts
    ctx = out["ctx"]
    for name, value in list(ctx.items()):
        if isinstance(value, dict) and name != "options":
            ctx[name] = {_name(k, kind): _pose(v, i) for k, v in value.items()}
        elif isinstance(value, list) and name != "violations":
            ctx[name] = sorted(_name(v, kind) for v in value) if name != "inkasted" else [_name(v, kind) for v in value]
        elif name in ("thrower", "inkasting_side"):
            ctx[name] = _name(value, kind)
    theirs = out["kubb3d"]
    rulings = {}
    for k, r in theirs["rulings"].items():
        r = dict(r)
        if r.get("raised"):
            r["raised"] = _pose(r["raised"], i)
        rulings[_name(k, kind)] = r
    theirs["rulings"] = rulings
    for name in ("winner", "loser"):
        theirs[name] = _name(theirs.get(name), kind)
    for name in ("felled", "felled_total", "raise_again", "raise_now"):
        if name in theirs:
            theirs[name] = sorted(_name(v, kind) for v in theirs[name])
    act = out.get("action") or {}
    if act.get("line_x") is not None and i == 0:
        act["line_x"] = -act["line_x"]
    if "side" in act:
        act["side"] = _name(act["side"], kind)
    if "kubbs" in act:
        act["kubbs"] = [_name(k, kind) for k in act["kubbs"]]
    for t in act.get("throws", []):
        rel = t.get("release")
        if rel:
            rel["position_m"] = _vec(rel["position_m"], i)
            rel["velocity_mps"] = _vec(rel["velocity_mps"], i)
            rel["angular_velocity_radps"] = _axial(rel["angular_velocity_radps"], i)
            rel["quat_xyzw"] = _quat(rel["quat_xyzw"], i)
        params = t.get("params")
        if params:  # what the referee reads of them: the side and line (swap), the lateral place (flip)
            if "side" in params:
                params["side"] = _name(params["side"], kind)
            if params.get("line_x") is not None and i == 0:
                params["line_x"] = -params["line_x"]
            if params.get("lateral") is not None and i == 1:
                params["lateral"] = -params["lateral"]
    return out


def mirror_prior(prior: dict[str, Any], kind: str) -> dict[str, Any]:
    """The independent referee's knowledge of the match under the same mirror."""
    out: dict[str, Any] = {}
    for k, v in prior.items():
        if isinstance(v, list):
            out[k] = sorted(_name(x, kind) for x in v)
        elif k == "line" and kind == "swap":
            out[k] = -v
        else:
            out[k] = v
    return out

"""A second referee for DM, written from the rule book's words, to check kubb3d's judge.

It decides from the poses of a position (:mod:`play_positions`) alone: piece boxes, their
centre of mass, the ground plane z = 0 and the pitch (5 × 8 m, DM §2; end A at x < 0).
kubb3d's judge code was not read to write it. Readings where DM is silent are marked
READING and listed in docs/examinations/2026-12-07-play.md.

Rules applied:

* Standing (DM §5 "Kubbs, welche sich nur mit Hilfe von Begrenzungspflöcken, Wurfhölzern oder
  anderen Kubbs aufrecht halten können, gelten als gefallen"; "ob ein Kubb allein stehfähig
  ist"). READING of "allein stehfähig": take every other piece away; the piece stands alone if
  one of its end faces rests on the ground and its centre of mass lies, seen from above,
  over that end face, so that gravity alone brings it back onto it. No tilt threshold is
  used: the tilt enters only through where the centre of mass falls.
* History (DM §5 "Steht ein solcher Kubb durch einen Folgewurf wieder selbstständig, gilt er
  trotzdem als gefallen. Das gleiche gilt nach einem Überschlag mit anschließendem Stehen.").
  READING: a kubb ruled felled earlier this round stays felled; a piece that went over
  ("Überschlag": its tilt this round, ``max_tilt``, the world's record, passed 90°) has
  fallen even if it stands now. A piece that only rocked, however far, and came back to
  stand alone without resting on anything is standing: DM names no tipping angle.
* Baseline kubbs (DM §5 "Fällt ein Grundlinienkubb, während in der dazugehörigen Feldhälfte
  noch Kubbs stehen, so gilt er nicht als gefallen, wird jedoch erst am Ende der Wurfrunde
  wieder am ursprünglichen Ort aufgestellt"). READING: "still stand" is judged at the start
  of the throw (a snapshot at rest has no order of falls).
* Fouls (DM §5 "Sämtliche Vergehen werden bestraft, indem die jeweils gefallenen Kubbs wieder
  aufgestellt werden"): nothing a foul throw fells counts.
* King (DM §1, §10): felled by a throw after every kubb of the target half was down (the king
  throw) wins for the thrower; felled before, by baton or kubb, loses for the thrower.
* Own half (DM §5 accident clause, READING): kubbs of the thrower's own half never count as
  felled by his throw.
* Inkast validity (DM §7 "Ein Kubb ist gültig, wenn er mit seiner gesamten Grundfläche im Feld
  steht. Bei größeren Pulks sind Kubbs generell gültig, sofern sie allein betrachtet gültig
  sind."; raising "ohne Drehen oder Verschieben über eine der kurzen Kanten"; "Sind Kubbs nur
  in eine Richtung gültig im Feld aufstellbar, so ist diese Richtung zu wählen"). READINGS:
  "im Feld" is the receiving half (DM §6 "in seine Feldhälfte"); a kubb is considered alone:
  it is laid flat about the ground edge of its lower end (a lying kubb is already flat; a
  leaning kubb falls onto its long side away from that edge's side, DM §7 "über diese Kante
  zu kippen ... über die andere Kante"), then raised over either short edge on the ground;
  valid if either base square lies wholly inside the half and does not touch the king
  (DM §7 "dürfen ihn beim Aufstellvorgang jedoch nicht berühren"). A kubb standing on an
  end face after the inkast is valid if that base lies wholly inside. A Stößel (no ground
  contact) is judged from the same theoretical position.
* Inkast, other pieces (DM §5 "Kubbs, welche ... aus Versehen ... zu Fall gebracht werden,
  werden umgehend wieder aufgestellt"): a standing kubb the inkast fells is set up again where
  it stood; a king it fells loses for whoever threw the kubb (DM §1). DM says nothing of a
  kubb that is only moved and still stands (WS basic rule 14 sets it back): not compared,
  only counted with kubb3d's ruling beside it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

GROUND_TOL = 0.003  # m: a corner this close to z = 0 touches the ground
MOVED_TOL = 0.005  # m: a piece whose centre moved more than this was moved
MOVED_TILT = math.radians(2.0)
EDGE_TOL = 1e-4  # m: footprints within this of a line are "borderline" (reported, not compared)


def rot(q) -> np.ndarray:
    x, y, z, w = q
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


class Box:
    """A kubb or the king: a box with long axis along its local z."""

    def __init__(self, d: dict[str, Any]):
        self.id = d["id"]
        self.h = np.array(d["half_extents"], float)
        self.c = np.array(d["position"], float)
        self.R = rot(d["quat_xyzw"])
        self.com = self.c + self.R @ np.array(d.get("com_local", (0.0, 0.0, 0.0)), float)
        self.max_tilt = float(d.get("max_tilt", 0.0))

    def end_corners(self, s: int) -> np.ndarray:
        hx, hy, hz = self.h
        local = np.array([[hx, hy, s * hz], [hx, -hy, s * hz], [-hx, -hy, s * hz], [-hx, hy, s * hz]])
        return self.c + local @ self.R.T

    def corners(self) -> np.ndarray:
        return np.vstack([self.end_corners(1), self.end_corners(-1)])

    def lower_end(self) -> int:
        return -1 if self.R[2, 2] > 0 else 1

    def stands_alone(self) -> bool:
        """DM §5 'allein stehfähig' (READING in the module doc)."""
        s = self.lower_end()
        base = self.end_corners(s)
        if self.corners()[:, 2].min() > GROUND_TOL or base[:, 2].min() > GROUND_TOL:
            return False
        return _inside_quad(self.com[:2], base[:, :2])

    def overturned(self) -> bool:
        """DM §5 'Überschlag': its tilt this round went past lying (90°) (READING)."""
        return self.max_tilt > math.pi / 2

    def down(self) -> bool:
        """Not standing alone, or it went over this round (DM §5)."""
        return (not self.stands_alone()) or self.overturned()

    def base_square_z(self) -> np.ndarray:
        return self.end_corners(self.lower_end())[:, 2]

    def base_square(self) -> np.ndarray:
        """The four ground corners of the end face it stands on, seen from above."""
        return self.end_corners(self.lower_end())[:, :2]

    def raise_squares(self) -> list[np.ndarray]:
        """Base squares after raising it alone over either short edge (READING, module doc)."""
        u3 = self.R[:, 2] * (-self.lower_end())  # from the lower end to the upper end
        u = u3[:2]
        if np.linalg.norm(u) < 1e-9:
            return [self.base_square()]
        u = u / np.linalg.norm(u)
        v = np.array([-u[1], u[0]])
        low = self.end_corners(self.lower_end())
        order = np.argsort(low[:, 2])
        pivot = low[order[:2]].mean(axis=0)[:2]  # the ground edge of the lower end
        s0 = float(pivot @ u)
        lat = float(self.c[:2] @ v)
        hw = float(max(self.h[0], self.h[1]))
        w = 2 * float(min(self.h[0], self.h[1]))
        length = 2 * float(self.h[2])
        out = []
        for a, b in ((s0 - w, s0), (s0 + length, s0 + length + w)):
            out.append(
                np.array(
                    [a * u + (lat - hw) * v, a * u + (lat + hw) * v, b * u + (lat + hw) * v, b * u + (lat - hw) * v]
                )
            )
        return out


def _inside_quad(p: np.ndarray, quad: np.ndarray) -> bool:
    signs = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        signs.append((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]))
    return all(s > 1e-12 for s in signs) or all(s < -1e-12 for s in signs)


def _overlap(p: np.ndarray, q: np.ndarray) -> bool:
    """Convex quads overlap (separating axis test; touching edges do not overlap)."""
    for poly in (p, q):
        for i in range(4):
            e = poly[(i + 1) % 4] - poly[i]
            n = np.array([-e[1], e[0]])
            a, b = p @ n, q @ n
            if a.max() <= b.min() + 1e-9 or b.max() <= a.min() + 1e-9:
                return False
    return True


def half_bounds(side: str, pitch: dict[str, float]) -> tuple[float, float, float]:
    """(x_min, x_max, y_abs) of the half of end ``side`` (A at x < 0)."""
    hl, hw = pitch["length"] / 2, pitch["width"] / 2
    return (-hl, 0.0, hw) if side == "A" else (0.0, hl, hw)


def square_margin(square: np.ndarray, side: str, pitch: dict[str, float]) -> float:
    """Smallest distance of the square's corners inside the half (negative: some corner out)."""
    x0, x1, yw = half_bounds(side, pitch)
    return float(min((square[:, 0] - x0).min(), (x1 - square[:, 0]).min(), (yw - np.abs(square[:, 1])).min()))


def _other(side: str) -> str:
    return "B" if side == "A" else "A"


def _half_of(pos) -> str:
    return "A" if pos[0] < 0 else "B"


def _moved(box: Box, pose: dict[str, Any], piece: dict[str, Any]):
    """(moved, shift m, turn rad, the box as it was) against an earlier pose."""
    before = Box({"id": piece["id"], "half_extents": piece["half_extents"], **pose})
    shift = float(np.linalg.norm(box.c - before.c))
    turn = math.acos(max(-1.0, min(1.0, float(box.R[:, 2] @ before.R[:, 2]))))
    return shift > MOVED_TOL or turn > MOVED_TILT, shift, turn, before


def upright(pose: dict[str, Any], half_extents) -> bool:
    """A pose a kubb can be *set up* in (DM §5 'wieder aufgestellt', §7 'auf ihre Grundfläche
    gekippt'): on an end face, flat on the ground (tilt under 1°, base within 3 mm of z = 0)."""
    box = Box({"id": "-", "half_extents": half_extents, **pose})
    tilt = math.acos(min(1.0, abs(float(box.R[2, 2]))))
    return tilt < math.radians(1.0) and abs(float(box.base_square_z().min())) <= GROUND_TOL


def referee_throw(
    pos: dict[str, Any], legal: bool | None = None, history: tuple[set[str], set[str]] | None = None
) -> dict[str, Any]:
    """Rulings on a baton throw: per kubb ``standing`` and ``ruling`` (``stands``,
    ``counts``, ``raise_end_of_round``, ``raise_again``), the king, and the verdict.
    ``legal``: whether the throw was without foul (independent_dm_throws.py); None: the
    match's (``ctx["legal"]``). ``history``: (the kubbs this referee counted as felled earlier in
    the round, the baseline kubbs it ruled felled early and raised at the round's end) from the
    round's earlier throws; None: the match's (``already_felled``, ``pending_raise``)."""
    snap, ctx = pos["snapshot"], dict(pos["ctx"])
    if legal is not None:
        ctx["legal"] = legal
    pieces = {p["id"]: p for p in snap["pieces"] if p["kind"] in ("kubb", "king")}
    thrower = ctx["thrower"]
    target = _other(thrower)
    hl = snap["pitch"]["length"] / 2
    start = ctx["round_start"]
    half = {k: _half_of(start[k]["position"]) for k in start if k != "king"}
    # READING: a baseline kubb stands on (or behind) its baseline: its base is not wholly
    # inside the field, which every raised field kubb's is (DM §7)
    hx = {k: min(pieces[k]["half_extents"][:2]) for k in half}
    baseline = {k for k in half if abs(start[k]["position"][0]) > hl - hx[k]}
    already, pending = (set(ctx["already_felled"]), set(ctx["pending_raise"])) if history is None else history
    target_kubbs = sorted(k for k, s in half.items() if s == target)
    field_standing = [k for k in target_kubbs if k not in baseline and k not in already and k not in pending]
    out: dict[str, Any] = {"pieces": {}, "field_standing_at_start": sorted(field_standing)}
    for k in sorted(half):
        box = Box(pieces[k])
        standing = box.stands_alone()
        down = box.down()
        if half[k] != target:
            ruling = "not_counted"  # own half: set up again or left; never felled
        elif k in already:
            ruling = "counts"
        elif k in pending:
            ruling = "raise_end_of_round"
        elif not down:
            ruling = "stands"
        elif not ctx["legal"]:
            ruling = "raise_again"
        elif k in baseline and field_standing:
            ruling = "raise_end_of_round"
        else:
            ruling = "counts"
        moved = None
        if half[k] != target and k in ctx["own_standing"]:
            moved = _moved(box, ctx["own_standing"][k], pieces[k])[0]
        out["pieces"][k] = {
            "moved": moved,
            "standing": standing,
            "down": down,
            "ruling": ruling,
            "half": half[k],
            "max_tilt_deg": math.degrees(box.max_tilt),
        }
    king = Box(pieces["king"])
    king_down = king.down()
    all_down = all(k in already for k in target_kubbs)
    winner = loser = None
    if king_down:
        if all_down and ctx["king_throw"] and ctx["legal"]:
            winner, loser = thrower, target
        elif all_down and ctx["king_throw"]:
            pass  # READING: a foul king throw: the king is set up again (DM §5), no verdict
        else:
            winner, loser = target, thrower
    out["king"] = {"standing": king.stands_alone(), "down": king_down, "all_down": all_down}
    out["winner_side"], out["loser_side"] = winner, loser
    return out


def referee_inkast(pos: dict[str, Any]) -> dict[str, Any]:
    """Rulings on an inkast attempt: per inkasted kubb ``valid`` (and the margin of its best
    base square inside the half), per other piece whether it must be set up again."""
    snap, ctx = pos["snapshot"], pos["ctx"]
    pitch = snap["pitch"]
    pieces = {p["id"]: p for p in snap["pieces"] if p["kind"] in ("kubb", "king")}
    receiving = _other(ctx["inkasting_side"])
    king = Box(pieces["king"])
    king_sq = king.base_square() if king.stands_alone() else None
    out: dict[str, Any] = {"inkasted": {}, "moved": {}}
    for k in ctx["inkasted"]:
        box = Box(pieces[k])
        if box.stands_alone():
            squares, how = [box.base_square()], "upright"
        else:
            squares, how = box.raise_squares(), "raised"
        margins = []
        for sq in squares:
            m = square_margin(sq, receiving, pitch)
            if king_sq is not None and _overlap(sq, king_sq):
                m = min(m, -1.0)  # would touch the king while raised
            margins.append(m)
        best = max(margins)
        choice, forced = None, False
        if how == "raised" and best >= 0:
            ok = [i for i, m in enumerate(margins) if m >= 0]
            # DM §7: the one valid direction; both valid: the raising side chooses (None)
            choice = ok[0] if len(ok) == 1 else None
            forced = len(ok) == 1
        axis_elevation = math.asin(min(1.0, abs(float(box.R[2, 2]))))
        out["inkasted"][k] = {
            "squares": [sq.tolist() for sq in squares],
            "choice": choice,
            "forced": forced,
            "flat": how == "raised" and axis_elevation < math.radians(2.0),
            "valid": best >= 0,
            "margin": best,
            "borderline": abs(best) < EDGE_TOL,
            "how": how,
            "on_ground": bool(box.corners()[:, 2].min() <= GROUND_TOL),
        }
    inkasted = set(ctx["inkasted"]) | set(ctx.get("awaiting", {}))
    king_fell = False
    for pid, pose in ctx["before"].items():
        if pid in inkasted or pid not in pieces:
            continue
        box = Box(pieces[pid])
        moved, shift, turn, before = _moved(box, pose, pieces[pid])
        stood = before.stands_alone()
        felled = stood and box.down()
        if pid == "king":
            king_fell = felled
        out["moved"][pid] = {"moved": moved, "felled": felled, "stood": stood, "shift": shift, "turn": turn}
    thrower = ctx.get("thrower") or ctx["inkasting_side"]
    out["loser_side"] = thrower if king_fell else None
    return out


def kubb3d_view_throw(pos: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
    """kubb3d's throw rulings in the independent referee's words."""
    out = {}
    raise_again = set(theirs.get("raise_again", ())) - set(theirs.get("raise_now", ()))
    for k, r in theirs["rulings"].items():
        if k == "king":
            continue
        c = r["consequence"]
        if c == "counts as felled":
            ruling = "counts"
        elif c in ("none", "set inside"):
            ruling = "stands"
        elif c == "raise at original spot":
            ruling = "raise_end_of_round" if k in raise_again else "raise_again"
        else:
            ruling = c
        out[k] = {"standing": r["status"] == "standing", "ruling": ruling}
    return out

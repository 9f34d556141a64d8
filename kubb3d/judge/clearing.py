"""The least move that clears a raised kubb's square base of the pieces it overlaps (kubb3d's
decision, docs/rules.md "Raising next to a disturbed kubb"): used when the straight push away
from a spot cannot clear it, e.g. a kubb between two spots less than a kubb's width apart."""

from __future__ import annotations

import math
from typing import Mapping, Sequence

from kubb3d.judge.geometry import Pt, overlap_depth, square
from kubb3d.judge.params import JudgeParams

DIRECTIONS = 72  # every 5°, symmetric about the pitch's long axis
REACH = 3.0  # m, the farthest a base is moved


def overlaps(centre: Pt, d2: Pt, half: float, obstacles: Mapping[str, Sequence[Pt]], params: JudgeParams) -> bool:
    """Whether the square base (centre, side direction ``d2``, half side ``half``, m) overlaps
    any obstacle by more than ``params.block_tol``."""
    base = square(centre, d2, half)
    return any(overlap_depth(base, poly) > params.block_tol for poly in obstacles.values())


def _directions() -> list[Pt]:
    """Unit directions every 360°/DIRECTIONS, each with its exact mirror (y → −y)."""
    out: list[Pt] = []
    for i in range(DIRECTIONS // 2 + 1):
        ang = 2 * math.pi * i / DIRECTIONS
        c, s = math.cos(ang), math.sin(ang)
        out.append((c, s))
        if 0 < i < DIRECTIONS // 2:
            out.append((c, -s))
    return out


def nearest_clear(
    centre: Pt, d2: Pt, half: float, obstacles: Mapping[str, Sequence[Pt]], params: JudgeParams
) -> tuple[Pt, float] | None:
    """The centre nearest ``centre`` (searched along 72 directions, stepping a quarter of
    ``half``, then bisected to 1e-9 m so the base touches what stops it) where the square base
    overlaps no obstacle by more than ``params.block_tol``, and the distance moved, m; None if
    none lies within ``REACH``. Equal distances (to 1e-9 m): nearer the long axis (y = 0), then
    farther from the centre line (towards the end of the half, to the micrometre, as
    :func:`outward`), then towards +y, so a situation mirrored across either axis of the pitch
    is cleared mirrored."""
    if not overlaps(centre, d2, half, obstacles, params):
        return centre, 0.0
    step = half / 4
    best: tuple[tuple[float, float, float, float], Pt, float] | None = None
    for ux, uy in _directions():
        far = REACH if best is None else best[2]
        hit, t = 0.0, step
        while t <= far + step:
            if not overlaps((centre[0] + ux * t, centre[1] + uy * t), d2, half, obstacles, params):
                break
            hit, t = t, t + step
        else:
            continue
        low, high = hit, t
        for _ in range(60):
            if high - low <= 1e-10:
                break
            mid = (low + high) / 2
            if overlaps((centre[0] + ux * mid, centre[1] + uy * mid), d2, half, obstacles, params):
                low = mid
            else:
                high = mid
        spot = (centre[0] + ux * high, centre[1] + uy * high)
        key = (round(high, 9), round(abs(spot[1]), 6), -round(abs(spot[0]), 6), -spot[1])
        if best is None or key < best[0]:
            best = (key, spot, high)
    return None if best is None else (best[1], best[2])


def outward(centre: Pt) -> Pt:
    """The way to push a base centred on what it overlaps (no way is nearer): away from the
    centre line, towards the end of the half it is in; on the centre line (to 1e-9 m), away from
    the long axis; at the pitch's centre, +x (kubb3d's decision: a mirrored or side-swapped
    situation is pushed the mirrored way, docs/rules.md "Raising next to a disturbed kubb")."""
    x, y = centre
    if abs(x) > 1e-9:
        return (math.copysign(1.0, x), 0.0)
    if abs(y) > 1e-9:
        return (0.0, math.copysign(1.0, y))
    return (1.0, 0.0)


def push_clear(
    centre: Pt, d2: Pt, half: float, obstacles: Mapping[str, Sequence[Pt]], params: JudgeParams
) -> tuple[Pt, str] | None:
    """Move a square base (centre, side direction ``d2``, half side ``half``, m) straight away
    from the obstacles it overlaps until it only touches them: each step away from the obstacle
    it overlaps deepest (from the middle of those it overlaps equally deep, to 1e-9 m), by that
    depth; (new centre, the obstacle it overlapped deepest at first, by id only on a tie), or
    None if it overlaps nothing; centred on what it is pushed away from, :func:`outward`. At
    most 50 steps. Neither the ids nor the order of ``obstacles`` change where it ends, and a
    mirrored or side-swapped situation ends at the image spot
    (tests/judge/test_clearing_relations.py)."""
    cx, cy = centre
    first = None
    for _ in range(50):
        base = square((cx, cy), d2, half)
        hits = []
        for oid, poly in obstacles.items():
            depth = overlap_depth(base, poly)
            if depth > params.block_tol:
                hits.append((-round(depth, 9), oid, depth, poly))
        if not hits:
            break
        hits.sort(key=lambda h: h[:2])
        if first is None:
            first = hits[0][1]
        tied = [poly for key, _, _, poly in hits if key == hits[0][0]]
        ox = sum(x for poly in tied for x, _ in poly) / sum(len(poly) for poly in tied)
        oy = sum(y for poly in tied for _, y in poly) / sum(len(poly) for poly in tied)
        vx, vy = cx - ox, cy - oy
        n = math.hypot(vx, vy)
        vx, vy = (vx / n, vy / n) if n > 1e-9 else outward((cx, cy))
        step = hits[0][2] + params.block_tol
        cx, cy = cx + vx * step, cy + vy * step
    return None if first is None else ((cx, cy), first)


def clear_of(
    centre: Pt, d2: Pt, half: float, obstacles: Mapping[str, Sequence[Pt]], params: JudgeParams
) -> tuple[Pt, str, float | None] | None:
    """A square base (as :func:`push_clear`) cleared of the obstacles it overlaps: None if it
    overlaps none; if it overlaps one and the straight push off that one clears it of all, (that
    centre, the obstacle, None); else (two overlapped, or the push ends on another) the least
    move of :func:`nearest_clear`: (its centre, the obstacle overlapped deepest, by id on a tie
    to 1e-9 m, the distance moved, m). Which id a piece has does not change where it ends."""
    base = square(centre, d2, half)
    depths = {oid: overlap_depth(base, poly) for oid, poly in obstacles.items()}
    hits = sorted((-round(depth, 9), oid) for oid, depth in depths.items() if depth > params.block_tol)
    if not hits:
        return None
    who = hits[0][1]
    if len(hits) == 1:
        pushed = push_clear(centre, d2, half, {who: obstacles[who]}, params)
        if pushed is not None and not overlaps(pushed[0], d2, half, obstacles, params):
            return pushed[0], who, None
    least = nearest_clear(centre, d2, half, obstacles, params)
    if least is None:  # nothing free within REACH: the straight push, as far as it goes
        pushed = push_clear(centre, d2, half, obstacles, params)
        return None if pushed is None else (pushed[0], pushed[1], None)
    return least[0], who, least[1]

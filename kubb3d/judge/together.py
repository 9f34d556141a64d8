"""Raising the lying kubbs of one inkast together (DM §7 "so aufzustellen, dass möglichst alle
mit ihrer gesamten Grundfläche im Feld stehen"; WS basic rule 13): which kubbs' raisings can
meet, how much each could at best be, and the depth-first search over raising orders and
directions of :meth:`kubb3d.judge.raising._RaisingPlan.raise_lying_jointly`. Pure; the plan is
changed in place.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kubb3d.judge.geometry import footprint

if TYPE_CHECKING:
    from kubb3d.judge.raising import _RaisingPlan
    from kubb3d.judge.tipping import Poly, TipOption

    _PlanState = tuple[dict[str, Poly], dict[str, TipOption | None], dict[str, list[TipOption]], dict[str, str]]
    """What raising changes in a plan: obstacles, chosen, options, notes."""

RAISING_SEARCH_STEPS = 500
"""Most kubbs raised while searching how to raise one group of lying kubbs together (DM §7
"möglichst alle"): the search then keeps the best raising found, the preferred one first."""


def _where(opt: TipOption | None) -> tuple[float, float] | None:
    """Where a raising puts a kubb, to the micrometre (None: invalid, it stays lying)."""
    return None if opt is None else (round(opt.pose.position[0], 6), round(opt.pose.position[1], 6))


def reach(plan: _RaisingPlan, kid: str) -> tuple[float, float, float, float]:
    """Bounding box (x0, y0, x1, y1, m) of lying kubb ``kid`` and both its unblocked tipping
    squares, widened by a kubb width (a tip in from the line, a push off a spot): where its
    raised base can end up."""
    if kid not in plan.reaches:
        p = plan.pieces[kid]
        pts = list(footprint(p))
        for o in plan.tips(kid, {}):
            pts += o.ideal
        grow = 2 * p.half_extents[0]
        xs, ys = [x for x, _ in pts], [y for _, y in pts]
        plan.reaches[kid] = (min(xs) - grow, min(ys) - grow, max(xs) + grow, max(ys) + grow)
    return plan.reaches[kid]


def groups(plan: _RaisingPlan, kids: list[str]) -> list[list[str]]:
    """``kids`` split into groups whose reaches (:func:`reach`) meet, each in ``kids``' order,
    the groups in the order of their first kubb."""
    boxes = {k: reach(plan, k) for k in kids}
    label = {k: i for i, k in enumerate(kids)}

    def meet(a: str, b: str) -> bool:
        (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = boxes[a], boxes[b]
        return ax0 <= bx1 and bx0 <= ax1 and ay0 <= by1 and by0 <= ay1

    for i, a in enumerate(kids):
        for b in kids[i + 1 :]:
            if meet(a, b) and label[a] != label[b]:
                old, new = max(label[a], label[b]), min(label[a], label[b])
                label = {k: new if v == old else v for k, v in label.items()}
    out: dict[int, list[str]] = {}
    for k in kids:
        out.setdefault(label[k], []).append(k)
    return list(out.values())


def bound(plan: _RaisingPlan, kid: str, group: list[str]) -> tuple[int, int]:
    """At most (valid, wholly inside) that lying kubb ``kid`` of ``group`` can be, whatever the
    others of the group do: what it gets raised alone against the pieces not in the group,
    or (1, 1) if one of its tipping squares, slid back towards the kubb further than those
    pieces already push it (tipped up against a kubb of the group), fits inside the half.
    Pushes off a spot (a few mm) are not counted."""
    others = {o: poly for o, poly in plan.obstacles.items() if o != kid and o not in group}
    kept, plan.obstacles = plan.obstacles, others
    try:
        alone = plan.raisings(kid)
    finally:
        plan.obstacles = kept
    got = (0, 0)
    for opt, _ in alone:
        if opt is not None:
            got = max(got, (1, int(opt.inside)))
    if got == (1, 1):
        return got
    p = plan.pieces[kid]
    lo, hi = (-plan.pitch.length / 2, 0.0) if plan.half_side == "A" else (0.0, plan.pitch.length / 2)
    hw, tol = plan.pitch.half_width, plan.params.line_tol
    width = 2 * p.half_extents[0]
    for o in plan.options[kid]:
        # the square slides back along its tipping direction, at most onto the kubb's own end
        cx = sum(x for x, _ in o.ideal) / 4
        cy = sum(y for _, y in o.ideal) / 4
        bx = sum(x for x, _ in o.base) / 4
        by = sum(y for _, y in o.base) / 4
        n = math.hypot(cx - p.position[0], cy - p.position[1]) or 1.0
        dx, dy = (cx - p.position[0]) / n, (cy - p.position[1]) / n
        s_lo, s_hi = -width - 2 * plan.params.block_tol, (bx - cx) * dx + (by - cy) * dy
        for x, y in o.ideal:
            for value, rate, low, high in ((x, dx, lo - tol, hi + tol), (y, dy, -hw - tol, hw + tol)):
                if abs(rate) < 1e-12:
                    if not low <= value <= high:
                        s_lo, s_hi = 1.0, 0.0
                    continue
                a, b = (low - value) / rate, (high - value) / rate
                s_lo, s_hi = max(s_lo, min(a, b)), min(s_hi, max(a, b))
        if s_lo <= s_hi + 1e-12:
            return (1, 1)
    return got


def saved(plan: _RaisingPlan) -> _PlanState:
    """A copy of what raising changes (obstacles, chosen, options, notes)."""
    return dict(plan.obstacles), dict(plan.chosen), dict(plan.options), dict(plan.notes)


def restore(plan: _RaisingPlan, state: _PlanState) -> None:
    """The plan as :func:`saved` copied it (copied again, so ``state`` stays as it is)."""
    plan.obstacles, plan.chosen = dict(state[0]), dict(state[1])
    plan.options, plan.notes = dict(state[2]), dict(state[3])


def unraise(plan: _RaisingPlan, kid: str, state: _PlanState) -> None:
    """Kubb ``kid`` back as it was in ``state`` (lying, not raised yet)."""
    plan.obstacles[kid] = state[0][kid]
    plan.chosen.pop(kid, None)
    plan.options.pop(kid, None)
    plan.notes.pop(kid, None)
    if kid in state[3]:
        plan.notes[kid] = state[3][kid]


def search(plan: _RaisingPlan, group: list[str]) -> None:
    """The depth-first search of :meth:`_RaisingPlan.raise_lying_jointly` over one group: at each
    depth every kubb not raised yet (in ``group``'s order) with each of its raisings; a set of
    raised kubbs standing where an earlier branch put them is not searched again. Kubbs that
    cannot be valid (:func:`bound`) are left lying first. Leaves the best raising found in
    ``plan``."""
    start = saved(plan)
    bounds = {kid: bound(plan, kid, group) for kid in group}
    while any(b == (0, 0) for b in bounds.values()):
        # a kubb that cannot be valid stays where it lies, whatever the others do
        for kid in [k for k in group if bounds[k] == (0, 0)]:
            restore(plan, start)
            plan.take(kid, plan.raisings(kid)[0])
            start = saved(plan)
        group = [k for k in group if bounds[k] != (0, 0)]
        bounds = {kid: bound(plan, kid, group) for kid in group}
    restore(plan, start)
    best: tuple[int, int] | None = None
    best_state = start
    seen: set[tuple[tuple[str, tuple[float, float] | None], ...]] = set()
    steps = 0

    def add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
        return a[0] + b[0], a[1] + b[1]

    total = (0, 0)
    for kid in group:
        total = add(total, bounds[kid])

    def deeper(done: tuple[str, ...], score: tuple[int, int]) -> bool:
        """True: stop searching (every kubb at its bound, or out of steps)."""
        nonlocal best, best_state, steps
        left = [kid for kid in group if kid not in done]
        rest = (0, 0)
        for kid in left:
            rest = add(rest, bounds[kid])
        if best is not None and add(score, rest) <= best:
            return False  # cannot beat the best found
        if not left:
            best, best_state = score, saved(plan)
            return score == total
        here = saved(plan)
        for kid in left:
            restore(plan, here)
            raisings = plan.raisings(kid)
            ready = saved(plan)
            for raising in raisings:
                steps += 1
                gained = add(score, plan.take(kid, raising))
                key = tuple(sorted((k, _where(plan.chosen[k])) for k in done + (kid,)))
                if key not in seen:
                    seen.add(key)
                    if deeper(done + (kid,), gained):
                        return True
                restore(plan, ready)
                if steps >= RAISING_SEARCH_STEPS:
                    return True
        return False

    deeper((), (0, 0))
    restore(plan, best_state)

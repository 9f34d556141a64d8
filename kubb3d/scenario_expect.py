"""The expectations of a scenario file (``[[expect]]``, ``[outcome]``) against the rulings.

Expectations are written for the file's own options (its ``[options]``, else the rule book's
defaults). Judged under other options (``kubb3d judge --option``), a scenario is judged a
second time under its own, and only what the options leave unchanged is compared: the
expectations of the pieces whose ruling they change (and the outcome, if it changes) are not
(docs/scenarios.md).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Iterable

from kubb3d.ranges import listed

if TYPE_CHECKING:
    from kubb3d.judge.rulings import Ruling
    from kubb3d.scenario_spec import ScenarioSpec


OUTCOME = ("winner", "loser", "penalty")
"""The fields of ``[outcome]``, compared with the judgement's of the same names."""


def touched(own: Any, other: Any) -> tuple[str, ...]:
    """The pieces whose ruling differs between two judgements of one scenario (``own``: under
    its own options, ``other``: under others), and ``outcome`` if the outcome does; sorted."""
    a, b = {r.piece: r for r in own.rulings}, {r.piece: r for r in other.rulings}
    out = sorted(p for p in a.keys() | b.keys() if a.get(p) != b.get(p))
    if any(getattr(own, n, None) != getattr(other, n, None) for n in OUTCOME):
        out.append("outcome")
    return tuple(out)


def compare(spec: ScenarioSpec, judgement: Any, skip: Iterable[str] = ()) -> list[str]:
    """Differences between a judgement and the file's expectations (empty: as expected); the
    pieces ``skip`` (and ``outcome`` if there) are not compared."""
    out = []
    skip = set(skip)
    by = {r.piece: r for r in judgement.rulings}
    for e in spec.expect:
        if e.piece in skip:
            continue
        r: Ruling | None = by.get(e.piece)
        if r is None:
            out.append(f"{e.piece}: expected a ruling, got none")
            continue
        if e.status is not None and r.status != e.status:
            out.append(f"{e.piece}: status expected {e.status.value!r}, got {r.status.value!r} ({r.reason})")
        if e.consequence is not None and r.consequence != e.consequence:
            out.append(
                f"{e.piece}: consequence expected {e.consequence.value!r}, got {r.consequence.value!r} ({r.reason})"
            )
        missing = [c for c in e.rules if c not in r.rules]
        if missing:
            out.append(f"{e.piece}: expected citations {listed(missing)}, got {listed(r.rules)}")
        if e.hand_check is not None and r.hand_check != e.hand_check:
            out.append(f"{e.piece}: hand_check expected {e.hand_check}, got {r.hand_check}")
        if e.valid is not None and r.valid != e.valid:
            out.append(f"{e.piece}: valid expected {e.valid}, got {r.valid}")
        if e.raised_at is not None:
            if r.raised_pose is None:
                out.append(f"{e.piece}: expected a raised pose at {list(e.raised_at)}, got none")
            else:
                dx = math.dist(e.raised_at, r.raised_pose.position[:2])
                if dx > e.tol_m:
                    got = [round(c, 3) for c in r.raised_pose.position[:2]]
                    out.append(f"{e.piece}: raised at expected {list(e.raised_at)} ± {e.tol_m} m, got {got}")
    if spec.outcome is not None and "outcome" not in skip:
        for name in ("winner", "loser", "penalty"):
            want = getattr(spec.outcome, name)
            ruled = getattr(judgement, name, None)
            if want is not None and want != ruled:
                out.append(f"outcome.{name}: expected {want!r}, got {ruled!r}")
        if spec.outcome.winner is None and spec.outcome.loser is None:
            pass
    return out


def count(spec: ScenarioSpec, skip: Iterable[str] = ()) -> int:
    """How many expectations :func:`compare` compares: the ``[[expect]]`` tables of the pieces
    not in ``skip``, and ``[outcome]`` (one) unless ``outcome`` is in ``skip``."""
    skip = set(skip)
    pieces = sum(1 for e in spec.expect if e.piece not in skip)
    return pieces + int(spec.outcome is not None and "outcome" not in skip)

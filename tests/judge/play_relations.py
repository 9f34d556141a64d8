"""The judge's metamorphic relations on positions of simulated play.

The relations of tests/judge/test_metamorphic.py (a mirror of the pitch across its long axis,
a swap of sides, a relabelling of kubbs), applied to the referee calls of real matches
(:mod:`play_positions`): pieces at rest as the physics left them, leaning on each other,
stacked or lying on batons, touching the stakes, with their contacts and tilt records, and the
whole context the match engine gave the judge (sides, thrower, field kubbs, pending raises,
round-start poses, the poses of an inkast's earlier attempt). The snapshot and the context are
transformed with :class:`helpers.Transform`, the judge rules on both, and its judgement must
be the image of the first one (:func:`helpers.assert_judgement_follows`): the same statuses,
consequences, citations and verdicts, the raised poses moved with the pitch (every corner of
the raised kubb within 0.1 mm of its image), the reasons the same sentences with the pieces,
sides and spots renamed and moved (a list of pieces in any order: the judge lists some by id,
which a renaming reorders).

A failure names the position, the relation and what differs, with the smallest distance of a
kubb corner to a line of the pitch: under :data:`ROUNDING_M` it can be a rounding case (a
corner on the line, on the other side of it once transformed), anything else is a bug of the
judge or of the transform. Used by tests/judge/test_play_metamorphic.py and
benchmarks/play_metamorphic.py.
"""

from __future__ import annotations

import math
from typing import Any, Iterable

import numpy as np
from helpers import BODY_FLIP_X, HALF_TURN, MIRROR_Y, Transform, assert_judgement_follows
from play_positions import context_from_dict, judge_call

from kubb3d.pitch import BATON_IDS, baseline_ids
from kubb3d.snapshot import Snapshot

ROUNDING_M = 1e-9
"""A corner nearer a line than this may be on either side of it after a transform by rounding."""

KUBB_IDS = baseline_ids("A") + baseline_ids("B")


def relabelling(rng: np.random.Generator) -> Transform:
    """A random renaming of the ten kubbs, across the sides too (the judge knows a kubb's half
    from its ``side``, never from its id), and of the six batons."""
    order = [str(k) for k in rng.permutation(KUBB_IDS)]
    batons = [str(k) for k in rng.permutation(BATON_IDS)]
    return Transform(names=dict(zip(KUBB_IDS, order)) | dict(zip(BATON_IDS, batons)))


def transforms(position: dict[str, Any]) -> dict[str, Transform]:
    """The relations for one position: the mirror twice, with either choice of the box axis
    it flips (:class:`helpers.Transform`: the judge must not tell them apart), the swap of sides
    and a relabelling drawn from the position's seed and call."""
    rng = np.random.default_rng([int(position["seed"]), int(position["call"])])
    return {
        "mirror y": Transform(MIRROR_Y),
        "mirror y, box x flipped": Transform(MIRROR_Y, body_flip=BODY_FLIP_X),
        "sides swapped": Transform(HALF_TURN, swap_sides=True),
        "kubbs relabelled": relabelling(rng),
    }


# ---------------------------------------------------------------------- lines
def line_distance(snapshot: Snapshot, pids: Iterable[str] | None = None) -> tuple[float, str]:
    """The smallest distance of a kubb corner (or the king's) to a line of the pitch (a
    sideline, a baseline, the centre line), m, and the piece: under :data:`ROUNDING_M` a
    relation may fail by rounding alone."""
    pitch = snapshot.pitch
    best = (math.inf, "")
    for pid, p in snapshot.pieces.items():
        if p.kind not in ("kubb", "king") or (pids is not None and pid not in pids):
            continue
        c = p.corners()
        d = min(
            float(np.min(np.abs(np.abs(c[:, 1]) - pitch.half_width))),
            float(np.min(np.abs(np.abs(c[:, 0]) - pitch.length / 2))),
            float(np.min(np.abs(c[:, 0]))),
        )
        best = min(best, (d, pid))
    return best


# ---------------------------------------------------------------------- what a position holds
def features(position: dict[str, Any]) -> set[str]:
    """What of real play a position holds (for the counts of the benchmark and the tests):
    ``kubb on kubb`` (a contact between two kubbs), ``kubb on baton``, ``on a stake``,
    ``tilt record`` (a kubb upright now that tilted past 5° this round), ``near a line`` (a
    kubb corner within 1 cm of a line), and kubb3d's answers: each ruling's status and
    consequence, ``raised`` (a raised pose), ``winner``."""
    snap = Snapshot.from_dict(position["snapshot"])
    kinds = {pid: p.kind for pid, p in snap.pieces.items()}
    out: set[str] = set()
    for c in snap.contacts:
        pair = {kinds.get(c.a, c.a), kinds.get(c.b, c.b)}
        if pair == {"kubb"}:
            out.add("kubb on kubb")
        elif pair == {"kubb", "baton"}:
            out.add("kubb on baton")
        elif "stake" in pair and pair & {"kubb", "king", "baton"}:
            out.add("on a stake")
    for p in snap.pieces.values():
        if p.kind == "kubb" and p.max_tilt > math.radians(5) and min(p.tilt, math.pi - p.tilt) < math.radians(5):
            out.add("tilt record")
    if line_distance(snap)[0] < 0.01:
        out.add("near a line")
    for r in position["kubb3d"]["rulings"].values():
        out.add(f"status {r['status']}")
        out.add(f"consequence {r['consequence']}")
        if r["raised"] is not None:
            out.add("raised")
    if position["kubb3d"].get("winner"):
        out.add("winner")
    return out


# ---------------------------------------------------------------------- one check
def check(position: dict[str, Any], name: str, transform: Transform) -> str | None:
    """None if kubb3d's judgement of the transformed position is the image of its judgement of
    the position, else what differs (with the nearest corner to a line)."""
    kind = position["kind"]
    snap = Snapshot.from_dict(position["snapshot"])
    ctx = context_from_dict(kind, position["ctx"])
    before = judge_call(kind, snap, ctx)
    after = judge_call(kind, transform.snapshot(snap), transform.context(ctx))
    try:
        assert_judgement_follows(before, after, transform, dict(snap.pieces))
    except AssertionError as exc:
        d, pid = line_distance(snap)
        rounding = " (a rounding case)" if d < ROUNDING_M else ""
        return (
            f"{position['ruleset']} seed {position['seed']} call {position['call']} ({kind}), {name}: {exc}; "
            f"nearest corner to a line {d:.2e} m ({pid}){rounding}"
        )
    return None


def check_all(positions: Iterable[dict[str, Any]]) -> tuple[int, int, list[str]]:
    """(positions, relations checked, failures) over ``positions``, every relation each."""
    n = checked = 0
    failures: list[str] = []
    for position in positions:
        n += 1
        for name, transform in transforms(position).items():
            checked += 1
            problem = check(position, name, transform)
            if problem:
                failures.append(problem)
    return n, checked, failures

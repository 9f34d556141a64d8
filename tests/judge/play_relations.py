"""The judge's metamorphic relations on positions of simulated play.

The relations of tests/judge/test_metamorphic.py (a mirror of the pitch across its long axis,
a swap of sides, a relabelling of kubbs), applied to the referee calls of real matches
(:mod:`play_positions`): pieces at rest as the physics left them, leaning on each other,
stacked or lying on batons, touching the stakes, with their contacts and tilt records, and the
whole context the match engine gave the judge (sides, thrower, field kubbs, pending raises,
round-start poses, the poses of an inkast's earlier attempt). The snapshot and the context are
transformed with :class:`helpers.Transform`, the judge rules on both, and its judgement must
be the image of the first one: the same statuses, consequences, citations and verdicts, the
raised poses moved with the pitch (every corner of the raised kubb within 0.1 mm of its
image), the reasons the same sentences with the pieces, sides and spots renamed and moved (a
list of pieces in any order: the judge lists some by id, which a renaming reorders).

A failure names the position, the relation and what differs, with the smallest distance of a
kubb corner to a line of the pitch: under :data:`ROUNDING_M` it can be a rounding case (a
corner on the line, on the other side of it once transformed), anything else is a bug of the
judge or of the transform. Used by tests/judge/test_play_metamorphic.py and
benchmarks/play_metamorphic.py.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Iterable

import numpy as np
from helpers import HALF_TURN, MIRROR_Y, Transform, assert_rulings_follow
from play_positions import context_from_dict, judge_call

from kubb3d.judge.messages import message_data
from kubb3d.pitch import BATON_IDS, baseline_ids
from kubb3d.snapshot import PieceState, Snapshot

ROUNDING_M = 1e-9
"""A corner nearer a line than this may be on either side of it after a transform by rounding."""

SPOT_M = 1e-4
"""How far a raised kubb's corner (or a spot in a reason) may be from its image, m."""

KUBB_IDS = baseline_ids("A") + baseline_ids("B")


def relabelling(rng: np.random.Generator) -> Transform:
    """A random renaming of the ten kubbs, across the sides too (the judge knows a kubb's half
    from its ``side``, never from its id), and of the six batons."""
    order = [str(k) for k in rng.permutation(KUBB_IDS)]
    batons = [str(k) for k in rng.permutation(BATON_IDS)]
    return Transform(names=dict(zip(KUBB_IDS, order)) | dict(zip(BATON_IDS, batons)))


def transforms(position: dict[str, Any]) -> dict[str, Transform]:
    """The three relations for one position; the relabelling drawn from its seed and call."""
    rng = np.random.default_rng([int(position["seed"]), int(position["call"])])
    return {
        "mirror y": Transform(MIRROR_Y),
        "sides swapped": Transform(HALF_TURN, swap_sides=True),
        "kubbs relabelled": relabelling(rng),
    }


# ---------------------------------------------------------------------- what must follow
def _corners(p: PieceState, position, quat) -> np.ndarray:
    from dataclasses import replace

    return replace(p, position=tuple(position), quat_xyzw=tuple(quat)).corners()


def _same_corners(want: np.ndarray, got: np.ndarray) -> float:
    """The largest distance of a wanted corner to the nearest corner got, m."""
    return float(max(np.min(np.linalg.norm(got - w, axis=1)) for w in want))


def assert_raised_poses_follow(before, after, transform: Transform, pieces: dict[str, PieceState]) -> None:
    """Every raised pose (a ruling's, and an inkast's ``raised``) is the image of the first one:
    every corner of the raised piece within :data:`SPOT_M` of a corner of the image box."""

    def poses(j) -> dict[str, Any]:
        out = {f"ruling {r.piece}": (r.piece, r.raised_pose) for r in j.rulings if r.raised_pose is not None}
        out |= {f"raised {k}": (k, p) for k, p in getattr(j, "raised", {}).items()}
        return out

    mine, theirs = poses(before), poses(after)
    renamed = {k.split()[0] + " " + transform.name(pid): (pid, p) for k, (pid, p) in mine.items()}
    assert sorted(renamed) == sorted(theirs), (sorted(renamed), sorted(theirs))
    for key, (pid, pose) in renamed.items():
        piece = pieces[pid]
        want = transform.point(pose.position), transform.quat(pose.quat_xyzw)
        image = theirs[key][1]
        off = _same_corners(_corners(piece, *want), _corners(piece, image.position, image.quat_xyzw))
        assert off < SPOT_M, f"{key}: raised {off * 1000:.3f} mm from the image of {pid}'s pose"


BATON_WORDS = ("baton {n}", "Baton {n}")


def _follows(a: Any, b: Any, transform: Transform, where: str) -> None:
    """``b`` (a message's data, :func:`message_data`) is ``a`` transformed."""
    if isinstance(a, dict) and a.get("id") in BATON_WORDS:
        # a baton is named by its number (messages.piece_name: "baton 3")
        assert isinstance(b, dict) and b.get("id") == a["id"], (where, a, b)
        want = transform.name(f"baton{a['params']['n']}")
        assert f"baton{b['params']['n']}" == want, (where, a, b)
    elif isinstance(a, dict):
        assert isinstance(b, dict), (where, a, b)
        for key in ("id", "ctx", "plural", "n"):
            assert a.get(key) == b.get(key), (where, key, a.get(key), b.get(key))
        pa, pb = a.get("params", {}), b.get("params", {})
        assert sorted(pa) == sorted(pb), (where, sorted(pa), sorted(pb))
        names = set(pa)
        if {"x", "y"} <= names and all(isinstance(pa[k], numbers.Real) for k in "xy"):
            want = transform.point((pa["x"], pa["y"], 0.0))
            assert math.dist(want[:2], (pb["x"], pb["y"])) < SPOT_M, (where, "spot", want[:2], pb["x"], pb["y"])
            names -= {"x", "y"}
        for name in sorted(names):
            _follows(pa[name], pb[name], transform, f"{where}.{name}")
    elif isinstance(a, str):
        # a side, a piece id, or piece ids joined by commas (messages.ids of plain ids), in any
        # order: the judge lists some by id, which a renaming reorders
        if a in ("A", "B"):
            assert transform.side(a) == b, (where, a, b)
        else:
            assert sorted(transform.name(i) for i in a.split(", ")) == sorted(b.split(", ")), (where, a, b)
    elif isinstance(a, bool) or isinstance(a, numbers.Integral):
        assert a == b, (where, a, b)
    else:
        assert isinstance(b, numbers.Real) and abs(a - b) <= 1e-6 * max(1.0, abs(a)), (where, a, b)


def assert_reasons_follow(before, after, transform: Transform) -> None:
    """Every reason of ``after`` is the reason of the same ruling of ``before`` with every piece
    and side renamed and every spot moved (±0.1 mm; numbers ±1e-6 relative)."""
    theirs = {r.piece: r for r in after.rulings}
    for r in before.rulings:
        image = theirs[transform.name(r.piece)]
        a, b = message_data(r.reason), message_data(image.reason)
        assert a is not None and b is not None, ("reason not a message", r.reason, image.reason)
        try:
            _follows(a, b, transform, r.piece)
        except AssertionError as exc:
            raise AssertionError(f"{exc}: {r.reason!r} -> {image.reason!r}") from None


def assert_judgement_follows(before, after, transform: Transform, pieces: dict[str, PieceState]) -> None:
    """The whole judgement ``after`` is the image of ``before`` under ``transform``."""
    assert_rulings_follow(before, after, transform)
    assert_raised_poses_follow(before, after, transform, pieces)
    for name in ("warned", "penalty"):
        assert getattr(before, name, None) == getattr(after, name, None), name
    assert_reasons_follow(before, after, transform)


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

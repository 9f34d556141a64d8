"""The judge's metamorphic relations (tests/judge/test_metamorphic.py) on positions of real play.

Hand-built snapshots miss what simulated play leaves on the pitch: kubbs leaning on each
other, stacked or lying on batons, against the stakes, tilt records (``max_tilt``) of kubbs
that rocked and stood, inkasts a few millimetres from a line. Here every stored position of
tests/data/play_positions.json and every referee call of a short seeded DM match and a WS
match played now is transformed as a whole (snapshot and context, tests/judge/play_relations.py)
by a mirror across the pitch's long axis (with either box axis flipped to keep each piece's
rotation proper), a swap of sides (a half turn, A <-> B) and a relabelling of the kubbs and
batons, and kubb3d's judgement of the transformed position must be the image of its judgement
of the position: statuses, verdicts, raised poses, reasons. benchmarks/play_metamorphic.py
does the same on many matches.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from helpers import HALF_TURN, MIRROR_Y, Transform
from play_positions import context_from_dict, record_match
from play_relations import ROUNDING_M, check, check_all, features, line_distance, transforms

from kubb3d.snapshot import Snapshot

DATA = Path(__file__).resolve().parents[1] / "data" / "play_positions.json"
STORED = [case["position"] for case in json.loads(DATA.read_text(encoding="utf-8"))["cases"]]


def _id(position: dict) -> str:
    return f"{position['kind']}-seed{position['seed']}-call{position['call']}"


@pytest.mark.parametrize("position", STORED, ids=[_id(p) for p in STORED])
def test_stored_positions_follow_a_mirror_a_swap_and_a_relabelling(position):
    problems = [check(position, name, t) for name, t in transforms(position).items()]
    assert [p for p in problems if p] == []


def test_the_stored_positions_hold_the_geometry_of_real_play():
    held = set().union(*(features(p) for p in STORED))
    want = {"kubb on kubb", "tilt record", "near a line", "raised", "status leaning", "status stößel", "winner"}
    assert want <= held, want - held


@pytest.mark.parametrize(
    "ruleset, seed, at_least",
    [("dm", 12, {"throw": 25, "inkast": 4}), ("wikinger", 1, {"throw": 20, "inkast": 3})],
)
def test_a_match_played_now_follows_call_by_call(ruleset, seed, at_least):
    """Every referee call of a short match (cut off after 6 or 4 turns: 1.5–2 s of CPU)."""
    positions = record_match(seed, ruleset, round_cap=6 if ruleset == "dm" else 4)
    kinds = Counter(p["kind"] for p in positions)
    assert all(kinds[k] >= n for k, n in at_least.items()), kinds
    n, checked, failures = check_all(positions)
    assert (n, checked) == (len(positions), 4 * len(positions))
    assert failures == [], "\n".join(failures[:5])


# ---------------------------------------------------------------------- the transform itself
def _corner_offset(a: np.ndarray, b: np.ndarray) -> float:
    return float(max(np.min(np.linalg.norm(b - p, axis=1)) for p in a))


@pytest.mark.parametrize("name", ["mirror y", "mirror y, box x flipped", "sides swapped"])
def test_the_transform_moves_every_piece_as_a_solid(name):
    """Every transformed piece is the image of the piece: its eight corners and its centre of
    mass are the images of the piece's (a mirror's body flip included), its quaternion is a
    unit one, every contact point and normal moved with it; twice the transform is the
    identity."""
    t = transforms(STORED[0])[name]
    seen = 0
    for position in STORED:
        snap = Snapshot.from_dict(position["snapshot"])
        image = t.snapshot(snap)
        back = t.snapshot(image)
        for pid, p in snap.pieces.items():
            q = image.pieces[t.name(pid)]
            want = np.array([t.point(c) for c in p.corners()])
            assert _corner_offset(want, q.corners()) < 1e-12, (pid, name)
            assert math.dist(t.point(p.com), q.com) < 1e-12, (pid, name)
            assert abs(math.hypot(*q.quat_xyzw) - 1.0) < 1e-9
            # the tilt of an upturned kubb is acos near π: 1e-16 in its cosine is 1e-8 rad
            assert q.max_tilt == p.max_tilt and q.tilt == pytest.approx(p.tilt, abs=1e-9)
            r = back.pieces[pid]
            assert _corner_offset(p.corners(), r.corners()) < 1e-12 and r.side == p.side
            seen += 1
        for c, d in zip(snap.contacts, image.contacts):
            assert (d.a, d.b) == (t.name(c.a), t.name(c.b))
            assert math.dist(t.point(c.position_on_a), d.position_on_a) < 1e-12
            assert math.dist(t.point(c.normal_on_b), d.normal_on_b) < 1e-12  # no shift: a direction
    assert seen >= 150


def test_the_stakes_are_renamed_to_the_stake_at_the_image():
    pitch = Snapshot.from_dict(STORED[0]["snapshot"]).pitch
    stakes = pitch.stake_positions()
    for t in (Transform(MIRROR_Y), Transform(HALF_TURN, swap_sides=True)):
        for pid, (x, y) in stakes.items():
            assert stakes[t.name(pid)] == pytest.approx(t.point((x, y, 0.0))[:2]), pid


UNCHANGED = {"ruleset", "legal", "violations", "king_throw", "options", "earlier_fouls", "attempt", "prefer"}
"""The fields of a context that no relation changes (a field added to ThrowContext or
InkastContext and not named here must be transformed, or this list extended)."""


def test_the_context_is_transformed_whole():
    """Every pose, piece set and side of a context of real play is transformed by a swap of
    sides (a field left as it was would weaken the relation without failing it)."""
    t = Transform(HALF_TURN, swap_sides=True)
    changed = Counter()
    for position in STORED:
        ctx = context_from_dict(position["kind"], position["ctx"])
        image = t.context(ctx)
        for field in ctx.__dataclass_fields__:
            value, moved = getattr(ctx, field), getattr(image, field)
            if field in UNCHANGED or value in (None, (), frozenset(), {}):
                assert moved == value, field
            else:
                assert moved != value, field
                changed[field] += 1
    assert {"thrower", "round_start", "field_kubbs", "own_standing", "inkasting_side", "inkasted", "before"} <= set(
        changed
    ), changed


def test_a_relation_can_fail():
    """A transform that leaves the context as it was (the poses of the thrower's own standing
    kubbs not mirrored) breaks the relation: B4 and B5 now seem moved by the throw and get
    rulings of their own. The check is not blind."""

    class SnapshotOnly(Transform):
        def context(self, ctx):
            return ctx

    position = next(p for p in STORED if p["kubb3d"].get("raise_again"))
    problem = check(position, "mirror y, context left", SnapshotOnly(MIRROR_Y))
    assert problem is not None and "pieces ruled on" in problem and "nearest corner to a line" in problem, problem
    assert check(position, "mirror y", Transform(MIRROR_Y)) is None


def test_a_corner_on_a_line_is_a_rounding_case():
    """:func:`line_distance` (named in every failure) reads 0 for a corner put on a sideline."""
    snap = Snapshot.from_dict(STORED[0]["snapshot"])
    d, pid = line_distance(snap)
    assert 0.0 < d < 0.1 and pid
    p = snap.pieces[pid]
    shift = snap.pitch.half_width - float(np.max(p.corners()[:, 1]))
    on = dict(snap.pieces) | {pid: replace(p, position=(p.position[0], p.position[1] + shift, p.position[2]))}
    assert line_distance(replace(snap, pieces=on), [pid])[0] < ROUNDING_M

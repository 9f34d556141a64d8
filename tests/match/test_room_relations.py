"""Where kubb3d.match.room.make_room moves a piece off a piece the rules placed follows the
pitch, not the piece ids nor the +x direction: a situation mirrored across the centre line
(x -> -x, ends A and B swapped), turned half round with the sides swapped, or mirrored across
the long axis (y -> -y) gets the image of the moves; a situation whose pieces are renamed gets
the same moves. Checked on seeded layouts of real-play kind: upright kubbs placed on spots a
few centimetres apart, standing kubbs that do not move, felled kubbs lying across the spots
(several of them cutting into two pieces at once, or into each other's way)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from plane_relations import TRANSFORMS

from kubb3d.equipment import get_set
from kubb3d.judge.geometry import box_overlap_depth
from kubb3d.match import room
from kubb3d.match.room import ROOM_TOL_M, make_room, overlapping

KUBB = get_set("standard").kubb.half_extents
SITUATIONS = 400
SPOT_M = 1e-7
"""m: how far a moved piece may be from the image of the move (float rounding only)."""


def half_extents(pid: str) -> tuple[float, float, float]:
    return KUBB


def pose(x: float, y: float, yaw: float, lying: bool) -> list[float]:
    """An upright kubb, or one lying with its long axis along ``yaw`` (rad), at (x, y)."""
    cz, sz = math.cos(yaw / 2), math.sin(yaw / 2)
    if not lying:
        return [x, y, KUBB[2], 0.0, 0.0, sz, cz]
    s = c = math.sqrt(0.5)  # a quarter turn about y (the long axis along x), then the yaw
    return [x, y, KUBB[0], -sz * s, cz * s, sz * c, cz * c]


Piece = tuple[float, float, float, bool]  # x, y, yaw, lying


def situation(rng: np.random.Generator) -> tuple[dict[str, Piece], set[str], set[str]]:
    """Pieces round a point of the pitch: 1–3 kubbs placed on spots 7–15 cm apart, 0–2 standing
    kubbs that stay, 2–6 felled kubbs lying among them (on no standing kubb nor on each other):
    pieces, the placed ids, the fixed ids. Ids are drawn from A0–A9 and B0–B9 at random."""
    cx, cy = rng.uniform(-3.8, 3.8), rng.uniform(-2.3, 2.3)
    names = [f"{s}{n}" for s in "AB" for n in range(10)]
    rng.shuffle(names)
    pieces: dict[str, Piece] = {}

    def free(p: Piece, among) -> bool:
        a = pose(*p)
        return all(box_overlap_depth(a[:3], a[3:], KUBB, b[:3], b[3:], KUBB) <= 0 for b in among)

    upright: list[list[float]] = []
    placed, fixed = set(), set()
    for group, count in ((placed, rng.integers(1, 4)), (fixed, rng.integers(0, 3))):
        for _ in range(count):
            p = (cx + rng.uniform(-0.12, 0.12), cy + rng.uniform(-0.12, 0.12), rng.uniform(-math.pi, math.pi), False)
            if free(p, upright):
                pid = names.pop()
                pieces[pid] = p
                group.add(pid)
                upright.append(pose(*p))
    lying: list[list[float]] = []
    fixed_poses = [pose(*pieces[k]) for k in fixed]
    for _ in range(rng.integers(2, 7)):
        p = (cx + rng.uniform(-0.16, 0.16), cy + rng.uniform(-0.16, 0.16), rng.uniform(-math.pi, math.pi), True)
        if free(p, fixed_poses + lying):
            pieces[names.pop()] = p
            lying.append(pose(*p))
    return pieces, placed, fixed


def relabelling(rng: np.random.Generator, ids) -> dict[str, str]:
    ids = sorted(ids)
    return dict(zip(ids, (ids[i] for i in rng.permutation(len(ids)))))


def moves(pieces: dict[str, Piece], placed: set[str], fixed: set[str]) -> dict[str, tuple[float, float]]:
    poses = {pid: pose(*p) for pid, p in pieces.items()}
    out = make_room(poses, placed, half_extents, fixed)
    for pid in out:
        assert out[pid][2:] == poses[pid][2:]
    return {pid: (out[pid][0], out[pid][1]) for pid in out}


def image_failure(name: str, rng: np.random.Generator) -> str | None:
    """The first piece not moved to the image of its move under the transform ``name`` (or
    "relabel": ids permuted), as a line; None if every piece is."""
    pieces, placed, fixed = situation(rng)
    before = moves(pieces, placed, fixed)
    if name == "relabel":
        names = relabelling(rng, pieces)
        point = lambda x, y: (x, y)  # noqa: E731
        image = {names[k]: p for k, p in pieces.items()}
    else:
        move, rename = TRANSFORMS[name]
        names = {k: rename(k) for k in pieces}
        point = lambda x, y: move(x, y, 0.0)[:2]  # noqa: E731
        image = {names[k]: (*move(x, y, a), lying) for k, (x, y, a, lying) in pieces.items()}
    after = moves(image, {names[k] for k in placed}, {names[k] for k in fixed})
    for pid, (x, y) in sorted(before.items()):
        want, got = point(x, y), after[names[pid]]
        if math.dist(want, got) > SPOT_M:
            return f"{pid}: moved to {got}, not to the image {want} ({math.dist(want, got) * 1000:.1f} mm off)"
    return None


@pytest.mark.parametrize("name", [*TRANSFORMS, "relabel"])
def test_make_room_moves_follow_the_pitch_not_the_ids(name):
    """400 seeded situations: every moved piece of the transformed one is the image of the moved
    piece of the situation (0.1 µm), every piece left stays."""
    rng = np.random.default_rng(20261207)
    failures = [f for f in (image_failure(name, rng) for _ in range(SITUATIONS)) if f]
    assert failures == [], f"{len(failures)} of {SITUATIONS}: {failures[:3]}"


def test_the_situations_hold_what_the_relations_are_about(monkeypatch):
    """The layouts are not idle: most move a piece, many move two or more (which then stand in
    each other's way), many have a piece cutting into two pieces at once, and some need more than
    the straight pushes (the ring search)."""
    rings = []
    real = room._free_ring

    def counted(*args, **kwargs):
        rings.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(room, "_free_ring", counted)
    rng = np.random.default_rng(20261207)
    moved_one = moved_two = two_hits = 0
    for _ in range(SITUATIONS):
        pieces, placed, fixed = situation(rng)
        poses = {pid: pose(*p) for pid, p in pieces.items()}
        out = make_room(poses, placed, half_extents, fixed)
        moved = [pid for pid in out if out[pid] != poses[pid]]
        moved_one += len(moved) >= 1
        moved_two += len(moved) >= 2
        hits: dict[str, int] = {}
        for a, b, _ in overlapping(poses, half_extents, ROOM_TOL_M):
            for pid in (a, b):
                hits[pid] = hits.get(pid, 0) + 1
        two_hits += any(hits.get(pid, 0) >= 2 for pid in moved)
    assert moved_one >= SITUATIONS // 2 and moved_two >= 60 and two_hits >= 40 and len(rings) >= 3, (
        moved_one,
        moved_two,
        two_hits,
        len(rings),
    )

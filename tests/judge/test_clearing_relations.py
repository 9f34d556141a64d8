"""Where kubb3d.judge.clearing moves a raised kubb's square base off the pieces it overlaps
(push_clear, the straight push; clear_of, the push or the least move) follows the pitch, not the
piece ids nor the +x direction: a base and its obstacles mirrored across the centre line (x ->
-x, ends A and B swapped), turned half round with the sides swapped, or mirrored across the
long axis (y -> -y) is moved to the image spot and names the image obstacle; renamed obstacles
give the same spot and the renamed obstacle. Checked on seeded squares of a kubb's width round
a base, overlapping it one, two or three at a time."""

from __future__ import annotations

import math

import numpy as np
import pytest
from plane_relations import TRANSFORMS

from kubb3d.judge import clearing
from kubb3d.judge.geometry import overlap_depth, square
from kubb3d.judge.params import DEFAULT_PARAMS

HALF = 0.035  # a kubb's half width, m
SITUATIONS = 500
LEAST = 40  # clear_of searches 72 directions where pushing fails: fewer situations
SPOT_M = 1e-7

Square = tuple[float, float, float]  # centre x, y, side direction (rad)


def situation(rng: np.random.Generator) -> tuple[Square, dict[str, Square]]:
    """A base somewhere on the pitch and 1–3 squares whose centres lie within 7 cm of it (ids
    drawn from A0–A9 and B0–B9): most overlap it, some two or three at once."""
    x, y = rng.uniform(-3.8, 3.8), rng.uniform(-2.3, 2.3)
    names = [f"{s}{n}" for s in "AB" for n in range(10)]
    rng.shuffle(names)
    obstacles = {}
    for _ in range(rng.integers(1, 4)):
        r, a = rng.uniform(0.0, 0.07), rng.uniform(-math.pi, math.pi)
        obstacles[names.pop()] = (x + r * math.cos(a), y + r * math.sin(a), rng.uniform(-math.pi, math.pi))
    return (x, y, rng.uniform(-math.pi, math.pi)), obstacles


def run(fn, base: Square, obstacles: dict[str, Square]):
    x, y, a = base
    polys = {pid: square((ox, oy), (math.cos(b), math.sin(b)), HALF) for pid, (ox, oy, b) in obstacles.items()}
    return fn((x, y), (math.cos(a), math.sin(a)), HALF, polys, DEFAULT_PARAMS)


def image_failure(fn, name: str, rng: np.random.Generator) -> str | None:
    base, obstacles = situation(rng)
    if name == "relabel":
        ids = sorted(obstacles)
        names = dict(zip(ids, (ids[i] for i in rng.permutation(len(ids)))))
        move = lambda x, y, a: (x, y, a)  # noqa: E731
    else:
        move, rename = TRANSFORMS[name]
        names = {k: rename(k) for k in obstacles}
    before = run(fn, base, obstacles)
    after = run(fn, move(*base), {names[k]: move(*o) for k, o in obstacles.items()})
    if before is None or after is None:
        return None if before is None and after is None else f"{before} but {after}"
    want = move(*before[0], 0.0)[:2]
    if math.dist(want, after[0]) > SPOT_M or names[before[1]] != after[1]:
        return f"{before[:2]} -> {after[:2]}, not the image ({want}, {names[before[1]]})"
    return None


@pytest.mark.parametrize("fn", ["push_clear", "clear_of"])
@pytest.mark.parametrize("name", [*TRANSFORMS, "relabel"])
def test_a_base_is_cleared_to_the_image_spot(fn, name):
    """500 seeded situations (40 for clear_of): the transformed base ends at the image of the spot (0.1 µm) and
    names the image of the obstacle."""
    rng = np.random.default_rng(7)
    n = SITUATIONS if fn == "push_clear" else LEAST
    failures = [f for f in (image_failure(getattr(clearing, fn), name, rng) for _ in range(n)) if f]
    assert failures == [], f"{len(failures)} of {n}: {failures[:3]}"


def test_the_situations_overlap_one_and_several_squares():
    rng = np.random.default_rng(7)
    counts = {0: 0, 1: 0, 2: 0, 3: 0}
    for _ in range(SITUATIONS):
        (x, y, a), obstacles = situation(rng)
        base = square((x, y), (math.cos(a), math.sin(a)), HALF)
        polys = [square((ox, oy), (math.cos(b), math.sin(b)), HALF) for ox, oy, b in obstacles.values()]
        counts[sum(overlap_depth(base, p) > DEFAULT_PARAMS.block_tol for p in polys)] += 1
    assert counts[1] >= 150 and counts[2] >= 100 and counts[3] >= 30, counts

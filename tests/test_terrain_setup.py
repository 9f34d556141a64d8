"""A set-up on uneven ground is at rest before anything is thrown, and no piece falls by itself
(docs/physics.md "Setting up on uneven ground").

Before: the pieces were put upright on the terrain touching it at one point, fell onto the slope
and swung on over their tipping angle (A2, B5 and the king on 2 cm terrain, seed 5), and a throw
that touched nothing called every piece that settled "touched" and the referee ruled B5 felled
and the king felled early (``kubb3d throw --speed 3 --terrain-cm 2 --seed 5``).
"""

from __future__ import annotations

import math

import pytest

from kubb3d.physics.world import Terrain, World
from kubb3d.pitch import KING_ID

SHORT_THROWS = [(0.5, 5), (1.0, 0), (1.5, 4), (2.0, 5), (5.0, 2), (10.0, 3)]
"""(terrain cm, seed), up to the largest amplitude allowed (``TERRAIN_CM_MAX``): a 3 m/s baton from
side A that lands about a metre in front of the thrower and touches no piece; on the old set-up
each of them moved or felled pieces (2 cm seed 5 felled A2, B5 and the king, 0.5 cm seed 5 called
ten pieces touched)."""


@pytest.mark.parametrize("cm, seed", SHORT_THROWS)
def test_a_throw_that_touches_nothing_moves_and_fells_nothing_on_terrain(cm, seed):
    from kubb3d.cli.throw import _judge
    from kubb3d.throw import ThrowParams, throw

    with World.standard(terrain=Terrain(cm / 100, seed=seed)) as world:
        result = throw(world, ThrowParams(speed=3.0), ruleset="dm")
        baton = result.final[result.piece].position
    assert -3.5 < baton[0] < -2.0  # landed short, about a metre in front of side A's baseline
    judgement = _judge(result, "dm", "A", king_throw=False)
    rulings = {r.to_dict()["piece"]: (r.to_dict()["status"], r.to_dict()["consequence"]) for r in judgement.rulings}
    assert rulings == {pid: ("standing", "none") for pid in ("B1", "B2", "B3", "B4", "B5", KING_ID)}
    assert result.toppled == []
    assert len(result.upright) == 11
    assert result.touched == []


@pytest.mark.parametrize("cm, seed", [(1.0, 0), (2.0, 5)])
def test_a_set_up_on_terrain_stands_flush_and_at_rest(cm, seed):
    """Every kubb and the king stands at the ground's slope under it (within 2°) and has not
    moved at all when the world is run until at rest with nothing thrown."""
    with World.standard(terrain=Terrain(cm / 100, seed=seed)) as world:
        ids = world.piece_ids("kubb", "king")
        before = {pid: world.pose(pid) for pid in ids}
        tilt = world.engine.surface.tilt_on_ground
        leans = {pid: math.degrees(tilt(world.kind(pid), *world.pose(pid))) for pid in ids}
        world.run_until_rest(10.0)
        after = {pid: world.pose(pid) for pid in ids}
    assert len(ids) == 11 and KING_ID in ids
    assert max(leans.values()) < 2.0, leans
    for pid in ids:
        assert math.dist(before[pid].position, after[pid].position) < 1e-4, pid


@pytest.mark.parametrize("cm", [1.0, 3.0])
def test_docs_quote_the_slopes_under_the_spots(cm):
    """docs/physics.md "Setting up on uneven ground" quotes `benchmarks/terrain_setup.py`'s slope
    table (50 terrain seeds, bare heightfield): the row of 1 cm (no spot steeper than a tipping
    angle) and of 3 cm (the first with spots steeper) are re-made here and must be the page's."""
    import re
    from pathlib import Path

    from cli_process import run_python

    root = Path(__file__).resolve().parents[1]
    out = run_python([str(root / "benchmarks" / "terrain_setup.py"), "--seeds", "50", "--settle", "0", "--cm", str(cm)],
                     timeout=300, check=True, cwd=root).stdout
    row = next(line for line in out.splitlines() if line.startswith(f"{cm:g} | 50 | "))
    _, _, kubbs, king, _stakes, kubb_tip, _friction, king_tip, pads = row.split(" | ")
    quoted = f"| {cm:g} cm | {kubbs}° | {king}° | {kubb_tip} | {king_tip} | {pads} |"
    page = (root / "docs" / "physics.md").read_text(encoding="utf-8")
    assert quoted in page, quoted
    assert re.search(r"benchmarks/terrain_setup\.py`.*50 terrain seeds", " ".join(page.split()))

"""An upright kubb sliding on the flat ground and on a flat heightfield against the statics of a
block (issue 29).

A block of square base w standing on its end and sliding with kinetic friction μ tips over its
leading edge only if μ h/2 exceeds the reach of its base along the push, (w/2)(cos θ + sin θ) at
a heading θ from a face's normal, so it slides upright while μ < (w/h)(cos θ + sin θ). The limit
comes from the regulation block, not from the collision model (docs/physics.md "A kubb sliding
on the ground", "An upright kubb sliding").
"""

from __future__ import annotations

import dataclasses
import math
import sys

import numpy as np
import pytest

from kubb3d.physics._pybullet import pb
from kubb3d.physics.ground import GRASS, Materials, use_materials
from kubb3d.physics.world import Terrain, World
from kubb3d.snapshot import quat_to_matrix

PUSH = 2.0
"""m/s: the push along x (it stops after v/(μ g) ≈ 0.45 s)."""


def tipping_limit(heading: float) -> float:
    """The friction μ above which the standard kubb, sliding upright at ``heading`` rad, tips."""
    from kubb3d.equipment import EQUIPMENT_SETS

    kubb = EQUIPMENT_SETS["standard"].kubb
    return kubb.width / kubb.height * (math.cos(heading) + math.sin(heading))


def tilt_after_push(
    friction: float, heading: float, dt: float, seconds: float = 1.0, heightfield: bool = False
) -> float:
    """Tilt (degrees from upright) of a standard kubb standing on a flat ground of this sliding
    friction, ``seconds`` s after a push of :data:`PUSH` along x, a face's normal ``heading`` rad
    from x, at steps of ``dt`` s; on a flat heightfield (``Terrain(0.0)``) if ``heightfield``."""
    terrain = Terrain(0.0) if heightfield else None
    with use_materials(Materials(grounds=(dataclasses.replace(GRASS, friction=friction),))):
        with World("standard", ground="grass", stakes=False, dt=dt, terrain=terrain) as w:
            q = (0.0, 0.0, math.sin(heading / 2), math.cos(heading / 2))
            w.add_piece("k", "kubb", (0.0, 0.0, w.height_on_ground("kubb", 0.0, 0.0, q)), q, sleeping=False)
            body = w.engine.body_of("k")
            pb.resetBaseVelocity(body, (PUSH, 0.0, 0.0), (0.0, 0.0, 0.0), physicsClientId=w.engine.client)
            w.step(w.steps_for(seconds))
            return math.degrees(math.acos(min(1.0, float(quat_to_matrix(w.com_pose("k")[1])[2, 2]))))


@pytest.mark.parametrize("dt", [1 / 960, 1 / 1920])
@pytest.mark.parametrize("heading_deg", [0, 15, 30, 45])
def test_a_kubb_sliding_below_the_tipping_limit_stays_upright(dt, heading_deg):
    """At 96 % of the statics limit the kubb slides upright at every heading and both steps.
    With 1 mm corner spheres (their contacts 1 mm inside the edges, a limit of 0.453 at 0°) it
    fell at 0° already at 0.445, and at grass's 0.45 at every step."""
    heading = math.radians(heading_deg)
    assert tilt_after_push(0.96 * tipping_limit(0.0), heading, dt) < 1.0


@pytest.mark.parametrize("dt", [1 / 960, 1 / 1920])
@pytest.mark.parametrize("heading_deg", [0, 30])
def test_a_kubb_sliding_above_the_tipping_limit_falls(dt, heading_deg):
    """At 104 % of the statics limit of its heading the kubb tips over its leading edge."""
    heading = math.radians(heading_deg)
    assert tilt_after_push(1.04 * tipping_limit(heading), heading, dt) > 45.0


@pytest.mark.parametrize("dt", [1 / 960, 1 / 1920])
def test_a_flat_heightfield_lets_a_kubb_above_the_tipping_limit_fall(dt):
    """... and at 104 % of it the kubb tips over on the flat heightfield too: its contact plane
    holds it no better than the flat ground does."""
    assert tilt_after_push(1.04 * tipping_limit(0.0), 0.0, dt, heightfield=True) > 45.0


@pytest.mark.parametrize("dt", [1 / 960, 1 / 1920, 1 / 3840])
@pytest.mark.parametrize("heading_deg", [0, 15])
def test_a_flat_heightfield_slides_a_kubb_below_the_tipping_limit_upright(dt, heading_deg):
    """A flat heightfield is the flat ground cut into triangles: at 96 % of the block's statics
    limit the kubb must slide upright on it too, at every step. On the triangles it fell (their
    edges kicked the edge it slid on); on its own contact plane it meets no edge (docs/physics.md
    "An upright kubb sliding", "Contact planes on terrain")."""
    heading = math.radians(heading_deg)
    assert tilt_after_push(0.96 * tipping_limit(0.0), heading, dt, heightfield=True) < 1.0


def _contact_planes():
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("contact_planes", root / "benchmarks" / "contact_planes.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # its dataclasses look their module up there
    spec.loader.exec_module(bench)
    return root, bench


@pytest.mark.parametrize("dt", [1 / 960, 1 / 1920, 1 / 3840])
@pytest.mark.parametrize("fold", [0.05, -0.02])
def test_a_kubb_sliding_upright_across_a_crease_stays_upright(dt, fold):
    """A crease: the ground bends up by 5 % or down by 2 % at a grid line, where two triangles of
    different normals meet. An upright kubb pushed at 2 m/s across it with μ 0.3 (64 % of its
    statics limit) must cross it upright at every step. On the heightfield's triangles the 5 % fold
    tripped it at 1/3840 s (docs/physics.md "Contact planes on terrain")."""
    _, bench = _contact_planes()
    tilt, slide = bench.crease_push(fold, dt, 0.3, 0.0)
    assert tilt < 1.0
    assert slide > 0.5  # it crossed the fold at 0.2 m and slid on


@pytest.mark.parametrize("dt", [1 / 960, 1 / 1920])
@pytest.mark.parametrize("uphill", [True, False])
def test_a_kubb_slides_up_and_down_a_slope_as_the_slope_says(dt, uphill):
    """A kubb lying flush on a 7 % incline (a heightfield that is one plane) pushed at 2 m/s up or
    down it slides v²/(2 g (μ cos α ± sin α)) within 1 % and less than 5 mm sideways, at both
    steps. On the heightfield's triangles it slid 1.5-3.9 % short (docs/physics.md "Contact planes
    on terrain")."""
    _, bench = _contact_planes()
    along, across = bench.incline_slide(0.07, dt, uphill, math.radians(30.0))
    assert along == pytest.approx(bench.incline_law(0.07, uphill), rel=0.01)
    assert abs(across) < 0.005


def test_grass_slides_an_upright_kubb_upright():
    """Grass's friction is below the limit at 0°, where it is least."""
    assert GRASS.friction < tipping_limit(0.0)
    assert tilt_after_push(GRASS.friction, 0.0, 1 / 960) < 1.0


def _bench():
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("upright_slide", root / "benchmarks" / "upright_slide.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return root, bench


def test_docs_quote_the_heightfield_isolation():
    """docs/physics.md "An upright kubb sliding" quotes `benchmarks/upright_slide.py --isolate` and
    `--reach` at grass's 0.45: how many of 18 fell with each kubb model on each ground, and how far
    ahead of its centre each holds the kubb up. The flat ground with the field kubb is the one that
    must match statics, and the flat heightfield (each kubb on its contact plane) must give the same;
    the terrain kubb's spheres must hold it up less far than the block would."""
    root, bench = _bench()
    text = " ".join((root / "docs" / "physics.md").read_text(encoding="utf-8").split())
    headings = [0.0, 15.0, 30.0, 45.0, 60.0, 75.0]
    for friction in (0.3, 0.45):
        with use_materials(Materials(grounds=(dataclasses.replace(GRASS, friction=friction),))):
            counts = [bench.fallen(terrain, headings, model)[1] for terrain in (False, True) for model in bench.MODELS]
        assert f"| {friction:g} | " + " | ".join(str(count) for count in counts) + " |" in text
        assert counts[0] == 0 and counts[2:] == counts[:2]
    with use_materials(Materials(grounds=(dataclasses.replace(GRASS, friction=0.45),))):
        reach = {
            (terrain, model): bench.support_reach(terrain, model) for terrain in (False, True) for model in bench.MODELS
        }
    from kubb3d.equipment import EQUIPMENT_SETS

    kubb = EQUIPMENT_SETS["standard"].kubb
    height = kubb.height

    def cell(terrain: bool, model: str) -> str:
        value = reach[(terrain, model)]
        return f"{value * 1e3:.2f} mm (μ {2 * value / height:.3f})"

    assert f"| flat ground | {cell(False, 'field')} | {cell(False, 'terrain')} |" in text
    assert f"| flat heightfield | {cell(True, 'field')} | {cell(True, 'terrain')} |" in text
    with use_materials(Materials(grounds=(dataclasses.replace(GRASS, friction=0.3),))):
        spheres = bench.support_reach(False, "terrain")
    from kubb3d.assets import TERRAIN_CORNER_SPHERE_RADIUS

    assert spheres == pytest.approx(kubb.width / 2 - TERRAIN_CORNER_SPHERE_RADIUS, abs=1e-4)
    assert f"(μ = 0.3: {spheres * 1e3:.2f} mm," in text


def _runs(values: list[float]) -> str:
    """Frictions as docs/physics.md writes them: "0.30, 0.41, 0.43–0.47" (runs of 0.01 joined)."""
    runs: list[list[float]] = []
    for value in values:
        if runs and round(value - runs[-1][-1], 6) == 0.01:
            runs[-1].append(value)
        else:
            runs.append([value])
    return ", ".join(
        ", ".join(f"{value:.2f}" for value in run) if len(run) < 3 else f"{run[0]:.2f}–{run[-1]:.2f}" for run in runs
    )


def test_docs_quote_the_friction_scan():
    """docs/physics.md quotes `benchmarks/upright_slide.py --scan`: from which friction the kubb
    pushed at heading 0 falls at each step, on the flat ground (where it must be within 0.01 of the
    block's statics, 0.467) and on the flat heightfield (on the triangles it fell from about 0.40
    and below at random; on its contact plane as on the flat ground)."""
    root, bench = _bench()
    text = " ".join((root / "docs" / "physics.md").read_text(encoding="utf-8").split())
    flat = [bench.scan(False, 1 / s) for s in bench.STEPS]
    for fell in flat:
        assert fell == [f for f in bench.SCAN if f >= fell[0]]  # a range: upright below, fallen above
        assert abs(fell[0] - tipping_limit(0.0)) < 0.011
    first, second, third = (f"{fell[0]:.2f} at 1/{s} s" for fell, s in zip(flat, bench.STEPS))
    assert f"on the flat ground from μ = {first}, {second} and {third}" in text
    heightfield = [bench.scan(True, 1 / s) for s in bench.STEPS]
    quoted = "; ".join(f"{_runs(fell)} at 1/{s} s" for fell, s in zip(heightfield, bench.STEPS))
    assert f"on the flat heightfield now at μ = {quoted}," in text
    assert heightfield == flat  # on its contact plane, as on the flat ground


def test_docs_quote_the_upright_slide_benchmark():
    """docs/physics.md "An upright kubb sliding" quotes `benchmarks/upright_slide.py --limit`: the
    statics limit of the corner spheres' contacts and, at 1/960 s, the friction bracket from which
    the kubb pushed at heading 0 falls (both moved when the spheres went from 1 to 0.1 mm)."""
    from kubb3d.assets import CORNER_SPHERE_RADIUS
    from kubb3d.equipment import EQUIPMENT_SETS

    root, bench = _bench()
    text = " ".join((root / "docs" / "physics.md").read_text(encoding="utf-8").split())
    fix = text[text.index("**Fix.** The flat ground's corner spheres are") :]
    fix = fix[: fix.index("(the same command)")]
    kubb = EQUIPMENT_SETS["standard"].kubb
    assert f"modelled limit {(kubb.width - 2 * CORNER_SPHERE_RADIUS) / kubb.height:.3f}," in fix
    low, high = bench.tipping_friction(1 / 960)
    assert f"Heading 0 now falls from {low:.4f}–{high:.4f} at 1/960 s" in fix
    assert high < tipping_limit(0.0) and GRASS.friction < low


def _percent(value: float) -> str:
    """A signed percentage as docs/physics.md writes it: "−0.3" (a true minus sign), "−0.0"."""
    return f"{value:+.1f}".replace("-", "−").lstrip("+")


def test_docs_quote_the_contact_planes_on_a_slope_and_a_crease():
    """docs/physics.md "Contact planes on terrain" quotes `benchmarks/contact_planes.py --incline
    0.07` (the range of slide over the law at every heading, direction and step, and the most
    sideways) and `--crease` (how many runs cross the fold upright at μ 0.3; at 0.45 how many fall
    at heading 0 and at 15°). The slope must hold within 1 %, the crease at μ 0.3 in every run."""
    root, bench = _contact_planes()
    text = " ".join((root / "docs" / "physics.md").read_text(encoding="utf-8").split())
    shares, across = [], []
    for uphill in (True, False):
        law = bench.incline_law(0.07, uphill)
        for heading in (0.0, 30.0, 90.0):
            for s in bench.STEPS:
                along, side = bench.incline_slide(0.07, 1 / s, uphill, math.radians(heading))
                shares.append(round(100 * (along / law - 1), 1))
                across.append(abs(side))
    low, high = min(shares), max(shares)
    quoted = f"{_percent(low)} … {_percent(high)} % at every step, at most {max(across) * 1e3:.1f} mm sideways;"
    assert f"0.538 m down): {quoted}" in text
    assert -1.0 < low <= high < 1.0
    upright, fell = 0, {0.0: 0, 15.0: 0}
    for fold in (0.02, -0.02, 0.05):
        for heading in (0.0, 15.0):
            for s in bench.STEPS:
                upright += bench.crease_push(fold, 1 / s, 0.3, math.radians(heading))[0] < 1.0
                fell[heading] += bench.crease_push(fold, 1 / s, GRASS.friction, math.radians(heading))[0] > 45.0
    assert upright == 18
    assert f"at μ 0.3 it crosses upright in {upright} of 18 runs;" in text
    assert f"it falls in {fell[0.0]} of 9 runs at heading 0 and {fell[15.0]} of 9 at 15°" in text


@pytest.mark.slow
def test_docs_quote_the_contact_planes_on_one_centimetre_terrain():
    """docs/physics.md "Contact planes on terrain" quotes `benchmarks/contact_planes.py --spots 30
    --friction 0.3` for the code now: how many of 30 upright kubbs pushed on 1 cm terrain fall at
    each step, in how many the outcome differs between two steps and how far apart they end. On the
    heightfield's triangles 5 and 6 differed and they ended up to 143 mm apart."""
    root, bench = _contact_planes()
    text = " ".join((root / "docs" / "physics.md").read_text(encoding="utf-8").split())
    rows = bench.spot_pushes(30, 0.3, False)
    fell = ", ".join(str(sum(f for f, _ in rows[s])) for s in bench.STEPS)
    pairs = list(zip(bench.STEPS, bench.STEPS[1:]))
    differ = [sum(a != b for (a, _), (b, _) in zip(rows[one], rows[two])) for one, two in pairs]
    apart = [max(float(np.linalg.norm(a - b)) for (_, a), (_, b) in zip(rows[one], rows[two])) for one, two in pairs]
    cells = f"| {fell} | {differ[0]}, {differ[1]} | {apart[0] * 1e3:.0f} mm, {apart[1] * 1e3:.0f} mm |"
    assert f"| upright, μ 0.3, fitted over the footprint (now) {cells}" in text
    assert max(differ) <= 1 and max(apart) < 0.1

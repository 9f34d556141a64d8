"""How far an upright kubb pushed along the flat ground slides, against v²/(2 μ g).

A block standing on its end face and pushed at v with kinetic friction μ below its tipping limit
w/h carries its weight on its base and is braked by μ m g, so it stops after v²/(2 μ g) at every
heading. Bullet's rigid-body solver gives friction to a ground contact whose normal impulse has
fallen to zero (it keeps the friction impulse such a contact had when it last carried load), and
pushed along a face's normal the kubb's back corner carries none while it slides: at μ 0.3 it stops
about 20 % short (docs/physics.md "An upright kubb sliding short")."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    spec = importlib.util.spec_from_file_location(
        "upright_slide_length", ROOT / "benchmarks" / "upright_slide_length.py"
    )
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # its dataclasses look their module up there
    spec.loader.exec_module(bench)
    return bench


@pytest.mark.parametrize("dt", [1 / 960, 1 / 1920])
@pytest.mark.parametrize("heading_deg", [22.5, 45.0])
def test_an_upright_kubb_pushed_off_a_face_normal_slides_as_far_as_the_law_says(dt, heading_deg):
    """Pushed at 22.5° or 45° from a face's normal with μ 0.3 (64 % of its tipping limit), every
    ground contact stays loaded: it slides v²/(2 μ g) within 1 %, upright, its normal impulse m g t."""
    bench = _bench()
    p = bench.push(0.3, heading_deg, dt)
    assert p.slide == pytest.approx(p.law, rel=0.01)
    assert p.normal == pytest.approx(p.weight, rel=1e-3)
    assert p.unloaded == pytest.approx(0.0, abs=1e-3)
    assert p.tilt < 0.05


@pytest.mark.xfail(
    strict=True,
    reason="Bullet's rigid-body solver keeps the friction of a ground contact that lost its normal "
    "impulse (docs/physics.md 'An upright kubb sliding short')",
)
@pytest.mark.parametrize("dt", [1 / 960, 1 / 1920])
def test_an_upright_kubb_pushed_along_a_face_normal_slides_as_far_as_the_law_says(dt):
    """The same along a face's normal: the law holds at every heading, so it must slide as far. It
    stops 17-20 % short; a fix of the engine's friction makes this pass (and the strict mark fail)."""
    bench = _bench()
    p = bench.push(0.3, 0.0, dt)
    assert p.slide == pytest.approx(p.law, rel=0.02)


@pytest.mark.parametrize("dt", [1 / 960, 1 / 1920])
def test_the_missing_slide_is_the_friction_of_unloaded_contacts(dt):
    """Where the 20 % goes, measured at heading 0 and μ 0.3: not into rocking (the normal impulse
    is m g t, the kubb does not tilt) nor into any force of kubb3d's (the contacts' friction takes
    the whole m v), but into friction beyond μ times the normal impulse, all of it from contacts
    that carry no normal force."""
    bench = _bench()
    p = bench.push(0.3, 0.0, dt)
    assert p.slide < 0.9 * p.law
    assert p.normal == pytest.approx(p.weight, rel=1e-3)
    assert p.tilt < 0.01
    assert p.braking == pytest.approx(p.momentum, rel=1e-3)
    assert p.excess > 0.15 * p.momentum
    assert p.unloaded == pytest.approx(p.excess, rel=0.03)
    # the slide is the law's, braked by the friction the contacts gave rather than by μ ∫N
    assert p.slide == pytest.approx(p.law * p.friction * p.normal / p.braking, rel=0.01)


def test_a_lying_kubb_and_a_plain_box_slide_as_far_as_the_law_says():
    """The same push at heading 0 on a kubb lying on a side face and on a plain box of the kubb's
    size and mass standing: within 1 % of the law."""
    bench = _bench()
    for pose in ("lying", "box"):
        p = bench.push(0.3, 0.0, 1 / 960, pose)
        assert p.slide == pytest.approx(p.law, rel=0.01), pose


def test_pybullet_alone_stops_the_kubb_short_only_on_a_ground_of_maximal_coordinates():
    """Nothing of kubb3d's but the kubb's model file: on a static box made with maximal coordinates
    (as kubb3d's ground is) the push at heading 0 stops more than 15 % short with friction from
    unloaded contacts; on the same box as a fixed multibody, or with PyBullet's MLCP solver, it
    slides to the law within 1 %."""
    bench = _bench()
    short = bench.engine_alone(0.3, 0.0, 1 / 960, "maximal")
    assert short.share < -0.15
    assert short.unloaded > 0.1 * short.momentum
    for kind in ("maximal, enableConeFriction 0", "maximal, 500 iterations"):
        same = bench.engine_alone(0.3, 0.0, 1 / 960, kind)
        assert (same.slide, same.unloaded) == (short.slide, short.unloaded), kind  # neither changes it
    for kind in ("multibody", "mlcp"):
        p = bench.engine_alone(0.3, 0.0, 1 / 960, kind)
        assert p.slide == pytest.approx(p.law, rel=0.01), kind
        assert p.unloaded == pytest.approx(0.0, abs=1e-3), kind


def test_docs_quote_the_upright_slide_lengths():
    """docs/physics.md "An upright kubb sliding short" quotes every row of
    `benchmarks/upright_slide_length.py`."""
    bench = _bench()
    section = _section()
    for row in bench.upright_rows() + bench.impulse_rows() + bench.pose_rows() + bench.scan_rows() + bench.alone_rows():
        assert row in section, row


def _section() -> str:
    text = (ROOT / "docs" / "physics.md").read_text(encoding="utf-8")
    section = text[text.index("**An upright kubb sliding short**") :]
    return section[: section.index("\n## ")]


def test_docs_quote_the_mlcp_trial():
    """The trial of PyBullet's MLCP solver (`--mlcp`, without its throws): with it every push slides
    within 1 % of the law, the drops rise as with PyBullet's own solver within 0.5 %, and
    docs/physics.md quotes every row."""
    bench = _bench()
    own, mlcp = bench.compare_solvers(0)
    for key, share in mlcp["slides"].items():
        assert abs(share) < 0.01, key
    assert min(own["slides"].values()) < -0.15  # and without it, short
    for key, rise in mlcp["drops"].items():
        assert rise == pytest.approx(own["drops"][key], rel=0.005), key
    section = _section()
    for row in bench.mlcp_rows(0, (own, mlcp)):
        assert row in section, row


@pytest.mark.skipif(
    os.environ.get("KUBB3D_FULL_VALIDATION") != "1",
    reason="400 bench throws twice: CI runs it with the full validation",
)
def test_docs_quote_the_mlcp_trial_s_throws():
    """... and its 400 bench throws: felled per throw with each solver and paired (about 70 s of
    CPU, so .ci/run runs it beside the full validation, not in the suite)."""
    bench = _bench()
    rows = bench.mlcp_rows(400)
    assert rows[-1].startswith("| 400 throws")
    assert rows[-1] in _section()

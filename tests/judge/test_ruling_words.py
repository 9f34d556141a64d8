"""The words of each ruling on every shipped scenario: one spot written one way in one ruling,
no explanation that contradicts itself, and an option that decided a ruling named in it.

The scenarios are built (settled in physics) once for the module and judged as often as needed
(``kubb3d.scenario.judge_built``), so a relation over all of them stays fast."""

from __future__ import annotations

import re

import pytest

from kubb3d.cli.judge import _format
from kubb3d.library import scenarios_dir
from kubb3d.scenario import Result, build, judge_built

PATHS = sorted(scenarios_dir().glob("*.toml"))
SPOT = re.compile(r"at \((-?\d+\.\d+), (-?\d+\.\d+)\) m")


@pytest.fixture(scope="module")
def built():
    out = {}
    for p in PATHS:
        b = build(p)
        out[p.stem] = b
    yield out
    for b in out.values():
        b.close()


def test_the_library_is_all_here(built):
    assert len(built) == len(PATHS) >= 70


def test_one_spot_is_written_one_way_in_one_ruling(built):
    """``raise here (at (-2.105, -0.035) m)`` beside ``raised … at (-2.10, -0.03) m`` was one
    spot in two precisions; the judge line and the reason now agree."""
    seen = 0
    for name, b in built.items():
        judgement, _ = judge_built(b)
        text = _format(Result(b.path, b.spec, judgement))
        lines = text.splitlines()[1:]
        for ruling, line, reason in zip(judgement.rulings, lines[0::2], lines[1::2]):
            spots = SPOT.findall(line) + SPOT.findall(reason)
            if ruling.raised_pose is None:
                continue
            x, y = ruling.raised_pose.position[:2]
            assert SPOT.findall(line) == [(f"{x:.2f}", f"{y:.2f}")], (name, line)
            assert len(set(spots)) == 1, (name, line, reason)
            seen += len(SPOT.findall(reason))
    assert seen >= 10  # reasons that give the spot were compared

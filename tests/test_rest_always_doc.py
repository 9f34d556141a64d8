"""docs/physics.md "Rest that always comes" quotes docs/rest_always.json, the output of
`benchmarks/rest_always.py --write docs/rest_always.json` (its defaults: 209 throws for each of 3
presets × 2 sets × 4 grounds, seed 29): the paragraph's figures are the file's, and the file is
the whole default run, every case in it, with its totals the sum of its cases."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIGURES = json.loads((ROOT / "docs" / "rest_always.json").read_text(encoding="utf-8"))
PRESETS, SETS = ("novice", "club", "elite"), ("standard", "dm-small")
GROUNDS = ("grass", "wet-grass", "turf", "terrain")


def _paragraph() -> str:
    text = re.sub(r"\s+", " ", (ROOT / "docs" / "physics.md").read_text(encoding="utf-8"))
    start = text.index("The full run of `benchmarks/rest_always.py` with the fix")
    return text[start : start + 1200]


def _split(key: str) -> tuple[float, float]:
    """(the largest on the flat grounds, on terrain) of a per-case figure."""
    cases = FIGURES["cases"]
    flat = max(case[key] for case in cases if case["ground"] != "terrain")
    terrain = max(case[key] for case in cases if case["ground"] == "terrain")
    return flat, terrain


def test_the_file_is_the_whole_default_run():
    cases = FIGURES["cases"]
    assert (FIGURES["per_case"], FIGURES["seed"]) == (209, 29)
    assert [(case["preset"], case["set"], case["ground"]) for case in cases] == list(
        itertools.product(PRESETS, SETS, GROUNDS)
    )
    assert all(case["throws"] == FIGURES["per_case"] for case in cases)
    assert FIGURES["throws"] == sum(case["throws"] for case in cases) == 209 * 24
    assert FIGURES["at_time_limit"] == sum(case["at_time_limit"] for case in cases)
    assert FIGURES["fast_at_rest"] == sum(case["fast_at_rest"] for case in cases)
    # a throw declared at rest faster than the limit is counted as fast: the fastest is under it
    if FIGURES["fast_at_rest"] == 0:
        assert max(_split("fastest_at_rest_m_s")) <= FIGURES["fast_at_rest_limit_m_s"]


def test_the_paragraph_quotes_the_file():
    paragraph = _paragraph()
    fastest_flat, fastest_terrain = _split("fastest_at_rest_m_s")
    longest_flat, longest_terrain = _split("longest_to_rest_s")
    flat_cpu = [case["cpu_s"] for case in FIGURES["cases"] if case["ground"] != "terrain"]
    terrain_cpu = [case["cpu_s"] for case in FIGURES["cases"] if case["ground"] == "terrain"]
    for quote in (
        f"({FIGURES['throws']:,} throws, {FIGURES['per_case']} for each of 3 presets × 2 sets × 4 grounds, "
        f"seed {FIGURES['seed']};",
        f"**{FIGURES['at_time_limit']} at the time limit**, {FIGURES['fast_at_rest']} declared at rest with a "
        f"piece faster than {FIGURES['fast_at_rest_limit_m_s']} m/s",
        f"the fastest piece at rest {fastest_flat:.4f} m/s on the flat grounds and "
        f"{fastest_terrain:.4f} m/s on terrain",
        f"the longest to rest {longest_flat:.2f} s on the flat grounds and {longest_terrain:.2f} s on terrain",
        f"{FIGURES['cpu_s']:.0f} s of CPU in one process at a load of "
        f"{min(FIGURES['load']):.1f}–{max(FIGURES['load']):.1f}",
        f"{min(terrain_cpu):.0f}–{max(terrain_cpu):.0f} s per {FIGURES['per_case']} throws on terrain against "
        f"{min(flat_cpu):.0f}–{max(flat_cpu):.0f} s on the flat grounds",
    ):
        assert quote in paragraph, quote

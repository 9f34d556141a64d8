"""benchmarks/match_timings.py and benchmarks/match_memory.py (issue #32, docs/speed.md "Issue
#32"): a quick run of each, what they print against the goals, and their refusals."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from cli_process import run_python

from kubb3d.match import Match, MatchConfig

ROOT = Path(__file__).resolve().parents[1]


def _run(script: str, *args: str) -> subprocess.CompletedProcess:
    return run_python([str(ROOT / "benchmarks" / script), *args], timeout=600)


def test_match_timings_plays_the_seeds_it_names_and_judges_the_median_against_the_goal():
    r = _run("match_timings.py", "--seeds", "1", "--kubbuteo-seeds", "0", "--json")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    figures = json.loads(lines[-1])
    assert set(figures) == {"startup_cpu_s", "load_before", "dm", "load_after"}  # no Kubbuteo asked for
    dm = figures["dm"]
    assert dm["seeds"] == 1 and dm["median_cpu_s"] == dm["max_cpu_s"] == dm["mean_cpu_s"] > 0.0
    # the match it timed is the match seed 1 plays here
    match = Match(MatchConfig(ruleset="dm", skills=("club", "club"), seed=1))
    outcome = match.run()
    assert outcome is not None
    seed_line = next(line for line in lines if line.startswith("dm seed 1:"))
    assert f"{match.state.total_turns} turns, winner {outcome.winner}" in seed_line
    verdict = "met" if dm["median_cpu_s"] <= 1.0 else "not met"
    assert any(line.startswith("dm: median") and line.endswith(f"goal <= 1 s: {verdict}") for line in lines)


@pytest.mark.parametrize(
    "script, args",
    [("match_timings.py", ["--seeds", "0"]), ("match_memory.py", ["--matches", "0"])],
)
def test_the_scripts_refuse_an_empty_run_in_one_line(script, args):
    r = _run(script, *args)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "at least" in r.stderr


def test_match_memory_writes_readings_its_verdict_follows_from(tmp_path):
    out = tmp_path / "memory.json"
    r = _run("match_memory.py", "--warmup", "0", "--matches", "2", "--write", str(out))
    assert r.returncode == 0, r.stderr
    figures = json.loads(out.read_text(encoding="utf-8"))
    readings = [(reading["matches"], reading["rss_mb"]) for reading in figures["readings"]]
    assert [n for n, _ in readings] == [0, 1, 2]
    assert figures["growth_mb"] == readings[-1][1] - readings[0][1]
    # the second half of two matches is the second: its growth, extrapolated to the rest of 10,000
    late = readings[2][1] - readings[1][1]
    assert figures["late_kb_per_match"] == 1000 * late
    assert figures["projected_mb"] == figures["growth_mb"] + max(late, 0.0) * (10_000 - 2)
    verdict = "met" if figures["projected_mb"] < 20 else "not met"
    assert f"goal < 20 MB: {verdict};" in r.stdout
    assert 0.0 < figures["world_mb"] < 100.0

"""docs/speed.md "Issue #32: sixteenth round" quotes docs/speed_floor.json, the output of
`benchmarks/engine_floor.py --throws 200 --seeds 50 --kubbuteo-seeds 10 --write docs/speed_floor.json`:
every figure it gives is the file's, and every conclusion it draws holds for the file's figures
(a new run that turns one round must change the text)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIGURES = json.loads((ROOT / "docs" / "speed_floor.json").read_text(encoding="utf-8"))
BUILDING = ("loadURDF", "resetSimulation", "createMultiBody")


def _section() -> str:
    text = (ROOT / "docs" / "speed.md").read_text(encoding="utf-8")
    start = text.index("## Issue #32: sixteenth round")
    return re.sub(r"\s+", " ", text[start : text.index("\n## ", start + 1)])


def _per_throw(seconds: float) -> str:
    return f"{1000 * seconds / FIGURES['bench']['throws']:.1f} ms"


def _bench_quotes() -> list[str]:
    bench = FIGURES["bench"]
    building = sum(call["s"] for call in bench["top_calls"] if call["call"] in BUILDING)
    return [
        f"`kubb3d bench`'s {bench['throws']} throws",
        f"kubb3d {_per_throw(bench['kubb3d_s'])} a throw, the bare loop {_per_throw(bench['bare_s'])}",
        f"**ratio {bench['ratio']:.2f}** ({bench['steps_per_throw']:.0f} against {bench['bare_steps_per_throw']:,.0f}",
        f"A ratio of 4 allows {_per_throw(bench['bare_s'] / 4)} a throw",
        f"spent {_per_throw(bench['engine_s'])} a throw in the engine ({bench['engine_us_per_step']:.1f} µs a step",
        f"{bench['bare_us_per_step']:.1f} µs a step, everything included) and {_per_throw(bench['pybullet_other_s'])}",
        f"`createMultiBody`) {_per_throw(building)}",
        f"could reach **{bench['floor_engine_only']:.2f}**",
        f"**{bench['floor_all_pybullet']:.2f}** with the calls it makes now",
        f"fresh world alone ({_per_throw(bench['engine_s'] + building)}) take more than the "
        f"{_per_throw(bench['bare_s'] / 4)} the goal allows",
        f"they made the bench's throws {100 * (bench['wrapped_s'] / bench['kubb3d_s'] - 1):.0f} % slower",
    ]


def _match_quotes() -> list[str]:
    dm, kubbuteo = FIGURES["dm"], FIGURES["kubbuteo"]
    quotes = [
        f"load {FIGURES['load_before']:.1f} → {FIGURES['load_after']:.1f}",
        f"DM seeds 1–{dm['seeds']} and Kubbuteo seeds 1–{kubbuteo['seeds']}",
        f"a DM match at about {dm['median_pybullet_s']:.1f} s",
    ]
    for name, figures in (("DM", dm), ("Kubbuteo", kubbuteo)):
        quotes.append(
            f"| {name} | {figures['median_cpu_s']:.2f} s | {figures['median_engine_s']:.2f} s | "
            f"{figures['median_pybullet_s']:.2f} s | {100 * figures['engine_share']:.0f} % / "
            f"{100 * figures['pybullet_share']:.0f} % | {figures['goal_cpu_s']:g} s |"
        )
    total = sum(match["cpu_s"] for match in dm["matches"])
    calls = {call["call"]: call for call in dm["top_calls"]}
    for name in ("getContactPoints", "getBasePositionAndOrientation", "getBaseVelocity", "loadURDF"):
        quotes.append(f"`{name}` {100 * calls[name]['s'] / total:.1f} %")
    quotes.append(f"({calls['getContactPoints']['calls']:,} calls)")
    return quotes


@pytest.mark.parametrize("quote", _bench_quotes() + _match_quotes())
def test_the_section_quotes_the_floor_file(quote):
    assert quote in _section()


def test_the_sections_conclusions_hold_for_the_files_figures():
    bench, dm, kubbuteo = FIGURES["bench"], FIGURES["dm"], FIGURES["kubbuteo"]
    building = sum(call["s"] for call in bench["top_calls"] if call["call"] in BUILDING)
    # "the engine alone takes a median DM match past its goal of 1 s"
    assert dm["median_engine_s"] > dm["goal_cpu_s"] == 1.0
    # "the calls kubb3d makes now [take] a median Kubbuteo match past its 2 s"
    assert kubbuteo["median_pybullet_s"] > kubbuteo["goal_cpu_s"] == 2.0
    # "the bench cannot reach 4 with a fresh world per throw"
    assert bench["floor_all_pybullet"] < 4.0
    assert bench["engine_s"] + building > bench["bare_s"] / 4
    # "about half of a match's CPU" is kubb3d's Python
    assert 0.4 < 1.0 - dm["pybullet_share"] < 0.6
    # the floors are what the file's own times give
    assert bench["floor_engine_only"] == pytest.approx(bench["bare_s"] / bench["engine_s"])
    all_pybullet = bench["engine_s"] + bench["pybullet_other_s"]
    assert bench["floor_all_pybullet"] == pytest.approx(bench["bare_s"] / all_pybullet)
    for figures in (dm, kubbuteo):
        rows = figures["matches"]
        assert [row["seed"] for row in rows] == list(range(1, figures["seeds"] + 1))
        assert all(row["cpu_s"] > row["engine_s"] + row["pybullet_other_s"] > row["engine_s"] > 0 for row in rows)


def _runs(figures: dict, label: str, workers: int) -> list[dict]:
    return [run for run in figures["runs"] if run["label"].startswith(label) and run["workers"] == workers]


def test_the_goal_table_quotes_the_scaling_and_memory_runs():
    """The table's rows for the study, Dask and memory are the committed runs' output
    (docs/speed_scaling_throws.json, docs/speed_scaling_matches.json, docs/speed_memory.json), and
    each "met" follows from the figure it stands beside."""
    section = _section()
    throws = json.loads((ROOT / "docs" / "speed_scaling_throws.json").read_text(encoding="utf-8"))
    matches = json.loads((ROOT / "docs" / "speed_scaling_matches.json").read_text(encoding="utf-8"))
    memory = json.loads((ROOT / "docs" / "speed_memory.json").read_text(encoding="utf-8"))
    assert throws["rows_equal"] and matches["rows_equal"]  # every configuration stored the same rows
    loads = [run["load_average"] for run in throws["runs"] + matches["runs"]]
    assert f"at load {min(loads):.1f}–{max(loads):.1f}, their output" in section
    configurations = (("local", 1), ("local", 2), ("dask-cluster+kubb3d", 2))
    (one,), (two,), (cluster,) = (_runs(matches, label, workers) for label, workers in configurations)
    per_minute = two["rate"] * 60
    assert f"{two['trials']} matches on 2 workers in {two['seconds']:.0f} s: {per_minute:.1f} a minute" in section
    assert f"1,000 in about {1000 / per_minute:.0f} min | {'yes' if 1000 / per_minute <= 10 else 'no'} |" in section
    matches_ratio = cluster["rate"] / one["rate"]
    throw_ratios = [c["rate"] / o["rate"] for c, o in zip(_runs(throws, "dask", 2), _runs(throws, "local", 1))]
    assert len(throw_ratios) == 2
    assert f"matches: {matches_ratio:.2f} (one pair, {cluster['trials']} matches)" in section
    assert f"(hit-8m, {throws['runs'][0]['trials']:,} trials): {', '.join(f'{r:.2f}' for r in throw_ratios)}" in section
    met = f"matches {'yes' if matches_ratio >= 1.9 else 'no'}, throws {'yes' if min(throw_ratios) >= 1.9 else 'no'}"
    assert met in section
    world = "yes" if memory["world_mb"] < 100 else "no"
    assert f"| one World < 100 MB | {memory['world_mb']:.1f} MB | {world} |" in section
    readings = memory["readings"]
    assert memory["growth_mb"] == readings[-1]["rss_mb"] - readings[0]["rss_mb"]
    assert (
        f"{memory['matches']} DM matches after {memory['warmup']}: +{memory['growth_mb']:.1f} MB" in section
        and f"{memory['late_kb_per_match']:.1f} kB a match: about {memory['projected_mb']:.0f} MB over 10,000"
        in section
    )
    rss = ", ".join(f"{reading['rss_mb']:.1f}" for reading in readings)
    verdict = "yes" if memory["projected_mb"] < 20 else "no"
    assert f"RSS {rss} MB every {readings[1]['matches']}: the growth comes in steps) | {verdict} |" in section


def test_the_cost_of_two_trials_at_once_is_the_runs():
    section = _section()
    throws = json.loads((ROOT / "docs" / "speed_scaling_throws.json").read_text(encoding="utf-8"))
    matches = json.loads((ROOT / "docs" / "speed_scaling_matches.json").read_text(encoding="utf-8"))

    def cpu(figures: dict, label: str, workers: int) -> float:
        runs = _runs(figures, label, workers)
        return sum(run["cpu_per_trial_s"] for run in runs) / len(runs)

    one, two, cluster = cpu(throws, "local", 1), cpu(throws, "local", 2), cpu(throws, "dask", 2)
    assert (
        f"{100 * (two / one - 1):.0f} % more with two local workers than with one "
        f"({1000 * one:.1f} against {1000 * two:.1f} ms) and {100 * (cluster / one - 1):.0f} % more on the cluster"
    ) in section
    one, two = cpu(matches, "local", 1), cpu(matches, "local", 2)
    assert f"a match {100 * (two / one - 1):.0f} % more ({one:.2f} against {two:.2f} s)" in section
    own = throws["sizes"]["3000"]["cluster_cpu"]["dask-cluster+kubb3d"]["all"][0]  # [mean, 95 % half width]
    assert f"With the cluster's own CPU ({own:.1f} s a run of {throws['runs'][0]['trials']:,} throws" in section


def test_the_goal_tables_first_rows_and_the_fine_step_are_the_files_and_the_engines():
    from kubb3d.physics.engine import DT

    section = _section()
    bench, dm, kubbuteo = FIGURES["bench"], FIGURES["dm"], FIGURES["kubbuteo"]
    assert f"the fine step of 1/{1 / DT:.0f} s is the one" in section
    assert (
        f"| `kubb3d bench` ≥ 4× the bare loop | {bench['ratio']:.2f} (with no Python at all: "
        f"{bench['floor_all_pybullet']:.2f}) | {'yes' if bench['ratio'] >= 4 else 'no'} |"
    ) in section
    assert (
        f"| DM match ≤ 1 s of CPU (median, seeds 1–{dm['seeds']}) | {dm['median_cpu_s']:.2f} s (the engine alone "
        f"{dm['median_engine_s']:.2f} s) | {'yes' if dm['median_cpu_s'] <= 1 else 'no'} |"
    ) in section
    assert (
        f"| Kubbuteo match ≤ 2 s (median, seeds 1–{kubbuteo['seeds']}) | {kubbuteo['median_cpu_s']:.2f} s (all "
        f"PyBullet {kubbuteo['median_pybullet_s']:.2f} s) | {'yes' if kubbuteo['median_cpu_s'] <= 2 else 'no'} |"
    ) in section

"""docs/viewer.md "Difficulty" and "Challenges" quote figures that come from the code and from
``benchmarks/difficulty.py``: the benchmark's JSON lines are quoted whole, the prose's rates and
intervals are recomputed from them, the commands' seeds are the runs', and three matches of each
ruleset, from different chunks, are played again (their winner and their number of actions), so
that a run made on other physics fails here."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from kubb3d.challenges import KING_POINTS, RING_CENTRE, RING_RADIUS
from kubb3d.experiment.stats import wilson
from kubb3d.match.human import POWER_FACTOR_RANGE

DOC = Path(__file__).resolve().parents[1] / "docs" / "viewer.md"
NAMES = {"dm": "DM", "kubbuteo": "Kubbuteo"}


def _runs() -> list[dict]:
    return [json.loads(line.strip()) for line in _section().splitlines() if line.startswith("    {")]


def prose(run: dict) -> str:
    """The sentence the doc gives for one ruleset's run."""
    decided = run["person"] + run["computer"]
    lo, hi = wilson(run["person"], decided)
    return (
        f"{NAMES[run['ruleset']]}: the person's side won {run['person']} and lost {run['computer']} of "
        f"{run['matches']} matches ({run['draw']} drawn), {100 * run['person'] / decided:.0f} % of the decided "
        f"ones (95 % interval {100 * lo:.0f}–{100 * hi:.0f} %)"
    )


def test_the_doc_quotes_a_run_per_ruleset_and_its_prose_follows_from_it():
    runs = _runs()
    assert sorted(r["ruleset"] for r in runs) == ["dm", "kubbuteo"]
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    for run in runs:
        assert run["difficulty"] == "club" and run["opponent"] == "club"
        winners = run["winners"]
        assert len(winners) == run["matches"] == run["seeds"][1] - run["seeds"][0] + 1
        assert (winners.count("P1"), winners.count("P2"), winners.count(None)) == (
            run["person"], run["computer"], run["draw"]
        )
        assert prose(run) in text
        # what the page says of 50 % follows from the interval, either way
        lo, hi = wilson(run["person"], run["person"] + run["computer"])
        name = NAMES[run["ruleset"]]
        if lo <= 0.5 <= hi:
            assert f"The {name} interval holds 50 %" in text or "Both intervals hold 50 %" in text, name
        else:
            assert f"The {name} interval leaves out 50 % ({100 * lo:.1f}–{100 * hi:.1f} %)" in text, name
            n = run["person"] + run["computer"]
            k = max(run["person"], run["computer"])  # two-sided exact binomial test against 1/2
            p_value = min(1.0, 2 * sum(math.comb(n, i) for i in range(k, n + 1)) / 2**n)
            assert f"two-sided binomial p ≈ {p_value:.3f} against 50 %" in text, name


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text.split("### Measured: the person's side against the computer", 1)[1].split("\n## ", 1)[0]


def test_each_run_ran_on_a_clean_commit_that_the_doc_names():
    """A ruleset's chunks all ran on one commit without uncommitted changes in the package; the
    two rulesets may have run on different commits (each is played again below)."""
    section = " ".join(_section().split())
    for run in _runs():
        commit, clean = run["commit"], run["clean"]
        assert re.fullmatch(r"[0-9a-f]{40}", commit) and clean is True, run["ruleset"]
        assert f"{NAMES[run['ruleset']]} on commit {commit[:12]}" in section, run["ruleset"]
        assert len(run["actions"]) == run["matches"] and min(run["actions"]) > 0


def test_the_commands_play_the_seeds_of_the_quoted_runs():
    """Each ``for s in …`` loop of the command block plays chunks of ten seeds of one ruleset;
    together they are the seeds of that ruleset's quoted run, no more, no less."""
    loop = r"for s in ([\d ]+); do\n\s+python benchmarks/difficulty.py --rulesets (\w+) --matches (\d+)"
    loops = re.findall(loop, _section())
    assert sorted(ruleset for _, ruleset, _ in loops) == ["dm", "kubbuteo"]
    for starts, ruleset, size in loops:
        seeds = [s + i for s in map(int, starts.split()) for i in range(int(size))]
        run = next(r for r in _runs() if r["ruleset"] == ruleset)
        assert seeds == list(range(run["seeds"][0], run["seeds"][1] + 1)), ruleset


def _replayed(run: dict) -> list[int]:
    """The seeds played again: the first, one in the middle and the last (three chunks)."""
    first, last = run["seeds"]
    return sorted({first, (first + last) // 2, last})


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["dm", "kubbuteo"])
def test_matches_of_the_quoted_run_play_the_same(ruleset):
    import importlib.util

    spec = importlib.util.spec_from_file_location("difficulty_bench", DOC.parents[1] / "benchmarks" / "difficulty.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    run = next(r for r in _runs() if r["ruleset"] == ruleset)
    seeds = _replayed(run)
    assert len(seeds) == 3
    for seed in seeds:
        i = seed - run["seeds"][0]
        played = bench.play_match(ruleset, seed, run["difficulty"], run["opponent"])
        assert played == (run["winners"][i], run["actions"][i]), (
            f"seed {seed} of the {ruleset} run quoted in docs/viewer.md: {played} played, "
            f"{(run['winners'][i], run['actions'][i])} quoted (made on {run['commit'][:12]}): run it again"
        )


def test_the_docs_figures_of_the_model_and_the_drills_are_the_codes():
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    lo, hi = POWER_FACTOR_RANGE
    assert f"clipped to {lo:g}–{hi:g}." in text
    x, y = RING_CENTRE
    ring = f"a ring of radius {RING_RADIUS:g} m, centred {x:g} m past the centre line and {y:g} m to the side"
    assert f"{ring} (x {x:+g}, y {y:+g} m)" in text
    assert "{}, {} or {} as the first, second or third baton fells it".format(*KING_POINTS) in text

"""Person against computer at equal level: the person's side played through the person's error model.

For each ruleset, plays seeded matches (seeds 1..N) in which P1 is a "person" (``human=["P1"]``)
whose throws are answered by :func:`kubb3d.match.human.strategy_person` (the simulated strategy's
noise-free intention) and released with the person's error of ``--difficulty``
(:func:`kubb3d.match.human.person_release`, the code path of ``kubb3d play --difficulty``);
P2 is the simulated ``--opponent`` preset. Prints the person's wins, the opponent's, the draws
and the person's win rate with its 95 % Wilson interval (draws count as half a win for neither:
the rate is wins over decided matches and over all matches). The JSON output also records each
match's number of actions and the commit the code ran on (``commit``, with ``clean`` false when
the package's files differed from it), so that a test can replay seeds and tie the quoted run to the
code. docs/viewer.md "Difficulty" quotes its output.

Usage::

    python benchmarks/difficulty.py [--matches 100] [--rulesets dm,kubbuteo] [--difficulty club]
        [--opponent club] [--first-seed 1] [--json]
    ... --json chunks | python benchmarks/difficulty.py --combine   # one line per ruleset
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path


def code_commit() -> tuple[str | None, bool]:
    """The commit of the checkout the ``kubb3d`` package is imported from, and whether the
    package's files match it (no uncommitted change under ``kubb3d/``); (None, False) outside git."""
    import kubb3d

    package = Path(kubb3d.__file__).resolve().parent

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=package, capture_output=True, text=True, check=True).stdout

    try:
        commit = git("rev-parse", "HEAD").strip()
        clean = git("status", "--porcelain", "--", ".") == ""
    except (OSError, subprocess.CalledProcessError):
        return None, False
    return commit, clean


def play_match(ruleset: str, seed: int, difficulty: str, opponent: str) -> tuple[str | None, int]:
    """One match, the person (P1) played by the strategy through the person's error: its winner
    (None for a draw) and its number of actions."""
    from kubb3d.match import Match, MatchConfig
    from kubb3d.match.human import strategy_person

    cfg = MatchConfig(ruleset=ruleset, skills=(opponent, opponent), seed=seed, difficulty=difficulty)
    m = Match(cfg, human=["P1"])
    m.human["P1"] = strategy_person(m, "P1")
    out = m.run()
    assert out is not None
    return out.winner, m.action_index


def play_one(ruleset: str, seed: int, difficulty: str, opponent: str) -> str | None:
    """One match's winner (:func:`play_match`)."""
    return play_match(ruleset, seed, difficulty, opponent)[0]


def run(ruleset: str, matches: int, difficulty: str, opponent: str, first_seed: int = 1) -> dict:
    """Play ``matches`` matches; the person's wins, the opponent's and the draws, with the rate."""
    from kubb3d.experiment.stats import wilson

    commit, clean = code_commit()
    t0 = time.perf_counter()
    played = [play_match(ruleset, seed, difficulty, opponent) for seed in range(first_seed, first_seed + matches)]
    winners = [winner for winner, _ in played]
    wins = {"person": winners.count("P1"), "computer": winners.count("P2"), "draw": winners.count(None)}
    decided = wins["person"] + wins["computer"]
    lo, hi = wilson(wins["person"], decided) if decided else (0.0, 1.0)
    return {
        "ruleset": ruleset,
        "difficulty": difficulty,
        "opponent": opponent,
        "matches": matches,
        "seeds": [first_seed, first_seed + matches - 1],
        **wins,
        "person_rate": wins["person"] / decided if decided else None,
        "interval95": [lo, hi],
        "seconds": time.perf_counter() - t0,
        "winners": winners,
        "actions": [n for _, n in played],
        "commit": commit,
        "clean": clean,
    }


def combine(runs: list[dict]) -> list[dict]:
    """Merge runs of the same ruleset, difficulty and opponent over consecutive seeds (chunks of
    one long run) into one run each, in the order first seen."""
    from kubb3d.experiment.stats import wilson

    merged: dict[tuple, dict] = {}
    for r in runs:
        key = (r["ruleset"], r["difficulty"], r["opponent"])
        if key not in merged:
            merged[key] = dict(r)
            continue
        m = merged[key]
        if r["seeds"][0] != m["seeds"][1] + 1:
            raise SystemExit(f"{key}: seeds {r['seeds']} do not follow {m['seeds']}")
        if (r.get("commit"), r.get("clean")) != (m.get("commit"), m.get("clean")):
            raise SystemExit(f"{key}: seeds {r['seeds']} ran on {r.get('commit')}, the first on {m.get('commit')}")
        m["seeds"] = [m["seeds"][0], r["seeds"][1]]
        m["winners"] = m["winners"] + r["winners"]
        m["actions"] = m.get("actions", []) + r.get("actions", [])
        m["seconds"] += r["seconds"]
    for m in merged.values():
        w = m["winners"]
        m.update(matches=len(w), person=w.count("P1"), computer=w.count("P2"), draw=w.count(None))
        decided = m["person"] + m["computer"]
        m["person_rate"] = m["person"] / decided if decided else None
        m["interval95"] = list(wilson(m["person"], decided)) if decided else [0.0, 1.0]
    return list(merged.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--rulesets", default="dm,kubbuteo")
    parser.add_argument("--difficulty", default="club")
    parser.add_argument("--opponent", default="club")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON document per ruleset")
    parser.add_argument("--combine", action="store_true", help="merge the --json lines read from stdin (chunks)")
    args = parser.parse_args(argv)
    if args.combine:
        runs = [json.loads(line) for line in sys.stdin if line.strip()]
        for r in combine(runs):
            print(json.dumps(r))
        return 0
    for ruleset in args.rulesets.split(","):
        r = run(ruleset, args.matches, args.difficulty, args.opponent, args.first_seed)
        if args.json:
            print(json.dumps(r), flush=True)
            continue
        lo, hi = r["interval95"]
        rate = r["person_rate"]
        print(
            f"{ruleset}: person ({args.difficulty}) {r['person']} – {r['computer']} computer ({args.opponent}), "
            f"{r['draw']} drawn, of {r['matches']} (seeds {r['seeds'][0]}–{r['seeds'][1]}); person's share of the "
            f"decided matches {100 * rate:.0f} % (95 %: {100 * lo:.0f}–{100 * hi:.0f} %); {r['seconds']:.0f} s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Person against computer at equal level: the person's side played through the person's error model.

For each ruleset, plays seeded matches (seeds 1..N) in which P1 is a "person" (``human=["P1"]``)
whose throws are answered by :func:`kubb3d.match.human.strategy_person` (the simulated strategy's
noise-free intention) and released with the person's error of ``--difficulty``
(:func:`kubb3d.match.human.person_release`, the code path of ``kubb3d play --difficulty``);
P2 is the simulated ``--opponent`` preset. Prints the person's wins, the opponent's, the draws
and the person's win rate with its 95 % Wilson interval (draws count as half a win for neither:
the rate is wins over decided matches and over all matches). docs/viewer.md "Difficulty" quotes
its output.

Usage::

    python benchmarks/difficulty.py [--matches 100] [--rulesets dm,kubbuteo] [--difficulty club]
        [--opponent club] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def run(ruleset: str, matches: int, difficulty: str, opponent: str, first_seed: int = 1) -> dict:
    """Play ``matches`` matches; the person's wins, the opponent's and the draws, with the rate."""
    from kubb3d.experiment.stats import wilson
    from kubb3d.match import Match, MatchConfig
    from kubb3d.match.human import strategy_person

    wins = {"person": 0, "computer": 0, "draw": 0}
    winners: list[str | None] = []
    t0 = time.perf_counter()
    for seed in range(first_seed, first_seed + matches):
        cfg = MatchConfig(ruleset=ruleset, skills=(opponent, opponent), seed=seed, difficulty=difficulty)
        m = Match(cfg, human=["P1"])
        m.human["P1"] = strategy_person(m, "P1")
        out = m.run()
        assert out is not None
        winners.append(out.winner)
        wins["person" if out.winner == "P1" else "computer" if out.winner == "P2" else "draw"] += 1
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
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--rulesets", default="dm,kubbuteo")
    parser.add_argument("--difficulty", default="club")
    parser.add_argument("--opponent", default="club")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON document per ruleset")
    args = parser.parse_args(argv)
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

"""Roll Kubb Dames benchmark: the search player against the random player.

Plays 100 seeded games (seed 2026 by default), the two players changing seats
every game, and prints the search player's win rate, the ties and the average
game length.  The search player should win at least 90 % of the games.

Usage::

    python benchmarks/dames_search_vs_random.py [--games 100] [--seed 2026] [--depth 2]
        [--eliminated ends_game|drops_out]
"""

from __future__ import annotations

import argparse
import sys

from kubb3d.dames.players import run_selfplay
from kubb3d.dames.rules import ELIMINATED, DamesRules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--depth", type=int, default=2, help="search look-ahead in turns")
    parser.add_argument(
        "--eliminated", choices=ELIMINATED, default=DamesRules().eliminated, help="a player with no kubb left"
    )
    args = parser.parse_args(argv)
    rules = DamesRules(eliminated=args.eliminated)
    summary = run_selfplay(["search", "random"], args.games, args.seed, rules, depth=args.depth)
    rate = summary.win_rate("search")
    print(
        f"games: {summary.games} (seed {args.seed}, search depth {args.depth}, seats alternating, "
        f"eliminated={rules.eliminated})"
    )
    print(f"search wins: {summary.wins['search']}  random wins: {summary.wins['random']}  ties: {summary.ties}")
    print(f"search win rate: {100 * rate:.1f} %")
    print(f"average game length: {summary.mean_turns:.1f} turns (min {min(summary.turns)}, max {max(summary.turns)})")
    ends = ", ".join(f"{k} {v}" for k, v in summary.terminations.items())
    print(f"endings: {ends}")
    print(f"time: {summary.seconds:.1f} s ({summary.seconds / summary.games:.2f} s a game)")
    return 0 if rate >= 0.9 else 1


if __name__ == "__main__":
    sys.exit(main())

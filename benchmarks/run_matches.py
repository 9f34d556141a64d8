"""Play many seeded matches and check that every one ends in a valid outcome.

Usage::

    .venv/bin/python benchmarks/run_matches.py --ruleset dm --matches 50 [--first-seed 0]

Prints one line per match (seed, termination, winner, points, turns, simulated minutes,
glitches, wall seconds, 1-minute load average) and a summary: terminations, the share of
matches lost by an early king with its 95 % (Wilson) interval, the matches that reached the
turn cap with theirs, turns and wall time (mean, median, maximum, how many within 10 s);
exits 1 if any match raised or ended without an outcome. Kubbuteo (issue #15):
club-vs-club matches should end by an early king in at most 10 % (docs/speed.md)::

    .venv/bin/python benchmarks/run_matches.py --ruleset kubbuteo --matches 50 --first-seed 1

``--stats`` adds to each line what the match was made of (issue #16, docs/speed.md "Fifth
round"): baton flicks (throws), king flicks, flicks that felled nothing, kubbs returned
(inkasted), misflicked returns (invalid: short of the centre line, or off the board) and
those placed by hand, and at the end each side's own baseline kubbs and the field kubbs
standing in each half.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import traceback

from kubb3d.calibrate import wilson
from kubb3d.match import Match, MatchConfig
from kubb3d.rules.core import BatonThrow, Inkast, InkastOutcome, KingThrow, PlaceKubb, ThrowOutcome


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ruleset", default="dm")
    ap.add_argument("--matches", type=int, default=50)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--skills", default="club,club")
    ap.add_argument("--stats", action="store_true", help="what each match was made of (flicks, returns, misflicks)")
    a = ap.parse_args()
    bad = 0
    walls = []
    turns: list[int] = []
    terms: dict[str, int] = {}
    for seed in range(a.first_seed, a.first_seed + a.matches):
        t0 = time.perf_counter()
        try:
            m = Match(MatchConfig(ruleset=a.ruleset, skills=tuple(a.skills.split(",")), seed=seed))
            counts = play(m) if a.stats else None
            out = m.run()
            ok = out is not None and m.state.is_over()
        except Exception:
            traceback.print_exc()
            ok, out, m = False, None, None
        wall = time.perf_counter() - t0
        walls.append(wall)
        if not ok:
            bad += 1
            print(f"seed {seed}: FAILED after {wall:.1f} s", flush=True)
            continue
        terms[out.termination.name] = terms.get(out.termination.name, 0) + 1
        turns.append(m.state.total_turns)
        extra = ""
        if counts is not None:
            s = m.state
            end = {side: (s.baseline_standing(side), sum(not k.baseline for k in s.standing_in(side))) for side in "AB"}
            extra = (
                " "
                + " ".join(f"{k}={v}" for k, v in sorted(counts.items()))
                + " "
                + " ".join(f"{side}:base={b},field={f}" for side, (b, f) in end.items())
            )
        print(
            f"seed {seed}: {out.termination.name} winner={out.winner} points={dict(out.points)} "
            f"turns={m.state.total_turns} sim={m.state.clock / 60:.1f} min glitches={len(m.glitches)} wall={wall:.1f} "
            f"s load={os.getloadavg()[0]:.1f}{extra}",
            flush=True,
        )
    print(
        f"{a.ruleset}: {a.matches - bad}/{a.matches} matches ended in an outcome; terminations {terms}; wall mean "
        f"{sum(walls) / len(walls):.1f} s, median {statistics.median(walls):.1f} s, max {max(walls):.1f} s, "
        f"{sum(w <= 10.0 for w in walls)} within 10 s"
    )
    done = a.matches - bad
    if done:
        for name in ("EARLY_KING", "ROUND_CAP"):
            p, lo, hi = wilson(terms.get(name, 0), done)
            print(
                f"{name.lower().replace('_', ' ')}: {terms.get(name, 0)} of {done} = {p:.3f} (95 %: {lo:.3f}–{hi:.3f})"
            )
        print(f"turns: mean {statistics.mean(turns):.1f}, median {statistics.median(turns):g}, max {max(turns)}")
    return 1 if bad else 0


def play(m: Match) -> dict[str, int]:
    """Play ``m`` to its end action by action (as :meth:`Match.run` does), counting its flicks
    (throws), returns (inkasts) and misflicks."""
    c = {k: 0 for k in ("throws", "king", "empty", "inkasted", "invalid", "placed")}
    while m.state.outcome() is None:
        r = m.step()
        if isinstance(r.action, (BatonThrow, KingThrow)):
            c["king" if isinstance(r.action, KingThrow) else "throws"] += 1
            c["empty"] += isinstance(r.outcome, ThrowOutcome) and not r.outcome.felled
        elif isinstance(r.action, Inkast):
            c["inkasted"] += len(r.action.kubbs)
            c["invalid"] += len(r.outcome.invalid) if isinstance(r.outcome, InkastOutcome) else 0
        elif isinstance(r.action, PlaceKubb):
            c["placed"] += 1
    return c


if __name__ == "__main__":
    sys.exit(main())

"""Play seeded DM matches and compare the line kubb3d throws from with DM §8's advance line.

    python benchmarks/dm_advance_play.py --seeds 1-40 [--players club,club]
        [--strategy default,default] [--sets 3] [--time-limit MIN] [--option NAME=VALUE]
        [--save TURNS.jsonl.gz]
    python benchmarks/dm_advance_play.py --load TURNS.jsonl.gz[,MORE.jsonl.gz]
    python benchmarks/dm_advance_play.py --load tests/data/dm_advance_turns.json

Each turn of baton throws (tests/judge/dm_advance_play.py: the pieces standing when the throws
begin, the line of every throw) is judged by tests/judge/independent_dm_advance.py (written from
DM §8 alone): the line of every baton throw must lie on the field kubb nearest the centre line
in the thrower's own half, or on the baseline when none stands there, and a king throw on the
baseline (DM §10). Turns where DM is silent (a kubb on the centre line, over a sideline, …) are
counted by reason and not compared. Every turn is also checked under the relations (mirrored,
ends swapped, kubbs renamed): kubb3d's line for the changed layout must follow.
``--save`` keeps every turn, ``--store`` (with ``--load``) writes the turns of the loaded files
that ``--keep`` selects to a ``.json`` file of stored turns. Prints every disagreement and a
table. docs/examinations/2026-12-07-dm-advance-line.md gives the method and the runs. CPU: about
1–10 s per match; run it under ``nice``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "judge"))

from seed_ranges import seeds as parse_seeds  # noqa: E402
from dm_advance_play import compact, compare_turn, record_turns, relation_checks, where_on_kubb  # noqa: E402


def _turns(args):
    if args.load:
        for name in args.load.split(","):
            if name.endswith(".json"):
                yield from json.loads(Path(name).read_text(encoding="utf-8"))["turns"]
                continue
            with gzip.open(name, "rt", encoding="utf-8") as f:
                for line in f:
                    yield json.loads(line)
        return
    config: dict = {
        "skills": tuple(args.players.split(",")),
        "strategies": tuple(args.strategy.split(",")),
    }
    if args.sets:
        config["sets"] = args.sets
    if args.time_limit is not None:
        config["time_limit_s"] = args.time_limit * 60.0
    if args.option:
        config["options"] = tuple((k, v) for k, _, v in (o.partition("=") for o in args.option))
    save = gzip.open(args.save, "wt", encoding="utf-8") if args.save else None
    try:
        for seed in parse_seeds(args.seeds):
            for turn in record_turns(seed, **config):
                if save:
                    save.write(json.dumps(turn) + "\n")
                yield turn
    finally:
        if save:
            save.close()


def _keep(turn: dict, result: dict, failed: list[str], want: str, nth: bool, unusual: bool) -> bool:
    """``--keep``: ``all``, ``advance`` (an advance line, a silent case, a disagreement) or
    ``odd`` (a silent case, a disagreement, a failed relation, a kubb unlisted or standing
    outside its engine half, the engine's line ``elsewhere`` on the kubb: ``unusual``) and
    every ``--every``-th turn with an advance line (``nth``)."""
    odd = result["kind"] == "silent" or result["differ"] or failed or turn["unlisted"] or _crossed(turn) or unusual
    if want == "all":
        return True
    if want == "advance":
        return bool(odd or result["kind"] == "advance")
    return bool(odd or (nth and result["kind"] == "advance"))


SILENT = {
    "names no point": "nearest by corner and by centre differ",
    "centre line": "a kubb on the centre line",
    "sideline": "a kubb over a sideline decides",
    "baseline kubb": "a baseline kubb pushed off in front",
    "behind the baseline": "a kubb partly behind the baseline",
}


def _why(reason: str) -> str:
    """The kind of DM §8's silence, without the kubbs' names."""
    return next(v for k, v in SILENT.items() if k in reason)


def _where(w: float) -> str:
    """Where on the kubb's base (0 back edge, 1 front edge) the engine's line lies, in bands."""
    if w <= 0.06:
        return "back edge (0.00-0.06)"
    if abs(w - 0.5) <= 0.06:
        return "centre (0.44-0.56)"
    if w >= 0.94:
        return "front edge (0.94-1.00)"
    return "elsewhere"


def _crossed(turn: dict) -> list[str]:
    """Field kubbs standing upright (centre higher than 5 cm) in the other half than the one the
    engine keeps them in."""
    return [
        k
        for k, p in turn["pieces"].items()
        if k != "king" and p["field"] and p["p"][2] > 0.05 and p["half"] != ("A" if p["p"][0] < 0 else "B")
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1-5")
    ap.add_argument("--players", default="club,club", help="skills, e.g. novice,elite")
    ap.add_argument("--strategy", default="default,default", help="strategies of the sides")
    ap.add_argument("--sets", type=int, default=None, help="best of this many sets")
    ap.add_argument("--time-limit", type=float, default=None, help="minutes (then the DM §9 tie-break)")
    ap.add_argument("--option", action="append", default=[], help="referee option NAME=VALUE")
    ap.add_argument("--save", default=None, help="write every turn here (.jsonl.gz)")
    ap.add_argument("--load", default=None, help="compare the turns of --save files or a stored .json")
    ap.add_argument("--store", default=None, help="with --load: write the turns --keep selects here (.json)")
    ap.add_argument("--keep", default="advance", choices=("all", "advance", "odd"))
    ap.add_argument("--every", type=int, default=20, help="with --keep odd: also every N-th advance turn")
    args = ap.parse_args(argv)
    t0 = time.process_time()
    counts: Counter[str] = Counter()
    silent: Counter[str] = Counter()
    where: Counter[str] = Counter()
    relations: Counter[str] = Counter()
    matches = set()
    stored = []
    for turn in _turns(args):
        matches.add((turn["seed"], json.dumps(turn.get("config"), sort_keys=True)))
        result = compare_turn(turn)
        failed = relation_checks(turn, relations)
        counts["turns"] += 1
        counts[f"turns: {result['kind']}"] += 1
        if result["kind"] == "silent":
            silent[_why(str(result["line"].silent))] += 1
        for kind, x, depth, agrees in result["throws"]:
            what = "king throws" if kind == "KingThrow" else "baton throws"
            counts[what] += 1
            if agrees is None:
                counts[f"{what}: not compared"] += 1
                continue
            counts[f"{what}: compared, turn {result['kind']}"] += 1
            counts[f"{what}: {'agree' if agrees else 'DIFFER'}"] += 1
            if not agrees:
                print(
                    f"DIFFER seed {turn['seed']} set {turn['set']} turn {turn['turn']} {turn['side']} {kind}: "
                    f"line x = {x:.4f} (depth {depth:.4f}), DM §8: {result['line']}"
                )
        band = None
        if result["kind"] == "advance":
            counts["turns compared with an advance line"] += 1
            w = where_on_kubb(turn, result)
            if w is not None:
                band = _where(w)
                where[band] += 1
        crossed = _crossed(turn)
        if crossed:
            counts["turns with a field kubb standing outside its engine half"] += 1
            print(f"CROSSED seed {turn['seed']} set {turn['set']} turn {turn['turn']}: {crossed}")
        if turn["unlisted"]:
            counts["turns with unlisted standing kubbs"] += 1
            print(f"UNLISTED seed {turn['seed']} set {turn['set']} turn {turn['turn']}: {turn['unlisted']}")
        for f in failed:
            relations["FAILED"] += 1
            print(f"RELATION seed {turn['seed']} set {turn['set']} turn {turn['turn']}: {f}")
        if args.store and _keep(
            turn, result, failed, args.keep, counts["turns: advance"] % args.every == 1, band == "elsewhere"
        ):
            stored.append(compact(turn))
    print(f"matches {len(matches)}")
    for key in sorted(counts):
        print(f"{key:48s} {counts[key]}")
    for key in sorted(silent):
        print(f"silent: {key:40s} {silent[key]}")
    for key in sorted(where):
        print(f"engine's line on the kubb: {key:21s} {where[key]}")
    for key in sorted(relations):
        print(f"{key:48s} {relations[key]}")
    print(f"CPU {time.process_time() - t0:.0f} s")
    if args.store:
        Path(args.store).write_text(json.dumps({"turns": stored}, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"stored {len(stored)} turns in {args.store}")
    return 1 if counts["baton throws: DIFFER"] + counts["king throws: DIFFER"] + relations["FAILED"] else 0


if __name__ == "__main__":
    sys.exit(main())

"""Play seeded matches and compare kubb3d's referee with the independent one, call by call.

    python benchmarks/referee_play.py --seeds 1-40 [--ruleset dm] [--players club,club]
        [--strategy default,default] [--out DIFF.jsonl] [--save ALL.jsonl.gz]
    python benchmarks/referee_play.py --load ALL.jsonl.gz[,MORE.jsonl.gz]
    python benchmarks/referee_play.py --load tests/data/play_positions.json
    python benchmarks/referee_play.py --seeds 1-20 --invalid 0.2 [--save ALL.jsonl.gz]

Prints every disagreement, the referee calls and what they were (foul throws, king throws,
second attempts, penalty throws), and a table of checks by kind: agreements, disagreements
and kubb3d's most common answers. ``--out`` keeps the positions with a disagreement and
``--save`` every position (the format of tests/judge/play_positions.py), so that a table can
be made again without physics (``--load``); a ``.json`` file given to ``--load`` is a file of
stored cases (tests/data/play_positions.json: each case's position with the rulings kubb3d made
when it was recorded), and every check of each case is printed under its name.
docs/examinations/2026-12-07-play.md gives the
method and a record of a run. ``--invalid RATE`` plays both sides through
tests/judge/invalid_play.py (that share of the baton throws made a foul or thrown at the king,
one inkasted kubb in twenty aimed at the king; ``--inkast-fouls S``: a share S of the inkasted
kubbs thrown with the toe past the baseline or from a line nearer the centre, counted) and
judges the fouls independently (tests/judge/independent_dm_throws.py);
docs/examinations/2026-12-07-ws-invalid.md gives the runs. CPU: about 1–7 s per DM match; run it under ``nice``.
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

from agreement_table import print_agreement  # noqa: E402
from play_io import close, count, read_lines, write_cases  # noqa: E402
from seed_ranges import seeds as parse_seeds  # noqa: E402
from play_comparison import RoundRecord, compare  # noqa: E402
from play_positions import record_match  # noqa: E402
from independent_dm_throws import dm_throw_validity, dm_validity_checks  # noqa: E402


def _store(args) -> int:
    """Write the calls named by ``--cases`` of the positions of ``--load`` to ``--store``, in the
    format of tests/data/play_positions.json (tests/data/dm_invalid_positions.json)."""
    want = {}
    for item in args.cases.split(","):
        name, where = item.split("=")
        where, _, n = where.partition("@")
        seed, call = where.split(":")
        want[(int(n or 0), int(seed), int(call))] = name
    cases = {}
    for n, name in enumerate(args.load.split(",")):
        for pos in read_lines(name):
            key = (n, pos["seed"], pos["call"])
            if key in want:
                cases[key] = {"name": want[key], "position": pos}
    return write_cases(args.store, want, cases)


def _changed(records: list[dict]) -> Counter[str]:
    """What the saboteurs of tests/judge/invalid_play.py changed in a match, by kind."""
    out: Counter[str] = Counter()
    for r in records:
        if r.get("type") == "sabotage":
            for done in r["done"].values():
                out.update(kind for _, kind in done)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1-10")
    ap.add_argument("--ruleset", default="dm")
    ap.add_argument("--players", default="club,club", help="skills, e.g. novice,elite")
    ap.add_argument("--strategy", default="default,default", help="strategies of the sides")
    ap.add_argument("--out", default=None, help="write positions with a disagreement here")
    ap.add_argument("--save", default=None, help="write every position here (.jsonl.gz)")
    ap.add_argument("--load", default=None, help="compare the positions of --save files (comma-separated)")
    ap.add_argument("--invalid", type=float, default=None, help="share of baton throws made fouls or at the king")
    ap.add_argument(
        "--inkast-fouls", type=float, default=0.0, help="with --invalid: share of kubbs thrown back from past the line"
    )
    ap.add_argument("--store", default=None, help="with --load and --cases: write those calls here (.json)")
    ap.add_argument("--cases", default="", help="name=SEED:CALL[@N],… the calls --store keeps (@N: N-th --load file)")
    args = ap.parse_args(argv)
    if args.store:
        return _store(args)
    agree: Counter[str] = Counter()
    differ: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    values: dict[str, Counter[str]] = {}
    out = open(args.out, "w") if args.out else None
    t0 = time.process_time()
    seeds = parse_seeds(args.seeds)
    skills = tuple(args.players.split(","))
    save = gzip.open(args.save, "wt") if args.save else None

    def positions():
        if args.load:
            for name in args.load.split(","):
                if name.endswith(".json"):  # stored cases: every check printed (see the module doc)
                    for case in json.loads(Path(name).read_text(encoding="utf-8"))["cases"]:
                        pos = case["position"]
                        players = ",".join((pos.get("config") or {}).get("skills", ()))
                        print(f"case {case['name']}: seed {pos['seed']} call {pos['call']} {pos['kind']}, {players}")
                        yield {**pos, "stored_case": case["name"]}
                    continue
                yield from read_lines(name)
            return
        strategies = tuple(args.strategy.split(","))
        for seed in seeds:
            if args.invalid is not None:
                from invalid_play import record_invalid_match

                played = record_invalid_match(
                    seed,
                    args.ruleset,
                    rate=args.invalid,
                    inkast_foul_rate=args.inkast_fouls,
                    skills=skills,
                    strategies=strategies,
                )
                for kind, n in _changed(played[1]).items():
                    calls[f"changed: {kind}"] += n
                played_positions = played[0]
            else:
                played_positions = record_match(seed, args.ruleset, skills=skills, strategies=strategies)
            for pos in played_positions:
                if save:
                    save.write(json.dumps(pos) + "\n")
                yield pos

    matches = set()
    record = RoundRecord()
    for pos in positions():
        seed = pos["seed"]
        matches.add((seed, pos["ruleset"], json.dumps(pos.get("config"))))
        calls[pos["kind"]] += 1
        ctx, theirs = pos["ctx"], pos["kubb3d"]
        legal = None
        extra = []
        history = None
        if pos["kind"] == "throw":
            calls["foul throws"] += not ctx["legal"]
            calls["king throws"] += bool(ctx["king_throw"])
            calls["king felled early"] += bool(theirs.get("loser")) and not ctx["king_throw"]
            king_down = (theirs["rulings"].get("king") or {}).get("status", "standing") != "standing"
            calls["king felled by a foul throw"] += king_down and not ctx["legal"]
            if "action" in pos:  # recorded with the throw's record: the fouls judged too
                v = dm_throw_validity(pos)
                extra = dm_validity_checks(pos, v)
                legal = v["valid"] if v["valid"] is not None else bool(ctx["legal"])
                if "stored_case" not in pos:
                    # the referee's own record of the round (a match's positions come in order)
                    history = record.history(pos)
                    record.add(pos, legal)
        else:
            calls["second attempts"] += ctx["attempt"] == 2
            calls["penalty throws"] += ctx.get("thrower") not in (None, ctx["inkasting_side"])
            calls["king felled by a thrown kubb"] += bool(theirs.get("loser"))
        bad = []
        for c in extra + compare(pos, legal=legal, history=history):
            count(c, agree, differ, values)
            if "stored_case" in pos:
                said = "agree" if c.agrees else "DIFFER"
                print(f"  {said} {c.kind} {c.piece}: mine {c.mine} kubb3d {c.theirs} ({c.note})")
                continue
            if not c.agrees:
                bad.append([c.kind, c.piece, c.mine, c.theirs, c.note])
                print(f"seed {seed} call {pos['call']} {c.kind} {c.piece}: mine {c.mine} kubb3d {c.theirs} ({c.note})")
        if bad and out:
            out.write(json.dumps({**pos, "disagreements": bad}) + "\n")
            out.flush()
    close(out, save)
    print(f"matches {len(matches)}, referee calls {dict(calls)}, CPU {time.process_time() - t0:.0f} s")
    print_agreement(agree, differ, values, width=46, top=4)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

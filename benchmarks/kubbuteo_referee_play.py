"""Play seeded Kubbuteo matches and compare kubb3d's referee with the independent KT one.

    python benchmarks/kubbuteo_referee_play.py --seeds 1-20 [--players club,club]
        [--strategy default,default] [--save ALL.jsonl.gz] [--out DIFF.jsonl]
    python benchmarks/kubbuteo_referee_play.py --load ALL.jsonl.gz[,MORE.jsonl.gz]
    python benchmarks/kubbuteo_referee_play.py --load tests/data/kt_play_positions.json

Every referee call of every match (the snapshot at rest after each flick or return, the
context, kubb3d's rulings, the replay's record of the action: tests/kubbuteo/kt_play_positions.py)
is ruled on again by tests/kubbuteo/independent_kt_referee.py and compared
(tests/kubbuteo/kt_comparison.py). Prints every disagreement, what the matches exercised
(king knocked early, misflicks, placed kubbs, advance lines …) and a table of checks by
kind: agreements, disagreements and kubb3d's most common answers. ``--save`` keeps every
match (one JSON line each) so that the table can be made again without physics (``--load``);
``--out`` keeps the matches with a disagreement. A ``.json`` file given to ``--load`` is a file of
stored cases (tests/data/kt_play_positions.json: each position with the referee's knowledge of
the match before it and the rulings kubb3d made when it was recorded); every check of each case
is printed under its name. docs/examinations/2026-12-07-kubbuteo-play.md
gives the method and a record of a run. ``--invalid RATE`` plays both players through
tests/kubbuteo/kt_invalid_play.py: that share of the flicks is made from the wrong place, at
the king early, or a misflicked return
(docs/examinations/2026-12-07-ws-invalid.md, finding 8). CPU: about 5–15 s per match; run it
under ``nice``.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "kubbuteo"))

from agreement_table import print_agreement  # noqa: E402
from play_io import (  # noqa: E402
    close,
    count,
    match_arguments,
    match_outputs,
    print_totals,
    read_lines,
    record_matches,
    tallies,
    write_cases,
)
from seed_ranges import seeds as parse_seeds  # noqa: E402
from kt_comparison import compare_match  # noqa: E402
from kt_play_positions import record_kt_match  # noqa: E402


def _coverage(match: dict, calls: Counter[str]) -> None:
    """What the match exercised, from its positions and records (kubb3d's view of them)."""
    for pos in match["positions"]:
        ctx, theirs = pos["ctx"], pos["kubb3d"]
        calls[pos["kind"]] += 1
        if pos["kind"] == "throw":
            calls["king attempts"] += pos["action"]["type"] == "KingThrow"
            calls["king knocked early (loss)"] += bool(theirs.get("loser")) and pos["action"]["type"] != "KingThrow"
            calls["flicks from an advance line"] += (
                pos["action"].get("line_x") is not None and abs(abs(pos["action"]["line_x"]) - 0.5207) > 0.001
            )
            calls["baseline kubbs stood up again"] += sum(
                1
                for k, r in theirs["rulings"].items()
                if r["consequence"] in ("raise at original spot", "raise at end of round")
                and k not in ctx["pending_raise"]
            )
        else:
            calls["second attempts"] += ctx["attempt"] == 2
            calls["misflicked kubbs"] += sum(1 for r in theirs["rulings"].values() if r.get("valid") is False)
    for r in match["records"]:
        if r.get("type") == "action" and r["action"]["type"] == "PlaceKubb":
            calls["placed kubbs"] += 1
        if r.get("type") == "outcome":
            calls[f"ended: {r.get('termination')}"] += 1
        if r.get("type") == "sabotage":
            for done in r["done"].values():
                for _, kind in done:
                    calls[f"changed: {kind}"] += 1


def stored_cases(name: str, agree: Counter, differ: Counter, values: dict[str, Counter]) -> int:
    """Compare and print every check of the stored cases of ``name``; the number of cases."""
    from independent_kt_referee import referee_flick, referee_return
    from kt_comparison import compare_flick, compare_return

    cases = json.loads(Path(name).read_text(encoding="utf-8"))["cases"]
    for case in cases:
        pos, prior = case["position"], case["prior"]
        players = ",".join(pos["config"]["skills"])
        print(f"case {case['name']}: seed {pos['seed']} call {pos['call']} {pos['kind']}, {players}")
        if pos["kind"] == "throw":
            checks = compare_flick(pos, prior, referee_flick(pos, prior))
        else:
            checks = compare_return(pos, prior, referee_return(pos, prior))
        for c in checks:
            count(c, agree, differ, values)
            said = "agree" if c.agrees else "DIFFER"
            print(f"  {said} {c.kind} {c.piece}: mine {c.mine} kubb3d {c.theirs} ({c.note})")
        snap = pos["snapshot"]
        g = float(snap["gravity"])
        weight = {p["id"]: p["mass"] * g for p in snap["pieces"]}
        pushes: Counter[tuple[str, str]] = Counter()
        for contact in snap["contacts"]:
            if contact["a"] in weight and contact["b"] in weight:
                pushes[tuple(sorted((contact["a"], contact["b"])))] += contact["normal_force"]  # type: ignore[index]
        for (a, b), force in sorted(pushes.items()):
            print(
                f"  contact {a} {b}: {force * 1000:.1f} mN (weights {weight[a] * 1000:.0f} mN, "
                f"{weight[b] * 1000:.0f} mN)"
            )
    return len(cases)


def _store(args) -> int:
    """Write the calls named by ``--cases`` (name=SEED:CALL,…) of the matches of ``--load`` to
    ``--store``, each with the referee's knowledge of the match before it (``prior``), in the
    format of tests/data/kt_play_positions.json."""
    from independent_kt_referee import walk

    want = {}
    for item in args.cases.split(","):
        name, where = item.split("=")
        seed, call = where.split(":")
        want[(int(seed), int(call))] = name
    cases = {}
    for name in args.load.split(","):
        for m in read_lines(name):
            for pos, prior, _ in walk(m["positions"]):
                key = (m["seed"], pos["call"])
                if key in want:
                    cases[key] = {"name": want[key], "expect_kinds": [], "prior": prior, "position": pos}
    return write_cases(args.store, want, cases)


def main(argv: list[str] | None = None) -> int:
    ap = match_arguments((__doc__ or "").splitlines()[0])
    ap.add_argument("--invalid", type=float, default=None, help="share of flicks changed (kt_invalid_play.py)")
    ap.add_argument("--store", default=None, help="with --load and --cases: write those calls here (.json)")
    ap.add_argument("--cases", default="", help="name=SEED:CALL,… the calls --store keeps")
    args = ap.parse_args(argv)
    if args.store:
        return _store(args)
    agree, differ, calls, values = tallies()
    t0 = time.process_time()
    skills, strategies, save, out = match_outputs(args)

    n_matches = shown = 0

    def matches():
        nonlocal n_matches
        if args.load:
            for name in args.load.split(","):
                if name.endswith(".json"):  # stored cases (see the module doc)
                    n_matches += stored_cases(name, agree, differ, values)
                    continue
                yield from read_lines(name)
            return
        record = record_kt_match
        if args.invalid is not None:
            from functools import partial

            from kt_invalid_play import record_kt_invalid_match

            record = partial(record_kt_invalid_match, rate=args.invalid)
        yield from record_matches(parse_seeds(args.seeds), record, skills, strategies, save)

    for m in matches():
        n_matches += 1
        _coverage(m, calls)
        bad = []
        for c in compare_match(m["positions"], m["records"]):
            count(c, agree, differ, values)
            if not c.agrees:
                bad.append([c.kind, c.piece, c.call, c.mine, c.theirs, c.note])
                if shown < args.show and "info" not in c.kind:
                    shown += 1
                    print(
                        f"seed {m['seed']} {','.join(m['skills'])} call {c.call} {c.kind} {c.piece}: "
                        f"mine {c.mine} kubb3d {c.theirs} ({c.note})"
                    )
        if bad and out:
            out.write(json.dumps({**m, "disagreements": bad}) + "\n")
            out.flush()
    close(save, out)
    print_totals(n_matches, t0, calls)
    print_agreement(agree, differ, values, width=58, top=3)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

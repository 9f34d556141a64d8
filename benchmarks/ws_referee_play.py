"""Play seeded WS matches and compare kubb3d's referee with the independent WS one.

    python benchmarks/ws_referee_play.py --seeds 1-5 [--players club,club]
        [--strategy default,default] [--save ALL.jsonl.gz] [--out DIFF.jsonl]
    python benchmarks/ws_referee_play.py --load ALL.jsonl.gz[,MORE.jsonl.gz]
    python benchmarks/ws_referee_play.py --load tests/data/ws_play_positions.json
    python benchmarks/ws_referee_play.py --seeds 1-20 --invalid 0.2 [--save ALL.jsonl.gz]

Every referee call of every match (the snapshot at rest after each baton throw or inkast
attempt, the context, kubb3d's rulings, the replay's record of the action:
tests/judge/ws_play_positions.py) is ruled on again by tests/judge/independent_ws_referee.py
and compared (tests/judge/ws_play_comparison.py), with the match's procedure and result.
Prints every disagreement, what the matches exercised and a table of checks by kind:
agreements, disagreements and kubb3d's most common answers. ``--save`` keeps every match
(one JSON line each) so that the table can be made again without physics (``--load``);
``--out`` keeps the matches with a disagreement. ``--invalid RATE`` plays both teams through
tests/judge/invalid_play.py: that share of the baton throws is made invalid (a helicopter, a
tilt, a foot over the line, a line nearer the centre than allowed) or aimed at the king, and
one inkasted kubb in twenty is aimed at the king (``--inkast-king``); ``--inkast-fouls R``: a
share R of the inkasted kubbs is thrown with the toe past the baseline or from a line nearer
the centre (docs/examinations/2026-12-07-ws-invalid.md, "Kubbs thrown back from past the line").
docs/examinations/2026-12-07-ws-play.md gives the method and a record of a run,
docs/examinations/2026-12-07-ws-invalid.md the runs with ``--invalid``. CPU: about 3–6 s per
match (1–3 s with ``--invalid``, whose matches end early); run it under ``nice``.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "judge"))

from agreement_table import print_agreement  # noqa: E402
from independent_referee import Box  # noqa: E402
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
from ws_play_comparison import compare_match  # noqa: E402
from ws_play_positions import record_ws_match  # noqa: E402

from kubb3d.pitch import opponent  # noqa: E402


def _slid(pos: dict) -> int:
    """Kubbs a throw moved more than 15 cm that stand alone at rest and never tilted 10° (a
    physics matter, docs/physics.md 'upright slide': counted, not a referee check)."""
    pieces = {p["id"]: p for p in pos["snapshot"]["pieces"]}
    n = 0
    for k, pose in pos["ctx"]["round_start"].items():
        if k == "king" or k not in pieces:
            continue
        box = Box(pieces[k])
        shift = math.hypot(box.c[0] - pose["position"][0], box.c[1] - pose["position"][1])
        n += shift > 0.15 and box.max_tilt < math.radians(10) and box.stands_alone()
    return n


def _coverage(match: dict, calls: Counter[str]) -> None:
    """What the match exercised (kubb3d's view of it)."""
    for pos in match["positions"]:
        ctx, theirs = pos["ctx"], pos["kubb3d"]
        calls[pos["kind"]] += 1
        if pos["kind"] == "throw":
            calls["kubbs slid standing (over 15 cm, tilt under 10 deg)"] += _slid(pos)
            calls["invalid throws"] += not ctx["legal"]
            for rule in sorted({v[0] for v in ctx.get("violations", [])}):
                calls[f"invalid throws ({rule})"] += 1
            calls["king throws"] += pos["action"]["type"] == "KingThrow"
            early = bool(theirs.get("loser")) and theirs.get("loser") == ctx["thrower"]
            calls["king felled early"] += early
            calls["king felled early by a throw at a kubb"] += early and pos["action"]["type"] == "BatonThrow"
            king_down = (theirs["rulings"].get("king") or {}).get("status", "standing") != "standing"
            calls["king felled by an invalid throw"] += king_down and not ctx["legal"]
            params = ((pos["action"].get("throws") or [{}])[0]).get("params") or {}
            if params.get("line_x") is not None and pos["action"].get("line_x") is not None:
                ahead = (params["line_x"] - pos["action"]["line_x"]) * (1 if ctx["thrower"] == "A" else -1)
                calls["thrown from a line nearer the centre than allowed"] += ahead > 1e-9
                calls["king throws from nearer the centre than the baseline"] += (
                    ahead > 1e-9 and pos["action"]["type"] == "KingThrow"
                )
        else:
            calls["second attempts"] += ctx["attempt"] == 2
            calls["kubbs not in the field"] += sum(1 for r in theirs["rulings"].values() if r.get("valid") is False)
            inkaster = ctx.get("thrower") or ctx["inkasting_side"]
            calls["king felled by a thrown-back kubb"] += theirs.get("loser") == inkaster
            calls["king felled by a thrown-back kubb, the receiving side losing"] += theirs.get("loser") == opponent(
                inkaster
            )
    for r in match["records"]:
        if r.get("type") == "action" and r["action"]["type"] == "PlaceKubb":
            calls["placed kubbs"] += 1
        if r.get("type") == "outcome":
            calls[f"ended: {r.get('termination')}"] += 1
        if r.get("type") == "sabotage":
            for done in r["done"].values():
                for _, kind in done:
                    calls[f"changed: {kind}"] += 1


def _stored(name: str) -> int:
    """The stored positions of tests/data/ws_play_positions.json (or ws_invalid_positions.json):
    each case with its checks on kubb3d's recorded rulings, for a case with its turn's start the
    front line, for a case with its allowed line the throw's validity."""
    from independent_ws_referee import front_line, poses_of
    from ws_play_comparison import compare_inkast, compare_throw

    for case in json.loads(Path(name).read_text(encoding="utf-8"))["cases"]:
        pos = case["position"]
        players = ",".join(pos["config"].get("skills", ["club", "club"]))
        print(f"case {case['name']}: seed {pos['seed']} call {pos['call']} {pos['kind']}, {players}")
        if pos["kind"] == "throw" and "line" in case:
            # a stored call with the line its thrower may throw from: the throw's validity too
            from independent_ws_referee import throw_validity
            from ws_play_comparison import validity_checks

            v = throw_validity(pos, case["line"])
            legal = v["valid"] if v["valid"] is not None else bool(pos["ctx"]["legal"])
            checks = validity_checks(pos, v) + compare_throw(pos, set(case.get("field", [])), legal=legal)
        elif pos["kind"] == "throw":
            checks = compare_throw(pos, set(case.get("field", [])))
        else:
            checks = compare_inkast(pos)
        for c in checks:
            verdict = "AGREE" if c.agrees else "DIFFER"
            print(f"  {verdict} {c.kind} {c.piece}: mine {c.mine} kubb3d {c.theirs} ({c.note})")
        if "world" in case:
            sizes = {p["id"]: p["half_extents"] for p in pos["snapshot"]["pieces"]}
            side = pos["ctx"]["thrower"]
            poses = poses_of(case["world"])
            line = front_line(side, poses, sizes, pos["snapshot"]["pitch"])
            front = None
            for k, p in poses.items():
                if k == "king" or k not in sizes:
                    continue
                box = Box({"id": k, "half_extents": sizes[k], **p})
                xs = box.base_square()[:, 0]
                if abs((xs.min() if side == "A" else xs.max()) - line) < 1e-9:
                    front = (k, math.degrees(math.atan2(box.R[1, 0], box.R[0, 0])))
            x = pos["action"]["line_x"]
            ahead = (x - line) if side == "A" else (line - x)
            print(
                f"  line: played x {x:.4f}, front line {line:.4f} ({ahead * 1000:.1f} mm in front), "
                f"front kubb {front[0] if front else '-'} turned {front[1] if front else 0.0:.1f} deg"
            )
    return 0


def _store(args) -> int:
    """Write the calls named by ``--cases`` of the matches of ``--load`` to ``--store``: each
    with the kubbs thrown back before it (``field``) and, for a baton throw, the line its
    thrower may throw from (``line``), in the format of tests/data/ws_invalid_positions.json."""
    from independent_ws_referee import field_kubbs_before
    from ws_play_comparison import line_at

    want = {}
    for item in args.cases.split(","):
        name, where = item.split("=")
        where, _, n = where.partition("@")  # @N: from the N-th file of --load (0: the first)
        seed, call = where.split(":")
        want[(int(n or 0), int(seed), int(call))] = name
    cases = {}
    for n, name in enumerate(args.load.split(",")):
        for m in read_lines(name):
            records = m["records"]
            sizes = {p["id"]: p["half_extents"] for p in m["positions"][0]["snapshot"]["pieces"]}
            before = field_kubbs_before(records)
            for pos in m["positions"]:
                key = (n, m["seed"], pos["call"])
                if key not in want:
                    continue
                case = {"name": want[key], "position": pos, "field": sorted(before.get(pos["action"]["i"], set()))}
                if pos["kind"] == "throw":
                    case["line"] = line_at(pos, records, sizes)
                cases[key] = case
    return write_cases(args.store, want, cases)


def main(argv: list[str] | None = None) -> int:
    ap = match_arguments((__doc__ or "").splitlines()[0])
    ap.add_argument("--invalid", type=float, default=None, help="share of baton throws made invalid or at the king")
    ap.add_argument("--inkast-king", type=float, default=0.05, help="with --invalid: share of kubbs aimed at the king")
    ap.add_argument(
        "--inkast-fouls", type=float, default=0.0, help="with --invalid: share of kubbs thrown back from past the line"
    )
    ap.add_argument("--store", default=None, help="with --load and --cases: write those calls here (.json)")
    ap.add_argument("--cases", default="", help="name=SEED:CALL[@N],… the calls --store keeps (@N: N-th --load file)")
    args = ap.parse_args(argv)
    if args.store:
        return _store(args)
    agree, differ, calls, values = tallies()
    t0 = time.process_time()
    skills, strategies, save, out = match_outputs(args)

    if args.load and args.load.endswith(".json"):
        return _stored(args.load)

    def matches():
        if args.load:
            for name in args.load.split(","):
                yield from read_lines(name)
            return
        record = record_ws_match
        if args.invalid is not None:
            from functools import partial

            from invalid_play import record_invalid_match

            record = partial(
                record_invalid_match,
                rate=args.invalid,
                inkast_rate=args.inkast_king,
                inkast_foul_rate=args.inkast_fouls,
            )
        yield from record_matches(parse_seeds(args.seeds), record, skills, strategies, save)

    n_matches = shown = 0
    seeds = set()
    where: dict[str, set] = {}
    for m in matches():
        n_matches += 1
        seeds.add((m["seed"], tuple(m["skills"]), tuple(m["strategies"])))
        _coverage(m, calls)
        bad = []
        for c in compare_match(m["positions"], m["records"]):
            count(c, agree, differ, values)
            if not c.agrees:
                where.setdefault(c.kind, set()).add((m["seed"], ",".join(m["skills"]), ",".join(m["strategies"])))
                bad.append([c.kind, c.piece, c.call, c.mine, c.theirs, c.note])
                if shown < args.show:
                    shown += 1
                    print(
                        f"seed {m['seed']} {','.join(m['skills'])} {','.join(m['strategies'])} call {c.call} "
                        f"{c.kind} {c.piece}: mine {c.mine} kubb3d {c.theirs} ({c.note})"
                    )
        if bad and out:
            out.write(json.dumps({**m, "disagreements": bad}) + "\n")
            out.flush()
    close(save, out)
    print_totals(n_matches, t0, calls)
    print_agreement(agree, differ, values, width=56, top=3)
    for kind, ms in sorted(where.items()):
        shown_seeds = ", ".join(str(seed) for seed, _, _ in sorted(ms)[:12]) + (" …" if len(ms) > 12 else "")
        print(f"{kind} differs in {len(ms)} matches (seeds {shown_seeds})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A golden check for changes to the judge that must not change a ruling (refactors).

``record`` plays seeded DM, WS and Kubbuteo matches and keeps every snapshot and context
the match handed to ``judge_throw`` and ``judge_inkast`` (a pickle: only for comparing two
trees of the same code base, not a format). ``judge`` re-judges every recorded call, once
as recorded and once per alternative of each referee option that function reads
(:mod:`kubb3d.judge.options`), and writes one line per judgement (its ``to_dict()`` and
the fields outside it). Run ``judge`` with the old and the new tree and compare the files.

Usage::

    .venv/bin/python benchmarks/judge_golden.py record calls.pkl [--matches 12]
    .venv/bin/python benchmarks/judge_golden.py judge calls.pkl before.txt   # old tree
    .venv/bin/python benchmarks/judge_golden.py judge calls.pkl after.txt    # new tree
    cmp before.txt after.txt

With ``--matches 12``: 1,631 calls from 32 matches (12 DM, 12 WS, 8 Kubbuteo), 13,419
judgements; about 2 minutes to record and 40 s to judge on one core.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import sys
from typing import Any

import kubb3d.judge as judge
from kubb3d.judge.options import OPTIONS
from kubb3d.match import Match, MatchConfig


def record(out: str, matches: int) -> None:
    calls: list[tuple[str, tuple, dict]] = []
    real = {"throw": judge.judge_throw, "inkast": judge.judge_inkast}

    def keep(kind: str):
        def wrapped(*args: Any, **kwargs: Any):
            calls.append((kind, args, kwargs))
            return real[kind](*args, **kwargs)

        return wrapped

    judge.judge_throw, judge.judge_inkast = keep("throw"), keep("inkast")  # type: ignore[assignment]
    for ruleset, n in (("dm", matches), ("wikinger", matches), ("kubbuteo", max(1, 2 * matches // 3))):
        for seed in range(n):
            skills = ("club", "novice") if seed % 2 else ("elite", "club")
            Match(MatchConfig(ruleset=ruleset, seed=seed, skills=skills)).run()
            print(f"{ruleset} seed {seed}: {len(calls)} calls so far", flush=True)
    with open(out, "wb") as f:
        pickle.dump(calls, f)


def _line(j: Any) -> str:
    d = j.to_dict()
    rest = {f.name: getattr(j, f.name) for f in dataclasses.fields(j) if f.name not in d}
    rest = {k: sorted(v) if isinstance(v, frozenset) else v for k, v in rest.items()}
    return repr((d, {k: repr(v) for k, v in rest.items()}))


def rejudge(calls_file: str, out: str) -> None:
    with open(calls_file, "rb") as f:
        calls = pickle.load(f)
    lines = []
    for kind, args, kwargs in calls:
        fn = judge.judge_throw if kind == "throw" else judge.judge_inkast
        name = "judge_throw" if kind == "throw" else "judge_inkast"
        snap, ctx = args[0], args[1]
        variants = [ctx]
        for o in OPTIONS:
            if o.choices and name in o.where:
                variants += [dataclasses.replace(ctx, options={**dict(ctx.options), o.name: c}) for c in o.choices]
        for v in variants:
            try:
                lines.append(_line(fn(snap, v, *args[2:], **kwargs)))
            except Exception as exc:  # a refusal is a result too
                lines.append(f"error {exc!r}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(calls)} calls, {len(lines)} judgements → {out}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record", help="play seeded matches and keep the judge's inputs")
    r.add_argument("out")
    r.add_argument("--matches", type=int, default=12, help="DM and WS matches each (Kubbuteo: two thirds)")
    j = sub.add_parser("judge", help="re-judge recorded inputs and write the judgements")
    j.add_argument("calls")
    j.add_argument("out")
    a = ap.parse_args()
    if a.cmd == "record":
        record(a.out, a.matches)
    else:
        rejudge(a.calls, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

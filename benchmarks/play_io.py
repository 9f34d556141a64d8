"""The plumbing the play examinations share (benchmarks/referee_play.py,
benchmarks/ws_referee_play.py, benchmarks/kubbuteo_referee_play.py,
benchmarks/play_metamorphic.py): their common arguments, reading and writing saved matches or
positions (one JSON line each, gzip), and counting checks. No referee's rules are here."""

from __future__ import annotations

import argparse
import gzip
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping


def match_arguments(description: str) -> argparse.ArgumentParser:
    """The arguments of a whole-match examination (WS, Kubbuteo)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--seeds", default="1-5")
    ap.add_argument("--players", default="club,club", help="skills, e.g. novice,elite")
    ap.add_argument("--strategy", default="default,default", help="strategies of the sides")
    ap.add_argument("--save", default=None, help="write every match here (.jsonl.gz)")
    ap.add_argument("--out", default=None, help="write the matches with a disagreement here (.jsonl)")
    ap.add_argument("--load", default=None, help="compare the matches of --save files (comma-separated)")
    ap.add_argument("--show", type=int, default=200, help="print at most this many disagreements")
    return ap


def tallies() -> tuple[Counter[str], Counter[str], Counter[str], dict[str, Counter[str]]]:
    """Empty counts: agreements and disagreements by kind, what was exercised, kubb3d's answers."""
    return Counter(), Counter(), Counter(), {}


def match_outputs(args: argparse.Namespace) -> tuple[tuple[str, ...], tuple[str, ...], Any, Any]:
    """(skills, strategies, the ``--save`` file, the ``--out`` file) of :func:`match_arguments`."""
    save = gzip.open(args.save, "wt") if args.save else None
    out = open(args.out, "w") if args.out else None
    return tuple(args.players.split(",")), tuple(args.strategy.split(",")), save, out


def read_lines(name: str) -> Iterator[Any]:
    """Every JSON line of a saved ``.jsonl.gz`` file, in order."""
    with gzip.open(name, "rt") as f:
        for line in f:
            yield json.loads(line)


def record_matches(
    seeds: Iterable[int], record: Callable[..., tuple[list, list]], skills: tuple, strategies: tuple, save: Any
) -> Iterator[dict[str, Any]]:
    """Play each seeded match with ``record`` (positions, records); each written to ``save``."""
    for seed in seeds:
        positions, records = record(seed, skills=skills, strategies=strategies)
        m = {"seed": seed, "skills": skills, "strategies": strategies, "positions": positions, "records": records}
        if save:
            save.write(json.dumps(m) + "\n")
            save.flush()
        yield m


def count(check: Any, agree: Counter, differ: Counter, values: Mapping[str, Counter] | dict) -> None:
    """Count a check: agreed or differed by kind, and kubb3d's answer (24 characters)."""
    (agree if check.agrees else differ)[check.kind] += 1
    values.setdefault(check.kind, Counter())[str(check.theirs)[:24]] += 1  # type: ignore[union-attr]


def close(*files: Any) -> None:
    for f in files:
        if f:
            f.close()


def print_totals(n_matches: int, t0: float, calls: Counter) -> None:
    """The lines of matches, CPU and what the matches exercised."""
    print(f"matches {n_matches}, CPU {time.process_time() - t0:.0f} s")
    print("exercised: " + ", ".join(f"{k} {v}" for k, v in sorted(calls.items())))


def write_cases(path: str, want: Mapping, cases: Mapping) -> int:
    """Write the calls ``cases`` (by key, in the order of ``want``) to ``path`` as ``{"cases": [...]}``
    and say how many; a key of ``want`` not found ends the run with its name."""
    missing = sorted(set(want) - set(cases))
    if missing:
        raise SystemExit(f"not found: {missing}")
    out = {"cases": [cases[key] for key in want]}
    Path(path).write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"stored {len(out['cases'])} calls in {path}")
    return 0

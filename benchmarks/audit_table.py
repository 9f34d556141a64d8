#!/usr/bin/env python3
"""The audit's figures in docs/rules.md, from the match reports of `kubb3d audit --log`.

``merge`` reads the ``--log`` files (one JSON report per finished match, any rulesets, any seed
order; a seed audited twice is kept once, with its first wall time, and refused when the two
reports differ) and writes one JSON document: per ruleset the seeds, the
cases and violations per check, the violations themselves, the kubbs felled by a throw and of
them ruled standing, and each match's wall time; with ``--progress`` the load averages the run
recorded at the start and end of each chunk (lines ``... load L1 L5 L15``). ``markdown`` prints
the table and notes that docs/rules.md holds between ``<!-- audit-table`` and
``<!-- /audit-table -->``; tests/test_audit_table.py holds the two to each other.

    benchmarks/audit_table.py merge --commit 9179423 --progress PROGRESS LOG... --out docs/audit.json
    benchmarks/audit_table.py markdown docs/audit.json

Exit codes: 0 done, 2 refused (a bad file, named with what was expected).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

RULESETS = ("dm", "wikinger", "kubbuteo")
NAMES = {"dm": "DM", "wikinger": "WS", "kubbuteo": "Kubbuteo"}
TARGET = {"dm": 200, "wikinger": 200, "kubbuteo": 50}
"""Matches issue #37 asks for per ruleset."""


class Refused(Exception):
    pass


def _reports(path: Path) -> list[dict]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise Refused(f"{path}: cannot be read ({exc.strerror})") from None
    out = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            report = json.loads(line)
        except json.JSONDecodeError:
            raise Refused(f"{path}:{number}: expected one JSON report of `kubb3d audit --log` a line") from None
        if not isinstance(report, dict) or report.get("ruleset") not in RULESETS or report.get("matches") != 1:
            raise Refused(f"{path}:{number}: expected the report of one match of dm, wikinger or kubbuteo")
        out.append(report)
    return out


def _loads(progress: Path) -> list[float]:
    """The 1-minute load averages in a progress file (``... load L1 L5 L15`` lines)."""
    try:
        lines = progress.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise Refused(f"{progress}: cannot be read ({exc.strerror})") from None
    out = []
    for line in lines:
        words = line.split()
        if "load" in words:
            at = words.index("load")
            try:
                out.append(float(words[at + 1]))
            except (IndexError, ValueError):
                raise Refused(f"{progress}: expected three load averages after 'load' in {line!r}") from None
    return out


def _verdict(report: dict) -> dict:
    """A match report without its wall time: the same seed on the same code gives the same."""
    return {k: v for k, v in report.items() if k != "wall_s"}


def merge(logs: list[Path], commit: str, progress: Path | None) -> dict:
    """One document of every match report in ``logs``, per ruleset in seed order."""
    by_ruleset: dict[str, dict[int, dict]] = {r: {} for r in RULESETS}
    for path in logs:
        for report in _reports(path):
            (seed,) = (int(s) for s in report["wall_s"])
            earlier = by_ruleset[report["ruleset"]].get(seed)
            if earlier is not None and _verdict(earlier) != _verdict(report):
                raise Refused(f"{path}: {report['ruleset']} seed {seed} is in the logs twice with different reports")
            by_ruleset[report["ruleset"]].setdefault(seed, report)
    rulesets = {}
    for ruleset, reports in by_ruleset.items():
        if not reports:
            continue
        seeds = sorted(reports)
        checks: dict[str, dict] = {}
        for seed in seeds:
            for name, row in reports[seed]["checks"].items():
                total = checks.setdefault(name, {"checked": 0, "violations": 0})
                total["checked"] += row["checked"]
                total["violations"] += row["violations"]
        rulesets[ruleset] = {
            "matches": len(seeds),
            "seeds": seeds,
            "checks": checks,
            "violations": [v for seed in seeds for v in reports[seed]["violations"]],
            "felled_by_throw": sum(reports[s]["felled_by_throw"] for s in seeds),
            "felled_by_throw_ruled_standing": sum(reports[s]["felled_by_throw_ruled_standing"] for s in seeds),
            "wall_s": {str(s): reports[s]["wall_s"][str(s)] for s in seeds},
        }
    doc: dict = {"commit": commit, "players": "club,club", "rulesets": rulesets}
    if progress is not None:
        doc["load_1min"] = _loads(progress)
    return doc


def _ranges(seeds: list[int]) -> str:
    parts, start = [], None
    for i, s in enumerate(seeds):
        if start is None:
            start = s
        if i + 1 == len(seeds) or seeds[i + 1] != s + 1:
            parts.append(f"{start}" if start == s else f"{start}–{s}")
            start = None
    return ", ".join(parts)


def _n(x: int) -> str:
    return f"{x:,}"


def markdown(doc: dict) -> str:
    """The table and notes for docs/rules.md (without the markers)."""
    present = [r for r in RULESETS if r in doc["rulesets"]]
    rs = doc["rulesets"]
    head = "| check | " + " | ".join(f"{NAMES[r]}, {rs[r]['matches']} of {TARGET[r]} matches" for r in present) + " |"
    lines = [f"Commit `{doc['commit']}`, players {doc['players']}. Each cell is \"cases checked / violations\".", ""]
    lines += [head, "| --- |" + " --- |" * len(present)]
    names = list(rs[present[0]]["checks"])
    for name in names:
        cells = [f"{_n(rs[r]['checks'][name]['checked'])} / {rs[r]['checks'][name]['violations']}" for r in present]
        lines.append(f"| `{name}` | " + " | ".join(cells) + " |")
    lines.append("")
    total_matches = sum(rs[r]["matches"] for r in present)
    total_violations = sum(len(rs[r]["violations"]) for r in present)
    cases = ", ".join(f"{_n(sum(c['checked'] for c in rs[r]['checks'].values()))} {NAMES[r]}" for r in present)
    lines.append(f"* {total_violations} violations in {total_matches} matches ({cases} cases).")
    for r in present:
        walls = [float(w) for w in rs[r]["wall_s"].values()]
        felled, standing = rs[r]["felled_by_throw"], rs[r]["felled_by_throw_ruled_standing"]
        share = f" ({100 * standing / felled:.2f} %)" if felled else ""
        lines.append(
            f"* {NAMES[r]}: seeds {_ranges(rs[r]['seeds'])}; a match took {sum(walls) / len(walls):.0f} s of wall "
            f"time on average (slowest {max(walls):.0f} s); kubbs felled by a throw but ruled `standing`: "
            f"{standing} of {felled}{share}."
        )
    for r in present:
        for v in rs[r]["violations"]:
            where = f"seed {v['seed']}, action {v['action']}, `{v['check']}`"
            lines.append(f"* {NAMES[r]} violation: {where}: {v['detail']}")
    loads = doc.get("load_1min")
    if loads:
        lines.append(f"* Load average (1 min) at the start and end of each chunk: {min(loads):.1f}–{max(loads):.1f}.")
    missing = [f"{TARGET[r] - rs.get(r, {'matches': 0})['matches']} {NAMES[r]}" for r in RULESETS
               if rs.get(r, {"matches": 0})["matches"] < TARGET[r]]
    if missing:
        lines.append(f"* Still to audit for issue #37: {', '.join(missing)} matches.")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    m = sub.add_parser("merge", help="merge `kubb3d audit --log` files into one JSON document")
    m.add_argument("logs", nargs="+", type=Path)
    m.add_argument("--commit", required=True, help="the commit audited")
    m.add_argument("--progress", type=Path, help="a progress file with 'load L1 L5 L15' lines")
    m.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("markdown", help="print the table of a merged document")
    t.add_argument("doc", type=Path)
    args = ap.parse_args(argv)
    try:
        if args.command == "merge":
            doc = merge(args.logs, args.commit, args.progress)
            if not doc["rulesets"]:
                raise Refused(f"{args.logs[0]}: expected at least one match report, found none")
            args.out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        else:
            try:
                doc = json.loads(args.doc.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                raise Refused(f"{args.doc}: expected a JSON document written by `audit_table.py merge`") from None
            sys.stdout.write(markdown(doc))
    except Refused as exc:
        print(f"audit_table.py: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

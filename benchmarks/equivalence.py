"""Is kubb3d's step schedule statistically equivalent to plain stepping? Issue #32's test for a
speed-up that is not bit-identical: the kubbs felled per baton of seeded throws and the outcomes
of seeded club-vs-club matches, with kubb3d's step schedule (free flight outside the engine,
long steps while everything is slow, a piece sliding alone) and with plain steps of
``DT`` = 1/960 s throughout (``World(quiet_dt=DT)``), each with its 95 % interval.

Usage::

    .venv/bin/python benchmarks/equivalence.py [--throws 1000] [--matches 100] [--seed 0]
        [--ruleset dm] [--save FILE] [--markdown]

The throws are ``kubb3d bench``'s (each in a fresh standard world, aimed at a random baseline
kubb of side B with a little noise; seed ``--seed``), so the two schedules throw the same
throws and their difference is paired. The matches are seeds 1–N of ``--ruleset``, club
against club; a match's course diverges with any change of its physics, so the two sets of
outcomes are compared as two samples: the share of matches the first player (P1) wins and the
mean number of turns. *Equivalent* means: each figure of kubb3d's schedule lies inside the
95 % interval of plain stepping's (the issue's words), and the 95 % interval of the
difference contains 0.

``--save FILE`` writes every throw's and match's result and the figures as JSON
(docs/speed_equivalence.json is such a file; docs/speed.md quotes it and
``tests/test_speed_equivalence.py`` ties the two). ``--markdown`` prints the table docs/speed.md
carries. Plain matches take about five times a match's CPU: 1,000 throws and 100 DM matches
take about 40 minutes on one core.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import Any

import numpy as np

from kubb3d.bench import mean_ci95 as mean_ci95  # Student's t (kubb3d.experiment.stats)

SCHEDULES = ("kubb3d", "plain")
"""kubb3d's step schedule, and plain steps of DT throughout."""


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def two_sample(a: Any, b: Any) -> tuple[float, float]:
    """(mean of ``a`` − mean of ``b``, half width of its Welch 95 % interval: Student's t at the
    Welch–Satterthwaite degrees of freedom, rounded down), independent samples; NaN half width
    when either has fewer than two values."""
    from kubb3d.experiment.stats import t95

    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if len(x) < 2 or len(y) < 2:
        return float(x.mean() - y.mean()) if len(x) and len(y) else math.nan, math.nan
    va, vb = x.var(ddof=1) / len(x), y.var(ddof=1) / len(y)
    se = math.sqrt(va + vb)
    if se == 0:
        return float(x.mean() - y.mean()), 0.0
    df = (va + vb) ** 2 / (va**2 / (len(x) - 1) + vb**2 / (len(y) - 1))
    return float(x.mean() - y.mean()), t95(max(1, math.floor(df))) * se


def throw_rows(n: int, seed: int, schedule: str) -> list[dict]:
    """Per throw of ``kubb3d bench``'s first ``n`` (seed ``seed``): kubbs and kings felled and
    the physics steps, in a fresh standard world with the given schedule."""
    from kubb3d.bench import _throws
    from kubb3d.physics.world import DT, World
    from kubb3d.throw import throw

    quiet_dt = DT if schedule == "plain" else None
    rows = []
    for params, _ in _throws(n, seed):
        with World.standard(quiet_dt=quiet_dt) as world:
            result = throw(world, params)
            rows.append({"felled": len(result.toppled), "steps": world.steps})
    return rows


def match_row(ruleset: str, seed: int, schedule: str) -> dict:
    """One club-vs-club match of ``ruleset`` and ``seed`` with the given schedule: its winner,
    turns and CPU seconds."""
    from kubb3d.match import Match, MatchConfig
    from kubb3d.physics.world import DT, World

    class PlainMatch(Match):
        def _new_world(self) -> World:
            return World(self.ruleset.equipment, self.pitch, self.config.ground, quiet_dt=DT)

    cls = PlainMatch if schedule == "plain" else Match
    t0 = time.process_time()
    match = cls(MatchConfig(ruleset=ruleset, skills=("club", "club"), seed=seed))
    outcome = match.run()
    winner = str(outcome.winner) if outcome is not None else None
    return {"seed": seed, "winner": winner, "turns": match.state.total_turns, "cpu_s": time.process_time() - t0}


def figures(doc: dict) -> dict:
    """The figures of a saved run (its ``throws`` and ``matches`` rows): rates, means and
    intervals per schedule, the differences and the verdicts."""
    out: dict = {}
    throws = doc["throws"]
    if throws["kubb3d"]:
        felled = {s: [row["felled"] for row in throws[s]] for s in SCHEDULES}
        f = {s: mean_ci95(felled[s]) for s in SCHEDULES}
        d = mean_ci95(np.subtract(felled["kubb3d"], felled["plain"]))
        out["throws"] = {
            "n": len(felled["kubb3d"]),
            "felled_per_baton": {s: f[s] for s in SCHEDULES},
            "steps_per_throw": {s: float(np.mean([row["steps"] for row in throws[s]])) for s in SCHEDULES},
            "paired_difference": d,
            "differing_throws": int(np.count_nonzero(np.subtract(felled["kubb3d"], felled["plain"]))),
            "inside_plain_interval": abs(f["kubb3d"][0] - f["plain"][0]) <= f["plain"][1],
            "difference_contains_0": abs(d[0]) <= d[1],
        }
    matches = doc["matches"]
    if matches["kubb3d"]:
        wins = {s: [1.0 if row["winner"] == "P1" else 0.0 for row in matches[s]] for s in SCHEDULES}
        turns = {s: [row["turns"] for row in matches[s]] for s in SCHEDULES}
        w = {s: mean_ci95(wins[s]) for s in SCHEDULES}
        t = {s: mean_ci95(turns[s]) for s in SCHEDULES}
        dw, dt = two_sample(wins["kubb3d"], wins["plain"]), two_sample(turns["kubb3d"], turns["plain"])
        out["matches"] = {
            "n": len(wins["kubb3d"]),
            "p1_wins": w,
            "turns": t,
            "median_cpu_s": {s: float(np.median([row["cpu_s"] for row in matches[s]])) for s in SCHEDULES},
            "p1_wins_difference": dw,
            "turns_difference": dt,
            "inside_plain_interval": abs(w["kubb3d"][0] - w["plain"][0]) <= w["plain"][1]
            and abs(t["kubb3d"][0] - t["plain"][0]) <= t["plain"][1],
            "difference_contains_0": abs(dw[0]) <= dw[1] and abs(dt[0]) <= dt[1],
        }
    return out


def markdown(doc: dict) -> str:
    """The table docs/speed.md carries for a saved run."""
    fig = figures(doc)
    lines = ["| measure | kubb3d's schedule | plain steps of 1/960 s | difference (95 %) |", "|---|---|---|---|"]
    if "throws" in fig:
        t = fig["throws"]
        (m, h), (pm, ph), (d, dh) = (
            t["felled_per_baton"]["kubb3d"],
            t["felled_per_baton"]["plain"],
            t["paired_difference"],
        )
        lines.append(
            f"| kubbs felled per baton, {t['n']} throws | {m:.3f} ± {h:.3f} | {pm:.3f} ± {ph:.3f} "
            f"| {d:+.3f} ± {dh:.3f} (paired; {t['differing_throws']} throws differ) |"
        )
        s = t["steps_per_throw"]
        lines.append(f"| physics steps per throw | {s['kubb3d']:.1f} | {s['plain']:.1f} | |")
    if "matches" in fig:
        g = fig["matches"]
        (m, h), (pm, ph), (d, dh) = g["p1_wins"]["kubb3d"], g["p1_wins"]["plain"], g["p1_wins_difference"]
        lines.append(
            f"| matches P1 wins, {g['n']} {doc['ruleset']} seeds | {m:.3f} ± {h:.3f} | {pm:.3f} ± {ph:.3f} "
            f"| {d:+.3f} ± {dh:.3f} |"
        )
        (m, h), (pm, ph), (d, dh) = g["turns"]["kubb3d"], g["turns"]["plain"], g["turns_difference"]
        lines.append(f"| turns per match | {m:.2f} ± {h:.2f} | {pm:.2f} ± {ph:.2f} | {d:+.2f} ± {dh:.2f} |")
        c = g["median_cpu_s"]
        lines.append(f"| median CPU per match | {c['kubb3d']:.2f} s | {c['plain']:.2f} s | |")
    verdicts = []
    for name, part in (("throws", fig.get("throws")), ("matches", fig.get("matches"))):
        if part is not None:
            inside = "yes" if part["inside_plain_interval"] else "no"
            zero = "yes" if part["difference_contains_0"] else "no"
            verdicts.append(
                f"{name}: inside plain stepping's 95 % intervals {inside}, difference's interval holds 0 {zero}"
            )
    lines += [
        "",
        f"Equivalent (load {doc['load_before']:.1f} before, {doc['load_after']:.1f} after): "
        + "; ".join(verdicts)
        + ".",
    ]
    return "\n".join(lines)


def save(doc: dict, path: str) -> None:
    """Write ``doc`` as JSON to ``path``: a line per field, a line per throw's or match's row."""
    fields = []
    for key, value in doc.items():
        if key in ("throws", "matches"):
            per = [
                f"  {json.dumps(schedule)}: [" + ",".join("\n   " + json.dumps(row) for row in rows) + "\n  ]"
                for schedule, rows in value.items()
            ]
            fields.append(f" {json.dumps(key)}: {{\n" + ",\n".join(per) + "\n }")
        else:
            fields.append(f" {json.dumps(key)}: {json.dumps(value)}")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("{\n" + ",\n".join(fields) + "\n}\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throws", type=int, default=1000, help="bench throws per schedule (default 1000)")
    ap.add_argument("--matches", type=int, default=100, help="match seeds 1..N per schedule (default 100)")
    ap.add_argument("--seed", type=int, default=0, help="the throws' seed (default 0)")
    ap.add_argument("--ruleset", default="dm", help="the matches' ruleset (default dm)")
    ap.add_argument("--save", default=None, help="write every result and the figures to this JSON file")
    ap.add_argument("--markdown", action="store_true", help="print the table docs/speed.md carries")
    a = ap.parse_args()
    if a.throws < 0 or a.matches < 0 or a.throws + a.matches == 0:
        print("equivalence.py: --throws and --matches must be at least 0, and one of them at least 1", file=sys.stderr)
        raise SystemExit(2)
    if a.throws == 1:
        print("equivalence.py: --throws must be 0 or at least 2 (an interval needs two)", file=sys.stderr)
        raise SystemExit(2)
    if a.matches == 1:
        print("equivalence.py: --matches must be 0 or at least 2 (an interval needs two)", file=sys.stderr)
        raise SystemExit(2)
    doc: dict = {
        "command": " ".join(["benchmarks/equivalence.py", *sys.argv[1:]]),
        "seed": a.seed,
        "ruleset": a.ruleset,
        "load_before": _load(),
        "throws": {s: [] for s in SCHEDULES},
        "matches": {s: [] for s in SCHEDULES},
    }
    for schedule in SCHEDULES:
        if a.throws:
            t0 = time.process_time()
            doc["throws"][schedule] = throw_rows(a.throws, a.seed, schedule)
            cpu = time.process_time() - t0
            print(f"{a.throws} throws, {schedule}: {cpu:.1f} s CPU (load {_load():.1f})", flush=True)
            if a.save:
                save(doc, a.save)
    for seed in range(1, a.matches + 1):
        for schedule in SCHEDULES:
            row = match_row(a.ruleset, seed, schedule)
            doc["matches"][schedule].append(row)
            if a.save and schedule == SCHEDULES[-1]:
                save(doc, a.save)  # a run cut short keeps the matches it played
            print(
                f"{a.ruleset} seed {seed}, {schedule}: {row['cpu_s']:.2f} s CPU, {row['turns']} turns, "
                f"winner {row['winner']}",
                flush=True,
            )
    doc["load_after"] = _load()
    doc["figures"] = figures(doc)
    if a.save:
        save(doc, a.save)
    print(json.dumps(doc["figures"]))
    if a.markdown:
        print(markdown(doc))


if __name__ == "__main__":
    main()

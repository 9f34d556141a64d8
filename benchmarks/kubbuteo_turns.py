"""CPU time of match turns (Kubbuteo by default, ``--ruleset dm`` for DM) played from the same
boards with the same per-action seeds, to compare two versions of the code turn by turn (issue
#16; docs/speed.md "Kubbuteo turns", "DM turns").

Three steps::

    # 1. play club-vs-club matches and keep their replays (the boards to start from)
    .venv/bin/python benchmarks/kubbuteo_turns.py replays --seeds 1-8 --out /tmp/kt-replays
    #    (DM: replays --ruleset dm --seeds 1-3 --out /tmp/dm-replays)
    # 2. play turns again from those boards, once per version of the code (a fresh process each)
    .venv/bin/python benchmarks/kubbuteo_turns.py turns /tmp/kt-replays --every 4 --json > after.json
    # 3. compare two such runs
    .venv/bin/python benchmarks/kubbuteo_turns.py compare before.json after.json

``turns`` resumes each replay at every ``--every``-th turn boundary (the world record's poses,
as ``kubb3d match --resume`` does), rebuilds the board and plays that one turn (every action up
to the next turn boundary or the match's end), and gives per turn: the process CPU time (s,
world building included, reading the replay not), physics steps, actions and flicks, and the
1-minute load average. ``compare`` pairs the turns of two runs and prints the geometric mean of
the CPU ratios with its 95 % interval (t interval of the log ratios). CPU time rather than wall
time, because the machine is shared; the load is printed with it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from seed_ranges import seeds as parse_seeds
from kubb3d.experiment.stats import t95
from kubb3d.match import Match, MatchConfig


def make_replays(seeds: list[int], out: Path, ruleset: str = "kubbuteo") -> None:
    out.mkdir(parents=True, exist_ok=True)
    for seed in seeds:
        path = out / f"seed{seed}.jsonl"
        m = Match(MatchConfig(ruleset=ruleset, skills=("club", "club"), seed=seed), replay=path)
        m.run()
        m.close()
        print(f"seed {seed}: {m.state.total_turns} turns -> {path}", flush=True)


def play_turns(replays: list[Path], every: int) -> list[dict]:
    rows = []
    for path in replays:
        lines = path.read_text().splitlines()
        worlds = [n for n, line in enumerate(lines) if json.loads(line).get("type") == "world"]
        for k, n in enumerate(worlds):
            if k % every:
                continue
            with tempfile.TemporaryDirectory() as tmp:
                cut = Path(tmp) / "r.jsonl"
                cut.write_text("\n".join(lines[: n + 1]) + "\n")
                m = Match.resume(cut)
                rec = json.loads(lines[n])
                key = (m.state.set_no, m.state.turn_no)
                load = os.getloadavg()[0]
                t0 = time.process_time()
                m._build(rec["poses"], rec["sides"])  # the turn's world, as the match builds it
                actions = flicks = steps = 0
                while m.state.outcome() is None:
                    res = m.step()
                    actions += 1
                    flicks += len(res.throws)
                    if (m.state.set_no, m.state.turn_no) != key:
                        break
                steps = m.world.steps
                cpu = time.process_time() - t0
                m.close()
            rows.append(
                {
                    "replay": path.name,
                    "world_line": n,
                    "cpu_s": cpu,
                    "steps": steps,
                    "actions": actions,
                    "flicks": flicks,
                    "load": load,
                }
            )
            print(
                f"{path.name} line {n}: {cpu * 1000:.0f} ms CPU, {steps} steps, {actions} actions, "
                f"{flicks} flicks (load {load:.1f})",
                file=sys.stderr,
                flush=True,
            )
    return rows


def compare(a: list[dict], b: list[dict]) -> dict:
    """Geometric mean of b's CPU over a's per turn, with its 95 % interval, and the step totals."""
    key = lambda r: (r["replay"], r["world_line"])  # noqa: E731
    base = {key(r): r for r in a}
    logs = [math.log(r["cpu_s"] / base[key(r)]["cpu_s"]) for r in b if key(r) in base]
    n = len(logs)
    mean = statistics.fmean(logs)
    half = t95(n - 1) * statistics.stdev(logs) / math.sqrt(n) if n > 1 else math.inf
    pairs = [(base[key(r)], r) for r in b if key(r) in base]
    return {
        "turns": n,
        "geomean_ratio": math.exp(mean),
        "ci95": [math.exp(mean - half), math.exp(mean + half)],
        "cpu_s": [sum(x["cpu_s"] for x, _ in pairs), sum(y["cpu_s"] for _, y in pairs)],
        "steps": [sum(x["steps"] for x, _ in pairs), sum(y["steps"] for _, y in pairs)],
        "flicks": [sum(x["flicks"] for x, _ in pairs), sum(y["flicks"] for _, y in pairs)],
        "geomean_cpu_s": [
            math.exp(statistics.fmean(math.log(x["cpu_s"]) for x, _ in pairs)),
            math.exp(statistics.fmean(math.log(y["cpu_s"]) for _, y in pairs)),
        ],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("replays", help="play club-vs-club matches and write their replays")
    r.add_argument("--seeds", default="1-8")
    r.add_argument("--ruleset", default="kubbuteo", help="kubbuteo (default), dm or wikinger")
    r.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("turns", help="play turns again from the replays' boards")
    t.add_argument("replays", type=Path, help="a folder of replays (seed*.jsonl)")
    t.add_argument("--every", type=int, default=4, help="every N-th turn boundary of each replay")
    t.add_argument("--json", action="store_true")
    c = sub.add_parser("compare", help="geometric mean CPU ratio of two `turns --json` runs (second / first)")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    a = ap.parse_args()
    if a.cmd == "replays":
        make_replays(parse_seeds(a.seeds), a.out, a.ruleset)
    elif a.cmd == "turns":
        files = sorted(a.replays.glob("seed*.jsonl"), key=lambda p: int(p.stem[4:]))
        if not files:
            print(f"{a.replays}: no seed*.jsonl replays; expected the folder written by `replays --out`")
            return 2
        rows = play_turns(files, a.every)
        if a.json:
            print(json.dumps(rows))
        else:
            cpu = [x["cpu_s"] for x in rows]
            gm = math.exp(statistics.fmean(math.log(x) for x in cpu))
            print(f"{len(rows)} turns: CPU geometric mean {gm * 1000:.0f} ms, total {sum(cpu):.2f} s")
    else:
        res = compare(json.loads(a.before.read_text()), json.loads(a.after.read_text()))
        lo, hi = res["ci95"]
        print(
            f"{res['turns']} turns: CPU after/before geometric mean {res['geomean_ratio']:.3f} "
            f"(95 % {lo:.3f}-{hi:.3f}); "
            f"geometric mean per turn {res['geomean_cpu_s'][0] * 1000:.0f} -> {res['geomean_cpu_s'][1] * 1000:.0f} ms; "
            f"total {res['cpu_s'][0]:.2f} -> {res['cpu_s'][1]:.2f} s; steps {res['steps'][0]} -> {res['steps'][1]}; "
            f"flicks {res['flicks'][0]} -> {res['flicks'][1]}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

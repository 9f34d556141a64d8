"""kubb3d's Roll Kubb Dames engine against the independent RKD engine: the long run.

Prints one row per slice (seeded games of one kind, random positions of one rule
set, the mirror / colour-swap relations, perft counts) with what was compared and
the disagreements by kind, then the totals.  ``--json PATH`` also writes the rows;
docs/examinations/2026-12-07-rkd-independent.md quotes them, and
tests/dames/test_rkd_independent.py re-runs the small slices and checks the
document against the file.

    python benchmarks/rkd_independent.py --json docs/examinations/rkd_independent.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "dames"))

import independent_rkd as ind  # noqa: E402
import rkd_comparison as cmp  # noqa: E402

from kubb3d.dames import DamesBoard, DamesRules  # noqa: E402

RULES = {
    "default-2": DamesRules(),
    "default-4": DamesRules(players=4),
    "straight-only": DamesRules(straight_only=True),
    "roll-through": DamesRules(roll_through_kubbs=True),
    "diagonal-combat": DamesRules(diagonal_combat=True),
    "forced-capture": DamesRules(forced_capture=True),
    "forced-capture-4": DamesRules(players=4, forced_capture=True),
    "weakest-first": DamesRules(multi_combat="weakest_first"),
    "weakest-first-4": DamesRules(players=4, multi_combat="weakest_first"),
    "strongest-first": DamesRules(multi_combat="strongest_first"),
    "strongest-first-4": DamesRules(players=4, multi_combat="strongest_first"),
}

# (name, kind, rules, number of seeds); seeds are 0..n-1
GAMES = [
    ("games uniform", "uniform", "default-2", 20),
    ("games uniform", "uniform", "default-4", 10),
    ("games random", "random", "default-2", 10),
    ("games random", "random", "default-4", 10),
    ("games greedy", "greedy", "default-2", 10),
    ("games search1", "search1", "default-2", 5),
    ("games search2", "search2", "default-2", 3),
]
POSITIONS = [
    ("default-2", 200),
    ("default-4", 200),
    ("straight-only", 100),
    ("roll-through", 100),
    ("diagonal-combat", 100),
    ("forced-capture", 100),
    ("forced-capture-4", 100),
    ("weakest-first", 100),
    ("weakest-first-4", 100),
    ("strongest-first", 100),
    ("strongest-first-4", 100),
]
RELATIONS = [("mirror", "default-2"), ("rotate", "default-2"), ("mirror", "default-4"), ("rotate", "default-4")]
# the relations on dense random positions (seeds 0..n-1), where several opponents meet
DENSE_RELATIONS = [
    (kind, rules, 60)
    for rules in ("default-2", "default-4", "weakest-first", "weakest-first-4", "strongest-first", "strongest-first-4")
    for kind in ("mirror", "rotate")
]
PERFT = [(2, 3), (3, 1), (1, 1), (3, 3)]
ROLL_PERFT = [(2, 3, 1), (3, 1, 2), (1, 2, 3), (3, 3, 3)]


def tally_row(name: str, rules: str, tally: cmp.Tally, seconds: float) -> dict:
    return {
        "slice": name,
        "rules": rules,
        "games": tally.games,
        "positions": tally.positions,
        "roll_sets": tally.roll_sets,
        "rolls": tally.rolls,
        "moves": tally.moves,
        "move_sets": tally.move_sets,
        "outcomes": tally.outcomes,
        "typed": tally.typed,
        "ends": dict(sorted(tally.ends.items())),
        "disagreements": dict(sorted(tally.disagreements.items())),
        "example": next(iter(tally.examples.values()), ""),
        "cpu_s": round(seconds, 1),
    }


def game_row(name: str, kind: str, rules: str, n: int) -> dict:
    t0 = time.process_time()
    tally = cmp.compare_games(kind, range(n), RULES[rules])
    return tally_row(f"{name} (seeds 0-{n - 1})", rules, tally, time.process_time() - t0)


def position_row(rules: str, n: int, dense: bool, irules: ind.Rules | None = None, label: str = "") -> dict:
    t0 = time.process_time()
    tally = cmp.compare_random_positions(range(n), RULES[rules], dense, irules)
    kind = "dense" if dense else "spread"
    return tally_row(f"random positions {kind} (seeds 0-{n - 1}){label}", rules, tally, time.process_time() - t0)


def relation_row(kind: str, rules: str, n: int = 4) -> dict:
    t0 = time.process_time()
    tally = cmp.Tally()
    for seed in range(n):
        tally.games += 1
        for position in cmp.positions_of_game("uniform", seed, RULES[rules])[:-1:3]:
            cmp.relation_check(position, RULES[rules], kind, tally)
    return tally_row(f"{kind} relation (uniform seeds 0-{n - 1}, every 3rd)", rules, tally, time.process_time() - t0)


def dense_relation_row(kind: str, rules: str, n: int) -> dict:
    t0 = time.process_time()
    tally = cmp.relation_random_positions(range(n), RULES[rules], kind)
    return tally_row(
        f"{kind} relation (dense random positions, seeds 0-{n - 1})", rules, tally, time.process_time() - t0
    )


def perft_rows() -> list[dict]:
    rows = []
    board, start = DamesBoard(), ind.start()
    for tis in PERFT:
        t0 = time.process_time()
        k, i = cmp.k_perft(board, 2, tis), cmp.i_perft(start, ind.Rules(), 2, tis)
        rows.append(
            {
                "perft": "moves depth 2",
                "ti": list(tis),
                "kubb3d": k,
                "independent": i,
                "cpu_s": round(time.process_time() - t0, 1),
            }
        )
    for tis in ROLL_PERFT:
        rows.append(roll_perft_row(tis))
    return rows


def roll_perft_row(tis: tuple[int, ...]) -> dict:
    t0 = time.process_time()
    k = cmp.k_roll_perft(DamesBoard().position(), DamesRules(), tis, "a4")
    i = cmp.i_roll_perft(ind.start(), ind.Rules(), tis, "a4")
    return {
        "perft": "rolls depth 3, ti-kubb on a4",
        "ti": list(tis),
        "kubb3d": k,
        "independent": i,
        "cpu_s": round(time.process_time() - t0, 1),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", type=Path, help="also write the rows to this file")
    ap.add_argument("--quick", action="store_true", help="one seed per slice (a smoke run)")
    ap.add_argument("--table", type=Path, help="only print the tables of a file written by --json")
    args = ap.parse_args(argv)
    if args.table:
        print(markdown_tables(json.loads(args.table.read_text())), end="")
        return 0
    scale = (lambda n: 1) if args.quick else (lambda n: n)
    rows = []
    for name, kind, rules, n in GAMES:
        rows.append(game_row(name, kind, rules, scale(n)))
        print_row(rows[-1])
    for rules, n in POSITIONS:
        for dense in (False, True):
            rows.append(position_row(rules, scale(n), dense))
            print_row(rows[-1])
    # R19 with the independent engine's own reading (seat order), to count how often it matters
    own = ind.Rules(players=4)
    rows.append(position_row("default-4", scale(200), True, own, ", own reading R19"))
    print_row(rows[-1])
    for kind, rules in RELATIONS:
        rows.append(relation_row(kind, rules, scale(4)))
        print_row(rows[-1])
    for kind, rules, n in DENSE_RELATIONS:
        rows.append(dense_relation_row(kind, rules, scale(n)))
        print_row(rows[-1])
    perfts = perft_rows() if not args.quick else [roll_perft_row(ROLL_PERFT[0])]
    for p in perfts:
        same = "agree" if p["kubb3d"] == p["independent"] else "DIFFER"
        print(f"perft {p['perft']:32} ti {p['ti']}: kubb3d {p['kubb3d']}, independent {p['independent']} ({same})")
    compared = [r for r in rows if "relation" not in r["slice"] and "own reading" not in r["slice"]]
    totals = {
        f: sum(r[f] for r in compared)
        for f in ("games", "positions", "roll_sets", "rolls", "moves", "move_sets", "outcomes", "typed")
    }
    totals["ends"] = sum(sum(r["ends"].values()) for r in compared)
    totals["disagreements"] = sum(sum(r["disagreements"].values()) for r in compared)
    totals["relation_disagreements"] = sum(sum(r["disagreements"].values()) for r in rows if "relation" in r["slice"])
    totals["perft_disagreements"] = sum(p["kubb3d"] != p["independent"] for p in perfts)
    print("totals (kubb3d's readings on both sides): " + ", ".join(f"{k} {v}" for k, v in totals.items()))
    data = {"rows": rows, "perft": perfts, "totals": totals}
    print()
    print(markdown_tables(data), end="")
    if args.json:
        args.json.write_text(json.dumps(data, indent=1) + "\n")
    bad = totals["disagreements"] + totals["relation_disagreements"] + totals["perft_disagreements"]
    return 0 if bad == 0 else 1


def markdown_tables(data: dict) -> str:
    """The figures as the examination quotes them (tests check the document holds this text)."""
    out = [
        "| slice | rules | games | positions | roll sets | rolls | whole moves | typed moves | game ends "
        "| disagreements |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    for r in data["rows"]:
        ends = ", ".join(f"{k} {v}" for k, v in r["ends"].items()) or "—"
        dis = ", ".join(f"{k} {v}" for k, v in r["disagreements"].items()) or "none"
        out.append(
            f"| {r['slice']} | {r['rules']} | {r['games']} | {r['positions']} | {r['roll_sets']} | {r['rolls']} "
            f"| {r['moves']} | {r['typed']} | {ends} | {dis} |"
        )
    out += ["", "| perft | ti values | kubb3d | independent |", "| --- | --- | ---: | ---: |"]
    for p in data["perft"]:
        out.append(f"| {p['perft']} | {', '.join(map(str, p['ti']))} | {p['kubb3d']} | {p['independent']} |")
    t = data["totals"]
    out += [
        "",
        f"Totals over the games and random positions: {t['games']} games, {t['positions']} positions, "
        f"{t['roll_sets']} roll sets (position × ti value), {t['rolls']} rolls applied, {t['moves']} whole moves "
        f"counted, {t['move_sets']} full move sets, {t['outcomes']} game-end checks ({t['ends']} game ends), "
        f"{t['typed']} typed moves; disagreements {t['disagreements']}, in the relations "
        f"{t['relation_disagreements']}, in perft {t['perft_disagreements']}. "
        f"CPU of the run: {round(sum(r['cpu_s'] for r in data['rows'] + data['perft']))} s.",
    ]
    return "\n".join(out) + "\n"


def print_row(r: dict) -> None:
    dis = ", ".join(f"{k} {v}" for k, v in r["disagreements"].items()) or "none"
    ends = ", ".join(f"{k} {v}" for k, v in r["ends"].items())
    print(
        f"{r['slice']:55} {r['rules']:15} positions {r['positions']:5} roll sets {r['roll_sets']:5} "
        f"rolls {r['rolls']:6} moves {r['moves']:8} typed {r['typed']:6} ends [{ends}] disagreements: {dis}",
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main())

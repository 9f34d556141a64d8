"""Keep the shipped studies' results files in the repository, compressed (docs/studies.md).

A study of thousands of matches takes several sittings; its results file is what lets the next
sitting resume it and what docs/studies.json is summarised from, so it lives in studies/ as
``<spec>.sqlite.xz``:

    benchmarks/study_results.py unpack --to DIR       # DIR/<spec>.sqlite for every packed study
    kubb3d experiment run opening-advantage --out DIR/opening-advantage.sqlite [--mix-versions]
    benchmarks/study_results.py pack DIR/opening-advantage.sqlite   # back into studies/
    benchmarks/study_results.py replay --trials 40 [--seed 1] [--study first-baton]

``replay`` runs stored trials drawn with the seed again with today's code and counts those whose
row comes out the same, and which columns the others change: how far the stored figures are from
what today's code would make (the test replays two trials a study).

``pack`` copies the file (the run's write-ahead log folded in), names the spec by its path in
the repository instead of where the run found it, and compresses it. tests/test_study_results.py
holds docs/studies.json to the packed files and replays stored matches with today's code.
"""

from __future__ import annotations

import argparse
import json
import lzma
import sqlite3
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STUDIES = ROOT / "studies"
SUFFIX = ".sqlite.xz"


def spec_name(db: sqlite3.Connection) -> str:
    """The short name of the spec whose results ``db`` holds (its file's stem)."""
    meta = dict(db.execute("SELECT key, value FROM meta"))
    return Path(json.loads(meta["spec_json"])["path"]).stem


def pack(results: Path, folder: Path = STUDIES) -> Path:
    """Write ``folder/<spec>.sqlite.xz`` from the results file ``results``; returns its path."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "copy.sqlite"
        source = sqlite3.connect(f"{results.resolve().as_uri()}?mode=ro", uri=True)
        with sqlite3.connect(copy) as dest:
            source.backup(dest)
        source.close()
        db = sqlite3.connect(copy)
        try:
            name = spec_name(db)
            meta = dict(db.execute("SELECT key, value FROM meta"))
            spec = json.loads(meta["spec_json"])
            spec["path"] = f"scenarios/experiments/{name}.toml"
            with db:
                db.execute("UPDATE meta SET value = ? WHERE key = 'spec_json'", (json.dumps(spec),))
            db.execute("PRAGMA journal_mode=DELETE")
            db.execute("VACUUM")
        finally:
            db.close()
        folder.mkdir(parents=True, exist_ok=True)
        out = folder / f"{name}{SUFFIX}"
        out.write_bytes(lzma.compress(copy.read_bytes(), preset=9))
    return out


def unpack(to: Path, folder: Path = STUDIES) -> list[Path]:
    """Write ``to/<spec>.sqlite`` for every packed study in ``folder``; returns their paths."""
    to.mkdir(parents=True, exist_ok=True)
    written = []
    for packed in sorted(folder.glob(f"*{SUFFIX}")):
        out = to / packed.name.removesuffix(".xz")
        out.write_bytes(lzma.decompress(packed.read_bytes()))
        written.append(out)
    return written


def replay(name: str, results: Path, trials: int, seed: int) -> dict:
    """Run ``trials`` stored trials of ``results`` (drawn without replacement with ``seed``) again
    with today's code. Returns ``{"study", "stored", "replayed", "same", "changed": {column: n},
    "cpu_s"}``: rows equal in every column the trial writes, and per column how many differ."""
    import time

    import numpy as np

    from kubb3d.experiment.spec import load_spec
    from kubb3d.experiment.store import read_rows
    from kubb3d.experiment.trial import run_trial
    from kubb3d.library import experiments_dir

    rows = {row["trial"]: row for row in read_rows(results)}
    loaded = load_spec(experiments_dir() / f"{name}.toml")
    order = sorted(rows)
    drawn = np.random.default_rng(seed).choice(len(order), size=min(trials, len(order)), replace=False)
    same, changed = 0, {}
    start = time.process_time()
    for k, index in enumerate(sorted(drawn), 1):
        trial = order[int(index)]
        again = json.loads(json.dumps(run_trial(loaded, trial)))
        differ = [key for key in again if key in rows[trial] and again[key] != rows[trial][key]]
        same += not differ
        for key in differ:
            changed[key] = changed.get(key, 0) + 1
        print(f"\r{name}: {k}/{len(drawn)} replayed, {same} the same", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {"study": name, "stored": len(rows), "replayed": len(drawn), "same": same,
            "changed": dict(sorted(changed.items(), key=lambda kv: -kv[1])),
            "cpu_s": round(time.process_time() - start, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_pack = sub.add_parser("pack", help="compress a results file into studies/")
    p_pack.add_argument("results", type=Path, nargs="+")
    p_unpack = sub.add_parser("unpack", help="decompress studies/ into a folder")
    p_unpack.add_argument("--to", type=Path, required=True)
    p_replay = sub.add_parser("replay", help="run stored trials again with today's code; print JSON")
    p_replay.add_argument("--trials", type=int, default=40, help="stored trials per study, drawn with --seed")
    p_replay.add_argument("--seed", type=int, default=1)
    p_replay.add_argument("--study", action="append", help="only this study (repeatable)")
    args = parser.parse_args(argv)
    try:
        if args.command == "replay":
            with tempfile.TemporaryDirectory() as tmp:
                for path in unpack(Path(tmp)):
                    name = path.name.removesuffix(".sqlite")
                    if not args.study or name in args.study:
                        print(json.dumps(replay(name, path, args.trials, args.seed)), flush=True)
        elif args.command == "pack":
            for results in args.results:
                print(f"wrote {pack(results)}", file=sys.stderr)
        else:
            for out in unpack(args.to):
                print(f"wrote {out}", file=sys.stderr)
    except (OSError, sqlite3.Error, KeyError, ValueError) as exc:
        print(f"study_results: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

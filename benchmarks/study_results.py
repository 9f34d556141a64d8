"""Keep the shipped studies' results files in the repository, compressed (docs/studies.md).

A study of thousands of matches takes several sittings; its results file is what lets the next
sitting resume it and what docs/studies.json is summarised from, so it lives in studies/ as
``<spec>.sqlite.xz``:

    benchmarks/study_results.py unpack --to DIR       # DIR/<spec>.sqlite for every packed study
    kubb3d experiment run opening-advantage --out DIR/opening-advantage.sqlite [--mix-versions]
    benchmarks/study_results.py pack DIR/opening-advantage.sqlite   # back into studies/

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_pack = sub.add_parser("pack", help="compress a results file into studies/")
    p_pack.add_argument("results", type=Path, nargs="+")
    p_unpack = sub.add_parser("unpack", help="decompress studies/ into a folder")
    p_unpack.add_argument("--to", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        if args.command == "pack":
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

"""Determinism across processes: the same seeded match under several ``PYTHONHASHSEED``
values must write the same replay, byte for byte.

For every ruleset and match seed, ``kubb3d match --seed S --replay F`` runs in a fresh
process once per hash seed; the replays' SHA-256 digests are compared. Exit code 1 if any
pair differs (the differing seeds are listed).

Usage::

    .venv/bin/python benchmarks/determinism.py [--seeds 1,2,3,4,5] \
        [--hash-seeds 0,1,2,3] [--rulesets dm,wikinger] [--jobs 2]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def play(ruleset: str, seed: int, hash_seed: int, folder: Path) -> str:
    out = folder / f"{ruleset}-{seed}-{hash_seed}.jsonl"
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
    cmd = [
        sys.executable,
        "-c",
        "from kubb3d.cli import main; main()",
        "match",
        "--ruleset",
        ruleset,
        "--seed",
        str(seed),
        "--quiet",
        "--replay",
        str(out),
    ]
    subprocess.run(cmd, env=env, check=True, capture_output=True, timeout=1800)
    return hashlib.sha256(out.read_bytes()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1,2,3,4,5")
    ap.add_argument("--hash-seeds", default="0,1,2,3")
    ap.add_argument("--rulesets", default="dm,wikinger")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")]
    hashes = [int(s) for s in args.hash_seeds.split(",")]
    rulesets = args.rulesets.split(",")
    t0 = time.perf_counter()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(args.jobs) as pool:
        jobs = {(r, s, h): pool.submit(play, r, s, h, Path(tmp)) for r in rulesets for s in seeds for h in hashes}
        for r in rulesets:
            for s in seeds:
                digests = {h: jobs[(r, s, h)].result() for h in hashes}
                same = len(set(digests.values())) == 1
                bad += not same
                detail = "" if same else "  " + ", ".join(f"hash seed {h}: {d[:12]}" for h, d in digests.items())
                print(
                    f"{r:9s} seed {s}: {'identical' if same else 'DIFFERENT'} over {len(hashes)} hash seeds{detail}",
                    flush=True,
                )
    n = len(rulesets) * len(seeds)
    print(f"{n - bad} of {n} matches identical across hash seeds {hashes} ({time.perf_counter() - t0:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())

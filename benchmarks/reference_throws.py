"""Write or check the reference results of seeded bench throws (``tests/data/reference_throws.json``).

The speed work must leave every seeded outcome unchanged: the same throws give bit-identical
final snapshots. This script runs the first ``--throws`` throws of ``kubb3d bench --seed 0`` (a
fresh world per throw) and records, per throw, the felled (not upright) kubbs, the touched
pieces, the physics steps and a SHA-256 digest of the final snapshot (every piece's position
and quaternion as exact hexadecimal floats). ``tests/test_speed.py`` compares the current code
against the stored file.

Usage::

    .venv/bin/python benchmarks/reference_throws.py --write   # after a deliberate physics change
    .venv/bin/python benchmarks/reference_throws.py           # compare; exit 1 on a difference
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

PATH = Path(__file__).resolve().parents[1] / "tests" / "data" / "reference_throws.json"


def main() -> int:
    from kubb3d.bench import reference_results

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throws", type=int, default=40)
    ap.add_argument("--write", action="store_true", help="store the results instead of comparing")
    a = ap.parse_args()
    rows = reference_results(a.throws, seed=0)
    if a.write:
        PATH.write_text(json.dumps({"seed": 0, "throws": rows}, indent=1) + "\n")
        print(f"wrote {len(rows)} throws to {PATH.name}")
        return 0
    stored = json.loads(PATH.read_text())["throws"]
    same = sum(1 for x, y in zip(rows, stored) if x == y)
    print(f"{same} of {min(len(rows), len(stored))} throws identical to the stored reference")
    return 0 if same == min(len(rows), len(stored)) else 1


if __name__ == "__main__":
    sys.exit(main())

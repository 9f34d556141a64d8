"""The agree/differ table the play examinations print (benchmarks/referee_play.py,
benchmarks/kubbuteo_referee_play.py, benchmarks/ws_referee_play.py)."""

from __future__ import annotations

from collections import Counter
from typing import Mapping


def print_agreement(agree: Counter, differ: Counter, values: Mapping[str, Counter], *, width: int, top: int) -> None:
    """One row per decision kind: how often the two referees agreed and differed, and kubb3d's
    ``top`` most common answers."""
    print(f"{'kind':{width}} {'agree':>7} {'differ':>7}  kubb3d's answers")
    for kind in sorted(set(agree) | set(differ)):
        common = ", ".join(f"{v}: {n}" for v, n in values[kind].most_common(top))
        print(f"{kind:{width}} {agree[kind]:7d} {differ[kind]:7d}  {common}")

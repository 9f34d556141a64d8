"""The symmetries of the pitch that the ground-plane relation tests apply to a pose
(tests/judge/test_clearing_relations.py, tests/match/test_room_relations.py)."""

from __future__ import annotations

import math


def swap(pid: str) -> str:
    return ("B" if pid[0] == "A" else "A") + pid[1:]


TRANSFORMS = {
    # name: (x, y, yaw) -> image, id -> image id
    "mirror x, ends swapped": (lambda x, y, a: (-x, y, math.pi - a), swap),
    "half turn, sides swapped": (lambda x, y, a: (-x, -y, a + math.pi), swap),
    "mirror y": (lambda x, y, a: (x, -y, -a), lambda pid: pid),
}

"""The ``--seeds`` argument of the benchmarks: ``1-10``, ``1,3,5`` or ``1-10,15,20-22``."""

from __future__ import annotations


def seeds(text: str) -> list[int]:
    """The seeds a ``--seeds`` text names, in the order given (ranges inclusive)."""
    out: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        out.extend(range(int(first), int(last or first) + 1))
    return out

"""The judge: rulings on kubbs and king from a :class:`~kubb3d.snapshot.Snapshot` (no PyBullet)."""

from kubb3d.judge.rulings import Consequence, Ruling, Status

__all__ = ["Consequence", "Ruling", "Status"]

"""The skill presets' calibration targets (:mod:`kubb3d.calibrate` measures against them; the
help of ``kubb3d calibrate`` quotes them): kubbs felled per baton at 8 m. The elite target is
the rate of competitive players (docs/physics.md "Reference numbers"); novice and club are the
project's choices. A light module (no physics), so that a command's help can import it."""

from __future__ import annotations

SKILL_NAMES = ("novice", "club", "elite")
TARGETS = {"novice": 0.10, "club": 0.22, "elite": 0.42}
"""Preset → kubbs felled per baton at 8 m it is tuned towards."""
BANDS = {name: (round(rate - 0.05, 2), round(rate + 0.05, 2)) for name, rate in TARGETS.items()}
"""Preset → band (kubbs felled per baton at 8 m) the preset is tuned into: ±5 points around its
target."""
HIT_P = TARGETS["elite"]
"""The competitive hit rate at 8 m the six-baton distribution is held against."""


def targets_in_words() -> str:
    """``novice 10 %, club 22 %, elite 42 %``."""
    return ", ".join(f"{name} {TARGETS[name]:.0%}".replace("%", " %") for name in SKILL_NAMES)

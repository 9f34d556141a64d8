"""Helpers for the experiment tests: a tiny throw spec (2 × 2 grid points)."""

from __future__ import annotations

from pathlib import Path

TINY = """
schema = 1
title = "tiny"
seed = 7
trials_per_point = {tpp}
measures = ["hit", "felled", "first_contact", "tilt", "flight_time", "rest", "rulings", "status"]
watch = ["B2", "king"]

[setup]
ruleset = "dm"
ground = "grass"

[throw]
target = "B2"
spin_rps = 1.5
speed = {{ grid = [9.6, 10.4] }}
elevation_deg = {{ grid = [26.0, 34.0] }}
azimuth_deg = {{ normal = [0.0, 0.8] }}
tilt_deg = {{ uniform = [-8.0, 8.0] }}
"""


def write_tiny(folder: Path, trials_per_point: int = 4, name: str = "tiny.toml") -> Path:
    """Write the tiny spec (2 × 2 grid points) and return its path."""
    path = folder / name
    path.write_text(TINY.format(tpp=trials_per_point))
    return path


def strip_wall(rows: list[dict]) -> list[dict]:
    """Rows without the per-run wall time."""
    return [{k: v for k, v in r.items() if k != "wall_s"} for r in rows]

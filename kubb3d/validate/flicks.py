"""``flicks`` rows of ``kubb3d validate``: seeded Kubbuteo flicks (novice, club, elite) at the
table's step, at half of it and 0.01 % faster, paired flick by flick: halving the step may change
the toppled pieces no more than that nudge does (docs/physics.md "Flick outcomes against the time
step")."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from kubb3d.calibrate import run_flicks
from kubb3d.experiment.stats import Z95
from kubb3d.physics.world import TABLE_DT
from kubb3d.ranges import counted
from kubb3d.validate.rows import Row

FLICKS = 100
"""Seeded Kubbuteo flicks per preset (novice, club, elite) of the ``flicks`` group, each at the
table's step, at half of it and 0.01 % faster: 900 flicks, about 30 s of CPU. Over these 300 the
halving changed 8 and the nudge 6, the paired excess's 95 % interval about ±2 points
(docs/kubbuteo_convergence.json)."""
FLICK_NUDGE = 0.0001
"""The share by which the nudged flicks are faster (0.01 %; a player's speed spread is 5–12 %,
docs/physics.md "Flick outcomes against the time step")."""


def against_nudge_floor(by_step: Sequence[float], by_nudge: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high) of ``by_step − by_nudge`` flick by flick, with a paired normal 95 %
    interval: how much more a change of step moves each flick's outcome than a nudge of the flick
    does (booleans: how many more flicks it changes, as a share; for 0/1 values the interval is
    the paired Wald one, √(b + c − (b − c)²/n)/n with b, c the two kinds of discordant flick).
    The step is within the nudge floor when ``low`` ≤ 0. Fewer than two flicks have no interval:
    (−∞, ∞), never the zero width one flick once had."""
    d = np.array(by_step, dtype=float) - np.array(by_nudge, dtype=float)
    n = len(d)
    mean = float(d.mean()) if n else math.nan
    if n < 2:
        return mean, -math.inf, math.inf
    half = Z95 * math.sqrt(max(float(np.sum((d - mean) ** 2)), 0.0)) / n
    return mean, mean - half, mean + half


def flick_rows(base: list[list[str]], half: list[list[str]], nudged: list[list[str]]) -> list[Row]:
    """The ``flicks`` rows from the pieces each flick toppled at the table's step (``base``), at
    half of it (``half``) and :data:`FLICK_NUDGE` faster at the step (``nudged``), flick by flick."""
    n = len(base)
    if not n or len(half) != n or len(nudged) != n:
        raise ValueError(
            f"flick_rows: three runs of the same flicks expected, got {len(base)}, {len(half)}, {len(nudged)}"
        )
    steps = f"1/{round(1 / TABLE_DT)} → 1/{round(2 / TABLE_DT)} s"
    nudge = f"{FLICK_NUDGE * 100:g} % faster"
    by_step = [a != b for a, b in zip(base, half)]
    by_nudge = [a != b for a, b in zip(base, nudged)]
    step_only = sum(s and not u for s, u in zip(by_step, by_nudge))
    nudge_only = sum(u and not s for s, u in zip(by_step, by_nudge))
    share, lo, hi = against_nudge_floor(by_step, by_nudge)
    source = (
        "sensitivity: halving the step must not change more flicks than a nudge far below a player's spread "
        "does (docs/physics.md 'Flick outcomes against the time step')"
    )
    knocked_step = [len(b) - len(a) for a, b in zip(base, half)]
    knocked_nudge = [len(b) - len(a) for a, b in zip(base, nudged)]
    k_step, k_lo, k_hi = against_nudge_floor(knocked_step, [0] * n)
    k_excess, ke_lo, ke_hi = against_nudge_floor(knocked_step, knocked_nudge)
    return [
        Row(
            "flicks",
            f"Kubbuteo flicks: knocked set changed by halving the step vs by a {FLICK_NUDGE * 100:g} % nudge, "
            f"{counted(n, 'flick')}: "
            f"by halving ({steps}) {sum(by_step)}, by a flick {nudge} {sum(by_nudge)}; by the halving only "
            f"{step_only}, by the nudge only {nudge_only}; paired excess 95 % {lo * 100:+.1f} to {hi * 100:+.1f} "
            "points",
            f"no more than with a flick {nudge}",
            source,
            sum(by_nudge) / n * 100,
            sum(by_step) / n * 100,
            "%",
            "paired 95 % interval of the excess reaches 0 or lies below",
            lo <= 0.0,
        ),
        Row(
            "flicks",
            f"change of the pieces knocked per flick when the step is halved ({steps}; 95 % {k_lo:+.3f} to "
            f"{k_hi:+.3f}), less the change with a flick {nudge}: paired 95 % {ke_lo:+.3f} to {ke_hi:+.3f}",
            f"no more than with a flick {nudge}",
            source,
            float(np.mean(knocked_nudge)),
            k_step,
            "pieces/flick",
            "paired 95 % interval of the difference reaches 0",
            ke_lo <= 0.0 <= ke_hi,
        ),
    ]


def check_flicks(per_skill: int = FLICKS, seed: int = 7, workers: int = 1, progress=None) -> list[Row]:
    """:func:`flick_rows` of ``per_skill`` seeded flicks of each preset (:func:`run_flicks`)."""
    runs = [
        run_flicks(per_skill, seed, dt, speed_scale=scale, workers=workers, progress=progress)
        for dt, scale in ((TABLE_DT, 1.0), (TABLE_DT / 2, 1.0), (TABLE_DT, 1.0 + FLICK_NUDGE))
    ]
    return flick_rows(*runs)

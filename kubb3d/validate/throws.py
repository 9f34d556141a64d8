"""``throws`` rows of ``kubb3d validate``: seeded elite player throws at 8 m (``dm-small``, grass)
at the default step and at half of it: kubbs felled per baton (tuned into its band, and its
paired change with the step), where a ground-only baton rests against a release 0.1 % faster
(docs/physics.md "Where a thrown baton comes to rest"), the slide after landing, rest, the time
limit and determinism."""

from __future__ import annotations

import math
from typing import Iterable

import numpy as np

from kubb3d import targets
from kubb3d.calibrate import BANDS, baton_trial, run_throws
from kubb3d.experiment.stats import t95
from kubb3d.physics.world import DT
from kubb3d.ranges import counted
from kubb3d.validate.rows import Row

FAST_AT_REST = 0.05
"""m/s: no piece of a throw declared at rest may be faster than this."""
FELLED_RATE_TOLERANCE = 0.015
"""kubbs per baton: the felled-per-baton rate may change by less than this when dt is halved; the
row passes only when the paired change's whole 95 % interval lies inside ±this."""
BATON_REST_SPREAD = 0.10
"""m: a thrown baton rests this far or farther from where it rests at half the step: "moved"."""
RELEASE_NUDGE = 0.001
"""The share by which the nudged throws' release speed is faster (0.1 %, about 9 mm/s at 8 m, far
below a player's spread). Where a baton that touched only the ground comes to rest is sensitive:
a release 0.1 % faster moved it 10 cm or more in 26 of 142 such throws of 300, 0.01 % in 4 of 146,
0.001 % in 2 of 147, and halving the step moved it in 14 of 145 from 1/960 s and in 16 of 145 from
1/1920 s, not fewer at the finer step (docs/physics.md "Where a thrown baton comes to rest"). So the
step may move as many such throws as the nudge does, not none."""
THROWS = 2000
"""Seeded elite throws per step of the ``throws`` group: the paired change of the felled rate
when the step is halved had a 95 % interval of ±0.010 over 1,000 throws and ±0.017 over 300, wider
than :data:`FELLED_RATE_TOLERANCE` with the change; about ±0.007 over 2,000."""


def _rate(rows: list[dict]) -> tuple[float, float]:
    """(kubbs felled per baton, half width of its Student's t 95 % interval; NaN for one throw,
    which has none: it was a zero width)."""
    x = np.array([r["felled"] for r in rows], dtype=float)
    if len(x) < 2:
        return float(x.mean()), math.nan
    return float(x.mean()), float(t95(len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x)))


def _rests_apart(a_runs: list[dict], b_runs: list[dict]) -> tuple[int, int, int]:
    """(throws whose baton touched only the ground in both runs and rests :data:`BATON_REST_SPREAD`
    or farther apart, how many touched only the ground in both, throws that rest that far apart of
    all) of two runs of the same seeded throws."""
    apart = [math.dist(a["baton_rest"][:2], b["baton_rest"][:2]) for a, b in zip(a_runs, b_runs)]
    alone = [d for d, a, b in zip(apart, a_runs, b_runs) if not a["touched"] and not b["touched"]]
    return (
        sum(1 for d in alone if d >= BATON_REST_SPREAD),
        len(alone),
        sum(1 for d in apart if d >= BATON_REST_SPREAD),
    )


def check_throws(
    n: int, seed: int = 7, workers: int = 1, series: list | None = None, progress=None, dts: Iterable[float] = ()
) -> list[Row]:
    rows = []
    base = run_throws(n, seed, DT, workers=workers, progress=progress)
    half = run_throws(n, seed, DT / 2, workers=workers, progress=progress)
    p0, c0 = _rate(base)
    p1, c1 = _rate(half)
    d = np.array([b["felled"] - a["felled"] for a, b in zip(base, half)], dtype=float)  # half − default
    # paired: Student's t of the differences (kubb3d.experiment.stats)
    diff, ci = float(d.mean()), float(t95(max(1, len(d) - 1)) * d.std(ddof=1) / math.sqrt(len(d)))
    lo, hi = BANDS["elite"]
    target = targets.TARGETS["elite"]
    rows.append(
        Row(
            "throws",
            f"kubbs felled per baton, {n} elite throws at 8 m (dm-small, grass), dt = 1/{round(1 / DT)} s "
            f"(95 % ±{c0:.3f})",
            f"≈ {target:.2f} (band {lo:.2f}–{hi:.2f})",
            f"competitive players fell about {100 * target:.0f} % at 8 m (docs/physics.md 'Reference numbers'); the "
            "elite preset is tuned into the band (kubb3d/calibrate.py)",
            target,
            p0,
            "kubbs/baton",
            f"in {lo:.2f}–{hi:.2f}",
            lo <= p0 <= hi,
            "tuned",
        )
    )
    rows.append(
        Row(
            "throws",
            f"change of that rate when dt is halved (1/{round(2 / DT)} s: {p1:.3f}); paired 95 % ±{ci:.3f}",
            "0",
            "convergence: halving the step must not move a result",
            0.0,
            diff,
            "kubbs/baton",
            f"95 % interval inside ±{FELLED_RATE_TOLERANCE}",
            abs(diff) + ci < FELLED_RATE_TOLERANCE,
        )
    )
    nudged = run_throws(n, seed, DT, workers=workers, progress=progress, speed_scale=1 + RELEASE_NUDGE)
    moved, alone, moved_all = _rests_apart(base, half)
    nudge_moved, nudge_alone, _ = _rests_apart(base, nudged)
    share = moved / alone if alone else 0.0
    nudge_share = nudge_moved / nudge_alone if nudge_alone else 0.0
    rows.append(
        Row(
            "throws",
            f"throws whose baton touched only the ground that rests {BATON_REST_SPREAD * 100:g} cm or more from "
            f"where it rests at dt = 1/{round(2 / DT)} s: {moved} of {alone} (all throws: {moved_all} of {n}); with "
            f"a release {RELEASE_NUDGE * 100:g} % faster at dt = 1/{round(1 / DT)} s: {nudge_moved} of {nudge_alone}",
            f"no more than with a release {RELEASE_NUDGE * 100:g} % faster",
            "sensitivity: halving the step must not move a result more than a change far below a player's "
            "spread does (docs/physics.md 'Where a thrown baton comes to rest')",
            nudge_share * 100,
            share * 100,
            "%",
            "≤ the nudge's share",
            share <= nudge_share,
        )
    )
    slides = [r["slide"] for r in base if r["slide"] is not None]
    med = float(np.median(slides)) if slides else float("nan")
    rows.append(
        Row(
            "throws",
            f"median slide of a baton after it lands first on grass ({counted(len(slides), 'throw')})",
            "0.3–1.5 m",
            "estimate from play (no measured figure found): a baton stops within about a metre of where it lands; "
            "the ground's plowing is tuned to it (docs/physics.md 'Plowing')",
            0.9,
            med,
            "m",
            "in 0.3–1.5 m",
            0.3 <= med <= 1.5,
            "tuned",
        )
    )
    fast = sum(1 for r in base + half if r["at_rest"] and r["fastest"] > FAST_AT_REST)
    rows.append(
        Row(
            "throws",
            f"throws declared at rest with a piece faster than {FAST_AT_REST} m/s (of {2 * n})",
            "0",
            "definition of rest",
            0.0,
            float(fast),
            "throws",
            "0",
            fast == 0,
        )
    )
    limit = sum(1 for r in base + half if not r["at_rest"])
    rows.append(
        Row(
            "throws",
            f"throws that reached the 15 s time limit (of {2 * n})",
            "0",
            "every throw comes to rest",
            0.0,
            float(limit),
            "throws",
            "0",
            limit == 0,
        )
    )
    again = baton_trial((0, n, seed, DT, "elite", "dm-small", "grass", 8.0))
    same = again["final"] == base[0]["final"]
    rows.append(
        Row(
            "throws",
            "the same throw simulated twice in fresh worlds: final poses bit-identical",
            "identical",
            "determinism",
            1.0,
            1.0 if same else 0.0,
            "",
            "exact",
            same,
        )
    )
    if series is not None:
        series.append((DT, p0, c0, n))
        series.append((DT / 2, p1, c1, n))
        for dt in dts:
            res = run_throws(n, seed, dt, workers=workers, progress=progress)
            p, c = _rate(res)
            series.append((dt, p, c, n))
        series.sort()
    return rows

"""The whole of ``kubb3d validate``: :func:`run_validation` runs every group of
:mod:`kubb3d.validate` in the order of its table, the quick subset or all of it."""

from __future__ import annotations

import os
from typing import Callable, Iterable

from kubb3d.validate.contact import check_terrain, check_tunnelling
from kubb3d.validate.flicks import FLICKS, check_flicks
from kubb3d.validate.flight import check_flight
from kubb3d.validate.pieces import check_pieces
from kubb3d.validate.plowing import check_plowing
from kubb3d.validate.rebound import check_rebound
from kubb3d.validate.rolling import check_roll
from kubb3d.validate.rows import Report, Row
from kubb3d.validate.sliding import check_drift, check_rest, check_slide
from kubb3d.validate.table import check_table
from kubb3d.validate.throws import THROWS, check_throws
from kubb3d.validate.tipping import check_balance, check_tipping


def run_validation(
    *,
    quick: bool = False,
    throws: int = THROWS,
    seed: int = 7,
    workers: int | None = None,
    progress=None,
    extra_dts: Iterable[float] = (1 / 240, 1 / 480),
    flicks: int = FLICKS,
) -> Report:
    """Run the validation; ``quick`` runs a fast subset (no player throws, no flicks).

    Args:
        quick: the subset the tests run (a few seconds).
        throws: player throws per time step in the ``throws`` group.
        seed: seed of the player throws.
        workers: processes for the player throws (default: all cores).
        progress: called with the number of player throws done since the last call.
        extra_dts: further time steps, s, whose felled-per-baton rate goes into the figure.
        flicks: seeded Kubbuteo flicks per preset in the ``flicks`` group.
    """
    report = Report()
    steps: list[Callable[[], list[Row]]] = [
        check_pieces,
        lambda: check_tipping(quick),
        check_balance,
        lambda: check_rebound(quick),
        lambda: check_slide(quick),
        lambda: check_drift(quick),
        lambda: check_roll(quick),
        check_rest,
        check_plowing,
        check_table,
        lambda: check_flight(quick),
        lambda: check_tunnelling(quick),
        check_terrain,
    ]
    for step in steps:
        report.rows.extend(step())
    if not quick:
        w = workers or os.cpu_count() or 1
        report.rows.extend(check_throws(throws, seed, w, report.felled_vs_dt, progress, extra_dts))
        report.rows.extend(check_flicks(flicks, seed, w, progress))
    return report

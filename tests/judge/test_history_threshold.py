"""DM §5 at its exact thresholds. "Überschlag mit anschließendem Stehen": a history of exactly 90°
from the upright is no turn over, the next float above is (kills the ``>`` → ``>=`` mutant), for a
kubb, the king and a Kubbuteo disk, whatever the disk's lean by direction. "Allein stehfähig": a
centre of mass exactly ``tip_margin`` inside the base stands, a float less does not."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from helpers import kubb, king

from kubb3d.judge import turned_over
from kubb3d.judge.params import DEFAULT_PARAMS
from kubb3d.equipment import kubbuteo_disk
from kubb3d.snapshot import PieceState


def _disk() -> PieceState:
    disk = kubbuteo_disk()
    half = (disk.thickness / 2, disk.diameter / 2, disk.diameter / 2)
    return PieceState("B1", "kubb", "disk", half, (0.3, 0.0, disk.diameter / 2), side="B")


@pytest.mark.parametrize("piece", [kubb("B1", 2.0, 0.0), king(), _disk()], ids=["kubb", "king", "disk"])
def test_the_history_threshold_is_strict(piece):
    edge = math.pi / 2
    assert not turned_over(replace(piece, max_tilt=edge))
    assert turned_over(replace(piece, max_tilt=math.nextafter(edge, math.inf)))


@pytest.mark.parametrize("index", [0, 1], ids=["sideways", "in plane"])
def test_a_disks_lean_by_direction_does_not_move_the_threshold(index):
    lean = [0.0, 0.0]
    lean[index] = math.pi / 2
    at_edge = replace(_disk(), max_lean=(lean[0], lean[1]), max_tilt=math.pi / 2)
    assert not turned_over(at_edge)
    assert turned_over(replace(at_edge, max_tilt=math.nextafter(math.pi / 2, math.inf)))


@pytest.mark.parametrize("tilt_deg", [5.0, 20.0, 24.0])
def test_standing_needs_the_tip_margin_exactly(tilt_deg):
    """DM §5 "allein stehfähig": a kubb stands on its own while its centre of mass projects at
    least ``tip_margin`` inside its base; with the margin set to exactly what it has, it still
    stands, with the next float above, it does not (held by nothing: fallen)."""
    from helpers import snap

    from kubb3d.judge import Status
    from kubb3d.judge.status import analyse

    s = snap(kubb("B1", 2.0, 0.0, tilt_deg=tilt_deg, toward_deg=30.0))
    have = analyse(s, "B1", DEFAULT_PARAMS).margin
    assert have > 0
    at = replace(DEFAULT_PARAMS, tip_margin=have)
    over = replace(DEFAULT_PARAMS, tip_margin=math.nextafter(have, math.inf))
    assert analyse(s, "B1", at).status is Status.STANDING
    assert analyse(s, "B1", over).status is not Status.STANDING

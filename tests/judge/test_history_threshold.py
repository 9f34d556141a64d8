"""DM §5 "knocked past its tipping angle" at its exact threshold: a history equal to the tipping
angle plus the history margin is not past it, the next float above is (kills the ``>`` → ``>=``
mutant the issue #37 measurement found surviving), for a kubb, the king and a Kubbuteo disk, and
for the disk's two directions separately."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from helpers import kubb, king

from kubb3d.judge import knocked_past_tipping
from kubb3d.judge.geometry import tipping_angle
from kubb3d.judge.params import DEFAULT_PARAMS
from kubb3d.equipment import kubbuteo_disk
from kubb3d.snapshot import PieceState

MARGIN = DEFAULT_PARAMS.history_margin


def _disk() -> PieceState:
    disk = kubbuteo_disk()
    half = (disk.thickness / 2, disk.diameter / 2, disk.diameter / 2)
    return PieceState("B1", "kubb", "disk", half, (0.3, 0.0, disk.diameter / 2), side="B")


@pytest.mark.parametrize("piece", [kubb("B1", 2.0, 0.0), king(), _disk()], ids=["kubb", "king", "disk"])
def test_the_history_threshold_is_strict(piece):
    edge = tipping_angle(piece) + MARGIN
    assert not knocked_past_tipping(replace(piece, max_tilt=edge))
    assert knocked_past_tipping(replace(piece, max_tilt=math.nextafter(edge, math.inf)))


@pytest.mark.parametrize("direction, index", [(0.0, 0), (math.pi / 2, 1)], ids=["sideways", "in plane"])
def test_a_disks_history_threshold_is_strict_in_each_direction(direction, index):
    disk = kubbuteo_disk()
    edge = disk.tipping_angle_towards(direction) + MARGIN
    lean = [0.0, 0.0]
    lean[index] = edge
    at_edge = replace(_disk(), max_lean=(lean[0], lean[1]), max_tilt=edge)
    assert not knocked_past_tipping(at_edge)
    lean[index] = math.nextafter(edge, math.inf)
    assert knocked_past_tipping(replace(at_edge, max_lean=(lean[0], lean[1]), max_tilt=lean[index]))

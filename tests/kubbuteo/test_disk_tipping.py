"""A Kubbuteo kubb's tipping angle depends on the direction, and the judge's standing/felled verdict
agrees with the physics on it (docs/physics.md "Tipping a Kubbuteo kubb")."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubb3d.assets import disk_kubb_mesh
from kubb3d.equipment import CONVEX_MARGIN, kubbuteo_disk
from kubb3d.judge import Status, analyse, turned_over
from kubb3d.judge.rulebook import get_rulebook
from kubb3d.physics.world import World
from kubb3d.snapshot import PieceState
from kubb3d.validate import disk_tips, tilted_disk_pose

DISK = kubbuteo_disk()
PARAMS = get_rulebook("kubbuteo").params


def test_support_matches_the_meshes_the_physics_uses():
    # the centre of mass of the true disk's mesh (the engine's inertial) over its flat, and the
    # half length of the collision mesh's flat (inset by the margin PyBullet pads back)
    true = disk_kubb_mesh(DISK)
    assert DISK.com_height == pytest.approx(true.center_mass[2] + DISK.height / 2, abs=2e-6)
    inner = np.asarray(disk_kubb_mesh(DISK, inset=CONVEX_MARGIN).vertices)
    flat = inner[np.isclose(inner[:, 2], inner[:, 2].min())]
    a, b, h = DISK.support
    assert a == pytest.approx(np.abs(flat[:, 0]).max())
    assert b == pytest.approx(np.abs(flat[:, 1]).max(), abs=1e-7)
    assert h == pytest.approx(DISK.com_height - CONVEX_MARGIN)
    # sideways is the smallest angle, and the rounding makes it smaller than the sharp disk's
    sharp = math.atan2(DISK.thickness / 2, DISK.com_height)
    angles = [DISK.tipping_angle_towards(math.radians(d)) for d in range(0, 360, 5)]
    assert DISK.tipping_angle == min(angles) < sharp
    assert DISK.tipping_angle_towards(math.pi / 2) == pytest.approx(math.atan2(b, h))


def _tilted(angle: float, direction: float) -> PieceState:
    """The disk as the world holds it, tilted at rest (nothing stepped)."""
    position, q = tilted_disk_pose(angle, direction)
    with World("kubbuteo", stakes=False) as w:
        w.add_piece("B1", "kubb", position, q, side="B")
        return w.snapshot()["B1"]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(direction=st.floats(0.0, 2 * math.pi, exclude_max=True), past=st.booleans())
def test_judge_and_physics_agree_0_3_degrees_either_side_of_the_tipping_angle(direction, past):
    angle = DISK.tipping_angle_towards(direction) + math.radians(0.3 if past else -0.3)
    p = _tilted(angle, direction)
    from kubb3d.rules.kubbuteo import kubbuteo_pitch
    from kubb3d.snapshot import Snapshot

    snap = Snapshot(0.0, {"B1": p}, (), kubbuteo_pitch(), 9.81)
    status = analyse(snap, "B1", PARAMS).status
    assert status is (Status.FALLEN if past else Status.STANDING)
    assert disk_tips(angle, direction) is past


def _history(**kw) -> PieceState:
    he = DISK.half_extents
    return PieceState("A1", "kubb", "disk", he, (0.1, 0.0, he[2]), mass=0.0043, side="A", **kw)


def test_a_disks_history_counts_only_past_lying_in_either_direction():
    """KT rules ("removing … any knocked over kubbs"): a disk that stands again counts only if it
    turned over (kubb3d.judge.status.turned_over); far past its tipping angle towards a face
    (11.2°) or along its rim (19.1°) and back is no turn over (docs/rules.md "KT ← DM §5
    knocked over")."""
    side, plane = DISK.tipping_angle_towards(0.0), DISK.tipping_angle_towards(math.pi / 2)
    for lean in ((3 * side, 0.0), (0.0, 3 * plane), (math.pi / 2, math.pi / 2)):
        assert not turned_over(_history(max_tilt=max(lean), max_lean=lean))
    beyond = math.nextafter(math.pi / 2, 4.0)
    assert turned_over(_history(max_tilt=beyond, max_lean=(beyond, 0.0)))
    assert turned_over(_history(max_tilt=math.pi))


def test_the_audit_takes_a_disks_tipping_angle_by_direction():
    # the audit checked a disk ruled standing against one tipping angle for every direction; a
    # disk rolled 15° along its rim stands on the end of its flat, one leaning 13° towards a face
    # does not
    from kubb3d.audit import AuditReport, _Auditor
    from kubb3d.rules import get_ruleset

    aud = _Auditor(AuditReport("kubbuteo"), 0, get_ruleset("kubbuteo"))
    assert aud._standing_problem(_tilted(math.radians(15.0), math.pi / 2)) is None
    assert "not over its flat" in (aud._standing_problem(_tilted(math.radians(13.0), 0.0)) or "")


def _rocked(spin: float, about: int) -> tuple[PieceState, float]:
    """A Kubbuteo kubb standing upright, set spinning at ``spin`` rad/s about its own axis
    ``about`` (0: the disk axis, a rock along its rim; 1: across its faces), run to rest with
    the world's 30 Hz samples: (its snapshot, its largest tilt seen at every step, rad)."""
    from kubb3d.snapshot import quat_to_matrix

    position, q = tilted_disk_pose(0.0, 0.0)
    with World("kubbuteo", stakes=False) as w:
        w.add_piece("B1", "kubb", position, q, side="B", sleeping=False)
        axis = quat_to_matrix(q)[:, about] * spin
        w.set_pose("B1", position, q, angular_velocity=tuple(axis))
        peak = 0.0
        for _, samples in w.rest.iter_until_rest(max_time=3.0):
            qk = samples["B1"][1]
            peak = max(peak, math.acos(min(1.0, quat_to_matrix(qk)[2, 2])))
        return w.snapshot()["B1"], peak


def test_the_world_records_a_disks_history_by_direction():
    """A rock along the rim to about 15° (past the sideways 11.2°, short of the in-plane 19.1°)
    comes back and stands; the world records it as a lean in its plane. The same tilt across
    its faces tips it over. Neither turned over by the record that stands back up."""
    p, peak = _rocked(16.5, 0)
    side, plane = p.max_lean
    assert math.radians(12.5) < plane <= peak + 1e-9 < DISK.tipping_angle_towards(math.pi / 2)
    assert side < math.radians(1.0)
    assert p.max_tilt == pytest.approx(plane, abs=math.radians(0.5))
    assert p.tilt < math.radians(1.0)  # back on its flat
    assert not turned_over(p)
    q, _ = _rocked(15.0, 1)
    assert q.max_lean[0] > math.radians(60.0)


def test_only_kubbuteo_kubbs_record_the_split():
    with World("standard", stakes=False) as w:
        w.add_piece("A1", "kubb", (1.0, 0.0, 0.075), side="A")
        assert w.snapshot()["A1"].max_lean is None

"""The rounded-rim baton disk that ``benchmarks/kubbuteo_convergence.py --variant rounded-rim``
puts in Bullet (docs/physics.md "Flick outcomes against the time step"): its mesh against Pappus'
theorem, and its face spheres inside it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kubb3d.assets import FACE_SPHERE_RADIUS, face_sphere_centres, rounded_disk_mesh
from kubb3d.equipment import CONVEX_MARGIN, KUBBUTEO

BATON = KUBBUTEO.baton


def removed_by_rounding(radius: float, fillet: float) -> float:
    """m³ one rounded rim takes off a sharp disk (Pappus: the area between a square corner of side
    ``fillet`` and its quarter circle, turned about the axis at its centroid's radius)."""
    area = fillet**2 * (1 - math.pi / 4)
    centroid = radius - fillet + 2 * fillet / (3 * (4 - math.pi))
    return 2 * math.pi * centroid * area


@pytest.mark.parametrize("fillet", [0.001, 0.002, 0.0035])
def test_volume_is_the_sharp_disk_less_two_rounded_rims(fillet):
    mesh = rounded_disk_mesh(BATON, fillet, sections=360, arc=16)
    expected = math.pi * BATON.radius**2 * BATON.length - 2 * removed_by_rounding(BATON.radius, fillet)
    assert mesh.is_watertight
    # the rims take off 1–8 % (1–3.5 mm); the 16 chords of each quarter circle lose up to 0.05 %
    assert mesh.volume == pytest.approx(expected, rel=1e-3)
    assert mesh.volume < expected
    assert np.allclose(
        mesh.bounds, [[-BATON.radius] * 2 + [-BATON.length / 2], [BATON.radius] * 2 + [BATON.length / 2]]
    )


def test_collision_mesh_plus_margin_is_the_disk():
    # PyBullet pads a convex mesh by the margin: the inset mesh is the disk shrunk by it
    fillet = 0.002
    inner = rounded_disk_mesh(BATON, fillet, inset=CONVEX_MARGIN, sections=360, arc=16)
    assert inner.bounds[1][0] == pytest.approx(BATON.radius - CONVEX_MARGIN)
    assert inner.bounds[1][2] == pytest.approx(BATON.length / 2 - CONVEX_MARGIN)


@pytest.mark.parametrize("fillet", [0.0, 0.002, 0.0035])
def test_face_spheres_lie_inside_the_rounded_disk(fillet):
    s = FACE_SPHERE_RADIUS
    for x, y, z in face_sphere_centres(BATON, fillet):
        rho, h = math.hypot(x, y), abs(z)
        assert h + s == pytest.approx(BATON.length / 2)  # touching its face
        # the farthest point of the sphere from the rounding's centre is inside the rounding
        f = max(fillet, s)
        centre = (BATON.radius - f, BATON.length / 2 - f)
        out = (rho - centre[0], h - centre[1])
        reach = math.hypot(max(out[0], 0.0), max(out[1], 0.0)) + s
        assert reach <= f + 1e-12


def test_a_fillet_out_of_range_is_refused():
    with pytest.raises(ValueError, match="fillet"):
        rounded_disk_mesh(BATON, BATON.length)
    with pytest.raises(ValueError, match="fillet"):
        rounded_disk_mesh(BATON, 0.0005, inset=CONVEX_MARGIN)


def test_a_mesh_that_does_not_close_is_refused():
    # 30 segments on a 1 mm rounding: trimesh merges the profile's points and the mesh opens
    with pytest.raises(ValueError, match="not closed"):
        rounded_disk_mesh(BATON, 0.001, sections=360, arc=30)


def test_bullet_rounds_the_shipped_cylinder_s_rims_by_its_margin(tmp_path):
    """docs/physics.md: the baton disk's cylinder, as the engine loads it, has its rims rounded by
    the 1 mm collision margin, no more: tilted 45°, its lowest point is (√2 − 1) × 1 mm above the
    sharp disk's, at any turn about its axis."""
    import pybullet as pb

    from kubb3d.model_files import models_dir

    text = (models_dir() / "kubbuteo-baton.urdf").read_text(encoding="utf-8")
    head, _, rest = text.partition("  <collision>")
    cylinder = "  <collision>" + rest.split("</collision>")[0] + "</collision>\n"
    assert "<cylinder" in cylinder and "<sphere" not in cylinder
    (tmp_path / "kubbuteo-baton.obj").write_text((models_dir() / "kubbuteo-baton.obj").read_text(encoding="utf-8"))
    (tmp_path / "cylinder.urdf").write_text(head + cylinder + "</link>\n</robot>\n", encoding="utf-8")
    client = pb.connect(pb.DIRECT)
    try:
        flags = pb.URDF_USE_INERTIA_FROM_FILE | pb.URDF_USE_IMPLICIT_CYLINDER  # as the engine loads it
        disk = pb.loadURDF(str(tmp_path / "cylinder.urdf"), flags=flags, physicsClientId=client)
        floor = pb.createCollisionShape(pb.GEOM_BOX, halfExtents=(1, 1, 0.1), physicsClientId=client)
        board = pb.createMultiBody(0, floor, basePosition=(0, 0, -0.1), physicsClientId=client)
        sharp = (BATON.radius + BATON.length / 2) * math.sin(math.pi / 4)
        for spin in (0.0, 0.4, 1.0):
            tilt = pb.getQuaternionFromEuler((math.pi / 4, 0.0, 0.0))
            turn = pb.getQuaternionFromEuler((0.0, 0.0, spin))
            _, quat = pb.multiplyTransforms((0, 0, 0), tilt, (0, 0, 0), turn)
            pb.resetBasePositionAndOrientation(disk, (0, 0, 0.05), quat, physicsClientId=client)
            gap = min(p[8] for p in pb.getClosestPoints(disk, board, 0.2, physicsClientId=client))
            assert sharp - (0.05 - gap) == pytest.approx((math.sqrt(2) - 1) * CONVEX_MARGIN, abs=1e-6)
    finally:
        pb.disconnect(client)

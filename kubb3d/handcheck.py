"""The DM §5 hand check in physics: "im Zweifelsfall kann jederzeit vorsichtig per Hand
überprüft werden, ob ein Kubb allein stehfähig ist".

A counterfactual: a fresh :class:`~kubb3d.physics.world.World` holds only the
piece in question, at its snapshot pose and at rest; every body that touched it
(kubbs, batons, the king, stakes) is taken away. The world runs for
``duration`` seconds; the piece stands on its own if it ends within
``upright_tilt`` of upright, on its base. It lives outside :mod:`kubb3d.judge` because it
runs physics; the pure judge receives it as a callable (:data:`kubb3d.judge.status.HandCheck`).

Settings (decisions, the rule gives none): 1.0 s of simulated time (a kubb
tipping from 26° reaches the ground in ≈ 0.4 s), upright within 10° (the
threshold :mod:`kubb3d.throw` uses for "upright at rest").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kubb3d.equipment import EQUIPMENT_SETS, EquipmentSet
from kubb3d.errors import JudgeInputError
from kubb3d.physics.world import World
from kubb3d.ranges import listed
from kubb3d.snapshot import Snapshot, tilt_from_vertical


def equipment_for(snapshot: Snapshot) -> EquipmentSet:
    """The equipment set whose kubb (or king) size matches the snapshot's pieces.

    Raises:
        JudgeInputError: no kubb or king in the snapshot, or no set matches (sizes in the message).
    """
    for p in snapshot.pieces.values():
        if p.kind in ("kubb", "king"):
            for eq in EQUIPMENT_SETS.values():
                ref = eq.kubb.half_extents if p.kind == "kubb" else eq.king.half_extents
                if all(abs(a - b) < 1e-6 for a, b in zip(ref, p.half_extents)):
                    return eq
            raise JudgeInputError(
                f"no equipment set has a {p.kind} of half extents {p.half_extents} m; known sets: "
                f"{listed(sorted(EQUIPMENT_SETS))}"
            )
    raise JudgeInputError("the snapshot holds no kubb or king to infer the equipment set from")


@dataclass
class PhysicsHandCheck:
    """Callable hand check: ``check(snapshot, piece_id) -> bool`` (True: stands alone).

    Attributes:
        equipment: the set (None: inferred from the snapshot's piece sizes).
        ground: ground name for the counterfactual world.
        duration: simulated seconds the piece is left alone, s.
        upright_tilt: largest tilt from upright that still counts as standing, rad.
        calls: how many checks were run (for reports).
    """

    equipment: EquipmentSet | str | None = None
    ground: str = "grass"
    duration: float = 1.0
    upright_tilt: float = math.radians(10.0)
    calls: int = 0

    def __call__(self, snapshot: Snapshot, piece_id: str) -> bool:
        """Run the check. Raises JudgeInputError for an unknown piece or equipment."""
        p = snapshot.pieces.get(piece_id)
        if p is None:
            raise JudgeInputError(f"no piece {piece_id!r} in the snapshot")
        self.calls += 1
        eq = self.equipment or equipment_for(snapshot)
        with World(eq, snapshot.pitch, self.ground, stakes=False, air_drag=False) as world:
            world.add_piece(piece_id, p.kind, p.position, p.quat_xyzw, side=p.side, sleeping=False)
            world.step(int(math.ceil(self.duration / world.dt)))
            _, q = world.pose(piece_id)
        t = tilt_from_vertical(q)
        if p.kind == "kubb":
            t = min(t, math.pi - t)
        return t <= self.upright_tilt

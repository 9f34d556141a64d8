"""Thresholds of the judge, in one frozen dataclass with the source of every number.

The rules (DM §5, §7; WS basic rules 8–13) say *what* counts as standing,
leaning or valid, but not with which tolerances a machine should measure it.
Every tolerance here is a decision of this project and says why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from kubb3d.errors import JudgeInputError


@dataclass(frozen=True)
class JudgeParams:
    """Tolerances of the pure judge (SI units: m, rad, N, s).

    Attributes:
        lying_tilt: a kubb or king whose long axis is at least this far from the
            vertical is *lying* (``fallen``), not *leaning*, even when it rests
            partly on another body. 70°: a kubb propped on a lying baton
            (≈ 17° above the ground) is lying; a kubb resting on a lying kubb
            (≈ 30–45° above the ground) is leaning.
        tip_margin: the centre of mass must project at least this far inside the
            base footprint for the piece to count as self-supporting, m. 1 mm:
            the resolution of contact points at rest (measured in PyBullet).
        doubt_margin: within this distance of the footprint edge (either side)
            a piece that touches another body is a doubtful case for the hand
            check (DM §5 "im Zweifelsfall"), m. 4 mm ≈ 3° of tilt for a 7×15 cm kubb.
        flat_tilt: a supported piece tilted more than this on its base is also
            a doubtful case (it might be propped up), rad. 3°.
        support_force_fraction: a contact whose normal force is below this
            fraction of the piece's weight is a touch, not a support (the
            smallest measured support of a kubb leaning at 30° on a kubb is 5 %
            of its weight). 1 %.
        base_tol: a ground contact within this distance of the base face plane is
            "under the base", m (grass contacts sink 1–2 mm). 5 mm.
        ground_tol: for pieces without contact data (hand-built snapshots) a
            corner at most this high counts as touching the ground, m. 5 mm.
        moved_tol: a piece displaced by more than this during an inkast was
            "moved" (WS basic rule 14), m. 1 cm.
        line_tol: a raised kubb's base may cross a line by at most this much and
            still count as "fully inside" (DM §7, WS basic rule 13), m. 0: the
            lines are ideal lines of zero width; a base touching the line is inside.
        king_clearance: a kubb raised towards the king stops this far from it so
            that it does not touch it (DM §7), m. 1 mm.
        block_tol: footprints closer than this count as touching, not
            overlapping (block building, DM §7), m. 1 mm.
        baton_length: one baton length, the least distance of a WS penalty kubb
            from the king (WS basic rule 11), m. 0.30 (standard set; the scenario
            builder passes the equipment's value).
    """

    lying_tilt: float = math.radians(70.0)
    tip_margin: float = 0.001
    doubt_margin: float = 0.004
    flat_tilt: float = math.radians(3.0)
    support_force_fraction: float = 0.01
    base_tol: float = 0.005
    ground_tol: float = 0.005
    moved_tol: float = 0.01
    line_tol: float = 0.0
    king_clearance: float = 0.001
    block_tol: float = 0.001
    baton_length: float = 0.30

    def __post_init__(self) -> None:
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
                raise JudgeInputError(f"JudgeParams.{name} must be a finite number >= 0, got {value!r}")
        if not 0 < self.lying_tilt <= math.pi / 2:
            raise JudgeInputError(f"JudgeParams.lying_tilt must be in (0, π/2] rad, got {self.lying_tilt}")


    def scaled(self, factor: float) -> "JudgeParams":
        """The same tolerances for pieces ``factor`` times the size (every length × factor,
        angles and force fractions unchanged).

        Raises:
            JudgeInputError: factor not a positive finite number.
        """
        if not (math.isfinite(factor) and factor > 0):
            raise JudgeInputError(f"scale factor must be a positive number, got {factor!r}")
        lengths = ("tip_margin", "doubt_margin", "base_tol", "ground_tol", "moved_tol", "king_clearance", "block_tol")
        return replace(self, **{n: getattr(self, n) * factor for n in lengths})


DEFAULT_PARAMS = JudgeParams()

REFERENCE_KUBB_HEIGHT = 0.15
"""m: the kubb height the default tolerances were chosen for (7×15 cm standard kubb, docs/physics.md)."""

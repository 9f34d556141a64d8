"""Pitch geometry and the piece ids every part of kubb3d uses.

Frame (README "The model"): origin at the pitch centre, x along the pitch from side
A's baseline (x = −L/2) to side B's (x = +L/2), y across, z up; metres.
Side A throws towards +x.

Piece ids:

========================  =====================================================
``A1`` … ``A5``           side A's baseline kubbs at x = −L/2, numbered in +y
``B1`` … ``B5``           side B's baseline kubbs at x = +L/2, numbered in +y
``king``                  the king on the centre point
``baton1`` … ``baton6``   the batons
``stake-A-left`` …        corner stakes ``stake-{A,B}-{left,right}``
``stake-mid-left/right``  the centre-line stakes
========================  =====================================================

Left and right in every name (stakes here, sidelines in scenario files) are as seen from side
A's baseline looking along +x, as for a thrower of side A: left is +y, right is −y.

Sources: pitch 5×8 m (``DM §2``); 5×7.5 m (``WS`` "The Playing Field"); five
kubbs per baseline "at equal distances … between the corner sticks" (``WS``
"The Playing Field", ``DM §2``); the king in the middle (``DM §2``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from kubb3d.errors import PitchError

Side = Literal["A", "B"]
"""A side of the pitch: ``A`` throws towards +x, ``B`` towards −x."""

SIDES: tuple[Side, Side] = ("A", "B")
KUBBS_PER_BASELINE = 5
BATON_IDS = tuple(f"baton{i}" for i in range(1, 7))
KING_ID = "king"

LEFT_OF_SIDE_A = 1.0
"""Sign of y on side A's left: side A faces +x with z up, so its left is +y. Every left and right
in a name (a stake, a sideline) means side A's, seen from its baseline."""


def baseline_ids(side: str) -> tuple[str, ...]:
    """Ids of a side's baseline kubbs, e.g. ``('A1', …, 'A5')``."""
    if side not in SIDES:
        raise PitchError(f"side must be 'A' or 'B', got {side!r}")
    return tuple(f"{side}{i}" for i in range(1, KUBBS_PER_BASELINE + 1))


def opponent(side: Side) -> Side:
    """The other side."""
    return _OTHER[side]


_OTHER: dict[Side, Side] = {"A": "B", "B": "A"}


def as_side(value: object) -> Side:
    """``value`` as a :data:`Side`.

    Raises:
        PitchError: ``value`` is not ``A`` or ``B``.
    """
    if value == "A" or value == "B":
        return "A" if value == "A" else "B"
    raise PitchError(f"side must be 'A' or 'B', got {value!r}")


PITCH_LENGTH_M = (2.0, 30.0)
"""m: the shortest and longest pitch a user may ask for (DM §2 and WS play 8 and 7.5 m;
shorter than 2 m the baselines and the king crowd together, docs/experiments.md)."""

PITCH_WIDTH_M = (1.0, 30.0)
"""m: the narrowest and widest pitch a user may ask for (DM §2 and WS play 5 m; five
baseline kubbs and two stakes need about a metre)."""


AROUND_PITCH_M = 2.0
"""m: how far beyond a pitch's lines a scenario or an experiment spec may place a piece (a baton
rolled past the baseline, a kubb knocked out: the shipped scenarios go 0.3 m beyond at most);
farther is a mistake, not a position (x = 15 on an 8 m pitch)."""


def off_the_pitch(pitch: "Pitch", x: float, y: float) -> str | None:
    """None when (x, y) (m, pitch coordinates) lies on ``pitch`` or within :data:`AROUND_PITCH_M`
    of its lines; else the words for a refusal: ``expected x from -6 to 6 m and y from -4.5 to
    4.5 m (the 8 × 5 m pitch and 2 m around it), got (15, 0)``."""
    hx, hy = pitch.length / 2 + AROUND_PITCH_M, pitch.width / 2 + AROUND_PITCH_M
    if abs(x) <= hx and abs(y) <= hy:
        return None
    return (
        f"expected x from {-hx:g} to {hx:g} m and y from {-hy:g} to {hy:g} m (the {pitch.length:g} × "
        f"{pitch.width:g} m pitch and {AROUND_PITCH_M:g} m around it), got ({x:g}, {y:g})"
    )


@dataclass(frozen=True)
class Pitch:
    """A rectangular Kubb pitch.

    Attributes:
        length: end to end, m (8.0 for DM §2, 7.5 for WS, 4 ft for KT).
        width: sideline to sideline, m (5.0).
        baseline_inset: how far the baselines lie inside the ends, m (0 for Kubb, where the
            baselines are the ends; 3.5 in for Kubbuteo, rule book KT "Equipment").
    """

    length: float = 8.0
    width: float = 5.0
    baseline_inset: float = 0.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.length) and math.isfinite(self.width)) or self.length <= 0 or self.width <= 0:
            raise PitchError(f"pitch length and width must be positive finite metres, got {self.length}×{self.width}")
        if not (math.isfinite(self.baseline_inset) and 0 <= self.baseline_inset < self.length / 2):
            raise PitchError(f"baseline_inset must be between 0 and half the length, got {self.baseline_inset}")

    # --- lines -----------------------------------------------------------
    def baseline_x(self, side: str) -> float:
        """x of a side's baseline, m: −L/2 for A, +L/2 for B (minus the inset)."""
        x = self.length / 2 - self.baseline_inset
        return -x if side == "A" else x

    def forward(self, side: str) -> float:
        """+1 if the side throws towards +x (A), −1 otherwise (B)."""
        return 1.0 if side == "A" else -1.0

    @property
    def half_width(self) -> float:
        """m."""
        return self.width / 2

    def half_of(self, x: float) -> str:
        """Which side's half a point at x lies in ('A' for x < 0, 'B' for x >= 0)."""
        return "A" if x < 0 else "B"

    def in_half(self, side: str, x: float, y: float) -> bool:
        """True if (x, y) is inside ``side``'s field half, lines included (closed rectangle)."""
        lo, hi = (-self.length / 2, 0.0) if side == "A" else (0.0, self.length / 2)
        return lo <= x <= hi and -self.half_width <= y <= self.half_width

    def in_pitch(self, x: float, y: float) -> bool:
        """True if (x, y) is inside the pitch, lines included."""
        return abs(x) <= self.length / 2 and abs(y) <= self.half_width

    # --- pieces ----------------------------------------------------------
    def baseline_kubb_positions(self, side: str) -> dict[str, tuple[float, float]]:
        """(x, y) of the five baseline kubbs, evenly spaced between the corner stakes, m.

        The stakes and kubbs divide the baseline into six equal gaps (WS "The Playing Field").
        """
        x = self.baseline_x(side)
        gap = self.width / (KUBBS_PER_BASELINE + 1)
        return {kid: (x, -self.half_width + (i + 1) * gap) for i, kid in enumerate(baseline_ids(side))}

    @property
    def king_position(self) -> tuple[float, float]:
        """The centre point, m."""
        return (0.0, 0.0)

    def stake_positions(self) -> dict[str, tuple[float, float]]:
        """(x, y) of the four corner stakes and two centre-line stakes, m; left (+y) and right (−y)
        as seen from side A's baseline (:data:`LEFT_OF_SIDE_A`). In the order −y before +y (the
        physics builds them in this order)."""
        h = self.half_width
        out = {}
        for side in SIDES:
            x = self.baseline_x(side)
            out[f"stake-{side}-right"] = (x, -h * LEFT_OF_SIDE_A)
            out[f"stake-{side}-left"] = (x, h * LEFT_OF_SIDE_A)
        out["stake-mid-right"] = (0.0, -h * LEFT_OF_SIDE_A)
        out["stake-mid-left"] = (0.0, h * LEFT_OF_SIDE_A)
        return out

    def throwing_line_ok(self, side: str, line_x: float, x: float, y: float) -> bool:
        """True if a point (release or foot) is behind ``line_x`` (seen from ``side``) and inside
        the extended sidelines (``DM §5``; ``WS basic rule 7``)."""
        return self.forward(side) * (x - line_x) <= 1e-9 and abs(y) <= self.half_width + 1e-9


PITCHES = {"dm": Pitch(8.0, 5.0), "wikinger": Pitch(7.5, 5.0)}

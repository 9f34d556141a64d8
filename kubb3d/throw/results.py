"""What a simulated throw produced: the flight's measures, the first contact, the
trajectory, the broken rules and the snapshot at rest, and the frames of a throw as it is simulated."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np
from kubb3d.linear import mat_vec

from kubb3d.snapshot import Snapshot, body_axis
from kubb3d.throw.params import FlickParams, Release, ThrowParams

UPRIGHT_TILT = math.radians(10.0)
"""A kubb or king within 10° of vertical (either end up) counts as upright at rest in a
:class:`ThrowResult` (the judge makes the real ruling)."""


@dataclass(frozen=True)
class Violation:
    """A broken throwing rule.

    Attributes:
        rule: citation, e.g. ``DM §5``.
        reason: one sentence for the player.
    """

    rule: str
    reason: str


@dataclass(frozen=True)
class FirstContact:
    """The thrown piece's first contact.

    Attributes:
        piece: what it touched (a piece id or ``ground``).
        time: seconds after release.
        position: contact point, m.
    """

    piece: str
    time: float
    position: tuple[float, float, float]


@dataclass
class Trajectory:
    """Sampled poses of the pieces that moved.

    Attributes:
        times: s after release, shape (T,).
        poses: piece id → array (T, 7): bounding-box centre x, y, z (m) and quat_xyzw.
    """

    times: np.ndarray
    poses: dict[str, np.ndarray]

    def fall_order(self, tipping: Mapping[str, float]) -> tuple[str, ...]:
        """The pieces whose long axis turned more than their tipping angle (``tipping``: piece
        id → rad; pieces not named are left out) away from their first sampled direction, in
        the order of the first sample at which they did (ties by id). For the referee option
        ``baseline_after_field`` = ``contact order`` (``ThrowContext.fall_order``, DM §5)."""
        when = []
        for pid in sorted(self.poses):
            if pid not in tipping or len(self.poses[pid]) == 0:
                continue
            axes = np.array([body_axis(q) for q in self.poses[pid][:, 3:7]])
            turned = np.flatnonzero(mat_vec(axes, axes[0]) < math.cos(tipping[pid]))
            if turned.size:
                when.append((int(turned[0]), pid))
        return tuple(pid for _, pid in sorted(when))


@dataclass(frozen=True)
class FlightMetrics:
    """Measured from the simulated flight, before the first contact.

    Attributes:
        max_tilt: largest tilt out of the vertical flight plane, rad.
        helicopter: accumulated rotation about the vertical besides the end-over-end spin, rad.
        flight_time: s from release to first contact (None if nothing was touched).
    """

    max_tilt: float
    helicopter: float
    flight_time: float | None


@dataclass
class ThrowResult:
    """Everything a throw produced.

    Attributes:
        piece: the thrown piece's id.
        release: the release state.
        params: the player's parameters (None for a raw release).
        metrics: flight legality measurements.
        violations: broken rules (empty: legal).
        first_contact: the first contact or None.
        touched: ids of the pieces that the thrown piece touched or that moved.
        trajectory: sampled poses.
        final: snapshot at rest (contacts with fresh normal forces).
        rest_time: s from release until everything was at rest.
        at_rest: False if the time limit ended the simulation first.
        final_tilt: piece id → tilt from vertical at rest, rad (kubbs and king); on terrain
            from the normal of the ground under the piece, so that a kubb standing flush on a
            slope is upright (docs/physics.md "Setting up on uneven ground").
    """

    piece: str
    release: Release
    params: ThrowParams | FlickParams | None
    metrics: FlightMetrics
    violations: list[Violation]
    first_contact: FirstContact | None
    touched: list[str]
    trajectory: Trajectory
    final: Snapshot
    rest_time: float
    at_rest: bool
    final_tilt: dict[str, float]

    @property
    def legal(self) -> bool:
        """True when no rule was broken."""
        return not self.violations

    @property
    def upright(self) -> list[str]:
        """Kubbs and king standing on an end face at rest (within :data:`UPRIGHT_TILT`)."""
        return sorted(pid for pid, t in self.final_tilt.items() if t < UPRIGHT_TILT or t > math.pi - UPRIGHT_TILT)

    @property
    def toppled(self) -> list[str]:
        """Kubbs and king not upright at rest."""
        up = set(self.upright)
        return sorted(pid for pid in self.final_tilt if pid not in up)

    def to_json(self) -> dict:
        """The CLI's ``--json`` document (see the README)."""
        fc = self.first_contact
        return {
            "piece": self.piece,
            "legal": self.legal,
            "violations": [{"rule": v.rule, "reason": v.reason} for v in self.violations],
            "flight_time_s": self.metrics.flight_time,
            "max_tilt_deg": math.degrees(self.metrics.max_tilt),
            "helicopter_deg": math.degrees(self.metrics.helicopter),
            "first_contact": None
            if fc is None
            else {"piece": fc.piece, "time_s": fc.time, "position_m": list(fc.position)},
            "touched": self.touched,
            "upright": self.upright,
            "toppled": self.toppled,
            "rest_time_s": self.rest_time,
            "at_rest": self.at_rest,
            "release": {
                "position_m": list(self.release.position),
                "velocity_mps": list(self.release.velocity),
                "angular_velocity_radps": list(self.release.angular_velocity),
                "quat_xyzw": list(self.release.quat_xyzw),
            },
        }


@dataclass(frozen=True)
class ThrowFrame:
    """One sample of a throw while it is being simulated (:func:`simulate_iter`), for a view
    that draws the throw as it comes.

    Attributes:
        piece: id of the thrown piece.
        time_s: seconds since the release (0 for the release itself).
        samples: id → (centre of mass (3,) m, quat_xyzw) of the pieces read at this sample:
            during the free flight only the thrown piece (nothing else can move before its
            first contact), after it every movable piece; in the last frame every piece of the
            result's snapshot, by its frame position (see :meth:`poses`).
        final: True for the last frame: the poses of :attr:`ThrowResult.final`, at rest.
    """

    piece: str
    time_s: float
    samples: Mapping[str, tuple]
    final: bool = False
    to_frame: Callable[[str, Any, Any], Any] | None = None

    def poses(self) -> dict[str, np.ndarray]:
        """id → pose (7,) (frame position m, quat_xyzw) of every piece in this frame, as the
        trajectories and snapshots give them."""
        conv = self.to_frame
        return {
            pid: np.array((*(conv(pid, com, q) if conv is not None else com), *q), dtype=float)
            for pid, (com, q) in self.samples.items()
        }

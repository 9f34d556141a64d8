"""Throws: release parameters, the underhand baton throw, the aim solver,
inkasts and lag throws, and throw legality measured from the simulated flight.

The package by concern: :mod:`~kubb3d.throw.params` (what a player chooses, the release it
gives), :mod:`~kubb3d.throw.results` (what a throw produced), :mod:`~kubb3d.throw.legality`
(the throwing rules judged from the flight), :mod:`~kubb3d.throw.simulation` (release to rest)
and :mod:`~kubb3d.throw.aim` (the aim solver, inkasts, lag throws). Every public name is
importable from ``kubb3d.throw``.

Conventions (README "The model"): SI units inside; degrees and revolutions per second
only in :class:`ThrowParams` fields whose names say so. The thrower's forward
direction is +x for side A and −x for side B; azimuth is measured from it,
positive to the thrower's left (counter-clockwise seen from above).

Flight legality (computed from the simulation, never copied from the input):

* **tilt**: the largest angle between the baton's long axis and the vertical
  plane of its flight (the plane through the release velocity), before the
  baton's first contact. ``DM §5``: more than 30° is illegal ("eine Schieflage
  von mehr als 30° ist dagegen verboten").
* **helicopter**: rotation about the vertical that is not the baton's end-over-end
  spin. The spin axis is the one the baton was released with (body y: the flight
  plane's normal, rolled by the tilt); throughout the free flight the angular
  velocity is split along that axis, the vertical and the direction normal to both,
  and the vertical part is accumulated (integrated exactly far from everything, step by
  step near the ground or a piece). A legal end-over-end throw, tilted or not,
  turns about its spin axis only and accumulates nothing, whatever its release angle;
  a baton turning about the vertical accumulates that turn whether its long axis is
  horizontal, raised or vertical (a baton spinning about its own vertical axis turns
  horizontally too). More than the referee option ``helicopter_limit`` (90°, the VM rules
  of 2019) before the first contact is a helicopter throw (``WS basic rule 5``: "no
  horizontal rotation", no angle). If the release spin axis is within
  13° of the vertical, the spin itself is horizontal rotation and all vertical rotation
  counts.
* **foot fault**: the front foot of the stance (:meth:`ThrowParams.stance`) must be
  behind the throwing line at the release and after the follow-through step, and
  inside the extended sidelines (``DM §5``; ``WS basic rule 7``); the hand may be
  in front of it, within :data:`ARM_REACH`.
"""

from kubb3d.equipment import LYING_DISK_KUBB
from kubb3d.physics.world import GRAVITY
from kubb3d.throw.aim import (
    AimSolution,
    aim,
    aim_flick,
    aim_point,
    distance_to_king,
    inkast,
    lag_throw,
    predict_flight,
    solve_aim,
    unknown_target,
)
from kubb3d.throw.legality import HELICOPTER_LIMIT, HELICOPTER_SPIN_AXIS_HORIZONTAL_MIN, check_legality
from kubb3d.throw.params import (
    ARM_REACH,
    HAND_AHEAD_OF_FOOT,
    MAX_RELEASE_SPEED,
    FlickParams,
    Release,
    ThrowParams,
    flick_behind,
    release_from_flick,
    release_from_params,
)
from kubb3d.throw.results import (
    UPRIGHT_TILT,
    FirstContact,
    FlightMetrics,
    ThrowFrame,
    ThrowResult,
    Trajectory,
    Violation,
)
from kubb3d.throw.simulation import (
    DRAG_MIN_SPEED,
    SimulationOptions,
    flick,
    run_frames,
    simulate,
    simulate_iter,
    throw,
    throw_iter,
)

__all__ = [
    "ARM_REACH",
    "DRAG_MIN_SPEED",
    "GRAVITY",
    "HAND_AHEAD_OF_FOOT",
    "HELICOPTER_LIMIT",
    "HELICOPTER_SPIN_AXIS_HORIZONTAL_MIN",
    "LYING_DISK_KUBB",
    "MAX_RELEASE_SPEED",
    "UPRIGHT_TILT",
    "AimSolution",
    "FirstContact",
    "FlickParams",
    "FlightMetrics",
    "Release",
    "SimulationOptions",
    "ThrowFrame",
    "ThrowParams",
    "ThrowResult",
    "Trajectory",
    "Violation",
    "aim",
    "aim_flick",
    "aim_point",
    "check_legality",
    "distance_to_king",
    "flick",
    "inkast",
    "lag_throw",
    "predict_flight",
    "flick_behind",
    "release_from_flick",
    "release_from_params",
    "run_frames",
    "simulate",
    "simulate_iter",
    "solve_aim",
    "throw",
    "throw_iter",
    "unknown_target",
]

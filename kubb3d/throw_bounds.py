"""The allowed values of a baton throw's numbers, one table for every reader: a
:class:`kubb3d.throw.ThrowParams` checks its fields against it when it is made, an experiment
spec's ``[throw]`` (:class:`kubb3d.experiment.spec.ThrowSpec`) at load time and ``kubb3d throw``
its options. The bounds are kubb3d's: what an underhand throw can be (the rules bound none of
them; ``DM §5`` only judges the tilt of the flight, > 30° illegal). No physics is imported here:
the spec reader stays light.
"""

from __future__ import annotations

from kubb3d.ranges import Range

MAX_RELEASE_SPEED = 40.0
"""m/s: no underhand throw is faster (a baton at 8 m needs about 11 m/s); the aim solver's range."""

SPIN_MAX_RPS = 20.0
"""rev/s: the largest end-over-end or helicopter spin of a throw."""

THROW_RANGES: dict[str, Range] = {
    "speed": Range(0.0, MAX_RELEASE_SPEED, "more than 0 and at most 40 m/s", open_lo=True),
    "elevation_deg": Range(-89.999, 89.999, "between -90 and 90 degrees"),
    "azimuth_deg": Range(-89.999, 89.999, "between -90 and 90 degrees (forward)"),
    "spin_rps": Range(-SPIN_MAX_RPS, SPIN_MAX_RPS, "from -20 to 20 rev/s"),
    "tilt_deg": Range(-90.0, 90.0, "from -90 to 90 degrees"),
    "helicopter_rps": Range(-SPIN_MAX_RPS, SPIN_MAX_RPS, "from -20 to 20 rev/s"),
    "release_angle_deg": Range(-180.0, 180.0, "from -180 to 180 degrees"),
    "height": Range(0.0, 3.0, "more than 0 and at most 3 m", open_lo=True),
    "lateral": Range(-10.0, 10.0, "from -10 to 10 m"),
    "behind_line": Range(-5.0, 5.0, "from -5 to 5 m"),
}
"""Field name of :class:`kubb3d.throw.ThrowParams` → its allowed values (``--speed`` … of
``kubb3d throw``, the ``[throw]`` fields of an experiment spec)."""

STEP_AFTER_RANGE = Range(0.0, 2.0, "from 0 to 2 m")
"""m: how far the front foot may step forward after the release (``--step-after``; not an
experiment field). kubb3d's bound: more than a stride is no step of a throw; DM §5 only asks
whether the step crosses the line."""

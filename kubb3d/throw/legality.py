"""Throw legality from the measured flight and the stance (DM §5; WS basic rules 5 and 7):
tilt out of the flight plane, helicopter rotation and foot faults, each a :class:`Violation`."""

from __future__ import annotations

import math

from kubb3d.judge.messages import msg
from kubb3d.judge.rulebook import ThrowRules
from kubb3d.pitch import Pitch
from kubb3d.throw.params import FlickParams, Release, ThrowParams
from kubb3d.throw.results import FlightMetrics, Violation


HELICOPTER_SPIN_AXIS_HORIZONTAL_MIN = 0.05
"""Squared horizontal length of the release spin axis below which (within 13° of the
vertical) all vertical rotation counts as helicopter rotation."""
HELICOPTER_LIMIT = math.radians(90.0)
"""rad: more rotation about the vertical than this before the first contact is a helicopter throw,
by default (VM 2019; the referee option ``helicopter_limit``, :attr:`ThrowRules.helicopter_limit_deg`)."""


def check_legality(
    metrics: FlightMetrics,
    release: Release,
    rules: ThrowRules,
    pitch: Pitch,
    side: str | None,
    line_x: float | None,
    params: ThrowParams | FlickParams | None = None,
) -> list[Violation]:
    """The broken throwing rules, from measured flight metrics and the stance.

    The foot is judged, not the hand (DM §5, WS basic rule 7): with ``params`` the front foot
    of :meth:`ThrowParams.stance`, also after its ``step_after``, against ``line_x`` (the line
    the thrower may throw from; None: ``params.line_x``, or the baseline); for a raw release
    without parameters the release point stands in for the foot (``line_x`` None: the
    baseline)."""
    out = []
    if rules.max_tilt_deg is not None and math.degrees(metrics.max_tilt) > rules.max_tilt_deg:
        out.append(
            Violation(
                rules.tilt_rule,
                msg(
                    "the baton tilted {tilt_deg:.0f}° out of the vertical plane of its flight; more "
                    "than {max_deg:.0f}° is not allowed",
                    tilt_deg=math.degrees(metrics.max_tilt),
                    max_deg=rules.max_tilt_deg,
                ),
            )
        )
    if rules.forbid_helicopter and metrics.helicopter > math.radians(rules.helicopter_limit_deg):
        out.append(
            Violation(
                rules.helicopter_rule,
                msg(
                    "helicopter throw: the baton turned {turn_deg:.0f}° about the vertical "
                    "(besides its end-over-end spin) before its first contact",
                    turn_deg=math.degrees(metrics.helicopter),
                ),
            )
        )
    if side is not None and isinstance(params, ThrowParams):
        # the stance is measured from the parameters' own line; the foot is judged against the
        # line the thrower may throw from (``line_x``; None: the parameters' own), so that a
        # throw made from a line nearer the centre than the one allowed is a foot fault
        own = pitch.baseline_x(side) if params.line_x is None else params.line_x
        lx = own if line_x is None else line_x
        foot, foot_y = params.stance()
        foot += pitch.forward(side) * (lx - own)
        if foot < -1e-9:
            out.append(
                Violation(
                    rules.foot_rule,
                    msg(
                        "foot fault: the front foot is {past_m:.2f} m past the throwing line at the release",
                        past_m=-foot,
                    ),
                )
            )
        elif foot - params.step_after < -1e-9:
            out.append(
                Violation(
                    rules.foot_rule,
                    msg(
                        "foot fault: the front foot steps {past_m:.2f} m past the throwing line after the release",
                        past_m=params.step_after - foot,
                    ),
                )
            )
        if abs(foot_y) > pitch.half_width + 1e-9:
            out.append(
                Violation(
                    rules.sideline_rule,
                    msg(
                        "foot fault: the front foot is outside the extended sidelines (|y| = {y_m:.2f} m > "
                        "{half_width_m:.2f} m)",
                        y_m=abs(foot_y),
                        half_width_m=pitch.half_width,
                    ),
                )
            )
    elif side is not None:
        lx = pitch.baseline_x(side) if line_x is None else line_x
        x, y, _ = release.position
        if pitch.forward(side) * (x - lx) > 1e-9:
            out.append(
                Violation(
                    rules.foot_rule,
                    msg("foot fault: the release point is {past_m:.2f} m past the throwing line", past_m=abs(x - lx)),
                )
            )
        if abs(y) > pitch.half_width + 1e-9:
            out.append(
                Violation(
                    rules.sideline_rule,
                    msg(
                        "foot fault: the release point is outside the extended sidelines (|y| = {y_m:.2f} m > "
                        "{half_width_m:.2f} m)",
                        y_m=abs(y),
                        half_width_m=pitch.half_width,
                    ),
                )
            )
    return out

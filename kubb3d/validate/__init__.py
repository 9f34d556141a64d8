"""``kubb3d validate``: the physics checked against formulas, measured references and itself.

Every row is one quantity: the reference (a formula or a measured source, with its source), what
the simulator gives, the tolerance and whether it passes. The groups:

==============  =================================================================================
``pieces``      mass and principal moments of inertia of every piece the engine holds, against
                the solid's formulas (density × volume; m(a² + b²)/12, m r²/2 …)
``tipping``     static tipping angle of a kubb (both sets), the crowned king, the Kubbuteo
                kubb (sideways, in its plane and towards the corners of its flat) and the
                Kubbuteo king, found by bisection on the release angle, against atan(half width
                / height of the centre of mass)
``balance``     a kubb released 0.1° inside / outside its tipping angle is judged on the pose it
                finally settles in (upright / lying)
``rebound``     height a flat-dropped baton and an end-dropped kubb reach after a 1 m drop, on
                each ground, flat and on a flat heightfield, the worst of four drops over one
                step's fall, against e²·h plus the step's rise v·dt/2, and at half the step
                (less that rise) against the default step
``slide``       distance a lying kubb (2 m/s) and a lying baton (6 m/s, along its axis: the
                case that used to freeze) slide on each ground, and on grass as a flat
                heightfield at several headings across its triangles, against v²/(2 μ g), and at
                half the step against the default step
``drift``       sideways drift (against 0) and time to rest (against v/(μ g) plus the settle
                window) of the baton's and the kubb's slides on every ground and on a flat
                heightfield at headings 0°, 30° and 60°, their drift at 30° with the step halved
                and quartered; the kubb's slide along the push (against v²/(2 μ g)) at each
``roll``        distance a baton rolls from 3 m/s on each ground (and across the ground's axes
                on grass, and on grass as a flat heightfield), against
                (1 + I/(m r²)) v²/(2 c_rr g); a baton laid across a plane slope below and above
                its rolling resistance, against 0 and ½ g (sin θ − c_rr cos θ) t² / (1 + ½)
``rest``        time until a sliding kubb is at rest: v/(μ g) plus the settle window
``plowing``     the speed from which an upright kubb sliding on a low-friction grass starts to
                tip forward, against statics with friction and the plowing where it touches
                acting at its base (at its centre of mass the plowing has no torque), and at
                half the step
``table``       Kubbuteo disks sliding on the board (against v²/(2 μ g), and their time to rest)
                and a disk dropped flat onto it (against e²·h)
``flight``      range of a baton back to its release height, without drag against v² sin 2θ / g
                and with drag against a fine Runge–Kutta integration of the same drag law
``tunnelling``  batons fired broadside at a kubb at 10–40 m/s (the largest accepted release
                speed), random orientation, 3 rev/s: every one touches it
``terrain``     kubbs resting on uneven ground rest on the surface :meth:`World.ground_height`
                reports
``throws``      player throws at 8 m (elite, ``dm-small``, grass): kubbs felled per baton at the
                default step and at half of it (paired: the 95 % interval of the difference must
                lie inside the tolerance); where a baton that touched only the ground rests
                moves no more at half the step than with a release 0.1 % faster; slide after
                landing; no throw at rest with a piece faster than 0.05 m/s; none at the time
                limit; the same throw twice gives bit-identical results
``flicks``      seeded Kubbuteo flicks (novice, club, elite): how many more flicks change their
                set of toppled pieces when the step is halved than with the flick 0.01 % faster,
                and the same for the pieces knocked per flick, paired flick by flick: halving may
                change no more than that nudge does (docs/physics.md "Flick outcomes against the
                time step")
==============  =================================================================================

Every row has a kind (:data:`KINDS`): a ``check`` holds the simulation against a reference that
does not come from the parameter it checks (a formula from other inputs, a measured source, the
same quantity at half the step); ``plumbing`` holds the engine against kubb3d's own inputs (does
it apply the e, μ or mass it was given); ``tuned`` holds a figure against the band a parameter was
tuned to. They are listed apart. Rows whose result depends on when the motion stops (rebounds,
slides, where a thrown baton comes to rest) are also run at half the step.

``run_validation(quick=True)`` runs a subset in a few seconds (the tests use it).

The package holds one group (or two close ones) per module: :mod:`~kubb3d.validate.rows` the row
model (:class:`Row`, :class:`Report`, :data:`KINDS`), :mod:`~kubb3d.validate.pieces`,
:mod:`~kubb3d.validate.tipping` (``tipping``, ``balance``), :mod:`~kubb3d.validate.rebound`,
:mod:`~kubb3d.validate.sliding` (``slide``, ``drift``, ``rest``), :mod:`~kubb3d.validate.rolling`,
:mod:`~kubb3d.validate.plowing`, :mod:`~kubb3d.validate.table`, :mod:`~kubb3d.validate.flight`,
:mod:`~kubb3d.validate.contact` (``tunnelling``, ``terrain``), :mod:`~kubb3d.validate.throws`,
:mod:`~kubb3d.validate.flicks`; :mod:`~kubb3d.validate.suite` runs them in the table's order,
:mod:`~kubb3d.validate.plot` draws the figure and :mod:`~kubb3d.validate.tables` writes the
tables. Every public name is importable from here.
"""

from __future__ import annotations

from kubb3d.physics.world import DT, TABLE_DT
from kubb3d.validate.contact import MAX_RELEASE_SPEED, check_terrain, check_tunnelling, tunnelling_hits
from kubb3d.validate.flicks import FLICK_NUDGE, FLICKS, against_nudge_floor, check_flicks, flick_rows
from kubb3d.validate.flight import check_flight, rk4_range, world_range
from kubb3d.validate.pieces import check_pieces
from kubb3d.validate.plot import figure, short_label, write_figure
from kubb3d.validate.plowing import (
    PLOW_TIP_FRICTION,
    PLOW_TIP_RATE,
    PLOW_TIP_TOLERANCE,
    PLOW_TIP_WINDOW,
    check_plowing,
    plow_tip_reference,
    plow_tip_speed,
    plow_tips,
)
from kubb3d.validate.rebound import (
    DROP_HEIGHT,
    REBOUND_PHASES,
    REBOUND_TOLERANCE,
    check_rebound,
    drop_bounce,
    drop_rebound,
    step_rise,
)
from kubb3d.validate.rolling import (
    GRADIENTS,
    TERRAIN_ROLL_TOLERANCE,
    Gradient,
    check_roll,
    gradient_roll,
    roll_distance,
)
from kubb3d.validate.rows import KINDS, Report, Row, tolerance_text
from kubb3d.validate.sliding import (
    BATON_DRIFT_LIMIT,
    BATON_TERRAIN_DRIFT_LIMIT,
    DRIFT_HEADINGS,
    DRIFT_STEPS,
    DRIFT_TOLERANCE,
    SLIDE_SPEED,
    SLIDE_TOLERANCE,
    TERRAIN_DRIFT_TOLERANCE,
    TERRAIN_SLIDE_TOLERANCE,
    Slide,
    check_drift,
    check_rest,
    check_slide,
    slide,
    slide_distance,
)
from kubb3d.validate.suite import run_validation
from kubb3d.validate.table import TABLE_TOLERANCE, check_table, table_drop_rebound, table_slide
from kubb3d.validate.tables import KIND_TITLES, markdown, row_cells, row_line
from kubb3d.validate.throws import (
    BATON_REST_SPREAD,
    FAST_AT_REST,
    FELLED_RATE_TOLERANCE,
    RELEASE_NUDGE,
    THROWS,
    check_throws,
)
from kubb3d.validate.tipping import (
    TIPPING_TOLERANCE_DEG,
    check_balance,
    check_tipping,
    disk_tips,
    king_tips,
    measured_disk_tipping,
    measured_tipping_angle,
    tilted_disk_pose,
    tilted_king_pose,
)

__all__ = [
    "against_nudge_floor",
    "BATON_DRIFT_LIMIT",
    "BATON_REST_SPREAD",
    "BATON_TERRAIN_DRIFT_LIMIT",
    "check_balance",
    "check_drift",
    "check_flicks",
    "check_flight",
    "check_pieces",
    "check_plowing",
    "check_rebound",
    "check_rest",
    "check_roll",
    "check_slide",
    "check_table",
    "check_terrain",
    "check_throws",
    "check_tipping",
    "check_tunnelling",
    "disk_tips",
    "DRIFT_HEADINGS",
    "DRIFT_STEPS",
    "DRIFT_TOLERANCE",
    "drop_bounce",
    "DROP_HEIGHT",
    "drop_rebound",
    "DT",
    "FAST_AT_REST",
    "FELLED_RATE_TOLERANCE",
    "figure",
    "FLICK_NUDGE",
    "flick_rows",
    "FLICKS",
    "Gradient",
    "gradient_roll",
    "GRADIENTS",
    "KIND_TITLES",
    "KINDS",
    "king_tips",
    "markdown",
    "MAX_RELEASE_SPEED",
    "measured_disk_tipping",
    "measured_tipping_angle",
    "PLOW_TIP_FRICTION",
    "PLOW_TIP_RATE",
    "plow_tip_reference",
    "plow_tip_speed",
    "PLOW_TIP_TOLERANCE",
    "PLOW_TIP_WINDOW",
    "plow_tips",
    "REBOUND_PHASES",
    "REBOUND_TOLERANCE",
    "RELEASE_NUDGE",
    "Report",
    "rk4_range",
    "roll_distance",
    "Row",
    "row_cells",
    "row_line",
    "run_validation",
    "short_label",
    "Slide",
    "slide",
    "slide_distance",
    "SLIDE_SPEED",
    "SLIDE_TOLERANCE",
    "step_rise",
    "table_drop_rebound",
    "TABLE_DT",
    "table_slide",
    "TABLE_TOLERANCE",
    "TERRAIN_DRIFT_TOLERANCE",
    "TERRAIN_ROLL_TOLERANCE",
    "TERRAIN_SLIDE_TOLERANCE",
    "THROWS",
    "tilted_disk_pose",
    "tilted_king_pose",
    "TIPPING_TOLERANCE_DEG",
    "tolerance_text",
    "tunnelling_hits",
    "world_range",
    "write_figure",
]

"""The judge: rulings on kubbs and king from a :class:`~kubb3d.snapshot.Snapshot`.

Pure: this package imports neither the physics nor the rules engine (docs/architecture.md,
enforced by tests/test_architecture.py); the physics hand check it may be given is
:class:`kubb3d.handcheck.PhysicsHandCheck`, its command line :mod:`kubb3d.cli.judge`.

Entry points:

* :func:`piece_status` — standing / fallen / leaning / stößel of one piece (DM §5, §7).
* :func:`judge_throw` — rulings after a baton throw (DM §1, §5, §10; WS basic rules 7–9).
* :func:`judge_inkast` — validity and raised poses after an inkast (DM §6, §7; WS basic rules 10–14).
* :func:`judge_accident` — pieces moved by wind, ground or accident (DM §5).
"""

from kubb3d.judge.params import DEFAULT_PARAMS, JudgeParams
from kubb3d.judge.raising import InkastContext, InkastJudgement, judge_inkast
from kubb3d.judge.tipping import tip_options
from kubb3d.judge.rulings import Consequence, Pose, Ruling, Status
from kubb3d.judge.status import (
    Analysis,
    HandCheck,
    analyse,
    piece_status,
    turned_over,
)
from kubb3d.judge.throws import ThrowContext, ThrowJudgement, judge_accident, judge_throw

__all__ = [
    "Analysis",
    "Consequence",
    "DEFAULT_PARAMS",
    "HandCheck",
    "InkastContext",
    "InkastJudgement",
    "JudgeParams",
    "Pose",
    "Ruling",
    "Status",
    "ThrowContext",
    "ThrowJudgement",
    "analyse",
    "judge_accident",
    "judge_inkast",
    "judge_throw",
    "turned_over",
    "piece_status",
    "tip_options",
]

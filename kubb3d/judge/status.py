"""Piece status from contact geometry: ``standing``, ``fallen``, ``leaning``, ``stößel``.

Pure functions over a :class:`~kubb3d.snapshot.Snapshot` (no PyBullet).

How a kubb or the king is classified (thresholds in :class:`JudgeParams`):

1. **No ground contact**: lying on kubbs → ``stößel`` (DM §7); resting on
   something else only (a baton, the king) → ``fallen``.
2. **Lying**: the long axis at least ``lying_tilt`` (70°) from vertical → ``fallen``.
3. **Self-supporting**: the centre of mass projects inside the footprint of the
   base end face (the end face nearest the ground; for the king always its base)
   by at least ``tip_margin``. Then gravity alone turns it back onto its base
   if nothing else held it: ``standing`` (DM §5 "allein stehfähig"). This is
   the force/torque balance about the ground contact: the weight's moment about
   every base edge keeps the piece on its base, so no other body is needed.
4. Otherwise the weight's moment about the ground contact tips the piece over,
   so it needs a support: held by another body whose contact carries at least
   ``support_force_fraction`` of its weight → ``leaning`` (counts as fallen,
   DM §5, WS basic rule 9); held by nothing → ``fallen`` (past its tipping angle).

**Doubtful cases** (DM §5 "im Zweifelsfall … per Hand überprüft"): a piece that
touches a supporting body and whose centre of mass lies within ``doubt_margin``
of its footprint edge, or that stands tilted more than ``flat_tilt`` with a
support. If a hand-check callable is given (see :mod:`kubb3d.handcheck`),
it decides those cases and the ruling says so.

Pieces without any contact record (hand-built snapshots) get their ground
contacts from geometry: corners at most ``ground_tol`` above the ground (z = 0).
"""

from __future__ import annotations

import math
from typing import Callable

from kubb3d.errors import JudgeInputError
from kubb3d.judge.analysis import Analysis, ContactIndex
from kubb3d.judge.messages import msg, names, nmsg, piece_object, piece_subject
from kubb3d.judge.geometry import Vec, add, apply, ccw, columns, com, end_face, inside_margin, rot, tipping_angle
from kubb3d.judge.params import DEFAULT_PARAMS, JudgeParams
from kubb3d.judge.rulings import Status
from kubb3d.judge.table import analyse_table_piece
from kubb3d.snapshot import GROUND_ID, PieceState, Snapshot

HandCheck = Callable[[Snapshot, str], bool]
"""``hand_check(snapshot, piece_id) -> True`` if the piece stands on its own once every
other body touching it is taken away (DM §5). See :class:`kubb3d.handcheck.PhysicsHandCheck`."""

JUDGED_KINDS = ("kubb", "king")


def _stands(name: str) -> str:
    return msg("{name} stands on its base and carries its own weight without help from any other piece.", name=name)


TURNED_OVER = math.pi / 2
"""rad: a piece whose long axis went more than this from the upright of its last set-up this
round turned over (DM §5 „Überschlag“): onto its side or beyond, a somersault reaches π."""


def turned_over(p: PieceState) -> bool:
    """True if the piece's recorded history (``max_tilt``) passed 90° from the upright of its
    last set-up this round: it went over (DM §5 „Das gleiche gilt nach einem Überschlag mit
    anschließendem Stehen“), so it counts as fallen even if it stands again. A rock past the
    tipping angle that comes back below 90° is no „Überschlag“ (docs/rules.md "DM §5
    somersault"). The one history rule of every ruleset: WS borrows it from DM §5, and a
    Kubbuteo kubb standing on its flat after a flick is not one of KT's "knocked over kubbs"
    unless it turned over on the way (docs/rules.md "KT ← DM §5 knocked over")."""
    return p.max_tilt > TURNED_OVER


def analyse(
    snapshot: Snapshot,
    piece_id: str,
    params: JudgeParams | None = None,
    hand_check: HandCheck | None = None,
    *,
    index: ContactIndex | None = None,
) -> Analysis:
    """Classify one kubb or the king (see the module doc for the decision).

    Args:
        snapshot: the world at rest.
        piece_id: a kubb or the king.
        params: thresholds (default :class:`JudgeParams`).
        hand_check: optional counterfactual test for doubtful cases (DM §5).
        index: a prebuilt :class:`ContactIndex` (speed; built if None).

    Raises:
        JudgeInputError: unknown piece id, or a piece that is not a kubb or the king.
    """
    params = params or DEFAULT_PARAMS
    p = snapshot.pieces.get(piece_id)
    if p is None:
        raise JudgeInputError(f"no piece {piece_id!r} in the snapshot")
    if p.kind not in JUDGED_KINDS:
        raise JudgeInputError(f"piece {piece_id!r} is a {p.kind}; only kubbs and the king have a status")
    if index is None:
        index = ContactIndex(snapshot)
    if p.shape in ("disk", "mushroom"):
        return analyse_table_piece(snapshot, p, params, index)
    r = rot(p.quat_xyzw)
    axis = columns(r)[2]
    uz = max(-1.0, min(1.0, axis[2]))
    if p.kind == "kubb":
        end = -1 if uz >= 0 else 1
        tilt = math.acos(abs(uz))
    else:
        end = -1
        tilt = math.acos(uz)

    records = index.by_piece.get(piece_id)
    forces: dict[str, float] = {}
    up_push: dict[str, float] = {}
    if records is None:
        grounded = any(c[2] <= params.ground_tol for c in _corners(p, r))
    else:
        grounded = False
        for other, _pos, _n, f in records:
            if other == GROUND_ID:
                grounded = True
            else:
                forces[other] = forces.get(other, 0.0) + f
                up_push[other] = max(up_push.get(other, -1.0), _n[2])
    touching = tuple(sorted(forces, key=lambda o: (-forces[o], o)))
    weight = p.mass * snapshot.gravity
    if index.has_forces:
        f_min = max(params.support_force_fraction * weight, 1e-9)
        strong = tuple(o for o in touching if forces[o] >= f_min)
    else:
        strong = touching
    # a body that only presses down on the piece (lies on top of it) does not hold it up
    strong = tuple(o for o in strong if up_push.get(o, 0.0) > -0.5)

    name = piece_subject(piece_id)  # every reason opens with the piece
    if grounded and tilt <= params.flat_tilt and not strong:
        # fast path (most pieces): flat on its base, nothing leaning on it; the centre of
        # mass is then at least hx·cos(t) − hc·sin(t) inside the base (≥ 3 cm for a kubb)
        hx, _, hz = p.half_extents
        margin = hx * math.cos(tilt) - (hz + p.com_local[2]) * math.sin(tilt)
        if margin >= params.doubt_margin:
            return Analysis(
                piece=piece_id,
                status=Status.STANDING,
                reason=_stands(name),
                tilt=tilt,
                margin=margin,
                grounded=True,
                touching=touching,
                supporters=(),
                doubt=False,
            )
    face = end_face(p, end)
    cm = com(p)
    margin = (
        inside_margin((cm[0], cm[1]), ccw([(c[0], c[1]) for c in face])) if tilt < math.pi / 2 - 1e-6 else -math.inf
    )
    deg = math.degrees(tilt)

    if not grounded:
        kubbs = tuple(o for o in touching if o in snapshot.pieces and snapshot.pieces[o].kind == "kubb")
        if p.kind == "kubb" and kubbs:
            return Analysis(
                piece=piece_id,
                status=Status.STOSSEL,
                reason=msg(
                    "{name} lies on {others} without touching the ground.", name=name, others=names(kubbs, piece_object)
                ),
                tilt=tilt,
                margin=margin,
                grounded=False,
                touching=touching,
                supporters=kubbs,
                doubt=False,
            )
        if touching:
            return Analysis(
                piece=piece_id,
                status=Status.FALLEN,
                reason=msg(
                    "{name} rests on {others} and does not touch the ground.",
                    name=name,
                    others=names(touching, piece_object),
                ),
                tilt=tilt,
                margin=margin,
                grounded=False,
                touching=touching,
                supporters=touching,
                doubt=False,
            )
        return Analysis(
            piece=piece_id,
            status=Status.FALLEN,
            reason=msg("{name} does not rest on the ground.", name=name),
            tilt=tilt,
            margin=margin,
            grounded=False,
            touching=touching,
            supporters=(),
            doubt=False,
        )
    if tilt >= params.lying_tilt:
        extra = msg(", propped on {others}", others=names(strong, piece_object)) if strong else ""
        return Analysis(
            piece=piece_id,
            status=Status.FALLEN,
            reason=msg("{name} lies on the ground{extra}.", name=name, extra=extra),
            tilt=tilt,
            margin=margin,
            grounded=True,
            touching=touching,
            supporters=(),
            doubt=False,
        )
    supporters: tuple[str, ...]
    if margin >= params.tip_margin:
        doubt = bool(strong) and (margin < params.doubt_margin or tilt > params.flat_tilt)
        status, reason, supporters = (
            Status.STANDING,
            _stands(name),
            (),
        )
        if strong:
            reason = nmsg(
                "{name} stands on its own: it touches {others} but its centre of mass is over its base, so it "
                "does not need it.",
                "{name} stands on its own: it touches {others} but its centre of mass is over its base, so it "
                "does not need them.",
                len(strong),
                name=name,
                others=names(strong, piece_object),
            )
    elif strong:
        doubt = margin > -params.doubt_margin
        status, reason, supporters = (
            Status.LEANING,
            msg(
                "{name} is tilted {deg:.0f}° and only stays up because it leans on {others}.",
                name=name,
                deg=deg,
                others=names(strong, piece_object),
            ),
            strong,
        )
    else:
        doubt = False
        status, reason, supporters = (
            Status.FALLEN,
            msg(
                "{name} is tilted {deg:.0f}°, past its tipping angle of {tipping:.0f}°.",
                name=name,
                deg=deg,
                tipping=math.degrees(tipping_angle(p)),
            ),
            (),
        )
    if doubt and hand_check is not None:
        helpers = strong
        if hand_check(snapshot, piece_id):
            return Analysis(
                piece=piece_id,
                status=Status.STANDING,
                reason=msg(
                    "{name} stood on its own in the hand check once {others} was taken away, so it is standing.",
                    name=name,
                    others=names(helpers, piece_object),
                ),
                tilt=tilt,
                margin=margin,
                grounded=True,
                touching=touching,
                supporters=(),
                doubt=True,
                hand_check=True,
            )
        return Analysis(
            piece=piece_id,
            status=Status.LEANING,
            reason=msg(
                "{name} fell in the hand check once {others} was taken away, so it only stood with that help.",
                name=name,
                others=names(helpers, piece_object),
            ),
            tilt=tilt,
            margin=margin,
            grounded=True,
            touching=touching,
            supporters=helpers,
            doubt=True,
            hand_check=True,
        )
    return Analysis(
        piece=piece_id,
        status=status,
        reason=reason,
        tilt=tilt,
        margin=margin,
        grounded=True,
        touching=touching,
        supporters=supporters,
        doubt=doubt,
    )


def _corners(p: PieceState, r: tuple[Vec, Vec, Vec]) -> list[Vec]:
    hx, hy, hz = p.half_extents
    return [
        add(p.position, apply(r, (sx * hx, sy * hy, sz * hz))) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)
    ]


def piece_status(
    snapshot: Snapshot,
    piece_id: str,
    params: JudgeParams | None = None,
    *,
    hand_check: HandCheck | None = None,
) -> tuple[Status, str]:
    """The status of one kubb or the king at rest, with a one-sentence reason.

    ``leaning`` counts as fallen (DM §5; WS basic rule 9); ``stößel`` is a kubb lying
    on other kubbs without ground contact (DM §7). This is the *current* status;
    the round history (a kubb knocked past its tipping angle that stands again,
    DM §5) is applied by :func:`kubb3d.judge.judge_throw`.

    Raises:
        JudgeInputError: unknown id or not a kubb/king.
    """
    a = analyse(snapshot, piece_id, params, hand_check)
    return a.status, a.reason

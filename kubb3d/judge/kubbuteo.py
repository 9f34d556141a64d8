"""The judge at table scale (Kubbuteo, rule book ``KT``): returned kubbs.

Pure functions over a :class:`~kubb3d.snapshot.Snapshot` (no PyBullet).
:func:`kubb3d.judge.judge_inkast` hands a return under a rule book whose kubbs are flicked
back (``returns_by_flick``) to :func:`judge_return`; the status of disks and the mushroom king
is :mod:`kubb3d.judge.table`'s.

Returned kubbs (:func:`judge_return`, ``KT rules``; decisions in
:mod:`kubb3d.rules.kubbuteo`): valid when on the board with the centre in the receiving
half; stood up on their flat at the resting spot of the disk's centre, faces towards the
board ends, shifted sideways by the least amount (steps of 1 mm) that keeps them clear of
standing pieces and on the board (a kubb resting on another piece is on the board: valid).
Invalid ("misflick"): short of the centre line or off the board, nothing else; the first misflick of
attempt 1 is flicked again (``RETHROW``), every other one is placed by the receiving player (``PENALTY_KUBB``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from kubb3d.equipment import DiskPiece, MushroomPiece, get_set
from kubb3d.errors import JudgeInputError
from kubb3d.judge import citations as C
from kubb3d.judge.messages import msg
from kubb3d.judge.analysis import ContactIndex
from kubb3d.judge.geometry import overlap_depth
from kubb3d.judge.inkast import InkastContext, InkastJudgement
from kubb3d.judge.params import JudgeParams
from kubb3d.judge.status import analyse
from kubb3d.judge.rulings import Consequence, Pose, Ruling, Status
from kubb3d.pitch import KING_ID, Side, opponent
from kubb3d.snapshot import Snapshot


def stand_up_spot(snapshot: Snapshot, kid: str, half: Side, blockers: dict[str, tuple[float, float, float]]) -> Pose:
    """Where a returned disk kubb is stood up (module doc): its centre's resting (x, y), moved
    inside the half and the board, then sideways in 1 mm steps until its footprint (thickness
    along x, diameter across) clears every blocker footprint (``blockers``: id → (x, y, yaw rad)
    of standing disks or the king; a disk as its rectangular footprint turned by its yaw (a disk
    that stands turned reaches further along x than its thickness: Kubbuteo seed 33, where B2
    was stood up 3 mm into A5 standing at -36°); the king as a circle of its cap radius, kept
    clear of the disk's rectangular footprint)."""
    eq = get_set("kubbuteo")
    disk, mushroom = eq.kubb, eq.king
    assert isinstance(disk, DiskPiece) and isinstance(mushroom, MushroomPiece)
    t2, r, h2 = disk.thickness / 2, disk.radius, disk.height / 2
    pitch = snapshot.pitch
    p = snapshot.pieces[kid]
    lo, hi = (-pitch.length / 2 + t2, -t2) if half == "A" else (t2, pitch.length / 2 - t2)
    x = min(max(p.position[0], lo), hi)
    ymax = pitch.half_width - r
    y0 = min(max(p.position[1], -ymax), ymax)
    king_r = mushroom.diameter / 2

    def rect(cx: float, cy: float, yaw: float) -> list[tuple[float, float]]:
        c, s = math.cos(yaw), math.sin(yaw)
        return [(cx + c * u - s * v, cy + s * u + c * v) for u, v in ((-t2, -r), (t2, -r), (t2, r), (-t2, r))]

    others = {bid: rect(bx, by, yaw) for bid, (bx, by, yaw) in blockers.items() if bid not in (kid, KING_ID)}

    def clear(x: float, y: float) -> bool:
        if KING_ID in blockers:
            bx, by, _ = blockers[KING_ID]
            # the round cap against the disk's rectangular footprint (not its circle: the
            # corners of the footprint reach further than the disk's radius)
            dx, dy = max(abs(x - bx) - t2, 0.0), max(abs(y - by) - r, 0.0)
            if math.hypot(dx, dy) < king_r + 1e-4:
                return False
        here = rect(x, y, 0.0)
        return all(overlap_depth(here, poly) <= -1e-4 for poly in others.values())

    for k in range(0, 700):
        for y in (y0,) if k == 0 else (y0 + 0.001 * k, y0 - 0.001 * k):
            if abs(y) <= ymax and clear(x, y):
                return Pose((float(x), float(y), float(h2)), (0.0, 0.0, 0.0, 1.0))
    return Pose((float(x), float(y0), float(h2)), (0.0, 0.0, 0.0, 1.0))


def _yaw(q: Sequence[float]) -> float:
    """Heading of a standing piece about the vertical, rad."""
    x, y, z, w = q
    return math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))


def judge_return(after: Snapshot, ctx: InkastContext, params: JudgeParams) -> InkastJudgement:
    """Rule on kubbs flicked back into the opponent's half (``KT rules``; module doc).

    Args:
        after: snapshot at rest after this attempt's flicks (contacts with forces).
        ctx: ``inkasting_side`` the returning player's side, ``inkasted`` in flicking order,
            ``attempt`` 1 or 2, ``before`` poses of the pieces standing before.
        params: tolerances (``kubbuteo``).

    Raises:
        JudgeInputError: an inkasted id that is not a kubb of the snapshot.
    """
    pieces = after.pieces
    for kid in ctx.inkasted:
        if kid not in pieces or pieces[kid].kind != "kubb":
            raise JudgeInputError(f"inkasted piece {kid!r} is not a kubb of the snapshot")
    index = ContactIndex(after)
    half = opponent(ctx.inkasting_side)
    rules = (C.KT_RULES,)
    rulings: list[Ruling] = []
    raised: dict[str, Pose] = {}
    raise_now: set[str] = set()
    winner = loser = None
    if KING_ID in pieces:
        a = analyse(after, KING_ID, params, index=index)
        if a.status is not Status.STANDING:
            winner, loser = opponent(ctx.feller), ctx.feller
            rulings.append(
                Ruling(
                    piece=KING_ID,
                    status=a.status,
                    consequence=Consequence.GAME_LOST,
                    rules=rules,
                    reason=msg(
                        "A returned kubb knocked the king down, so side {side} loses. ({why})",
                        side=ctx.feller,
                        why=a.reason,
                    ),
                )
            )
    for pid, pose in sorted(ctx.before.items()):
        if pid == KING_ID or pid in ctx.inkasted or pid not in pieces:
            continue
        now = pieces[pid]
        if math.dist(now.position, pose.position) > params.moved_tol:
            raise_now.add(pid)
            rulings.append(
                Ruling(
                    piece=pid,
                    status=analyse(after, pid, params, index=index).status,
                    consequence=Consequence.RAISE_AT_ORIGINAL_SPOT,
                    rules=rules,
                    reason=msg(
                        "{piece} was moved by a returned kubb, so it is stood up again where it stood.", piece=pid
                    ),
                    raised_pose=pose,
                )
            )
    blockers = {
        pid: (p.position[0], p.position[1], _yaw(p.quat_xyzw))
        for pid, p in ctx.before.items()
        if pid not in ctx.inkasted
    }
    first_miss = True
    for kid in dict.fromkeys(ctx.inkasted):
        p = pieces[kid]
        a = analyse(after, kid, params, index=index)
        short = p.position[0] < 0 if half == "B" else p.position[0] > 0
        if a.status is Status.OFF_BOARD or short:
            why = (
                msg("{piece} went off the board", piece=kid)
                if a.status is Status.OFF_BOARD
                else msg("{piece} did not reach the receiving half", piece=kid)
            )
            if ctx.attempt == 1 and first_miss:
                rulings.append(
                    Ruling(
                        piece=kid,
                        status=a.status,
                        consequence=Consequence.RETHROW,
                        rules=rules,
                        reason=msg("{why}: a misflick; the first misflick is flicked again.", why=why),
                        valid=False,
                    )
                )
            else:
                rulings.append(
                    Ruling(
                        piece=kid,
                        status=a.status,
                        consequence=Consequence.PENALTY_KUBB,
                        rules=rules,
                        reason=msg(
                            "{why}: a further misflick, so it becomes a penalty kubb: the receiving player places "
                            "it anywhere in his half at least 2 in from the king.",
                            why=why,
                        ),
                        valid=False,
                    )
                )
            first_miss = False
            continue
        pose = stand_up_spot(after, kid, half, blockers)
        blockers[kid] = (pose.position[0], pose.position[1], 0.0)
        raised[kid] = pose
        rulings.append(
            Ruling(
                piece=kid,
                status=a.status,
                consequence=Consequence.RAISE_HERE,
                rules=rules,
                reason=msg(
                    "{piece} came to rest in half {half}, so it is stood up where it rests.", piece=kid, half=half
                ),
                raised_pose=pose,
                valid=True,
            )
        )
    penalty = "place" if any(r.consequence is Consequence.PENALTY_KUBB for r in rulings) else None
    return InkastJudgement(tuple(rulings), raised, penalty, frozenset(raise_now), winner, loser)

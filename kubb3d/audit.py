"""The referee audit: play seeded matches and check invariants after every action.

A match is played as usual (:class:`kubb3d.match.Match`) with the real judge wrapped so that
the audit sees exactly what the judge saw (the snapshot at rest and the context) and what it
ruled. After every action the checks below run on plain data; each check counts the cases it
looked at and the violations it found. A violation names the seed, the action index and the
replay file (kept only for matches with a violation), so ``kubb3d view REPLAY`` shows it.

======================  ======================================================================
check                   what must hold
======================  ======================================================================
``completes``           the match plays to its end without an error (a match that stops with
                        an exception is a violation at the action it reached, its replay kept;
                        the audit goes on with the next match)
``felled_moved``        a kubb counted felled by a throw was moved by that throw: its base
                        centre moved more than :data:`MOVED_M`, or its long axis turned more
                        than its tipping angle between before and after, or during the throw
                        (the throw's trajectory and the world's record) past 90°: a kubb
                        that stands again counts only when it turned over (DM §5
                        „Überschlag“; WS and KT read it so too)
``moved_ruled``         every kubb and the king that a throw moved (same tolerance) has a
                        ruling of the judge, in whichever half it stands
``standing_ok``         a kubb ruled standing after a throw is upright (long axis within its
                        tipping angle of the vertical, on either end), self-supported (centre
                        of mass over its base) and inside the pitch between the sidelines, and
                        a field kubb the throw moved in front of the baseline behind its half; a
                        Kubbuteo kubb: the vertical through its centre of mass meets its flat
                        (its tipping angle depends on the direction)
                        (kubb3d's decision, see :mod:`kubb3d.judge.throws`)
``raised_ok``           an inkasted kubb raised by the judge stands upright with its whole base
                        inside its half (DM §7 allows a blocked kubb partly out: there the
                        unblocked base must be inside, so only the base centre is checked),
                        does not touch the king and overlaps no other kubb, all where the match
                        leaves them after the inkast (DM §7, WS 10, 13, 14)
``placed_ok``           a placed kubb (penalty kubb WS 11, stößel DM §7, KT misflick) overlaps
                        no kubb, the king or a stake and lies inside its half
``conserved``           the world holds exactly the kubbs of the engine (a tie-break kubb, DM
                        §9, is out of both), one king and at most the ruleset's batons; every
                        kubb is in one known place (standing, lying in the pitch, or picked up);
                        a piece that stood before an inkast stands on that spot after it
``king_by_rules``       a king down at rest after a throw or inkast has a ruling that decides
                        the game or sets it up again; the game ends by the king only through
                        such a ruling
``cites_ruleset``       every ruling and every play-by-play citation is a known citation, and
                        each ruling cites the ruleset in force (or kubb3d's decision)
``replay_reproduces``   pushing the replay file's actions and outcomes into a fresh engine
                        gives the same outcome and the same kubbs (at the end of each match)
``judge_inputs``        the judge's context agrees with the action and the snapshot: the
                        thrower is the acting side, a king throw is a KingThrow action and
                        comes only with every kubb of the target half felled (DM §10)
(procedure)             the order and the actors of the match's events against the rule book,
                        read from the replay file alone: :mod:`kubb3d.procedure` (lag result,
                        raising after the inkasts, penalty actors, a king felled by a thrown
                        kubb, throwing lines, king throws)
======================  ======================================================================

Besides the checks the audit counts the kubbs counted felled by a throw that were ruled
``standing`` at rest (felled by history alone, DM §5): a figure, not a violation.

Pure except for :func:`audit_match`, which plays the match (physics through
:class:`~kubb3d.match.Match`).
"""

from __future__ import annotations

import json
import math
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Mapping

from kubb3d.judge.geometry import tipping_angle as _tipping
from kubb3d.judge.rulebook import get_rulebook
from kubb3d.judge.status import TURNED_OVER
from kubb3d.pitch import KING_ID, opponent
from kubb3d.procedure import PROCEDURE_CHECKS, check_procedure
from kubb3d.ranges import listed
from kubb3d.ranges import counted

MOVED_M = 0.01
"""m: a piece whose base centre moved more than this during a throw was moved by it."""
KING_DOWN_TILT = math.radians(30.0)
"""rad: a king tilted more than this at rest is down (the match driver uses the same limit)."""
SIDELINE_TOL_M = 0.001
"""m: a standing kubb's base may cross a sideline by this much (contact-point noise at rest)."""

CHECKS: dict[str, str] = {
    "completes": "the match plays to its end without an error",
    "felled_moved": "a kubb counted felled by a throw was moved by it (DM §5)",
    "moved_ruled": "every piece a throw moved has a ruling",
    "standing_ok": "a kubb ruled standing is upright, self-supported and inside the sidelines (a field kubb a "
    "throw moved: also the baseline)",
    "raised_ok": "a raised kubb stands validly in its half, clear of the king and other kubbs (DM §7)",
    "placed_ok": "a placed kubb overlaps no kubb, king or stake (WS 11, DM §7)",
    "conserved": "pieces conserved, each in one known place",
    "king_by_rules": "the king falls only by the rulings of the ruleset",
    "cites_ruleset": "every ruling cites the ruleset in force (or kubb3d's decision)",
    "replay_reproduces": "replaying the replay file reproduces the state",
    "judge_inputs": "the judge's context agrees with the action and the snapshot it rules on",
    **PROCEDURE_CHECKS,
}
"""Check name → one line for the table, in the order of the table (the procedure checks of
:mod:`kubb3d.procedure` last)."""

def ruleset_prefix(ruleset: str) -> str:
    """How the citations of a ruleset begin: its rule book's seed and a space (``DM ``);
    ``kubb3d`` decisions count for every ruleset."""
    return get_rulebook(ruleset).seed + " "


@dataclass
class Violation:
    """One broken invariant.

    Attributes:
        check: a key of :data:`CHECKS`.
        seed: the match seed.
        action: index of the action after which it was found (the replay's ``i``).
        detail: one sentence naming the piece and the numbers.
        replay: the replay file (None until the match is finished).
    """

    check: str
    seed: int
    action: int
    detail: str
    replay: str | None = None

    def to_dict(self) -> dict:
        return {
            "check": self.check,
            "seed": self.seed,
            "action": self.action,
            "detail": self.detail,
            "replay": self.replay,
        }


@dataclass
class AuditReport:
    """Counts of one audit (one match or many merged).

    Attributes:
        ruleset: the ruleset.
        matches: matches audited.
        checked: check → cases looked at.
        violations: every violation found.
        felled: kubbs counted felled by a throw.
        felled_standing: of those, ruled ``standing`` at rest (felled by history, DM §5).
        seeds: the seeds audited.
        per_seed: seed → (kubbs felled by a throw, of them ruled standing).
        wall_s: seed → wall-clock seconds the match took to play and audit (a measurement
            of the machine, not part of the verdict).
    """

    ruleset: str
    matches: int = 0
    checked: dict[str, int] = field(default_factory=lambda: {k: 0 for k in CHECKS})
    violations: list[Violation] = field(default_factory=list)
    felled: int = 0
    felled_standing: int = 0
    seeds: list[int] = field(default_factory=list)
    per_seed: dict[int, tuple[int, int]] = field(default_factory=dict)
    wall_s: dict[int, float] = field(default_factory=dict)

    def count(self, check: str) -> int:
        """Violations of one check."""
        return sum(1 for v in self.violations if v.check == check)

    def merge(self, other: "AuditReport") -> None:
        """Add another report's counts to this one."""
        self.matches += other.matches
        for k, n in other.checked.items():
            self.checked[k] = self.checked.get(k, 0) + n
        self.violations.extend(other.violations)
        self.felled += other.felled
        self.felled_standing += other.felled_standing
        self.seeds.extend(other.seeds)
        self.per_seed.update(other.per_seed)
        self.wall_s.update(other.wall_s)

    def to_dict(self) -> dict:
        """JSON-friendly dict (violations sorted by seed and action)."""
        vs = sorted(self.violations, key=lambda v: (v.seed, v.action, v.check, v.detail))
        return {
            "ruleset": self.ruleset,
            "matches": self.matches,
            "checks": {
                k: {"description": CHECKS[k], "checked": self.checked.get(k, 0), "violations": self.count(k)}
                for k in CHECKS
            },
            "violations": [v.to_dict() for v in vs],
            "felled_by_throw": self.felled,
            "felled_by_throw_ruled_standing": self.felled_standing,
            "per_seed": {
                str(k): {"felled_by_throw": v[0], "ruled_standing": v[1]} for k, v in sorted(self.per_seed.items())
            },
            "wall_s": {str(k): round(v, 2) for k, v in sorted(self.wall_s.items())},
        }


# ---------------------------------------------------------------------- geometry helpers
def _axis(q) -> tuple[float, float, float]:
    x, y, z, w = q
    return (2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))


def axis_turn(q0, q1) -> float:
    """Angle between the long axes of two orientations, rad in [0, π]."""
    a, b = _axis(q0), _axis(q1)
    return math.acos(max(-1.0, min(1.0, a[0] * b[0] + a[1] * b[1] + a[2] * b[2])))


def tilt_either_end(q) -> float:
    """Angle of the long axis from the vertical, either end up, rad in [0, π/2]."""
    return math.acos(min(1.0, abs(_axis(q)[2])))


def base_polygon(p) -> list[tuple[float, float]]:
    """The lower end face of a box piece projected on the ground, CCW, m."""
    from kubb3d.judge.geometry import ccw, end_face

    end = -1 if _axis(p.quat_xyzw)[2] >= 0 else 1
    return ccw([(c[0], c[1]) for c in end_face(p, end)])


def self_supported(p) -> bool:
    """The centre of mass of an upright box piece projects inside its base (needs no help)."""
    from kubb3d.judge.geometry import inside_margin

    if p.shape != "box":
        return True
    c = p.com
    return inside_margin((float(c[0]), float(c[1])), base_polygon(p)) >= 0.0


def _moved(p0, p1, tipping: float) -> bool:
    return math.dist(p0.position[:2], p1.position[:2]) > MOVED_M or axis_turn(p0.quat_xyzw, p1.quat_xyzw) > tipping


def cites_ruleset(rules, ruleset: str) -> str | None:
    """Why a ruling's citations do not fit the ruleset in force, or None.

    Each citation must be known (:mod:`kubb3d.judge.citations`, a ruleset option or a kubb3d
    decision) and at least one must belong to ``ruleset`` or be kubb3d's decision."""
    from kubb3d.judge import citations as C

    rules = tuple(rules)
    if not rules:
        return "no citation"
    unknown = [r for r in rules if not C.is_known(r)]
    if unknown:
        return f"unknown citation {unknown[0]!r}"
    own = ruleset_prefix(ruleset)
    if not any(r.startswith(own) or r.startswith(C.KUBB3D) for r in rules):
        return f"cites only {', '.join(rules)} under ruleset {ruleset}"
    return None


# ---------------------------------------------------------------------- the recording judge
class RecordingJudge(SimpleNamespace):
    """The real judge with every call recorded (``calls``: (kind, snapshot, ctx, judgement))."""

    def __init__(self) -> None:
        import kubb3d.judge as judge

        calls: list[tuple[str, Any, Any, Any]] = []

        def judge_throw(after, ctx, *a, **kw):
            j = judge.judge_throw(after, ctx, *a, **kw)
            calls.append(("throw", after, ctx, j))
            return j

        def judge_inkast(after, ctx, *a, **kw):
            j = judge.judge_inkast(after, ctx, *a, **kw)
            calls.append(("inkast", after, ctx, j))
            return j

        super().__init__(
            judge_throw=judge_throw,
            judge_inkast=judge_inkast,
            ThrowContext=judge.ThrowContext,
            InkastContext=judge.InkastContext,
            calls=calls,
        )


# ---------------------------------------------------------------------- checks on one action
class _Auditor:
    def __init__(self, report: AuditReport, seed: int, ruleset) -> None:
        self.r = report
        self.seed = seed
        self.ruleset = ruleset
        self.name = ruleset.name
        self.pitch = ruleset.pitch

    def bad(self, check: str, action: int, detail: str) -> None:
        self.r.violations.append(Violation(check, self.seed, action, detail))

    def tick(self, check: str, n: int = 1) -> None:
        self.r.checked[check] += n

    # -- throws
    def throw(
        self,
        i: int,
        before: Mapping[str, Any],
        snap,
        ctx,
        j,
        turned: Mapping[str, float] | None = None,
        action: Mapping[str, Any] | None = None,
    ) -> None:
        """``action``: the action's record (``type``, ``side`` …), for :meth:`_judge_inputs`;
        ``before``: kubb/king id → PieceState-like with position and quat at rest before;
        ``turned``: piece id → largest turn of its long axis during the throw, rad (from the
        throw's recorded trajectory; pieces the throw did not touch are absent); the
        snapshot's ``max_tilt`` (the world's record at every sampled frame) counts too."""
        turned = turned or {}
        by = {r.piece: r for r in j.rulings}
        self._judge_inputs(i, snap, ctx, action)
        for pid in sorted(j.felled):
            self.tick("felled_moved")
            self.r.felled += 1
            p1 = snap.pieces.get(pid)
            p0 = before.get(pid)
            if by.get(pid) is not None and by[pid].status.value == "standing":
                self.r.felled_standing += 1
            if p0 is None or p1 is None:
                continue
            # the world's own record of the turn (sampled at every 30 Hz frame since the piece
            # was set up; the replay's trajectory keeps fewer frames and can miss the peak of a
            # rock). A piece in ``before`` stood upright in play, so a turn past its tipping
            # angle in that record happened during this throw.
            tilt = max(turned.get(pid, 0.0), p1.max_tilt)
            if not _moved(p0, p1, _tipping(p1)) and tilt <= TURNED_OVER:
                self.bad(
                    "felled_moved",
                    i,
                    f"{pid} counted felled but moved {math.dist(p0.position[:2], p1.position[:2]) * 100:.1f} cm and "
                    f"turned {math.degrees(axis_turn(p0.quat_xyzw, p1.quat_xyzw)):.0f}° "
                    f"({by[pid].reason if pid in by else 'no ruling'})",
                )
        for pid in sorted(before):
            p0, p1 = before[pid], snap.pieces.get(pid)
            if p1 is None:
                continue
            self.tick("moved_ruled")
            if _moved(p0, p1, math.radians(3.0)) and pid not in by:
                self.bad(
                    "moved_ruled",
                    i,
                    f"{pid} (half {p1.side or '-'}) was moved {math.dist(p0.position[:2], p1.position[:2]) * 100:.1f} "
                    "cm by the throw but got no ruling",
                )
        for pid, r in sorted(by.items()):
            p = snap.pieces.get(pid)
            if p is None or p.kind != "kubb" or r.status.value != "standing" or r.consequence.value != "none":
                continue
            self.tick("standing_ok")
            why = self._standing_problem(p)
            p0 = before.get(pid)
            if not why and pid in ctx.field_kubbs and p0 is not None and _moved(p0, p, math.radians(3.0)):
                why = self._behind_the_baseline(p, self.pitch.baseline_x(opponent(ctx.thrower)))
            if why:
                self.bad("standing_ok", i, f"{pid} ruled standing but {why}")
        self._king(i, snap, j, "throw")
        self._cites(i, j.rulings)

    def _judge_inputs(self, i: int, snap, ctx, action: Mapping[str, Any] | None) -> None:
        """The judge was told who threw, whether it was a king throw, and which kubbs were already
        down as the action and the snapshot say: the thrower is the acting side; a king throw
        is a KingThrow action (DM §10) and comes only when no kubb of the target half stands
        (every one of them already felled, or lying)."""
        if not action or action.get("type") not in ("BatonThrow", "KingThrow"):
            return
        self.tick("judge_inputs")
        problems = []
        if ctx.thrower != action.get("side"):
            problems.append(f"thrower {ctx.thrower} for an action of side {action.get('side')}")
        if ctx.king_throw != (action["type"] == "KingThrow"):
            problems.append(f"king_throw={ctx.king_throw} for a {action['type']}")
        if ctx.king_throw:
            target = opponent(ctx.thrower)
            up = sorted(
                pid
                for pid, p in snap.pieces.items()
                if p.kind == "kubb" and p.side == target and pid not in ctx.already_felled
            )
            if up:
                problems.append(f"a king throw while {', '.join(up)} of half {target} were not felled")
        if problems:
            self.bad("judge_inputs", i, "; ".join(problems))

    def _standing_problem(self, p) -> str | None:
        if p.shape == "disk":
            # its tipping angle depends on the direction: the vertical through its centre of
            # mass must meet its flat (kubb3d.judge.table.flat_margin)
            from kubb3d.judge.table import flat_margin

            if flat_margin(p) < 0.0:
                return "its centre of mass is not over its flat"
            return None
        tilt = tilt_either_end(p.quat_xyzw)
        if tilt > _tipping(p):
            return f"is tilted {math.degrees(tilt):.0f}° (tipping angle {math.degrees(_tipping(p)):.0f}°)"
        if not self_supported(p):
            return "its centre of mass is not over its base"
        if p.shape == "box":
            ys = [c[1] for c in base_polygon(p)]
            out = max(abs(y) for y in ys) - self.pitch.half_width
            if out > SIDELINE_TOL_M:
                return f"its base is {out * 100:.1f} cm outside the sideline"
        return None

    def _behind_the_baseline(self, p, end_x: float) -> str | None:
        """Why a standing field kubb stands out behind the baseline ``end_x`` of its half (kubb3d
        decision: standing outside sets it back inside), or None."""
        if p.shape != "box":
            return None
        xs = [c[0] for c in base_polygon(p)]
        out = max(xs) - end_x if end_x > 0 else end_x - min(xs)
        return f"its base is {out * 100:.1f} cm behind the baseline" if out > SIDELINE_TOL_M else None

    def _king(self, i: int, snap, j, kind: str) -> None:
        king = snap.pieces.get(KING_ID)
        if king is None:
            return
        self.tick("king_by_rules")
        down = king.tilt > KING_DOWN_TILT
        decided = (
            getattr(j, "winner", None) is not None
            or KING_ID in getattr(j, "raise_now", ())
            or bool(getattr(j, "king_felled", False))
        )
        if down and not decided:
            self.bad(
                "king_by_rules",
                i,
                f"the king is tilted {math.degrees(king.tilt):.0f}° after the {kind} but no ruling decides the game or "
                "sets it up again",
            )
        if getattr(j, "winner", None) is not None:
            kr = [r for r in j.rulings if r.piece == KING_ID]
            if not kr or not any(c.startswith(ruleset_prefix(self.name)) for c in kr[0].rules):
                self.bad(
                    "king_by_rules", i, f"the game was decided by the king without a ruling of ruleset {self.name}"
                )

    def _cites(self, i: int, rulings) -> None:
        for r in rulings:
            self.tick("cites_ruleset")
            why = cites_ruleset(r.rules, self.name)
            if why:
                self.bad("cites_ruleset", i, f"ruling on {r.piece} ({r.consequence.value}): {why}")

    # -- inkasts and placements
    def inkast(
        self,
        i: int,
        snap,
        ctx,
        j,
        standing: Mapping[str, Any],
        now: Mapping[str, Any] | None = None,
        awaiting: frozenset[str] = frozenset(),
    ) -> None:
        """``standing``: id → PieceState of the pieces that stood before the inkast (not
        inkasted; the king included), where they stand after the action; ``now``: every piece of
        the world after the action (empty if the match ended with the inkast); ``awaiting``:
        valid kubbs not raised yet (DM §7, WS basic rule 12: :meth:`raised` checks them at the
        Raise action)."""
        from kubb3d.judge.geometry import footprint, overlap_depth
        from kubb3d.judge.tipping import state_at

        now = now or {}
        half = opponent(ctx.inkasting_side)
        raised = {
            pid: state_at(snap.pieces[pid], pose)
            for pid, pose in sorted(getattr(j, "raised", {}).items())
            if pid in snap.pieces
        }
        stossel = {r.piece for r in j.rulings if r.status.value == "stößel"}
        king_out = bool(getattr(j, "king_felled", False))
        king = standing.get(KING_ID) or snap.pieces.get(KING_ID)
        if king_out and KING_ID in ctx.before and king is not None:
            king = _piece_at(king, ctx.before[KING_ID])  # the set is over; raising keeps clear of its spot
        # kubbs awaiting their raising lie until the Raise action: their raised spots count
        standing = {
            pid: _piece_at(p, ctx.awaiting[pid]) if pid in ctx.awaiting else p
            for pid, p in standing.items()
            if pid != KING_ID
        }
        king_fp = footprint(king) if king is not None else None
        king_centre = tuple(king.position[:2]) if king is not None else None
        for pid, p in raised.items():
            if pid in stossel:
                continue  # placed later by hand: checked as a placement
            self.tick("raised_ok")
            if pid in now and pid not in awaiting and math.dist(now[pid].position[:2], p.position[:2]) > MOVED_M / 10:
                self.bad(
                    "raised_ok",
                    i,
                    f"{pid} stands {math.dist(now[pid].position[:2], p.position[:2]) * 1000:.1f} mm from where the "
                    "judge raised it",
                )
            tilt = tilt_either_end(p.quat_xyzw)
            if tilt > math.radians(1.0):
                self.bad("raised_ok", i, f"{pid} raised tilted {math.degrees(tilt):.1f}°")
            base = base_polygon(p) if p.shape == "box" else footprint(p)
            cx, cy = sum(x for x, _ in base) / len(base), sum(y for _, y in base) / len(base)
            if not self.pitch.in_half(half, cx, cy):
                self.bad("raised_ok", i, f"{pid} raised with its base centre ({cx:.2f}, {cy:.2f}) outside half {half}")
            fp = footprint(p)
            if king is not None and king.shape == "mushroom":
                gap = _point_polygon_distance(king_centre, fp) - king.half_extents[0]
                if gap < 1e-5:
                    self.bad("raised_ok", i, f"{pid} raised touching the king (gap {gap * 1000:.2f} mm)")
            elif king_fp is not None and overlap_depth(fp, king_fp) > -1e-4:
                self.bad("raised_ok", i, f"{pid} raised touching the king")
            for oid, o in list(raised.items()) + sorted(standing.items()):
                if oid == pid or oid in stossel:
                    continue
                d = overlap_depth(fp, footprint(o))
                if d > 0.002:
                    self.bad("raised_ok", i, f"{pid} raised overlapping {oid} by {d * 100:.1f} cm")
        # every piece that stood before the inkast stands on its spot again (WS basic rule 14,
        # DM §5): the engine keeps that spot, so the world must too
        for pid, pose in sorted(ctx.before.items()):
            if pid not in now or (pid == KING_ID and king_out):
                continue
            self.tick("conserved")
            off = math.dist(now[pid].position[:2], pose.position[:2])
            if off > MOVED_M / 10:
                self.bad(
                    "conserved",
                    i,
                    f"{pid} stood at ({pose.position[0]:.3f}, {pose.position[1]:.3f}) before the inkast and "
                    f"{off * 1000:.1f} mm away after it",
                )
        self._king_inkast(i, snap, ctx, j)
        self._cites(i, j.rulings)

    def raised(self, i: int, kubbs, state, world_pieces: Mapping[str, Any]) -> None:
        """After a Raise action: each raised kubb stands in the world where the engine has it
        (the pose the judge raised it to), upright."""
        for kid in kubbs:
            self.tick("raised_ok")
            info, p = state.kubbs.get(kid), world_pieces.get(kid)
            if info is None or p is None:
                self.bad("raised_ok", i, f"{kid} was raised but is not in the world or the engine")
                continue
            off = math.dist(p.position[:2], info.pose.position[:2])
            if off > MOVED_M / 10 or tilt_either_end(p.quat_xyzw) > math.radians(1.0):
                self.bad("raised_ok", i, f"{kid} stands {off * 1000:.1f} mm from where it was raised")

    def _king_inkast(self, i: int, snap, ctx, j) -> None:
        king = snap.pieces.get(KING_ID)
        if king is None:
            return
        self.tick("king_by_rules")
        if king.tilt > KING_DOWN_TILT and not (
            getattr(j, "winner", None) or getattr(j, "king_felled", False) or any(r.piece == KING_ID for r in j.rulings)
        ):
            self.bad(
                "king_by_rules",
                i,
                f"the king is down ({math.degrees(king.tilt):.0f}°) after an inkast without a ruling",
            )

    def placement(self, i: int, kubb: str, half: str, world_pieces: Mapping[str, Any]) -> None:
        from kubb3d.judge.geometry import footprint, overlap_depth

        self.tick("placed_ok")
        p = world_pieces[kubb]
        fp = footprint(p)
        for oid, o in sorted(world_pieces.items()):
            if oid == kubb or o.kind not in ("kubb", "king", "stake"):
                continue
            if o.kind == "kubb" and tilt_either_end(o.quat_xyzw) > math.radians(45.0):
                continue  # a lying kubb waiting to be inkasted is picked up before raising
            d = overlap_depth(fp, footprint(o))
            if d > 0.001:
                self.bad(
                    "placed_ok",
                    i,
                    f"{kubb} placed at ({p.position[0]:.2f}, {p.position[1]:.2f}) overlapping {oid} by {d * 100:.1f} "
                    "cm",
                )
        if not self.pitch.in_half(half, p.position[0], p.position[1]):
            self.bad("placed_ok", i, f"{kubb} placed at ({p.position[0]:.2f}, {p.position[1]:.2f}) outside half {half}")

    # -- conservation after every action
    def conserved(self, i: int, state, world, pending: frozenset[str] = frozenset()) -> None:
        """After an action; ``pending``: kubbs waiting before it to be raised at the end of the
        round (stood up in the world when the next turn's world is built)."""
        self.tick("conserved")
        in_world = set(world.piece_ids("kubb"))
        live = {k for k, v in state.kubbs.items() if not v.removed}
        removed = {k for k, v in state.kubbs.items() if v.removed}
        expected = 2 * len(self.pitch.baseline_kubb_positions("A"))
        if len(state.kubbs) and len(state.kubbs) != expected:
            self.bad("conserved", i, f"the engine has {counted(len(state.kubbs), 'kubb')}, the ruleset {expected}")
        if state.kubbs and in_world != live:
            self.bad(
                "conserved",
                i,
                f"world and engine disagree: only in world {listed(sorted(in_world - live))}, only in engine "
                f"{listed(sorted(live - in_world))}",
            )
        if removed & in_world:
            self.bad("conserved", i, f"tie-break kubbs {listed(sorted(removed & in_world))} are still in the world")
        if world.piece_ids("king") != [KING_ID]:
            self.bad("conserved", i, f"the world holds kings {world.piece_ids('king')}")
        if len(world.piece_ids("baton")) > 6:
            self.bad("conserved", i, f"{counted(len(world.piece_ids('baton')), 'baton')} in the world")
        board = world.equipment.board is not None
        for kid in sorted(live & in_world):
            pos, q = world.pose(kid)
            if not all(math.isfinite(v) for v in (*pos, *q)):
                self.bad("conserved", i, f"{kid} has no finite pose")
                continue
            k = state.kubbs[kid]
            if (
                k.standing
                and kid not in state.raise_at_end
                and kid not in pending
                and kid not in getattr(state, "to_raise", {})
                and state.phase.name in ("THROW",)
            ):
                if tilt_either_end(q) > math.radians(30.0) and not board:
                    self.bad(
                        "conserved",
                        i,
                        f"{kid} counts as standing but lies in the world (tilt "
                        f"{math.degrees(tilt_either_end(q)):.0f}°)",
                    )


def _point_polygon_distance(pt, poly) -> float:
    """Distance from a point to a convex polygon (0 inside), m."""
    from kubb3d.judge.geometry import inside_margin

    if inside_margin(pt, poly) >= 0:
        return 0.0
    best = math.inf
    n = len(poly)
    for k in range(n):
        (ax, ay), (bx, by) = poly[k], poly[(k + 1) % n]
        ex, ey = bx - ax, by - ay
        L2 = ex * ex + ey * ey
        t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((pt[0] - ax) * ex + (pt[1] - ay) * ey) / L2))
        best = min(best, math.hypot(pt[0] - ax - t * ex, pt[1] - ay - t * ey))
    return best


# ---------------------------------------------------------------------- one match
def replay_state(path: str | os.PathLike, ruleset_name: str):
    """A fresh engine with every action and outcome of a replay file pushed (the state the file
    describes), and the file's outcome record (None if missing)."""
    from kubb3d.match import MatchConfig
    from kubb3d.rules import action_from_dict, get_ruleset, outcome_from_dict

    recs = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    cfg = MatchConfig.from_dict(recs[0]["config"])
    rs = get_ruleset(ruleset_name)
    st = cfg.new_state(rs)
    for r in recs:
        if r.get("type") == "action":
            st.push(action_from_dict(r["action"]), outcome_from_dict(r.get("outcome")))
    out = next((r for r in recs if r.get("type") == "outcome"), None)
    return st, out


def _kubb_digest(state) -> dict:
    return {
        k: (v.half, v.baseline, v.standing, v.removed, tuple(round(x, 6) for x in v.pose.position))
        for k, v in sorted(state.kubbs.items())
    }


def audit_match(
    ruleset: str,
    seed: int,
    players: tuple[str, str] = ("club", "club"),
    replay_dir: str | os.PathLike | None = None,
    keep_clean: bool = False,
    options: Mapping[str, Any] | None = None,
) -> AuditReport:
    """Play one seeded match and audit it (see the module doc).

    Args:
        ruleset: ``dm``, ``wikinger`` or ``kubbuteo``.
        seed: the match seed.
        players: skill presets of the two sides.
        options: referee options (:mod:`kubb3d.judge.options`) the match is played under.
        replay_dir: folder for the replay file (a temporary folder if None); made (one level
            deep) only when a replay is kept there, so a clean audit leaves no empty folder.
        keep_clean: keep the replay file of a match without violations too.

    Returns:
        The report of this match; violations carry the replay file's path when it is kept.
    """
    import tempfile
    import time

    from kubb3d.match import Match, MatchConfig
    from kubb3d.snapshot import PieceState

    t0 = time.perf_counter()
    report = AuditReport(ruleset, matches=1, seeds=[seed])
    from kubb3d.files import output_folder

    if replay_dir is not None:
        output_folder(replay_dir, "--replay-dir", create=False)  # checked now, made when a replay is kept
    tmp = tempfile.mkdtemp(prefix="kubb3d-audit-")  # played here; a kept replay moves to replay_dir
    path = Path(tmp) / f"{ruleset}-seed{seed}.jsonl"
    judge = RecordingJudge()
    config = MatchConfig(
        ruleset=ruleset, skills=tuple(players), seed=seed, options=tuple(sorted((options or {}).items()))
    )
    m = Match(config, judge=judge, replay=path)
    aud = _Auditor(report, seed, m.ruleset)
    aud.tick("completes")
    try:
        while m.state.outcome() is None:
            i = m.action_index
            st = m.state
            before_world: dict[str, PieceState] = {}
            if m.world is not None and (m.world_key == (st.set_no, st.turn_no)):
                snap0 = m.world.snapshot()
                before_world = {
                    pid: p
                    for pid, p in snap0.pieces.items()
                    if p.kind in ("kubb", "king") and _upright_in_play(p, st, pid)
                }
            pending = frozenset(st.raise_at_end)
            standing_before = {k.id: k for k in list(st.standing_in("A")) + list(st.standing_in("B"))}
            n_calls = len(judge.calls)
            rec = m.step().record
            calls = judge.calls[n_calls:]
            action = rec["action"]
            for kind, snap, ctx, j in calls:
                if kind == "throw":
                    if not before_world:
                        # first action of a turn: the world was built from the engine's poses
                        before_world = {
                            pid: _piece_at(snap.pieces[pid], standing_before[pid].pose)
                            for pid in standing_before
                            if pid in snap.pieces
                        }
                        if KING_ID in snap.pieces and KING_ID in ctx.round_start:
                            before_world[KING_ID] = _piece_at(snap.pieces[KING_ID], ctx.round_start[KING_ID])
                    aud.throw(i, before_world, snap, ctx, j, _turns(rec), action)
                else:
                    # the pieces where the match left them (the world after the action), so a
                    # piece the judge raised against but the driver moved is caught; the
                    # spots before the inkast if the match ended with it
                    now = m.world.snapshot().pieces if m.world is not None else {}
                    standing = {
                        pid: now[pid] if pid in now else _piece_at(snap.pieces[pid], ctx.before[pid])
                        for pid in sorted(ctx.before)
                        if pid in snap.pieces
                    }
                    aud.inkast(i, snap, ctx, j, standing, now, frozenset(m.state.to_raise))
            if action.get("type") == "Raise" and m.world is not None:
                aud.raised(i, action["kubbs"], m.state, m.world.snapshot().pieces)
            if action.get("type") == "PlaceKubb" and m.world is not None and m.world.has_piece(action["kubb"]):
                snap1 = m.world.snapshot()
                aud.placement(i, action["kubb"], action["half"], snap1.pieces)
            for e in rec.get("events", ()):
                if e.get("rules"):
                    aud.tick("cites_ruleset")
                    why = cites_ruleset(e["rules"], ruleset) if e.get("kind") != "glitch" else None
                    if why and e.get("kind") not in ("lag", "choose", "set", "turn", "result"):
                        aud.bad("cites_ruleset", i, f"event {e.get('kind')} ({e.get('text', '')[:60]}): {why}")
            for kind, _snap, _ctx, j in calls:
                if kind == "throw":
                    pending = pending | frozenset(j.raise_again)  # stood up when the next turn's world is built
            if m.world is not None and m.state.outcome() is None:
                aud.conserved(i, m.state, m.world, pending)
        final = m.state
        m.close()
        aud.tick("replay_reproduces")
        st2, out_rec = replay_state(path, ruleset)
        o1 = final.outcome().to_dict()
        o2 = st2.outcome().to_dict() if st2.outcome() is not None else None
        if o1 != o2 or (out_rec is not None and {k: out_rec[k] for k in o1} != o1):
            aud.bad("replay_reproduces", m.action_index, f"outcome {o1} but the replay gives {o2}")
        elif _kubb_digest(final) != _kubb_digest(st2):
            aud.bad("replay_reproduces", m.action_index, "the replayed kubbs differ from the match's")
        with open(path, encoding="utf-8") as fh:
            procedure = check_procedure(json.loads(line) for line in fh if line.strip())
        for check, n in procedure.checked.items():
            aud.tick(check, n)
        for check, action_i, detail in procedure.findings:
            aud.bad(check, action_i, detail)
    except Exception as exc:  # a match that cannot be audited is a finding, not a gap in the run
        aud.bad("completes", m.action_index, f"the match stopped with {type(exc).__name__}: {exc}")
    finally:
        m.close()
    report.per_seed[seed] = (report.felled, report.felled_standing)
    report.wall_s[seed] = time.perf_counter() - t0
    if (report.violations or keep_clean) and replay_dir is not None:
        kept = output_folder(replay_dir, "--replay-dir") / path.name  # made one level deep, never its parents
        shutil.move(str(path), str(kept))
        path = kept
    if report.violations or keep_clean:
        for v in report.violations:
            v.replay = str(path)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    if path.parent != Path(tmp):
        shutil.rmtree(tmp, ignore_errors=True)
    return report


def _turns(rec: Mapping) -> dict[str, float]:
    """Piece id → largest turn of its long axis from its first recorded pose, rad, over the
    trajectory of the action's last simulated throw (the one that counted)."""
    throws = rec.get("throws") or []
    if not throws:
        return {}
    out = {}
    for pid, rows in throws[-1].get("trajectory", {}).get("poses", {}).items():
        if rows:
            q0 = rows[0][3:7]
            out[pid] = max(axis_turn(q0, r[3:7]) for r in rows)
    return out


def _piece_at(p, pose):
    from dataclasses import replace

    return replace(p, position=tuple(pose.position), quat_xyzw=tuple(pose.quat_xyzw))


def _upright_in_play(p, state, pid: str) -> bool:
    if pid == KING_ID:
        return True
    k = state.kubbs.get(pid)
    return k is not None and k.standing and not k.removed and tilt_either_end(p.quat_xyzw) < math.radians(30.0)


def _one(args) -> AuditReport:
    ruleset, seed, players, replay_dir, options = args
    return audit_match(ruleset, seed, players, replay_dir, options=options)


def run_audit(
    ruleset: str,
    matches: int,
    *,
    players: tuple[str, str] = ("club", "club"),
    workers: int = 1,
    first_seed: int = 0,
    replay_dir: str | os.PathLike | None = None,
    on_match: Callable[[AuditReport], None] | None = None,
    options: Mapping[str, Any] | None = None,
) -> AuditReport:
    """Audit ``matches`` seeded matches (seeds ``first_seed`` …), on ``workers`` processes,
    under the referee ``options`` (:mod:`kubb3d.judge.options`).

    Each match is independent and seeded, so the merged report does not depend on the number of
    workers (reports are merged in seed order). ``on_match`` is called after every match (in
    completion order; for a progress bar).
    """
    seeds = list(range(first_seed, first_seed + matches))
    jobs = [
        (ruleset, s, tuple(players), None if replay_dir is None else str(replay_dir), dict(options or {}))
        for s in seeds
    ]
    results: dict[int, AuditReport] = {}
    if workers <= 1:
        for job in jobs:
            r = _one(job)
            results[job[1]] = r
            if on_match:
                on_match(r)
    else:
        import multiprocessing as mp
        from concurrent.futures import as_completed

        from kubb3d.workers import process_pool

        with process_pool(workers, mp_context=mp.get_context("spawn")) as ex:
            futs = {ex.submit(_one, job): job[1] for job in jobs}
            for f in as_completed(futs):
                r = f.result()
                results[futs[f]] = r
                if on_match:
                    on_match(r)
    total = AuditReport(ruleset)
    for s in seeds:
        total.merge(results[s])
    return total

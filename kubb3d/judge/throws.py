"""Rulings after a baton throw: which kubbs count as felled, which are raised again,
and whether the king decided the game (DM §1, §5, §10; WS basic rules 7–9,
"End of the Game").

Decisions where the rules are silent (documented in the rulings' reasons):

* **Order of falls within one throw** (option ``baseline_after_field``). A snapshot
  shows only the end of a throw, not the order in which pieces fell. By default a
  baseline kubb felled by a throw that started while field kubbs of its half were
  standing does not count (DM §5: "während in der dazugehörigen Feldhälfte noch
  Kubbs stehen"; WS basic rule 8: field kubbs "must be knocked over first"). With
  ``contact order`` it counts if every one of those field kubbs went past its tipping
  angle before it did (``ThrowContext.fall_order``, from the throw's trajectory:
  :meth:`kubb3d.throw.Trajectory.fall_order`).
* **A first foul** (option ``first_foul_warning``, off by default): when on, a player's
  first foul of the match (``ThrowContext.earlier_fouls`` = 0) is only warned (DM §5
  "zunächst eine Verwarnung"): the throw counts as legal and the judgement says
  ``warned``.
* **The king felled by an illegal throw** still loses the game (DM §1 makes
  no exception for fouls); a foul only raises *kubbs* again (DM §5).
* **The king felled after all kubbs were down, but not by a king throw from
  the baseline**: the throw is invalid and the king is set up again (WS notes
  under "Tie-Break After the Group Stage"; DM §10 by analogy).
* **Standing again** after being knocked past the tipping angle counts as
  fallen under DM §5; WS is silent and DM §5 is applied by analogy.
* **A kubb lying on other kubbs after a throw** is down (DM §5; WS basic rule 9); DM §7's
  stößel clause is about inkasted kubbs.
* **A standing kubb pushed out of the field** (option ``standing_outside``), across a sideline
  or, a field kubb, across the baseline behind its half: it was not felled; it is set back
  across the line just far enough for its whole base to be inside (``Consequence.SET_INSIDE``,
  cited as ``kubb3d decision: standing outside``), and off any piece standing there or stood
  up there again. A baseline kubb stands on its baseline (DM §2): only a sideline is checked.
* **A kubb of the thrower's own half moved by his throw** (option ``own_half_knock``, e.g.
  a king throw that clips an own field kubb): stood up again where it stood, at once by
  default (DM §5's accident clause; WS basic rule 14 by analogy).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping

from kubb3d.errors import JudgeInputError
from kubb3d.judge.messages import Msg, concat, join, msg, nmsg, piece_name
from kubb3d.judge.options import DEFAULT, changed_option, decided_by, default, option
from kubb3d.judge.params import DEFAULT_PARAMS, JudgeParams
from kubb3d.judge.analysis import Analysis
from kubb3d.judge.clearing import clear_of
from kubb3d.judge.geometry import columns, end_face, footprint, rot
from kubb3d.judge.rulebook import JudgeCitations, Rulebook, get_rulebook
from kubb3d.judge.rulings import Consequence, Pose, Ruling, RulingsLookup, Status
from kubb3d.judge.status import ContactIndex, HandCheck, analyse, turned_over
from kubb3d.judge.tipping import state_at
from kubb3d.pitch import KING_ID, Pitch, Side, opponent
from kubb3d.snapshot import PieceState, Snapshot, body_axis
from kubb3d.linear import dot3


def _violation_rule(v: Any) -> tuple[str, str]:
    if isinstance(v, (tuple, list)) and len(v) == 2:
        return str(v[0]), v[1] if isinstance(v[1], str) else str(v[1])
    rule, reason = getattr(v, "rule", None), getattr(v, "reason", None)
    if rule is None:
        raise JudgeInputError(f"a violation must be a kubb3d.throw.Violation or a (rule, reason) pair, got {v!r}")
    return str(rule), reason if isinstance(reason, str) else str(reason)


@dataclass(frozen=True)
class ThrowContext:
    """What the judge must know about a baton throw besides the snapshot after it.

    Attributes:
        ruleset: a rule book name (:func:`kubb3d.judge.rulebook.rulebook_names`).
        thrower: ``A`` or ``B``; the target half is the opponent's.
        legal: False if the throw broke a throwing rule (DM §5; WS basic rules 5, 7).
        violations: the broken rules, :class:`kubb3d.throw.Violation` or (rule, reason) pairs.
        king_throw: the throw was a king throw from the baseline after every kubb of
            the target half was down (DM §10, WS "End of the Game"); taken as one only when
            every kubb of the target half is in ``already_felled`` (else the king fell early).
        round_start: piece id → pose at the start of the round (where a kubb or the
            king is raised again).
        field_kubbs: ids of the field kubbs standing in the target half when the throw began.
        already_felled: kubbs ruled felled earlier this round.
        pending_raise: kubbs already ruled to be raised at the end of this round
            (early baseline kubbs of earlier throws).
        accidents: pieces moved or felled by wind, ground or accident: stood up again
            at once at their round-start spot (DM §5; WS notes).
        own_standing: kubbs standing in the thrower's own half when the throw began, with
            their poses: one the throw moved is stood up again there (option
            ``own_half_knock``, :mod:`kubb3d.judge.options`).
        options: referee options (:mod:`kubb3d.judge.options`); missing keys take the
            ruleset's defaults.
        earlier_fouls: fouls of this thrower already called this match (warned or
            penalised; option ``first_foul_warning``).
        fall_order: pieces this throw turned past their tipping angle, in the order they
            did (option ``baseline_after_field`` = ``contact order``).
    """

    ruleset: str = "dm"
    thrower: Side = "A"
    legal: bool = True
    violations: tuple[Any, ...] = ()
    king_throw: bool = False
    round_start: Mapping[str, Pose] = field(default_factory=dict)
    field_kubbs: frozenset[str] = frozenset()
    already_felled: frozenset[str] = frozenset()
    pending_raise: frozenset[str] = frozenset()
    accidents: frozenset[str] = frozenset()
    own_standing: Mapping[str, Pose] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    earlier_fouls: int = 0
    fall_order: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        get_rulebook(self.ruleset)
        for name in ("first_foul_warning", "baseline_after_field"):
            option(self.options, name, self.ruleset)  # a bad value fails here
        if self.earlier_fouls < 0:
            raise JudgeInputError(f"earlier_fouls must be 0 or more, got {self.earlier_fouls!r}")
        if self.thrower not in ("A", "B"):
            raise JudgeInputError(f"thrower must be 'A' or 'B', got {self.thrower!r}")
        for v in self.violations:
            _violation_rule(v)


@dataclass(frozen=True)
class ThrowJudgement(RulingsLookup):
    """The judge's word on one throw.

    Attributes:
        rulings: one per kubb of the target half, the king, and any accident piece.
        felled: target-half kubbs felled by this throw (they count as felled).
        felled_total: every target-half kubb that counts as felled now (``felled`` plus
            ``already_felled``).
        raise_again: pieces to stand up at their round-start spot; ``raise_now`` of
            them at once (fouls, accidents), the rest at the end of the round
            (early baseline kubbs, DM §5).
        raise_now: subset of ``raise_again`` to raise immediately.
        winner, loser: ``A``/``B`` if the king decided the game, else None.
        warned: the throw broke a throwing rule but, as the thrower's first foul, was only
            warned (option ``first_foul_warning``) and counts as legal.
    """

    rulings: tuple[Ruling, ...]
    felled: frozenset[str]
    felled_total: frozenset[str]
    raise_again: frozenset[str]
    raise_now: frozenset[str]
    winner: Side | None = None
    loser: Side | None = None
    warned: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly dict."""
        return {
            "event": "throw",
            "rulings": [r.to_dict() for r in self.rulings],
            "felled": sorted(self.felled),
            "felled_total": sorted(self.felled_total),
            "raise_again": sorted(self.raise_again),
            "raise_now": sorted(self.raise_now),
            "winner": self.winner,
            "loser": self.loser,
            "warned": self.warned,
        }


def _raise_pose(ctx: ThrowContext, pid: str) -> Pose | None:
    return ctx.round_start.get(pid)


@dataclass(frozen=True)
class _Throw:
    """What every ruling of one throw shares, read once from its context."""

    ctx: ThrowContext
    cites: JudgeCitations
    target: Side
    target_kubbs: tuple[str, ...]
    standing_field: frozenset[str]
    legal: bool
    warned: bool
    warn_text: str
    warn_rules: tuple[str, ...]
    foul_rules: tuple[str, ...]
    foul_text: str
    by_order: bool
    king_off_baseline: str
    stand_again_now: bool = False
    field_down: frozenset[str] = frozenset()
    """The field kubbs standing when the throw began that are down at rest (option
    ``contact order``: only these can have fallen before a baseline kubb)."""

    @classmethod
    def read(cls, ctx: ThrowContext, book: Rulebook, pieces: Mapping[str, PieceState]) -> "_Throw":
        target = opponent(ctx.thrower)
        foul_rules = book.foul_cites(tuple(dict.fromkeys(_violation_rule(v)[0] for v in ctx.violations)))
        foul_text = join([_no_period(_violation_rule(v)[1]) for v in ctx.violations], "; ") or msg(
            "the throw broke a throwing rule"
        )
        warned = (
            not ctx.legal and ctx.earlier_fouls == 0 and bool(option(ctx.options, "first_foul_warning", ctx.ruleset))
        )
        warn_text = (
            msg(
                " The throw broke a throwing rule ({fouls}), but a first foul is only warned (DM §5), so it counts.",
                fouls=foul_text,
            )
            if warned
            else ""
        )
        return cls(
            ctx=ctx,
            cites=book.cites,
            target=target,
            target_kubbs=tuple(sorted(pid for pid, p in pieces.items() if p.kind == "kubb" and p.side == target)),
            standing_field=frozenset(ctx.field_kubbs) - frozenset(ctx.already_felled),
            legal=ctx.legal or warned,
            warned=warned,
            warn_text=warn_text,
            warn_rules=tuple(dict.fromkeys(foul_rules + book.cites.warning)) if warned else (),
            foul_rules=foul_rules,
            foul_text=foul_text,
            by_order=option(ctx.options, "baseline_after_field", ctx.ruleset) == "contact order",
            king_off_baseline=book.king_off_baseline,
            stand_again_now=book.stand_again_now,
        )


@dataclass
class _Tally:
    """The rulings of one throw so far and what they add up to."""

    rulings: list[Ruling] = field(default_factory=list)
    newly: set[str] = field(default_factory=set)
    felled: set[str] = field(default_factory=set)
    raise_again: set[str] = field(default_factory=set)
    raise_now: set[str] = field(default_factory=set)
    winner: Side | None = None
    loser: Side | None = None

    def rule(
        self, r: Ruling, *, counts: bool = False, new: bool = False, again: bool = False, now: bool = False
    ) -> None:
        """Add a ruling: the kubb counts as felled (``new``: by this throw), is raised again
        (``now``: at once)."""
        self.rulings.append(r)
        if counts:
            self.felled.add(r.piece)
        if new:
            self.newly.add(r.piece)
        if again:
            self.raise_again.add(r.piece)
        if now:
            self.raise_now.add(r.piece)

    def stand_again(
        self, pid: str, a: Analysis, rules: tuple[str, ...], reason: str, pose: Pose | None, now: bool = False
    ) -> None:
        """Add a ruling that stands the piece up again at ``pose`` (``now``: at once, else at the
        end of the round)."""
        ruling = Ruling(
            piece=pid,
            status=a.status,
            consequence=Consequence.RAISE_AT_ORIGINAL_SPOT,
            rules=rules,
            reason=reason,
            hand_check=a.hand_check,
            raised_pose=pose,
        )
        self.rule(ruling, again=True, now=now)

    def judgement(self, warned: bool) -> ThrowJudgement:
        return ThrowJudgement(
            tuple(self.rulings),
            frozenset(self.newly),
            frozenset(self.felled),
            frozenset(self.raise_again),
            frozenset(self.raise_now),
            self.winner,
            self.loser,
            warned,
        )


def judge_throw(
    after: Snapshot, ctx: ThrowContext, params: JudgeParams | None = None, hand_check: HandCheck | None = None
) -> ThrowJudgement:
    """Rule on every kubb of the target half and the king after a baton throw.

    Each piece is classified from the snapshot (:func:`kubb3d.judge.status.analyse` and its
    history), then ruled by what it is: a piece moved by accident (:func:`_rule_accident`),
    the king (:func:`_rule_king`), a kubb of the target half (:func:`_rule_target_kubb`),
    and last the thrower's own kubbs the throw moved (:func:`_rule_own_half`).

    Args:
        after: the snapshot at rest after the throw (contacts with fresh forces).
        ctx: the throw's context.
        params: thresholds.
        hand_check: optional DM §5 hand check for doubtful cases.

    Returns:
        A :class:`ThrowJudgement`.

    A referee option at another value than the rule book's default that changes a ruling (the
    piece judged again under the default rules otherwise) is named in that ruling's reason and
    citations (:func:`kubb3d.judge.options.decided_by`).

    Raises:
        JudgeInputError: a context id that is not a piece of the snapshot.
    """
    judgement = _judge_throw(after, ctx, params, hand_check)
    for name in sorted(ctx.options):
        value = changed_option(ctx.options, name, ctx.ruleset)
        if value is DEFAULT or name not in THROW_OPTIONS:
            continue
        plain = _judge_throw(after, replace(ctx, options={**ctx.options, name: default(name, ctx.ruleset)}), params,
                             hand_check)
        before = {r.piece: r for r in plain.rulings}
        rulings = tuple(r if before.get(r.piece) == r else decided_by(r, name, value, ctx.ruleset)
                        for r in judgement.rulings)
        judgement = replace(judgement, rulings=rulings)
    return judgement


THROW_OPTIONS = ("own_half_knock", "standing_outside", "first_foul_warning", "baseline_after_field",
                 "field_kubb_inside")
"""The referee options :func:`judge_throw` reads (kubb3d.judge.options: where)."""


def _judge_throw(
    after: Snapshot, ctx: ThrowContext, params: JudgeParams | None = None, hand_check: HandCheck | None = None
) -> ThrowJudgement:
    """:func:`judge_throw` without naming the options that decided a ruling."""
    book = get_rulebook(ctx.ruleset)
    params = params or book.params
    index = ContactIndex(after)
    pieces = after.pieces
    for name in ("field_kubbs", "already_felled", "pending_raise", "accidents"):
        unknown = sorted(set(getattr(ctx, name)) - set(pieces))
        if unknown:
            raise JudgeInputError(f"ThrowContext.{name} names pieces not in the snapshot: {unknown}")
    t = _Throw.read(ctx, book, pieces)
    tally = _Tally()
    judged = list(t.target_kubbs) + ([KING_ID] if KING_ID in pieces else [])
    judged += sorted(set(ctx.accidents) - set(judged))
    analysed = {
        pid: analyse(after, pid, params, hand_check, index=index)
        for pid in judged
        if pieces[pid].kind in ("kubb", "king")
    }
    downs = {
        pid: a.status is not Status.STANDING or turned_over(pieces[pid])
        for pid, a in analysed.items()
    }
    t = replace(t, field_down=frozenset(f for f in t.standing_field if downs.get(f, False)))
    for pid, a in analysed.items():
        p, down = pieces[pid], downs[pid]
        if pid in ctx.accidents:
            _rule_accident(tally, t, pid, a)
        elif pid == KING_ID:
            _rule_king(tally, t, pid, a, down)
        else:
            # a field kubb may stand partly out where it was raised (DM §7: "darf er an diese
            # herangeklappt werden und dann ggf. im Aus stehen"; under field_kubb_inside = half
            # also the US rule book): only one the throw moved was pushed and is set back inside
            start = ctx.round_start.get(pid)
            stays = start is not None and not _moved(p, start, params)
            _rule_target_kubb(tally, t, p, a, down, after.pitch, stays)
    _rule_own_half(tally, t, after, params, hand_check, index)
    _clear_set_inside(tally, after, params)
    return tally.judgement(t.warned)


def _stands_again_why(pid: str) -> str:
    """Why a piece that stands at rest counts as fallen by its history this round: it turned
    over (DM §5 „Überschlag mit anschließendem Stehen“; WS and KT read it so too)."""
    if pid == KING_ID:
        return msg("The king stands again but turned over (past lying) during the throw.")
    return msg(
        "{piece} stands again, but it turned over (its long axis went past lying) during this round, so it "
        "counts as fallen.",
        piece=pid,
    )


def _rule_accident(tally: _Tally, t: _Throw, pid: str, a: Analysis) -> None:
    """A piece moved by wind, ground or accident: stood up again at once (DM §5; WS notes)."""
    tally.stand_again(pid, a, t.cites.accident, _accident(pid), _raise_pose(t.ctx, pid), now=True)


def _rule_king(tally: _Tally, t: _Throw, pid: str, a: Analysis, down: bool) -> None:
    """The king: standing (nothing happens), felled by a king throw (won, or set up again after
    a foul), felled with every kubb down but not by a king throw (set up again), or felled
    early (lost) (DM §1, §10; WS "End of the Game")."""
    ctx, cites, hc = t.ctx, t.cites, a.hand_check
    if not down:
        touched = (
            (
                msg(" although {other} touches it", other=piece_name(a.touching[0]))
                if len(a.touching) == 1
                else msg(" although other pieces touch it")
            )
            if a.touching
            else ""
        )
        reason = msg("The king still stands on its own{touched}; only a felled king ends the game.", touched=touched)
        tally.rule(
            Ruling(
                piece=pid,
                status=a.status,
                consequence=Consequence.NONE,
                rules=cites.game_end,
                reason=reason,
                hand_check=hc,
            )
        )
        return
    raised = _raise_pose(ctx, pid)
    all_down = set(t.target_kubbs) <= set(ctx.already_felled)
    # the pieces decide, not the flag: a "king throw" while a kubb of the target half still
    # stood when it began fells the king early (DM §1, §10)
    king_throw = ctx.king_throw and all_down
    if king_throw and t.legal:
        tally.winner, tally.loser = ctx.thrower, t.target
        reason = msg(
            "Side {side} felled the king with a legal king throw after all kubbs were down, so side {side} "
            "wins.{warning}",
            side=ctx.thrower,
            warning=t.warn_text,
        )
        rules = tuple(dict.fromkeys(cites.king_throw_won + t.warn_rules))
        tally.rule(
            Ruling(
                piece=pid, status=a.status, consequence=Consequence.GAME_WON, rules=rules, reason=reason, hand_check=hc
            )
        )
    elif king_throw:
        reason = msg(
            "The king throw was not legal ({fouls}), so it does not count and the king is set up again.",
            fouls=t.foul_text,
        )
        rules = tuple(dict.fromkeys(t.foul_rules + cites.king_throw_invalid))
        tally.stand_again(pid, a, rules, reason, raised, now=True)
    elif t.target_kubbs and all_down and t.king_off_baseline == "raise":
        reason = msg(
            "All kubbs were down but this was not a king throw from the baseline, so the throw is invalid and the "
            "king is set up again."
        )
        tally.stand_again(pid, a, cites.king_throw_invalid, reason, raised, now=True)
    else:
        tally.winner, tally.loser = t.target, ctx.thrower
        why = (
            a.reason
            if a.status is not Status.STANDING
            else _stands_again_why(KING_ID)
        )
        if t.target_kubbs and all_down:
            reason = msg(
                "Side {side} felled the king, but not with a king throw from the baseline, so side {side} loses. "
                "({why})",
                side=ctx.thrower,
                why=why,
            )
        else:
            reason = msg(
                "Side {side} felled the king before all kubbs of side {target}'s half were down, so side {side} "
                "loses. ({why})",
                side=ctx.thrower,
                target=t.target,
                why=why,
            )
        tally.rule(
            Ruling(
                piece=pid,
                status=a.status,
                consequence=Consequence.GAME_LOST,
                rules=cites.game_end,
                reason=reason,
                hand_check=hc,
            )
        )


def _rule_target_kubb(
    tally: _Tally, t: _Throw, p: PieceState, a: Analysis, down: bool, pitch: Pitch, stays: bool = False
) -> None:
    """A kubb of the target half: to be raised from an earlier throw, already felled, still
    standing (perhaps set back inside; not when it ``stays``: unmoved where it was raised
    partly out), felled by an illegal throw (raised at once), a baseline kubb felled while field
    kubbs stood (raised at the end of the round), or felled (DM §5, §8; WS basic rules 7–9)."""
    ctx, cites, hc, pid = t.ctx, t.cites, a.hand_check, p.id
    raised = _raise_pose(ctx, pid)
    # lying on other kubbs after a throw: simply down (DM §5; WS basic rule 9: lies against
    # another hit kubb). DM §7's stößel clause is about inkasted kubbs.
    base_rules = cites.leaning if a.status is Status.STOSSEL else cites.for_status(a.status)
    if pid in ctx.pending_raise and not t.stand_again_now:
        # (a book that stands such kubbs up at once judges them as any kubb standing again)
        reason = msg(
            "{piece} was felled earlier while field kubbs stood, so it is raised at its spot at the end of the round.",
            piece=pid,
        )
        tally.stand_again(pid, a, cites.felled, reason, raised)
        return
    if pid in ctx.already_felled:
        if a.status is Status.STANDING:
            rules = cites.turned_over
            reason = msg(
                "{piece} stands again, but it was already felled earlier this round, so it still counts as felled.",
                piece=pid,
            )
        else:
            rules = base_rules
            reason = msg("{piece} was already felled earlier this round. {why}", piece=pid, why=a.reason)
        ruling = Ruling(
            piece=pid,
            status=a.status,
            consequence=Consequence.COUNTS_AS_FELLED,
            rules=rules,
            reason=reason,
            hand_check=hc,
        )
        tally.rule(ruling, counts=True)
        return
    if not down:
        outside = option(ctx.options, "standing_outside", ctx.ruleset)
        # a field kubb may be pushed out behind the baseline too; a baseline kubb stands on it
        end_x = pitch.baseline_x(t.target) if pid in ctx.field_kubbs else None
        inside = None if stays else _set_inside(p, pitch, end_x)
        if inside is not None and outside == "stays":
            ruling = Ruling(
                piece=pid,
                status=a.status,
                consequence=Consequence.NONE,
                rules=cites.felled,
                reason=_outside_words(pid, inside[1], inside[2], set_inside=False),
                hand_check=hc,
            )
        elif inside is None:
            ruling = Ruling(
                piece=pid,
                status=a.status,
                consequence=Consequence.NONE,
                rules=cites.felled,
                reason=a.reason,
                hand_check=hc,
            )
        else:
            pose, side_out, end_out = inside
            reason = _outside_words(pid, side_out, end_out, set_inside=True)
            ruling = Ruling(
                piece=pid,
                status=a.status,
                consequence=Consequence.SET_INSIDE,
                rules=cites.standing_outside,
                reason=reason,
                hand_check=hc,
                raised_pose=pose,
            )
        tally.rule(ruling)
        return
    if not t.legal:
        reason = msg(
            "{piece} fell to an illegal throw ({fouls}), so it does not count and is set up again.",
            piece=pid,
            fouls=t.foul_text,
        )
        tally.stand_again(pid, a, tuple(dict.fromkeys(t.foul_rules + cites.foul)), reason, raised, now=True)
        return
    field_first = pid not in ctx.field_kubbs and t.standing_field
    if field_first and not (t.by_order and _fell_after(pid, t.standing_field, ctx.fall_order, t.field_down)):
        if t.stand_again_now:
            reason = msg(
                "Baseline kubb {piece} was knocked over while field kubbs ({field}) still stood in its half, so it "
                "does not count and is stood up again at once.",
                piece=pid,
                field=", ".join(sorted(t.standing_field)),
            )
            tally.stand_again(pid, a, cites.felled, reason, raised, now=True)
            return
        reason = msg(
            "Baseline kubb {piece} fell while field kubbs ({field}) still stood in its half, so it does not count and "
            "is raised at its spot at the end of the round.",
            piece=pid,
            field=", ".join(sorted(t.standing_field)),
        )
        tally.stand_again(pid, a, cites.felled, reason, raised)
        return
    why: str
    if a.status is Status.STANDING:
        rules = cites.turned_over
        why = _stands_again_why(pid)
    else:
        rules, why = base_rules, a.reason
    if field_first:
        why = concat(
            why,
            nmsg(
                " Field kubb {field} stood when the throw began, but fell before it did, so it counts.",
                " Field kubbs {field} stood when the throw began, but all of them fell before it did, so it counts.",
                len(t.standing_field),
                field=", ".join(sorted(t.standing_field)),
            ),
        )
    ruling = Ruling(
        piece=pid,
        status=a.status,
        consequence=Consequence.COUNTS_AS_FELLED,
        rules=tuple(dict.fromkeys(rules + t.warn_rules)),
        reason=concat(why, t.warn_text),
        hand_check=hc,
    )
    tally.rule(ruling, counts=True, new=True)


def _rule_own_half(
    tally: _Tally, t: _Throw, after: Snapshot, params: JudgeParams, hand_check: HandCheck | None, index: ContactIndex
) -> None:
    """Kubbs standing in the thrower's own half that the throw moved: stood up again where they
    stood, at once or at the end of the round (option ``own_half_knock``)."""
    ctx = t.ctx
    ruled = {r.piece for r in tally.rulings}
    now = option(ctx.options, "own_half_knock", ctx.ruleset) == "raise now"
    for pid, pose in sorted(ctx.own_standing.items()):
        own = after.pieces.get(pid)
        if own is None or pid in ruled or own.kind != "kubb" or not _moved(own, pose, params):
            continue
        a = analyse(after, pid, params, hand_check, index=index)
        reason = msg(
            "{piece} stands in the thrower's own half and was moved by the throw, not aimed at; it is stood up again "
            "where it stood, {when}.",
            piece=pid,
            when=msg("at once") if now else msg("at the end of the round"),
        )
        tally.stand_again(pid, a, t.cites.own_half, reason, pose, now=now)


def _accident(pid: str) -> str:
    return msg("{piece} was moved by accident, not by a throw, so it is stood up again where it stood.", piece=pid)


def _no_period(text: str) -> str:
    """``text`` without a final full stop (a message that has none is kept as it is)."""
    return text.rstrip(".") if text.endswith(".") else text


def _fell_after(pid: str, field_kubbs: Iterable[str], fall_order: tuple[str, ...], down: frozenset[str]) -> bool:
    """Every one of ``field_kubbs`` went past its tipping angle before ``pid`` did, and is
    ``down`` at rest (a field kubb that only rocked past it and stands again did not fall:
    DM §5 „Überschlag“, docs/rules.md "DM §5 somersault")."""
    if pid not in fall_order:
        return False
    first = fall_order[: fall_order.index(pid)]
    return all(f in first and f in down for f in field_kubbs)


def _moved(p: PieceState, pose: Pose, params: JudgeParams) -> bool:
    """The piece is more than ``moved_tol`` from ``pose`` or its long axis turned more than
    ``flat_tilt`` from it."""
    if math.dist(p.position, pose.position) > params.moved_tol:
        return True
    a, b = body_axis(p.quat_xyzw), body_axis(pose.quat_xyzw)
    return dot3(a, b) < math.cos(params.flat_tilt)


def _set_inside(p: PieceState, pitch: Pitch, end_x: float | None = None) -> tuple[Pose, float, float] | None:
    """For a standing kubb whose base crosses a sideline, or the line ``end_x`` (the baseline
    behind a field kubb's half; None: not checked): (the pose moved back across those lines, along
    y and x, just far enough for the whole base to be inside, how far it was out across the
    sideline and across the baseline, m), else None."""
    if p.shape != "box":
        return None
    end = -1 if p.quat_xyzw and (1 - 2 * (p.quat_xyzw[0] ** 2 + p.quat_xyzw[1] ** 2)) >= 0 else 1
    face = end_face(p, end)
    ys = [c[1] for c in face]
    hw = pitch.half_width
    side_out = max(max(ys) - hw, -hw - min(ys))
    side_out = side_out if side_out > 1e-4 else 0.0
    dy = 0.0 if not side_out else (-side_out if max(ys) - hw >= -hw - min(ys) else side_out)
    end_out = 0.0
    if end_x is not None:
        xs = [c[0] for c in face]
        end_out = max(xs) - end_x if end_x > 0 else end_x - min(xs)
        end_out = end_out if end_out > 1e-4 else 0.0
    if not side_out and not end_out:
        return None
    dx = -end_out if end_x is not None and end_x > 0 else end_out
    x, y, z = p.position
    return Pose((x + dx, y + dy, z), p.quat_xyzw), side_out, end_out


def _outside_words(pid: str, side_out: float, end_out: float, set_inside: bool) -> Msg:
    """The reason of a ruling on a standing kubb pushed ``side_out`` across a sideline and
    ``end_out`` across the baseline behind its half (m): set back inside, or it stays."""
    if set_inside and not end_out:
        return msg(
            "{piece} still stands but was pushed {out_cm:.1f} cm across the sideline, so it is set back just "
            "inside the field (kubb3d's decision).",
            piece=pid,
            out_cm=side_out * 100,
        )
    if set_inside and not side_out:
        return msg(
            "{piece} still stands but was pushed {out_cm:.1f} cm across the baseline behind its half, so it is "
            "set back just inside the field (kubb3d's decision).",
            piece=pid,
            out_cm=end_out * 100,
        )
    if set_inside:
        return msg(
            "{piece} still stands but was pushed {side_cm:.1f} cm across the sideline and {end_cm:.1f} cm across "
            "the baseline behind its half, so it is set back just inside the field (kubb3d's decision).",
            piece=pid,
            side_cm=side_out * 100,
            end_cm=end_out * 100,
        )
    if not end_out:
        return msg(
            "{piece} still stands but was pushed {out_cm:.1f} cm across the sideline; it stays where it stands.",
            piece=pid,
            out_cm=side_out * 100,
        )
    if not side_out:
        return msg(
            "{piece} still stands but was pushed {out_cm:.1f} cm across the baseline behind its half; it stays "
            "where it stands.",
            piece=pid,
            out_cm=end_out * 100,
        )
    return msg(
        "{piece} still stands but was pushed {side_cm:.1f} cm across the sideline and {end_cm:.1f} cm across the "
        "baseline behind its half; it stays where it stands.",
        piece=pid,
        side_cm=side_out * 100,
        end_cm=end_out * 100,
    )


def _clear_set_inside(tally: _Tally, after: Snapshot, params: JudgeParams) -> None:
    """A kubb set back inside (option ``standing_outside``) is put on no other piece: not on one
    standing where the throw left it, not on the spot where one is stood up again (a baseline
    kubb it knocked over while field kubbs stood, DM §5), not on another kubb set inside. Its
    base is moved off them until they touch, as a raised kubb is (:func:`kubb3d.judge.clearing.clear_of`;
    docs/rules.md "Raising next to a disturbed kubb"); a piece that is down is no obstacle (it is
    picked up or moved aside, :mod:`kubb3d.match.room`). Without such a piece nothing changes."""
    by_piece = {r.piece: r for r in tally.rulings}
    placed = (Consequence.RAISE_AT_ORIGINAL_SPOT, Consequence.SET_INSIDE)
    for i, r in enumerate(tally.rulings):
        if r.consequence is not Consequence.SET_INSIDE or r.raised_pose is None:
            continue
        obstacles: dict[str, list[tuple[float, float]]] = {}
        for pid, q in sorted(after.pieces.items()):
            other = by_piece.get(pid)
            if pid == r.piece or q.kind not in ("kubb", "king"):
                continue
            if other is not None and other.consequence in placed and other.raised_pose is not None:
                q = state_at(q, other.raised_pose)
            elif other is not None and (other.status, other.consequence) != (Status.STANDING, Consequence.NONE):
                continue  # down: picked up, or moved aside
            obstacles[pid] = footprint(q)
        p = after.pieces[r.piece]
        axis = columns(rot(r.raised_pose.quat_xyzw))[0]
        length = math.hypot(axis[0], axis[1]) or 1.0
        centre = (r.raised_pose.position[0], r.raised_pose.position[1])
        cleared = clear_of(centre, (axis[0] / length, axis[1] / length), p.half_extents[0], obstacles, params)
        if cleared is None:
            continue
        (cx, cy), who, _least = cleared
        pose = Pose((cx, cy, r.raised_pose.position[2]), r.raised_pose.quat_xyzw)
        note = msg(" It would stand on {other}'s spot, so it is moved off it until they touch.", other=piece_name(who))
        tally.rulings[i] = replace(r, raised_pose=pose, reason=concat(r.reason, note))


def judge_accident(
    after: Snapshot,
    pieces: frozenset[str] | set[str],
    round_start: Mapping[str, Pose],
    ruleset: str = "dm",
    params: JudgeParams | None = None,
) -> tuple[Ruling, ...]:
    """Mark pieces moved by "wind, ground or accident": each is stood up again at once at its
    round-start spot (DM §5 "umgehend wieder aufgestellt"; WS notes: a kubb knocked over
    with the foot is set up again and does not count).

    Raises:
        UnknownNameError, JudgeInputError: unknown ruleset or piece.
    """
    rules = get_rulebook(ruleset).cites.accident
    params = params or DEFAULT_PARAMS
    index = ContactIndex(after)
    out = []
    for pid in sorted(pieces):
        a = analyse(after, pid, params, index=index)
        out.append(
            Ruling(
                piece=pid,
                status=a.status,
                consequence=Consequence.RAISE_AT_ORIGINAL_SPOT,
                rules=rules,
                reason=_accident(pid),
                hand_check=False,
                raised_pose=round_start.get(pid),
            )
        )
    return tuple(out)


@dataclass(frozen=True)
class KingThrowWarning:
    """What the referee says before a baton is thrown at the king while kubbs of the target
    half still stand: the king is thrown at only once every field and baseline kubb there is
    down (DM §10; WS "End of the Game"), and a king felled before that loses the game for the
    thrower (DM §1). ``message``: the sentence; ``rules``: its citations."""

    message: str
    rules: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly dict."""
        return {"message": self.message, "rules": list(self.rules)}


def early_king_warning(ruleset: str, thrower: Side, standing: Iterable[str]) -> KingThrowWarning | None:
    """The warning for a throw at the king by ``thrower`` while the kubbs ``standing`` (of the
    target half: field and baseline kubbs) still stand; None when none stands (a king throw)."""
    up = sorted(standing)
    if not up:
        return None
    book = get_rulebook(ruleset)
    king = (book.events["king"],) if "king" in book.events else ()  # the king throw's own rule (DM §10)
    text = nmsg(
        "Throwing at the king before every field and baseline kubb of side {target}'s half is down: {kubbs} "
        "still stands, so a king felled now loses the game for side {side}.",
        "Throwing at the king before every field and baseline kubb of side {target}'s half is down: {kubbs} "
        "still stand, so a king felled now loses the game for side {side}.",
        len(up),
        target=opponent(thrower),
        kubbs=join(up),
        side=thrower,
    )
    return KingThrowWarning(text, tuple(dict.fromkeys(king + book.cites.game_end)))

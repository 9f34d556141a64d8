"""Rulings after an inkast: validity and the raised pose of every inkasted kubb
(DM §6, §7; WS basic rules 10–14).

Raising (DM §7 "ohne Drehen oder Verschieben über eine der kurzen Kanten auf ihre
Grundfläche gekippt"): a kubb is turned about the bottom edge of one of its end
faces until it stands on that end face. Its new base is a w×w square that
starts at that edge and extends outwards, away from the rest of the kubb; the
rotation is the smallest one that brings that end face down, so the kubb is
neither turned about the vertical nor shifted.

* **Validity**: the whole base inside the field half (DM §7; WS basic rule 13:
  a kubb on the line is tipped into the field), lines included.
* **Direction**: if only one direction is valid, that one (DM §7). If both are
  valid, the raising side chooses; the judge picks an unblocked direction over
  a blocked one and then ``InkastContext.prefer``: ``back`` (default, towards
  the raising side's own baseline, away from the opponent) or ``front``; between two
  directions equally far from it (a kubb lying along the baseline), the one nearer the
  pitch's long axis, so that a mirrored situation is raised mirrored.
* **Together** (DM §7 "so aufzustellen, dass möglichst alle mit ihrer gesamten Grundfläche im
  Feld stehen"; WS basic rule 13): the lying kubbs of an inkast are raised so that as many as
  possible are valid, then stand wholly inside; every raising order and direction of kubbs whose
  squares can meet is searched (``_RaisingPlan.raise_lying_jointly``, :mod:`kubb3d.judge.together`).
  The preference above and the option ``raise_order`` decide only between equally good
  raisings, so the throwing order and the preference change no ruling that one of them could
  improve.
* **Block building** (DM §7): other kubbs, lying or standing, and the king
  block the tipping square; the kubb is then tipped up against the nearest
  blocker and may stand partly out (DM: still valid if the unblocked square
  would have been inside; WS is silent, so there the blocked pose itself must
  be inside). The king is never touched: a kubb tipped towards it stops
  ``king_clearance`` short (DM §7).
* **Leaning kubbs** (one end edge on the ground, resting on another kubb): tipped
  over that edge; if that lands out, the supporting kubb is raised first and the
  leaning kubb, now lying flat where it fell, is tipped over its other edge (DM §7).
* **Stößel** (on other kubbs, no ground contact): valid if tipped from its
  theoretical position (dropped flat straight down) it would stand fully
  inside; the inkasting side then places it freely at a valid spot (DM §7).
  The judge proposes a free spot (``raised_pose``). WS is silent; DM §7 applies
  by analogy.
* **Invalid kubbs**: thrown again once (DM §6, WS basic rule 11); after the
  second attempt they become penalty kubbs: under DM the opponent throws them
  into his own half from the same baseline, alternating until valid (DM §6);
  under WS the opponents place them freely in their own field at least one
  baton length from the king (WS basic rule 11).
* **Side effects**: other pieces moved or felled by the inkast are set up again
  where they stood (WS basic rule 14; DM §5 accident rule by analogy); a piece
  shifted by less than ``moved_tol`` gets no ruling but is put back on its spot
  too, and raising tips against the spots (kubb3d's decision); a king
  felled by an inkasted kubb loses the game for the inkasting side (DM §1;
  WS "End of the Game").

Stakes are obstacles; batons are not (they are picked up before inkasting).
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import cmp_to_key
from typing import Callable, Iterable, Iterator, Mapping

from kubb3d.errors import JudgeInputError
from kubb3d.judge.clearing import clear_of, push_clear
from kubb3d.judge.messages import ids, join, msg, piece_name
from kubb3d.judge.geometry import (
    UP,
    columns,
    corners,
    cross,
    footprint,
    overlap_depth,
    quat_from_rows,
    rot,
    square,
    unit,
    clip_halfplane,
)
from kubb3d.judge import together
from kubb3d.judge.options import DEFAULT, changed_option, decided_by, default, option
from kubb3d.judge.params import JudgeParams
from kubb3d.judge.rulebook import Rulebook, get_rulebook
from kubb3d.judge.rulings import Consequence, Pose, Ruling, Status
from kubb3d.judge.inkast import InkastContext, InkastJudgement
from kubb3d.judge.kubbuteo import judge_return
from kubb3d.judge.status import ContactIndex, analyse
from kubb3d.judge.tipping import (
    Poly,
    TipOption,
    inflate,
    inside_half,
    share_inside,
    snap_upright,
    state_at,
    tip_options,
    tip_pivot,
)
from kubb3d.pitch import KING_ID, Pitch, Side, opponent
from kubb3d.snapshot import GROUND_ID, PieceState, Snapshot

# ---------------------------------------------------------------- geometry of a tip
SAME_DISTANCE = 1e-3
"""m: two raised spots whose distances to the own baseline differ by less count as equally far
(kubb3d's tolerance for the raiser's preference; the rule books name none)."""


def _ground_ends(snapshot: Snapshot, index: ContactIndex, p: PieceState, params: JudgeParams) -> set[int]:
    """Which end(s) of a kubb touch the ground (±1); both for a kubb lying flat."""
    zb = columns(rot(p.quat_xyzw))[2]
    hz = p.half_extents[2]
    recs = index.by_piece.get(p.id)
    if recs is None:
        pts = [c for c in corners(p) if c[2] <= params.ground_tol]
    else:
        pts = [pos for other, pos, _n, _f in recs if other == GROUND_ID]
    ends = set()
    for pt in pts:
        zeta = (pt[0] - p.position[0]) * zb[0] + (pt[1] - p.position[1]) * zb[1] + (pt[2] - p.position[2]) * zb[2]
        if zeta >= hz - 2 * params.base_tol:
            ends.add(1)
        elif zeta <= -hz + 2 * params.base_tol:
            ends.add(-1)
        else:
            ends.update((1, -1))
    return ends


def judge_inkast(after: Snapshot, ctx: InkastContext, params: JudgeParams | None = None) -> InkastJudgement:
    """Rule on every inkasted kubb: valid or not, and where it stands after raising.

    In three steps: the pieces the inkast disturbed (:func:`_rule_disturbed`); a
    :class:`_RaisingPlan` that classifies the inkasted kubbs (leaning, lying, upright,
    stößel) and raises them one by one against what is already raised; then a ruling per
    inkasted kubb from the plan (:func:`_rule_inkasted`).

    Args:
        after: the snapshot at rest after all kubbs of this attempt were thrown.
        ctx: the inkast's context.
        params: tolerances (``baton_length`` for WS penalty kubbs).

    Returns:
        An :class:`InkastJudgement` (see the module doc for the rules applied).

    Raises:
        JudgeInputError: an inkasted id that is not a kubb of the snapshot.
    """
    book = get_rulebook(ctx.ruleset)
    if book.returns_by_flick:
        return judge_return(after, ctx, params or book.params)
    params = params or book.params
    pieces = after.pieces
    for kid in ctx.inkasted:
        if kid not in pieces or pieces[kid].kind != "kubb":
            raise JudgeInputError(f"inkasted piece {kid!r} is not a kubb of the snapshot")
    index = ContactIndex(after)
    inkasted = list(dict.fromkeys(ctx.inkasted))
    rulings, raise_now, winner, loser = _rule_disturbed(after, ctx, book, params, index, inkasted)
    plan = _RaisingPlan(after, ctx, book, params, index, inkasted)
    plan.raise_all()
    raised: dict[str, Pose] = {}
    penalty = None
    # the rulings an option at another value than the default decided: those the default changes
    plans = {}
    for name in ("raise_order", "field_kubb_inside"):
        if (value := changed_option(ctx.options, name, ctx.ruleset)) is not DEFAULT:
            plans[name, value] = _RaisingPlan(
                after,
                replace(ctx, options={**ctx.options, name: default(name, ctx.ruleset)}),
                book,
                params,
                index,
                inkasted,
            )
            plans[name, value].raise_all()
    for kid in inkasted:
        ruling = _rule_inkasted(plan, kid)
        for (name, value), other in plans.items():
            if _rule_inkasted(other, kid) != ruling:
                ruling = decided_by(ruling, name, value, ctx.ruleset)
        rulings.append(ruling)
        if ruling.raised_pose is not None:
            raised[kid] = ruling.raised_pose
        if ruling.consequence is Consequence.PENALTY_KUBB:
            penalty = "throw" if book.penalty == "throw" else "place"
    order = {k: i for i, k in enumerate(inkasted)}
    rulings.sort(
        key=lambda r: (0 if r.piece == KING_ID else 1 if r.piece in order else 2, order.get(r.piece, 0), r.piece)
    )
    return InkastJudgement(tuple(rulings), raised, penalty, frozenset(raise_now), winner, loser)


def _rule_disturbed(
    after: Snapshot, ctx: InkastContext, book: Rulebook, params: JudgeParams, index: ContactIndex, inkasted: list[str]
) -> tuple[list[Ruling], set[str], Side | None, Side | None]:
    """The king felled by the inkast (whoever threw the kubb loses, :attr:`InkastContext.feller`,
    DM §1; WS "End of the Game") and
    the pieces it moved or felled (set up again where they stood, WS basic rule 14; DM §5 by
    analogy): (rulings, ids to raise now, winner, loser)."""
    cites, pieces = book.cites, after.pieces
    rulings: list[Ruling] = []
    raise_now: set[str] = set()
    winner = loser = None
    king_down = False
    if KING_ID in pieces:
        ka = analyse(after, KING_ID, params, index=index)
        if ka.status is not Status.STANDING:
            king_down = True
            winner, loser = opponent(ctx.feller), ctx.feller
            reason = msg(
                "An inkasted kubb of side {side} felled the king before all kubbs were down, so side {side} loses.",
                side=ctx.feller,
            )
            rulings.append(
                Ruling(
                    piece=KING_ID,
                    status=ka.status,
                    consequence=Consequence.GAME_LOST,
                    rules=cites.game_end,
                    reason=reason,
                    hand_check=False,
                )
            )
    for pid, pose in sorted(ctx.before.items()):
        if pid in inkasted or pid not in pieces or pieces[pid].kind not in ("kubb", "king"):
            continue
        if pid == KING_ID and king_down or pid in ctx.awaiting:
            # a kubb awaiting its raising lies; moved, it is put back where it lay, no ruling
            continue
        a = analyse(after, pid, params, index=index)
        if math.dist(pieces[pid].position, pose.position) <= params.moved_tol and a.status is Status.STANDING:
            continue
        raise_now.add(pid)
        if a.status is not Status.STANDING:
            reason = msg(
                "{piece} was knocked over by an inkasted kubb, so it is set up again where it stood.",
                piece=piece_name(pid),
            )
        else:
            reason = msg(
                "{piece} was moved by an inkasted kubb, so it is set up again where it stood.", piece=piece_name(pid)
            )
        rulings.append(
            Ruling(
                piece=pid,
                status=a.status,
                consequence=Consequence.RAISE_AT_ORIGINAL_SPOT,
                rules=cites.inkast_disturbed,
                reason=reason,
                hand_check=False,
                raised_pose=pose,
            )
        )
    return rulings, raise_now, winner, loser


class _RaisingPlan:
    """Where each inkasted kubb of one inkast stands after raising (DM §7; WS basic rules
    10–13): the kubbs classified, the obstacles as the kubbs are raised one by one, the tip
    options tried for each, the one chosen (None: invalid) and a note on why.

    Every piece on the ground except batons and stößel is an obstacle; a piece that stood before
    the inkast is where it stood: one moved more than ``moved_tol`` is set up again there
    (:func:`_rule_disturbed`), one shifted less is put back too without a ruling (the match keeps
    one spot per standing kubb), so raised kubbs are tipped against the spots, not the shifted
    pieces (kubb3d decision, docs/rules.md "Raising next to a disturbed kubb").
    """

    def __init__(
        self,
        after: Snapshot,
        ctx: InkastContext,
        book: Rulebook,
        params: JudgeParams,
        index: ContactIndex,
        inkasted: list[str],
    ) -> None:
        self.ctx, self.book, self.params = ctx, book, params
        self.pieces, self.pitch = after.pieces, after.pitch
        self.inkasted = inkasted
        self.half_side = opponent(ctx.inkasting_side)
        self.baseline_x = self.pitch.baseline_x(self.half_side)
        self.analyses = {kid: analyse(after, kid, params, index=index) for kid in inkasted}
        self.stossel = [k for k in inkasted if self.analyses[k].status is Status.STOSSEL]
        self.upright = [k for k in inkasted if self.analyses[k].status is Status.STANDING]
        self.leaning: dict[str, tuple[int, str]] = {}
        for k in inkasted:
            a = self.analyses[k]
            if a.status in (Status.STOSSEL, Status.STANDING) or not a.grounded:
                continue
            kubb_support = [o for o in a.touching if o in self.pieces and self.pieces[o].kind == "kubb"]
            ends = _ground_ends(after, index, self.pieces[k], params)
            if kubb_support and len(ends) == 1:
                self.leaning[k] = (next(iter(ends)), kubb_support[0])
        self.lying = [k for k in inkasted if k not in self.stossel and k not in self.upright and k not in self.leaning]
        self.obstacles: dict[str, Poly] = {}
        for pid, p in self.pieces.items():
            if p.kind == "baton" or pid in self.stossel:
                continue
            if pid in ctx.awaiting and pid not in inkasted:
                p = state_at(p, ctx.awaiting[pid])
            elif pid in ctx.before and pid not in inkasted:
                p = state_at(p, ctx.before[pid])
            poly = footprint(p)
            if p.kind == "king":
                poly = inflate(poly, params.king_clearance)
            self.obstacles[pid] = poly
        self.half_counts = option(ctx.options, "field_kubb_inside", ctx.ruleset) == "half"
        self.options: dict[str, list[TipOption]] = {}
        self.chosen: dict[str, TipOption | None] = {}
        self.notes: dict[str, str] = {}
        self.reaches: dict[str, tuple[float, float, float, float]] = {}

    # ------------------------------------------------------------ choosing a tip
    def others(self, kid: str) -> dict[str, Poly]:
        return {o: poly for o, poly in self.obstacles.items() if o != kid}

    def valid(self, o: TipOption) -> bool:
        """Its whole base inside, or (block building, DM §7) tipped against a blocker with the
        unblocked square inside; under the option ``field_kubb_inside`` = ``half`` (US rule
        book) also at least half of its base's area inside."""
        if o.inside:
            return True
        if self.book.block_building and bool(o.blocked_by) and o.ideal_inside:
            return True
        return self.half_counts and share_inside(o.base, self.pitch, self.half_side, self.params.line_tol) >= 0.5

    def ordered(self, opts: Iterable[TipOption]) -> list[TipOption]:
        """``opts`` in the raising side's order of choice: unblocked first, then
        ``InkastContext.prefer`` (the raised spot's distance to the own baseline; two spots less
        than ``SAME_DISTANCE`` apart count as equally far, so a kubb lying along the baseline is
        not sent one way by a few micrometres of its pose), then nearer the pitch's long axis
        (y = 0: a mirrored situation is raised mirrored; DM §7 leaves the short edge free), then
        towards +y (a kubb centred on the long axis); never by which end is which."""
        sign = 1.0 if self.ctx.prefer == "back" else -1.0

        def distance(o: TipOption) -> float:
            return sign * abs(o.pose.position[0] - self.baseline_x)

        def compare(a: TipOption, b: TipOption) -> int:
            if bool(a.blocked_by) != bool(b.blocked_by):
                return 1 if a.blocked_by else -1
            if abs(distance(a) - distance(b)) >= SAME_DISTANCE:
                return -1 if distance(a) < distance(b) else 1
            key_a, key_b = (
                (round(abs(a.pose.position[1]), 6), -a.pose.position[1]),
                (
                    round(abs(b.pose.position[1]), 6),
                    -b.pose.position[1],
                ),
            )
            return (key_a > key_b) - (key_a < key_b)

        return sorted(opts, key=cmp_to_key(compare))

    def pick(self, opts: list[TipOption]) -> TipOption | None:
        """An unblocked valid option over a blocked one, then ``InkastContext.prefer``."""
        good = [o for o in opts if self.valid(o)]
        if not good:
            return None
        return self.ordered(good)[0]

    def commit(self, kid: str, opt: TipOption | None) -> None:
        if opt is not None:
            opt = self.off_the_spots(kid, opt)
        self.chosen[kid] = opt
        if opt is not None:
            self.obstacles[kid] = opt.base

    def off_the_spots(self, kid: str, opt: TipOption) -> TipOption:
        """A raised base that overlaps another piece's footprint (a kubb that lay where a kubb
        it knocked over is set up again, WS basic rule 14, DM §5; or where an earlier kubb was
        raised) is moved straight off it until they touch (kubb3d's decision, as for a kubb
        that landed upright on a spot); its validity stays that of its tipping."""
        half = self.pieces[kid].half_extents[0]
        xb = columns(rot(opt.pose.quat_xyzw))[0]
        d2 = unit((xb[0], xb[1], 0.0))[:2]
        centre = (opt.pose.position[0], opt.pose.position[1])
        pushed = clear_of(centre, d2, half, self.others(kid), self.params)
        if pushed is None:
            return opt
        (cx, cy), who, least = pushed
        base = square((cx, cy), d2, half)
        inside = inside_half(base, self.pitch, self.half_side, self.params.line_tol)
        note = (
            msg("it would stand on {other}'s spot, so it is moved off it until they touch", other=piece_name(who))
            if least is None
            else msg(
                "it would stand on {other}'s spot, and no straight move off it clears the pieces there, "
                "so it is moved the least way, {distance:.2f} m, until it only touches them",
                other=piece_name(who),
                distance=least,
            )
        )
        self.notes[kid] = join([self.notes[kid], note], "; ") if kid in self.notes else note
        pose = Pose((cx, cy, opt.pose.position[2]), opt.pose.quat_xyzw)
        return TipOption(opt.end, pose, base, opt.ideal, opt.blocked_by, inside or opt.inside, opt.ideal_inside)

    # ------------------------------------------------------------ raising
    def raise_all(self) -> None:
        """Leaning kubbs first (in throwing order), then lying ones (chosen together,
        :meth:`raise_lying_jointly`), then the upright ones, then stößel."""
        for kid in self.inkasted:
            if kid in self.leaning:
                self.raise_leaning(kid)
        # the order of raising decides which of two kubbs with overlapping tipping squares gets
        # its square and which is tipped up against it (option raise_order, DM §7 names none)
        raise_order = list(self.inkasted)
        if option(self.ctx.options, "raise_order", self.ctx.ruleset) == "nearest baseline first":
            raise_order.sort(key=lambda k: abs(self.pieces[k].position[0] - self.baseline_x))  # stable
        self.raise_lying_jointly([kid for kid in raise_order if kid in self.lying])
        for kid in self.upright:
            self.stand_upright(kid)
        for kid in self.stossel:
            self.place_stossel(kid)

    def raise_lying(self, kid: str) -> None:
        """One lying kubb the raiser's preferred way, against what is raised already (a supporter
        raised before the kubb leaning on it, DM §7)."""
        if kid in self.chosen:
            return
        self.take(kid, self.raisings(kid)[0])

    def raisings(self, kid: str) -> list[tuple[TipOption | None, bool]]:
        """The ways the rules allow to raise lying kubb ``kid`` against the obstacles as they are
        now, most preferred first: (option, tipped in from the line). The valid tips in the order
        of :meth:`ordered` (DM §7: if only one direction is valid, that one); else, a kubb on
        the line, each way of tipping it into the field (WS basic rule 13); else ``[(None,
        False)]``, invalid. Sets ``options[kid]``."""
        opts = self.tips(kid, self.others(kid))
        self.options[kid] = opts
        good = self.ordered(o for o in opts if self.valid(o))
        if good:
            return [(o, False) for o in good]
        if self.on_the_line(footprint(self.pieces[kid])):
            tipped = list(self._tipped_in(kid, opts))
            if tipped:
                return [(o, True) for o in tipped]
        return [(None, False)]

    def tips(self, kid: str, obstacles: Mapping[str, Poly]) -> list[TipOption]:
        """:func:`tip_options` of lying kubb ``kid`` into the raising half, against ``obstacles``."""
        return tip_options(self.pieces[kid], self.pitch, self.half_side, obstacles, self.params)

    def take(self, kid: str, raising: tuple[TipOption | None, bool]) -> tuple[int, int]:
        """Commit one of :meth:`raisings`; (1 if valid, 1 if its base stands wholly inside)."""
        opt, tipped = raising
        if tipped:
            self.notes[kid] = msg("it came to rest on the line, so it is tipped into the field")
        self.commit(kid, opt)
        got = self.chosen[kid]
        return (0, 0) if got is None else (1, int(got.inside))

    def raise_lying_jointly(self, order: list[str]) -> None:
        """Raise the lying kubbs ``order`` (the option ``raise_order``'s order) so that as many
        as possible are valid, then stand with their whole base in the field (DM §7 "so
        aufzustellen, dass möglichst alle mit ihrer gesamten Grundfläche im Feld stehen"; WS basic
        rule 13: a kubb on the line must be tipped in, so it is not raised where another kubb
        would keep it out).

        First the preferred raising in ``order``; a group of kubbs whose reaches meet
        (:func:`kubb3d.judge.together.groups`) keeps it if it has each of them valid and wholly
        inside. Otherwise every raising order of the group (``order`` first) and every allowed
        way of each kubb (:meth:`raisings`, preferred first) is searched depth first
        (:func:`kubb3d.judge.together.search`); the first best one found is kept, so the
        raiser's preference and ``order`` decide only between raisings that keep equally many
        kubbs valid and inside."""
        todo = [kid for kid in order if kid not in self.chosen]
        start = together.saved(self)
        gains = {kid: self.take(kid, self.raisings(kid)[0]) for kid in todo}
        if all(gain == (1, 1) for gain in gains.values()):
            return
        for group in together.groups(self, todo):
            if all(gains[kid] == (1, 1) for kid in group):
                continue  # groups do not meet: this one's preferred raising stays
            for kid in group:
                together.unraise(self, kid, start)
            together.search(self, group)

    # ------------------------------------------------------------ on the line (WS basic rule 13)
    def on_the_line(self, poly: Poly) -> bool:
        """Under a book whose kubbs on a line are tipped in (:attr:`Rulebook.on_line`): the
        ground footprint ``poly`` lies partly inside the field half (more than ``block_tol``
        over a line into it), so the kubb came to rest on the line."""
        if self.book.on_line != "tip in":
            return False
        lo, hi = (-self.pitch.length / 2, 0.0) if self.half_side == "A" else (0.0, self.pitch.length / 2)
        hw, tol = self.pitch.half_width, self.params.block_tol
        part = list(poly)
        limits = (((1.0, 0.0), hi - tol), ((-1.0, 0.0), -(lo + tol)), ((0.0, 1.0), hw - tol), ((0.0, -1.0), hw - tol))
        for n, c in limits:
            part = clip_halfplane(part, n, c)
            if not part:
                return False
        return True

    def tip_in(self, kid: str, opts: list[TipOption]) -> TipOption | None:
        """A kubb on the line tipped into the field (WS basic rule 13): each way to raise it, in
        the order :meth:`pick` prefers, moved straight across the line(s) just far enough for
        its whole base to be inside, then off any piece it would stand on; the first that ends
        inside and free (None: none does, the kubb is ruled as off the field)."""
        for tipped in self._tipped_in(kid, opts):
            self.notes[kid] = msg("it came to rest on the line, so it is tipped into the field")
            return tipped
        return None

    def _tipped_in(self, kid: str, opts: list[TipOption]) -> Iterator[TipOption]:
        """Every way :meth:`tip_in` tries that ends inside and free, in its order."""
        order = self.ordered(opts)
        lo, hi = (-self.pitch.length / 2, 0.0) if self.half_side == "A" else (0.0, self.pitch.length / 2)
        hw = self.pitch.half_width
        half = self.pieces[kid].half_extents[0]
        others = self.others(kid)
        inward = 1e-6  # m: a micrometre past the line, so that rounding cannot leave it on the line
        for o in order:
            xs, ys = [x for x, _ in o.base], [y for _, y in o.base]
            dx = max(0.0, lo - min(xs)) - max(0.0, max(xs) - hi)
            dy = max(0.0, -hw - min(ys)) - max(0.0, max(ys) - hw)
            dx, dy = dx + math.copysign(inward, dx) * (dx != 0.0), dy + math.copysign(inward, dy) * (dy != 0.0)
            centre = (o.pose.position[0] + dx, o.pose.position[1] + dy)
            xb = columns(rot(o.pose.quat_xyzw))[0]
            d2 = unit((xb[0], xb[1], 0.0))[:2]
            pushed = push_clear(centre, d2, half, others, self.params)
            if pushed is not None:
                centre = pushed[0]
            base = square(centre, d2, half)
            free = all(overlap_depth(base, poly) <= self.params.block_tol for poly in others.values())
            if free and inside_half(base, self.pitch, self.half_side, self.params.line_tol):
                pose = Pose((centre[0], centre[1], o.pose.position[2]), o.pose.quat_xyzw)
                yield TipOption(o.end, pose, base, base, "", True, True)

    def raise_leaning(self, kid: str) -> None:
        """Over its ground edge; if that lands out, its supporter is raised first and it is
        tipped over its other edge from where it now lies flat (DM §7)."""
        end, supporter = self.leaning[kid]
        p = self.pieces[kid]
        first = tip_options(p, self.pitch, self.half_side, self.others(kid), self.params, ends=(end,))
        self.options[kid] = list(first)
        if self.valid(first[0]):
            self.commit(kid, first[0])
            self.notes[kid] = msg(
                "it leaned on {other} with one edge on the ground, so it is tipped over that edge", other=supporter
            )
            return
        if supporter in self.lying or supporter in self.leaning:
            if supporter in self.leaning:
                self.leaning.pop(supporter)
                self.lying.append(supporter)
            self.raise_lying(supporter)
        pivot, d = tip_pivot(p, end)
        length = 2 * p.half_extents[2]
        far = (pivot[0] - d[0] * length, pivot[1] - d[1] * length)
        second = tip_options(
            p,
            self.pitch,
            self.half_side,
            self.others(kid),
            self.params,
            ends=(-end,),
            pivots={-end: (far, (-d[0], -d[1]))},
        )
        self.options[kid] = list(first) + list(second)
        self.commit(kid, second[0] if self.valid(second[0]) else None)
        self.notes[kid] = msg(
            "tipped over its ground edge it would stand out, so {other} is raised first and {piece} is tipped over "
            "its other edge",
            other=supporter,
            piece=kid,
        )

    def stand_upright(self, kid: str) -> None:
        """A kubb that landed upright stands where it is (moved off a spot it overlaps)."""
        p = self.pieces[kid]
        rows = snap_upright(rot(p.quat_xyzw))
        base_c = (p.position[0], p.position[1])
        xb = columns(rows)[0]
        d2 = unit((xb[0], xb[1], 0.0))[:2]
        base = square(base_c, d2, p.half_extents[0])
        note: str = msg("it landed upright on its base")
        pushed = clear_of(base_c, d2, p.half_extents[0], self.others(kid), self.params)
        if pushed is not None:
            # it stands on the spot of a kubb set up again there (WS basic rule 14, DM §5), or
            # overlaps another: moved straight off it until they touch, or if that cannot clear
            # it, the least way (kubb3d's decision)
            base_c, who, least = pushed
            base = square(base_c, d2, p.half_extents[0])
            note = (
                msg(
                    "it landed upright on its base where {other} stands, so it is moved off {other} until they touch",
                    other=piece_name(who),
                )
                if least is None
                else msg(
                    "it landed upright on its base where {other} stands, and no straight move off {other} clears "
                    "the pieces there, so it is moved the least way, {distance:.2f} m, until it only touches them",
                    other=piece_name(who),
                    distance=least,
                )
            )
        inside = inside_half(base, self.pitch, self.half_side, self.params.line_tol)
        stood = TipOption(
            -1, Pose((base_c[0], base_c[1], p.half_extents[2]), quat_from_rows(rows)), base, base, "", inside, inside
        )
        self.options[kid] = [stood]
        self.notes[kid] = note
        chosen: TipOption | None = stood if self.valid(stood) else None
        if chosen is None and self.on_the_line(base):
            chosen = self.tip_in(kid, [stood])
        self.commit(kid, chosen)

    def place_stossel(self, kid: str) -> None:
        """Valid from its theoretical position (dropped flat); then a proposed free spot (DM §7)."""
        p = self.pieces[kid]
        opts = tip_options(_flat_on_ground(p), self.pitch, self.half_side, {}, self.params)
        self.options[kid] = opts
        good = [o for o in opts if o.inside]
        if not good:
            self.chosen[kid] = None
            return
        spot = _free_spot(self.ordered(good), self.others(kid), self.pitch, self.half_side, self.params,
                          p.half_extents, self.ordered)
        self.chosen[kid] = spot
        if spot is not None:
            self.obstacles[kid] = spot.base


def _rule_inkasted(plan: _RaisingPlan, kid: str) -> Ruling:
    """The ruling on one inkasted kubb from the plan: placed freely (stößel), raised where the
    plan tipped it, thrown again (first attempt) or a penalty kubb (DM §6, §7; WS basic rules
    10–13)."""
    ctx, cites, params = plan.ctx, plan.book.cites, plan.params
    a = plan.analyses[kid]
    opt = plan.chosen.get(kid)
    if opt is not None and kid in plan.stossel:
        reason = msg(
            "{piece} lies on {others} without touching the ground and would stand fully inside "
            "from where it lies, so side {side} places it anywhere valid in the field.",
            piece=kid,
            others=ids(a.supporters),
            side=ctx.inkasting_side,
        )
        return Ruling(
            piece=kid,
            status=a.status,
            consequence=Consequence.PLACE_FREELY,
            rules=cites.stossel,
            reason=reason,
            hand_check=False,
            raised_pose=opt.pose,
            valid=True,
        )
    if opt is not None:
        return Ruling(
            piece=kid,
            status=a.status,
            consequence=Consequence.RAISE_HERE,
            rules=cites.raising,
            reason=_raised_reason(plan, kid, opt),
            hand_check=False,
            raised_pose=opt.pose,
            valid=True,
        )
    if kid in plan.stossel:
        why = msg(
            "{piece} lies on {others} and from its theoretical position it would not stand fully inside the field",
            piece=kid,
            others=ids(a.supporters),
        )
    elif kid in plan.upright and plan.half_counts:  # option field_kubb_inside = half (US)
        why = msg("{piece} stands with less than half of its base inside the field", piece=kid)
    elif kid in plan.upright:
        why = msg("{piece} stands with part of its base outside the field", piece=kid)
    elif plan.half_counts:
        why = msg(
            "{piece} cannot be raised with at least half of its base inside the field in either direction", piece=kid
        )
    else:
        why = msg("{piece} cannot be raised with its whole base inside the field in either direction", piece=kid)
    if ctx.attempt == 1:
        return Ruling(
            piece=kid,
            status=a.status,
            consequence=Consequence.RETHROW,
            rules=cites.inkast_invalid,
            reason=msg("{why}, so the inkast is invalid and it is thrown again once.", why=why),
            hand_check=False,
            raised_pose=None,
            valid=False,
        )
    if plan.book.penalty == "throw":
        reason = msg(
            "{why} after the rethrow, so it becomes a penalty kubb: side {half} throws it into its own "
            "half from the same baseline, alternating with side {side} until it lands valid.",
            why=why,
            half=plan.half_side,
            side=ctx.inkasting_side,
        )
    else:
        reason = msg(
            "{why} after the rethrow, so it becomes a penalty kubb: side {half} places it by hand wherever it "
            "likes in its own field, at least one baton length ({baton_m:.2f} m) from the king.",
            why=why,
            half=plan.half_side,
            baton_m=params.baton_length,
        )
    return Ruling(
        piece=kid,
        status=a.status,
        consequence=Consequence.PENALTY_KUBB,
        rules=cites.penalty_kubb,
        reason=reason,
        hand_check=False,
        raised_pose=None,
        valid=False,
    )


def _raised_reason(plan: _RaisingPlan, kid: str, opt: TipOption) -> str:
    """Why a valid kubb is raised where it is: the plan's note, a blocker, the only valid
    direction, the king's clearance."""
    opts = plan.options[kid]
    single = (
        sum(1 for o in opts if plan.valid(o)) == 1
        and len(opts) > 1
        and kid not in plan.leaning
        and kid not in plan.upright
    )
    parts = [plan.notes[kid]] if kid in plan.notes else []
    if opt.blocked_by:
        other = piece_name(opt.blocked_by)
        parts.append(
            msg("it is tipped up against {other}", other=other)
            if opt.inside
            else msg("it is tipped up against {other} and may stand partly out", other=other)
        )
    if not opt.inside and not opt.blocked_by and plan.half_counts:
        share = share_inside(opt.base, plan.pitch, plan.half_side, plan.params.line_tol)
        # rounded down (a base not wholly inside never reads 100 %), past float error (0.6 as 0.5999…)
        share = math.floor(share * 100 + 1e-9) / 100
        parts.append(msg("{share:.0%} of its base is inside the field, and half is enough", share=share))
    if single and plan.half_counts:
        parts.append(msg("only one direction keeps at least half of its base inside the field, so that one is used"))
    elif single:
        parts.append(msg("only one direction keeps its whole base inside the field, so that one is used"))
    if any(o.blocked_by == KING_ID for o in opts):
        parts.append(msg("it must not touch the king"))
    where = {"piece": kid, "x": opt.pose.position[0], "y": opt.pose.position[1]}
    if kid in plan.upright and opt.end == -1:  # on its base already: nothing to tip (DM §7)
        moved = [part for part in parts if part != msg("it landed upright on its base")]
        if moved:
            return msg(
                "{piece} is valid and is not tipped: {detail}; it stands at ({x:.2f}, {y:.2f}) m.",
                **where,
                detail=join(moved, "; "),
            )
        return msg(
            "{piece} is valid and is not tipped, as it landed upright on its base; it stays standing where it is, "
            "at ({x:.2f}, {y:.2f}) m.",
            **where,
        )
    detail = join(parts, "; ")
    if detail:
        return msg(
            "{piece} is valid and is raised over its short edge at ({x:.2f}, {y:.2f}) m: {detail}.",
            **where,
            detail=detail,
        )
    return msg("{piece} is valid and is raised over its short edge at ({x:.2f}, {y:.2f}) m.", **where)


def _flat_on_ground(p: PieceState) -> PieceState:
    """The theoretical position of a stößel: dropped straight down to lie flat on the ground,
    same xy and heading (DM §7 "theoretische Position")."""
    r = rot(p.quat_xyzw)
    xb, yb, zb = columns(r)
    a = (zb[0], zb[1], 0.0)
    if math.hypot(a[0], a[1]) < 1e-9:
        a = (1.0, 0.0, 0.0)
    a = unit(a)
    lat = unit(cross(UP, a))
    down_face = cross(lat, a)  # vertical (right-handed: x̂ = ŷ × ẑ)
    rows = ((down_face[0], lat[0], a[0]), (down_face[1], lat[1], a[1]), (down_face[2], lat[2], a[2]))
    return replace(p, position=(p.position[0], p.position[1], p.half_extents[0]), quat_xyzw=quat_from_rows(rows))


def _free_spot(
    good: list[TipOption],
    obstacles: Mapping[str, Poly],
    pitch: Pitch,
    side: Side,
    params: JudgeParams,
    half_extents: tuple[float, float, float],
    order: Callable[[Iterable[TipOption]], list[TipOption]],
) -> TipOption | None:
    """A valid spot for a stößel: its theoretical raised square if free (the first free one of
    ``good``, in the raising side's order), else the nearest free square on rings around the
    first of ``good`` (step one kubb width, 8 squares per ring and step). The squares of a ring
    are equally near: the free one first in ``order`` (:meth:`_RaisingPlan.ordered`: towards the
    side's preferred end, then nearer the long axis) is taken, never the first one counted
    round the ring from +x, so a mirrored or side-swapped situation is proposed the image spot."""
    half = half_extents[0]
    for o in good:
        if all(overlap_depth(o.base, poly) <= params.block_tol for poly in obstacles.values()):
            return o
    o = good[0]
    cx, cy = o.pose.position[0], o.pose.position[1]
    step = 2 * half + 2 * params.block_tol
    xd = columns(rot(o.pose.quat_xyzw))[0]
    d2 = unit((xd[0], xd[1], 0.0))[:2]
    for ring in range(1, 40):
        free: list[TipOption] = []
        for i in range(8 * ring):
            ang = 2 * math.pi * i / (8 * ring)
            c = (cx + ring * step * math.cos(ang), cy + ring * step * math.sin(ang))
            base = square(c, d2, half)
            if not inside_half(base, pitch, side, params.line_tol):
                continue
            if all(overlap_depth(base, poly) <= params.block_tol for poly in obstacles.values()):
                pose = Pose((c[0], c[1], o.pose.position[2]), o.pose.quat_xyzw)
                free.append(TipOption(o.end, pose, base, base, "", True, True))
        if free:
            return order(free)[0]
    return None

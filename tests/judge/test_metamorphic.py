"""Metamorphic tests of the judge (issue #37): relations between situations, not hand-picked
examples. Each test draws a situation after a throw or an inkast (hand-built snapshots, no
physics), transforms it, and checks that the rulings follow:

* mirroring the pitch across its long axis (y -> -y) mirrors every ruling;
* swapping the sides (a half turn about the king, or x -> -x; A <-> B in ids, sides, thrower)
  swaps them;
* relabelling kubbs changes only their names;
* moving a situation within a half, away from every line, stake, baseline kubb and the
  king, moves the raised poses with it and changes nothing else;
* every ruling is monotone across its threshold (tilt, history, share of the footprint
  inside the field, a lag baton's distance, a placed kubb's distance to the king).

The generated positions sit on a millimetre grid shifted by 0.3 mm, so that no corner lies
exactly on a line and the transformed situation cannot fall on the other side of a line by
rounding alone. ``benchmarks/metamorphic.py`` runs the same relations with many more cases.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable

import pytest
from helpers import (
    HALF_TURN,
    HX,
    HZ,
    MIRROR_X,
    MIRROR_Y,
    G,
    Transform,
    assert_rulings_follow,
    ground_contacts,
    kubb,
    leaning_pair,
    rows_tilt,
)
from helpers import ruling_key as _key
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kubb3d.judge import InkastContext, ThrowContext, judge_inkast, judge_throw
from kubb3d.judge.geometry import footprint, overlap_depth, quat_from_rows
from kubb3d.judge.rulings import Pose
from kubb3d.judge.params import DEFAULT_PARAMS
from kubb3d.pitch import KING_ID, PITCHES
from kubb3d.snapshot import Contact, PieceState, Snapshot

EXAMPLES = 60
"""Generated cases per relation in the suite (benchmarks/metamorphic.py runs thousands)."""

# ---------------------------------------------------------------------- situations
def grid(lo_mm: int, hi_mm: int) -> st.SearchStrategy[float]:
    """m on a millimetre grid shifted by 0.3 mm (no corner exactly on a line)."""
    return st.integers(lo_mm, hi_mm).map(lambda mm: (mm + 0.3) / 1000.0)


def _free(pieces: list[PieceState], p: PieceState, gap: float = 0.002) -> bool:
    poly = footprint(p)
    return all(overlap_depth(poly, footprint(o)) < -gap for o in pieces)


@st.composite
def throw_situations(draw, region: tuple[int, int, int] = (150, 3850, 2400), sideline: bool = True):
    """A snapshot after a baton throw of side A at side B's half (DM pitch, standard kubbs),
    with its context: B's baseline kubbs standing or lying at their spots, 0–3 field kubbs
    (ids of side A's kubbs, standing, tilted or lying) in ``region`` (x from, x to, |y| up
    to, mm), perhaps a kubb leaning on another there (A5 on A4) and one standing across a
    sideline (A6, if ``sideline``), the king standing (or, after a king throw, lying)."""
    pitch = PITCHES["dm"]
    x_lo, x_hi, y_max = region
    pieces: list[PieceState] = []
    round_start: dict[str, Pose] = {}
    lying: list[str] = []
    for pid, (bx, by) in pitch.baseline_kubb_positions("B").items():
        down = draw(st.booleans())
        if down:
            p = kubb(pid, bx - 0.1 - HZ, by + 0.0003, lying_yaw_deg=180.0 + draw(st.integers(-30, 30)))
            lying.append(pid)
        else:
            p = kubb(pid, bx, by, tilt_deg=draw(st.floats(0.0, 12.0)), toward_deg=draw(st.floats(-180, 180)))
        pieces.append(p)
        round_start[pid] = Pose((bx, by, HZ), (0.0, 0.0, 0.0, 1.0))
    field_ids = [f"A{i}" for i in range(1, draw(st.integers(0, 3)) + 1)]
    field: list[str] = []
    for pid in field_ids:
        x, y = draw(grid(x_lo, x_hi)), draw(grid(-y_max, y_max))
        form = draw(st.sampled_from(["standing", "tilted", "lying"]))
        if form == "lying":
            p = kubb(pid, x, y, lying_yaw_deg=draw(st.integers(-179, 180)) + 0.3)
        elif form == "tilted":  # past its tipping angle and held by nothing: fallen
            p = kubb(pid, x, y, tilt_deg=draw(st.floats(30.0, 60.0)), toward_deg=draw(st.floats(-180, 180)))
        else:
            p = kubb(pid, x, y, tilt_deg=draw(st.floats(0.0, 12.0)), toward_deg=draw(st.floats(-180, 180)))
        if not _free(pieces, p):
            continue
        pieces.append(replace(p, side="B"))
        field.append(pid)
        if form != "standing":
            lying.append(pid)
        round_start[pid] = Pose((x, y, HZ), (0.0, 0.0, 0.0, 1.0))
    extra_contacts: list[Contact] = []
    if draw(st.booleans()):
        # a kubb leaning on a standing one (A5 on A4), turned and moved into the region
        support, leaning, touching = leaning_pair(draw(st.floats(28.0, 40.0)))
        yaw = math.radians(draw(st.integers(-179, 180)) + 0.3)
        c, s = math.cos(yaw), math.sin(yaw)
        place = Transform(
            ((c, -s, 0.0), (s, c, 0.0), (0.0, 0.0, 1.0)),
            (draw(grid(x_lo, x_hi)) - c, draw(grid(-y_max, y_max)) - s),
            {"S": "A4", "L": "A5"},
        )
        pair = [replace(place.piece(p), side="B") for p in (support, leaning)]
        if all(_free(pieces, p) for p in pair) and all(abs(p.position[1]) < 2.3 and 0.1 < p.position[0] < 3.9
                                                        for p in pair):
            pieces += pair
            field += ["A4", "A5"]
            lying.append("A5")
            for p in pair:
                round_start[p.id] = Pose((p.position[0], p.position[1], HZ), (0.0, 0.0, 0.0, 1.0))
            extra_contacts.append(place.contact(touching))
    if sideline and draw(st.booleans()):
        # a kubb standing across the sideline, partly outside (set back inside, a kubb3d decision)
        y = (2500 - draw(st.integers(5, 30))) / 1000.0 * draw(st.sampled_from([1, -1]))
        p = replace(kubb("A6", draw(grid(500, 3500)), y + 0.0003), side="B")
        if _free(pieces, p):
            pieces.append(p)
            field.append("A6")
            round_start["A6"] = Pose((p.position[0], p.position[1], HZ), (0.0, 0.0, 0.0, 1.0))
    all_down = len(lying) == len(pieces)
    king_throw = all_down and draw(st.booleans())
    king_down = draw(st.booleans()) if all_down or draw(st.integers(0, 9)) == 0 else False
    king = PieceState(KING_ID, "king", "box", (0.045, 0.045, 0.15), (0.0003, 0.0003, 0.15), (0.0, 0.0, 0.0, 1.0), 1.5,
                      (0.0, 0.0, -0.01))
    if king_down:
        rows = rows_tilt(math.radians(draw(st.integers(-179, 180)) + 0.3), math.pi / 2)
        king = replace(king, position=(0.2003, 0.0003, 0.045), quat_xyzw=quat_from_rows(rows), max_tilt=math.pi / 2)
    round_start[KING_ID] = Pose((0.0, 0.0, 0.15), (0.0, 0.0, 0.0, 1.0))
    pieces.append(king)
    # which of the lying kubbs were felled before this throw; which field kubbs stood at its start
    earlier = frozenset(pid for pid in lying if draw(st.booleans()))
    standing_at_start = frozenset(pid for pid in field if pid not in earlier)
    legal = draw(st.integers(0, 4)) > 0
    contacts: list[Contact] = list(extra_contacts)
    for p in pieces:
        contacts += ground_contacts(p)
    snapshot = Snapshot(0.0, {p.id: p for p in pieces}, tuple(contacts), pitch, G)
    ctx = ThrowContext(
        ruleset=draw(st.sampled_from(["dm", "wikinger"])),
        thrower="A",
        legal=legal,
        violations=() if legal else (("DM §5", "the baton tilted 40° out of the vertical plane of its flight"),),
        king_throw=king_throw,
        round_start=round_start,
        field_kubbs=standing_at_start,
        already_felled=earlier,
    )
    return snapshot, ctx


@st.composite
def inkast_situations(draw, region: tuple[int, int, int] = (-3950, -50, 2550), lines: bool = True):
    """A snapshot after side B inkasted 1–4 kubbs (B1…B4) into side A's half: lying in
    ``region`` (x from, x to, |y| up to, mm: by default across the lines too), among 0–2
    standing field kubbs (A's kubbs of an earlier turn, ids A4, A5) and the standing king."""
    ruleset = draw(st.sampled_from(["dm", "wikinger"]))
    pitch = PITCHES[ruleset]
    x_lo, x_hi, y_max = region
    x_lo = max(x_lo, int(-pitch.length / 2 * 1000) - 60)
    pieces: list[PieceState] = [
        PieceState(KING_ID, "king", "box", (0.045, 0.045, 0.15), (0.0003, 0.0003, 0.15), (0.0, 0.0, 0.0, 1.0), 1.5,
                   (0.0, 0.0, -0.01))
    ]
    for pid in ("A4", "A5")[: draw(st.integers(0, 2))]:
        p = replace(kubb(pid, draw(grid(x_lo + 100, x_hi - 100)), draw(grid(-2300, 2300))), side="A")
        if _free(pieces, p):
            pieces.append(p)
    inkasted = []
    for pid in ("B1", "B2", "B3", "B4")[: draw(st.integers(1, 4))]:
        x, y = draw(grid(x_lo, x_hi)), draw(grid(-y_max, y_max))
        p = replace(kubb(pid, x, y, lying_yaw_deg=draw(st.integers(-179, 180)) + 0.3), side="A")
        if _free(pieces, p, gap=0.0005):
            pieces.append(p)
            inkasted.append(pid)
    assume(inkasted)
    contacts: list[Contact] = []
    for p in pieces:
        contacts += ground_contacts(p)
    snapshot = Snapshot(0.0, {p.id: p for p in pieces}, tuple(contacts), pitch, G)
    ctx = InkastContext(
        ruleset=ruleset,
        inkasting_side="B",
        inkasted=tuple(inkasted),
        attempt=draw(st.sampled_from([1, 2])),
        prefer=draw(st.sampled_from(["back", "front"])),
    )
    return snapshot, ctx


def _throw_relation(transform: Transform) -> Callable:
    def check(situation) -> None:
        snapshot, ctx = situation
        before = judge_throw(snapshot, ctx)
        after = judge_throw(transform.snapshot(snapshot), transform.throw_context(ctx))
        assert_rulings_follow(before, after, transform)

    return check


def _inkast_relation(transform: Transform) -> Callable:
    def check(situation) -> None:
        snapshot, ctx = situation
        before = judge_inkast(snapshot, ctx)
        after = judge_inkast(transform.snapshot(snapshot), transform.inkast_context(ctx))
        assert_rulings_follow(before, after, transform)

    return check


SYMMETRIES = {
    "mirror y": Transform(MIRROR_Y),
    "half turn, sides swapped": Transform(HALF_TURN, swap_sides=True),
    "mirror x, sides swapped": Transform(MIRROR_X, swap_sides=True),
}

RELAXED = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                             HealthCheck.filter_too_much])


# ---------------------------------------------------------------------- symmetries
@pytest.mark.parametrize("name", list(SYMMETRIES))
@RELAXED
@given(situation=throw_situations())
def test_throw_rulings_follow_a_mirror_or_a_swap_of_sides(name, situation):
    _throw_relation(SYMMETRIES[name])(situation)


@pytest.mark.parametrize("name", list(SYMMETRIES))
@RELAXED
@given(situation=inkast_situations())
def test_inkast_rulings_follow_a_mirror_or_a_swap_of_sides(name, situation):
    _inkast_relation(SYMMETRIES[name])(situation)


# ---------------------------------------------------------------------- names
@RELAXED
@given(situation=throw_situations(), order=st.permutations(["A1", "A2", "A3", "A4", "A5", "A6"]))
def test_relabelling_field_kubbs_changes_only_names(situation, order):
    _throw_relation(Transform(names=dict(zip(["A1", "A2", "A3", "A4", "A5", "A6"], order))))(situation)


@RELAXED
@given(situation=inkast_situations(), order=st.permutations(["B1", "B2", "B3", "B4"]))
def test_relabelling_inkasted_kubbs_changes_only_names(situation, order):
    _inkast_relation(Transform(names=dict(zip(["B1", "B2", "B3", "B4"], order))))(situation)


# ---------------------------------------------------------------------- moving within a half
@RELAXED
@given(
    situation=throw_situations(region=(900, 2900, 1500), sideline=False),
    dx=st.integers(-400, 400),
    dy=st.integers(-500, 500),
)
def test_moving_field_kubbs_within_the_half_changes_nothing(situation, dx, dy):
    """The field kubbs (and the region they lie in) moved away from every line, stake, the
    baseline kubbs and the king: the baseline kubbs and the king stay where they are."""
    snapshot, ctx = situation
    shift = (dx / 1000.0, dy / 1000.0)
    moved = Transform(shift=shift)
    keep = Transform()
    pieces = {pid: (moved if pid.startswith("A") else keep).piece(p) for pid, p in snapshot.pieces.items()}
    contacts = tuple((moved if c.a.startswith("A") else keep).contact(c) for c in snapshot.contacts)
    shifted = Snapshot(snapshot.time, pieces, contacts, snapshot.pitch, snapshot.gravity)
    round_start = {k: (moved if k.startswith("A") else keep).pose(v) for k, v in ctx.round_start.items()}
    before = judge_throw(snapshot, ctx)
    after = judge_throw(shifted, replace(ctx, round_start=round_start))
    by_piece = {r.piece: r for r in after.rulings}
    for r in before.rulings:
        assert _key(by_piece[r.piece]) == _key(r), (r.piece, r.reason, by_piece[r.piece].reason)
    assert (before.felled, before.raise_again, before.winner) == (after.felled, after.raise_again, after.winner)


@RELAXED
@given(
    situation=inkast_situations(region=(-3000, -900, 1500), lines=False),
    dx=st.integers(-400, 400),
    dy=st.integers(-500, 500),
)
def test_moving_an_inkast_within_the_half_moves_its_raised_kubbs(situation, dx, dy):
    snapshot, ctx = situation
    king = snapshot.pieces[KING_ID]
    others = {pid: p for pid, p in snapshot.pieces.items() if pid != KING_ID}
    # the whole group must stay clear of the king (a raised kubb stops short of it, DM §7)
    assume(all(math.hypot(p.position[0] + dx / 1000, p.position[1] + dy / 1000) > 0.6 for p in others.values()))
    assume(all(math.hypot(p.position[0], p.position[1]) > 0.6 for p in others.values()))
    transform = Transform(shift=(dx / 1000.0, dy / 1000.0))
    pieces = {pid: transform.piece(p) for pid, p in others.items()} | {KING_ID: king}
    contacts = tuple(c if c.a == KING_ID else transform.contact(c) for c in snapshot.contacts)
    shifted = Snapshot(snapshot.time, pieces, contacts, snapshot.pitch, snapshot.gravity)
    assert_rulings_follow(judge_inkast(snapshot, ctx), judge_inkast(shifted, ctx), transform)


# ---------------------------------------------------------------------- thresholds
def _throw_ruling(p: PieceState, *, ruleset: str = "dm"):
    snapshot = Snapshot(0.0, {p.id: p}, tuple(ground_contacts(p)), PITCHES[ruleset], G)
    return judge_throw(snapshot, ThrowContext(ruleset=ruleset, thrower="A")).ruling(p.id)


@settings(max_examples=EXAMPLES, deadline=None)
@given(t1=st.floats(0.0, 60.0), t2=st.floats(0.0, 60.0), toward=st.floats(-180, 180))
def test_a_kubb_is_felled_monotonically_in_its_tilt(t1, t2, toward):
    """More tilt never turns "fallen" back into "standing" (nothing holds the kubb)."""
    lo, hi = sorted((t1, t2))
    low = _throw_ruling(kubb("B1", 2.0003, 0.0003, tilt_deg=lo, toward_deg=toward))
    high = _throw_ruling(kubb("B1", 2.0003, 0.0003, tilt_deg=hi, toward_deg=toward))
    order = {"standing": 0, "leaning": 1, "fallen": 2, "stößel": 2}
    assert order[low.status.value] <= order[high.status.value], (lo, hi, low.reason, high.reason)
    # standing while the centre of mass projects at least tip_margin inside the pivot edge:
    # HX cos t - HZ sin t = r cos(t + atan2(HZ, HX)) >= tip_margin (1 mm), solved for t
    reach = math.hypot(HX, HZ)
    threshold = math.degrees(math.acos(DEFAULT_PARAMS.tip_margin / reach) - math.atan2(HZ, HX))  # 24.3°
    if abs(lo - threshold) > 0.01:
        assert (low.status.value == "standing") == (lo < threshold), (lo, threshold, low.reason)


@settings(max_examples=EXAMPLES, deadline=None)
@given(m1=st.floats(0.0, 180.0), m2=st.floats(0.0, 180.0))
def test_the_history_counts_a_kubb_felled_monotonically(m1, m2):
    """An upright kubb with a larger largest tilt this round is never less felled (DM §5)."""
    lo, hi = sorted((m1, m2))
    low = _throw_ruling(kubb("B1", 2.0003, 0.0003, max_tilt_deg=lo))
    high = _throw_ruling(kubb("B1", 2.0003, 0.0003, max_tilt_deg=hi))
    felled = "counts as felled"
    assert not (low.consequence.value == felled and high.consequence.value != felled), (lo, hi)
    threshold = 90.0  # DM §5 „Überschlag“: turned over, past lying (not the tipping angle)
    if abs(lo - threshold) > 0.01:
        assert (low.consequence.value == felled) == (lo > threshold), (lo, low.reason)


def _across(pid: str, line_y: float, inside: float, along: float, ruleset: str) -> Snapshot:
    """A kubb lying across the left sideline (+y) of side A's half with the fraction ``inside`` of
    its length inside the field."""
    y = line_y - (inside - 0.5) * 2 * HZ
    p = replace(kubb(pid, along, y, lying_yaw_deg=90.0), side="A")
    return Snapshot(0.0, {pid: p}, tuple(ground_contacts(p)), PITCHES[ruleset], G)


@pytest.mark.parametrize("ruleset", ["dm", "wikinger"])
@settings(max_examples=EXAMPLES, deadline=None)
@given(f1=st.floats(0.0, 1.0), f2=st.floats(0.0, 1.0), along=grid(-3500, -500))
def test_an_inkast_is_valid_monotonically_in_its_share_inside(ruleset, f1, f2, along):
    """More of the kubb inside the field never makes a valid inkast invalid."""
    lo, hi = sorted((f1, f2))
    line = PITCHES[ruleset].half_width
    ctx = InkastContext(ruleset=ruleset, inkasting_side="B", inkasted=("B1",))
    low = judge_inkast(_across("B1", line, lo, along, ruleset), ctx).ruling("B1")
    high = judge_inkast(_across("B1", line, hi, along, ruleset), ctx).ruling("B1")
    assert not (low.valid and not high.valid), (lo, hi, low.reason, high.reason)


@pytest.mark.parametrize("ruleset", ["dm", "wikinger"])
@settings(max_examples=EXAMPLES, deadline=None)
@given(d1=st.floats(0.0, 2.0), d2=st.floats(0.0, 2.0), heading=st.floats(-math.pi, math.pi))
def test_a_placed_kubb_is_allowed_monotonically_in_its_distance_to_the_king(ruleset, d1, d2, heading):
    """A hand-placed penalty kubb farther from the king (same direction) is never refused for
    its distance once a nearer spot was allowed (DM §7, WS basic rule 11)."""
    from kubb3d.rules import MatchState, get_ruleset

    rules = get_ruleset(ruleset)
    state = MatchState(rules, ("P1", "P2"))
    lo, hi = sorted((d1, d2))
    half = "A" if math.cos(heading) < 0 else "B"
    near = rules.placement_error(state, "X", half, (lo * math.cos(heading), lo * math.sin(heading)))
    far = rules.placement_error(state, "X", half, (hi * math.cos(heading), hi * math.sin(heading)))
    if near is None:
        assert far is None or "king" not in far, (lo, hi, far)
    need = rules.min_king_distance_m
    if hi < need - 1e-9:
        assert far is not None

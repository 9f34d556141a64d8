"""Judge scenarios: TOML files holding one rule situation and the rulings a referee
should give (``scenarios/*.toml``).

A scenario is built in physics (:class:`~kubb3d.physics.world.World`), left to
settle (≤ 2 s simulated), judged by :func:`kubb3d.judge.judge_throw` or
:func:`kubb3d.judge.judge_inkast` (with the DM §5 physics hand check), and the
rulings are compared with the expected ones.

Schema version 1 (every length in m, every angle in degrees, names end in ``_deg``)::

    schema = 1
    title = "Kubb leaning on a field kubb"
    ruleset = "dm"                 # dm | wikinger | kubbuteo (table scale, rule book KT)
    equipment = "standard"         # default: dm-small for dm, standard for wikinger
    pitch = "dm"                   # dm | wikinger | {length = 8.0, width = 5.0}; default: ruleset's
    setup = "standard"             # standard: ten baseline kubbs and the king; empty: nothing
    event = "throw"                # throw | inkast
    quiz = ["B1"]                  # pieces the quiz asks about (default: the first expected one)

    [throw]                        # event = "throw"
    thrower = "A"
    legal = true
    violations = [{rule = "DM §5", reason = "foot over the baseline"}]
    king_throw = false
    field_kubbs = ["B1"]           # default: kubbs of the target half that are not its baseline kubbs
    hand_check = true

    [inkast]                       # event = "inkast"
    inkasting_side = "B"
    inkasted = ["B1", "B2"]
    attempt = 1
    prefer = "back"

    [[pieces]]                     # added to / replacing the setup's pieces
    id = "B1"
    kind = "kubb"                  # kubb | king | baton (default from the id)
    place = "leaning"              # see below
    on = "A3"
    tilt_deg = 30
    from_deg = 180

    [[expect]]                     # optional for `kubb3d judge` (then it only rules)
    piece = "B1"
    status = "leaning"
    consequence = "counts as felled"
    rules = ["DM §5"]              # each must be cited

    [outcome]                      # optional
    winner = "A"

Placements (``place``):

========================  ==========================================================
``standing``              upright at ``at`` = [x, y], ``yaw_deg``; ``upside_down``
``baseline``              upright at its baseline spot (ids A1…B5) or the king's spot
``lying``                 flat at ``at``, long axis along ``yaw_deg``
``tilted``                pivoting on a base edge: base centre ``at``, ``tilt_deg``
                          towards ``toward_deg``
``leaning``               leaning at ``tilt_deg`` on piece ``on`` (kubb, king, stake,
                          baton), its foot on the side ``from_deg`` of it
``stacked``               lying on the pieces ``on`` (a list), above their centre or
                          ``at``, axis along ``yaw_deg`` (a stößel)
``across_line``           lying across ``line`` (``sideline-left``, ``sideline-right``: left
                          and right as seen from side A's baseline, so left is +y;
                          ``centre``, ``baseline-A``, ``baseline-B``) at ``along``, with
                          the fraction ``inside`` of its length in half ``half``
``pose``                  explicit ``position`` (bounding-box centre) and ``quat_xyzw``
========================  ==========================================================

Kubbuteo (``ruleset = "kubbuteo"``): equipment ``kubbuteo``, the board as pitch and ground
(the floor 0.75 m below; a piece placed there by ``pose`` is off the board); ``lying`` lays a
disk kubb on a face; the judge's tolerances are scaled to the disks
(the ``kubbuteo`` rule book's :attr:`~kubb3d.judge.rulebook.Rulebook.params`).

Piece history: ``max_tilt_deg`` (largest angle of the long axis from the upright direction of
its last set-up or the start of the round, DM §5; an upright or upside-down kubb starts at
0), ``max_lean_deg`` = [sideways, in plane] (the same split by direction, for a Kubbuteo
kubb towards a face and along its rim: :attr:`~kubb3d.snapshot.PieceState.max_lean`; the
whole turn is then at least the larger of the two), ``felled_earlier``
(already ruled felled this round), ``accident`` (moved by wind/ground/accident),
``origin`` = [x, y] (spot at the start of the round, for raising again).

Errors: :class:`ScenarioError` names the file, the field and what was expected;
overlapping pieces are named as a pair.

This module judges a scenario (:func:`run`, :func:`judge_built`); the file's model is in
:mod:`kubb3d.scenario_spec`, reading and finding files in :mod:`kubb3d.scenario_load`, building
in physics in :mod:`kubb3d.scenario_build`, comparing with the expected rulings in
:mod:`kubb3d.scenario_expect`. Their public names are importable from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from kubb3d.errors import ScenarioError as ScenarioError
from kubb3d.judge import InkastContext, JudgeParams, ThrowContext, judge_inkast, judge_throw
from kubb3d.judge.messages import concat, known, msg
from kubb3d.judge.rulebook import get_rulebook
from kubb3d.pitch import baseline_ids, opponent
from kubb3d.ranges import listed
from kubb3d.scenario_build import (  # importable from here as before
    OVERLAP_TOL as OVERLAP_TOL,
    SETTLE_TIME as SETTLE_TIME,
    Built as Built,
    build as build,
)
from kubb3d.scenario_load import check_all as check_all, collect as collect, load as load  # as before
from kubb3d.scenario_spec import (  # importable from here as before
    MAX_COORD_M as MAX_COORD_M,
    RAISED_TOL as RAISED_TOL,
    SCHEMA_VERSION as SCHEMA_VERSION,
    Coord as Coord,
    Deg as Deg,
    ExpectSpec as ExpectSpec,
    HistoryDeg as HistoryDeg,
    InkastSpec as InkastSpec,
    OutcomeSpec as OutcomeSpec,
    PieceSpec as PieceSpec,
    PitchSpec as PitchSpec,
    RulesetName as RulesetName,
    ScenarioSpec as ScenarioSpec,
    ThrowSpec as ThrowSpec,
    changes_options as changes_options,
    judge_options as judge_options,
)


# ---------------------------------------------------------------- judging
@dataclass
class Result:
    """A judged scenario.

    Attributes:
        path: the file.
        spec: the validated file.
        judgement: a ThrowJudgement or InkastJudgement.
        mismatches: differences from the expected rulings (empty: as expected).
        hand_checks: physics hand checks run.
    """

    path: Path
    spec: ScenarioSpec
    judgement: Any
    mismatches: list[str] = field(default_factory=list)
    hand_checks: int = 0
    not_compared: tuple[str, ...] = ()
    """Pieces (and ``outcome``) whose expectations were not compared: options other than the
    file's own (``judge --option``) change their rulings (:mod:`kubb3d.scenario_expect`)."""

    @property
    def compared(self) -> bool:
        """The file states expectations that the rulings were compared with."""
        return has_expectations(self.spec)

    def to_dict(self) -> dict:
        return {
            "file": str(self.path),
            "title": self.spec.title,
            "ruleset": self.spec.ruleset,
            **self.judgement.to_dict(),
            "ok": not self.mismatches,
            "compared": self.compared,
            "mismatches": self.mismatches,
            "not_compared": list(self.not_compared),
        }


def has_expectations(spec: ScenarioSpec) -> bool:
    """The file says what the rulings should be (``[[expect]]`` or ``[outcome]``); without,
    ``kubb3d judge`` only rules (a referee's "what is the ruling here?"), ``--check`` and the
    quiz refuse it."""
    return bool(spec.expect) or spec.outcome is not None


def judge_built(b: Built, options: Mapping[str, Any] | None = None) -> tuple[Any, int]:
    """Judge a built scenario; returns (judgement, number of hand checks run). ``options``:
    referee options over the file's own ``[options]`` (:func:`judge_options`).

    Raises:
        ScenarioError: a context field names a piece that does not exist.
    """
    from kubb3d.handcheck import PhysicsHandCheck

    spec, snap = b.spec, b.snapshot
    if spec.ruleset == "kubbuteo":
        params = get_rulebook("kubbuteo").params  # lengths scaled to the disks (KT)
    else:
        params = JudgeParams(baton_length=spec.equipment_set.baton.length)
    specs = {p.id: p for p in spec.pieces}
    if spec.event == "throw":
        t = spec.throw or ThrowSpec()
        target = opponent(t.thrower)
        felled_earlier = frozenset(p.id for p in spec.pieces if p.felled_earlier)
        if t.field_kubbs is None:
            fk = frozenset(
                pid
                for pid, p in snap.pieces.items()
                if p.kind == "kubb"
                and p.side == target
                and pid not in baseline_ids(target)
                and pid not in felled_earlier
            )
        else:
            fk = frozenset(t.field_kubbs)
        ctx_args = dict(
            ruleset=spec.ruleset,
            thrower=t.thrower,
            legal=t.legal,
            violations=tuple((v["rule"], known(v["reason"])) for v in t.violations),  # a catalog message
            king_throw=t.king_throw,
            round_start=b.round_start,
            options={**spec.options, **(options or {})},
            field_kubbs=fk,
            already_felled=felled_earlier,
            accidents=frozenset(p.id for p in spec.pieces if p.accident),
            # kubbs of the thrower's own half with an ``origin``: where they stood when the
            # throw began (one the throw moved is stood up again there)
            own_standing={
                p.id: b.round_start[p.id]
                for p in spec.pieces
                if p.origin is not None
                and p.id in b.round_start
                and snap.pieces.get(p.id) is not None
                and snap.pieces[p.id].side == t.thrower
                and not p.felled_earlier
            },
        )
        for name in ("field_kubbs", "already_felled", "accidents"):
            bad = sorted(set(ctx_args[name]) - set(snap.pieces))
            if bad:
                raise ScenarioError(concat(f"{b.path}: throw.{name}: ", msg("unknown pieces {ids}", ids=listed(bad))))
        hc = PhysicsHandCheck(spec.equipment_set, spec.ground_name) if t.hand_check else None
        j = judge_throw(snap, ThrowContext(**ctx_args), params, hc)
        return j, (hc.calls if hc else 0)
    k = spec.inkast
    bad = sorted(set(k.inkasted) - set(snap.pieces))
    if bad:
        raise ScenarioError(concat(f"{b.path}: inkast.inkasted: ", msg("unknown pieces {ids}", ids=listed(bad))))
    notkubb = [i for i in k.inkasted if snap.pieces[i].kind != "kubb"]
    if notkubb:
        raise ScenarioError(concat(f"{b.path}: inkast.inkasted: ", msg("expected kubbs, got {got}", got=str(notkubb))))
    before = {}
    for pid, p in snap.pieces.items():
        if p.kind not in ("kubb", "king") or pid in k.inkasted:
            continue
        ps = specs.get(pid)
        if ps is not None and ps.origin is not None:
            before[pid] = b.round_start[pid]
        elif ps is None or ps.place in ("standing", "baseline"):
            before[pid] = b.initial[pid]
    referee = {**spec.options, **(options or {})}
    ctx = InkastContext(spec.ruleset, k.inkasting_side, tuple(k.inkasted), k.attempt, before, k.prefer, referee)
    return judge_inkast(snap, ctx, params), 0


def compare(spec: ScenarioSpec, judgement: Any, skip: Sequence[str] = ()) -> list[str]:
    """Differences between a judgement and the file's expectations
    (:func:`kubb3d.scenario_expect.compare`)."""
    from kubb3d.scenario_expect import compare as differences

    return differences(spec, judgement, skip)


def run(
    path: str | Path, *, keep_world: bool = False, options: Mapping[str, Any] | None = None
) -> tuple[Result, Built | None]:
    """Load, build, settle, judge and compare one scenario (``options``: referee options over
    the file's own, :func:`judge_options`).

    Returns:
        (result, built) — ``built`` only if ``keep_world`` (the caller closes it).

    Raises:
        ScenarioError: see :func:`load` and :func:`build`.
    """
    from kubb3d.scenario_expect import touched

    built = build(path)
    try:
        judgement, calls = judge_built(built, options)
        # expectations are written for the file's own options: what other options change is not compared
        own = judge_built(built)[0] if changes_options(built.spec, options) else judgement
        skip = touched(own, judgement)
        res = Result(Path(path), built.spec, judgement, compare(built.spec, judgement, skip), calls, skip)
    except Exception:
        built.close()
        raise
    if keep_world:
        return res, built
    built.close()
    return res, None


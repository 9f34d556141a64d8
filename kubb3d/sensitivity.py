"""``kubb3d sensitivity``: the uncertainty budget of the headline figures over the material and
ground parameters nobody measured (docs/sensitivity.md).

Figures (DM pitch, ``dm-small`` set, grass unless said; the presets of :mod:`kubb3d.players`):

* ``felled-novice``, ``felled-club``, ``felled-elite``: kubbs felled per baton at 8 m
  (:func:`kubb3d.calibrate.baton_trial`, the throws of ``kubb3d calibrate``);
* ``slide``: mean slide of a baton after it lands on the ground, m, over the same throws of all
  three presets (those whose first contact is the ground);
* ``flick``: Kubbuteo kubbs knocked per baseline flick, club (:func:`kubb3d.calibrate.flick_trial`);
* ``match``: share of club-v-club DM matches the first player (P1, who opens) wins.

Parameters varied: the rows of :data:`kubb3d.physics.parameters.PARAMETERS` with a range that are
unmeasured (:attr:`Parameter.unmeasured`) and apply to the figure's ground (grass, or the board
for flicks), and wood on wood; wood-on-wood friction is measured, but the engine's one
coefficient stands for the static and the kinetic value, so its range spans both
(:data:`MODEL_CHOICE`).

Designs: one at a time (every parameter at its low and its high end, the others shipped) with
common random numbers: each point throws the same seeded throws, so an effect is a paired
difference with its 95 % interval; and Morris's elementary effects (SALib, ``num_levels`` 4),
whose μ* is the mean absolute change of the figure when one parameter moves by two thirds of its
range, per whole range. Matches cost seconds each and their outcome is a coin toss: they are
played one at a time only, at the ends of the parameters that move the kubbs felled per baton
most (a screening: a match is thrown baton by baton), ``match_drivers`` of them.
Every trial has its own child seed, so nothing depends on the number of worker processes.
"""

from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from kubb3d.calibrate import SKILL_NAMES, baton_trial, flick_trial, mean_ci, wilson
from kubb3d.experiment.stats import no_interval, t95
from kubb3d.physics.parameters import PARAMETERS, Parameter, materials
from kubb3d.physics.world import DT
from kubb3d.workers import map_jobs
from kubb3d.ranges import counted

MODEL_CHOICE = {
    "WOOD_ON_WOOD_FRICTION": "measured, but the engine's one coefficient stands for the static and the kinetic "
    "value: the range spans both"
}
"""Measured parameters varied all the same, with why."""

LAWN = "grass"
BOARD = "board"
FLICK_SKILL = "club"
MATCH_SKILLS = ("club", "club")
MORRIS_LEVELS = 4

FIGURES: dict[str, tuple[str, str]] = {
    **{f"felled-{s}": (f"{s}: kubbs felled per baton at 8 m", LAWN) for s in SKILL_NAMES},
    "slide": ("baton slide after landing from 8 m, mean, m", LAWN),
    "flick": (f"{FLICK_SKILL}: Kubbuteo kubbs knocked per baseline flick", BOARD),
    "match": ("club v club DM matches won by the first player (P1)", LAWN),
}
"""Figure key → (label, the ground whose parameters it is varied over). The labels of the felled
and flick figures are those of docs/calibration.md."""


def varied(ground: str, only: Sequence[str] | None = None) -> list[Parameter]:
    """The parameters varied for figures on ``ground`` (module doc), in the table's order;
    with ``only``, those of its codes alone."""
    rows = [
        p
        for p in PARAMETERS
        if p.low < p.high
        and (p.code.startswith(f"ground:{ground}.") or p.code.startswith("WOOD_ON_WOOD_"))
        and (p.unmeasured or p.code in MODEL_CHOICE)
    ]
    return [p for p in rows if only is None or p.code in only]


def candidates() -> list[str]:
    """Every code :func:`varied` can give (what ``--parameter`` takes)."""
    return list(dict.fromkeys(p.code for g in (LAWN, BOARD) for p in varied(g)))


# ---------------------------------------------------------------------- trials (picklable)
def _match_seed(seed: int, j: int) -> int:
    return int(np.random.SeedSequence(seed, spawn_key=(j,)).generate_state(1)[0])


def match_trial(args) -> bool:
    """One club-v-club DM match (seed ``_match_seed(seed, j)``); True when P1 wins."""
    from kubb3d.match import MatchConfig, play

    j, seed = args
    outcome, match = play(MatchConfig(ruleset="dm", skills=MATCH_SKILLS, seed=_match_seed(seed, j)))
    close = getattr(match, "close", None)
    if close is not None:
        close()
    return outcome.winner == "P1"


def run_job(job) -> Any:
    """One trial under overridden parameters: ``(kind, overrides, args)`` with kind ``throw``
    (:func:`baton_trial`, returns (felled, slide or None)), ``flick`` (knocked) or ``match``
    (P1 won)."""
    from kubb3d.physics.ground import use_materials

    kind, overrides, args = job
    with use_materials(materials(dict(overrides))):
        if kind == "throw":
            r = baton_trial(args)
            return r["felled"], r["slide"]
        if kind == "flick":
            return flick_trial(args)["knocked"]
        return match_trial(args)


# ---------------------------------------------------------------------- the report
@dataclass
class Effect:
    """A figure with one parameter at one end of its range, the others shipped.

    Attributes:
        code: the parameter's code. end: ``low`` or ``high``. setting: its value there.
        value: the figure. delta: value − the shipped figure (mean of the paired differences).
        low, high: delta's 95 % interval (Student's t, paired; ±∞ for one pair). pairs: trials
            compared.
    """

    code: str
    end: str
    setting: float
    value: float
    delta: float
    low: float
    high: float
    pairs: int

    @property
    def resolved(self) -> bool:
        """The interval excludes zero."""
        return self.low > 0 or self.high < 0


@dataclass
class MorrisRow:
    """Morris elementary effects of one parameter on one figure (SALib ``morris.analyze``):
    ``mu_star`` (± ``mu_star_conf``, 95 % bootstrap), ``mu``, ``sigma``; figure units per range."""

    code: str
    mu_star: float
    mu_star_conf: float
    mu: float
    sigma: float


@dataclass
class FigureBudget:
    """One figure: shipped value with its 95 % interval, its band over the parameters and what
    drives it.

    Attributes:
        key, label: :data:`FIGURES`.
        trials: trials per point of the one-at-a-time design (per preset for ``slide``: pooled).
        value, low, high: the shipped figure and its 95 % interval.
        effects: one at a time, each parameter's low and high end.
        morris: the global design's rows (empty without it).
        morris_values: the figure at each point of the global design.
        morris_trials: trials per point of the global design.
    """

    key: str
    label: str
    trials: int
    value: float
    low: float
    high: float
    effects: list[Effect] = field(default_factory=list)
    morris: list[MorrisRow] = field(default_factory=list)
    morris_values: list[float] = field(default_factory=list)
    morris_trials: int = 0

    @property
    def band(self) -> tuple[float, float]:
        """Lowest and highest figure over the shipped point and the one-at-a-time points."""
        values = [self.value, *(e.value for e in self.effects)]
        return min(values), max(values)

    @property
    def global_band(self) -> tuple[float, float] | None:
        """Lowest and highest figure over the global design's points (None without it)."""
        return (min(self.morris_values), max(self.morris_values)) if self.morris_values else None

    def drivers(self) -> list[str]:
        """Codes of the parameters whose effect at an end is resolved (its interval excludes 0),
        largest |delta| first."""
        size: dict[str, float] = {}
        for e in self.effects:
            if e.resolved:
                size[e.code] = max(size.get(e.code, 0.0), abs(e.delta))
        return sorted(size, key=lambda c: -size[c])


@dataclass
class Sensitivity:
    """The uncertainty budget: the run's settings, the parameters varied and each figure.

    ``config`` holds the options of the run (:meth:`command` writes them back)."""

    config: dict
    parameters: list[dict]
    figures: list[FigureBudget]

    def to_json(self) -> dict:
        """A JSON-ready dict (:meth:`from_json` reads it back)."""
        return {"config": self.config, "parameters": self.parameters, "figures": [asdict(f) for f in self.figures]}

    @classmethod
    def from_json(cls, data: dict) -> Sensitivity:
        """The report :meth:`to_json` wrote."""
        figures = []
        for f in data["figures"]:
            f = dict(f)
            f["effects"] = [Effect(**e) for e in f["effects"]]
            f["morris"] = [MorrisRow(**m) for m in f["morris"]]
            figures.append(FigureBudget(**f))
        return cls(dict(data["config"]), [dict(p) for p in data["parameters"]], figures)

    def figure(self, key: str) -> FigureBudget:
        """The figure of that key (KeyError if the run did not make it)."""
        for f in self.figures:
            if f.key == key:
                return f
        raise KeyError(key)

    def command(self) -> str:
        """The command line that makes this report (its options as run)."""
        c = self.config
        parts = [
            "kubb3d sensitivity",
            f"--throws {c['throws']} --morris-throws {c['morris_throws']} --trajectories {c['trajectories']}",
            f"--flicks {c['flicks']} --morris-flicks {c['morris_flicks']} --matches {c['matches']}",
            f"--match-drivers {c['match_drivers']} --seed {c['seed']}",
        ]
        parts += [f"--parameter {code}" for code in c.get("only") or ()]
        return " ".join(parts)


# ---------------------------------------------------------------------- running
def _paired(base: Sequence[float | None], other: Sequence[float | None]) -> tuple[float, float, float, int]:
    diffs = np.array([b - a for a, b in zip(base, other) if a is not None and b is not None], dtype=float)
    if len(diffs) == 0:
        return math.nan, math.nan, math.nan, 0
    m = float(diffs.mean())
    # Student's t (kubb3d.experiment.stats); one pair has no interval: ±∞, never resolved
    half = t95(len(diffs) - 1) * float(diffs.std(ddof=1)) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return m, m - half, m + half, len(diffs)


def _mean(xs: Sequence[float | None]) -> float:
    vals = [x for x in xs if x is not None]
    return float(np.mean(vals)) if vals else math.nan


def _points(params: list[Parameter], trajectories: int, rng: np.random.Generator) -> tuple[list[dict], np.ndarray]:
    """One-at-a-time points (shipped, then each parameter low and high) and the Morris sample
    (rows of parameter values; empty without trajectories)."""
    oat: list[dict] = [{}]
    for p in params:
        oat += [{p.code: p.low}, {p.code: p.high}]
    if trajectories == 0 or not params:
        return oat, np.empty((0, len(params)))
    from SALib.sample import morris as morris_sample

    problem = _problem(params)
    sample = morris_sample.sample(problem, trajectories, num_levels=MORRIS_LEVELS, seed=rng)
    return oat, sample


def _problem(params: list[Parameter]) -> dict:
    return {"num_vars": len(params), "names": [p.code for p in params], "bounds": [[p.low, p.high] for p in params]}


def _morris(params: list[Parameter], sample: np.ndarray, y: list[float], rng: np.random.Generator) -> list[MorrisRow]:
    from SALib.analyze import morris as morris_analyze

    res = morris_analyze.analyze(
        _problem(params), sample, np.asarray(y, dtype=float), num_resamples=1000, num_levels=MORRIS_LEVELS, seed=rng
    )
    return [
        MorrisRow(
            p.code,
            float(res["mu_star"][i]),
            float(res["mu_star_conf"][i]),
            float(res["mu"][i]),
            float(res["sigma"][i]),
        )
        for i, p in enumerate(params)
    ]


def plan_size(
    *,
    throws: int,
    morris_throws: int,
    trajectories: int,
    flicks: int,
    morris_flicks: int,
    matches: int,
    match_drivers: int,
    only=None,
) -> int:
    """The largest number of trials a run with these settings makes (for a progress bar; the
    matches are played at the ends of at most ``match_drivers`` parameters)."""
    lawn, board = len(varied(LAWN, only)), len(varied(BOARD, only))
    morris_lawn = trajectories * (lawn + 1) if lawn else 0
    morris_board = trajectories * (board + 1) if board else 0
    return (
        (1 + 2 * lawn) * len(SKILL_NAMES) * throws
        + (1 + 2 * min(lawn, match_drivers)) * matches
        + morris_lawn * len(SKILL_NAMES) * morris_throws
        + (1 + 2 * board) * flicks
        + morris_board * morris_flicks
    )


def run_sensitivity(
    *,
    throws: int = 400,
    morris_throws: int = 100,
    trajectories: int = 6,
    flicks: int = 300,
    morris_flicks: int = 100,
    matches: int = 20,
    match_drivers: int = 2,
    seed: int = 7,
    only: Sequence[str] | None = None,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Sensitivity:
    """Measure every figure at every point of both designs (module doc). Throws use the seeds of
    ``kubb3d calibrate`` (``seed``), flicks ``seed + 4`` (as there), matches child seeds of
    ``seed``; the Morris sample and its bootstrap a generator seeded with ``seed``. A figure
    with no trials asked (``flicks`` or ``matches`` 0) is left out.

    Raises:
        ValueError: a code in ``only`` that :func:`candidates` does not hold.
    """
    if only is not None:
        unknown = [c for c in only if c not in candidates()]
        if unknown:
            raise ValueError(f"cannot vary {unknown[0]!r}; expected one of {', '.join(candidates())}")
    rng = np.random.default_rng(seed)
    w = workers or os.cpu_count() or 1
    lawn, board = varied(LAWN, only), varied(BOARD, only)
    lawn_oat, lawn_x = _points(lawn, trajectories if morris_throws else 0, rng)
    board_oat, board_x = _points(board, trajectories if morris_flicks else 0, rng)
    lawn_pts = lawn_oat + [dict(zip((p.code for p in lawn), map(float, row))) for row in lawn_x]
    board_pts = board_oat + [dict(zip((p.code for p in board), map(float, row))) for row in board_x]

    jobs: list = []
    index: list[tuple] = []
    for k, pt in enumerate(lawn_pts):
        n = throws if k < len(lawn_oat) else morris_throws
        items = tuple(sorted(pt.items()))
        for skill in SKILL_NAMES:
            for i in range(n):
                jobs.append(("throw", items, (i, n, seed, DT, skill, "dm-small", "grass", 8.0)))
                index.append(("throw", k, skill))
    for k, pt in enumerate(board_pts):
        n = flicks if k < len(board_oat) else morris_flicks
        items = tuple(sorted(pt.items()))
        for i in range(n):
            jobs.append(("flick", items, (i, n, seed + 4, FLICK_SKILL)))
            index.append(("flick", k, FLICK_SKILL))
    results: dict[tuple, list] = {}
    for key, r in zip(index, map_jobs(run_job, jobs, w, progress, chunksize=4)):
        results.setdefault(key, []).append(r)  # in order: the pool's map keeps it

    figures: list[FigureBudget] = []

    def budget(
        key: str, params: list[Parameter], oat: list[dict], series: Callable[[int], list], morris_x: np.ndarray
    ) -> FigureBudget:
        label = FIGURES[key][0]
        base = series(0)
        if key == "match":
            k_won = sum(bool(x) for x in base)
            value, low, high = wilson(k_won, len(base))
        else:
            value, lo_m, hi_m = mean_ci([x for x in base if x is not None]) if key != "slide" else _slide_ci(base)
            low, high = (math.nan, math.nan) if lo_m is None or hi_m is None else (lo_m, hi_m)  # none: NaN
        fb = FigureBudget(key, label, len(base), value, low, high)
        for k, pt in enumerate(oat[1:], start=1):
            ((code, setting),) = pt.items()
            other = series(k)
            d, lo, hi, pairs = _paired([float(x) if x is not None else None for x in base], other)
            fb.effects.append(Effect(code, "low" if k % 2 else "high", setting, _mean(other), d, lo, hi, pairs))
        if len(morris_x):
            ys = [_mean(series(len(oat) + m)) for m in range(len(morris_x))]
            fb.morris_values = ys
            fb.morris_trials = len(series(len(oat)))
            fb.morris = _morris(params, morris_x, ys, rng)
        return fb

    for skill in SKILL_NAMES:
        figures.append(
            budget(
                f"felled-{skill}",
                lawn,
                lawn_oat,
                _felled(results, skill),
                lawn_x,
            )
        )
    figures.append(
        budget(
            "slide",
            lawn,
            lawn_oat,
            lambda k: [sl for s in SKILL_NAMES for _, sl in results[("throw", k, s)]],
            lawn_x,
        )
    )
    if flicks:
        figures.append(
            budget("flick", board, board_oat, lambda k: [float(x) for x in results[("flick", k, FLICK_SKILL)]], board_x)
        )
    match_params: list[Parameter] = []
    if matches:
        # screening: a match is thrown baton by baton, so it is played at the ends of the
        # parameters that move the kubbs felled per baton most (resolved effects only)
        size: dict[str, float] = {}
        for f in figures:
            if f.key.startswith("felled-"):
                for e in f.effects:
                    if e.resolved:
                        size[e.code] = max(size.get(e.code, 0.0), abs(e.delta))
        chosen = sorted(size, key=lambda c: -size[c])[:match_drivers]
        match_params = [p for p in lawn if p.code in chosen]
        match_oat, _ = _points(match_params, 0, rng)
        mjobs = [("match", tuple(sorted(pt.items())), (j, seed)) for pt in match_oat for j in range(matches)]
        won = map_jobs(run_job, mjobs, w, progress, chunksize=4)
        for k in range(len(match_oat)):
            results[("match", k, "club")] = won[k * matches : (k + 1) * matches]
        played = lambda k: [float(x) for x in results[("match", k, "club")]]  # noqa: E731
        figures.append(budget("match", match_params, match_oat, played, np.empty((0, 0))))

    config = {
        "throws": throws,
        "morris_throws": morris_throws,
        "trajectories": trajectories,
        "flicks": flicks,
        "morris_flicks": morris_flicks,
        "matches": matches,
        "match_drivers": match_drivers,
        "seed": seed,
        "only": list(only) if only is not None else None,
    }
    rows = []
    for p in dict.fromkeys([*lawn, *board]):
        rows.append(
            {
                "code": p.code,
                "name": p.name,
                "applies_to": p.applies_to,
                "value": p.value(),
                "unit": p.unit,
                "low": p.low,
                "high": p.high,
                "why": MODEL_CHOICE.get(p.code, "unmeasured"),
            }
        )
    return Sensitivity(config, rows, figures)


def _felled(results: dict[tuple, list], skill: str) -> Callable[[int], list]:
    return lambda k: [float(f) for f, _ in results[("throw", k, skill)]]


def _slide_ci(base: Sequence[float | None]) -> tuple[float, float | None, float | None]:
    return mean_ci([x for x in base if x is not None])


# ---------------------------------------------------------------------- text
def _signed(x: float, digits: int = 3) -> str:
    if math.isnan(x):
        return "–"
    return f"{x:+.{digits}f}".replace("-", "−")


def _f(x: float, digits: int = 3) -> str:
    return "–" if math.isnan(x) else f"{x:.{digits}f}"


def _short(code: str, parameters: list[dict]) -> str:
    for p in parameters:
        if p["code"] == code:
            return f"{p['name']}, {p['applies_to']}"
    return code


def _largest(f: FigureBudget, code: str) -> Effect:
    return max((e for e in f.effects if e.code == code), key=lambda e: abs(e.delta))


def figure_rows(report: Sensitivity) -> list[tuple[str, ...]]:
    """One row per figure: label, shipped value (95 % interval), trials per point, band one at a
    time, band of the global design, what drives it (the largest resolved effects, at most three)."""
    rows: list[tuple[str, ...]] = []
    for f in report.figures:
        lo, hi = f.band
        g = f.global_band
        drivers = [f"{_short(c, report.parameters)} ({_signed(_largest(f, c).delta)})" for c in f.drivers()[:3]]
        rows.append(
            (
                f.label,
                f"{_f(f.value)} ({no_interval(f.trials) if math.isnan(f.low) else f'{_f(f.low)}–{_f(f.high)}'})",
                str(f.trials) + (f" / {f.morris_trials}" if f.morris_trials else ""),
                f"{_f(lo)}–{_f(hi)}",
                f"{_f(g[0])}–{_f(g[1])}" if g else "not run",
                "; ".join(drivers) or "none resolved",
            )
        )
    return rows


def shift(f: FigureBudget) -> str:
    """The band as shifts from the shipped value: ``−0.034 to +0.047``."""
    lo, hi = f.band
    return f"{_signed(lo - f.value)} to {_signed(hi - f.value)}"


def shifts(report: Sensitivity) -> dict[str, str]:
    """Figure label → :func:`shift` (what docs/calibration.md quotes)."""
    return {f.label: shift(f) for f in report.figures}


def read_shifts(path) -> dict[str, str]:
    """:func:`shifts` of the report a ``--save`` wrote to ``path``.

    Raises:
        UserError: the file cannot be read or is not such a report (one line naming it).
    """
    import json

    from kubb3d.errors import UserError

    try:
        return shifts(Sensitivity.from_json(json.loads(open(path, encoding="utf-8").read())))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UserError(f"{path}: not a report of `kubb3d sensitivity --save` ({exc})") from None


def markdown(report: Sensitivity, command: str) -> str:
    """docs/sensitivity.md: the parameters, each figure's band and drivers, the effects one at a
    time and Morris's μ*, generated by ``command``."""
    c = report.config
    lines = [
        "# Uncertainty budget",
        "",
        f"Generated by `{command}`; do not edit by hand.",
        "Set-up as docs/calibration.md (DM pitch, `dm-small` set, grass, the physics default); flicks on",
        "the Kubbuteo board; matches DM, club against club. Each figure is measured at the shipped",
        "parameters, then with one parameter at the low and at the high end of its plausible range",
        f"(docs/physics.md \"Material and ground parameters\"; {counted(c['throws'], 'throw')} per preset, "
        f"{counted(c['flicks'], 'flick')},",
        f"{counted(c['matches'], 'match', 'matches')} per point, every point the same seeded trials, so an effect "
        "is a paired",
        "difference with its 95 % interval), and over a global design: Morris's elementary effects",
        f"(SALib, {counted(c['trajectories'], 'trajectory', 'trajectories')} of {MORRIS_LEVELS} levels, "
        f"{c['morris_throws']} "
        f"{'throw' if c['morris_throws'] == 1 else 'throws'} per preset and {counted(c['morris_flicks'], 'flick')} "
        "per point). Matches",
        "take seconds each: they are played one at a time only, at the ends of the",
        f"{counted(c['match_drivers'], 'parameter')} that {'moves' if c['match_drivers'] == 1 else 'move'} the kubbs "
        "felled per baton most (resolved effects).",
        "",
        "## Parameters varied",
        "",
        "| parameter | applies to | shipped | range | why varied | code (`--parameter`) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for p in report.parameters:
        unit = f" {p['unit']}" if p["unit"] else ""
        lines.append(
            f"| {p['name']} | {p['applies_to']} | {p['value']:g}{unit} | {p['low']:g}–{p['high']:g}{unit} | {p['why']} "
            f"| `{p['code']}` |"
        )
    lines += [
        "",
        "## Figures",
        "",
        "Band: the lowest and highest figure over the shipped point and the one-at-a-time points",
        "(global: over the Morris points, each with fewer trials, so it holds more noise). Driven by:",
        "the parameters whose effect at one end has a 95 % interval that excludes zero, largest first,",
        "with that effect.",
        "",
        "| figure | shipped (95 % interval) | trials per point (one at a time / global) | band, one at a time | "
        "band, global | driven by |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    lines += ["| " + " | ".join(r) + " |" for r in figure_rows(report)]
    lines += ["", "## One at a time", "", "Effect: the figure's change from the shipped value, with its 95 % interval."]
    for f in report.figures:
        lines += [
            "",
            f"{f.label} (shipped {_f(f.value)}):",
            "",
            "| parameter | low end | effect | high end | effect |",
            "| --- | --- | --- | --- | --- |",
        ]
        by_code: dict[str, dict[str, Effect]] = {}
        for e in f.effects:
            by_code.setdefault(e.code, {})[e.end] = e
        for code, ends in by_code.items():
            cells = []
            for end in ("low", "high"):
                e = ends[end]
                cells += [f"{e.setting:g}", f"{_signed(e.delta)} ({_signed(e.low)} to {_signed(e.high)})"]
            lines.append(f"| {_short(code, report.parameters)} | " + " | ".join(cells) + " |")
    morris = [f for f in report.figures if f.morris]
    if morris:
        lines += [
            "",
            "## Global: Morris elementary effects",
            "",
            "μ*: the mean absolute change of the figure per whole range of the parameter (± its 95 %",
            "bootstrap interval); σ: their spread (interactions, non-linearity and the trials' noise).",
        ]
        for f in morris:
            lines += [
                "",
                f"{f.label}:",
                "",
                "| parameter | μ* | μ | σ |",
                "| --- | --- | --- | --- |",
            ]
            for m in sorted(f.morris, key=lambda m: -m.mu_star):
                lines.append(
                    f"| {_short(m.code, report.parameters)} | {_f(m.mu_star)} ± {_f(m.mu_star_conf)} | "
                    f"{_signed(m.mu)} | {_f(m.sigma)} |"
                )
    return "\n".join(lines) + "\n"


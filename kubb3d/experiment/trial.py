"""One trial of an experiment: build a fresh world, throw or disturb, measure; a row of plain data.

A trial depends only on the spec and its index (never on the worker, the order of trials or
what the process ran before): it builds its own :class:`~kubb3d.physics.world.World` and draws
from its own generator, made from child ``index`` of ``SeedSequence(spec.seed)``.

Row columns (JSON-friendly values; measure columns in :data:`kubb3d.experiment.spec.MEASURES`):

=======================  ===================================================================
column                   meaning
=======================  ===================================================================
``trial``                index, 0 … N−1
``point``, ``rep``       grid point index and repetition (trial = rep · P + point)
``seed_entropy``         the base seed (decimal string)
``spawn_key``            the child's spawn key (``[trial]``): the trial's generator is
                         ``default_rng(SeedSequence(seed_entropy, spawn_key=spawn_key))``
``ok``                   False if the trial failed; ``error`` then says why
<factor>, <draw>         the grid values and the drawn values, by column name
``thrown_*``             the released throw (speed m/s, elevation/azimuth/tilt deg, spin rev/s)
``target``               the piece thrown at (or null)
=======================  ===================================================================
"""

from __future__ import annotations

import math
from pathlib import Path
from dataclasses import replace
from functools import lru_cache
from typing import Any, Mapping

import numpy as np

from kubb3d.experiment.spec import LEAN_TILT_MAX_DEG, THROW_FIELDS, GroundSpec, LoadedSpec, get_at
from kubb3d.judge.options import options_for

LEAN_GAP = 0.001
"""m: gap left between a leaning kubb's top edge and its supporter when placed (it settles)."""
SETTLE_TIME = 3.0
"""s: longest simulated settling of the set-up before a disturbance or throw."""
DISTURB_TIME = 10.0
"""s: longest simulated time after a disturbance without a throw."""
POSITION_DIGITS = 6
"""Rest positions are rounded to µm."""


def child_seed(loaded: LoadedSpec, index: int) -> np.random.SeedSequence:
    """The trial's seed: equal to ``SeedSequence(seed).spawn(N)[index]`` for any N > index."""
    return np.random.SeedSequence(loaded.spec.seed, spawn_key=(index,))


class _Values:
    """Resolves every spec location to the value of one trial (fixed, grid or drawn)."""

    def __init__(self, loaded: LoadedSpec, index: int, rng: np.random.Generator) -> None:
        self.loaded = loaded
        n_points = loaded.n_points
        self.point, self.rep = index % n_points, index // n_points
        grid = loaded.point(self.point)
        self.by_path: dict[tuple, Any] = {}
        self.columns: dict[str, Any] = {}
        for f in loaded.factors:
            self.by_path[f.path] = grid[f.name]
            self.columns[f.name] = grid[f.name]
        for d in loaded.draws:
            v = d.dist.draw(rng)
            self.by_path[d.path] = v
            self.columns[d.name] = v

    def options(self) -> dict[str, Any]:
        """The referee options of this trial: the spec's [options], a gridded one at this
        trial's grid point."""
        return {
            name: self.by_path[("options", name)] if ("options", name) in self.by_path else value
            for name, value in self.loaded.spec.options.items()
        }

    def out_of_range(self) -> str | None:
        """Why a gridded or drawn value of this trial lies outside the range a fixed value of
        its field must have (:class:`kubb3d.experiment.spec.Range`), or None. A normal draw
        has no bounds: a wide one can give −6e307° of tilt, which the row must not store as
        a good trial."""
        from kubb3d.experiment.spec import field_range

        for item in (*self.loaded.factors, *self.loaded.draws):
            v = self.by_path[item.path]
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                continue
            rng = field_range(self.loaded.spec, item.path)
            if rng is not None and not (math.isfinite(v) and rng.ok(v)):
                return f"{item.name}: the trial's value {v!r} is outside the field's range ({rng.text})"
            if item.path == ("throw", "line_x"):  # the pitch bounds the throwing line
                half = self.loaded.spec.pitch_obj.length / 2
                if not (math.isfinite(v) and abs(v) <= half):
                    return f"{item.name}: the trial's value {v!r} is off the pitch (from {-half:g} to {half:g} m)"
        return None

    def get(self, path: tuple) -> Any:
        if path in self.by_path:
            return self.by_path[path]
        return get_at(self.loaded.spec, path)


def run_trial(loaded: LoadedSpec, index: int) -> dict:
    """Run trial ``index`` of a spec and return its row (see the module doc).

    Never raises for a failing trial: a physics glitch, an unreachable aim or any other
    exception gives a row with ``ok = False`` and ``error = "<type>: <message>"``.

    Raises:
        IndexError: index outside 0 … n_trials − 1.
    """
    if not 0 <= index < loaded.n_trials:
        raise IndexError(f"trial {index} outside 0…{loaded.n_trials - 1}")
    seq = child_seed(loaded, index)
    rng = np.random.default_rng(seq)
    row: dict[str, Any] = {"trial": index}
    try:
        values = _Values(loaded, index, rng)
    except Exception as exc:  # pragma: no cover - the spec was validated
        row.update(ok=False, error=f"{type(exc).__name__}: {exc}")
        return row
    row.update(point=values.point, rep=values.rep, seed_entropy=str(seq.entropy), spawn_key=list(seq.spawn_key))
    row.update(values.columns)
    row["ok"], row["error"] = True, None
    bad = values.out_of_range()
    if bad is not None:
        row.update(ok=False, error=f"ValueError: {bad}")
        return row
    if loaded.spec.match is not None:
        try:
            row.update(_match(values, seq))
        except Exception as exc:
            row["ok"] = False
            row["error"] = f"{type(exc).__name__}: {exc}"
        return row
    world = None
    try:
        world = _build(loaded, values)
        row.update(_act_and_measure(loaded, values, world, rng))
    except Exception as exc:
        row["ok"] = False
        row["error"] = f"{type(exc).__name__}: {exc}"
    finally:
        if world is not None:
            world.close()
    return row


# ------------------------------------------------------------------ whole matches
def _match(values: _Values, seq: np.random.SeedSequence) -> dict:
    """Play one match (the ``match`` measure): its seed is the first 63 bits of the trial's seed
    state. Columns: ``match_termination``, ``match_winner`` (``A`` = first player, ``B``, or
    null for a draw), ``match_draw`` (true for a draw), ``match_skill_a``/``_b`` (the presets),
    ``match_ground``, ``match_strategy_a``/``_b`` (the strategies),
    ``match_opener`` (``A``/``B``: who threw first in the first set), ``match_opener_won`` (whether
    that side won; null for a draw: the first-player advantage), ``match_felled_a``/``_b``
    (kubbs each player's throws felled, as the judge counted them), ``match_points_a``/``_b``,
    ``match_turns``, ``match_minutes`` (simulated), ``match_sets`` (best of how many sets, only
    when the spec sets ``sets``). With the ``turns`` measure also the
    ``turns*`` columns of :meth:`kubb3d.experiment.turns.TurnTally.columns`."""
    from kubb3d.experiment.turns import TurnTally
    from kubb3d.match import Match, MatchConfig

    m = values.loaded.spec.match
    seed = int(seq.generate_state(2, dtype=np.uint32).astype(np.uint64) @ np.array([1, 2**32], dtype=np.uint64)) >> 1
    config = MatchConfig(
        ruleset=m.ruleset,
        skills=(str(values.get(("match", "skill_a"))), str(values.get(("match", "skill_b")))),
        strategies=tuple(str(values.get(("match", k)) or "default") for k in ("strategy_a", "strategy_b")),
        seed=seed,
        sets=None if m.sets is None else int(values.get(("match", "sets"))),
        round_cap=m.round_cap,
        time_limit_s=None if m.time_limit_min is None else 60.0 * m.time_limit_min,
        ground=str(values.get(("match", "ground")) or "grass"),
        options=tuple(sorted(values.options().items())),
    )
    match = Match(config)
    a, b = config.player_names()
    side_of = {a: "A", b: "B"}
    tally = TurnTally(side_of) if "turns" in values.loaded.spec.measures else None
    opener = None
    try:
        while match.state.outcome() is None:
            if tally is not None:
                tally.before(match.state)
            step = match.step()
            if tally is not None:
                tally.after(match.state, step.action, step.outcome)
            if opener is None and match.state.set_no >= 1:
                opener = match.state.opener
        outcome = match.state.outcome()
    finally:
        close = getattr(match, "close", None)
        if close is not None:
            close()
    felled = {"A": 0, "B": 0}
    throws = [o for act, o in match.state.history if type(act).__name__ in ("BatonThrow", "KingThrow")]
    throw_events = [e for e in match.events if e.kind == "throw"]
    for o, e in zip(throws, throw_events):
        if e.player in side_of and o is not None:
            felled[side_of[e.player]] += len(o.felled)
    row = {
        "match_seed": str(seed),
        "match_skill_a": config.skills[0],
        "match_skill_b": config.skills[1],
        "match_ground": config.ground,
        "match_strategy_a": config.strategies[0],
        "match_strategy_b": config.strategies[1],
        "match_opener": side_of.get(opener),
        "match_opener_won": None if opener is None or outcome.winner is None else outcome.winner == opener,
        "match_termination": outcome.termination.name.lower(),
        "match_winner": side_of.get(outcome.winner),
        "match_draw": outcome.winner is None,
        "match_felled_a": felled["A"],
        "match_felled_b": felled["B"],
        "match_points_a": int(outcome.points.get(a, 0)),
        "match_points_b": int(outcome.points.get(b, 0)),
        "match_turns": int(match.state.total_turns),
        "match_minutes": round(float(match.state.clock) / 60.0, 3),
    }
    if m.sets is not None:  # only then: the rows of a spec without it stay as they were
        row["match_sets"] = config.sets
    if tally is not None:
        row.update(tally.columns())
    return row


# ------------------------------------------------------------------ set-up
def _ground(values: _Values):
    from kubb3d.physics.ground import get_ground

    g = values.get(("setup", "ground"))
    if isinstance(g, GroundSpec):
        base = get_ground(g.base)
        changes = {}
        for name in ("friction", "restitution", "rolling_resistance"):
            if getattr(g, name) is not None:
                changes[name] = float(values.get(("setup", "ground", name)))
        return replace(base, name=base.name + "*", **changes) if changes else base
    return get_ground(g)


def _build(loaded: LoadedSpec, values: _Values):
    from kubb3d.physics.world import Terrain, World, settle_setup

    spec = loaded.spec
    s = spec.setup
    if s.layout == "scenario":
        import hashlib

        from kubb3d.scenario import build, load

        # the set-up the spec hash names: a file edited during a run is refused, not mixed in
        data = Path(loaded.scenario_path).read_bytes()
        if hashlib.sha256(data).hexdigest() != loaded.scenario_sha256:
            raise ValueError(
                f"setup.scenario: {loaded.scenario_path} changed since the spec was loaded (its sha256 is part of "
                "the spec hash); restore it or start a new results file"
            )
        built = build(loaded.scenario_path, load(loaded.scenario_path))
        world = built.world
    else:
        terrain_cm = float(values.get(("setup", "terrain_cm")))
        terrain = Terrain(terrain_cm / 100.0, seed=s.terrain_seed) if terrain_cm > 0 else None
        world = World(s.equipment, spec.pitch_obj, _ground(values), terrain=terrain, stakes=s.stakes)
        try:
            if s.layout == "standard":
                world.setup_standard()
            leaning = False
            for i, p in enumerate(s.pieces):
                if p.place == "standing":
                    _place_standing(world, p)
                else:
                    _place_leaning(world, p, float(values.get(("setup", "pieces", i, "tilt_deg"))))
                    leaning = True
            if leaning:
                world.run_until_rest(max_time=SETTLE_TIME)
            elif terrain is not None and s.pieces:  # pieces set up on terrain rest before the throw
                settle_setup(world)
        except Exception:
            world.close()
            raise
    world.clear_history()
    return world


def _quat(yaw: float, pitch: float = 0.0) -> tuple[float, float, float, float]:
    """quat_xyzw of R = Rz(yaw) · Ry(pitch), angles in rad."""
    cz, sz, cy, sy = math.cos(yaw / 2), math.sin(yaw / 2), math.cos(pitch / 2), math.sin(pitch / 2)
    return (-sz * sy, cz * sy, sz * cy, cz * cy)


def _place_standing(world, p) -> None:
    x, y = p.at
    q = _quat(math.radians(p.yaw_deg))
    if world.engine.surface.terrain is not None and p.kind in ("kubb", "king"):
        # set flush into the slope of the ground (GroundSurface.standing_pose; docs/physics.md "Setting
        # up on uneven ground")
        position, quat = world.engine.surface.standing_pose(p.kind, x, y, q)
        world.add_piece(p.id, p.kind, position, quat, side=p.side)
        return
    # on terrain no corner below the ground (World.height_on_ground)
    world.add_piece(p.id, p.kind, (x, y, world.height_on_ground(p.kind, x, y, q)), q, side=p.side)


def _place_leaning(world, p, tilt_deg: float) -> None:
    """Put kubb ``p.id`` with its bottom edge on the ground and its top edge ``LEAN_GAP`` from
    the ``p.from_deg`` face of the upright piece ``p.on``, tilted ``tilt_deg`` towards it.

    Geometry (half width a, height h of the kubb, supporter half width b): the pivot edge lies
    b + h·sin(tilt) + gap from the supporter's centre; the kubb's centre lies a·cos(tilt) −
    (h/2)·sin(tilt) further out and a·sin(tilt) + (h/2)·cos(tilt) above the ground.

    Raises:
        ValueError: tilt outside (0°, 80°].
    """
    if not 0.0 < tilt_deg <= LEAN_TILT_MAX_DEG:
        raise ValueError(f"{p.id}: tilt_deg must be in (0, {LEAN_TILT_MAX_DEG:g}], got {tilt_deg}")
    pos, q = world.pose(p.on)
    yaw_s = 2 * math.atan2(q[2], q[3])  # the supporter stands upright: its yaw
    sup = world.equipment.king if world.kind(p.on) == "king" else world.equipment.kubb
    b = sup.half_extents[0]
    a, _, hz = world.equipment.kubb.half_extents
    h = 2 * hz
    t = math.radians(tilt_deg)
    out = yaw_s + math.radians(p.from_deg)  # from the supporter towards the leaning kubb
    n = (math.cos(out), math.sin(out))
    r_pivot = b + h * math.sin(t) + LEAN_GAP
    r_centre = r_pivot + a * math.cos(t) - hz * math.sin(t)
    x, y = pos[0] + n[0] * r_centre, pos[1] + n[1] * r_centre
    z = (
        world.ground_height(pos[0] + n[0] * r_pivot, pos[1] + n[1] * r_pivot)
        + a * math.sin(t)
        + hz * math.cos(t)
        + 1e-4
    )
    q = _quat(out + math.pi, t)
    if world.engine.terrain is not None:  # both ends of the pivot edge on or above the ground
        z = max(z, world.height_on_ground("kubb", x, y, q) + 1e-4)
    world.add_piece(p.id, "kubb", (x, y, z), q, side=p.side, sleeping=False)


# ------------------------------------------------------------------ trial
def _act_and_measure(loaded: LoadedSpec, values: _Values, world, rng: np.random.Generator) -> dict:
    spec = loaded.spec
    measures = set(spec.measures)
    row: dict[str, Any] = {}
    d = spec.disturb
    if d is not None:
        pos, q = world.pose(d.piece)
        v = float(values.get(("disturb", "speed_mps")))
        ang = math.radians(float(values.get(("disturb", "direction_deg"))))
        world.set_pose(d.piece, pos, q, linear_velocity=(v * math.cos(ang), v * math.sin(ang), 0.0))
    if spec.throw is None:
        stats = world.run_until_rest(max_time=DISTURB_TIME)
        world.settle_forces()
        snap = world.snapshot()
        if "felled" in measures:
            row.update(_felled(snap, world))
        if "rest" in measures:
            row.update(rest_time_s=stats.steps * world.dt, at_rest=stats.at_rest, rest_positions=_positions(snap, None))
        if "status" in measures:
            row.update(_status(snap, spec.watch))
        return row
    if d is not None:
        world.run_until_rest(max_time=DISTURB_TIME)
        world.clear_history()
    return _throw(loaded, values, world, rng, measures)


def _throw(loaded: LoadedSpec, values: _Values, world, rng, measures: set) -> dict:
    from kubb3d.throw import ThrowParams, aim_point, throw

    t = loaded.spec.throw
    kw = {}
    for name in THROW_FIELDS:
        v = values.get(("throw", name))
        if v is not None:
            kw[name] = float(v)
    target = values.get(("throw", "target"))
    line_x = values.get(("throw", "line_x"))  # fixed, a factor or a draw
    params = ThrowParams(side=t.side, line_x=None if line_x is None else float(line_x), **kw)
    if target is not None:
        pos, _ = world.pose(target)
        if "lateral" not in kw:
            hw = world.pitch.half_width
            params = replace(params, lateral=float(min(max(pos[1], -hw + 0.05), hw - 0.05)))
    if t.aim:
        params = _aim(world.equipment, world.pitch, world.dt, world.engine.air_drag, aim_point(world, target), params)
        # factors relative to the aimed throw: offsets added to the aim solution
        shift = {
            name: values.get(("throw", off))
            for off, name in (
                ("speed_offset", "speed"),
                ("elevation_offset_deg", "elevation_deg"),
                ("azimuth_offset_deg", "azimuth_deg"),
            )
        }
        params = replace(
            params, **{name: getattr(params, name) + float(v) for name, v in shift.items() if v is not None}
        )
    skill = values.get(("throw", "skill"))
    if skill is not None:
        from kubb3d.players import get_skill

        params = get_skill(skill).perturb(params, rng)
    ruleset = loaded.spec.setup.ruleset
    options = values.options()
    result = throw(
        world, params, baton=t.baton, ruleset=ruleset, max_time=t.max_time_s, **options_for(options, "throw")
    )
    row: dict[str, Any] = {
        "target": target,
        "thrown_speed": params.speed,
        "thrown_elevation_deg": params.elevation_deg,
        "thrown_azimuth_deg": params.azimuth_deg,
        "thrown_spin_rps": params.spin_rps,
        "thrown_tilt_deg": params.tilt_deg,
    }
    snap = result.final
    toppled = result.toppled
    if "hit" in measures:
        enemy = "B" if t.side == "A" else "A"
        down = [k for k in toppled if snap[k].kind == "kubb" and snap[k].side == enemy]
        row["hit"] = (target in toppled) if target is not None else bool(down)
        row["kubbs_felled"] = len(down)
    if "felled" in measures:
        row["felled"] = toppled
        row["n_felled"] = len(toppled)
    if "first_contact" in measures:
        fc = result.first_contact
        row["first_contact"] = None if fc is None else fc.piece
        row["first_contact_time_s"] = None if fc is None else fc.time
        row["first_contact_x_m"] = None if fc is None else fc.position[0]
        row["first_contact_y_m"] = None if fc is None else fc.position[1]
    if "tilt" in measures:
        row["max_tilt_deg"] = math.degrees(result.metrics.max_tilt)
        row["legal"] = result.legal
        row["violations"] = [v.rule for v in result.violations]
    if "flight_time" in measures:
        row["flight_time_s"] = result.metrics.flight_time
    if "landing" in measures:
        fc, rest = result.first_contact, snap[t.baton].position if t.baton in snap.pieces else None
        row["baton_rest_x_m"] = None if rest is None else rest[0]
        row["baton_rest_y_m"] = None if rest is None else rest[1]
        # how far the baton went on after it first touched something, horizontally
        row["slide_m"] = (
            None if fc is None or rest is None else math.hypot(rest[0] - fc.position[0], rest[1] - fc.position[1])
        )
    if "rest" in measures:
        row.update(rest_time_s=result.rest_time, at_rest=result.at_rest, rest_positions=_positions(snap, t.baton))
    if "rulings" in measures:
        row.update(_rulings(snap, result, t.side, ruleset, options_for(options, "judge")))
    if "status" in measures:
        row.update(_status(snap, loaded.spec.watch))
    return row


@lru_cache(maxsize=4096)
def _aim_cached(eq_name: str, pitch, dt: float, air_drag: bool, target: tuple, params) -> Any:
    from kubb3d.equipment import get_set

    eq = get_set(eq_name)
    try:
        from kubb3d.players import fast_aim
    except ImportError:  # pragma: no cover - kubb3d.players ships with kubb3d
        from kubb3d.physics.world import World
        from kubb3d.throw import aim

        with World(eq, pitch, "plane", stakes=False, air_drag=air_drag, dt=dt) as w:
            return aim(w, target, params).params
    return fast_aim(eq, pitch, target, params, dt=dt, air_drag=air_drag)


def _aim(equipment, pitch, dt, air_drag, target, params):
    """Noise-free speed and azimuth through ``target`` (x, y, z m); cached per process (pure)."""
    return _aim_cached(equipment.name, pitch, dt, air_drag, target, params)


def _felled(snap, world) -> dict:
    """The kubbs and king not upright at rest: tilted :data:`~kubb3d.throw.UPRIGHT_TILT` or
    more from the vertical, on terrain from the ground under them
    (:meth:`~kubb3d.physics.terrain.GroundSurface.tilt_on_ground`)."""
    from kubb3d.throw import UPRIGHT_TILT

    on_terrain = world.engine.surface.terrain is not None
    tilt = world.engine.surface.tilt_on_ground
    down = sorted(
        p.id
        for p in snap.pieces.values()
        if p.kind in ("kubb", "king")
        and UPRIGHT_TILT <= (tilt(p.kind, p.position, p.quat_xyzw) if on_terrain else p.tilt) <= math.pi - UPRIGHT_TILT
    )
    return {"felled": down, "n_felled": len(down)}


def _positions(snap, baton: str | None) -> dict:
    return {
        p.id: [round(float(c), POSITION_DIGITS) for c in p.position]
        for p in snap.pieces.values()
        if p.kind in ("kubb", "king") or p.id == baton
    }


def _status(snap, watch) -> dict:
    from kubb3d.judge import piece_status

    return {f"status_{pid}": piece_status(snap, pid)[0].value for pid in watch}


def _rulings(snap, result, side: str, ruleset: str, options: Mapping[str, Any]) -> dict:
    from kubb3d.judge import ThrowContext, judge_throw
    from kubb3d.pitch import baseline_ids, opponent

    target = opponent(side)
    field = frozenset(
        pid
        for pid, p in snap.pieces.items()
        if p.kind == "kubb" and p.side == target and pid not in baseline_ids(target)
    )
    ctx = ThrowContext(
        ruleset=ruleset,
        thrower=side,
        legal=result.legal,
        violations=tuple(result.violations),
        field_kubbs=field,
        options=options,
    )
    j = judge_throw(snap, ctx)
    return {
        "judge_felled": sorted(j.felled),
        "judge_raise": sorted(j.raise_again),
        "judge_winner": j.winner,
        "judge_status": {r.piece: r.status.value for r in j.rulings},
    }

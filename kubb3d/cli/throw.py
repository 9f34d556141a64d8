"""``kubb3d throw``: one baton thrown underhand at the standard set-up, and what happened.

Wired into the main app by :func:`register`; user mistakes raise :class:`kubb3d.cli.UserError`."""

from __future__ import annotations

from kubb3d.errors import message as error_message

import json
from enum import Enum
from typing import Optional

import typer

from kubb3d.cli.lang import lang_option, translator_for
from kubb3d.errors import UserError
from kubb3d.i18n import ENGLISH, Translator
from kubb3d.judge.messages import ids, msg, piece_name
from kubb3d.judge.rulebook import canonical_ruleset, ruleset_enum, ruleset_help
from kubb3d.judge.throws import early_king_warning
from kubb3d.pitch import Side


class SetName(str, Enum):
    standard = "standard"
    dm_small = "dm-small"


class GroundName(str, Enum):
    grass = "grass"
    wet_grass = "wet-grass"
    turf = "turf"
    plane = "plane"


RulesetName = ruleset_enum(baton_throws=True)


def throw(
    target: Optional[str] = typer.Option(
        None, help="Aim at this piece (e.g. B3, king): the aim solver picks speed and azimuth."
    ),
    side: str = typer.Option("A", help="Thrower's side: A throws towards +x, B towards -x."),
    speed: Optional[float] = typer.Option(
        None, help="Release speed, m/s [default: 10.0] (not with --target, which picks it)."
    ),
    elevation_deg: float = typer.Option(20.0, help="Release angle above the horizontal, degrees."),
    azimuth_deg: Optional[float] = typer.Option(
        None,
        help="Horizontal angle from straight ahead, degrees, positive to the left [default: 0.0] (not with "
             "--target, which picks it).",
    ),
    spin_rps: float = typer.Option(1.5, help="End-over-end spin, rev/s; positive turns the top forward."),
    tilt_deg: float = typer.Option(
        0.0, help="Tilt of the baton out of the vertical flight plane, degrees (DM §5 allows 30)."
    ),
    helicopter_rps: float = typer.Option(0.0, help="Horizontal (helicopter) spin, rev/s (WS basic rule 5 forbids it)."),
    lateral: float = typer.Option(
        0.0, help="Sideways position of the release point, m (must stay within the sidelines)."
    ),
    behind_line: float = typer.Option(
        0.05,
        help="Release point (hand) distance behind the throwing line, m (negative: the hand is past the line, "
             "allowed).",
    ),
    foot_behind_line: Optional[float] = typer.Option(
        None,
        help="Toe of the front foot behind the throwing line at the release, m (negative: foot fault, DM §5, WS basic "
             "rule 7); default 0.40 m behind the release point.",
    ),
    step_after: float = typer.Option(
        0.0, help="How far the front foot steps forward after the release, m (past the line: foot fault, DM §5)."
    ),
    height: float = typer.Option(0.5, help="Release height, m."),
    release_angle_deg: float = typer.Option(60.0, help="Angle of the baton above the horizontal at release, degrees."),
    line_x: Optional[float] = typer.Option(None, help="x of the throwing line, m (default: the thrower's baseline)."),
    equipment: SetName = typer.Option(SetName.standard, "--set", help="Equipment set."),
    ground: GroundName = typer.Option(GroundName.grass, help="Playing surface."),
    ruleset: RulesetName = typer.Option(  # type: ignore[valid-type]
        "dm", help=f"Whose throwing rules to check: {ruleset_help(baton_throws=True)}."
    ),
    pitch_length: float = typer.Option(8.0, help="Pitch length, m (WS: 7.5)."),
    terrain_cm: float = typer.Option(0.0, help="Uneven ground: bump amplitude (standard deviation), cm; 0 = flat."),
    seed: int = typer.Option(0, min=0, help="Seed of the uneven ground (and of anything else random)."),
    as_json: bool = typer.Option(
        False,
        "--json",
        help="Print the result as JSON, with the referee's rulings on the target half and the king "
             "(`rulings`) and, for a throw at the king while kubbs stand, the warning (`king_warning`).",
    ),
    lang: Optional[str] = lang_option(),
) -> None:
    """Throw one baton underhand at the standard set-up and report what happened.

    Legality (tilt, helicopter, foot fault) is measured from the simulated
    flight, not taken from the flags. The referee rules on the target half and the king as
    after any throw of a turn (DM §5, §1); a throw at the king while kubbs of that half stand
    is no king throw (DM §10), and the output says that a king felled by it loses.
    """
    import math

    from kubb3d.physics.world import PhysicsGlitch, Terrain, World
    from kubb3d.experiment.spec import TERRAIN_CM_MAX
    from kubb3d.throw_bounds import STEP_AFTER_RANGE, THROW_RANGES
    from kubb3d.throw.params import out_of_reach
    from kubb3d.pitch import PITCH_LENGTH_M, Pitch
    from kubb3d.ranges import expected, span
    from kubb3d.throw import ThrowParams, aim
    from kubb3d.throw import throw as do_throw

    tr = translator_for(lang)
    if side not in ("A", "B"):
        raise UserError(expected("--side", msg("A or B"), repr(side)))
    if target is not None and (speed is not None or azimuth_deg is not None):
        given = [o for o, v in (("--speed", speed), ("--azimuth-deg", azimuth_deg)) if v is not None]
        options = given[0] if len(given) == 1 else msg("{first} and {last}", first=given[0], last=given[1])
        raise UserError(msg("{options} cannot be given with --target, whose aim solver picks speed and azimuth",
                            options=options))
    speed = 10.0 if speed is None else speed
    azimuth_deg = 0.0 if azimuth_deg is None else azimuth_deg
    if not (math.isfinite(terrain_cm) and 0 <= terrain_cm <= TERRAIN_CM_MAX):
        raise UserError(expected("--terrain-cm", span(0, TERRAIN_CM_MAX, " cm"), terrain_cm))
    # ranges a real throw can have (else a "legal throw" would be reported for nonsense)
    lo, hi = PITCH_LENGTH_M
    if not (math.isfinite(pitch_length) and lo <= pitch_length <= hi):
        raise UserError(expected("--pitch-length", span(lo, hi, " m"), pitch_length))
    # the ranges of ThrowParams and of an experiment spec's [throw]: one table (kubb3d/throw_bounds.py)
    values = {"speed": speed, "elevation_deg": elevation_deg, "spin_rps": spin_rps, "tilt_deg": tilt_deg,
              "helicopter_rps": helicopter_rps, "release_angle_deg": release_angle_deg, "height": height,
              "lateral": lateral, "behind_line": behind_line, "azimuth_deg": azimuth_deg}
    for name, rng in THROW_RANGES.items():
        value = values[name]
        if not (math.isfinite(value) and rng.ok(value)):
            raise UserError(expected(f"--{name.replace('_', '-')}", rng.text, value))
    if foot_behind_line is not None and not math.isfinite(foot_behind_line):
        raise UserError(expected("--foot-behind-line", span(), foot_behind_line))
    if not (math.isfinite(step_after) and STEP_AFTER_RANGE.ok(step_after)):
        raise UserError(expected("--step-after", STEP_AFTER_RANGE.text, STEP_AFTER_RANGE.outside(step_after)))
    reach_error = out_of_reach(behind_line, lateral, foot_behind_line, None,
                               ("--behind-line", "--foot-behind-line"))
    if reach_error:
        raise UserError(reach_error)
    if line_x is not None and not (math.isfinite(line_x) and abs(line_x) <= pitch_length / 2):
        raise UserError(msg("--line-x must lie on the pitch, from {lo:g} to {hi:g} m, got {got}", lo=-pitch_length / 2,
                            hi=pitch_length / 2, got=line_x))
    try:
        pitch = Pitch(pitch_length, 5.0)
        params = ThrowParams(
            side=side,
            line_x=line_x,
            lateral=lateral,
            behind_line=behind_line,
            height=height,
            speed=speed,
            elevation_deg=elevation_deg,
            azimuth_deg=azimuth_deg,
            spin_rps=spin_rps,
            tilt_deg=tilt_deg,
            helicopter_rps=helicopter_rps,
            release_angle_deg=release_angle_deg,
            foot_behind_line=foot_behind_line,
            step_after=step_after,
        )
        params.validate()
        terrain = Terrain(terrain_cm / 100.0, seed=seed) if terrain_cm > 0 else None
        with World.standard(equipment.value, pitch, ground.value, terrain=terrain) as world:
            if target is not None:
                params = aim(world, target, params).params
            book = canonical_ruleset(ruleset.value)  # type: ignore[attr-defined]
            thrower: Side = "A" if params.side == "A" else "B"
            standing = _target_kubbs(world, thrower)  # before the throw: what the king throw waits for
            result = do_throw(world, params, ruleset=book)
        judgement = _judge(result, book, thrower, king_throw=target == "king")
        warning = early_king_warning(book, thrower, standing) if target == "king" else None
    except ValueError as exc:
        raise UserError(error_message(exc)) from None
    except PhysicsGlitch as exc:
        raise UserError(f"the simulation failed: {exc}") from None
    if as_json:
        doc = {**result.to_json(), "rulings": [r.to_dict() for r in judgement.rulings]}
        if warning is not None:
            doc["king_warning"] = warning.to_dict()
        typer.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    _print_throw(result, target, judgement, warning, tr)


def _target_kubbs(world, side: Side) -> list[str]:
    """The kubbs standing in the half ``side`` throws at (field and baseline kubbs)."""
    from kubb3d.pitch import opponent

    return sorted(pid for pid, p in world.snapshot().pieces.items() if p.kind == "kubb" and p.side == opponent(side))


def _judge(result, ruleset: str, side: Side, *, king_throw: bool):
    """The referee's rulings after the throw, as after the first baton of a turn at the standard
    set-up: the target half's kubbs standing, none felled earlier (DM §5, §1, §10)."""
    from kubb3d.judge import ThrowContext, judge_throw
    from kubb3d.pitch import baseline_ids, opponent

    snap = result.final
    field = frozenset(
        pid for pid, p in snap.pieces.items() if p.kind == "kubb" and p.side == opponent(side)
        and pid not in baseline_ids(opponent(side))
    )
    ctx = ThrowContext(ruleset=ruleset, thrower=side, legal=result.legal, violations=tuple(result.violations),
                       king_throw=king_throw, field_kubbs=field)
    return judge_throw(snap, ctx)


def _print_throw(result, target, judgement, warning, tr: Translator = ENGLISH) -> None:
    import math

    from rich.console import Console
    from rich.markup import escape

    from kubb3d.judge import Consequence

    con = Console(highlight=False)
    p = result.params
    aimed = tr(msg(" (aimed at {target})", target=piece_name(target))) if target else ""
    con.print("[bold]" + escape(tr(msg(
        "Throw from side {side}: {speed:.2f} m/s at {elevation:.1f}°, azimuth {azimuth:+.2f}°, spin {spin:+.2f} rev/s",
        side=p.side, speed=p.speed, elevation=p.elevation_deg, azimuth=p.azimuth_deg, spin=p.spin_rps,
    )) + aimed) + "[/]")
    if warning is not None:  # before the physics' account: the rule holds whatever the baton does
        con.print(f"  [yellow]{escape(tr(warning.message))}[/] [{escape(', '.join(warning.rules))}]")
    fc = result.first_contact
    if fc is None:
        con.print("  " + escape(tr(msg("no contact"))))
    else:
        con.print("  " + escape(tr(msg(
            "first contact: {piece} after {time:.3f} s at ({x:.2f}, {y:.2f}, {z:.2f}) m",
            piece=piece_name(fc.piece), time=fc.time, x=fc.position[0], y=fc.position[1], z=fc.position[2],
        ))))
    con.print("  " + escape(tr(msg(
        "tilt out of plane {tilt:.1f}°, horizontal rotation {rotation:.0f}°",
        tilt=math.degrees(result.metrics.max_tilt), rotation=math.degrees(result.metrics.helicopter),
    ))))
    if result.legal:
        con.print("  [green]" + escape(tr(msg("legal throw"))) + "[/]")
    for v in result.violations:
        con.print("  [red]" + escape(tr(msg("illegal"))) + f"[/] ({escape(v.rule)}): {escape(tr(v.reason))}")
    con.print("  " + escape(tr(msg("touched: {pieces}", pieces=ids(result.touched) if result.touched else "-"))))
    con.print("  " + escape(tr(msg("toppled: {pieces}", pieces=ids(result.toppled) if result.toppled else "-"))))
    rest = (
        msg("at rest after {time:.2f} s", time=result.rest_time)
        if result.at_rest
        else msg("at rest after {time:.2f} s (time limit reached before rest)", time=result.rest_time)
    )
    con.print("  " + escape(tr(rest)))
    for r in judgement.rulings:  # what the referee decides; the pieces left standing say nothing
        if r.consequence is Consequence.NONE:
            continue
        ruling = msg("ruling: {piece} {status} → {consequence}", piece=piece_name(r.piece), status=msg(r.status.value),
                     consequence=msg(r.consequence.value))
        con.print(f"  {escape(tr(ruling))}  [{escape(', '.join(r.rules))}]")
        con.print(f"    {escape(tr(r.reason))}")


def register(app: typer.Typer) -> None:
    """Add the ``throw`` command to ``app``."""
    app.command()(throw)

"""The ``kubb3d`` command line (Typer): this module holds the main app and the ``throw``,
``bench`` and ``models`` commands; each other command group is one module of this package
(``match``, ``judge`` and ``quiz``, ``scenario``, ``experiment``, ``audit`` and ``rules``,
``validate``, ``calibrate``, ``tournament``, ``play`` and ``view``, ``dames``, ``whatif``, ``analyse``), registered by
:func:`main`.

Every subcommand turns a user mistake into a one-line error on stderr and a
non-zero exit code (2), never a traceback: raise :class:`UserError` for that.
"""

from __future__ import annotations

import os
import signal
import sys


def _interrupted_while_starting(signum, frame) -> None:
    """Ctrl-C or SIGTERM while the command still imports (about 0.15 s; nothing is open yet):
    the line ``interrupted`` and exit code 130, as later (before, SIGTERM ended it silently
    with 143 and Ctrl-C printed a KeyboardInterrupt traceback). :func:`main` replaces it."""
    os.write(2, b"interrupted\n")
    os._exit(130)


def _is_the_command() -> bool:
    """Whether this process is the ``kubb3d`` command (the console script or ``python -m
    kubb3d``), not a program that imports the package: only then are signals taken at import."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return name in ("kubb3d", "kubb3d.exe") or sys.argv[0].endswith(os.path.join("kubb3d", "__main__.py"))


if _is_the_command():
    for _sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(_sig, _interrupted_while_starting)

import json  # noqa: E402
from enum import Enum  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import NoReturn, Optional  # noqa: E402

import typer  # noqa: E402
from typer.core import TyperGroup  # noqa: E402

from kubb3d.judge.rulebook import canonical_ruleset, ruleset_enum, ruleset_help  # noqa: E402

try:  # recent Typer ships its own copy of Click
    from typer._click import exceptions as _click_exc
except ImportError:  # pragma: no cover - older Typer on top of Click
    from click import exceptions as _click_exc  # type: ignore[no-redef]


from kubb3d.errors import UserError as UserError  # noqa: E402  (re-exported)
from kubb3d.ranges import one_line as _one_line  # noqa: E402  (every error line goes through it)


_JSON_ERRORS = [False]
"""Whether the command line asked for ``--json``: its errors then also go to stdout as one JSON
object ``{"error": "…"}`` (set by :class:`OneLineErrors`)."""


def _json_error(msg: str) -> None:
    if _JSON_ERRORS[0]:
        sys.stdout.write(json.dumps({"error": _one_line(msg)}, ensure_ascii=False) + "\n")
        sys.stdout.flush()


def _error(msg: str, code: int = 2) -> NoReturn:
    typer.echo(f"error: {_one_line(msg)}", err=True)
    _json_error(msg)
    sys.exit(code)


class _Interrupted(Exception):
    """A Ctrl-C or SIGTERM that reached a command (carried past Typer, which would end the
    command silently with exit code 130)."""


def _pipe_closed() -> NoReturn:
    """The reader of stdout went away (``kubb3d match | head -1``): end quietly with exit code
    141, as a program ended by SIGPIPE does (the shell's own convention for it); stdout is
    pointed at the null device so that the final flush cannot fail again."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    sys.exit(141)


def _never_unencodable() -> None:
    """Let stdout and stderr replace what their encoding cannot show (``PYTHONIOENCODING=ascii``
    and a German message) instead of ending in a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None and (stream.encoding or "").lower().replace("-", "") != "utf8":
                stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            pass


def _sigterm_as_interrupt(signum, frame) -> NoReturn:
    raise KeyboardInterrupt


def _flags(command) -> set[str]:
    """The option strings of every on/off flag of ``command`` and its sub-commands (they take no
    value, so an empty word after one is an argument of its own)."""
    out: set[str] = set()
    for p in getattr(command, "params", ()):
        if getattr(p, "is_flag", False) or getattr(p, "count", False):
            out.update(p.opts)
            out.update(getattr(p, "secondary_opts", ()))
    for sub in getattr(command, "commands", {}).values():
        out |= _flags(sub)
    return out


def _empty_word(group, args: list[str]) -> str | None:
    """The message for the first empty word of a command line (``--ruleset ''``, ``--out=``,
    ``judge ''``), or None. No option or argument of kubb3d takes an empty string: a path
    would be read as the current folder, a name as a silent default."""
    flags = None
    for i, word in enumerate(args):
        if word == "--":
            return None
        if word.startswith("--") and word.endswith("=") and len(word) > 3:
            return f"{word[:-1]}: expected a value, got an empty string"
        if word != "":
            continue
        prev = args[i - 1] if i else ""
        if flags is None:
            flags = _flags(group)
        if prev.startswith("-") and "=" not in prev and prev not in flags:
            return f"{prev}: expected a value, got an empty string"
        command = " ".join(w for w in args[:i] if not w.startswith("-"))
        return f"kubb3d {command}: argument {i + 1} is an empty string; expected a file or a name"
    return None


def _range_error(exc: Exception, args: list[str]) -> str | None:
    """A Typer ``min``/``max`` check that failed, worded like every other range error
    (:func:`kubb3d.ranges.expected`): ``--throws: expected from 1 to 100000, got 0``; None for
    any other usage error."""
    from kubb3d.ranges import expected, span

    param = getattr(exc, "param", None)
    lo, hi = getattr(param, "min", None), getattr(param, "max", None)
    if param is None or (lo is None and hi is None):
        return None
    opts = list(getattr(param, "opts", ()))
    got = None
    for i, word in enumerate(args):
        if word in opts and i + 1 < len(args):
            got = args[i + 1]
        elif any(word.startswith(o + "=") for o in opts):
            got = word.split("=", 1)[1]
    if got is None:
        return None
    return expected(opts[-1] if opts else param.name, span(lo, hi), got)


class OneLineErrors(TyperGroup):
    """The ``kubb3d`` group: every user mistake, Typer's own checks of options included, ends
    as one line ``error: …`` on stderr and exit code 2 (no boxed panel, no traceback); with
    ``--json`` also as the one JSON object ``{"error": "…"}`` on stdout, so that a program
    reading the document reads the error.

    Ctrl-C (SIGINT) and SIGTERM end any command with the one line ``interrupted`` on stderr and
    exit code 130, after the ``finally`` blocks and ``with`` exits of the command have run (its
    worker processes stopped: :mod:`kubb3d.workers`; its files closed). A command may print a
    longer line of its own that starts with ``interrupted`` (``experiment run`` says how many
    trials are stored)."""

    def invoke(self, ctx):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise _Interrupted from None
        except BrokenPipeError:  # before Typer, which would end it with exit code 1
            _pipe_closed()

    def make_context(self, *args, **kwargs):  # type: ignore[override]
        # parsing the options imports pydantic (0.2 s): an interrupt then was a silent exit 130
        try:
            return super().make_context(*args, **kwargs)
        except KeyboardInterrupt:
            raise _Interrupted from None

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):  # type: ignore[override]
        import warnings

        from kubb3d.files import FileSafetyError, InputWarning

        def one_line_warning(message, category, filename, lineno, file=None, line=None):
            typer.echo(f"warning: {_one_line(message)}", err=True)

        warnings.showwarning = one_line_warning
        warnings.simplefilter("always", InputWarning)
        import signal
        import threading

        old_term = None
        if threading.current_thread() is threading.main_thread():
            old_term = signal.signal(signal.SIGTERM, _sigterm_as_interrupt)
        words = list(sys.argv[1:] if args is None else args)
        _JSON_ERRORS[0] = "--json" in words[: words.index("--") if "--" in words else None]
        try:
            empty = _empty_word(self, words)
            if empty is not None:
                raise UserError(empty)
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _click_exc.NoArgsIsHelpError as exc:
            typer.echo(exc.format_message(), err=True)
            sys.exit(2)
        except _click_exc.UsageError as exc:
            ranged = _range_error(exc, words)
            if ranged is not None:
                _error(ranged)
            name = exc.ctx.command_path if exc.ctx is not None else "kubb3d"
            # a parser's ValueError reaches Click through pydantic, which prefixes "Value error, "
            _error(f"{name}: {exc.format_message().replace('Value error, ', '')}")
        except _click_exc.ClickException as exc:
            _error(exc.format_message())
        except (_Interrupted, KeyboardInterrupt):
            typer.echo("interrupted", err=True)
            _json_error("interrupted")
            sys.exit(130)
        except typer.Abort:  # an EOF at a prompt
            _error("interrupted", 130)
        except (UserError, NotImplementedError, FileSafetyError) as exc:
            _error(str(exc))
        except BrokenPipeError:
            _pipe_closed()
        except OSError as exc:
            # a path the user gave that cannot be read or written (missing folder, a file where
            # a folder is expected, no permission, a full disk…): one line naming the file
            where = f": {exc.filename}" if getattr(exc, "filename", None) else ""
            _error(f"{exc.strerror or exc}{where}")
        except Exception as exc:
            from kubb3d.physics.world import PhysicsGlitch

            if isinstance(exc, PhysicsGlitch):
                _error(f"the simulation failed (check positions and sizes in the input): {exc}")
            raise
        finally:
            _JSON_ERRORS[0] = False  # one invocation's --json must not reach the next (in-process callers)
            if old_term is not None:
                signal.signal(signal.SIGTERM, old_term)
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    cls=OneLineErrors,
    help="kubb3d: a 3D physics simulator of the outdoor game Kubb, with a referee that knows the rules.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
models_app = typer.Typer(help="Build or check the meshes and URDF files in models/.", no_args_is_help=True)
app.add_typer(models_app, name="models")


def _print_version(value: bool) -> None:
    if value:
        from kubb3d import __version__

        typer.echo(f"kubb3d {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """kubb3d: a 3D physics simulator of the outdoor game Kubb, with a referee that knows the rules.

    Shell completion: `kubb3d --install-completion` (bash, zsh, fish, PowerShell).
    """


class SetName(str, Enum):
    standard = "standard"
    dm_small = "dm-small"


class GroundName(str, Enum):
    grass = "grass"
    wet_grass = "wet-grass"
    turf = "turf"
    plane = "plane"


RulesetName = ruleset_enum(baton_throws=True)


@app.command()
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
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Throw one baton underhand at the standard set-up and report what happened.

    Legality (tilt, helicopter, foot fault) is measured from the simulated
    flight, not taken from the flags.
    """
    import math

    from kubb3d.physics.world import PhysicsGlitch, Terrain, World
    from kubb3d.experiment.spec import TERRAIN_CM_MAX, throw_range
    from kubb3d.pitch import PITCH_LENGTH_M, Pitch
    from kubb3d.ranges import expected, span
    from kubb3d.throw import ThrowParams, aim
    from kubb3d.throw import throw as do_throw

    if side not in ("A", "B"):
        raise UserError(expected("--side", "A or B", repr(side)))
    if target is not None and (speed is not None or azimuth_deg is not None):
        given = " and ".join(o for o, v in (("--speed", speed), ("--azimuth-deg", azimuth_deg)) if v is not None)
        raise UserError(f"{given} cannot be given with --target, whose aim solver picks speed and azimuth")
    speed = 10.0 if speed is None else speed
    azimuth_deg = 0.0 if azimuth_deg is None else azimuth_deg
    if not (math.isfinite(terrain_cm) and 0 <= terrain_cm <= TERRAIN_CM_MAX):
        raise UserError(expected("--terrain-cm", span(0, TERRAIN_CM_MAX, " cm"), terrain_cm))
    # ranges a real throw can have (else a "legal throw" would be reported for nonsense)
    lo, hi = PITCH_LENGTH_M
    if not (math.isfinite(pitch_length) and lo <= pitch_length <= hi):
        raise UserError(expected("--pitch-length", span(lo, hi, " m"), pitch_length))
    # the ranges of an experiment spec's [throw] (kubb3d.experiment.spec.ThrowSpec), one rule for both
    values = {"speed": speed, "elevation_deg": elevation_deg, "spin_rps": spin_rps, "tilt_deg": tilt_deg,
              "helicopter_rps": helicopter_rps, "release_angle_deg": release_angle_deg, "height": height,
              "lateral": lateral, "behind_line": behind_line, "azimuth_deg": azimuth_deg}
    for name, value in values.items():
        rng = throw_range(name)
        if not (math.isfinite(value) and rng.ok(value)):
            raise UserError(expected(f"--{name.replace('_', '-')}", rng.text, value))
    if line_x is not None and not (math.isfinite(line_x) and abs(line_x) <= pitch_length / 2):
        raise UserError(
            f"--line-x must lie on the pitch, from {-pitch_length / 2:g} to {pitch_length / 2:g} m, got {line_x}"
        )
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
            result = do_throw(world, params, ruleset=canonical_ruleset(ruleset.value))  # type: ignore[attr-defined]
    except ValueError as exc:
        raise UserError(str(exc)) from None
    except PhysicsGlitch as exc:
        raise UserError(f"the simulation failed: {exc}") from None
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=2))
        return
    _print_throw(result, target)


def _print_throw(result, target) -> None:
    import math

    from rich.console import Console

    con = Console()
    p = result.params
    con.print(
        f"[bold]Throw[/] from side {p.side}: {p.speed:.2f} m/s at {p.elevation_deg:.1f}°, azimuth "
        f"{p.azimuth_deg:+.2f}°, spin {p.spin_rps:+.2f} rev/s"
        + (f" (aimed at {target})" if target else "")
    )
    fc = result.first_contact
    if fc is None:
        con.print("  no contact")
    else:
        con.print(
            f"  first contact: [bold]{fc.piece}[/] after {fc.time:.3f} s at ({fc.position[0]:.2f}, "
            f"{fc.position[1]:.2f}, {fc.position[2]:.2f}) m"
        )
    con.print(
        f"  tilt out of plane {math.degrees(result.metrics.max_tilt):.1f}°, horizontal rotation "
        f"{math.degrees(result.metrics.helicopter):.0f}°"
    )
    if result.legal:
        con.print("  [green]legal throw[/]")
    for v in result.violations:
        con.print(f"  [red]illegal[/] ({v.rule}): {v.reason}")
    con.print(f"  touched: {', '.join(result.touched) or '-'}")
    con.print(f"  toppled: [bold]{', '.join(result.toppled) or '-'}[/]")
    con.print(
        f"  at rest after {result.rest_time:.2f} s" + ("" if result.at_rest else " (time limit reached before rest)")
    )


@models_app.command("build")
def models_build(
    out: Optional[Path] = typer.Option(None, help="Folder to write to (default: the models/ folder kubb3d uses)."),
) -> None:
    """Generate every mesh (OBJ) and URDF file from the equipment sets."""
    from kubb3d.assets import write_models

    paths = write_models(out)
    typer.echo(f"wrote {len(paths)} files to {paths[0].parent}")


@models_app.command("check")
def models_check() -> None:
    """Check that the model files equal a fresh build (exit 1 if not)."""
    from kubb3d.assets import check_models, models_dir

    problems = check_models()
    if problems:
        for p in problems:
            typer.echo(p, err=True)
        typer.echo(f"{len(problems)} model file(s) differ from a fresh build; run `kubb3d models build`", err=True)
        raise typer.Exit(1)
    typer.echo(f"models in {models_dir()} match a fresh build")


@app.command()
def bench(
    throws: int = typer.Option(200, min=1, max=100_000, help="Throws to time."),
    memory_throws: int = typer.Option(
        0, min=0, max=1_000_000, help="Also run this many throws in one process and report memory growth (e.g. 10000)."
    ),
    seed: int = typer.Option(0, min=0, help="Seed of the throw variations."),
    viewer: bool = typer.Option(
        False, "--viewer",
        help="Instead: frames per second of the headless 3D renderer at 1280x720 (pitch and Kubbuteo board).",
    ),
    frames: int = typer.Option(200, min=1, max=100_000, help="Frames to render with --viewer."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as one JSON document."),
    check: bool = typer.Option(
        True,
        "--check/--no-check",
        help="Also check the results: a bit-identical re-run, and the felled-per-baton rate against plain stepping at "
             "the fine step throughout.",
    ),
) -> None:
    """Measure full throws per second (release to rest, one core) against a bare PyBullet loop,
    check that the speed work leaves results unchanged, or with --viewer the frame rate of the
    headless renderer."""
    if viewer:
        try:
            from kubb3d.viewer.bench import viewer_fps
        except ModuleNotFoundError as exc:
            raise UserError(f"the 3D viewer is not available: {exc}") from None
        fps = viewer_fps(1280, 720, frames)
        board = viewer_fps(1280, 720, frames, equipment="kubbuteo")
        if as_json:
            typer.echo(json.dumps({"frames_per_s": fps, "kubbuteo_frames_per_s": board, "width": 1280, "height": 720,
                                   "frames": frames}))
        else:
            typer.echo(f"headless renderer: {fps:.1f} frames/s on the pitch, {board:.1f} on the Kubbuteo board, at "
                       f"1280x720 over {frames} frames")
        return
    from kubb3d.bench import run_bench

    figures = run_bench(throws, memory_throws, seed, show=not as_json, check=check)
    if as_json:
        typer.echo(json.dumps(figures))


def _reflow(text: str) -> str:
    """``text`` (a docstring) with the line breaks inside each paragraph turned into spaces:
    Typer's rich help keeps them, which broke the lines of ``kubb3d --help`` in mid-sentence."""
    import inspect

    return "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(text).split("\n\n"))


def _reflow_help(group: typer.Typer) -> None:
    """Reflow the help of every command of ``group`` and of its sub-groups (:func:`_reflow`)."""
    import inspect

    for command in group.registered_commands:
        text = command.help or inspect.getdoc(command.callback)
        if text:
            command.help = _reflow(text)
    for sub in group.registered_groups:
        if sub.typer_instance is not None:
            _reflow_help(sub.typer_instance)


_SUBAPP_MODULES = {
    "judge": "kubb3d.cli.judge",
    "quiz": "kubb3d.cli.judge",
    "match": "kubb3d.cli.match",
    "audit": "kubb3d.cli.audit",
    "rules": "kubb3d.cli.audit",
    "validate": "kubb3d.cli.validate",
    "calibrate": "kubb3d.cli.calibrate",
    "tournament": "kubb3d.cli.tournament",
    "play": "kubb3d.cli.viewer",
    "view": "kubb3d.cli.viewer",
    "experiment": "kubb3d.cli.experiment",
    "scenario": "kubb3d.cli.scenario",
    "dames": "kubb3d.cli.dames",
    "whatif": "kubb3d.cli.whatif",
    "analyse": "kubb3d.cli.analyse",
}
"""Command name → the module of this package that registers it (the commands defined here,
``throw``, ``bench`` and ``models``, are always there)."""
_registered: set[str] = set()


def _register_subapps(command: str | None = None) -> None:
    """Add the commands of the other modules of this package to :data:`app`: all of them, or
    with ``command`` (a name of :data:`_SUBAPP_MODULES`) only the module that holds it, so that
    running one command imports no other command's module (``kubb3d match`` starts ≈ 40 ms
    sooner without Rich and the dames; docs/speed.md "DM turns"). A module is added once."""
    import importlib

    wanted = _SUBAPP_MODULES.values() if command is None else (_SUBAPP_MODULES[command],)
    for module in dict.fromkeys(wanted):
        if module in _registered:
            continue
        _registered.add(module)
        if module == "kubb3d.cli.dames":
            from kubb3d.cli.dames import app as dames_app

            app.add_typer(
                dames_app, name="dames", help="Roll Kubb Dames, the board game of rolling dice-kubbs (rule book RKD)."
            )
        else:
            importlib.import_module(module).register(app)
    _reflow_help(app)


def _command_of(args: list[str]) -> str | None:
    """The command a command line names, when it is one of :data:`_SUBAPP_MODULES` and the line
    is not a shell completion request (which needs every command); else None."""
    import os

    if not args or any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ):
        return None
    return args[0] if args[0] in _SUBAPP_MODULES else None


def main(prog_name: str | None = None) -> None:
    """Console-script entry point (also ``python -m kubb3d``); errors: :class:`OneLineErrors`.
    A line naming a command of another module of this package registers that module only;
    any other line (help, a command defined here, a mistake, shell completion) registers all."""
    signal.signal(signal.SIGTERM, _sigterm_as_interrupt)  # from here on (OneLineErrors.main)
    if signal.getsignal(signal.SIGINT) is _interrupted_while_starting:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C: KeyboardInterrupt again
    try:
        _never_unencodable()
        try:
            from rich.console import Console

            Console.on_broken_pipe = lambda self: _pipe_closed()  # type: ignore[method-assign]  # rich's hook: exit 1
        except ImportError:  # pragma: no cover - rich comes with Typer
            pass
        _register_subapps(_command_of(sys.argv[1:]))
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    try:
        app(prog_name=prog_name)
    except KeyboardInterrupt:  # while Typer still builds the commands (before OneLineErrors.main)
        typer.echo("interrupted", err=True)
        _json_error("interrupted")
        sys.exit(130)
    finally:
        try:  # what is still buffered for a reader that went away
            if sys.stdout is not None:
                sys.stdout.flush()
        except BrokenPipeError:
            _pipe_closed()
        except (OSError, ValueError):
            pass

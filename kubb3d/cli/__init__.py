"""The ``kubb3d`` command line (Typer): this module holds the main app, its error handling and
:func:`main`; each command group is one module of this package (``throw``, ``bench``,
``models``, ``match``, ``judge`` and ``quiz``, ``scenario``, ``experiment``, ``audit`` and
``rules``, ``validate``, ``calibrate``, ``tournament``, ``play`` and ``view``, ``dames``,
``whatif``, ``analyse``, ``notation``, ``export``), registered by :func:`main`.

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
from typing import NoReturn  # noqa: E402

import typer  # noqa: E402
from typer.core import TyperArgument, TyperGroup, TyperOption  # noqa: E402


def _no_placeholder_on_flags() -> None:
    """Show no value placeholder on an on/off flag in ``--help``: Typer's rich help wrote
    ``<bool>`` beside every one (``--json <bool>``), as if the flag took a value; Click's own
    help leaves it out. Options that take a value keep theirs (``<int>``, ``NAME=VALUE``), in
    words rather than Python's type names: ``<list[str]>`` → ``<str>`` (the help says it
    repeats), ``<Path>`` → ``<path>``."""
    import re

    typed = TyperOption.display_type_rich
    argument_typed = TyperArgument.display_type_rich

    def plain(text):  # type: ignore[no-untyped-def]
        if not isinstance(text, str):
            return text
        text = re.sub(r"list\[([^\]]*)\]", r"\1", text)
        return text.replace("<Path>", "<path>")

    def display_type_rich(self, ctx):  # type: ignore[no-untyped-def]
        if self.is_flag and self.metavar is None:
            return None
        return plain(typed(self, ctx))

    def argument_type_rich(self, ctx):  # type: ignore[no-untyped-def]
        return plain(argument_typed(self, ctx))

    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]
    TyperArgument.display_type_rich = argument_type_rich  # type: ignore[method-assign]


_no_placeholder_on_flags()


try:  # recent Typer ships its own copy of Click
    from typer._click import exceptions as _click_exc
except ImportError:  # pragma: no cover - older Typer on top of Click
    from click import exceptions as _click_exc  # type: ignore[no-redef]


from kubb3d.errors import UserError as UserError  # noqa: E402  (re-exported)
from kubb3d.ranges import one_line as _one_line  # noqa: E402  (every error line goes through it)


_JSON_ERRORS = [False]
"""Whether the command line asked for ``--json`` of a command that takes it: its errors then also
go to stdout as one JSON object ``{"error": "…"}`` (set by :class:`OneLineErrors`). A command with
no JSON output (``quiz --json``) says its error once, on stderr."""


def _asks_json(group, args: list[str]) -> bool:
    """Whether ``args`` give ``--json`` (before any ``--``) to a command that takes it."""
    words = args[: args.index("--") if "--" in args else None]
    if "--json" not in words:
        return False
    command, i = group, 0
    while i < len(words) and words[i] in getattr(command, "commands", {}):
        command, i = command.commands[words[i]], i + 1
    return any("--json" in getattr(p, "opts", ()) for p in getattr(command, "params", ()))


def _json_error(msg: str) -> None:
    if _JSON_ERRORS[0]:
        sys.stdout.write(json.dumps({"error": _one_line(msg)}, ensure_ascii=False) + "\n")
        sys.stdout.flush()


_COMMAND_WORDS: list[list[str]] = [[]]
"""The words of the command line being run (set by :class:`OneLineErrors`): its ``--lang`` is
the language of its error lines (:func:`kubb3d.cli.lang.error_line`)."""


def _error(msg: object, code: int = 2) -> NoReturn:
    from kubb3d.cli.lang import error_line

    typer.echo(error_line(msg), err=True)
    _json_error(str(msg))  # the JSON document is data: English
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


_SIGNALS_TAKEN = [0]
"""Ctrl-C and SIGTERM taken by :func:`_sigterm_as_interrupt` in this invocation."""


def _sigterm_as_interrupt(signum, frame) -> NoReturn:
    """SIGTERM, and Ctrl-C once :func:`main` runs: KeyboardInterrupt, counted, so that an error
    a library made of the interrupt (pydantic-core turns a KeyboardInterrupt raised while it
    builds a model into a SchemaError) still ends as the line ``interrupted``."""
    _SIGNALS_TAKEN[0] += 1
    _LAST_SIGNAL[0] = signum
    raise KeyboardInterrupt


_LAST_SIGNAL = [0]
"""The number of the last signal :func:`_sigterm_as_interrupt` took, or 0."""


def _interrupt_again(unraisable) -> None:
    """``sys.unraisablehook``: an interrupt raised where Python cannot raise it (a weakref
    callback such as importlib's module lock, a ``__del__``) would be printed as "Exception
    ignored" and dropped; the signal is sent again a millisecond later, from a thread, so that
    it comes after the callback and ends the command as usual (one that lands in a callback
    again is sent again). Any other unraisable error goes to Python's own hook."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt) and _LAST_SIGNAL[0]:
        import threading

        again = threading.Timer(0.001, os.kill, (os.getpid(), _LAST_SIGNAL[0]))
        again.daemon = True
        again.start()
        return
    sys.__unraisablehook__(unraisable)


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
    from kubb3d.judge.messages import msg

    flags = None
    for i, word in enumerate(args):
        if word == "--":
            return None
        if word.startswith("--") and word.endswith("=") and len(word) > 3:
            return msg("{option}: expected a value, got an empty string", option=word[:-1])
        if word != "":
            continue
        prev = args[i - 1] if i else ""
        if flags is None:
            flags = _flags(group)
        if prev.startswith("-") and "=" not in prev and prev not in flags:
            return msg("{option}: expected a value, got an empty string", option=prev)
        command = "kubb3d " + " ".join(w for w in args[:i] if not w.startswith("-"))
        return msg("{command}: argument {n} is an empty string; expected a file or a name", command=command, n=i + 1)
    return None


def _missing_value(group, args: list[str]) -> str | None:
    """The message for an option that takes a value and is given none: the last word of the line
    (``match --option``), or followed by another option of the command, which Click took as its
    value (``match --option --seed 3`` set ``--option`` to ``--seed``); None if there is none.
    It names the command: ``kubb3d match --option: expected a value (NAME=VALUE), got nothing``."""
    command, i = group, 0
    while i < len(args) and args[i] in getattr(command, "commands", {}):
        command, i = command.commands[args[i]], i + 1
    if command is group or getattr(command, "commands", None):
        return None
    options = {}
    for param in getattr(command, "params", ()):
        for name in (*param.opts, *getattr(param, "secondary_opts", ())):
            if name.startswith("-"):
                options[name] = param
    j = i
    while j < len(args):
        word, param = args[j], options.get(args[j])
        if word == "--":
            return None
        if param is None or getattr(param, "is_flag", False) or getattr(param, "count", False):
            j += 1
            continue
        shape = f" ({param.metavar})" if getattr(param, "metavar", None) and "=" in param.metavar else ""
        where = " ".join(["kubb3d", *args[:i], word])  # the command named: "kubb3d match --option"
        from kubb3d.judge.messages import msg

        if j + 1 == len(args):
            return msg("{where}: expected a value{shape}, got nothing", where=where, shape=shape)
        if args[j + 1] in options or args[j + 1].split("=", 1)[0] in options:
            return msg("{where}: expected a value{shape}, got the option {option}", where=where, shape=shape,
                       option=args[j + 1])
        j += 2
    return None


def _number_kind(param) -> str | None:
    """``an integer`` or ``a number`` for an option typed ``int`` or ``float`` (Optional
    too), else None."""
    import typing

    ann = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    kinds = set(typing.get_args(ann)) or {ann}
    if bool in kinds:
        return None
    from kubb3d.judge.messages import msg

    return msg("an integer") if int in kinds else msg("a number") if float in kinds else None


def _range_error(exc: Exception, args: list[str]) -> str | None:
    """A Typer ``min``/``max`` check that failed, worded like every other range error
    (:func:`kubb3d.ranges.expected`): ``--throws: expected from 1 to 100000, got 0``, or a
    number option given a word: ``--seed: expected an integer (0 or more), got abc``; None for
    any other usage error."""
    from kubb3d.ranges import expected, span

    param = getattr(exc, "param", None)
    lo, hi = getattr(param, "min", None), getattr(param, "max", None)
    number = _number_kind(param)
    if param is None or (lo is None and hi is None and number is None):
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
    name = opts[-1] if opts else param.name
    try:
        (int if number == "an integer" else float)(got)
    except ValueError:  # not a number at all: say which kind ("expected 0 or more, got abc" did not)
        if number is not None:
            from kubb3d.judge.messages import concat

            kind = number if lo is None and hi is None else concat(number, " (", span(lo, hi), ")")
            return expected(name, kind, got)
    if lo is None and hi is None:
        return None
    return expected(name, span(lo, hi), got)


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

    def resolve_command(self, ctx, args):  # type: ignore[override]
        """Typer's, and for a word that is a command of a group (``kubb3d summary``) the group's
        command among the suggestions: ``did you mean 'experiment summary'?``."""
        try:
            return super().resolve_command(ctx, args)
        except _click_exc.UsageError as exc:
            name = args[0] if args else ""
            homes = [f"{group} {name}" for group, cmd in self.commands.items() if name in getattr(cmd, "commands", {})]
            if homes:
                more = ", ".join(repr(h) for h in homes)
                if exc.message.endswith("?"):  # Typer's close matches among the commands, then these
                    exc.message = f"{exc.message[:-1]}, {more}?"
                else:
                    exc.message = f"{exc.message.rstrip('.')}. Did you mean {more}?"
            raise

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
            from kubb3d.cli.lang import warning_line

            typer.echo(warning_line(message), err=True)

        warnings.showwarning = one_line_warning
        warnings.simplefilter("always", InputWarning)
        import signal
        import threading

        old_term = None
        if threading.current_thread() is threading.main_thread():
            old_term = signal.signal(signal.SIGTERM, _sigterm_as_interrupt)
        words = list(sys.argv[1:] if args is None else args)
        _JSON_ERRORS[0] = _asks_json(self, words)
        _COMMAND_WORDS[0] = words
        try:
            empty = _empty_word(self, words)
            if empty is not None:
                raise UserError(empty)
            missing = _missing_value(self, words)
            if missing is not None:
                raise UserError(missing)
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _click_exc.NoArgsIsHelpError as exc:
            typer.echo(exc.format_message(), err=True)
            sys.exit(2)
        except _click_exc.UsageError as exc:
            if isinstance(exc, _click_exc.NoSuchOption) and exc.option_name == "--json":
                exc.possibilities = None  # Click's closest names (quiz: --count) are no JSON output
            ranged = _range_error(exc, words)
            if ranged is not None:
                _error(ranged)
            name = exc.ctx.command_path if exc.ctx is not None else "kubb3d"
            # a parser's ValueError reaches Click through pydantic, which prefixes "Value error, "
            text = exc.format_message().replace("Value error, ", "")
            from kubb3d.cli.lang import usage_message

            _error(usage_message(name, text))
        except _click_exc.ClickException as exc:
            _error(exc.format_message())
        except (_Interrupted, KeyboardInterrupt):
            typer.echo("interrupted", err=True)
            _json_error("interrupted")
            sys.exit(130)
        except typer.Abort:  # an EOF at a prompt
            _error("interrupted", 130)
        except (UserError, NotImplementedError, FileSafetyError) as exc:
            _error(exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], str) else str(exc))
        except BrokenPipeError:
            _pipe_closed()
        except OSError as exc:
            # a path the user gave that cannot be read or written (missing folder, a file where
            # a folder is expected, no permission, a full disk…): one line naming the file
            where = f": {exc.filename}" if getattr(exc, "filename", None) else ""
            _error(f"{exc.strerror or exc}{where}")
        except Exception as exc:
            from kubb3d.physics.world import PhysicsGlitch

            if _SIGNALS_TAKEN[0]:  # an interrupt that a library wrapped into its own error
                typer.echo("interrupted", err=True)
                _json_error("interrupted")
                sys.exit(130)
            if isinstance(exc, PhysicsGlitch):
                _error(f"the simulation failed (check positions and sizes in the input): {exc}")
            raise
        finally:
            _JSON_ERRORS[0] = False  # one invocation's --json must not reach the next (in-process callers)
            _COMMAND_WORDS[0] = []
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
    "throw": "kubb3d.cli.throw",
    "bench": "kubb3d.cli.bench",
    "models": "kubb3d.cli.models",
    "judge": "kubb3d.cli.judge",
    "quiz": "kubb3d.cli.judge",
    "match": "kubb3d.cli.match",
    "audit": "kubb3d.cli.audit",
    "rules": "kubb3d.cli.audit",
    "validate": "kubb3d.cli.validate",
    "calibrate": "kubb3d.cli.calibrate",
    "sensitivity": "kubb3d.cli.sensitivity",
    "tournament": "kubb3d.cli.tournament",
    "play": "kubb3d.cli.viewer",
    "view": "kubb3d.cli.viewer",
    "stats": "kubb3d.cli.stats",
    "experiment": "kubb3d.cli.experiment",
    "scenario": "kubb3d.cli.scenario",
    "dames": "kubb3d.cli.dames",
    "whatif": "kubb3d.cli.whatif",
    "analyse": "kubb3d.cli.analyse",
    "notation": "kubb3d.cli.notation",
    "export": "kubb3d.cli.export",
}
"""Command name → the module of this package that registers it, in the order of ``kubb3d --help``."""
_registered: set[str] = set()


def _register_subapps(command: str | None = None) -> None:
    """Add the commands of the modules of this package to :data:`app`: all of them, or
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
    any other line (help, a mistake, shell completion) registers all."""
    signal.signal(signal.SIGTERM, _sigterm_as_interrupt)  # from here on (OneLineErrors.main)
    sys.unraisablehook = _interrupt_again
    if signal.getsignal(signal.SIGINT) is _interrupted_while_starting:
        signal.signal(signal.SIGINT, _sigterm_as_interrupt)  # Ctrl-C: KeyboardInterrupt again, counted
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
    except Exception:
        if not _SIGNALS_TAKEN[0]:
            raise
        typer.echo("interrupted", err=True)  # a library's error made of the interrupt
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

"""The options that name what a command writes, and the one rule they share (docs/reliability.md
"Files written").

Every file-writing option is made by :func:`output_option` and every command that has one also
has :func:`force_option`. Before any work, while the command line is read:

* a file option refuses a name whose suffix is not one of the kinds it writes (``--png c.txt``,
  ``--gltf m.gltf`` for a glTF *binary*, which is ``.glb``);
* an existing file is refused unless ``--force`` is given (``replace``); an option that adds to
  its file (``audit --log`` appends, ``experiment run --out`` resumes) keeps it (``append``);
* a folder option refuses a folder that already holds a file of the kind it writes (``--html``:
  ``index.html``; ``--replay-dir``: ``*.jsonl``) unless ``--force`` is given;
* an option written only under a switch (``quiz --out`` with ``--images``) is not refused when
  the switch is off (``--no-images``): nothing is written there;
* an option with both (``quiz --html``) takes a name with one of its suffixes as a file, as
  ``export --html`` does, and a name without a suffix as a folder;
* the path rule of :func:`kubb3d.files.check_output` (no symbolic link, no special file, an
  existing parent folder) holds as before.

Each refusal is one line ``error: --OPTION: …`` and exit code 2 with nothing written.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import typer

FORCE_HELP = "Replace output files that already exist (without it an existing file is refused)."


@dataclass(frozen=True)
class Output:
    """What an output option writes.

    Attributes:
        option: its name (``--png``).
        suffixes: the file name endings it accepts, lower case, first the one it is made for
            (empty for a folder).
        kind: what it writes, in words for the message (``a PNG picture``).
        existing: ``replace`` (an existing file needs ``--force``) or ``append`` (kept and added to).
        folder_files: for a folder option: the names (glob patterns) of the files it writes there.
            With ``suffixes`` too, a name without a suffix is a folder (:meth:`names_folder`).
        written_if: the name of the command's on/off switch without which nothing is written
            there (``quiz --no-images``: no pictures in ``--out``), read first (``is_eager``);
            with the switch off the existing-output rule does not apply. Empty: always written.
    """

    option: str
    suffixes: tuple[str, ...]
    kind: str
    existing: str = "replace"
    folder_files: tuple[str, ...] = ()
    written_if: str = ""

    @property
    def is_folder(self) -> bool:
        return not self.suffixes

    def names_folder(self, value: str | Path) -> bool:
        """Whether ``value`` names a folder: always for a folder option; for a file-or-folder
        option (``quiz --html``) a name without a suffix (``quiz``, ``quiz/``)."""
        return self.is_folder or (bool(self.folder_files) and not Path(value).suffix)

    def __call__(self, value: str) -> Path:
        """Typer's ``parser``: the name as a Path (a name ending in a separator names a folder)."""
        from kubb3d.files import file_name

        return Path(value) if self.names_folder(value) else file_name(value)


def _check(ctx: typer.Context, param: typer.CallbackParam, value: Optional[Path]) -> Optional[Path]:
    """The option's callback: the rule of the module doc, as the command line is read. A default
    value the user did not type (``quiz --out quiz-images``) is left to the command, which checks
    it with :func:`check` when it is going to write there."""
    if value is None or ctx.resilient_parsing:
        return value
    if param.name and getattr(ctx.get_parameter_source(param.name), "name", "") == "DEFAULT":
        return value
    out = output_of(param)
    assert out is not None
    if "force" not in ctx.params:  # a programming error, caught by tests/test_output_policy.py
        raise RuntimeError(f"{ctx.command_path} has {out.option} but no eager --force")
    if out.written_if:
        if out.written_if not in ctx.params:  # a programming error, caught by tests/test_output_policy.py
            raise RuntimeError(f"{ctx.command_path}: {out.option} is written if {out.written_if}, which is not eager")
        if not ctx.params[out.written_if]:  # nothing is written there: nothing to refuse
            return value
    from kubb3d.errors import FileSafetyError, UserError

    try:
        return check(value, out, force=bool(ctx.params["force"]))
    except (UserError, FileSafetyError) as exc:  # one line and exit 2 in any app (the dames' own too)
        from kubb3d.cli import _json_error

        from kubb3d.cli.lang import error_line

        typer.echo(error_line(exc), err=True)
        _json_error(str(exc))
        raise typer.Exit(2) from None


def check(value: Path, out: Output, *, force: bool) -> Path:
    """``value`` checked against the rule of the module doc for the option ``out``.

    Raises:
        kubb3d.errors.UserError: a suffix that is not the option's, an existing output
            without ``force``.
        kubb3d.files.FileSafetyError: the path rule of :func:`kubb3d.files.check_output`.
    """
    from kubb3d.errors import UserError
    from kubb3d.files import check_output, output_folder
    from kubb3d.judge.messages import msg, pmsg

    if out.names_folder(value):
        output_folder(value, out.option, create=False)
        if force or not value.is_dir():
            return value
        for entry in sorted(os.listdir(value)):
            if any(fnmatch.fnmatch(entry, pattern) for pattern in out.folder_files):
                raise UserError(
                    msg("{option}: {path} already exists; choose another folder (or --force to replace the files it "
                        "writes there)", option=out.option, path=str(value / entry))
                )
        return value
    if os.path.lexists(value) and (value.is_symlink() or not value.is_file()):
        check_output(value, out.option, overwrite=True)  # a link, a folder, a device: the path rule's own words
    if value.suffix.lower() not in out.suffixes:
        endings = out.suffixes[0]  # "a or b or c", the words of the screenshot checks before this module
        for suffix in out.suffixes[1:]:  # a context of its own: no other "x or y" is read back as one
            endings = pmsg("file suffixes", "{names} or {last}", names=endings, last=suffix)
        kind = msg(out.kind) if out.kind in KIND_WORDS else out.kind
        raise UserError(
            msg("{option} must name a {endings} file ({kind}), got {path}", option=out.option, endings=endings,
                kind=kind, path=str(value))
        )
    check_output(value, out.option, overwrite=force or out.existing == "append")
    return value


def N_(text: str) -> str:
    """Marks a word for the catalog (as :func:`kubb3d.judge.messages.N_`, without importing the judge)."""
    return text


KIND_WORDS = (
    N_("CSV or Parquet"), N_("JSON lines"), N_("JSON"), N_("Markdown"), N_("a PNG picture"),
    N_("a replay (JSON lines)"), N_("a results file (SQLite)"), N_("a web page; or a folder name without a suffix"),
    N_("an HTML page"), N_("glTF binary"), N_("text"),
)
"""The ``kind`` words of the output options, in the catalog: the error of a wrong suffix names
the kind in the command line's language."""


def output_option(
    option: str,
    help: str,
    *,
    suffixes: tuple[str, ...] = (),
    kind: str = "",
    existing: str = "replace",
    folder_files: tuple[str, ...] = (),
    written_if: str = "",
    aliases: tuple[str, ...] = (),
    default: Any = None,
) -> Any:
    """A Typer option naming a file (``suffixes`` and ``kind``), a folder (``folder_files``) or
    either (both given) the command writes, checked by the rule of the module doc as the command
    line is read (not when the switch ``written_if`` is off: :class:`Output`)."""
    if not suffixes and not folder_files:
        raise ValueError(f"{option}: give the suffixes of a file or the files written into a folder")
    if existing not in ("replace", "append"):
        raise ValueError(f"{option}: existing is 'replace' or 'append', got {existing!r}")
    spec = Output(option, tuple(s.lower() for s in suffixes), kind, existing, folder_files, written_if)
    return typer.Option(default, option, *aliases, parser=spec, callback=_check, help=help, metavar="PATH")


def force_option(help: str = FORCE_HELP) -> Any:
    """The ``--force`` option of a command with an output option (read first: ``is_eager``)."""
    return typer.Option(False, "--force", is_eager=True, help=help)


def output_of(param: Any) -> Optional[Output]:
    """The :class:`Output` of a Click parameter made by :func:`output_option`, else None."""
    info = getattr(getattr(param, "type_descriptor", None), "parameter_info", None)
    parser = getattr(info, "parser", None)
    return parser if isinstance(parser, Output) else None


def say_wrote(path: Path | str, tr: Any = None) -> None:
    """Tell the user a file was written: ``wrote PATH`` on stderr, so that stdout stays the
    report (or the ``--json`` document) whatever the options (analyse --png, notation --out,
    validate, calibrate and sensitivity outputs, match and play --replay, audit --log once wrote
    without a word). ``tr``: the command's translator (``--lang``), for a command that speaks
    German."""
    from kubb3d.judge.messages import msg

    line = msg("wrote {path}", path=str(path))
    typer.echo(tr(line) if tr is not None else str(line), err=True)

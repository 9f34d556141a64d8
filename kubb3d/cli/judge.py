"""``kubb3d judge`` and ``kubb3d quiz``: register them on the main Typer app with
:func:`register`.

``kubb3d judge FILE…`` builds each scenario, lets it settle in physics and prints
the rulings (``--json`` for data), and then each difference from the file's expectations or
one line saying they match; ``--check`` compares them with the expected
rulings and exits 1 on any difference. A file without ``[[expect]]`` is judged and
compared with nothing; ``--check`` refuses it. Under ``--option`` values other than the
file's own, only the expectations of rulings the options do not change are compared (the
others are named on a line of their own). A bad file is reported in one line
naming the file and field (exit 2); nothing prints a traceback.
"""

from __future__ import annotations

from kubb3d.errors import message as error_message

import json
from pathlib import Path
from typing import TYPE_CHECKING, List, NoReturn, Optional

import typer


from kubb3d.cli.lang import error_line, lang_option, translator_for
from kubb3d.cli.outputs import Output, check, force_option, output_option
from kubb3d.cli.referee import referee_option, referee_options
from kubb3d.i18n import ENGLISH, Translator
from kubb3d.judge.messages import N_, at_spot, msg, nmsg, piece_name
from kubb3d.ranges import counted


def _fail(msg: object) -> NoReturn:
    from kubb3d.cli import _json_error

    typer.echo(error_line(msg), err=True)
    _json_error(str(msg))
    raise typer.Exit(2)


if TYPE_CHECKING:
    from kubb3d.scenario import Result


PENALTY_MODES = {"throw": N_("throw"), "place": N_("place")}
"""How penalty kubbs are brought in (thrown by the opponent, DM §6; placed, WS basic rule 11)."""


def _format(res: Result, tr: Translator = ENGLISH) -> str:
    lines = [f"{res.path}: {tr(res.spec.title)} [{res.spec.ruleset}]"]
    for r in res.judgement.rulings:
        extra = []
        if r.hand_check:
            extra.append(tr(msg("hand check")))
        if r.raised_pose is not None:
            x, y, _ = r.raised_pose.position
            extra.append(tr(at_spot(x, y)))
        tail = f" ({'; '.join(extra)})" if extra else ""
        lines.append(
            f"  {tr(piece_name(r.piece)):<8} {tr(r.status.value):<9} → {tr(r.consequence.value)}{tail}"
            f"  [{', '.join(r.rules)}]"
        )
        lines.append(f"           {tr(r.reason)}")
    j = res.judgement
    if getattr(j, "winner", None):
        lines.append("  " + tr(msg("game: side {winner} wins, side {loser} loses", winner=j.winner, loser=j.loser)))
    if getattr(j, "penalty", None):
        mode = tr(PENALTY_MODES.get(j.penalty, j.penalty))
        lines.append("  " + tr(msg("penalty kubbs: {mode}", mode=mode)))
    return "\n".join(lines)


def judge_command(
    files: List[Path] = typer.Argument(
        None,
        help="Scenario files (.toml), directories holding them, or short names of shipped scenarios (default: the "
             "whole shipped library; see `kubb3d scenario list`).",
    ),
    as_json: bool = typer.Option(
        False,
        "--json",
        help="Print the rulings as JSON Lines: one JSON object per scenario (file, title, ruleset, event, "
             "rulings, ok, mismatches and the judgement's other fields), one per line, in the order judged, "
             "whether one scenario or many; a single scenario is thus one JSON document. A refusal before any "
             "ruling is the one object {\"error\": …}.",
    ),
    check: bool = typer.Option(
        False,
        "--check",
        help="Compare with the expected rulings; exit 1 on any difference. A file without expect tables is "
             "refused (exit 2): without --check it is judged, nothing compared.",
    ),
    option: Optional[List[str]] = referee_option(),
    lang: Optional[str] = lang_option(),
) -> None:
    """Build judge scenarios in physics, let them settle and print the referee's rulings."""
    from kubb3d.library import scenarios_dir
    from kubb3d.scenario import ScenarioError, check_all, collect, has_expectations, judge_options, load, run

    tr = translator_for(lang)
    try:
        options = judge_options(referee_options(option))
    except ValueError as exc:
        _fail(f"--option: {exc}")

    try:
        paths = collect(files or [scenarios_dir()])
    except ScenarioError as exc:
        _fail(error_message(exc))
    errors = check_all(paths)  # every file before the first ruling: a refusal does nothing
    if check and not errors:  # --check compares: a file that expects nothing has nothing to check
        errors = [msg("{file}: expect: {why}", file=str(p), why=NOTHING_TO_CHECK)
                  for p in paths if not has_expectations(load(p))]
    for error in errors:
        typer.echo(error_line(error, tr), err=True)
    if errors:
        if as_json:
            from kubb3d.cli import _json_error

            _json_error("; ".join(errors))
        raise typer.Exit(2)
    results = []
    for p in paths:
        try:
            res, _ = run(p, options=options)
        except ScenarioError as exc:
            errors.append(error_message(exc))
            typer.echo(error_line(exc), err=True)
            continue
        results.append(res)
        skipped = tr(not_compared(res.not_compared)) if res.not_compared else ""
        if check and not as_json:
            if res.mismatches:
                typer.echo(f"FAIL {p}: {tr(res.spec.title)}")
                for m in res.mismatches:
                    typer.echo(f"     {m}")
                if skipped:
                    typer.echo(f"     {skipped}")
            else:
                typer.echo(f"ok   {p}" + (f"; {skipped}" if skipped else ""))
        elif not as_json:
            typer.echo(_format(res, tr))
            for m in res.mismatches:
                typer.echo(f"  differs from expected: {m}")
            if not res.mismatches and expectations(res):  # as loud as a difference: view and export say so too
                typer.echo("  " + tr(matches(expectations(res))))
            if skipped:
                typer.echo(f"  {skipped}")
    if as_json and (results or not errors):  # no document when every file was refused
        for r in results:  # JSON Lines: the same object per scenario, one scenario or many
            typer.echo(json.dumps(r.to_dict(), ensure_ascii=False))
    failed = [r for r in results if r.mismatches]
    if check and not as_json:
        typer.echo(
            f"{len(results) - len(failed)} of {counted(len(paths), 'scenario')} as expected"
            + (f", {counted(len(errors), 'bad file')}" if errors else "")
        )
    if errors:
        if as_json and not results:  # the refusals as the document
            from kubb3d.cli import _json_error

            _json_error("; ".join(errors))
        raise typer.Exit(2)
    if check and failed:
        raise typer.Exit(1)


def expectations(res: Result) -> int:
    """How many of the file's expectations were compared with the rulings (those ``--option``
    leaves out are not)."""
    from kubb3d.scenario_expect import count

    return count(res.spec, res.not_compared)


def matches(n: int) -> str:
    """The line of a judged file whose rulings are what its ``n`` expectations say (the words of
    ``view`` and ``export --html``)."""
    return nmsg("matches the expected rulings ({n} expectation compared)",
                "matches the expected rulings ({n} expectations compared)", n, n=n)


def not_compared(pieces: tuple[str, ...]) -> str:
    """The line saying which expectations ``judge --option`` left out: those of the pieces (and
    the outcome) whose ruling the options change (:mod:`kubb3d.scenario_expect`)."""
    return nmsg(
        "not compared: {pieces} (the file's expectations are for its own options, and --option changes this "
        "ruling)",
        "not compared: {pieces} (the file's expectations are for its own options, and --option changes these "
        "rulings)",
        len(pieces),
        pieces=", ".join(pieces),
    )


NOTHING_TO_CHECK = msg("--check compares the rulings with the file's [[expect]], and it has none (without --check "
                       "judge prints the rulings)")
"""Why ``judge --check`` refuses a scenario without expectations (docs/scenarios.md)."""

QUIZ_IMAGES = ("*.png",)
"""The files ``quiz --out`` writes (the top and side view of each scenario)."""


def quiz_command(
    ctx: typer.Context,
    files: List[Path] = typer.Argument(
        None,
        help="Scenario files, directories or short names (default: the shipped library; see `kubb3d scenario list`).",
    ),
    seed: int = typer.Option(0, min=0, help="Seed of the question order (numpy Generator)."),
    count: Optional[int] = typer.Option(None, min=1, help="Ask at most this many scenarios."),
    out: Path = output_option(
        "--out",
        "Folder for the rendered top and side views (PNG). The default folder's pictures of an earlier quiz are "
        "replaced; a folder you name that holds pictures needs --force.",
        folder_files=QUIZ_IMAGES,
        written_if="images",
        default=Path("quiz-images"),
    ),
    images: bool = typer.Option(
        True, is_eager=True, help="Render the views (off: text only; --out is then not written)."
    ),
    lang: Optional[str] = lang_option(),
    view: bool = typer.Option(
        False, "--view", help="Open each situation in the 3D view before its question (close the window to answer)."
    ),
    html: Optional[Path] = output_option(
        "--html",
        "Write the quiz as one web page instead of asking: a .html name is that file (as export --html), a "
        "name without a suffix a folder to hold index.html (offline, on a phone too).",
        suffixes=(".html", ".htm"),
        kind="a web page; or a folder name without a suffix",
        folder_files=("index.html",),
    ),
    force: bool = force_option(),
) -> None:
    """Referee training: rule on scenarios one at a time, then see the right ruling and its rule."""
    from kubb3d.library import scenarios_dir
    from kubb3d.quiz import quiz_files, run_quiz
    from kubb3d.scenario import ScenarioError

    tr = translator_for(lang)
    if html is not None:
        _quiz_site(files or [scenarios_dir()], html, seed=seed, count=count, tr=tr, force=force)
        return
    try:  # the scenarios before anything is said or replaced: a refusal is its one error line
        quiz_files(files or [scenarios_dir()])
    except ScenarioError as exc:
        _fail(exc)
    if images:
        from kubb3d.errors import UserError
        from kubb3d.files import FileSafetyError, output_folder

        # The default folder is the quiz's own: a second quiz replaces the pictures of the first
        # (renders of the same scenarios) and says so, where it once refused to start. A folder
        # the user named keeps the rule of every output folder: refused unless --force.
        own = getattr(ctx.get_parameter_source("out"), "name", "") == "DEFAULT"
        spec = Output("--out", (), "", folder_files=QUIZ_IMAGES)
        try:  # checked before the first question; made (one level deep) with the first picture
            output_folder(out, "--out", create=False)
            if own and not force:
                try:
                    check(out, spec, force=False)
                except UserError:
                    typer.echo(tr(msg("note: replacing the pictures of an earlier quiz in {folder} (--out DIR keeps "
                                      "them)", folder=str(out))), err=True)
            check(out, spec, force=force or own)
        except (FileSafetyError, UserError) as exc:
            _fail(error_message(exc))
    render = None
    if images:  # the pictures come from the 3D view's renderer, into --out
        from kubb3d.viewer.still import render_views

        def render_to_out(built, stem: str) -> tuple[Path, Path]:
            return render_views(built, out, stem, tr=tr)

        render = render_to_out

    show = None
    if view:
        from kubb3d.viewer import app as viewer_app

        try:  # a window first: the headless pictures then render in its (hidden) context
            viewer_app.load_pyglet(headless=False)
        except viewer_app.NoDisplay:
            _fail(
                "--view: no display to open a window on (DISPLAY is not set); without --view the quiz "
                "saves its pictures as PNG files, and --html QUIZ.html writes it as a web page"
            )
        show = viewer_app.quiz_view
    try:
        run_quiz(files or [scenarios_dir()], seed=seed, count=count, render=render, tr=tr, show=show)
    except ScenarioError as exc:
        _fail(error_message(exc))


def _quiz_site(files: List[Path], target: Path, *, seed: int, count: Optional[int], tr, force: bool = False) -> None:
    """``quiz --html``: the quiz as one self-contained offline page, the file ``target`` when it
    ends in .html/.htm, else ``index.html`` in the folder ``target`` (docs/web.md)."""
    from kubb3d.files import FileSafetyError, output_folder, write_output
    from kubb3d.judge.messages import msg
    from kubb3d.scenario import ScenarioError
    from kubb3d.web.page import quiz_page

    in_folder = target.suffix.lower() not in (".html", ".htm")
    try:
        if in_folder:
            output_folder(target, "--html", create=False)  # before any work
        page = quiz_page(files, seed=seed, count=count, tr=tr).encode("utf-8")
        if in_folder:
            output_folder(target, "--html")
        path = target / "index.html" if in_folder else target
        index = write_output(path, lambda tmp: tmp.write_bytes(page), "--html", overwrite=force)
    except (ScenarioError, FileSafetyError) as exc:
        _fail(error_message(exc))
    typer.echo(tr(msg("wrote {path} ({size:.2f} MB)", path=str(index), size=len(page) / 1e6)))


def register(app: typer.Typer) -> None:
    """Add the ``judge`` and ``quiz`` commands to the main ``kubb3d`` app."""
    app.command("judge")(judge_command)
    app.command("quiz")(quiz_command)

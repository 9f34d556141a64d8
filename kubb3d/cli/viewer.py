"""``kubb3d play`` and ``kubb3d view``: the 3D viewer's commands.

:func:`register` adds them to the main Typer app. pyglet is imported only inside the
command bodies, so ``import kubb3d`` and ``kubb3d --help`` never load it.
"""

from __future__ import annotations

from kubb3d.errors import message as error_message

from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from kubb3d.cli.outputs import force_option, output_option
from kubb3d.cli.lang import lang_option, translator_for
from kubb3d.cli.referee import referee_option, referee_options
from kubb3d.ranges import did_you_mean, expected, span, listed
from kubb3d.judge.rulebook import ruleset_enum
from kubb3d.judge.messages import N_, msg, nmsg
from kubb3d.rules.core import MAX_ROUND_CAP


class Camera(str, Enum):
    thrower = "thrower"
    orbit = "orbit"
    top = "top"
    follow = "follow"


Ruleset = ruleset_enum()


class Difficulty(str, Enum):
    """``--difficulty``: :data:`kubb3d.match.human.DIFFICULTIES` (kept in step by a test)."""

    exact = "exact"
    easy = "easy"
    club = "club"
    elite = "elite"


DEFAULT_DIFFICULTY = "club"
"""The person's release error when ``--difficulty`` is not given (with ``--opponent`` or ``--challenge``)."""


def _user_error(message: str) -> Exception:
    from kubb3d.cli import UserError

    return UserError(message)


def _match_only(flags: list[str], here: str) -> str:
    """The error for match options given where there is no match (``here``: what is played)."""
    names = flags[0] if len(flags) == 1 else msg("{first} and {last}", first=", ".join(flags[:-1]), last=flags[-1])
    return nmsg("{names} needs --opponent (a match): {here} take no such option", "{names} need --opponent (a match): {here} take no such options", len(flags), names=names, here=msg(here))


def _check_size(width: int, height: int) -> None:
    if not (16 <= width <= 8192 and 16 <= height <= 8192):
        raise _user_error(expected("--width and --height", span(16, 8192, " px"), f"{width}×{height}"))


def _check_out(path: Path) -> None:
    from kubb3d.files import check_output

    if path.suffix.lower() != ".png":
        raise _user_error(msg("--screenshot must name a .png file, got {path}", path=str(path)))
    check_output(path, "--screenshot", overwrite=True)


def play(
    ruleset: Ruleset = typer.Option("dm", help="Rules for throws and rulings (and the match with --opponent)."),
    opponent: Optional[str] = typer.Option(None, help="Play a whole match against a simulated player of this skill (novice, club, elite); you play P1 (in a WS match team T1)."),
    equipment: str = typer.Option("standard", "--set", help="Equipment set (standard, dm-small; kubbuteo comes with --ruleset kubbuteo)."),
    screenshot: Optional[Path] = output_option("--screenshot", "Render one frame headless to this PNG and exit (no display needed).", suffixes=(".png",), kind="a PNG picture"),
    after: int = typer.Option(0, min=0, max=60, help="With --screenshot: the frame after this many scripted throws (aimed at B1, B2 …); with --opponent, match actions (your throws scripted); with --challenge, the computer's throws of the drill."),
    seed: int = typer.Option(0, min=0, help="Seed of the scripted throws' release errors (and of the opponent); with --challenge, of your release errors (R: the next seed)."),
    camera: Camera = typer.Option(Camera.thrower, help="Initial camera."),
    width: int = typer.Option(1280, help="Window / image width, px."),
    height: int = typer.Option(720, help="Window / image height, px."),
    replay: Optional[Path] = output_option("--replay", "With --opponent: save the match as a replay (JSON lines) to this new file (`kubb3d view FILE`).", suffixes=(".jsonl",), kind="a replay (JSON lines)"),
    force: bool = force_option(),
    round_cap: Optional[int] = typer.Option(None, min=3, max=MAX_ROUND_CAP, help="With --opponent: turns per set before the match is cut off (3 or more; default 60)."),
    difficulty: Optional[Difficulty] = typer.Option(None, help=f"With --opponent or --challenge: the release error of your throws and flicks: the simulated players' noise of that level (easy is novice's), growing with the power you give; exact: none, for practice (default {DEFAULT_DIFFICULTY}; docs/viewer.md \"Difficulty\")."),
    best_of: Optional[int] = typer.Option(None, "--best-of", help="With --opponent: best of this many sets (an odd number from 1 to 9; DM and Kubbuteo), e.g. a short best of three: --best-of 3 --round-cap 6."),
    challenge: Optional[str] = typer.Option(None, help="Play a drill with a score and a best score kept between sessions: baseline (five kubbs, six batons), inkast (five kubbs into a ring), king (the king shot) (docs/viewer.md \"Challenges\")."),
    auto: bool = typer.Option(False, "--auto", help="With --challenge: the computer plays the drill headless (its aim, your error) and prints the score."),
    as_json: bool = typer.Option(False, "--json", help="With --challenge --auto: print the run as one JSON document."),
    option: Optional[list[str]] = referee_option("With --opponent: "),
    lang: Optional[str] = lang_option(),
) -> None:
    """Throw batons in a 3D view of a regulation pitch (free throws, or a match with --opponent);
    with --ruleset kubbuteo, flick disks on the table-top board.

    Keys: F1 shows them all. Mouse aims, holding the left button (or SPACE) charges the
    power bar, releasing throws (or flicks); wheel/UP/DOWN elevation, Q/E spin, Z/X tilt,
    LEFT/RIGHT release point, 1-4 cameras, M slow motion, R new round, ESC quits.
    """
    tr = translator_for(lang)
    _check_size(width, height)
    if screenshot is not None:
        _check_out(screenshot)
    elif after:
        raise _user_error(msg("--after only makes sense with --screenshot"))
    from kubb3d.equipment import EQUIPMENT_SETS
    from kubb3d.rules import get_ruleset

    if equipment not in EQUIPMENT_SETS:
        raise _user_error(msg("unknown equipment set {name}{near}; expected one of {names}", name=repr(equipment), near=did_you_mean(equipment, sorted(EQUIPMENT_SETS)), names=listed(sorted(EQUIPMENT_SETS))))
    rules_name = get_ruleset(ruleset.value).name  # ws, kt: the rule books' short names
    own = get_ruleset(rules_name).equipment
    on_board = EQUIPMENT_SETS[own].board is not None
    if on_board and equipment == "standard":  # the option's default: the ruleset's own set
        equipment = own
    if (EQUIPMENT_SETS[equipment].board is not None) != on_board:
        raise _user_error(msg("--set {name} does not go with --ruleset {ruleset} (its set is {own})", name=equipment, ruleset=rules_name, own=repr(own)))
    options = referee_options(option)
    if challenge is None and (auto or as_json):
        raise _user_error(msg("--auto and --json need --challenge"))
    if as_json and not auto:
        raise _user_error(msg("--json needs --auto (the computer's run of the challenge)"))
    if auto and screenshot is not None:  # it used to be ignored without a word
        raise _user_error(msg("--auto prints the computer's run and draws nothing: for a picture drop --auto (--screenshot F --after N)"))
    # --replay, --round-cap, --best-of and --option are a match's (--opponent): free throws
    # and the drills take none of them; --difficulty goes with a match or a drill
    match_only = [flag for flag, given in (("--replay", replay is not None), ("--round-cap", round_cap is not None), ("--best-of", best_of is not None), ("--option", bool(option))) if given]
    if challenge is not None:
        if opponent is not None:
            raise _user_error(msg("--challenge and --opponent exclude each other (a drill or a match): drop --opponent or --challenge"))
        if match_only:
            raise _user_error(_match_only(match_only, N_("--challenge drills")))
        if rules_name != "dm" or equipment != "standard":
            raise _user_error(msg("the challenges are drills on the DM pitch with the standard set: drop --ruleset and --set"))
        from kubb3d.cli.challenge import run_challenge

        level = DEFAULT_DIFFICULTY if difficulty is None else difficulty.value
        run_challenge(challenge, level, seed, auto=auto, as_json=as_json, screenshot=screenshot, after=after, width=width, height=height, camera=camera.value, tr=tr)
        return
    if opponent is None and match_only:
        raise _user_error(_match_only(match_only, N_("free throws")))
    if opponent is None and difficulty is not None:
        raise _user_error(msg("--difficulty needs --opponent (a match) or --challenge (a drill): free throws are exact"))
    if best_of is not None:
        if rules_name == "wikinger":
            raise _user_error(msg("--best-of does not apply to --ruleset wikinger (one game against the clock)"))
        if not (1 <= best_of <= 9 and best_of % 2 == 1):
            raise _user_error(expected("--best-of", msg("an odd number from 1 to 9"), best_of))
    level = DEFAULT_DIFFICULTY if difficulty is None else difficulty.value
    if replay is not None:
        from kubb3d.files import check_output

        check_output(replay, "--replay", overwrite=force)
    if opponent is not None:
        from kubb3d.viewer.match_mode import MatchUnavailable, match_session

        try:
            session = match_session(rules_name, opponent, equipment, seed, hold=screenshot is not None, replay=replay, round_cap=round_cap, options=options, replace_replay=force, difficulty=level, sets=best_of)
        except MatchUnavailable as exc:
            raise _user_error(error_message(exc)) from None
        except ValueError as exc:
            from kubb3d.judge.messages import concat

            raise _user_error(concat("--opponent: ", error_message(exc))) from None
        session.tr = tr
        _run(session, screenshot, width, height, camera.value, "play", after=after)
        if replay is not None and replay.is_file():  # (stderr: as every command that writes a file)
            from kubb3d.cli.outputs import say_wrote

            say_wrote(replay, tr)
        return
    from kubb3d.viewer import app as A

    try:
        if screenshot is not None:
            out = A.screenshot_play(screenshot, after=after, seed=seed, width=width, height=height, camera=camera.value, equipment=equipment, ruleset=rules_name, tr=tr)
            typer.echo(f"wrote {out}")
            return
        session = A.PlaySession(equipment, rules_name)
        session.tr = tr
        _run(session, None, width, height, camera.value, "play")
    except A.NoDisplay as exc:
        raise _user_error(error_message(exc)) from None


def _run(session, screenshot: Optional[Path], width: int, height: int, camera: str, mode: str, after: int = 0) -> None:
    from kubb3d.viewer import app as A

    if screenshot is not None:
        if hasattr(session, "timeline"):
            out = A.screenshot_session(session, screenshot, width=width, height=height, camera=camera)
        else:
            app = A.App(session, width, height, headless=True, mode=mode, camera=camera)
            try:
                if after and hasattr(session, "advance_throws"):
                    session.advance_throws(after)
                app.frame(0.0)
                out = app.screenshot(screenshot)
            finally:
                app.close()
        typer.echo(f"wrote {out}")
        return
    try:
        app = A.App(session, width, height, headless=False, mode=mode, camera=camera)
    except A.NoDisplay as exc:
        session.close()
        raise _user_error(error_message(exc)) from None
    try:
        app.run()
    finally:
        app.close()


def view(
    path: Path = typer.Argument(..., help="A replay written by `kubb3d match --replay`, a scenario file (scenarios/*.toml) or a shipped scenario's short name (`kubb3d scenario list`)."),
    screenshot: Optional[Path] = output_option("--screenshot", "Render one frame headless to this PNG and exit (no display needed).", suffixes=(".png",), kind="a PNG picture"),
    force: bool = force_option(),
    at: Optional[float] = typer.Option(None, help="With --screenshot: the replay time, s (default: the end; a scenario's ruling; 0: a scenario as set up)."),
    camera: Camera = typer.Option(Camera.orbit, help="Initial camera."),
    width: int = typer.Option(1280, help="Window / image width, px."),
    height: int = typer.Option(720, help="Window / image height, px."),
    lang: Optional[str] = lang_option(),
) -> None:
    """Replay a match (play/pause, next throw, speed, timeline) or look at a scenario with its rulings.

    A scenario opens paused on its pieces as the file sets them up (a leaning kubb leans),
    before the ruling; SPACE plays the ruling: the pieces come to rest, the judge's colours and
    the rulings panel appear, kubbs to raise are raised. --screenshot shows the end (the
    ruling) unless --at is given.

    Keys: SPACE play/pause, RIGHT/LEFT next/previous throw, UP/DOWN speed, HOME/END,
    click on the timeline to seek; 1-4 cameras, right drag orbits, F1 help, ESC quits.
    """
    tr = translator_for(lang)
    _check_size(width, height)
    if screenshot is not None:
        _check_out(screenshot)
    if at is not None and (at != at or at < 0):
        raise _user_error(expected("--at", span(0, unit=" s"), at))
    from kubb3d.library import resolve_scenario

    path = resolve_scenario(path)
    if path.is_dir():  # it had said "no such file or directory" of a folder that exists
        from kubb3d.judge.messages import msg

        raise _user_error(msg("{what} {path} is a folder, not a file", what=msg("replay file"), path=str(path)))
    if not path.is_file():
        from kubb3d.library import not_found

        raise _user_error(not_found(path))
    from kubb3d.viewer.replay import ReplayError, load_session

    try:
        session = load_session(path)
    except ReplayError as exc:
        raise _user_error(error_message(exc)) from None
    session.tr = tr
    if screenshot is not None:
        from kubb3d.viewer import app as A

        out = A.screenshot_session(session, screenshot, at=at, width=width, height=height, camera=camera.value)
        typer.echo(f"wrote {out}")
        return
    _run(session, None, width, height, camera.value, "view")


def register(app: typer.Typer) -> None:
    """Add the ``play`` and ``view`` commands to the main ``kubb3d`` app."""
    app.command("play")(play)
    app.command("view")(view)

"""``kubb3d match``: a whole simulated match with a play-by-play (rich) or JSON.

Call :func:`register` with the main Typer app. User mistakes (bad flag values, an unreadable
replay file) print one line ``error: …`` on stderr and exit with code 2, no traceback.
"""

from __future__ import annotations

from kubb3d.errors import message as error_message

import json
import sys
from pathlib import Path
from typing import NoReturn, Optional

import typer

from kubb3d.cli.outputs import force_option, output_option
from kubb3d.cli.lang import error_line, lang_option, translator_for
from kubb3d.cli.referee import referee_option, referee_options, ruleset_named
from kubb3d.judge.messages import N_, Msg, msg, nmsg
from kubb3d.judge.rulebook import ruleset_help
from kubb3d.rules.core import DEFAULT_ROUND_CAP, get_ruleset, ruleset_names
from kubb3d.ranges import expected, span, unknown_name

DEFAULT_SEED = 1

EVENT_KINDS = (
    N_("lag"),
    N_("choice"),
    N_("set"),
    N_("turn"),
    N_("inkast"),
    N_("penalty"),
    N_("place"),
    N_("raise"),
    N_("line"),
    N_("throw"),
    N_("ruling"),
    N_("foul"),
    N_("glitch"),
    N_("note"),
    N_("clock"),
    N_("tiebreak"),
    N_("result"),
)
"""The play-by-play's event kinds (``Event.kind``), each a translatable word."""
TERMINATIONS = (N_("king"), N_("early_king"), N_("sets"), N_("time"), N_("round_cap"))
"""How a match ended (``Termination`` names in lower case, as ``--json`` and the notation give them)."""
ENDINGS = {
    "king": N_("the king felled"),
    "early_king": N_("the king felled early"),
    "sets": N_("on sets"),
    "time": N_("time up"),
    "round_cap": N_("turn cap reached; see docs/rules.md"),
}
"""Each of :data:`TERMINATIONS` in words for the result line (the turn cap is no rule book's:
docs/rules.md "Decisions where the rule books are silent")."""
ENDING_NAMES = {
    "king": "the king",
    "early_king": "an early king",
    "sets": "sets",
    "time": "time up",
    "round_cap": "the turn cap",
}
"""Each of :data:`TERMINATIONS` in a few words for counts (``whatif``'s "ended by: the king 7,
the turn cap 3"; English, as those reports)."""


def ending_name(termination: object) -> str:
    """:data:`ENDING_NAMES` of a termination as a replay or an outcome names it (``ROUND_CAP``,
    ``round_cap``); an unknown one as it is, in lower case."""
    key = str(termination).lower()
    return ENDING_NAMES.get(key, key)


def points_words(out, ruleset: str) -> Msg:
    """What the points of a finished match are, with their numbers: the sets won where the
    ruleset scores a match by its sets (DM §3), else the ruleset's match points (WS "End of the
    Game": 2 for the king, 1 for more baseline kubbs when time or the cap ends it)."""
    numbers = ", ".join(f"{p} {v}" for p, v in out.points.items())
    if ruleset == "wikinger":
        from kubb3d.rules.wikinger import CLOCK_WIN_POINTS, WIN_POINTS

        return msg(
            "WS points ({king} for the king, {baseline} for more baseline kubbs at the end): {points}",
            king=WIN_POINTS,
            baseline=CLOCK_WIN_POINTS,
            points=numbers,
        )
    return msg("sets won: {points}", points=numbers)


def result_line(out, clock_s: float, ruleset: str = "dm") -> str:
    """The last line of ``kubb3d match``: winner, how it ended in words, the points and what
    they are, simulated minutes, the referee's reason (with its rule)."""
    how = out.termination.name.lower()
    params = {
        "how": Msg(ENDINGS[how]) if how in ENDINGS else how,
        "points": points_words(out, ruleset),
        "minutes": clock_s / 60,
        "reason": out.reason,
    }
    if out.winner is None:
        return msg("result: draw ({how}) — {reason}; {points}; {minutes:.1f} min simulated", **params)
    return msg(
        "result: {player} wins ({how}) — {reason}; {points}; {minutes:.1f} min simulated",
        player=out.winner,
        **params,
    )


def _fail(msg: str) -> NoReturn:
    from kubb3d.cli import _json_error

    typer.echo(error_line(msg), err=True)
    _json_error(msg)
    raise typer.Exit(2)


def parse_players(spec: str | None, ruleset: str) -> tuple[tuple[str, str], tuple[int, int] | None]:
    """``elite,club`` → skills; for wikinger also ``club:6,elite:4`` or ``6,4`` (team sizes,
    skill ``club``). Returns (skills, team size or pair or None). Raises ValueError."""
    from kubb3d.players import SKILLS

    if spec is None:
        return ("club", "club"), None
    parts = [p.strip() for p in spec.split(",")]
    if len(parts) != 2 or not all(parts):
        raise ValueError(msg("--players needs two comma-separated entries, got {spec}", spec=repr(spec)))
    skills: list[str] = []
    sizes: list[int | None] = []
    for p in parts:
        skill, _, size = p.partition(":")
        if skill.isdigit() and not size:
            skill, size = "club", skill
        if skill not in SKILLS:
            raise ValueError(unknown_name("skill", skill, SKILLS, "--players"))
        skills.append(skill)
        if size:
            if get_ruleset(ruleset).team_size == 1:
                teams = " or ".join(n for n in ruleset_names() if get_ruleset(n).team_size > 1)
                raise ValueError(f"team sizes in --players apply to --ruleset {teams} only")
            if not size.isdigit() or not 1 <= int(size) <= 12:
                raise ValueError(f"team size must be a whole number from 1 to 12, got {size!r}")
            sizes.append(int(size))
        else:
            sizes.append(None)
    if all(s is None for s in sizes):
        return (skills[0], skills[1]), None
    default = get_ruleset(ruleset).team_size
    a, b = (default if s is None else s for s in sizes)
    return (skills[0], skills[1]), (a, b)


def match_document(m, out) -> dict:
    """The ``match --json`` document: ``config`` (``time_limit_s`` the limit in force, s, or
    null for none), ``events`` (the play-by-play in causal order), ``actions`` (every action
    with its structured outcome: felled pieces, rulings, legality), ``clock_s``, ``glitches``
    and ``outcome``."""
    from kubb3d.rules.core import action_to_dict

    config = m.config.to_dict()
    config["time_limit_s"] = m.state.time_limit_s
    actions = [{"action": action_to_dict(a), "outcome": None if o is None else o.to_dict()} for a, o in m.state.history]
    return {
        "config": config,
        "events": [e.to_dict() for e in m.events],
        "actions": actions,
        "clock_s": m.state.clock,
        "glitches": m.glitches,
        "outcome": out.to_dict(),
    }


def match(
    ruleset: Optional[str] = typer.Option(
        None,
        help=f"Ruleset: {ruleset_help()}.",
    ),
    players: Optional[str] = typer.Option(
        None,
        help="Skill of each side: 'elite,club' (novice, club, elite); wikinger also 'club:6,elite:4' or team sizes "
             "'6,4'.",
    ),
    seed: Optional[int] = typer.Option(
        None, min=0, help=f"Root seed: the same seed plays the same match (default {DEFAULT_SEED})."
    ),
    sets: Optional[int] = typer.Option(None, help="Best of this many sets, an odd number from 1 to 9 (DM; default 1)."),
    time_limit: Optional[float] = typer.Option(
        None,
        "--time-limit",
        help="Time limit in minutes of simulated time (DM: then the §9 tie-break; wikinger default 20).",
    ),
    round_cap: Optional[int] = typer.Option(
        None, help=f"Turns per set before the match is cut off (no endless matches; default {DEFAULT_ROUND_CAP})."
    ),
    strategy: Optional[str] = typer.Option(
        None,
        help="Strategy of each side, 'default,deep-inkast': default (field kubbs nearest the line first, a "
             "tight inkast group past the centre line), deep-inkast (as default, the inkast group lands deep) "
             "or cluster-first (as default, the field kubb with most neighbours first).",
    ),
    replay: Optional[Path] = output_option(
        "--replay",
        "Write the replay (JSON lines) to this new file.",
        suffixes=(".jsonl",),
        kind="a replay (JSON lines)",
    ),
    force: bool = force_option("Let --replay replace an existing file."),
    resume: Optional[Path] = typer.Option(
        None, help="Continue the interrupted match in this replay file (other options are taken from it)."
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print the match as one JSON document ending in the outcome."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the result."),
    option: Optional[list[str]] = referee_option(),
    lang: Optional[str] = lang_option(),
) -> None:
    """Play a whole match of Kubb in the physics world, refereed by the judge."""
    from kubb3d.match import Match, MatchConfig, ReplayError

    tr = translator_for(lang)
    kind_width = max(8, *(len(tr(k)) for k in EVENT_KINDS))

    if resume is not None:
        given = [
            flag
            for flag, v in (
                ("--ruleset", ruleset),
                ("--players", players),
                ("--seed", seed),
                ("--sets", sets),
                ("--time-limit", time_limit),
                ("--round-cap", round_cap),
                ("--strategy", strategy),
                ("--replay", replay),
                ("--option", option or None),
            )
            if v is not None
        ]
        if force:
            given.append("--force")
        if given:
            _fail(nmsg("--resume continues the match recorded in the file; {options} cannot change it (drop it)",
                       "--resume continues the match recorded in the file; {options} cannot change it (drop them)",
                       len(given), options=", ".join(given)))
    elif force and replay is None:
        _fail(msg("--force applies to --replay only"))
    options = referee_options(option)
    ruleset = "dm" if ruleset is None else ruleset
    seed = DEFAULT_SEED if seed is None else seed
    round_cap = DEFAULT_ROUND_CAP if round_cap is None else round_cap
    try:
        ruleset = ruleset_named(ruleset)
    except ValueError as exc:
        _fail(error_message(exc))
    try:
        skills, team = parse_players(players, ruleset)
    except ValueError as exc:
        _fail(error_message(exc))
    strategies: tuple[str, str] = ("default", "default")
    if strategy is not None:
        from kubb3d.players import STRATEGIES

        parts = tuple(p.strip() for p in strategy.split(","))
        if len(parts) != 2:
            _fail(msg("--strategy needs two comma-separated names, got {got}", got=repr(strategy)))
        for p in parts:
            if p not in STRATEGIES:
                _fail(unknown_name("strategy", p, STRATEGIES, "--strategy"))
        strategies = (parts[0], parts[1])
    if sets is not None and ruleset == "wikinger":
        _fail(msg(
            "--sets does not apply to --ruleset wikinger (a Wikinger-Schach match is one game against the clock)"
        ))
    if sets is not None and not (1 <= sets <= 9 and sets % 2 == 1):  # best of N: one side wins more (DM §3)
        _fail(expected("--sets", msg("an odd number from 1 to 9"), sets))
    from kubb3d.rules.core import MAX_ROUND_CAP, MAX_TIME_LIMIT_S

    # the bounds of the replay reader: a match written must be one that can be resumed
    if time_limit is not None and not (time_limit > 0 and time_limit * 60 <= MAX_TIME_LIMIT_S):
        _fail(
            expected("--time-limit", span(0, MAX_TIME_LIMIT_S / 60, " minutes", open_lo=True), time_limit)
        )
    if not 3 <= round_cap <= MAX_ROUND_CAP:
        _fail(expected("--round-cap", span(3, MAX_ROUND_CAP), round_cap))
    from kubb3d.files import FileSafetyError, check_output

    try:
        if replay is not None:
            check_output(replay, "--replay", overwrite=force)
        if resume is not None and resume.is_symlink():
            _fail(msg("--resume: {path} is a symbolic link; give the path of the replay file itself", path=str(resume)))
    except FileSafetyError as exc:
        _fail(error_message(exc))
    console = None
    # on a terminal: rich colours; into a pipe or file: plain lines, never wrapped
    plain = not as_json and not quiet and not sys.stdout.isatty()
    if not as_json and not quiet and not plain:
        from rich.console import Console

        console = Console(highlight=False)

    def show(e) -> None:
        mins = f"{int(e.clock_s // 60):3d}:{int(e.clock_s % 60):02d}"
        where = f"S{e.set_no} R{e.turn_no:<2d}" if e.set_no else "      "
        kind = f"{tr(e.kind):{kind_width}s}"
        if plain:
            sys.stdout.write(
                f"{mins} {where} {kind} {tr(e.text)}" + (f" ({', '.join(e.rules)})" if e.rules else "") + "\n"
            )
            return
        if console is None:
            return
        cite = f" [dim]({', '.join(e.rules)})[/dim]" if e.rules else ""
        style = {
            "result": "bold green",
            "set": "bold",
            "turn": "bold cyan",
            "glitch": "red",
            "foul": "red",
            "ruling": "dim",
        }.get(e.kind, "")
        text = tr(e.text).replace("[", "\\[")
        console.print(
            f"[dim]{mins} {where}[/dim] [{style or 'default'}]{kind} {text}[/{style or 'default'}]{cite}"
        )

    try:
        if resume is not None:
            from kubb3d.replay import read_replay

            people = read_replay(resume, warn=False).header.people
            if people:  # their side would go on with a simulated player's throws, without a word
                raise ReplayError(
                    f"{resume}:1: people: {', '.join(people)} played by a person (kubb3d play); kubb3d match "
                    "--resume plays every side with the simulated players, so it continues only a match of "
                    "kubb3d match --replay"
                )
            m = Match.resume(resume, on_event=show)
        else:
            tl = -1.0 if time_limit is None else time_limit * 60.0
            cfg = MatchConfig(
                ruleset=ruleset,
                skills=skills,
                seed=seed,
                sets=sets,
                time_limit_s=tl,
                round_cap=round_cap,
                team_size=team,
                strategies=strategies,
                options=tuple(sorted(options.items())),
            )
            m = Match(cfg, replay=replay, on_event=show, replace_replay=force)
    except ReplayError as exc:
        _fail(error_message(exc))
    except (ValueError, OSError) as exc:
        _fail(error_message(exc))
    except RuntimeError as exc:
        _fail(error_message(exc))
    try:
        out = m.run()
        assert out is not None  # run() without max_actions plays to the end
    except FileSafetyError as exc:
        _fail(error_message(exc))
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM: say what can be resumed (kubb3d.cli.OneLineErrors)
        typer.echo(interrupted_line(m.replay_path), err=True)
        from kubb3d.cli import _json_error

        _json_error(interrupted_line(m.replay_path))
        raise typer.Exit(130) from None
    if m.replay_path is not None:  # (stderr: stdout stays the play-by-play or the JSON document)
        from kubb3d.cli.outputs import say_wrote

        say_wrote(m.replay_path, tr)
    if as_json:
        doc = match_document(m, out)
        sys.stdout.write(json.dumps(doc, ensure_ascii=False) + "\n")
        return
    line = tr(result_line(out, m.state.clock, ruleset))
    if console is not None:
        console.print(f"[bold]{line}[/bold]")
    else:
        typer.echo(line)


def interrupted_line(replay: Optional[Path]) -> str:
    """The line a match interrupted by Ctrl-C or SIGTERM ends with: how to resume it from its
    replay (every finished action is in it), or that it was not saved."""
    if replay is None:
        return "interrupted: the match was not saved; give --replay FILE to be able to resume one (--resume FILE)"
    return f"interrupted: the replay {replay} holds every finished action; resume with kubb3d match --resume {replay}"


def register(app: typer.Typer) -> None:
    """Add the ``match`` command to ``app``."""
    app.command("match")(match)

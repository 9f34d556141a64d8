"""A command that writes a file the user named says so: every file that appears in the folder is
named by a ``wrote PATH`` line (stdout or stderr; ``wrote N replays to FOLDER`` for a folder of
them), so a user can tell from the output what was made.

`kubb3d analyse REPLAY --png curve.png`, `notation --out`, and the `--png` / `--markdown` of
`validate` (and of `calibrate`, which writes through the same code) once wrote without a word,
where `export`, `experiment plot` and `play --screenshot` say "wrote ...": a new user could not
tell from the output whether the picture had been made. Later users found `match --replay`,
`play --replay` and `audit --log` silent too. :data:`RUNS` holds a run of every output option the
CLI has (the walk of tests/test_output_policy.py), checked to be complete, so a new one cannot be
silent.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from cli_process import run_kubb3d
from shared_runs import CALIBRATE_SMALL
from test_output_policy import OUTPUTS


def _kubb3d(folder: Path, *args: str, stdin: str | None = None, codes=(0,)) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    done = run_kubb3d(*args, cwd=folder, timeout=900, env=env, input=stdin)
    assert done.returncode in codes, f"{args}: {done.stderr}"
    return done


@pytest.fixture(scope="module")
def replay_run(tmp_path_factory) -> tuple[Path, set[Path], subprocess.CompletedProcess]:
    """The folder of the other tests' replay, the files its ``match --replay`` made and what
    it printed (checked by :func:`test_match_replay_names_what_it_wrote`: the suite plays this
    match once instead of once more in :data:`RUNS`)."""
    folder = tmp_path_factory.mktemp("wrote")
    done = _kubb3d(folder, *MATCH_Q.split())
    return folder, _files(folder), done


@pytest.fixture(scope="module")
def replay_folder(replay_run) -> Path:
    return replay_run[0]


def _named(output: str) -> set[Path]:
    """The paths the ``wrote`` lines name (a folder for ``wrote N replays to FOLDER``), and the
    pictures of a quiz's ``views:`` lines (its pictures are named with each question)."""
    named = set()
    for line in output.splitlines():
        line = line.strip()
        if m := re.match(r"wrote \d+ \S+ to (\S+)$", line):
            named.add(Path(m.group(1)))
        elif m := re.match(r"wrote (\S+)", line):
            named.add(Path(m.group(1)))
        elif line.startswith("views: "):
            named |= {Path(p) for p in line.split()[1:]}
    return named


def _files(folder: Path) -> set[Path]:
    return {p.relative_to(folder) for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize(
    "args",
    [
        ("analyse", "m.jsonl", "--samples", "1", "--every", "100", "--png", "curve.png"),
        ("analyse", "m.jsonl", "--samples", "1", "--every", "100", "--png", "curve-json.png", "--json"),
        ("notation", "m.jsonl", "--out", "m.txt"),
        ("validate", "--quick", "--png", "v.png", "--markdown", "v.md"),
        ("export", "m.jsonl", "--html", "m.html", "--gltf", "m.glb"),
    ],
    ids=lambda args: " ".join(args[:1] + args[-2:]),
)
def test_every_file_written_is_named(replay_folder, args):
    before = set(os.listdir(replay_folder))
    done = _kubb3d(replay_folder, *args)
    made = set(os.listdir(replay_folder)) - before
    assert made, args
    named = {Path(m).name for m in re.findall(r"^wrote (\S+)", done.stdout + "\n" + done.stderr, re.M)}
    assert made == named, (args, made, named)
    if "--json" in args:  # the document alone on stdout
        assert not done.stdout.startswith("wrote") and done.stdout.lstrip().startswith("{")


MATCH_Q = "match --round-cap 3 --replay m.jsonl -q"
"""The run of ``match --replay`` without ``--json``: the replay the other tests read."""
RUNS: dict[tuple[str, str], tuple[str, ...]] = {
    ("quiz", "--out"): ("quiz --count 1 --out pictures",),
    ("quiz", "--html"): ("quiz --count 1 --html site",),
    # (and MATCH_Q, run once for the replay the other tests read: test_match_replay_names_what_it_wrote)
    ("match", "--replay"): ("match --round-cap 3 --replay j.jsonl --json",),
    # a folder of replays of the matches with a violation: none here, so none is made (the walk
    # below asserts that nothing unnamed appears); with --log and --json in the same run: audit names
    # its files with say_wrote, on stderr whatever the options, and the match dominates the run's time
    ("audit", "--replay-dir"): ("audit --ruleset wikinger --matches 1 --replay-dir kept --log a.jsonl --json",),
    ("audit", "--log"): (),
    # both in one run of test_every_file_written_is_named (made == named there)
    ("validate", "--png"): (),
    ("validate", "--markdown"): (),
    # both in one run: write_outputs writes and names either file alike, --json or not (say_wrote:
    # always stderr), and calibrate's trials dominate the run's time
    # (the run tests/test_physics_truth.py reads too: conftest's calibrate_small_run)
    ("calibrate", "--png"): (CALIBRATE_SMALL,),
    ("calibrate", "--markdown"): (),
    ("sensitivity", "--markdown"): (
        "sensitivity --throws 2 --morris-throws 0 --trajectories 0 --flicks 0 --matches 0 --workers 1 "
        "--parameter ground:grass.plowing --markdown s.md --save s.json",
    ),
    ("sensitivity", "--save"): (),  # (with --markdown above)
    ("tournament", "--replay-dir"): ("tournament --teams 2 --replay-dir games",),
    ("play", "--screenshot"): ("play --screenshot p.png",),
    ("play", "--replay"): ("play --opponent club --screenshot q.png --replay q.jsonl",),
    ("view", "--screenshot"): ("view dm_king_throw_win --screenshot v2.png",),
    ("analyse", "--png"): (),  # test_every_file_written_is_named
    ("notation", "--out"): (),
    ("export", "--html"): (),
    ("export", "--gltf"): (),
    ("models build", "--out"): ("models build --out models",),
    ("experiment run", "--out"): ("experiment run tiny.toml --out t.sqlite --backend serial -q",),
    ("experiment export", "--out"): ("experiment export t.sqlite --format csv --out t.csv",),
    ("experiment plot", "--out"): ("experiment plot t.sqlite --x speed --out t.png",),
    ("dames play", "--screenshot"): ("dames play --players random,random --seed 1 --screenshot d.png",),
}
"""A run of each output option; several options in one line are checked together."""

STDIN = {"quiz": "1\n"}
EXIT_CODES = {"calibrate": (0, 1), "audit": (0, 1)}  # a figure out of its band; a violation found


def test_every_output_option_has_a_run():
    walked = {(" ".join(c), o.option) for c, _, o in OUTPUTS}
    assert walked == set(RUNS), (sorted(walked - set(RUNS)), sorted(set(RUNS) - walked))


@pytest.fixture(scope="module")
def work_folder(tmp_path_factory) -> Path:
    import importlib.util

    where = Path(__file__).resolve().parent / "experiment" / "experiment_helpers.py"
    helpers = importlib.util.module_from_spec(importlib.util.spec_from_file_location("tiny_spec", where))
    helpers.__loader__.exec_module(helpers)  # type: ignore[union-attr]
    folder = tmp_path_factory.mktemp("every")
    helpers.write_tiny(folder, trials_per_point=1)
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("line", [line for lines in RUNS.values() for line in lines], ids=lambda s: s[:60])
def test_every_output_option_names_what_it_wrote(work_folder, line, request):
    args = line.split()
    if line == CALIBRATE_SMALL:
        _, made, done = request.getfixturevalue("calibrate_small_run")
        assert done.returncode in EXIT_CODES["calibrate"], done.stderr
        _check_named(line, made, done)
        return
    if args[0] == "experiment" and args[1] != "run" and not (work_folder / "t.sqlite").exists():
        _kubb3d(work_folder, *RUNS[("experiment run", "--out")][0].split())
    if args[0] == "tournament":  # (its folder must exist: it is not made)
        (work_folder / "games").mkdir(exist_ok=True)
    before = _files(work_folder)
    done = _kubb3d(work_folder, *args, stdin=STDIN.get(args[0]), codes=EXIT_CODES.get(args[0], (0,)))
    _check_named(line, _files(work_folder) - before, done)


def _check_named(line: str, made: set[Path], done: subprocess.CompletedProcess) -> None:
    """Every file ``line`` made is named by a ``wrote`` line; with ``--json`` they are on stderr."""
    args = line.split()
    assert made, line
    named = _named(done.stdout + "\n" + done.stderr)
    silent = {f for f in made if not any(p == f or p in f.parents for p in named)}
    assert not silent, (line, silent, done.stdout[-500:], done.stderr[-500:])
    if "--json" in args:  # the wrote line goes to stderr: the document stays alone on stdout
        assert done.stdout.lstrip().startswith("{") and "wrote" not in done.stdout, line


def test_match_replay_names_what_it_wrote(replay_run):
    folder, made, done = replay_run
    assert made == {Path("m.jsonl")}, made
    named = _named(done.stdout + "\n" + done.stderr)
    assert made <= named, (made, named, done.stdout[-500:], done.stderr[-500:])


def test_german_says_wrote_in_german(replay_folder):
    done = _kubb3d(replay_folder, "match", "--round-cap", "3", "--replay", "de.jsonl", "-q", "--lang", "de")
    assert "de.jsonl geschrieben" in done.stderr and "wrote" not in done.stderr

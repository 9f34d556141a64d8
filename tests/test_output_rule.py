"""The one output rule (:mod:`kubb3d.files`) walked over every command that writes a file.

For each (command, output option) a planted symbolic link to the user's notes, a missing
folder and a name ending in ``/`` must each be refused with one line and exit code 2, the
notes and the folder left as they were. The walk is checked to be complete: every option
of the CLI that names an output must be in :data:`WRITERS`.
"""

from __future__ import annotations

import hashlib
import os
import shlex
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from kubb3d import files
from kubb3d.cli import _register_subapps, app
from kubb3d.files import ExclusiveFile, FileSafetyError, output_folder, rewrite_locked, write_output

# every command that writes, with its output option; {o} is the output, {r} a results file
WRITERS: list[tuple[str, str]] = [
    ("play --screenshot {o}", "--screenshot"),
    ("play --opponent club --replay {o}", "--replay"),
    ("view hit-8m --screenshot {o}", "--screenshot"),
    ("dames play --players random,random --screenshot {o}", "--screenshot"),
    ("match --round-cap 3 --replay {o}", "--replay"),
    ("audit --matches 1 --log {o}", "--log"),
    ("experiment run hit-8m --out {o}", "--out"),
    ("experiment export {r} --out {o}", "--out"),
    ("experiment plot {r} --x thrown_speed --out {o}", "--out"),
    ("validate --quick --png {o}", "--png"),
    ("validate --quick --markdown {o}", "--markdown"),
    ("calibrate --png {o}", "--png"),
    ("calibrate --markdown {o}", "--markdown"),
    ("sensitivity --markdown {o}", "--markdown"),
    ("sensitivity --save {o}", "--save"),
    ("analyse m.jsonl --png {o}", "--png"),  # the output is checked before the replay is read
    ("notation m.jsonl --out {o}", "--out"),  # (as analyse)
    ("export m.jsonl --html {o}", "--html"),  # (as analyse)
    ("export m.jsonl --gltf {o}", "--gltf"),
]
# commands whose option names a folder: a link is refused, missing parents are never made
FOLDER_WRITERS: list[tuple[str, str]] = [
    ("models build --out {o}", "--out"),
    ("quiz --count 1 --out {o}", "--out"),
    ("audit --matches 1 --replay-dir {o}", "--replay-dir"),
    ("tournament --replay-dir {o}", "--replay-dir"),
    ("quiz --count 1 --html {o}", "--html"),
]


def _suffix(line: str, opt: str) -> str:
    """The first suffix the option of the command on ``line`` takes (kubb3d/cli/outputs.py)."""
    from kubb3d.cli.outputs import output_of

    _register_subapps()
    group = typer.main.get_command(app)
    for name, cmd in _all_commands(group):
        if line.startswith(name + " "):
            for p in cmd.params:
                out = output_of(p)
                if out is not None and out.option == opt and out.suffixes:
                    return out.suffixes[0]
    raise AssertionError(f"{line}: no file option {opt}")


def _all_commands(group, prefix=()):
    for name, cmd in getattr(group, "commands", {}).items():
        if getattr(cmd, "commands", None):
            yield from _all_commands(cmd, (*prefix, name))
        else:
            yield " ".join((*prefix, name)), cmd


def test_the_walk_covers_every_output_option():
    from kubb3d.cli.outputs import output_of

    _register_subapps()
    group = typer.main.get_command(app)
    found, names = set(), set()
    for name, cmd in _all_commands(group):
        names.add(name)
        for p in cmd.params:
            out = output_of(p)
            if out is not None:
                found.add((name, out.option))

    def command(line: str) -> str:
        two = " ".join(line.split()[:2])
        return two if two in names else line.split()[0]

    walked = {(command(line), opt) for line, opt in WRITERS + FOLDER_WRITERS}
    assert found and found <= walked, sorted(found - walked)


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    """A results file of one trial (the readers' commands need one before their --out)."""
    from kubb3d.experiment import load_spec, run

    folder = tmp_path_factory.mktemp("results")
    spec = folder / "one.toml"
    spec.write_text(
        'schema = 1\ntitle = "one"\nseed = 1\ntrials_per_point = 1\nmeasures = ["hit"]\n'
        '[setup]\nruleset = "dm"\n[throw]\ntarget = "B2"\nspeed = 10.0\n'
    )
    out = folder / "one.sqlite"
    run(load_spec(spec), out, backend="serial", progress=False)
    return out


def _digest(folder: Path) -> dict[str, str]:
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_symlink():
            out[p.name] = "link->" + os.readlink(p)
        elif p.is_file():
            out[p.name] = hashlib.sha256(p.read_bytes()).hexdigest()
        else:
            out[p.name] = "dir"
    return out


def _invoke(line: str, out: str, results: Path):
    _register_subapps()
    argv = [a.replace("{o}", out).replace("{r}", str(results)) for a in shlex.split(line)]
    res = CliRunner().invoke(app, argv, catch_exceptions=True)
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        import traceback

        pytest.fail("".join(traceback.format_exception(res.exception)))
    return res


def _refused(res, words: str) -> None:
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert res.exit_code == 2, res.stdout + res.stderr
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    assert words in lines[0], lines[0]


@pytest.mark.parametrize("line,opt", WRITERS, ids=[w[0] for w in WRITERS])
def test_writers_never_write_through_a_planted_link(line, opt, tmp_path, monkeypatch, results):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("my notes\n")
    name = "l" + _suffix(line, opt)
    (tmp_path / name).symlink_to("notes.txt")
    before = _digest(tmp_path)
    _refused(_invoke(line, name, results), "symbolic link")
    assert _digest(tmp_path) == before


@pytest.mark.parametrize("line,opt", WRITERS, ids=[w[0] for w in WRITERS])
def test_writers_never_create_folders(line, opt, tmp_path, monkeypatch, results):
    monkeypatch.chdir(tmp_path)
    _refused(_invoke(line, "missing/x" + _suffix(line, opt), results), "does not exist")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("line,opt", WRITERS, ids=[w[0] for w in WRITERS])
def test_writers_refuse_a_folder_name(line, opt, tmp_path, monkeypatch, results):
    monkeypatch.chdir(tmp_path)
    _refused(_invoke(line, "newdir/", results), "not a folder")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("line,opt", FOLDER_WRITERS, ids=[w[0] for w in FOLDER_WRITERS])
def test_folder_writers_make_no_parents_and_follow_no_link(line, opt, tmp_path, monkeypatch, results):
    monkeypatch.chdir(tmp_path)
    _refused(_invoke(line, "a/b", results), "does not exist")
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "l").symlink_to("elsewhere")
    before = _digest(tmp_path)
    res = _invoke(line, "l", results)
    _refused(res, "symbolic link" if "tournament" not in line else "symbolic link")
    assert _digest(tmp_path) == before


def test_output_folder_makes_one_level(tmp_path):
    assert output_folder(tmp_path / "new", "--out").is_dir()
    assert output_folder(tmp_path / "new", "--out") == tmp_path / "new"  # an existing one is used
    with pytest.raises(FileSafetyError, match="does not exist"):
        output_folder(tmp_path / "a" / "b", "--out")
    assert not (tmp_path / "a").exists()
    (tmp_path / "f").write_text("x")
    with pytest.raises(FileSafetyError, match="not a folder"):
        output_folder(tmp_path / "f", "--out")


def test_file_name_refuses_a_trailing_separator():
    assert files.file_name("r.jsonl") == Path("r.jsonl")
    with pytest.raises(ValueError, match="not a folder"):
        files.file_name("newdir/")


def test_exclusive_creation_refuses_a_file_made_after_the_check(tmp_path):
    p = tmp_path / "r.jsonl"
    files.check_output(p, "--replay")  # the check passes: nothing there yet
    p.write_text("a finished replay\n")  # another program writes it in the gap
    with pytest.raises(FileSafetyError, match="already exists"):
        ExclusiveFile(p, exclusive=True)
    assert p.read_text() == "a finished replay\n"


def test_match_replay_without_force_is_created_exclusively(tmp_path):
    from kubb3d.match import Match, MatchConfig

    p = tmp_path / "r.jsonl"
    p.write_text("kept\n")
    with pytest.raises(FileSafetyError, match="already exists"):
        Match(MatchConfig(seed=1, round_cap=3), replay=p, replace_replay=False)
    assert p.read_text() == "kept\n"
    m = Match(MatchConfig(seed=1, round_cap=3), replay=p)  # replace (--force)
    m.close()
    assert p.read_text().startswith('{"type":"header"')


def test_an_append_handle_never_opens_a_fifo_or_a_link(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(FileSafetyError, match="not a regular file"):
        ExclusiveFile(fifo)  # O_NONBLOCK: no reader is not a hang
    (tmp_path / "notes.txt").write_text("n\n")
    (tmp_path / "l").symlink_to("notes.txt")
    with pytest.raises(FileSafetyError, match="symbolic link"):
        ExclusiveFile(tmp_path / "l")
    assert (tmp_path / "notes.txt").read_text() == "n\n"


def test_resume_removes_only_its_own_temporaries(tmp_path):
    p = tmp_path / "r.jsonl"
    p.write_text("a\n")
    user = tmp_path / ".r.jsonl.backup.tmp"  # the old rule took every .r.jsonl.*.tmp as stale
    user.write_text("the user's backup\n")
    ours = tmp_path / f".r.jsonl{files.TMP_TAG}ab_cd123.tmp"  # a rewrite killed before its rename
    ours.write_text("half")
    fake = tmp_path / f".r.jsonl{files.TMP_TAG}x.tmp"  # not the random part's shape
    fake.write_text("keep")
    rewrite_locked(p, b"b\n").close()
    assert p.read_text() == "b\n"
    assert user.read_text() == "the user's backup\n" and fake.exists()
    assert not ours.exists()


def test_a_failed_write_leaves_no_file(tmp_path):
    out = tmp_path / "x.png"

    def full(tmp):
        Path(tmp).write_bytes(b"half")
        raise OSError(28, "No space left on device")

    with pytest.raises(FileSafetyError, match="no space left"):
        write_output(out, full, "--screenshot")
    assert list(tmp_path.iterdir()) == []


class _FullDisk:
    """A file handle on a disk that is full: writes fail with ENOSPC, the descriptor is real."""

    def __init__(self, fh):
        self.fh = fh
        self.closed = False

    def fileno(self):
        return self.fh.fileno()

    def write(self, text):
        self.fh.write(text[:7])  # a part of the first line reaches the file
        self.fh.flush()
        raise OSError(28, "No space left on device")

    def flush(self):
        pass

    def close(self):
        self.closed = True
        self.fh.close()


def test_a_created_file_whose_first_write_fails_is_removed(tmp_path):
    p = tmp_path / "r.jsonl"
    f = ExclusiveFile(p, exclusive=True)
    f.fh = _FullDisk(f.fh)  # the disk fills before the header is stored
    with pytest.raises(FileSafetyError, match="no space left"):
        f.write('{"type":"header"}\n')
    f.close()
    assert not p.exists()  # no half-line replay left to need --force
    kept = tmp_path / "old.jsonl"
    kept.write_text("the user's\n")
    g = ExclusiveFile(kept)  # an existing file is never removed
    g.fh = _FullDisk(g.fh)
    with pytest.raises(FileSafetyError):
        g.write("x" * 100)
    g.close()
    assert kept.read_text().startswith("the user's\n")
    h = ExclusiveFile(tmp_path / "h.jsonl", exclusive=True)  # after a stored line: kept (resumable)
    h.write("line\n")
    h.fh = _FullDisk(h.fh)
    with pytest.raises(FileSafetyError):
        h.write("more\n")
    h.close()
    assert (tmp_path / "h.jsonl").read_text().startswith("line\n")

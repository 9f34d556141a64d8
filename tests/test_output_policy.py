"""One overwrite rule and one suffix rule for every option that writes (kubb3d/cli/outputs.py).

The options are found in the Typer app, not listed here: every option made by
``output_option`` is walked, and every other option or argument that takes a path must be one
the command reads (:data:`READS`), so a new writing option cannot slip past the rule. For each:

* a name with a suffix that is not the option's is refused: one line, exit code 2, nothing written;
* an existing output (a file, or a file of the kind a folder option writes) is refused without
  ``--force`` and left as it was; with ``--force`` it passes the check;
* an option that adds to its file (``audit --log``, ``experiment run --out``) keeps it.
"""

from __future__ import annotations

import functools
import os
import typing
from pathlib import Path

import pytest
import typer.main
import typer.testing
from cli_process import run_kubb3d
from cli_walk import commands
from cli_walk import group as cli_group
from typer.testing import CliRunner

from kubb3d.cli import app
from kubb3d.cli.outputs import Output, output_of

READS = {
    ("judge", "files"),
    ("quiz", "files"),
    ("match", "resume"),
    ("calibrate", "sensitivity"),
    ("view", "path"),
    ("stats", "replay"),
    ("whatif", "replay"),
    ("analyse", "replay"),
    ("notation", "replay"),
    ("notation", "read"),
    ("export", "source"),
    ("experiment run", "spec"),
    ("experiment export", "results"),
    ("experiment plot", "results"),
    ("experiment summary", "results"),
    ("experiment studies", "sources"),
    ("experiment studies", "sensitivity"),
}
"""(command, parameter) of every path a command only reads."""


def _takes_a_path(param) -> bool:
    annotation = param.type_descriptor.annotation
    return annotation is Path or Path in typing.get_args(annotation)


def _outputs() -> list[tuple[tuple[str, ...], str, Output]]:
    found = []
    for path, cmd in commands():
        for param in cmd.params:
            out = output_of(param)
            if out is not None:
                found.append((path, param.name, out))
    return found


OUTPUTS = _outputs()
FILES = [(c, n, o) for c, n, o in OUTPUTS if not o.is_folder]
REPLACED = [(c, n, o) for c, n, o in OUTPUTS if o.existing == "replace"]


def _id(case) -> str:
    return f"{' '.join(case[0])} {case[2].option}"


def test_the_walk_finds_the_writers_the_tryout_named():
    named = {(" ".join(c), o.option) for c, _, o in OUTPUTS}
    for case in [("export", "--html"), ("export", "--gltf"), ("view", "--screenshot"), ("quiz", "--html"),
                 ("analyse", "--png"), ("match", "--replay"), ("experiment plot", "--out")]:
        assert case in named
    assert len(OUTPUTS) == 24, sorted(named)  # 24 when this test was written


def test_every_path_is_an_output_option_or_an_input():
    """A new option that takes a path is made with output_option or is listed as read."""
    unclassified = []
    for path, cmd in commands():
        for param in cmd.params:
            if _takes_a_path(param) and output_of(param) is None and (" ".join(path), param.name) not in READS:
                unclassified.append((" ".join(path), param.name))
    assert unclassified == []
    outputs = {(" ".join(c), n) for c, n, _ in OUTPUTS}
    assert not outputs & READS


def test_every_command_that_writes_has_an_eager_force():
    group = dict(commands())
    for path in {c for c, _, _ in OUTPUTS}:
        force = [p for p in group[path].params if p.name == "force"]
        assert force and force[0].opts == ["--force"] and force[0].is_eager, path


def _invoke(args: list[str], monkeypatch, stub: bool = False):
    """Run the command line in this process; ``stub``: the commands' bodies only record their
    arguments (the options are read and checked as always, no work is done)."""
    group = cli_group()
    reached: list[dict] = []
    if stub:
        for _, cmd in commands(group):
            cmd.callback = functools.partial(lambda _cmd, **kw: reached.append(kw), cmd)
    monkeypatch.setattr(typer.testing, "_get_command", lambda _: group)
    return CliRunner().invoke(app, args, catch_exceptions=False), reached


def _one_error_line(res) -> str:
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert res.exit_code == 2, res.stdout + res.stderr
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    return lines[0]


@pytest.mark.parametrize("case", FILES, ids=map(_id, FILES))
def test_a_wrong_suffix_is_refused_and_nothing_is_written(case, tmp_path, monkeypatch):
    command, _, out = case
    monkeypatch.chdir(tmp_path)
    wrong = next(s for s in (".txt", ".png", ".gltf") if s not in out.suffixes)
    res, reached = _invoke([*command, out.option, "out" + wrong], monkeypatch, stub=True)
    line = _one_error_line(res)
    assert line.startswith(f"error: {out.option} must name a {out.suffixes[0]}") and f"got out{wrong}" in line
    assert reached == [] and list(tmp_path.iterdir()) == []
    right, reached = _invoke([*command, out.option, "out" + out.suffixes[-1]], monkeypatch, stub=True)
    assert "must name" not in right.stderr  # each suffix the option names is taken


def test_the_suffixes_the_tryout_tripped_on():
    by = {(" ".join(c), o.option): o for c, _, o in OUTPUTS}
    assert by[("analyse", "--png")].suffixes == (".png",)
    assert by[("export", "--gltf")].suffixes == (".glb",)  # trimesh writes glTF binary


def test_the_gltf_writer_writes_binary_gltf():
    from kubb3d.web.gltf import scene_glb

    assert scene_glb("dm_accident_wind")[:4] == b"glTF"  # the .glb magic; a .gltf file is JSON text


def _plant(out: Output, tmp_path: Path) -> tuple[Path, Path]:
    """An existing output of ``out``: (the path to give, the file planted)."""
    if out.is_folder:
        folder = tmp_path / "site"
        folder.mkdir()
        planted = folder / out.folder_files[0].replace("*", "mine")
        planted.write_text("the user's file\n")
        return folder, planted
    planted = tmp_path / ("mine" + out.suffixes[0])
    planted.write_text("the user's file\n")
    return planted, planted


@pytest.mark.parametrize("case", REPLACED, ids=map(_id, REPLACED))
def test_an_existing_output_is_refused_without_force(case, tmp_path, monkeypatch):
    command, name, out = case
    monkeypatch.chdir(tmp_path)
    given, planted = _plant(out, tmp_path)
    res, reached = _invoke([*command, out.option, given.name], monkeypatch, stub=True)
    line = _one_error_line(res)
    assert line.startswith(f"error: {out.option}: ") and "already exists" in line and "--force" in line
    assert reached == [] and planted.read_text() == "the user's file\n"
    assert sorted(p.name for p in tmp_path.rglob("*")) == sorted(
        p.name for p in {planted, planted.parent} if p != tmp_path
    )
    res, reached = _invoke([*command, out.option, given.name, "--force"], monkeypatch, stub=True)
    assert "already exists" not in res.stderr, res.stderr
    if reached:  # no required argument missing: the command was reached with the path and --force
        assert reached[0]["force"] is True and Path(reached[0][name]) == Path(given.name)


@pytest.mark.parametrize(
    "case", [c for c in OUTPUTS if c[2].existing == "append"], ids=_id
)
def test_an_output_that_is_added_to_is_kept(case, tmp_path, monkeypatch):
    command, _, out = case
    monkeypatch.chdir(tmp_path)
    given, planted = _plant(out, tmp_path)
    res, _ = _invoke([*command, out.option, given.name], monkeypatch, stub=True)
    assert "already exists" not in res.stderr
    assert planted.read_text() == "the user's file\n"


def _cli(*args: str, cwd: Path):

    return run_kubb3d(*args, cwd=cwd, timeout=300)


def test_export_html_is_replaced_only_with_force(tmp_path):
    """The whole command, twice: the tryout's ``export --html`` replaced a page without a word."""
    first = _cli("export", "dm_accident_wind", "--html", "page.html", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    page = (tmp_path / "page.html").read_bytes()
    (tmp_path / "page.html").write_text("the user's edit\n")
    again = _cli("export", "dm_accident_wind", "--html", "page.html", cwd=tmp_path)
    assert again.returncode == 2 and "already exists" in again.stderr
    assert (tmp_path / "page.html").read_text() == "the user's edit\n"
    forced = _cli("export", "dm_accident_wind", "--html", "page.html", "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert (tmp_path / "page.html").read_bytes() == page


def test_show_refuses_an_existing_picture_and_never_replaces_its_default(tmp_path, monkeypatch):
    import kubb3d
    from kubb3d.files import FileSafetyError

    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.png").write_bytes(b"the user's picture")
    with pytest.raises(FileSafetyError, match="already exists"):
        kubb3d.show("dm_accident_wind.toml", "mine.png")
    with pytest.raises(FileSafetyError, match="must name a .png"):
        kubb3d.show("dm_accident_wind.toml", "mine.jpg")
    assert (tmp_path / "mine.png").read_bytes() == b"the user's picture"
    assert sorted(os.listdir(tmp_path)) == ["mine.png"]
    from kubb3d import display

    (tmp_path / display.DEFAULT_PNG).write_bytes(b"an earlier picture")
    assert display._free_default() == Path("kubb3d-show-2.png")


def test_a_file_made_while_the_command_worked_is_not_replaced_without_force(tmp_path):
    """The check as the line is read comes minutes before an analyse writes: a file another
    program makes meanwhile is refused at the write too (write_output links, never renames over)."""
    from kubb3d.files import FileSafetyError, write_output

    out = tmp_path / "curve.png"

    def meanwhile(tmp: Path) -> None:
        tmp.write_bytes(b"the new picture")
        out.write_bytes(b"made by another program")  # after the check, before the rename

    with pytest.raises(FileSafetyError, match="already exists"):
        write_output(out, meanwhile, "--png", overwrite=False)
    assert out.read_bytes() == b"made by another program" and sorted(os.listdir(tmp_path)) == ["curve.png"]
    out.unlink()
    write_output(out, lambda tmp: tmp.write_bytes(b"first"), "--png", overwrite=False)
    assert out.read_bytes() == b"first" and oct(out.stat().st_mode & 0o777) == "0o644"
    write_output(out, meanwhile, "--png", overwrite=True)  # --force: replaced
    assert out.read_bytes() == b"the new picture" and sorted(os.listdir(tmp_path)) == ["curve.png"]


SWITCHED = [(c, n, o) for c, n, o in OUTPUTS if o.written_if]


def test_the_quiz_pictures_are_written_only_under_images():
    assert [(" ".join(c), o.option, o.written_if) for c, _, o in SWITCHED] == [("quiz", "--out", "images")]


@pytest.mark.parametrize("case", SWITCHED, ids=map(_id, SWITCHED))
def test_an_output_not_written_under_its_switch_is_not_refused(case, tmp_path, monkeypatch):
    """``quiz --no-images --out quiz-images`` writes no picture: an earlier quiz's pictures there
    are no reason to refuse (the tryout's quiz refused with "already exists … (or --force …)")."""
    command, name, out = case
    monkeypatch.chdir(tmp_path)
    switch = next(p for p in dict(commands())[command].params if p.name == out.written_if)
    assert switch.is_eager and switch.secondary_opts, switch.opts  # read before the output, and --no-… exists
    given, planted = _plant(out, tmp_path)
    for args in ([out.option, given.name, *switch.secondary_opts], [*switch.secondary_opts, out.option, given.name]):
        res, reached = _invoke([*command, *args], monkeypatch, stub=True)
        assert "already exists" not in res.stderr and res.exit_code == 0, res.stderr
        assert reached and reached[0][out.written_if] is False and Path(reached[0][name]) == Path(given.name)
    res, reached = _invoke([*command, out.option, given.name, *switch.opts], monkeypatch, stub=True)
    assert "already exists" in _one_error_line(res) and reached == []  # switched on: the rule holds
    assert planted.read_text() == "the user's file\n"

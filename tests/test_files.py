"""Files kubb3d writes: the output-path rule, exclusive locks, atomic rewrites, full disks."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubb3d import files
from kubb3d.files import ExclusiveFile, FileSafetyError, atomic_write, check_output, rewrite_locked
from kubb3d.match import Match, MatchConfig


def test_output_rule(tmp_path):
    new = tmp_path / "new.txt"
    assert check_output(new, "--out") == new
    old = tmp_path / "old.txt"
    old.write_text("notes")
    with pytest.raises(FileSafetyError, match="already exists"):
        check_output(old, "--replay")
    assert check_output(old, "--replay", overwrite=True) == old
    link = tmp_path / "link.txt"
    link.symlink_to(old)
    with pytest.raises(FileSafetyError, match="symbolic link"):
        check_output(link, "--out", overwrite=True)
    with pytest.raises(FileSafetyError, match="does not exist"):
        check_output(tmp_path / "missing" / "x.txt", "--out")
    with pytest.raises(FileSafetyError, match="folder"):
        check_output(tmp_path, "--out", overwrite=True)
    with pytest.raises(FileSafetyError, match="not a regular file"):
        check_output("/dev/null", "--out", overwrite=True)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(FileSafetyError, match="not a regular file"):
        check_output(fifo, "--out", overwrite=True)
    assert old.read_text() == "notes"


def test_exclusive_lock_refuses_a_second_writer(tmp_path):
    p = tmp_path / "r.jsonl"
    first = ExclusiveFile(p)
    first.write("a\n")
    with pytest.raises(FileSafetyError, match="another kubb3d process"):
        ExclusiveFile(p)
    with pytest.raises(FileSafetyError, match="another kubb3d process"):
        rewrite_locked(p, b"x\n")
    first.close()
    second = ExclusiveFile(p)
    second.write("b\n")
    second.close()
    assert p.read_text() == "a\nb\n"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["r.jsonl"]  # no lock file left beside it


def test_match_replay_is_locked_while_written(tmp_path):
    p = tmp_path / "m.jsonl"
    m = Match(MatchConfig(seed=1, round_cap=3), replay=p)
    m.step()
    with pytest.raises(FileSafetyError, match="another kubb3d process"):
        Match(MatchConfig(seed=2, round_cap=3), replay=p)
    m.close()
    assert p.read_text().startswith('{"type":"header"')


def test_interrupted_resume_rewrite_keeps_the_old_replay(tmp_path, monkeypatch):
    p = tmp_path / "part.jsonl"
    with Match(MatchConfig(seed=4, round_cap=4), replay=p) as m:
        assert m.run(max_actions=10) is None
    before = p.read_bytes()

    def crash(src, dst):
        raise KeyboardInterrupt  # the process is interrupted between write and rename

    monkeypatch.setattr(files.os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        Match.resume(p)
    assert p.read_bytes() == before
    monkeypatch.undo()
    Match.resume(p).close()
    assert sorted(x.name for x in tmp_path.iterdir()) == ["part.jsonl"]


def test_full_disk_is_a_clear_error(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    f = ExclusiveFile.__new__(ExclusiveFile)
    f.path = tmp_path / "x"
    f.fh = open("/dev/full", "a", encoding="utf-8")
    with pytest.raises(FileSafetyError, match="no space left"):
        f.write("x" * 100)
    f.fh = open(os.devnull, "a")  # the handle to /dev/full cannot be flushed on close
    with pytest.raises(FileSafetyError, match="cannot write|no space"):
        atomic_write(tmp_path / "no-such-folder" / "y", b"data")


def test_replay_reader_knows_every_match_config_field():
    from dataclasses import fields

    from kubb3d.replay import ConfigRecord

    # a field added to MatchConfig must be added to the replay reader too (else resume refuses it)
    assert set(ConfigRecord.model_fields) == {f.name for f in fields(MatchConfig)}
    cfg = MatchConfig(seed=3, skills=("elite", "novice"), round_cap=5)
    assert MatchConfig.from_dict(ConfigRecord.model_validate(cfg.to_dict()).model_dump()).to_dict() == cfg.to_dict()


class _FakeMsvcrt:
    """A stand-in for Windows' ``msvcrt.locking`` (mandatory byte-range locks, released when the
    descriptor closes): one holder per file and byte, ``EACCES`` for anyone else."""

    LK_NBLCK = 2

    def __init__(self) -> None:
        self.holders: dict[tuple, int] = {}
        self.calls: list[int] = []

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        import errno

        st = os.fstat(fd)
        where = os.lseek(fd, 0, os.SEEK_CUR)
        self.calls.append(where)
        assert (mode, nbytes) == (self.LK_NBLCK, 1)
        key = (st.st_dev, st.st_ino, where)
        holder = self.holders.get(key)
        if holder is not None and holder != fd:
            try:
                alive = os.path.samestat(os.fstat(holder), st)
            except OSError:
                alive = False
            if alive:
                raise OSError(errno.EACCES, "Permission denied")
        self.holders[key] = fd


def test_the_lock_works_without_flock_through_windows_locking(tmp_path, monkeypatch):
    """Without fcntl (Windows), the lock is one byte far past the data of the file itself: a second
    writer is refused, the data and the write position are untouched, closing releases it."""
    fake = _FakeMsvcrt()
    monkeypatch.setattr(files, "fcntl", None)
    monkeypatch.setattr(files, "msvcrt", fake)
    p = tmp_path / "r.jsonl"
    p.write_text("line 1\n")
    a = ExclusiveFile(p, create=False)
    with pytest.raises(FileSafetyError, match="another kubb3d process"):
        ExclusiveFile(p, create=False)
    a.write("line 2\n")
    assert p.read_text() == "line 1\nline 2\n"
    assert fake.calls and set(fake.calls) == {files.WINDOWS_LOCK_OFFSET}
    assert not any(f.name.endswith(".lock") for f in tmp_path.iterdir())  # nothing beside the data
    a.close()
    b = rewrite_locked(p, b"new\n")  # takes the old file's lock, then the new one's
    with pytest.raises(FileSafetyError, match="another kubb3d process"):
        ExclusiveFile(p, create=False)
    b.write("more\n")
    b.close()
    assert p.read_text() == "new\nmore\n"
    c = ExclusiveFile(p, create=False)
    c.close()


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    lines=st.integers(min_value=1, max_value=12),
    data=st.data(),
    damage=st.sampled_from(["key = ", "[table", "key = [1, 2", "= 3", "key = 1 2", 'key = "a" "b"']),
)
def test_toml_error_names_the_damaged_line(tmp_path_factory, lines, data, damage):
    """Whichever line of a valid file is damaged, the one-line error names that line (and never
    the file's content)."""
    bad_line = data.draw(st.integers(min_value=1, max_value=lines))
    text = [f'k{index} = "value {index}"' for index in range(1, lines + 1)]
    text[bad_line - 1] = damage
    path = tmp_path_factory.mktemp("toml") / "bad.toml"
    path.write_text("\n".join(text) + "\n")
    with pytest.raises(FileSafetyError) as raised:
        files.load_toml(path, "scenario")
    message = str(raised.value)
    assert "\n" not in message and "value " not in message
    # a list left open runs to the end, so the parser may stop one line later
    named = int(message.split("at line ")[1].split(",")[0]) if "at line " in message else lines + 1
    assert named == bad_line or (damage == "key = [1, 2" and named > bad_line), message

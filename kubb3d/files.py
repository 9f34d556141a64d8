"""Safe handling of the files kubb3d writes: one rule for output paths, atomic rewrites and
exclusive locks.

One rule for every output path (:func:`check_output`): the parent folder must exist (it is
never created), the path must not be a symbolic link or a special file (device, FIFO,
socket, folder), and an existing file is replaced only when the caller allows it. Every writer
goes through this module: :func:`write_output` (whole files: PNGs, CSVs, models, pages),
:class:`ExclusiveFile` (appended files: replays, logs; ``exclusive=True`` creates with
``O_EXCL``), :func:`output_folder` (a folder an option names: created one level deep, never
its parents). Temporary files are named ``.NAME.kubb3d-XXXXXXXX.tmp`` (:data:`TMP_TAG`) and
only names of that form are ever removed as stale; a write that fails leaves no file behind.

Locks (:class:`ExclusiveFile`) are taken on the data file itself, never on a side file:
nothing is left beside the data, and a lock cannot be bypassed by deleting a ``.lock`` file.
On POSIX it is ``flock``; on Windows ``msvcrt.locking`` of one byte at :data:`WINDOWS_LOCK_OFFSET`,
far past any data (Windows locks are mandatory: a lock on real bytes would block their readers).
The operating system releases both when the process ends, also after ``kill -9`` / a killed
task, so a crash never leaves a stale lock. A lock is checked to still belong to the file at the
path (a rename may have replaced it).

The ``filelock`` package was considered and not used: it locks a separate lock file, which it
opens with truncation (so it cannot lock the data file itself) and leaves beside the data on
POSIX, the two faults this module exists to avoid.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Callable

from kubb3d.errors import FileSafetyError as FileSafetyError, ReplayError as ReplayError


try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
try:  # Windows
    import msvcrt
except ImportError:  # POSIX
    msvcrt = None  # type: ignore[assignment]

WINDOWS_LOCK_OFFSET = 2**40
"""The byte locked on Windows (1 TiB: past any file kubb3d writes; SQLite's own lock bytes sit at 1 GiB)."""


TMP_TAG = ".kubb3d-"
"""Marks kubb3d's temporary files: ``.NAME`` + TMP_TAG + 8 random characters + ``.tmp``."""

_TMP_RANDOM = re.compile(r"[a-z0-9_]{8}\.tmp")


def _mkstemp(p: Path) -> tuple[int, str]:
    """A fresh temporary file beside ``p`` (named as :data:`TMP_TAG` says)."""
    return tempfile.mkstemp(prefix=f".{p.name}{TMP_TAG}", suffix=".tmp", dir=p.parent)


def _is_own_temporary(entry: Path, p: Path) -> bool:
    """Whether ``entry`` is a temporary file kubb3d made for ``p``: the exact name pattern of
    :func:`_mkstemp`, a regular file (not a link), owned by this user."""
    head = f".{p.name}{TMP_TAG}"
    if not entry.name.startswith(head) or not _TMP_RANDOM.fullmatch(entry.name[len(head):]):
        return False
    try:
        st = os.lstat(entry)
    except OSError:
        return False
    uid = os.geteuid() if hasattr(os, "geteuid") else st.st_uid
    return stat.S_ISREG(st.st_mode) and st.st_uid == uid


def file_name(value: str) -> Path:
    """A command-line output file name as a Path (Typer ``parser=``): refuses a name that ends
    in a path separator (``--replay newdir/``), which names a folder, not a file.

    Raises:
        FileSafetyError: the name ends in a separator.
    """
    seps = tuple(s for s in (os.sep, os.altsep) if s)
    if value.endswith(seps):
        raise FileSafetyError(msg("{value} ends with {sep}: give a file name, not a folder", value=repr(value),
                                  sep=repr(value[-1])))
    return Path(value)


class InputWarning(UserWarning):
    """Something in an input file that a reader skipped; the CLI prints it as one line
    ``warning: …``, every time."""


def _lstat(p: Path, what: str) -> os.stat_result | None:
    """``os.lstat`` of an output path (None: it does not exist); any other error is a
    FileSafetyError naming ``what``."""
    try:
        return os.lstat(p)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise FileSafetyError(f"{what}: cannot use {p}: {exc.strerror}") from None

def check_output(path: str | os.PathLike, what: str, *, overwrite: bool = False, force_word: str = "--force") -> Path:
    """Check ``path`` against the output rule (module doc); returns it as a Path.

    Args:
        what: what the file is, for the message (``--replay``, ``--out`` …).
        overwrite: an existing regular file may be replaced.

    Raises:
        FileSafetyError: the rule is broken; the message names the path and the flag.
    """
    p = Path(path)
    if str(path) == "" or p.name in ("", ".", ".."):
        raise FileSafetyError(f"{what}: {str(path)!r} is not a file name")
    st = _lstat(p, what)
    if st is not None:
        if stat.S_ISLNK(st.st_mode):
            raise FileSafetyError(f"{what}: {p} is a symbolic link; give the path of a regular file")
        if stat.S_ISDIR(st.st_mode):
            raise FileSafetyError(msg("{what}: {path} is a folder; give a file name", what=what, path=str(p)))
        if not stat.S_ISREG(st.st_mode):
            raise FileSafetyError(
                msg("{what}: {path} is not a regular file (a device, FIFO or socket)", what=what, path=str(p))
            )
        if not overwrite:
            raise FileSafetyError(_exists(what, p, force_word))
    parent = p.parent
    if not parent.is_dir():
        raise FileSafetyError(_no_folder(what, parent))
    return p


def output_folder(path: str | os.PathLike, what: str, *, create: bool = True) -> Path:
    """Check or make a folder an option names for output (``--out`` of ``models build``,
    ``quiz``, ``audit --replay-dir``): an existing folder is used; a missing one is created
    when its parent exists (one level: missing parents are never created); a symbolic link,
    a file or a special file is refused. ``create=False`` only checks (before any work).

    Raises:
        FileSafetyError: the rule is broken, or the folder cannot be made.
    """
    p = Path(path)
    if str(path) == "":
        raise FileSafetyError(f"{what}: expected a folder, got an empty string")
    st = _lstat(p, what)
    if st is not None:
        if stat.S_ISLNK(st.st_mode):
            raise FileSafetyError(f"{what}: {p} is a symbolic link; give the path of a folder")
        if not stat.S_ISDIR(st.st_mode):
            raise FileSafetyError(f"{what}: {p} exists and is not a folder")
        return p
    if not p.parent.is_dir():
        raise FileSafetyError(_no_folder(what, p.parent))
    if not create:
        return p
    try:
        p.mkdir()
    except FileExistsError:
        return output_folder(p, what)  # made meanwhile (another worker of the same run)
    except OSError as exc:
        raise _disk_error(exc, p) from None
    return p


def _disk_error(exc: OSError, p: Path) -> FileSafetyError:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return FileSafetyError(f"no space left on the device to write {p}")
    return FileSafetyError(f"cannot write {p}: {exc.strerror or exc}")


def atomic_write(path: str | os.PathLike, data: bytes) -> None:
    """Replace ``path`` by ``data`` atomically: a temporary file in the same folder, fsync,
    rename, fsync of the folder. A crash at any moment leaves the old or the new file.

    Raises:
        FileSafetyError: the disk is full or the folder cannot be written (the old file is
            kept, the temporary file removed).
    """
    p = Path(path)
    try:
        fd, tmp = _mkstemp(p)
    except OSError as exc:
        raise _disk_error(exc, p) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise _disk_error(exc, p) from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(p.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        dfd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def _try_lock(fd: int) -> bool:
    """Take the exclusive lock on ``fd`` without waiting (module doc); False if another holds it.
    The file position is left where it was."""
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    if msvcrt is not None:  # Windows (tested on POSIX through a stand-in, tests/test_files.py)
        pos = os.lseek(fd, 0, os.SEEK_CUR)
        os.lseek(fd, WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as exc:
            if exc.errno not in (errno.EACCES, errno.EDEADLK):
                raise
            return False
        finally:
            os.lseek(fd, pos, os.SEEK_SET)
        return True
    return True  # pragma: no cover - a platform with neither: unlocked


def lock_fd(fd: int, p: Path) -> None:
    """Take the exclusive lock on the open file ``fd`` (the file at ``p``) without waiting.

    Raises:
        FileSafetyError: another process holds it, or the path now names another file.
    """
    if not _try_lock(fd):
        raise FileSafetyError(f"{p}: another kubb3d process is writing this file")
    try:
        same = os.path.samestat(os.fstat(fd), os.stat(p))
    except OSError:
        same = False
    if not same:
        raise FileSafetyError(f"{p}: the file was replaced while it was being opened; try again")


class ExclusiveFile:
    """An append handle on a file, holding the exclusive lock on it while open.

    Args:
        path: the file (a symbolic link or a special file is refused: never followed, a FIFO
            never waited on).
        create: create it if missing.
        replace: truncate an existing file (after taking its lock).
        exclusive: create it with ``O_EXCL`` (refused if anything exists at the path, even
            one made between a check and this open).

    A file this handle created and that holds nothing yet when a write fails (a full disk) is
    removed, so a failed start leaves no empty file to need ``--force``.

    Raises:
        FileSafetyError: another process holds the lock, the path exists (``exclusive``), it is
            not a regular file, or it cannot be opened.
    """

    def __init__(
        self, path: str | os.PathLike, *, create: bool = True, replace: bool = False, exclusive: bool = False
    ) -> None:
        self.path = Path(path)
        flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        if create or exclusive:
            flags |= os.O_CREAT
        if exclusive:
            flags |= os.O_EXCL
        existed = exclusive is False and os.path.lexists(self.path)
        try:
            fd = os.open(self.path, flags, 0o644)
        except FileExistsError:
            raise FileSafetyError(
                msg("{path} already exists; choose another file (or {force} to replace it)", path=str(self.path),
                     force="--force")
            ) from None
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.EMLINK):
                raise FileSafetyError(f"{self.path} is a symbolic link; give the path of a regular file") from None
            if exc.errno == errno.ENXIO:  # a FIFO with no reader
                raise FileSafetyError(f"{self.path} is not a regular file (a device, FIFO or socket)") from None
            raise _disk_error(exc, self.path) from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise FileSafetyError(f"{self.path} is not a regular file (a device, FIFO or socket)")
            if hasattr(os, "O_NONBLOCK") and fcntl is not None:
                fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
            lock_fd(fd, self.path)
            if replace:
                os.ftruncate(fd, 0)
        except BaseException:
            os.close(fd)
            raise
        self.created = not existed
        """This handle made the file (it may remove it while it is still empty)."""
        self.fh = os.fdopen(fd, "a", encoding="utf-8")

    def write(self, text: str) -> None:
        """Append ``text`` and flush it to the operating system.

        Raises:
            FileSafetyError: the disk is full.
        """
        try:
            self.fh.write(text)
            self.fh.flush()
        except OSError as exc:
            self._drop_if_empty()
            raise _disk_error(exc, self.path) from None
        self.stored = True

    def _drop_if_empty(self) -> None:
        """Remove the file if this handle created it and no write of it completed (a partial
        first line is nothing a reader could use)."""
        if not getattr(self, "created", False) or getattr(self, "stored", False):
            return
        try:
            if os.path.samestat(os.fstat(self.fh.fileno()), os.lstat(self.path)):
                os.unlink(self.path)
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        if not self.fh.closed:
            try:
                self.fh.close()  # closing the descriptor releases the lock
            except OSError:
                self._drop_if_empty()
                try:
                    self.fh.close()
                except OSError:
                    pass


def rewrite_locked(path: str | os.PathLike, data: bytes) -> ExclusiveFile:
    """Atomically replace ``path`` by ``data`` and return an append handle holding the lock
    on the new file. The old file's lock is taken first, so two processes never rewrite one
    file; the new file is locked before it is renamed into place.

    Raises:
        FileSafetyError: another process holds the file, the disk is full.
    """
    p = Path(path)
    try:
        old = os.open(p, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise FileSafetyError(f"cannot open {p}: {exc.strerror or exc}") from None
    try:
        lock_fd(old, p)
        # temporaries of earlier rewrites killed before their rename (we hold the lock now)
        # (only names of our own pattern: a user's ".r.jsonl.backup.tmp" is not ours)
        for stale in p.parent.glob(f".*{TMP_TAG}*.tmp"):
            if _is_own_temporary(stale, p):
                try:
                    stale.unlink()
                except OSError:
                    pass
        fd, tmp = _mkstemp(p)
        try:
            _try_lock(fd)  # a fresh temporary name: nobody else can hold it
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
            os.chmod(tmp, stat.S_IMODE(os.fstat(old).st_mode))
            os.replace(tmp, p)
        except BaseException as exc:
            os.close(fd)
            try:
                os.unlink(tmp)
            except OSError:
                pass
            if isinstance(exc, OSError):
                raise _disk_error(exc, p) from None
            raise
        _fsync_dir(p.parent)
    finally:
        os.close(old)
    os.lseek(fd, 0, os.SEEK_END)
    handle = ExclusiveFile.__new__(ExclusiveFile)
    handle.path = p
    handle.fh = os.fdopen(fd, "a", encoding="utf-8")
    return handle


def write_output(
    path: str | os.PathLike, write: Callable[[Path], object], what: str = "--out", *, overwrite: bool = True
) -> Path:
    """Write an output file safely: check ``path`` against the output rule, let ``write(tmp)``
    fill a fresh temporary file in the same folder, fsync it and rename it over ``path``. A
    planted symlink or device is never followed and a failed write (a full disk) leaves no
    partial file. ``overwrite=False`` (a command without ``--force``): an existing file is
    refused, also one made by another program while this one worked (the temporary file is
    linked to the name, which fails if the name exists, instead of renamed over it).

    Raises:
        FileSafetyError: the rule is broken, or the write failed (e.g. no space left).
    """
    p = check_output(path, what, overwrite=overwrite)
    try:
        fd, name = _mkstemp(p)
    except OSError as exc:
        raise _disk_error(exc, p) from None
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        if overwrite:
            os.replace(tmp, p)
        else:
            _link_new(tmp, p, what)
    except BaseException as exc:
        try:
            tmp.unlink()
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise _disk_error(exc, p) from None
        raise
    _fsync_dir(p.parent)
    return p


def _link_new(tmp: Path, p: Path, what: str) -> None:
    """Give the written temporary file the name ``p`` only if nothing has it (a hard link fails
    on an existing name), then drop the temporary name; where hard links are not supported,
    check and rename."""
    try:
        os.link(tmp, p)
    except FileExistsError:
        raise FileSafetyError(_exists(what, p, "--force")) from None
    except OSError:
        check_output(p, what)
        os.replace(tmp, p)
        return
    tmp.unlink()


MAX_INPUT_BYTES = 256 * 1024 * 1024
"""The largest input file kubb3d reads (spec, scenario, replay): 256 MB."""


def read_input(path: str | os.PathLike, what: str, *, max_bytes: int = MAX_INPUT_BYTES, torn_tail: bool = False) -> str:
    """The text of an input file, refusing what could hang or exhaust memory: special files
    (a FIFO blocks forever, ``/dev/zero`` never ends), folders, files above ``max_bytes``,
    text that is not UTF-8. Messages name the file, never its content.

    ``torn_tail``: an appended file cut by an interruption (a replay) may end inside a
    UTF-8 character; bytes that do not decode after the last newline are then dropped, as a
    reader drops a cut last line.

    Raises:
        FileSafetyError: the file cannot be used as ``what``.
    """
    p = Path(path)
    words = _what_words(what)
    try:
        st = os.stat(p)
    except OSError as exc:
        raise FileSafetyError(_cannot_read(words, p, exc)) from None
    if stat.S_ISDIR(st.st_mode):
        raise FileSafetyError(msg("{what} {path} is a folder, not a file", what=words, path=str(p)))
    if not stat.S_ISREG(st.st_mode):
        raise FileSafetyError(msg("{what} {path} is not a regular file (a device, FIFO or socket)", what=words,
                                  path=str(p)))
    if st.st_size > max_bytes:
        raise FileSafetyError(msg("{what} {path} is too large ({mb:.0f} MB; at most {most:.0f} MB)", what=words,
                                  path=str(p), mb=st.st_size / 1e6, most=max_bytes / 1e6))
    try:
        with open(p, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise FileSafetyError(_cannot_read(words, p, exc)) from None
    if len(data) > max_bytes:
        raise FileSafetyError(msg("{what} {path} is too large (more than {most:.0f} MB)", what=words, path=str(p),
                                  most=max_bytes / 1e6))
    if data.startswith(b"SQLite format 3\x00"):  # every input read here is text: said "not UTF-8
        article = "an" if what[:1] in "aeiou" else "a"  # text (byte 102)" or "no header line"
        nots = {
            "a scenario": N_("not a scenario"), "an experiment spec": N_("not an experiment spec"),
            "a replay file": N_("not a replay file"), "a notation file": N_("not a notation file"),
        }
        not_what = f"not {article} {what}"
        not_what = msg(nots[f"{article} {what}"]) if f"{article} {what}" in nots else not_what
        raise FileSafetyError(msg("{path} is an experiment results file (SQLite), {not_what}", path=str(p),
                                  not_what=not_what))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if torn_tail and exc.start > data.rfind(b"\n"):
            return data[: data.rfind(b"\n") + 1].decode("utf-8")  # only the cut last line is bad
        raise FileSafetyError(msg("{what} {path} is not UTF-8 text (byte {byte})", what=words, path=str(p),
                                  byte=exc.start)) from None


def _what_words(what: str) -> str:
    """The kind of input file (``scenario``, ``experiment spec``, ``replay file``, ``notation
    file``) as a message of the catalog, for the error lines that name it; another as it is."""
    known = {"scenario": N_("scenario"), "experiment spec": N_("experiment spec"), "replay file": N_("replay file"),
             "notation file": N_("notation file")}
    return msg(known[what]) if what in known else what


def N_(text: str) -> str:
    """Marks a message for the catalog (as :func:`kubb3d.judge.messages.N_`)."""
    return text


def msg(template: str, /, **params: object) -> str:
    """A message of the catalog (:func:`kubb3d.judge.messages.msg`, imported when an error is made)."""
    from kubb3d.judge.messages import msg

    return msg(template, **params)


_OS_REASONS = (N_("No such file or directory"), N_("Permission denied"), N_("Is a directory"), N_("Not a directory"))
"""The operating system's reasons (``strerror``, English) that an error line gives in its language."""


def _cannot_read(words: str, p: Path, exc: OSError) -> str:
    reason = exc.strerror or str(exc)
    return msg("cannot read {what} {path}: {reason}", what=words, path=str(p),
               reason=msg(reason) if reason in _OS_REASONS else reason)


def _exists(what: str, p: Path, force_word: str) -> str:
    from kubb3d.judge.messages import msg

    return msg("{what}: {path} already exists; choose another file (or {force} to replace it)", what=what,
               path=str(p), force=force_word)


def _no_folder(what: str, folder: Path) -> str:
    from kubb3d.judge.messages import msg

    return msg("{what}: the folder {folder} does not exist (it is not created)", what=what, folder=str(folder))


REPLAY_KIND = N_("a kubb3d match replay")
NOTATION_KIND = N_("a match record in the game notation")
TOML_KIND = N_("a TOML file (a scenario or an experiment spec)")
RESULTS_KIND = N_("an experiment results file (SQLite)")
HTML_KIND = N_("an HTML page")


def kind_of_text(text: str) -> str | None:
    """What an input file looks like, from its first line that is not blank, for a message that
    names what was given and what was expected: :data:`REPLAY_KIND` (a JSON header line),
    :data:`NOTATION_KIND` (a ``#`` comment line or a numbered turn ``1. …``), :data:`TOML_KIND`
    (valid TOML), :data:`RESULTS_KIND` (SQLite's magic), :data:`HTML_KIND` (a page such as
    ``export --html`` writes, given where its replay was meant), else None."""
    import json

    if text.startswith("SQLite format 3\x00"):
        return RESULTS_KIND
    for line in (raw.strip() for raw in text.splitlines()):
        if not line:
            continue
        if line.startswith("#"):  # a notation header, else a comment (TOML has them too)
            if re.match(r"#\s*(player \w+:|set \d+|result:|Planet Kubb)", line, re.IGNORECASE):
                return NOTATION_KIND
            continue
        if re.match(r"<(!doctype\s+html|html)\b", line, re.IGNORECASE):
            return HTML_KIND
        if line.startswith("{"):
            try:
                doc = json.loads(line)
            except (ValueError, RecursionError):
                return None
            return REPLAY_KIND if isinstance(doc, dict) and doc.get("type") == "header" else None
        if re.match(r"\d+\.\s", line):
            return NOTATION_KIND
        if re.fullmatch(r"\[\[?[\w.\-\"]+\]\]?(\s*#.*)?|[\w\-\"]+\s*=.*", line):
            import tomllib

            try:
                tomllib.loads(text)
            except (ValueError, RecursionError):
                return None
            return TOML_KIND
        return None
    return None


def wrong_kind(path: str | os.PathLike, text: str, expected: str, hint: str = "") -> str | None:
    """``FILE is <what it looks like>, not <expected>`` (with ``hint``) when the text looks like
    another kind of kubb3d file than ``expected`` (:func:`kind_of_text`), else None."""
    found = kind_of_text(text)
    if found is None or found == expected:
        return None
    if hint:
        return msg("{path} is {found}, not {expected}; {hint}", path=str(path), found=msg(found),
                   expected=msg(expected), hint=hint)
    return msg("{path} is {found}, not {expected}", path=str(path), found=msg(found), expected=msg(expected))


def replay_not_toml(path: str | os.PathLike, what: str) -> str:
    """``FILE is a kubb3d match replay, not a scenario; open it with …``: a replay (by its
    ``.jsonl`` name or its header line) given where a TOML file (``what``) is read, as a
    message of the catalog. It said "not valid TOML at line 1, column 1"."""
    from kubb3d.judge.messages import N_, msg

    nots = {"scenario": N_("not a judge scenario"), "experiment spec": N_("not an experiment spec")}
    return msg(
        "{path} is a kubb3d match replay, {not_what}; read it with kubb3d analyse {path} or watch it with "
        "kubb3d view {path}",
        path=str(path),
        not_what=msg(nots[what]) if what in nots else f"not a {what}",
    )


def _toml_position(exc: ValueError) -> str:
    """' at line L, column C: reason' of a TOML syntax error (Python 3.11-3.13 keep the position
    only in the message; 3.14 adds ``lineno``/``colno``), or '' when the error names none; a
    message of the catalog, the reason too where it is one of :data:`_TOML_REASONS`."""
    text = str(exc)
    found = re.search(r"\(at line (\d+), column (\d+)\)", text)
    if found:
        line, column = found.group(1), found.group(2)
    else:
        line, column = getattr(exc, "lineno", None), getattr(exc, "colno", None)
    reason = _toml_reason(re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", text).strip())
    if not line:
        return msg(" at the end of the file: {reason}", reason=reason) if "(at end of document)" in text else ""
    where = msg(" at line {line}, column {column}", line=str(line), column=str(column))
    return msg("{where}: {reason}", where=where, reason=reason) if reason else where


_TOML_REASONS = (
    N_("Cannot overwrite a value"), N_("Escaped character is not a Unicode scalar value"),
    N_("Expected '=' after a key in a key/value pair"), N_("Expected ']' at the end of a table declaration"),
    N_("Expected ']]' at the end of an array declaration"), N_("Invalid date or datetime"), N_("Invalid hex value"),
    N_("Invalid initial character for a key part"), N_("Invalid statement"), N_("Invalid value"),
    N_("Unclosed array"), N_("Unclosed inline table"), N_("Unescaped '\\' in a string"), N_("Unterminated string"),
    N_("Expected newline or end of document after a statement"),
)
"""The reasons Python's TOML reader (``tomllib``, English) gives for a syntax error, as messages."""

_TOML_FORMS = (
    (r"Cannot declare (?P<key>.+) twice", N_("Cannot declare {key} twice")),
    (r"Cannot mutate immutable namespace (?P<key>.+)", N_("Cannot mutate immutable namespace {key}")),
    (r"Cannot redefine namespace (?P<key>.+)", N_("Cannot redefine namespace {key}")),
    (r"Duplicate inline table key (?P<key>.+)", N_("Duplicate inline table key {key}")),
    (r"Found invalid character (?P<char>.+)", N_("Found invalid character {char}")),
    (r"Illegal character (?P<char>.+)", N_("Illegal character {char}")),
    (r"Expected (?P<what>'.*')", N_("Expected {what}")),
)
"""(pattern, message) of ``tomllib``'s reasons that name a key or a character."""


def _toml_reason(reason: str) -> str:
    """``reason`` (``tomllib``'s English) as a message of the catalog, or as it is."""
    if reason in _TOML_REASONS:
        return msg(reason.replace("{", "{{").replace("}", "}}"))
    for pattern, template in _TOML_FORMS:
        found = re.fullmatch(pattern, reason)
        if found is not None:
            return msg(template, **found.groupdict())
    return reason


def load_toml(path: str | os.PathLike, what: str) -> dict:
    """Parse a TOML input file (see :func:`read_input`); syntax errors and absurd nesting give
    one line naming the file and the position, never its content.

    Raises:
        FileSafetyError: unreadable file or not valid TOML.
    """
    import tomllib

    text = read_input(path, what)
    words = _what_words(what)
    if Path(path).suffix.lower() == ".jsonl" or kind_of_text(text) == REPLAY_KIND:  # said "not valid TOML"
        raise FileSafetyError(replay_not_toml(path, what))
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        if Path(path).suffix.lower() == ".json":  # "line 1, column 1" told nothing
            kinds = {"scenario": N_("scenarios"), "experiment spec": N_("experiment specs")}
            plural = msg(kinds[what]) if what in kinds else f"{what}s"
            raise FileSafetyError(msg("{what} {path}: a JSON file; {kinds} are TOML files (.toml)", what=words,
                                      path=str(path), kinds=plural)) from None
        raise FileSafetyError(msg("{what} {path}: not valid TOML{position}", what=words, path=str(path),
                                  position=_toml_position(exc))) from None
    except RecursionError:
        raise FileSafetyError(msg("{what} {path}: nested too deeply to be a kubb3d file", what=words,
                                  path=str(path))) from None
    except ValueError:  # an integer of more than 4300 digits (Python's int-from-text limit)
        raise FileSafetyError(msg("{what} {path}: not valid TOML (a number with too many digits)", what=words,
                                  path=str(path))) from None

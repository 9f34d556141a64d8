"""Durable results: one SQLite file per run, written only by the parent process.

Tables::

    meta(key TEXT PRIMARY KEY, value TEXT)
        schema        store layout version ("1")
        spec_sha256   hash of the normalised spec (LoadedSpec.sha256)
        spec_json     the validated spec (LoadedSpec.to_json)
        created_at    Unix time, s
        versions      JSON: the versions that made the rows (kubb3d release and code, PyBullet,
                      numpy, Python: :mod:`kubb3d.experiment.versions`)
        mixed_versions  JSON list, only when rows of other versions were appended on purpose
                      (``--mix-versions``): each ``{"versions", "stored_before", "at"}``
    trials(trial INTEGER PRIMARY KEY, ok INTEGER, error TEXT, row TEXT, wall_s REAL, finished_at REAL)
        one row per finished trial: ``row`` is the trial's JSON row (see
        :mod:`kubb3d.experiment.trial`), ``wall_s`` the seconds it took on its worker.
    results (a view): one column per field of the rows, by its plain name, for SQL:
        ``trial``, ``ok``, ``error``, then every factor, draw and measure of the rows
        (``SELECT speed, AVG(hit) FROM results GROUP BY speed``), ``wall_s`` last. Numbers
        and strings are typed SQL values (booleans 0/1); lists and tables (``felled`` …) are
        JSON text. Kept up to date as rows with new fields arrive.

The database runs in WAL mode with ``synchronous = FULL``: a committed trial survives the
writing process being killed (even ``kill -9``) and power loss. Rows are committed as they
arrive, so a killed run loses only the trials in flight. The primary key makes a duplicate
trial impossible. A run holds an exclusive lock on the results file itself
(:func:`kubb3d.files.lock_fd`) so that two runs never write one file; readers open it
read-only.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
import warnings
from pathlib import Path
from typing import Iterable, Iterator

from kubb3d.errors import StoreError as StoreError
from kubb3d.files import FileSafetyError, InputWarning, check_output, fcntl, lock_fd
from kubb3d.ranges import listed
from kubb3d.ranges import counted
from kubb3d.judge.messages import N_, Msg, msg, nmsg

_SQLITE_REASONS = (N_("file is not a database"), N_("database disk image is malformed"))
"""SQLite's reasons (English) for a file that is no database, as messages of the catalog."""

STORE_SCHEMA = "1"


class BadRowsWarning(InputWarning):
    """Rows of a results file that readers skip (see :meth:`ResultStore.rows`)."""


class ResultStore:
    """A results file opened for a run.

    Args:
        path: the SQLite file (created if missing).
        spec_sha256, spec_json: the run's spec; an existing file must carry the same hash.
        lock: take the exclusive run lock (False for read-only use).
        versions: the versions of the rows to be added (a run's); the file records them, and an
            existing file with rows must carry the same ones.
        mix_versions: accept rows of other versions than the stored ones; recorded in
            ``mixed_versions``.

    Raises:
        StoreError: the file holds results of a different spec or rows of other versions (or
            of unrecorded ones), is not a kubb3d results file, or another run holds its lock.
    """

    def __init__(
        self,
        path: str | Path,
        spec_sha256: str | None = None,
        spec_json: str | None = None,
        *,
        lock: bool = True,
        versions: dict | None = None,
        mix_versions: bool = False,
    ) -> None:
        self.path = Path(path)
        self.readonly = not lock
        self._lock_fd: int | None = None
        if lock:
            # the output rule (kubb3d.files): no symlink or device, the folder must exist; the
            # lock is taken on the database file itself (nothing left beside it, nothing to
            # delete to bypass it)
            try:
                check_output(self.path, "--out", overwrite=True)
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
            except FileSafetyError as exc:
                from kubb3d.errors import message

                raise StoreError(message(exc)) from None
            except OSError as exc:
                raise StoreError(msg("{path}: cannot open: {reason}", path=str(self.path),
                                     reason=exc.strerror or str(exc))) from None
            try:
                lock_fd(fd, self.path)
            except FileSafetyError:
                os.close(fd)
                raise StoreError(msg("{path}: another run is writing this results file", path=str(self.path))) from None
            self._lock_fd = fd
        try:
            if lock:
                self.db = sqlite3.connect(str(self.path), timeout=30.0)
            else:
                # readers never change the file (no WAL switch, no journal created by them);
                # a file at rest is read immutable: no -wal/-shm made, a read-only mount works
                self._lock_fd = _hold_at_rest(self.path)
                rest = "&immutable=1" if self._lock_fd is not None else ""
                self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro{rest}", uri=True, timeout=30.0)
        except sqlite3.Error as exc:
            self._unlock()
            raise StoreError(msg("{path}: cannot open: {reason}", path=str(self.path), reason=str(exc))) from None
        try:
            self._init(spec_sha256, spec_json)
            if versions is not None and not self.readonly:
                self._check_versions(versions, mix_versions)
        except (sqlite3.DatabaseError, StoreError) as exc:
            self.close()
            if isinstance(exc, StoreError):
                raise
            why = msg(str(exc)) if str(exc) in _SQLITE_REASONS else str(exc)
            raise StoreError(msg("{path}: not a kubb3d results file ({why})", path=str(self.path), why=why)) from None
        except BaseException:  # an interrupt: the lock is released at once, not at exit
            self.close()
            raise

    def _init(self, spec_sha256: str | None, spec_json: str | None) -> None:
        db = self.db
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if tables and not {"meta", "trials"} <= tables:
            raise StoreError(msg("{path}: not a kubb3d results file (tables {tables})", path=str(self.path),
                                 tables=listed(sorted(tables))))
        if not self.readonly:  # only after the file is known ours: another program's is never changed
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
        if not tables:
            if spec_sha256 is None:
                raise StoreError(msg("{path}: no results in this file", path=str(self.path)))
            with db:
                db.execute("BEGIN")  # one transaction: an interrupt leaves no tables without meta
                db.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                db.execute(
                    "CREATE TABLE trials(trial INTEGER PRIMARY KEY, ok INTEGER NOT NULL, error TEXT, row TEXT NOT "
                    "NULL, wall_s REAL, finished_at REAL)"
                )
                db.executemany(
                    "INSERT INTO meta VALUES (?, ?)",
                    [
                        ("schema", STORE_SCHEMA),
                        ("spec_sha256", spec_sha256),
                        ("spec_json", spec_json or ""),
                        ("created_at", repr(time.time())),
                    ],
                )
            return
        meta = dict(db.execute("SELECT key, value FROM meta"))
        if meta.get("schema") != STORE_SCHEMA:
            raise StoreError(msg("{path}: results layout {found}, this kubb3d reads {schema}", path=str(self.path),
                                 found=repr(meta.get("schema")), schema=repr(STORE_SCHEMA)))
        if spec_sha256 is not None and meta.get("spec_sha256") != spec_sha256:
            raise StoreError(msg(
                "{path}: holds results of a different spec (hash {stored}…, this spec {hash}…); use another --out "
                "file or the spec that made it", path=str(self.path), stored=meta.get("spec_sha256", "?")[:12],
                hash=spec_sha256[:12]))

    def _check_versions(self, versions: dict, mix: bool) -> None:
        from kubb3d.experiment.versions import describe

        meta = self.meta()
        stored_json = meta.get("versions")
        stored = json.loads(stored_json) if stored_json else None
        if stored == versions:
            return
        n, _ = self.count()
        new = json.dumps(versions, sort_keys=True)
        if n and not mix:
            made = f"made by {describe(stored)}" if isinstance(stored, dict) else "made by versions it does not record"
            raise StoreError(
                f"{self.path}: holds {counted(n, 'row')} {made}; this run has {describe(versions)}; use another --out "
                "file, or --mix-versions to add to it anyway (recorded in the file)"
            )
        with self.db:
            if not n:
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('versions', ?)", (new,))
            else:
                mixed = json.loads(meta.get("mixed_versions") or "[]")
                mixed.append({"versions": versions, "stored_before": n, "at": time.time()})
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('mixed_versions', ?)", (json.dumps(mixed),))

    # ------------------------------------------------------------------ access
    def meta(self) -> dict[str, str]:
        """The meta table."""
        return dict(self.db.execute("SELECT key, value FROM meta"))

    def finished(self) -> set[int]:
        """Indices of the trials already stored."""
        return {r[0] for r in self.db.execute("SELECT trial FROM trials")}

    def count(self) -> tuple[int, int]:
        """(trials stored, of which failed)."""
        n, bad = self.db.execute("SELECT COUNT(*), COALESCE(SUM(ok = 0), 0) FROM trials").fetchone()
        return int(n), int(bad)

    def add(self, rows: Iterable[tuple[dict, float]]) -> int:
        """Store finished trials (row, wall seconds) in one transaction; returns how many.

        Raises:
            sqlite3.IntegrityError: a trial index already stored (never happens in a run,
                which skips finished trials).
        """
        now = time.time()
        data = [
            (
                int(r["trial"]),
                1 if r.get("ok") else 0,
                r.get("error"),
                json.dumps(r, separators=(",", ":")),
                float(w),
                now,
            )
            for r, w in rows
        ]
        new_fields = {k for r, _ in rows for k in r} - self._view_fields if data else set()
        try:
            with self.db:
                self.db.executemany("INSERT INTO trials VALUES (?, ?, ?, ?, ?, ?)", data)
                if new_fields:
                    self._update_view()
        except sqlite3.OperationalError as exc:
            if "full" in str(exc):
                raise StoreError(
                    f"{self.path}: the disk is full; the trials stored so far are kept, free space and run the same "
                    "command to resume"
                ) from None
            raise StoreError(f"{self.path}: cannot store results: {exc}") from None
        return len(data)

    _view_fields: set[str] = set()

    def _update_view(self) -> None:
        """(Re)create the ``results`` view over every field of the stored rows, in the order
        fields first appear (trial order)."""
        names = [
            k
            for (k,) in self.db.execute(
                "SELECT j.key FROM trials, json_each(trials.row) AS j GROUP BY j.key ORDER BY MIN(trials.trial * "
                "100000 + j.id)"
            )
        ]
        own = ("trial", "ok", "error", "wall_s")
        cols = ["trial", "ok", "error"]
        for k in names:
            if k not in own:
                path = '$."' + k.replace('"', '""') + '"'
                cols.append(
                    f"json_extract(row, '{path.replace(chr(39), chr(39) * 2)}') AS "
                    f"\"{k.replace(chr(34), chr(34) * 2)}\""
                )
        cols.append("wall_s")
        self.db.execute("DROP VIEW IF EXISTS results")
        self.db.execute(f"CREATE VIEW results AS SELECT {', '.join(cols)} FROM trials")
        self._view_fields = set(names)

    def rows(self) -> Iterator[dict]:
        """Every stored row in trial order, with ``wall_s`` added (None unless a number).

        A row that is not a trial row (a hand-edited or foreign file: not JSON, not a JSON
        object, ``trial`` missing or not its own index) is skipped; when the rows have been
        read, one :class:`BadRowsWarning` says how many and why the first was.
        """
        bad: list[Msg] = []
        for trial, row, wall in self.db.execute("SELECT trial, row, wall_s FROM trials ORDER BY trial"):
            why = None
            try:
                d = json.loads(row) if isinstance(row, (str, bytes)) else None
            except (ValueError, RecursionError):
                d, why = None, msg("not valid JSON")
            if why is None and not isinstance(d, dict):
                why = msg("not a JSON object")
            elif why is None and isinstance(d, dict) and (type(d.get("trial")) is not int or d["trial"] != trial):
                why = msg("its 'trial' field is not the trial's index")
            if why is not None or not isinstance(d, dict):
                bad.append(msg("trial {trial}: {why}", trial=trial, why=why))
                continue
            d["wall_s"] = wall if isinstance(wall, (int, float)) else None
            yield d
        if bad:
            warnings.warn(BadRowsWarning(nmsg(
                "{path}: skipped {n} row that is not a kubb3d trial row (first: {first})",
                "{path}: skipped {n} rows that are not kubb3d trial rows (first: {first})",
                len(bad), path=str(self.path), n=len(bad), first=bad[0],
            )), stacklevel=2)

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            try:
                os.close(self._lock_fd)  # closing the descriptor releases the lock
            finally:
                self._lock_fd = None

    def close(self) -> None:
        """Close the database and release the lock."""
        try:
            self.db.close()
        finally:
            self._unlock()

    def __enter__(self) -> "ResultStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _hold_at_rest(path: Path) -> int | None:
    """A descriptor holding a shared lock on a results file that no run is writing and that
    has no ``-wal`` beside it (all its rows are in the file itself), or None. While it is held
    no run can start on the file (a run takes the exclusive lock, :mod:`kubb3d.files`)."""
    if fcntl is None:  # pragma: no cover - Windows: read through SQLite's own locking
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    if os.path.lexists(f"{path}-wal"):  # a run that was killed: its last rows are in the WAL
        os.close(fd)
        return None
    return fd


def open_results(path: str | Path) -> ResultStore:
    """Open an existing results file for reading (no lock; a run may be writing it).

    Raises:
        StoreError: missing file or not a results file.
    """
    path = Path(path)
    if not path.is_file():
        raise StoreError(msg("{path}: no such results file", path=str(path)))
    if path.stat().st_size == 0:
        raise StoreError(msg("{path}: not a kubb3d results file ({why})", path=str(path), why=msg("it is empty")))
    return ResultStore(path, lock=False)


def read_rows(path: str | Path) -> list[dict]:
    """Every row of a results file in trial order (see :meth:`ResultStore.rows`).

    Raises:
        StoreError: see :func:`open_results`.
    """
    with open_results(path) as store:
        return list(store.rows())

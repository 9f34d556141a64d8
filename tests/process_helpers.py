"""Helpers for tests that start kubb3d commands in their own session and check what is left."""

import sqlite3
from pathlib import Path


def session_members_of(sid: int) -> list[int]:
    """Pids of the live (not zombie) processes in session ``sid`` (Linux /proc): what is left of
    a command started with ``start_new_session=True`` (tests/test_interrupts.py,
    tests/experiment/test_run.py)."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[3]) == sid:
            out.append(int(d.name))
    return out


def stored_trials(db: Path) -> int:
    """Trials stored in an experiment's results file so far (0 before it has its table)."""
    try:
        con = sqlite3.connect(str(db), timeout=5)
        try:
            return con.execute("SELECT COUNT(*) FROM trials").fetchone()[0]
        finally:
            con.close()
    except sqlite3.OperationalError:
        return 0

"""Ctrl-C and SIGTERM during a long command: the one line ``interrupted`` on stderr, exit code
130, no traceback, and no worker process left (README "What you can do", kubb3d/workers.py).

A terminal's Ctrl-C sends SIGINT to the whole foreground process group, workers included; a
``kill`` sends SIGTERM to the command's process alone. Both are sent here to a command started
in a session of its own, once it is at work. Before kubb3d/workers.py, ``audit`` ended on
Ctrl-C with exit code 130 and nothing on stderr, and after SIGTERM its two workers were left
running with no parent (found by hand: they never ended).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_process import run_kubb3d
from process_helpers import session_members_of, stored_trials

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")


def _as_from_a_terminal() -> None:
    """In the child before it runs: SIGINT handled by default, as a terminal starts a command. A
    test run started in the background of a non-interactive shell (``pytest &``) has SIGINT
    ignored, which every child inherits and Python keeps; the commands then rightly ran on past
    the Ctrl-C, and these tests failed for the way they were started."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt(
    tmp_path: Path,
    args: list[str],
    sig: int,
    *,
    group: bool,
    members: int,
    output: bool = False,
    ready=lambda: True,
) -> tuple[int, str, str]:
    """Start ``kubb3d ARGS…``, wait until its session has ``members`` live processes (the
    command and its workers; with ``output`` also until it has printed something; and until
    ``ready()``) and 1 s more,
    send ``sig`` (to the process group when ``group``); return (exit code, stdout, stderr) after
    checking that nothing of the session is left."""
    out, err = tmp_path / "stdout.txt", tmp_path / "stderr.txt"  # files: an orphan would hold a pipe open
    cmd = [sys.executable, "-c", "from kubb3d.cli import main; main()", *args]
    with open(out, "wb") as fo, open(err, "wb") as fe:
        proc = subprocess.Popen(
            cmd,
            cwd=tmp_path,
            start_new_session=True,
            stdout=fo,
            stderr=fe,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            preexec_fn=_as_from_a_terminal,
        )
    try:
        deadline = time.monotonic() + 120
        while len(session_members_of(proc.pid)) < members or (output and out.stat().st_size == 0) or not ready():
            assert proc.poll() is None, err.read_text()
            assert time.monotonic() < deadline, f"fewer than {members} processes after 120 s"
            time.sleep(0.05)
        time.sleep(1.0)
        assert proc.poll() is None, "the command ended before it could be interrupted"
        if group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        code = proc.wait(timeout=60)
        left = []
        for _ in range(100):  # the workers end within their current step
            left = session_members_of(proc.pid)
            if not left:
                break
            time.sleep(0.1)
        assert left == [], f"processes left 10 s after the command ended: {left}"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return code, out.read_text(), err.read_text()


@pytest.mark.parametrize("sig,group", [(signal.SIGINT, True), (signal.SIGTERM, False)], ids=["ctrl-c", "sigterm"])
def test_audit_with_workers_ends_with_interrupted_and_130(tmp_path, sig, group):
    code, out, err = _interrupt(
        tmp_path, ["audit", "--matches", "6", "--workers", "2", "--json"], sig, group=group, members=3
    )
    assert code == 130, err
    assert err == "interrupted\n", err
    assert out == '{"error": "interrupted"}\n'  # a program reading the document reads why there is none


def test_match_in_one_process_ends_with_interrupted_on_sigterm(tmp_path):
    """A match has no workers: the command alone. Waits until it prints its play-by-play and 1 s
    more, then SIGTERM."""
    code, out, err = _interrupt(
        tmp_path, ["match", "--seed", "2"], signal.SIGTERM, group=False, members=1, output=True
    )
    assert code == 130 and err.startswith("interrupted: the match was not saved; give --replay FILE"), err
    assert err.count("\n") == 1


def test_a_match_interrupted_by_ctrl_c_says_how_to_resume_and_the_words_work(tmp_path):
    """The tryout: Ctrl-C during kubb3d match said only "interrupted". With --replay the line
    names the command that resumes it, and that command finishes the match."""
    code, out, err = _interrupt(
        tmp_path, ["match", "--seed", "2", "--replay", "r.jsonl"], signal.SIGINT, group=True, members=1,
        output=True,
    )
    assert code == 130 and err.count("\n") == 1, err
    assert err.startswith("interrupted: ") and err.rstrip().endswith("resume with kubb3d match --resume r.jsonl")
    words = err.rstrip().split("resume with kubb3d ", 1)[1].split()
    resumed = run_kubb3d(*words, cwd=tmp_path, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert "result:" in resumed.stdout


def test_experiment_run_ctrl_c_to_the_group_leaves_no_worker_and_no_traceback(tmp_path):
    """Sent once trials are being stored. (A Ctrl-C while the pool still starts its workers can
    make a worker that is being forked print the traceback of its unpickling: not covered.)"""
    db = tmp_path / "h.sqlite"
    code, out, err = _interrupt(
        tmp_path, ["experiment", "run", "hit-8m", "--out", str(db), "--workers", "2", "-q"],
        signal.SIGINT, group=True, members=5, ready=lambda: stored_trials(db) > 0,
    )
    assert code == 130, err
    lines = err.splitlines()
    assert lines[-1].startswith("interrupted: ") and "run the same command to resume" in lines[-1], err
    assert "Traceback" not in err


def test_an_interrupt_while_the_options_are_parsed_is_not_silent(monkeypatch):
    """Parsing the options imports pydantic (0.2 s): an interrupt then ended with exit code 130
    and nothing on stderr (Typer turns it into a silent exit)."""
    from typer.core import TyperGroup
    from typer.testing import CliRunner

    from kubb3d.cli import _register_subapps, app

    _register_subapps()

    def interrupted(self, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(TyperGroup, "make_context", interrupted)
    res = CliRunner().invoke(app, ["match", "--seed", "2"])
    assert res.exit_code == 130 and res.stderr == "interrupted\n", res.stderr


def _catches_sigterm(pid: int) -> bool:
    """Whether process ``pid`` has a handler for SIGTERM (its ``SigCgt`` mask in /proc)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    mask = next((int(line.split()[1], 16) for line in status.splitlines() if line.startswith("SigCgt:")), 0)
    return bool(mask & (1 << (signal.SIGTERM - 1)))


@pytest.mark.parametrize("offset_s", [0.0, 0.05, 0.15, 0.3, 0.5, 0.8])
def test_an_interrupt_at_any_moment_of_a_run_start_is_one_line(tmp_path, offset_s):
    """Ctrl-C (to the group) and SIGTERM (to the command) from the first moment of `experiment
    run` at which Python runs kubb3d's code (the interpreter's own start, ~60 ms, ends as the
    system ends any program): while kubb3d imports (was: silent 143, or a KeyboardInterrupt
    traceback) and while the fork server starts the workers (was: a semaphore traceback after
    the line, 26 of 60 timings). The console script itself is run, as a user does."""
    script = Path(sys.executable).with_name("kubb3d")
    if not script.exists():
        pytest.skip("no kubb3d console script beside this Python")
    out = tmp_path / "r.sqlite"
    for sig, group in ((signal.SIGTERM, False), (signal.SIGINT, True)):
        proc = subprocess.Popen(
            [str(script), "experiment", "run", "hit-8m", "--out", str(out), "--workers", "2", "-q"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=tmp_path,
            preexec_fn=_as_from_a_terminal,
        )
        deadline = time.monotonic() + 30
        while not _catches_sigterm(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.002)
        time.sleep(offset_s)
        if group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        _out, err = proc.communicate(timeout=120)
        assert "Traceback" not in err, err
        assert proc.returncode == 130, (sig, err)
        assert err.strip().splitlines()[-1].startswith("interrupted"), err


LIBRARY_WRAPS_THE_INTERRUPT = """
import signal, os, sys
sys.argv = ["kubb3d", "wrapped"]
import kubb3d.cli as cli

@cli.app.command("wrapped")
def wrapped() -> None:
    try:  # as pydantic-core does when Ctrl-C comes while it builds a model: its own error
        os.kill(os.getpid(), signal.{sig})
        import time
        time.sleep(5)
    except KeyboardInterrupt as exc:
        raise RuntimeError("schema could not be built: KeyboardInterrupt") from exc

cli.main()
"""


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_an_interrupt_a_library_wrapped_into_its_own_error_is_one_line(sig):
    """Ctrl-C while `experiment run` imported its spec ended in a traceback of pydantic-core's
    SchemaError (1 of about 12 runs of the start-up test above): a library that turns the
    KeyboardInterrupt into an error of its own. Any error after a taken interrupt ends as the
    line ``interrupted`` with exit code 130; the same error without the signal stays an error."""
    proc = subprocess.run(
        [sys.executable, "-c", LIBRARY_WRAPS_THE_INTERRUPT.format(sig=sig)],
        capture_output=True, text=True, timeout=60, preexec_fn=_as_from_a_terminal,
    )
    assert (proc.returncode, proc.stderr.strip()) == (130, "interrupted"), proc.stderr
    unsignalled = LIBRARY_WRAPS_THE_INTERRUPT.format(sig=sig).replace(
        "os.kill(os.getpid(), signal.%s)" % sig, "raise KeyboardInterrupt"
    )
    proc = subprocess.run([sys.executable, "-c", unsignalled], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "RuntimeError: schema could not be built" in proc.stderr, proc.stderr


INTERRUPT_IN_A_CALLBACK = """
import signal, os, sys, time, weakref
sys.argv = ["kubb3d", "callback"]
import kubb3d.cli as cli

class Piece:
    pass

def on_collect(_ref):  # as importlib's module-lock callback: Python cannot raise out of it
    os.kill(os.getpid(), signal.{sig})
    for _ in range(1000):
        pass

@cli.app.command("callback")
def callback() -> None:
    piece = Piece()
    ref = weakref.ref(piece, on_collect)
    del piece
    time.sleep(5)
    print("finished")

cli.main()
"""


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_an_interrupt_inside_a_callback_still_ends_the_command_in_one_line(sig):
    """SIGTERM that came while importlib ran a weakref callback (1 of about 40 runs of the
    start-up test above) raised a KeyboardInterrupt where Python can only print it: "Exception
    ignored in … Traceback", and the command went on to the end. The interrupt must still end
    the command with the one line ``interrupted`` and exit code 130."""
    proc = subprocess.run(
        [sys.executable, "-c", INTERRUPT_IN_A_CALLBACK.format(sig=sig)],
        capture_output=True, text=True, timeout=60, preexec_fn=_as_from_a_terminal,
    )
    assert (proc.returncode, proc.stderr.strip(), proc.stdout) == (130, "interrupted", ""), proc.stderr

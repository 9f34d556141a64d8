"""The tests' fork server (tests/cli_process.py) answers as a real interpreter does: for a sample
of the command lines the suite runs, its CompletedProcess equals ``subprocess.run``'s."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_process import _may_fork, run_python

ROOT = Path(__file__).resolve().parents[1]

_LYING = (ROOT / "scenarios" / "dm_field_kubb_lying.toml").read_text()

SAMPLES = {
    "json": (["-m", "kubb3d", "throw", "--json"], {}),
    "help": (["-m", "kubb3d", "--help"], {}),
    "help-wide": (["-m", "kubb3d", "match", "--help"], {"COLUMNS": "200"}),
    "unknown-command": (["-m", "kubb3d", "matc"], {}),
    "range-error": (["-m", "kubb3d", "throw", "--speed", "-3"], {}),
    "german-error": (["-m", "kubb3d", "match", "--sets", "0"], {"LANGUAGE": "de"}),
    "german-option": (["-m", "kubb3d", "judge", "lying.toml", "--lang", "de"], {}),
    "exit-1": (["-m", "kubb3d", "judge", "--check", "wrong.toml"], {}),
    "json-error": (["-m", "kubb3d", "judge", "missing.toml", "--json"], {}),
    "stdin": (["-m", "kubb3d", "quiz", "--count", "1", "--no-images", "--seed", "3"], {}),
    "completion": (["-c", "from kubb3d.cli import main; main(prog_name='kubb3d')"],
                   {"_KUBB3D_COMPLETE": "complete_bash", "COMP_WORDS": "kubb3d exp", "COMP_CWORD": "1"}),
    "script-c": (["-c", "from kubb3d.cli import main; main()", "throw", "--speed", "-3"], {}),
    "where": (["-c", "import os, sys; print(sys.argv, repr(sys.path[0]), os.getcwd(), __name__, "
                     "os.environ.get('KUBB3D_PROBE'), sys.stdin.read())", "a", "b"], {"KUBB3D_PROBE": "x"}),
    "exit-message": (["-c", "import sys; print('out'); sys.exit('bye')"], {}),
    "traceback": (["-c", "def f():\n    raise ValueError('no')\nf()"], {}),
    "ctrl-c": (["-c", "raise KeyboardInterrupt"], {}),
}
"""Command lines (after ``sys.executable``) and the variables they add to the environment."""


def _folder(tmp_path: Path) -> Path:
    (tmp_path / "lying.toml").write_text(_LYING)
    (tmp_path / "wrong.toml").write_text(_LYING.replace('status = "fallen"', 'status = "standing"'))
    return tmp_path


@pytest.mark.parametrize("name", SAMPLES)
def test_a_child_of_the_server_prints_and_ends_as_a_fresh_interpreter(tmp_path, name):
    argv, extra = SAMPLES[name]
    env = {**os.environ, **extra}
    folder = _folder(tmp_path)
    stdin = "1\n" if name in ("stdin", "where") else None
    real = subprocess.run([sys.executable, *argv], capture_output=True, text=True, cwd=folder, env=env,
                          input=stdin, timeout=300)
    forked = run_python(argv, cwd=folder, env=env, input=stdin, timeout=300)
    assert _may_fork(argv, env, dict(os.environ))  # the sample took the server, not a subprocess
    assert (forked.args, forked.returncode, forked.stdout, forked.stderr) == (
        real.args, real.returncode, real.stdout, real.stderr)


def test_the_samples_cover_each_way_a_command_ends(tmp_path):
    codes = {}
    for name in ("json", "exit-1", "range-error", "ctrl-c", "exit-message"):
        argv, extra = SAMPLES[name]
        codes[name] = run_python(argv, cwd=_folder(tmp_path), env={**os.environ, **extra}, timeout=300).returncode
    assert codes == {"json": 0, "exit-1": 1, "range-error": 2, "ctrl-c": -2, "exit-message": 1}


def test_no_state_passes_from_one_call_to_the_next():
    """A call that registers every command (``--help``), sets a variable and imports a module
    leaves the next call the server's state: each call is a process of its own."""
    probe = ("import os, sys, kubb3d.cli as c; "
             "print(sorted(c._registered), os.environ.get('KUBB3D_LEAK'), 'tabnanny' in sys.modules)")
    first = run_python(["-c", "import os, tabnanny, kubb3d.cli as c; c._register_subapps(); "
                        "os.environ['KUBB3D_LEAK'] = '1'; print(len(c._registered))"], timeout=300)
    assert first.returncode == 0 and int(first.stdout) == 19, first.stderr  # the modules of _SUBAPP_MODULES
    second = run_python(["-c", probe], timeout=300)
    real = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert second.stdout == real.stdout == "[] None False\n", (second.stdout, real.stdout)


def test_a_call_past_its_timeout_is_killed_and_raises_as_subprocess_run_does(tmp_path):
    mark = tmp_path / "still-running"
    code = f"import time, pathlib; print('started', flush=True); time.sleep(3); pathlib.Path({str(mark)!r}).touch()"
    began = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired) as caught:
        run_python(["-c", code], timeout=1)
    assert time.monotonic() - began < 2.5
    assert caught.value.timeout == 1 and caught.value.output == "started\n"
    time.sleep(3)
    assert not mark.exists()  # killed: it never got past its sleep
    assert run_python(["-c", "print(6 * 7)"], timeout=60).stdout == "42\n"  # the server goes on


def test_what_is_read_at_start_takes_a_real_interpreter():
    env = dict(os.environ)
    assert _may_fork(["-m", "kubb3d", "throw"], {**env, "LANGUAGE": "de", "COLUMNS": "50"}, env)
    assert _may_fork(["-m", "kubb3d", "throw"], {**env, "KUBB3D_DATA_DIR": "x"}, env)
    for name in ("PYTHONHASHSEED", "PYTHONIOENCODING", "LANG", "OPENBLAS_NUM_THREADS", "TERMINAL_WIDTH"):
        assert not _may_fork(["-m", "kubb3d", "throw"], {**env, name: "1"}, env), name
    assert not _may_fork(["-m", "kubb3d", "throw"], {k: v for k, v in env.items() if k != "PATH"}, env)
    assert not _may_fork(["script.py", "throw"], env, env)
    seeds = {run_python(["-c", "print(hash('kubb'))"], env={**env, "PYTHONHASHSEED": s}, timeout=60).stdout
             for s in ("1", "2")}
    assert len(seeds) == 2  # each its own interpreter: the server's one hash seed would give one value


@pytest.mark.skipif(os.environ.get("KUBB3D_FRESH_CLI") == "1", reason="KUBB3D_FRESH_CLI=1: no call takes the server")
def test_the_calls_are_children_of_the_server_and_fresh_ones_are_not():
    import cli_process

    forked = run_python(["-c", "import os; print(os.getppid())"], timeout=60)
    assert int(forked.stdout) == cli_process._server[0].proc.pid != os.getpid()
    fresh = run_python(["-c", "import os; print(os.getppid())"], timeout=60, fresh=True)
    assert int(fresh.stdout) == os.getpid()


SCRIPT_SAMPLES = {
    "script-error": ["benchmarks/equivalence.py", "--throws", "0", "--matches", "0"],
    "script-help": ["benchmarks/mutation.py", "--help"],
    "script-where": ["tests/data/../../benchmarks/../tests/test_fork_server.py", "probe"],
}
"""Python files run as ``python FILE ARGS…`` (relative to the repository's root)."""


@pytest.mark.parametrize("name", SCRIPT_SAMPLES)
def test_a_file_runs_in_a_child_as_python_file_runs_it(name):
    argv = SCRIPT_SAMPLES[name]
    real = subprocess.run([sys.executable, *argv], capture_output=True, text=True, cwd=ROOT, timeout=300)
    forked = run_python(argv, cwd=ROOT, timeout=300)
    assert _may_fork(argv, dict(os.environ), dict(os.environ), ROOT)
    assert (forked.args, forked.returncode, forked.stdout, forked.stderr) == (
        real.args, real.returncode, real.stdout, real.stderr)
    assert real.returncode == {"script-error": 2, "script-help": 0, "script-where": 3}[name], real.stderr


if __name__ == "__main__" and sys.argv[1:] == ["probe"]:  # the "script-where" sample
    print(sys.argv, sys.path[0], __file__, sorted(k for k in globals() if k.startswith("__")))
    raise SystemExit(3)

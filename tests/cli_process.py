"""Run ``python -m kubb3d …`` (or ``python -c CODE …``, ``python FILE.py …``) for a test the way
``subprocess.run`` does, without paying Python's start-up and imports on every call.

:func:`run_python` takes what follows ``sys.executable`` on the command line and returns the
``subprocess.CompletedProcess`` that ``subprocess.run([sys.executable, *argv], capture_output=
True, text=True, …)`` returns: the same ``args``, exit code, stdout and stderr, and on timeout
the child is killed and ``subprocess.TimeoutExpired`` is raised. Instead of starting an
interpreter it asks a fork server (one per test process, started at its first call, ended with
it) that has imported the command line and its heavy dependencies once (numpy, PyBullet, Typer,
Rich, pydantic, the kubb3d modules a command loads); for each call the server forks a child,
which takes the call's argv, working folder, environment and stdin, writes fd 1 and 2 to files,
runs the command as the interpreter would (``runpy`` for ``-m``, ``exec`` in a new ``__main__``
for ``-c`` and a file, the file's folder first on ``sys.path``) and exits the way the
interpreter exits (exit code, traceback, signal). So every call is still a process of its own:
nothing one call changes reaches the next. ``kubb3d --help``
took 0.11 s where a fresh interpreter took 1.6 s (at a load of 7.6; the server's start, once
per test process, took 2 s).

A child ends as ``Py_FinalizeEx`` ends a process (threads joined, ``atexit`` functions, stdout
flushed or exit 120) but without the teardown of every module, which cost 0.3-0.5 s a call: an
object that only that teardown would free (a file left open in a module's global) is not
flushed, so a command that relies on it would differ here; none does in the sample of
tests/test_fork_server.py.

The rule for what keeps a real interpreter (``fresh=True``, or taken by itself):

* whatever is decided when an interpreter starts or imports: a test of which modules a command
  imports, of ``PYTHONHASHSEED`` (every child of one server has the server's hash seed), of
  start-up (the signal handlers the command takes while it imports, Ctrl-C and SIGTERM);
* an environment that differs from the server's in a variable outside :data:`RUN_TIME_VARIABLES`
  (``PYTHON*``, ``LANG``/``LC_*`` which set the stream encoding, the BLAS/OpenMP thread
  variables, ``DASK_*``, Typer's and Rich's ``TERMINAL_WIDTH``/``FORCE_COLOR`` …): a real
  subprocess is started by itself, as it is for a command line that is neither ``-m``, ``-c``
  nor a ``.py`` file;
* packaging tests, which run another interpreter (a venv's) anyway.

``KUBB3D_FRESH_CLI=1`` in the environment of the test run sends every call to a real
subprocess (to compare, or when the server is in doubt).
"""

from __future__ import annotations

import json
import locale
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

RUN_TIME_VARIABLES = frozenset({
    "LANGUAGE",  # kubb3d.i18n reads it at each command (docs/german.md)
    "COLUMNS", "LINES",  # Rich reads them when a Console is made, in the command
    "DISPLAY", "WAYLAND_DISPLAY",  # read when a window or a screenshot is asked for
    "_KUBB3D_COMPLETE", "COMP_WORDS", "COMP_CWORD",  # shell completion: Click reads them in main()
    "PYTEST_CURRENT_TEST",
    "PWD", "OLDPWD",
})
"""Environment variables read only while a command runs (never at import), so a call may set
them differently from the server's environment; so may any ``KUBB3D_*`` variable, which kubb3d
reads only while it runs (tests/test_fork_server.py checks a sample of both)."""

_PRELOAD = (
    "kubb3d.cli",
    "kubb3d.physics._pybullet",  # PyBullet without its banner, before anything imports it plainly
    "numpy",
    "pydantic",
    "rich.console",
    "rich.markdown",
    "rich.table",
    "rich.panel",
    "typer.rich_utils",
    "kubb3d.physics",
    "kubb3d.match",
    "kubb3d.judge",
    "kubb3d.audit",
    "kubb3d.quiz",
    "kubb3d.scenario",
    "kubb3d.throw",
    "kubb3d.snapshot",
)
"""What the server imports before it forks (with every command module of ``kubb3d.cli``): no
module that starts a thread, opens a display, connects PyBullet or reads the environment at
import beyond :data:`RUN_TIME_VARIABLES`' complement, which the server's own environment fixes."""


def _may_fork(argv: list[str], env: dict[str, str], server_env: dict[str, str], cwd=None) -> bool:
    """Whether the call ``sys.executable *argv`` in ``cwd`` with ``env`` may be a child of a
    server started with ``server_env`` (see the module's rule)."""
    if not argv or (len(argv) < 2 if argv[0] in ("-m", "-c") else not _is_script(argv[0], cwd)):
        return False
    for key in set(env) | set(server_env):
        if env.get(key) != server_env.get(key) and key not in RUN_TIME_VARIABLES and not key.startswith("KUBB3D_"):
            return False
    return True


def _is_script(word: str, cwd=None) -> bool:
    """Whether ``python WORD`` in ``cwd`` runs a Python file (not an option, a zip or a folder)."""
    return not word.startswith("-") and word.endswith(".py") and os.path.isfile(os.path.join(cwd or os.getcwd(), word))


class _Server:
    """One fork server process and the pipes to it; :meth:`call` is one request."""

    def __init__(self) -> None:
        self.env = dict(_BASE_ENV)
        self.log = tempfile.NamedTemporaryFile(prefix="kubb3d-fork-server-", suffix=".log", delete=False)
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, env=self.env,
            cwd=tempfile.gettempdir(), start_new_session=False,
        )
        ready = self._read(120)
        if ready.get("ready") is not True:
            raise RuntimeError(f"the fork server did not start: {ready} (log: {self.log.name})")

    def _read(self, timeout: float | None) -> dict:
        assert self.proc.stdout is not None
        if timeout is not None:
            r, _, _ = select.select([self.proc.stdout], [], [], max(timeout, 0))
            if not r:
                raise TimeoutError
        line = self.proc.stdout.readline()
        if not line:
            log = Path(self.log.name).read_text()[-2000:]
            raise RuntimeError(f"the fork server ended (log: {self.log.name}): {log}")
        return json.loads(line)

    def call(self, argv, cwd, env, stdin_path, out_path, err_path, timeout):
        assert self.proc.stdin is not None
        request = {"argv": argv, "cwd": cwd, "env": env, "stdin": stdin_path, "out": out_path, "err": err_path}
        self.proc.stdin.write((json.dumps(request) + "\n").encode())
        self.proc.stdin.flush()
        pid = self._read(60)["pid"]
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            status = self._read(None if deadline is None else deadline - time.monotonic())["status"]
            return pid, status, False
        except TimeoutError:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            status = self._read(60)["status"]
            return pid, status, True

    def close(self) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
        try:
            os.unlink(self.log.name)
        except OSError:
            pass


_BASE_ENV = {k: v for k, v in os.environ.items() if k != "KUBB3D_FRESH_CLI"}
"""The environment the server starts with: the test process's once collection has imported every
test module (:func:`take_base_environment`), not the one of the test that happens to make the
first call, which may have set a variable of its own for that call (monkeypatch)."""


def take_base_environment() -> None:
    """Take the test process's environment now as the server's (tests/conftest.py calls it when
    collection is finished): a library a test module imports may set a variable at import
    (Gymnasium sets ``PYGAME_HIDE_SUPPORT_PROMPT``), and a difference from the server's
    environment sends every call to a real interpreter. A server already started keeps its own."""
    if not _server:
        _BASE_ENV.clear()
        _BASE_ENV.update((k, v) for k, v in os.environ.items() if k != "KUBB3D_FRESH_CLI")

_server: list[_Server] = []
_lock = threading.Lock()


def _the_server() -> _Server:
    if not _server or _server[0].proc.poll() is not None:
        import atexit

        _server[:] = [_Server()]
        atexit.register(_server[0].close)
    return _server[0]


def run_python(argv, *, cwd=None, env=None, input=None, timeout=None, fresh=False, check=False):
    """``subprocess.run([sys.executable, *argv], capture_output=True, text=True, cwd=cwd,
    env=env, input=input, timeout=timeout)``, in a child of the fork server unless ``fresh`` or
    the module's rule says a real interpreter (the module's docstring)."""
    argv = [str(a) for a in argv]
    args = [sys.executable, *argv]
    run_env = dict(os.environ if env is None else env)
    if fresh or os.environ.get("KUBB3D_FRESH_CLI") == "1" or not _may_fork(argv, run_env, _BASE_ENV, cwd):
        return subprocess.run(args, capture_output=True, text=True, cwd=cwd, env=env, input=input,
                              timeout=timeout, check=check)
    with _lock:
        server = _the_server()
        with tempfile.TemporaryDirectory(prefix="kubb3d-call-") as tmp:
            out, err = os.path.join(tmp, "out"), os.path.join(tmp, "err")
            encoding = locale.getpreferredencoding(False)  # as subprocess.run(text=True) encodes and decodes
            stdin_path = None
            if input is not None:
                stdin_path = os.path.join(tmp, "in")
                Path(stdin_path).write_bytes(input.encode(encoding) if isinstance(input, str) else input)
            folder = os.path.abspath(os.fspath(cwd)) if cwd is not None else os.getcwd()
            _, status, timed_out = server.call(argv, folder, run_env, stdin_path, out, err, timeout)
            stdout = _text(Path(out).read_bytes(), encoding)
            stderr = _text(Path(err).read_bytes(), encoding)
    if timed_out:
        raise subprocess.TimeoutExpired(args, timeout, output=stdout, stderr=stderr)
    code = os.waitstatus_to_exitcode(status)
    done = subprocess.CompletedProcess(args, code, stdout, stderr)
    if check:
        done.check_returncode()
    return done


def run_kubb3d(*args, **kw) -> subprocess.CompletedProcess:
    """``python -m kubb3d ARGS…`` through :func:`run_python` (same keywords)."""
    return run_python(["-m", "kubb3d", *args], **kw)


def _text(data: bytes, encoding: str) -> str:
    """As ``subprocess.run(text=True)`` decodes a stream."""
    return data.decode(encoding).replace("\r\n", "\n").replace("\r", "\n")


# --- the server -------------------------------------------------------------------------------


def _serve() -> None:  # pragma: no cover - runs in the server process
    import importlib

    proto_in, proto_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.close(devnull)
    os.set_inheritable(proto_in, False)
    os.set_inheritable(proto_out, False)
    import kubb3d.cli as cli

    for name in (*_PRELOAD, *dict.fromkeys(cli._SUBAPP_MODULES.values())):
        importlib.import_module(name)
    if threading.active_count() != 1:
        raise RuntimeError(f"a preloaded module started a thread: {threading.enumerate()}")
    pybullet = sys.modules["pybullet"]
    if any(pybullet.isConnected(physicsClientId=i) for i in range(8)):
        raise RuntimeError("a preloaded module connected PyBullet: a child would share its physics server")
    import gc

    gc.collect()
    gc.freeze()  # the children's collections skip what the server holds (and leave its pages shared)
    reader = os.fdopen(proto_in, "rb", buffering=0)
    writer = os.fdopen(proto_out, "wb", buffering=0)

    def send(message: dict) -> None:
        writer.write((json.dumps(message) + "\n").encode())

    send({"ready": True})
    while True:
        line = reader.readline()
        if not line:
            os._exit(0)
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            reader.close()
            writer.close()
            break  # the child leaves the loop and runs the command below
        send({"pid": pid})
        _, status = os.waitpid(pid, 0)
        send({"status": status})

    _child(request, cli)


def _child(request: dict, cli) -> None:  # pragma: no cover - runs in a child of the server
    """Take the call's process state, run its command as the interpreter runs ``-m``/``-c`` and
    end as the interpreter ends (:func:`_exit`)."""
    import runpy
    import types

    stdin = os.open(request["stdin"] or os.devnull, os.O_RDONLY)
    os.dup2(stdin, 0)
    os.close(stdin)
    for fd, path in ((1, request["out"]), (2, request["err"])):
        f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(f, fd)
        os.close(f)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    import multiprocessing.process

    multiprocessing.process.ORIGINAL_DIR = request["cwd"]
    if "numpy" in sys.modules:
        sys.modules["numpy"].random.seed()  # numpy's global generator is not reseeded by a fork
    argv = request["argv"]
    main = types.ModuleType("__main__")
    main.__dict__.update(__builtins__=__builtins__, __annotations__={}, __package__=None, __spec__=None)
    sys.modules["__main__"] = main
    try:
        if argv[0] == "-m":
            sys.argv = ["-m", *argv[2:]]
            sys.path[0] = request["cwd"]
            if argv[1] == "kubb3d":  # what kubb3d.cli takes at import when it is the command
                for sig in (signal.SIGINT, signal.SIGTERM):
                    signal.signal(sig, cli._interrupted_while_starting)
            runpy._run_module_as_main(argv[1])  # type: ignore[attr-defined]
        elif argv[0] == "-c":
            import importlib.machinery

            sys.argv = ["-c", *argv[2:]]
            sys.path[0] = ""
            main.__dict__.update(__loader__=importlib.machinery.BuiltinImporter)
            exec(compile(argv[1], "<string>", "exec"), main.__dict__)
        else:  # a file: its folder first on the path, as python FILE has it
            import importlib.machinery

            path = os.path.join(os.getcwd(), argv[0])  # not normalised: the interpreter joins only
            sys.argv = list(argv)
            sys.path[0] = os.path.dirname(os.path.realpath(path))
            main.__dict__.update(__file__=path, __cached__=None,
                                 __loader__=importlib.machinery.SourceFileLoader("__main__", path))
            with open(path, "rb") as source:
                code = compile(source.read(), path, "exec")
            exec(code, main.__dict__)
    except SystemExit as stop:
        _exit(_exit_code(stop.code))
    except BaseException as error:
        tb = error.__traceback__.tb_next if error.__traceback__ is not None else None  # this frame
        try:
            sys.excepthook(type(error), error.with_traceback(tb), tb)
        except BaseException:
            pass
        _exit(1, interrupted=isinstance(error, KeyboardInterrupt))
    _exit(0)


def _exit_code(code) -> int:  # pragma: no cover - runs in a child of the server
    """The exit status the interpreter gives ``SystemExit(code)`` (printing a message code)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    try:
        print(code, file=sys.stderr)
    except BaseException:
        pass
    return 1


def _exit(code: int, interrupted: bool = False) -> None:  # pragma: no cover - runs in a child
    """End as ``Py_FinalizeEx`` ends a process: wait for the non-daemon threads, run the
    ``atexit`` functions, flush stdout (exit 120 when it cannot) and stderr, and leave by a
    SIGINT of its own after an unhandled KeyboardInterrupt. It skips the interpreter's teardown
    of every module, which costs a child of the server 0.3-0.5 s and changes nothing the command
    prints or writes: the files a command leaves open in a cycle are flushed here by the
    collector, which skips the server's own objects (frozen before the fork)."""
    import atexit
    import gc

    try:
        threading._shutdown()  # type: ignore[attr-defined]
    except BaseException:
        pass
    atexit._run_exitfuncs()
    gc.collect()
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BaseException:
        code = 120
    try:
        if sys.stderr is not None:
            sys.stderr.flush()
    except BaseException:
        pass
    if interrupted:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    os._exit(code & 0xFF)

if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        _serve()

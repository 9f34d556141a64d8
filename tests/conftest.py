import os
import sys
from pathlib import Path

import pytest
from cli_process import run_kubb3d, run_python, take_base_environment
from shared_runs import CALIBRATE_SMALL, SEED_ONE_MATCH

# The tests check English output and choose German themselves where they test it: a German
# locale on the developer's machine (LANG=de_DE.UTF-8) must not change what they see; LANGUAGE
# is read first (docs/german.md), and subprocesses inherit it.
os.environ["LANGUAGE"] = "en"

ROOT = Path(__file__).resolve().parents[1]


def pytest_collection_finish(session):
    """Every test module is imported: the fork server's environment is taken now (tests/cli_process.py)."""
    take_base_environment()


@pytest.fixture(autouse=True)
def _environment_kept():
    """Each test leaves ``os.environ`` as it found it. A Dask LocalCluster started in the test
    process sets OMP_NUM_THREADS, PYTHONHASHSEED and others in it (its nannies' settings); a later
    command would inherit them, and every later call of the worker would take a real interpreter
    (tests/cli_process.py). pytest's own PYTEST_CURRENT_TEST is left to pytest."""
    before = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}
    yield
    now = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}
    if now != before:
        for key in set(now) - set(before):
            del os.environ[key]
        os.environ.update(before)


@pytest.fixture
def root() -> Path:
    """The repository root."""
    return ROOT


@pytest.fixture
def cli():
    """Run ``kubb3d ARGS…`` in a process of its own: ``cli("throw", "--json")`` → CompletedProcess."""
    return run_cli


def run_cli(*args: str, timeout: float = 300, fresh: bool = False):
    """Run the ``kubb3d`` entry point (``main()``) in a process of its own, in the repository's
    root; returns CompletedProcess. The process is a child of the tests' fork server, or with
    ``fresh`` a new interpreter (the rule for which: tests/cli_process.py)."""
    return run_python(["-c", "from kubb3d.cli import main; main()", *args], timeout=timeout, cwd=ROOT, fresh=fresh)


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory) -> Path:
    """The project's wheel, built once per test session (``pip wheel --no-deps``)."""
    import subprocess

    dist = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(ROOT)],
        check=True, capture_output=True, timeout=300,
    )
    return next(dist.glob("kubb3d-*.whl"))


@pytest.fixture(scope="session")
def wheel_venv(built_wheel, tmp_path_factory) -> Path:
    """A fresh venv (no pip of its own) with the built wheel installed by pip; the other
    dependencies come from the test interpreter's site-packages through a ``.pth`` file
    written after the install, so nothing is downloaded. Returns the venv's folder."""
    import subprocess
    import sysconfig

    venv = tmp_path_factory.mktemp("wheel-venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(py),
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            str(built_wheel),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    site = Path(
        subprocess.run(
            [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "zz_test_dependencies.pth").write_text("\n".join(sorted(deps)) + "\n")
    return venv


def _sub_app(module: str):
    """A Typer app holding only the commands that ``module`` registers, for CliRunner."""
    import importlib

    import typer

    a = typer.Typer()

    @a.callback()
    def _main() -> None:
        pass

    importlib.import_module(module).register(a)
    return a


@pytest.fixture(scope="session")
def judge_app():
    """The judge commands (``judge``, ``quiz`` …) as a Typer app."""
    return _sub_app("kubb3d.cli.judge")


@pytest.fixture(scope="session")
def match_app():
    """The match commands as a Typer app."""
    return _sub_app("kubb3d.cli.match")


@pytest.fixture(scope="session")
def stats_app():
    """The ``stats`` command as a Typer app."""
    return _sub_app("kubb3d.cli.stats")


@pytest.fixture(scope="session")
def short_replays_folder(tmp_path_factory) -> Path:
    """One folder for the short seeded replays of ``i18n_surfaces.replay_file`` (it plays a match
    only when its file is not there yet), shared by the modules that read them; they only read."""
    return tmp_path_factory.mktemp("short-replays")


@pytest.fixture(scope="session")
def calibrate_small_run(tmp_path_factory):
    """:data:`CALIBRATE_SMALL` run once in an empty folder: (the folder, the files it made, the
    CompletedProcess). It took 60-70 s in each of two tests at a load of about 10."""

    def run(folder: Path):
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        return run_kubb3d(*CALIBRATE_SMALL.split(), cwd=folder, timeout=900, env=env)

    return once_per_session(tmp_path_factory, "calibrate-small", run)


@pytest.fixture(scope="session")
def seed_one_match(tmp_path_factory):
    """:data:`SEED_ONE_MATCH` run once in an empty folder: (the folder, the files it made, the
    CompletedProcess). Its replay is the folder's ``dm.jsonl``; the tests only read it."""
    return once_per_session(
        tmp_path_factory, "seed-one-match", lambda folder: run_kubb3d(*SEED_ONE_MATCH.split(), cwd=folder, timeout=300)
    )


def once_per_session(tmp_path_factory, name: str, run):
    """``run(folder)`` (a CompletedProcess) once per test session, in an empty folder, even when
    xdist's workers each ask for it: they share the session's temporary folder, and the first to
    take its lock runs the command and records what it printed; the others read the record.
    Returns (the folder, the files in it, the CompletedProcess); the tests only read them."""
    import fcntl
    import json
    import subprocess

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the session's folder, above each worker's own
    folder, record = base / f"once-{name}", base / f"once-{name}.json"
    with open(base / f"once-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not record.exists():
            folder.mkdir()
            done = run(folder)
            files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
            record.write_text(json.dumps([done.args, done.returncode, done.stdout, done.stderr, files]))
    args, code, out, err, files = json.loads(record.read_text())
    return folder, {Path(f) for f in files}, subprocess.CompletedProcess(args, code, out, err)


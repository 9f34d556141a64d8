"""The issue's "done means": from a fresh venv holding only the built wheel, outside the
checkout, the front-door commands work and find the shipped scenarios and experiment specs."""

import json
import subprocess
import zipfile

import pytest


def _run(venv, *args, cwd, stdin=None, timeout=300):
    return subprocess.run([str(venv / "bin" / args[0]), *args[1:]], capture_output=True, text=True,
                          input=stdin, cwd=cwd, timeout=timeout)


@pytest.fixture
def outside(tmp_path):
    """A working folder that is not the checkout."""
    return tmp_path


def test_wheel_ships_data_license_and_type_marker(built_wheel):
    names = set(zipfile.ZipFile(built_wheel).namelist())
    assert "kubb3d/py.typed" in names
    assert {"kubb3d/locale/de/LC_MESSAGES/kubb3d.mo", "kubb3d/locale/de/LC_MESSAGES/kubb3d.po"} <= names
    assert "kubb3d/__main__.py" in names
    assert "kubb3d/scenarios/dm_king_felled_early.toml" in names
    assert "kubb3d/scenarios/experiments/hit-8m.toml" in names
    assert (
        sum(1 for n in names if n.startswith("kubb3d/scenarios/") and n.count("/") == 2 and n.endswith(".toml")) >= 60
    )
    assert any(n.endswith(".dist-info/licenses/LICENSE") or n.endswith(".dist-info/LICENSE") for n in names)
    meta = next(zipfile.ZipFile(built_wheel).read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    assert any(line.lower().startswith("requires-dist: pillow") for line in meta.splitlines())


def test_version_and_python_dash_m(wheel_venv, outside):
    from kubb3d import __version__

    r = _run(wheel_venv, "kubb3d", "--version", cwd=outside)
    assert (r.returncode, r.stdout.strip()) == (0, f"kubb3d {__version__}")
    r = _run(wheel_venv, "python", "-m", "kubb3d", "--version", cwd=outside)
    assert (r.returncode, r.stdout.strip()) == (0, f"kubb3d {__version__}")


def test_quiz_and_judge_check_find_the_shipped_scenarios(wheel_venv, outside):
    r = _run(wheel_venv, "kubb3d", "quiz", "--count", "2", "--seed", "3", cwd=outside, stdin="1\n2\n1\n2\n")
    assert r.returncode == 0, r.stderr
    assert "Referee quiz: 2 scenarios" in r.stdout
    asked = r.stdout.count("your ruling>")
    assert asked >= 2 and f"of {asked}" in r.stdout.splitlines()[-1]
    de = _run(wheel_venv, "kubb3d", "quiz", "--count", "1", "--no-images", "--lang", "de", cwd=outside, stdin="2\n")
    assert de.returncode == 0 and "Was geschieht mit" in de.stdout, de.stdout + de.stderr  # the shipped .mo
    pngs = sorted((outside / "quiz-images").glob("*.png"))
    assert len(pngs) == 4 and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)
    r = _run(wheel_venv, "kubb3d", "judge", "--check", cwd=outside)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    assert f"ok   {wheel_venv}" in r.stdout  # the wheel's copy of the library, not the checkout's
    last = r.stdout.strip().splitlines()[-1]
    total = int(last.split(" of ")[1].split()[0])
    assert total >= 60 and last.startswith(f"{total} of {total} scenarios as expected")


def test_shipped_experiment_runs_by_short_name(wheel_venv, outside):
    r = _run(wheel_venv, "kubb3d", "experiment", "list", "--json", cwd=outside)
    assert r.returncode == 0, r.stderr
    names = [row["name"] for row in json.loads(r.stdout)]
    assert "hit-8m" in names and "leaning-survival" in names
    r = _run(
        wheel_venv,
        "kubb3d",
        "experiment",
        "run",
        "leaning-survival",
        "--max-trials",
        "3",
        "--backend",
        "serial",
        "-q",
        cwd=outside,
    )
    assert r.returncode == 0, r.stderr
    assert "3 trials run (0 failed)" in r.stdout
    assert (outside / "leaning-survival.sqlite").is_file()


def test_pettingzoo_match_env_passes_api_test_from_the_wheel(wheel_venv, outside):
    code = (
        "import warnings; from pettingzoo.test import api_test; from kubb3d.envs import match_env\n"
        "with warnings.catch_warnings():\n"
        "    warnings.simplefilter('ignore'); api_test(match_env.KubbMatchEnv(), num_cycles=3)\n"
        "print(match_env.__file__)"
    )
    r = _run(wheel_venv, "python", "-c", code, cwd=outside)
    assert r.returncode == 0, r.stderr
    assert "Passed API test" in r.stdout
    assert r.stdout.strip().splitlines()[-1].startswith(str(wheel_venv))  # the wheel's copy


def test_gymnasium_env_from_the_wheel(wheel_venv, outside):
    code = (
        "import warnings, gymnasium, kubb3d; env = gymnasium.make('kubb3d/Throw-v0'); "
        "from gymnasium.utils.env_checker import check_env\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always'); check_env(env.unwrapped)\n"
        "print([str(w.message) for w in caught]); print(type(env.unwrapped).__module__)"
    )
    r = _run(wheel_venv, "python", "-c", code, cwd=outside)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-2:] == ["[]", "kubb3d.envs"]

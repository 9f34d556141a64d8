"""Packaging: the models ship in a wheel, every subpackage is listed, pyglet is not imported,
and CI runs the README's test line."""

import importlib
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from kubb3d.assets import build_all, check_models


def test_every_subpackage_is_listed_in_pyproject(root):
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(root).parts) for p in (root / "kubb3d").rglob("__init__.py")}
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"


def test_wheel_contains_the_models_and_they_load_from_it(built_wheel, tmp_path):
    wheel = built_wheel
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in build_all():
        assert f"kubb3d/models/{name}" in names
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    probe = f"""
import sys
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
sys.path.insert(0, {str(site)!r})
import kubb3d, kubb3d.assets
assert kubb3d.__file__.startswith({str(site)!r}), kubb3d.__file__
from kubb3d.physics.world import World
with World.standard() as w:
    assert len(w.piece_ids("kubb")) == 10
print(kubb3d.assets.models_dir())
"""
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().startswith(str(site))


def test_model_files_equal_a_fresh_build():
    assert check_models() == []


def test_model_check_notices_a_changed_file(tmp_path):
    from kubb3d.assets import write_models

    write_models(tmp_path)
    assert check_models(tmp_path) == []
    urdf = tmp_path / "standard-kubb.urdf"
    urdf.write_text(urdf.read_text().replace("0.06996", "0.08", 1))
    obj = tmp_path / "dm-small-king.obj"
    obj.write_text(obj.read_text().replace("v ", "v 1", 1))
    crown = tmp_path / "standard-king-crown.obj"
    crown.write_text(crown.read_text().replace("v ", "v 0.5 0.5 0.5\nv ", 1))
    (tmp_path / "standard-baton.obj").unlink()
    problems = "\n".join(check_models(tmp_path))
    assert "standard-kubb.urdf: differs" in problems
    assert "dm-small-king.obj: not a readable OBJ file" in problems
    assert "standard-king-crown.obj: geometry differs" in problems
    assert "standard-baton.obj: missing" in problems


def test_import_kubb3d_does_not_import_pyglet():
    code = "import sys, kubb3d, kubb3d.throw, kubb3d.physics.world, kubb3d.cli; sys.exit('pyglet' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0


def test_ci_runs_the_readme_test_line(root):
    readme = (root / "README.md").read_text()
    ci_lines = [
        l.strip()
        for l in (root / ".ci" / "run").read_text().splitlines()
        if "pytest" in l and not l.strip().startswith("#")
    ]
    assert ci_lines, ".ci/run must run pytest"
    for line in ci_lines:
        assert line in readme, f".ci/run line not in README: {line}"
    # the README's whole set-up-and-test line, not a piece of it, is a line of .ci/run
    test_line = next(l.strip() for l in readme.splitlines() if "'.[test]'" in l and "pytest" in l)
    assert test_line in ci_lines, f"README's test line is not a line of .ci/run: {test_line}"


def test_test_module_names_are_unique(root):
    """pytest imports test files by basename (rootdir-relative, no packages): two files with the
    same name in different folders would stop the whole run at collection."""
    names = [p.name for p in (root / "tests").rglob("*.py") if p.name != "conftest.py"]
    assert sorted(set(n for n in names if names.count(n) > 1)) == []


def test_pybullet_is_imported_only_through_the_quiet_import(root):
    """Importing pybullet directly prints its build banner into --json output."""
    offenders = [
        str(p.relative_to(root))
        for p in (root / "kubb3d").rglob("*.py")
        if p.name != "_pybullet.py"
        and any(line.strip().startswith(("import pybullet", "from pybullet")) for line in p.read_text().splitlines())
    ]
    assert offenders == [], "use `from kubb3d.physics._pybullet import pb`"


def test_readme_python_example_runs(root):
    """The README's "A throw from Python" block, run as written."""
    readme = (root / "README.md").read_text()
    block = readme.split("```python\n", 1)[1].split("```", 1)[0]
    out = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, timeout=120, cwd=root)
    assert out.returncode == 0, out.stderr
    legal, piece, toppled = out.stdout.split(" ", 2)
    assert legal == "True" and piece == "B3" and "B3" in toppled


def test_files_written_by_readme_commands_are_ignored_and_untracked(root):
    """README commands write into the current folder, never over tracked files, and git
    ignores what they write."""
    import re
    import shutil

    readme = (root / "README.md").read_text()
    outs = re.findall(r"kubb3d [^\n`|]*?(?:--out|--screenshot|--replay|-o) ([\w.-]+\.\w+)(?:\s|$)", readme)
    outs += [f"{m}.parquet" for m in re.findall(r"export (\S+)\.sqlite --format parquet", readme)]
    assert len(outs) >= 6 and all("/" not in o for o in outs), outs
    if shutil.which("git") is None or not (root / ".git").exists():
        return
    r = subprocess.run(["git", "check-ignore", "--no-index", *outs], cwd=root, capture_output=True, text=True)
    assert sorted(set(r.stdout.split())) == sorted(set(outs))  # a file may be named twice


def test_pybullet_is_used_only_inside_physics():
    """PyBullet stays inside kubb3d/physics/ (the bench's bare comparison loop excepted): the
    judge, rules, throws and scenarios reach the engine through World's queries."""
    import re

    pkg = Path(__file__).resolve().parents[1] / "kubb3d"
    pattern = re.compile(
        r"^\s*(import pybullet|from pybullet|from kubb3d\.physics\._pybullet import|from kubb3d\.physics import "
        r"_pybullet)",
        re.M,
    )
    offenders = sorted(
        str(p.relative_to(pkg.parent))
        for p in pkg.rglob("*.py")
        if "physics" not in p.relative_to(pkg).parts[:1]
        and p.name != "bench.py"
        and pattern.search(p.read_text(encoding="utf-8"))
    )
    assert offenders == []


@pytest.mark.parametrize("package", ["kubb3d", "kubb3d.experiment"])
def test_lazy_names_are_the_same_for_people_and_type_checkers(package):
    """A package's lazy names (kubb3d's, kubb3d.experiment's), its ``__all__`` and the imports
    type checkers read (under TYPE_CHECKING) name the same objects."""
    import ast

    pkg = importlib.import_module(package)
    tree = ast.parse(Path(pkg.__file__).read_text(encoding="utf-8"))
    typed = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for imp in node.body:
                typed |= {a.asname or a.name: (imp.module, a.name) for a in imp.names}
    lazy = {n: (e if isinstance(e, tuple) else (e, n)) for n, e in pkg._LAZY.items()}
    assert typed == lazy
    assert pkg.__all__ == sorted(lazy)
    for name, (module, attr) in lazy.items():
        assert getattr(pkg, name) is getattr(importlib.import_module(module), attr), name


def test_the_repository_tracks_no_virtual_environment_or_outward_symlink(root):
    """A committed `.venv` symlink once made `.ci/run` fail on a fresh clone ("File exists"):
    nothing under `.venv` is tracked, and no tracked symlink points outside the repository."""
    if not (root / ".git").exists():
        return  # an unpacked sdist or wheel: nothing is tracked
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout
    paths = [p for p in tracked.decode().split("\0") if p]
    assert not [p for p in paths if p == ".venv" or p.startswith(".venv/")]
    outward = [p for p in paths if (root / p).is_symlink() and not (root / p).resolve().is_relative_to(root.resolve())]
    assert outward == []

"""Paths the documentation and the code point readers to exist: every repository path named in
README.md, docs/, the package (code and its READMEs), benchmarks/ and the shipped
scenarios and specs, and every constant named
as ``kubb3d/module.py NAME`` is defined in that module. Moves and renames leave such pointers
behind (a validation source still named ``kubb3d/physics/world.py SETTLE_S`` after the constant
moved to rest.py)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PATH = re.compile(r"(?<![\w/.])((?:kubb3d|tests|benchmarks|docs|scenarios)/[\w/.\-]*\w\.(?:py|md|toml|jsonl?|png))")
CONSTANT = re.compile(r"(?<![\w/.])(kubb3d/[\w/]+\.py)[ :]+`{0,2}([A-Z][A-Z0-9_]+)\b")
# (file, path): a path named on purpose that no longer exists, and why
HISTORY = {
    ("docs/mutation.md", "tests/test_procedure.py"): "the page tells how the file was renamed",
}


def _pointing_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "benchmarks").glob("*.py"))]
    files += sorted((ROOT / "kubb3d").rglob("*.py")) + sorted((ROOT / "kubb3d").rglob("*.md"))
    return files + sorted((ROOT / "scenarios").rglob("*.toml"))


def _defined_names(module: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(target.id for target in targets if isinstance(target, ast.Name))
    return names


def test_every_named_path_exists():
    missing = []
    for file in _pointing_files():
        name = file.relative_to(ROOT).as_posix()
        for match in PATH.finditer(file.read_text(encoding="utf-8")):
            path = match.group(1)
            if not (ROOT / path).exists() and (name, path) not in HISTORY:
                missing.append(f"{name} names {path}")
    assert not missing, missing


def test_every_named_constant_is_defined_where_it_is_said_to_be():
    wrong = []
    for file in _pointing_files():
        for match in CONSTANT.finditer(file.read_text(encoding="utf-8")):
            module, constant = match.groups()
            if not (ROOT / module).is_file() or constant not in _defined_names(ROOT / module):
                wrong.append(f"{file.relative_to(ROOT).as_posix()} names {module} {constant}")
    assert not wrong, wrong


def test_the_history_list_holds_no_stale_entry():
    for (name, path), _reason in HISTORY.items():
        assert path in (ROOT / name).read_text(encoding="utf-8"), (name, path)
        assert not (ROOT / path).exists(), path

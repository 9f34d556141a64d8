"""The physics package by concern (docs/architecture.md): each module imports at run time only
the concern modules listed before it, and World stays a thin façade."""

import ast
from pathlib import Path

import pytest

from kubb3d.physics.world import World

PHYSICS = Path(__file__).resolve().parents[1] / "kubb3d" / "physics"

# the order of docs/architecture.md; the leaves every module may use come first
BASE = ["_pybullet", "ground", "aero", "parameters"]
CONCERNS = ["poses", "terrain", "forces", "engine", "stepping", "flight", "rest", "contact_forces", "export"]
ORDER = BASE + CONCERNS + ["world"]


def _runtime_physics_imports(source: str) -> list[str]:
    """The kubb3d.physics modules a module imports when it runs (not under ``if TYPE_CHECKING``)."""
    tree = ast.parse(source)
    typing_only = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            typing_only |= {id(inner) for inner in ast.walk(node)}
    out = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("kubb3d.physics."):
            out.append(node.module.split(".")[2])
        elif isinstance(node, ast.ImportFrom) and node.module == "kubb3d.physics":
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            out += [a.name.split(".")[2] for a in node.names if a.name.startswith("kubb3d.physics.")]
    return out


def _misplaced(name: str, source: str) -> list[str]:
    rank = ORDER.index(name)
    return [f"{name} imports {mod}" for mod in _runtime_physics_imports(source) if ORDER.index(mod) >= rank]


def test_every_physics_module_is_in_the_documented_order():
    on_disk = {p.stem for p in PHYSICS.glob("*.py")} - {"__init__"}
    assert on_disk == set(ORDER)
    layout = (PHYSICS.parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    concerns = ORDER[len(BASE) : -1]  # the façade, world.py, is named before its concerns
    positions = [layout.index(f"* `{name}.py`") for name in concerns]
    assert positions == sorted(positions)


def test_each_physics_module_imports_only_the_ones_before_it():
    bad = []
    for name in ORDER:
        bad += _misplaced(name, (PHYSICS / f"{name}.py").read_text(encoding="utf-8"))
    assert not bad, bad


@pytest.mark.parametrize(
    "source, found",
    [
        ("from kubb3d.physics.rest import Rest\n", ["forces imports rest"]),
        ("def f():\n    import kubb3d.physics.world\n", ["forces imports world"]),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from kubb3d.physics.engine import Engine\n", []),
        ("from kubb3d.physics.poses import Pose\n", []),
    ],
)
def test_the_order_check_sees_what_a_module_imports_when_it_runs(source, found):
    assert _misplaced("forces", source) == found


def test_world_is_a_thin_facade():
    public = [name for name in dir(World) if not name.startswith("_")]
    with World() as world:
        public += [name for name in vars(world) if not name.startswith("_")]
    assert len(public) <= 40, sorted(public)
    # the concerns are reachable behind it
    assert {"engine", "forces", "stepper", "rest"} <= set(public)

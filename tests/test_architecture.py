"""The import layering of docs/architecture.md: physics → snapshot → judge → rules → outcome.

Every import is counted, also those inside functions: a lazy import is still a dependency."""

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "kubb3d"

# what each pure layer may import from kubb3d (prefixes of module names); third-party code
# other than numpy is not allowed in them at all. kubb3d.equipment is the table of piece sizes
# the judge reads (it reaches kubb3d.assets for masses from the meshes: issue #14 item 6).
# kubb3d.errors (the error classes, importing nothing) and kubb3d.linear (products of 3-vectors
# with numpy alone, the same bits on every machine) sit below every layer.
LAYERS = {
    "kubb3d.errors": (),
    "kubb3d.linear": (),
    "kubb3d.pitch": ("kubb3d.pitch", "kubb3d.errors"),
    "kubb3d.snapshot": ("kubb3d.snapshot", "kubb3d.pitch", "kubb3d.errors", "kubb3d.linear"),
    "kubb3d.judge": (
        "kubb3d.judge", "kubb3d.snapshot", "kubb3d.pitch", "kubb3d.equipment", "kubb3d.errors", "kubb3d.linear",
    ),
    "kubb3d.rules": (
        "kubb3d.rules", "kubb3d.judge", "kubb3d.snapshot", "kubb3d.pitch", "kubb3d.equipment", "kubb3d.errors",
        "kubb3d.linear",
    ),
}
PURE_THIRD_PARTY = ("numpy",)

# the physics sits below the judge and the rules: it may use the pure vector geometry of
# kubb3d.judge.geometry (convex hulls), nothing else of them
PHYSICS_MAY_NOT = ("kubb3d.rules", "kubb3d.throw", "kubb3d.match", "kubb3d.scenario", "kubb3d.viewer")
PHYSICS_JUDGE_ALLOWED = ("kubb3d.judge.geometry",)

# the 3D views: the only modules that import the windowing library
PYGLET_ALLOWED = ("kubb3d.viewer", "kubb3d.dames.view")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PKG.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import in the file, absolute names."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.lineno, node.module))
            # "from kubb3d import physics" imports the module kubb3d.physics
            out += [(node.lineno, f"{node.module}.{a.name}") for a in node.names if node.module == "kubb3d"]
    return out


def _under(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


MODULES = sorted((_module_name(p), p) for p in PKG.rglob("*.py"))


def test_modules_found():
    names = {m for m, _ in MODULES}
    assert {"kubb3d.judge.throws", "kubb3d.rules.core", "kubb3d.physics.world", "kubb3d.snapshot"} <= names


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_pure_layers_import_only_what_is_below_them(layer):
    allowed = LAYERS[layer]
    bad = []
    for name, path in MODULES:
        if not _under(name, (layer,)):
            continue
        for line, mod in _imports(path):
            if mod.split(".")[0] == "kubb3d":
                if not _under(mod, allowed) and mod != "kubb3d":
                    bad.append(f"{name}:{line} imports {mod}")
            elif mod.split(".")[0] in PURE_THIRD_PARTY:
                continue
            elif _is_third_party(mod):
                bad.append(f"{name}:{line} imports {mod}")
    assert not bad, bad


def _is_third_party(mod: str) -> bool:
    import sys

    top = mod.split(".")[0]
    return top not in sys.stdlib_module_names and top != "__future__"


def test_physics_does_not_know_the_judge_rules_or_game():
    bad = []
    for name, path in MODULES:
        if not _under(name, ("kubb3d.physics",)):
            continue
        for line, mod in _imports(path):
            judge = _under(mod, ("kubb3d.judge",)) and not _under(mod, PHYSICS_JUDGE_ALLOWED)
            if _under(mod, PHYSICS_MAY_NOT) or judge:
                bad.append(f"{name}:{line} imports {mod}")
    assert not bad, bad


def test_only_the_views_import_pyglet():
    bad = [
        f"{name}:{line}"
        for name, path in MODULES
        if not _under(name, PYGLET_ALLOWED)
        for line, mod in _imports(path)
        if _under(mod, ("pyglet",))
    ]
    assert not bad, bad



# the modules that draw (or hand a picture or a web page to a caller) and may import the viewer; the game
# below them (scenario, match, quiz, replay …) is drawn by it and never reaches up to it
VIEWER_USERS = ("kubb3d.viewer", "kubb3d.web", "kubb3d.cli", "kubb3d.dames.view", "kubb3d.display", "kubb3d.envs")


def test_the_game_does_not_import_the_viewer():
    """Lazy imports included: kubb3d.scenario once imported the viewer to draw the quiz's
    pictures while the viewer imported kubb3d.scenario (a cycle hidden in functions)."""
    bad = [
        f"{name}:{line} imports {mod}"
        for name, path in MODULES
        if not _under(name, VIEWER_USERS)
        for line, mod in _imports(path)
        if _under(mod, ("kubb3d.viewer",))
    ]
    assert not bad, bad

def test_the_layering_test_sees_lazy_imports(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("def f():\n    from kubb3d.physics.world import World\n    import pybullet\n")
    assert _imports(src) == [(2, "kubb3d.physics.world"), (3, "pybullet")]


def test_nothing_cites_a_file_outside_the_repository():
    """Facts and sources are in docs/ (docs/sources.md, docs/physics.md …): no file of the
    repository points at a design note or a machine path outside it."""
    root = PKG.parent
    outside = ("DESIGN" + ".md", "/" + "work/", "shared" + "/seeds")
    folders = ("kubb3d", "docs", "tests", "benchmarks", "scenarios")
    files = [root / "README.md", *(p for d in folders for p in (root / d).rglob("*"))]
    bad = [
        f"{p.relative_to(root)}: {word}"
        for p in files
        if p.is_file() and p.suffix in (".py", ".md", ".toml", ".txt", ".json", ".glsl")
        for word in outside
        if word in p.read_text(encoding="utf-8", errors="replace")
    ]
    assert not bad, bad


def _module_edges(prefixes: tuple[str, ...]) -> dict[str, set[str]]:
    """module → the modules it imports, among the modules under ``prefixes`` (package
    ``__init__`` files left out: importing a submodule runs them anyway). Imports inside
    functions count; those under ``if TYPE_CHECKING:`` do not (they never run: a type
    checker's names, such as a ruleset hook's ``state: MatchState``)."""
    names = {m for m, _ in MODULES}
    edges: dict[str, set[str]] = {}
    for name, path in MODULES:
        if not _under(name, prefixes) or path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        type_only = {
            id(inner) for node in ast.walk(tree) if _is_type_checking(node) for inner in ast.walk(node)
        }
        out = set()
        for node in ast.walk(tree):
            if id(node) in type_only:
                continue
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            hit = next((t for t in targets if t in names and _under(t, prefixes) and t != name), None)
            if hit and not (PKG / Path(*hit.split(".")[1:]) / "__init__.py").exists():
                out.add(hit)
        edges[name] = out
    return edges


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> list[str] | None:
        state[m] = 1
        for n in sorted(edges.get(m, ())):
            if state.get(n) == 1:
                return path + [m, n]
            if n not in state and (found := visit(n, path + [m])):
                return found
        state[m] = 2
        return None

    for m in sorted(edges):
        if m not in state and (found := visit(m, [])):
            return found
    return None


def test_no_import_cycles_in_the_pure_layers():
    """The judge, the rules engine and the snapshot import each other in one direction only
    (shared judge types in kubb3d.judge.analysis and kubb3d.judge.inkast; the table-top
    statics in kubb3d.judge.table), lazy imports included."""
    edges = _module_edges(("kubb3d.judge", "kubb3d.rules", "kubb3d.snapshot", "kubb3d.pitch"))
    assert "kubb3d.judge.table" in edges["kubb3d.judge.status"]
    assert _cycle(edges) is None, _cycle(edges)


def test_the_cycle_check_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_two_test_modules_share_a_file_name():
    """pytest imports test files by their base name (no __init__.py in tests/): two files of one
    name in different folders stop the whole collection ('import file mismatch')."""
    from collections import Counter
    from pathlib import Path

    names = Counter(p.name for p in (Path(__file__).resolve().parent).rglob("test_*.py"))
    assert [n for n, k in names.items() if k > 1] == []


def _is_type_checking(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _top_level_imports(tree: ast.Module):
    """The import statements that run when the module is imported: not those inside a function
    or an ``if TYPE_CHECKING:`` block (those inside ``try``/``if`` at module level count)."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) or _is_type_checking(node):
            continue
        else:
            stack.extend(ast.iter_child_nodes(node))


def module_graph(pkg: Path) -> dict[str, set[str]]:
    """module → the modules of the package that importing it imports first, read from its
    module-level imports (ast; function-level imports are left out: they run when called).

    ``import a.b.c`` and ``from a.b import c`` reach ``a.b.c`` and the packages above it;
    ``from a.b import name`` (not a module) reaches ``a.b``. A package above the importing
    module itself is left out: Python has started it before the module runs."""
    files = {}
    for path in pkg.rglob("*.py"):
        parts = path.relative_to(pkg.parent).with_suffix("").parts
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        ancestors = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1 + is_package)}
        reached: set[str] = set()
        for node in _top_level_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    base = ".".join(here[: len(here) - node.level + 1] + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names]
            for target in targets:
                parts = target.split(".")
                for i in range(1, len(parts) + 1):
                    module = ".".join(parts[:i])
                    if module in files and module != name and module not in ancestors:
                        reached.add(module)
        graph[name] = reached
    return graph


def test_no_import_cycle_in_the_package():
    """No module of kubb3d imports, at module level, a module that imports it back (directly or
    through others): each can be read, tested and moved on its own."""
    graph = module_graph(PKG)
    assert "kubb3d.viewer.app" in graph["kubb3d.viewer.still"]  # the graph sees module-level imports
    assert "kubb3d.rules.dm" in graph["kubb3d.rules"]
    assert _cycle(graph) is None, _cycle(graph)


def test_the_package_graph_finds_cycles_and_skips_lazy_imports(tmp_path):
    pkg = tmp_path / "p"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from p.sub import leaf\n")
    (pkg / "sub" / "leaf.py").write_text("from p.sub import other  # a submodule\nfrom p import top\n")
    (pkg / "sub" / "other.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import p.top\n")
    (pkg / "top.py").write_text("def f():\n    from p.sub.leaf import x\n")
    graph = module_graph(pkg)
    assert graph["p.sub.leaf"] == {"p.sub.other", "p.top"}
    assert graph["p.sub.other"] == set() and graph["p.top"] == set()
    assert _cycle(graph) is None
    (pkg / "top.py").write_text("try:\n    from .sub.leaf import x\nexcept ImportError:\n    pass\n")
    assert _cycle(module_graph(pkg)) == ["p.sub", "p.sub.leaf", "p.top", "p.sub"]


# modules still over the bound (issue #31), each with its reason; the list only shrinks (the last,
# the catalogue of validation rows, is now the package kubb3d/validate/, one module per group)
LONG_MODULES: dict[str, str] = {}


def test_no_module_grows_past_a_thousand_lines():
    sizes = {str(p.relative_to(PKG.parent)): len(p.read_text(encoding="utf-8").splitlines()) for _, p in MODULES}
    long = {name for name, n in sizes.items() if n > 1000}
    assert long <= set(LONG_MODULES), sorted(long - set(LONG_MODULES))
    assert sizes["kubb3d/rules/core.py"] <= 1000 and max(
        n for name, n in sizes.items() if name.startswith("kubb3d/match/")
    ) <= 1000

#!/usr/bin/env python3
"""Mutation score of the pure layers (kubb3d/judge, kubb3d/rules) against the fast tests.

Runs mutmut 3 (configured in pyproject.toml's ``[tool.mutmut]``) and prints, per module, the
mutants and how they ended: killed, survived, timeout, no tests (reached by no fast test),
equivalent (listed in benchmarks/mutation_equivalents.toml with the reason), and the score
``(killed + timeout) / (checked - equivalent)``. Writes the survivors, one mutant name a line,
to ``mutants/survivors.txt`` (``mutmut show NAME`` prints the diff). docs/mutation.md explains.

    benchmarks/mutation.py                                 # every module, every mutant
    benchmarks/mutation.py --module kubb3d/rules/kubbuteo.py
    benchmarks/mutation.py --module kubb3d/judge/raising.py --sample 0.2 --seed 0
    benchmarks/mutation.py --report                        # read the results only, run nothing

Mutants already checked are not run again (``--rerun survivors`` runs the survivors again after
new tests; ``--rerun all`` every mutant).
Fast tests that fail before any mutation are deselected and named; mutmut needs a green run.
Exit codes: 0 done, 2 refused (bad argument), 1 mutmut failed.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "mutants"
EQUIVALENTS = ROOT / "benchmarks" / "mutation_equivalents.toml"
LINE_TESTS = MUTANTS / "line-tests.json"
# the same Hypothesis examples in every run, so that a test reaches the same lines with and without a mutant
HYPOTHESIS_SEED = "--hypothesis-seed=0"
WALL_STRETCH = 10.0  # the wall-clock limit of a mutant's tests, in units of mutmut's (see _driver)
PACKAGES = ("kubb3d/judge", "kubb3d/rules")
# the statuses mutmut writes into its .meta files, by exit code (mutmut.stats.status_by_exit_code)
STATUS_BY_EXIT_CODE = {
    1: "killed", 3: "killed", 37: "killed",
    0: "survived",
    5: "no tests", 33: "no tests",
    36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout",
    None: "not checked",
}
SAVE_EVERY_S = 120.0  # how often a run with --save writes what it has checked so far
COLUMNS = ("mutants", "killed", "survived", "timeout", "no tests", "equivalent", "other", "not checked")


def refuse(message: str) -> None:
    print(f"mutation.py: {message}", file=sys.stderr)
    raise SystemExit(2)


def module_of(path: str) -> str:
    """``kubb3d/rules/core.py`` -> ``kubb3d.rules.core`` (the prefix of its mutant names)."""
    return path.removesuffix(".py").replace("/", ".")


def source_modules() -> list[str]:
    """Every mutated source file, as paths like ``kubb3d/judge/raising.py``."""
    return sorted(str(p.relative_to(ROOT)) for pkg in PACKAGES for p in (ROOT / pkg).glob("*.py"))


def load_equivalent_entries(path: Path = EQUIVALENTS) -> list[dict[str, str]]:
    """The ``[[equivalent]]`` tables of *path*: ``mutant``, ``original``, ``mutated``, ``reason``.

    Raises:
        ValueError: an entry without one of those strings, or a mutant listed twice.
    """
    if not path.exists():
        return []
    entries = tomllib.loads(path.read_text(encoding="utf-8")).get("equivalent", [])
    seen: set[str] = set()
    for number, entry in enumerate(entries, 1):
        for key in ("mutant", "original", "mutated", "reason"):
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                raise ValueError(f"{path.name}: equivalent #{number}: expected a non-empty string '{key}'")
        if entry["mutant"] in seen:
            raise ValueError(f"{path.name}: equivalent #{number}: {entry['mutant']} is listed twice")
        seen.add(entry["mutant"])
    return entries


def load_equivalents(path: Path = EQUIVALENTS) -> dict[str, str]:
    """Mutant name -> reason (:func:`load_equivalent_entries`)."""
    return {entry["mutant"]: entry["reason"] for entry in load_equivalent_entries(path)}


def stale_equivalents(entries: list[dict[str, str]], mutants_dir: Path) -> list[str]:
    """The listed mutants whose code in *mutants_dir* no longer makes the listed change.

    mutmut numbers a function's mutants anew when the function changes, so after a change an entry
    can name another mutant of the same line; such an entry must be looked at again, and is not
    counted as equivalent. Entries whose module or mutant is not generated yet are not judged."""
    stale = []
    for entry in entries:
        module, _, function = entry["mutant"].rpartition(".")
        path = mutants_dir / (module.replace(".", "/") + ".py")
        if not path.exists():
            continue
        source = path.read_text(encoding="utf-8")
        start = source.find(f"def {function}(")
        if start < 0:
            continue
        end = min((i for i in (source.find("\ndef ", start + 1), source.find("\n    def ", start + 1)) if i >= 0),
                  default=len(source))
        body = {line.strip() for line in source[start:end].splitlines()}
        if entry["mutated"].strip() not in body:
            stale.append(entry["mutant"])
    return stale


def equivalents_table(entries: list[dict[str, str]]) -> str:
    """The equivalent mutants as the Markdown table of docs/mutation.md."""
    lines = ["| mutant | change | why it is equivalent |", "|---|---|---|"]
    for entry in entries:
        change = f"`{entry['original']}` → `{entry['mutated']}`".replace("|", "\\|")
        lines.append(f"| `{entry['mutant']}` | {change} | {entry['reason']} |")
    return "\n".join(lines)


def read_results(mutants_dir: Path, modules: list[str]) -> dict[str, dict[str, int | None]]:
    """Mutant name -> mutmut exit code (None: not checked), per module path, from the .meta files."""
    results: dict[str, dict[str, int | None]] = {}
    for module in modules:
        meta = mutants_dir / (module + ".meta")
        if meta.exists():
            results[module] = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        else:
            results[module] = {}
    return results


def tally(codes: dict[str, int | None], equivalents: dict[str, str], selected: set[str] | None) -> Counter[str]:
    """Count the statuses of the mutants of one module (only *selected* ones, when given)."""
    counts: Counter[str] = Counter()
    for name, code in codes.items():
        if selected is not None and name not in selected:
            continue
        counts["mutants"] += 1
        status = STATUS_BY_EXIT_CODE.get(code, "other")
        if status in ("survived", "no tests") and name in equivalents:
            status = "equivalent"
        counts[status] += 1
    return counts


def score(counts: Counter[str]) -> float | None:
    """(killed + timeout) / (checked - equivalent), in percent; None when nothing was checked."""
    checked = counts["killed"] + counts["timeout"] + counts["survived"] + counts["no tests"] + counts["other"]
    return None if checked == 0 else 100.0 * (counts["killed"] + counts["timeout"]) / checked


MUTATION_Z = 1.96
"""The normal quantile of :func:`interval` (docs/mutation.md's recorded tables use it)."""


def interval(counts: Counter[str]) -> tuple[float, float] | None:
    """The 95 % Wilson score interval of :func:`score` (:func:`kubb3d.experiment.stats.wilson`), in
    percent (the checked mutants of a sample as a binomial draw of the module's); None when nothing
    was checked."""
    from kubb3d.experiment.stats import wilson

    checked = counts["killed"] + counts["timeout"] + counts["survived"] + counts["no tests"] + counts["other"]
    if checked == 0:
        return None
    # z = 1.96, the rounded quantile the runs recorded in docs/mutation.md were scored with (Z95,
    # 1.95996…, moves one of their bounds by 0.1 point)
    low, high = wilson(counts["killed"] + counts["timeout"], checked, z=MUTATION_Z)
    return 100.0 * low, 100.0 * high


def report_table(rows: dict[str, Counter[str]], markdown: bool) -> str:
    lines = []
    header = ("module",) + COLUMNS + ("score", "95 % interval")
    if markdown:
        lines.append("| " + " | ".join(header) + " |")
        lines.append("|" + "---|" * len(header))
    else:
        lines.append(f"{'module':28}" + "".join(f"{c:>12}" for c in header[1:-1]) + f"{header[-1]:>16}")
    for module, counts in rows.items():
        value = score(counts)
        bounds = interval(counts)
        cells = [str(counts[c]) for c in COLUMNS] + ["–" if value is None else f"{value:.1f} %"]
        cells.append("–" if bounds is None else f"{bounds[0]:.1f}–{bounds[1]:.1f} %")
        if markdown:
            lines.append(f"| {module} | " + " | ".join(cells) + " |")
        else:
            lines.append(f"{module:28}" + "".join(f"{c:>12}" for c in cells[:-1]) + f"{cells[-1]:>16}")
    return "\n".join(lines)


def generate_mutants() -> None:
    """Write mutants/ (mutmut's copy of the source with every mutant), as `mutmut run` would first."""
    os.chdir(ROOT)
    try:  # mutmut 3.8's own steps; `mutmut run` does the same before it runs anything
        from mutmut.__main__ import copy_also_copy_files, copy_src_dir, create_mutants
    except ImportError as error:
        print(f"mutation.py: this mutmut has no generation step to call ({error}); install mutmut>=3.8,<4",
              file=sys.stderr)
        raise SystemExit(1) from error
    MUTANTS.mkdir(exist_ok=True)
    copy_src_dir()
    copy_also_copy_files()
    create_mutants(1)


def failing_fast_tests() -> list[str]:
    """Node ids of the fast tests that fail on the unmutated code (mutmut refuses to start then)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    report = MUTANTS / "clean-run.json"
    result = subprocess.run(
        ["nice", "-n", "10", sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider",
         *config["pytest_add_cli_args_test_selection"]],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    failed = [line.split()[1] for line in result.stdout.splitlines() if line.startswith(("FAILED ", "ERROR "))]
    report.write_text(json.dumps({"returncode": result.returncode, "failed": failed}), encoding="utf-8")
    return failed


def slow_tests(seconds: float) -> list[str]:
    """Node ids of the tests that took longer than *seconds* in mutmut's recorded run.

    mutmut's next statistics leave out the tests a run deselected, so each test once found slow
    is kept with its time in ``mutants/slow-tests.json`` and stays deselected (a newer time of
    the same test replaces it)."""
    stats, kept_file = MUTANTS / "mutmut-stats.json", MUTANTS / "slow-tests.json"
    kept: dict[str, float] = json.loads(kept_file.read_text(encoding="utf-8")) if kept_file.exists() else {}
    durations = json.loads(stats.read_text(encoding="utf-8"))["duration_by_test"] if stats.exists() else {}
    slow = {node: duration for node, duration in {**kept, **durations}.items() if duration > seconds}
    if kept_file.parent.exists():
        kept_file.write_text(json.dumps(slow, indent=1, sort_keys=True), encoding="utf-8")
    return sorted(slow)


def gl_tests(niceness: int = 10) -> list[str]:
    """Node ids of the fast tests marked ``gl`` (they draw with OpenGL). Mesa's software renderer
    waits for ever on a condition variable inside a worker that mutmut forks (its threads are not
    in the fork), so such a test would hang every mutant that reaches it alive. The collection
    runs at ``niceness`` (``nice -n``; 0: as the caller, which the test suite uses: at 10 on a
    loaded machine its 6 s of CPU took 190 s)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    result = subprocess.run(
        ["nice", "-n", str(niceness), sys.executable, "-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider",
         "-m", "gl", *config["pytest_add_cli_args_test_selection"]],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    return sorted(line.strip() for line in result.stdout.splitlines() if "::" in line)


def _children(pid: int) -> list[int]:
    """Child process ids of *pid* (Linux /proc; [] elsewhere)."""
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except (OSError, ValueError):
        return []


def _waits_on_a_lock(pid: int) -> bool:
    """The process sleeps on a futex (Linux /proc wchan): a forked worker that deadlocked."""
    try:
        return Path(f"/proc/{pid}/wchan").read_text().strip() == "futex_do_wait"
    except OSError:
        return False


def _collect_line_tests_here(out: str, selection: list[str]) -> None:
    """Run the fast tests once in this process (cwd: mutants/) under coverage.py; write *out*.

    Each test's lines are recorded under its node id; lines run while a test's fixtures are set up
    or torn down under ``setup NODEID`` (a module-scoped fixture runs for the first test of its file
    only, so :func:`_driver` gives such lines to every test of that file)."""
    import coverage
    import pytest

    sys.path.insert(0, os.getcwd())
    cov = coverage.Coverage(data_file=None, source=[str(Path(pkg).resolve()) for pkg in PACKAGES])

    class Contexts:
        @pytest.hookimpl(wrapper=True)
        def pytest_runtest_setup(self, item: pytest.Item) -> object:
            cov.switch_context("setup " + item.nodeid)
            return (yield)

        @pytest.hookimpl(wrapper=True)
        def pytest_runtest_call(self, item: pytest.Item) -> object:
            cov.switch_context(item.nodeid)
            return (yield)

        @pytest.hookimpl(wrapper=True)
        def pytest_runtest_teardown(self, item: pytest.Item) -> object:
            cov.switch_context("setup " + item.nodeid)
            return (yield)

    cov.start()
    code = pytest.main(["--rootdir=.", "-q", "-p", "no:cacheprovider", HYPOTHESIS_SEED, *selection],
                       plugins=[Contexts()])
    cov.stop()
    data = cov.get_data()
    lines: dict[str, dict[str, list[str]]] = {}
    for measured in data.measured_files():
        relative = str(Path(measured).resolve().relative_to(Path.cwd().resolve()))
        by_line = data.contexts_by_lineno(measured)
        lines[relative] = {str(n): sorted(c for c in contexts if c) for n, contexts in by_line.items()}
    Path(out).write_text(json.dumps({"pytest_exit_code": int(code), "lines": lines}), encoding="utf-8")


def _fast_test_files(copy: Path | None = None) -> dict[str, str]:
    """Every Python file of the fast tests (``tests/judge/test_analysis_branches.py``) -> a hash of its text
    in the work tree, or in *copy* (``mutants/``; "" for a file missing there)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    files = [p.relative_to(ROOT) for sel in config["pytest_add_cli_args_test_selection"] for p in
             ([ROOT / sel] if (ROOT / sel).is_file() else sorted((ROOT / sel).rglob("*.py")))]
    base = ROOT if copy is None else copy
    return {str(p): hashlib.sha256((base / p).read_bytes()).hexdigest() if (base / p).exists() else ""
            for p in files}


def mutated_sources_hash() -> str:
    """A hash of the mutated sources alone: mutmut's names and numbers of the mutants follow from them,
    so a saved run's results (``--resume``) hold only for the same hash."""
    digest = hashlib.sha256()
    for path in source_modules():
        digest.update(path.encode() + b"\0" + (ROOT / path).read_bytes())
    return digest.hexdigest()


def restore_results(mutants_dir: Path, saved: dict[str, int], modules: list[str]) -> int:
    """Write the exit codes of a saved run (mutant name -> code) into mutmut's .meta files of
    *modules*, for the mutants with no result yet; return how many were restored."""
    restored = 0
    for module in modules:
        meta = mutants_dir / (module + ".meta")
        if not meta.exists():
            continue
        data = json.loads(meta.read_text(encoding="utf-8"))
        codes = data["exit_code_by_key"]
        for name in codes:
            if codes[name] is None and name in saved:
                codes[name] = saved[name]
                restored += 1
        meta.write_text(json.dumps(data, indent=4), encoding="utf-8")
    return restored


def _sources_fingerprint() -> str:
    """A hash of the mutated sources and of the fast tests' helpers (every file not named test_*.py)."""
    digest = hashlib.sha256()
    for path in source_modules():
        digest.update(path.encode() + b"\0" + (ROOT / path).read_bytes())
    for path, file_hash in sorted(_fast_test_files().items()):
        if not Path(path).name.startswith("test_"):
            digest.update(path.encode() + b"\0" + file_hash.encode())
    return digest.hexdigest()


def sync_test_files() -> list[str]:
    """Copy into mutants/ each fast test file whose text there differs from the work tree's; the
    copied paths. mutmut refreshes its copy of the tests only when ``mutmut run`` starts, after the
    coverage run: tests written meanwhile were run by mutmut but in no mutant's plan (round 7)."""
    copied = []
    for path, file_hash in _fast_test_files().items():
        target = MUTANTS / path
        if not target.exists() or hashlib.sha256(target.read_bytes()).hexdigest() != file_hash:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / path, target)
            copied.append(path)
    return sorted(copied)


def _context_file(context: str) -> str:
    """The test file of a coverage context (``setup tests/judge/test_analysis_branches.py::test_x`` -> the file)."""
    return context.removeprefix("setup ").split("::")[0]


def collect_line_tests(deselect: list[str]) -> dict[str, dict[str, list[str]]]:
    """File (``kubb3d/judge/status.py`` in mutants/) -> line -> the tests that ran it.

    Runs the fast tests under coverage.py, niced, in a child process, and keeps the result in
    ``mutants/line-tests.json``: when only test files (``test_*.py``) changed or were added since,
    only those are run again; when a source or a helper changed, all of them.

    The table keeps the hash of each test file as measured, in mutants/: `mutmut run` copies the
    work tree's tests there again after the measurement, so a file changed meanwhile is measured
    again next time. A table without these hashes (``"measured": "mutants"``) is measured again in
    full: round 7's recorded the work tree's hashes for an older copy, and run 3 trusted it."""
    sources = _sources_fingerprint()
    sync_test_files()
    files = {path: file_hash for path, file_hash in _fast_test_files(MUTANTS).items()
             if Path(path).name.startswith("test_")}
    lines: dict[str, dict[str, list[str]]] = {}
    run = sorted(files)
    if LINE_TESTS.exists():
        kept = json.loads(LINE_TESTS.read_text(encoding="utf-8"))
        if kept.get("sources") == sources and kept.get("measured") == "mutants":
            old = kept.get("test_files", {})
            run = sorted(path for path, file_hash in files.items() if old.get(path) != file_hash)
            dropped = set(run) | (set(old) - set(files))
            lines = {source: {line: [c for c in contexts if _context_file(c) not in dropped]
                              for line, contexts in by_line.items()}
                     for source, by_line in kept["lines"].items()}
            if not run and not dropped:
                return lines
    if run:
        selection = [*run, *(f"--deselect={node}" for node in deselect)]
        print(f"mutation.py: measuring which fast test runs which line (coverage.py, {len(run)} test files, "
              f"{len(deselect)} tests deselected)", file=sys.stderr)
        measured_file = MUTANTS / "line-tests-new.json"
        code = (f"import runpy; runpy.run_path({str(Path(__file__).resolve())!r})['_collect_line_tests_here']"
                f"({str(measured_file)!r}, {selection!r})")
        subprocess.run(["nice", "-n", "10", sys.executable, "-c", code], cwd=MUTANTS, check=False,
                       stdout=subprocess.DEVNULL)
        measured = json.loads(measured_file.read_text(encoding="utf-8"))
        if measured["pytest_exit_code"] != 0:
            # a test file of the work tree that mutmut has not copied into mutants/ yet (exit code
            # 4), or a test failing there: without the lines every mutant would count as reached by
            # no test, so nothing is planned or run
            refuse(f"the fast tests under coverage.py in {MUTANTS.name}/ ended with exit code "
                   f"{measured['pytest_exit_code']}; no mutant was run (a test file added after mutmut "
                   "copied the tests? run again)")
        for source, by_line in measured["lines"].items():
            into = lines.setdefault(source, {})
            for line, contexts in by_line.items():
                into[line] = sorted({*into.get(line, []), *contexts})
    LINE_TESTS.write_text(json.dumps({"sources": sources, "measured": "mutants", "test_files": files, "lines": lines}),
                          encoding="utf-8")
    return lines


def _header_lines(function_source: str, line: int) -> range | None:
    """The lines of the innermost statement of *function_source* holding *line* (1-based, in the
    function); for a compound statement only its header (``if …:``), not its body. None: the
    signature or decorators (the mutant changes the function as a whole)."""
    tree = ast.parse(textwrap.dedent(function_source))
    function = tree.body[0]
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or line < function.body[0].lineno:
        return None
    best: range | None = None
    for node in ast.walk(function):
        if not isinstance(node, ast.stmt) or node is function:
            continue
        end = node.end_lineno or node.lineno
        bodies = [getattr(node, field) for field in ("body", "orelse", "finalbody", "handlers", "cases")
                  if getattr(node, field, None)]
        if bodies:
            end = min(block[0].lineno for block in bodies) - 1
            if isinstance(node, ast.If) and node.orelse:  # `else:` / `elif` lines belong to the header too
                end = max(end, node.lineno)
        span = range(node.lineno, max(end, node.lineno) + 1)
        if line in span and (best is None or len(span) <= len(best)):
            best = span
    return best


def mutated_lines(source: list[str], spans: dict[str, list[int]], function: str) -> list[int] | None:
    """The lines of ``…__mutmut_orig`` in mutants/ whose statement the mutant *function* changes.

    *source* is the file's lines, *spans* mutmut's ``.spans`` (first and last line of each
    function). None when the mutant cannot be placed on a line (its signature changed, or its
    length): then every test that calls the function is run, as mutmut does."""
    original = function.rsplit("__mutmut_", 1)[0] + "__mutmut_orig"
    if function not in spans or original not in spans:
        return None
    m0, m1 = spans[function]
    o0, o1 = spans[original]
    mutant_lines = [line.replace(function, original) for line in source[m0 - 1:m1]]
    original_lines = source[o0 - 1:o1]
    if len(mutant_lines) != len(original_lines):
        return None
    changed = [i + 1 for i, (a, b) in enumerate(zip(mutant_lines, original_lines, strict=True)) if a != b]
    if not changed:
        return None
    text = "\n".join(original_lines)
    lines: set[int] = set()
    for line in changed:
        header = _header_lines(text, line)
        if header is None:
            return None
        lines |= {o0 - 1 + n for n in header}
    return sorted(lines)


def plan_line_tests(names: list[str], line_tests: dict[str, dict[str, list[str]]]) -> dict[str, list[str] | None]:
    """Mutant name -> the coverage contexts (test node ids, ``setup NODEID``) that run its line;
    None: run every test that calls its function."""
    plan: dict[str, list[str] | None] = {}
    by_module: dict[str, list[str]] = {}
    for name in names:
        by_module.setdefault(name.rsplit(".", 1)[0], []).append(name)
    for module, members in by_module.items():
        path = module.replace(".", "/") + ".py"
        spans = json.loads((MUTANTS / (path + ".spans")).read_text(encoding="utf-8"))["spans"]
        source = (MUTANTS / path).read_text(encoding="utf-8").splitlines()
        covered = line_tests.get(path, {})
        for name in members:
            lines = mutated_lines(source, spans, name.rsplit(".", 1)[1])
            plan[name] = None if lines is None else sorted({t for n in lines for t in covered.get(str(n), [])})
    return plan


def _driver(plan_file: str, argv: list[str]) -> None:
    """`mutmut run` (in this process) with each mutant of *plan_file* tested only by the tests that
    run its line: mutmut's per-function test table gets one entry per mutant, the function's tests
    that the plan names (``setup NODEID``: every test of that file that calls the function)."""
    import mutmut.__main__ as mutmut_main
    import mutmut.workers.isolation as isolation
    from mutmut.state import state

    # mutmut ends a worker after 15 times its tests' recorded time, counted both in CPU seconds
    # (setrlimit) and in wall seconds; on a shared machine under load the wall count ends workers
    # that only waited for a core (an equivalent mutant "timed out" at load 10), so the wall limit
    # is stretched WALL_STRETCH times and the CPU limit alone catches a mutant that loops
    wall_limit = isolation.register_timeout

    def stretched(pid: int, timeout_s: float) -> None:
        wall_limit(pid, timeout_s * WALL_STRETCH)

    isolation.register_timeout = stretched

    plan: dict[str, list[str] | None] = json.loads(Path(plan_file).read_text(encoding="utf-8"))
    planned = {name for name, contexts in plan.items() if contexts is not None}
    by_function = mutmut_main.mangled_name_from_mutant_name
    collect = mutmut_main.collect_or_load_stats

    def collect_and_plan(*args: Any, **kwargs: Any) -> Any:
        result = collect(*args, **kwargs)
        table = state().tests_by_mangled_function_name
        for name in planned:
            function_tests = set(table.get(by_function(name), set()))
            chosen: set[str] = set()
            for context in plan[name] or []:
                if context.startswith("setup "):
                    test_file = context.removeprefix("setup ").split("::")[0]
                    chosen |= {test for test in function_tests if test.split("::")[0] == test_file}
                elif context in function_tests:
                    chosen.add(context)
            table[name] = chosen
        return result

    mutmut_main.collect_or_load_stats = collect_and_plan
    def function_or_mutant(mutant_name: str) -> str:
        return mutant_name if mutant_name in planned else by_function(mutant_name)

    mutmut_main.mangled_name_from_mutant_name = function_or_mutant
    sys.argv = ["mutmut", *argv]
    mutmut_main.cli()


def interruptible() -> None:
    """In mutmut's process before it starts: Ctrl-C's signal back to its default. A command started
    in the background of a shell without job control ignores SIGINT, and so does every process it
    starts; Python then installs no KeyboardInterrupt, and mutmut went on past ``--time-limit``
    (round 9, docs/mutation.md) until the script killed it a minute later, its worker left running."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_mutmut(names: list[str], max_children: int, deselect: list[str], time_limit: float | None,
               hang_s: float = 60.0, plan: dict[str, list[str] | None] | None = None,
               progress: Callable[[], None] | None = None, progress_s: float = SAVE_EVERY_S) -> int:
    """`mutmut run` on *names*, niced; stopped with Ctrl-C's signal after *time_limit* seconds.

    A worker that sleeps on a lock for *hang_s* is ended (mutmut's timeout counts CPU time, so a
    deadlocked fork would wait for ever); mutmut records it as killed by a signal ("other").
    *progress* is called every *progress_s* seconds while mutmut runs (``--save`` writes the partial
    run then: mutmut records each mutant's result in mutants/ as soon as it has it)."""
    env = dict(os.environ)
    env["PYTEST_ADDOPTS"] = " ".join([HYPOTHESIS_SEED, *(f"--deselect {node}" for node in deselect)])
    arguments = ["run", "--max-children", str(max_children), *names]
    if plan is None:
        command = ["nice", "-n", "10", str(Path(sys.executable).with_name("mutmut")), *arguments]
    else:
        plan_file = MUTANTS / "line-plan.json"
        plan_file.write_text(json.dumps(plan), encoding="utf-8")
        code = (f"import runpy; runpy.run_path({str(Path(__file__).resolve())!r})['_driver']"
                f"({str(plan_file)!r}, {arguments!r})")
        command = ["nice", "-n", "10", sys.executable, "-c", code]
    process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True, preexec_fn=interruptible)
    started = time.monotonic()
    saved_at = started
    asleep_since: dict[int, float] = {}
    while process.poll() is None:
        now = time.monotonic()
        if progress is not None and now - saved_at > progress_s:
            progress()
            saved_at = now
        if time_limit is not None and now - started > time_limit:
            print(f"mutation.py: time limit of {time_limit:.0f} s reached, stopping mutmut", file=sys.stderr)
            process.send_signal(signal.SIGINT)
            try:
                return process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                return process.wait()
        workers = [w for child in _children(process.pid) for w in [child, *_children(child)]]
        for worker in workers:
            if not _waits_on_a_lock(worker):
                asleep_since.pop(worker, None)
            elif now - asleep_since.setdefault(worker, now) > hang_s:
                print(f"mutation.py: worker {worker} waited {hang_s:.0f} s on a lock, ending it", file=sys.stderr)
                os.kill(worker, signal.SIGKILL)
        time.sleep(5)
    return process.returncode


def sample_names(names: list[str], fraction: float, seed: int, size: int | None = None) -> list[str]:
    """A seeded sample of *names*, *fraction* of them or *size* of them (all when fewer): the same
    seed and mutants give the same sample."""
    count = round(fraction * len(names)) if size is None else min(size, len(names))
    if count >= len(names):
        return sorted(names)
    rng = random.Random(seed)
    ordered = sorted(names)
    return sorted(rng.sample(ordered, count))


def render_run(doc: dict[str, Any], markdown: bool = False) -> str:
    """The table and the closing line a run prints, from its JSON document (``--json``, ``--save``):
    docs/mutation.md quotes runs through this (``--render``)."""
    rows = {m: Counter({c: int(counts[c]) for c in COLUMNS}) for m, counts in doc["modules"].items()}
    drawn = f"{doc['sample_size']} a module" if doc["sample_size"] is not None else f"{doc['sample']:g}"
    load = doc["load"]
    return (report_table(rows, markdown) + f"\n\nsample {drawn} (seed {doc['seed']}), {doc['seconds']:.0f} s, load "
            f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {len(doc['survivors'])} survivors in mutants/survivors.txt "
            "(`mutmut show NAME`)")


def combine_runs(runs: list[tuple[str, dict[str, Any]]]) -> str:
    """The Markdown table of every module measured by saved *runs* ((file name, document), oldest
    first; ``--combine FILE...``): each module's row is the one of the last run that measured it
    (score, 95 % interval, mutants checked of its sample, equivalent ones, its sample: "all" when the
    module has fewer mutants than the sample size, and the run),
    and the total adds those rows' counts, so its score pools every module's checked mutants."""
    latest: dict[str, tuple[str, dict[str, Any], Counter[str]]] = {}
    for name, doc in runs:
        for module, counts in doc["modules"].items():
            if module != "total":
                latest[module] = (name, doc, Counter({c: int(counts[c]) for c in COLUMNS}))
    header = ("module", "score", "95 % interval", "checked (equivalent)", "sample", "run")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    total: Counter[str] = Counter()
    for module in sorted(latest):
        name, doc, counts = latest[module]
        total.update(counts)
        size = doc["sample_size"]
        drawn = (f"{doc['sample']:g} (seed {doc['seed']})" if size is None else
                 "all" if counts["mutants"] < size else f"{size} (seed {doc['seed']})")
        lines.append(_combined_row(f"`{module.removeprefix('kubb3d/')}`", counts, drawn, f"`{name}`"))
    lines.append(_combined_row("total", total, "", ""))
    return "\n".join(lines)


def _combined_row(label: str, counts: Counter[str], drawn: str, run: str) -> str:
    value, bounds = score(counts), interval(counts)
    checked = counts["mutants"] - counts["not checked"]
    cells = [label, "–" if value is None else f"{value:.1f} %",
             "–" if bounds is None else f"{bounds[0]:.1f}–{bounds[1]:.1f} %",
             f"{checked} of {counts['mutants']} ({counts['equivalent']})", drawn, run]
    return "| " + " | ".join(cells) + " |"


def compare_runs(before: dict[str, Any], after: dict[str, Any]) -> str:
    """The Markdown table of two saved runs side by side (``--compare BEFORE AFTER``): each module's
    score, its 95 % interval and how many of its sample's mutants were checked (equivalent ones in
    brackets), from the counts alone; a module missing from a run is shown as not measured."""
    runs = (before, after)
    header = ("module", "before", "95 % interval", "checked (equivalent)", "after", "95 % interval",
              "checked (equivalent)")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    modules = list(after["modules"]) + [m for m in before["modules"] if m not in after["modules"]]
    for module in modules:
        cells = [f"`{module.removeprefix('kubb3d/')}`"]
        for doc in runs:
            counts = Counter({c: int(doc["modules"].get(module, {}).get(c, 0)) for c in COLUMNS})
            value, bounds = score(counts), interval(counts)
            cells.append("–" if value is None else f"{value:.1f} %")
            cells.append("–" if bounds is None else f"{bounds[0]:.1f}–{bounds[1]:.1f} %")
            checked = counts["mutants"] - counts["not checked"]
            cells.append(f"{checked} of {counts['mutants']} ({counts['equivalent']})")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Mutation score of kubb3d/judge and kubb3d/rules against the fast tests (mutmut 3).",
        epilog="docs/mutation.md explains the score and lists the equivalent mutants.",
    )
    parser.add_argument("--module", action="append", metavar="PATH",
                        help="one source file, e.g. kubb3d/rules/kubbuteo.py (repeatable; default: all)")
    parser.add_argument("--sample", type=float, default=1.0, metavar="FRACTION",
                        help="run a seeded sample of each module's mutants, 0 < FRACTION <= 1 (default 1)")
    parser.add_argument("--sample-size", type=int, metavar="N",
                        help="run a seeded sample of N mutants of each module (all when it has fewer); "
                             "instead of --sample")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample (default 0)")
    parser.add_argument("--max-children", type=int, default=1, help="mutmut's parallel workers (default 1)")
    parser.add_argument("--time-limit", type=float, metavar="SECONDS",
                        help="stop mutmut after this long; what was checked is kept and reported")
    parser.add_argument("--skip-slower-than", type=float, metavar="SECONDS",
                        help="deselect the fast tests that took longer than this in mutmut's last full run "
                             "(the command-line tests in subprocesses; the score is then a lower bound)")
    parser.add_argument("--by-line", action="store_true",
                        help="test each mutant only with the fast tests that run its line (measured once with "
                             "coverage.py), not every test that calls its function")
    parser.add_argument("--rerun", choices=("survivors", "timeouts", "all"),
                        help="run again the mutants that survived or got no verdict (after new tests), that "
                             "timed out (a timeout "
                             "under load can be the machine's, not the mutant's), or all of them")
    parser.add_argument("--no-new", action="store_true",
                        help="with --rerun: run only mutants checked before, none that was never checked")
    parser.add_argument("--report", action="store_true", help="only read and print the results, run nothing")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown (for docs/)")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    parser.add_argument("--save", type=Path, metavar="FILE",
                        help="also write the run's JSON document (the command, counts, load, survivors) to FILE, "
                             "for docs/mutation.md (quoted with --render FILE)")
    parser.add_argument("--resume", type=Path, metavar="FILE",
                        help="first take the results of a run saved with --save (of the same sources) for the "
                             "mutants not checked yet, so that a stopped run goes on where it stopped")
    parser.add_argument("--render", type=Path, metavar="FILE",
                        help="print the table of a run saved with --save, run nothing")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"),
                        help="print two runs saved with --save side by side as a Markdown table (score, "
                             "interval, mutants checked), run nothing")
    parser.add_argument("--combine", type=Path, nargs="+", metavar="FILE",
                        help="print every module of runs saved with --save (oldest first) with the score of the "
                             "last run that measured it, and their total, as a Markdown table; run nothing")
    parser.add_argument("--equivalents", action="store_true",
                        help="print the equivalent mutants as the Markdown table of docs/mutation.md, run nothing")
    args = parser.parse_args(argv)

    known = source_modules()
    modules = known
    if args.module:
        modules = []
        for given in args.module:
            path = given if given.startswith("kubb3d/") else f"kubb3d/{given}"
            if path not in known:
                refuse(f"--module: {given!r} is not a source file of {' or '.join(PACKAGES)}")
            modules.append(path)
    if not 0.0 < args.sample <= 1.0:
        refuse(f"--sample: expected a fraction in (0, 1], got {args.sample}")
    if args.sample_size is not None and args.sample_size < 1:
        refuse(f"--sample-size: expected at least 1 mutant, got {args.sample_size}")
    if args.sample_size is not None and args.sample != 1.0:
        refuse("--sample-size: give either --sample or --sample-size, not both")
    if args.max_children < 1:
        refuse(f"--max-children: expected at least 1, got {args.max_children}")
    try:
        equivalents = load_equivalents()
    except ValueError as error:
        refuse(str(error))

    if args.render is not None:
        try:
            print(render_run(json.loads(args.render.read_text(encoding="utf-8")), args.markdown))
        except (OSError, ValueError, KeyError, TypeError):
            refuse(f"--render: {args.render}: expected a run's JSON document written by --save")
        return 0
    if args.compare is not None:
        docs = []
        for path in args.compare:
            try:
                docs.append(json.loads(path.read_text(encoding="utf-8")))
                render_run(docs[-1])
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                refuse(f"--compare: {path}: expected a run's JSON document written by --save")
        print(compare_runs(docs[0], docs[1]))
        return 0
    if args.combine is not None:
        combined = []
        for path in args.combine:
            try:
                combined.append((path.name, json.loads(path.read_text(encoding="utf-8"))))
                render_run(combined[-1][1])
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                refuse(f"--combine: {path}: expected a run's JSON document written by --save")
        print(combine_runs(combined))
        return 0
    if args.save is not None and not args.save.parent.is_dir():
        refuse(f"--save: the folder {args.save.parent} does not exist")
    if args.equivalents:
        print(equivalents_table(load_equivalent_entries()))
        return 0
    resumed: dict[str, int] = {}
    if args.resume is not None:
        try:
            saved_run = json.loads(args.resume.read_text(encoding="utf-8"))
            resumed = {str(name): int(code) for name, code in saved_run["results"].items()}
            saved_sources = saved_run["sources"]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            refuse(f"--resume: {args.resume}: expected a run's JSON document with its results, written by --save")
        if saved_sources != mutated_sources_hash():
            refuse(f"--resume: {args.resume}: saved from other sources of {' and '.join(PACKAGES)}; its mutants' "
                   "numbers may differ, run them again")
    started = time.monotonic()
    if not args.report:
        generate_mutants()
        if resumed:
            count = restore_results(MUTANTS, resumed, modules)
            print(f"mutation.py: {count} results taken from {args.resume}", file=sys.stderr)
    for name in stale_equivalents(load_equivalent_entries(), MUTANTS):
        print(f"mutation.py: {name} no longer makes the change listed in {EQUIVALENTS.name}; look at it "
              "again (counted as not equivalent)", file=sys.stderr)
        equivalents.pop(name, None)
    results = read_results(MUTANTS, modules)
    selected: set[str] = set()
    for module in modules:
        selected |= set(sample_names(list(results[module]), args.sample, args.seed, args.sample_size))

    if not args.report:
        todo = sorted(n for n in selected if wanted(results[module_of_name(n, modules)][n], args.rerun)
                      and not (args.no_new and results[module_of_name(n, modules)][n] is None))
        if todo:
            deselect = failing_fast_tests()
            for node in deselect:
                print(f"mutation.py: deselected, fails before any mutation: {node}", file=sys.stderr)
            for node in gl_tests():
                print(f"mutation.py: deselected, draws with OpenGL (hangs in mutmut's forked workers): {node}",
                      file=sys.stderr)
                deselect.append(node)
            if args.skip_slower_than is not None:
                slow = slow_tests(args.skip_slower_than)
                for node in slow:
                    print(f"mutation.py: deselected, slower than {args.skip_slower_than:g} s: {node}", file=sys.stderr)
                deselect += slow
            plan = plan_line_tests(todo, collect_line_tests(deselect)) if args.by_line else None
            if plan is not None:
                placed = [contexts for contexts in plan.values() if contexts is not None]
                print(f"mutation.py: {len(placed)} of {len(plan)} mutants placed on a line, "
                      f"{sum(not contexts for contexts in placed)} of them on a line no fast test runs",
                      file=sys.stderr)
            def save_partial() -> None:
                doc = run_document(args, argv, modules, read_results(MUTANTS, modules), selected, equivalents,
                                   time.monotonic() - started, partial=True)
                args.save.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

            code = run_mutmut(todo, args.max_children, deselect, args.time_limit, plan=plan,
                              progress=save_partial if args.save is not None else None)
            if code not in (0, 130, -signal.SIGINT):
                print(f"mutation.py: mutmut run ended with exit code {code}", file=sys.stderr)
        results = read_results(MUTANTS, modules)

    doc = run_document(args, argv, modules, results, selected, equivalents, time.monotonic() - started)
    MUTANTS.mkdir(exist_ok=True)
    (MUTANTS / "survivors.txt").write_text("".join(f"{name}\n" for name in doc["survivors"]), encoding="utf-8")
    if args.save is not None:
        args.save.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        print(render_run(doc, args.markdown))
    return 0


def run_document(args: argparse.Namespace, argv: list[str] | None, modules: list[str],
                 results: dict[str, dict[str, int | None]], selected: set[str], equivalents: dict[str, str],
                 elapsed: float, partial: bool = False) -> dict[str, Any]:
    """A run's JSON document (``--json``, ``--save``): the command, the counts per module, the load,
    the survivors, and each checked mutant's exit code with the hash of the sources (``--resume``).
    *partial*: written while mutmut still runs."""
    rows = {module: tally(results[module], equivalents, selected) for module in modules}
    total: Counter[str] = Counter()
    for counts in rows.values():
        total.update(counts)
    if len(rows) > 1:
        rows["total"] = total
    survivors = sorted(
        name for module in modules for name, code in results[module].items()
        if name in selected and STATUS_BY_EXIT_CODE.get(code) in ("survived", "no tests") and name not in equivalents
    )
    return {
        "command": "benchmarks/mutation.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "sample": args.sample, "sample_size": args.sample_size, "seed": args.seed, "seconds": round(elapsed, 1),
        "load": [round(value, 2) for value in os.getloadavg()],
        "modules": {m: {col: c[col] for col in COLUMNS} | {"score": score(c), "interval": interval(c)}
                    for m, c in rows.items()},
        "survivors": survivors,
        "partial": partial,
        "sources": mutated_sources_hash(),
        "results": {name: code for module in modules for name, code in sorted(results[module].items())
                    if name in selected and code is not None},
    }


def wanted(code: int | None, rerun: str | None) -> bool:
    """Run a mutant with this exit code (None: never checked) under ``--rerun``?"""
    if code is None or rerun == "all":
        return True
    if rerun == "timeouts":
        return STATUS_BY_EXIT_CODE.get(code) == "timeout"
    # "other": a worker ended without a verdict (killed by a signal, a deadlock ended): not killed
    return rerun == "survivors" and STATUS_BY_EXIT_CODE.get(code, "other") in ("survived", "no tests", "other")


def module_of_name(name: str, modules: list[str]) -> str:
    """The module path a mutant name belongs to (its longest matching module prefix)."""
    return max((m for m in modules if name.startswith(module_of(m) + ".")), key=len)


if __name__ == "__main__":
    sys.exit(main())

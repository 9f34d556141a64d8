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
import json
import os
import random
import signal
import subprocess
import sys
import time
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "mutants"
EQUIVALENTS = ROOT / "benchmarks" / "mutation_equivalents.toml"
PACKAGES = ("kubb3d/judge", "kubb3d/rules")
# the statuses mutmut writes into its .meta files, by exit code (mutmut.stats.status_by_exit_code)
STATUS_BY_EXIT_CODE = {
    1: "killed", 3: "killed", 37: "killed",
    0: "survived",
    5: "no tests", 33: "no tests",
    36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout",
    None: "not checked",
}
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


def report_table(rows: dict[str, Counter[str]], markdown: bool) -> str:
    lines = []
    header = ("module",) + COLUMNS + ("score",)
    if markdown:
        lines.append("| " + " | ".join(header) + " |")
        lines.append("|" + "---|" * len(header))
    else:
        lines.append(f"{'module':28}" + "".join(f"{c:>12}" for c in header[1:]))
    for module, counts in rows.items():
        value = score(counts)
        cells = [str(counts[c]) for c in COLUMNS] + ["–" if value is None else f"{value:.1f} %"]
        if markdown:
            lines.append(f"| {module} | " + " | ".join(cells) + " |")
        else:
            lines.append(f"{module:28}" + "".join(f"{c:>12}" for c in cells))
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
    """Node ids of the tests that took longer than *seconds* in mutmut's recorded run."""
    stats = MUTANTS / "mutmut-stats.json"
    if not stats.exists():
        return []
    durations = json.loads(stats.read_text(encoding="utf-8"))["duration_by_test"]
    return sorted(node for node, duration in durations.items() if duration > seconds)


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


def run_mutmut(names: list[str], max_children: int, deselect: list[str], time_limit: float | None,
               hang_s: float = 60.0) -> int:
    """`mutmut run` on *names*, niced; stopped with Ctrl-C's signal after *time_limit* seconds.

    A worker that sleeps on a lock for *hang_s* is ended (mutmut's timeout counts CPU time, so a
    deadlocked fork would wait for ever); mutmut records it as killed by a signal ("other")."""
    env = dict(os.environ)
    env["PYTEST_ADDOPTS"] = " ".join(f"--deselect {node}" for node in deselect)
    mutmut = Path(sys.executable).with_name("mutmut")
    command = ["nice", "-n", "10", str(mutmut), "run", "--max-children", str(max_children), *names]
    process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
    started = time.monotonic()
    asleep_since: dict[int, float] = {}
    while process.poll() is None:
        now = time.monotonic()
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


def sample_names(names: list[str], fraction: float, seed: int) -> list[str]:
    """A seeded sample of *names*: the same seed and mutants give the same sample."""
    if fraction >= 1.0:
        return sorted(names)
    rng = random.Random(seed)
    ordered = sorted(names)
    return sorted(rng.sample(ordered, round(fraction * len(ordered))))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Mutation score of kubb3d/judge and kubb3d/rules against the fast tests (mutmut 3).",
        epilog="docs/mutation.md explains the score and lists the equivalent mutants.",
    )
    parser.add_argument("--module", action="append", metavar="PATH",
                        help="one source file, e.g. kubb3d/rules/kubbuteo.py (repeatable; default: all)")
    parser.add_argument("--sample", type=float, default=1.0, metavar="FRACTION",
                        help="run a seeded sample of each module's mutants, 0 < FRACTION <= 1 (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample (default 0)")
    parser.add_argument("--max-children", type=int, default=1, help="mutmut's parallel workers (default 1)")
    parser.add_argument("--time-limit", type=float, metavar="SECONDS",
                        help="stop mutmut after this long; what was checked is kept and reported")
    parser.add_argument("--skip-slower-than", type=float, metavar="SECONDS",
                        help="deselect the fast tests that took longer than this in mutmut's last full run "
                             "(the command-line tests in subprocesses; the score is then a lower bound)")
    parser.add_argument("--rerun", choices=("survivors", "all"),
                        help="run again the mutants that survived (after new tests), or all of them")
    parser.add_argument("--report", action="store_true", help="only read and print the results, run nothing")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown (for docs/)")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
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
    if args.max_children < 1:
        refuse(f"--max-children: expected at least 1, got {args.max_children}")
    try:
        equivalents = load_equivalents()
    except ValueError as error:
        refuse(str(error))

    if args.equivalents:
        print(equivalents_table(load_equivalent_entries()))
        return 0
    started = time.monotonic()
    if not args.report:
        generate_mutants()
    results = read_results(MUTANTS, modules)
    selected: set[str] = set()
    for module in modules:
        selected |= set(sample_names(list(results[module]), args.sample, args.seed))

    if not args.report:
        todo = sorted(n for n in selected if wanted(results[module_of_name(n, modules)][n], args.rerun))
        if todo:
            deselect = failing_fast_tests()
            for node in deselect:
                print(f"mutation.py: deselected, fails before any mutation: {node}", file=sys.stderr)
            if args.skip_slower_than is not None:
                slow = slow_tests(args.skip_slower_than)
                for node in slow:
                    print(f"mutation.py: deselected, slower than {args.skip_slower_than:g} s: {node}", file=sys.stderr)
                deselect += slow
            code = run_mutmut(todo, args.max_children, deselect, args.time_limit)
            if code not in (0, 130, -signal.SIGINT):
                print(f"mutation.py: mutmut run ended with exit code {code}", file=sys.stderr)
        results = read_results(MUTANTS, modules)

    for name in stale_equivalents(load_equivalent_entries(), MUTANTS):
        print(f"mutation.py: {name} no longer makes the change listed in {EQUIVALENTS.name}; look at it "
              "again (counted as not equivalent)", file=sys.stderr)
        equivalents.pop(name, None)
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
    MUTANTS.mkdir(exist_ok=True)
    (MUTANTS / "survivors.txt").write_text("".join(f"{name}\n" for name in survivors), encoding="utf-8")
    elapsed = time.monotonic() - started
    load = os.getloadavg()
    if args.json:
        print(json.dumps({
            "sample": args.sample, "seed": args.seed, "seconds": round(elapsed, 1),
            "load": [round(value, 2) for value in load],
            "modules": {m: dict(c) | {"score": score(c)} for m, c in rows.items()},
            "survivors": survivors,
        }, indent=2))
    else:
        print(report_table(rows, args.markdown))
        print(f"\nsample {args.sample:g} (seed {args.seed}), {elapsed:.0f} s, load {load[0]:.2f} {load[1]:.2f} "
              f"{load[2]:.2f}; {len(survivors)} survivors in mutants/survivors.txt (`mutmut show NAME`)")
    return 0


def wanted(code: int | None, rerun: str | None) -> bool:
    """Run a mutant with this exit code (None: never checked) under ``--rerun``?"""
    if code is None or rerun == "all":
        return True
    return rerun == "survivors" and STATUS_BY_EXIT_CODE.get(code) in ("survived", "no tests")


def module_of_name(name: str, modules: list[str]) -> str:
    """The module path a mutant name belongs to (its longest matching module prefix)."""
    return max((m for m in modules if name.startswith(module_of(m) + ".")), key=len)


if __name__ == "__main__":
    sys.exit(main())

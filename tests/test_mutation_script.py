"""benchmarks/mutation.py, the mutation score of judge/ and rules/ (docs/mutation.md): its
counting on hand-made mutmut results, its sample, its refusals, and the list of equivalent
mutants held to the code and to docs/mutation.md. Runs no mutmut."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from cli_process import run_python

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def mutation():
    spec = importlib.util.spec_from_file_location("mutation_benchmark", ROOT / "benchmarks" / "mutation.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_counts_and_score_from_mutmut_exit_codes(mutation, tmp_path):
    codes = {"m.f__mutmut_1": 1, "m.f__mutmut_2": 0, "m.f__mutmut_3": 33, "m.f__mutmut_4": 36,
             "m.f__mutmut_5": None, "m.f__mutmut_6": 0, "m.f__mutmut_7": -11}
    meta = tmp_path / "kubb3d" / "rules"
    meta.mkdir(parents=True)
    (meta / "dm.py.meta").write_text(json.dumps({"exit_code_by_key": codes}), encoding="utf-8")
    results = mutation.read_results(tmp_path, ["kubb3d/rules/dm.py", "kubb3d/rules/wikinger.py"])
    assert results == {"kubb3d/rules/dm.py": codes, "kubb3d/rules/wikinger.py": {}}
    counts = mutation.tally(codes, {"m.f__mutmut_6": "same"}, None)
    assert counts == Counter({"mutants": 7, "killed": 1, "survived": 1, "no tests": 1, "timeout": 1,
                              "not checked": 1, "equivalent": 1, "other": 1})
    # (killed + timeout) / (killed + timeout + survived + no tests + other): 2 / 5
    assert mutation.score(counts) == pytest.approx(40.0)
    assert mutation.score(mutation.tally({"x": None}, {}, None)) is None
    only = mutation.tally(codes, {}, {"m.f__mutmut_1", "m.f__mutmut_2"})
    assert only["mutants"] == 2 and mutation.score(only) == pytest.approx(50.0)


def test_the_sample_is_seeded_and_of_the_asked_size(mutation):
    names = [f"m.f__mutmut_{i}" for i in range(200)]
    first = mutation.sample_names(names, 0.1, seed=3)
    assert len(first) == 20 and set(first) <= set(names)
    assert first == mutation.sample_names(list(reversed(names)), 0.1, seed=3)
    assert first != mutation.sample_names(names, 0.1, seed=4)
    assert mutation.sample_names(names, 1.0, seed=3) == sorted(names)
    by_size = mutation.sample_names(names, 1.0, seed=3, size=20)
    assert len(by_size) == 20 and by_size == mutation.sample_names(list(reversed(names)), 1.0, seed=3, size=20)
    assert mutation.sample_names(names[:15], 1.0, seed=3, size=20) == sorted(names[:15])
    assert mutation.module_of("kubb3d/judge/raising.py") == "kubb3d.judge.raising"
    modules = ["kubb3d/rules/core.py", "kubb3d/rules/kubbuteo.py"]
    assert mutation.module_of_name("kubb3d.rules.kubbuteo.x_after_flick__mutmut_3", modules) == modules[1]


def test_the_interval_is_the_wilson_score_interval(mutation):
    """The bounds are the two proportions p0 at which the score test just accepts the measured
    share: (share - p0)^2 = z^2 p0 (1 - p0) / n (the interval's definition, not its closed form)."""
    for killed, survived in ((90, 10), (45, 5), (1, 9), (30, 0)):
        counts = Counter({"killed": killed, "survived": survived})
        low, high = mutation.interval(counts)
        n, share = killed + survived, killed / (killed + survived)
        assert low < 100 * share <= high
        for bound in (low / 100, high / 100):
            if 0 < bound < 1:
                assert (share - bound) ** 2 == pytest.approx(mutation.MUTATION_Z**2 * bound * (1 - bound) / n, rel=1e-9)
    assert mutation.interval(Counter({"killed": 30}))[1] == pytest.approx(100.0)
    wide, narrow = (mutation.interval(Counter({"killed": 9 * k, "survived": k})) for k in (5, 50))
    assert wide[0] < narrow[0] and narrow[1] < wide[1]
    assert mutation.interval(Counter({"not checked": 4, "equivalent": 2})) is None


@pytest.mark.parametrize("args, message", [
    (["--sample", "0"], "--sample: expected a fraction in (0, 1], got 0.0"),
    (["--sample", "1.5"], "--sample: expected a fraction in (0, 1], got 1.5"),
    (["--module", "judge/nothing.py"], "--module: 'judge/nothing.py' is not a source file of kubb3d/judge or "
                                       "kubb3d/rules"),
    (["--max-children", "0"], "--max-children: expected at least 1, got 0"),
    (["--sample-size", "0"], "--sample-size: expected at least 1 mutant, got 0"),
    (["--sample", "0.5", "--sample-size", "10"], "--sample-size: give either --sample or --sample-size, not both"),
])
def test_bad_arguments_are_refused_in_one_line_before_any_work(args, message, tmp_path):
    result = run_python([str(ROOT / "benchmarks" / "mutation.py"), *args], cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"mutation.py: {message}\n"


def test_every_equivalent_mutant_names_a_function_and_a_line_that_exist(mutation):
    entries = mutation.load_equivalent_entries()
    assert entries, "the list of equivalent mutants is empty"
    for entry in entries:
        name = entry["mutant"]
        match = re.fullmatch(r"(kubb3d\.(?:judge|rules)\.\w+)\.(x_(\w+)|xǁ(\w+)ǁ(\w+))__mutmut_\d+", name)
        assert match, name
        source = (ROOT / (match.group(1).replace(".", "/") + ".py")).read_text(encoding="utf-8")
        function = match.group(3) or match.group(5)
        assert re.search(rf"^\s*def {function}\(", source, re.MULTILINE), name
        if match.group(4):
            assert re.search(rf"^class {match.group(4)}\b", source, re.MULTILINE), name
        assert entry["original"] in source, f"{name}: its line changed, look at the mutant again"
        assert entry["original"] != entry["mutated"]


def test_docs_list_the_equivalent_mutants_as_the_script_prints_them(mutation):
    docs = (ROOT / "docs" / "mutation.md").read_text(encoding="utf-8")
    assert mutation.equivalents_table(mutation.load_equivalent_entries()) in docs


def test_the_measured_tables_in_the_docs_add_up(mutation):
    """docs/mutation.md's tables are pasted output of measurements that take hours; what a test can
    hold them to: each row's columns add up to its mutants, each score follows from its counts by
    the script's own formula, and each total is the sum of its rows (an edited figure breaks it)."""
    text = (ROOT / "docs" / "mutation.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```\n(module .*?)```", text, flags=re.S)
    assert len(blocks) >= 6
    for block in blocks:
        rows = {}
        for line in block.splitlines()[1:]:
            cells = line.split()
            if not cells or not (cells[0].startswith("kubb3d/") or cells[0] == "total"):
                continue
            counts = Counter(dict(zip(mutation.COLUMNS, map(int, cells[1:9]))))
            assert sum(counts[c] for c in mutation.COLUMNS[1:]) == counts["mutants"], line
            value = mutation.score(counts)
            shown = "–" if value is None else f"{value:.1f} %"
            bounds = mutation.interval(counts)
            with_interval = shown + " " + ("–" if bounds is None else f"{bounds[0]:.1f}–{bounds[1]:.1f} %")
            assert " ".join(cells[9:]) in (shown, with_interval), line
            rows[cells[0]] = counts
        total = rows.pop("total", None)
        if total is not None:
            assert total == sum(rows.values(), Counter()) + Counter({c: 0 for c in mutation.COLUMNS}), block


def test_an_equivalent_entry_whose_mutant_changed_is_stale(mutation, tmp_path):
    """mutmut renumbers a function's mutants when the function changes: an entry whose mutant in
    mutants/ no longer makes the listed change is named, one not generated yet is not judged."""
    source = tmp_path / "kubb3d" / "rules" / "dm.py"
    source.parent.mkdir(parents=True)
    source.write_text(
        "def x_f__mutmut_1(a):\n    return a >= 0\n\n\ndef x_f__mutmut_2(a):\n    return a > 1\n\n"
        "class C:\n    def xǁCǁg__mutmut_1(self):\n        return None\n    def xǁCǁg__mutmut_2(self):\n"
        "        return 1\n",
        encoding="utf-8",
    )
    entry = {"original": "return a > 0", "reason": "r"}
    entries = [
        {**entry, "mutant": "kubb3d.rules.dm.x_f__mutmut_1", "mutated": "return a >= 0"},
        {**entry, "mutant": "kubb3d.rules.dm.x_f__mutmut_2", "mutated": "return a >= 0"},
        {**entry, "mutant": "kubb3d.rules.dm.xǁCǁg__mutmut_1", "mutated": "return 1"},
        {**entry, "mutant": "kubb3d.rules.dm.x_f__mutmut_9", "mutated": "return a >= 0"},
        {**entry, "mutant": "kubb3d.rules.wikinger.x_f__mutmut_1", "mutated": "return a >= 0"},
    ]
    assert mutation.stale_equivalents(entries, tmp_path) == [
        "kubb3d.rules.dm.x_f__mutmut_2",
        "kubb3d.rules.dm.xǁCǁg__mutmut_1",
    ]


def test_a_mutant_is_placed_on_the_statement_it_changes(mutation):
    """--by-line runs a mutant only with the tests that ran its statement: the changed line of the
    mutant, carried over to the original's copy; a condition's whole header (it can span lines)
    but not its body; the signature (or a changed length) cannot be placed."""
    source = [
        "def x_f__mutmut_orig(a, b=1):",    # 1
        "    total = 0",                     # 2
        "    if (a > 0 and",                 # 3
        "            b > 0):",               # 4
        "        total = a",                 # 5
        "    return total",                  # 6
        "def x_f__mutmut_1(a, b=1):",       # 7
        "    total = 0",
        "    if (a > 0 and",
        "            b >= 0):",              # 10: the mutated condition
        "        total = a",
        "    return total",
        "def x_f__mutmut_2(a, b=1):",       # 13
        "    total = 0",
        "    if (a > 0 and",
        "            b > 0):",
        "        total = None",              # 17: the mutated body
        "    return total",
        "def x_f__mutmut_3(a, b=2):",       # 19: the mutated default
        "    total = 0",
        "    if (a > 0 and",
        "            b > 0):",
        "        total = a",
        "    return total",
    ]
    spans = {"x_f__mutmut_orig": [1, 6], "x_f__mutmut_1": [7, 12], "x_f__mutmut_2": [13, 18],
             "x_f__mutmut_3": [19, 24]}
    assert mutation.mutated_lines(source, spans, "x_f__mutmut_1") == [3, 4]
    assert mutation.mutated_lines(source, spans, "x_f__mutmut_2") == [5]
    assert mutation.mutated_lines(source, spans, "x_f__mutmut_3") is None
    assert mutation.mutated_lines(source, spans, "x_f__mutmut_9") is None
    shorter = {**spans, "x_f__mutmut_2": [13, 17]}
    assert mutation.mutated_lines(source, shorter, "x_f__mutmut_2") is None


def test_which_mutants_a_rerun_runs_again(mutation):
    """--rerun survivors: survived, no tests and "other" (a worker ended without a verdict, as the
    hung ones: not killed); --rerun timeouts: the timeouts (a timeout under load can be the
    machine's); a mutant never checked always; --rerun all: every one."""
    codes = {"killed": 1, "survived": 0, "no tests": 33, "timeout": -24, "other": -9, "not checked": None}
    chosen = {rerun: sorted(name for name, code in codes.items() if mutation.wanted(code, rerun))
              for rerun in (None, "survivors", "timeouts", "all")}
    assert chosen == {None: ["not checked"], "survivors": ["no tests", "not checked", "other", "survived"],
                      "timeouts": ["not checked", "timeout"], "all": sorted(codes)}


def test_the_fast_tests_that_draw_with_opengl_are_deselected(mutation):
    """Round 7: every hung worker (status.py, throws.py) was inside Mesa's glGenerateMipmap, drawing
    the quiz's pictures in a process mutmut had forked. The fast tests marked ``gl`` are those that
    draw; the script deselects them, and the quiz test with pictures is one. (Collected at the
    suite's own priority: the script's ``nice -n 10`` starved it for minutes on a busy machine.)"""
    drawing = mutation.gl_tests(niceness=0)
    assert "tests/judge/test_quiz_handcheck.py::test_quiz_with_piped_answers" in drawing
    assert all(node.startswith(("tests/judge/", "tests/rules/", "tests/test_procedure_audit.py")) for node in drawing)
    assert "tests/judge/test_quiz_handcheck.py::test_quiz_order_follows_seed_and_ends_on_eof" not in drawing


def _doc_of_block(block: str, mutation) -> dict:
    """A run's JSON document read back from a printed block (the inverse of render_run)."""
    lines = block.strip().splitlines()
    modules = {}
    for line in lines[1:]:
        cells = line.split()
        if cells and (cells[0].startswith("kubb3d/") or cells[0] == "total"):
            modules[cells[0]] = dict(zip(mutation.COLUMNS, map(int, cells[1:9])))
    last = re.match(r"sample (\S+)(?: a module)? \(seed (\d+)\), (\d+) s, load (\S+) (\S+) (\S+); (\d+) survivors",
                    lines[-1])
    assert last, lines[-1]
    size = "a module" in lines[-1]
    return {
        "sample": 1.0 if size else float(last[1]), "sample_size": int(last[1]) if size else None, "seed": int(last[2]),
        "seconds": float(last[3]), "load": [float(last[i]) for i in (4, 5, 6)], "modules": modules,
        "survivors": [f"m{i}" for i in range(int(last[7]))],
    }


def test_a_saved_run_renders_as_the_runs_quoted_in_the_docs(mutation):
    """render_run (``--render``, and what a run prints) gives back, from the counts alone, every
    block docs/mutation.md quotes: the format of a saved run is the format of the typed ones."""
    text = (ROOT / "docs" / "mutation.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```\n(module .*?)```", text, flags=re.S) if "\nsample " in b and "interval" in b]
    assert len(blocks) >= 3  # the first rounds' blocks predate the closing line and the interval
    for block in blocks:
        assert mutation.render_run(_doc_of_block(block, mutation)) == block.strip()


def test_every_run_quoted_from_a_saved_file_is_that_file_rendered(mutation, tmp_path):
    """A block after ``<!-- mutation-run: FILE -->`` in docs/mutation.md is ``--render FILE``."""
    text = (ROOT / "docs" / "mutation.md").read_text(encoding="utf-8")
    for path, block in re.findall(r"<!-- mutation-run: (\S+) -->\n```\n(.*?)```", text, flags=re.S):
        doc = json.loads((ROOT / path).read_text(encoding="utf-8"))
        assert block.strip() == mutation.render_run(doc), path
    # the command line: --render prints it, a file that is no run is refused in one line
    saved = tmp_path / "run.json"
    doc = {"command": "benchmarks/mutation.py --sample 0.5", "sample": 0.5, "sample_size": None, "seed": 3,
           "seconds": 12.4, "load": [1.0, 2.5, 3.25],
           "modules": {"kubb3d/rules/dm.py": {c: 0 for c in mutation.COLUMNS} | {"mutants": 5, "killed": 4,
                                                                              "survived": 1}},
           "survivors": ["x"]}
    saved.write_text(json.dumps(doc), encoding="utf-8")
    script = str(ROOT / "benchmarks" / "mutation.py")
    run = run_python([script, "--render", str(saved)])
    assert run.returncode == 0 and run.stdout.strip() == mutation.render_run(doc)
    assert "kubb3d/rules/dm.py" in run.stdout and "80.0 %" in run.stdout
    assert run.stdout.strip().endswith("sample 0.5 (seed 3), 12 s, load 1.00 2.50 3.25; 1 survivors in "
                                       "mutants/survivors.txt (`mutmut show NAME`)")
    saved.write_text("[]", encoding="utf-8")
    bad = run_python([script, "--render", str(saved)])
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and "--render" in bad.stderr


def test_two_saved_runs_compare_module_by_module(mutation, tmp_path):
    """--compare BEFORE AFTER: each module's score, interval and checked mutants of the two runs,
    from the counts alone; a module one run did not measure is a dash; every such table in
    docs/mutation.md (after ``<!-- mutation-compare: BEFORE AFTER -->``) is the script's output."""
    zero = {c: 0 for c in mutation.COLUMNS}
    before = {"modules": {"kubb3d/rules/dm.py": zero | {"mutants": 10, "killed": 3, "survived": 1,
                                                       "not checked": 6}}}
    after = {"modules": {"kubb3d/rules/dm.py": zero | {"mutants": 10, "killed": 4, "equivalent": 1,
                                                      "not checked": 5},
                         "kubb3d/judge/table.py": zero | {"mutants": 2, "not checked": 2}}}
    lines = mutation.compare_runs(before, after).splitlines()
    # 3 of 4 killed before (Wilson 30.1-95.4 %), 4 of 4 after with one equivalent left out
    assert lines[2] == "| `rules/dm.py` | 75.0 % | 30.1–95.4 % | 4 of 10 (0) | 100.0 % | 51.0–100.0 % | 5 of 10 (1) |"
    assert lines[3] == "| `judge/table.py` | – | – | 0 of 0 (0) | – | – | 0 of 2 (0) |"
    text = (ROOT / "docs" / "mutation.md").read_text(encoding="utf-8")
    quoted = re.findall(r"^<!-- mutation-compare: (\S+) (\S+) -->\n(.*?)\n\n", text, flags=re.S | re.M)
    assert quoted
    for first, second, table in quoted:
        docs = [json.loads((ROOT / path).read_text(encoding="utf-8")) for path in (first, second)]
        assert table.strip() == mutation.compare_runs(*docs), (first, second)
    script = str(ROOT / "benchmarks" / "mutation.py")
    saved = tmp_path / "run.json"
    saved.write_text("{}", encoding="utf-8")
    bad = run_python([script, "--compare", quoted[0][0], str(saved)], cwd=ROOT)
    assert bad.returncode == 2 and bad.stdout == "" and bad.stderr.strip().count("\n") == 0
    assert "--compare" in bad.stderr and "run.json" in bad.stderr


def test_the_scores_in_the_prose_of_a_saved_round_come_from_its_runs(mutation):
    """In a round of docs/mutation.md that quotes saved runs, every score and interval written in a
    sentence (outside the printed blocks and the tables) is one that ``--render`` prints for one of
    that round's files, or its ``--combine`` table: a figure typed by hand, or left over from
    another run, breaks it."""
    text = (ROOT / "docs" / "mutation.md").read_text(encoding="utf-8")
    checked = 0
    for section in re.split(r"\n(?=### )", text):
        files = re.findall(r"^<!-- mutation-(?:run|compare): (\S+)(?: (\S+))? -->$", section, flags=re.M)
        paths = {path for pair in files for path in pair if path}
        paths |= {p for combined in re.findall(r"^<!-- mutation-combine: (.+?) -->$", section, flags=re.M)
                  for p in combined.split()}
        if not paths:
            continue
        rendered = "\n".join(mutation.render_run(json.loads((ROOT / path).read_text(encoding="utf-8")))
                             for path in sorted(paths))
        for combined in re.findall(r"^<!-- mutation-combine: (.+?) -->$", section, flags=re.M):
            rendered += "\n" + mutation.combine_runs([(Path(p).name, json.loads((ROOT / p).read_text(encoding="utf-8")))
                                                      for p in combined.split()])
        prose = "\n".join(line for line in re.sub(r"```.*?```", "", section, flags=re.S).splitlines()
                          if not line.startswith("|"))
        for figure in re.findall(r"\d+\.\d(?:–\d+\.\d)? %", prose):
            assert figure in rendered, (section.splitlines()[0], figure)
            checked += 1
    assert checked >= 4


def test_a_run_saves_what_it_has_checked_and_a_stopped_run_resumes_from_it(mutation, tmp_path, monkeypatch):
    """--save keeps each checked mutant's exit code with the hash of the sources; --resume writes
    them back into mutmut's .meta files for the mutants with no result, and only for the same sources."""
    codes = {"kubb3d.rules.dm.x_f__mutmut_1": 1, "kubb3d.rules.dm.x_f__mutmut_2": 0,
             "kubb3d.rules.dm.x_f__mutmut_3": None, "kubb3d.rules.dm.x_f__mutmut_4": 1}
    args = mutation.main.__globals__["argparse"].Namespace(sample=1.0, sample_size=3, seed=0)
    selected = set(codes) - {"kubb3d.rules.dm.x_f__mutmut_4"}
    doc = mutation.run_document(args, ["--save", "x.json"], ["kubb3d/rules/dm.py"], {"kubb3d/rules/dm.py": codes},
                                selected, {}, 12.0, partial=True)
    # only the sample's checked mutants; the counts are those of the sample
    assert doc["results"] == {"kubb3d.rules.dm.x_f__mutmut_1": 1, "kubb3d.rules.dm.x_f__mutmut_2": 0}
    assert doc["partial"] is True and doc["sources"] == mutation.mutated_sources_hash()
    assert doc["modules"]["kubb3d/rules/dm.py"]["not checked"] == 1
    assert doc["survivors"] == ["kubb3d.rules.dm.x_f__mutmut_2"]
    # the hash follows the mutated sources (their text decides mutmut's numbering), not the tests
    monkeypatch.setattr(mutation, "ROOT", tmp_path)
    (tmp_path / "kubb3d" / "rules").mkdir(parents=True)
    (tmp_path / "kubb3d" / "rules" / "dm.py").write_text("x = 1\n", encoding="utf-8")
    first = mutation.mutated_sources_hash()
    (tmp_path / "kubb3d" / "rules" / "dm.py").write_text("x = 2\n", encoding="utf-8")
    assert mutation.mutated_sources_hash() != first
    monkeypatch.undo()

    meta = tmp_path / "kubb3d" / "rules" / "dm.py.meta"
    fresh = {"kubb3d.rules.dm.x_f__mutmut_1": None, "kubb3d.rules.dm.x_f__mutmut_2": 0,
             "kubb3d.rules.dm.x_f__mutmut_3": None}
    meta.write_text(json.dumps({"exit_code_by_key": fresh, "durations_by_key": {}}), encoding="utf-8")
    saved = {"kubb3d.rules.dm.x_f__mutmut_1": 1, "kubb3d.rules.dm.x_f__mutmut_2": 1}
    assert mutation.restore_results(tmp_path, saved, ["kubb3d/rules/dm.py", "kubb3d/rules/core.py"]) == 1
    # a result mutmut already has stays (a rerun of survivors is mutmut's), a mutant not in the file stays unchecked
    assert json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"] == {
        "kubb3d.rules.dm.x_f__mutmut_1": 1, "kubb3d.rules.dm.x_f__mutmut_2": 0, "kubb3d.rules.dm.x_f__mutmut_3": None}

    # a file of other sources is refused in one line, before any work
    other = tmp_path / "other.json"
    other.write_text(json.dumps(doc | {"sources": "0" * 64}), encoding="utf-8")
    script = str(ROOT / "benchmarks" / "mutation.py")
    bad = run_python([script, "--resume", str(other), "--module", "rules/dm.py"], cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and "other sources" in bad.stderr


def test_a_run_with_save_writes_its_progress_while_mutmut_runs(mutation, monkeypatch):
    """run_mutmut calls its progress callback every progress_s seconds until mutmut ends."""
    clock = iter(range(0, 10_000, 50))
    polls = iter([None] * 9 + [0])

    class FakeMutmut:
        pid = -1
        returncode = 0

        def __init__(self, *args, **kwargs):
            pass

        def poll(self):
            return next(polls)

    monkeypatch.setattr(mutation.subprocess, "Popen", FakeMutmut)
    monkeypatch.setattr(mutation.time, "monotonic", lambda: float(next(clock)))
    monkeypatch.setattr(mutation.time, "sleep", lambda seconds: None)
    calls = []
    assert mutation.run_mutmut(["m"], 1, [], None, progress=lambda: calls.append(1), progress_s=120.0) == 0
    # nine polls of a running mutmut, 50 s apart from 50 s to 450 s: saved after 150 s, 300 s and 450 s
    assert len(calls) == 3


def test_a_failed_coverage_run_is_refused_and_plans_nothing(mutation, tmp_path, monkeypatch):
    """The run that records which fast test runs which line must pass: a test file of the work tree
    that mutmut has not copied into mutants/ yet makes pytest end with exit code 4, and the empty
    lines would place every mutant on a line no test runs ("no tests"). It is refused in one line,
    and no line table is kept."""
    monkeypatch.setattr(mutation, "MUTANTS", tmp_path)
    monkeypatch.setattr(mutation, "LINE_TESTS", tmp_path / "line-tests.json")

    def coverage_run(command, **kwargs):
        (tmp_path / "line-tests-new.json").write_text(json.dumps({"pytest_exit_code": 4, "lines": {}}),
                                                      encoding="utf-8")
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(mutation.subprocess, "run", coverage_run)
    with pytest.raises(SystemExit) as refused:
        mutation.collect_line_tests([])
    assert refused.value.code == 2
    assert not (tmp_path / "line-tests.json").exists()


def test_a_test_once_found_slow_stays_deselected(mutation, tmp_path, monkeypatch):
    """Round 7: run 1 deselected four tests slower than 10 s, mutmut's statistics of that run had no
    time for them, and run 2 would have run them all again. A test once found slow is kept with its
    time; a newer time of the same test replaces it."""
    monkeypatch.setattr(mutation, "MUTANTS", tmp_path)
    stats = tmp_path / "mutmut-stats.json"
    stats.write_text(json.dumps({"duration_by_test": {"t::cli": 25.0, "t::fast": 0.5}}), encoding="utf-8")
    assert mutation.slow_tests(10) == ["t::cli"]
    stats.write_text(json.dumps({"duration_by_test": {"t::fast": 0.5, "t::other": 12.0}}), encoding="utf-8")
    assert mutation.slow_tests(10) == ["t::cli", "t::other"]
    stats.write_text(json.dumps({"duration_by_test": {"t::cli": 3.0}}), encoding="utf-8")
    assert mutation.slow_tests(10) == ["t::other"]
    stats.write_text(json.dumps({"duration_by_test": {}}), encoding="utf-8")
    assert mutation.slow_tests(10) == ["t::other"]


def test_the_coverage_run_measures_the_work_trees_tests(mutation, tmp_path, monkeypatch):
    """Round 7's run 2: mutmut had copied the tests into mutants/ while they were still being
    written, the coverage run measured that copy, and six mutants whose killing tests came later
    were run without them. Before measuring, each fast test file that differs (or is missing) in
    mutants/ is copied from the work tree; the same ones are left alone."""
    root, mutants = tmp_path / "root", tmp_path / "mutants"
    (root / "tests" / "judge").mkdir(parents=True)
    (mutants / "tests" / "judge").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.mutmut]\npytest_add_cli_args_test_selection = ["tests/judge"]\n',
                                         encoding="utf-8")
    for name, text in (("test_new.py", "x = 2\n"), ("test_same.py", "y = 1\n"), ("test_added.py", "z = 3\n")):
        (root / "tests" / "judge" / name).write_text(text, encoding="utf-8")
    (mutants / "tests" / "judge" / "test_new.py").write_text("x = 1\n", encoding="utf-8")
    (mutants / "tests" / "judge" / "test_same.py").write_text("y = 1\n", encoding="utf-8")
    monkeypatch.setattr(mutation, "ROOT", root)
    monkeypatch.setattr(mutation, "MUTANTS", mutants)
    assert mutation.sync_test_files() == ["tests/judge/test_added.py", "tests/judge/test_new.py"]
    assert (mutants / "tests" / "judge" / "test_new.py").read_text(encoding="utf-8") == "x = 2\n"
    assert mutation.sync_test_files() == []



def test_a_line_table_is_kept_only_for_the_test_files_it_measured(mutation, tmp_path, monkeypatch):
    """Round 7's run 3: the line table of run 2 recorded the work tree's hashes of the test files
    but had measured mutmut's older copy in mutants/, so the copied files matched the record, were
    not measured again, and six mutants ran without the tests written to kill them. The table keeps
    the hashes of the copy it measured; a table without them is measured again in full, and a file
    `mutmut run` later copied anew is measured again alone."""
    root, mutants = tmp_path / "root", tmp_path / "mutants"
    for base in (root, mutants):
        (base / "tests" / "judge").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.mutmut]\npytest_add_cli_args_test_selection = ["tests/judge"]\n',
                                         encoding="utf-8")
    for name in ("test_a.py", "test_b.py"):
        (root / "tests" / "judge" / name).write_text(f"# {name}\n", encoding="utf-8")
    monkeypatch.setattr(mutation, "ROOT", root)
    monkeypatch.setattr(mutation, "MUTANTS", mutants)
    monkeypatch.setattr(mutation, "LINE_TESTS", mutants / "line-tests.json")
    measured: list[list[str]] = []

    def coverage_run(command, **kwargs):
        files = sorted(re.findall(r"'(tests/judge/test_\w+\.py)'", command[-1]))
        measured.append(files)
        lines = {"kubb3d/judge/x.py": {"3": [f"{f}::test_it" for f in files]}}
        (mutants / "line-tests-new.json").write_text(json.dumps({"pytest_exit_code": 0, "lines": lines}),
                                                     encoding="utf-8")
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(mutation.subprocess, "run", coverage_run)
    # a table as round 7's script wrote it: the work tree's hashes, no record of what was measured
    mutation.LINE_TESTS.write_text(json.dumps({"sources": mutation._sources_fingerprint(),
                                               "test_files": mutation._fast_test_files(), "lines": {}}),
                                   encoding="utf-8")
    lines = mutation.collect_line_tests([])
    assert measured == [["tests/judge/test_a.py", "tests/judge/test_b.py"]]
    assert lines["kubb3d/judge/x.py"]["3"] == ["tests/judge/test_a.py::test_it", "tests/judge/test_b.py::test_it"]
    assert mutation.collect_line_tests([]) == lines and len(measured) == 1
    # mutmut copies a test file changed meanwhile into mutants/: that file alone is measured again
    (root / "tests" / "judge" / "test_b.py").write_text("# test_b.py, a new test\n", encoding="utf-8")
    (mutants / "tests" / "judge" / "test_b.py").write_text("# test_b.py, a new test\n", encoding="utf-8")
    mutation.collect_line_tests([])
    assert measured[-1] == ["tests/judge/test_b.py"]


def test_saved_runs_combine_into_one_table_of_every_module(mutation, tmp_path):
    """--combine FILE...: every module any of the runs measured, with the row of the last run that
    measured it, and a total adding those rows' counts; every such table in docs/mutation.md (after
    ``<!-- mutation-combine: FILE... -->``) is the script's output."""
    zero = {c: 0 for c in mutation.COLUMNS}
    old = {"sample": 1.0, "sample_size": 100, "seed": 0,
           "modules": {"kubb3d/rules/dm.py": zero | {"mutants": 10, "killed": 3, "survived": 1, "not checked": 6},
                       "kubb3d/judge/table.py": zero | {"mutants": 100, "killed": 99, "survived": 1},
                       "total": zero | {"mutants": 110, "killed": 102, "survived": 2, "not checked": 6}}}
    new = {"sample": 1.0, "sample_size": 40, "seed": 0,
           "modules": {"kubb3d/rules/dm.py": zero | {"mutants": 10, "killed": 9, "equivalent": 1}}}
    lines = mutation.combine_runs([("old.json", old), ("new.json", new)]).splitlines()
    # dm.py from the newer run (9 of 9 killed, one equivalent left out), table.py from the older one
    assert lines[2] == "| `judge/table.py` | 99.0 % | 94.6–99.8 % | 100 of 100 (0) | 100 (seed 0) | `old.json` |"
    assert lines[3] == "| `rules/dm.py` | 100.0 % | 70.1–100.0 % | 10 of 10 (1) | all | `new.json` |"
    assert lines[4] == "| total | 99.1 % | 95.0–99.8 % | 110 of 110 (1) |  |  |"
    text = (ROOT / "docs" / "mutation.md").read_text(encoding="utf-8")
    quoted = re.findall(r"^<!-- mutation-combine: (.+?) -->\n(.*?)\n\n", text, flags=re.S | re.M)
    assert quoted
    for paths, table in quoted:
        runs = [(Path(p).name, json.loads((ROOT / p).read_text(encoding="utf-8"))) for p in paths.split()]
        assert table.strip() == mutation.combine_runs(runs), paths


def test_mutmut_is_started_so_that_the_time_limit_can_stop_it(mutation):
    """--time-limit stops mutmut with Ctrl-C's signal; a script started in the background of a shell
    without job control ignores SIGINT and so would mutmut, so its process gets the default back
    (Python then turns SIGINT into KeyboardInterrupt, on which mutmut ends its workers and stops)."""
    import signal

    probe = [sys.executable, "-c",
             "import signal; h = signal.getsignal(signal.SIGINT); print(getattr(h, '__name__', h))"]
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        ignored = subprocess.run(probe, capture_output=True, text=True, check=True).stdout.strip()
        restored = subprocess.run(probe, capture_output=True, text=True, check=True,
                                  preexec_fn=mutation.interruptible).stdout.strip()
    finally:
        signal.signal(signal.SIGINT, before)
    assert (ignored, restored) == (str(int(signal.SIG_IGN)), "default_int_handler")
    assert "preexec_fn=interruptible" in (ROOT / "benchmarks" / "mutation.py").read_text(encoding="utf-8")

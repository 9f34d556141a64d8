"""docs/rules.md's audit table is benchmarks/audit_table.py's output for the committed reports
(docs/audit.json, merged from `kubb3d audit --log` files); the merge adds up, refuses a seed
audited twice, and knows every check the audit has. Plays no match."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from cli_process import run_python

from kubb3d.audit import CHECKS

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "audit.json"
BEGIN = "<!-- audit-table (generated: benchmarks/audit_table.py markdown docs/audit.json) -->\n"
END = "<!-- /audit-table -->"


@pytest.fixture(scope="module")
def table():
    spec = importlib.util.spec_from_file_location("audit_table_benchmark", ROOT / "benchmarks" / "audit_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _match(ruleset: str, seed: int, checked: int, bad: list[str] = (), felled=(3, 1), wall=2.5) -> dict:
    return {
        "ruleset": ruleset,
        "matches": 1,
        "checks": {k: {"description": CHECKS[k], "checked": checked, "violations": bad.count(k)} for k in CHECKS},
        "violations": [{"check": k, "seed": seed, "action": 7, "detail": "d", "replay": "r"} for k in bad],
        "felled_by_throw": felled[0],
        "felled_by_throw_ruled_standing": felled[1],
        "per_seed": {str(seed): {"felled_by_throw": felled[0], "ruled_standing": felled[1]}},
        "wall_s": {str(seed): wall},
    }


def test_docs_rules_md_holds_the_table_of_the_committed_reports(table):
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    block = text.split(BEGIN)[1].split(END)[0]
    assert block.strip() == table.markdown(json.loads(DOC.read_text(encoding="utf-8"))).strip(), (
        "run `benchmarks/audit_table.py markdown docs/audit.json` and put its output into docs/rules.md"
    )


def test_the_committed_reports_add_up_and_cover_every_check(table):
    doc = json.loads(DOC.read_text(encoding="utf-8"))
    assert doc["rulesets"], "no ruleset audited"
    for ruleset, r in doc["rulesets"].items():
        assert r["matches"] == len(r["seeds"]) == len(set(r["seeds"])) == len(r["wall_s"])
        assert list(r["checks"]) == list(CHECKS), ruleset
        assert r["checks"]["completes"]["checked"] == r["matches"]  # each match counted once
        for name, row in r["checks"].items():
            assert row["violations"] == sum(v["check"] == name for v in r["violations"]), (ruleset, name)
        assert 0 <= r["felled_by_throw_ruled_standing"] <= r["felled_by_throw"]


def test_merge_adds_the_matches_and_the_table_counts_them(table, tmp_path):
    log = tmp_path / "a.jsonl"
    rows = [_match("dm", 4, 10), _match("dm", 3, 5, ["raised_ok"]), _match("kubbuteo", 0, 2, felled=(0, 0))]
    rows.append(_match("dm", 4, 10, wall=9.0))  # a chunk run again after a stop: the same report
    log.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    progress = tmp_path / "progress.txt"
    progress.write_text("t start dm seeds 3..4 load 7.25 6.00 5.00\nt done dm seeds 3 rc 1 load 9.5 7 6\n")
    doc = table.merge([log], "abc", progress)
    dm = doc["rulesets"]["dm"]
    assert dm["seeds"] == [3, 4] and dm["matches"] == 2 and dm["wall_s"]["4"] == 2.5
    assert dm["checks"]["raised_ok"] == {"checked": 15, "violations": 1}
    assert dm["felled_by_throw"] == 6 and dm["felled_by_throw_ruled_standing"] == 2
    assert doc["load_1min"] == [7.25, 9.5]
    text = table.markdown(doc)
    assert "| `raised_ok` | 15 / 1 | 2 / 0 |" in text
    assert "* 1 violations in 3 matches" in text
    assert "DM: seeds 3–4;" in text and "2 of 6 (33.33 %)" in text
    assert "seed 3, action 7, `raised_ok`" in text
    assert "Still to audit for issue #37: 198 DM, 200 WS, 49 Kubbuteo matches." in text
    assert "7.2–9.5" in text


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json\n", "expected one JSON report"),
        (json.dumps({"ruleset": "dm", "matches": 2}) + "\n", "expected the report of one match"),
        (
            json.dumps(_match("dm", 1, 1)) + "\n" + json.dumps(_match("dm", 1, 2)) + "\n",
            "dm seed 1 is in the logs twice",
        ),
    ],
)
def test_bad_logs_are_refused_in_one_line_and_nothing_is_written(content, message, tmp_path):
    log = tmp_path / "bad.jsonl"
    log.write_text(content, encoding="utf-8")
    out = tmp_path / "out.json"
    script = str(ROOT / "benchmarks" / "audit_table.py")
    run = run_python([script, "merge", "--commit", "x", str(log), "--out", str(out)])
    assert run.returncode == 2 and message in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert not out.exists()

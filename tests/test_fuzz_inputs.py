"""A hypothesis fuzzer over scenario and spec files: a valid file with one value replaced,
one key removed or one unknown key added, each hostile (NaN, huge or 5,000-digit numbers,
long or odd strings, wrong types, nested tables). Every file must end in success or in one
line ``error: …`` with exit code 2, never a traceback. Examples are bounded and derandomized
(the same cases on every run), so the whole file runs in a few seconds.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app

REPO = Path(__file__).resolve().parents[1]
HUGE = "HUGE-INTEGER-HERE"
"""Replaced by a 5,000-digit integer after writing (Python will not turn one into text)."""

SCENARIO = {
    "schema": 1,
    "title": "Field kubb knocked flat",
    "ruleset": "dm",
    "event": "throw",
    "throw": {"thrower": "A"},
    "pieces": [{"id": "A1", "place": "lying", "at": [1.8, 0.3], "yaw_deg": 20}],
    "expect": [{"piece": "A1", "status": "fallen", "consequence": "counts as felled", "rules": ["DM §5"]}],
}
SPEC = {
    "schema": 1,
    "title": "fuzz",
    "seed": 7,
    "trials_per_point": 2,
    "measures": ["hit", "felled"],
    "watch": ["B2"],
    "setup": {"ruleset": "dm", "ground": "grass", "terrain_cm": 0.0},
    "throw": {
        "target": "B2",
        "speed": {"grid": [9.6, 10.4]},
        "elevation_deg": 30.0,
        "tilt_deg": {"uniform": [-8.0, 8.0]},
    },
    "disturb": {"piece": "B2", "speed_mps": 0.0},
}

hostile = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**30), max_value=10**30),
        st.sampled_from([0, -1, 2**63, -(2**63) - 1, HUGE]),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([math.nan, math.inf, -math.inf, 1e308, -0.0, 5e-324]),
        st.text(max_size=20),
        st.sampled_from(["", "x" * 300, "A1", "B2", "king", "baton1", "kubbuteo", "'\"", "\u00e9\u00f6", "../etc"]),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=6,
)


def _paths(doc, prefix=()):
    """Every location in a document (keys of tables, indices of lists)."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for k, v in items:
        yield (*prefix, k)
        yield from _paths(v, (*prefix, k))


@st.composite
def mutated(draw, base):
    doc = _copy(base)
    paths = list(_paths(doc))
    path = draw(st.sampled_from(paths))
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    how = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
    if how == "replace":
        parent[path[-1]] = draw(hostile)
    elif how == "delete" and isinstance(parent, dict):
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent[draw(st.text(min_size=1, max_size=10))] = draw(hostile)
    return doc


def _copy(doc):
    if isinstance(doc, dict):
        return {k: _copy(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_copy(v) for v in doc]
    return doc


def _clean(doc):
    """TOML has no null: None becomes an empty table (itself a wrong type somewhere)."""
    if isinstance(doc, dict):
        return {k: _clean(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_clean(v) for v in doc]
    return {} if doc is None else doc


def _write(doc, path: Path) -> None:
    try:
        text = tomli_w.dumps(_clean(doc))
    except (TypeError, ValueError):  # e.g. a list mixing tables and numbers: write what TOML can
        text = tomli_w.dumps({k: v for k, v in _clean(doc).items() if k != "pieces"})
    path.write_text(text.replace(f'"{HUGE}"', "9" * 5000), encoding="utf-8")


def _check(argv: list[str]) -> int:
    _register_subapps()
    res = CliRunner().invoke(app, argv, catch_exceptions=True)
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        import traceback

        pytest.fail("".join(traceback.format_exception(res.exception)))
    assert "Traceback" not in res.stdout + res.stderr
    if res.exit_code == 2:
        lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
        assert len(lines[0]) <= 1000
    else:
        assert res.exit_code in (0, 1), (res.exit_code, res.stderr)  # judge: 1 = a ruling differs
    return res.exit_code


FUZZ = settings(
    max_examples=150, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
COUNTS: dict[str, int] = {}


@FUZZ
@given(doc=mutated(SCENARIO))
def test_fuzzed_scenarios_end_in_a_ruling_or_one_line(doc, tmp_path_factory):
    path = tmp_path_factory.mktemp("scenario") / "s.toml"
    _write(doc, path)
    COUNTS["scenario"] = COUNTS.get("scenario", 0) + 1
    _check(["judge", str(path)])


@FUZZ
@given(doc=mutated(SPEC))
def test_fuzzed_specs_load_or_end_in_one_line(doc, tmp_path_factory):
    folder = tmp_path_factory.mktemp("spec")
    _write(doc, folder / "e.toml")
    COUNTS["spec"] = COUNTS.get("spec", 0) + 1
    _check(["experiment", "run", str(folder / "e.toml"), "--out", str(folder / "o.sqlite"), "--backend", "serial",
            "--max-trials", "0", "--quiet"])


def test_the_base_documents_are_valid(tmp_path):
    _write(SCENARIO, tmp_path / "s.toml")
    assert _check(["judge", str(tmp_path / "s.toml")]) == 0
    _write(SPEC, tmp_path / "e.toml")
    assert _check(["experiment", "run", str(tmp_path / "e.toml"), "--out", str(tmp_path / "o.sqlite"), "--backend",
                   "serial", "--max-trials", "0", "--quiet"]) == 0

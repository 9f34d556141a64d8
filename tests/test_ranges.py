"""One wording for a number out of range, whoever checks it (Typer's min/max, a command's own
check, a spec or scenario file's field): ``<option>: expected <range>, got <value>``
(kubb3d/ranges.py)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app
from kubb3d.ranges import expected, span

BAD = Path(__file__).resolve().parent / "bad_inputs"

CASES = [
    ("bench --throws 0", "--throws: expected from 1 to 100000, got 0"),  # Typer's own check
    ("bench --throws=-4", "--throws: expected from 1 to 100000, got -4"),
    ("throw --seed -1", "--seed: expected 0 or more, got -1"),
    ("validate --throws 5", "--throws: expected from 10 to 100000, got 5"),
    ("audit --matches 0", "--matches: expected from 1 to 100000, got 0"),
    ("audit --workers 0", "--workers: expected from 1 to 256, got 0"),
    ("throw --speed 1e9", "--speed: expected more than 0 and at most 40 m/s, got 1000000000.0"),
    ("throw --tilt-deg 95", "--tilt-deg: expected from -90 to 90 degrees, got 95.0"),
    ("throw --terrain-cm -1", "--terrain-cm: expected from 0 to 10 cm, got -1.0"),
    ("match --sets 0", "--sets: expected an odd number from 1 to 9, got 0"),
    ("play --opponent club --best-of 0", "--best-of: expected an odd number from 1 to 9, got 0"),
    ("match --round-cap 2", "--round-cap: expected from 3 to 10000, got 2"),
    # the same cap whichever command plays the match (play once stopped at 1000)
    ("match --round-cap 10001", "--round-cap: expected from 3 to 10000, got 10001"),
    ("play --opponent club --round-cap 10001", "--round-cap: expected from 3 to 10000, got 10001"),
    ("match --time-limit 0", "--time-limit: expected more than 0 and at most 16666.7 minutes, got 0.0"),
    ("tournament --teams 1", "--teams: expected from 2 to 16, got 1"),
    ("dames play --players search,search --depth 9", "--depth: expected from 1 to 6, got 9"),
    ("dames selfplay --games 0", "--games: expected from 1 to 100000, got 0"),
    (f"experiment run {BAD}/spec_speed_negative.toml --out never.sqlite",
     f"{BAD}/spec_speed_negative.toml: throw.speed: expected more than 0 and at most 40 m/s, got -3.0"),
    (f"experiment run {BAD}/spec_time_limit_huge.toml --out never.sqlite",
     f"{BAD}/spec_time_limit_huge.toml: match.time_limit_min: expected at most 1440, got 1000000000000.0"),
    (f"judge {BAD}/scenario_yaw_huge.toml",
     f"{BAD}/scenario_yaw_huge.toml: pieces[0] (id A1).yaw_deg: expected at most 360, got 1e+300"),
]


@pytest.mark.parametrize("line,message", CASES, ids=[c[0].replace(str(BAD) + "/", "") for c in CASES])
def test_out_of_range_has_one_wording(line, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _register_subapps()
    res = CliRunner().invoke(app, shlex.split(line))
    assert res.exit_code == 2, res.stderr
    assert res.stderr == f"error: {message}\n"
    assert re.fullmatch(r"error: \S.*: expected .+, got .+\n", res.stderr)
    assert list(tmp_path.iterdir()) == []


def test_span_words():
    assert span(1, 9) == "from 1 to 9"
    assert span(0) == "0 or more"
    assert span(0, 40.0, " m/s", open_lo=True) == "more than 0 and at most 40 m/s"
    assert span(hi=5.0, unit=" s") == "at most 5 s"
    assert expected("--x", span(1, 2), 3) == "--x: expected from 1 to 2, got 3"

"""No traceback at the edges of the environment: a reader of stdout that goes away, a full
stdout, an encoding that cannot show German, a closed stdin, a replay cut inside a UTF-8
character, a huge title. Each runs the real command line in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from cli_process import run_python

CLI = [sys.executable, "-c", "from kubb3d.cli import main; main()"]


def _run(*args, **kw):
    return run_python([*CLI[1:], *args], timeout=120, **kw)


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path):
    # `kubb3d match | head -1`: exit 141 (as a program ended by SIGPIPE), nothing on stderr
    for args in (["match", "--round-cap", "3"], ["rules", "show", "dm"]):
        proc = subprocess.Popen([*CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
        proc.stdout.readline()
        proc.stdout.close()
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=120) == 141, err
        assert err == ""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_stdout_is_one_line():
    with open("/dev/full", "w") as full:
        res = subprocess.run([*CLI, "rules", "show", "dm"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert "Traceback" not in res.stderr
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "No space left" in res.stderr


def test_an_ascii_terminal_gets_the_german_match(tmp_path):
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    res = _run("match", "--round-cap", "3", "--lang", "de", env=env, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr and "gewinnt" in res.stdout


def test_a_closed_stdin_ends_the_quiz(tmp_path):
    cmd = " ".join([*(f"'{a}'" for a in CLI), "quiz", "--no-images", "--count", "1", "<&-"])
    res = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "(end of input)" in res.stdout and "Score: 0 of 0" in res.stdout


def test_a_replay_cut_inside_a_character_resumes(tmp_path):
    from kubb3d.match import Match, MatchConfig

    path = tmp_path / "r.jsonl"
    m = Match(MatchConfig(seed=1, round_cap=3), replay=path)
    for _ in range(4):
        m.step()
    m.close()
    whole = path.read_bytes()
    path.write_bytes(whole + '{"type":"action","text":"Kö'.encode()[:-1])  # cut inside "ö"
    res = _run("match", "--resume", str(path), "-q", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert path.read_bytes().startswith(whole) and path.read_text().endswith("}\n")


def test_a_huge_title_is_refused_at_once(tmp_path):
    from pathlib import Path

    text = (Path(__file__).resolve().parent / "bad_inputs" / "scenario_tilt_str.toml").read_text()
    big = tmp_path / "big.toml"
    big.write_text(text.replace('tilt_deg = "30"', "tilt_deg = 30").replace(
        'title = "Kubb leaning on a field kubb at 30°"', 'title = "' + "x" * 5_000_000 + '"'))
    t0 = time.perf_counter()
    res = _run("view", str(big), "--screenshot", str(tmp_path / "v.png"))
    assert time.perf_counter() - t0 < 30  # a 1 MB title took 17 s in the view before the cap
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and len(res.stderr) < 400, res.stderr[:300]
    assert "at most 200 characters" in res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.toml"]


def test_the_reliability_page_names_the_bounds_in_force():
    from pathlib import Path

    from kubb3d import files
    from kubb3d.cli.experiment import MAX_WORKERS

    page = " ".join((Path(__file__).resolve().parents[1] / "docs" / "reliability.md").read_text().split())
    assert f"at most {MAX_WORKERS} on any backend" in page
    assert f".NAME{files.TMP_TAG}XXXXXXXX.tmp" in page
    res = _run("experiment", "run", "hit-8m", "--workers", str(MAX_WORKERS + 1))
    assert res.returncode == 2 and f"expected from 1 to {MAX_WORKERS}" in res.stderr

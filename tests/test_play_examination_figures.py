"""The figures of the play examinations (docs/examinations/2026-12-07-play.md,
2026-12-07-kubbuteo-play.md, 2026-12-07-ws-play.md and 2026-12-07-ws-invalid.md) that come from
the positions stored in tests/data/ are what the examinations' commands print for them:
``benchmarks/referee_play.py --load tests/data/play_positions.json``,
``benchmarks/kubbuteo_referee_play.py --load tests/data/kt_play_positions.json`` and
``benchmarks/ws_referee_play.py --load tests/data/ws_play_positions.json`` (or
``ws_invalid_positions.json``) (about 1 s CPU each). The counts of the full runs (hundreds of
matches, CPU-hours) are records of those runs, with their command, date and load, and are not
remade here."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import run_python

ROOT = Path(__file__).resolve().parents[1]
EXAMS = ROOT / "docs" / "examinations"
NUMBER_WORDS = {"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}


def _doc(name: str) -> str:
    return " ".join((EXAMS / name).read_text(encoding="utf-8").split())


def _cases(script: str, data: str) -> dict[tuple[int, int], dict]:
    """``{(seed, call): {"name", "players", "lines"}}`` from the command's output on the stored
    cases: the case line and the checks printed under it."""
    out = run_python([str(ROOT / "benchmarks" / script), "--load", str(ROOT / "tests" / "data" / data)], check=True,
                     timeout=300, cwd=ROOT).stdout
    cases: dict[tuple[int, int], dict] = {}
    current = None
    for line in out.splitlines():
        head = re.fullmatch(r"case (\S+): seed (\d+) call (\d+) (\w+), (\S+)", line)
        if head:
            current = {"name": head.group(1), "players": head.group(5), "lines": []}
            cases[(int(head.group(2)), int(head.group(3)))] = current
        elif line.startswith("  ") and current is not None:
            current["lines"].append(line.strip())
    return cases


def _figure(lines: list[str], pattern: str) -> str:
    found = [m for m in (re.search(pattern, line) for line in lines) if m]
    assert len(found) == 1, (pattern, lines)
    return found[0].group(1)


@pytest.fixture(scope="module")
def dm_cases():
    return _cases("referee_play.py", "play_positions.json")


@pytest.fixture(scope="module")
def kt_cases():
    return _cases("kubbuteo_referee_play.py", "kt_play_positions.json")


def test_dm_finding_1_quotes_the_stored_rocked_back_kubbs(dm_cases):
    doc = _doc("2026-12-07-play.md")
    first, largest = dm_cases[(14, 21)], dm_cases[(98, 73)]
    assert first["name"] == "rocked-back-standing" and first["players"] == "club,club"
    assert largest["name"] == "rocked-back-standing-41deg" and largest["players"] == "elite,elite"
    assert (
        "(`rocked-back-standing`, seed 14 call 21; `rocked-back-standing-41deg`, seed 98 with elite players, call 73)"
        in doc
    )
    # the top of the range of the 24 cases' tilts is the stored seed 98 kubb's
    top = _figure(largest["lines"], r"DIFFER throw:ruling A1: .*max tilt ([0-9.]+) deg")
    assert f"tilted 22.9°–{top}°" in doc and f"run from 22.9° to {top}° (seed 98, A1)" in doc
    # the world's record of seed 14's A2 agrees with the tilt read from its trajectory
    a2 = float(_figure(first["lines"], r"DIFFER throw:ruling A2: .*max tilt ([0-9.]+) deg"))
    quoted = float(re.search(r"A2's tilt peaked at ([0-9.]+)°", doc).group(1))
    assert abs(a2 - quoted) < 0.1 and 22.9 <= a2 <= float(top)


def test_kt_figures_of_the_stored_positions(kt_cases):
    from kubb3d.equipment import KUBBUTEO

    doc = _doc("2026-12-07-kubbuteo-play.md")
    count = re.search(r"judges the (\w+) positions stored in tests/data/kt_play_positions.json", doc).group(1)
    assert NUMBER_WORDS[count] == len(kt_cases)
    # finding 2: the rocked-back kubb
    rocked = kt_cases[(9, 47)]
    assert rocked["name"] == "rocked-back-standing"
    lean = _figure(rocked["lines"], r"DIFFER flick:ruling B4: .*max lean ([0-9.]+)/")
    tipping = math.degrees(KUBBUTEO.kubb.tipping_angle_towards(0.0))
    assert f"--seed 9`, call 47 of the recording (B4, {lean}° towards a face against {tipping:.1f}°)" in doc
    # finding 1: the baseline kubb stood up again, then knocked over again
    again = kt_cases[(13, 85)]
    turned = _figure(again["lines"], r"DIFFER flick:ruling\(stood up earlier\) B5: .*max lean [0-9.]+/([0-9.]+) deg")
    assert f"knocks B5 over again (it turned {float(turned):.0f}° in its plane)" in doc
    assert "seeds 13 (call 85)" in doc and "stored position of seed 13 call 85" in doc
    assert kt_cases[(1, 117)]["name"] == "baseline-kubb-while-field-kubbs-stand" and "seed 1 call 117" in doc
    # finding 5: the disk held up by another
    held = kt_cases[(2, 135)]
    tilt = _figure(held["lines"], r"agree flick:status B2: mine False kubb3d False \(half B, tilt ([0-9.]+) deg")
    push = re.fullmatch(r"contact A5 B2: ([0-9.]+) mN \(weights \d+ mN, (\d+) mN\)", held["lines"][-1])
    assert push, held["lines"][-1]
    said = f"in seed 2 call 135 B2 rested tilted {tilt}°, touching A5 with {push[1]} mN (its weight is {push[2]} mN)"
    assert said in doc
    assert f"so it tips at {tipping:.1f}°" in doc


def test_kt_test_count_is_the_collected_count():
    doc = _doc("2026-12-07-kubbuteo-play.md")
    quoted = int(re.search(r"tests/kubbuteo/test_kt_play_referee.py \((\d+) cases", doc).group(1))
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
         "tests/kubbuteo/test_kt_play_referee.py"],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    ).stdout
    collected = [line for line in out.splitlines() if "::" in line]
    assert len(collected) == quoted, out[-500:]


@pytest.fixture(scope="module")
def ws_cases():
    return _cases("ws_referee_play.py", "ws_play_positions.json")


def test_ws_findings_quote_the_stored_positions(ws_cases):
    # docs/examinations/2026-12-07-ws-play.md: finding 1 (the turned front kubb of seed 4 call 42)
    # and finding 2 (the kubb an inkast moved 5.4 mm, seed 45 call 26), as the command prints them
    doc = _doc("2026-12-07-ws-play.md")
    line = ws_cases[(4, 42)]
    assert line["name"] == "advance-line-turned-kubb"
    m = re.fullmatch(
        r"line: played x ([0-9.]+), front line ([0-9.]+) \(([0-9.]+) mm in front\), "
        r"front kubb (\w+) turned ([0-9.]+) deg",
        _figure(line["lines"], r"^(line: .*)$"),
    )
    assert m is not None
    played, front, ahead, kubb, yaw = m.groups()
    assert f"its base's rearmost corner at x = {front} m" in doc
    assert f"B threw from x = {played} m, {ahead} mm in front of it" in doc
    assert f"B's front kubb {kubb} stands turned {yaw}° about the vertical" in doc
    moved = ws_cases[(45, 26)]
    assert moved["name"] == "inkast-moves-a-kubb-a-little"
    shift = _figure(moved["lines"], r"DIFFER inkast:moved-other \w+: .*shift ([0-9.]+) mm")
    assert f"Seeds 45 ({shift} mm)" in doc and f"The kubb moved {shift} mm of finding 2" in doc


@pytest.fixture(scope="module")
def ws_invalid_cases():
    return _cases("ws_referee_play.py", "ws_invalid_positions.json")


def test_ws_invalid_findings_quote_the_stored_positions(ws_invalid_cases):
    # docs/examinations/2026-12-07-ws-invalid.md: the helicopter, the king throw from in front of
    # the baseline and the kubb counted after a foul, as the command prints them
    doc = _doc("2026-12-07-ws-invalid.md")
    heli = ws_invalid_cases[(6, 34)]
    assert heli["name"] == "helicopter"
    rps = _figure(heli["lines"], r"AGREE throw:helicopter -: mine True kubb3d True .* ([0-9.]+) rev/s about")
    axis = _figure(heli["lines"], r"AGREE throw:helicopter -: .* axis (\d+) deg off it")
    assert f"turned at {rps} rev/s about the vertical, its axis {axis} deg off it" in doc
    king = ws_invalid_cases[(8, 50)]
    assert king["name"] == "king-throw-from-nearer-the-centre"
    toe, line = re.search(
        r"toe ([0-9.]+) \(after the step [0-9.]+\), line ([0-9.]+);",
        _figure(king["lines"], r"^(AGREE throw:foot .*)$"),
    ).groups()  # type: ignore[union-attr]
    assert f"with the toe at x = {toe} m, B's baseline at {line} m" in doc
    assert _figure(king["lines"], r"AGREE throw:valid -: mine (\w+) kubb3d False") == "False"
    after = ws_invalid_cases[(6, 35)]
    assert after["name"] == "set-up-after-a-foul-then-knocked-over"
    assert _figure(after["lines"], r"AGREE throw:ruling (A5): mine counts kubb3d counts") == "A5"
    assert "counts A5 for both referees now" in doc
    # finding 1: seed 2 call 7, the same throw on main (valid there) and stored (invalid now)
    line_case = ws_invalid_cases[(2, 7)]
    assert line_case["name"] == "line-nearer-the-centre"
    toe, line = re.search(
        r"toe ([0-9.]+) \(after the step [0-9.]+\), line ([0-9.]+);",
        _figure(line_case["lines"], r"^(AGREE throw:foot .*)$"),
    ).groups()  # type: ignore[union-attr]
    assert f"B's toe stood at x = {toe} m, B's baseline at {line} m" in doc


@pytest.fixture(scope="module")
def ws_inkast_foul_cases():
    return _cases("ws_referee_play.py", "ws_inkast_foul_positions.json")


def test_ws_inkast_foul_figures_quote_the_stored_positions(ws_inkast_foul_cases):
    # docs/examinations/2026-12-07-ws-invalid.md, finding 7: where the kubbs of two stored
    # inkasts were thrown back from, as the command prints them
    doc = _doc("2026-12-07-ws-invalid.md")
    past = ws_inkast_foul_cases[(14, 6)]
    assert past["name"] == "inkast-toe-past-the-line"
    toe, line, cm = re.search(
        r"toe x ([0-9.]+), line ([0-9.]+), ([0-9.]+) cm past",
        _figure(past["lines"], r"^(AGREE inkast:from-line\(info, the toe past the line.* B5: .*)$"),
    ).groups()  # type: ignore[union-attr]
    assert f"B5 thrown back with the toe at x = {toe} m, {cm} cm past B's baseline at {line} m" in doc
    assert f"(WS {cm} cm," in doc
    front = ws_inkast_foul_cases[(8, 26)]
    assert front["name"] == "inkast-toe-past-the-baseline-behind-the-front-line"
    kind = r"inkast:from-line\(the toe past the baseline, behind the front line\)"
    toe, line = re.search(
        r"toe x (-[0-9.]+), line (-[0-9.]+)\)", _figure(front["lines"], rf"^(AGREE {kind} B5:.*)$")
    ).groups()  # type: ignore[union-attr]
    said = f"B5 was thrown with the toe at x = {toe} m, past A's baseline but behind A's front line at {line} m"
    assert said in doc


def test_dm_inkast_foul_figure_quotes_the_stored_position():
    doc = _doc("2026-12-07-ws-invalid.md")
    cases = _cases("referee_play.py", "dm_inkast_foul_positions.json")
    past = cases[(4, 63)]
    assert past["name"] == "inkast-toe-past-the-baseline"
    cm = _figure(past["lines"], r"agree inkast:from-line\(info, the toe past the baseline.* A4: .*, ([0-9.]+) cm past")
    assert f"DM {cm} cm)" in doc


def test_kt_invalid_figure_quotes_the_stored_position():
    # docs/examinations/2026-12-07-ws-invalid.md, finding 8: the king flick from in front of the
    # baseline, as the command prints it
    doc = _doc("2026-12-07-ws-invalid.md")
    cases = _cases("kubbuteo_referee_play.py", "kt_invalid_positions.json")
    king = cases[(12, 127)]
    assert king["name"] == "king-flick-from-in-front-of-the-baseline"
    said = _figure(king["lines"], r"agree flick:line\(info, at the king, from nearer the centre\) -: .*\((.*)\)$")
    assert f"seed 12 call 127, {said}, which knocks the king over" in doc
    assert _figure(king["lines"], r"agree flick:verdict king: mine (\(.*\)) kubb3d") == "('A', 'B')"

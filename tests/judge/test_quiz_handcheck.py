"""The quiz with piped stdin, and the physics hand check."""

import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kubb3d.handcheck import PhysicsHandCheck, equipment_for
from kubb3d.quiz import INKAST_CHOICES, THROW_CHOICES, parse_answer
from kubb3d.judge.rulings import Consequence
from kubb3d.snapshot import PieceState, Snapshot

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.gl  # draws the quiz's pictures
def test_quiz_with_piped_answers(judge_app, tmp_path):
    files = [
        str(ROOT / "scenarios" / "dm_leaning_on_field_kubb.toml"),
        str(ROOT / "scenarios" / "dm_king_felled_early.toml"),
    ]
    r = CliRunner().invoke(
        judge_app, ["quiz", *files, "--seed", "3", "--out", str(tmp_path)], input="4\ncounts as felled\n"
    )
    assert r.exit_code == 0, r.output
    assert "Score: 2 of 2" in r.output
    assert "DM §5" in r.output and "DM §1" in r.output
    pngs = sorted(p.name for p in tmp_path.glob("*.png"))
    assert pngs == [
        "dm_king_felled_early-side.png",
        "dm_king_felled_early-top.png",
        "dm_leaning_on_field_kubb-side.png",
        "dm_leaning_on_field_kubb-top.png",
    ]
    assert (tmp_path / pngs[0]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_quiz_order_follows_seed_and_ends_on_eof(judge_app, tmp_path):
    files = [
        str(ROOT / "scenarios" / n)
        for n in ("dm_leaning_on_field_kubb.toml", "dm_king_felled_early.toml", "dm_accident_wind.toml")
    ]
    runs = [CliRunner().invoke(judge_app, ["quiz", *files, "--seed", str(s), "--no-images"], input="") for s in (1, 1)]
    assert runs[0].output == runs[1].output
    assert "(end of input)" in runs[0].output and "Score: 0 of 0" in runs[0].output


def test_parse_answer():
    assert parse_answer("2", THROW_CHOICES) is Consequence.COUNTS_AS_FELLED
    assert parse_answer("Rethrow", INKAST_CHOICES) is Consequence.RETHROW
    assert parse_answer("9", THROW_CHOICES) is None


def _tilted(tilt_deg):
    a = math.radians(tilt_deg)
    hx, hz = 0.035, 0.075
    p = PieceState(
        "K",
        "kubb",
        "box",
        (hx, hx, hz),
        (0.0, 0.0, hx * math.sin(a) + hz * math.cos(a)),
        (0.0, math.sin(a / 2), 0.0, math.cos(a / 2)),
        0.4557,
    )
    return Snapshot(0.0, {"K": p})


def test_physics_hand_check_around_the_tipping_angle():
    hc = PhysicsHandCheck()
    assert hc(_tilted(22.0), "K") is True
    assert hc(_tilted(28.0), "K") is False
    assert hc.calls == 2
    assert equipment_for(_tilted(10.0)).name == "standard"

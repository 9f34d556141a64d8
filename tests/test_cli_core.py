"""`kubb3d throw`, `kubb3d models`: output and bad-input errors."""

import json

import pytest



def test_throw_target_b3_json_reports_b3_toppled_and_legal(cli):
    r = cli("throw", "--target", "B3", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["legal"] is True
    assert "B3" in doc["toppled"]
    assert doc["first_contact"]["piece"] == "B3"
    assert doc["violations"] == []


@pytest.mark.parametrize(
    "args, words",
    [
        (["--speed", "nan"], "speed"),
        (["--speed", "-3"], "speed"),
        (["--target", "Z9"], "unknown target"),
        (["--side", "C"], "side"),
        (["--terrain-cm", "-1"], "terrain"),
    ],
)
def test_throw_bad_input_is_one_line_exit_2(args, words, cli):
    r = cli("throw", *args)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and words in lines[0], r.stderr


def test_throw_human_readable_output_mentions_the_ruling(cli):
    r = cli("throw", "--target", "B1", "--tilt-deg", "40")
    assert r.returncode == 0, r.stderr
    assert "DM §5" in r.stdout and "illegal" in r.stdout


def test_throw_at_the_king_says_an_early_king_loses_in_english_and_german(cli):
    # `throw --target king` at the standard set-up reported "toppled: king" and "legal throw"
    # and nothing about the rule: with B1-B5 standing the king felled loses (DM §10, §1)
    en = cli("throw", "--target", "king")
    de = cli("throw", "--target", "king", "--lang", "de")
    assert en.returncode == 0 and de.returncode == 0, en.stderr + de.stderr
    en_text, de_text = (" ".join(r.stdout.split()) for r in (en, de))
    assert ("Throwing at the king before every field and baseline kubb of side B's half is down: B1, B2, B3, "
            "B4, B5 still stand, so a king felled now loses the game for side A. [DM §10, DM §1]") in en_text
    assert ("Wurf auf den König, bevor alle Feld- und Grundlinienkubbs der Feldhälfte von Seite B gefallen "
            "sind: B1, B2, B3, B4, B5 stehen noch, also verliert Seite A das Spiel, wenn der König jetzt fällt. "
            "[DM §10, DM §1]") in de_text
    # the aim solver's baton fells the king: the referee's ruling with its rule, in both languages
    assert "ruling: king fallen → game lost [DM §1]" in en_text
    assert "Entscheidung: König gefallen → Spiel verloren [DM §1]" in de_text
    assert "so side A loses" in en_text and "also verliert Seite A" in de_text
    for english in ("legal throw", "toppled", "first contact", "at rest"):
        assert english not in de_text, english
    doc = json.loads(cli("throw", "--target", "king", "--json").stdout)
    assert doc["king_warning"]["rules"] == ["DM §10", "DM §1"]
    assert [(r["consequence"], r["rules"]) for r in doc["rulings"] if r["piece"] == "king"] == [
        ("game lost", ["DM §1"])
    ]
    ws = json.loads(cli("throw", "--target", "king", "--ruleset", "wikinger", "--json").stdout)
    assert ws["king_warning"]["rules"] == ["WS End of the Game"]


def test_throw_at_a_kubb_gives_no_king_warning_and_rules_the_kubb(cli):
    doc = json.loads(cli("throw", "--target", "B3", "--json").stdout)
    assert "king_warning" not in doc
    assert {r["piece"]: r["consequence"] for r in doc["rulings"]}["B3"] == "counts as felled"


def test_models_check_passes_on_the_committed_files(cli):
    r = cli("models", "check")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "match a fresh build" in r.stdout


def test_bench_runs_and_reports_the_ratio(cli):
    r = cli("bench", "--throws", "3")
    assert r.returncode == 0, r.stderr
    assert "kubb3d / bare" in r.stdout and "memory of one World" in r.stdout
    # what it is doing, phase by phase, on stderr (the table alone on stdout)
    assert "bench: timing 3 full throws" in r.stderr and "bench: equivalence check" in r.stderr
    assert "bench: timing" not in r.stdout


def test_json_output_is_pure_json_without_the_pybullet_banner(cli):
    r = cli("throw", "--target", "B2", "--json")
    assert r.returncode == 0, r.stderr
    json.loads(r.stdout)
    assert "pybullet build time" not in r.stdout + r.stderr


@pytest.mark.parametrize(
    "args, words",
    [
        (["throw", "--speed", "1e7"], "at most 40 m/s"),
        (["throw", "--seed", "-1"], "--seed"),
        (["match", "--seed", "-1", "--quiet"], "--seed"),
        (["models", "build", "--out", "/proc/no-such-folder/x"], "does not exist (it is not created)"),
    ],
)
def test_user_mistakes_found_by_a_break_it_session_exit_2_without_traceback(cli, args, words):
    r = cli(*args)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert words in r.stderr


def test_view_of_a_kubbuteo_scenario_draws_the_board(cli, tmp_path, root):
    """Issue 18 item 2: the view draws the Kubbuteo board (it used to refuse with exit 2)."""
    from PIL import Image

    out = tmp_path / "kt.png"
    r = cli("view", str(root / "scenarios" / "kt_king_flick_wins.toml"), "--screenshot", str(out),
            "--width", "640", "--height", "360")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    import numpy as np

    img = np.asarray(Image.open(out).convert("RGB")).astype(int)
    assert img.shape == (360, 640, 3)
    red, green, blue = img[..., 0], img[..., 1], img[..., 2]
    assert ((red > green) & (green > blue) & (red > 150)).mean() > 0.05  # the board's pale wood


def test_a_json_invocation_does_not_turn_the_next_ones_errors_into_json():
    """In one process (a notebook, a test runner), `--json` of one call must not make a later
    call without it print its error as JSON on stdout (it leaked from `rules show --json` into
    the dames CLI's bad-flag errors)."""
    from typer.testing import CliRunner

    from kubb3d.cli import _register_subapps, app

    _register_subapps()
    runner = CliRunner()
    assert runner.invoke(app, ["rules", "show", "dm", "--json"]).exit_code == 0
    from kubb3d.cli.dames import app as dames_app  # a sub-app called directly, as its tests do

    refused = runner.invoke(dames_app, ["play", "--players", "wizard"])
    assert refused.exit_code == 2 and refused.stdout == "", refused.stdout
    as_json = runner.invoke(app, ["throw", "--speed", "-3", "--json"])
    assert as_json.exit_code == 2 and "speed" in json.loads(as_json.stdout)["error"]

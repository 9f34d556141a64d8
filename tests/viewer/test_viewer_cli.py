"""`kubb3d play` / `kubb3d view`: user mistakes give one line and exit code 2; no pyglet on import."""

import subprocess
import sys

from cli_process import run_python


def test_import_and_help_do_not_load_pyglet():
    code = (
        "import sys, kubb3d, kubb3d.viewer, kubb3d.viewer.scene, kubb3d.viewer.controls, kubb3d.cli.viewer; "
        "print('pyglet' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_view_missing_file_and_bad_flags(tmp_path, cli):
    run_cli = cli
    r = run_cli("view", str(tmp_path / "nope.jsonl"), "--screenshot", str(tmp_path / "x.png"))
    assert r.returncode == 2 and "no such file" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    r = run_cli("view", str(tmp_path), "--screenshot", str(tmp_path / "x.png"))  # a folder that exists
    assert r.returncode == 2 and r.stderr.strip() == f"error: replay file {tmp_path} is a folder, not a file", r.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text("hello\n{}\n")
    r = run_cli("view", str(bad), "--screenshot", str(tmp_path / "x.png"))
    assert r.returncode == 2 and "bad.jsonl:1" in r.stderr and "Traceback" not in r.stderr
    r = run_cli("play", "--after", "2")
    assert r.returncode == 2 and "--screenshot" in r.stderr
    r = run_cli("play", "--screenshot", str(tmp_path / "x.jpg"))
    assert r.returncode == 2 and ".png" in r.stderr


def test_play_screenshot_headless(tmp_path, cli):
    run_cli = cli
    out = tmp_path / "start.png"
    r = run_cli("play", "--screenshot", str(out), "--width", "320", "--height", "180")
    assert r.returncode == 0, r.stderr
    from PIL import Image

    img = Image.open(out)
    assert img.size == (320, 180)


def test_view_and_show_take_a_shipped_scenario_by_name(tmp_path, cli):
    # judge and quiz took `kt_return_short`, view refused it ("no such file"), and from an
    # installed wheel there is no scenarios/ folder to give a path in
    out = tmp_path / "kt.png"
    r = cli("view", "kt_return_short", "--screenshot", str(out), "--width", "320", "--height", "180")
    assert r.returncode == 0 and out.is_file(), r.stderr
    r = cli("view", "no_such_scenario")
    assert r.returncode == 2 and "kubb3d scenario list" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    import kubb3d

    png = tmp_path / "dm.png"
    assert kubb3d.show("dm_king_felled_early", png, width=320, height=180) == png and png.is_file()


def test_play_opponent_screenshot_for_every_ruleset(tmp_path, cli):
    """`play --opponent` headless for every ruleset `--ruleset` accepts (WS's teams T1/T2 too:
    the person plays the first player, T1 there, P1 in a duel)."""
    import pytest
    from PIL import Image

    from kubb3d.judge.rulebook import ruleset_enum

    names = [e.value for e in ruleset_enum()]
    assert {"dm", "wikinger", "ws", "kubbuteo", "kt"} <= set(names)
    for name in names:
        out = tmp_path / f"{name}.png"
        size = ("--width", "160", "--height", "90")
        args = ("--ruleset", name, "--opponent", "club", "--seed", "1", "--after", "3", "--screenshot", str(out), *size)
        r = cli("play", *args)
        if r.returncode != 0:
            pytest.fail(f"--ruleset {name}: {r.stderr.strip()}")
        assert Image.open(out).size == (160, 90)


def test_play_match_options_agree_on_where_they_are_taken(tmp_path, cli):
    """`--option`, `--replay`, `--round-cap`, `--best-of` are a match's (--opponent): refused
    with free throws and with a drill by messages that say the same; `--difficulty` is taken
    by a match and a drill, refused with free throws."""
    shot = ("--screenshot", str(tmp_path / "x.png"))
    given = {
        "--option": ("--option", "max_tilt_deg=20"),
        "--replay": ("--replay", str(tmp_path / "m.jsonl")),
        "--round-cap": ("--round-cap", "4"),
        "--best-of": ("--best-of", "3"),
    }
    modes = {"free throws": shot, "--challenge drills": ("--challenge", "king", "--auto")}
    for flag, args in given.items():
        for here, mode in modes.items():
            r = cli("play", *mode, *args)
            assert r.returncode == 2 and "Traceback" not in r.stderr, (flag, here, r.stderr)
            line = f"error: {flag} needs --opponent (a match): {here} take no such option"
            assert r.stderr.strip() == line, (flag, here)
    r = cli("play", *shot, *given["--option"], *given["--round-cap"])
    line = "error: --round-cap and --option need --opponent (a match): free throws take no such options"
    assert r.stderr.strip() == line
    r = cli("play", *shot, "--difficulty", "easy")
    line = "error: --difficulty needs --opponent (a match) or --challenge (a drill): free throws are exact"
    assert r.returncode == 2 and r.stderr.strip() == line
    assert not (tmp_path / "x.png").exists() and not (tmp_path / "m.jsonl").exists()
    # taken: --option with a match, --difficulty with a drill
    size = ("--width", "64", "--height", "36")
    r = cli("play", "--opponent", "club", "--option", "max_tilt_deg=20", "--round-cap", "3", *shot, *size)
    assert r.returncode == 0, r.stderr
    import json

    (tmp_path / "data").mkdir()
    import os

    drill = ("play", "--challenge", "king", "--auto", "--difficulty", "easy", "--json")
    env = {**os.environ, "KUBB3D_DATA_DIR": str(tmp_path / "data")}
    main = "from kubb3d.cli import main; main()"
    r = run_python(["-c", main, *drill], cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["difficulty"] == "easy"


def test_the_readmes_wikinger_schach_command_starts_a_match_against_the_computer(tmp_path, cli):
    """README.md's command for Wikinger-Schach against the computer, run headless (its own words
    plus --screenshot): it starts a WS match of team T1 against a simulated T2."""
    import re
    import shlex
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    found = re.findall(r"Wikinger-Schach against the computer:\s*`(kubb3d play [^`]+)`", readme)
    assert len(found) == 1, "README.md shows no command for Wikinger-Schach against the computer"
    words = shlex.split(found[0])[1:]
    assert words[words.index("--ruleset") + 1] in ("ws", "wikinger") and "--opponent" in words
    out = tmp_path / "ws.png"
    r = cli(*words, "--seed", "1", "--after", "2", "--screenshot", str(out), "--width", "160", "--height", "90")
    assert r.returncode == 0 and out.is_file(), r.stderr
    help_text = cli(*words, "--help").stdout
    assert "team T1" in help_text  # the --opponent help names the side the person plays in WS

"""A truncated replay (cut inside its last line, or without its result line) is read as far as
it goes by every command that reads replays, with the same one-line warning on stderr
(kubb3d.replay.read_replay, the one reader); a whole replay gives none, a resume none."""

from pathlib import Path

import pytest
from cli_process import run_kubb3d

WHOLE = Path(__file__).parent / "data" / "replay_before_message_ids.jsonl"


def _commands(path: Path, out: Path):
    return {
        "stats": ("stats", str(path)),
        "notation": ("notation", str(path)),
        "export --html": ("export", str(path), "--html", str(out / "m.html")),
        "export --gltf": ("export", str(path), "--gltf", str(out / "m.glb")),
        "view": ("view", str(path), "--screenshot", str(out / "m.png"), "--width", "64", "--height", "36"),
        "whatif": ("whatif", str(path), "--at", "10", "--samples", "1"),
    }


def _cut_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    text = WHOLE.read_text()
    lines = text.splitlines(keepends=True)
    actions = sum('"type":"action"' in line for line in lines)
    assert lines[-1].startswith('{"type":"outcome"') and actions >= 12
    cut = tmp_path / "cut.jsonl"  # cut inside the result line
    cut.write_text("".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])
    nores = tmp_path / "nores.jsonl"  # whole lines, the result line missing
    nores.write_text("".join(lines[:-1]))
    return {
        "cut": (cut, f"warning: {cut}: last line incomplete (cut off?); {actions} actions read, no result"),
        "nores": (
            nores,
            f"warning: {nores}: no result line (cut off, or the match was not finished); {actions} actions read",
        ),
    }


@pytest.mark.parametrize("kind", ["cut", "nores"])
def test_every_replay_reader_warns_in_one_line(tmp_path, cli, kind):
    path, warning = _cut_files(tmp_path)[kind]
    for name, args in _commands(path, tmp_path).items():
        for f in tmp_path.glob("m.*"):
            f.unlink()
        r = cli(*args)
        assert r.returncode == 0, (name, r.stderr)
        assert [line for line in r.stderr.splitlines() if line.startswith("warning:")] == [warning], (name, r.stderr)


def test_a_whole_replay_gives_no_warning(tmp_path, cli):
    for name, args in _commands(WHOLE, tmp_path).items():
        if name in ("stats", "notation", "export --html"):
            r = cli(*args)
            assert r.returncode == 0 and "warning" not in r.stderr, (name, r.stderr)


def test_a_resume_reads_a_cut_replay_without_a_warning(tmp_path):
    import warnings

    from kubb3d.files import InputWarning
    from kubb3d.replay import read_replay

    path, _ = _cut_files(tmp_path)["cut"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", InputWarning)
        rp = read_replay(path, warn=False)
        assert not any(r.type == "outcome" for _, r, _ in rp.records)
        with pytest.raises(InputWarning):
            read_replay(path)


@pytest.mark.parametrize("env, lang", [({"LANG": "de_DE.UTF-8"}, None), ({"LANG": "C.UTF-8"}, "de")])
def test_the_warning_speaks_the_command_lines_language(tmp_path, env, lang):
    """With LANG=de_DE.UTF-8 (or --lang de on a command that has it) the warning line is German,
    as the error lines are (tests/test_error_language.py); the path stays as it is."""
    import os

    path, _ = _cut_files(tmp_path)["cut"]
    actions = sum('"type":"action"' in line for line in WHOLE.read_text().splitlines())
    clean = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    args = ["notation", str(path), *(["--lang", lang] if lang else [])]
    r = run_kubb3d(*args, timeout=120, cwd=tmp_path, env={**clean, **env})
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines() == [
        f"Warnung: {path}: letzte Zeile unvollständig (abgeschnitten?); {actions} Aktionen gelesen, kein Ergebnis"
    ]

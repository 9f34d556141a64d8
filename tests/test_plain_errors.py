"""Error lines in the user's terms, not the code's: no Python type or exception names, the
kind of number an option wants, the Python API's own words, a scenario's file type."""

import json

import pytest


def test_a_number_option_given_a_word_says_which_number(cli):
    for args, line in (
        (("match", "--seed", "abc"), "error: --seed: expected an integer (0 or more), got abc"),
        (("play", "--width", "abc"), "error: --width: expected an integer, got abc"),
        (("play", "--round-cap", "x"), "error: --round-cap: expected an integer (from 3 to 10000), got x"),
        (("view", "x.jsonl", "--at", "abc"), "error: --at: expected a number, got abc"),
        (("match", "--seed", "-1"), "error: --seed: expected 0 or more, got -1"),
    ):
        r = cli(*args)
        assert r.returncode == 2 and r.stderr.strip() == line, (args, r.stderr)


def test_a_replay_header_without_schema_names_the_field(tmp_path):
    from kubb3d.replay import ReplayError, read_replay

    for schema, words in (
        (None, "schema: missing in the header line, expected 2"),
        ("two", "schema: not a number, expected 2"),
        (1, "replay schema 1, expected 2"),
    ):
        path = tmp_path / "r.jsonl"
        head = {"type": "header"} if schema is None else {"type": "header", "schema": schema}
        path.write_text(json.dumps(head) + "\n")
        with pytest.raises(ReplayError) as err:
            read_replay(path)
        assert (
            f"{path}:1: {words}" in str(err.value)
            and "NoneType" not in str(err.value)
            and "str" not in str(err.value).split(":")[-1]
        )


def test_a_broken_best_score_file_says_what_is_wrong_in_words(tmp_path):
    from kubb3d.challenges import BestScores, ChallengeError

    (tmp_path / "challenges.json").write_text('{"best": {')
    with pytest.raises(ChallengeError) as err:
        BestScores(tmp_path)
    assert (
        str(err.value)
        == f"{tmp_path / 'challenges.json'}: not a best-score file (not JSON: line 1, column 11); move it away"
    )
    (tmp_path / "challenges.json").write_bytes(b"\xff\xfe")
    with pytest.raises(ChallengeError, match=r"not UTF-8 text"):
        BestScores(tmp_path)


def test_show_names_the_python_argument_not_the_cli_option(tmp_path):
    import kubb3d
    from kubb3d.files import FileSafetyError

    out = tmp_path / "start.png"
    out.write_bytes(b"")
    with pytest.raises(FileSafetyError) as err:
        kubb3d.show("dm_field_kubb", out)
    assert "(or force=True to replace it)" in str(err.value) and "--force" not in str(err.value)


def test_a_json_scenario_is_told_that_scenarios_are_toml(tmp_path, cli):
    path = tmp_path / "s.json"
    path.write_text('{"ruleset": "dm"}')
    r = cli("judge", str(path))
    assert (
        r.returncode == 2
        and r.stderr.strip() == f"error: scenario {path}: a JSON file; scenarios are TOML files (.toml)"
    )


def _replay_with(tmp_path, change):
    """The test replay with its first action of a type changed by ``change`` (a dict → None)."""
    from pathlib import Path

    lines = (Path(__file__).parent / "data" / "replay_before_message_ids.jsonl").read_text().splitlines()
    for i, line in enumerate(lines):
        d = json.loads(line)
        if d.get("type") == "action" and change(d["action"]):
            lines[i] = json.dumps(d)
            break
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_an_illegal_or_unknown_recorded_action_is_told_in_words(tmp_path, cli):
    def other_side(a):
        if a.get("type") != "BatonThrow":
            return False
        a["side"] = "B" if a["side"] == "A" else "A"
        return True

    path = _replay_with(tmp_path, other_side)
    for args in (("stats", str(path)), ("whatif", str(path), "--at", "12", "--samples", "1")):
        r = cli(*args)
        assert r.returncode == 2, r.stderr
        line = r.stderr.strip()
        assert "baton throw (side " in line and "is not legal now" in line and "; legal: baton throw (side " in line, (
            line
        )
        assert "BatonThrow(" not in line and "kubb3d-whatif" not in line and str(path) in line or path.name in line, (
            line
        )
    path = _replay_with(tmp_path, lambda a: a.get("type") == "LagThrow" and a.update(type="Lagthrow") is None)
    for args in (("stats", str(path)), ("whatif", str(path), "--at", "3", "--samples", "1")):
        r = cli(*args)
        line = r.stderr.strip()
        assert r.returncode == 2 and "unknown action type 'Lagthrow'; expected one of BatonThrow, Choose," in line, line
        assert "other physics" not in line and "kubb3d-whatif" not in line and "[" not in line, line

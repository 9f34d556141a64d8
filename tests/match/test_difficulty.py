"""The person's release error (``kubb3d play --difficulty``, issue 34 item 2): the simulated
presets' noise scaled by the power factor, drawn from the match's own generators."""

from __future__ import annotations

import json
from dataclasses import asdict

import numpy as np
import pytest

from kubb3d.errors import UnknownNameError
from kubb3d.match import Match, MatchConfig
from kubb3d.match.human import DIFFICULTIES, POWER_FACTOR_RANGE, person_release, power_factor, strategy_person
from kubb3d.players import FLICK_SKILLS, SKILLS
from kubb3d.replay import read_replay
from kubb3d.throw import FlickParams, ThrowParams


def _spread(difficulty: str, intended, reference: float, n: int = 4000) -> dict[str, float]:
    rng = np.random.default_rng(11)
    rows = [person_release(intended, rng, difficulty, reference) for _ in range(n)]
    return {
        "speed_rel": float(np.std([r.speed / intended.speed for r in rows])),
        "azimuth": float(np.std([r.azimuth_deg for r in rows])),
    }


def test_the_error_at_the_computers_power_is_the_presets_and_doubles_at_twice_the_power():
    intended = ThrowParams(speed=9.0, azimuth_deg=1.0, elevation_deg=20.0)
    for difficulty, preset in DIFFICULTIES.items():
        if preset is None:
            continue
        at_one = _spread(difficulty, intended, reference=9.0)
        # the preset's own standard deviations (kubb3d.players.SKILLS), within sampling error (~3 %)
        assert at_one["azimuth"] == pytest.approx(SKILLS[preset].azimuth_sd_deg, rel=0.06)
        assert at_one["speed_rel"] == pytest.approx(SKILLS[preset].speed_rel_sd, rel=0.06)
        # twice as hard as the computer would throw: twice the spread (the same normals drawn)
        at_two = _spread(difficulty, intended, reference=4.5)
        assert at_two["azimuth"] == pytest.approx(2 * at_one["azimuth"], rel=1e-9)
    spreads = [_spread(d, intended, 9.0)["azimuth"] for d in ("easy", "club", "elite")]
    assert spreads == sorted(spreads, reverse=True)


def test_flicks_take_the_flick_presets_noise():
    intended = FlickParams(speed=1.2, azimuth_deg=0.0)
    for difficulty in ("easy", "club", "elite"):
        at_one = _spread(difficulty, intended, reference=1.2)
        assert at_one["azimuth"] == pytest.approx(FLICK_SKILLS[DIFFICULTIES[difficulty]].azimuth_sd_deg, rel=0.06)


def test_exact_draws_nothing_and_the_factor_is_clipped():
    rng = np.random.default_rng(3)
    before = rng.bit_generator.state
    intended = ThrowParams(speed=7.0)
    assert person_release(intended, rng, "exact", 7.0) is intended
    assert rng.bit_generator.state == before
    lo, hi = POWER_FACTOR_RANGE
    assert power_factor(1.0, 10.0) == lo and power_factor(50.0, 10.0) == hi and power_factor(12.0, 10.0) == 1.2
    with pytest.raises(UnknownNameError, match="exact, easy, club, elite"):
        person_release(intended, rng, "pro", 7.0)
    with pytest.raises(UnknownNameError):
        MatchConfig(difficulty="pro")


def _logged(m: Match, name: str = "P1") -> list[dict]:
    """Let the strategy stand in for the person ``name``; the list of its answers (as dicts)."""
    answers: list[dict] = []
    person = strategy_person(m, name)

    def answer(req):
        p = person(req)
        answers.append(asdict(p))
        return p

    m.human[name] = answer
    return answers


def _person_throws(path, answers: list[dict]) -> list[dict]:
    """The throw records of a replay whose intended release is one the person answered."""
    rows = []
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        for th in rec.get("throws") or [] if rec["type"] == "action" else []:
            if th.get("intended") in answers:
                rows.append(th)
    return rows


@pytest.mark.parametrize("ruleset", ["dm", "kubbuteo"])
def test_the_replay_keeps_intended_and_actual_and_the_same_seed_gives_the_same_match(tmp_path, ruleset):
    runs, answers = {}, {}
    for name, difficulty in (("a", "club"), ("b", "club"), ("exact", "exact")):
        cfg = MatchConfig(ruleset=ruleset, seed=4, difficulty=difficulty, round_cap=3)
        m = Match(cfg, replay=tmp_path / f"{name}.jsonl", human=["P1"])
        answers[name] = _logged(m)
        m.run(max_actions=14)
        m.close()
        runs[name] = tmp_path / f"{name}.jsonl"
    assert runs["a"].read_bytes() == runs["b"].read_bytes()
    club, exact = _person_throws(runs["a"], answers["a"]), _person_throws(runs["exact"], answers["exact"])
    assert len(club) == len(answers["a"]) >= 2 and len(exact) == len(answers["exact"]) >= 2
    assert all(th["params"] == th["intended"] for th in exact)
    # with the error every release differs from the intended one, in speed and direction
    for th in club:
        assert th["params"]["speed"] != th["intended"]["speed"]
        assert th["params"]["azimuth_deg"] != th["intended"]["azimuth_deg"]
    # the first throw is the same request in both runs (the lag): the same intention, another release
    assert club[0]["intended"] == exact[0]["intended"]
    # the header names the difficulty (the replay reader accepts it) and only when it is not exact
    assert read_replay(runs["a"]).header.config.difficulty == "club"
    assert "difficulty" not in json.loads(runs["exact"].read_text().splitlines()[0])["config"]


def test_a_resumed_match_with_the_error_continues_bit_for_bit(tmp_path):
    cfg = MatchConfig(ruleset="dm", seed=9, difficulty="easy", round_cap=3)
    whole = Match(cfg, replay=tmp_path / "whole.jsonl", human=["P1"])
    _logged(whole)
    whole.run(max_actions=40)
    whole.close()
    part = Match(cfg, replay=tmp_path / "part.jsonl", human=["P1"])
    _logged(part)
    part.run(max_actions=22)
    part.close()  # interrupted here
    resumed = Match.resume(tmp_path / "part.jsonl")
    asked = _logged(resumed)
    assert resumed.config.difficulty == "easy"
    resumed.run(max_actions=40 - resumed.action_index)
    assert (tmp_path / "part.jsonl").read_bytes() == (tmp_path / "whole.jsonl").read_bytes()
    # the resumed part asked the person again, and released with the error again
    resumed_throws = _person_throws(tmp_path / "part.jsonl", asked)
    assert resumed_throws and all(th["params"] != th["intended"] for th in resumed_throws)


def test_the_cli_offers_every_difficulty_and_refuses_it_without_a_match(cli, tmp_path):
    from kubb3d.cli.viewer import DEFAULT_DIFFICULTY, Difficulty

    assert [d.value for d in Difficulty] == list(DIFFICULTIES) and DEFAULT_DIFFICULTY in DIFFICULTIES
    r = cli("play", "--difficulty", "easy", "--screenshot", str(tmp_path / "x.png"))
    assert r.returncode == 2 and "--difficulty needs --opponent" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "x.png").exists()
    r = cli("play", "--opponent", "club", "--difficulty", "pro", "--screenshot", str(tmp_path / "x.png"))
    assert r.returncode == 2 and "pro" in r.stderr and "Traceback" not in r.stderr


def test_the_replay_viewer_shows_the_intended_and_the_actual_release(tmp_path):
    from kubb3d.judge.messages import number_text
    from kubb3d.viewer.hud import last_throw_lines
    from kubb3d.viewer.replay import load_replay

    for difficulty in ("club", "exact"):
        path = tmp_path / f"{difficulty}.jsonl"
        m = Match(MatchConfig(ruleset="dm", seed=4, difficulty=difficulty, round_cap=3), replay=path, human=["P1"])
        answers = _logged(m)
        m.run(max_actions=14)
        m.close()
        person = _person_throws(path, answers)
        timeline, _, _ = load_replay(path)
        shown = [seg for seg in timeline.segments if (seg.info.get("throw") or {}).get("intended") in answers]
        assert len(shown) == len(person) >= 2
        for seg, th in zip(shown, person):
            lines = last_throw_lines(seg)
            want, got = th["intended"], th["params"]
            line = (  # the panel prints no negative zero (number_text)
                f"intended {want['speed']:.2f} m/s {number_text(want['azimuth_deg'], '+.1f')}°, "
                f"released {got['speed']:.2f} m/s {number_text(got['azimuth_deg'], '+.1f')}°"
            )
            # with the error the panel's last line names both releases; exact throws have none
            assert (lines[-1] == line) if difficulty == "club" else not any(s.startswith("intended") for s in lines)

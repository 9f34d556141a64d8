"""End-to-end matches in the physics world (short: small round caps), replays, resume, glitches, CLI."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

import kubb3d.match.flow as match_flow
from kubb3d.match import Match, MatchConfig, ReplayError
from kubb3d.cli.match import parse_players, register
from kubb3d.physics.world import PhysicsGlitch
from kubb3d.rules import Termination


def _records(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_short_dm_match_ends_and_same_seed_gives_identical_replay(tmp_path):
    cfg = MatchConfig(ruleset="dm", skills=("elite", "club"), seed=11, round_cap=5)
    outs = []
    for name in ("a.jsonl", "b.jsonl"):
        m = Match(cfg, replay=tmp_path / name)
        outs.append(m.run())
    assert outs[0] == outs[1] and outs[0] is not None
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    recs = _records(tmp_path / "a.jsonl")
    assert recs[0]["type"] == "header" and recs[-1]["type"] == "outcome"
    throws = [t for r in recs if r["type"] == "action" for t in r.get("throws", [])]
    assert throws and all("release" in t and t["trajectory"]["times_s"] for t in throws)
    # batons thrown per turn follow DM §4 until the match ended
    per_turn = {}
    for r in recs:
        if r["type"] == "action" and r["action"]["type"] in ("BatonThrow", "KingThrow"):
            key = next(e for e in r["events"] if e["kind"] == "throw")["turn_no"]
            per_turn[key] = per_turn.get(key, 0) + 1
    assert per_turn.get(1) == 2 and per_turn.get(2) == 4


def test_wikinger_match_with_clock_gives_points(tmp_path):
    cfg = MatchConfig(ruleset="wikinger", skills=("club", "club"), seed=3, time_limit_s=200.0, team_size=(3, 2))
    m = Match(cfg, replay=tmp_path / "ws.jsonl")
    out = m.run()
    assert out.termination in (Termination.TIME, Termination.KING, Termination.EARLY_KING)
    if out.termination == Termination.TIME:
        assert sorted(out.points.values()) in ([0, 0], [0, 1])
    else:
        assert sorted(out.points.values()) == [0, 2]
    members = {}
    for r in _records(tmp_path / "ws.jsonl"):
        if r["type"] == "action" and r["action"]["type"] == "BatonThrow":
            side = r["action"]["side"]
            members.setdefault(side, set()).add(r["action"]["thrower"])
    assert {len(v) for v in members.values()} <= {2, 3} and max(len(v) for v in members.values()) == 3


def test_resume_continues_exactly(tmp_path):
    cfg = MatchConfig(ruleset="dm", skills=("club", "elite"), seed=4, round_cap=4)
    full = tmp_path / "full.jsonl"
    out_full = Match(cfg, replay=full).run()
    part = tmp_path / "part.jsonl"
    with Match(cfg, replay=part) as m:  # interrupted: closed after 14 actions
        assert m.run(max_actions=14) is None
    with open(part, "a") as fh:
        fh.write('{"type": "action", "i": 99, "act')  # a line cut off by the interruption
    out = Match.resume(part).run()
    assert out == out_full
    assert part.read_bytes() == full.read_bytes()


def test_unreadable_replays_are_user_errors(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("")
    with pytest.raises(ReplayError, match="no header"):
        Match.resume(bad)
    bad.write_text('{"type": "header", "schema": 99}\n')
    with pytest.raises(ReplayError, match="schema 99"):
        Match.resume(bad)
    bad.write_text('{"type": "header"\n{"type": "world"}\n')
    with pytest.raises(ReplayError, match=":1: not a JSON line"):
        Match.resume(bad)


def test_physics_glitch_is_logged_and_the_throw_rerun(tmp_path, monkeypatch):
    calls = {"n": 0}
    real = match_flow.throw_iter

    def flaky(world, params, **kw):  # the match streams its throws: a generator of frames
        calls["n"] += 1
        run = real(world, params, **kw)
        yield next(run)  # the release frame has been shown when the glitch comes
        if calls["n"] == 3:
            raise PhysicsGlitch("baton1 became NaN (injected)")
        return (yield from run)

    monkeypatch.setattr(match_flow, "throw_iter", flaky)  # where the match throws on grass
    events = []
    m = Match(MatchConfig(ruleset="dm", seed=2, round_cap=3), replay=tmp_path / "g.jsonl", on_event=events.append)
    out = m.run()
    assert out is not None
    assert len(m.glitches) == 1 and "injected" in m.glitches[0]["reason"]
    assert any(e.kind == "glitch" and "repeated" in e.text for e in events)
    rec = next(
        r
        for r in _records(tmp_path / "g.jsonl")
        if r["type"] == "action" and any(e["kind"] == "glitch" for e in r["events"])
    )
    assert len(rec["throws"]) == 1  # the rerun throw is the one that counts


def test_parse_players():
    assert parse_players(None, "dm") == (("club", "club"), None)
    assert parse_players("elite,novice", "dm") == (("elite", "novice"), None)
    assert parse_players("6,4", "wikinger") == (("club", "club"), (6, 4))
    assert parse_players("elite:5,club", "wikinger") == (("elite", "club"), (5, 6))
    for bad in ("elite", "elite,pro", "club:0,club", "club:x,club"):
        with pytest.raises(ValueError):
            parse_players(bad, "wikinger")
    with pytest.raises(ValueError, match="wikinger only"):
        parse_players("6,4", "dm")


@pytest.fixture
def cli():
    app = typer.Typer()

    @app.callback()
    def _main() -> None:
        pass

    register(app)
    return app


@pytest.mark.parametrize(
    "args,msg",
    [
        (["--ruleset", "crokinole"], "unknown ruleset"),
        (["--players", "elite,god"], "unknown skill"),
        (["--sets", "0"], "--sets"),
        (["--time-limit", "-3"], "--time-limit"),
        (["--resume", "/nonexistent/x.jsonl"], "cannot read replay"),
    ],
)
def test_cli_user_mistakes_exit_2_with_one_line(cli, args, msg):
    r = CliRunner().invoke(cli, ["match", *args])
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and msg in lines[0]
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_cli_json_ends_with_outcome(cli, tmp_path):
    r = CliRunner().invoke(
        cli, ["match", "--seed", "5", "--round-cap", "3", "--json", "--replay", str(tmp_path / "r.jsonl")]
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert list(doc)[-1] == "outcome" and doc["outcome"]["termination"] in {t.name for t in Termination}
    assert any(e["kind"] == "throw" for e in doc["events"]) and (tmp_path / "r.jsonl").exists()


@pytest.mark.parametrize("ruleset", ["dm", "kubbuteo"])
def test_each_kubb_of_an_inkast_is_released_with_its_own_noise(ruleset):
    # every kubb of one inkast action used to draw from the same generator, so they all got the
    # same release error: Kubbuteo seed 13 turn 11 returned four kubbs each 16.6 % too fast and
    # 7.5 degrees off, and all four went off the board together
    from kubb3d.rules.core import Inkast

    m = Match(MatchConfig(ruleset=ruleset, skills=("club", "club"), seed=13, round_cap=8))
    try:
        while m.state.outcome() is None:
            r = m.step()
            if isinstance(r.action, Inkast) and len(r.throws) >= 2:
                break
        else:
            pytest.fail("no inkast of two or more kubbs")
    finally:
        m.close()
    errors = set()
    for t in r.throws:
        p, i = t["params"], t["intended"]
        errors.add((round(p["speed"] / i["speed"], 9), round(p["azimuth_deg"] - i["azimuth_deg"], 9)))
    assert len(errors) == len(r.throws)

"""Fouls and early kings in DM play: kubb3d's referee against the independent DM one.

docs/examinations/2026-12-07-ws-invalid.md: ``benchmarks/referee_play.py --invalid`` plays DM
matches in which some throws are made fouls (a tilt, a flat helicopter turn, a foot over the
line, a line nearer the centre) or thrown at the king. The calls stored in
tests/data/dm_invalid_positions.json (made with that command's ``--store``) are judged again
here, as played and under three relations (mirrored, ends swapped, kubbs renamed): kubb3d's
foot check now on the throw's recorded parameters and the line the match allowed (its tilt
check needs the flight: the match's is kept), kubb3d's judge on the stored snapshot with that
legality, and the independent referee (independent_dm_throws.py, independent_referee.py). They
must agree, and the independent referee's answers are the ones in :data:`EXPECT`. The last
case was recorded on the code before the foot was judged against the allowed line, when
kubb3d gave the thrower the game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from independent_dm_throws import dm_throw_validity, dm_validity_checks
from independent_referee import referee_throw
from play_comparison import compare
from play_positions import image, rejudge, stance_violations
from test_ws_play_referee import RELATIONS, transformed


DATA = Path(__file__).resolve().parents[1] / "data" / "dm_invalid_positions.json"
CASES = {c["name"]: c for c in json.loads(DATA.read_text(encoding="utf-8"))["cases"]}

# (no foul, foot over the line, tilt within the limit, kubbs set up again, (winner, loser))
EXPECT: dict[str, tuple] = {
    # DM §5 „während oder infolge der Wurfbewegung“: 0.17 m past the advance line after the step
    "step-over-the-line": (False, True, True, ["B1"], (None, None)),
    # thrown from a line 0.29 m nearer the centre than the advance line
    "line-nearer-the-centre": (False, True, True, ["B1"], (None, None)),
    # „eine Schieflage von mehr als 30 ° ist dagegen verboten“: 69°
    "tilt": (False, False, False, ["A3"], (None, None)),
    # a flat turn: the spin axis vertical, 90° out of the flight plane
    "flat-helicopter": (False, False, False, ["A2"], (None, None)),
    # DM §10 „von der eigenen Grundlinie aus“, a foul: the king is set up again, no verdict
    "king-throw-stepping-over-the-baseline": (False, True, True, [], (None, None)),
    # DM §1 „Wird der König vorzeitig … zu Fall gebracht, hat die gegnerische Mannschaft gewonnen“
    "early-king-by-a-baton": (True, False, True, [], ("A", "B")),
    # the toe 0.17 m past A's baseline: a foul, no win (kubb3d gave A the game before the fix)
    "king-throw-from-nearer-the-centre": (False, True, True, [], (None, None)),
}

def _foot_faults(pos: dict) -> list[tuple[str, str]]:
    """kubb3d's foot check now on the throw's recorded parameters and the match's line."""
    return [(v.rule, v.reason) for v in stance_violations(pos, "dm") if "foot fault" in v.reason]


@pytest.mark.parametrize("relation", list(RELATIONS))
@pytest.mark.parametrize("name", list(EXPECT))
def test_stored_dm_foul(name, relation):
    t = RELATIONS[relation]
    pos, _ = transformed({"position": CASES[name]["position"]}, t)
    ctx = dict(pos["ctx"])
    fouls = _foot_faults(pos)
    stored = [tuple(v) for v in ctx["violations"]]
    ctx["violations"] = stored + [v for v in fouls if v not in stored]
    ctx["legal"] = bool(ctx["legal"]) and not fouls
    pos = {**pos, "ctx": ctx}
    v = dm_throw_validity(pos)
    legal = v["valid"] if v["valid"] is not None else ctx["legal"]
    checks = dm_validity_checks(pos, v) + compare(pos, rejudge(pos), legal=legal)
    bad = [c for c in checks if not c.agrees and "info" not in c.kind]
    assert bad == [], "\n".join(f"{c.kind} {c.piece}: mine {c.mine} kubb3d {c.theirs} ({c.note})" for c in bad)
    mine = referee_throw(pos, legal)
    setup = sorted(k for k, r in mine["pieces"].items() if r["ruling"] == "raise_again")
    got = (v["valid"], not v["foot_ok"], v["tilt_ok"], setup, (mine["winner_side"], mine["loser_side"]))
    assert got == image(EXPECT[name], t)


def test_a_kubb_set_up_after_a_foul_stands_on_the_ground_not_on_a_baton():
    """DM §5 „Sämtliche Vergehen werden bestraft, indem die jeweils gefallenen Kubbs wieder
    aufgestellt werden“. Seed 31 of ``referee_play.py --invalid 0.3 --players novice,elite
    --strategy cluster-first,deep-inkast``: A's foul (call 3, a 43° tilt) knocks baseline kubb B2
    off the pitch and the baton comes to rest on B2's spot. B2 is set up there again; before,
    the baton was left under it, and the next throw (call 4, valid) found B2 "resting on baton 2"
    and counted it as felled although it stood where it had been set up. The baton is now moved
    off the spot, as a kubb lying there would be."""
    from invalid_play import invalid_config, saboteurs

    from kubb3d.audit import RecordingJudge
    from kubb3d.match import Match, MatchConfig

    human, attach, _ = saboteurs(31, 0.3, 0.05)
    config = invalid_config(skills=("novice", "elite"), strategies=("cluster-first", "deep-inkast"))
    rj = RecordingJudge()
    match = Match(MatchConfig(ruleset="dm", seed=31, **config), judge=rj, human=human)
    attach(match)
    try:
        while len(rj.calls) < 5:
            match.step()
    finally:
        match.close()
    kind, _, ctx, foul = rj.calls[3]
    assert kind == "throw" and not ctx.legal and "B2" in foul.raise_now
    kind, after, ctx, j = rj.calls[4]
    assert kind == "throw" and ctx.legal
    assert j.ruling("B2").status.value == "standing", j.ruling("B2").reason
    assert "B2" not in j.felled
    assert after["B2"].position[2] > 0.07  # on its end face on the ground

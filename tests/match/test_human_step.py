"""The human-player hook and single-step driving of :class:`kubb3d.match.Match` (task for the viewer's match mode)."""

from __future__ import annotations

import json
from dataclasses import asdict, replace

import pytest

from kubb3d.match import HumanRequest, Match, MatchConfig
from kubb3d.players import SKILLS, Player
from kubb3d.throw import ThrowParams


def _scripted(log: list):
    """A "person" who throws the elite player's noise-free aim, 2 % short, and logs every request."""
    me = Player("P1", SKILLS["elite"])

    def human(req: HumanRequest) -> ThrowParams:
        eq, pitch = req.world.equipment, req.world.pitch
        if req.kind in ("inkast", "penalty"):
            p, _ = me.kubb_throw(eq, pitch, req.side if req.kind == "inkast" else req.state.turn_side, req.target[:2], _NoNoise(), dt=req.world.dt)
        else:
            p, _ = me.baton_throw(eq, pitch, req.side, req.line_x, req.target, _NoNoise(), dt=req.world.dt)
        p = replace(p, speed=round(p.speed * 0.98, 6))
        log.append((req.kind, req.piece, req.side, p))
        return p

    return human


class _NoNoise:
    def standard_normal(self, n):
        import numpy as np

        return np.zeros(n)


def _records(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_human_throws_are_simulated_verbatim_and_step_equals_run(tmp_path):
    cfg = MatchConfig(ruleset="dm", skills=("club", "club"), seed=5, round_cap=3)
    log_run: list = []
    m = Match(cfg, replay=tmp_path / "run.jsonl", human={"P1": _scripted(log_run)})
    out_run = m.run()
    log_step: list = []
    m2 = Match(cfg, replay=tmp_path / "step.jsonl", human={"P1": _scripted(log_step)})
    returned = []
    while m2.state.outcome() is None:
        returned.append(m2.step())
    m2.close()
    assert m2.state.outcome() == out_run and out_run is not None
    assert (tmp_path / "run.jsonl").read_bytes() == (tmp_path / "step.jsonl").read_bytes()
    recs = _records(tmp_path / "step.jsonl")
    actions = [r for r in recs if r["type"] == "action"]
    assert returned == actions  # step() returns exactly the record it wrote
    assert recs[-1]["type"] == "outcome" and recs[-1]["winner"] == out_run.winner
    # every human throw appears verbatim, in order, as a thrown piece's params (no noise added)
    human_params = [asdict(p) for _, _, _, p in log_step]
    assert human_params, "P1 never threw"
    thrown = [t["params"] for r in actions for t in r.get("throws", []) if t.get("params") in human_params]
    assert thrown == human_params
    assert {k for k, *_ in log_step} >= {"lag", "baton"}
    # P2 stays simulated: its throws carry noise (released params differ from the intended ones)
    p2 = [t for r in actions for t in r.get("throws", []) if t.get("params") not in human_params]
    assert p2 and any(t["params"] != t["intended"] for t in p2)


def test_step_after_the_end_and_unknown_human_are_errors():
    with pytest.raises(ValueError, match="not players of this match"):
        Match(MatchConfig(seed=1), human={"nobody": lambda req: None})
    m = Match(MatchConfig(seed=1))
    m.state._outcome = object()  # pretend the match is over
    with pytest.raises(RuntimeError, match="over"):
        m.step()

"""A turn starts from poses the pieces hold on their own (DM §5 "allein stehfähig"): the
batons are picked up between turns, and a kubb that leaned on one comes to rest without it
before the turn's world is recorded (kubb3d/match/core.py ``_settle_off_batons``). Every kubb
the turn starts with standing then stands upright on an end face, which is also the pose it is
set back to when an inkast or an own-half throw moves it (DM §5 „wieder aufgestellt“).

Found by the referee examination on simulated play (docs/examinations/2026-12-07-play.md,
disagreement 2): in seed 78 (novice against elite) B3 kept the 9.3° a picked-up baton held it
in and was "set up again" into that pose at every throw of the next two turns."""

from __future__ import annotations

import math

from kubb3d.equipment import get_set
from kubb3d.match import Match, MatchConfig
from kubb3d.snapshot import tilt_from_vertical

SETUP_TILT = math.radians(1.0)
"""rad: a kubb set up on its end face on flat ground is at most this far off vertical."""
SETUP_HEIGHT_M = 0.003
"""m: ... and its centre at most this far off half its height above the ground."""


def _turn_starts(config: MatchConfig, max_actions: int) -> list[dict]:
    """At every turn boundary of the first ``max_actions`` actions: the batons in the world,
    and for each kubb the rules engine holds standing its tilt, height and the engine's pose."""
    m = Match(config)
    half_height = get_set(m.ruleset.equipment).kubb.height / 2
    starts, key = [], None
    try:
        for _ in range(max_actions):
            if m.pending() is None:
                break
            if m.world_key != key:
                key = m.world_key
                w = m.world
                assert w is not None
                kubbs = {}
                for kid, k in sorted(m.state.kubbs.items()):
                    if k.standing and not k.removed:
                        pos, q = w.pose(kid)
                        tilt = tilt_from_vertical(tuple(float(v) for v in q))
                        kubbs[kid] = {
                            "tilt": min(tilt, math.pi - tilt),
                            "height": abs(float(pos[2]) - half_height),
                            "engine_off_m": max(abs(float(a) - b) for a, b in zip(pos, k.pose.position)),
                        }
                starts.append({"i": m.action_index, "batons": w.piece_ids("baton"), "kubbs": kubbs})
            m.step()
    finally:
        m.close()
    return starts


def test_a_turn_starts_with_every_standing_kubb_upright_and_no_baton():
    # seed 78, novice against elite: action 43 (baton 6) leaves B3 leaning on the baton at
    # 9.3 deg; the old code started the turn of action 44 (and of 52) with B3 at that tilt
    starts = _turn_starts(MatchConfig(seed=78, skills=("novice", "elite")), 53)
    assert [s["i"] for s in starts if s["i"] in (44, 52)] == [44, 52], [s["i"] for s in starts]
    assert len(starts) >= 8
    bad = [
        f"world {s['i']}: {kid} tilted {math.degrees(k['tilt']):.1f} deg, {k['height'] * 1000:.1f} mm off"
        for s in starts
        for kid, k in s["kubbs"].items()
        if k["tilt"] > SETUP_TILT or k["height"] > SETUP_HEIGHT_M
    ]
    assert bad == []
    assert all(s["batons"] == [] for s in starts)
    # the rules engine keeps the pose the turn starts in (what a moved kubb is set back to)
    assert max(k["engine_off_m"] for s in starts for k in s["kubbs"].values()) < 1e-9
    b3 = next(s for s in starts if s["i"] == 44)["kubbs"]["B3"]
    assert b3["tilt"] < math.radians(0.5), math.degrees(b3["tilt"])


def test_a_standing_kubb_that_fell_off_its_baton_is_stood_up_on_its_spot():
    # the guard for a kubb the judge ruled standing on its own that the physics let fall once
    # its baton was picked up: upright on the centre of its lower end face, heading kept
    m = Match(MatchConfig(seed=1))
    try:
        m.world = m._new_world()
        m.world.setup_standard()
        half = get_set(m.ruleset.equipment).kubb.height / 2
        t, yaw = math.radians(9.3), math.radians(30.0)
        # tilted 9.3 deg about the kubb's own x axis, then turned 30 deg about the vertical
        qz = (0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2))
        qx = (math.sin(t / 2), 0.0, 0.0, math.cos(t / 2))
        x1, y1, z1, w1 = qz
        x2, y2, z2, w2 = qx
        q = (
            w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
            w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
        )
        base = (4.0, 0.5)
        # the box centre of a kubb pivoted about its base centre (on the ground) by the tilt
        up = (2 * (q[0] * q[2] + q[1] * q[3]), 2 * (q[1] * q[2] - q[0] * q[3]), 1 - 2 * (q[0] ** 2 + q[1] ** 2))
        pose = [base[0] + up[0] * half, base[1] + up[1] * half, up[2] * half, *q]
        out = m._upright_on_spot("B3", pose)
    finally:
        m.close()
    assert math.hypot(out[0] - base[0], out[1] - base[1]) < 1e-9
    assert abs(out[2] - half) < 1e-6
    assert tilt_from_vertical(tuple(out[3:])) < 1e-9
    assert abs(2 * math.atan2(out[5], out[6]) - yaw) < 1e-9


def test_a_match_resumed_after_the_settling_continues_exactly(tmp_path):
    # resumed at the turn boundary of action 44 (B3 settled off its baton): the engine takes
    # B3's standing pose from the world record, so the next boundary (52) is built alike
    cfg = MatchConfig(seed=78, skills=("novice", "elite"))
    full = tmp_path / "full.jsonl"
    m = Match(cfg, replay=full)
    m.run(max_actions=56)
    m.close()
    part = tmp_path / "part.jsonl"
    cut = Match(cfg, replay=part)
    assert cut.run(max_actions=47) is None
    cut.close()
    resumed = Match.resume(part)
    assert resumed.action_index == 44
    assert resumed.state.kubbs["B3"].pose.quat_xyzw[3] > 0.99999
    resumed.run(max_actions=12)
    resumed.close()
    assert part.read_bytes() == full.read_bytes()

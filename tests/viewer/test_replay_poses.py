"""The viewer owns no rules: a match replay says where the pieces are after every action (the
record's ``after``, ``before`` of a lag throw's own world), and the viewer's timeline follows
the match's world exactly (docs/viewer.md "What a replay records")."""

import json
from pathlib import Path

import numpy as np
import pytest

from kubb3d.match import Match, MatchConfig, poses_after
from kubb3d.replay import ReplayError, read_replay
from kubb3d.viewer.replay import TimelineBuilder, load_replay

BAD = Path(__file__).parent.parent / "bad_inputs"
ROUNDING = 1e-4  # the replay keeps poses to 0.1 mm and 1e-4 (kubb3d.match)


def _same_pose(a, b, what: str) -> None:
    """Positions and orientations within the rounding (q and -q are the same turn)."""
    a, b = np.asarray(a), np.asarray(b)
    np.testing.assert_allclose(a[:3], b[:3], atol=ROUNDING, err_msg=what)
    assert min(np.abs(a[3:] - b[3:]).max(), np.abs(a[3:] + b[3:]).max()) <= 2 * ROUNDING, (what, a, b)


def _world_poses(world) -> dict[str, np.ndarray]:
    ids = world.piece_ids("kubb", "king", "baton")
    return {pid: np.array((*world.pose(pid)[0], *world.pose(pid)[1])) for pid in ids}


@pytest.mark.parametrize(
    "config, least",
    [
        ({"ruleset": "dm", "seed": 1}, {"moved": 20, "gone": 0}),
        # DM §9: the time runs out, a lag throw in the middle of the set, tie-break kubbs removed
        ({"ruleset": "dm", "seed": 1, "time_limit_s": 240.0}, {"moved": 20, "gone": 1}),
        ({"ruleset": "kubbuteo", "seed": 1, "round_cap": 3}, {"moved": 20, "gone": 10}),
    ],
)
def test_the_viewers_timeline_is_the_matchs_world_after_every_action(config, least):
    """After every action played in the match's world, every piece of that world is shown at
    its pose (to the replay's rounding) and every other piece is hidden, both in the builder's
    state and in the last frame of the action's last segment. A bug this replaces: the viewer
    redid the KT board clearing from the outcome (and never set back kubbs an inkast disturbed)."""
    m = Match(MatchConfig(**config))
    try:
        b = TimelineBuilder(m.header)
        checked = moved = gone = 0
        while m.pending() is not None:
            r = m.step()
            n0 = len(b.segments)
            for rec in r.records:
                b.feed(rec)
            rec = r.record
            after = (rec or {}).get("after", {})
            moved += len(after.get("poses", {}))
            gone += len(after.get("gone", ()))
            if not r.done or m.world is None or type(r.action).__name__ == "LagThrow":
                continue  # a lag throw's own world is closed once it is thrown
            truth = _world_poses(m.world)
            for pid in sorted(b.kinds):
                if pid not in truth:
                    assert pid in b.hidden, (rec["i"], pid)
                    continue
                assert pid not in b.hidden, (rec["i"], pid)
                _same_pose(b.poses[pid], truth[pid], f"{rec['i']} {pid}")
            assert set(truth) <= set(b.kinds)
            if len(b.segments) > n0:  # the action's last frame: every animation ends there
                seg = b.segments[-1]
                last = seg.poses_at(seg.duration + 1.0)
                for pid in sorted(set(after.get("poses", {})) & set(last)):
                    _same_pose(last[pid], truth[pid], f"last frame {rec['i']} {pid}")
            checked += 1
        assert checked >= 20 and moved >= least["moved"] and gone >= least["gone"], (checked, moved, gone)
    finally:
        m.close()


def test_after_lists_only_what_changed_in_sorted_order():
    base = {"A1": [0.0] * 6 + [1.0], "B2": [1.0] * 3 + [0.0] * 3 + [1.0], "baton1": [2.0] * 3 + [0.0] * 3 + [1.0]}
    now = {"B2": [1.5] * 3 + [0.0] * 3 + [1.0], "A1": base["A1"], "B1": base["A1"]}
    d = poses_after(base, now)
    assert list(d) == ["poses", "gone"] and list(d["poses"]) == ["B1", "B2"] and d["gone"] == ["baton1"]
    assert poses_after(base, dict(base)) == {}


def test_a_schema_1_replay_is_refused_in_one_line():
    """Schema 1 replays lack the poses after each action; they are refused (not redone with
    rules) in one line naming the file and the fix (``kubb3d view`` and ``match --resume``
    with exit code 2: tests/test_bad_inputs.py)."""
    path = BAD / "replay_schema_1.jsonl"
    with pytest.raises(ReplayError) as exc:
        load_replay(path)
    text = str(exc.value)
    assert "\n" not in text and f"{path}:1: replay schema 1, expected 2" in text and "kubb3d match --replay" in text


def test_a_bad_after_pose_names_its_line_and_field(tmp_path):
    m = Match(MatchConfig(seed=1, round_cap=3), replay=tmp_path / "m.jsonl")
    m.run(max_actions=30)
    m.close()
    lines = (tmp_path / "m.jsonl").read_text().splitlines()
    n = next(k for k, line in enumerate(lines) if '"after"' in line)
    rec = json.loads(lines[n])
    pid = next(iter(rec["after"]["poses"]))
    rec["after"]["poses"][pid] = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    lines[n] = json.dumps(rec)
    (tmp_path / "m.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(ReplayError, match=rf":{n + 1}: after\.poses: .*{pid}: quaternion of length 0"):
        read_replay(tmp_path / "m.jsonl")

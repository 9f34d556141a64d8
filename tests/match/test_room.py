"""Pieces the rules place never overlap another piece (kubb3d.match.room): the helper on
generated layouts, and seeded matches whose world records and outcomes the replay reader
accepts (the reader refuses overlapping poses, kubb3d.replay)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubb3d.equipment import EQUIPMENT_SETS, get_set
from kubb3d.judge.geometry import box_overlap_depth
from kubb3d.match import Match, MatchConfig, play
from kubb3d.match.records import pose_list
from kubb3d.pitch import KING_ID
from kubb3d.replay import OVERLAP_TOL_M, read_replay
from kubb3d.rules import get_ruleset
from kubb3d.match.room import ROOM_TOL_M, make_room, overlapping

KUBB = get_set("standard").kubb.half_extents
KING = get_set("standard").king.half_extents
LYING = (0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4))  # long axis along x


def half_extents(pid: str) -> tuple[float, float, float]:
    return KING if pid == "king" else KUBB


def _heading(q: tuple[float, float, float, float], yaw: float) -> list[float]:
    """``q`` turned by ``yaw`` rad about the vertical (quaternion product, x, y, z, w)."""
    cz, sz = math.cos(yaw / 2), math.sin(yaw / 2)
    x, y, z, w = q
    return [cz * x - sz * y, cz * y + sz * x, cz * z + sz * w, cz * w - sz * z]


coord = st.floats(-0.6, 0.6, allow_nan=False)
yaw = st.floats(-math.pi, math.pi, allow_nan=False)


@st.composite
def layouts(draw):
    """Standing kubbs (placed by the rules, none overlapping another) and lying kubbs
    anywhere among them, all in a 1.2 m square: poses, the placed ids."""
    poses: dict[str, list[float]] = {}
    placed = []
    for n in range(draw(st.integers(1, 6))):
        pose = [draw(coord), draw(coord), KUBB[2]] + _heading((0.0, 0.0, 0.0, 1.0), draw(yaw))
        if all(box_overlap_depth(pose[:3], pose[3:], KUBB, p[:3], p[3:], KUBB) <= 0 for p in poses.values()):
            poses[f"A{n}"] = pose
            placed.append(f"A{n}")
    for n in range(draw(st.integers(1, 8))):
        poses[f"B{n}"] = [draw(coord), draw(coord), KUBB[0]] + _heading(LYING, draw(yaw))
    return poses, placed


@settings(max_examples=150, deadline=None)
@given(layouts())
def test_make_room_leaves_no_overlap(layout):
    poses, placed = layout
    out = make_room(poses, placed, half_extents)
    moved = {pid for pid in poses if out[pid] != poses[pid]}
    # no placed piece is cut into (beyond resting contact); no moved piece cuts into anything
    assert [(a, b) for a, b, _ in overlapping(out, half_extents, ROOM_TOL_M) if a in placed or b in placed] == []
    assert [(a, b) for a, b, _ in overlapping(out, half_extents) if a in moved or b in moved] == []
    hit = {
        b if a in placed else a
        for a, b, _ in overlapping(poses, half_extents, ROOM_TOL_M)
        if (a in placed) != (b in placed)
    }
    assert moved == hit  # only the pieces on a placed one move
    for pid, pose in poses.items():
        assert out[pid][2:] == pose[2:]  # horizontally: height and heading kept


def test_make_room_moves_the_lying_kubb_straight_off():
    """The case of WS seed 2 on a changed physics: a kubb lying 6.5 cm from a baseline spot
    where a kubb is raised again is moved straight away from that spot until they only touch."""
    spot = [-3.75, 1.6667, KUBB[2], 0.0, 0.0, 0.0, 1.0]
    lying = [-3.6849, 1.6775, KUBB[0]] + _heading(LYING, 0.5)
    assert box_overlap_depth(spot[:3], spot[3:], KUBB, lying[:3], lying[3:], KUBB) > 0.01
    out = make_room({"A5": spot, "B1": lying}, {"A5"}, half_extents)
    gap = -box_overlap_depth(spot[:3], spot[3:], KUBB, out["B1"][:3], out["B1"][3:], KUBB)
    assert 0.0 <= gap <= 0.003
    before = math.atan2(lying[1] - spot[1], lying[0] - spot[0])
    after = math.atan2(out["B1"][1] - spot[1], out["B1"][0] - spot[0])
    assert abs(after - before) < 1e-9  # straight away from the spot


def replay_overlaps(path: Path) -> list[str]:
    """The replay read as the reader does (its world records checked by the reader itself), and
    every pair of kubbs or king cutting into each other by more than the reader's tolerance
    once an action is over (world record, then each action's trajectories' last poses and its
    ``after``): "line: piece piece depth"."""
    rp = read_replay(path)
    assert rp.header.config is not None
    eq = EQUIPMENT_SETS[get_ruleset(rp.header.config.ruleset).equipment]

    def extents(pid: str) -> tuple[float, float, float]:
        return (eq.king if pid == KING_ID else eq.kubb).half_extents

    poses: dict[str, list[float]] | None = None
    found = []
    for n, record, raw in rp.records:
        if record.type == "world":
            poses = {pid: list(p) for pid, p in record.poses.items()}
            continue
        if record.type != "action" or poses is None or raw.get("before") is not None:
            continue  # (a lag throw brings a world of its own)
        for throw in raw.get("throws", ()):
            for pid, samples in throw["trajectory"]["poses"].items():
                if samples:
                    poses[pid] = list(samples[-1])
        after = raw.get("after", {})
        poses.update(after.get("poses", {}))
        for pid in after.get("gone", ()):
            poses.pop(pid, None)
        pieces = {pid: p for pid, p in poses.items() if pid == KING_ID or pid in eq_ids(rp)}
        found += [f"{n}: {a} {b} {d * 1000:.0f} mm" for a, b, d in overlapping(pieces, extents, OVERLAP_TOL_M)]
    return found


def eq_ids(rp) -> set[str]:
    """The kubbs of a replay: the pieces of its world records other than the king."""
    return {pid for _, r, _ in rp.records if r.type == "world" for pid in r.poses if pid != KING_ID}


@pytest.mark.parametrize(
    "ruleset,seed,cap",
    [("dm", 1, 3), ("dm", 2, 3), ("dm", 3, 3), ("wikinger", 1, 3), ("wikinger", 2, 3), ("wikinger", 3, 3)]
    + [("kubbuteo", 1, 3), ("wikinger", 14, 8)],
)
def test_seeded_matches_never_leave_pieces_overlapping(ruleset, seed, cap, tmp_path):
    """Short seeded matches (``cap`` turns a set): the replay reader accepts every world record
    and no action leaves two pieces cutting into each other. WS seed 14 (8 turns) is the case on
    main's physics: A4, knocked over by an inkasted kubb, is set back on its spot where the valid
    B1 lies (31 mm) until B1 is moved off it."""
    path = tmp_path / f"{ruleset}{seed}.jsonl"
    play(MatchConfig(ruleset=ruleset, seed=seed, round_cap=cap), replay=path)
    assert replay_overlaps(path) == []


def test_a_felled_kubb_on_a_spot_is_moved_off_at_the_turn_boundary(tmp_path):
    """The physics2 case forced on main's physics: at a turn boundary a felled kubb lies 6.5 cm
    from a standing kubb's spot (cutting into it); the world record keeps the standing kubb at
    the engine's pose, moves the felled one straight off it, and the replay stays readable."""
    path = tmp_path / "ws1.jsonl"
    m = Match(MatchConfig(ruleset="wikinger", seed=1, round_cap=3), replay=path)
    s = m.state
    while True:
        m.step()
        felled = sorted(kid for kid, k in s.kubbs.items() if not k.standing and not k.removed)
        if m.world_key is not None and (s.set_no, s.turn_no) != m.world_key and felled:
            break
    lying = felled[0]
    spot = next(k for k in s.standing_in(s.kubbs[lying].half) if k.baseline)
    x, y, _ = spot.pose.position
    he = m._half_extents(lying)
    m._w.set_pose(lying, (x + 0.065, y + 0.011, he[0]), LYING, wake=False)
    before = pose_list(*m._w.pose(lying))
    m.pending()  # the turn boundary: the world record
    world = next(r for r in m.log.take() if r["type"] == "world")
    here, there = world["poses"][spot.id], world["poses"][lying]
    assert here == list(spot.pose.position) + list(spot.pose.quat_xyzw)
    assert box_overlap_depth(here[:3], here[3:], he, there[:3], there[3:], he) <= 0.0
    assert there[2:] == before[2:] and there[:2] != before[:2]
    m.run()
    assert replay_overlaps(path) == []

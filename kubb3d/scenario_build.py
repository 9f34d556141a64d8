"""Building a scenario in physics: every piece placed as its file says (standing, lying,
tilted, leaning, stacked, across a line, an explicit pose; the placements of
:mod:`kubb3d.scenario`), overlaps and pieces below the ground refused, the world left to
settle (:data:`SETTLE_TIME`) and the file's piece history applied to the snapshot (DM §5).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from kubb3d.equipment import LYING_DISK_KUBB, EquipmentSet
from kubb3d.errors import ScenarioError
from kubb3d.judge import Pose
from kubb3d.judge.geometry import quat_from_rows, rot
from kubb3d.judge.messages import concat, msg
from kubb3d.pitch import KING_ID, LEFT_OF_SIDE_A, SIDES, Pitch, baseline_ids
from kubb3d.scenario_load import load
from kubb3d.scenario_spec import PieceSpec, ScenarioSpec
from kubb3d.snapshot import Snapshot

OVERLAP_TOL = 0.002
"""m: pieces interpenetrating by more than this in a scenario file are an error."""
SETTLE_TIME = 2.0
"""s: the longest a scenario is simulated to settle."""


def _kind(spec: PieceSpec) -> str:
    if spec.kind:
        return spec.kind
    if spec.id == KING_ID:
        return "king"
    if spec.id.startswith("baton"):
        return "baton"
    return "kubb"


def _yaw_rows(yaw: float):
    c, s = math.cos(yaw), math.sin(yaw)
    return ((c, -s, 0.0), (s, c, 0.0), (0.0, 0.0, 1.0))


def _mul(a, b):
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3))


def _tilt_rows(direction: float, tilt: float):
    """Yaw the piece to face ``direction`` then tilt its long axis by ``tilt`` towards it."""
    ry = ((math.cos(tilt), 0.0, math.sin(tilt)), (0.0, 1.0, 0.0), (-math.sin(tilt), 0.0, math.cos(tilt)))
    return _mul(_yaw_rows(direction), ry)


def _lying_rows(yaw: float):
    return _tilt_rows(yaw, math.pi / 2)


def _apply(r, v):
    return tuple(r[i][0] * v[0] + r[i][1] * v[1] + r[i][2] * v[2] for i in range(3))


@dataclass
class Built:
    """A scenario built in physics and settled.

    Attributes:
        spec: the validated file.
        path: where it came from.
        world: the physics world (still open: close it, or use it to render).
        snapshot: the world at rest, with the file's history applied.
        round_start: poses at the start of the round (where pieces are raised again).
        initial: poses as built, before settling.
    """

    spec: ScenarioSpec
    path: Path
    world: Any
    snapshot: Snapshot
    round_start: dict[str, Pose]
    initial: dict[str, Pose]

    def close(self) -> None:
        self.world.close()


def _half_extents(eq: EquipmentSet, kind: str) -> tuple[float, float, float]:
    if kind == "kubb":
        return eq.kubb.half_extents
    if kind == "king":
        return eq.king.half_extents
    return (eq.baton.radius, eq.baton.radius, eq.baton.length / 2)


def build(path: str | Path, spec: ScenarioSpec | None = None, *, dt: float | None = None) -> Built:
    """Build a scenario in physics and let it settle.

    ``dt`` is the world's time step, s (default: the world's own, :data:`kubb3d.physics.world.DT`);
    convergence checks build the same scene at finer steps.

    Raises:
        ScenarioError: bad file, a placement that names an unknown piece, overlapping
            pieces (named as a pair), a piece below the ground.
    """
    from kubb3d.physics.world import World

    path = Path(path)
    spec = spec or load(path)
    pitch = spec.pitch_obj
    eq = spec.equipment_set
    try:
        world = World(eq, pitch, spec.ground_name, stakes=spec.stakes, air_drag=False, dt=dt)
    except ValueError as exc:
        raise ScenarioError(f"{path}: ground: {exc}") from None
    try:
        initial, round_start, sides = _place_all(path, spec, world, pitch, eq)
        _check_overlaps(path, world)
        world.clear_history()
        world.run_until_rest(max_time=SETTLE_TIME)
        world.settle_forces()
        snap = world.snapshot()
    except Exception:
        world.close()
        raise
    pieces = dict(snap.pieces)
    for p in spec.pieces:
        if p.max_tilt_deg is not None and p.id in pieces:
            pieces[p.id] = replace(pieces[p.id], max_tilt=math.radians(p.max_tilt_deg))
        if p.max_lean_deg is not None and p.id in pieces:
            side, plane = (math.radians(v) for v in p.max_lean_deg)
            whole = max(pieces[p.id].max_tilt, side, plane)
            pieces[p.id] = replace(pieces[p.id], max_lean=(side, plane), max_tilt=whole)
    snap = replace(snap, pieces=pieces)
    return Built(spec, path, world, snap, round_start, initial)


def _place_all(path: Path, spec: ScenarioSpec, world, pitch: Pitch, eq: EquipmentSet):
    specs: dict[str, PieceSpec] = {}
    if spec.setup == "standard":
        for side in SIDES:
            for kid in baseline_ids(side):
                specs[kid] = PieceSpec(id=kid, place="baseline")
        specs[KING_ID] = PieceSpec(id=KING_ID, place="baseline")
    for p in spec.pieces:
        specs[p.id] = p
    # pieces that others lean or lie on are placed first
    order = [k for k, s in specs.items() if s.place not in ("leaning", "stacked")]
    order += [k for k, s in specs.items() if s.place in ("leaning", "stacked")]
    initial: dict[str, Pose] = {}
    round_start: dict[str, Pose] = {}
    sides: dict[str, str | None] = {}
    baseline_spots = {**pitch.baseline_kubb_positions("A"), **pitch.baseline_kubb_positions("B")}
    for pid in order:
        s = specs[pid]
        kind = _kind(s)
        he = _half_extents(eq, kind)
        where = f"{path}: pieces (id {pid})"
        if s.place == "baseline":
            if pid in baseline_spots:
                x, y = baseline_spots[pid]
            elif pid == KING_ID:
                x, y = pitch.king_position
            else:
                raise ScenarioError(
                    f"{where}.place: 'baseline' needs a baseline kubb id (A1…B5) or 'king', got {pid!r}"
                )
            pos, rows = (x, y, he[2]), _yaw_rows(0.0)
        elif s.place == "standing":
            rows = _yaw_rows(math.radians(s.yaw_deg))
            if s.upside_down:
                rows = _mul(rows, ((1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, -1.0)))
            pos = (s.at[0], s.at[1], he[2])
        elif s.place == "lying" and kind == "kubb" and eq.kubb.shape == "disk":
            # a Kubbuteo disk lies on a face (KT): its axis vertical, turned by yaw_deg
            rows = _mul(_yaw_rows(math.radians(s.yaw_deg)), rot(LYING_DISK_KUBB))
            pos = (s.at[0], s.at[1], he[0])
        elif s.place == "lying":
            rows = _lying_rows(math.radians(s.yaw_deg))
            pos = (s.at[0], s.at[1], he[0])
        elif s.place == "tilted":
            d = math.radians(s.toward_deg)
            rows = _tilt_rows(d, math.radians(s.tilt_deg))
            edge = (s.at[0] + he[0] * math.cos(d), s.at[1] + he[0] * math.sin(d), 0.0)
            off = _apply(rows, (he[0], 0.0, -he[2]))
            pos = (edge[0] - off[0], edge[1] - off[1], edge[2] - off[2])
        elif s.place == "across_line":
            pos, rows = _across(where, s, pitch, he)
        elif s.place == "pose":
            q = s.quat_xyzw
            n = math.sqrt(sum(c * c for c in q))
            if n < 1e-9:
                raise ScenarioError(concat(f"{where}.quat_xyzw: ", msg("expected a non-zero quaternion, got {got}",
                                                                       got=str(list(q)))))
            rows = rot(tuple(c / n for c in q))
            pos = s.position
        elif s.place == "leaning":
            pos, rows = _lean(where, s, world, he, kind)
        else:  # stacked
            pos, rows = _stack(where, s, world, he, kind)
        q = quat_from_rows(rows)
        side = s.side
        if kind == "kubb" and side is None:
            side = pid[0] if (s.place == "baseline" and pid[0] in SIDES) else pitch.half_of(pos[0])
        sides[pid] = side
        try:
            world.add_piece(pid, kind, pos, q, side=side if kind == "kubb" else None, sleeping=False)
        except ValueError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
        initial[pid] = Pose(tuple(float(c) for c in pos), q)
        if s.origin is not None:
            round_start[pid] = Pose((s.origin[0], s.origin[1], he[2]))
        elif pid in baseline_spots and side == pid[0]:
            bx, by = baseline_spots[pid]
            round_start[pid] = Pose((bx, by, he[2]))
        elif pid == KING_ID:
            round_start[pid] = Pose((pitch.king_position[0], pitch.king_position[1], he[2]))
        elif kind == "kubb":
            round_start[pid] = Pose((pos[0], pos[1], he[2]))
    return initial, round_start, sides


def _across(where: str, s: PieceSpec, pitch: Pitch, he) -> tuple:
    length = 2 * he[2]
    f = s.inside
    hw = pitch.half_width
    if s.line in ("sideline-left", "sideline-right"):
        # left and right as seen from side A's baseline (kubb3d.pitch.LEFT_OF_SIDE_A)
        sign = LEFT_OF_SIDE_A if s.line == "sideline-left" else -LEFT_OF_SIDE_A
        inward = -sign
        y = sign * hw + inward * (f - 0.5) * length
        return (s.along, y, he[0]), _lying_rows(math.pi / 2)
    if s.line == "centre":
        half = s.half or "A"
        inward = -1.0 if half == "A" else 1.0
        return (inward * (f - 0.5) * length, s.along, he[0]), _lying_rows(0.0)
    side = s.line[-1]
    inward = 1.0 if side == "A" else -1.0
    x = pitch.baseline_x(side) + inward * (f - 0.5) * length
    return (x, s.along, he[0]), _lying_rows(0.0)


def _lean(where: str, s: PieceSpec, world, he, kind: str) -> tuple:
    on = s.on
    if not world.has_piece(on):
        raise ScenarioError(
            concat(f"{where}.on: ", msg("no piece {name} placed before it (it must not itself be leaning or stacked)",
                                        name=repr(on)))
        )
    sp, _ = world.pose(on)
    frm = math.radians(s.from_deg)
    toward = frm + math.pi  # the kubb leans towards the supporter
    rows = _tilt_rows(toward, math.radians(s.tilt_deg))
    d = (math.cos(toward), math.sin(toward))
    off = _apply(rows, (he[0], 0.0, -he[2]))
    tmp = "__lean_probe__"
    world.add_piece(tmp, kind, (50.0, 0.0, 5.0), quat_from_rows(rows), sleeping=True)
    probe = world.engine.body_of(tmp)
    target = [on]

    def place(rho: float):
        edge = (sp[0] - d[0] * rho, sp[1] - d[1] * rho, 0.0005)
        pos = (edge[0] - off[0], edge[1] - off[1], edge[2] - off[2])
        world.set_pose(tmp, pos, quat_from_rows(rows), wake=False)
        return pos

    try:
        lo, hi = 0.0, 0.6
        place(hi)
        if world.engine.closest_distance(tmp, target, 0.05) < 0.0005:
            raise ScenarioError(concat(f"{where}: ", msg("cannot lean on {on} from {deg}°: it is in the way even 0.6 m "
                                                         "away", on=repr(on), deg=str(s.from_deg))))
        for _ in range(32):
            mid = (lo + hi) / 2
            place(mid)
            if world.engine.closest_distance(tmp, target, 0.05) < 0.0005:
                lo = mid
            else:
                hi = mid
        pos = place(hi)
    finally:
        world.remove_piece(tmp)
    del probe
    return pos, rows


def _stack(where: str, s: PieceSpec, world, he, kind: str) -> tuple:
    ons = list(s.on)
    for o in ons:
        if not world.has_piece(o):
            raise ScenarioError(concat(f"{where}.on: ", msg("no piece {name} placed before it", name=repr(o))))
    if s.at is not None:
        x, y = s.at
    else:
        pts = [world.pose(o)[0] for o in ons]
        x, y = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    rows = _lying_rows(math.radians(s.yaw_deg))
    tmp = "__stack_probe__"
    world.add_piece(tmp, kind, (50.0, 0.0, 5.0), quat_from_rows(rows), sleeping=True)
    others = [o for o in world.piece_ids() if o != tmp]
    try:
        lo, hi = he[0], 1.0
        for _ in range(32):
            mid = (lo + hi) / 2
            world.set_pose(tmp, (x, y, mid), quat_from_rows(rows), wake=False)
            if world.engine.closest_distance(tmp, others, 0.05) < 0.0005:
                lo = mid
            else:
                hi = mid
    finally:
        world.remove_piece(tmp)
    return (x, y, hi), rows


def _check_overlaps(path: Path, world) -> None:
    from kubb3d.judge.geometry import corners

    ids = world.piece_ids()
    snap = world.snapshot()
    for i, a in enumerate(ids):
        if world.kind(a) != "stake":
            low = min(c[2] for c in corners(snap.pieces[a]))
            board = world.equipment.board
            px, py, _ = snap.pieces[a].position
            if board is not None and (abs(px) > board.length / 2 or abs(py) > board.width / 2):
                low += board.table_height  # beside a table-top board: the floor is the ground
            if low < -OVERLAP_TOL:
                raise ScenarioError(concat(f"{path}: pieces: ", msg("{a} is {mm:.0f} mm below the ground", a=a,
                                                                    mm=-low * 1000)))
        for b in ids[i + 1 :]:
            if world.kind(a) == "stake" and world.kind(b) == "stake":
                continue
            d = world.engine.closest_distance(a, [b], 0.0)
            if d < -OVERLAP_TOL:
                raise ScenarioError(concat(f"{path}: pieces: ", msg("{a} and {b} overlap by {mm:.0f} mm", a=a, b=b,
                                                                    mm=-d * 1000)))

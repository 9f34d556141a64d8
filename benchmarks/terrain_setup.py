"""The standard set-up on uneven ground: the slope under each set-up spot against the pieces'
tipping angles, and how many pieces fall or move by themselves before anything is thrown
(docs/physics.md "Setting up on uneven ground").

Slopes: for each amplitude and terrain seed, the slope of the plane fitted to the bare terrain
(no pads) under the end face of each baseline kubb and of the king
(:meth:`GroundSurface.ground_tilt`), and under the six stakes' spots (a 3 cm foot, for the
record: stakes are fixed and cannot fall). Counted: spots steeper than the piece's tipping angle
(a kubb 25.0°, the king 18.4°) or, for a kubb, than the friction angle atan(μ) of grass (24.2°),
and spots steeper than ``SETUP_PAD_MAX_SLOPE`` (their pads are less steep than the terrain).

Inclines (``--inclines``, instead of the above): a kubb and a king alone on a plane heightfield
inclined 3–22° at three headings, put ``upright`` or ``flush`` (below) and run until at rest: the
tilt they come to rest at (the incline if they stand, about 90° more if they fell).

Settling (``--settle N``, the first N seeds): the standard set-up on grass, then
``run_until_rest`` with nothing thrown. Placements: ``upright`` (the old one: bare terrain, end
face level, lowered until its lowest point touches, no settle), ``flush`` (bare terrain, end face
set to the fitted slope, then the world's settle) and ``pads`` (the set-up since: flush on a
levelled pad, ``World.standard``). Counted: pieces that fell (standing before, tilted more than
45° after) and pieces that moved more than 2 mm or turned more than 1° (what a throw calls
touched), in the set-up's own settle and in the run until rest after it. The figures are
simulated: load changes only the wall time.

Usage::

    .venv/bin/python benchmarks/terrain_setup.py [--seeds 50] [--settle 50] [--cm 0.5 1 1.5 2 3 5 10]
        [--placements upright flush pads]
    .venv/bin/python benchmarks/terrain_setup.py --inclines
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import replace

import numpy as np

from kubb3d.equipment import get_set
from kubb3d.physics.ground import get_ground
from kubb3d.physics.poses import rotation
from kubb3d.physics.terrain import SETUP_PAD_MAX_SLOPE
from kubb3d.physics.world import UPRIGHT, Terrain, World, settle_setup
from kubb3d.pitch import KING_ID, SIDES


def slopes(world: World) -> dict[str, float]:
    """Slope, degrees, under each kubb's, the king's and each stake's spot."""
    surface = world.engine.surface
    spots = {kid: ("kubb", x, y) for side in SIDES for kid, (x, y) in world.pitch.baseline_kubb_positions(side).items()}
    spots[KING_ID] = ("king", *world.pitch.king_position)
    out = {}
    for pid, (kind, x, y) in spots.items():
        out[pid] = math.degrees(math.atan(math.hypot(*surface.ground_tilt(kind, x, y))))
    for sid, (x, y) in world.pitch.stake_positions().items():
        out[sid] = math.degrees(math.atan(math.hypot(*surface.ground_tilt("baton", x, y))))
    return out


def upright_world(terrain: Terrain) -> World:
    """The old set-up: every piece upright, lowered until its lowest point touches."""
    world = World(terrain=terrain)
    for side in SIDES:
        for kid, (x, y) in world.pitch.baseline_kubb_positions(side).items():
            world.add_piece(kid, "kubb", (x, y, world.height_on_ground("kubb", x, y)), UPRIGHT, side=side)
    x, y = world.pitch.king_position
    world.add_piece(KING_ID, "king", (x, y, world.height_on_ground("king", x, y)), UPRIGHT)
    return world


def poses(world: World) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    out = {}
    for pid in world.piece_ids("kubb", "king"):
        pose = world.pose(pid)
        out[pid] = (np.array(pose.position), np.array(pose.quat_xyzw))
    return out


def changes(before: dict, after: dict) -> tuple[list[str], list[str]]:
    """(fell, moved): pieces standing before (tilted at most 45°) and tilted more after, pieces
    moved > 2 mm or turned > 1°."""
    fell, moved = [], []
    up = math.cos(math.radians(45))
    for pid, (p1, q1) in after.items():
        p0, q0 = before[pid]
        if rotation(tuple(q0))[2, 2] >= up > rotation(tuple(q1))[2, 2]:
            fell.append(pid)
        if np.linalg.norm(p1 - p0) > 0.002 or abs(float(q0 @ q1)) < math.cos(math.radians(1.0) / 2):
            moved.append(pid)
    return fell, moved


def settle_case(terrain: Terrain, placement: str) -> tuple[list[str], list[str], list[str], list[str], float]:
    """(fell and moved in the set-up's own settle, fell and moved in a run until rest after it,
    time the set-up's settle took, s)."""
    if placement != "pads":
        terrain = replace(terrain, level_spots=False)
    if placement == "upright":
        world = upright_world(terrain)
        setup: tuple[list[str], list[str], float] = ([], [], 0.0)
    else:
        world = World(terrain=terrain)
        t0 = world.time
        for side in SIDES:
            for kid, (x, y) in world.pitch.baseline_kubb_positions(side).items():
                position, quat = world.engine.surface.standing_pose("kubb", x, y)
                world.add_piece(kid, "kubb", position, quat, side=side)
        position, quat = world.engine.surface.standing_pose("king", *world.pitch.king_position)
        world.add_piece(KING_ID, "king", position, quat)
        placed = poses(world)
        settle_setup(world)
        setup = (*changes(placed, poses(world)), world.time - t0)
    start = poses(world)
    world.run_until_rest(15.0)
    fell, moved = changes(start, poses(world))
    world.close()
    return setup[0], setup[1], fell, moved, setup[2]


class Incline(Terrain):
    """A plane heightfield rising ``deg`` degrees towards the heading ``heading`` rad."""

    def __init__(self, deg: float, heading: float) -> None:
        super().__init__(0.01)
        self.grade, self.heading = math.tan(math.radians(deg)), heading

    def heights(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        X, Y = np.meshgrid(xs, ys)
        result: np.ndarray = self.grade * (math.cos(self.heading) * X + math.sin(self.heading) * Y)
        return result


def incline_tilts(kind: str, deg: float, placement: str) -> list[float]:
    """Tilt, degrees, of a piece put on an incline of ``deg`` at three headings (0, 23, 45°) off
    the set-up spots and run until at rest: ``upright`` (lowered until its lowest point touches)
    or ``flush`` (:meth:`GroundSurface.standing_pose`)."""
    out = []
    for heading in (0.0, 0.4, math.pi / 4):
        with World(terrain=Incline(deg, heading), stakes=False) as world:
            x, y = -2.0, 0.5
            if placement == "upright":
                position, quat = (x, y, world.height_on_ground(kind, x, y)), UPRIGHT
            else:
                position, quat = world.engine.surface.standing_pose(kind, x, y)
            world.add_piece("P", kind, position, quat, sleeping=False)
            world.run_until_rest(5.0)
            out.append(math.degrees(math.acos(min(1.0, rotation(world.pose("P").quat_xyzw)[2, 2]))))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=50, help="terrain seeds 0 … N-1 for the slopes")
    ap.add_argument("--settle", type=int, default=50, help="of those, how many to settle (0: none)")
    ap.add_argument("--inclines", action="store_true", help="only the pieces put on plane inclines")
    ap.add_argument("--cm", type=float, nargs="+", default=[0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0])
    names = ["upright", "flush", "pads"]
    ap.add_argument("--placements", nargs="+", default=names, choices=names)
    args = ap.parse_args()
    eq = get_set("standard")
    kubb_tip, king_tip = math.degrees(eq.kubb.tipping_angle), math.degrees(eq.king.tipping_angle)
    slide = math.degrees(math.atan(get_ground("grass").friction))
    print(f"tipping angles: kubb {kubb_tip:.1f}°, king {king_tip:.1f}°; grass friction angle {slide:.1f}°")
    if args.inclines:
        print("piece | incline ° | placement | tilt at rest at headings 0, 23, 45°")
        for kind in ("kubb", "king"):
            for deg in (3, 6, 9, 12, 15, 18, 22):
                for placement in ("upright", "flush"):
                    tilts = ", ".join(f"{t:.1f}" for t in incline_tilts(kind, deg, placement))
                    print(f"{kind} | {deg} | {placement} | {tilts}", flush=True)
        return
    pad = math.degrees(SETUP_PAD_MAX_SLOPE)
    print("cm | seeds | kubb slope median / 99 % / max | king slope median / max | stake max |"
          f" kubb spots > tip | > friction | king spots > tip | spots > {pad:g}°")
    for cm in args.cm:
        ks, kings, stakes = [], [], []
        for seed in range(args.seeds):
            with World(terrain=Terrain(cm / 100, seed=seed, level_spots=False)) as world:
                s = slopes(world)
            ks += [v for k, v in s.items() if k[0] in "AB" and not k.startswith("stake")]
            kings.append(s[KING_ID])
            stakes += [v for k, v in s.items() if k.startswith("stake")]
        k = np.array(ks)
        print(f"{cm:g} | {args.seeds} | {np.median(k):.1f} / {np.percentile(k, 99):.1f} / {k.max():.1f} |"
              f" {np.median(kings):.1f} / {max(kings):.1f} | {max(stakes):.1f} |"
              f" {int((k > kubb_tip).sum())} of {k.size} | {int((k > slide).sum())} |"
              f" {sum(v > king_tip for v in kings)} of {len(kings)} |"
              f" {int((k > pad).sum()) + sum(v > pad for v in kings)} of {k.size + len(kings)}", flush=True)
    if args.settle <= 0:
        return
    print("cm | placement | seeds | fell in set-up | moved in set-up | fell after | moved after |"
          " kings fell (set-up or after) | set-up settle max s | CPU s")
    for cm in args.cm:
        for placement in args.placements:
            t0 = time.process_time()
            sf = sm = af = am = kf = 0
            longest = 0.0
            for seed in range(args.settle):
                f0, m0, f1, m1, t = settle_case(Terrain(cm / 100, seed=seed), placement)
                sf += len(f0)
                sm += len(m0)
                af += len(f1)
                am += len(m1)
                kf += (KING_ID in f0) + (KING_ID in f1)
                longest = max(longest, t)
            print(f"{cm:g} | {placement} | {args.settle} | {sf} | {sm} | {af} | {am} | {kf} |"
                  f" {longest:.2f} | {time.process_time() - t0:.1f}", flush=True)


if __name__ == "__main__":
    main()

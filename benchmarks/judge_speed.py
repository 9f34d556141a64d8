"""How long the pure judge takes on a 20-piece snapshot (not a timed test; run it by hand).

    .venv/bin/python benchmarks/judge_speed.py

Builds the standard set-up in physics (10 baseline kubbs, king, stakes), adds seven
field kubbs (one leaning on another, one lying) and two batons, lets it settle,
and times :func:`kubb3d.judge.judge_throw` (no hand check) and
:func:`kubb3d.judge.judge_inkast` on the resulting snapshot; then
:func:`~kubb3d.judge.judge_inkast` on hand-built clusters of lying kubbs by the sideline, whose
raisings are chosen together (DM §7 "möglichst alle", WS basic rule 13).
"""

from __future__ import annotations

import math
import statistics
import time

from kubb3d.judge import InkastContext, ThrowContext, judge_inkast, judge_throw
from kubb3d.judge.geometry import quat_yaw
from kubb3d.physics.world import World


def build_snapshot():
    w = World.standard("standard")
    h = w.equipment.kubb.height
    for i, (x, y) in enumerate([(1.0, -1.0), (1.4, 0.6), (2.0, 1.2), (0.8, 1.6), (2.6, -0.8)]):
        w.add_piece(f"F{i if i < 3 else i + 2}", "kubb", (x, y, h / 2), quat_yaw(0.3 * i), side="B", sleeping=False)
    w.add_piece(
        "F3",
        "kubb",
        (1.7, -0.3, 0.035),
        (0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4)),
        side="B",
        sleeping=False,
    )
    a = math.radians(30)
    w.add_piece(
        "F4",
        "kubb",
        (
            0.965 - 0.035 * math.cos(a) - 0.075 * math.sin(a) - 0.001,
            -1.0,
            0.035 * math.sin(a) + 0.075 * math.cos(a) + 0.001,
        ),
        (0.0, math.sin(a / 2), 0.0, math.cos(a / 2)),
        side="B",
        sleeping=False,
    )
    for i, (x, y) in enumerate([(2.5, 0.0), (3.0, -1.5)]):
        w.add_piece(
            f"baton{i + 1}",
            "baton",
            (x, y, 0.022),
            (math.sin(math.pi / 4), 0.0, 0.0, math.cos(math.pi / 4)),
            sleeping=False,
        )
    w.run_until_rest(max_time=3.0)
    w.settle_forces()
    snap = w.snapshot()
    w.close()
    return snap


def time_it(fn, batches: int = 40, per_batch: int = 50) -> list[float]:
    """CPU seconds per call (``time.process_time``, so that other processes on a busy
    machine do not count), one figure per batch of calls."""
    for _ in range(50):
        fn()
    out = []
    for _ in range(batches):
        t0 = time.process_time()
        for _ in range(per_batch):
            fn()
        out.append((time.process_time() - t0) / per_batch)
    return out


def main() -> None:
    snap = build_snapshot()
    movable = [p for p in snap.pieces.values() if p.kind != "stake"]
    ctx = ThrowContext(thrower="A", field_kubbs=frozenset({"F0", "F1", "F2", "F3", "F4", "F5", "F6"}))
    j = judge_throw(snap, ctx)
    print(f"snapshot: {len(movable)} movable pieces ({len(snap.pieces)} with stakes), {len(snap.contacts)} contacts")
    print("rulings: " + ", ".join(f"{r.piece}={r.status.value}" for r in j.rulings if r.status.value != "standing"))
    t = time_it(lambda: judge_throw(snap, ctx))
    print(
        f"judge_throw:  median {statistics.median(t) * 1e6:.0f} µs CPU per call (fastest batch {min(t) * 1e6:.0f} µs)"
    )
    ictx = InkastContext(inkasting_side="A", inkasted=("F3",))
    t = time_it(lambda: judge_inkast(snap, ictx), 10)
    print(
        f"judge_inkast: median {statistics.median(t) * 1e6:.0f} µs CPU per call (one inkasted kubb, fastest batch "
        f"{min(t) * 1e6:.0f} µs)"
    )
    cluster_timings()


def cluster_snapshot(n: int, out_m: float):
    """``n`` kubbs lying across the pitch end to end by the left sideline of A's half (x = -2 m,
    the outermost reaching ``out_m`` over the line), no physics: a cluster whose raisings meet."""
    from kubb3d.judge.geometry import quat_from_rows
    from kubb3d.pitch import Pitch
    from kubb3d.snapshot import GROUND_ID, Contact, PieceState, Snapshot

    pitch = Pitch(8.0, 5.0)
    hx, hz = 0.035, 0.075
    rows = ((0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (1.0, 0.0, 0.0))  # lying, long axis (body z) along +y
    pieces, contacts = {}, []
    for i in range(n):
        y = pitch.half_width + out_m - hz - i * (2 * hz + 0.071)
        pid = f"K{i + 1}"
        pieces[pid] = PieceState(
            pid, "kubb", "box", (hx, hx, hz), (-2.0 - 0.01 * i, y, hx), quat_from_rows(rows), 0.4557
        )
        for sy in (-1, 1):
            for sx in (-1, 1):
                c = (-2.0 - 0.01 * i + sx * hx, y + sy * hz, 0.0)
                contacts.append(Contact(pid, GROUND_ID, c, c, (0.0, 0.0, 1.0), 0.4557 * 9.81 / 4))
    return Snapshot(0.0, pieces, tuple(contacts), pitch, 9.81)


def cluster_timings() -> None:
    """Thrown outermost first, the raiser's preferred raising keeps every kubb inside; innermost
    first, it does not, and the raisings are searched (DM §7, WS basic rule 13)."""
    for ruleset in ("dm", "wikinger"):
        for n in (2, 4):
            snap = cluster_snapshot(n, 0.12)
            for first, reverse in (("outermost", False), ("innermost", True)):
                ictx = InkastContext(
                    inkasting_side="B",
                    inkasted=tuple(sorted(snap.pieces, reverse=reverse)),
                    ruleset=ruleset,
                    prefer="front",
                )
                t = time_it(lambda snap=snap, ictx=ictx: judge_inkast(snap, ictx), 10, 10)
                print(
                    f"judge_inkast {ruleset}, {n} lying kubbs end to end by the sideline, {first} first: median "
                    f"{statistics.median(t) * 1e6:.0f} µs CPU per call (fastest batch {min(t) * 1e6:.0f} µs)"
                )


if __name__ == "__main__":
    main()

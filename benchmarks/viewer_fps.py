"""Frame rate of the headless 3D renderer, with the CPU time per frame and the load.

On a CPU renderer (Mesa llvmpipe) the wall-clock rate depends on how many cores other
processes leave free, so this also reports the process's CPU time per frame (all threads,
llvmpipe's included), the main thread's share of it (Python, the HUD, the OpenGL calls and
llvmpipe's vertex work; the rest is llvmpipe's rasterizer threads) and the 1-minute load
average before and after: compare runs by CPU time, or by frames per second at a similar
load. ``1000 / cpu_ms`` is the rate one idle core would give if the work ran there in series.

Scenes (1280×720 unless given, HUD included, orbit camera turning, one baton flying):

* ``flying``: as ``kubb3d bench --viewer`` (:func:`kubb3d.viewer.bench.viewer_fps`): the
  flying baton is left out of the shadow map, which is not redrawn;
* ``tumbling``: every frame another piece starts moving, so that the shadow map is redrawn
  every frame (the worst case, e.g. kubbs falling over after a hit).

Usage::

    .venv/bin/python benchmarks/viewer_fps.py [--frames 200] [--width 1280] [--height 720] [--json]

``--json``: one JSON object a scene (what docs/viewer.md "Frame rate" quotes), with the
commit of the kubb3d measured (``git describe --always --dirty`` in its folder, or null).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time

import numpy as np


def run(width: int, height: int, frames: int, tumbling: bool) -> tuple[float, float, float, int]:
    """(frames per second, CPU ms per frame (all threads), the main thread's CPU ms per frame,
    shadow-map redraws) over ``frames`` frames."""
    from kubb3d.viewer.app import App, PlaySession
    from kubb3d.viewer.scene import PieceView

    session = PlaySession()
    scene = session.scene
    for i in range(1, 7):
        x, y = 1.5 + 0.3 * i, -2.0 + 0.7 * i
        scene.pieces[f"baton{i}"] = PieceView(
            "baton", np.array((x, y, 0.022, 0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4)))
        )
    app = App(session, width, height, headless=True, mode="play", camera="orbit")
    ids = sorted(p for p in scene.pieces if p != "baton1")
    try:
        ctl = app.controller
        app.frame(0.0)
        app.renderer.finish()
        redraws = 0
        t0, c0, m0 = time.perf_counter(), time.process_time(), time.thread_time()
        for k in range(frames):
            ctl.orbit.orbit(0.01, 0.0)
            scene.pieces["baton1"].pose[:3] = (-2.0 + 0.02 * k % 6.0, 0.0, 0.6 + 0.3 * math.sin(0.05 * k))
            if tumbling:  # nudge one more piece: it joins the moving ones, the map changes
                scene.pieces[ids[k % len(ids)]].pose[2] += 1e-3 * (1 if (k // len(ids)) % 2 == 0 else -1)
            app.frame(1 / 60)
            redraws += app.renderer.stats.shadow_redrawn
        app.renderer.finish()
        wall, cpu, main = time.perf_counter() - t0, time.process_time() - c0, time.thread_time() - m0
        return frames / wall, 1000 * cpu / frames, 1000 * main / frames, redraws
    finally:
        app.close()


def commit() -> str | None:
    """The commit of the kubb3d package imported (its folder's ``git describe --always
    --dirty``), or None outside a git checkout."""
    import subprocess
    from pathlib import Path

    import kubb3d

    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=Path(kubb3d.__file__).parent,
                             capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=200)
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=720)
    ap.add_argument("--json", action="store_true", help="one JSON object a scene")
    args = ap.parse_args()
    from kubb3d.viewer.app import load_pyglet

    load_pyglet(headless=True)
    version = commit() if args.json else None
    for name, tumbling in (("flying", False), ("tumbling", True)):
        load0 = os.getloadavg()[0]
        fps, cpu_ms, main_ms, redraws = run(args.width, args.height, args.frames, tumbling)
        load1 = os.getloadavg()[0]
        if args.json:
            print(json.dumps({
                "scene": name, "width": args.width, "height": args.height, "frames": args.frames,
                "fps": round(fps, 1), "cpu_ms": round(cpu_ms, 2), "main_thread_ms": round(main_ms, 2),
                "shadow_redraws": redraws, "load": [round(load0, 2), round(load1, 2)], "cpus": os.cpu_count(),
                "commit": version,
            }))
            continue
        print(
            f"{name:9s} {args.width}x{args.height}: {fps:5.1f} frames/s, {cpu_ms:5.1f} ms CPU per frame "
            f"({main_ms:4.1f} ms main thread; one idle core: {1000 / cpu_ms:4.1f} frames/s), shadow map redrawn "
            f"{redraws}/{args.frames} frames, load {load0:.2f} → {load1:.2f} on {os.cpu_count()} CPUs"
        )


if __name__ == "__main__":
    main()

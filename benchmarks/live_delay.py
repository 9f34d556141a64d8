"""Delay from a person's release to the first frame that shows the thrown piece, in match mode.

Drives ``kubb3d play --opponent club`` headless (EGL) the way the window's clock does: every
frame takes the wall time since the last one (at most 0.1 s, as the app's tick), advances the
session and renders. For each of the person's baton throws (the scripted noise-free throw of
:func:`kubb3d.viewer.match_mode.scripted_person`) it releases, then records

* ``delay_s``: wall time from the release to the end of the first rendered frame where the
  thrown piece is drawn (not hidden) and, in the follow camera, inside the picture;
* ``out_m``: how far that drawn piece is from its release point, m;
* ``frames``: how many frames were drawn from the release to that one (1: the frame that
  handles the release shows the piece);
* ``worst_frame_s`` and ``median_frame_s``: the longest and the median wall time between two
  frames from the release until the piece is at rest (the longest: how long the window did
  not answer; the median: what drawing one frame costs at this load).

The opponent's actions in between are skipped (played back at once). Timings on a CPU
renderer depend on the load: the 1-minute load average is printed with the figures.

Usage::

    .venv/bin/python benchmarks/live_delay.py [--throws 12] [--camera thrower] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np


def measure(
    throws: int, camera: str, seed: int, width: int, height: int
) -> list[tuple[float, float, int, float, float]]:
    """(delay s, distance m, frames, worst frame s, median frame s) of the person's first
    ``throws`` baton throws."""
    from kubb3d.throw import release_from_params
    from kubb3d.viewer.app import App
    from kubb3d.viewer.camera import project
    from kubb3d.viewer.match_mode import MatchSession, scripted_person

    session = MatchSession("dm", "club", seed=seed)
    app = App(session, width, height, headless=True, mode="play", camera=camera)
    person = scripted_person(session.match)
    out: list[tuple[float, float, int, float, float]] = []
    try:
        while len(out) < throws and not session.over:
            for _ in range(10000):  # the opponent's actions: at once
                if session.request is not None or session.over:
                    break
                session.skip()
                app.frame(0.0)
            req = session.request
            if req is None:
                break
            params = person(req)
            if req.kind not in ("baton", "king"):
                app.pending_params = params
                app.frame(0.0)
                session.skip()
                continue
            start = np.asarray(release_from_params(params, session.pitch).position)
            app.pending_params = params
            t0 = last = time.perf_counter()
            seen, gaps = None, []
            while True:
                now = time.perf_counter()
                dt, last = now - last, now
                gaps.append(dt)
                app.frame(min(dt, 0.1))
                app.renderer.finish()
                sc, seg = session.scene, session.segment
                if seen is None and seg is not None and seg.thrown == req.piece and req.piece not in sc.hidden:
                    pos = sc.pieces[req.piece].pose[:3]
                    w, h = app.renderer.width, app.renderer.height
                    _, vis = project(pos, app.camera.view_proj(w, h), w, h)
                    if camera != "follow" or vis[0]:
                        seen = (time.perf_counter() - t0, float(np.linalg.norm(pos - start)), len(gaps))
                # at rest: the step's own segment (a live one is "at rest" at its last frame so far)
                if seg is not None and seg.thrown == req.piece and seg.at_rest(session.t) and not seg.info.get("live"):
                    break
                if time.perf_counter() - t0 > 30:
                    break
            if seen is not None:
                out.append((*seen, max(gaps[1:] or gaps), statistics.median(gaps[1:] or gaps)))
            session.skip()
    finally:
        app.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throws", type=int, default=12)
    ap.add_argument("--camera", default="thrower", choices=("thrower", "follow", "orbit", "top"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=720)
    a = ap.parse_args()
    load0 = os.getloadavg()[0]
    rows = measure(a.throws, a.camera, a.seed, a.width, a.height)
    load1 = os.getloadavg()[0]
    if not rows:
        print("no throw measured")
        return
    d, m, n, w, f = (sorted(c) for c in zip(*rows))
    print(f"camera {a.camera}, {len(rows)} baton throws of the person (seed {a.seed}), load {load0:.1f} -> {load1:.1f}")
    print(f"delay to the first frame with the piece: median {statistics.median(d):.3f} s, "
          f"range {d[0]:.3f}-{d[-1]:.3f} s")
    print(f"piece from its release point then: median {statistics.median(m):.2f} m, range {m[0]:.2f}-{m[-1]:.2f} m")
    print(f"frames drawn until then: median {statistics.median(n):g}, range {n[0]}-{n[-1]}")
    print(f"longest frame during the throw: median {statistics.median(w):.3f} s, max {w[-1]:.3f} s; "
          f"median frame {statistics.median(f):.3f} s")


if __name__ == "__main__":
    main()

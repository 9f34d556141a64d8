"""How long a computer turn of ``kubb3d play --opponent club`` takes to watch (issue 34, item 6).

Plays a DM match in :class:`~kubb3d.viewer.match_mode.MatchSession` as the window does, without
drawing: a frame every 1/30 s of wall time (the loop sleeps the rest of each frame), each
frame advancing the playback by the wall time since the last one times the controller's rate
(:meth:`~kubb3d.viewer.controls.Controller.rate`). The person's throws are scripted
(:func:`~kubb3d.viewer.match_mode.scripted_person`) and released at once. A computer turn is a
run of frames from the end of the person's last throw to the next request to the person; its
wall time is reported, for the computer's throws at ``--rate`` 1 (before issue 34) or at the
default :data:`~kubb3d.viewer.controls.COMPUTER_RATE`. A match is one sequence, so the two
rates cannot be interleaved turn by turn: the runs follow each other, report the load.

Usage::

    .venv/bin/python benchmarks/computer_turns.py [--seed 1] [--turns 4] [--rate 1]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time


def run(seed: int, turns: int, rate: float | None) -> list[float]:
    """Wall seconds of the first ``turns`` computer turns (``rate``: the computer's playback
    rate, None: the viewer's own)."""
    import kubb3d.viewer.controls as controls
    from kubb3d.viewer.controls import Controller
    from kubb3d.viewer.match_mode import MatchSession, scripted_person

    if rate is not None:
        controls.COMPUTER_RATE = rate
    s = MatchSession("dm", "club", seed=seed)
    ctl = Controller(s.pitch, throw=s.controls)
    person = scripted_person(s.match)
    out: list[float] = []
    start = None
    last = time.perf_counter()
    try:
        while len(out) < turns and not s.over:
            now = time.perf_counter()
            dt, last = now - last, now
            if s.request is not None:
                if start is not None:
                    out.append(now - start)
                    start = None
                s.throw(person(s.request))
                continue
            computer = s.computer_on_screen
            if computer and start is None:
                start = now
            s.update(dt * ctl.rate(computer))
            time.sleep(max(0.0, 1 / 30 - (time.perf_counter() - now)))
    finally:
        s.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turns", type=int, default=4)
    ap.add_argument("--rate", type=float, default=None, help="the computer's playback rate (default: the viewer's)")
    a = ap.parse_args()
    load0 = os.getloadavg()[0]
    turns = run(a.seed, a.turns, a.rate)
    load1 = os.getloadavg()[0]
    shown = ", ".join(f"{t:.1f}" for t in turns)
    median = statistics.median(turns)
    print(f"seed {a.seed}, rate {a.rate or 'default'}: computer turns {shown} s (median {median:.1f} s); "
          f"load {load0:.1f} -> {load1:.1f}")


if __name__ == "__main__":
    main()

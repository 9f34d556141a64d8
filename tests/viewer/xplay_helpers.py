"""Helpers of the play-through tests (issue 18, item 7): a fresh Xvfb display, ``kubb3d play``
in a window on it driven by xdotool input events, screenshots of the display, the replay the
match writes as it goes (imported by name, as tests/experiment/experiment_helpers.py is)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

W, H = 1280, 720
"""px: the virtual screen and the window."""


def _need(*programs: str) -> None:
    missing = [p for p in programs if shutil.which(p) is None]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not installed: no virtual display to play on "
                    "(.ci/run installs xvfb and xdotool)")


@pytest.fixture()
def display():
    """A fresh Xvfb display, e.g. ``:3``; stopped afterwards."""
    _need("Xvfb", "xdotool")
    r, w = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", f"{W}x{H}x24", "-nolisten", "tcp"],
                            pass_fds=(w,), stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as fh:
        number = fh.readline().strip()
    if not number:
        proc.kill()
        pytest.skip("Xvfb did not start")
    try:
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def records(path: Path) -> list[dict]:
    """The records of a replay being written (a line still being written is left out)."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:  # a line being written
            break
    return out


class WindowPlay:
    """``kubb3d play ARGS…`` in a window on ``display`` (cwd ``folder``): input events with
    :meth:`xdo`, screenshots of the display with :meth:`shot`, the end with :meth:`close`."""

    def __init__(self, display: str, folder: Path, *args: str) -> None:
        self.display, self.folder = display, folder
        self.env = {**os.environ, "DISPLAY": display}
        cmd = [sys.executable, "-c", "from kubb3d.cli import main; main()", "play", *args,
               "--width", str(W), "--height", str(H)]
        self.proc = subprocess.Popen(cmd, env=self.env, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        self.shots: list[Path] = []

    def xdo(self, *args: str) -> str:
        return subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=30).stdout

    def shot(self, name: str) -> Path:
        from PIL import ImageGrab

        path = self.folder / f"{len(self.shots):02d}-{name}.png"
        ImageGrab.grab(xdisplay=self.display).save(path)
        self.shots.append(path)
        return path

    def alive(self) -> None:
        """Fail with the program's error output if it has ended."""
        assert self.proc.poll() is None, self.proc.communicate()[1][-2000:]

    def wait_for_first_frame(self, timeout: float = 60.0) -> None:
        """Until the window is open and shows a frame (not black)."""
        from PIL import ImageGrab

        end = time.monotonic() + timeout
        while not self.xdo("search", "--name", "^kubb3d$").strip():
            self.alive()
            assert time.monotonic() < end, "the window did not open"
            time.sleep(0.5)
        while np.asarray(ImageGrab.grab(xdisplay=self.display).convert("RGB")).mean() <= 20:
            assert time.monotonic() < end, "the window stays black"
            time.sleep(0.5)

    def flick_or_throw(self, x: int, y: int, hold_s: float) -> None:
        """Point at (x, y) px, hold the left button ``hold_s`` s (the power bar), release."""
        self.xdo("mousemove", str(x), str(y))
        self.xdo("mousedown", "1")
        time.sleep(hold_s)
        self.xdo("mouseup", "1")

    def play_to_the_end(self, replay: Path, aims, holds, shot_every: tuple[int, int], name: str,
                        time_limit_s: float) -> Path:
        """Until the replay has its outcome: point at ``aims[i]`` (px) in turn, hold the button
        ``holds[i]`` s in turn and release (ignored unless the person's throw is due), a
        screenshot every ``shot_every[0]``-th try (offset ``shot_every[1]``), N to skip the
        playback to rest (the opponent's throws too), O to open the set if the person won the lag
        and is asked (DM §3; no other key answers it). Then the summary's screenshot, returned.
        Fails after ``time_limit_s`` s."""
        end = time.monotonic() + time_limit_s
        cycles = 0
        while not any(r.get("type") == "outcome" for r in records(replay)):
            self.alive()
            assert time.monotonic() < end, f"no match over after {time_limit_s:.0f} s ({cycles} {name}s tried)"
            self.flick_or_throw(*aims[cycles % len(aims)], holds[cycles % len(holds)])
            time.sleep(0.4)
            if cycles % shot_every[0] == shot_every[1]:
                self.shot(f"{name}-{cycles}")
            self.xdo("key", "n")
            self.xdo("key", "o")
            time.sleep(0.3)
            cycles += 1
        # the summary once it is up (N skips the last playback), at most SUMMARY_WAIT_S s: the
        # screenshot is then taken anyway and the caller's summary_shown fails on it (this
        # polled; it slept a fixed 3.5 s)
        until = time.monotonic() + SUMMARY_WAIT_S
        while time.monotonic() < until:
            self.alive()
            self.xdo("key", "n")
            time.sleep(0.3)
            if summary_shown_on(self.display):
                break
        return self.shot("match-over")

    def quit(self) -> int:
        """ESC; the exit code."""
        self.xdo("key", "Escape")
        self.proc.wait(timeout=30)
        return self.proc.returncode

    def close(self) -> None:
        """Stop the program if it still runs; keep the screenshots in ``$KUBB3D_KEEP_SHOTS``."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=30)
        keep = os.environ.get("KUBB3D_KEEP_SHOTS")
        if keep:
            for p in self.shots:
                shutil.copy(p, Path(keep) / p.name)


SUMMARY_WAIT_S = 10.0
"""s: how long :meth:`WindowPlay.play_to_the_end` waits for the summary after the outcome."""


def _summary_in(img: np.ndarray) -> bool:
    return img[H // 2 - 40: H // 2 + 40, W // 2 - 200: W // 2 + 200].mean() < 90


def summary_shown(path: Path) -> bool:
    """The end-of-match summary (a dark panel) fills the middle of a screenshot."""
    from PIL import Image

    return _summary_in(np.asarray(Image.open(path).convert("RGB")).astype(int))


def summary_shown_on(display: str) -> bool:
    """:func:`summary_shown` of what ``display`` shows now."""
    from PIL import ImageGrab

    return _summary_in(np.asarray(ImageGrab.grab(xdisplay=display).convert("RGB")).astype(int))


def _thrower(action: dict) -> str | None:
    """Who threw in a replay's action record: the player of its penalty event for a penalty throw
    (its first event is the inkast that gave the penalty kubb, told as the inkasting player's),
    else the player of its first event."""
    events = action["events"]
    if action.get("action", {}).get("type") == "PenaltyThrow":
        return next((e.get("player") for e in events if e.get("kind") == "penalty"), None)
    return events[0].get("player") if events else None


def persons_throws(recs: list[dict], person: str = "P1") -> list[dict]:
    """The throw records of the person's actions in a replay."""
    actions = [r for r in recs if r.get("type") == "action"]
    return [t for r in actions if _thrower(r) == person for t in r.get("throws", ())]

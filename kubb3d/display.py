"""``kubb3d.show``: look at a world, a throw, a replay or a scenario from Python.

With a display (and no ``path``) it opens the 3D viewer window and returns when it is closed;
without one, or with ``path``, it renders one frame headless with the viewer's OpenGL
renderer and saves it as PNG. pyglet is imported only when :func:`show` is called.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

DEFAULT_PNG = "kubb3d-show.png"
"""Where a headless picture goes when no ``path`` is given (the current folder)."""


def _equipment_of(snapshot) -> str:
    """The equipment set whose kubbs have the size of the snapshot's kubbs (standard if none)."""
    from kubb3d.equipment import EQUIPMENT_SETS, get_set

    kubbs = [p for p in snapshot.pieces.values() if p.kind == "kubb"]
    if not kubbs:
        return "standard"
    height = 2 * max(kubbs[0].half_extents)
    return min(EQUIPMENT_SETS, key=lambda name: abs(max(get_set(name).kubb.height, get_set(name).kubb.width) - height))


def _session(obj: Any, equipment: str | None):
    """A viewer session for ``obj`` and the headless camera that suits it."""
    from kubb3d.snapshot import Snapshot
    from kubb3d.throw import ThrowResult

    if isinstance(obj, (str, os.PathLike)):
        from kubb3d.viewer.replay import load_session

        return load_session(Path(obj)), "orbit"
    if isinstance(obj, ThrowResult):
        from kubb3d.viewer.app import ReplaySession
        from kubb3d.viewer.scene import Scene, Timeline, segment_from_throw

        snap: Any = obj.final
        scene = Scene.from_snapshot(snap, equipment or _equipment_of(snap))
        start = scene.poses()
        for pid, poses in obj.trajectory.poses.items():
            start[pid] = poses[0].copy()
        segment = segment_from_throw(obj, start, f"throw of {obj.piece}")
        session = ReplaySession(Timeline([segment], playing=True), scene, "kubb3d.show: a throw")
        # frame the half the baton went to: its kubbs, the king and where the baton lies
        bx = snap.pieces[obj.piece].position[0] if obj.piece in snap.pieces else 1.0
        session.focus = [obj.piece] + [
            p
            for p, s in snap.pieces.items()
            if s.kind in ("kubb", "king") and (s.position[0] * bx > 0 or s.kind == "king")
        ]
        return session, "orbit"
    snap = obj if isinstance(obj, Snapshot) else getattr(obj, "snapshot", None)
    if callable(snap):  # a World
        snap = snap()
    if not isinstance(snap, Snapshot):
        raise TypeError(
            "kubb3d.show takes a World, a Snapshot, a ThrowResult or the path of a replay or scenario file, got "
            f"{type(obj).__name__}"
        )
    from kubb3d.viewer.still import _StillSession
    from kubb3d.viewer.scene import Scene

    scene = Scene.from_snapshot(snap, equipment or _equipment_of(snap))
    return _StillSession(scene, [p for p, s in snap.pieces.items() if s.kind in ("kubb", "king")]), "orbit"


def _free_default() -> Path:
    """:data:`DEFAULT_PNG`, or the first of ``kubb3d-show-2.png``, ``-3`` … that does not exist."""
    first = Path(DEFAULT_PNG)
    out, n = first, 1
    while os.path.lexists(out):
        n += 1
        out = first.with_name(f"{first.stem}-{n}{first.suffix}")
    return out


def show(
    obj: Any,
    path: str | Path | None = None,
    *,
    width: int = 960,
    height: int = 540,
    equipment: str | None = None,
    at: float | None = None,
    force: bool = False,
) -> Path | None:
    """Show ``obj`` in the 3D viewer, or save a PNG of it.

    Args:
        obj: a :class:`~kubb3d.physics.world.World` (its position now), a
            :class:`~kubb3d.snapshot.Snapshot`, a :class:`~kubb3d.throw.ThrowResult` (the
            throw played back; the picture shows where everything came to rest), or the path
            of a replay (``kubb3d match --replay``) or scenario (``.toml``) file.
        path: save a PNG here instead of opening a window. Without a display (no
            ``DISPLAY``/``WAYLAND_DISPLAY``) a PNG is always saved, by default to
            :data:`DEFAULT_PNG` in the current folder, with a warning naming it.
        width: window or picture width, px.
        height: window or picture height, px.
        equipment: equipment set to draw (default: the one whose kubbs match the pieces').
        at: for a replay, a throw or a scenario: the time to picture, s (default: the end).
        force: let ``path`` replace an existing file (the rule of the command line's ``--force``:
            without it an existing file is refused). The default file never replaces one: an
            existing ``kubb3d-show.png`` makes it ``kubb3d-show-2.png``, ``-3`` … instead.

    Returns:
        The PNG's path, or None after the window was closed.

    Raises:
        TypeError: ``obj`` is none of the above.
        kubb3d.files.FileSafetyError: ``path`` exists (without ``force``), is a link or a folder,
            does not end in ``.png``, or its folder does not exist.
        kubb3d.viewer.replay.ReplayError: a file that cannot be shown.
    """
    from kubb3d.files import FileSafetyError, check_output

    if path is not None:  # before any work
        if Path(path).suffix.lower() != ".png":
            raise FileSafetyError(f"kubb3d.show: path must name a .png file (a PNG picture), got {path}")
        check_output(path, "kubb3d.show path", overwrite=force, force_word="force=True")
    session, camera = _session(obj, equipment)
    headless = path is not None or not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    from kubb3d.viewer.app import App, screenshot_session

    if headless:
        out = Path(path) if path is not None else _free_default()
        if path is None:
            warnings.warn(f"kubb3d.show: no display, so the picture was saved to {out.resolve()}", stacklevel=2)
        if hasattr(session, "timeline"):
            return screenshot_session(session, out, at=at, width=width, height=height, camera=camera)
        app = App(session, width, height, headless=True, mode="view", camera=camera)
        try:
            app.frame(0.0)
            app.frame(0.0)
            return app.screenshot(out)
        finally:
            app.close()
    app = App(session, width, height, headless=False, mode="view", camera=camera)
    try:
        app.run()
    finally:
        app.close()
    return None

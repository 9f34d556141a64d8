"""Headless pictures of a still position: the viewer's renderer (OpenGL off-screen, pyglet's
EGL headless mode) drawing the pieces of a :class:`~kubb3d.snapshot.Snapshot` without the HUD.

Used by the Gymnasium environments' ``render_mode="rgb_array"`` and by :func:`kubb3d.show`.
Importing this module imports pyglet: import it only when a picture is wanted.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from kubb3d.viewer.app import App
from kubb3d.viewer.hud import Hud
from kubb3d.viewer.scene import PieceView, Scene


class _StillSession:
    """The minimal session :class:`~kubb3d.viewer.app.App` draws: a scene that does not move."""

    busy = False
    can_throw = False

    def __init__(self, scene: Scene, focus: Sequence[str] = ()) -> None:
        self.scene = scene
        self.focus = list(focus)

    def update(self, dt: float) -> None:
        pass

    def follow(self):
        return None

    def hud(self, ctl) -> Hud:
        return Hud()

    def close(self) -> None:
        pass


class StillRenderer:
    """Renders snapshots of one pitch and equipment set into RGB arrays.

    Args:
        snapshot: the first position (it fixes the pitch and the pieces' kinds).
        equipment: equipment set name (``standard``, ``dm-small``, ``kubbuteo``).
        width, height: image size, px.
        camera: ``thrower`` (behind side A's baseline), ``top`` or ``orbit`` (an orbit camera
            framing ``focus``, or the whole pitch).
        focus: piece ids the ``orbit`` camera frames.
    """

    def __init__(self, snapshot, equipment: str, width: int = 640, height: int = 480, *, camera: str = "thrower", focus: Sequence[str] = ()) -> None:
        scene = Scene.from_snapshot(snapshot, equipment)
        self.session = _StillSession(scene, [f for f in focus if f in scene.pieces])
        self.app = App(self.session, width, height, headless=True, mode="view", camera=camera)

    def render(self, snapshot) -> np.ndarray:
        """The image of ``snapshot``: uint8 array of shape (height, width, 3), top row first."""
        scene = self.session.scene
        scene.pieces = {pid: PieceView(p.kind, np.array((*p.position, *p.quat_xyzw), dtype=float), side=p.side) for pid, p in snapshot.pieces.items()}
        # the renderer leaves pieces that moved since its last frame out of the shadow map:
        # a second frame of the same position draws every shadow
        self.app.frame(0.0, hud=False)
        self.app.frame(0.0, hud=False)
        return np.ascontiguousarray(self.app.pixels())

    def close(self) -> None:
        """Free the OpenGL context."""
        self.app.close()

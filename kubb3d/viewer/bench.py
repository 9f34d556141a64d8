"""Frame rate of the headless renderer (``kubb3d bench --viewer``)."""

from __future__ import annotations

import math
import time


def viewer_fps(width: int = 1280, height: int = 720, frames: int = 200, equipment: str = "standard") -> float:
    """Frames per second of the headless renderer drawing the standard set-up with every
    piece (ten kubbs, the king, six stakes and six batons lying on the pitch), HUD included,
    while the orbit camera turns and one baton flies (its sun shadow on the grass moves every
    frame; a piece in motion is left out of the shadow map, so the map is not redrawn). The
    first frame (shader compilation) is not counted; the clock stops
    after ``glFinish`` of the last frame. With ``equipment="kubbuteo"`` the same on the
    table-top board (table, floor; every position scaled to the board, the batons lying flat).

    Args:
        width, height: framebuffer size, px.
        frames: frames to time (≥ 1).
        equipment: ``standard`` or ``kubbuteo``.
    """
    import numpy as np

    from kubb3d.equipment import get_set
    from kubb3d.viewer.app import App, PlaySession
    from kubb3d.viewer.camera import view_scale
    from kubb3d.viewer.scene import PieceView

    board = get_set(equipment).board is not None
    session = PlaySession(equipment, "kubbuteo" if board else "dm")
    scene = session.scene
    k = view_scale(session.pitch)
    lying = (0.0, 0.0, 0.0, 1.0) if board else (0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4))
    for i in range(1, 7):
        x, y = (1.5 + 0.3 * i) * k, (-2.0 + 0.7 * i) * k
        scene.pieces[f"baton{i}"] = PieceView("baton", np.array((x, y, get_set(equipment).baton.radius if not board else 0.004, *lying)))
    app = App(session, width, height, headless=True, mode="play", camera="orbit")
    try:
        ctl = app.controller
        app.frame(0.0)
        app.renderer.finish()
        t0 = time.perf_counter()
        s = view_scale(session.pitch)
        for k in range(frames):
            ctl.orbit.orbit(0.01, 0.0)
            a = 0.05 * k
            scene.pieces["baton1"].pose[:3] = ((-2.0 + 0.02 * k % 6.0) * s, 0.0, (0.6 + 0.3 * math.sin(a)) * s)
            app.frame(1 / 60)
        app.renderer.finish()
        return frames / (time.perf_counter() - t0)
    finally:
        app.close()

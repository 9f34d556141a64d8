"""Headless pictures of a still position: the viewer's renderer (OpenGL off-screen, pyglet's
EGL headless mode) drawing the pieces of a :class:`~kubb3d.snapshot.Snapshot` without the HUD.

Used by the Gymnasium environments' ``render_mode="rgb_array"``, by :func:`kubb3d.show` and by
the referee quiz (:func:`situation_views`: a top and a side view with the pieces labelled).
Importing this module imports pyglet: import it only when a picture is wanted.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np

from kubb3d.i18n import ENGLISH, Translator
from kubb3d.viewer.app import App, load_pyglet
from kubb3d.viewer.camera import OrbitCamera
from kubb3d.viewer.hud import Hud
from kubb3d.equipment import get_set
from kubb3d.viewer.scene import PieceView, Scene, outside_labels

if TYPE_CHECKING:
    from kubb3d.scenario import Built


class _StillSession:
    """The minimal session :class:`~kubb3d.viewer.app.App` draws: a scene that does not move."""

    busy = False
    can_throw = False
    tr: Translator = ENGLISH  # the labels' language

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
        tr: the language of the labels (the king's and the areas' names).
    """

    def __init__(self, snapshot, equipment: str, width: int = 640, height: int = 480, *, camera: str = "thrower", focus: Sequence[str] = (), tr: Translator = ENGLISH) -> None:
        scene = Scene.from_snapshot(snapshot, equipment)
        self.session = _StillSession(scene, [f for f in focus if f in scene.pieces])
        self.session.tr = tr
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


VIEW_DISTANCE = 2.0
"""The quiz's cameras stand this many times the focus pieces' spread (m) from their centre."""


def _nearest_landmark(snapshot, ids: Sequence[str], near) -> np.ndarray:
    """The point (x, y, 0) of a pitch line, a stake or the king (unless in ``ids``) nearest to
    ``near``, so that a view shows where on the pitch its pieces are."""
    pitch, (x, y) = snapshot.pitch, (float(near[0]), float(near[1]))
    hl, hw = pitch.length / 2, pitch.half_width
    cx, cy = min(max(x, -hl), hl), min(max(y, -hw), hw)
    cands = [(pitch.baseline_x(s), cy) for s in ("A", "B")] + [(0.0, cy), (cx, hw), (cx, -hw)]
    cands += [p.position[:2] for pid, p in snapshot.pieces.items() if p.kind in ("stake", "king") and pid not in ids]
    best = min(cands, key=lambda c: math.hypot(c[0] - x, c[1] - y))
    return np.array((best[0], best[1], 0.0))


def situation_views(snapshot, equipment: str, focus: Sequence[str], out_dir: str | Path, stem: str, size: tuple[int, int] = (640, 480), tr: Translator = ENGLISH) -> tuple[Path, Path]:
    """Save a top and a side view of a rule situation as PNG (``<stem>-top.png``,
    ``<stem>-side.png`` in ``out_dir``), drawn by the 3D view's renderer: grass, pitch lines,
    shadows, the sky on the horizon of the side view and every kubb and the king labelled
    with its id; the ground outside the pitch under a red veil, named ("OUT (behind baseline
    B)" …) where it is in view; both centred on the ``focus`` pieces (all pieces if none).

    Args:
        snapshot: the position (:class:`~kubb3d.snapshot.Snapshot`).
        equipment: equipment set name.
        focus: ids of the pieces the situation is about.
        out_dir: folder (created if missing, its parent never: :func:`kubb3d.files.output_folder`).
        stem: file name stem.
        size: (width, height) px.
        tr: the language of the labels.

    Returns:
        (top view path, side view path).
    """
    from kubb3d.files import output_folder

    out_dir = output_folder(out_dir, "--out")
    ids = [f for f in focus if f in snapshot.pieces] or list(snapshot.pieces)
    pts = np.array([snapshot.pieces[f].position for f in ids], dtype=float)
    spread = float(max(0.35, np.ptp(pts[:, :2], axis=0).max() * 1.3 + 0.3)) if len(pts) > 1 else 0.35
    pts = np.vstack([pts, _nearest_landmark(snapshot, ids, pts.mean(axis=0))])  # where on the pitch
    centre = (pts.min(axis=0) + pts.max(axis=0)) / 2
    spread = max(spread, float(np.ptp(pts[:, :2], axis=0).max()) * 0.75 + 0.25)
    w, h = size
    r = StillRenderer(snapshot, equipment, w, h, camera="orbit", focus=ids, tr=tr)
    try:
        ctl = r.app.controller
        sc = r.session.scene
        sc.pieces = {pid: PieceView(p.kind, np.array((*p.position, *p.quat_xyzw), dtype=float), side=p.side) for pid, p in snapshot.pieces.items()}
        if get_set(equipment).board is None:  # on a pitch of grass: which side of a line is out
            sc.outside_shade = True
            sc.area_labels = outside_labels(sc.pitch, centre[:2], 0.55 * spread)
        paths = []
        side_eye_height = 0.25 + 0.3 * spread
        views = {"top": (math.radians(89.0), 0.0), "side": (math.atan2(side_eye_height - 0.08, VIEW_DISTANCE * spread), 0.08)}
        for view, (elevation, target_z) in views.items():
            ctl.orbit = OrbitCamera(target=np.array((centre[0], centre[1], target_z)), azimuth=-math.pi / 2, elevation=elevation, distance=VIEW_DISTANCE * spread / math.cos(elevation) if view == "side" else VIEW_DISTANCE * spread)
            r.app.frame(0.0)
            r.app.frame(0.0)  # every shadow (see StillRenderer.render)
            paths.append(r.app.screenshot(out_dir / f"{stem}-{view}.png"))
        return paths[0], paths[1]
    finally:
        r.close()


def render_views(built: Built, out_dir: str | Path, stem: str, size: tuple[int, int] = (640, 480), tr: Translator = ENGLISH) -> tuple[Path, Path]:
    """Save a top view and a side view of a built scenario (:func:`kubb3d.scenario.run` with
    ``keep_world=True``) as PNG, the pieces labelled, centred on the pieces the scenario is
    about (:func:`situation_views`), labelled in ``tr``'s language. Loads pyglet headless (EGL)
    when called.

    Returns:
        (top view path, side view path).
    """
    load_pyglet(headless=True)
    snap = built.snapshot
    return situation_views(snap, built.world.equipment.name, situation_focus(built.spec, snap), out_dir, stem, size, tr)


def situation_focus(spec, snapshot) -> list[str]:
    """The pieces a quiz picture of scenario ``spec`` frames: those its expected rulings are
    about, the batons it places (the thrown baton: where it came to rest), and for a king
    throw every kubb of the half thrown at, since the ruling depends on that whole half
    being down (DM §10; WS "End of the Game"). The king throw's top view once showed the
    king alone."""
    from kubb3d.pitch import opponent

    focus = [e.piece for e in spec.expect]
    focus += [pid for pid, p in snapshot.pieces.items() if p.kind == "baton"]
    if spec.event == "throw" and spec.throw is not None and spec.throw.king_throw:
        half = opponent(spec.throw.thrower)
        focus += [pid for pid, p in snapshot.pieces.items() if p.kind == "kubb" and p.side == half]
    return [pid for pid in dict.fromkeys(focus) if pid in snapshot.pieces]

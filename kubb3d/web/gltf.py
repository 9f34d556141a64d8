"""A scene as glTF (binary ``.glb``, written by trimesh) that any 3D tool opens (docs/web.md).

The scene is where a replay or a scenario leaves the pieces (:func:`kubb3d.viewer.replay.load_session`,
the poses at the end of its timeline; the pieces hidden there are left out): the pitch (a thin
green slab of its length and width with its painted lines, or a Kubbuteo board), and every piece as
its model file's mesh (``models/<set>-<kind>.obj``), named by its id, in metres. glTF's up is y:
kubb3d's world (z up) is turned by -90° about x (kubb3d's x, y, z is glTF's x, -z, y).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import numpy as np

GRASS_RGBA = (40, 110, 30, 255)
LINE_RGBA = (240, 240, 235, 255)


def _srgb(linear: tuple[float, float, float]) -> tuple[int, int, int, int]:
    r, g, b = (round(255 * float(c) ** (1 / 2.2)) for c in linear)
    return (r, g, b, 255)


def scene_glb(path: str | Path) -> bytes:
    """The glTF binary of the scene at the end of a replay or scenario file.

    Raises:
        kubb3d.errors.ReplayError: the file cannot be shown (bad replay, bad scenario …).
        FileNotFoundError: a model file is missing.
    """
    import trimesh

    from kubb3d.model_files import models_dir
    from kubb3d.viewer.replay import load_session
    from kubb3d.viewer.scene import model_matrix
    from kubb3d.viewer.textures import WOOD

    session = load_session(path)
    scene = session.scene
    timeline = session.timeline
    last = timeline.segments[-1]
    poses = timeline.final_poses()
    hidden = set(last.info.get("hidden", ()))
    out = trimesh.Scene()
    y_up = trimesh.transformations.rotation_matrix(-np.pi / 2, (1, 0, 0))

    def add(mesh: Any, name: str, rgba: tuple[int, int, int, int], transform: np.ndarray | None = None) -> None:
        # a material of one colour (face colours would need scipy to reach the vertices)
        material = trimesh.visual.material.PBRMaterial(
            name=name, baseColorFactor=rgba, roughnessFactor=0.8, metallicFactor=0.0
        )
        mesh.visual = trimesh.visual.TextureVisuals(material=material)
        place = y_up if transform is None else y_up @ transform
        out.add_geometry(mesh, node_name=name, geom_name=name, transform=place)

    board = scene.board
    if board is None:
        slab = trimesh.creation.box((scene.pitch.length, scene.pitch.width, 0.01))
        slab.apply_translation((0, 0, -0.005))
        add(slab, "pitch", GRASS_RGBA)
    else:
        top = trimesh.creation.box((board.length, board.width, board.thickness))
        top.apply_translation((0, 0, -board.thickness / 2))
        add(top, "board", _srgb(WOOD["board"]))
    ink = LINE_RGBA if board is None else (20, 15, 10, 255)
    for n, ((x0, y0), (x1, y1), width) in enumerate(scene.line_segments()):
        length = float(np.hypot(x1 - x0, y1 - y0)) + width
        line = trimesh.creation.box((length, width, 0.002))
        turn = trimesh.transformations.rotation_matrix(float(np.arctan2(y1 - y0, x1 - x0)), (0, 0, 1))
        line.apply_transform(turn)
        line.apply_translation(((x0 + x1) / 2, (y0 + y1) / 2, 0.001))
        add(line, f"line{n + 1}", ink)
    meshes = {}
    for pid, piece in sorted(scene.pieces.items()):
        if pid in hidden or pid not in poses:
            continue
        kind = piece.kind
        if kind not in meshes:
            file = models_dir() / f"{scene.equipment}-{kind}.obj"
            meshes[kind] = cast(trimesh.Trimesh, trimesh.load(file, file_type="obj", process=False, force="mesh"))
        add(meshes[kind].copy(), pid, _srgb(WOOD.get(kind, WOOD["kubb"])), model_matrix(poses[pid]))
    return cast(bytes, out.export(file_type="glb"))

"""Vertex arrays of what the renderer draws, as numpy arrays (no OpenGL here): the pieces'
meshes with their normals, boxes and the table under a board, the floor and the ground,
painted lines, the trace ribbon, contact shadows, and the screen rows the sky covers. Lengths
in m, in the world frame (z up, the ground at z = 0)."""

from __future__ import annotations

import math
from typing import cast

import numpy as np
import trimesh

from kubb3d.model_files import models_dir
from kubb3d.viewer.textures import ROUGH_TINT


TABLE_LEG = 0.05
"""m: side of the table's square legs (the table itself is kubb3d's: KT says only "board")."""

SMOOTH_COS = math.cos(math.radians(8.0))
"""A rim vertex keeps its face's flat normal when that normal is more than 8° from the radial
direction (the sanded flat of a Kubbuteo kubb, the underside of the mushroom's cap)."""


def mesh_vertices(mesh: trimesh.Trimesh, round_axis: int | None) -> np.ndarray:
    """Unindexed vertices (3F, 6) of a mesh: flat normals for boxes; for round pieces (body
    axis ``round_axis``: 2 for batons, stakes and the mushroom king, 0 for a disk kubb) the rim
    gets smooth radial normals and the caps, and any face far from radial (:data:`SMOOTH_COS`),
    flat ones."""
    tri = mesh.vertices[mesh.faces]  # (F, 3, 3)
    fn = np.repeat(mesh.face_normals[:, None, :], 3, axis=1)
    if round_axis is not None:
        radial = tri.copy()
        radial[..., round_axis] = 0.0
        radial /= np.maximum(np.linalg.norm(radial, axis=-1, keepdims=True), 1e-12)
        smooth = (np.abs(mesh.face_normals[:, round_axis]) < 0.5)[:, None] & (np.einsum("fvk,fvk->fv", radial, fn) > SMOOTH_COS)
        fn = np.where(smooth[..., None], radial, fn)
    return np.concatenate((tri.reshape(-1, 3), fn.reshape(-1, 3)), axis=1).astype(np.float32)


def round_axis(piece) -> int | None:
    """Body axis of a round piece (:mod:`kubb3d.equipment` shapes: a disk's axis is x, a
    cylinder's and a mushroom's z), None for a box."""
    return {"disk": 0, "cylinder": 2, "mushroom": 2}.get(piece.shape)


def load_piece_meshes(equipment: str) -> dict[str, np.ndarray]:
    """Kind → unindexed vertices (N, 6) of ``models/<equipment>-<kind>.obj`` for each kind the
    set has (a table-top set has no stakes).

    Raises:
        FileNotFoundError: a model file is missing (run ``kubb3d models build --in-place``).
    """
    from kubb3d.equipment import get_set

    eq = get_set(equipment)
    out = {}
    for kind in ("kubb", "king", "baton", "stake"):
        if kind == "stake" and eq.stake is None:
            continue
        path = models_dir() / f"{equipment}-{kind}.obj"
        if not path.is_file():
            raise FileNotFoundError(f"model file {path.name} is missing; run `kubb3d models build --in-place`")
        # force="mesh" makes it one Trimesh
        mesh = cast(trimesh.Trimesh, trimesh.load(path, file_type="obj", process=False, force="mesh"))
        out[kind] = mesh_vertices(mesh, round_axis(eq.piece(kind)))
    return out


def box_vertices(centre, half) -> np.ndarray:
    """Unindexed vertices (36, 6) (position m, outward normal) of an axis-aligned box."""
    c, h = np.asarray(centre, dtype=float), np.asarray(half, dtype=float)
    out = []
    for axis in range(3):
        for sign in (-1.0, 1.0):
            n = np.zeros(3)
            n[axis] = sign
            u, v = np.zeros(3), np.zeros(3)
            u[(axis + 1) % 3], v[(axis + 2) % 3] = 1.0, 1.0
            if sign < 0:
                u, v = v, u  # counter-clockwise seen from outside
            quad = [c + h * (n + a * u + b * v) for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
            for i in (0, 1, 2, 0, 2, 3):
                out.append((*quad[i], *n))
    return np.array(out, dtype=np.float32)


def table_vertices(board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The table-top board and the table under it, m.

    Args:
        board: a :class:`~kubb3d.equipment.Board` (its top face at z = 0, as the physics has it).

    Returns:
        (the board's top (6, 7) for the ground programme: position, tint 1, not mown; its
        edges and underside (30, 6); the table (N, 6): four square legs from the floor at
        −``table_height`` and an apron under the board's edges).
    """
    hx, hy, t = board.length / 2, board.width / 2, board.thickness
    box = box_vertices((0.0, 0.0, -t / 2), (hx, hy, t / 2))
    edges = box[np.abs(box[:, 5] - 1.0) > 1e-6]  # every face but the top
    top = np.array([(x, y, 0.0, 1.0, 1.0, 1.0, 0.0) for x, y in ((-hx, -hy), (hx, -hy), (hx, hy), (-hx, -hy), (hx, hy), (-hx, hy))], np.float32)
    floor = -board.table_height
    leg = TABLE_LEG / 2
    parts = []
    for sx in (-1, 1):
        for sy in (-1, 1):
            cx, cy = sx * (hx - 2 * leg), sy * (hy - 2 * leg)
            parts.append(box_vertices((cx, cy, (floor - t) / 2), (leg, leg, (-t - floor) / 2)))
    apron = 0.06
    for sy in (-1, 1):
        parts.append(box_vertices((0.0, sy * (hy - leg), -t - apron / 2), (hx - leg, leg / 2, apron / 2)))
    for sx in (-1, 1):
        parts.append(box_vertices((sx * (hx - leg), 0.0, -t - apron / 2), (leg / 2, hy - leg, apron / 2)))
    return top, edges, np.concatenate(parts)


def floor_vertices(z: float, extent: float = 40.0) -> np.ndarray:
    """The floor around a table: one square of ±``extent`` m on the plane z (m), vertices
    (6, 7) for the ground programme (position, tint 1, not mown); its tiles are the texture's
    (:func:`floor_texture`)."""
    e = extent
    return np.array([(x, y, z, 1.0, 1.0, 1.0, 0.0) for x, y in ((-e, -e), (e, -e), (e, e), (-e, -e), (e, e), (-e, e))], np.float32)


def quads_along(segments, z: float) -> np.ndarray:
    """Flat quads on the plane z (m) for segments ((x0, y0), (x1, y1), width m); vertices
    (6 per segment, 6 floats: position, then the distance along the segment in the first
    'normal' slot for dashing)."""
    out = []
    for (x0, y0), (x1, y1), w in segments:
        d = np.array((x1 - x0, y1 - y0), dtype=float)
        n = float(np.linalg.norm(d))
        if n < 1e-9:
            continue
        d /= n
        e = np.array((-d[1], d[0])) * w / 2
        a0, a1 = np.array((x0, y0)) - d * w / 2, np.array((x1, y1)) + d * w / 2
        c = [(a0 - e, 0.0), (a1 - e, n), (a1 + e, n), (a0 - e, 0.0), (a1 + e, n), (a0 + e, 0.0)]
        for p, s in c:
            out.append((p[0], p[1], z, s, 0.0, 0.0))
    return np.array(out, dtype=np.float32).reshape(-1, 6)


def ring_segments(centre, radius: float, width: float, sides: int = 64) -> list:
    """Segments ((x0, y0), (x1, y1), width m) of a circle of ``radius`` m around ``centre``
    (x, y) m, ``sides`` chords, for :func:`quads_along`."""
    a = np.linspace(0.0, 2 * np.pi, sides + 1)
    pts = np.c_[centre[0] + radius * np.cos(a), centre[1] + radius * np.sin(a)]
    return [((float(p[0]), float(p[1])), (float(q[0]), float(q[1])), width) for p, q in zip(pts[:-1], pts[1:])]


def ribbon(points: np.ndarray, eye: np.ndarray, width: float) -> np.ndarray:
    """A camera-facing strip (vertices (6(N−1), 6)) of ``width`` m along a polyline (N, 3)."""
    p = np.asarray(points, dtype=float)
    if len(p) < 2:
        return np.zeros((0, 6), np.float32)
    t = np.gradient(p, axis=0)
    t /= np.maximum(np.linalg.norm(t, axis=1, keepdims=True), 1e-9)
    v = eye[None, :] - p
    side = np.cross(t, v)
    side /= np.maximum(np.linalg.norm(side, axis=1, keepdims=True), 1e-9)
    left, right = p + side * width / 2, p - side * width / 2
    along = np.concatenate(([0.0], np.cumsum(np.linalg.norm(np.diff(p, axis=0), axis=1))))
    quads = np.stack((left[:-1], right[:-1], right[1:], left[:-1], right[1:], left[1:]), axis=1).reshape(-1, 3)
    s = np.stack((along[:-1], along[:-1], along[1:], along[:-1], along[1:], along[1:]), axis=1).reshape(-1, 1)
    return np.concatenate((quads, s, np.zeros((len(s), 2))), axis=1).astype(np.float32)


def ground_vertices(pitch_half: tuple[float, float], margin: float = 1.5, extent: float = 40.0) -> np.ndarray:
    """The ground as 3 × 3 rectangles on z = 0: the mown area (the pitch plus ``margin`` m
    on every side, striped) in the middle, rough grass out to ±``extent`` m around it.

    Args:
        pitch_half: half length (x) and half width (y) of the pitch, m.

    Returns:
        Vertices (54, 7) float32: position (m), display-space tint (3), mown flag.
    """
    hx, hy = pitch_half[0] + margin, pitch_half[1] + margin
    xs, ys = (-extent, -hx, hx, extent), (-extent, -hy, hy, extent)
    rough = tuple(float(v) for v in np.sqrt(ROUGH_TINT))
    out = []
    for i in range(3):
        for j in range(3):
            mown = i == 1 and j == 1
            tint, flag = ((1.0, 1.0, 1.0), 1.0) if mown else (rough, 0.0)
            x0, x1, y0, y1 = xs[i], xs[i + 1], ys[j], ys[j + 1]
            for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y0), (x1, y1), (x0, y1)):
                out.append((x, y, 0.0, *tint, flag))
    return np.array(out, dtype=np.float32)


def sky_rows(view_proj: np.ndarray, steps: int = 48) -> float | None:
    """Lowest normalised-device y (in [−1, 1]) from which a view ray can point above the
    horizon, one step of ``steps`` lower for safety; None when the whole view looks down.
    Samples the left edge, the centre and the right edge of the screen."""
    inv = np.linalg.inv(view_proj)
    ys = np.linspace(-1.0, 1.0, steps + 1)
    lowest = None
    for x in (-1.0, 0.0, 1.0):
        near = np.stack((np.full_like(ys, x), ys, -np.ones_like(ys), np.ones_like(ys)), axis=1) @ inv.T
        far = np.stack((np.full_like(ys, x), ys, np.ones_like(ys), np.ones_like(ys)), axis=1) @ inv.T
        dz = far[:, 2] / far[:, 3] - near[:, 2] / near[:, 3]
        up = np.nonzero(dz >= 0.0)[0]
        if len(up):
            k = max(int(up[0]) - 1, 0)
            lowest = ys[k] if lowest is None else min(lowest, ys[k])
    return None if lowest is None else float(lowest)


def blob_vertices(pieces, half_sizes: dict[str, tuple[float, float]]) -> np.ndarray:
    """Contact-shadow quads on the grass under pieces near the ground.

    Args:
        pieces: (kind, pose (7,)) pairs; stakes are skipped.
        half_sizes: kind → (half width, half length) of its mesh, m.

    Returns:
        Vertices (6 per shadowed piece, 9 floats: position (m), position in the footprint's
        frame (m), core half length, core half width, fade width (m), strength in [0, 1]).
        A piece whose lowest point is 0.25 m or more above the ground casts none.
    """
    out = []
    from kubb3d.viewer.scene import quat_matrix

    for kind, pose in pieces:
        if kind == "stake" or kind not in half_sizes:
            continue
        r, hl = half_sizes[kind]
        c = np.asarray(pose[:3], dtype=float)
        axis = quat_matrix(pose[3:])[:, 2]
        e0, e1 = c - axis * hl, c + axis * hl
        low = max(0.0, min(e0[2], e1[2]) - r)
        lift = 1.0 - low / 0.25
        if lift <= 0:
            continue
        d = (e1 - e0)[:2]
        n = float(np.linalg.norm(d))
        u = d / n if n > 1e-6 else np.array((1.0, 0.0))
        v = np.array((-u[1], u[0]))
        core_a, core_c = max(n / 2, r), r
        fade = 1.8 * r + 0.8 * low
        strength = 0.6 * lift
        ea, ec = core_a + fade, core_c + fade
        mid = (e0[:2] + e1[:2]) / 2
        corners = [(-ea, -ec), (ea, -ec), (ea, ec), (-ea, -ec), (ea, ec), (-ea, ec)]
        for s, t in corners:
            p = mid + s * u + t * v
            out.append((p[0], p[1], 0.0, s, t, core_a, core_c, fade, strength))
    return np.array(out, dtype=np.float32).reshape(-1, 9)

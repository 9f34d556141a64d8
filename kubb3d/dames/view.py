"""A 3D view of Roll Kubb Dames (``kubb3d dames play --view`` / ``--screenshot``).

The board lies on z = 0, centred on the origin, files a–h along +x (east) and ranks 1–8
along +y (north), as in :mod:`kubb3d.dames.die`. Every kubb is drawn as a die cube of
:data:`DIE_EDGE` m in its owner's colour with white pips, turned exactly as the engine's
:class:`~kubb3d.dames.die.Die` says; the ti-kubb is a small black block with white pips on
top showing the distance of the coming roll; a kubb frozen on its last line stands on an
ice-blue frame. A move is animated as the die tipping over its bottom edge, one quarter turn
per cell (:func:`tip_pose`).

The first part of this module (geometry, orientations, poses, meshes as arrays) is pure
numpy and never imports pyglet; :class:`DamesRenderer` and :class:`DamesApp` import it when
they are built. Lengths in m, angles in rad, times in s.
"""

from __future__ import annotations

import math
import queue
import threading
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kubb3d.dames.board import DamesBoard, Kubb, Move
from kubb3d.dames.die import STEP, Die
from kubb3d.ranges import counted

CELL = 0.09
"""m: side of a board cell."""
DIE_EDGE = 0.07
"""m: edge of a die-kubb (a kubb's 7 cm square section)."""
TI_SIZE = (0.036, 0.036, 0.05)
"""m: width, depth and height of the black ti-kubb."""
PIP_RADIUS = 0.0075
"""m: radius of a pip."""
PIP_STEP = 0.25 * DIE_EDGE
"""m: distance of the outer pips from the face centre along each face axis."""
ROLL_TIME = 0.35
"""s: duration of one quarter turn (one cell) in the animation."""

SEAT_COLORS = {"S": (0.62, 0.05, 0.04), "N": (0.07, 0.18, 0.68), "E": (0.10, 0.55, 0.15), "W": (0.60, 0.12, 0.62)}
"""Linear RGB body colour of each seat's dice (red South, blue North, green East, purple West, as
in the terminal board)."""
PIP_COLOR = (0.92, 0.92, 0.88)
FROZEN_COLOR = (0.45, 0.85, 1.0)

PIP_LAYOUT = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    5: ((-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
"""Pip positions of each value on a 3 × 3 grid of the face (units of :data:`PIP_STEP`)."""


# ================================================================== geometry (pure)
def cell_center(cell: int) -> np.ndarray:
    """Centre (3,) of board cell 0..63 (a1 = 0, h8 = 63) on the board plane, m."""
    x, y = cell % 8, cell // 8
    return np.array(((x - 3.5) * CELL, (y - 3.5) * CELL, 0.0))


def body_axes(handedness: int) -> np.ndarray:
    """Body-frame directions (3, 3) of faces 1, 2, 3 (columns) of the die mesh: 1 on +z, 2 on
    +y, 3 on −x for a Western die (``handedness`` +1) and on +x for its mirror (−1), so that
    the determinant equals ``handedness``."""
    return np.array(((0.0, 0.0, -float(handedness)), (0.0, 1.0, 0.0), (1.0, 0.0, 0.0)))


def die_rotation(die: Die) -> np.ndarray:
    """Rotation (3, 3) from the die mesh's body frame (:func:`body_axes` of its handedness)
    to the board frame, so that every face looks where ``die`` says."""
    board = die.matrix().astype(float)  # columns: board directions of faces 1, 2, 3
    return board @ np.linalg.inv(body_axes(die.handedness()))


def face_up(rotation: np.ndarray, handedness: int) -> int:
    """The value of the face looking up for a die mesh of ``handedness`` turned by ``rotation``
    (3, 3) (the face whose board direction has the largest z)."""
    axes = body_axes(handedness)
    dirs = {1: axes[:, 0], 2: axes[:, 1], 3: axes[:, 2]}
    dirs.update({7 - k: -v for k, v in list(dirs.items())})
    return max(dirs, key=lambda v: float((rotation @ dirs[v])[2]))


def axis_rotation(axis, angle: float) -> np.ndarray:
    """Rotation matrix (3, 3) of ``angle`` rad about the unit vector ``axis`` (3,) (right hand)."""
    a = np.asarray(axis, dtype=float)
    a = a / np.linalg.norm(a)
    k = np.array(((0, -a[2], a[1]), (a[2], 0, -a[0]), (-a[1], a[0], 0)))
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)


def tip_pose(die: Die, start: int, path: str, t: float) -> tuple[np.ndarray, np.ndarray]:
    """Pose of a die-kubb rolling from cell ``start`` along ``path`` (``"NE"``), at ``t`` cells
    of progress (0 … len(path), clamped): each cell is a quarter turn about the bottom edge on
    the side it rolls to.

    Returns:
        (centre (3,) m, rotation (3, 3) body → board). At ``t = len(path)`` the rotation is
        :func:`die_rotation` of ``die.roll_path(path)`` and the centre is above the end cell.
    """
    t = min(max(float(t), 0.0), float(len(path)))
    rot = die_rotation(die)
    centre = cell_center(start) + (0.0, 0.0, DIE_EDGE / 2)
    for i, d in enumerate(path):
        f = min(max(t - i, 0.0), 1.0)
        if f <= 0.0:
            break
        step = np.array((*STEP[d], 0.0))
        pivot = centre + step * DIE_EDGE / 2 - (0.0, 0.0, DIE_EDGE / 2)
        if f >= 1.0:  # a whole cell: exact quarter turn and exact next cell
            die = die.roll(d)
            rot = die_rotation(die)
            centre = centre + step * CELL
            continue
        q = axis_rotation(np.cross((0.0, 0.0, 1.0), step), f * math.pi / 2)
        # the tipping die rises on its edge, then slides the gap between the cells
        arm = q @ (centre - pivot)
        return pivot + arm + step * (CELL - DIE_EDGE) * f, q @ rot
    return centre, rot


def pose_matrix(centre, rotation, scale=(1.0, 1.0, 1.0)) -> np.ndarray:
    """Model matrix (4, 4) from a centre (3,) m, a rotation (3, 3) and per-axis scale (3,)."""
    m = np.eye(4)
    m[:3, :3] = np.asarray(rotation, dtype=float) * np.asarray(scale, dtype=float)[None, :]
    m[:3, 3] = centre
    return m


# ================================================================== meshes (pure arrays)
def _quad(a, b, c, d, n, color, alpha) -> list:
    """Two triangles a b c, a c d (counter-clockwise seen from ``n``); 10 floats a vertex."""
    return [(*p, *n, *color, alpha) for p in (a, b, c, a, c, d)]


def _box(lo, hi, color, alpha) -> list:
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    out = []
    for axis in range(3):
        for sign in (-1.0, 1.0):
            n = np.zeros(3)
            n[axis] = sign
            u, v = np.roll(np.eye(3), 1, axis=0)[axis], np.roll(np.eye(3), 2, axis=0)[axis]
            if sign > 0:  # so that u × v = n: counter-clockwise seen from outside
                u, v = v, u
            c = np.where(n > 0, hi, np.where(n < 0, lo, (lo + hi) / 2))
            hu, hv = np.abs(u) @ (hi - lo) / 2, np.abs(v) @ (hi - lo) / 2
            p = [c - u * hu - v * hv, c + u * hu - v * hv, c + u * hu + v * hv, c - u * hu + v * hv]
            out += _quad(p[0], p[1], p[2], p[3], n, color, alpha)
    return out


def _pips(value: int, centre, normal, u, v, step: float, radius: float, color) -> list:
    """Pips of ``value`` as flat octagons on the face at ``centre`` with axes u, v (3,)."""
    out = []
    ang = np.linspace(0.0, 2 * math.pi, 9)
    for i, j in PIP_LAYOUT[value]:
        c = centre + (i * u + j * v) * step + normal * 0.0004
        ring = [c + radius * (math.cos(a) * u + math.sin(a) * v) for a in ang]
        for k in range(8):
            out.append((*c, *normal, *color, 0.0))
            out.append((*ring[k], *normal, *color, 0.0))
            out.append((*ring[k + 1], *normal, *color, 0.0))
    return out


def die_vertices(handedness: int) -> np.ndarray:
    """A die cube of edge :data:`DIE_EDGE` centred on the origin in its body frame
    (:func:`body_axes`) with pips on all six faces.

    Returns:
        Vertices (N, 10) float32: position (m), normal, RGB, and a flag (1: the seat colour
        replaces RGB, 0: RGB as given, i.e. the pips).
    """
    h = DIE_EDGE / 2
    out = _box((-h, -h, -h), (h, h, h), (1.0, 1.0, 1.0), 1.0)
    axes = body_axes(handedness)
    dirs = {1: axes[:, 0], 2: axes[:, 1], 3: axes[:, 2]}
    dirs.update({7 - k: -v for k, v in list(dirs.items())})
    for value, n in dirs.items():
        n = np.asarray(n, float)
        u = np.cross(n, (0.0, 0.0, 1.0)) if abs(n[2]) < 0.5 else np.array((1.0, 0.0, 0.0))
        u = u / np.linalg.norm(u)
        v = np.cross(n, u)
        out += _pips(value, n * h, n, u, v, PIP_STEP, PIP_RADIUS, PIP_COLOR)
    return np.array(out, dtype=np.float32)


def ti_vertices(value: int) -> np.ndarray:
    """The black ti-kubb (:data:`TI_SIZE`, standing on z = 0) with ``value`` white pips on top;
    vertices (N, 10) as in :func:`die_vertices`."""
    w, d, hgt = TI_SIZE
    out = _box((-w / 2, -d / 2, 0.0), (w / 2, d / 2, hgt), (0.02, 0.02, 0.025), 0.0)
    out += _pips(
        value,
        np.array((0.0, 0.0, hgt)),
        np.array((0.0, 0.0, 1.0)),
        np.array((1.0, 0.0, 0.0)),
        np.array((0.0, 1.0, 0.0)),
        0.24 * w,
        0.0045,
        PIP_COLOR,
    )
    return np.array(out, dtype=np.float32)


def board_vertices() -> np.ndarray:
    """The board: 64 cells in two shades of wood on z = 0 and a raised frame around them;
    vertices (N, 10) as in :func:`die_vertices`."""
    light, dark, frame = (0.62, 0.45, 0.25), (0.30, 0.17, 0.08), (0.16, 0.09, 0.04)
    up = (0.0, 0.0, 1.0)
    out = []
    for cell in range(64):
        c = cell_center(cell)
        h = CELL / 2
        col = dark if (cell % 8 + cell // 8) % 2 == 0 else light  # a1 dark, like a chessboard
        out += _quad(c + (-h, -h, 0), c + (h, -h, 0), c + (h, h, 0), c + (-h, h, 0), up, col, 0.0)
    half, rim, hgt = 4 * CELL, 0.035, 0.012
    for lo, hi in (
        ((-half - rim, -half - rim, -0.03), (half + rim, -half, hgt)),
        ((-half - rim, half, -0.03), (half + rim, half + rim, hgt)),
        ((-half - rim, -half, -0.03), (-half, half, hgt)),
        ((half, -half, -0.03), (half + rim, half, hgt)),
    ):
        out += _box(lo, hi, frame, 0.0)
    out += _box((-half, -half, -0.03), (half, half, -0.0005), frame, 0.0)
    return np.array(out, dtype=np.float32)


def frame_vertices(cell: int) -> np.ndarray:
    """An ice-blue square frame on ``cell`` just above the board, in the margin that a die
    standing on the cell leaves free (frozen kubb marker)."""
    c = cell_center(cell) + (0.0, 0.0, 0.0008)
    h, w, up = CELL / 2 - 0.001, (CELL - DIE_EDGE) / 2 - 0.0005, (0.0, 0.0, 1.0)
    out = []
    for x0, y0, x1, y1 in (
        (-h, -h, h, -h + w),
        (-h, h - w, h, h),
        (-h, -h + w, -h + w, h - w),
        (h - w, -h + w, h, h - w),
    ):
        out += _quad(c + (x0, y0, 0), c + (x1, y0, 0), c + (x1, y1, 0), c + (x0, y1, 0), up, FROZEN_COLOR, 0.0)
    return np.array(out, dtype=np.float32)


# ================================================================== what is shown (pure)
@dataclass
class DieView:
    """One die-kubb as drawn: seat, orientation (for the mesh's handedness), pose."""

    seat: str
    handedness: int
    centre: np.ndarray
    rotation: np.ndarray
    frozen: bool = False
    sink: float = 0.0  # 0 … 1: taken out by a fight (sinks into the board)


@dataclass
class DamesScene:
    """The dice, the ti-kubb and the frozen frames at one instant."""

    dice: list[DieView] = field(default_factory=list)
    ti_value: int = 2
    ti_at: np.ndarray | None = None  # ti-kubb position on the board, m; None: not shown
    frozen_cells: list[int] = field(default_factory=list)


def off_board_ti() -> np.ndarray:
    """Where the ti-kubb waits when it is off the board or in a player's hand: east of the
    board, level with rank 5."""
    return cell_center(39) + (CELL * 1.25, 0.0, 0.0)


def scene_of(board: DamesBoard) -> DamesScene:
    """The resting scene of a board position."""
    s = DamesScene(ti_value=board.ti_value)
    for cell, k in board.kubbs().items():
        frozen = board.is_frozen(cell)
        s.dice.append(
            DieView(
                k.seat, k.die.handedness(), cell_center(cell) + (0.0, 0.0, DIE_EDGE / 2), die_rotation(k.die), frozen
            )
        )
        if frozen:
            s.frozen_cells.append(cell)
    s.ti_at = cell_center(board.ti_cell) if board.ti_cell is not None else off_board_ti()
    return s


@dataclass
class MoveAnimation:
    """A pushed move played back: the roll (one quarter turn per cell), the fight's losers
    sinking, then the ti-kubb hopping to its new cell.

    Args:
        before: the board before the move (a copy); after: the board after it (a copy).
        move: the move.
        removed: kubbs taken out by the fight, as (cell, kubb).
    """

    before: DamesBoard
    after: DamesBoard
    move: Move
    removed: tuple[tuple[int, Kubb], ...] = ()

    SINK_TIME = 0.4
    HOP_TIME = 0.4

    @property
    def duration(self) -> float:
        """s."""
        return len(self.move.path) * ROLL_TIME + (self.SINK_TIME if self.removed else 0.0) + self.HOP_TIME

    def scene_at(self, t: float) -> DamesScene:
        """The scene ``t`` s after the start (the after-position from :attr:`duration` on)."""
        m = self.move
        roll_t = len(m.path) * ROLL_TIME
        if m.start is None or t >= self.duration:
            return scene_of(self.after)
        if t < roll_t:
            s = scene_of(self.before)
            k = self.before.kubb_at(m.start)
            assert k is not None  # the rolled kubb stands on the move's start
            s.dice = [d for d in s.dice if not np.allclose(d.centre[:2], cell_center(m.start)[:2])]
            c, r = tip_pose(k.die, m.start, m.path, t / ROLL_TIME)
            s.dice.append(DieView(k.seat, k.die.handedness(), c, r))
            return s
        s = scene_of(self.after)
        sink_t = self.SINK_TIME if self.removed else 0.0
        f = (t - roll_t) / sink_t if sink_t else 1.0
        if f < 1.0:
            for cell, k in self.removed:
                s.dice.append(
                    DieView(
                        k.seat,
                        k.die.handedness(),
                        cell_center(cell) + (0.0, 0.0, DIE_EDGE / 2 - f * DIE_EDGE),
                        die_rotation(k.die),
                        sink=f,
                    )
                )
        # the ti-kubb: still where it was until the hop, then along an arc
        a = self.before.ti_cell
        start = cell_center(a) if a is not None else off_board_ti()
        end = s.ti_at if s.ti_at is not None else off_board_ti()
        g = min(max((t - roll_t - sink_t) / self.HOP_TIME, 0.0), 1.0)
        s.ti_at = start + (end - start) * g + (0.0, 0.0, 0.12 * math.sin(math.pi * g))
        return s


# ================================================================== OpenGL
_VS = """
#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 color;     // rgb, 1: use u_color instead
uniform mat4 u_model;
uniform mat4 u_view_proj;
out vec3 v_normal;
out vec3 v_color;
uniform vec3 u_color;
void main() {
    v_normal = mat3(u_model) * normal;
    v_color = mix(color.rgb, u_color, color.a);
    gl_Position = u_view_proj * u_model * vec4(position, 1.0);
}
"""

_FS = """
#version 330 core
in vec3 v_normal;
in vec3 v_color;
uniform vec3 u_sun_dir;
uniform float u_fade;                  // 1 normal, → 0 dimmed (taken kubbs)
out vec4 frag;
void main() {
    vec3 n = normalize(v_normal);
    float ndl = max(dot(n, u_sun_dir), 0.0);
    vec3 amb = mix(vec3(0.14, 0.12, 0.10), vec3(0.40, 0.44, 0.52), 0.5 + 0.5 * n.z);
    vec3 c = v_color * (amb + vec3(1.25, 1.2, 1.05) * ndl) * u_fade;
    c = c / (1.0 + 0.15 * c);
    frag = vec4(sqrt(max(c, 0.0)), 1.0);
}
"""

SUN = np.array((-0.35, -0.45, 0.82)) / np.linalg.norm((-0.35, -0.45, 0.82))
"""Unit vector towards the light: high, from the south-west, so that shadows fall north-east."""
BACKGROUND = (0.16, 0.19, 0.22)


def default_camera(seat: str = "S"):
    """A :class:`~kubb3d.viewer.camera.Camera` behind ``seat``'s first line, about 50° above
    the board, framing the whole board."""
    from kubb3d.viewer.camera import Camera

    back = {"S": (0.0, -1.0), "N": (0.0, 1.0), "E": (1.0, 0.0), "W": (-1.0, 0.0)}[seat]
    eye = np.array((back[0] * 0.70, back[1] * 0.70, 0.86))
    return Camera(eye, np.array((0.0, 0.01, -0.03)), fov_y=math.radians(42.0), near=0.05, far=10.0)


class DamesRenderer:
    """Draws a :class:`DamesScene` into an off-screen framebuffer (needs a current OpenGL 3.3
    context). Pieces cast sun shadows on the board (projected along the light, stencilled)."""

    def __init__(self, width: int, height: int) -> None:
        from pyglet import gl

        from kubb3d.viewer.gl_objects import GLMesh, Program
        from kubb3d.viewer.shaders import PLANAR_FS, PLANAR_VS

        self.gl = gl
        self.width, self.height = int(width), int(height)
        self._prog = Program(_VS, _FS)
        self._shadow = Program(PLANAR_VS, PLANAR_FS)
        layout = (3, 3, 4)
        self._board = GLMesh(board_vertices(), layout=layout)
        self._dice = {h: GLMesh(die_vertices(h), layout=layout) for h in (1, -1)}
        self._ti = {v: GLMesh(ti_vertices(v), layout=layout) for v in (1, 2, 3)}
        self._frames = GLMesh(layout=layout)
        self._frames_key: tuple[int, ...] | None = None
        self._fbo = self._make_fbo()
        self._prog.use()
        self._prog["u_sun_dir"] = tuple(SUN)
        self._shadow.use()
        self._shadow["u_sun_dir"] = tuple(SUN)
        self._shadow["u_shade"] = (0.55, 0.57, 0.62)
        gl.glUseProgram(0)

    def _make_fbo(self):
        gl = self.gl
        import ctypes

        fbo, color, depth = gl.GLuint(), gl.GLuint(), gl.GLuint()
        gl.glGenFramebuffers(1, ctypes.byref(fbo))
        gl.glGenRenderbuffers(1, ctypes.byref(color))
        gl.glGenRenderbuffers(1, ctypes.byref(depth))
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, color)
        gl.glRenderbufferStorage(gl.GL_RENDERBUFFER, gl.GL_RGBA8, self.width, self.height)
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, depth)
        gl.glRenderbufferStorage(gl.GL_RENDERBUFFER, gl.GL_DEPTH24_STENCIL8, self.width, self.height)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
        gl.glFramebufferRenderbuffer(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_RENDERBUFFER, color)
        gl.glFramebufferRenderbuffer(gl.GL_FRAMEBUFFER, gl.GL_DEPTH_STENCIL_ATTACHMENT, gl.GL_RENDERBUFFER, depth)
        if gl.glCheckFramebufferStatus(gl.GL_FRAMEBUFFER) != gl.GL_FRAMEBUFFER_COMPLETE:
            raise RuntimeError("OpenGL framebuffer for the dames view is incomplete")
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
        return fbo

    def bind(self) -> None:
        """Make the off-screen framebuffer the drawing target (e.g. for the HUD)."""
        self.gl.glBindFramebuffer(self.gl.GL_FRAMEBUFFER, self._fbo)
        self.gl.glViewport(0, 0, self.width, self.height)

    def _pieces(self, scene: DamesScene):
        """(mesh, model (4, 4), colour, fade) of every die and the ti-kubb."""
        out = []
        for d in scene.dice:
            color: tuple[float, ...] = SEAT_COLORS[d.seat]
            if d.frozen:  # frosted
                color = tuple(0.6 * a + 0.4 * b for a, b in zip(color, FROZEN_COLOR))
            out.append((self._dice[d.handedness], pose_matrix(d.centre, d.rotation), color, 1.0 - 0.6 * d.sink))
        if scene.ti_at is not None:
            out.append((self._ti[scene.ti_value], pose_matrix(scene.ti_at, np.eye(3)), (0.0, 0.0, 0.0), 1.0))
        return out

    def render(self, scene: DamesScene, camera) -> None:
        """Draw one frame of ``scene`` seen by ``camera``."""
        gl = self.gl
        self.bind()
        gl.glEnable(gl.GL_DEPTH_TEST)
        gl.glDepthFunc(gl.GL_LEQUAL)
        gl.glDepthMask(gl.GL_TRUE)
        gl.glEnable(gl.GL_CULL_FACE)
        gl.glDisable(gl.GL_BLEND)
        gl.glClearColor(*BACKGROUND, 1.0)
        gl.glStencilMask(0xFF)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT | gl.GL_STENCIL_BUFFER_BIT)
        vp = camera.view_proj(self.width, self.height)
        prog = self._prog
        prog.use()
        prog.mat4("u_view_proj", vp)
        prog.mat4("u_model", np.eye(4))
        prog["u_color"] = (1.0, 1.0, 1.0)
        prog["u_fade"] = 1.0
        self._board.draw()
        key = tuple(scene.frozen_cells)
        if key != self._frames_key:
            self._frames.upload(
                np.concatenate([frame_vertices(c) for c in key]) if key else np.zeros((0, 10), np.float32)
            )
            self._frames_key = key
        self._frames.draw()
        pieces = self._pieces(scene)
        for mesh, model, color, fade in pieces:
            prog.mat4("u_model", model)
            prog["u_color"] = color
            prog["u_fade"] = float(fade)
            mesh.draw()
        # shadows on the board's surface (z = 0)
        gl.glDisable(gl.GL_CULL_FACE)
        gl.glDepthMask(gl.GL_FALSE)
        gl.glEnable(gl.GL_POLYGON_OFFSET_FILL)
        gl.glPolygonOffset(-1.0, -4.0)
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_ZERO, gl.GL_SRC_COLOR)
        gl.glEnable(gl.GL_STENCIL_TEST)
        gl.glStencilFunc(gl.GL_EQUAL, 0, 0xFF)
        gl.glStencilOp(gl.GL_KEEP, gl.GL_KEEP, gl.GL_INCR)
        sh = self._shadow
        sh.use()
        sh.mat4("u_view_proj", vp)
        for mesh, model, _, _ in pieces:
            sh.mat4("u_model", model)
            mesh.draw()
        gl.glDisable(gl.GL_STENCIL_TEST)
        gl.glDisable(gl.GL_BLEND)
        gl.glDisable(gl.GL_POLYGON_OFFSET_FILL)
        gl.glDepthMask(gl.GL_TRUE)
        gl.glBindVertexArray(0)
        gl.glUseProgram(0)
        gl.glDisable(gl.GL_DEPTH_TEST)

    def read_pixels(self) -> np.ndarray:
        """The framebuffer (height, width, 3) uint8, top row first."""
        from kubb3d.viewer.gl_objects import read_framebuffer

        return read_framebuffer(self._fbo, self.width, self.height)

    def blit(self, width: int, height: int) -> None:
        """Copy the frame to the window (default framebuffer) of width × height px."""
        from kubb3d.viewer.gl_objects import blit_framebuffer

        blit_framebuffer(self._fbo, self.width, self.height, width, height)


def hud_of(board: DamesBoard, last: str = "", message: str = ""):
    """The overlay text (:class:`~kubb3d.viewer.hud.Hud`) for a position."""
    from kubb3d.dames.render import SEAT_NAME
    from kubb3d.dames.rules import cell_name
    from kubb3d.viewer.hud import Hud

    pts = "   ".join(f"{SEAT_NAME[s]} {p}" for s, p in board.points().items())
    if board.state.pending:
        act = f"{SEAT_NAME[board.turn]} places the ti-kubb ({board.ti_value})"
    else:
        where = cell_name(board.ti_cell) if board.ti_cell is not None else "off the board"
        act = f"{SEAT_NAME[board.turn]} rolls {board.ti_value}, ti-kubb on {where}"
    lines = [f"turn {board.ply + 1}: {act}", f"points: {pts}"]
    if last:
        lines.append(f"last move: {last}")
    # the controls a line of their own, each set apart by three spaces: a narrow panel wraps
    # between them (hud.wrap_text), never between a key and what it does
    lines.append("drag: turn   wheel: zoom   R: reset view   ESC: quit")
    return Hud(title="Roll Kubb Dames", lines=lines, message=message)


def board_labels(view_proj: np.ndarray, width: int, height: int) -> list[tuple[str, float, float]]:
    """The board's coordinates as the terminal notation writes them (``RKD``): files a–h along
    rank 1's outer edge and ranks 1–8 beside file a, as (text, x px, y px from the top-left)
    for the HUD."""
    from kubb3d.viewer.camera import project

    out = []
    for i in range(8):
        file_pt = cell_center(i) + (0.0, -0.85 * CELL, 0.0)
        rank_pt = cell_center(8 * i) + (-0.85 * CELL, 0.0, 0.0)
        for text, pt in ((chr(ord("a") + i), file_pt), (str(i + 1), rank_pt)):
            (px,), (vis,) = project(pt, view_proj, width, height)
            if vis:
                out.append((text, float(px[0]), float(px[1])))
    return out


class DamesApp:
    """A window (or a hidden headless one) showing a game; moves are animated in turn.

    Args:
        board: the position shown first.
        width, height: px.
        headless: off-screen only.
        seat: the camera sits behind this seat's first line.
    """

    def __init__(
        self, board: DamesBoard, width: int = 1024, height: int = 768, *, headless: bool = False, seat: str = "S"
    ) -> None:
        from kubb3d.viewer.app import Overlay, load_pyglet

        pyglet = load_pyglet(headless)
        self.pyglet = pyglet
        self.headless = headless
        self.window = pyglet.window.Window(
            width, height, caption="kubb3d: Roll Kubb Dames", visible=not headless, resizable=False
        )
        self.window.switch_to()
        self.renderer = DamesRenderer(width, height)
        self.overlay = Overlay(pyglet, self.window)
        self.seat = seat
        self.camera = default_camera(seat)
        self._orbit = None
        self.board = board.copy()
        self.anim: MoveAnimation | None = None
        self.t = 0.0
        self.moves: queue.Queue = queue.Queue()
        self.last = ""
        self.message = ""
        self.idle = threading.Event()
        self.idle.set()
        self.closed = False
        if not headless:
            self.window.push_handlers(self)

    def show(self, before: DamesBoard, move: Move, after: DamesBoard, removed=()) -> None:
        """Queue a pushed move for animation (thread-safe)."""
        self.idle.clear()
        self.moves.put(MoveAnimation(before.copy(), after.copy(), move, tuple(removed)))

    def reset(self, board: DamesBoard) -> None:
        """Show ``board`` at once, after the animations already queued (thread-safe)."""
        self.idle.clear()
        self.moves.put(board.copy())

    def scene(self) -> DamesScene:
        return self.anim.scene_at(self.t) if self.anim is not None else scene_of(self.board)

    def update(self, dt: float) -> None:
        """Advance the animation by ``dt`` s."""
        if self.anim is not None:
            self.t += dt
            if self.t >= self.anim.duration:
                self.board = self.anim.after
                self.anim = None
        while self.anim is None:
            try:
                item = self.moves.get_nowait()
            except queue.Empty:
                self.idle.set()
                return
            if isinstance(item, DamesBoard):
                self.board = item
                continue
            self.anim, self.t, self.last = item, 0.0, str(item.move)

    def frame(self, dt: float = 0.0, hud: bool = True) -> None:
        """Advance and draw one frame into the off-screen buffer."""
        self.update(dt)
        self.renderer.render(self.scene(), self.camera)
        if hud:
            self.renderer.bind()
            shown = self.anim.before if self.anim is not None else self.board
            h = hud_of(shown, self.last, self.message)
            w, ht = self.renderer.width, self.renderer.height
            h.labels = board_labels(self.camera.view_proj(w, ht), w, ht)
            self.overlay.draw(h, w, ht)

    def pixels(self) -> np.ndarray:
        return self.renderer.read_pixels()

    def screenshot(self, path: str | Path) -> Path:
        """Save the last frame as PNG by the output rule (:func:`kubb3d.files.write_output`)."""
        from PIL import Image

        from kubb3d.files import write_output

        pixels = Image.fromarray(self.pixels())
        # zlib's default level: PIL's optimize=True took 4.2 s for a 960x540 frame (0.4 s without)
        # for a file 8 % smaller
        return write_output(path, lambda tmp: pixels.save(tmp, format="PNG"), "--screenshot")

    def on_draw(self):
        gl = self.renderer.gl
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)  # not the off-screen frame: clear the window
        self.window.clear()
        self.renderer.blit(*self.window.get_framebuffer_size())

    def on_key_press(self, symbol, modifiers):
        from pyglet.window import key

        if symbol in (key.ESCAPE, key.Q):
            self.close()
            return True
        if symbol == key.R:  # back to the start view
            self.camera, self._orbit = default_camera(self.seat), None
        return None

    def _orbit_camera(self):
        """The orbit camera, started from the current view."""
        from kubb3d.viewer.camera import OrbitCamera

        if self._orbit is None:
            d = self.camera.eye - self.camera.target
            dist = float(np.linalg.norm(d))
            self._orbit = OrbitCamera(
                target=self.camera.target.copy(),
                azimuth=math.atan2(d[1], d[0]),
                elevation=math.asin(d[2] / dist),
                distance=dist,
            )
        return self._orbit

    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers):
        """Any button: turn around the board (rad per px: 0.01)."""
        o = self._orbit_camera()
        o.orbit(-0.01 * dx, -0.01 * dy)
        self.camera = o.camera()

    def on_mouse_scroll(self, x, y, scroll_x, scroll_y):
        """Wheel: closer / farther (10 % a notch)."""
        o = self._orbit_camera()
        o.zoom(0.9**scroll_y)
        self.camera = o.camera()

    def on_close(self):
        self.close()
        return True

    def run(self) -> None:
        """Run the window until it is closed (call from the main thread)."""
        pyglet = self.pyglet
        pyglet.clock.schedule_interval(lambda dt: self.frame(min(dt, 0.1)), 1 / 60)
        pyglet.app.run()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.idle.set()
        try:
            self.window.close()
        except Exception:
            pass
        if not self.headless:
            self.pyglet.app.exit()


def screenshot(board: DamesBoard, out: str | Path, width: int = 1024, height: int = 768, seat: str = "S") -> Path:
    """Render ``board`` at rest headless and save it as PNG."""
    app = DamesApp(board, width, height, headless=True, seat=seat)
    try:
        app.frame(0.0)
        return app.screenshot(out)
    finally:
        app.close()


def play_in_window(
    board: DamesBoard, agents: dict, on_move, human_turn, width: int = 1024, height: int = 768
) -> str | None:
    """Play a game in a window: the moves are chosen on a worker thread (computer players,
    or a person typing in the terminal through ``human_turn(board) -> bool``) and each is
    animated before the next is chosen. The window stays open after the end until closed.

    Args:
        board: the position to start from (pushed to by the worker thread).
        agents: seat → player with ``choose(board)``, or None for a person.
        on_move: ``on_move(before, board, move)`` after each computer move (e.g. print it).
        human_turn: reads and pushes one move of a person; False to stop the game.

    Returns:
        The outcome text, or None when the game was stopped (the person quit, their input
        ended, or the window was closed first).

    Raises:
        kubb3d.viewer.app.NoDisplay: no display to open the window on.
    """
    app = DamesApp(board, width, height, headless=False, seat=next((s for s, a in agents.items() if a is None), "S"))
    result: list[str | None] = [None]

    def worker() -> None:
        while board.outcome() is None and not app.closed:
            agent = agents[board.turn]
            before = board.copy()
            if agent is None:
                app.message = f"{board.turn} to move: type it in the terminal"
                if not human_turn(board):  # quit or end of input: close the window too
                    app.pyglet.app.exit()  # safe from another thread
                    return
                app.message = ""
            else:
                move = agent.choose(board)
                board.push(move)
                on_move(before, board, move)
            stack = board.move_stack
            if len(stack) == len(before.move_stack) + 1:
                app.show(before, stack[-1], board, board.last_removed)
            else:  # undo or a loaded position: shown at once
                app.reset(board)
            app.idle.wait()
        outcome = board.outcome()
        if outcome is not None:
            result[0] = outcome.result()
            app.message = f"game over after {counted(board.ply, 'turn')}: {result[0]} (ESC closes)"

    thread = threading.Thread(target=worker, daemon=True)
    thread.start()
    try:
        app.run()
    finally:
        app.close()
    return result[0]

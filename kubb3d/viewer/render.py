"""The OpenGL renderer (pyglet 2, OpenGL 3.3 core, shaders).

Draws a :class:`~kubb3d.viewer.scene.Scene` seen by a :class:`~kubb3d.viewer.camera.Camera`
into an off-screen framebuffer (RGBA8 + 24-bit depth) that can be read back (headless
screenshots) or copied to a window.

Passes per frame (tuned for CPU renderers such as Mesa llvmpipe, where every full-screen
pixel costs: the grass and the sky are cheap per pixel, the shadow map is rarely redrawn):

1. shadow map: the depth, seen from the sun (orthographic, :data:`SHADOW_SIZE` px square
   over the pitch), of the pieces at rest; redrawn only when that set or a pose in it
   changes (a baton in flight or a tumbling kubb is left out while it moves, so that a
   throw does not redraw it every frame). Only pieces sample it;
2. pieces: the meshes of ``models/`` with a procedural wood grain, lit by the sun (with
   shadows) and a sky/ground hemisphere, tinted by their judge status;
3. grass: one texture fetch per pixel (noise colour with the sunlight baked in, mowing
   stripes in alpha), the rough off-pitch grass as per-vertex tints, fog from the view depth;
4. painted lines and the throwing line, a soft contact shadow under every piece (ambient
   occlusion from the piece's footprint and height) and the sun's shadow on the flat ground
   as the pieces projected along the sun (stencilled so that overlaps darken once), all
   multiplied onto the grass; then the aim line and the release marker;
5. the thrown piece's trace: a camera-facing ribbon;
6. sky: a gradient from the horizon to the zenith, drawn only over the rows above the horizon.

The programs' GLSL is in :mod:`~kubb3d.viewer.shaders`, the vertex arrays in
:mod:`~kubb3d.viewer.meshes`, the light, colours and textures in
:mod:`~kubb3d.viewer.textures`, the OpenGL objects in :mod:`~kubb3d.viewer.gl_objects`.

Requires a current OpenGL ≥ 3.3 context (a pyglet window, possibly hidden/headless).
Only :mod:`kubb3d.viewer` imports this module.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import numpy as np
from pyglet import gl

from kubb3d.viewer.camera import Camera, look_at, orthographic
from kubb3d.viewer.scene import OUTSIDE_COLOR, STATUS_COLORS, Scene, outside_quads
from kubb3d.viewer.gl_objects import GLMesh, Program, blit_framebuffer, f32, model_matrices, read_framebuffer
from kubb3d.viewer.meshes import (
    blob_vertices,
    floor_vertices,
    ground_vertices,
    load_piece_meshes,
    quads_along,
    ribbon,
    ring_segments,
    sky_rows,
    table_vertices,
)
from kubb3d.viewer.shaders import (
    BLOB_FS,
    BLOB_VS,
    DEPTH_FS,
    DEPTH_VS,
    FLAT_FS,
    FLAT_VS,
    GROUND_FS,
    GROUND_VS,
    PIECE_FS,
    PIECE_VS,
    PLANAR_FS,
    PLANAR_VS,
    SKY_FS,
    SKY_VS,
)
from kubb3d.viewer.textures import (
    BOARD_TILE,
    FLOOR_TILE,
    GRASS_TILE,
    GROUND_LIGHT,
    NOISE_SEED,
    SKY_LIGHT,
    STRIPE_FACTORS,
    SUN_COLOR,
    SUN_DIRECTION,
    WOOD,
    board_texture,
    display,
    floor_texture,
    grass_noise,
    grass_texture,
    ground_shade,
)

SHADOW_SIZE = 2048
"""px: side of the square shadow map (≈ 7 mm per texel over the pitch)."""

MAX_BLOBS = 40
"""Pieces that cast a contact shadow on the grass (the rest still cast sun shadows)."""


@dataclass
class FrameStats:
    """Counters of the last frame (for tests and the benchmark)."""

    pieces: int = 0
    shadow_redrawn: bool = False


class Renderer:
    """Draws scenes into an off-screen framebuffer of ``width`` × ``height`` px.

    Args:
        width, height: framebuffer size, px.
        equipment: equipment set name whose meshes are loaded.

    Raises:
        RuntimeError: no current OpenGL context, or shaders that do not compile.
    """

    SKY_ZENITH = (0.22, 0.42, 0.80)
    FOG = (0.66, 0.76, 0.88)

    def __init__(self, width: int, height: int, equipment: str = "standard") -> None:
        self.width, self.height = int(width), int(height)
        self.equipment = equipment
        self.stats = FrameStats()
        self._piece_prog = Program(PIECE_VS, PIECE_FS)
        self._ground_prog = Program(GROUND_VS, GROUND_FS)
        self._planar_prog = Program(PLANAR_VS, PLANAR_FS)
        self._flat_prog = Program(FLAT_VS, FLAT_FS)
        self._depth_prog = Program(DEPTH_VS, DEPTH_FS)
        self._sky_prog = Program(SKY_VS, SKY_FS)
        self._blob_prog = Program(BLOB_VS, BLOB_FS)
        from kubb3d.equipment import get_set
        from kubb3d.pitch import Pitch
        from kubb3d.viewer.camera import view_scale

        self.board = get_set(equipment).board
        self.scale = 1.0 if self.board is None else view_scale(Pitch(self.board.length, self.board.width))
        if self.board is not None:
            top, edges, table = table_vertices(self.board)
            self._board_top, self._board_mesh, self._table_mesh = GLMesh(top, layout=(3, 3, 1)), GLMesh(edges), GLMesh(table)
            self._floor = GLMesh(floor_vertices(-self.board.table_height), layout=(3, 3, 1))
        verts = load_piece_meshes(equipment)
        self._meshes = {k: GLMesh(v) for k, v in verts.items()}
        self._half_sizes = {k: (float(np.abs(v[:, :2]).max()), float(np.abs(v[:, 2]).max())) for k, v in verts.items()}
        self._blob_mesh = GLMesh(layout=(3, 2, 4))
        noise = grass_noise(np.random.default_rng(NOISE_SEED))
        self._make_grass_texture(grass_texture(noise) if self.board is None else board_texture(noise))
        if self.board is not None:
            self._floor_tex = self._make_texture(floor_texture(noise))
        self._ground = GLMesh(layout=(3, 3, 1))
        self._ground_key = None
        self._sky = GLMesh()
        self._sky_key = None
        self._blob_cache: dict[str, tuple[bytes, np.ndarray]] = {}
        self._blob_key = None
        self._prev_pose_keys: dict[str, bytes] = {}
        self._lines = GLMesh()
        self._lines_key = None
        self._dyn = GLMesh()
        self._shadow_key = None
        self._make_shadow_map()
        self._fbo = None
        self._make_framebuffer(self.width, self.height)
        self.light_vp = self._light_matrix()
        self._set_constants()

    # ------------------------------------------------------------ GL objects
    def _make_grass_texture(self, rgba: np.ndarray) -> None:
        self._noise_tex = self._make_texture(rgba)

    @staticmethod
    def _make_texture(rgba: np.ndarray):
        """A repeating, mipmapped RGBA8 texture of an array (size, size, 4) uint8; its id."""
        tex = gl.GLuint()
        gl.glGenTextures(1, ctypes.byref(tex))
        gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
        data = np.ascontiguousarray(rgba)
        gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
        gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA8, data.shape[1], data.shape[0], 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, data.ctypes.data)
        gl.glGenerateMipmap(gl.GL_TEXTURE_2D)
        for pname, val in ((gl.GL_TEXTURE_MIN_FILTER, gl.GL_LINEAR_MIPMAP_NEAREST), (gl.GL_TEXTURE_MAG_FILTER, gl.GL_LINEAR),
                           (gl.GL_TEXTURE_WRAP_S, gl.GL_REPEAT), (gl.GL_TEXTURE_WRAP_T, gl.GL_REPEAT)):
            gl.glTexParameteri(gl.GL_TEXTURE_2D, pname, val)
        return tex

    def _make_shadow_map(self) -> None:
        self._shadow_tex = gl.GLuint()
        gl.glGenTextures(1, ctypes.byref(self._shadow_tex))
        gl.glBindTexture(gl.GL_TEXTURE_2D, self._shadow_tex)
        gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, gl.GL_DEPTH_COMPONENT24, SHADOW_SIZE, SHADOW_SIZE, 0, gl.GL_DEPTH_COMPONENT, gl.GL_FLOAT, None)
        for pname, val in ((gl.GL_TEXTURE_MIN_FILTER, gl.GL_LINEAR), (gl.GL_TEXTURE_MAG_FILTER, gl.GL_LINEAR),
                           (gl.GL_TEXTURE_WRAP_S, gl.GL_CLAMP_TO_EDGE), (gl.GL_TEXTURE_WRAP_T, gl.GL_CLAMP_TO_EDGE),
                           (gl.GL_TEXTURE_COMPARE_MODE, gl.GL_COMPARE_REF_TO_TEXTURE), (gl.GL_TEXTURE_COMPARE_FUNC, gl.GL_LEQUAL)):
            gl.glTexParameteri(gl.GL_TEXTURE_2D, pname, val)
        self._shadow_fbo = gl.GLuint()
        gl.glGenFramebuffers(1, ctypes.byref(self._shadow_fbo))
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self._shadow_fbo)
        gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_DEPTH_ATTACHMENT, gl.GL_TEXTURE_2D, self._shadow_tex, 0)
        gl.glDrawBuffer(gl.GL_NONE)
        gl.glReadBuffer(gl.GL_NONE)
        self._check_fbo("shadow map")
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

    def _make_framebuffer(self, width: int, height: int) -> None:
        if self._fbo is not None:
            gl.glDeleteFramebuffers(1, ctypes.byref(self._fbo))
            gl.glDeleteRenderbuffers(2, (gl.GLuint * 2)(self._color_rb.value, self._depth_rb.value))
        self.width, self.height = int(width), int(height)
        self._fbo, self._color_rb, self._depth_rb = gl.GLuint(), gl.GLuint(), gl.GLuint()
        gl.glGenFramebuffers(1, ctypes.byref(self._fbo))
        gl.glGenRenderbuffers(1, ctypes.byref(self._color_rb))
        gl.glGenRenderbuffers(1, ctypes.byref(self._depth_rb))
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, self._color_rb)
        gl.glRenderbufferStorage(gl.GL_RENDERBUFFER, gl.GL_RGBA8, self.width, self.height)
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, self._depth_rb)
        gl.glRenderbufferStorage(gl.GL_RENDERBUFFER, gl.GL_DEPTH24_STENCIL8, self.width, self.height)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self._fbo)
        gl.glFramebufferRenderbuffer(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_RENDERBUFFER, self._color_rb)
        gl.glFramebufferRenderbuffer(gl.GL_FRAMEBUFFER, gl.GL_DEPTH_STENCIL_ATTACHMENT, gl.GL_RENDERBUFFER, self._depth_rb)
        self._check_fbo("colour framebuffer")
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

    @staticmethod
    def _check_fbo(what: str) -> None:
        status = gl.glCheckFramebufferStatus(gl.GL_FRAMEBUFFER)
        if status != gl.GL_FRAMEBUFFER_COMPLETE:
            raise RuntimeError(f"OpenGL {what} is incomplete (status 0x{status:x})")

    def resize(self, width: int, height: int) -> None:
        """Change the framebuffer size, px."""
        if (int(width), int(height)) != (self.width, self.height) and width > 0 and height > 0:
            self._make_framebuffer(width, height)

    def bind(self) -> None:
        """Make the off-screen framebuffer the drawing target (e.g. for the HUD)."""
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self._fbo)
        gl.glViewport(0, 0, self.width, self.height)

    def _light_matrix(self) -> np.ndarray:
        """The sun's view of the pitch (±7.5 m) or of a board (its half length + 5 cm), with
        depth limits close around it so that the depth bias stays below a piece's size."""
        c = np.zeros(3)
        if self.board is None:
            r, dist, near, far = 7.5, 20.0, 1.0, 40.0
        else:
            r = self.board.length / 2 + 0.05
            dist, near, far = 2.0, 2.0 - 1.5 * r, 2.0 + 1.5 * r
        eye = c + SUN_DIRECTION * dist
        view = look_at(eye, c, up=(1.0, 0.0, 0.0))
        return orthographic(-r, r, -r, r, near, far) @ view

    # ------------------------------------------------------------ uniforms
    def _set_constants(self) -> None:
        """Uniforms that never change (uniform values stay with their program)."""
        for prog in (self._piece_prog, self._flat_prog):
            prog.use()
            prog["u_sun_dir"] = tuple(SUN_DIRECTION)
            prog["u_sun_color"] = SUN_COLOR
            prog["u_sky_color"] = SKY_LIGHT
            prog["u_ground_color"] = GROUND_LIGHT
            prog["u_fog_color"] = self.FOG
            prog["u_shadow"] = 0
            prog["u_shadow_texel"] = 1.0 / SHADOW_SIZE
            prog["u_light_vp"] = f32(self.light_vp)
        self._piece_prog.use()
        self._piece_prog["u_ao_height"] = 0.06 * self.scale
        prog = self._ground_prog
        prog.use()
        prog["u_grass"] = 1
        prog["u_tile"] = GRASS_TILE if self.board is None else BOARD_TILE
        prog["u_fog_toned"] = tuple(float(v) ** 2 for v in display(self.FOG))
        prog["u_stripe"] = tuple(float(v) for v in np.sqrt(STRIPE_FACTORS))
        prog = self._planar_prog
        prog.use()
        prog["u_sun_dir"] = tuple(SUN_DIRECTION)
        prog["u_shade"] = ground_shade()
        prog = self._sky_prog
        prog.use()
        prog["u_fog_color"] = self.FOG
        prog["u_zenith"] = self.SKY_ZENITH
        gl.glUseProgram(0)

    # ------------------------------------------------------------ frame
    def render(self, scene: Scene, camera: Camera) -> None:
        """Draw one frame of ``scene`` seen by ``camera`` into the off-screen framebuffer."""
        pieces = scene.visible()
        self.stats = FrameStats(pieces=len(pieces))
        mats = model_matrices(np.array([p.pose for _, p in pieces])) if pieces else np.zeros((0, 4, 4), np.float32)
        models = {pid: mats[i] for i, (pid, _) in enumerate(pieces)}
        keys = {pid: np.asarray(p.pose, dtype=np.float32).tobytes() for pid, p in pieces}
        moving = {pid for pid in keys if self._prev_pose_keys.get(pid, keys[pid]) != keys[pid]}
        self._prev_pose_keys = keys
        self._shadow_pass([(pid, p) for pid, p in pieces if pid not in moving], models, keys)

        self.bind()
        gl.glEnable(gl.GL_DEPTH_TEST)
        gl.glDepthFunc(gl.GL_LEQUAL)
        gl.glDepthMask(gl.GL_TRUE)
        gl.glDisable(gl.GL_BLEND)
        gl.glEnable(gl.GL_CULL_FACE)
        gl.glCullFace(gl.GL_BACK)
        gl.glClearColor(*np.sqrt(self.FOG), 1.0)  # the sky shader's colour at and below the horizon
        gl.glClearStencil(0)
        gl.glStencilMask(0xFF)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT | gl.GL_STENCIL_BUFFER_BIT)
        vp = camera.view_proj(self.width, self.height)
        vp32 = f32(vp)
        eye = tuple(float(v) for v in camera.eye)
        gl.glActiveTexture(gl.GL_TEXTURE1)
        gl.glBindTexture(gl.GL_TEXTURE_2D, self._noise_tex)
        gl.glActiveTexture(gl.GL_TEXTURE0)
        gl.glBindTexture(gl.GL_TEXTURE_2D, self._shadow_tex)

        # pieces first (front to back does not matter much: they are small)
        prog = self._piece_prog
        prog.use()
        prog["u_eye"] = eye
        prog["u_view_proj"] = vp32
        for pid, p in pieces:
            prog.mat4("u_model", models[pid])
            prog["u_albedo"] = WOOD.get(p.kind, WOOD["kubb"])
            tint = STATUS_COLORS.get(p.status) if p.status else None
            prog["u_tint"] = (*tint, 0.62) if tint else (0.0, 0.0, 0.0, 0.0)
            prog["u_grain"] = 700.0 if p.kind != "baton" else 900.0
            prog["u_seed"] = float(sum(map(ord, pid)) % 97)
            self._meshes[p.kind].draw()
        if self.board is not None:
            self._draw_table(prog, vp32, eye)
        else:
            # grass (hidden parts are skipped by the depth test)
            half = (scene.pitch.length / 2, scene.pitch.half_width)
            if half != self._ground_key:
                self._ground.upload(ground_vertices(half))
                self._ground_key = half
            prog = self._ground_prog
            prog.use()
            prog["u_view_proj"] = vp32
            prog["u_eye"] = eye
            gl.glDisable(gl.GL_CULL_FACE)
            self._ground.draw()

        # on the grass: paint, contact shadows, the sun's shadow, then overlays
        gl.glDepthMask(gl.GL_FALSE)
        gl.glEnable(gl.GL_POLYGON_OFFSET_FILL)
        gl.glPolygonOffset(-1.0, -4.0)
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        prog = self._flat_prog
        prog.use()
        prog["u_eye"] = eye
        prog["u_view_proj"] = vp32
        self._draw_paint(scene)
        # on a board the sun's shadows alone (the grass's soft contact shadows, sized for
        # field pieces, smeared dark blots around the small disks)
        blobs = self._blobs(pieces if self.board is None else [])
        gl.glBlendFunc(gl.GL_ZERO, gl.GL_SRC_COLOR)
        if len(blobs):
            prog = self._blob_prog
            prog.use()
            prog["u_view_proj"] = vp32
            self._blob_mesh.draw()
        # (a piece down on the floor would throw its shadow onto the board's plane)
        self._sun_shadows(pieces if self.board is None else [(pid, p) for pid, p in pieces if p.pose[2] > -0.1], models, vp32)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        self._draw_overlays(scene)
        gl.glDisable(gl.GL_POLYGON_OFFSET_FILL)

        # trace
        if scene.trace is not None and len(scene.trace) >= 2:
            self._dyn.upload(ribbon(scene.trace, camera.eye, 0.012 * self.scale))
            prog = self._flat_prog
            prog.use()
            prog["u_color"] = (1.0, 0.85, 0.1, 0.9)
            prog["u_lit"] = 0.0
            prog["u_dash"] = 0.0
            self._dyn.draw()
        gl.glDisable(gl.GL_BLEND)
        gl.glDepthMask(gl.GL_TRUE)

        # sky last: only where nothing was drawn, only in the rows that can see it
        low = sky_rows(vp)
        if low is not None:
            if low != self._sky_key:
                self._sky.upload(np.array([(-1, low, 0, 0, 0, 0), (1, low, 0, 0, 0, 0), (1, 1, 0, 0, 0, 0), (-1, low, 0, 0, 0, 0), (1, 1, 0, 0, 0, 0), (-1, 1, 0, 0, 0, 0)], np.float32))
                self._sky_key = low
            prog = self._sky_prog
            prog.use()
            prog.mat4("u_inv_view_proj", np.linalg.inv(vp))
            self._sky.draw()

        gl.glBindVertexArray(0)
        gl.glUseProgram(0)
        gl.glDisable(gl.GL_DEPTH_TEST)
        gl.glDepthFunc(gl.GL_LESS)

    def _draw_table(self, prog: Program, vp32, eye) -> None:
        """The board's top first, drawn like the grass (one fetch of the sunlit wood texture a
        pixel); then the board's edges, the table under it and the tiled floor (the same way,
        its own texture), marked 1 in the stencil where they show, so that the pieces' sun
        shadows, projected onto z = 0, fall on the board's top alone (piece programme in use on
        entry)."""
        gl.glDisable(gl.GL_CULL_FACE)
        ground = self._ground_prog
        ground.use()
        ground["u_view_proj"] = vp32
        ground["u_eye"] = eye
        ground["u_tile"] = BOARD_TILE
        self._board_top.draw()
        gl.glEnable(gl.GL_STENCIL_TEST)
        gl.glStencilFunc(gl.GL_ALWAYS, 1, 0xFF)
        gl.glStencilOp(gl.GL_KEEP, gl.GL_KEEP, gl.GL_REPLACE)
        prog.use()
        prog["u_ao_height"] = 0.0
        prog["u_tint"] = (0.0, 0.0, 0.0, 0.0)
        prog.mat4("u_model", np.eye(4, dtype=np.float32))
        prog["u_seed"] = 7.0
        for mesh, kind, grain in ((self._board_mesh, "board", 90.0), (self._table_mesh, "table", 500.0)):
            prog["u_albedo"] = WOOD[kind]
            prog["u_grain"] = grain
            mesh.draw()
        prog["u_ao_height"] = 0.06 * self.scale
        ground.use()
        ground["u_tile"] = 2 * FLOOR_TILE
        gl.glActiveTexture(gl.GL_TEXTURE1)
        gl.glBindTexture(gl.GL_TEXTURE_2D, self._floor_tex)
        self._floor.draw()
        gl.glBindTexture(gl.GL_TEXTURE_2D, self._noise_tex)
        gl.glActiveTexture(gl.GL_TEXTURE0)
        gl.glDisable(gl.GL_STENCIL_TEST)

    def _blobs(self, pieces) -> np.ndarray:
        """Contact-shadow vertices of the pieces (cached per piece pose), uploaded if changed."""
        parts = []
        for pid, p in pieces:
            key = (p.kind, np.asarray(p.pose, dtype=np.float64).tobytes())
            hit = self._blob_cache.get(pid)
            if hit is None or hit[0] != key:
                hit = (key, blob_vertices([(p.kind, p.pose)], self._half_sizes))
                self._blob_cache[pid] = hit
            if len(hit[1]):
                parts.append((pid, hit))
        key = tuple((pid, h[0]) for pid, h in parts)
        blobs = np.concatenate([h[1] for _, h in parts]) if parts else np.zeros((0, 9), np.float32)
        if key != self._blob_key:
            self._blob_mesh.upload(blobs)
            self._blob_key = key
        return blobs

    def _sun_shadows(self, pieces, models, vp32) -> None:
        """The sun's shadow of every piece on the flat ground: each mesh projected along the
        sun onto z = 0 and multiplied onto the grass once per pixel (stencil)."""
        prog = self._planar_prog
        prog.use()
        prog["u_view_proj"] = vp32
        gl.glEnable(gl.GL_STENCIL_TEST)
        gl.glStencilFunc(gl.GL_EQUAL, 0, 0xFF)
        gl.glStencilOp(gl.GL_KEEP, gl.GL_KEEP, gl.GL_INCR)
        for pid, p in pieces:
            prog.mat4("u_model", models[pid])
            self._meshes[p.kind].draw()
        gl.glDisable(gl.GL_STENCIL_TEST)

    def _shadow_pass(self, pieces, models, keys) -> None:
        """Redraw the shadow map with ``pieces`` (the ones at rest) if they changed."""
        key = tuple((pid, keys[pid]) for pid, _ in pieces)
        if key == self._shadow_key:
            return
        self._shadow_key = key
        self.stats.shadow_redrawn = True
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self._shadow_fbo)
        gl.glViewport(0, 0, SHADOW_SIZE, SHADOW_SIZE)
        gl.glEnable(gl.GL_DEPTH_TEST)
        gl.glDepthMask(gl.GL_TRUE)
        gl.glClear(gl.GL_DEPTH_BUFFER_BIT)
        gl.glDisable(gl.GL_CULL_FACE)
        prog = self._depth_prog
        prog.use()
        prog.mat4("u_light_vp", self.light_vp)
        for pid, p in pieces:
            prog.mat4("u_model", models[pid])
            self._meshes[p.kind].draw()
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

    def _draw_paint(self, scene: Scene) -> None:
        """Painted pitch lines and the dashed throwing line (flat programme in use)."""
        prog = self._flat_prog
        key = (scene.pitch, scene.equipment)
        k = self.scale
        if key != self._lines_key:
            self._lines.upload(quads_along(scene.line_segments(), 0.002 * k))
            self._lines_key = key
        prog["u_lit"] = 1.0
        prog["u_dash"] = 0.0
        if scene.outside_shade:  # the referee views: a veil over the ground outside the pitch
            self._dyn.upload(quads_along(outside_quads(scene.pitch), 0.001))
            prog["u_color"] = OUTSIDE_COLOR
            self._dyn.draw()
        prog["u_color"] = (0.95, 0.95, 0.92, 1.0) if self.board is None else (0.06, 0.04, 0.03, 1.0)  # dark ink on wood
        self._lines.draw()
        if scene.rings:  # a target ring (the inkast challenge): orange paint, 6 cm wide
            self._dyn.upload(quads_along([seg for centre, r in scene.rings for seg in ring_segments(centre, r, 0.06 * k)], 0.002 * k))
            prog["u_color"] = (1.0, 0.45, 0.05, 0.9)
            self._dyn.draw()
        h = scene.pitch.half_width
        if scene.throwing_line is not None:
            x = scene.throwing_line
            ext = 0.6 * k if self.board is None else 0.0  # a board ends at its edges
            self._dyn.upload(quads_along([((x, -h - ext), (x, h + ext), 0.05 * k)], 0.003 * k))
            prog["u_color"] = (1.0, 0.75, 0.05, 0.85)
            prog["u_dash"] = 0.25 * k
            self._dyn.draw()

    def _draw_overlays(self, scene: Scene) -> None:
        """The aim line and the release marker, unlit."""
        prog = self._flat_prog
        prog.use()
        prog["u_lit"] = 0.0
        k = self.scale
        if scene.aim is not None:
            s, e = scene.aim
            self._dyn.upload(quads_along([((s[0], s[1]), (e[0], e[1]), 0.025 * k)], 0.004 * k))
            prog["u_color"] = (1.0, 0.15, 0.1, 0.95) if scene.aim_warning else (1.0, 0.95, 0.25, 0.9)
            prog["u_dash"] = 0.3 * k
            self._dyn.draw()
        if scene.release_point is not None:
            x, y = scene.release_point[:2]
            r = 0.09 * k
            self._dyn.upload(quads_along([((x - r, y), (x + r, y), 0.03 * k), ((x, y - r), (x, y + r), 0.03 * k)], 0.005 * k))
            prog["u_color"] = (1.0, 0.3, 0.1, 0.95)
            prog["u_dash"] = 0.0
            self._dyn.draw()

    # ------------------------------------------------------------ output
    def read_pixels(self) -> np.ndarray:
        """The framebuffer as an array (height, width, 3) uint8, first row at the top."""
        return read_framebuffer(self._fbo, self.width, self.height)

    def blit(self, width: int, height: int) -> None:
        """Copy the framebuffer to the window's default framebuffer of width × height px."""
        blit_framebuffer(self._fbo, self.width, self.height, width, height)

    def finish(self) -> None:
        """Wait until the GPU (or llvmpipe) has finished the frame."""
        gl.glFinish()

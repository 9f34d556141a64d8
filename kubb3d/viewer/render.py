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

Requires a current OpenGL ≥ 3.3 context (a pyglet window, possibly hidden/headless).
Only :mod:`kubb3d.viewer` imports this module.
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass

import numpy as np
import trimesh
from pyglet import gl

from kubb3d.model_files import models_dir
from kubb3d.viewer.camera import Camera, look_at, orthographic
from kubb3d.viewer.scene import OUTSIDE_COLOR, STATUS_COLORS, Scene, outside_quads

SHADOW_SIZE = 2048
"""px: side of the square shadow map (≈ 7 mm per texel over the pitch)."""
SUN_DIRECTION = np.array((-0.35, 0.80, 0.62)) / np.linalg.norm((-0.35, 0.80, 0.62))
"""Unit vector towards the sun: from the +y side, a little behind side A, about 36° high, so that
shadows fall sideways in the throwers' views."""
SUN_COLOR = (2.1, 1.95, 1.75)
"""Linear RGB irradiance of the sun on a surface facing it."""
SKY_LIGHT = (0.50, 0.62, 0.85)
GROUND_LIGHT = (0.20, 0.24, 0.12)
"""Linear RGB ambient light from the sky (upward normals) and bounced from the grass (downward)."""
GRASS_AMBIENT = tuple(0.15 * g + 0.85 * k for g, k in zip(GROUND_LIGHT, SKY_LIGHT))
"""Ambient light on the grass (mostly sky)."""
GRASS_TILE = 10.0
"""m: period of the grass texture (five 2 m pairs of mowing stripes)."""
MAX_BLOBS = 40
"""Pieces that cast a contact shadow on the grass (the rest still cast sun shadows)."""

WOOD = {
    "kubb": (0.60, 0.40, 0.19),
    "king": (0.66, 0.47, 0.24),
    "baton": (0.36, 0.20, 0.08),
    "stake": (0.28, 0.16, 0.07),
    "board": (0.56, 0.42, 0.26),
    "table": (0.24, 0.13, 0.06),
}
"""Linear RGB albedo of each kind of piece (light rubberwood kubbs, darker batons), of a
table-top board (pale smooth wood) and of the table under it (dark stained wood)."""
FLOOR_COLORS = ((0.30, 0.24, 0.18), (0.26, 0.20, 0.15))
"""Linear RGB of the two alternating floor tiles around a table (kubb3d's choice: a neutral
indoor floor, KT "Kubbuteo is an indoor derivative")."""
FLOOR_TILE = 0.5
"""m: side of a floor tile (the floor texture holds 2 × 2 of them)."""
TABLE_LEG = 0.05
"""m: side of the table's square legs (the table itself is kubb3d's: KT says only "board")."""

_COMMON = """
uniform vec3 u_sun_dir;
uniform vec3 u_sun_color;
uniform vec3 u_sky_color;
uniform vec3 u_ground_color;
uniform vec3 u_eye;
uniform vec3 u_fog_color;
uniform sampler2DShadow u_shadow;
uniform float u_shadow_texel;

float shadow_at(vec4 lp, float bias) {
    vec3 p = lp.xyz / lp.w * 0.5 + 0.5;
    if (p.x <= 0.0 || p.x >= 1.0 || p.y <= 0.0 || p.y >= 1.0 || p.z >= 1.0) return 1.0;
#ifdef SOFT_SHADOWS
    float s = 0.0;
    for (int i = 0; i < 4; i++) {
        vec2 o = vec2((i & 1) == 0 ? -0.75 : 0.75, (i & 2) == 0 ? -0.75 : 0.75);
        s += texture(u_shadow, vec3(p.xy + o * u_shadow_texel, p.z - bias));
    }
    return s * 0.25;
#else
    return texture(u_shadow, vec3(p.xy, p.z - bias));   // one bilinear 2x2 comparison
#endif
}

vec3 fog(vec3 c, vec3 world) {
    float d = length(world - u_eye);
    float f = clamp((d - 12.0) * 0.02, 0.0, 0.85);
    return mix(c, u_fog_color, f * (2.0 - f));
}

vec4 finish(vec3 c) {
    c = c / (1.0 + 0.15 * c);               // gentle highlight roll-off
    return vec4(sqrt(max(c, 0.0)), 1.0);    // display gamma 2 (cheap on CPU renderers)
}
"""

_PIECE_VS = """
#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
uniform mat4 u_model;
uniform mat4 u_view_proj;
uniform mat4 u_light_vp;
out vec3 v_world;
out vec3 v_normal;
out vec3 v_local;
out vec4 v_light;
void main() {
    vec4 w = u_model * vec4(position, 1.0);
    v_world = w.xyz;
    v_normal = mat3(u_model) * normal;
    v_local = position;
    v_light = u_light_vp * w;
    gl_Position = u_view_proj * w;
}
"""

_PIECE_FS = """
#version 330 core
in vec3 v_world;
in vec3 v_normal;
in vec3 v_local;
in vec4 v_light;
uniform vec3 u_albedo;
uniform vec4 u_tint;        // rgb, amount
uniform float u_grain;      // ring spacing scale, 1/m
uniform float u_seed;
uniform float u_ao_height;  // m above z = 0 where the contact occlusion ends (0: none)
out vec4 frag;
""" + _COMMON + """
void main() {
    vec3 n = normalize(v_normal);
    // wood: growth rings around an axis parallel to the long axis, slightly wavy
    vec2 c = v_local.xy + vec2(0.031 + 0.01 * sin(u_seed), -0.027 + 0.01 * cos(u_seed * 1.7));
    float r = length(c) + 0.0025 * sin(v_local.z * 37.0 + u_seed) + 0.001 * sin(v_local.z * 151.0);
    float ring = 0.5 + 0.5 * sin(r * u_grain);
    vec3 albedo = u_albedo * (0.80 + 0.20 * smoothstep(0.15, 0.85, ring));
    albedo = mix(albedo, u_tint.rgb, u_tint.a);
    float ndl = dot(n, u_sun_dir);
    float sh = ndl > 0.0 ? shadow_at(v_light, 0.0015) : 0.0;
    float hemi = 0.5 + 0.5 * n.z;
    vec3 ambient = mix(u_ground_color, u_sky_color, hemi);
    // darken near the ground (contact occlusion; off for the board and the table)
    float ao = u_ao_height > 0.0 ? mix(0.55, 1.0, smoothstep(0.0, u_ao_height, v_world.z)) : 1.0;
    vec3 v = normalize(u_eye - v_world);
    vec3 h = normalize(v + u_sun_dir);
    float spec = pow(max(dot(n, h), 0.0), 24.0) * 0.12 * sh;
    vec3 col = albedo * (ambient * ao + u_sun_color * max(ndl, 0.0) * sh) + spec * u_sun_color;
    col += u_tint.rgb * u_tint.a * 0.25;    // statuses stay readable in shadow
    frag = finish(fog(col, v_world));
}
"""

_GROUND_VS = """
#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 tint;      // display-space colour factor of the region
layout(location = 2) in float mown;     // 1 on the mown area around the pitch (stripes), else 0
uniform mat4 u_view_proj;
uniform float u_tile;                   // grass texture period, m
uniform vec3 u_eye;
out vec2 v_uv;
out vec3 v_rel;
flat out vec3 v_tint;
flat out float v_mown;
void main() {
    gl_Position = u_view_proj * vec4(position, 1.0);
    v_rel = position - u_eye;
    v_uv = position.xy / u_tile;
    v_tint = tint;
    v_mown = mown;
}
"""

_GROUND_FS = """
#version 330 core
in vec2 v_uv;
in vec3 v_rel;
flat in vec3 v_tint;
flat in float v_mown;
uniform sampler2D u_grass;              // sunlit grass in display space; alpha: mowing stripe
uniform vec3 u_fog_toned;               // fog colour after the highlight roll-off (before gamma)
uniform vec2 u_stripe;                  // display-space factors of the two stripe directions
out vec4 frag;
void main() {
    vec4 t = texture(u_grass, v_uv);
    vec3 c = t.rgb * v_tint * mix(1.0, mix(u_stripe.x, u_stripe.y, t.a), v_mown);
    float f = clamp((length(v_rel) - 12.0) * 0.02, 0.0, 0.85);
    frag = vec4(sqrt(mix(c * c, u_fog_toned, f * (2.0 - f))), 1.0);   // fog mixed before gamma
}
"""

_PLANAR_VS = """
#version 330 core
layout(location = 0) in vec3 position;
uniform mat4 u_model;
uniform mat4 u_view_proj;
uniform vec3 u_sun_dir;
out float v_depth;
void main() {
    vec3 w = (u_model * vec4(position, 1.0)).xyz;
    w -= u_sun_dir * (w.z / u_sun_dir.z);   // along the sun's rays onto z = 0
    gl_Position = u_view_proj * vec4(w, 1.0);
    v_depth = gl_Position.w;
}
"""

_PLANAR_FS = """
#version 330 core
in float v_depth;
uniform vec3 u_shade;                   // display-space factor: shadowed / sunlit grass
out vec4 frag;
void main() {
    float f = clamp(v_depth * 0.02 - 0.24, 0.0, 0.85);
    frag = vec4(mix(u_shade, vec3(1.0), f * (2.0 - f)), 1.0);
}
"""

_BLOB_VS = """
#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec2 local;     // along / across the footprint from its centre, m
layout(location = 2) in vec4 shape;     // core half length, core half width, fade width (m), strength
uniform mat4 u_view_proj;
out vec2 v_local;
flat out vec4 v_shape;
void main() { v_local = local; v_shape = shape; gl_Position = u_view_proj * vec4(position, 1.0); }
"""

_BLOB_FS = """
#version 330 core
in vec2 v_local;
flat in vec4 v_shape;
out vec4 frag;
void main() {
    float d = length(max(abs(v_local) - v_shape.xy, 0.0)) / v_shape.z;
    float occ = v_shape.w * (1.0 - smoothstep(0.0, 1.0, d));
    frag = vec4(vec3(1.0 - occ), 1.0);
}
"""

_FLAT_VS = """
#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
uniform mat4 u_view_proj;
out vec3 v_world;
out float v_along;
void main() {
    v_world = position;
    v_along = normal.x;
    gl_Position = u_view_proj * vec4(position, 1.0);
}
"""

_FLAT_FS = """
#version 330 core
in vec3 v_world;
in float v_along;
uniform vec4 u_color;
uniform float u_lit;      // 1: painted on the grass (shadowed), 0: unlit overlay
uniform float u_dash;     // dash period along the line, m (0: solid)
out vec4 frag;
""" + _COMMON + """
void main() {
    if (u_dash > 0.0 && fract(v_along / u_dash) > 0.6) discard;
    vec3 c = u_color.rgb;
    if (u_lit > 0.5) {   // sunlit paint; the sun's shadow is multiplied on afterwards
        c = c * (mix(u_ground_color, u_sky_color, 0.85) + u_sun_color * u_sun_dir.z) * 0.75;
        frag = vec4(finish(fog(c, v_world)).rgb, u_color.a);
    } else {
        frag = vec4(sqrt(c), u_color.a);
    }
}
"""

_DEPTH_VS = """
#version 330 core
layout(location = 0) in vec3 position;
uniform mat4 u_model;
uniform mat4 u_light_vp;
void main() { gl_Position = u_light_vp * u_model * vec4(position, 1.0); }
"""

_DEPTH_FS = """
#version 330 core
void main() { }
"""

_SKY_VS = """
#version 330 core
layout(location = 0) in vec3 position;
uniform mat4 u_inv_view_proj;
out vec3 v_dir;
void main() {
    vec4 a = u_inv_view_proj * vec4(position.xy, -1.0, 1.0);
    vec4 b = u_inv_view_proj * vec4(position.xy, 1.0, 1.0);
    v_dir = b.xyz / b.w - a.xyz / a.w;      // linear across the screen: interpolates exactly
    gl_Position = vec4(position.xy, 1.0, 1.0);
}
"""

_SKY_FS = """
#version 330 core
in vec3 v_dir;
uniform vec3 u_fog_color;
uniform vec3 u_zenith;
out vec4 frag;
void main() {
    vec3 d = normalize(v_dir);
    vec3 c = mix(u_fog_color, u_zenith, sqrt(clamp(d.z, 0.0, 1.0)));
    frag = vec4(sqrt(c), 1.0);
}
"""


def _f32(m: np.ndarray) -> tuple:
    """A (4, 4) matrix as 16 floats in OpenGL's column-major order."""
    return tuple(float(v) for v in np.asarray(m, dtype=np.float64).T.ravel())


_FLOAT_P = ctypes.POINTER(gl.GLfloat)


def model_matrices(poses: np.ndarray) -> np.ndarray:
    """Model matrices (N, 4, 4) float32 of poses (N, 7) (centre m, ``quat_xyzw``), as
    :func:`~kubb3d.viewer.scene.model_matrix` for many at once."""
    p = np.asarray(poses, dtype=float).reshape(-1, 7)
    q = p[:, 3:] / np.linalg.norm(p[:, 3:], axis=1, keepdims=True)
    x, y, z, w = q.T
    m = np.zeros((len(p), 4, 4))
    m[:, 0, 0], m[:, 0, 1], m[:, 0, 2] = 1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)
    m[:, 1, 0], m[:, 1, 1], m[:, 1, 2] = 2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)
    m[:, 2, 0], m[:, 2, 1], m[:, 2, 2] = 2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)
    m[:, :3, 3] = p[:, :3]
    m[:, 3, 3] = 1.0
    return m.astype(np.float32)


class Program:
    """A linked GLSL program with cached uniform locations (raw OpenGL: pyglet 2.1's
    introspection does not know ``sampler2DShadow``)."""

    def __init__(self, vertex: str, fragment: str) -> None:
        self.id = gl.glCreateProgram()
        shaders = []
        for src, kind in ((vertex, gl.GL_VERTEX_SHADER), (fragment, gl.GL_FRAGMENT_SHADER)):
            sh = gl.glCreateShader(kind)
            buf = ctypes.create_string_buffer(src.encode())
            ptr = ctypes.cast(ctypes.pointer(ctypes.pointer(buf)), ctypes.POINTER(ctypes.POINTER(gl.GLchar)))
            gl.glShaderSource(sh, 1, ptr, None)
            gl.glCompileShader(sh)
            ok = gl.GLint()
            gl.glGetShaderiv(sh, gl.GL_COMPILE_STATUS, ctypes.byref(ok))
            if not ok.value:
                raise RuntimeError(f"shader does not compile: {self._log(sh, gl.glGetShaderInfoLog)}")
            gl.glAttachShader(self.id, sh)
            shaders.append(sh)
        gl.glLinkProgram(self.id)
        ok = gl.GLint()
        gl.glGetProgramiv(self.id, gl.GL_LINK_STATUS, ctypes.byref(ok))
        if not ok.value:
            raise RuntimeError(f"shader program does not link: {self._log(self.id, gl.glGetProgramInfoLog)}")
        for sh in shaders:
            gl.glDetachShader(self.id, sh)
            gl.glDeleteShader(sh)
        self._loc: dict[str, int] = {}
        self._last: dict[int, object] = {}  # location → last value set (skips repeats)

    @staticmethod
    def _log(obj, getter) -> str:
        buf = ctypes.create_string_buffer(4096)
        getter(obj, 4096, None, buf)
        return buf.value.decode(errors="replace")

    def use(self) -> None:
        gl.glUseProgram(self.id)

    def loc(self, name: str) -> int:
        if name not in self._loc:
            self._loc[name] = gl.glGetUniformLocation(self.id, name.encode())
        return self._loc[name]

    def mat4(self, name: str, m: np.ndarray) -> None:
        """Set a mat4 uniform of the program in use from a (4, 4) row-major array (float32
        C-contiguous arrays are passed without a copy)."""
        loc = self.loc(name)
        if loc >= 0:
            a = m if m.dtype == np.float32 and m.flags.c_contiguous else np.ascontiguousarray(m, dtype=np.float32)
            gl.glUniformMatrix4fv(loc, 1, gl.GL_TRUE, a.ctypes.data_as(_FLOAT_P))

    def __setitem__(self, name: str, value) -> None:
        """Set a uniform of the program in use: int → int/sampler, float, a 2/3/4-tuple → vec,
        16 floats → mat4 (column-major); a longer sequence → vec4 array. Unknown names
        (optimised out) are ignored."""
        loc = self.loc(name)
        if loc < 0:
            return
        if isinstance(value, (tuple, float, int)):
            if self._last.get(loc) == (type(value), value):
                return  # uniform values stay with the program
            self._last[loc] = (type(value), value)
        if isinstance(value, (bool, int, np.integer)):
            gl.glUniform1i(loc, int(value))
        elif isinstance(value, (float, np.floating)):
            gl.glUniform1f(loc, float(value))
        else:
            v = [float(x) for x in value]
            n = len(v)
            if n == 2:
                gl.glUniform2f(loc, *v)
            elif n == 3:
                gl.glUniform3f(loc, *v)
            elif n == 4:
                gl.glUniform4f(loc, *v)
            elif n == 16:
                gl.glUniformMatrix4fv(loc, 1, gl.GL_FALSE, (gl.GLfloat * 16)(*v))
            elif n % 4 == 0:
                gl.glUniform4fv(loc, n // 4, (gl.GLfloat * n)(*v))
            else:
                raise ValueError(f"cannot set uniform {name} from {n} numbers")


class GLMesh:
    """Triangles in a vertex array of interleaved float attributes, by default position (m)
    and normal, 6 floats per vertex (attribute locations 0, 1 …). The buffer can be
    replaced (dynamic geometry)."""

    def __init__(self, data: np.ndarray | None = None, mode: int = gl.GL_TRIANGLES, layout: tuple[int, ...] = (3, 3)) -> None:
        self.mode = mode
        self.count = 0
        self.layout = layout
        self.vao = gl.GLuint()
        self.vbo = gl.GLuint()
        gl.glGenVertexArrays(1, ctypes.byref(self.vao))
        gl.glGenBuffers(1, ctypes.byref(self.vbo))
        gl.glBindVertexArray(self.vao)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.vbo)
        stride = 4 * sum(layout)
        offset = 0
        for loc, n in enumerate(layout):
            gl.glEnableVertexAttribArray(loc)
            gl.glVertexAttribPointer(loc, n, gl.GL_FLOAT, gl.GL_FALSE, stride, ctypes.c_void_p(offset))
            offset += 4 * n
        gl.glBindVertexArray(0)
        if data is not None:
            self.upload(data)

    def upload(self, data: np.ndarray) -> None:
        """Replace the vertices: array (N, sum(layout)) float32."""
        data = np.ascontiguousarray(data, dtype=np.float32)
        self.count = int(data.shape[0]) if data.size else 0
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.vbo)
        gl.glBufferData(gl.GL_ARRAY_BUFFER, data.nbytes, data.ctypes.data if data.size else None, gl.GL_DYNAMIC_DRAW)

    def draw(self) -> None:
        if self.count:
            gl.glBindVertexArray(self.vao)
            gl.glDrawArrays(self.mode, 0, self.count)

    def delete(self) -> None:
        gl.glDeleteBuffers(1, ctypes.byref(self.vbo))
        gl.glDeleteVertexArrays(1, ctypes.byref(self.vao))


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
        FileNotFoundError: a model file is missing (run ``kubb3d models build``).
    """
    from kubb3d.equipment import get_set

    eq = get_set(equipment)
    out = {}
    for kind in ("kubb", "king", "baton", "stake"):
        if kind == "stake" and eq.stake is None:
            continue
        path = models_dir() / f"{equipment}-{kind}.obj"
        if not path.is_file():
            raise FileNotFoundError(f"model file {path.name} is missing; run `kubb3d models build`")
        mesh = trimesh.load(path, file_type="obj", process=False, force="mesh")
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


def floor_texture(noise: np.ndarray) -> np.ndarray:
    """Sunlit floor tiles (size, size, 4) uint8 for one period of 2 × :data:`FLOOR_TILE` m: 2 × 2
    tiles of the two :data:`FLOOR_COLORS` in a checkerboard, with a little of the fine noise band,
    lit like :func:`grass_texture`; alpha 0. One texture fetch a pixel: drawn with the
    pieces' flat shading instead, the floor halved the frame rate on the CPU renderer."""
    n = noise.astype(float) / 255.0
    size = noise.shape[0]
    half = (np.arange(size) >= size // 2).astype(int)
    which = (half[:, None] + half[None, :]) % 2
    albedo = np.array(FLOOR_COLORS)[which] * (0.94 + 0.12 * n[..., 2:3])
    light = np.array(GRASS_AMBIENT) + np.array(SUN_COLOR) * SUN_DIRECTION[2]
    out = np.zeros((*noise.shape[:2], 4), np.uint8)
    out[..., :3] = np.round(np.clip(display(albedo * light), 0.0, 1.0) * 255).astype(np.uint8)
    return out


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


NOISE_SEED = 20240605
"""Seed of the grass noise texture (part of the look, not of any simulation)."""


def grass_noise(rng: np.random.Generator, size: int = 256) -> np.ndarray:
    """Tileable noise (size, size, 3) uint8: white noise low-passed in the Fourier domain,
    three bands (coarse in r, medium in g, fine in b), each stretched to 0–255."""
    out = np.empty((size, size, 3), np.uint8)
    f = np.fft.fftfreq(size)
    k = np.hypot(*np.meshgrid(f, f))
    for ch, (lo, hi) in enumerate(((0.0, 0.02), (0.02, 0.08), (0.08, 0.5))):
        spec = np.fft.fft2(rng.standard_normal((size, size)))
        band = np.real(np.fft.ifft2(spec * ((k >= lo) & (k <= hi))))
        band = (band - band.min()) / max(np.ptp(band), 1e-12)
        out[..., ch] = np.round(band * 255).astype(np.uint8)
    return out


def display(linear) -> np.ndarray:
    """Display value of linear RGB (any shape): the same gentle highlight roll-off and gamma 2
    as the shaders' ``finish``."""
    c = np.maximum(np.asarray(linear, dtype=float), 0.0)
    return np.sqrt(c / (1.0 + 0.15 * c))


STRIPE_FACTORS = (0.92, 1.06)
"""Linear brightness factors of the two mowing directions."""
ROUGH_TINT = (1.15, 1.05, 0.75)
"""Linear colour factor of the unmown (yellower) grass off the pitch."""


def grass_texture(noise: np.ndarray, tile: float = GRASS_TILE) -> np.ndarray:
    """Sunlit grass colour (size, size, 4) uint8 for one texture period of ``tile`` m.

    RGB: the display value of the grass albedo (dark green modulated by the three noise
    bands of ``noise`` (size, size, 3) uint8) lit by :data:`GRASS_AMBIENT` and the full sun.
    Alpha: 255 on the texels whose world x falls in the brighter mowing stripe (1 m wide,
    x mod 2 m in [1, 2)), 0 on the others; ``tile`` must be a multiple of 2 m.
    """
    n = noise.astype(float) / 255.0
    albedo = np.array((0.085, 0.215, 0.045)) * (0.68 + 0.30 * n[..., :1] + 0.18 * n[..., 1:2] + 0.20 * n[..., 2:3])
    light = np.array(GRASS_AMBIENT) + np.array(SUN_COLOR) * SUN_DIRECTION[2]
    rgb = display(albedo * light)
    size = noise.shape[1]
    x = (np.arange(size) + 0.5) / size * tile
    stripe = (np.mod(x, 2.0) >= 1.0).astype(float)
    out = np.empty((*noise.shape[:2], 4), np.uint8)
    out[..., :3] = np.round(np.clip(rgb, 0.0, 1.0) * 255).astype(np.uint8)
    out[..., 3] = np.round(stripe * 255).astype(np.uint8)[None, :]
    return out


BOARD_TILE = 0.5
"""m: period of the board's wood texture (12 grain stripes across it)."""


def board_texture(noise: np.ndarray) -> np.ndarray:
    """Sunlit smooth wood (size, size, 4) uint8 for one :data:`BOARD_TILE` period of a board's
    top, lit like :func:`grass_texture` (the ground programme draws it, and the pieces' sun
    shadows are multiplied on as on the grass): the albedo ``WOOD["board"]`` with 12 grain
    stripes along x (across the texture's rows, bent by the coarse noise band) and fine noise;
    alpha 0 (no mowing stripes)."""
    n = noise.astype(float) / 255.0
    size = noise.shape[0]
    v = ((np.arange(size) + 0.5) / size)[:, None]
    ring = 0.5 + 0.5 * np.sin(2 * np.pi * (12 * v + 1.5 * n[..., 0]))
    albedo = np.array(WOOD["board"]) * (0.86 + 0.10 * ring + 0.08 * (n[..., 2] - 0.5))[..., None]
    light = np.array(GRASS_AMBIENT) + np.array(SUN_COLOR) * SUN_DIRECTION[2]
    out = np.zeros((*noise.shape[:2], 4), np.uint8)
    out[..., :3] = np.round(np.clip(display(albedo * light), 0.0, 1.0) * 255).astype(np.uint8)
    return out


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


def ground_shade() -> tuple[float, float, float]:
    """Display-space factor that turns sunlit grass into grass in the sun's shadow."""
    a = np.array(GRASS_AMBIENT)
    lit = a + np.array(SUN_COLOR) * SUN_DIRECTION[2]
    return tuple(float(v) for v in np.sqrt(a / lit))


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
        self._piece_prog = Program(_PIECE_VS, _PIECE_FS)
        self._ground_prog = Program(_GROUND_VS, _GROUND_FS)
        self._planar_prog = Program(_PLANAR_VS, _PLANAR_FS)
        self._flat_prog = Program(_FLAT_VS, _FLAT_FS)
        self._depth_prog = Program(_DEPTH_VS, _DEPTH_FS)
        self._sky_prog = Program(_SKY_VS, _SKY_FS)
        self._blob_prog = Program(_BLOB_VS, _BLOB_FS)
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
            prog["u_light_vp"] = _f32(self.light_vp)
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
        vp32 = _f32(vp)
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
            prog["u_color"] = (1.0, 0.95, 0.25, 0.9)
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


def read_framebuffer(fbo: int, width: int, height: int) -> np.ndarray:
    """Pixels of an off-screen framebuffer as an array (height, width, 3) uint8, top row first."""
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
    buf = np.empty((height, width, 4), dtype=np.uint8)
    gl.glReadPixels(0, 0, width, height, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, buf.ctypes.data)
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
    return buf[::-1, :, :3].copy()


def blit_framebuffer(fbo: int, width: int, height: int, to_width: int, to_height: int) -> None:
    """Copy an off-screen framebuffer (width × height px) to the window's default framebuffer
    (to_width × to_height px)."""
    gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, fbo)
    gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, 0)
    gl.glBlitFramebuffer(0, 0, width, height, 0, 0, to_width, to_height, gl.GL_COLOR_BUFFER_BIT, gl.GL_LINEAR)
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

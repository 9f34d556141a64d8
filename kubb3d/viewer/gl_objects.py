"""Thin OpenGL objects over pyglet's raw bindings: a linked GLSL :class:`Program` with its
uniforms, a vertex buffer :class:`GLMesh`, model matrices in OpenGL's layout, and reading or
blitting an off-screen framebuffer. Requires a current OpenGL ≥ 3.3 context."""

from __future__ import annotations

import ctypes

import numpy as np
from pyglet import gl

from kubb3d.viewer.scene import rotation_matrices
from kubb3d.ranges import counted


def f32(m: np.ndarray) -> tuple:
    """A (4, 4) matrix as 16 floats in OpenGL's column-major order."""
    return tuple(float(v) for v in np.asarray(m, dtype=np.float64).T.ravel())


_FLOAT_P = ctypes.POINTER(gl.GLfloat)


def model_matrices(poses: np.ndarray) -> np.ndarray:
    """Model matrices (N, 4, 4) float32 of poses (N, 7) (centre m, ``quat_xyzw``), as
    :func:`~kubb3d.viewer.scene.model_matrix` for many at once."""
    p = np.asarray(poses, dtype=float).reshape(-1, 7)
    m = np.zeros((len(p), 4, 4))
    m[:, :3, :3] = rotation_matrices(p[:, 3:])
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
                raise ValueError(f"cannot set uniform {name} from {counted(n, 'number')}")


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

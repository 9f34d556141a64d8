"""The look of the 3D views: the sun and the sky light, the colours of the wood, the floor and
the grass, and the textures made from them (sunlit grass with mowing stripes, a board's wood,
floor tiles), as numpy arrays; no OpenGL here. Colours are linear RGB unless a name says
display."""

from __future__ import annotations

import numpy as np


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


def ground_shade() -> tuple[float, float, float]:
    """Display-space factor that turns sunlit grass into grass in the sun's shadow."""
    a = np.array(GRASS_AMBIENT)
    lit = a + np.array(SUN_COLOR) * SUN_DIRECTION[2]
    r, g, b = (float(v) for v in np.sqrt(a / lit))
    return (r, g, b)

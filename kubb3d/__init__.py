"""kubb3d: a 3D physics simulator of the outdoor game Kubb, with a referee.

The common entry points are importable from the package itself (loaded on
first use, so ``import kubb3d`` stays light and never imports pyglet)::

    import kubb3d
    with kubb3d.World.standard() as world:
        params = kubb3d.aim(world, "B3", kubb3d.ThrowParams()).params
        result = kubb3d.throw_baton(world, params)

=================  =====================================================
name               where it lives
=================  =====================================================
World, Terrain     :mod:`kubb3d.physics.world`
ThrowParams, aim,  :mod:`kubb3d.throw` (``throw_baton`` is
throw_baton,       ``kubb3d.throw.throw``: the name ``kubb3d.throw``
inkast, lag_throw  is the module)
Snapshot           :mod:`kubb3d.snapshot`
Pitch              :mod:`kubb3d.pitch`
get_set            :mod:`kubb3d.equipment`
get_ground         :mod:`kubb3d.physics.ground`
show               :mod:`kubb3d.display` (3D view, or a PNG headless)
=================  =====================================================
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_LAZY: dict[str, str | tuple[str, str]] = {
    "World": "kubb3d.physics.world",
    "Terrain": "kubb3d.physics.world",
    "PhysicsGlitch": "kubb3d.physics.world",
    "ThrowParams": "kubb3d.throw",
    "ThrowResult": "kubb3d.throw",
    "Release": "kubb3d.throw",
    "aim": "kubb3d.throw",
    "throw_baton": ("kubb3d.throw", "throw"),
    "inkast": "kubb3d.throw",
    "lag_throw": "kubb3d.throw",
    "simulate": "kubb3d.throw",
    "Snapshot": "kubb3d.snapshot",
    "Pitch": "kubb3d.pitch",
    "get_set": "kubb3d.equipment",
    "get_ground": "kubb3d.physics.ground",
    "show": ("kubb3d.display", "show"),
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        entry = _LAZY[name]
        module, attr = entry if isinstance(entry, tuple) else (entry, name)
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'kubb3d' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def _register_gymnasium_envs() -> None:
    """Register ``kubb3d/Throw-v0`` and ``kubb3d/Turn-v0`` if Gymnasium is already imported
    (``import gymnasium, kubb3d``); never imports Gymnasium itself, to keep ``import kubb3d``
    light. ``import kubb3d.envs`` registers them in any order."""
    import sys

    if "gymnasium" in sys.modules:
        importlib.import_module("kubb3d.envs")


_register_gymnasium_envs()

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
Match,             :mod:`kubb3d.match` (a whole match in physics)
MatchConfig
MatchState,        :mod:`kubb3d.rules` (the rules engine)
get_ruleset
judge_throw,       :mod:`kubb3d.judge` (the referee)
judge_inkast
=================  =====================================================

Type checkers see these names through the ``TYPE_CHECKING`` imports below, which name the
same objects as the lazy table (``tests/test_packaging.py`` keeps the two in step).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from kubb3d._lazy import lazy_names

if TYPE_CHECKING:
    from kubb3d.display import show
    from kubb3d.equipment import get_set
    from kubb3d.judge import judge_inkast, judge_throw
    from kubb3d.match import Match, MatchConfig
    from kubb3d.physics.ground import get_ground
    from kubb3d.physics.world import PhysicsGlitch, Terrain, World
    from kubb3d.pitch import Pitch
    from kubb3d.rules import MatchState, get_ruleset
    from kubb3d.snapshot import Snapshot
    from kubb3d.throw import Release, ThrowParams, ThrowResult, aim, inkast, lag_throw, simulate
    from kubb3d.throw import throw as throw_baton

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
    "Match": "kubb3d.match",
    "MatchConfig": "kubb3d.match",
    "MatchState": "kubb3d.rules",
    "get_ruleset": "kubb3d.rules",
    "judge_throw": "kubb3d.judge",
    "judge_inkast": "kubb3d.judge",
}

__all__ = [
    "Match",
    "MatchConfig",
    "MatchState",
    "PhysicsGlitch",
    "Pitch",
    "Release",
    "Snapshot",
    "Terrain",
    "ThrowParams",
    "ThrowResult",
    "World",
    "aim",
    "get_ground",
    "get_ruleset",
    "get_set",
    "inkast",
    "judge_inkast",
    "judge_throw",
    "lag_throw",
    "show",
    "simulate",
    "throw_baton",
]


__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals())


def _register_gymnasium_envs() -> None:
    """Register ``kubb3d/Throw-v0`` and ``kubb3d/Turn-v0`` if Gymnasium is already imported
    (``import gymnasium, kubb3d``); never imports Gymnasium itself, to keep ``import kubb3d``
    light. ``import kubb3d.envs`` registers them in any order."""
    import sys

    if "gymnasium" in sys.modules:
        importlib.import_module("kubb3d.envs")


_register_gymnasium_envs()

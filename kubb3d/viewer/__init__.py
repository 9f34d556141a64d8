"""The interactive 3D view of kubb3d (issue 5): ``kubb3d play`` and ``kubb3d view``.

The package is split in two:

* pure numpy, no OpenGL (testable anywhere): :mod:`~kubb3d.viewer.camera` (view and
  projection matrices, orbit/pan/zoom, the thrower's, top and follow cameras,
  world → pixel projection), :mod:`~kubb3d.viewer.scene` (what is drawn: piece poses,
  status tints, lines, traces; trajectory playback), :mod:`~kubb3d.viewer.controls`
  (the throwing input state machine that produces a :class:`~kubb3d.throw.ThrowParams`),
  :mod:`~kubb3d.viewer.hud` (HUD text);
* OpenGL through pyglet 2: :mod:`~kubb3d.viewer.render` (shaders, meshes, shadow map,
  off-screen framebuffer) and :mod:`~kubb3d.viewer.app` (the window, event handlers,
  the play/view modes, headless screenshots).

This is the only package of kubb3d that imports pyglet, and only from ``render`` and
``app``: importing :mod:`kubb3d.viewer` itself does not import pyglet. The viewer owns no
rules and no physics settings: throws are simulated by :mod:`kubb3d.throw`, rulings come
from :mod:`kubb3d.judge`.
"""

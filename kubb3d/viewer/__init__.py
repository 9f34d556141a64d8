"""The interactive 3D view of kubb3d (issue 5): ``kubb3d play`` and ``kubb3d view``.

The package is split in two:

* pure numpy, no OpenGL (testable anywhere): :mod:`~kubb3d.viewer.camera` (view and
  projection matrices, orbit/pan/zoom, the thrower's, top and follow cameras,
  world → pixel projection), :mod:`~kubb3d.viewer.scene` (what is drawn: piece poses,
  status tints, lines, traces; trajectory playback), :mod:`~kubb3d.viewer.controls`
  (the throwing input state machine that produces a :class:`~kubb3d.throw.ThrowParams`),
  :mod:`~kubb3d.viewer.hud` (HUD text);
* the renderer's data, numpy only: :mod:`~kubb3d.viewer.meshes` (vertex arrays),
  :mod:`~kubb3d.viewer.textures` (light, colours, textures), :mod:`~kubb3d.viewer.shaders`
  (GLSL sources);
* OpenGL through pyglet 2: :mod:`~kubb3d.viewer.render` (the passes, shadow map,
  off-screen framebuffer), :mod:`~kubb3d.viewer.gl_objects` (programs, buffers,
  framebuffer reads) and :mod:`~kubb3d.viewer.app` (the window, event handlers,
  the play/view modes, headless screenshots).

This is the only package of kubb3d that imports pyglet, and only from ``render``,
``gl_objects`` and ``app``: importing :mod:`kubb3d.viewer` itself does not import pyglet. The viewer owns no
rules and no physics settings: throws are simulated by :mod:`kubb3d.throw`, rulings come
from :mod:`kubb3d.judge`.
"""

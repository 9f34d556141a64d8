"""Replays, scenarios and the referee quiz as self-contained web pages (issue #35; docs/web.md).

A page is one HTML file that works offline from disk: the data of the replay as JSON and the
three.js library (``three.module.min.js`` of the npm release, MIT licence in
``three.LICENSE`` beside it) are carried inside it. :mod:`kubb3d.web.page` builds the pages,
:mod:`kubb3d.web.gltf` writes a scene as glTF. Nothing here imports pyglet or needs a display.
"""

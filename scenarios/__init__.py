"""The judge scenario library (``*.toml``), installed as the package data of
``kubb3d.scenarios``; :mod:`kubb3d.library` finds it."""

"""The shipped experiment specs (``*.toml``), installed as the package data of
``kubb3d.scenarios.experiments``; :mod:`kubb3d.library` finds them."""

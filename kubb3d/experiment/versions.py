"""The versions that make an experiment's rows: kubb3d (release and code), PyBullet, numpy, Python.

A trial's row depends on the simulator's code, the physics engine and numpy's generators, so
rows from two of these must not mix in one results file, and the processes of one run (the
client, a Dask scheduler and every worker) must agree on them (docs/cluster.md). This module
imports nothing at its top: a Dask scheduler imports it to answer :func:`versions`.
"""

from __future__ import annotations

from functools import lru_cache

FIELDS = ("kubb3d", "kubb3d_code", "pybullet", "numpy", "python")
"""The keys of :func:`versions`, in the order they are shown."""


def versions() -> dict[str, str]:
    """This process's versions: ``kubb3d`` (the installed release), ``kubb3d_code`` (the first 12
    hex digits of the SHA-256 of kubb3d's Python files and model files, so two checkouts of one
    release that differ are told apart), ``pybullet`` and ``numpy`` (installed releases) and
    ``python`` (``X.Y.Z``). Computed once per process."""
    return dict(_versions())


@lru_cache(maxsize=1)
def _versions() -> tuple[tuple[str, str], ...]:
    import platform
    from importlib.metadata import PackageNotFoundError, version

    def release(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "not installed"

    values = {
        "kubb3d": release("kubb3d"),
        "kubb3d_code": code_digest(),
        "pybullet": release("pybullet"),
        "numpy": release("numpy"),
        "python": platform.python_version(),
    }
    return tuple((key, values[key]) for key in FIELDS)


def code_digest() -> str:
    """The first 12 hex digits of the SHA-256 over kubb3d's ``*.py`` files and its model files
    (``kubb3d.models``), each by its path inside the package and its bytes, in path order."""
    import hashlib
    import importlib.util
    from pathlib import Path

    files: list[tuple[str, Path]] = []
    for package, patterns in (("kubb3d", ("*.py",)), ("kubb3d.models", ("*.obj", "*.urdf", "*.json"))):
        found = importlib.util.find_spec(package)
        for root in (found.submodule_search_locations or []) if found else []:
            base = Path(root)
            for pattern in patterns:
                for path in base.rglob(pattern):
                    if "__pycache__" not in path.parts:
                        files.append((f"{package}/{path.relative_to(base).as_posix()}", path))
    digest = hashlib.sha256()
    for name, path in sorted(files):
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def differences(theirs: dict, ours: dict) -> str:
    """The fields where ``theirs`` differs from ``ours``, as ``name A (ours B)`` joined by
    commas; '' when they agree on every field of :data:`FIELDS`."""
    return ", ".join(
        f"{key} {theirs.get(key, '?')} (ours {ours.get(key, '?')})"
        for key in FIELDS
        if theirs.get(key) != ours.get(key)
    )


def describe(values: dict) -> str:
    """``kubb3d 0.1.0 (code 1a2b…), PyBullet 3.2.7, numpy 2.4.6, Python 3.11.9``."""
    return (
        f"kubb3d {values.get('kubb3d', '?')} (code {values.get('kubb3d_code', '?')}), PyBullet "
        f"{values.get('pybullet', '?')}, numpy {values.get('numpy', '?')}, Python {values.get('python', '?')}"
    )

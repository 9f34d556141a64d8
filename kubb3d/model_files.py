"""Where the generated model files are at run time, and the mass properties of each shipped piece
stored beside them, read without building a mesh.

``kubb3d models build --in-place`` (:func:`kubb3d.assets.build_all`) writes ``mass_properties.json`` into
``models/``: per piece description its mesh's volume, m³, and centre of mass in the body frame,
m, exactly as the meshes give them (JSON keeps every bit of a float). A piece described as a
shipped one takes them from there; any other piece (a test's, a custom set's) has its mesh built
(:mod:`kubb3d.assets`, trimesh). A process that plays a match therefore never loads trimesh
(≈ 60-100 ms of start-up, docs/speed.md "DM turns"), and its results do not depend on the
installed trimesh's last bits either.
"""

from __future__ import annotations

import functools
import json
from dataclasses import asdict
from importlib import resources
from pathlib import Path
from typing import Any

MASS_PROPERTIES = "mass_properties.json"
"""The file of stored mass properties in the models folder."""


@functools.lru_cache(maxsize=None)
def models_dir() -> Path:
    """Where the model files are at run time (repo ``models/`` or the installed package data)."""
    return Path(str(resources.files("kubb3d.models")))


@functools.lru_cache(maxsize=None)
def model_path(set_name: str, kind: str) -> Path:
    """Path of the URDF of one piece, e.g. ``model_path('standard', 'kubb')``.

    Raises:
        FileNotFoundError: the file is missing (run ``kubb3d models build --in-place``).
    """
    path = models_dir() / f"{set_name}-{kind}.urdf"
    if not path.is_file():
        raise FileNotFoundError(f"model file {path.name} is missing; run `kubb3d models build --in-place`")
    return path


def piece_key(piece: Any) -> str:
    """The key of a piece description in :data:`MASS_PROPERTIES`: its class name and its fields
    as sorted JSON (two descriptions with equal fields share it)."""
    return f"{type(piece).__name__} {json.dumps(asdict(piece), sort_keys=True)}"


@functools.lru_cache(maxsize=None)
def _stored() -> dict[str, dict]:
    try:
        data = json.loads((models_dir() / MASS_PROPERTIES).read_text())
    except (OSError, ValueError):
        return {}
    return {row["piece"]: row for row in data.get("pieces", ())}


def mesh_volume(piece: Any) -> float:
    """m³: the volume of a piece's mesh (:func:`kubb3d.assets.piece_mesh`): stored, or built."""
    row = _stored().get(piece_key(piece))
    if row is not None:
        return float(row["volume_m3"])
    from kubb3d.assets import mesh_volume as built

    return built(piece)


def mesh_com(piece: Any) -> tuple[float, float, float]:
    """m: the centre of mass of a piece's mesh in its body frame (origin at the bounding-box
    centre): stored, or built (:func:`kubb3d.assets.mesh_com`)."""
    row = _stored().get(piece_key(piece))
    if row is not None:
        x, y, z = (float(v) for v in row["com_m"])
        return (x, y, z)
    from kubb3d.assets import mesh_com as built

    return built(piece)


@functools.lru_cache(maxsize=None)
def king_com_height(king: Any) -> float:
    """Height of a crowned king's centre of mass above its bounding-box centre, m (negative:
    below): its mesh's (:func:`mesh_com`)."""
    return mesh_com(king)[2]


@functools.lru_cache(maxsize=None)
def com_local(eq: Any, kind: str) -> tuple[float, float, float]:
    """Centre of mass of a piece of an equipment set in its body frame (origin at the
    bounding-box centre), m: a crowned king's on its axis (:func:`king_com_height`), a disk kubb's
    and a mushroom king's as their meshes give it, (0, 0, 0) for blocks and rods."""
    from kubb3d.equipment import DiskPiece, KingPiece, MushroomPiece

    piece = eq.piece(kind)
    if isinstance(piece, KingPiece):
        return (0.0, 0.0, king_com_height(piece))
    if isinstance(piece, (DiskPiece, MushroomPiece)):
        return mesh_com(piece)
    return (0.0, 0.0, 0.0)

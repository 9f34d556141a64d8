"""The kubb as a die: its exact orientation and how it changes when rolled.

The RKD rule book (Matériel): « chaque Kubb a les valeurs de 1 à 6 comme un dé »,
so every kubb is a six-sided die whose opposite faces sum to 7, and
(Déroulement du jeu) it moves by « rouler », tipping over one edge per cell.

An orientation is stored as the three faces that look up, north and east,
:class:`Die` ``(top, north, east)``; the other three follow from the sum-to-7
rule (``bottom = 7 - top`` and so on).  Board frame: ``east`` is +x (towards
file h), ``north`` is +y (towards rank 8), ``up`` is +z.

Rolling over an edge is a quarter turn about a horizontal axis:

=========  ====================================
roll       new (top, north, east)
=========  ====================================
``N``      (south, top, east) = (7-n, t, e)
``S``      (north, bottom, east) = (n, 7-t, e)
``E``      (west, north, top) = (7-e, n, t)
``W``      (east, north, bottom) = (e, n, 7-t)
=========  ====================================

A Western ("right-handed") die has faces 1, 2 and 3 running counter-clockwise
round their common corner; :meth:`Die.handedness` is then ``+1``.  Rolling never
changes the handedness (it is a proper rotation).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kubb3d.errors import DamesError

DIRECTIONS = "NESW"
"""The four roll directions, clockwise from north.  Diagonals do not exist
(``RKD`` Déroulement du jeu: « dans n'importe quelle direction sauf diagonale »)."""

OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
"""The reverse of each roll direction."""

STEP = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
"""``(dx, dy)`` of one roll in each direction."""

_AXIS = {
    "top": (0, 0, 1),
    "bottom": (0, 0, -1),
    "north": (0, 1, 0),
    "south": (0, -1, 0),
    "east": (1, 0, 0),
    "west": (-1, 0, 0),
}


class Die(NamedTuple):
    """Orientation of a die-kubb: the faces on top, to the north and to the east.

    A plain tuple ``(top, north, east)`` of ints in 1..6, pairwise distinct and
    never opposite (no two summing to 7).  Build it with :meth:`make` to get that
    check; the hot paths of the engine use cached instances from :meth:`roll`.
    """

    top: int
    north: int
    east: int

    @classmethod
    def make(cls, top: int, north: int, east: int) -> Die:
        """Checked constructor.

        Raises:
            DamesError: a face is outside 1..6, two faces repeat, or two of the
                three are opposite faces (sum 7), which no die can show at once.
        """
        faces = (top, north, east)
        if any(not isinstance(f, int) or not 1 <= f <= 6 for f in faces):
            raise DamesError(f"die faces must be integers 1..6, got {faces}")
        if len(set(faces)) != 3 or any(a + b == 7 for a in faces for b in faces):
            raise DamesError(
                f"faces {faces} cannot be top, north and east of one die "
                "(they must differ and no two may be opposite, i.e. sum to 7)"
            )
        return _intern(cls(top, north, east))

    @classmethod
    def parse(cls, text: str) -> Die:
        """Parse the three-digit notation ``"124"`` (top, north, east).

        Raises:
            DamesError: not exactly three digits, or not a possible orientation.
        """
        if len(text) != 3 or not text.isdigit():
            raise DamesError(f"a die is written as three digits top-north-east, got {text!r}")
        return cls.make(int(text[0]), int(text[1]), int(text[2]))

    def __str__(self) -> str:
        return f"{self.top}{self.north}{self.east}"

    @property
    def bottom(self) -> int:
        """The face on the board (``7 - top``)."""
        return 7 - self.top

    @property
    def south(self) -> int:
        """The face looking south (``7 - north``)."""
        return 7 - self.north

    @property
    def west(self) -> int:
        """The face looking west (``7 - east``)."""
        return 7 - self.east

    def faces(self) -> dict[str, int]:
        """All six faces by the direction they look: keys top/bottom/north/south/east/west."""
        return {
            "top": self.top,
            "bottom": self.bottom,
            "north": self.north,
            "south": self.south,
            "east": self.east,
            "west": self.west,
        }

    def roll(self, direction: str) -> Die:
        """The orientation after tipping over the edge on side ``direction`` (N/E/S/W).

        Raises:
            KeyError: ``direction`` is not one of ``N``, ``E``, ``S``, ``W``.
        """
        return _ROLLS[self][direction]

    def roll_path(self, path: str) -> Die:
        """The orientation after rolling along ``path``, e.g. ``"NNE"`` (one letter a cell)."""
        die = self
        for d in path:
            die = _ROLLS[die][d]
        return die

    def face_vector(self, value: int) -> tuple[int, int, int]:
        """Unit vector ``(x, y, z)`` (east, north, up) along which face ``value`` looks.

        Raises:
            DamesError: ``value`` is not in 1..6.
        """
        for name, face in self.faces().items():
            if face == value:
                return _AXIS[name]
        raise DamesError(f"a die has faces 1..6, got {value}")

    def matrix(self) -> np.ndarray:
        """3×3 integer rotation-like matrix: column ``k`` is the board direction of face ``k+1``.

        Shape ``(3, 3)``, dtype int.  Its determinant is :meth:`handedness`.
        """
        return np.array([self.face_vector(v) for v in (1, 2, 3)], dtype=int).T

    def handedness(self) -> int:
        """``+1`` for a Western die (1, 2, 3 counter-clockwise round their corner), ``-1`` for its mirror."""
        return int(round(np.linalg.det(self.matrix())))


def _raw_roll(d: Die, direction: str) -> Die:
    t, n, e = d
    if direction == "N":
        return Die(7 - n, t, e)
    if direction == "S":
        return Die(n, 7 - t, e)
    if direction == "E":
        return Die(7 - e, n, t)
    if direction == "W":
        return Die(e, n, 7 - t)
    raise KeyError(direction)


def _all_orientations() -> list[Die]:
    out = []
    for t in range(1, 7):
        for n in range(1, 7):
            for e in range(1, 7):
                faces = (t, n, e)
                if len(set(faces)) == 3 and all(a + b != 7 for a in faces for b in faces):
                    out.append(Die(t, n, e))
    return out


ORIENTATIONS: tuple[Die, ...] = tuple(_all_orientations())
"""All 48 (top, north, east) triples: 24 rotations of a Western die and 24 of its mirror."""

_INTERN: dict[Die, Die] = {d: d for d in ORIENTATIONS}
_ROLLS: dict[Die, dict[str, Die]] = {
    d: {k: _INTERN[_raw_roll(d, k)] for k in DIRECTIONS} for d in ORIENTATIONS
}


def _intern(d: Die) -> Die:
    return _INTERN[d]

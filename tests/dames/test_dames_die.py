"""The die-kubb's orientation (rule book RKD, Matériel: « chaque Kubb a les valeurs de 1 à 6 comme un dé »)."""

from __future__ import annotations

import numpy as np
import pytest

from kubb3d.dames.die import DIRECTIONS, OPPOSITE, ORIENTATIONS, Die
from kubb3d.dames.rules import DamesRules, frame_to_board


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_four_rolls_in_one_direction_return_to_start(direction: str) -> None:
    for die in ORIENTATIONS:
        assert die.roll_path(direction * 4) == die
        assert die.roll_path(direction * 2) != die  # a half turn, not the identity
        assert die.roll_path(direction * 3) == die.roll(OPPOSITE[direction])


def test_opposite_faces_sum_to_seven() -> None:
    # RKD Matériel (applied): „chaque Kubb a les valeurs de 1 à 6 comme un dé“
    for die in ORIENTATIONS:
        for d in [die] + [die.roll(k) for k in DIRECTIONS]:
            faces = d.faces()
            assert sorted(faces.values()) == [1, 2, 3, 4, 5, 6]
            assert faces["top"] + faces["bottom"] == 7
            assert faces["north"] + faces["south"] == 7
            assert faces["east"] + faces["west"] == 7


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_rolling_back_undoes_a_roll(direction: str) -> None:
    for die in ORIENTATIONS:
        assert die.roll(direction).roll(OPPOSITE[direction]) == die


def test_roll_north_tips_over_the_north_edge() -> None:
    # Tipping north: the south face comes up, the top goes north, the north face
    # goes down, and the east face stays east.
    d = Die.make(1, 2, 4)
    r = d.roll("N")
    assert r.top == d.south == 5
    assert r.north == d.top == 1
    assert r.bottom == d.north == 2
    assert r.east == d.east == 4
    assert r == Die(5, 1, 4)


def test_roll_east_tips_over_the_east_edge() -> None:
    d = Die.make(1, 2, 4)
    r = d.roll("E")
    assert (r.top, r.east, r.bottom, r.north) == (d.west, d.top, d.east, d.north)
    assert r == Die(3, 2, 1)


def test_rolls_do_not_commute_so_the_path_matters() -> None:
    d = Die.make(1, 2, 4)
    assert d.roll_path("NE") != d.roll_path("EN")
    assert d.roll_path("NE") == Die(3, 1, 5)
    assert d.roll_path("EN") == Die(5, 3, 1)


def test_start_die_is_a_western_die_and_rolling_keeps_handedness() -> None:
    start = DamesRules().start_die("S")
    assert start == Die(1, 2, 4)
    assert start.handedness() == 1
    # every orientation reachable by rolling: the 24 rotations of one die
    seen, frontier = {start}, [start]
    while frontier:
        d = frontier.pop()
        for k in DIRECTIONS:
            nxt = d.roll(k)
            if nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    assert len(seen) == 24
    assert all(d.handedness() == 1 for d in seen)
    assert len([d for d in ORIENTATIONS if d.handedness() == -1]) == 24


def test_matrix_is_a_rotation_with_face_columns() -> None:
    d = Die.make(1, 2, 4).roll_path("NEN")
    m = d.matrix()
    assert m.shape == (3, 3)
    assert np.array_equal(m.T @ m, np.eye(3, dtype=int))
    for value in (1, 2, 3):
        assert tuple(m[:, value - 1]) == d.face_vector(value)
    assert d.face_vector(d.top) == (0, 0, 1)


def test_each_seat_starts_with_the_same_die_seen_from_its_side() -> None:
    # top 1, face 2 towards the owner's goal, face 4 on his right hand
    rules = DamesRules(players=4)
    assert rules.start_die("S") == Die(1, 2, 4)
    assert rules.start_die("N") == Die(1, 5, 3)  # 2 looks south, 4 looks west
    assert rules.start_die("E") == Die(1, 4, 5)  # 2 looks west, 4 looks north
    assert rules.start_die("W") == Die(1, 3, 2)  # 2 looks east, 4 looks south
    assert {rules.start_die(s).handedness() for s in "SENW"} == {1}


@pytest.mark.parametrize("text", ["117", "12", "1x4", "162", "070", "1234"])
def test_impossible_dice_are_rejected(text: str) -> None:
    # RKD Matériel (boundary): „chaque Kubb a les valeurs de 1 à 6 comme un dé“
    with pytest.raises(ValueError):
        Die.parse(text)


def test_impossible_start_faces_are_rejected() -> None:
    # RKD Règle du jeu: set-up (boundary): „avec la valeur 1, sur la première ligne de son camp“
    with pytest.raises(ValueError, match="impossible"):
        DamesRules(start_front=2, start_right=5)  # 2 and 5 are opposite faces
    with pytest.raises(ValueError):
        frame_to_board("S", 1, 6, 2)  # 6 is the bottom when 1 is on top

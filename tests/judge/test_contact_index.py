"""The judge's contact index (kubb3d.judge.analysis.ContactIndex) against the snapshot's own view
of a piece's contacts (``Snapshot.contacts_of``, each contact turned to face the piece), and what
its ``has_forces`` flag decides: without force data every touching body counts as support."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import MASS, G, ground_contacts, kubb, leaning_pair, snap

from kubb3d.judge.analysis import ContactIndex
from kubb3d.judge.params import DEFAULT_PARAMS
from kubb3d.judge.rulings import Status
from kubb3d.judge.status import analyse
from kubb3d.snapshot import GROUND_ID, Contact


def _three_kubbs() -> tuple:
    """A, B and C with contacts whose two points and whose normal's components all differ."""
    a, b, c = kubb("A", 0.0, 0.0), kubb("B", 0.07, 0.0), kubb("C", 0.0, 0.07)
    contacts = (
        Contact("A", "B", (0.035, 0.01, 0.10), (0.036, 0.02, 0.11), (-0.8, 0.6, 0.0), 0.3),
        Contact("C", "A", (0.01, 0.035, 0.05), (0.02, 0.034, 0.06), (0.0, 0.6, 0.8), 0.7),
        Contact("B", GROUND_ID, (0.1, 0.03, 0.0), (0.1, 0.03, -0.001), (0.0, 0.0, 1.0), 1.9),
    )
    return snap(a, b, c, contacts=contacts, auto_ground=False), contacts


def test_each_piece_sees_its_contacts_as_the_snapshot_turns_them_towards_it():
    snapshot, _ = _three_kubbs()
    index = ContactIndex(snapshot)
    for pid in ("A", "B", "C"):
        expected = [(c.b, c.position_on_a, c.normal_on_b, c.normal_force) for c in snapshot.contacts_of(pid)]
        assert index.by_piece[pid] == expected
    # the ground is indexed too (the judge reads "grounded" from the pieces' side only)
    assert index.by_piece[GROUND_ID] == [("B", (0.1, 0.03, -0.001), (-0.0, -0.0, -1.0), 1.9)]
    assert set(index.by_piece) == {"A", "B", "C", GROUND_ID}


def test_a_contact_seen_from_its_second_body_has_that_bodys_point_and_the_normal_reversed():
    snapshot, _ = _three_kubbs()
    index = ContactIndex(snapshot)
    # A is the second body of the C–A contact: A's own point and the normal pointing towards A
    assert index.by_piece["A"] == [
        ("B", (0.035, 0.01, 0.10), (-0.8, 0.6, 0.0), 0.3),
        ("C", (0.02, 0.034, 0.06), (-0.0, -0.6, -0.8), 0.7),
    ]
    assert index.by_piece["C"] == [("A", (0.01, 0.035, 0.05), (0.0, 0.6, 0.8), 0.7)]


def test_a_piece_without_contacts_is_absent_and_a_snapshot_without_contacts_has_no_forces():
    snapshot = snap(kubb("A", 0.0, 0.0), kubb("Z", 2.0, 0.0), auto_ground=False)
    index = ContactIndex(snapshot)
    assert index.by_piece == {}
    assert index.has_forces is False
    assert ContactIndex(_three_kubbs()[0]).by_piece.get("Z") is None


@pytest.mark.parametrize(("force", "has_forces"), [(0.0, False), (1e-12, True), (0.24, True), (5.0, True)])
def test_forces_are_recorded_when_any_contact_carries_a_positive_force(force, has_forces):
    a, b = kubb("A", 0.0, 0.0), kubb("B", 0.07, 0.0)
    contacts = [Contact("A", "B", (0.035, 0.0, 0.1), (0.035, 0.0, 0.1), (-1.0, 0.0, 0.0), 0.0)]
    contacts += [replace(c, normal_force=0.0) for c in ground_contacts(a)]
    contacts.append(Contact("B", GROUND_ID, (0.07, 0.0, 0.0), (0.07, 0.0, 0.0), (0.0, 0.0, 1.0), force))
    assert ContactIndex(snap(a, b, contacts=contacts, auto_ground=False)).has_forces is has_forces


def _weak_lean(ground_force: float | None):
    """L leaning 30° on S through a contact of half the support force fraction of L's weight; the
    ground contacts carry the weight (*ground_force* None) or no force at all (0.0: a snapshot
    without force data)."""
    s, leaner, touch = leaning_pair(30.0, support_force=0.0)
    weak = 0.5 * DEFAULT_PARAMS.support_force_fraction * MASS * G
    assert weak < DEFAULT_PARAMS.support_force_fraction * MASS * G
    touch = replace(touch, normal_force=weak if ground_force is None else 0.0)
    contacts = [touch, *ground_contacts(s, ground_force), *ground_contacts(leaner, ground_force)]
    return snap(s, leaner, contacts=contacts, auto_ground=False)


def test_without_force_data_a_touching_kubb_holds_up_a_leaner_and_with_it_a_weak_touch_does_not():
    # no forces recorded: every touching body may hold the piece up (WS/DM: a kubb leaning on
    # another is not down), so L is leaning on S
    bare = analyse(_weak_lean(0.0), "L")
    assert ContactIndex(_weak_lean(0.0)).has_forces is False
    assert (bare.status, bare.supporters, bare.touching) == (Status.LEANING, ("S",), ("S",))
    # forces recorded: a touch far below support_force_fraction of L's weight holds nothing up,
    # and L, 30° past its tipping angle of about 25°, has fallen
    weighed = analyse(_weak_lean(None), "L")
    assert ContactIndex(_weak_lean(None)).has_forces is True
    assert (weighed.status, weighed.supporters, weighed.touching) == (Status.FALLEN, (), ("S",))

"""kubb3d.judge.messages' helpers that no ruling of the other fast tests reaches: a sentence read
back from a file, a counted message as data, a baton opening a sentence; and the one-line refusals
of a bad InkastContext."""

from __future__ import annotations

import pytest

from kubb3d.errors import JudgeInputError
from kubb3d.i18n import translator
from kubb3d.judge import InkastContext
from kubb3d.judge.messages import Msg, message_data, msg, nmsg, piece_subject, recorded


def test_a_recorded_sentence_reads_back_as_its_own_text_braces_and_all():
    """recorded: a sentence of a file becomes a message whose text is the sentence itself, braces
    included (they are no placeholders), marked as read back and carrying its data; nothing to
    read back ("" ) stays as it is, and a message already is one."""
    for text in ("B1 {stood} here", "a } alone", "{", "plain"):
        back = recorded(text, {"id": "x"})
        assert isinstance(back, Msg) and str(back) == text and back.recorded and back.data == {"id": "x"}
        assert message_data(back) is None
    assert recorded("") == "" and type(recorded("")) is str
    m = msg("{piece} stands.", piece="B1")
    assert recorded(m) is m


def test_a_counted_message_keeps_both_forms_and_its_count_as_data():
    """message_data of an nmsg: ``id`` the singular, ``plural`` the plural, ``n`` the count, beside
    its parameters (docs/viewer.md, "What a replay records")."""
    assert message_data(nmsg("{n} kubb", "{n} kubbs", 3, n=3)) == {
        "id": "{n} kubb", "plural": "{n} kubbs", "n": 3, "params": {"n": 3}}
    assert message_data(nmsg("{n} kubb", "{n} kubbs", 1, n=1))["n"] == 1


def test_a_baton_opens_a_sentence_with_its_number():
    """piece_subject: ``Baton 3`` (German ``Wurfholz 3``), the king as ``The king``, a kubb by its id."""
    assert [piece_subject(p) for p in ("baton3", "king", "B3")] == ["Baton 3", "The king", "B3"]
    assert translator("de")(piece_subject("baton3")) == "Wurfholz 3"


@pytest.mark.parametrize("field, value, words", [
    ("thrower", "C", "thrower must be 'A', 'B' or None, got 'C'"),
    ("inkasting_side", "C", "inkasting_side must be 'A' or 'B', got 'C'"),
    ("prefer", "up", "prefer must be 'back' or 'front', got 'up'"),
])
def test_a_bad_inkast_context_is_refused_naming_the_field_and_the_value(field, value, words):
    with pytest.raises(JudgeInputError) as refused:
        InkastContext(**({"inkasting_side": "A", "inkasted": ("A1",)} | {field: value}))
    assert str(refused.value) == words


@pytest.mark.parametrize("thrower, feller", [(None, "B"), ("A", "A"), ("B", "B")])
def test_an_inkast_context_takes_either_side_or_none_as_its_thrower(thrower, feller):
    """InkastContext.thrower: "who threw the kubbs, if not the inkasting side" (a penalty kubb
    thrown by the receiving side into its own half, DM §6): 'A', 'B' or None are taken, and the
    side that loses if the king falls is the thrower, else the inkasting side (DM §1)."""
    assert InkastContext(inkasting_side="B", inkasted=("A1",), thrower=thrower).feller == feller
    for bad in ("a", "b", ""):
        with pytest.raises(JudgeInputError):
            InkastContext(inkasting_side="B", inkasted=("A1",), thrower=bad)


def test_a_message_in_a_message_is_kept_as_data_in_turn():
    """message_data: a parameter that is a message is written as that message's data, nested; one
    that cannot be kept (a sentence read back from a file) leaves the whole message without data."""
    inner = msg("{piece} stands.", piece="B1")
    assert message_data(msg("{why} Nothing happens.", why=inner)) == {
        "id": "{why} Nothing happens.", "params": {"why": {"id": "{piece} stands.", "params": {"piece": "B1"}}}}
    assert message_data(msg("{why} Nothing happens.", why=recorded("B1 stands."))) is None


def test_a_message_nested_deeper_than_max_nesting_is_not_kept_as_data():
    """message_data writes messages nested MAX_NESTING deep (a reason nests 4 at most) and no
    deeper: a chain of MAX_NESTING messages in messages has data, one more has none."""
    from kubb3d.judge.messages import MAX_NESTING

    def chain(n):
        m = msg("end")
        for _ in range(n):
            m = msg("({x})", x=m)
        return m

    kept = message_data(chain(MAX_NESTING))
    for _ in range(MAX_NESTING):
        kept = kept["params"]["x"]
    assert kept == {"id": "end"}
    assert message_data(chain(MAX_NESTING + 1)) is None

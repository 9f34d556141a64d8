"""German output names the ground and ends a match in German sentences: a new user's trial read
``erste Berührung: ground`` from ``kubb3d throw --tilt-deg 40`` and ``P2 gewinnt (der König
gefallen)`` from ``kubb3d match --ruleset kt --lang de``."""

from __future__ import annotations

from cli_process import run_kubb3d

from kubb3d.cli.match import ENDINGS
from kubb3d.i18n import ENGLISH, translator
from kubb3d.judge.messages import BODIES, msg, piece_name
from kubb3d.physics.engine import FLOOR_ID
from kubb3d.snapshot import GROUND_ID

DE = translator("de")


def test_every_body_a_contact_names_is_a_word_in_german():
    """The ids the engine gives bodies that are not pieces (the ground, or a table's board, and
    the floor under the table) are words of the catalog; the king and a baton as before."""
    assert set(BODIES) == {GROUND_ID, FLOOR_ID}
    german = {pid: DE(piece_name(pid)) for pid in (*BODIES, "king", "baton2")}
    assert german == {"ground": "Boden", "floor": "Fußboden", "king": "König", "baton2": "Wurfholz 2"}
    assert {pid: ENGLISH(piece_name(pid)) for pid in BODIES} == {"ground": "ground", "floor": "floor"}
    line = msg("first contact: {piece} after {time:.3f} s at ({x:.2f}, {y:.2f}, {z:.2f}) m",
               piece=piece_name(GROUND_ID), time=0.8, x=3.1, y=0.0, z=0.0)
    assert DE(line) == "erste Berührung: Boden nach 0,800 s bei (3,10, 0,00, 0,00) m"


def test_the_throw_command_says_where_the_baton_first_touched_in_german(tmp_path):
    res = run_kubb3d("throw", "--tilt-deg", "40", "--lang", "de", cwd=tmp_path, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "  erste Berührung: Boden nach " in res.stdout and "ground" not in res.stdout


def test_every_ending_of_a_match_reads_as_german_words():
    """Each ending in the result line's parentheses: a phrase with its verb, the king with his
    article (``P2 gewinnt (der König ist gefallen)``), never the English."""
    german = {how: DE(msg(words)) for how, words in ENDINGS.items()}
    assert all(german[how] != words for how, words in ENDINGS.items())
    assert german["king"] == "der König ist gefallen"
    assert german["early_king"] == "der König ist zu früh gefallen"

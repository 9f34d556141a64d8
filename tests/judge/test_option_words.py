"""The referee's options as words (kubb3d.judge.options.parse_option): every kind of value at
its edge, and one line naming what is wrong (issue #37 items 4 and 5; docs/mutation.md)."""

from __future__ import annotations

import pickle

import pytest

from kubb3d.judge.messages import join, msg, names, nmsg
from kubb3d.judge.options import BY_NAME, option_value, options_for, parse_option, parse_options


@pytest.mark.parametrize("word", ["true", "On", " YES ", "1"])
def test_yes_words_switch_a_yes_or_no_option_on(word):
    assert parse_option(f"first_foul_warning={word}") == ("first_foul_warning", True)


@pytest.mark.parametrize("word", ["false", "Off", "no", "0"])
def test_no_words_switch_it_off(word):
    assert parse_option(f"first_foul_warning={word}") == ("first_foul_warning", False)


def test_a_yes_or_no_option_read_from_a_file_takes_the_booleans_and_refuses_other_words():
    assert option_value("first_foul_warning", True) is True
    assert option_value("first_foul_warning", False) is False
    with pytest.raises(ValueError, match=r"^--option first_foul_warning: expected true or false, got 'maybe'$"):
        parse_option("first_foul_warning=maybe")


def test_a_choice_is_one_of_the_listed_words():
    assert parse_option("raise_order = nearest baseline first") == ("raise_order", "nearest baseline first")
    assert parse_option("advance_line=back edge") == ("advance_line", "back edge")
    with pytest.raises(ValueError, match=r"^--option advance_line: expected one of centre, front_edge, back_edge, "
                                         r"got 'middle'$"):
        parse_option("advance_line=middle")


def test_a_number_is_taken_inside_its_bounds_and_refused_a_hair_outside():
    assert parse_option("max_tilt_deg=0") == ("max_tilt_deg", 0.0)
    assert parse_option("max_tilt_deg=90") == ("max_tilt_deg", 90.0)
    assert parse_option("settle_s=0.05") == ("settle_s", 0.05)
    assert parse_option("settle_s=15") == ("settle_s", 15.0)
    assert parse_option("helicopter_limit=0") == ("helicopter_limit", 0.0)
    assert parse_option("helicopter_limit=360") == ("helicopter_limit", 360.0)
    for text, expected in [("max_tilt_deg=90.001", "0 to 90 or none"), ("max_tilt_deg=-0.001", "0 to 90 or none"),
                           ("settle_s=0.049", "0.05 to 15"), ("settle_s=15.01", "0.05 to 15"),
                           ("helicopter_limit=360.001", "0 to 360"), ("helicopter_limit=-0.001", "0 to 360"),
                           ("helicopter_limit=none", "0 to 360")]:
        name, value = text.split("=")
        with pytest.raises(ValueError, match=rf"^--option {name}: expected a number from {expected}, "
                                             rf"got '{value}'$"):
            parse_option(text)


def test_none_means_no_limit_only_where_allowed():
    assert parse_option("max_tilt_deg=none") == ("max_tilt_deg", None)
    assert parse_option("max_tilt_deg=None") == ("max_tilt_deg", None)
    assert option_value("max_tilt_deg", None) is None
    with pytest.raises(ValueError, match=r"^--option settle_s: expected a number from 0.05 to 15, got 'none'$"):
        parse_option("settle_s=none")
    for raw in ("abc", True):
        with pytest.raises(ValueError, match=r"^--option max_tilt_deg: expected a number from 0 to 90 or none"):
            option_value("max_tilt_deg", raw)


def test_a_malformed_or_unknown_option_is_refused_in_one_line():
    # DM §11 organiser (boundary): „hat in allen Belangen der Veranstalter das letzte Wort“
    for text in ("max_tilt_deg", "=3", " = 3"):
        with pytest.raises(ValueError, match=r"^--option: expected NAME=VALUE, got "):
            parse_option(text)
    # the first "=" splits the name from the value
    with pytest.raises(ValueError, match=r"^--option raise_order: expected one of .*, got 'a=b'$"):
        parse_option("raise_order=a=b")
    with pytest.raises(ValueError, match=r"^--option: unknown referee option 'tilt'; expected one of "
                                         + ", ".join(BY_NAME) + "$"):
        parse_option("tilt=3")


def test_later_options_win_and_each_part_reads_its_own():
    parsed = parse_options(["settle_s=2", "raise_order=nearest baseline first", "settle_s=3"])
    assert parsed == {"settle_s": 3.0, "raise_order": "nearest baseline first"}
    assert options_for(parsed, "throw") == {"settle_s": 3.0}
    assert options_for(parsed, "judge") == {"raise_order": "nearest baseline first"}
    assert options_for(None, "judge") == {}


def test_a_message_survives_pickling_with_its_template_parameters_and_count():
    """A Msg crosses process boundaries (experiment workers) as itself, not a bare str."""
    plain = msg("{piece} fell.", piece="B3")
    counted = nmsg("{n} kubb", "{n} kubbs", 2, n=2)
    nested = names(["B1", "B2", "king"])
    for original in (plain, counted, nested, join([msg("king"), "B1"])):
        copy = pickle.loads(pickle.dumps(original))
        assert copy == original and type(copy) is type(original)
        assert copy.template == original.template and dict(copy.params) == dict(original.params)
        assert copy.forms == original.forms
    assert pickle.loads(pickle.dumps(counted)).forms == ("{n} kubb", "{n} kubbs", 2)

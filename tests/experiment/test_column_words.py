"""How the commands that read columns of a results file (``experiment summary`` and ``plot``)
take a column and say what a filter left out. A new user's trial found ``--by sk`` taken as
``skill`` with no word of it in --help, and ``--where skill=clu`` answered only "no trial
matches --where"."""

from __future__ import annotations

import re

import pytest
from experiment_helpers import write_tiny
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app

READERS = (("summary",), ("plot", "--x", "speed"))
"""The commands that name columns (``match_column``), with what else each needs."""


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("w")
    out = folder / "w.sqlite"
    _register_subapps()
    res = CliRunner().invoke(app, ["experiment", "run", str(write_tiny(folder, 1)), "--out", str(out),
                                   "--backend", "serial", "-q"])
    assert res.exit_code == 0, res.output
    return out


@pytest.mark.parametrize("command", [c[0] for c in READERS])
def test_every_command_that_reads_columns_says_a_unique_start_will_do(command):
    _register_subapps()
    res = CliRunner().invoke(app, ["experiment", command, "--help"])
    words = " ".join(w for w in res.stdout.split() if w not in "│╭╮╰╯─")
    assert "A column is named in full, without its unit (speed for speed_mps) or by a start only it has (sk " \
           "for skill)." in words, words


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_every_filter_that_keeps_nothing_names_the_values_there_are(command, results, tmp_path):
    _register_subapps()
    for where, said in (("spe=3", "speed has 9.6, 10.4"), ("first_contact=x", "first_contact has ground")):
        res = CliRunner().invoke(app, ["experiment", *command[:1], str(results), *command[1:], "--where", where,
                                       *(["-o", str(tmp_path / "p.png")] if command[0] == "plot" else [])])
        assert res.exit_code == 2, res.output
        assert res.stderr.splitlines() == [f"error: no trial matches --where {where}; {said}"]


def test_a_drawn_column_is_given_by_its_range(results):
    _register_subapps()
    res = CliRunner().invoke(app, ["experiment", "summary", str(results), "--where", "azimuth=3"])
    assert res.exit_code == 2
    assert re.fullmatch(r"error: no trial matches --where azimuth=3; azimuth_deg has (-?\d[\d.e-]*(, )?){4}\n",
                        res.stderr), res.stderr
    by = CliRunner().invoke(app, ["experiment", "summary", str(results), "--by", "spe", "--json"])
    assert by.exit_code == 0 and '"speed"' in by.stdout  # the start of one column's name is that column

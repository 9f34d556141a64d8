"""The experiment spec reference cannot drift from the models: docs/experiments.md is the
generated text, every field and measure is described, and a misspelt field gets a suggestion."""

import pytest

from kubb3d.experiment import SpecError
from kubb3d.experiment import fields as F
from kubb3d.experiment.spec import MEASURES, validate


def test_docs_experiments_md_is_the_generated_reference(root):
    text = (root / "docs" / "experiments.md").read_text(encoding="utf-8")
    assert text == F.reference_markdown() + "\n", "run `kubb3d experiment fields > docs/experiments.md`"


def test_every_field_and_measure_is_described():
    assert F.missing_descriptions() == [], "describe the field in FIELDS of kubb3d/experiment/fields.py"
    assert set(F.MEASURE_COLUMNS) == set(MEASURES)


@pytest.mark.parametrize(
    "table, bad, near", [("throw", "sped", "speed"), ("setup", "layuot", "layout"), ("throw", "zzz", None)]
)
def test_unknown_field_suggests_the_closest(table, bad, near):
    data = {
        "schema": 1,
        "title": "t",
        "seed": 1,
        "trials_per_point": 1,
        "measures": ["hit"],
        "throw": {"target": "B3", "speed": 10.0},
        "setup": {},
    }
    data[table] = {**data[table], bad: 1}
    with pytest.raises(SpecError) as exc:
        validate(data)
    msg = str(exc.value)
    assert f"{table}.{bad}: unknown field" in msg
    assert (f"did you mean {near!r}?" in msg) if near else ("did you mean" not in msg)


def test_fields_command(cli):
    r = cli("experiment", "fields")
    assert r.returncode == 0 and r.stdout.startswith("# Experiment specs") and "| `speed` |" in r.stdout


def test_match_spec_refuses_tables_it_would_ignore():
    base = {
        "schema": 1,
        "title": "t",
        "seed": 1,
        "trials_per_point": 1,
        "measures": ["match"],
        "match": {"skill_a": "club"},
    }
    validate(base)  # fine alone
    for extra in ({"setup": {"ground": "wet-grass"}}, {"watch": ["B1"]}):
        with pytest.raises(SpecError, match=r"\[match\] trial sets up its own pitch"):
            validate({**base, **extra})


def test_dask_backend_without_dask_is_a_one_line_error(monkeypatch, tmp_path):
    import importlib.util

    from typer.testing import CliRunner

    from kubb3d.cli import UserError
    from kubb3d.cli.experiment import experiment_app

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name in ("dask", "distributed") else real(name, *a)
    )
    r = CliRunner().invoke(experiment_app, ["run", "hit-8m", "-o", str(tmp_path / "x.sqlite"), "--backend", "dask"])
    assert isinstance(r.exception, UserError) and "pip install 'kubb3d[dask]'" in str(r.exception)
    assert not (tmp_path / "x.sqlite").exists()


def test_match_spec_takes_a_ground(tmp_path):
    from kubb3d.experiment import read_rows, run

    base = {
        "schema": 1,
        "title": "t",
        "seed": 2,
        "trials_per_point": 1,
        "measures": ["match"],
        "match": {"round_cap": 3, "ground": {"grid": ["grass", "wet-grass"]}},
    }
    loaded = validate(base)
    assert [f.name for f in loaded.factors] == ["match_ground"]
    run(loaded, tmp_path / "r.sqlite", workers=1, backend="serial", progress=False)
    assert [r["match_ground"] for r in read_rows(tmp_path / "r.sqlite")] == ["grass", "wet-grass"]
    with pytest.raises(SpecError, match="unknown ground 'mud'"):
        validate({**base, "match": {"ground": "mud"}})
    # unset, it leaves the hash of older match specs alone
    assert "ground" not in validate({**base, "match": {"round_cap": 3}}).normalised()["match"]


def test_the_reference_says_what_the_throw_command_says(root):
    """docs/experiments.md called a negative behind_line a foot fault, where `kubb3d throw
    --help` (and the judge: the foot is judged, not the hand) allows it; and it did not say which
    player A and B are in a match, nor that `hit` ignores legality."""
    text = " ".join((root / "docs" / "experiments.md").read_text(encoding="utf-8").split())
    assert "negative: foot fault" not in text
    assert "(negative: the hand is past the line, allowed" in text
    assert "name the `skill_a` and `skill_b` players (P1 and P2), not end A or B" in text
    assert "it ignores legality" in text and "use `legal` too" in text
    analysis = " ".join((root / "docs" / "analysis.md").read_text(encoding="utf-8").split())
    assert "the *turns left*: per sample, the throwing turns begun after action *k*" in analysis
    assert "the turn in progress at action *k* not counted" in analysis

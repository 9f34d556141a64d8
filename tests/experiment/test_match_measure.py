"""The ``match`` measure: a whole simulated match per trial."""

import pytest

from kubb3d.experiment import read_rows, run
from kubb3d.experiment.spec import SpecError, load_spec

SPEC = """
schema = 1
title = "short matches"
seed = 5
trials_per_point = 1
measures = ["match"]

[match]
ruleset = "dm"
skill_a = "elite"
skill_b = { grid = ["novice", "elite"] }
round_cap = 3
"""


def test_match_trials_give_an_outcome_per_row_and_repeat_exactly(tmp_path):
    spec = tmp_path / "m.toml"
    spec.write_text(SPEC)
    loaded = load_spec(spec)
    assert [f.name for f in loaded.factors] == ["match_skill_b"]
    run(loaded, tmp_path / "a.sqlite", workers=1, backend="serial", progress=False)
    run(loaded, tmp_path / "b.sqlite", workers=1, backend="serial", progress=False)
    rows = read_rows(tmp_path / "a.sqlite")
    assert [r["match_skill_b"] for r in rows] == ["novice", "elite"]
    # the first player's kubbs felled agree with a replay of the same match
    from kubb3d.match import Match, MatchConfig

    m = Match(MatchConfig(skills=("elite", "novice"), seed=int(rows[0]["match_seed"]), round_cap=3, time_limit_s=None))
    m.run()
    felled_a = sum(
        len(o.felled)
        for (act, o), e in zip(
            [h for h in m.state.history if type(h[0]).__name__ in ("BatonThrow", "KingThrow")],
            [e for e in m.events if e.kind == "throw"],
        )
        if e.player == "P1"
    )
    assert rows[0]["match_felled_a"] == felled_a
    for r in rows:
        assert r["ok"], r["error"]
        assert r["match_termination"] in ("king", "early_king", "round_cap")
        assert r["match_winner"] in ("A", "B", None)
        assert 1 <= r["match_turns"] <= 3
        assert r["match_minutes"] > 0
        assert r["match_draw"] == (r["match_winner"] is None)
        assert r["match_skill_a"] == "elite" and r["match_opener"] in ("A", "B")
        # the first-player advantage column agrees with who opened and who won
        expected = None if r["match_winner"] is None else r["match_winner"] == r["match_opener"]
        assert (None if r["match_opener_won"] is None else bool(r["match_opener_won"])) == expected
        assert r["match_felled_a"] >= 0 and r["match_felled_b"] >= 0
    strip = lambda rs: [{k: v for k, v in r.items() if k != "wall_s"} for r in rs]  # noqa: E731
    assert strip(rows) == strip(read_rows(tmp_path / "b.sqlite"))


@pytest.mark.parametrize(
    "extra, words",
    [
        ('measures = ["match", "hit"]', "only measures"),
        ('[throw]\ntarget = "B1"', r"no \[throw\]"),
    ],
)
def test_match_spec_mistakes_are_refused(tmp_path, extra, words):
    text = SPEC
    if extra.startswith("measures"):
        text = text.replace('measures = ["match"]', extra)
    else:
        text += "\n" + extra + "\n"
    spec = tmp_path / "bad.toml"
    spec.write_text(text)
    with pytest.raises(SpecError, match=words):
        load_spec(spec)


def test_match_measure_needs_the_match_table(tmp_path):
    spec = tmp_path / "bad.toml"
    spec.write_text(SPEC.split("[match]")[0])
    with pytest.raises(SpecError, match=r"\[match\] table"):
        load_spec(spec)


def test_export_refuses_to_overwrite_the_results_file(tmp_path):
    from kubb3d.experiment.export import export

    results = tmp_path / "r.sqlite"
    results.write_bytes(b"")
    with pytest.raises(ValueError, match="overwrite the results file"):
        export(results, "csv", results)

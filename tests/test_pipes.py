"""Output for pipes and programs: plain unwrapped lines when stdout is not a terminal,
events in causal order, and --json with structured fields and null instead of sentinels."""

import json
import re
from pathlib import Path

from shared_runs import SEED_ONE_MATCH

LINE = re.compile(r"^ *\d+:\d\d (S\d+ R[\d ]{2}|      ) (\S+) +(.*)$")


def _events(stdout):
    lines = stdout.splitlines()
    assert lines[-1].startswith("result: ")
    return [LINE.match(line) for line in lines[:-1]]


def test_match_into_a_pipe_is_plain_unwrapped_and_causal(cli):
    r = cli("match")
    assert r.returncode == 0, r.stderr
    assert "\x1b[" not in r.stdout
    events = _events(r.stdout)
    assert all(events), [l for l, m in zip(r.stdout.splitlines(), events) if not m][:3]
    kinds = [m.group(2) for m in events]
    assert kinds.count("ruling") >= 3 and kinds.count("throw") >= 10
    # every citation is closed on its own line, never broken across lines
    assert all(m.group(3).count("(") == m.group(3).count(")") for m in events)
    clock = [int(l.split(":")[0]) * 60 + int(l.split(":")[1][:2]) for l in r.stdout.splitlines()[:-1]]
    assert clock == sorted(clock)
    # a ruling follows the throw or inkast it is about (possibly after other rulings)
    for i, kind in enumerate(kinds):
        if kind == "ruling":
            j = i
            while kinds[j] in ("ruling", "foul"):
                j -= 1
            assert kinds[j] in ("throw", "inkast", "penalty", "lag"), (kinds[j], events[i].group(3))


def test_match_json_has_structured_actions_and_no_sentinels(cli):
    r = cli("match", "--json")
    doc = json.loads(r.stdout)
    assert doc["config"]["time_limit_s"] is None  # DM: no clock, not -1
    throws = [a for a in doc["actions"] if a["action"]["type"] in ("BatonThrow", "KingThrow")]
    assert throws and all(
        isinstance(a["outcome"]["felled"], list) and isinstance(a["outcome"]["legal"], bool) for a in throws
    )
    # the structured outcomes say what the play-by-play says
    texts = [e["text"] for e in doc["events"] if e["kind"] == "throw"]
    felled = [a["outcome"]["felled"] for a in throws]
    assert len(texts) == len(felled)
    for text, f in zip(texts, felled):
        if f:
            assert all(pid in text.split("felled", 1)[1] for pid in f), (text, f)
        else:
            assert "nothing felled" in text or "felled the king" in text  # the king is no kubb
    assert doc["outcome"]["winner"] in ("P1", "P2", None)
    ws = json.loads(cli("match", "--json", "--ruleset", "wikinger", "--round-cap", "3").stdout)
    assert ws["config"]["time_limit_s"] == 1200.0  # the ruleset's 20 minutes, resolved


def test_match_quiet_short_flag(seed_one_match):
    """``-q`` over a whole match (the default seed's), into a pipe: the result line alone. The
    session plays that match once with ``-q`` and a replay (tests/shared_runs.py); its ``wrote``
    line goes to stderr."""
    _, _, r = seed_one_match
    assert SEED_ONE_MATCH.split()[-1] == "-q" and "--seed 1 " in SEED_ONE_MATCH
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.splitlines()) == 1 and r.stdout.startswith("result: ")


def test_dames_selfplay_json_and_no_progress_bar_in_a_pipe(cli):
    r = cli("dames", "selfplay", "--games", "4", "--seed", "2", "--json")
    assert r.returncode == 0 and r.stderr == ""
    doc = json.loads(r.stdout)
    assert doc["games"] == 4 and len(doc["turns"]) == 4
    assert sum(doc["wins"].values()) + doc["ties"] == 4
    assert doc["mean_turns"] == sum(doc["turns"]) / 4
    r = cli("dames", "selfplay", "--games", "2")
    assert r.returncode == 0 and r.stderr == "" and "win rate" in r.stdout


def test_bench_json(cli):
    r = cli("bench", "--throws", "2", "--json")
    doc = json.loads(r.stdout)
    assert doc["throws"] == 2 and doc["full_throws_per_s"] > 0 and doc["steps_per_throw"] > 0
    assert "bench: timing" not in r.stderr  # no phase lines for a program


def test_experiment_summary_json(cli, tmp_path):
    out = tmp_path / "s.sqlite"
    r = cli("experiment", "run", "skill-calibration", "-o", str(out), "--max-trials", "6", "--backend", "serial", "-q")
    assert r.returncode == 0, r.stderr
    r = cli("experiment", "summary", str(out), "--by", "skill", "--measure", "kubbs_felled", "--json")
    doc = json.loads(r.stdout)
    assert doc["trials"] == 6 and doc["by"] == ["skill"] and doc["statistic"] == "mean"
    assert sum(g["n"] for g in doc["groups"]) == 6
    assert {tuple(g["key"]) for g in doc["groups"]} == {("skill",)}


def test_summary_of_a_text_column_counts_each_value_and_keeps_draws(cli, tmp_path):
    from kubb3d.experiment.store import ResultStore

    path = tmp_path / "r.sqlite"
    rows = [
        {"trial": 0, "ok": True, "match_winner": "A"},
        {"trial": 1, "ok": True, "match_winner": None},
        {"trial": 2, "ok": False, "error": "RuntimeError: boom"},
        {"trial": 3, "ok": True, "match_winner": "A"},
    ]
    with ResultStore(path, "0" * 64, "{}") as store:
        store.add([(r, 0.1) for r in rows])
    doc = json.loads(cli("experiment", "summary", str(path), "--measure", "match_winner", "--json").stdout)
    got = {g["key"]["match_winner"]: (g["k"], g["n"]) for g in doc["groups"]}
    # the draw is in every denominator, the failure in none; B, which never won, at 0
    assert got == {"A": (2, 3), "B": (0, 3), "null": (1, 3)}
    assert doc["failed"] == 1
    doc = json.loads(cli("experiment", "summary", str(path), "--measure", "match_winner=A", "--json").stdout)
    assert [(g["k"], g["n"]) for g in doc["groups"]] == [(2, 3)]


def test_exports_of_identical_runs_are_identical_without_timing(cli, tmp_path):
    for name in ("a", "b"):
        r = cli(
            "experiment",
            "run",
            "hit-8m",
            "-o",
            str(tmp_path / f"{name}.sqlite"),
            "--max-trials",
            "3",
            "--backend",
            "serial",
            "-q",
        )
        assert r.returncode == 0, r.stderr
        r = cli("experiment", "export", str(tmp_path / f"{name}.sqlite"), "--no-timing")
        assert r.returncode == 0, r.stderr
    a, b = (tmp_path / "a.csv").read_text(), (tmp_path / "b.csv").read_text()
    assert a == b and "wall_s" not in a.splitlines()[0] and len(a.splitlines()) == 4


def test_summary_and_plot_where_and_the_pooled_note(cli, tmp_path):
    out = tmp_path / "h.sqlite"
    r = cli("experiment", "run", "hit-8m", "-o", str(out), "--max-trials", "30", "--backend", "serial", "-q")
    assert r.returncode == 0, r.stderr
    r = cli("experiment", "summary", str(out), "--by", "speed")
    assert "pooled over the factors elevation_deg" in r.stderr
    doc = json.loads(
        cli("experiment", "summary", str(out), "--by", "speed", "--where", "elevation=10", "--json").stdout
    )
    assert doc["pooled_over"] == [] and doc["where"] == ["elevation=10"]
    # hit-8m's grid: 25 speeds x 7 elevations; --max-trials 30 takes 30 points spread over it
    # (experiment.runner.spread_order): those at elevation 10 are the summary's groups
    import itertools

    from kubb3d.experiment import load_spec
    from kubb3d.experiment.runner import spread_order
    from kubb3d.library import resolve_experiment

    loaded = load_spec(resolve_experiment(Path("hit-8m")))
    part = [loaded.point(i % loaded.n_points) for i in itertools.islice(spread_order(loaded), 30)]
    speeds = sorted(p["speed"] for p in part if p["elevation_deg"] == 10)
    assert 2 <= len(speeds) <= 8 and len({p["speed"] for p in part}) >= 20  # spread, not 4 speeds
    assert doc["trials"] == len(speeds) and [g["key"]["speed"] for g in doc["groups"] if g["n"]] == speeds
    assert len(doc["groups"]) == 25  # every speed of the grid, n = 0 where no trial ran yet
    r = cli("experiment", "plot", str(out), "--x", "speed", "--where", "elevation=15", "-o", str(tmp_path / "p.png"))
    assert r.returncode == 0, r.stderr
    assert "pooled" not in r.stderr and (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
    r = cli("experiment", "summary", str(out), "--where", "elevation=99")
    assert r.returncode == 2  # the values there are: a reader sees why nothing matched
    assert r.stderr == "error: no trial matches --where elevation=99; elevation_deg has 10, 15, 20, 25, 30, 35, 40\n"


def test_experiment_run_json(cli, tmp_path):
    out = tmp_path / "r.sqlite"
    r = cli("experiment", "run", "tilt-limit", "-o", str(out), "--max-trials", "2", "--backend", "serial", "--json")
    doc = json.loads(r.stdout)
    assert (doc["ran"], doc["skipped"], doc["stored"], doc["failed"], doc["backend"]) == (2, 0, 2, 0, "serial")
    assert doc["total"] == 210 and doc["results"] == str(out)
    doc = json.loads(
        cli(
            "experiment", "run", "tilt-limit", "-o", str(out), "--max-trials", "1", "--backend", "serial", "--json"
        ).stdout
    )
    assert (doc["ran"], doc["skipped"], doc["stored"]) == (1, 2, 3)

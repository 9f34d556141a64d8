"""docs/examples/sb3_throw.py: stable-baselines3's SAC on ``kubb3d/Throw-v0`` (issue 38 item 6).

A smoke run (a few hundred steps) checks that training runs and that the learnt policy's
actions are valid; the committed record of the full run ties docs/envs.md's table to what
the script wrote.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "docs" / "examples" / "sb3_throw.py"
RECORD = ROOT / "docs" / "examples" / "sb3_throw.json"


def _example():
    spec = importlib.util.spec_from_file_location("sb3_throw", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_short_training_runs_and_its_policy_acts_in_the_box():
    pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed (the 'rl' extra)")
    example = _example()
    asked = copy.deepcopy(example.SAC_SETTINGS)
    seeds = range(10_000, 10_006)
    lines: list[str] = []
    record = example.train(
        steps=200, seed=0, every=100, held_out=seeds, settings={"learning_starts": 100}, say=lines.append
    )
    assert [point["steps"] for point in record["curve"]] == [100, 200]
    # SAC writes its own keys into the policy_kwargs it is given: neither the module's settings
    # nor the record may change (the committed run's record got `use_sde` that way)
    assert example.SAC_SETTINGS == asked and record["settings"] == {**asked, "learning_starts": 100}
    assert record["final"] == {k: v for k, v in record["curve"][-1].items() if k not in ("steps", "train_hit_rate")}
    assert lines[-1].startswith("final policy after 200 steps (seed 0, dense 1)")
    json.dumps({k: v for k, v in record.items() if k != "model"})  # the record is JSON as it stands

    # the learnt policy's actions: five finite values in [-1, 1], the same each time it is asked
    model = record["model"]
    env = gym.make("kubb3d/Throw-v0")
    hits, targets = 0, []
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        action, _ = model.predict(obs, deterministic=True)
        again, _ = model.predict(obs, deterministic=True)
        assert action.shape == (5,) and np.all(np.isfinite(action))
        assert np.all(np.abs(action) <= 1.0) and np.array_equal(action, again)
        hits += env.step(action)[4]["hit"]
        targets.append(info["target"])
    env.close()
    final = record["final"]
    assert final["hits"] == hits and final["throws"] == len(seeds)
    assert {t: n for t, (_, n) in final["per_target"].items()} == {t: targets.count(t) for t in set(targets)}


def test_the_docs_table_is_the_committed_run():
    example = _example()
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    envs_md = (ROOT / "docs" / "envs.md").read_text(encoding="utf-8")
    assert example.markdown(record) in envs_md, "docs/envs.md: paste `sb3_throw.py --markdown sb3_throw.json`"
    final = record["final"]
    # the run is the one the script's defaults make, measured on all its held-out seeds
    assert (record["steps"], record["seed"], record["env_kwargs"]) == (15_000, 0, {"dense": example.DENSE})
    # written before train() copied the settings for SAC, the record holds SAC's own default
    # use_sde=False in policy_kwargs besides the settings asked for
    settings = copy.deepcopy(record["settings"])
    assert settings["policy_kwargs"].pop("use_sde") is False
    assert settings == example.SAC_SETTINGS
    assert record["held_out_seeds"] == [min(example.HELD_OUT), max(example.HELD_OUT)]
    assert final["throws"] == len(example.HELD_OUT) == sum(n for _, n in final["per_target"].values())
    assert final["hits"] == sum(h for h, _ in final["per_target"].values())
    assert record["curve"][-1]["steps"] == record["steps"] and record["curve"][-1]["hits"] == final["hits"]
    from kubb3d.experiment.stats import wilson

    assert final["interval95"] == pytest.approx(list(wilson(final["hits"], final["throws"])))


def test_a_stale_table_is_caught():
    example = _example()
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    record["final"]["per_target"]["B1"][0] += 1
    assert example.markdown(record) not in (ROOT / "docs" / "envs.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--markdown", "no-such-record.json"], "no-such-record.json: cannot read a run record"),
        (["--steps", "0"], "--steps and --every must be >= 1"),
        (["--steps", "many"], "argument --steps: invalid int value: 'many'"),
    ],
)
def test_bad_input_is_refused_in_one_line(tmp_path, args, message):
    res = subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--json", str(tmp_path / "out.json")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and message in res.stderr
    assert not (tmp_path / "out.json").exists()

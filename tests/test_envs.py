"""The Gymnasium environments kubb3d/Throw-v0 and kubb3d/Turn-v0: the checker, seeding,
rewards from the judge, vector environments in processes, rendering, and the example."""

import importlib.util
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import kubb3d.envs as E

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]
AT_B3 = np.array([11.0, 20.0, 0.0, 1.5, 0.0], dtype=np.float32)  # fells B3 (straight ahead)


@pytest.mark.filterwarnings("ignore:.*symmetric and normalized")
@pytest.mark.parametrize("env_id", ["kubb3d/Throw-v0", "kubb3d/Turn-v0"])
def test_check_env_passes(env_id):
    env = gym.make(env_id)
    check_env(env.unwrapped, skip_render_check=True)
    env.close()


def test_import_order_does_not_matter_and_kubb3d_stays_light():
    code = ("import sys, gymnasium, kubb3d; assert 'kubb3d/Throw-v0' in gymnasium.registry; "
            "assert 'pyglet' not in sys.modules")
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0
    code = "import sys, kubb3d; assert 'gymnasium' not in sys.modules and 'kubb3d.envs' not in sys.modules"
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0


def test_same_seed_same_episode_and_seeds_pick_targets():
    env = gym.make("kubb3d/Throw-v0")
    runs = []
    for _ in range(2):
        obs, info = env.reset(seed=7)
        out = env.step(AT_B3)
        runs.append((obs, info["target"], out[0], out[1], out[4]["felled"]))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][2], runs[1][2])
    assert runs[0][1] == runs[1][1] and runs[0][3:] == runs[1][3:]
    targets = {env.reset(seed=s)[1]["target"] for s in range(12)}
    assert len(targets) >= 3 and targets <= set(E.TARGETS)
    obs, info = env.reset(seed=7)
    assert obs.shape == (45,) and obs.dtype == np.float32
    # the last three values are the target's centre: B kubbs stand on side B's baseline (x = 4 m)
    assert obs[-3] == pytest.approx(4.0, abs=0.01) and obs[-1] == pytest.approx(0.075, abs=0.01)
    env.close()


def test_rewards_follow_the_judge():
    env = gym.make("kubb3d/Throw-v0", target="B3")
    env.reset(seed=0)
    _, r, term, trunc, info = env.step(AT_B3)
    assert (r, term, trunc, info["hit"], info["felled"], info["legal"]) == (1.0, True, False, True, ["B3"], True)
    # spin 5 rev/s at the 30° tilt limit wobbles past it in flight: DM §5, penalty, nothing counts
    env.reset(seed=0)
    _, r, _, _, info = env.step(np.array([11, 20, 0, 5, 30], dtype=np.float32))
    assert (
        r == E.ILLEGAL_PENALTY
        and not info["legal"]
        and info["violations"][0]["rule"] == "DM §5"
        and info["felled"] == []
    )
    # too short: the baton flies into the king on the centre point before any kubb is down
    env.reset(seed=0)
    _, r, _, _, info = env.step(np.array([7.5, 20, 0, 1.5, 0], dtype=np.float32))
    assert r == E.KING_PENALTY and info["game_lost"] and info["first_contact"] == "king"
    env.close()


def test_turn_of_six_batons():
    env = gym.make("kubb3d/Turn-v0")
    obs, info = env.reset(seed=1)
    assert obs.shape == (43,) and obs[-1] == 1.0 and info["batons_left"] == 6
    total, steps = 0.0, 0
    while True:
        obs, r, term, trunc, info = env.step(AT_B3)
        total, steps = total + r, steps + 1
        if term or trunc:
            break
    # the first baton fells B3; the same throw again finds nothing standing on its line
    assert steps == 6 and obs[-1] == 0.0 and info["felled_total"] == ["B3"] and total == 1.0
    with pytest.raises(RuntimeError, match="reset"):
        env.unwrapped.step(AT_B3)
    env.close()


def test_vector_env_in_processes_matches_single_envs():
    venv = gym.make_vec("kubb3d/Throw-v0", num_envs=2, vectorization_mode="async")
    try:
        obs, info = venv.reset(seed=[3, 4])
        _, rewards, term, _, _ = venv.step(np.stack([AT_B3, AT_B3]))
    finally:
        venv.close()
    env = gym.make("kubb3d/Throw-v0")
    for i, seed in enumerate((3, 4)):
        single, _ = env.reset(seed=seed)
        assert np.array_equal(obs[i], single)
        assert rewards[i] == env.step(AT_B3)[1]
    assert term.all()
    env.close()


def test_rgb_array_render_uses_the_headless_renderer():
    pytest.importorskip("pyglet")
    env = gym.make("kubb3d/Throw-v0", render_mode="rgb_array", width=160, height=120)
    env.reset(seed=0)
    img = env.render()
    env.close()
    assert img.shape == (120, 160, 3) and img.dtype == np.uint8
    g = img.reshape(-1, 3).astype(int)
    assert ((g[:, 1] > g[:, 0] + 15) & (g[:, 1] > g[:, 2] + 15)).mean() > 0.3  # mostly grass


def test_cross_entropy_example_runs_a_short_version():
    spec = importlib.util.spec_from_file_location("cem_throw", ROOT / "docs" / "examples" / "cem_throw.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    lines = []
    history = mod.train(iterations=2, population=6, episodes=3, eval_episodes=10, seed=0, say=lines.append)
    assert len(history) == 3 and all(0.0 <= h <= 1.0 for h in history)
    assert lines[0].startswith("start: hit rate") and lines[2].startswith("iteration 2:")
    # the starting policy throws straight ahead: it hits exactly the episodes aimed at B3
    env = gym.make("kubb3d/Throw-v0")
    targets = [env.reset(seed=10_000 + i)[1]["target"] for i in range(10)]
    env.close()
    assert history[0] == targets.count("B3") / 10


def test_without_gymnasium_the_error_names_the_extra():
    """With Gymnasium absent (blocked by a meta-path finder), importing kubb3d.envs ends in one
    line that names the extra to install."""
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'gymnasium':\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import kubb3d.envs\n"
    )
    done = subprocess.run([sys.executable, "-c", code], timeout=60, capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "ModuleNotFoundError: kubb3d.envs needs Gymnasium, which kubb3d's 'gym' extra installs: "
        "pip install 'kubb3d[gym]'"
    )

"""Learn to hit kubbs with the cross-entropy method on ``kubb3d/Throw-v0``.

The policy has four numbers θ: release speed θ0 (m/s), elevation θ1 (deg) and an azimuth
linear in the direction of the target, θ2 + θ3 · a / 10° for a target kubb seen at the angle
a (deg, positive left) from side A's baseline centre (x = −4 m); spin 1.5 rev/s, no tilt
(the physical action of :mod:`kubb3d.envs`, ``actions="physical"``: speed, elevation, azimuth,
spin, tilt).
Each iteration draws ``population`` weight vectors from a normal distribution (the current
mean among them), scores each on the same ``episodes`` training seeds (hit rate minus the mean
horizontal miss distance in m, ``info["miss_m"]``: hits alone are too rare to guide the search),
and refits the distribution to the best quarter. The best policy so far (by training score) competes in every
population; its hit rate (target felled) is measured on held-out seeds before and after
every iteration.

Run it; it prints the held-out hit rate before the first iteration (the straight throw it
starts from hits only the episodes aimed at B3) and after each one::

    python docs/examples/cem_throw.py
"""

from __future__ import annotations

import argparse

import gymnasium as gym
import numpy as np

import kubb3d.envs  # noqa: F401  (registers kubb3d/Throw-v0)

START_MEAN = np.array([11.0, 20.0, 0.0, 0.0])
"""Initial policy: a plain 11 m/s throw at 20°, straight ahead, whatever the target (it reaches the
middle baseline kubb on the fly; a shorter throw lands and stops in the grass)."""
START_STD = np.array([1.0, 4.0, 2.0, 6.0])


def act(theta: np.ndarray, obs: np.ndarray) -> np.ndarray:
    """The action of policy ``theta`` (4,) for an observation (it ends with the target's
    x, y, z in m)."""
    x, y = float(obs[-3]), float(obs[-2])
    angle = np.degrees(np.arctan2(y, x + 4.0))
    action = np.array([theta[0], theta[1], theta[2] + theta[3] * angle / 10.0, 1.5, 0.0])
    return np.clip(action, kubb3d.envs.ACTION_LOW, kubb3d.envs.ACTION_HIGH).astype(np.float32)


def evaluate(env: gym.Env, theta: np.ndarray, seeds) -> tuple[float, float]:
    """(search score, hit rate) of the policy over one episode per seed; the score is the
    hit rate minus the mean miss distance (m)."""
    misses, hits = [], []
    for seed in seeds:
        obs, _ = env.reset(seed=int(seed))
        _, _, _, _, info = env.step(act(theta, obs))
        misses.append(info["miss_m"] if info["miss_m"] is not None else 5.0)
        hits.append(info["hit"])
    return float(np.mean(hits) - np.mean(misses)), float(np.mean(hits))


def train(
    iterations: int = 10, population: int = 24, episodes: int = 15, eval_episodes: int = 40, seed: int = 0, say=print
) -> list[float]:
    """Run the cross-entropy method; returns the held-out hit rate of the best policy found so
    far (by training score) before the first iteration and after each one (``iterations + 1``
    numbers in [0, 1])."""
    rng = np.random.default_rng(seed)
    env = gym.make("kubb3d/Throw-v0", actions="physical")
    train_seeds = np.arange(episodes)  # the same episodes score every candidate
    held_out = 10_000 + np.arange(eval_episodes)
    mean, std = START_MEAN.copy(), START_STD.copy()
    n_elite = max(2, population // 4)
    best, best_score = mean.copy(), evaluate(env, mean, train_seeds)[0]
    history = [evaluate(env, best, held_out)[1]]
    say(f"start: hit rate {history[0]:.2f}")
    try:
        for it in range(iterations):
            # the mean and the best policy so far compete with the new draws (elitism)
            draws = mean + std * rng.standard_normal((population - 2, mean.size))
            candidates = np.concatenate(([mean, best], draws))
            scores = np.array([evaluate(env, w, train_seeds)[0] for w in candidates])
            elite = candidates[np.argsort(scores)[-n_elite:]]
            if scores.max() > best_score:
                best, best_score = candidates[int(np.argmax(scores))].copy(), float(scores.max())
            # a smoothed refit with a floor on the spread keeps the search from collapsing
            mean = 0.7 * elite.mean(axis=0) + 0.3 * mean
            std = np.maximum(0.7 * elite.std(axis=0) + 0.3 * std, 0.05 * START_STD)
            history.append(evaluate(env, best, held_out)[1])
            say(f"iteration {it + 1}: best score {best_score:.2f}, its held-out hit rate {history[-1]:.2f}")
    finally:
        env.close()
    say(
        "learnt policy: speed {:.2f} m/s, elevation {:.1f} deg, azimuth {:.2f} deg + {:.2f} deg per 10 deg of target "
        "angle".format(
            *best
        )
    )
    return history


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--population", type=int, default=24)
    ap.add_argument("--episodes", type=int, default=15)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    train(a.iterations, a.population, a.episodes, seed=a.seed)

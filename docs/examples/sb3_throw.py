"""Train stable-baselines3's SAC on ``kubb3d/Throw-v0`` and measure its held-out hit rate.

The environment is the default one (the target reward: +1 only when the target kubb counts
as felled, −1 for an illegal throw, −5 for felling the king early; actions in [−1, 1]; the
standard layout; exact releases) plus, by default, the documented dense term ``dense=1.0``
(minus the baton's closest 3D approach to the target, m; formulas in ``kubb3d/envs/__init__.py``):
the sparse reward alone pays so rarely for a random throw that it gives SAC nothing to climb.

SAC trains for ``--steps`` environment steps (one throw each) from ``--seed``; every
``--every`` steps the deterministic policy (the mean action) is measured on the held-out
seeds (``reset(seed=s)`` for s = 10,000 … 10,099, seeds training never draws: SAC seeds its
environment once with ``--seed`` and the episodes continue that generator). The last line
is the figure: the final policy's held-out hit rate with its 95 % Wilson interval. With
``--json FILE`` the run's settings, learning curve, times and load are written there;
``--markdown FILE`` prints the table docs/envs.md shows from such a file. Needs the ``rl``
extra (``pip install torch`` first, CPU build, then ``pip install 'kubb3d[rl]'``)::

    nice -n 10 python docs/examples/sb3_throw.py --json docs/examples/sb3_throw.json
    python docs/examples/sb3_throw.py --markdown docs/examples/sb3_throw.json

Training runs on one CPU thread (``torch.set_num_threads(1)``); on a busy machine it takes
tens of minutes (docs/envs.md gives the run's wall and CPU time).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

import gymnasium as gym

import kubb3d.envs  # noqa: F401  (registers kubb3d/Throw-v0)
from kubb3d.experiment.stats import wilson

HELD_OUT = tuple(range(10_000, 10_100))
"""Seeds of the held-out evaluation episodes (one throw each)."""
DENSE = 1.0
"""Default weight of the dense term (``dense=`` of ``kubb3d/Throw-v0``)."""
SAC_SETTINGS: dict[str, Any] = {
    "learning_rate": 1e-3,
    "buffer_size": 100_000,
    "learning_starts": 500,
    "batch_size": 256,
    "train_freq": 1,
    "gradient_steps": 1,
    "policy_kwargs": {"net_arch": [128, 128]},
}
"""SAC's settings that differ from stable-baselines3's defaults (the rest are its defaults)."""


def evaluate(model, env: gym.Env, seeds=HELD_OUT) -> dict[str, Any]:
    """The deterministic policy of ``model`` on one episode per seed: hits, throws, the hit rate
    with its 95 % Wilson interval, and hits and throws per target kubb."""
    per_target: dict[str, list[int]] = {}
    hits = 0
    for seed in seeds:
        obs, info = env.reset(seed=int(seed))
        action, _ = model.predict(obs, deterministic=True)
        _, _, _, _, step = env.step(action)
        hits += bool(step["hit"])
        counts = per_target.setdefault(info["target"], [0, 0])
        counts[0] += bool(step["hit"])
        counts[1] += 1
    low, high = wilson(hits, len(seeds))
    return {
        "hits": hits,
        "throws": len(seeds),
        "hit_rate": hits / len(seeds),
        "interval95": [low, high],
        "per_target": {t: per_target[t] for t in sorted(per_target)},
    }


def train(
    steps: int = 15_000,
    seed: int = 0,
    dense: float = DENSE,
    every: int = 2_500,
    held_out=HELD_OUT,
    settings: dict[str, Any] | None = None,
    say=print,
) -> dict[str, Any]:
    """Train SAC for ``steps`` environment steps from ``seed`` and measure the deterministic
    policy on ``held_out`` seeds after every ``every`` steps and at the end. Returns the run's
    record (settings, ``curve`` of (steps, evaluation), ``final`` evaluation, times, load,
    versions) and the trained model under ``"model"`` (not JSON)."""
    import stable_baselines3
    import torch
    from stable_baselines3 import SAC
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(1)
    settings = copy.deepcopy({**SAC_SETTINGS, **(settings or {})})
    env = gym.make("kubb3d/Throw-v0", dense=dense)
    eval_env = gym.make("kubb3d/Throw-v0", dense=dense)
    curve: list[dict[str, Any]] = []
    train_hits: list[bool] = []

    class Checkpoints(BaseCallback):
        def _on_step(self) -> bool:
            train_hits.extend(bool(info.get("hit")) for info in self.locals["infos"])
            if self.num_timesteps % every == 0 and self.num_timesteps < steps:
                measure(self.model, self.num_timesteps)
            return True

    def measure(model, done: int) -> dict[str, Any]:
        result = evaluate(model, eval_env, held_out)
        recent = train_hits[-every:]
        curve.append({"steps": done, **result, "train_hit_rate": sum(recent) / max(len(recent), 1)})
        say(
            f"{done} steps: held-out hit rate {result['hit_rate']:.2f} "
            f"({result['interval95'][0]:.2f}-{result['interval95'][1]:.2f}), "
            f"training throws hit {curve[-1]['train_hit_rate']:.2f}"
        )
        return result

    load_start = os.getloadavg()
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        # SAC adds its own keys to policy_kwargs: it gets a copy, the record keeps what was asked
        model = SAC("MlpPolicy", env, seed=seed, verbose=0, device="cpu", **copy.deepcopy(settings))
        model.learn(total_timesteps=steps, callback=Checkpoints())
        final = measure(model, steps)
    finally:
        env.close()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    eval_env.close()
    say(
        f"final policy after {steps} steps (seed {seed}, dense {dense:g}): held-out hit rate "
        f"{final['hit_rate']:.2f}, 95 % interval {final['interval95'][0]:.2f}-{final['interval95'][1]:.2f} "
        f"({final['hits']}/{final['throws']}); {wall / 60:.1f} min wall, {cpu / 60:.1f} CPU-min"
    )
    return {
        "algorithm": "SAC",
        "env": "kubb3d/Throw-v0",
        "env_kwargs": {"dense": dense},
        "steps": steps,
        "seed": seed,
        "settings": settings,
        "held_out_seeds": [min(held_out), max(held_out)],
        "curve": curve,
        "final": final,
        "wall_s": wall,
        "cpu_s": cpu,
        "load_start": list(load_start),
        "load_end": list(os.getloadavg()),
        "nice": os.nice(0),
        "cpus": os.cpu_count(),
        "versions": {
            "stable_baselines3": stable_baselines3.__version__,
            "torch": torch.__version__,
            "gymnasium": gym.__version__,
        },
        "model": model,
    }


def markdown(record: dict[str, Any]) -> str:
    """The table of a run's record (what ``--json`` writes) that docs/envs.md shows."""
    final = record["final"]
    lines = [
        f"SAC, seed {record['seed']}, {record['steps']:,} environment steps, "
        f"`dense={record['env_kwargs']['dense']:g}`; the deterministic policy on the held-out seeds "
        f"{record['held_out_seeds'][0]:,}–{record['held_out_seeds'][1]:,}:",
        "",
        "| steps | held-out hit rate | 95 % interval | training throws that hit |",
        "|---|---|---|---|",
    ]
    for point in record["curve"]:
        low, high = point["interval95"]
        lines.append(
            f"| {point['steps']:,} | {point['hit_rate']:.2f} ({point['hits']}/{point['throws']}) "
            f"| {low:.2f}–{high:.2f} | {point['train_hit_rate']:.2f} |"
        )
    machine = "".join(
        text.format(record[key]) for key, text in (("nice", ", niceness {}"), ("cpus", ", {} CPUs")) if key in record
    )
    per_target = ", ".join(f"{t} {h}/{n}" for t, (h, n) in final["per_target"].items())
    lines += [
        "",
        f"Final policy, per target kubb: {per_target}. The run took {record['wall_s'] / 60:.0f} min wall and "
        f"{record['cpu_s'] / 60:.0f} CPU-min (one thread{machine}, load {record['load_start'][0]:.1f} at the "
        f"start and {record['load_end'][0]:.1f} at the end; stable-baselines3 "
        f"{record['versions']['stable_baselines3']}, torch {record['versions']['torch']}).",
    ]
    return "\n".join(lines)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """A refused flag: one line and exit code 2 (argparse adds its usage)."""
        print(f"sb3_throw: {message}", file=sys.stderr)
        sys.exit(2)


def main(argv: list[str] | None = None) -> int:
    ap = _Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=15_000, help="environment steps to train (default 15000)")
    ap.add_argument("--seed", type=int, default=0, help="SAC's and the environment's seed (default 0)")
    ap.add_argument("--dense", type=float, default=DENSE, help=f"weight of the dense term (default {DENSE:g})")
    ap.add_argument("--every", type=int, default=2_500, help="steps between held-out measurements (default 2500)")
    ap.add_argument("--json", type=Path, help="write the run's record to this file")
    ap.add_argument("--markdown", type=Path, metavar="JSON", help="print the docs table of a record and exit")
    a = ap.parse_args(argv)
    if a.markdown is not None:
        try:
            record = json.loads(a.markdown.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            print(f"sb3_throw: {a.markdown}: cannot read a run record ({exc})", file=sys.stderr)
            return 2
        print(markdown(record))
        return 0
    if a.steps < 1 or a.every < 1 or not a.dense >= 0:
        print("sb3_throw: --steps and --every must be >= 1 and --dense >= 0", file=sys.stderr)
        return 2
    if a.json is not None and not a.json.parent.is_dir():
        print(f"sb3_throw: --json {a.json}: no such folder {a.json.parent}", file=sys.stderr)
        return 2
    record = train(a.steps, a.seed, a.dense, a.every)
    record.pop("model")
    if a.json is not None:
        a.json.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

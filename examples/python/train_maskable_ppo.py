#!/usr/bin/env python3
"""Trains sb3-contrib's MaskablePPO on Samurai (2 players) against the random bot, through
kassen's vector env (the opponent plays inside Rust), and prints the win rate before and after.

    python examples/python/train_maskable_ppo.py [--timesteps N] [--envs N] [--eval-games N]

`make train-example` creates a virtualenv with torch, stable-baselines3 and sb3-contrib and
runs it. The data path (:func:`make_env`, :func:`evaluate`, and SB3's VecEnv over the vector
env from :mod:`kassen.envs.sb3`, without a model) needs only numpy and gymnasium; CI runs it
with a random masked policy (python/tests/test_train_example.py).
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

import kassen
from kassen.envs import KassenVectorEnv
from kassen.envs.sb3 import sb3_vec_env

GAME = "samurai"
CONFIG = {"players": 2}
#: A policy: (observations, masks) -> actions, one per env.
Policy = Callable[[np.ndarray, np.ndarray], np.ndarray]


def make_env(num_envs: int = 16, seed: int = 0, threads: int = 2) -> KassenVectorEnv:
    """The learner (seat 0) against the random bot in ``num_envs`` games at once."""
    return KassenVectorEnv(GAME, CONFIG, num_envs, agent=0, opponent="random", threads=threads, seed=seed)


def random_masked_policy(seed: int = 0) -> Policy:
    """Uniformly random legal actions (the stand-in for a trained model)."""
    rng = np.random.default_rng(seed)

    def act(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)

    return act


def evaluate(env: KassenVectorEnv, policy: Policy, games: int, seed: int = 1) -> Dict[str, Any]:
    """Plays until ``games`` games have ended; a win is a final return above every other seat's.

    Checks the episode bookkeeping as it goes: each ended game's summed rewards equal its
    reported return, and its counted steps its reported length."""
    obs, info = env.reset(seed=seed)
    running = np.zeros(env.num_envs)
    steps_in_game = np.zeros(env.num_envs, dtype=np.int64)
    returns: List[float] = []
    lengths: List[int] = []
    wins = 0
    steps = 0
    while len(returns) < games:
        actions = policy(obs, info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(actions)
        running += reward
        steps_in_game += 1
        steps += env.num_envs
        for i in np.flatnonzero(terminated | truncated):
            if len(returns) == games:
                break
            final = info["final_returns"][i]
            assert abs(running[i] - info["episode_return"][i]) < 1e-5, "rewards do not add up to the return"
            assert steps_in_game[i] == info["episode_length"][i], "episode length mismatch"
            assert final[env.agent] == info["episode_return"][i]
            returns.append(float(info["episode_return"][i]))
            lengths.append(int(steps_in_game[i]))
            wins += int(all(final[env.agent] > r for s, r in enumerate(final) if s != env.agent))
            running[i] = 0.0
            steps_in_game[i] = 0
    return {"games": games, "wins": wins, "win_rate": wins / games, "mean_return": float(np.mean(returns)),
            "mean_length": float(np.mean(lengths)), "steps": steps}


def model_policy(model: Any) -> Policy:
    def act(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions, _ = model.predict(obs, action_masks=masks.astype(bool), deterministic=True)
        return np.asarray(actions)

    return act


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--timesteps", type=int, default=200_000, help="training steps (learner decisions)")
    p.add_argument("--envs", type=int, default=16)
    p.add_argument("--eval-games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    print(f"kassen {kassen.__version__}, torch {torch.__version__}: MaskablePPO on {GAME} {CONFIG} vs random")
    eval_env = make_env(args.envs, seed=10_000 + args.seed)
    before = evaluate(eval_env, random_masked_policy(args.seed), args.eval_games)
    print(f"before training (uniformly random legal moves): win rate {before['win_rate']:.3f} "
          f"over {before['games']} games")
    model = MaskablePPO("MlpPolicy", sb3_vec_env(make_env(args.envs, seed=args.seed)), seed=args.seed,
                        n_steps=256, batch_size=1024, verbose=0)
    t = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    minutes = (time.perf_counter() - t) / 60
    after = evaluate(eval_env, model_policy(model), args.eval_games)
    print(f"after {args.timesteps:,} steps ({minutes:.1f} minutes wall clock): win rate {after['win_rate']:.3f} "
          f"over {after['games']} games (mean return {after['mean_return']:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""Benchmark of experience generation from Python: the native batch, the Gymnasium vector env
and the single-state loop, side by side in one run.

    python python/bench/bench_rl.py [OUT.json] [--seconds S] [--envs N] [--threads T]

Every row writes the observation (float32) and the legal mask of every step and samples a
uniformly random legal action per env in numpy from the masks, as an RL data loader would:

- ``batch``: ``kassen._kassen.Batch`` in multi-agent mode (every decision of every seat is an
  env step), ``--envs`` games, ``--threads`` worker threads (default: every core);
- ``single``: one ``State`` stepped in a Python loop (``observation_tensor(out=...)``,
  ``legal_actions_mask``, the same numpy sampling), a new game when one ends;
- ``batch_vs_bot`` and ``vector_env``: the learner's seat against the random bot played inside
  Rust, through the raw batch and through ``kassen.envs.KassenVectorEnv`` (learner steps/s).

One configuration per registered game (its first covered config). Meant for a RELEASE wheel.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from typing import Any, Callable, Dict, List

import numpy as np

import kassen
from kassen import _kassen
from kassen.envs import KassenVectorEnv
from kassen.envs.common import sample_legal_actions as sample_legal


def rate(step: Callable[[], int], seconds: float) -> float:
    """Steps per second of ``step`` (which returns the steps it made), run for ``seconds``."""
    step()  # warm up
    done, t0 = 0, time.perf_counter()
    while True:
        done += step()
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return done / elapsed


def batch_rate(game: Any, envs: int, threads: int, seconds: float, **options: Any) -> float:
    batch = _kassen.Batch(game, envs, 1, threads=threads, **options)
    batch.reset()
    rng = np.random.default_rng(0)
    mask = batch.mask

    def step() -> int:
        batch.step(sample_legal(mask, rng))
        return envs

    return rate(step, seconds)


def vector_env_rate(game: Any, envs: int, threads: int, seconds: float) -> float:
    env = KassenVectorEnv(game, num_envs=envs, threads=threads, opponent="random", seed=1)
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    state = {"mask": info["action_mask"]}

    def step() -> int:
        _, _, _, _, info = env.step(sample_legal(state["mask"], rng))
        state["mask"] = info["action_mask"]
        return envs

    return rate(step, seconds)


def single_rate(game: Any, seconds: float) -> float:
    rng = np.random.default_rng(0)
    obs = np.zeros(game.observation_shape(), dtype=np.float32)
    box = {"s": game.new_initial_state(0), "seed": 0}

    def step() -> int:
        s = box["s"]
        for _ in range(100):
            if s.is_terminal():
                box["seed"] += 1
                s = box["s"] = game.new_initial_state(box["seed"])
            s.observation_tensor(s.current_player(), out=obs)
            legal = np.flatnonzero(s.legal_actions_mask())
            s.apply_action(int(legal[int(rng.random() * len(legal))]))
        return 100

    return rate(step, seconds)


def main(argv: List[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", nargs="?")
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    args = p.parse_args(argv)

    rows: List[Dict[str, Any]] = []
    print(f"kassen {kassen.__version__} ({'DEBUG' if _kassen._debug_build else 'release'} build), "
          f"{args.envs} envs, {args.threads} threads, {args.seconds:.1f} s per row")
    print(f"{'game':<24}{'players':>8}{'batch':>14}{'single':>12}{'ratio':>8}"
          f"{'vs bot':>14}{'vector env':>14}{'ratio':>8}")
    for gid in sorted(kassen.games()):
        config = {k: v for k, v in kassen.covered_configs(gid)[0].items() if k != "explicit_chance"}
        game = kassen.load_game(gid, config)
        batch = batch_rate(game, args.envs, args.threads, args.seconds)
        single = single_rate(game, args.seconds)
        vs_bot = batch_rate(game, args.envs, args.threads, args.seconds, opponent="random")
        vector = vector_env_rate(game, args.envs, args.threads, args.seconds)
        row = {
            "game": gid, "config": config, "players": game.num_players(),
            "batch_env_steps_per_sec": batch, "single_env_steps_per_sec": single,
            "batch_over_single": batch / single,
            "batch_vs_bot_steps_per_sec": vs_bot, "vector_env_steps_per_sec": vector,
            "batch_over_vector_env": vs_bot / vector,
        }
        rows.append(row)
        print(f"{gid:<24}{game.num_players():>8}{batch:>14,.0f}{single:>12,.0f}{batch / single:>8.1f}"
              f"{vs_bot:>14,.0f}{vector:>14,.0f}{vs_bot / vector:>8.2f}")
    result = {
        "kassen_version": kassen.__version__, "debug_build": bool(_kassen._debug_build),
        "python": platform.python_version(), "cpus": os.cpu_count(), "envs": args.envs,
        "threads": args.threads, "seconds_per_row": args.seconds, "rows": rows,
    }
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Benchmark of experience generation from Python: the native batch, the Gymnasium vector env
and the single-state loop, side by side in one run, one row per goal of issue 10.

    python python/bench/bench_rl.py [OUT.json] [--seconds S] [--repeats R] [--envs N] [--threads T]

Every row writes the observation (float32) and the legal mask of every step and samples a
uniformly random legal action per env in numpy, as an RL data loader would; the batch rows
sample from the batch's legal-id lists (``sample_legal_ids``: O(num_envs)), the single-state
row from ``legal_actions_mask`` (the only legal output of a state that numpy can use):

- ``batch``: ``kassen._kassen.Batch`` in multi-agent mode (every decision of every seat is an
  env step), ``--envs`` games, ``--threads`` worker threads (default: every core), and the
  same at 1 thread (``batch_1_thread``) for the thread-scaling ratio;
- ``batch_uint8``: the same batch with uint8 observations (``obs_dtype="uint8"``, a quarter
  of the bytes to write);
- ``single``: one ``State`` stepped in a Python loop (``observation_tensor(out=...)``,
  ``legal_actions_mask``, the same numpy sampling), a new game when one ends;
- ``batch_vs_bot`` and ``vector_env``: the learner's seat against the random bot played inside
  Rust, through the raw batch and through ``kassen.envs.KassenVectorEnv`` (learner steps/s;
  the vector env as shipped, ``copy=True``, and with ``copy=False``).

One configuration per registered game (its first covered config, Samurai with 2 players).
Every rate but the single-state one is the best of ``--repeats`` runs of ``--seconds`` each,
taken in rounds (every row once per round, so that the rows compared in a ratio see the same
machine); every run's rate is in the JSON (``runs``). On a shared virtual machine other
tenants only ever slow a run down, so the best run is the closest to what the code does. The
load average before and after each game is recorded. Meant for a RELEASE wheel.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from typing import Any, Callable, Dict, List, Optional

import numpy as np

import kassen
from kassen import _kassen
from kassen.envs import KassenVectorEnv
from kassen.envs.common import sample_legal_ids


def load_average() -> Optional[List[float]]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


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
    mask, counts, ids = batch.mask, batch.legal_count, batch.legal_ids

    def step() -> int:
        batch.step(sample_legal_ids(counts, ids, rng, mask))
        return envs

    return rate(step, seconds)


def vector_env_rate(game: Any, envs: int, threads: int, seconds: float, copy: bool) -> float:
    env = KassenVectorEnv(game, num_envs=envs, threads=threads, opponent="random", seed=1, copy=copy)
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    state = {"mask": info["action_mask"]}

    def step() -> int:
        counts, ids = env.legal_actions()
        _, _, _, _, info = env.step(sample_legal_ids(counts, ids, rng, state["mask"]))
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
    p.add_argument("--seconds", type=float, default=1.0, help="seconds per run (default 1)")
    p.add_argument("--repeats", type=int, default=3, help="runs per rate, the best reported (default 3)")
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    p.add_argument("--games", help="comma-separated game ids (default: every registered game)")
    args = p.parse_args(argv)

    rows: List[Dict[str, Any]] = []
    print(f"kassen {kassen.__version__} ({'DEBUG' if _kassen._debug_build else 'release'} build), "
          f"{args.envs} envs, {args.threads} threads, best of {args.repeats} runs of {args.seconds:.1f} s per rate, load {load_average()}")
    print(f"{'game':<24}{'batch':>12}{'1 thread':>12}{'x thr':>7}{'uint8':>12}{'single':>10}{'x single':>9}"
          f"{'vs bot':>12}{'vector env':>12}{'no copy':>12}{'x vec':>7}  load")
    games = args.games.split(",") if args.games else sorted(kassen.games())
    for gid in games:
        config = {k: v for k, v in kassen.covered_configs(gid)[0].items() if k != "explicit_chance"}
        game = kassen.load_game(gid, config)
        load_before = load_average()
        measures: Dict[str, Callable[[], float]] = {
            "batch": lambda: batch_rate(game, args.envs, args.threads, args.seconds),
            "batch_1_thread": lambda: batch_rate(game, args.envs, 1, args.seconds),
            "batch_uint8": lambda: batch_rate(game, args.envs, args.threads, args.seconds, obs_dtype="uint8"),
            "batch_vs_bot": lambda: batch_rate(game, args.envs, args.threads, args.seconds, opponent="random"),
            "vector_env": lambda: vector_env_rate(game, args.envs, args.threads, args.seconds, copy=True),
            "vector_env_no_copy": lambda: vector_env_rate(game, args.envs, args.threads, args.seconds, copy=False),
        }
        runs: Dict[str, List[float]] = {name: [] for name in measures}
        for _ in range(max(1, args.repeats)):
            for name, measure in measures.items():
                runs[name].append(measure())
        best = {name: max(rates) for name, rates in runs.items()}
        batch, batch_1, batch_u8 = best["batch"], best["batch_1_thread"], best["batch_uint8"]
        vs_bot, vector, vector_views = best["batch_vs_bot"], best["vector_env"], best["vector_env_no_copy"]
        single = single_rate(game, args.seconds * max(1, args.repeats))
        row = {
            "game": gid, "config": config, "players": game.num_players(),
            "batch_env_steps_per_sec": batch, "batch_1_thread_env_steps_per_sec": batch_1,
            "batch_thread_ratio": batch / batch_1, "batch_uint8_env_steps_per_sec": batch_u8,
            "single_env_steps_per_sec": single, "batch_over_single": batch / single,
            "batch_vs_bot_steps_per_sec": vs_bot, "vector_env_steps_per_sec": vector,
            "vector_env_no_copy_steps_per_sec": vector_views,
            "batch_over_vector_env": vs_bot / vector, "batch_over_vector_env_no_copy": vs_bot / vector_views,
            "runs": runs,
            "load_average": {"before": load_before, "after": load_average()},
        }
        rows.append(row)
        print(f"{gid:<24}{batch:>12,.0f}{batch_1:>12,.0f}{batch / batch_1:>7.2f}{batch_u8:>12,.0f}{single:>10,.0f}{batch / single:>9.1f}"
              f"{vs_bot:>12,.0f}{vector:>12,.0f}{vector_views:>12,.0f}{vs_bot / vector:>7.2f}  {load_average()}")
    result = {
        "kassen_version": kassen.__version__, "debug_build": bool(_kassen._debug_build),
        "python": platform.python_version(), "cpus": os.cpu_count(), "envs": args.envs,
        "threads": args.threads, "seconds_per_run": args.seconds, "repeats": args.repeats, "best_of_runs": True,
        "sampler": "legal_ids", "rows": rows,
    }
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

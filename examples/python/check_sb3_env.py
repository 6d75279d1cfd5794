#!/usr/bin/env python3
"""Stable-Baselines3's check_env on kassen's single-agent env, as shipped, for every registered
game and config; any warning fails. SB3 imports torch, so this runs in `make train-example`'s
environment, not in `make test`."""

from __future__ import annotations

import warnings

from stable_baselines3.common.env_checker import check_env

import kassen
from kassen.envs import KassenEnv


def main() -> int:
    checked = 0
    for gid in sorted(kassen.games()):
        for config in kassen.covered_configs(gid):
            if config.get("explicit_chance"):
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                check_env(KassenEnv(gid, config, max_episode_steps=300), warn=True)
            checked += 1
            print(f"SB3 check_env: {gid} {config}: ok")
    print(f"SB3 check_env passed on {checked} configs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

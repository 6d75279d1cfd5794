"""The data path of examples/python/train_maskable_ppo.py (vector env, masks, rewards, episode
bookkeeping) with a random masked policy in place of the model: no torch. The SB3 VecEnv
adapter it uses is kassen.envs.sb3 (test_sb3.py)."""

from __future__ import annotations

import importlib.util
import sys

import numpy as np
import pytest

from conftest import REPO

pytest.importorskip("gymnasium")


@pytest.fixture(scope="module")
def example():
    path = REPO / "examples" / "python" / "train_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert "torch" not in sys.modules, "the data path must not import torch"
    return module


def test_evaluate_random_policy(example):
    env = example.make_env(num_envs=8, seed=3)
    result = example.evaluate(env, example.random_masked_policy(0), games=40)
    assert result["games"] == 40 and 0 <= result["wins"] <= 40
    assert result["mean_length"] > 1 and result["steps"] >= 40
    # A fixed seed gives the same games.
    again = example.evaluate(example.make_env(num_envs=8, seed=3), example.random_masked_policy(0), games=40)
    assert again == result

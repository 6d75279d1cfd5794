"""kassen.envs.sb3 (Stable-Baselines3's VecEnv over the vector env) and the single-agent env as
SB3's make_vec_env builds it. SB3 needs torch, which the test venv does not have: the adapter's
VecEnv contract is checked directly; the tests that need SB3 itself run only where it imports."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium as gym  # noqa: E402

import kassen  # noqa: E402,F401  (registers the ids)
from kassen.envs import KassenVectorEnv  # noqa: E402
from kassen.envs.common import sample_legal_actions  # noqa: E402
from kassen.envs.sb3 import Sb3VecEnv  # noqa: E402


def test_importing_the_adapter_imports_neither_sb3_nor_torch():
    code = textwrap.dedent("""
        import sys
        import kassen.envs.sb3
        assert "stable_baselines3" not in sys.modules and "torch" not in sys.modules, sorted(sys.modules)
    """)
    subprocess.run([sys.executable, "-c", code], check=True)


def test_vec_env_contract_masks_and_episodes():
    vec = Sb3VecEnv(KassenVectorEnv("samurai", {"players": 2}, 4, seed=1, max_episode_steps=40))
    assert vec.num_envs == 4 and vec.render_mode is None
    assert vec.seed(5) == [5] * 4
    obs = vec.reset()
    assert obs.shape == (4, *vec.observation_space.shape) and obs.dtype == np.uint8
    rng = np.random.default_rng(2)
    episodes = truncations = 0
    for _ in range(300):
        masks = np.stack(vec.env_method("action_masks"))
        assert masks.dtype == bool and masks.shape == (4, vec.action_space.n) and masks.any(axis=1).all()
        assert (masks == vec.action_masks()).all()
        assert len(vec.env_method("action_masks", indices=[1, 3])) == 2
        obs, rewards, dones, infos = vec.step(sample_legal_actions(masks, rng))
        assert obs.shape == (4, *vec.observation_space.shape)
        assert rewards.dtype == np.float32 and rewards.shape == (4,)
        assert dones.dtype == bool and dones.shape == (4,) and len(infos) == 4
        for i in np.flatnonzero(dones):
            assert infos[i]["episode"]["l"] > 0 and isinstance(infos[i]["episode"]["r"], float)
            truncations += infos[i]["TimeLimit.truncated"]
            episodes += 1
        assert all(infos[i] == {} for i in np.flatnonzero(~dones))
    assert episodes > 0 and truncations > 0
    assert vec.get_attr("agent") == [0] * 4 and vec.env_is_wrapped(object) == [False] * 4
    with pytest.raises(AttributeError):
        vec.env_method("render")
    with pytest.raises(RuntimeError):
        vec.step_wait()  # no actions given
    vec.close()


def test_seed_makes_reset_reproducible():
    def run(seed):
        vec = Sb3VecEnv(KassenVectorEnv("samurai", {"players": 2}, 3, seed=0))
        vec.seed(seed)
        obs = [vec.reset()]
        rng = np.random.default_rng(0)
        for _ in range(20):
            obs.append(vec.step(sample_legal_actions(vec.action_masks(), rng))[0])
        return np.stack(obs)

    assert np.array_equal(run(9), run(9))
    assert not np.array_equal(run(9), run(10))


def test_make_with_rgb_array_render_mode_as_sb3_does():
    # SB3's make_vec_env calls gym.make(env_id, render_mode="rgb_array") for every env.
    env = gym.make("kassen/samurai-p2-v0", render_mode="rgb_array")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.unwrapped.render_mode == "rgb_array"
    with pytest.raises(ValueError, match="render_mode"), pytest.warns(UserWarning):
        gym.make("kassen/samurai-p2-v0", render_mode="no_such_mode")


def test_rgb_array_without_the_rasterizer_is_accepted_and_render_says_what_to_install():
    code = textwrap.dedent("""
        import sys, warnings
        sys.modules["resvg_py"] = None  # as if resvg-py were not installed
        import gymnasium as gym
        import kassen
        from kassen.envs import KassenEnv
        assert KassenEnv.metadata["render_modes"] == ["ansi"], KassenEnv.metadata
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gymnasium: rgb_array is not among render_modes
            env = gym.make("kassen/samurai-p2-v0", render_mode="rgb_array")
        env.reset(seed=0)
        try:
            env.unwrapped.render()
        except RuntimeError as e:
            assert "kassen[render]" in str(e), e
        else:
            raise AssertionError("render() drew without a rasterizer")
    """)
    subprocess.run([sys.executable, "-c", code], check=True)


def test_rgb_array_frame():
    pytest.importorskip("resvg_py")
    pytest.importorskip("PIL")
    from kassen.envs import KassenEnv

    assert "rgb_array" in KassenEnv.metadata["render_modes"]
    env = gym.make("kassen/samurai-p2-v0", render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert frame.shape[0] > 50 and frame.shape[1] > 50 and len(np.unique(frame.reshape(-1, 3), axis=0)) > 2


def test_sb3_make_vec_env_and_vec_env():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import VecEnv

    from kassen.envs.sb3 import make_sb3_vec_env

    venv = make_vec_env("kassen/samurai-p2-v0", n_envs=2, seed=0)
    assert venv.reset().shape[0] == 2
    native = make_sb3_vec_env("samurai", {"players": 2}, num_envs=2, seed=0)
    assert isinstance(native, VecEnv) and native.reset().shape[0] == 2

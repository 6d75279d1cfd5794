"""The compact observation: `State.compact_observation`, its layout, the batch's and the
environments' default observation with spaces that describe it, and the float tensor kept
behind an option."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import kassen
from conftest import CONFIGS, config_id
from kassen._kassen import Batch, episode_seed
from kassen.envs import KassenAECEnv, KassenEnv
from kassen.envs.common import compact_bounds, compact_fields

#: The size goals: 8 KB per step for 関ヶ原大作戦, 4 KB for every other game.
GOALS = {"sekigahara_daisakusen": 8192}


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_compact_observation_follows_its_layout(config):
    game = kassen.load_game(*config)
    n = game.compact_len()
    assert 0 < n <= GOALS.get(game.id, 4096)
    layout = game.compact_layout()
    assert layout == game.info()["compact_layout"]
    assert layout[0]["offset"] == 0 and layout[-1]["offset"] + layout[-1]["bytes"] == n
    s = game.new_initial_state(3)
    low, high = compact_bounds(game)
    rng = np.random.default_rng(1)
    for _ in range(40):
        if s.is_terminal():
            break
        for p in range(-1, game.num_players()):
            obs = s.compact_observation(p)
            assert obs.dtype == np.uint8 and obs.shape == (n,)
            assert np.all(obs >= low) and np.all(obs <= high)
            fields = compact_fields(game, obs)
            assert list(fields) == [f["name"] for f in layout]
            for f in layout:
                assert fields[f["name"]].shape == tuple(f["shape"])
                if f["dtype"] != "record":
                    assert fields[f["name"]].min() >= f["low"] and fields[f["name"]].max() <= f["high"]
        legal = s.legal_actions()
        s.apply_action(legal[int(rng.integers(len(legal)))])


def test_compact_fields_of_a_batch_keep_the_leading_axis():
    game = kassen.load_game("samurai")
    b = Batch(game, 3, seed=4)
    b.reset()
    fields = compact_fields(game, b.obs)
    one = compact_fields(game, b.obs[1])
    for name, arr in fields.items():
        assert arr.shape[0] == 3 and np.array_equal(arr[1], one[name])


def test_batch_observes_compact_by_default_and_floats_on_request():
    game = kassen.load_game("sekigahara")
    b = Batch(game, 2, seed=8)
    b.reset()
    assert b.obs_dtype == "compact" and b.obs.shape == (2, game.compact_len()) and b.obs.dtype == np.uint8
    s = game.new_initial_state(episode_seed(8, 1, 0))
    assert np.array_equal(b.obs[1], s.compact_observation(s.current_player()))
    f = Batch(game, 2, seed=8, obs_dtype="float32")
    f.reset()
    assert f.obs.shape == (2, *game.observation_shape())
    assert np.array_equal(f.obs[1], s.observation_tensor(s.current_player()))


def test_env_spaces_describe_the_compact_observation():
    env = KassenEnv("three_kingdoms_redux")
    obs, _ = env.reset(seed=3)
    space = env.observation_space
    assert space.dtype == np.uint8 and space.shape == (env.game.compact_len(),)
    assert space.contains(obs)
    tensor = KassenEnv("three_kingdoms_redux", observation="tensor")
    t, _ = tensor.reset(seed=3)
    assert t.dtype == np.float32 and tensor.observation_space.contains(t)
    with pytest.raises(ValueError, match="observation"):
        KassenEnv("samurai", observation="pixels")
    aec = KassenAECEnv("samurai")
    aec.reset(seed=1)
    o = aec.observe(aec.agent_selection)["observation"]
    assert aec.observation_space(aec.agent_selection)["observation"].contains(o)
    assert aec.state_space.contains(aec.state())


def test_numpy_methods_without_numpy_raise_an_import_error():
    # numpy is optional for the wheel: blocked here, a method that returns arrays must say
    # that numpy is missing (ImportError), never panic (PanicException).
    code = textwrap.dedent("""
        import sys
        import kassen
        s = kassen.load_game("samurai").new_initial_state(1)
        sys.modules["numpy"] = None
        for call in (lambda: s.observation_tensor(0), lambda: s.compact_observation(0),
                     lambda: s.legal_actions_mask(), lambda: kassen._kassen.Batch(s.game(), 2)):
            try:
                call()
            except ImportError as e:
                assert "numpy" in str(e), e
            else:
                raise AssertionError("no ImportError")
        print("ok")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr

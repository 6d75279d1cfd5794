"""Action masks on every surface (one documented dtype per surface, sampling that says what is
wrong with a row without a legal action) and the lazy Gymnasium registration (``import kassen``
does not import Gymnasium; the ids appear whichever is imported first)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import kassen
from kassen.envs.common import MASK_DTYPE, sample_legal_actions


# --- mask dtypes: bool from State, uint8 from Batch, int8 from the envs (python/README.md) ---

def test_mask_dtype_of_each_surface():
    game = kassen.load_game("samurai", {"players": 2})
    state = game.new_initial_state(1)
    assert state.legal_actions_mask().dtype == np.bool_  # numpy's boolean index
    batch = kassen.Batch(game, 2, 1)
    batch.reset()
    assert batch.mask.dtype == np.uint8  # the native batch's own bytes, no copy
    assert MASK_DTYPE == np.int8  # sb3-contrib's MaskablePPO and PettingZoo's convention
    # All are one byte of 0/1: a view converts for free, and sampling takes any of them.
    rng = np.random.default_rng(0)
    for masks in (batch.mask, batch.mask.view(np.int8), batch.mask.view(bool)):
        picks = sample_legal_actions(masks, rng)
        assert all(masks[i, a] for i, a in enumerate(picks))
    row = state.legal_actions_mask()[None, :]
    assert state.is_legal(int(sample_legal_actions(row, rng)[0]))


def test_sampling_a_row_without_legal_actions_is_a_clear_error():
    masks = np.zeros((4, 20), np.int8)
    masks[0, 3] = masks[1, 5] = masks[1, 7] = masks[3, 19] = 1
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match=r"1 of 4 mask rows have no legal action \(rows 2\).*empty="):
        sample_legal_actions(masks, rng)
    picks = sample_legal_actions(masks, rng, empty=0)
    assert picks[0] == 3 and picks[1] in (5, 7) and picks[2] == 0 and picks[3] == 19
    # An empty row in the middle never borrows another row's action.
    for _ in range(50):
        picks = sample_legal_actions(masks, rng, empty=-1)
        assert picks[2] == -1 and picks[3] == 19
    with pytest.raises(ValueError, match="1-byte"):
        sample_legal_actions(masks.astype(np.int64), rng)


def test_sync_vector_env_masks_at_episode_end():
    gym = pytest.importorskip("gymnasium")
    envs = gym.make_vec("kassen/samurai-p2-v0", num_envs=3, vectorization_mode="sync")
    assert isinstance(envs, gym.vector.SyncVectorEnv)
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    saw_empty = False
    for _ in range(2000):
        masks = info["action_mask"]
        assert masks.dtype == MASK_DTYPE
        ended = ~masks.any(axis=1)
        if ended.any():
            saw_empty = True
            with pytest.raises(ValueError, match="no legal action"):
                sample_legal_actions(masks, rng)
        actions = sample_legal_actions(masks, rng, empty=0)  # next-step autoreset ignores those
        obs, reward, terminated, truncated, info = envs.step(actions)
        if saw_empty:
            break
    assert saw_empty
    envs.close()


# --- lazy registration ---

def _run(code: str) -> None:
    subprocess.run([sys.executable, "-c", textwrap.dedent(code)], check=True)


def test_import_kassen_does_not_import_gymnasium():
    pytest.importorskip("gymnasium")
    _run("""
        import sys
        import kassen
        assert "gymnasium" not in sys.modules, "import kassen imported gymnasium"
    """)


@pytest.mark.parametrize("first", ["kassen", "gymnasium"])
def test_ids_registered_in_either_import_order(first):
    pytest.importorskip("gymnasium")
    second = "gymnasium" if first == "kassen" else "kassen"
    _run(f"""
        import {first}
        import {second}
        import gymnasium
        from kassen.envs.registration import env_ids
        ids = env_ids()
        assert ids and all(i in gymnasium.registry for i in ids), "ids missing"
        env = gymnasium.make("kassen/samurai-p2-v0")
        env.reset(seed=0)
    """)

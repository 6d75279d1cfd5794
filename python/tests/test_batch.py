"""kassen._kassen.Batch: one call steps N states with the GIL released, into numpy views."""

import threading
import time

import numpy as np
import pytest

import kassen
from kassen._kassen import Batch, episode_seed
from kassen.envs.common import sample_legal_ids
from kassen.exceptions import (
    ActionOutOfRangeError,
    ConfigOutOfRangeError,
    IllegalActionError,
    InvalidArgumentError,
    KassenError,
)


def configs():
    for gid in kassen.games():
        for cfg in kassen.covered_configs(gid):
            yield pytest.param(gid, cfg, id=f"{gid}-{cfg}")


def random_actions(mask, rng):
    # One uniformly random legal action per row, sampled from the masks in numpy.
    noise = rng.random(mask.shape) * mask
    return noise.argmax(axis=1)


@pytest.mark.parametrize("gid,cfg", list(configs()))
def test_batch_matches_single_states(gid, cfg):
    game = kassen.load_game(gid, cfg)
    n = 3
    b = Batch(game, n, seed=12)
    b.reset()
    singles = [game.new_initial_state(episode_seed(12, i, 0)) for i in range(n)]
    episodes = [0] * n
    rng = np.random.default_rng(0)
    for _ in range(60):
        for i, s in enumerate(singles):
            p = s.current_player()
            assert b.current_player[i] == p
            assert np.array_equal(b.mask[i].astype(bool), s.legal_actions_mask())
            seat = p if p >= 0 else kassen.SPECTATOR
            assert np.array_equal(b.obs[i], s.compact_observation(seat))
            legal = s.legal_actions()
            assert b.legal_count[i] == len(legal)
            assert list(b.legal_ids[i, : len(legal)]) == legal[: b.max_legal_actions]
        actions = random_actions(b.mask, rng)
        b.step(actions)
        for i in range(n):
            singles[i].apply_action(int(actions[i]))
            done = singles[i].is_terminal()
            assert b.terminated[i] == done
            if done:
                assert list(b.final_returns[i]) == pytest.approx(singles[i].returns())
                episodes[i] += 1
                singles[i] = game.new_initial_state(episode_seed(12, i, episodes[i]))


def run(game, steps, **kw):
    b = Batch(game, 6, seed=3, **kw)
    b.reset()
    rng = np.random.default_rng(1)
    out = []
    for _ in range(steps):
        b.step(random_actions(b.mask, rng))
        out.append((b.obs.copy(), b.mask.copy(), b.rewards.copy(), b.terminated.copy(), b.episode_lengths.copy()))
    return out


@pytest.mark.parametrize("gid", list(kassen.games()))
def test_same_trajectories_whatever_the_thread_count(gid):
    game = kassen.load_game(gid)
    one = run(game, 80, max_episode_steps=30)
    two = run(game, 80, max_episode_steps=30, threads=2)
    for a, b in zip(one, two):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)


def test_arrays_are_views_of_the_batch_buffers():
    b = Batch(kassen.load_game("samurai"), 4, seed=1)
    obs, mask = b.obs, b.mask
    addr = obs.__array_interface__["data"][0]
    b.reset()
    b.step(random_actions(mask, np.random.default_rng(0)))
    assert b.obs is not None and b.obs.__array_interface__["data"][0] == addr
    assert np.shares_memory(b.obs, obs) and np.shares_memory(b.mask, mask)
    assert obs.dtype == np.uint8 and mask.dtype == np.uint8 and b.obs_dtype == "compact"
    assert obs.shape == (4, kassen.load_game("samurai").compact_len())
    # The arrays handed out earlier see the new step: they are the buffers themselves.
    before = obs.copy()
    for k in range(5):
        b.step(random_actions(mask, np.random.default_rng(k)))
    assert not np.array_equal(before, obs)


def test_uint8_observations_quantize_the_floats():
    game = kassen.load_game("sekigahara_daisakusen")
    f = Batch(game, 2, seed=5, obs_dtype="float32")
    q = Batch(game, 2, seed=5, obs_dtype="uint8")
    f.reset()
    q.reset()
    rng = np.random.default_rng(2)
    for _ in range(20):
        assert q.obs.dtype == np.uint8
        assert np.array_equal(q.obs, np.round(np.clip(f.obs, 0, 1) * 255).astype(np.uint8))
        a = random_actions(f.mask, rng)
        f.step(a)
        q.step(a)


def test_single_agent_batch_plays_the_other_seats():
    game = kassen.load_game("samurai", players=3)
    b = Batch(game, 8, seed=4, opponent="random", learner_seat=1)
    b.reset()
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(400):
        assert (b.current_player == 1).all()
        b.step(random_actions(b.mask, rng))
        ended += int(b.terminated.sum())
        done = b.terminated.astype(bool)
        assert np.allclose(b.rewards[done], b.final_returns[done])
    assert ended > 0


def test_monte_carlo_opponent():
    # The bot plays the other seats inside step; the learner is always the one asked, and
    # the episodes are the same at any thread count.
    game = kassen.load_game("samurai", players=2)
    runs = []
    for threads in (1, 2):
        b = Batch(game, 3, seed=2, opponent="monte_carlo:2", learner_seat=0, threads=threads,
                  max_episode_steps=15)
        b.reset()
        rng = np.random.default_rng(4)
        seen = []
        for _ in range(20):
            assert (b.current_player == 0).all()
            b.step(random_actions(b.mask, rng))
            seen.append((b.obs.copy(), b.rewards.copy(), b.truncated.copy()))
        assert any(t.any() for _, _, t in seen)
        runs.append(seen)
    assert all(np.array_equal(x, y) for p, q in zip(*runs) for x, y in zip(p, q))
    with pytest.raises(KassenError, match="monte_carlo"):
        Batch(game, 2, opponent="monte_carlo:0")


def test_step_releases_the_gil():
    game = kassen.load_game("sekigahara")
    b = Batch(game, 256, seed=1)
    b.reset()
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0)

    actions = random_actions(b.mask, np.random.default_rng(0))
    t = threading.Thread(target=count)
    t.start()
    try:
        # Stepping without a pause: only a released GIL lets the other thread count.
        start = len(ticks)
        deadline = time.monotonic() + 10
        while len(ticks) - start < 50 and time.monotonic() < deadline:
            b.step(actions)
            actions = random_actions(b.mask, np.random.default_rng(len(ticks)))
    finally:
        stop.set()
        t.join()
    assert len(ticks) - start >= 50


def test_errors_leave_the_batch_unchanged():
    game = kassen.load_game("samurai")
    b = Batch(game, 3, seed=9)
    b.reset()
    good = random_actions(b.mask, np.random.default_rng(0))
    snapshot = (b.obs.copy(), b.mask.copy())
    bad = good.copy()
    bad[1] = int(np.flatnonzero(b.mask[1] == 0)[0])
    with pytest.raises(IllegalActionError, match="env 1"):
        b.step(bad)
    bad[1] = -1
    with pytest.raises(ActionOutOfRangeError):
        b.step(bad)
    bad[1] = game.num_distinct_actions()
    with pytest.raises(ActionOutOfRangeError):
        b.step(bad)
    with pytest.raises(InvalidArgumentError):
        b.step(good[:2])
    with pytest.raises(KassenError):
        b.step(np.array([0.5, 1.5, 2.5]))
    assert np.array_equal(b.obs, snapshot[0]) and np.array_equal(b.mask, snapshot[1])
    b.step(good)
    fresh = Batch(game, 3, seed=9)
    fresh.reset()
    fresh.step(list(good))
    assert np.array_equal(fresh.obs, b.obs)


@pytest.mark.parametrize(
    "kw",
    [
        {"num_envs": 0},
        {"threads": 0},
        {"obs_seat": 7},
        {"opponent": "nobody"},
        {"opponent": "random", "learner_seat": 9},
        {"max_episode_steps": 0},
        {"obs_dtype": "float64"},
    ],
)
def test_bad_options_raise(kw):
    args = {"num_envs": 2, **kw}
    with pytest.raises(KassenError) as e:
        Batch(kassen.load_game("samurai"), **args)
    assert isinstance(e.value, ValueError)


def test_legal_id_lists_and_read_only_masks():
    game = kassen.load_game("samurai", {"players": 2})
    b = Batch(game, 8, seed=4, threads=2)
    b.reset()
    assert b.legal_ids.shape == (8, b.max_legal_actions) and b.legal_ids.dtype == np.uint32
    assert b.max_legal_actions == game.info()["max_legal_actions"]
    for arr in (b.mask, b.legal_count, b.legal_ids):
        assert not arr.flags.writeable
        with pytest.raises(ValueError):
            arr[0] = 0
    rng = np.random.default_rng(1)
    seen = set()
    for _ in range(50):
        actions = sample_legal_ids(b.legal_count, b.legal_ids, rng, b.mask)
        assert all(b.mask[i, a] == 1 for i, a in enumerate(actions))
        seen.add(int(actions[0]))
        b.step(actions)
        ids = b.legal_ids
        for i in range(8):
            assert np.array_equal(np.flatnonzero(b.mask[i]), ids[i, : b.legal_count[i]])
    assert len(seen) > 10


def test_sample_legal_ids_falls_back_to_the_mask_for_a_cut_list():
    masks = np.zeros((2, 6), dtype=np.uint8)
    masks[0, [1, 4]] = 1
    masks[1, [0, 2, 5]] = 1
    ids = np.array([[1, 4], [0, 2]], dtype=np.uint32)  # row 1 lists only 2 of its 3
    counts = np.array([2, 3], dtype=np.uint32)
    rng = np.random.default_rng(0)
    picks = np.array([sample_legal_ids(counts, ids, rng, masks) for _ in range(300)])
    assert set(picks[:, 0]) == {1, 4} and set(picks[:, 1]) == {0, 2, 5}
    with pytest.raises(ValueError):
        sample_legal_ids(counts, ids, rng)


@pytest.mark.parametrize("dtype", ["compact", "float32", "uint8"])
def test_obs_out_receives_the_observations(dtype):
    # The same batch stepped twice, once into its own obs and once into fresh arrays: the
    # fresh arrays hold what obs would, obs keeps the step before, and every array handed
    # out stays as it was (what the vector env's copy=True relies on).
    game = kassen.load_game("samurai")
    own = Batch(game, 4, seed=3, obs_dtype=dtype)
    fresh = Batch(game, 4, seed=3, obs_dtype=dtype)
    own.reset()
    first = np.empty_like(own.obs)
    fresh.reset(obs_out=first)
    assert np.array_equal(first, own.obs) and not fresh.obs.any()
    rng = np.random.default_rng(6)
    kept = [(first, first.copy())]
    for _ in range(30):
        a = random_actions(own.mask, rng)
        own.step(a)
        out = np.empty_like(own.obs)
        fresh.step(a, obs_out=out)
        assert np.array_equal(out, own.obs) and np.array_equal(fresh.mask, own.mask)
        kept.append((out, out.copy()))
    assert all(np.array_equal(a, b) for a, b in kept)
    assert not fresh.obs.any()
    a = random_actions(own.mask, rng)
    other = np.uint8 if dtype == "float32" else np.float32
    with pytest.raises(KassenError, match="obs_out"):
        fresh.step(a, obs_out=np.empty(own.obs.shape, other))
    with pytest.raises(InvalidArgumentError, match="shape"):
        fresh.step(a, obs_out=np.empty((3, *own.obs.shape[1:]), own.obs.dtype))
    with pytest.raises(InvalidArgumentError, match="contiguous"):
        fresh.step(a, obs_out=np.empty((own.obs.shape[1], 4), own.obs.dtype).T)
    # Rejected calls changed nothing: the next good step still matches.
    own.step(a)
    out = np.empty_like(own.obs)
    fresh.step(a, obs_out=out)
    assert np.array_equal(out, own.obs)


def test_mask_out_is_written_in_full():
    # A mask_out array ends up equal to the batch's own mask whatever it held before, also
    # when it is the very array of the previous call refilled with garbage (the batch clears
    # its own mask entry by entry; a caller's array it must write in full).
    game = kassen.load_game("samurai")
    own = Batch(game, 4, seed=5)
    fresh = Batch(game, 4, seed=5)
    own.reset()
    first = np.full(own.mask.shape, 7, np.uint8)
    fresh.reset(mask_out=first)
    assert np.array_equal(first, own.mask) and not fresh.mask.any()
    rng = np.random.default_rng(8)
    same = np.empty(own.mask.shape, np.uint8)
    for k in range(40):
        a = random_actions(own.mask, rng)
        own.step(a)
        out = np.full(own.mask.shape, 7, np.uint8) if k % 4 == 0 else same
        if out is same:
            same.fill(9)
        fresh.step(a, mask_out=out)
        assert np.array_equal(out, own.mask)
        assert np.array_equal(fresh.legal_count, own.legal_count)
    a = random_actions(own.mask, rng)
    with pytest.raises(KassenError, match="mask_out"):
        fresh.step(a, mask_out=np.empty(own.mask.shape, np.int8))
    with pytest.raises(InvalidArgumentError, match="shape"):
        fresh.step(a, mask_out=np.empty((3, own.mask.shape[1]), np.uint8))
    # Back to the batch's own mask: written in full again, then entry by entry.
    own.step(a)
    fresh.step(a)
    assert np.array_equal(fresh.mask, own.mask)
    for _ in range(5):
        a = random_actions(own.mask, rng)
        own.step(a)
        fresh.step(a)
        assert np.array_equal(fresh.mask, own.mask)


# --- hostile callers (issue 24.1 and 24.4) ---


@pytest.mark.parametrize("num_envs", [65537, 10**6, 10**7, 2**32 - 1, -1, -(2**40)])
def test_hostile_num_envs_are_a_coded_error_before_any_allocation(num_envs):
    with pytest.raises(ConfigOutOfRangeError) as e:
        Batch(kassen.load_game("samurai"), num_envs)
    assert e.value.code == 102 and "num_envs" in str(e.value)


def test_hostile_thread_counts_are_a_coded_error():
    game = kassen.load_game("samurai")
    for bad in (10**6, -1):
        with pytest.raises(ConfigOutOfRangeError) as e:
            Batch(game, 2, threads=bad)
        assert e.value.code == 102 and "threads" in str(e.value)
    b = Batch(game, 2, threads=2)
    for bad in (0, 1025, 10**6, -1):
        with pytest.raises(ConfigOutOfRangeError):
            b.threads = bad
        assert b.threads == 2


def test_a_retyped_reshaped_or_resized_batch_array_is_refused_not_written():
    # The batch writes only into memory it owns; an array object whose dtype, shape or
    # strides a caller changed is refused before every call, and numpy cannot resize the
    # memory away (once: free(): corrupted unsorted chunks). A float batch: its obs can be
    # retyped to bytes.
    b = Batch(kassen.load_game("samurai"), 4, seed=1, obs_dtype="float32")
    b.reset()
    rng = np.random.default_rng(0)
    a = random_actions(b.mask, rng)
    o = b.obs
    with pytest.raises(ValueError):
        o.resize((4 * 10**6,), refcheck=False)
    o.dtype = np.uint8
    with pytest.raises(InvalidArgumentError) as e:
        b.step(a)
    assert "obs" in str(e.value)
    o.dtype = np.float32
    b.step(a)
    r = b.rewards
    r.shape = (r.size,)
    with pytest.raises(InvalidArgumentError):
        b.step(random_actions(b.mask, rng))
    r.shape = (b.num_envs, b.num_players)
    b.step(random_actions(b.mask, rng))


def test_read_only_arrays_cannot_be_made_writable_through_their_base():
    b = Batch(kassen.load_game("samurai"), 3, seed=2)
    b.reset()
    for arr in (b.mask, b.legal_count, b.legal_ids):
        with pytest.raises(ValueError):
            arr.flags.writeable = True
        base = arr.base
        # The memory's owner is the batch's container, which exposes no buffer to write into.
        assert not isinstance(base, np.ndarray)
        with pytest.raises((TypeError, ValueError, BufferError)):
            memoryview(base)


def test_actions_may_be_a_view_of_the_batch_arrays():
    # The actions are copied out before the step overwrites the array they view.
    b = Batch(kassen.load_game("samurai"), 5, seed=3)
    b.reset()
    for _ in range(20):
        b.step(b.legal_ids[:, 0])
        assert all(b.legal_count >= 1)


def test_an_output_array_sharing_memory_with_the_batch_is_refused():
    # A float batch: its obs holds more bytes than two mask rows.
    b = Batch(kassen.load_game("samurai"), 2, seed=3, obs_dtype="float32")
    b.reset()
    a = random_actions(b.mask, np.random.default_rng(2))
    flat = b.obs.view(np.uint8).reshape(-1)
    assert flat.size >= 2 * b.num_actions
    with pytest.raises(InvalidArgumentError) as e:
        b.step(a, mask_out=flat[: 2 * b.num_actions].reshape(2, b.num_actions))
    assert "share memory" in str(e.value)
    b.step(a, mask_out=np.zeros((2, b.num_actions), np.uint8))

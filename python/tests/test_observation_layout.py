"""Every registered game declares its observation layout: named ranges that tile the flat
observation tensor in order, with bounds [0, 1] that the tensors of every observer respect and
that the environments use as their observation space."""

from __future__ import annotations

import random

import numpy as np

import kassen
from kassen import SPECTATOR
from kassen.envs.common import observation_bounds


def test_layout_is_exposed_and_tiles_the_tensor(game):
    layout = game.observation_layout()
    assert layout == game.info()["observation_layout"]
    size = int(np.prod(game.observation_shape()))
    offset = 0
    for feature in layout:
        assert set(feature) == {"name", "offset", "length", "low", "high", "description"}
        assert feature["offset"] == offset and feature["length"] > 0, feature["name"]
        assert (feature["low"], feature["high"]) == (0.0, 1.0), feature["name"]
        offset += feature["length"]
    assert offset == size
    names = [f["name"] for f in layout]
    assert len(set(names)) == len(names)


def test_env_bounds_come_from_the_layout(game):
    low, high = observation_bounds(game)
    assert low.shape == high.shape == tuple(game.observation_shape())
    assert np.all(low == 0.0) and np.all(high == 1.0)


def test_sampled_observations_lie_within_their_feature_bounds(game):
    layout = game.observation_layout()
    low, high = (np.asarray(x, dtype=np.float32).reshape(-1) for x in observation_bounds(game))
    rng = random.Random(3)
    state = game.new_initial_state(3)
    observers = [SPECTATOR, *range(game.num_players())]
    for step in range(400):
        if state.is_terminal():
            break
        if step % 7 == 0:
            for p in observers:
                t = np.asarray(state.observation_tensor(p), dtype=np.float32).reshape(-1)
                assert np.isfinite(t).all()
                bad = np.flatnonzero((t < low) | (t > high))
                assert bad.size == 0, [(f["name"], int(i)) for i in bad[:5] for f in layout if f["offset"] <= i < f["offset"] + f["length"]]
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])

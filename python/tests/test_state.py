"""Value semantics of states: equality, hashing, pickling, JSON, copies, determinism."""

from __future__ import annotations

import copy
import json
import pickle
import random
import subprocess
import sys

import numpy as np

import kassen
from kassen import State

from conftest import play


def test_equality_and_hash(game):
    a = play(game.new_initial_state(2), 1, 25)
    b = play(game.new_initial_state(2), 1, 25)
    assert a is not b and a == b and not (a != b)
    assert hash(a) == hash(b) and a.stable_hash() == b.stable_hash()
    c = play(game.new_initial_state(2), 2, 25)
    assert a != c and a.stable_hash() != c.stable_hash()
    assert a != game.new_initial_state(3)
    assert (a == "not a state") is False and a != 3
    assert len({a, b, c}) == 2


def test_pickle_round_trip(mid_state):
    for proto in range(2, pickle.HIGHEST_PROTOCOL + 1):
        s2 = pickle.loads(pickle.dumps(mid_state, protocol=proto))
        assert type(s2) is State and s2 == mid_state and hash(s2) == hash(mid_state)
        assert s2.legal_actions() == mid_state.legal_actions()
    g2 = pickle.loads(pickle.dumps(mid_state.game()))
    assert g2 == mid_state.game()


def test_copies_are_independent(mid_state):
    for c in (mid_state.clone(), copy.copy(mid_state), copy.deepcopy(mid_state)):
        assert c == mid_state
        c.apply_action(c.legal_actions()[0])
        assert c != mid_state


def test_json_round_trip(game):
    s = play(game.new_initial_state(8), 3, 40)
    text = s.to_json()
    d = json.loads(text)
    assert d["format"] == kassen.STATE_FORMAT and d["game"] == game.id
    assert d["history"] == s.history()
    for loaded in (State.from_json(text), game.state_from_json(text)):
        assert loaded == s and loaded.stable_hash() == s.stable_hash()
        assert loaded.view(-1) == s.view(-1)
        assert loaded.to_json() == text


def test_determinism_same_seed_same_everything(game):
    def run():
        s = game.new_initial_state(42)
        r = random.Random(42)
        trace = []
        while not s.is_terminal():
            p = s.current_player()
            trace.append((p, s.stable_hash(), json.dumps(s.view(p), sort_keys=True)))
            s.apply_action(r.choice(s.legal_actions()))
        return trace, s.returns(), s.history(), s.stable_hash(), s.view(-1)

    assert run() == run()


def test_different_seeds_differ(game):
    hands = {json.dumps(game.new_initial_state(seed).view(0), sort_keys=True) for seed in range(6)}
    hashes = {game.new_initial_state(seed).stable_hash() for seed in range(6)}
    assert len(hashes) == 6
    assert len(hands) >= 1


def test_stable_hash_is_stable_across_processes(mid_state):
    code = (
        "import kassen,sys; s=kassen.State.from_json(sys.stdin.read()); "
        "print(s.stable_hash(), hash(s))"
    )
    out = subprocess.run([sys.executable, "-c", code], input=mid_state.to_json(), text=True,
                         capture_output=True, check=True, env={"PYTHONHASHSEED": "123"}).stdout.split()
    assert out == [str(mid_state.stable_hash()), str(hash(mid_state))]


def test_observation_tensors_are_fresh_arrays(mid_state):
    t1 = mid_state.observation_tensor(0)
    t1[...] = -1
    t2 = mid_state.observation_tensor(0)
    assert not np.array_equal(t1, t2)


def test_hash_changes_along_a_game(game2):
    s = game2.new_initial_state(0)
    seen = {s.stable_hash()}
    play(s, 0, 20)
    assert s.stable_hash() not in seen

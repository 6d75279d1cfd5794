"""The API surface: names, types, shapes, module facts."""

from __future__ import annotations

import importlib.metadata
import random
import re
from pathlib import Path

import numpy as np
import pytest

import kassen
from kassen import CHANCE, SPECTATOR, TERMINAL, _kassen


def test_installed_not_source_tree():
    # run.sh installs the wheel; the tests must exercise it, not py_src/.
    assert "site-packages" in Path(kassen.__file__).parts or "dist-packages" in Path(kassen.__file__).parts


def test_version_matches_cargo():
    cargo = Path(__file__).resolve().parents[2] / "Cargo.toml"
    text = cargo.read_text()
    m = re.search(r'\[workspace\.package\][^\[]*?version\s*=\s*"([^"]+)"', text, re.S)
    assert m, "no workspace version in Cargo.toml"
    assert kassen.__version__ == m.group(1)
    assert importlib.metadata.version("kassen") == kassen.__version__


def test_native_classes_are_reexported():
    assert kassen.State is _kassen.State
    assert kassen.Game is _kassen.Game
    assert type(kassen.load_game("samurai").new_initial_state()) is _kassen.State


def test_constants():
    assert (CHANCE, TERMINAL, SPECTATOR) == (-1, -4, -1)
    assert kassen.STATE_FORMAT.startswith("kassen.state/")


def test_games_registry():
    g = kassen.games()
    assert isinstance(g, dict)
    assert g["samurai"] == "Samurai"
    assert g["sekigahara"] == "Sekigahara: The Unification of Japan"


def test_every_registered_game_is_tested():
    from conftest import CONFIGS

    assert {gid for gid, _ in CONFIGS} == set(kassen.games())


def test_load_game_config_forms():
    a = kassen.load_game("samurai", players=3)
    b = kassen.load_game("samurai", {"players": 3})
    assert a == b and hash(a) == hash(b)
    assert a.num_players() == 3
    assert kassen.load_game("samurai").num_players() == 2
    assert a != kassen.load_game("samurai", players=4)
    assert a != "samurai" and not (a == 3)
    # Sekigahara has two seats and no "players" key: its normalized default config holds only
    # the engine key.
    seki = kassen.load_game("sekigahara")
    assert seki == kassen.load_game("sekigahara", {}) and seki.num_players() == 2
    assert seki.info()["config"] == {"explicit_chance": False} and seki != kassen.load_game("samurai")
    assert kassen.load_game("sekigahara", explicit_chance=True).explicit_chance()


def test_game_facts(game):
    info = game.info()
    assert info["id"] == game.id and game.id in kassen.games()
    assert info["min_players"] <= game.num_players() <= info["max_players"]
    assert info["num_players"] == game.num_players()
    assert info["num_distinct_actions"] == game.num_distinct_actions() > 0
    assert tuple(info["observation_shape"]) == game.observation_shape()
    assert info["max_game_length"] == game.max_game_length()
    assert info["max_chance_outcomes"] == game.max_chance_outcomes()
    assert game.explicit_chance() is False
    assert game.id in repr(game)


def test_state_methods_types(game):
    s = game.new_initial_state(seed=3)
    cp = s.current_player()
    assert type(cp) is int and 0 <= cp < game.num_players()
    assert s.is_terminal() is False and s.is_chance_node() is False
    legal = s.legal_actions()
    assert type(legal) is list and legal and all(type(a) is int for a in legal)
    assert legal == sorted(set(legal))
    mask = s.legal_actions_mask()
    assert isinstance(mask, np.ndarray) and mask.dtype == np.bool_
    assert mask.shape == (game.num_distinct_actions(),)
    assert np.flatnonzero(mask).tolist() == legal
    assert s.is_legal(legal[0]) and not s.is_legal(-1) and not s.is_legal(10**12)
    assert s.chance_outcomes() == []
    assert s.returns() == [0.0] * game.num_players()
    assert isinstance(s.action_to_string(legal[0]), str)
    j = s.action_to_json(legal[0])
    assert isinstance(j, dict) and j["id"] == legal[0]
    v = s.view(cp)
    assert isinstance(v, dict)
    t = s.observation_tensor(cp)
    assert isinstance(t, np.ndarray) and t.dtype == np.float32
    assert t.shape == game.observation_shape()
    # The history starts with the chance outcomes the engine resolved (Sekigahara's setup
    # draws), if the game starts at a chance node.
    explicit = kassen.load_game(game.id, {**game.info()["config"], "explicit_chance": True}).new_initial_state(3)
    assert (s.history() != []) == explicit.is_chance_node()
    assert isinstance(s.to_json(), str)
    assert s.game() == game
    assert isinstance(s.events(SPECTATOR), list)


def test_observation_tensor_out(mid_state):
    g = mid_state.game()
    out = np.full(g.observation_shape(), 7.0, dtype=np.float32)
    res = mid_state.observation_tensor(0, out=out)
    assert res is out
    np.testing.assert_array_equal(out, mid_state.observation_tensor(0))
    with pytest.raises(kassen.InvalidArgumentError) as e:
        mid_state.observation_tensor(0, out=np.zeros(3, dtype=np.float32))
    assert e.value.code == 5
    with pytest.raises(TypeError):
        mid_state.observation_tensor(0, out=np.zeros(g.observation_shape(), dtype=np.float64))


def test_apply_action_in_place_and_child(mid_state):
    s = mid_state
    a = s.legal_actions()[0]
    before = s.clone()
    c = s.child(a)
    assert s == before, "child() must not change the state"
    s.apply_action(a)
    assert s == c and s != before
    assert s.history() == before.history() + c.history()[len(before.history()):]
    assert c.history()[len(before.history())] == a


def test_apply_action_accepts_numpy_ints(mid_state):
    a = np.int64(mid_state.legal_actions()[0])
    n = len(mid_state.history())
    mid_state.apply_action(a)
    assert mid_state.history()[n] == int(a)


def test_apply_action_as(mid_state):
    p = mid_state.current_player()
    a = mid_state.legal_actions()[0]
    other = mid_state.child(a)
    mid_state.apply_action_as(p, a)
    assert mid_state == other


def test_events_are_dicts_with_audience(mid_state):
    evs = mid_state.events(0)
    assert evs and all(isinstance(e, dict) and "kind" in e and "step" in e for e in evs)
    public = mid_state.events(SPECTATOR)
    assert all(e["audience"] == "all" for e in public)
    assert len(public) <= len(evs)


def test_repr_has_public_facts_only(mid_state):
    r = repr(mid_state)
    assert mid_state.game().id in r and "seed" not in r.lower()
    assert str(len(mid_state.history())) in r


def test_determinize_keeps_the_observers_view(mid_state):
    for p in range(2):
        d = mid_state.determinize(p, seed=9)
        assert d.view(p) == mid_state.view(p)
        np.testing.assert_array_equal(d.observation_tensor(p), mid_state.observation_tensor(p))
        assert d.current_player() == mid_state.current_player()


def test_conformance_suite_from_python(game):
    report = game.conformance([1])
    assert report["games"] == 1 and report["legal_actions_applied"] > 0


def test_random_playout_helper(game2):
    from kassen.testing import random_playout

    s = game2.new_initial_state(4)
    start = s.history()
    end = random_playout(s, random.Random(1), check=True)
    assert end.is_terminal() and s.history() == start
    assert random_playout(game2, 1, seed=4) == end


def test_sekigahara_replacement_component_data():
    # The copies of the non-setup blocks are placeholders in the embedded data; a replacement
    # file with the same schema (config "data") replaces the manifest, validated before use.
    import json

    from conftest import REPO

    data = json.loads((REPO / "core/src/games/sekigahara/data/sekigahara.json").read_text())
    placeholders = [b["id"] for b in data["blocks"] if b["provenance"] == "placeholder"]
    assert len(placeholders) == 68
    drop = {placeholders[0], placeholders[-1]}
    data["blocks"] = [b for b in data["blocks"] if b["id"] not in drop]
    game = kassen.load_game("sekigahara", data=data)
    default = kassen.load_game("sekigahara")
    assert game != default
    assert game.info()["provenance"]["counts"]["placeholder"] == 66
    assert default.info()["provenance"]["counts"]["placeholder"] == 68
    from kassen.testing import random_playout

    end = random_playout(game, 3, seed=3)
    assert end.is_terminal() and kassen.State.from_json(end.to_json()) == end
    data["blocks"][0]["clan"] = "no_such_clan"
    with pytest.raises(kassen.exceptions.InvalidDataError):
        kassen.load_game("sekigahara", data=data)

"""Configs are normalized before anything is compared or saved: defaults filled in, the engine
key ``explicit_chance`` always present."""

from __future__ import annotations

import pytest

import kassen


@pytest.mark.parametrize("gid", sorted(kassen.games()))
def test_defaults_left_out_or_spelled_out_are_the_same_game(gid):
    default = kassen.load_game(gid)
    spelled = kassen.load_game(gid, default.info()["config"])
    assert default == spelled and hash(default) == hash(spelled)
    assert default.info()["config"]["explicit_chance"] is False
    # Their saves load into each other.
    s = default.new_initial_state(5)
    t = spelled.new_initial_state(5)
    assert kassen.State.from_json(s.to_json()) == t
    assert s.to_json() == t.to_json()


def test_samurai_players_default_is_two():
    a = kassen.load_game("samurai")
    b = kassen.load_game("samurai", players=2)
    assert a == b and a.info()["config"] == b.info()["config"] == {"players": 2, "explicit_chance": False}
    assert kassen.State.from_json(a.new_initial_state(3).to_json()) == b.new_initial_state(3)

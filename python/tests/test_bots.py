"""The built-in bots and native random rollouts from Python."""

import numpy as np
import pytest

import kassen
from kassen._kassen import MonteCarloBot, RandomBot
from kassen.exceptions import GameOverError, InvalidArgumentError


@pytest.mark.parametrize("gid", list(kassen.games()))
def test_bots_play_whole_games(gid):
    game = kassen.load_game(gid)
    s = game.new_initial_state(2)
    rnd, mc = RandomBot(1), MonteCarloBot(2, playouts=2)
    moves = 0
    while not s.is_terminal():
        a = (mc if moves < 2 else rnd).choose(s)
        assert s.is_legal(a)
        s.apply_action(a)
        moves += 1
    with pytest.raises(GameOverError):
        rnd.choose(s)


def test_same_seed_same_choices():
    game = kassen.load_game("samurai", players=3)
    s = game.new_initial_state(4)
    assert [RandomBot(9).choose(s) for _ in range(3)] == [RandomBot(9).choose(s)] * 3
    with pytest.raises(InvalidArgumentError):
        MonteCarloBot(1, playouts=0)


@pytest.mark.parametrize("gid", list(kassen.games()))
def test_random_rollouts(gid):
    game = kassen.load_game(gid)
    s = game.new_initial_state(5)
    r = s.random_rollouts(7, 4)
    assert r.shape == (4, game.num_players()) and r.dtype == np.float64
    assert np.array_equal(r, s.random_rollouts(7, 4))
    assert np.array_equal(r[:1], s.random_rollouts(7))
    assert s.history() == game.new_initial_state(5).history()

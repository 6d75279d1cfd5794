"""kassen games through OpenSpiel (kassen.openspiel): OpenSpiel's own tests and algorithms run
unchanged on every registered game and config."""

from __future__ import annotations

import numpy as np
import pytest

import kassen
from conftest import CONFIGS, config_id

pyspiel = pytest.importorskip("pyspiel")
kos = pytest.importorskip("kassen.openspiel")
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402


def declared(info):
    """(utility, chance block) as the game declares them, or as the adapter takes them when it
    does not (general sum with an unbounded range; the chance ids kept)."""
    utility = info.get("utility") or {"type": "general_sum", "min": -np.inf, "max": np.inf}
    block = info.get("chance_outcome_block") or {"offset": 0, "count": info["num_distinct_actions"]}
    return utility, block


def load(config) -> "pyspiel.Game":
    gid, cfg = config
    return pyspiel.load_game(kos.short_name(gid), cfg)


def play_random(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_every_game_is_registered():
    names = set(pyspiel.registered_names())
    assert {kos.short_name(g) for g in kassen.games()} <= names
    assert kos.register() == sorted(kos.short_name(g) for g in kassen.games())


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_game_type_and_info_follow_game_info(config):
    game = load(config)
    info = kassen.load_game(*config).info()
    utility, block = declared(info)
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION) == info["hidden_information"]
    assert t.utility.name.lower() == utility["type"]
    assert (game.min_utility(), game.max_utility()) == (utility["min"], utility["max"])
    assert game.num_players() == info["num_players"]
    assert game.num_distinct_actions() == info["num_distinct_actions"]
    assert game.max_chance_outcomes() == block["count"]
    assert game.max_game_length() == info["max_game_length"]


#: One config per game: the rules variants of a game go through the same adapter code.
FIRST_CONFIGS = [next(c for c in CONFIGS if c[0] == gid) for gid in sorted(kassen.games())]


@pytest.mark.parametrize("config", FIRST_CONFIGS, ids=config_id)
def test_random_sim_test(config):
    pyspiel.random_sim_test(load(config), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_chance_ids_in_range_and_mapped_back(config):
    game = load(config)
    offset = declared(kassen.load_game(*config).info())[1]["offset"]
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    seen = 0
    while not state.is_terminal() and seen < 50:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            native = state.kassen_state.chance_outcomes()
            assert [(a + offset, p) for a, p in outcomes] == native
            assert all(0 <= a < game.max_chance_outcomes() for a, _ in outcomes)
            seen += 1
        play_random(state, rng, 1)
    assert seen > 0


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_state_holds_no_future_draws(config):
    """Chance is explicit: the initial seed decides nothing, so a searcher cloning a state can
    learn nothing about draws to come."""
    game = load(config)
    a, b = game.new_initial_state(), game.kassen_game.new_initial_state(12345)
    b = kos.KassenSpielState(game, b)
    rng = np.random.default_rng(1)
    for step in range(150):
        if a.is_terminal():
            break
        choices = [o for o, _ in a.chance_outcomes()] if a.is_chance_node() else a.legal_actions()
        action = int(rng.choice(choices))
        a.apply_action(action)
        b.apply_action(action)
        for p in range(game.num_players()):
            assert a.observation_string(p) == b.observation_string(p)
            if step % 10 == 0:
                assert a.information_state_string(p) == b.information_state_string(p)
        assert a.legal_actions() == b.legal_actions() and a.chance_outcomes() == b.chance_outcomes()
    assert all(a.information_state_string(p) == b.information_state_string(p) for p in range(game.num_players()))


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_serialization_round_trip(config):
    game = load(config)
    state = play_random(game.new_initial_state(), np.random.default_rng(2), 60)
    game2, state2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(game2) == str(game)
    assert state2.kassen_state == state.kassen_state and state2.history() == state.history()


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_observer(config):
    from open_spiel.python.observation import make_observation

    game = load(config)
    state = play_random(game.new_initial_state(), np.random.default_rng(3), 40)
    obs = make_observation(game)
    obs.set_from(state, 0)
    np.testing.assert_array_equal(obs.tensor, state.kassen_state.observation_tensor(0).ravel())
    assert obs.string_from(state, 0) == state.observation_string(0)
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert recall.string_from(state, 1) == state.information_state_string(1)


def two_player(gid):
    return next(c for c in CONFIGS if c[0] == gid and kassen.load_game(*c).num_players() == 2)


def test_mcts_bot_with_random_rollouts_in_evaluate_bots():
    game = load(two_player("samurai"))
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=rng),
            pyspiel.make_uniform_random_bot(1, 7)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 2 and game.min_utility() <= min(returns) <= max(returns) <= game.max_utility()


@pytest.mark.parametrize("config", [c for c in CONFIGS if kassen.load_game(*c).num_players() == 2],
                         ids=config_id)
def test_mcts_bot_picks_legal_actions(config):
    game = load(config)
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=3,
                       evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
                       random_state=rng)
    state = play_random(game.new_initial_state(), np.random.default_rng(4), 30)
    while state.is_chance_node():
        play_random(state, np.random.default_rng(5), 1)
    assert bot.step(state) in state.legal_actions()


def test_ismcts_on_sekigahara_keys_on_the_information_state():
    game = load(two_player("sekigahara"))
    rng = np.random.RandomState(2)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng), uct_c=2.0,
                           max_simulations=4, random_state=rng)
    state = play_random(game.new_initial_state(), np.random.default_rng(6), 25)
    decisions = 0
    while decisions < 3 and not state.is_terminal():
        if state.is_chance_node():
            play_random(state, np.random.default_rng(decisions), 1)
            continue
        player = state.current_player()
        assert bot.get_state_key(state) == (player, state.information_state_string(player))
        world = state.resample_from_infostate(player, rng.uniform)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions == 3


@pytest.mark.parametrize("config", FIRST_CONFIGS, ids=config_id)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ismcts_bot_runs_unchanged(config, seed):
    """OpenSpiel's ISMCTSBot, without allow_inconsistent_action_sets, keys its nodes on the
    information-state strings: with perfect-recall keys, every node's legal actions agree in
    every determinization, through the games' prompt steps. (A game without hidden
    information is declared perfect information, and ISMCTSBot refuses those by design.)"""
    game = load(config)
    if not kassen.load_game(*config).info()["hidden_information"]:
        with pytest.raises(AssertionError):
            ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(), uct_c=2.0, max_simulations=2).step(game.new_initial_state())
        return
    rng = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng), uct_c=2.0,
                           max_simulations=6, random_state=rng)
    state = play_random(game.new_initial_state(), np.random.default_rng(seed), 10 + 7 * seed)
    decisions = 0
    while decisions < 12 and not state.is_terminal():
        if state.is_chance_node():
            play_random(state, np.random.default_rng(decisions), 1)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions == 12 or state.is_terminal()

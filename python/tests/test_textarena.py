"""kassen games as TextArena environments (:mod:`kassen.textarena`), played by scripted agents
through TextArena's own ``make``, wrappers and reset/get_observation/step/close loop."""

from __future__ import annotations

import random
import re

import pytest

ta = pytest.importorskip("textarena")

import kassen  # noqa: E402
from kassen.textarena import KassenEnv, env_id, register_all  # noqa: E402

MOVES = re.compile(r"## Your legal moves \((\d+)\)")


def players(game_id: str) -> int:
    return kassen.load_game(game_id).num_players()


class ScriptedAgent(ta.Agent):
    """Answers with a random legal move's number, read from the last move list it was shown, in
    TextArena's bracket form or bare; every ``bad_every``-th answer is unreadable first."""

    def __init__(self, seed: int, bad_every: int = 0) -> None:
        self.rng = random.Random(seed)
        self.bad_every = bad_every
        self.calls = 0

    def __call__(self, observation: str) -> str:
        self.calls += 1
        if self.bad_every and self.calls % self.bad_every == 0:
            return "[let us parley]"
        found = MOVES.findall(observation)
        assert found, observation[-500:]
        k = self.rng.randint(1, int(found[-1]))
        return self.rng.choice([f"[{k}]", f"I play [{k}]", str(k)])


def test_every_registered_game_has_an_id():
    ids = register_all()
    assert ids == [env_id(g) for g in sorted(kassen.games())]
    assert "Kassen-Sekigahara-v0" in ids and "Kassen-ThreeKingdomsRedux-v0" in ids
    for eid in ids:
        assert eid in ta.envs.registration.ENV_REGISTRY and eid + "-raw" in ta.envs.registration.ENV_REGISTRY


@pytest.mark.parametrize("game_id", sorted(kassen.games()))
def test_scripted_agents_play_to_the_end_under_the_default_wrappers(game_id):
    env = ta.make(env_id(game_id))
    assert isinstance(env, ta.Wrapper)
    n = players(game_id)
    env.reset(num_players=n, seed=4)
    agents = {p: ScriptedAgent(p, bad_every=9) for p in range(n)}
    primer = kassen.load_game(game_id).rules_primer()
    done, steps = False, 0
    while not done:
        pid, observation = env.get_observation()
        # GameBoardObservationWrapper: the prompt (primer and seat), then the latest board.
        assert observation.startswith(primer) and f"You are seat {pid}" in observation
        done, _ = env.step(action=agents[pid](observation))
        steps += 1
    rewards, info = env.close()
    assert set(rewards) == set(range(n)) and steps > 1
    # Each unreadable answer was followed by a readable retry: the game ran to its end.
    state = env.kassen_state
    assert state.is_terminal() and not any(i["invalid_move"] for i in info.values())
    assert [rewards[p] for p in range(n)] == list(state.returns())


def test_an_unreadable_answer_gets_a_retry_then_loses():
    env = ta.make("Kassen-Sekigahara-v0-raw")
    env.reset(num_players=2, seed=1)
    pid, observation = env.get_observation()
    kinds = [t for _, _, t in observation]
    assert ta.ObservationType.PROMPT in kinds and ta.ObservationType.GAME_BOARD in kinds
    done, _ = env.step("no idea")
    assert not done
    again, retry = env.get_observation()
    assert again == pid
    assert any(t == ta.ObservationType.GAME_ADMIN and "invalid move" in m for _, m, t in retry)
    board = [m for _, m, t in retry if t == ta.ObservationType.GAME_BOARD][-1]
    assert board.startswith("Your answer could not be read") and "## Your legal moves" in board
    done, _ = env.step("still no idea")
    assert done
    rewards, info = env.close()
    assert rewards[pid] == -1 and rewards[1 - pid] == 1 and info[pid]["invalid_move"]


def test_a_seat_sees_only_its_own_text():
    env = ta.make("Kassen-Sekigahara-v0-raw")
    env.reset(num_players=2, seed=2)
    for _ in range(6):
        pid, observation = env.get_observation()
        state = env.kassen_state
        boards = [m for _, m, t in observation if t == ta.ObservationType.GAME_BOARD]
        assert boards[-1] == state.text_observation(pid)
        assert all(to_self == pid for to_self, _, t in observation if t == ta.ObservationType.PLAYER_ACTION)
        env.step("1")


def test_player_counts_and_configs():
    env = ta.make("Kassen-Samurai-v0")
    env.reset(num_players=3, seed=1)
    assert env.kassen_state.game().num_players() == 3
    with pytest.raises(ValueError, match="played by 2 players"):
        ta.make("Kassen-Sekigahara-v0").reset(num_players=3)
    env = KassenEnv("three_kingdoms_redux", {"trade_rates": "literal"})
    env.reset(num_players=3, seed=0)
    assert env.kassen_state.game().num_players() == 3


def test_a_seeded_episode_replays():
    def episode():
        env = ta.make("Kassen-Samurai-v0")
        env.reset(num_players=2, seed=7)
        agents = {p: ScriptedAgent(p) for p in range(2)}
        seen = []
        done = False
        while not done:
            pid, observation = env.get_observation()
            seen.append(observation)
            done, _ = env.step(agents[pid](observation))
        return seen, env.close()[0]

    assert episode() == episode()


@pytest.mark.parametrize(
    "wrapper",
    ["LLMObservationWrapper", "GameBoardObservationWrapper", "GameMessagesObservationWrapper",
     "GameMessagesAndCurrentBoardObservationWrapper"],
)
def test_textarenas_observation_wrappers_show_the_moves_to_choose_from(wrapper):
    env = ta.wrappers.ActionFormattingWrapper(getattr(ta.wrappers, wrapper)(ta.make("Kassen-Samurai-v0-raw")))
    env.reset(num_players=2, seed=5)
    agents = {p: ScriptedAgent(10 + p, bad_every=5) for p in range(2)}
    done, steps = False, 0
    while not done:
        pid, observation = env.get_observation()
        assert isinstance(observation, str)
        # The latest move list in the text is the current one.
        assert int(MOVES.findall(observation)[-1]) == len(env.kassen_state.legal_actions())
        done, _ = env.step(agents[pid](observation))
        steps += 1
    rewards, _ = env.close()
    assert env.kassen_state.is_terminal() and steps > 10
    assert [rewards[p] for p in range(2)] == list(env.kassen_state.returns())

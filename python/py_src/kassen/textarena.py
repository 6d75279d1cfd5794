"""kassen games as TextArena environments (``pip install kassen[textarena]``).

Importing this module registers one id per registered kassen game with TextArena's registry,
named ``Kassen-<Game>-v0`` from the game id (``sekigahara`` -> ``Kassen-Sekigahara-v0``,
``three_kingdoms_redux`` -> ``Kassen-ThreeKingdomsRedux-v0``), plus TextArena's ``-raw``
variant without wrappers::

    import textarena as ta
    import kassen.textarena  # registers the ids

    env = ta.make("Kassen-Sekigahara-v0")
    env.reset(num_players=2, seed=1)
    done = False
    while not done:
        player_id, observation = env.get_observation()
        done, info = env.step(action=agents[player_id](observation))
    rewards, game_info = env.close()

Every seat is a TextArena player; ``num_players`` must be the game's number of seats (a game
whose config takes ``"players"``, like Samurai, is set up for ``num_players``). Observations
follow TextArena's message types: at reset each player gets a ``PROMPT`` (the game's rules
primer and their seat), and whenever a player is to act it gets a ``GAME_BOARD`` message, its
full text observation (docs/text.md: board, own holdings, the events since its last decision
and its numbered legal moves), so the default wrappers show the prompt and the latest board
(``GameBoardObservationWrapper``; ``ActionFormattingWrapper`` adds TextArena's square brackets,
which are read off again). A player's answer goes through ``State.parse_move``; an unreadable
one is an invalid move as in TextArena's games: the player gets the reason and a retry
(``error_allowance``, default 1), then loses (reward -1, every other seat +1). Otherwise the
rewards at the end are the game's returns per seat. Chance outcomes are drawn from a generator
seeded by ``reset``'s seed (the game's own seed too), so a seeded episode replays exactly.
"""

from __future__ import annotations

import random
import re
from typing import Any, Optional

import textarena as ta
from textarena.envs.registration import ENV_REGISTRY, register_with_versions
from textarena.wrappers import ActionFormattingWrapper, GameBoardObservationWrapper

from kassen._kassen import CHANCE, SPECTATOR, games, load_game
from kassen.exceptions import UnreadableMoveError

__all__ = ["KassenEnv", "env_id", "register_all"]

_BRACKETED = re.compile(r"\[([^\[\]]*)\]")


def env_id(game_id: str) -> str:
    """The TextArena id of a kassen game id."""
    return "Kassen-" + "".join(part.capitalize() for part in game_id.split("_")) + "-v0"


class KassenEnv(ta.Env):
    """One kassen game (``game_id``, ``config``) as a TextArena environment."""

    def __init__(self, game_id: str, config: Optional[dict[str, Any]] = None, error_allowance: int = 1) -> None:
        self.game_id = game_id
        self.config = dict(config or {})
        self.error_allowance = error_allowance
        self.game = load_game(game_id, self.config)
        self.kassen_state: Any = None

    def _game_for(self, num_players: int) -> Any:
        if "players" in self.config or self.game.num_players() == num_players:
            game = self.game
        else:
            try:
                game = load_game(self.game_id, {**self.config, "players": num_players})
            except ValueError:
                game = self.game
        if game.num_players() != num_players:
            raise ValueError(f"{self.game_id} is played by {game.num_players()} players, not {num_players}")
        return game

    def reset(self, num_players: int, seed: Optional[int] = None) -> None:
        self.game = self._game_for(num_players)
        seed = 0 if seed is None else seed
        self.state = ta.FFAMultiPlayerState(num_players=num_players, seed=seed, error_allowance=self.error_allowance)
        self.kassen_state = self.game.new_initial_state(seed)
        self._chance = random.Random(seed)
        names = [s.get("name", f"seat {p}") for p, s in enumerate(self.kassen_state.view(SPECTATOR)["seats"])]
        primer = self.game.rules_primer()

        def prompt(player_id: int, game_state: dict[str, Any]) -> str:
            return (
                f"{primer}\n\nYou are seat {player_id} ({names[player_id]}). When it is your turn you get the "
                "game as text with your numbered legal moves; answer with exactly one move, its text or its "
                "number, in square brackets, e.g. [1]."
            )

        self.state.reset(
            game_state={"game": self.game_id, "seat_names": names},
            player_prompt_function=prompt,
            role_mapping={p: names[p] for p in range(num_players)},
        )
        if not self._finish_if_over():
            self._next_turn()

    def _play_chance(self) -> None:
        s = self.kassen_state
        while not s.is_terminal() and s.current_player() == CHANCE:
            ids, weights = zip(*s.chance_outcomes())
            s.apply_action(self._chance.choices(ids, weights)[0])

    def _finish_if_over(self) -> bool:
        self._play_chance()
        s = self.kassen_state
        if s.is_terminal():
            returns = s.returns()
            self.state.set_game_outcome({p: float(returns[p]) for p in range(self.state.num_players)}, "game over")
        return bool(s.is_terminal())

    def _next_turn(self) -> None:
        """Hands the turn to the seat to act and shows it its text."""
        p = self.kassen_state.current_player()
        self.state.manually_set_current_player_id(p, force=True)
        self.state.add_observation(
            to_id=p, message=self.kassen_state.text_observation(p), observation_type=ta.ObservationType.GAME_BOARD
        )

    def _parse(self, player: int, action: str) -> int:
        try:
            return int(self.kassen_state.parse_move(player, action))
        except UnreadableMoveError:
            for inner in reversed(_BRACKETED.findall(action)):
                try:
                    return int(self.kassen_state.parse_move(player, inner))
                except UnreadableMoveError:
                    continue
            raise

    def step(self, action: str) -> tuple[bool, dict[str, Any]]:
        p = self.state.current_player_id
        self.state.add_observation(
            from_id=p, to_id=p, message=action, observation_type=ta.ObservationType.PLAYER_ACTION
        )
        try:
            move = self._parse(p, action)
        except UnreadableMoveError as e:
            if self.state.set_invalid_move(reason=str(e)):
                others = {q: (-1.0 if q == p else 1.0) for q in range(self.state.num_players)}
                self.state.set_game_outcome(others, f"seat {p} made an invalid move after its retries")
            else:
                self.state.add_observation(
                    to_id=p,
                    message=f"Your answer could not be read: {e}\n\n" + self.kassen_state.text_observation(p),
                    observation_type=ta.ObservationType.GAME_BOARD,
                )
            return self.state.step(rotate_player=False)
        name = self.kassen_state.action_to_string(move)
        self.kassen_state.apply_action(move)
        self.state.add_observation(
            to_id=p, message=f"You played: {name}", observation_type=ta.ObservationType.GAME_ACTION_DESCRIPTION
        )
        if self._finish_if_over():
            return self.state.step(rotate_player=False)
        # The step is counted for the mover before the turn passes on.
        result = self.state.step(rotate_player=False)
        self._next_turn()
        return result


def register_all() -> list[str]:
    """Registers ``Kassen-<Game>-v0`` (and ``-raw``) for every registered kassen game not yet in
    TextArena's registry; returns the ids of every kassen game."""
    ids = []
    wrappers = {"default": [GameBoardObservationWrapper, ActionFormattingWrapper]}
    for gid in sorted(games()):
        eid = env_id(gid)
        ids.append(eid)
        if eid not in ENV_REGISTRY:
            register_with_versions(id=eid, entry_point=KassenEnv, wrappers=wrappers, game_id=gid)
    return ids


register_all()

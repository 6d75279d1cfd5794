"""Every kassen game as an OpenSpiel (pyspiel) Python game, so OpenSpiel's own algorithms
(MCTS, IS-MCTS, CFR on small configs, evaluate_bots, RL environments) run on it unchanged.

``import kassen.openspiel`` registers ``kassen_<game id>`` for every registered game; its
parameters are the game's config keys (defaults: the game's default config), so every config is
``pyspiel.load_game("kassen_samurai", {"players": 3})``. :func:`register` does it again
(idempotent) and returns the names.

- Chance is explicit (the kassen game is loaded with ``explicit_chance=True``), so a state holds
  no hidden future draws: search through the adapter draws chance outcomes itself, by their
  probabilities. Chance-outcome ids are mapped into ``[0, max_chance_outcomes)`` by the game's
  chance-outcome block (``id - offset``); player actions keep their ids.
  (A game that declares no block keeps its chance ids, below ``num_distinct_actions``; one that
  declares no utility is general-sum with an unbounded range.)
- GameType: sequential; perfect or imperfect information from the game's
  ``hidden_information``; utility type, min, max and sum from its declared utility; terminal
  rewards.
- Observations: ``observation_tensor``/``observation_string`` are the seat's tensor and view;
  ``information_state_string`` is the seat's perfect-recall information-state key;
  ``make_py_observer`` gives the same (perfect recall: the information-state string; public
  only: the spectator's tensor and view).
- ``resample_from_infostate(player, sampler)``: a determinization for that seat (the hidden
  parts redrawn consistently with what it has seen), for IS-MCTS.
- Serialization: OpenSpiel's default (the action history, replayed from the initial state),
  exact because chance is explicit.

Needs ``open_spiel`` (``pip install open_spiel``).
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Mapping, Optional, Tuple

import numpy as np
import pyspiel  # type: ignore[import-untyped, import-not-found, unused-ignore]

from kassen._kassen import SPECTATOR, Game, State, games, load_game

__all__ = ["register", "short_name", "KassenSpielGame", "KassenSpielState", "KassenObserver"]

_UTILITY = {
    "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
    "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
    "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
}


def short_name(game_id: str) -> str:
    """The pyspiel name of a kassen game."""
    return f"kassen_{game_id}"


def _default_config(game_id: str) -> Dict[str, Any]:
    config = dict(load_game(game_id).info()["config"])
    config.pop("explicit_chance", None)
    return config


def _chance_block(info: Mapping[str, Any]) -> Tuple[int, int]:
    """(offset, count) of the chance-outcome ids; a game that declares no block keeps its ids
    (every id is below ``num_distinct_actions``)."""
    block = info.get("chance_outcome_block")
    if block is None:
        return 0, int(info["num_distinct_actions"])
    return int(block["offset"]), int(block["count"])


#: The utility of a game that declares none: general sum, range unknown.
_UNDECLARED_UTILITY = {"type": "general_sum", "min": -float("inf"), "max": float("inf")}


def _utility(info: Mapping[str, Any]) -> Mapping[str, Any]:
    return info.get("utility") or _UNDECLARED_UTILITY


def _game_type(game_id: str) -> Any:
    info = load_game(game_id).info()
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"kassen {info['name']}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if info["hidden_information"]
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=_UTILITY[_utility(info)["type"]],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=int(info["max_players"]),
        min_num_players=int(info["min_players"]),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_default_config(game_id),
    )


#: The kassen games behind the pyspiel games, by (game id, config JSON). pyspiel keeps loaded
#: games in a C++ cache that is destroyed after the interpreter; a native kassen object held
#: there would be freed without the GIL, so the pyspiel game holds only this key.
_KASSEN_GAMES: Dict[Tuple[str, str], Game] = {}


class KassenSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One kassen game and config as a pyspiel game (chance explicit). :func:`register` makes
    a subclass per kassen game, with its id in ``GAME_ID``."""

    GAME_ID = ""

    def __init__(self, params: Optional[Mapping[str, Any]] = None) -> None:
        game_id = self.GAME_ID
        config = {**_default_config(game_id), **dict(params or {})}
        self._key = (game_id, json.dumps(config, sort_keys=True))
        if self._key not in _KASSEN_GAMES:
            _KASSEN_GAMES[self._key] = load_game(game_id, {**config, "explicit_chance": True})
        info = self.kassen_game.info()
        self.chance_offset, chance_count = _chance_block(info)
        utility = _utility(info)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=int(info["num_distinct_actions"]),
            max_chance_outcomes=chance_count,
            num_players=int(info["num_players"]),
            min_utility=float(utility["min"]),
            max_utility=float(utility["max"]),
            utility_sum=_utility_sum(utility),
            max_game_length=int(info["max_game_length"]),
        )
        super().__init__(_game_type(game_id), game_info, config)

    @property
    def kassen_game(self) -> Game:
        """The kassen game (loaded with ``explicit_chance=True``)."""
        return _KASSEN_GAMES[self._key]

    def new_initial_state(self, seed: int = 0) -> "KassenSpielState":
        return KassenSpielState(self, self.kassen_game.new_initial_state(seed))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "KassenObserver":
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        return KassenObserver(self, iig_obs_type)


def _utility_sum(utility: Mapping[str, Any]) -> Optional[float]:
    """The sum of the returns: 0 (zero sum), the constant (constant sum), none (general sum)."""
    if utility["type"] == "zero_sum":
        return 0.0
    if utility["type"] == "constant_sum":
        return float(utility["sum"])
    return None


class KassenSpielState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state over a kassen state of an explicit-chance game."""

    def __init__(self, game: KassenSpielGame, state: State) -> None:
        super().__init__(game)
        self.kassen_state = state
        self._offset = game.chance_offset

    def current_player(self) -> int:
        return int(self.kassen_state.current_player())

    def _legal_actions(self, player: int) -> List[int]:
        return self.kassen_state.legal_actions()

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        return [(a - self._offset, p) for a, p in self.kassen_state.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        if self.kassen_state.is_chance_node():
            action += self._offset
        self.kassen_state.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            action += self._offset
        return self.kassen_state.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return bool(self.kassen_state.is_terminal())

    def returns(self) -> List[float]:
        return self.kassen_state.returns()

    def information_state_string(self, player: Optional[int] = None) -> str:
        return _info_state_string(self.kassen_state, self._player(player))

    def observation_string(self, player: Optional[int] = None) -> str:
        return json.dumps(self.kassen_state.view(self._player(player)), sort_keys=True)

    def observation_tensor(self, player: Optional[int] = None) -> List[float]:
        return self.kassen_state.observation_tensor(self._player(player)).ravel().tolist()

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> "KassenSpielState":
        """A state ``player`` cannot tell from this one, its hidden parts redrawn (seeded by
        ``probability_sampler``, a callable giving floats in [0, 1))."""
        seed = int(probability_sampler() * 2**63)
        state = KassenSpielState(self.get_game(), self.kassen_state.determinize(player, seed))
        return state

    def __str__(self) -> str:
        return repr(self.kassen_state)

    def _player(self, player: Optional[int]) -> int:
        return self.current_player() if player is None else int(player)


def _info_state_string(state: State, player: int) -> str:
    key = getattr(state, "information_state_string", None)
    if key is not None:
        return str(key(player))
    return json.dumps(state.events(player), sort_keys=True)


class KassenObserver:
    """OpenSpiel's PyObserver interface (``tensor``, ``dict``, ``set_from``, ``string_from``).

    Default and imperfect-recall types: the seat's observation tensor and view; perfect recall:
    the information-state string (no tensor); public information only: the spectator's."""

    def __init__(self, game: KassenSpielGame, iig_obs_type: Any) -> None:
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.public_only = bool(iig_obs_type is not None
                                and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE)
        size = 0 if self.perfect_recall else int(np.prod(game.kassen_game.observation_shape()))
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor} if size else {}

    def _seat(self, player: int) -> int:
        return SPECTATOR if self.public_only else player

    def set_from(self, state: KassenSpielState, player: int) -> None:
        if self.tensor.size:
            state.kassen_state.observation_tensor(self._seat(player), out=self.tensor)

    def string_from(self, state: KassenSpielState, player: int) -> str:
        if self.perfect_recall:
            return _info_state_string(state.kassen_state, self._seat(player))
        return json.dumps(state.kassen_state.view(self._seat(player)), sort_keys=True)


def register() -> List[str]:
    """Registers every kassen game with pyspiel (again: no-op); returns the short names."""
    names = []
    for game_id in sorted(games()):
        name = short_name(game_id)
        if name not in pyspiel.registered_names():
            # A class, not a closure: pyspiel's registry outlives the interpreter, and a class
            # (unlike a closure) is never freed there without the GIL.
            cls = type(f"KassenSpielGame_{game_id}", (KassenSpielGame,), {"GAME_ID": game_id})
            _GAME_CLASSES[game_id] = cls
            pyspiel.register_game(_game_type(game_id), cls)
        names.append(name)
    return names


_GAME_CLASSES: Dict[str, type] = {}


register()

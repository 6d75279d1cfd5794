"""Helpers for tests of kassen games and of code built on them (usable downstream).

- :func:`random_playout`: play a game to the end with uniformly random legal actions.
- :func:`check_state`: invariants every state must satisfy, from the Python side.
- :func:`load_golden`, :func:`replay_golden`: replay a golden playthrough file
  (``tests/golden/*.json``) and compare every recorded fact.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Union

import numpy as np

from kassen._kassen import CHANCE, TERMINAL, Game, State, load_game

__all__ = [
    "random_playout",
    "sample_chance",
    "check_state",
    "load_golden",
    "replay_golden",
    "GoldenMismatch",
    "golden_files",
]

RngLike = Union[int, random.Random, None]


def _rng(rng: RngLike) -> random.Random:
    return rng if isinstance(rng, random.Random) else random.Random(rng)


def sample_chance(state: State, rng: random.Random) -> int:
    """Draws a chance outcome of ``state`` (a chance node) by its probabilities."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("not a chance node")
    ids = [a for a, _ in outcomes]
    weights = [p for _, p in outcomes]
    return rng.choices(ids, weights=weights)[0]


def random_playout(
    start: Union[Game, State],
    rng: RngLike = None,
    *,
    seed: int = 0,
    max_steps: Optional[int] = None,
    check: bool = False,
) -> State:
    """Plays uniformly random legal actions until the game is over and returns the final state.

    ``start`` is a game (a new initial state from ``seed`` is used) or a state (it is not
    changed: the playout runs on a clone). Explicit chance nodes are resolved by their
    probabilities. With ``check=True`` every visited state goes through :func:`check_state`.
    Raises ``AssertionError`` if the game is longer than ``max_steps`` (default: the game's
    ``max_game_length``).
    """
    r = _rng(rng)
    state = start.new_initial_state(seed) if isinstance(start, Game) else start.clone()
    limit = state.game().max_game_length() if max_steps is None else max_steps
    steps = 0
    while not state.is_terminal():
        if check:
            check_state(state)
        if state.is_chance_node():
            state.apply_action(sample_chance(state, r))
        else:
            legal = state.legal_actions()
            assert legal, f"no legal action in a non-terminal state: {state!r}"
            state.apply_action(legal[r.randrange(len(legal))])
        steps += 1
        assert len(state.history()) <= limit, f"game longer than {limit} actions"
    if check:
        check_state(state)
    return state


def check_state(state: State) -> None:
    """Asserts the invariants of the Python API on one state (cheap enough for every step)."""
    game = state.game()
    n = game.num_distinct_actions()
    cp = state.current_player()
    assert cp == TERMINAL or cp == CHANCE or 0 <= cp < game.num_players(), cp
    assert state.is_terminal() == (cp == TERMINAL)
    assert state.is_chance_node() == (cp == CHANCE)
    legal = state.legal_actions()
    assert legal == sorted(set(legal)), "legal actions must be sorted and unique"
    assert all(0 <= a < n for a in legal)
    assert state.is_terminal() == (not legal), "non-terminal states have legal actions"
    mask = state.legal_actions_mask()
    assert mask.dtype == np.bool_ and mask.shape == (n,)
    assert np.flatnonzero(mask).tolist() == legal
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sorted(a for a, _ in outcomes) == legal
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    else:
        assert state.chance_outcomes() == []
    returns = state.returns()
    assert len(returns) == game.num_players()
    if not state.is_terminal():
        assert all(x == 0.0 for x in returns), "returns are zero until the game is over"
    for p in range(-1, game.num_players()):
        t = state.observation_tensor(p)
        assert t.dtype == np.float32 and t.shape == game.observation_shape()
        assert np.isfinite(t).all()


class GoldenMismatch(AssertionError):
    """A replayed golden game differs from the recording."""


def load_golden(path: Union[str, "os.PathLike[str]"]) -> Dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        data: Dict[str, Any] = json.load(f)
    return data


def _expect(what: str, expected: Any, got: Any) -> None:
    if expected != got:
        raise GoldenMismatch(f"{what} differs: expected {_short(expected)}, got {_short(got)}")


def _short(v: Any, limit: int = 300) -> str:
    s = json.dumps(v, sort_keys=True) if not isinstance(v, str) else repr(v)
    return s if len(s) <= limit else s[:limit] + "..."


def replay_golden(golden: Union[Mapping[str, Any], str, "os.PathLike[str]"]) -> State:
    """Replays a golden playthrough and checks every recorded fact; returns the final state.

    The format (written by the cross-surface test crate)::

        {"game", "config", "seed", "player_actions": [...], "history": [...],
         "final": {"returns", "current_player", "hash" (decimal string),
                   "views": {"-1": ..., "0": ...}, "state_json",
                   "events_since": {"-1": {"from", "events"}, ...}},
         "checkpoints": [{"step", "current_player", "legal_actions", "view" (optional)}]}

    ``player_actions`` are applied with ``apply_action_as`` (chance resolved by the state's
    RNG); checkpoint ``step`` is the index of the player action about to be applied.
    Raises :class:`GoldenMismatch` on the first difference.
    """
    g: Mapping[str, Any] = golden if isinstance(golden, Mapping) else load_golden(golden)
    game = load_game(g["game"], dict(g.get("config") or {}))
    state = game.new_initial_state(int(g["seed"]))
    checkpoints: List[Mapping[str, Any]] = list(g.get("checkpoints", []))
    by_step = {int(cp["step"]): cp for cp in checkpoints}
    seen = 0
    for i, a in enumerate(g["player_actions"]):
        p = state.current_player()
        if p < 0:
            raise GoldenMismatch(f"step {i}: current player {p}, the golden game goes on")
        cp = by_step.get(i)
        if cp is not None:
            seen += 1
            _expect(f"step {i}: current_player", cp["current_player"], p)
            _expect(f"step {i}: legal_actions", cp["legal_actions"], state.legal_actions())
            if "view" in cp:  # long games store a view at some checkpoints only
                _expect(f"step {i}: view", cp["view"], state.view(p))
            again = State.from_json(state.to_json())
            if again != state or hash(again) != hash(state):
                raise GoldenMismatch(f"step {i}: to_json/from_json round trip changes the state")
        state.apply_action_as(p, a)
    if seen != len(checkpoints):
        raise GoldenMismatch(f"{len(checkpoints) - seen} checkpoint(s) never reached")
    if not state.is_terminal():
        raise GoldenMismatch("the game is not over after the golden actions")
    final = g["final"]
    _expect("history", g["history"], state.history())
    _expect("final returns", final["returns"], state.returns())
    _expect("final current_player", final["current_player"], state.current_player())
    _expect("final hash", str(final["hash"]), str(state.stable_hash()))
    for key, view in final["views"].items():
        _expect(f"final view of {key}", view, state.view(int(key)))
    for key, tail in final["events_since"].items():
        _expect(f"final events_since of {key}", tail["events"], state.events_since(int(key), tail["from"]))
    _expect("final state_json", final["state_json"], json.loads(state.to_json()))
    if State.from_json(state.to_json()) != state:
        raise GoldenMismatch("final to_json/from_json round trip changes the state")
    return state


def golden_files(directory: Union[str, "os.PathLike[str]"]) -> List[Path]:
    """The ``*.json`` golden files in ``directory`` (empty if it does not exist), sorted."""
    d = Path(directory)
    return sorted(d.glob("*.json")) if d.is_dir() else []

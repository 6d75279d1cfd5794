"""The built-in bots by name, for frontends that let a person choose opponents.

``bot_specs()`` lists the choices (``spec``, ``name``, ``description``); ``make_bot(spec,
seed)`` builds one. A spec is a bot name with an optional parameter after a colon:
``"random"`` (uniformly random legal moves, :class:`kassen.RandomBot`) and
``"monte_carlo"`` / ``"monte_carlo:P"`` (flat Monte Carlo over determinizations with ``P``
playouts per decision, :class:`kassen.MonteCarloBot`). Every bot has a ``choose(state)``
method and is deterministic given its seed."""

from __future__ import annotations

from typing import Any, Protocol

from kassen._kassen import MonteCarloBot, RandomBot, State

__all__ = ["Bot", "bot_specs", "make_bot"]

#: Playouts of ``"monte_carlo"`` without a parameter (the native default).
DEFAULT_PLAYOUTS = 64


class Bot(Protocol):
    def choose(self, state: State) -> int: ...


def bot_specs() -> list[dict[str, str]]:
    """The bots a frontend may offer, weakest first: dicts with ``spec`` (what
    :func:`make_bot` takes), ``name`` (a short label) and ``description``."""
    return [
        {"spec": "random", "name": "Random", "description": "plays a uniformly random legal move"},
        {"spec": "monte_carlo:16", "name": "Monte Carlo (quick)",
         "description": "flat Monte Carlo search, 16 random playouts per decision over what it may know"},
        {"spec": "monte_carlo", "name": "Monte Carlo",
         "description": f"flat Monte Carlo search, {DEFAULT_PLAYOUTS} random playouts per decision over what it may know"},
        {"spec": "monte_carlo:256", "name": "Monte Carlo (strong)",
         "description": "flat Monte Carlo search, 256 random playouts per decision over what it may know"},
    ]


def make_bot(spec: str, seed: int = 0) -> Any:
    """The bot ``spec`` names (see the module docs), seeded ``seed``. An unknown name or a
    bad parameter is a ``ValueError``."""
    name, _, param = spec.partition(":")
    if name == "random":
        if param:
            raise ValueError(f"bot {spec!r}: random takes no parameter")
        return RandomBot(seed)
    if name == "monte_carlo":
        playouts = DEFAULT_PLAYOUTS
        if param:
            if not param.isdigit() or int(param) < 1:
                raise ValueError(f"bot {spec!r}: the playouts must be a positive integer")
            playouts = int(param)
        return MonteCarloBot(seed, playouts)
    raise ValueError(f"unknown bot {spec!r}; known: {', '.join(s['spec'] for s in bot_specs())}")

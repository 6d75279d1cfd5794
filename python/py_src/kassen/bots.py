"""The built-in bots by name, for frontends that let a person choose opponents.

``bot_specs()`` lists the choices, weakest first (``spec``, ``name``, ``description``);
``make_bot(spec, seed)`` builds one. The specs are the engine's own (the same in C and C++):
``"random"``, ``"monte_carlo"`` / ``"monte_carlo:P"`` (flat Monte Carlo with P playouts per
decision), ``"ismcts:instant"``, ``"ismcts:easy"``, ``"ismcts:normal"``, ``"ismcts:hard"``
(information-set tree search at the named levels, each with a budget per whole turn shared
among the turn's decisions: the README's table), ``"ismcts:N"`` (N iterations per decision),
``"ismcts:N/turn"`` (N per whole turn), a search bot optionally with ``"+reuse"`` (going on
from its last tree within a turn) and ``"@<T>ms"`` (T milliseconds per decision). Every bot has
a ``choose(state)`` method (the GIL released while it searches) and is deterministic given its
seed (a search with a time limit: given the iterations it managed)."""

from __future__ import annotations

from typing import Any, Protocol

from kassen._kassen import Bot as _NativeBot
from kassen._kassen import State
from kassen._kassen import bot_specs as _native_specs

__all__ = ["Bot", "bot_specs", "make_bot"]


class Bot(Protocol):
    def choose(self, state: State) -> int: ...


def bot_specs() -> list[dict[str, str]]:
    """The bots a frontend may offer, weakest first: dicts with ``spec`` (what
    :func:`make_bot` takes), ``name`` (a short label) and ``description``."""
    return list(_native_specs())


def make_bot(spec: str, seed: int = 0) -> Any:
    """The bot ``spec`` names (see the module docs), seeded ``seed``. An unknown name or a
    bad parameter is a ``ValueError`` (``kassen.SetupError``, code 101), a budget above its
    cap (``ismcts:N`` with N above 1,000,000,000, ``@<T>ms`` above 24 h) code 102, a spec that
    is not a ``str`` an ``ArgumentTypeError`` (code 5)."""
    return _NativeBot(spec, seed)

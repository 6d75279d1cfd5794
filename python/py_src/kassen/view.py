"""A seat's view as an object that notebooks draw: ``View(state, seat)`` holds the view
envelope (``State.view``) and its ``_repr_svg_`` is the board drawn from it, so a
Jupyter cell that ends with a ``View`` shows the board as that seat sees it."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from kassen._kassen import SPECTATOR, Game, State


class View(Mapping[str, Any]):
    """The view of ``player`` (``-1``: the spectator) of a state, read-only, as a mapping over
    the envelope's keys (``body`` holds the game's own view)."""

    __slots__ = ("_game", "_data")

    def __init__(self, state: State, player: int = SPECTATOR) -> None:
        self._game: Game = state.game()
        self._data: dict[str, Any] = state.view(player)

    @property
    def body(self) -> dict[str, Any]:
        """The game's own view."""
        return self._data["body"]

    def to_dict(self) -> dict[str, Any]:
        return json.loads(json.dumps(self._data))

    def svg(self) -> str:
        """The board drawn from this view alone."""
        return self._game.render_view_svg(json.dumps(self._data))

    def _repr_svg_(self) -> str:
        return self.svg()

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        observer = self._data.get("observer")
        who = "spectator" if observer is None else f"seat {observer}"
        return f"View({self._data.get('game')!r}, {who})"

"""The play page's hint: the search's top three moves for the seat on screen, each with its
win estimate and a reason in words (:func:`kassen.analyze`'s ``reason``), searched in the
background so the page keeps answering while it thinks.

The search reads only what the seat may know: it draws the hidden parts anew
(determinizations), and its reasons are told from the seat's own event sentences."""

from __future__ import annotations

from typing import Any, Optional

from kassen._kassen import Search, State

#: The hint's search: the normal level's budget (under a second on one core).
PARAMS = {"level": "normal"}
#: How many moves a hint shows.
TOP = 3


class Hint:
    """One hint at a time: ``start`` searches a position (a key names it; the same key again
    keeps the search going), ``report`` says how far it is, ``stop`` drops it."""

    def __init__(self) -> None:
        self._search: Optional[Search] = None
        self._key: Any = None
        self._moves: Optional[list[dict[str, Any]]] = None

    def stop(self) -> None:
        if self._search is not None:
            self._search.stop()
        self._search, self._key, self._moves = None, None, None

    def start(self, state: State, key: Any, seed: int) -> None:
        if key == self._key and self._search is not None:
            return
        self.stop()
        self._search = Search(state, PARAMS, seed)
        self._key = key

    def report(self, state: State, key: Any, utility: dict[str, float]) -> dict[str, Any]:
        """``{"state": "none"}`` (no hint for this position), ``{"state": "thinking",
        "iterations"}``, or ``{"state": "done", "moves": [{"id", "text", "visits", "win",
        "reason"}]}`` (``win``: the seat's mean return after the move scaled to 0..1, None if
        never tried)."""
        if self._search is None or key != self._key:
            return {"state": "none"}
        if not self._search.done:
            return {"state": "thinking", "iterations": self._search.progress()["iterations"]}
        if self._moves is None:
            d = self._search.result()
            low, span = utility["min"], (utility["max"] - utility["min"]) or 1.0
            best = sorted(d["candidates"], key=lambda c: (-c["visits"], -(c["value"] if c["value"] is not None else -1e9)))
            self._moves = [{"id": c["action"], "text": state.action_to_string(c["action"]), "visits": c["visits"],
                            "win": None if c["value"] is None else round((c["value"] - low) / span, 3),
                            "reason": c["reason"]} for c in best[:TOP]]
        return {"state": "done", "moves": self._moves}


__all__ = ["Hint", "PARAMS", "TOP"]

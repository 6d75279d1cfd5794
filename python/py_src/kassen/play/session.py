"""One game between a person at one seat and bots at the others, kept on the server.

What leaves a session is only what the person's seat may know: its view, its board picture,
its own events and, when it is to act, its own legal actions described by
``action_to_json`` / ``action_to_string``. The state itself (its log, seed and the other
seats' secrets) never does."""

from __future__ import annotations

import random
import threading
from typing import Any, Optional

from kassen._kassen import CHANCE, State, load_game

#: Bot moves played per request at most, so a request always ends.
MAX_BOT_MOVES = 100_000


class RandomBot:
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    name = "random legal moves"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: State) -> int:
        return self._rng.choice(state.legal_actions())


class Session:
    """A game of ``game_id`` (``config``: a dict) where ``seat`` is played from the page."""

    def __init__(self, game_id: str, config: Optional[dict[str, Any]] = None, seat: int = 0, seed: int = 0) -> None:
        self.game = load_game(game_id, config or {})
        n = self.game.num_players()
        if not 0 <= seat < n:
            raise ValueError(f"seat must be in 0..{n - 1}, got {seat}")
        self.seat = seat
        self.seed = seed
        self.bots = {p: RandomBot(seed * 7919 + p) for p in range(n) if p != seat}
        self._chance = random.Random(seed)
        self._lock = threading.Lock()
        self.state = self.game.new_initial_state(seed)
        self._run_bots()

    def _run_bots(self) -> None:
        for _ in range(MAX_BOT_MOVES):
            if self.state.is_terminal():
                return
            p = self.state.current_player()
            if p == self.seat:
                return
            if p == CHANCE:
                ids, weights = zip(*self.state.chance_outcomes())
                self.state.apply_action(self._chance.choices(ids, weights)[0])
                continue
            self.state.apply_action(self.bots[p].choose(self.state))

    def _legal(self) -> list[dict[str, Any]]:
        if self.state.is_terminal() or self.state.current_player() != self.seat:
            return []
        out = []
        for a in self.state.legal_actions():
            out.append({
                "id": a,
                "text": self.state.action_to_string(a),
                "json": self.state.action_to_json(a),
                "target": self.game.action_target(a),
            })
        return out

    def snapshot(self, since: int = 0) -> dict[str, Any]:
        """What the page may know now; ``events`` are the seat's events from its ``since``-th."""
        with self._lock:
            return self._snapshot(since)

    def _snapshot(self, since: int) -> dict[str, Any]:
        events = self.state.events_since(self.seat, max(0, since))
        return {
            "game": self.game.id,
            "seat": self.seat,
            "svg": self.state.render_svg(self.seat),
            "view": self.state.view(self.seat),
            "events": events,
            "events_total": max(0, since) + len(events),
            "legal": self._legal(),
            "terminal": self.state.is_terminal(),
            "returns": self.state.returns() if self.state.is_terminal() else None,
            # The position a move answers: a move names it, so a repeated request is not
            # played twice (see ``act``).
            "step": len(self.state.history()),
        }

    def act(self, action: int, since: int = 0, step: Optional[int] = None) -> dict[str, Any]:
        """Plays ``action`` for the seat, then the bots until the seat is to act again.

        ``step``: the snapshot ``step`` the move answers. If the game has moved on (the same
        request sent twice, or a move chosen on an old page), nothing is played and the answer
        is the current snapshot with ``"applied": False``."""
        with self._lock:
            if step is not None and step != len(self.state.history()):
                return dict(self._snapshot(since), applied=False)
            self.state.apply_action_as(self.seat, action)
            self._run_bots()
            return dict(self._snapshot(since), applied=True)


__all__ = ["Session", "RandomBot"]

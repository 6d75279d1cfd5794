"""One game between one seat played from text and built-in bots on the other seats.

:class:`Match` is what the MCP server, the TextArena environments' bot-free sibling and the
benchmark harness share: it holds the state, plays the bots' and chance's turns until the text
seat is to act (or the game is over), reads the seat's answers with ``State.parse_move`` and
tells the seat what it may know through ``State.text_observation``. Nothing else about the
state leaves it."""

from __future__ import annotations

import random
from typing import Any, Optional

from kassen._kassen import CHANCE, SPECTATOR, Bot, load_game

__all__ = ["Match", "DEFAULT_BOT"]

#: The opponents' bot spec when none is given (``kassen.bot_specs()`` lists the choices).
DEFAULT_BOT = "ismcts:easy"


class Match:
    """A game of ``game_id`` (with ``config``) where ``seat`` answers in text and every other
    seat is the built-in bot ``bot`` (one instance per seat, seeded from ``seed``); chance
    outcomes are drawn from a generator seeded from ``seed`` too, so (game, config, seat, bot,
    seed, answers) replay exactly. A bad game, config, seat or bot spec raises the kassen
    error (``ValueError``) at construction."""

    def __init__(
        self,
        game_id: str,
        config: Optional[dict[str, Any]] = None,
        seat: int = 0,
        bot: str = DEFAULT_BOT,
        seed: int = 0,
    ) -> None:
        self.game = load_game(game_id, config or {})
        n = self.game.num_players()
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r} is not a seat of {game_id} (0..{n - 1})")
        self.game_id = game_id
        self.config = dict(config or {})
        self.seat = seat
        self.bot_spec = bot
        self.seed = seed
        self.bots = {p: Bot(bot, seed * 7919 + p) for p in range(n) if p != seat}
        self.state = self.game.new_initial_state(seed)
        self._chance = random.Random(seed)
        self.resigned = False
        self.moves = 0
        self.advance()

    @property
    def over(self) -> bool:
        return self.resigned or self.state.is_terminal()

    def seat_names(self) -> list[str]:
        return [s.get("name", f"seat {i}") for i, s in enumerate(self.state.view(SPECTATOR)["seats"])]

    def advance(self) -> int:
        """Plays chance and the bots until the text seat is to act or the game is over;
        returns how many moves the bots made."""
        made = 0
        s = self.state
        while not s.is_terminal():
            p = s.current_player()
            if p == CHANCE:
                ids, weights = zip(*s.chance_outcomes())
                s.apply_action(self._chance.choices(ids, weights)[0])
            elif p == self.seat:
                break
            else:
                s.apply_action(self.bots[p].choose(s))
                made += 1
        return made

    def observe(self) -> str:
        """The seat's text observation (docs/text.md), with the result once the game is over."""
        text = self.state.text_observation(self.seat)
        if self.resigned:
            text += f"\n\nYou resigned: {self.result_text()}"
        return text

    def legal_moves(self) -> list[str]:
        """The seat's legal moves as their move strings, in the numbered order of the
        observation; empty when the seat is not to act."""
        if self.over or self.state.current_player() != self.seat:
            return []
        return [self.state.action_to_string(a) for a in self.state.legal_actions()]

    def play(self, text: str) -> tuple[int, str]:
        """Reads ``text`` as the seat's move, applies it and lets the bots answer; returns the
        action id and its move string. An unreadable or illegal answer raises
        ``kassen.UnreadableMoveError`` (code 206; ``NotYourTurnError``, ``GameOverError``)
        and changes nothing."""
        if self.resigned:
            from kassen.exceptions import GameOverError

            raise GameOverError("the game is over: the seat resigned")
        action = self.state.parse_move(self.seat, text)
        name = self.state.action_to_string(action)
        self.state.apply_action(action)
        self.moves += 1
        self.advance()
        return action, name

    def resign(self) -> None:
        self.resigned = True

    def returns(self) -> list[float]:
        """Final returns per seat: the game's, or on resignation -1 for the seat and +1 for
        every other seat."""
        if self.resigned:
            return [-1.0 if p == self.seat else 1.0 for p in range(self.game.num_players())]
        return list(self.state.returns())

    def outcome(self) -> str:
        """``"win"``, ``"draw"`` or ``"loss"`` for the seat: a win when its return is the
        highest and no other seat's equals it, a draw when it shares the highest."""
        r = self.returns()
        best = max(r)
        if r[self.seat] < best:
            return "loss"
        return "win" if r.count(best) == 1 else "draw"

    def result_text(self) -> str:
        names = self.seat_names()
        r = self.returns()
        parts = ", ".join(f"{names[p]} {r[p]:+g}" for p in range(len(r)))
        return f"{self.outcome()} for you ({names[self.seat]}); returns: {parts}"

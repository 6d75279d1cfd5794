"""An MCP server (Model Context Protocol, stdio) to play kassen games from a language-model app.

Run ``python -m kassen.mcp`` (it needs the ``mcp`` package: ``pip install kassen[mcp]``) and
register that command as a stdio server in the app. Tools:

- ``list_games()``: the registered games with their seats and configs;
- ``new_game(game, config, seat, bot, seed)``: starts a game where you play ``seat`` against the
  built-in bot ``bot`` on every other seat; answers with the game's id, the rules primer and
  your first observation (the bots have already moved if they act first);
- ``observe(game_id)``: what your seat knows now, as text (docs/text.md);
- ``legal_moves(game_id)``: your legal moves, numbered;
- ``play(game_id, move)``: your move in free text (its string, its number, a JSON action or a
  sentence naming exactly one move); the bots answer in the same call, and the answer is your
  next observation. An unreadable move is a tool error naming the problem and the options; the
  game is unchanged;
- ``resign(game_id)``: ends the game as a loss.

Resources: ``kassen://games`` (the game list) and ``kassen://primer/{game}`` (a game's rules
primer, also in ``new_game``'s answer). Games live in the server process until it exits (at
most :data:`MAX_GAMES`, the oldest finished ones dropped first)."""

from __future__ import annotations

import itertools
import json
from typing import Any, Callable, Optional

from kassen._kassen import bot_specs, covered_configs, games, load_game
from kassen.agents.match import DEFAULT_BOT, Match
from kassen.exceptions import KassenError

__all__ = ["build_server", "main", "Games", "MAX_GAMES"]

MAX_GAMES = 64


class Games:
    """The games of one server, by id; the tools' logic without the protocol."""

    def __init__(self) -> None:
        self.matches: dict[str, Match] = {}
        self._ids = itertools.count(1)

    def list_games(self) -> str:
        out = []
        for gid, name in sorted(games().items()):
            g = load_game(gid)
            out.append({"game": gid, "name": name, "seats": g.num_players(), "configs": covered_configs(gid)})
        bots = [b["spec"] for b in bot_specs()]
        return json.dumps({"games": out, "bots": bots, "default_bot": DEFAULT_BOT}, ensure_ascii=False)

    def _get(self, game_id: str) -> Match:
        m = self.matches.get(game_id)
        if m is None:
            raise ValueError(f"no game {game_id!r}: start one with new_game")
        return m

    def new_game(self, game: str, config: Optional[dict[str, Any]], seat: int, bot: str, seed: int) -> str:
        m = Match(game, config, seat, bot, seed)
        if len(self.matches) >= MAX_GAMES:
            oldest = next((k for k, v in self.matches.items() if v.over), next(iter(self.matches)))
            del self.matches[oldest]
        gid = f"g{next(self._ids)}"
        self.matches[gid] = m
        return (
            f"game_id: {gid}\n"
            f"You play seat {seat} ({m.seat_names()[seat]}) of {game} against the bot {bot!r}.\n"
            "Call play(game_id, move) with one of your legal moves; the bots answer in the same call.\n\n"
            f"# Rules primer\n\n{m.game.rules_primer()}\n\n# Your observation\n\n{self.status(m)}"
        )

    def status(self, m: Match) -> str:
        text = m.observe()
        if m.over and not m.resigned:
            text += f"\n\nGame over: {m.result_text()}"
        return text

    def observe(self, game_id: str) -> str:
        return self.status(self._get(game_id))

    def legal_moves(self, game_id: str) -> str:
        m = self._get(game_id)
        moves = m.legal_moves()
        if not moves:
            return "Game over: " + m.result_text() if m.over else "It is not your turn."
        return "\n".join(f"{i}. {s}" for i, s in enumerate(moves, 1))

    def play(self, game_id: str, move: str) -> str:
        m = self._get(game_id)
        _, name = m.play(move)
        return f"You played: {name}\n\n{self.status(m)}"

    def resign(self, game_id: str) -> str:
        m = self._get(game_id)
        if m.over:
            return "The game is already over: " + m.result_text()
        m.resign()
        return "You resigned: " + m.result_text()


def build_server(name: str = "kassen") -> Any:
    """The MCP server object (``mcp``'s ``MCPServer``, or ``FastMCP`` on mcp 1.x) with the tools
    and resources above; ``.run()`` serves it on stdio."""
    try:
        from mcp.server.mcpserver import MCPServer as Server
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError:  # mcp 1.x
        from mcp.server.fastmcp import FastMCP as Server  # type: ignore[attr-defined,no-redef]
        from mcp.server.fastmcp.exceptions import ToolError  # type: ignore[no-redef]

    server = Server(name, instructions=__doc__)
    games_ = Games()

    def call(method: Callable[..., str], *args: Any) -> str:
        # A refused request (bad game, config, seat, bot or move) is an anticipated failure: the
        # model reads its message (with the kassen error code) and may try again.
        try:
            return method(*args)
        except (ValueError, KassenError) as e:
            code = getattr(e, "code", None)
            raise ToolError(f"{e} (kassen error {code})" if code else str(e)) from None

    @server.tool()
    def list_games() -> str:
        """The registered games (id, name, number of seats, configs) and the bot specs."""
        return call(games_.list_games)

    @server.tool()
    def new_game(
        game: str, config: Optional[dict[str, Any]] = None, seat: int = 0, bot: str = DEFAULT_BOT, seed: int = 0
    ) -> str:
        """Starts a game of `game` (an id from list_games) with `config` (e.g. {"players": 3}),
        you playing `seat` and the built-in bot `bot` (e.g. "random", "ismcts:easy",
        "ismcts:normal", "ismcts:hard") every other seat. Returns the game_id, the rules primer
        and your observation."""
        return call(games_.new_game, game, config, seat, bot, seed)

    @server.tool()
    def observe(game_id: str) -> str:
        """What your seat knows now: the board, your holdings, the events since your last
        move and, when you are to act, your numbered legal moves."""
        return call(games_.observe, game_id)

    @server.tool()
    def legal_moves(game_id: str) -> str:
        """Your legal moves, numbered (empty when it is not your turn)."""
        return call(games_.legal_moves, game_id)

    @server.tool()
    def play(game_id: str, move: str) -> str:
        """Plays your move, given as its text, its number or a sentence naming exactly one legal
        move; the bots answer at once. Returns your next observation."""
        return call(games_.play, game_id, move)

    @server.tool()
    def resign(game_id: str) -> str:
        """Resigns the game (a loss for you)."""
        return call(games_.resign, game_id)

    @server.resource("kassen://games", mime_type="application/json")
    def games_resource() -> str:
        return call(games_.list_games)

    @server.resource("kassen://primer/{game}", mime_type="text/markdown")
    def primer(game: str) -> str:
        return str(load_game(game).rules_primer())

    return server


def main() -> None:
    build_server().run()


if __name__ == "__main__":
    main()

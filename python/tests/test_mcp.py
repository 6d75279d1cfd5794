"""``python -m kassen.mcp``: the MCP server, driven over stdio by the ``mcp`` package's own
client (the server runs as a subprocess)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys

import pytest

pytest.importorskip("mcp")

from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

import kassen  # noqa: E402

MOVES = re.compile(r"^## Your legal moves \((\d+)\)", re.M)


def failed(result) -> bool:
    """The tool result's error flag (``is_error`` in mcp 2, ``isError`` in mcp 1)."""
    return bool(getattr(result, "is_error", getattr(result, "isError", False)))


def text_of(result) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def session_run(body):
    params = StdioServerParameters(command=sys.executable, args=["-m", "kassen.mcp"], env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await body(session)


def run(body):
    return asyncio.run(asyncio.wait_for(session_run(body), timeout=600))


def test_tools_and_resources_are_listed():
    async def body(session):
        tools = {t.name for t in (await session.list_tools()).tools}
        games = json.loads(text_of(await session.call_tool("list_games", {})))
        primer = await session.read_resource("kassen://primer/sekigahara")
        return tools, games, primer

    tools, games, primer = run(body)
    assert {"new_game", "observe", "legal_moves", "play", "resign", "list_games"} <= tools
    assert {g["game"] for g in games["games"]} == set(kassen.games())
    assert "random" in games["bots"]
    assert primer.contents[0].text == kassen.load_game("sekigahara").rules_primer()


@pytest.mark.parametrize("game_id", sorted(kassen.games()))
def test_a_game_played_to_the_end_over_stdio(game_id):
    seat = 1

    async def body(session):
        started = text_of(await session.call_tool("new_game", {"game": game_id, "seat": seat, "bot": "random", "seed": 3}))
        gid = re.search(r"^game_id: (\S+)", started, re.M).group(1)
        assert kassen.load_game(game_id).rules_primer() in started
        plays, bad = 0, 0
        while True:
            observed = text_of(await session.call_tool("observe", {"game_id": gid}))
            if "Game over" in observed:
                return started, observed, plays, bad
            found = MOVES.search(observed)
            assert found, observed
            listed = text_of(await session.call_tool("legal_moves", {"game_id": gid})).splitlines()
            assert len(listed) == int(found.group(1))
            if plays % 7 == 3:
                wrong = await session.call_tool("play", {"game_id": gid, "move": "the weather is fine"})
                assert failed(wrong) and "answer with one move's text or its number" in text_of(wrong)
                assert text_of(await session.call_tool("observe", {"game_id": gid})) == observed
                bad += 1
            # Alternate the forms an agent may answer in: the move's text and its number.
            k = (plays * 5) % len(listed)
            move = listed[k].split(". ", 1)[1] if plays % 2 else str(k + 1)
            answer = await session.call_tool("play", {"game_id": gid, "move": move})
            assert not failed(answer), text_of(answer)
            assert text_of(answer).startswith("You played: ")
            plays += 1

    started, final, plays, bad = run(body)
    assert f"seat {seat}" in started and plays > 0 and bad > 0
    assert re.search(r"Game over: (win|draw|loss) for you", final)


def test_resign_and_errors():
    async def body(session):
        started = text_of(await session.call_tool("new_game", {"game": "samurai", "config": {"players": 3}, "seat": 2, "bot": "random"}))
        gid = re.search(r"^game_id: (\S+)", started, re.M).group(1)
        resigned = text_of(await session.call_tool("resign", {"game_id": gid}))
        after = await session.call_tool("play", {"game_id": gid, "move": "1"})
        unknown = await session.call_tool("observe", {"game_id": "nope"})
        bad_game = await session.call_tool("new_game", {"game": "chess"})
        bad_seat = await session.call_tool("new_game", {"game": "samurai", "seat": 9})
        return resigned, after, unknown, bad_game, bad_seat

    resigned, after, unknown, bad_game, bad_seat = run(body)
    assert resigned.startswith("You resigned: loss for you")
    assert failed(after) and "over" in text_of(after)
    assert failed(unknown) and "new_game" in text_of(unknown)
    assert failed(bad_game) and "chess" in text_of(bad_game)
    assert failed(bad_seat) and "seat 9" in text_of(bad_seat)

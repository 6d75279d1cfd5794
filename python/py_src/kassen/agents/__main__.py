"""``python -m kassen.agents``: benchmarks a chat-completions model (or a Python callable)
against the built-in bots. Example, a local llama.cpp / vLLM / Ollama server::

    python -m kassen.agents --games sekigahara,samurai --bot ismcts:easy -n 20 \\
        --base-url http://127.0.0.1:8080/v1 --model qwen2.5-7b-instruct --out runs/qwen

Base URL, key and model default to ``OPENAI_BASE_URL``, ``OPENAI_API_KEY`` and
``OPENAI_MODEL``. ``--agent module:function`` uses a Python callable instead (it gets the chat
messages and returns the answer's text). Running the same command again resumes: games already
in ``OUT/results.jsonl`` are skipped."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import Any, Optional

from kassen._kassen import games, load_game
from kassen.agents.endpoint import ChatEndpoint
from kassen.agents.harness import GameSpec, run
from kassen.agents.match import DEFAULT_BOT


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m kassen.agents", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--games", default="all", help="comma-separated game ids, or 'all' (default)")
    p.add_argument("--config", default="{}", help="game config as JSON, for every game (default {})")
    p.add_argument("--seats", default="all", help="comma-separated seats the agent plays, or 'all' (default)")
    p.add_argument("--bot", default=DEFAULT_BOT, help=f"comma-separated bot specs for the other seats (default {DEFAULT_BOT})")
    p.add_argument("-n", "--games-per-seat", type=int, default=10, help="games per game, seat and bot (default 10)")
    p.add_argument("--seed", type=int, default=0, help="episode i uses seed SEED+i (default 0)")
    p.add_argument("--out", required=True, help="folder for results.jsonl, transcripts.jsonl and summary.json")
    p.add_argument("--base-url", default=None, help="chat-completions base URL (default $OPENAI_BASE_URL)")
    p.add_argument("--model", default=None, help="model name (default $OPENAI_MODEL)")
    p.add_argument("--api-key", default=None, help="API key (default $OPENAI_API_KEY)")
    p.add_argument("--temperature", type=float, default=None)
    p.add_argument("--max-tokens", type=int, default=None)
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per request (default 120)")
    p.add_argument("--agent", default=None, help="module:function, a Python agent instead of an endpoint")
    p.add_argument("--retries", type=int, default=1, help="tries after an unreadable answer (default 1)")
    p.add_argument("--on-invalid", choices=["forfeit", "random"], default="forfeit",
                   help="when the retries are used up: forfeit the game (default) or play a random legal move")
    p.add_argument("--quiet", action="store_true", help="no line per finished game")
    return p


def _agent(args: argparse.Namespace) -> Any:
    if args.agent:
        module, _, name = args.agent.partition(":")
        if not name:
            raise SystemExit("--agent takes module:function")
        return getattr(importlib.import_module(module), name)
    params: dict[str, Any] = {}
    if args.temperature is not None:
        params["temperature"] = args.temperature
    if args.max_tokens is not None:
        params["max_tokens"] = args.max_tokens
    try:
        return ChatEndpoint(args.base_url, args.model, args.api_key, timeout=args.timeout, params=params)
    except ValueError as e:
        raise SystemExit(str(e)) from None


def specs(args: argparse.Namespace) -> list[GameSpec]:
    ids = sorted(games()) if args.games == "all" else [g.strip() for g in args.games.split(",") if g.strip()]
    config = json.loads(args.config)
    bots = [b.strip() for b in args.bot.split(",") if b.strip()]
    out = []
    for gid in ids:
        n = load_game(gid, config).num_players()
        seats = range(n) if args.seats == "all" else [int(s) for s in args.seats.split(",")]
        for seat in seats:
            if not 0 <= seat < n:
                raise SystemExit(f"seat {seat} is not a seat of {gid} (0..{n - 1})")
            for bot in bots:
                for i in range(args.games_per_seat):
                    out.append(GameSpec(gid, seat, bot, i, args.seed + i, config))
    return out


def main(argv: Optional[list[str]] = None) -> int:
    args = _parser().parse_args(argv)
    todo = specs(args)
    agent = _agent(args)

    def progress(r: dict[str, Any]) -> None:
        if not args.quiet:
            print(f"{r['key']}: {r['outcome']} ({r['decisions']} decisions, {r['invalid_answers']} invalid answers)", flush=True)

    summary = run(agent, todo, args.out, retries=args.retries, on_invalid=args.on_invalid, progress=progress)
    print(f"{'game':24} {'seat':>4} {'bot':14} {'n':>4} {'score [95%]':>20} {'invalid':>8} {'tok in/out':>14}")
    for g in summary["groups"]:
        lo, hi = g["score_95"]
        print(
            f"{g['game']:24} {g['seat']:>4} {g['bot']:14} {g['games']:>4} {g['score']:>7.3f} [{lo:.2f}, {hi:.2f}] "
            f"{g['invalid_rate']:>8.3f} {g['tokens_in_per_decision']:>7.0f}/{g['tokens_out_per_decision']:<6.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

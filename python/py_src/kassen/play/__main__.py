"""``python -m kassen.play GAME [CONFIG_JSON] [--seat N | --players P0,P1,...] [--port P]
[--seed S] [--save-dir DIR]``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from kassen.bots import bot_specs
from kassen.play import Session, make_server


def main(argv: list[str] | None = None) -> int:
    specs = ", ".join(s["spec"] for s in bot_specs())
    ap = argparse.ArgumentParser(prog="python -m kassen.play", description="Play a kassen game in the browser against bots or at one screen.")
    ap.add_argument("game", help="a registered game id (kassen.games())")
    ap.add_argument("config", nargs="?", default="{}", help="the game config as a JSON object")
    ap.add_argument("--seat", type=int, default=0, help="the seat you play against random bots (default 0)")
    ap.add_argument("--players", help=f"who plays each seat, comma-separated: human or a bot ({specs})")
    ap.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (0: any free port)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save-dir", default=".", help="where saved games are written (default: the current directory)")
    args = ap.parse_args(argv)
    players = args.players.split(",") if args.players else None
    session = Session(args.game, json.loads(args.config), args.seat, args.seed, players=players, save_dir=Path(args.save_dir))
    server = make_server(session, args.port)
    host, port = server.server_address[:2]
    who = ", ".join(f"{name}: {p}" for name, p in zip(session.snapshot()["seat_names"], session.players))
    print(f"kassen.play: {args.game} ({who}); open http://{host}:{port}/ (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        session.close()
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

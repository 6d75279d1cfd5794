"""``python -m kassen.play GAME [CONFIG_JSON] [--seat N] [--port P] [--seed S]``."""

from __future__ import annotations

import argparse
import json
import sys

from kassen.play import Session, make_server


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kassen.play", description="Play a seat of a kassen game in the browser against bots.")
    ap.add_argument("game", help="a registered game id (kassen.games())")
    ap.add_argument("config", nargs="?", default="{}", help="the game config as a JSON object")
    ap.add_argument("--seat", type=int, default=0, help="the seat you play (default 0)")
    ap.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (0: any free port)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    session = Session(args.game, json.loads(args.config), args.seat, args.seed)
    server = make_server(session, args.port)
    host, port = server.server_address[:2]
    print(f"kassen.play: {args.game}, you are seat {args.seat}; open http://{host}:{port}/ (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

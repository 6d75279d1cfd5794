"""``python -m kassen.replay saved.json [--seat N] [-o out.html]``: writes a self-contained
HTML replay of a saved game (``State.to_json`` text) as one seat (default: the spectator)
saw it."""

from __future__ import annotations

import argparse
import sys

from kassen.replay import replay_html


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kassen.replay", description=__doc__)
    ap.add_argument("saved", help="a saved game (State.to_json text)")
    ap.add_argument("--seat", type=int, default=-1, help="the seat whose view is shown (-1: spectator)")
    ap.add_argument("-o", "--output", default="replay.html")
    args = ap.parse_args(argv)
    with open(args.saved, encoding="utf-8") as f:
        text = f.read()
    page = replay_html(text, args.seat)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(page)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

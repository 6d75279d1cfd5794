"""``python -m kassen.replay saved.json [--seat N] [-o out.html]``: writes a self-contained
HTML replay of a saved game (``State.to_json`` text, or a save of the play page) as one seat (default: the spectator)
saw it.

A save this build cannot load (one of an earlier ``rules_version``, a malformed or damaged
file) or a file that cannot be read is reported on stderr in one line with its kassen error
code, and the exit status is 1; no traceback."""

from __future__ import annotations

import argparse
import sys

from kassen.exceptions import KassenError
from kassen.replay import replay_html


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kassen.replay", description=__doc__)
    ap.add_argument("saved", help="a saved game (State.to_json text, or a save of python -m kassen.play)")
    ap.add_argument("--seat", type=int, default=-1, help="the seat whose view is shown (-1: spectator)")
    ap.add_argument("-o", "--output", default="replay.html")
    args = ap.parse_args(argv)
    try:
        with open(args.saved, encoding="utf-8") as f:
            text = f.read()
        page = replay_html(text, args.seat)
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(page)
    except KassenError as e:
        print(f"{ap.prog}: {args.saved}: {e} (kassen error {e.code})", file=sys.stderr)
        return 1
    except (OSError, UnicodeDecodeError) as e:
        print(f"{ap.prog}: {e}", file=sys.stderr)
        return 1
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The browser client's files (the repository's ``web/`` folder, shipped in the wheel as
``kassen/web``), read once when a server starts and served read-only.

Only files directly in ``web/`` or in its ``css/`` and ``js/`` folders, with a name of letters,
digits, ``-``, ``_`` and ``.`` and one of the extensions of :data:`TYPES`, are served: the
allow-list is built from what is on disk when the server starts, so no request path reaches
the file system."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

#: The folder of the client's files: ``kassen/web`` (a link to the repository's ``web/`` in a
#: source checkout, the copied folder in an installed wheel).
WEB_DIR = Path(__file__).resolve().parent.parent / "web"

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
FOLDERS = ("", "css", "js")
NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}")
TOKEN_META = '<meta name="kassen-token" content="">'


def load_files(root: Optional[Path] = None) -> dict[str, tuple[bytes, str]]:
    """The client's files by URL path (``/js/board.js``): their bytes and Content-Type."""
    root = WEB_DIR if root is None else root
    if not root.is_dir():
        raise FileNotFoundError(f"the web client's folder {root} is missing")
    out: dict[str, tuple[bytes, str]] = {}
    for folder in FOLDERS:
        d = root / folder if folder else root
        if not d.is_dir():
            continue
        for f in sorted(d.iterdir()):
            kind = TYPES.get(f.suffix)
            if kind is None or not f.is_file() or not NAME.fullmatch(f.name):
                continue
            out[f"/{folder}/{f.name}" if folder else f"/{f.name}"] = (f.read_bytes(), kind)
    return out


def with_token(page: bytes, token: str) -> bytes:
    """``page`` (an HTML file of the client) with the session's ``token`` in its
    ``<meta name="kassen-token">``; the files themselves never hold a token."""
    text = page.decode("utf-8")
    if TOKEN_META not in text:
        raise ValueError("the page has no kassen-token meta tag to fill in")
    return text.replace(TOKEN_META, f'<meta name="kassen-token" content="{token}">', 1).encode("utf-8")

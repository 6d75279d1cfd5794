"""Looks at the play page of every registered game as a person does: a screenshot of each game
at 1280x800 and 1024x768 (its first position, and after some random moves), and the smallest
font size, in CSS pixels as drawn, of any visible text (board labels included: an SVG text's
size is its font size times the picture's scale on screen).

    .venv/bin/python tests/browser/measure.py [OUT_DIR]

Screenshots go to OUT_DIR (default target/browser-artifacts/measure); one line per game and
size is printed: the smallest size and the text that has it. KASSEN_WEB_DIR serves another copy
of the client's files (an earlier version, to compare).
"""

from __future__ import annotations

import base64
import os
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

import kassen
from kassen.play import Session, make_server
from kassen.play import files as files_mod
from webdriver import Browser

SIZES = [(1280, 800), (1024, 768)]

#: The smallest drawn font size of visible text: [px, text, where].
SMALLEST_FONT = """
const out = [];
const visible = (el) => {
  const r = el.getBoundingClientRect();
  if (r.width < 1 || r.height < 1) return false;
  if (r.right < 0 || r.bottom < 0 || r.left > innerWidth || r.top > innerHeight) return false;
  for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
    const cs = getComputedStyle(e);
    if (cs.display === 'none' || cs.visibility === 'hidden' || cs.opacity === '0') return false;
  }
  return true;
};
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  const text = n.textContent.trim();
  if (!text) continue;
  const el = n.parentElement;
  if (!el || !visible(el)) continue;
  let px = parseFloat(getComputedStyle(el).fontSize);
  const svg = el.closest('svg');
  if (svg && el.getScreenCTM) {
    const m = el.getScreenCTM();
    if (m) px *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
  }
  out.push([Math.round(px * 10) / 10, text.slice(0, 40), svg ? 'board' : (el.id || el.className || el.tagName)]);
}
out.sort((a, b) => a[0] - b[0]);
return out.slice(0, 3);
"""


def smallest_font(browser: Browser) -> list[Any]:
    return browser.run(SMALLEST_FONT)


def wait_state(browser: Browser) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if browser.run("return document.body.dataset.state;") in ("ready", "over", "handoff"):
            return
        time.sleep(0.05)


def main() -> None:
    if os.environ.get("KASSEN_WEB_DIR"):
        files_mod.WEB_DIR = Path(os.environ["KASSEN_WEB_DIR"])
    root = Path(__file__).resolve().parents[2]
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "target" / "browser-artifacts" / "measure"
    out.mkdir(parents=True, exist_ok=True)
    browser = Browser(1280, 800)
    try:
        for game_id in sorted(kassen.games()):
            n = kassen.load_game(game_id, {}).num_players()
            session = Session(game_id, {}, seed=3, players=["human"] + ["random"] * (n - 1))
            # Some moves into the game, so that pieces, markers and the log are on the page.
            rng = random.Random(5)
            for _ in range(12):
                s = session.state
                if s.is_terminal() or s.current_player() != 0:
                    break
                session.act(rng.choice(s.legal_actions()))
                session.wait(30)
            server = make_server(session, 0)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            try:
                for w, h in SIZES:
                    browser.resize(w, h)
                    browser.get(f"http://127.0.0.1:{server.server_address[1]}/")
                    wait_state(browser)
                    time.sleep(0.3)
                    name = f"{game_id}_{w}x{h}"
                    (out / f"{name}.png").write_bytes(base64.b64decode(browser.screenshot()))
                    small = smallest_font(browser)
                    print(f"{name}: smallest text {small[0][0] if small else '-'} px {small}")
            finally:
                session.close()
                server.shutdown()
                server.server_close()
    finally:
        browser.quit()
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main()

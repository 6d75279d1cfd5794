"""Self-contained HTML replays: ``replay_html(saved, seat)`` is a page with the board as
``seat`` (or the spectator, ``-1``) saw it after every action of a saved game, a slider over
the actions and that seat's event log (as sentences) beside the board. Only that seat's
pictures and events go into the page, so the hidden parts stay hidden as the seat saw them.

The pictures are stored packed: every distinct line of SVG markup once, and each frame as
edits of the frame before it (``replay_frames`` unpacks them), so a whole game opens at once.

CLI: ``python -m kassen.replay saved.json --seat 0 -o replay.html`` (a ``State.to_json`` file or a
save of the play page).
"""

from __future__ import annotations

import json
from typing import Any, Union

from kassen._kassen import SPECTATOR, State

__all__ = ["replay_html", "replay_data", "replay_frames", "saved_state", "PLAY_SAVE_FORMAT"]


#: The save files of the local play page (``python -m kassen.play``): the state's ``to_json``
#: document under ``"state"``, with who played each seat.
PLAY_SAVE_FORMAT = "kassen.play/1"


def saved_state(text: str) -> State:
    """The state of a saved game: ``State.to_json`` text, or a play page's save file (format
    ``kassen.play/1``, the state under ``"state"``). Anything else is refused as
    ``State.from_json`` refuses it."""
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    if isinstance(doc, dict) and doc.get("format") == PLAY_SAVE_FORMAT and isinstance(doc.get("state"), dict):
        return State.from_json(json.dumps(doc["state"]))
    return State.from_json(text)


def replay_html(saved: Union[State, str], seat: int = SPECTATOR) -> str:
    """The replay page of a saved game (a ``State``, its ``to_json`` text or a play page's save
    file) for ``seat``."""
    state = saved_state(saved) if isinstance(saved, str) else saved
    return state.replay_html(seat)


def replay_data(page: str) -> dict[str, Any]:
    """The data a replay page carries: ``lines`` (distinct SVG lines), ``frames`` (edits),
    ``steps`` (actions applied at each frame) and ``events`` (``[step, sentence]`` pairs)."""
    text = page.split('type="application/json">', 1)[1].split("</script>", 1)[0]
    data: dict[str, Any] = json.loads(text.replace("<\\/", "</"))
    return data


def replay_frames(page: str) -> list[tuple[int, str]]:
    """Every frame of a replay page as ``(actions applied, svg)``, unpacked as the page does:
    a number inserts that line of ``lines``, a pair ``[start, n]`` copies n lines of the
    previous frame from ``start``."""
    data = replay_data(page)
    lines: list[str] = data["lines"]
    out: list[tuple[int, str]] = []
    prev: list[int] = []
    for step, ops in zip(data["steps"], data["frames"]):
        cur: list[int] = []
        for op in ops:
            if isinstance(op, int):
                cur.append(op)
            else:
                cur.extend(prev[op[0]:op[0] + op[1]])
        out.append((step, "".join(lines[k] for k in cur)))
        prev = cur
    return out

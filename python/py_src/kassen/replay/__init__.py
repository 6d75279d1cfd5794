"""Self-contained HTML replays: ``replay_html(saved, seat)`` draws the board as ``seat`` (or
the spectator, ``-1``) saw it after every action of a saved game, with a slider over the
actions and that seat's event log beside the board. Only that seat's views and events go into
the file, so the hidden parts stay hidden as the seat saw them.

CLI: ``python -m kassen.replay saved.json --seat 0 -o replay.html``.
"""

from __future__ import annotations

import html
import json
from typing import Any, Union

from kassen._kassen import CHANCE, SPECTATOR, State, load_game

__all__ = ["replay_html", "frames"]


def _explicit_replay(saved: State) -> State:
    """The initial state of the saved game's game with chance outcomes taken from its log."""
    info = saved.game().info()
    config = dict(info["config"])
    config["explicit_chance"] = True
    seed = int(json.loads(saved.to_json())["seed"])
    return load_game(info["id"], config).new_initial_state(seed)


def frames(saved: Union[State, str], seat: int = SPECTATOR) -> list[dict[str, Any]]:
    """One frame per decision point of the saved game: ``{"step": number of log entries
    applied, "svg": the board as ``seat`` saw it}``. Chance nodes that the engine resolved by
    itself are skipped, and a frame equal to the one before (a move ``seat`` cannot see) too."""
    state = State.from_json(saved) if isinstance(saved, str) else saved
    history = state.history()
    replay = _explicit_replay(state)
    out: list[dict[str, Any]] = []
    for step in range(len(history) + 1):
        if step == len(history) or replay.current_player() != CHANCE:
            svg = replay.render_svg(seat)
            if not out or out[-1]["svg"] != svg:
                out.append({"step": step, "svg": svg})
        if step < len(history):
            replay.apply_action(history[step])
    return out


def _event_text(e: dict[str, Any]) -> str:
    rest = {k: v for k, v in e.items() if k not in ("step", "audience", "kind")}
    return f"{e.get('kind', '?')} {json.dumps(rest, ensure_ascii=False)}"


def replay_html(saved: Union[State, str], seat: int = SPECTATOR, title: str = "") -> str:
    """The replay page of a saved game (a ``State`` or its ``to_json`` text) for ``seat``."""
    state = State.from_json(saved) if isinstance(saved, str) else saved
    fs = frames(state, seat)
    events = [{"step": e["step"], "text": _event_text(e)} for e in state.events(seat)]
    who = "the spectator" if seat == SPECTATOR else f"seat {seat}"
    name = title or f"{state.game().id} replay for {who}"
    data = json.dumps({"frames": fs, "events": events}, ensure_ascii=False).replace("</", "<\\/")
    return _PAGE.replace("%TITLE%", html.escape(name)).replace("%DATA%", data)


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>%TITLE%</title>
<style>
body { font-family: sans-serif; margin: 12px; }
#wrap { display: flex; gap: 12px; align-items: flex-start; }
#board svg { max-width: 100%; height: auto; }
#log { width: 340px; max-height: 90vh; overflow-y: auto; font-size: 12px; border: 1px solid #999; padding: 4px; }
#log div.now { background: #F0E442; }
#controls { margin: 8px 0; }
#slider { width: 60%; }
</style></head><body>
<h1 style="font-size:18px">%TITLE%</h1>
<div id="controls"><button id="prev">&#9664;</button>
<input id="slider" type="range" min="0" value="0" step="1"><button id="next">&#9654;</button>
<span id="where"></span></div>
<div id="wrap"><div id="board"></div><div id="log"></div></div>
<script id="replay-data" type="application/json">%DATA%</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("replay-data").textContent);
const slider = document.getElementById("slider");
slider.max = String(data.frames.length - 1);
function show(i) {
  const f = data.frames[i];
  document.getElementById("board").innerHTML = f.svg;
  document.getElementById("where").textContent = "frame " + (i + 1) + " of " + data.frames.length + ", after " + f.step + " actions";
  const log = document.getElementById("log");
  log.textContent = "";
  const prev = i > 0 ? data.frames[i - 1].step : -1;
  for (const e of data.events) {
    if (e.step >= f.step) break;
    const div = document.createElement("div");
    div.textContent = "#" + e.step + " " + e.text;
    if (e.step >= prev) div.className = "now";
    log.appendChild(div);
  }
  log.scrollTop = log.scrollHeight;
}
slider.addEventListener("input", () => show(Number(slider.value)));
document.getElementById("prev").onclick = () => { slider.value = String(Math.max(0, Number(slider.value) - 1)); show(Number(slider.value)); };
document.getElementById("next").onclick = () => { slider.value = String(Math.min(data.frames.length - 1, Number(slider.value) + 1)); show(Number(slider.value)); };
show(0);
</script></body></html>
"""

//! Self-contained HTML replays: the board as one observer saw it after every action of a
//! game, with a slider over the actions and that observer's event log beside the board.
//! Only that observer's pictures and events go into the page.

use serde_json::{json, Value};

use super::RenderError;
use crate::engine::{load_game, StateHandle};
use crate::game::{Player, CHANCE};

/// The pictures of `state`'s game as `observer` saw it: `(log entries applied, svg)` at every
/// decision point and at the end. Chance nodes the engine resolved by itself are skipped, and
/// so is a picture equal to the one before (a move the observer could not see).
pub fn frames(state: &StateHandle, observer: Player) -> Result<Vec<(usize, String)>, RenderError> {
    let game = state.game();
    let mut config = game.info().config.clone();
    config["explicit_chance"] = json!(true);
    let explicit = load_game(game.id(), Some(&config)).map_err(|e| RenderError::Malformed(e.to_string()))?;
    let mut replay = explicit.new_initial_state(state.seed());
    let history = state.history();
    let mut out: Vec<(usize, String)> = Vec::new();
    for step in 0..=history.len() {
        if step == history.len() || replay.current_player() != CHANCE {
            let svg = replay.render_svg(observer)?;
            if out.last().is_none_or(|(_, last)| *last != svg) {
                out.push((step, svg));
            }
        }
        if let Some(&a) = history.get(step) {
            replay.apply_in_place(a)?;
        }
    }
    Ok(out)
}

fn event_text(body: &Value) -> String {
    let kind = body.get("kind").and_then(Value::as_str).unwrap_or("?");
    let mut rest = body.as_object().cloned().unwrap_or_default();
    rest.remove("kind");
    format!("{kind} {}", Value::Object(rest))
}

/// The replay page of `state`'s game for `observer` (a seat, or -1 for the spectator).
pub fn replay_html(state: &StateHandle, observer: Player) -> Result<String, RenderError> {
    let frames: Vec<Value> = frames(state, observer)?.into_iter().map(|(step, svg)| json!({"step": step, "svg": svg})).collect();
    let events: Vec<Value> =
        state.events(observer)?.iter().map(|e| json!({"step": e.step, "text": event_text(&e.body.to_value())})).collect();
    let who = if observer < 0 { "the spectator".to_string() } else { format!("seat {observer}") };
    let title = super::esc(&format!("{} replay for {who}", state.game().info().name));
    let data = script_json(&json!({"frames": frames, "events": events}));
    Ok(PAGE.replace("%TITLE%", &title).replace("%DATA%", &data))
}

/// `value` as JSON text safe inside an HTML `<script>` element: `<`, `>`, `&`, U+2028 and
/// U+2029 are written as `\uXXXX` escapes (the same JSON value), so no `</script>`, `<!--`
/// or `<script>` in the data can change how the HTML tokenizer ends the element, and the text
/// is also valid JavaScript (as Django's `json_script` and Rails' `json_escape` do).
fn script_json(value: &Value) -> String {
    let text = value.to_string();
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

const PAGE: &str = r##"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>%TITLE%</title>
<style>
body { font-family: 'Noto Sans', sans-serif; margin: 12px; }
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
function go(i) { slider.value = String(Math.min(data.frames.length - 1, Math.max(0, i))); show(Number(slider.value)); }
slider.addEventListener("input", () => show(Number(slider.value)));
document.getElementById("prev").onclick = () => go(Number(slider.value) - 1);
document.getElementById("next").onclick = () => go(Number(slider.value) + 1);
document.addEventListener("keydown", (e) => { if (e.key === "ArrowLeft") go(Number(slider.value) - 1); if (e.key === "ArrowRight") go(Number(slider.value) + 1); });
show(0);
</script></body></html>
"##;

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::script_json;

    #[test]
    fn embedded_json_survives_a_hostile_name() {
        let hostile = "<!--<script>alert(1)</script>--> & \u{2028}\u{2029} </SCRIPT>";
        let value = json!({"events": [{"text": hostile}], "name": hostile});
        let text = script_json(&value);
        for bad in ['<', '>', '&', '\u{2028}', '\u{2029}'] {
            assert!(!text.contains(bad), "{bad:?} left in {text}");
        }
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
    }
}

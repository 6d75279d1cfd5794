//! Self-contained HTML replays: the board as one observer saw it after every action of a
//! game, with a slider over the actions and that observer's event log beside the board.
//! Only that observer's pictures and events go into the page.

use std::collections::HashMap;

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
    let mut replay = match state.start_position() {
        None => explicit.new_initial_state(state.seed()),
        // A game that started at a constructed position replays from it.
        Some(mut doc) => {
            doc["config"] = config;
            explicit.load_position(&doc).map_err(|e| RenderError::Malformed(e.to_string()))?
        }
    };
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

/// The pictures packed for the page: every distinct line of markup once (each SVG element
/// is one line), and each frame as edits of the frame before it: `[start, len]` copies that
/// many lines of the previous frame from `start`, a number `k` inserts line `k` of the table.
/// A whole game then weighs little more than its first picture plus what changed per step.
pub fn pack(svgs: &[&str]) -> (Vec<String>, Vec<Vec<Value>>) {
    let mut table: Vec<String> = Vec::new();
    let mut index: HashMap<&str, u32> = HashMap::new();
    let mut prev: Vec<u32> = Vec::new();
    let mut frames = Vec::with_capacity(svgs.len());
    for svg in svgs {
        let cur: Vec<u32> = svg
            .split_inclusive('\n')
            .map(|line| {
                *index.entry(line).or_insert_with(|| {
                    table.push(line.to_string());
                    (table.len() - 1) as u32
                })
            })
            .collect();
        let mut at: HashMap<u32, Vec<usize>> = HashMap::new();
        for (i, &k) in prev.iter().enumerate() {
            at.entry(k).or_default().push(i);
        }
        let mut ops = Vec::new();
        let mut i = 0;
        while i < cur.len() {
            // the longest run of the previous frame that starts with this line (among the
            // first few places it occurs)
            let (mut best_start, mut best_len) = (0, 0);
            for &start in at.get(&cur[i]).map(Vec::as_slice).unwrap_or(&[]).iter().take(8) {
                let len = cur[i..].iter().zip(&prev[start..]).take_while(|(a, b)| a == b).count();
                if len > best_len {
                    (best_start, best_len) = (start, len);
                }
            }
            if best_len >= 2 {
                ops.push(json!([best_start, best_len]));
                i += best_len;
            } else {
                ops.push(json!(cur[i]));
                i += 1;
            }
        }
        frames.push(ops);
        prev = cur;
    }
    (table, frames)
}

/// A sentence for an event the game has none for: its kind and fields.
fn fallback_text(body: &Value) -> String {
    let kind = body.get("kind").and_then(Value::as_str).unwrap_or("?");
    let mut rest = body.as_object().cloned().unwrap_or_default();
    rest.remove("kind");
    format!("{kind} {}", Value::Object(rest))
}

/// The replay page of `state`'s game for `observer` (a seat, or -1 for the spectator).
pub fn replay_html(state: &StateHandle, observer: Player) -> Result<String, RenderError> {
    let pictures = frames(state, observer)?;
    let svgs: Vec<&str> = pictures.iter().map(|(_, svg)| svg.as_str()).collect();
    let (table, ops) = pack(&svgs);
    let steps: Vec<usize> = pictures.iter().map(|(step, _)| *step).collect();
    let game = state.game();
    let events: Vec<Value> = state
        .events(observer)?
        .iter()
        .map(|e| {
            let text = game.event_text(&e.body, observer).unwrap_or_else(|| fallback_text(&e.body.to_value()));
            json!([e.step, text])
        })
        .collect();
    let who = if observer < 0 { "the spectator".to_string() } else { format!("seat {observer}") };
    let title = super::esc(&format!("{} replay for {who}", game.info().name));
    let data = script_json(&json!({"lines": table, "frames": ops, "steps": steps, "events": events}));
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
html, body { height: 100%; margin: 0; }
body { font-family: 'Noto Sans', 'Noto Sans CJK JP', sans-serif; display: flex; flex-direction: column; }
header { padding: 6px 12px; display: flex; gap: 10px; align-items: center; flex-wrap: wrap; border-bottom: 1px solid #ccc; }
header h1 { font-size: 16px; margin: 0; }
#slider { flex: 1; min-width: 200px; }
#wrap { flex: 1; min-height: 0; display: flex; gap: 8px; padding: 8px; }
#board { flex: 1; min-width: 0; display: flex; justify-content: center; align-items: flex-start; }
#board svg { width: 100%; height: 100%; max-height: calc(100vh - 70px); }
#log { width: 360px; flex: none; overflow-y: auto; font-size: 13px; border: 1px solid #999; padding: 4px; }
#log div { padding: 1px 2px; border-bottom: 1px solid #eee; }
#log div.later { display: none; }
#log div.now { background: #F0E442; }
#log span.n { color: #777; font-size: 11px; margin-right: 4px; }
</style></head><body>
<header><h1>%TITLE%</h1><button id="first" title="first move">|&#9664;</button><button id="prev" title="previous move">&#9664;</button>
<input id="slider" type="range" min="0" value="0" step="1"><button id="next" title="next move">&#9654;</button><button id="last" title="last move">&#9654;|</button>
<span id="where"></span></header>
<div id="wrap"><div id="board"></div><div id="log"></div></div>
<script id="replay-data" type="application/json">%DATA%</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("replay-data").textContent);
const n = data.frames.length;
const slider = document.getElementById("slider");
const board = document.getElementById("board");
const log = document.getElementById("log");
slider.max = String(n - 1);
// frames[i] are edits of frame i-1 (see replay.rs `pack`); decoded on demand, in order.
const decoded = [];
function lines(i) {
  let j = i;
  while (j >= 0 && !decoded[j]) j--;
  for (let k = j + 1; k <= i; k++) {
    const prev = k > 0 ? decoded[k - 1] : [];
    const out = [];
    for (const op of data.frames[k]) {
      if (typeof op === "number") out.push(op);
      else for (let x = op[0], end = op[0] + op[1]; x < end; x++) out.push(prev[x]);
    }
    decoded[k] = out;
  }
  return decoded[i];
}
const rows = data.events.map(([step, text]) => {
  const div = document.createElement("div");
  div.dataset.step = String(step);
  const num = document.createElement("span");
  num.className = "n";
  num.textContent = String(step);
  div.append(num, text);
  log.appendChild(div);
  return div;
});
function show(i) {
  board.innerHTML = lines(i).map((k) => data.lines[k]).join("");
  const svg = board.querySelector("svg");
  if (svg) svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
  const step = data.steps[i], prev = i > 0 ? data.steps[i - 1] : step;
  document.getElementById("where").textContent = "frame " + (i + 1) + " of " + n + ", after " + step + " actions";
  let last = null;
  data.events.forEach(([s], k) => {
    rows[k].classList.toggle("later", s >= step);
    rows[k].classList.toggle("now", s < step && s >= prev);
    if (s < step) last = rows[k];
  });
  if (last) last.scrollIntoView({block: "nearest"});
  document.body.dataset.frame = String(i);
}
function go(i) { slider.value = String(Math.min(n - 1, Math.max(0, i))); show(Number(slider.value)); }
slider.addEventListener("input", () => show(Number(slider.value)));
document.getElementById("prev").onclick = () => go(Number(slider.value) - 1);
document.getElementById("next").onclick = () => go(Number(slider.value) + 1);
document.getElementById("first").onclick = () => go(0);
document.getElementById("last").onclick = () => go(n - 1);
document.addEventListener("keydown", (e) => { if (e.key === "ArrowLeft") go(Number(slider.value) - 1); if (e.key === "ArrowRight") go(Number(slider.value) + 1); });
show(0);
</script></body></html>
"##;

#[cfg(test)]
mod tests {
    use super::*;

    /// What the page's script does: each frame rebuilt from the one before it.
    fn unpack(table: &[String], frames: &[Vec<Value>]) -> Vec<String> {
        let mut prev: Vec<u64> = Vec::new();
        let mut out = Vec::new();
        for ops in frames {
            let mut cur = Vec::new();
            for op in ops {
                match op {
                    Value::Number(k) => cur.push(k.as_u64().unwrap()),
                    Value::Array(run) => {
                        let (a, n) = (run[0].as_u64().unwrap() as usize, run[1].as_u64().unwrap() as usize);
                        cur.extend_from_slice(&prev[a..a + n]);
                    }
                    other => panic!("bad op {other}"),
                }
            }
            out.push(cur.iter().map(|&k| table[k as usize].as_str()).collect());
            prev = cur;
        }
        out
    }

    #[test]
    fn packed_frames_unpack_to_the_pictures() {
        let svgs = [
            "<svg>\n<g>\n<rect a/>\n<rect b/>\n</g>\n<text>1</text>\n</svg>\n",
            "<svg>\n<g>\n<rect a/>\n<rect c/>\n<rect b/>\n</g>\n<text>2</text>\n</svg>\n",
            "<svg>\n<text>2</text>\n<g>\n<rect a/>\n</g>\n</g>\n</svg>",
            "",
            "<svg>\n<g>\n<rect a/>\n<rect c/>\n<rect b/>\n</g>\n<text>2</text>\n</svg>\n",
        ];
        let (table, frames) = pack(&svgs);
        assert_eq!(unpack(&table, &frames), svgs);
        assert_eq!(table.iter().filter(|l| l.as_str() == "<rect a/>\n").count(), 1, "each line is stored once");
    }

    #[test]
    fn a_whole_game_packs_to_a_fraction_of_its_pictures() {
        let game = load_game("sekigahara", None).unwrap();
        let mut state = game.new_initial_state(3);
        let mut rng = crate::rng::Rng::from_seed(3);
        while !state.is_terminal() && state.history().len() < 150 {
            let legal = state.legal_actions();
            state.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
        }
        let pictures = frames(&state, 0).unwrap();
        let svgs: Vec<&str> = pictures.iter().map(|(_, s)| s.as_str()).collect();
        let (table, ops) = pack(&svgs);
        assert_eq!(unpack(&table, &ops), svgs);
        let raw: usize = svgs.iter().map(|s| s.len()).sum();
        let packed = serde_json::to_string(&json!({"lines": table, "frames": ops})).unwrap().len();
        assert!(packed * 5 < raw, "{packed} bytes packed from {raw}");
    }

    /// The buttons' glyphs are drawn by the fonts the page names (Noto Sans, Noto Sans CJK):
    /// ASCII and the geometric triangles ◀ ▶; U+23ED/U+23EE (⏭ ⏮) are in neither and show as
    /// boxes.
    #[test]
    fn the_buttons_use_glyphs_of_the_named_fonts() {
        let header = &PAGE[PAGE.find("<header>").expect("a header")..PAGE.find("</header>").expect("a header")];
        for code in ["&#9198;", "&#9197;", "\u{23ee}", "\u{23ed}"] {
            assert!(!header.contains(code), "{code} in the replay's buttons");
        }
        for id in ["first", "prev", "next", "last"] {
            let at = header.find(&format!("id=\"{id}\"")).expect("the button");
            let label = &header[header[at..].find('>').expect("a tag") + at + 1..];
            let label = &label[..label.find("</button>").expect("a button")];
            let text = label.replace("&#9664;", "\u{25c0}").replace("&#9654;", "\u{25b6}");
            assert!(text.chars().all(|c| c.is_ascii_graphic() || c == '\u{25c0}' || c == '\u{25b6}'), "{id}: {label}");
        }
    }

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

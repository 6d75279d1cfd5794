//! The text observation of one seat: everything it knows at one state, as one self-contained
//! text for a language-model agent (docs/text.md). Assembled from the seat's view envelope,
//! its events since its last decision and, where it acts, its legal moves: nothing that the
//! view, the events and the legal actions of that seat do not already hold.

use serde_json::Value;

use crate::game::Player;

/// The most recent event sentences shown; older ones since the seat's last decision are
/// counted, not shown.
pub const MAX_EVENTS: usize = 40;

/// Longer move lists are grouped by the text before their first `": "`.
pub const GROUP_ABOVE: usize = 30;

/// What goes into a text observation.
pub struct Parts<'a> {
    /// The game's full name.
    pub game_name: &'a str,
    pub observer: Player,
    /// The seat's view envelope ([`crate::view`]).
    pub view: &'a Value,
    /// The board and holdings as text (the game's [`crate::Game::board_text`] or the generic
    /// rendering of the view body).
    pub board: &'a str,
    /// Sentences of the seat's events since its last decision, oldest first.
    pub events: &'a [String],
    /// The seat's legal moves (their unique move strings, in action id order) where it is to
    /// act, else empty.
    pub moves: &'a [String],
}

fn seat_name(view: &Value, seat: i64) -> String {
    let name = view["seats"].get(seat as usize).and_then(|s| s["name"].as_str()).unwrap_or("");
    if name.is_empty() {
        format!("seat {seat}")
    } else {
        format!("seat {seat} ({name})")
    }
}

fn who(view: &Value, seat: &Value, observer: Player) -> String {
    match seat.as_i64() {
        Some(s) if s == observer as i64 => format!("you, {}", seat_name(view, s)),
        Some(s) => seat_name(view, s),
        None => "chance".into(),
    }
}

/// The group of a move string: the text before its first `": "`, if any.
pub fn group_of(m: &str) -> Option<&str> {
    m.split_once(": ").map(|(g, _)| g)
}

/// Writes the text observation.
pub fn write(p: &Parts) -> String {
    let v = p.view;
    let mut out = String::with_capacity(4096);
    let me = if p.observer >= 0 { format!("You are {}.", seat_name(v, p.observer as i64)) } else { "You are a spectator.".into() };
    out.push_str(&format!("# {}\n{me}", p.game_name));
    let others: Vec<String> =
        (0..v["seats"].as_array().map_or(0, Vec::len) as i64).filter(|&s| s != p.observer as i64).map(|s| seat_name(v, s)).collect();
    if !others.is_empty() {
        out.push_str(&format!(" Other seats: {}.", others.join(", ")));
    }
    out.push('\n');
    if let Some(last) = v["last_action"].as_object() {
        let by = who(v, &last["seat"], p.observer);
        match last.get("text").and_then(Value::as_str) {
            Some(t) => out.push_str(&format!("Last action ({by}): {t}\n")),
            None => out.push_str(&format!("Last action ({by}): hidden from you\n")),
        }
    }
    if v["terminal"].as_bool() == Some(true) {
        out.push_str(&format!("The game is over. Returns per seat: {}.", super::board::inline(&v["returns"])));
        let winners: Vec<String> = v["winners"].as_array().into_iter().flatten().map(|w| who(v, w, p.observer)).collect();
        out.push_str(&if winners.is_empty() { " No winner.\n".to_string() } else { format!(" Won: {}.\n", winners.join(", ")) });
    } else {
        let to_act = &v["to_act"];
        out.push_str(&format!("To act: {}.", who(v, &to_act["seat"], p.observer)));
        let d = &to_act["decision"];
        if let Some(prompt) = d["prompt"].as_str() {
            out.push_str(&format!(" Decision: {prompt}"));
        }
        if let Value::Object(o) = d {
            let mut rest = o.clone();
            rest.remove("prompt");
            rest.remove("kind");
            let extra = super::board::inline(&Value::Object(rest));
            if !extra.is_empty() {
                out.push_str(&format!(" ({extra})"));
            }
        }
        out.push('\n');
    }
    out.push_str("\n## State\n");
    out.push_str(p.board);
    if !p.board.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(if p.observer >= 0 { "\n## Since your last decision\n" } else { "\n## Since the last move\n" });
    if p.events.is_empty() {
        out.push_str("Nothing you could see.\n");
    }
    let skipped = p.events.len().saturating_sub(MAX_EVENTS);
    if skipped > 0 {
        out.push_str(&format!("({skipped} earlier events left out)\n"));
    }
    for e in &p.events[skipped..] {
        out.push_str(&format!("- {e}\n"));
    }
    if !p.moves.is_empty() {
        write_moves(&mut out, p.moves);
    }
    out
}

fn write_moves(out: &mut String, moves: &[String]) {
    out.push_str(&format!("\n## Your legal moves ({})\n", moves.len()));
    let grouped = moves.len() > GROUP_ABOVE && moves.iter().all(|m| group_of(m).is_some());
    if !grouped {
        for (i, m) in moves.iter().enumerate() {
            out.push_str(&format!("{}. {m}\n", i + 1));
        }
    } else {
        out.push_str("Grouped by the text before the first \": \"; a move is its group, \": \" and the item.\n");
        let mut current: Option<&str> = None;
        for (i, m) in moves.iter().enumerate() {
            let (g, item) = m.split_once(": ").unwrap_or(("", m));
            if current != Some(g) {
                let n = moves[i..].iter().take_while(|x| group_of(x) == Some(g)).count();
                out.push_str(&format!("{g}: ({n})\n"));
                current = Some(g);
            }
            out.push_str(&format!("  {}. {item}\n", i + 1));
        }
    }
    out.push_str("Answer with exactly one move: its text as written above or its number.\n");
}

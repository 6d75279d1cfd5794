//! The text observation of one seat: everything it knows at one state, as one self-contained
//! text for a language-model agent (docs/text.md). Assembled from the seat's view envelope,
//! its events since its last decision and, where it acts, its legal moves: nothing that the
//! view, the events and the legal actions of that seat do not already hold.

use std::fmt::Write;

use super::board;
use super::node::Node;
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
    /// The seat's view envelope ([`crate::view`]) as a tree.
    pub view: &'a Node,
    /// Writes the board and holdings (the game's [`crate::Game::board_text`] or the generic
    /// rendering of the view body); `None`: the generic rendering of `view`'s body.
    pub board: Option<&'a dyn Fn(&mut String)>,
    /// Sentences of the seat's events since its last decision, oldest first.
    pub events: &'a [String],
    /// The seat's legal moves (their unique move strings, in action id order) where it is to
    /// act, else empty.
    pub moves: &'a [String],
}

fn seat_name(out: &mut String, view: &Node, seat: i64) {
    let name = usize::try_from(seat).ok().and_then(|i| view.get("seats").as_list().get(i)).and_then(|s| s.get("name").as_str());
    let _ = write!(out, "seat {seat}");
    if let Some(name) = name.filter(|n| !n.is_empty()) {
        let _ = write!(out, " ({name})");
    }
}

fn who(out: &mut String, view: &Node, seat: &Node, observer: Player) {
    match seat.as_i64() {
        Some(s) if s == observer as i64 => {
            out.push_str("you, ");
            seat_name(out, view, s);
        }
        Some(s) => seat_name(out, view, s),
        None => out.push_str("chance"),
    }
}

/// The group of a move string: the text before its first `": "`, if any.
pub fn group_of(m: &str) -> Option<&str> {
    m.split_once(": ").map(|(g, _)| g)
}

/// Writes the text observation.
pub fn write(p: &Parts) -> String {
    let v = p.view;
    let mut out = String::with_capacity(8192);
    let _ = writeln!(out, "# {}", p.game_name);
    if p.observer >= 0 {
        out.push_str("You are ");
        seat_name(&mut out, v, p.observer as i64);
        out.push('.');
    } else {
        out.push_str("You are a spectator.");
    }
    let seats = v.get("seats").as_list().len() as i64;
    let mut first = true;
    for s in (0..seats).filter(|&s| s != p.observer as i64) {
        out.push_str(if first { " Other seats: " } else { ", " });
        seat_name(&mut out, v, s);
        first = false;
    }
    if !first {
        out.push('.');
    }
    out.push('\n');
    let last = v.get("last_action");
    if let Node::Map(_) = last {
        out.push_str("Last action (");
        who(&mut out, v, last.get("seat"), p.observer);
        match last.get("text").as_str() {
            Some(t) => {
                let _ = writeln!(out, "): {t}");
            }
            // A move the seat may not see by name is told by what it was shown of it.
            None => {
                let told: Vec<&str> = last.get("sentences").as_list().iter().filter_map(Node::as_str).collect();
                if told.is_empty() {
                    out.push_str("): hidden from you\n");
                } else {
                    let _ = writeln!(out, "): {}", told.join("; "));
                }
            }
        }
    }
    if v.get("terminal") == &Node::Bool(true) {
        out.push_str("The game is over. Returns per seat: ");
        board::inline(&mut out, v.get("returns"));
        out.push('.');
        let winners = v.get("winners").as_list();
        if winners.is_empty() {
            out.push_str(" No winner.\n");
        } else {
            out.push_str(" Won: ");
            for (i, w) in winners.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                who(&mut out, v, w, p.observer);
            }
            out.push_str(".\n");
        }
    } else {
        let to_act = v.get("to_act");
        out.push_str("To act: ");
        who(&mut out, v, to_act.get("seat"), p.observer);
        out.push('.');
        let d = to_act.get("decision");
        if let Some(prompt) = d.get("prompt").as_str() {
            let _ = write!(out, " Decision: {prompt}");
        }
        if let Node::Map(_) = d {
            out.push_str(" (");
            let mark = out.len();
            board::inline_except(&mut out, d, &["prompt", "kind"]);
            if out.len() == mark {
                out.truncate(mark - 2);
            } else {
                out.push(')');
            }
        }
        out.push('\n');
    }
    out.push_str("\n## State\n");
    let mark = out.len();
    match p.board {
        Some(board) => board(&mut out),
        None => board::render(&mut out, v.get("body")),
    }
    if out.len() == mark || !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(if p.observer >= 0 { "\n## Since your last decision\n" } else { "\n## Since the last move\n" });
    if p.events.is_empty() {
        out.push_str("Nothing you could see.\n");
    }
    let skipped = p.events.len().saturating_sub(MAX_EVENTS);
    if skipped > 0 {
        let _ = writeln!(out, "({skipped} earlier events left out)");
    }
    for e in &p.events[skipped..] {
        let _ = writeln!(out, "- {e}");
    }
    if !p.moves.is_empty() {
        write_moves(&mut out, p.moves);
    }
    out
}

fn write_moves(out: &mut String, moves: &[String]) {
    let _ = writeln!(out, "\n## Your legal moves ({})", moves.len());
    let grouped = moves.len() > GROUP_ABOVE && moves.iter().all(|m| group_of(m).is_some());
    if !grouped {
        for (i, m) in moves.iter().enumerate() {
            let _ = writeln!(out, "{}. {m}", i + 1);
        }
    } else {
        out.push_str("Grouped by the text before the first \": \"; a move is its group, \": \" and the item.\n");
        let mut current: Option<&str> = None;
        for (i, m) in moves.iter().enumerate() {
            let (g, item) = m.split_once(": ").unwrap_or(("", m));
            if current != Some(g) {
                let n = moves[i..].iter().take_while(|x| group_of(x) == Some(g)).count();
                let _ = writeln!(out, "{g}: ({n})");
                current = Some(g);
            }
            let _ = writeln!(out, "  {}. {item}", i + 1);
        }
    }
    out.push_str("Answer with exactly one move: its text as written above or its number.\n");
}

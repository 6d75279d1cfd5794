//! The Three Kingdoms Redux board as a seat sees it: the action spaces with the generals and
//! bids placed on them, the border regions, the tracks of each kingdom and the seat's own hand.
//!
//! The game's data has no drawing coordinates: action spaces are laid out in a fixed grid in
//! the order the view lists the placements, regions in columns by border in view order.

use std::collections::BTreeMap;

use serde_json::Value;

use super::Tkr;
use crate::render::palette::{seat_marker, GREY, LAND, LIGHT_GREY, PAPER};
use crate::render::{int, list, paint, show, text, Canvas, Frame, RenderError, Swatch};

const BOX_W: f64 = 190.0;
const BOX_H: f64 = 70.0;
const GAP: f64 = 8.0;
const COLS: usize = 4;

fn seat_of(v: &Value) -> Option<usize> {
    v.get("seat").and_then(Value::as_u64).map(|s| s as usize)
}

pub fn draw(_g: &Tkr, f: &Frame, c: &mut Canvas) -> Result<(), RenderError> {
    let b = f.body;
    let mut spaces: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for p in list(b, "placements").iter().chain(b.get("placing").filter(|p| p.is_object())) {
        let action = if p["action"].is_null() { "being placed".to_string() } else { show(&p["action"]) };
        if !spaces.contains_key(&action) {
            order.push(action.clone());
        }
        spaces.entry(action).or_default().push(p);
    }
    let s = &mut c.board;
    s.text(0.0, 14.0, 14.0, "start", "font-weight=\"bold\"", "Action spaces");
    for (k, action) in order.iter().enumerate() {
        let (x, y) = ((k % COLS) as f64 * (BOX_W + GAP), 22.0 + (k / COLS) as f64 * (BOX_H + GAP));
        s.group(&format!("class=\"space\" data-target=\"space:{}\"", crate::render::esc(action)));
        s.rect(x, y, BOX_W, BOX_H, &paint(LAND, GREY, 1.0));
        s.text(x + 6.0, y + 14.0, 11.0, "start", "font-weight=\"bold\"", &action.replace('_', " "));
        for (i, p) in spaces[action].iter().enumerate().take(3) {
            let py = y + 30.0 + i as f64 * 14.0;
            if let Some(seat) = seat_of(p) {
                seat_marker(s, seat, x + 12.0, py - 4.0, 5.0);
            }
            let han = if p["han"] == true { ", han" } else { "" };
            s.text(x + 22.0, py, 10.0, "start", "", &format!("{} (value {}{han})", show(&p["general"]), show(&p["value"])));
        }
        s.end_group();
    }
    let rows = order.len().div_ceil(COLS).max(1);
    let mut y = 22.0 + rows as f64 * (BOX_H + GAP) + 16.0;
    s.text(0.0, y, 14.0, "start", "font-weight=\"bold\"", "Regions");
    y += 8.0;
    let mut borders: Vec<String> = Vec::new();
    for r in list(b, "regions") {
        let border = show(&r["border"]);
        if !borders.contains(&border) {
            borders.push(border);
        }
    }
    let mut tallest = 0.0f64;
    for (col, border) in borders.iter().enumerate() {
        let x = col as f64 * (BOX_W + GAP);
        s.text(x, y + 12.0, 11.0, "start", "font-weight=\"bold\"", &border.replace('_', "-"));
        let mut ry = y + 18.0;
        for r in list(b, "regions").iter().filter(|r| show(&r["border"]) == *border) {
            let fill = if r["flipped"] == true { LIGHT_GREY } else { PAPER };
            s.group(&format!("class=\"region\" data-target=\"region:{}\"", crate::render::esc(text(r, "id"))));
            s.rect(x, ry, BOX_W, 24.0, &paint(fill, GREY, 1.0));
            if let Some(seat) = seat_of(r) {
                seat_marker(s, seat, x + 10.0, ry + 12.0, 5.0);
            }
            let held = if r["general"].is_null() { String::new() } else { format!(": {} x{}", show(&r["general"]), int(r, "units")) };
            s.text(
                x + 20.0,
                ry + 16.0,
                10.0,
                "start",
                "",
                &format!("{} [{}]{held}", text(r, "id").replace('_', " "), show(&r["requires"])),
            );
            s.end_group();
            ry += 27.0;
        }
        tallest = tallest.max(ry - y);
    }
    c.width = COLS as f64 * (BOX_W + GAP);
    c.height = y + tallest + 8.0;
    legend(c);
    panel(f, c);
    Ok(())
}

fn legend(c: &mut Canvas) {
    c.legend(Swatch::Fill(LAND, GREY), "action space: generals placed (value)");
    c.legend(Swatch::Fill(PAPER, GREY), "region (marker: holder)");
    c.legend(Swatch::Fill(LIGHT_GREY, GREY), "region flipped");
}

fn panel(f: &Frame, c: &mut Canvas) {
    let b = f.body;
    c.heading(&format!("Round {}", show(&b["round"])));
    for (i, seat) in list(b, "seats").iter().enumerate() {
        c.seat_line(
            i,
            &format!(
                "{} ({}): gold {}, rice {}, support {}",
                f.seat_name(i),
                text(seat, "kingdom"),
                show(&seat["gold"]),
                show(&seat["rice"]),
                show(&seat["support"])
            ),
        );
        c.line(&format!(
            "    military {}, generals {}, hand {}",
            show(&seat["military"]),
            list(seat, "generals").len(),
            show(&seat["hand_size"])
        ));
        if f.observer == Some(i) {
            let hand: Vec<String> = list(seat, "hand").iter().map(show).collect();
            c.line("    your hand:");
            for chunk in hand.chunks(3) {
                c.line(&format!("      {}", chunk.join(", ")));
            }
        }
    }
    if let Some(p) = b.get("pending").filter(|p| p.is_object()) {
        c.line(&format!("pending: {}", text(p, "kind").replace('_', " ")));
    }
}

/// The action spaces and regions are drawn from the placements in the view, which an action
/// id alone does not name: no action has a board target.
pub fn action_target(_g: &Tkr, _a: crate::game::ActionId) -> Option<String> {
    None
}

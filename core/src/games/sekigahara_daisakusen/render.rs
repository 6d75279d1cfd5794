//! The 関ヶ原大作戦 map: hexes with their terrain, roads and rivers, castles with their
//! owners, the counters' stacks per hex, and the tracks (turn, 調略, morale, entry).
//!
//! The hex positions come from the component data's grid (flat-top, even columns shifted).

use std::collections::BTreeMap;

use serde_json::Value;

use super::action::Action;
use super::data::{Terrain, RIVER, ROAD, SIDES};
use super::Daisakusen;
use crate::hex::Dir;
use crate::render::hexes::{bounds, centre, corners};
use crate::render::palette::{on_seat, seat_colour, seat_marker, GREY, INK, LAND, PAPER, SEA, SKY};
use crate::render::{esc, list, paint, show, text, Canvas, Frame, RenderError, Swatch};

const SIZE: f64 = 14.0;
const HILL: &str = "#D8C9A3";
const MOUNTAIN: &str = "#A39A8C";
const ROAD_COLOUR: &str = "#7A4A1E";

pub fn draw(g: &Daisakusen, f: &Frame, c: &mut Canvas) -> Result<(), RenderError> {
    let d = g.data();
    let at = |i: usize| {
        let (col, row) = d.grid.coords(i);
        centre(d.grid.layout.to_axial(col, row), SIZE)
    };
    let (x0, y0, x1, y1) = bounds((0..d.hexes.len()).map(at), SIZE);
    let pos = |i: usize| {
        let (x, y) = at(i);
        (x - x0, y - y0)
    };
    c.width = x1 - x0;
    c.height = y1 - y0;
    let s = &mut c.board;
    for (i, h) in d.hexes.iter().enumerate() {
        let (x, y) = pos(i);
        let fill = match h.base {
            Terrain::Plain => LAND,
            Terrain::Hill => HILL,
            Terrain::Mountain => MOUNTAIN,
            Terrain::Sea => SEA,
        };
        s.group(&format!("class=\"hex\" data-target=\"hex:{}\"", esc(&h.id)));
        s.polygon(&corners(x, y, SIZE), &paint(fill, GREY, 0.5));
        s.title(&format!("{} {}", h.id, h.province));
        s.end_group();
    }
    // Hexside features: the side towards direction k spans corners k+4 and k+5 (flat-top,
    // corners counted clockwise from east, directions clockwise from north).
    for (i, h) in d.hexes.iter().enumerate() {
        let (x, y) = pos(i);
        let cs = corners(x, y, SIZE);
        for dir in Dir::ALL {
            let k = dir as usize;
            let (a, b) = (cs[(k + 4) % 6], cs[(k + 5) % 6]);
            let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            if h.sides[k] & ROAD != 0 {
                s.line((x, y), mid, &format!("stroke=\"{ROAD_COLOUR}\" stroke-width=\"2.5\""));
            }
            if h.sides[k] & RIVER != 0 {
                s.line(a, b, &format!("stroke=\"{SKY}\" stroke-width=\"3\""));
            }
        }
    }
    let index_of = |id: &str| d.hexes.iter().position(|h| h.id == id);
    for castle in list(f.body, "castles") {
        let Some(i) = index_of(text(castle, "hex")) else { continue };
        let (x, y) = pos(i);
        let owner = SIDES.iter().position(|&s| s == text(castle, "owner"));
        let width = if castle.get("double").and_then(Value::as_bool) == Some(true) { 3.5 } else { 2.0 };
        s.rect(x - 8.0, y - 8.0, 16.0, 16.0, &paint(owner.map_or(PAPER, seat_colour), INK, width));
        s.text(x, y + SIZE + 1.0, 8.0, "middle", &format!("fill=\"{INK}\""), text(castle, "name"));
    }
    let mut stacks: BTreeMap<usize, Vec<&Value>> = BTreeMap::new();
    for u in list(f.body, "units") {
        if let Some(i) = index_of(text(u, "at")) {
            stacks.entry(i).or_default().push(u);
        }
    }
    for (i, units) in &stacks {
        let (x, y) = pos(*i);
        let side = SIDES.iter().position(|&s| s == text(units[0], "side")).unwrap_or(0);
        seat_marker(s, side, x, y - 2.0, 7.5);
        s.text(x, y + 1.5, 9.0, "middle", &format!("fill=\"{}\" font-weight=\"bold\"", on_seat(side)), &units.len().to_string());
        let names: Vec<String> =
            units.iter().map(|u| format!("{}{}", text(u, "name"), if u["flipped"] == true { " (flipped)" } else { "" })).collect();
        s.title(&names.join(", "));
    }
    legend(c);
    panel(f, c);
    Ok(())
}

fn legend(c: &mut Canvas) {
    c.legend(Swatch::Fill(LAND, GREY), "plain");
    c.legend(Swatch::Fill(HILL, GREY), "hill / pass");
    c.legend(Swatch::Fill(MOUNTAIN, GREY), "mountain (closed)");
    c.legend(Swatch::Fill(SEA, GREY), "sea, lake");
    c.legend(Swatch::Line(ROAD_COLOUR, 2.5), "road");
    c.legend(Swatch::Line(SKY, 3.0), "river hexside");
    c.legend(Swatch::Fill(PAPER, INK), "castle (filled: owner; thick: double value)");
    c.legend(Swatch::Glyph("n".into()), "stack: side marker with counter count");
}

fn panel(f: &Frame, c: &mut Canvas) {
    let b = f.body;
    c.heading(&format!("Turn {} of {}", show(&b["turn"]), show(&b["max_turns"])));
    let card = &b["card"];
    if card.is_object() {
        c.line(&format!("card {} {} ({} activations left)", text(card, "id"), text(card, "name"), show(&card["activations_left"])));
    }
    c.line(&format!("調略 track: {}", show(&b["chouryaku"]["box"])));
    c.line(&format!("Kyoto held by {}", show(&b["kyoto_owner"])));
    c.line(&format!("deck {} cards, discard {}", list(b, "deck").len(), list(b, "discard").len()));
    c.heading("Morale tracks");
    for m in list(b, "morale") {
        c.line(&format!("{}: box {}, value {}", text(m, "track"), show(&m["box"]), show(&m["value"])));
    }
    c.heading("Entry tracks");
    for e in list(b, "entry") {
        c.line(&format!("{}: {}", text(e, "track"), text(e, "box")));
    }
    for (side, name) in SIDES.iter().enumerate() {
        let removed = list(b, "units").iter().filter(|u| text(u, "side") == *name && text(u, "at") == "removed").count();
        c.seat_line(side, &format!("{}: {} counters removed", f.seat_name(side), removed));
    }
    if let Some(p) = b.get("pending").filter(|p| p.is_object()) {
        c.line(&format!("pending: {}", text(p, "kind").replace('_', " ")));
    }
}

/// 調略 and 恫喝 are played against a hex; set-up placements on a set-up hex.
pub fn action_target(g: &Daisakusen, a: crate::game::ActionId) -> Option<String> {
    let d = g.data();
    let hex = match g.decode(a)? {
        Action::Chouryaku(h) | Action::Intimidate(h) => h as usize,
        Action::Place(k) => d.tozama_hexes.get(k as usize)?.0 as usize,
        _ => return None,
    };
    d.hexes.get(hex).map(|h| format!("hex:{}", h.id))
}

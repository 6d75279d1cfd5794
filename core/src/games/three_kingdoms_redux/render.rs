//! The Three Kingdoms Redux board as a seat sees it: all eighteen action spaces (by their
//! English names) with the generals and bids placed on them, the border regions with their
//! occupants, the tracks of each kingdom and the seat's own hand.
//!
//! The game's data has no drawing coordinates: the action spaces are laid out in a grid in
//! the rulebook's order, the regions in one column per border. The board is drawn
//! [`WIDTH`] wide, narrower than the frame's board area: the play page shows it beside its
//! side column, and at 1024×768 that leaves it about 620 px, where a board this wide fits
//! whole with its 12 px texts at 11 px or more (a wider one would have to pan).

use serde_json::Value;

use super::data::ACTIONS;
use super::Tkr;
use crate::render::palette::{seat_marker, GREY, HIGHLIGHT, LAND, LIGHT_GREY, PAPER};
use crate::render::{int, list, paint, show, text, wrap, Canvas, Frame, RenderError, Swatch};

const GAP: f64 = 8.0;
/// The board's width: three columns of action spaces and of regions, and the tracks' table.
const WIDTH: f64 = 640.0;
const COLS: usize = 3;
const FONT: f64 = 12.0;
const LINE: f64 = 15.0;

fn seat_of(v: &Value) -> Option<usize> {
    v.get("seat").and_then(Value::as_u64).map(|s| s as usize)
}

/// A general's English name (the data's `name_en`), or the id when the data has none.
fn general_name(g: &Tkr, id: &Value) -> String {
    match id.as_str() {
        None => "face-down general".to_string(),
        Some(id) => g.data().generals.iter().find(|x| x.id == id).map_or_else(|| id.replace('_', " "), |x| x.name_en.clone()),
    }
}

fn title_case(id: &str) -> String {
    id.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or_else(String::new, |h| h.to_uppercase().chain(c).collect())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn placement_text(g: &Tkr, p: &Value) -> String {
    let han = if p["han"] == true { ", Han emperor" } else { "" };
    format!("{} ({}{han})", general_name(g, &p["general"]), show(&p["value"]))
}

pub fn draw(g: &Tkr, f: &Frame, c: &mut Canvas) -> Result<(), RenderError> {
    let b = f.body;
    let d = g.data();
    let box_w = (WIDTH - GAP * (COLS - 1) as f64) / COLS as f64;
    let alliance = text(b, "alliance_action");
    let mut spaces: Vec<(String, String, Vec<&Value>)> = ACTIONS
        .iter()
        .map(|id| {
            let name = g.action_label(id);
            let placed = list(b, "placements").iter().filter(|p| text(p, "action") == *id).collect();
            (id.to_string(), name, placed)
        })
        .collect();
    if let Some(p) = b.get("placing").filter(|p| p.is_object() && p["action"].is_null()) {
        spaces.push(("being_placed".into(), "Being placed".into(), vec![p]));
    }
    let s = &mut c.board;
    s.text(0.0, 14.0, 15.0, "start", "font-weight=\"bold\"", "Action spaces");
    let mut y = 24.0;
    for row in spaces.chunks(COLS) {
        let lines: Vec<(Vec<String>, Vec<String>)> = row
            .iter()
            .map(|(_, name, placed)| {
                let head = wrap(name, box_w - 12.0, FONT);
                let body = placed.iter().flat_map(|p| wrap(&placement_text(g, p), box_w - 28.0, FONT)).collect();
                (head, body)
            })
            .collect();
        let tallest = lines.iter().map(|(h, b)| h.len() + b.len().max(1)).max().unwrap_or(1);
        let box_h = tallest as f64 * LINE + 12.0;
        for (k, ((id, _, placed), (head, _))) in row.iter().zip(&lines).enumerate() {
            let x = k as f64 * (box_w + GAP);
            s.group(&format!("class=\"space\" data-target=\"space:{}\"", crate::render::esc(id)));
            let fill = if id == alliance { HIGHLIGHT } else { LAND };
            s.rect(x, y, box_w, box_h, &paint(fill, GREY, 1.0));
            let mut ly = y + 16.0;
            for h in head {
                s.text(x + 6.0, ly, FONT, "start", "font-weight=\"bold\"", h);
                ly += LINE;
            }
            for p in placed {
                if let Some(seat) = seat_of(p) {
                    seat_marker(s, seat, x + 12.0, ly - 4.0, 5.0);
                }
                for part in wrap(&placement_text(g, p), box_w - 28.0, FONT) {
                    s.text(x + 22.0, ly, FONT, "start", "", &part);
                    ly += LINE;
                }
            }
            s.end_group();
        }
        y += box_h + GAP;
    }
    y += 14.0;
    s.text(0.0, y, 15.0, "start", "font-weight=\"bold\"", "Regions");
    y += 6.0;
    let mut borders: Vec<String> = Vec::new();
    for r in list(b, "regions") {
        let border = show(&r["border"]);
        if !borders.contains(&border) {
            borders.push(border);
        }
    }
    let col_w = (WIDTH - GAP * 2.0) / 3.0;
    let mut tallest = 0.0f64;
    for (col, border) in borders.iter().enumerate() {
        let x = col as f64 * (col_w + GAP);
        let kingdoms: Vec<String> = border.split('_').map(title_case).collect();
        s.text(x, y + 14.0, FONT, "start", "font-weight=\"bold\"", &format!("{} border", kingdoms.join("-")));
        let mut ry = y + 20.0;
        for r in list(b, "regions").iter().filter(|r| show(&r["border"]) == *border) {
            let fill = if r["flipped"] == true { LIGHT_GREY } else { PAPER };
            let info = d.regions.iter().find(|x| x.id == text(r, "id"));
            let name = info.map_or_else(|| title_case(text(r, "id")), |i| format!("{} {}", i.name_en, i.name_zh));
            let held =
                if r["general"].is_null() { String::new() } else { format!(": {} x{}", general_name(g, &r["general"]), int(r, "units")) };
            let parts = wrap(&format!("{name} ({}){held}", show(&r["requires"])), col_w - 26.0, FONT);
            let h = parts.len() as f64 * LINE + 8.0;
            s.group(&format!("class=\"region\" data-target=\"region:{}\"", crate::render::esc(text(r, "id"))));
            s.rect(x, ry, col_w, h, &paint(fill, GREY, 1.0));
            if let Some(seat) = seat_of(r) {
                seat_marker(s, seat, x + 10.0, ry + 11.0, 5.0);
            }
            for (i, part) in parts.iter().enumerate() {
                s.text(x + 20.0, ry + 15.0 + i as f64 * LINE, FONT, "start", "", part);
            }
            s.end_group();
            ry += h + 3.0;
        }
        tallest = tallest.max(ry - y);
    }
    let y = tracks(f, s, y + tallest + 22.0);
    c.width = WIDTH;
    c.height = y + 8.0;
    legend(c);
    panel(g, f, c);
    Ok(())
}

/// The kingdoms' tracks as a table: treasury, granary, support, military strength, tribal
/// relations, farm and market levels, office, armies and weapons (spear/horse/crossbow/ship,
/// as the legend says), within [`WIDTH`].
fn tracks(f: &Frame, s: &mut crate::render::Svg, y: f64) -> f64 {
    let heads = ["Kingdom", "Gold", "Rice", "Support", "Military", "Tribal", "Farm", "Market", "Office", "Armies", "Weapons"];
    let xs = [0.0, 105.0, 150.0, 195.0, 252.0, 312.0, 362.0, 404.0, 458.0, 506.0, 556.0];
    s.text(0.0, y, 15.0, "start", "font-weight=\"bold\"", "Tracks");
    let mut y = y + 20.0;
    for (h, x) in heads.iter().zip(xs) {
        s.text(x, y, FONT, "start", "font-weight=\"bold\"", h);
    }
    for (i, seat) in list(f.body, "seats").iter().enumerate() {
        y += LINE + 2.0;
        seat_marker(s, i, 6.0, y - 4.0, 5.0);
        let w = &seat["weapons"];
        let cells = [
            format!("{} ({})", f.seat_name(i), text(seat, "kingdom")),
            show(&seat["gold"]),
            show(&seat["rice"]),
            show(&seat["support"]),
            show(&seat["military"]),
            show(&seat["tribal"]),
            show(&seat["farm"]["level"]),
            show(&seat["market"]["level"]),
            show(&seat["office"]),
            format!("{}+{}", show(&seat["trained"]), show(&seat["untrained"])),
            format!("{}/{}/{}/{}", show(&w["spear"]), show(&w["horse"]), show(&w["crossbow"]), show(&w["ship"])),
        ];
        for (k, (cell, x)) in cells.iter().zip(xs).enumerate() {
            s.text(if k == 0 { x + 16.0 } else { x }, y, FONT, "start", "", cell);
        }
    }
    y
}

fn legend(c: &mut Canvas) {
    c.legend(Swatch::Fill(LAND, GREY), "action space: generals placed (bid value)");
    c.legend(Swatch::Fill(HIGHLIGHT, GREY), "the alliance action this round");
    c.legend(Swatch::Fill(PAPER, GREY), "region (marker: holder)");
    c.legend(Swatch::Fill(LIGHT_GREY, GREY), "region flipped");
    c.legend(Swatch::Fill(PAPER, PAPER), "Armies: trained+untrained");
    c.legend(Swatch::Fill(PAPER, PAPER), "Weapons: spear/horse/crossbow/ship");
}

fn panel(g: &Tkr, f: &Frame, c: &mut Canvas) {
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
            let hand: Vec<String> = list(seat, "hand")
                .iter()
                .map(|h| {
                    let id = show(h);
                    g.data().developments.iter().find(|d| d.id == id).map_or_else(|| title_case(&id), |d| d.name_en.clone())
                })
                .collect();
            c.line(&format!("    your hand: {}", hand.join(", ")));
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

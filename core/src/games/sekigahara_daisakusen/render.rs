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
use crate::render::palette::{on_seat, seat_colour, seat_marker, GREY, HIGHLIGHT, INK, LAND, PAPER, SEA, SKY};
use crate::render::{esc, list, paint, show, text, wrap, Canvas, Frame, RenderError, Svg, Swatch, BOARD_H, BOARD_W};

const HILL: &str = "#D8C9A3";
const MOUNTAIN: &str = "#A39A8C";
const ROAD_COLOUR: &str = "#7A4A1E";
/// The stack list beside the map: its width and font.
const LIST_W: f64 = 372.0;
/// Castle names and other map labels.
const NAME_FONT: f64 = 12.0;

/// How much of each counter the stack list prints: the list drops detail until it fits.
#[derive(Clone, Copy, PartialEq)]
enum Detail {
    /// Names (commanders with romaji) and ratings.
    Full,
    /// Names and ratings.
    Names,
    /// Commanders with ratings, the other counters only counted.
    Commanders,
    /// One line a stack: its commanders' names and how many counters it holds.
    Compact,
}

/// One counter as the stack list and the tooltips print it: its name (with the romaji the
/// data has), for a commander 統率 (leadership) and 戦意 (morale), and the attack values front
/// and back (the face in use first when flipped).
fn counter_text(g: &Daisakusen, u: &Value, long: bool) -> String {
    let c = g.data().counters.iter().find(|c| c.id == text(u, "id"));
    let attack = c.map_or_else(|| show(&u["attack"]), |c| format!("{}/{}", c.attack[0], c.attack[1]));
    let flipped = if u["flipped"] == true { " flipped" } else { "" };
    let romaji = c.map_or("", |c| c.romaji.as_str());
    let name = if long && !romaji.is_empty() { format!("{} {romaji}", text(u, "name")) } else { text(u, "name").to_string() };
    if text(u, "type") == "commander" {
        format!("{name} L{} M{} A{attack}{flipped}", show(&u["command"]), show(&u["morale"]))
    } else {
        format!("{name} A{attack}{flipped}")
    }
}

/// Commanders first, then the other counters; identical counters counted once (`x2`).
fn stack_lines(g: &Daisakusen, units: &[&Value], detail: Detail) -> Vec<String> {
    let mut sorted: Vec<&Value> = units.to_vec();
    sorted.sort_by_key(|u| (text(u, "type") != "commander", text(u, "id").to_string()));
    let mut out: Vec<(String, usize)> = Vec::new();
    let mut others = 0;
    for u in sorted {
        let commander = text(u, "type") == "commander";
        if detail == Detail::Compact {
            if commander {
                out.push((text(u, "name").to_string(), 1));
            } else {
                others += 1;
            }
            continue;
        }
        if detail == Detail::Commanders && !commander {
            others += 1;
            continue;
        }
        let t = counter_text(g, u, commander && detail == Detail::Full);
        match out.iter_mut().find(|(x, _)| *x == t) {
            Some(entry) => entry.1 += 1,
            None => out.push((t, 1)),
        }
    }
    let mut lines: Vec<String> = out.into_iter().map(|(t, n)| if n > 1 { format!("{t} x{n}") } else { t }).collect();
    if others > 0 {
        lines.push(if detail == Detail::Compact { format!("+{others}") } else { format!("{others} more counters") });
    }
    lines
}

pub fn draw(g: &Daisakusen, f: &Frame, c: &mut Canvas) -> Result<(), RenderError> {
    let d = g.data();
    let unit = |i: usize| {
        let (col, row) = d.grid.coords(i);
        centre(d.grid.layout.to_axial(col, row), 1.0)
    };
    let (ux0, uy0, ux1, uy1) = bounds((0..d.hexes.len()).map(unit), 1.0);
    // The map fills the height of the board area; the stack list takes the width left.
    let size = ((BOARD_W - LIST_W - 12.0) / (ux1 - ux0)).min(BOARD_H / (uy1 - uy0));
    let pos = |i: usize| {
        let (x, y) = unit(i);
        ((x - ux0) * size, (y - uy0) * size)
    };
    let map_w = (ux1 - ux0) * size;
    c.width = BOARD_W;
    c.height = BOARD_H;
    let s = &mut c.board;
    for (i, h) in d.hexes.iter().enumerate() {
        let (x, y) = pos(i);
        let fill = match h.base {
            Terrain::Plain => LAND,
            Terrain::Hill => HILL,
            Terrain::Mountain => MOUNTAIN,
            Terrain::Sea => SEA,
        };
        // `data-label`: the hex's printed number, as moves and the log name it ("hex 1916"); a
        // page writes it on the hexes a move names (the map has no room for every number).
        s.group(&format!("class=\"hex\" data-target=\"hex:{id}\" data-label=\"{id}\"", id = esc(&h.id)));
        s.polygon(&corners(x, y, size), &paint(fill, GREY, 0.5));
        s.title(&format!("{} {}", h.id, h.province));
        s.end_group();
    }
    // Hexside features: the side towards direction k spans corners k+4 and k+5 (flat-top,
    // corners counted clockwise from east, directions clockwise from north).
    for (i, h) in d.hexes.iter().enumerate() {
        let (x, y) = pos(i);
        let cs = corners(x, y, size);
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
    // Castles: the hex outlined in the owner's colour (doubled for a double-value castle).
    let castles: Vec<(usize, &Value)> = list(f.body, "castles").iter().filter_map(|c| Some((index_of(text(c, "hex"))?, c))).collect();
    for &(i, castle) in &castles {
        let (x, y) = pos(i);
        let owner = SIDES.iter().position(|&s| s == text(castle, "owner"));
        let colour = owner.map_or(INK, seat_colour);
        s.polygon(&corners(x, y, size - 2.0), &format!("fill=\"{PAPER}\" fill-opacity=\"0.6\" stroke=\"{colour}\" stroke-width=\"3\""));
        if castle.get("double").and_then(Value::as_bool) == Some(true) {
            s.polygon(&corners(x, y, size - 6.0), &format!("fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\""));
        }
    }
    let mut stacks: BTreeMap<usize, Vec<&Value>> = BTreeMap::new();
    let mut entry: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
    for u in list(f.body, "units") {
        match index_of(text(u, "at")) {
            Some(i) => stacks.entry(i).or_default().push(u),
            None => {
                if let Some(track) = text(u, "at").strip_prefix("entry_track:") {
                    entry.entry(track.to_string()).or_default().push(u);
                }
            }
        }
    }
    // Stacks: the side's marker with the stack's key, listed beside the map.
    let group: Vec<String> = list(f.body, "group").iter().map(show).collect();
    let r = (size * 0.62).max(9.0);
    for (key, (i, units)) in stacks.iter().enumerate() {
        let (x, y) = pos(*i);
        let side = SIDES.iter().position(|&s| s == text(units[0], "side")).unwrap_or(0);
        if units.iter().any(|u| group.iter().any(|g| g == text(u, "id"))) {
            s.circle(x, y, r + 4.0, &paint(HIGHLIGHT, INK, 1.0));
        }
        s.group(&format!("class=\"stack\" data-hex=\"{}\"", esc(&d.hexes[*i].id)));
        let p = seat_marker(s, side, x, y, r);
        s.piece_text(p, x, y + 4.0, 11.0, "middle", &format!("fill=\"{}\" font-weight=\"bold\"", on_seat(side)), &(key + 1).to_string());
        s.title(&format!("{} - {}", d.hexes[*i].id, stack_lines(g, units, Detail::Full).join(", ")));
        s.end_group();
    }
    let area = (0.0, 0.0, map_w, BOARD_H);
    for &(i, castle) in &castles {
        let (x, y) = pos(i);
        map_label(s, x, y, size, r, text(castle, "name"), area);
    }
    if let Some(i) = d.hexes.iter().position(|h| h.kyoto) {
        let (x, y) = pos(i);
        let held = SIDES.iter().position(|&s| s == show(&f.body["kyoto_owner"]));
        map_label(s, x, y, size, r, &format!("京 Kyoto{}", held.map_or(String::new(), |h| format!(" ({})", f.seat_name(h)))), area);
    }
    // A side list: a page with room beside the map shows it there (web/js/board.js).
    s.group("class=\"side-list\"");
    stack_list(g, f, s, map_w + 14.0, &stacks, &entry);
    s.end_group();
    legend(c);
    panel(g, f, c);
    Ok(())
}

/// A map name near the hex centred on `(x, y)`: below, above, beside or one hex further,
/// wherever it lies on no marker and no other name.
fn map_label(s: &mut Svg, x: f64, y: f64, size: f64, r: f64, name: &str, area: (f64, f64, f64, f64)) {
    let below = y + r * 1.15 + NAME_FONT * 0.85;
    let above = y - r * 1.15 - NAME_FONT * 0.3;
    let side = x + r * 1.2;
    let mut spots = vec![(x, below, "middle"), (x, above, "middle"), (side, y + 4.0, "start"), (x - r * 1.2, y + 4.0, "end")];
    for k in 1..=3 {
        let dy = size * 0.9 * k as f64;
        spots.extend([(x, below + dy, "middle"), (x, above - dy, "middle"), (side, y + 4.0 + dy, "start"), (side, y + 4.0 - dy, "start")]);
    }
    let (lx, ly, anchor) = s.free_spot(&spots, NAME_FONT, true, name, area);
    s.halo_text(lx, ly, NAME_FONT, anchor, &format!("fill=\"{INK}\" font-weight=\"bold\" class=\"place-name\""), name);
}

/// The list of stacks beside the map: key, hex and castle, then the counters with their
/// ratings, in two columns; with less detail when the full list would not fit.
fn stack_list(
    g: &Daisakusen,
    f: &Frame,
    s: &mut Svg,
    x0: f64,
    stacks: &BTreeMap<usize, Vec<&Value>>,
    entry: &BTreeMap<String, Vec<&Value>>,
) {
    let d = g.data();
    let col_w = (BOARD_W - x0) / 2.0 - 6.0;
    let top = 34.0;
    s.text(x0, 14.0, 14.0, "start", "font-weight=\"bold\"", "Stacks");
    let levels = [(12.0, Detail::Full), (11.0, Detail::Full), (11.0, Detail::Names), (11.0, Detail::Commanders), (11.0, Detail::Compact)];
    let mut chosen = None;
    for &(font, detail) in &levels {
        let line = font + 2.5;
        let mut blocks: Vec<(usize, Vec<(bool, String)>)> = Vec::new();
        let rows = |head: &str, lines: Vec<String>| {
            if detail == Detail::Compact {
                return wrap(&format!("{head}: {}", lines.join(", ")), col_w - 18.0, font).into_iter().map(|l| (false, l)).collect();
            }
            let mut rows: Vec<(bool, String)> = wrap(head, col_w - 18.0, font).into_iter().map(|l| (true, l)).collect();
            rows.extend(wrap(&lines.join(", "), col_w - 12.0, font).into_iter().map(|l| (false, l)));
            rows
        };
        for (key, (i, units)) in stacks.iter().enumerate() {
            let side = SIDES.iter().position(|&s| s == text(units[0], "side")).unwrap_or(0);
            let castle = list(f.body, "castles").iter().find(|c| text(c, "hex") == d.hexes[*i].id).map_or("", |c| text(c, "name"));
            let head = format!("{} {} {castle}", key + 1, d.hexes[*i].id);
            blocks.push((side, rows(&head, stack_lines(g, units, detail))));
        }
        for (track, units) in entry {
            let side = SIDES.iter().position(|&s| s == text(units[0], "side")).unwrap_or(0);
            let at = list(f.body, "entry").iter().find(|e| text(e, "track") == track).map_or("", |e| text(e, "box"));
            blocks.push((side, rows(&format!("entry track {track} at {at}"), stack_lines(g, units, detail))));
        }
        // Flow the blocks down two columns.
        let (mut col, mut y) = (0usize, top);
        let mut placed = Vec::new();
        for (side, rows) in blocks {
            let need = rows.len() as f64 * line;
            if y + need > BOARD_H && y > top {
                col += 1;
                y = top;
            }
            placed.push((col, y, side, rows));
            y += need + 4.0;
        }
        let fits = col < 2 && y <= BOARD_H + 4.0;
        if fits || detail == Detail::Compact {
            chosen = Some((font, line, placed));
            if fits {
                break;
            }
        }
    }
    let Some((font, line, placed)) = chosen else { return };
    for (col, y, side, rows) in placed {
        let x = x0 + col as f64 * (col_w + 12.0);
        seat_marker(s, side, x + 6.0, y - 4.0, 5.5);
        for (k, (head, row)) in rows.iter().enumerate() {
            let (dx, style) = if *head {
                (16.0, "font-weight=\"bold\"")
            } else if k == 0 {
                (16.0, "")
            } else {
                (12.0, "")
            };
            s.text(x + dx, y + k as f64 * line, font, "start", style, row);
        }
    }
}

fn legend(c: &mut Canvas) {
    c.legend(Swatch::Fill(LAND, GREY), "plain");
    c.legend(Swatch::Fill(HILL, GREY), "hill / pass");
    c.legend(Swatch::Fill(MOUNTAIN, GREY), "mountain (closed)");
    c.legend(Swatch::Fill(SEA, GREY), "sea, lake");
    c.legend(Swatch::Line(ROAD_COLOUR, 2.5), "road");
    c.legend(Swatch::Line(SKY, 3.0), "river hexside");
    c.legend(Swatch::Fill(PAPER, INK), "castle: hex outlined in the owner's colour (twice: double value)");
    c.legend(
        Swatch::Seat(0),
        "stack: side marker with its number in the stack list (L leadership 統率, M morale 戦意, A attack front/back)",
    );
    c.legend(Swatch::Fill(HIGHLIGHT, INK), "the group acting now");
}

fn panel(g: &Daisakusen, f: &Frame, c: &mut Canvas) {
    let b = f.body;
    c.heading(&format!("Turn {} of {}", show(&b["turn"]), show(&b["max_turns"])));
    let card = &b["card"];
    if card.is_object() {
        c.line(&format!("card {} {} ({} activations left)", text(card, "id"), text(card, "name"), show(&card["activations_left"])));
    }
    c.line(&format!("調略 track: {}", show(&b["chouryaku"]["box"])));
    c.line(&format!("deck {} cards, discard {}", list(b, "deck").len(), list(b, "discard").len()));
    c.heading("Morale tracks");
    for m in list(b, "morale") {
        c.line(&format!("{}: box {}, value {}", text(m, "track"), show(&m["box"]), show(&m["value"])));
    }
    // Before the set-up ends, the tozama counters still to place wait off the map as if
    // removed: they are counted apart.
    let placing = f.to_act.decision == "setup";
    let unplaced = |u: &&Value| {
        placing
            && text(u, "at") == "removed"
            && g.data().tozama_units.iter().any(|&t| g.data().counters.get(t as usize).is_some_and(|c| c.id == text(u, "id")))
    };
    for (side, name) in SIDES.iter().enumerate() {
        let mine: Vec<&Value> = list(b, "units").iter().filter(|u| text(u, "side") == *name).collect();
        let waiting = mine.iter().filter(|u| unplaced(u)).count();
        let removed = mine.iter().filter(|u| text(u, "at") == "removed").count() - waiting;
        let wait = if waiting > 0 { format!(", {waiting} still to place") } else { String::new() };
        c.seat_line(side, &format!("{}: {removed} counters removed{wait}", f.seat_name(side)));
    }
    if placing {
        let id = show(&f.decision["unit"]);
        let romaji = g.data().counters.iter().find(|c| id.starts_with(&c.id)).map_or("", |c| c.romaji.as_str());
        c.line(&format!("placing now: {id} {romaji}"));
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

//! The Sekigahara map as a seat sees it: locations, roads and main roads, castles and
//! resources with their controllers, block stacks (the observer's own blocks with their faces,
//! the other blocks as backs with counts), the tracks, hand sizes and the pending decision.
//!
//! The map positions are the `xy` of each location in the component data.

use serde_json::Value;

use super::action::Action;
use super::data::SIDES;
use super::Sekigahara;
use crate::render::palette::{on_seat, seat_colour, seat_marker, GREY, HIGHLIGHT, INK, LAND, LIGHT_GREY, PAPER};
use crate::render::{int, list, num, paint, show, text, Canvas, Frame, RenderError, Svg, Swatch, BOARD_H, BOARD_W};

/// Room around the map for the stacks of the locations at its edges.
const PAD: f64 = 56.0;
const BLOCK_W: f64 = 30.0;
const BLOCK_H: f64 = 28.0;
const NAME_FONT: f64 = 12.0;
const RESOURCE: &str = "#E69F00";

fn side_index(name: &str) -> Option<usize> {
    SIDES.iter().position(|&s| s == name)
}

/// `body[key][side]` as a number.
fn per_side(v: &Value, key: &str, side: usize) -> i64 {
    v.get(key).map_or(0, |x| int(x, SIDES[side]))
}

fn last_target(g: &Sekigahara, f: &Frame) -> Option<Result<u8, u8>> {
    match g.decode(f.last_visible_id()?)? {
        Action::Origin(l) | Action::MusterA(l) | Action::MusterB(l) | Action::Battle(l) => Some(Ok(l)),
        Action::Step(r) => Some(Err(r)),
        _ => None,
    }
}

fn capitalised(id: &str) -> String {
    let mut c = id.chars();
    c.next().map_or_else(String::new, |h| h.to_uppercase().chain(c).collect())
}

/// A card as the published deck shows it: the clan's mon and initiative number (with the
/// sword or double symbol), or a Loyalty Challenge.
pub fn card_name(g: &Sekigahara, id: &str) -> String {
    let d = g.data();
    let Some(card) = d.cards.iter().find(|c| c.id == id) else { return id.to_string() };
    if card.loyalty {
        return format!("Loyalty Challenge {}", card.initiative);
    }
    let clan = card.clan.and_then(|c| d.clans.get(c as usize)).map_or_else(String::new, |c| capitalised(&c.id));
    let extra = if card.sword {
        " sword"
    } else if card.double {
        " double"
    } else {
        ""
    };
    format!("{clan} {}{extra}", card.initiative)
}

/// A block's face as printed: its mons, then G for an arquebus or C for a cavalry unit.
fn face(b: &Value) -> String {
    let unit = match text(b, "unit") {
        "arquebus" => "G",
        "cavalry" => "C",
        _ => "",
    };
    format!("{}{unit}", show(&b["mons"]))
}

pub fn draw(g: &Sekigahara, f: &Frame, c: &mut Canvas) -> Result<(), RenderError> {
    let d = g.data();
    let body = f.body;
    let min_x = d.locations.iter().map(|l| l.xy[0]).min().unwrap_or(0) as f64;
    let min_y = d.locations.iter().map(|l| l.xy[1]).min().unwrap_or(0) as f64;
    let max_x = d.locations.iter().map(|l| l.xy[0]).max().unwrap_or(0) as f64;
    let max_y = d.locations.iter().map(|l| l.xy[1]).max().unwrap_or(0) as f64;
    let scale = ((BOARD_W - PAD * 2.0) / (max_x - min_x).max(1.0)).min((BOARD_H - PAD * 2.0) / (max_y - min_y).max(1.0));
    let top = ((BOARD_H - (max_y - min_y) * scale) / 2.0).max(PAD);
    let pos = |l: usize| {
        let xy = d.locations[l].xy;
        ((xy[0] as f64 - min_x) * scale + PAD, (xy[1] as f64 - min_y) * scale + top)
    };
    c.width = BOARD_W;
    c.height = BOARD_H;
    let (w, h) = (c.width, c.height);
    let last = last_target(g, f);
    let s = &mut c.board;
    s.rect(0.0, 0.0, w, h, &paint(LAND, GREY, 1.0));
    let used: Vec<u64> = body.get("movement").map_or(&[][..], |m| list(m, "roads_used")).iter().filter_map(Value::as_u64).collect();
    for (i, r) in d.roads.iter().enumerate() {
        let (a, b) = (pos(r.a as usize), pos(r.b as usize));
        let (width, dash) = if r.main { (4.5, "") } else { (2.0, " stroke-dasharray=\"6 4\"") };
        s.group(&format!("class=\"road\" data-target=\"road:{i}\""));
        if last == Some(Err(i as u8)) || used.contains(&(i as u64)) {
            let w = width + 5.0;
            s.line(a, b, &format!("stroke=\"{HIGHLIGHT}\" stroke-width=\"{}\"", num(w)));
        }
        s.line(a, b, &format!("stroke=\"{INK}\" stroke-width=\"{}\"{dash}", num(width)));
        s.end_group();
    }
    let views = list(body, "locations");
    let blocks = list(body, "blocks");
    let lv = |info: &super::data::Location| views.iter().find(|v| text(v, "id") == info.id).unwrap_or(&Value::Null);
    // The locations' markers first, then their names where no marker lies, then the block
    // stacks where neither a marker nor a name lies.
    for (l, info) in d.locations.iter().enumerate() {
        let (x, y) = pos(l);
        let lv = lv(info);
        s.group(&format!("class=\"location\" data-target=\"loc:{}\"", crate::render::esc(&info.id)));
        if last == Some(Ok(l as u8)) {
            s.circle(x, y, 15.0, &paint(HIGHLIGHT, INK, 2.0));
        }
        let castle = side_index(text(lv, "castle"));
        if info.castle.is_some() || castle.is_some() {
            let fill = castle.map_or(PAPER, seat_colour);
            s.piece(x - 9.0, y - 9.0, 18.0, 18.0);
            s.rect(x - 9.0, y - 9.0, 18.0, 18.0, &paint(fill, INK, 2.0));
        } else {
            s.piece(x - 7.0, y - 7.0, 14.0, 14.0);
            s.circle(x, y, 7.0, &paint(PAPER, INK, 1.5));
        }
        if let Some(side) = side_index(text(lv, "resource")) {
            seat_marker(s, side, x + 13.0, y - 11.0, 4.0);
        }
        if info.resource {
            s.piece(x + 7.0, y - 20.0, 12.0, 12.0);
            s.polygon(&[(x + 13.0, y - 20.0), (x + 19.0, y - 14.0), (x + 13.0, y - 8.0), (x + 7.0, y - 14.0)], &paint(RESOURCE, INK, 1.0));
        }
        let kanji = info.kanji.as_deref().map_or(String::new(), |k| format!(" {k}"));
        s.title(&format!("{}{kanji}", info.name));
        s.end_group();
    }
    let area = (0.0, 0.0, w, h);
    for (l, info) in d.locations.iter().enumerate() {
        let (x, y) = pos(l);
        let mut spots = Vec::new();
        for k in 0..3 {
            let dy = k as f64 * 11.0;
            spots.extend([
                (x, y + 22.0 + dy, "middle"),
                (x, y - 13.0 - dy, "middle"),
                (x + 12.0, y + 4.0 + dy, "start"),
                (x - 12.0, y + 4.0 + dy, "end"),
                (x + 12.0, y + 4.0 - dy, "start"),
                (x - 12.0, y + 4.0 - dy, "end"),
            ]);
        }
        let (lx, ly, anchor) = s.free_spot(&spots, NAME_FONT, false, &info.name, area);
        s.halo_text(lx, ly, NAME_FONT, anchor, &format!("fill=\"{INK}\" class=\"place-name\""), &info.name);
    }
    for (l, info) in d.locations.iter().enumerate() {
        let (x, y) = pos(l);
        draw_stacks(s, f, lv(info), blocks, &info.id, x, y, area);
    }
    legend(c);
    panel(g, f, c);
    Ok(())
}

/// The blocks at one location, per side: the visible faces then one back with the count of
/// the hidden ones, in rows of four, placed near the location where they cover no name.
#[allow(clippy::too_many_arguments)]
fn draw_stacks(s: &mut Svg, f: &Frame, lv: &Value, blocks: &[Value], loc: &str, x: f64, y: f64, area: (f64, f64, f64, f64)) {
    for (side, name) in SIDES.iter().enumerate() {
        let total = lv.get("blocks").map_or(0, |b| int(b, name)).max(0) as usize;
        let faces: Vec<&Value> = blocks.iter().filter(|b| text(b, "at") == loc && text(b, "side") == *name).collect();
        let hidden = total.saturating_sub(faces.len());
        let mut cells: Vec<(String, Option<&Value>)> = faces.iter().map(|b| (face(b), Some(*b))).collect();
        if hidden > 0 {
            cells.push((format!("x{hidden}"), None));
        }
        if cells.is_empty() {
            continue;
        }
        if cells.len() > 12 {
            let rest = cells.len() - 11;
            cells.truncate(11);
            cells.push((format!("+{rest}"), None));
        }
        // Nearest free place around the location, the side's own direction first (Tokugawa
        // above, Ishida below), further out ring by ring, in rows of four, three, two, six or eight; a line
        // ties a far stack to its place.
        let mut angles: Vec<f64> = vec![-90.0, -60.0, -120.0, -30.0, -150.0, 0.0, 180.0, 30.0, 150.0, 60.0, 120.0, 90.0];
        angles.extend([-75.0, -105.0, -45.0, -135.0, -15.0, -165.0, 15.0, 165.0, 45.0, 135.0, 75.0, 105.0]);
        if side == 1 {
            angles.iter_mut().for_each(|a| *a = -*a);
        }
        let mut found = None;
        let mut first = None;
        'search: for per_row in [4usize, 3, 2, 6, 8] {
            let cols = cells.len().min(per_row);
            let rows = cells.len().div_ceil(per_row);
            let (w, h) = (cols as f64 * (BLOCK_W + 2.0) - 2.0, rows as f64 * (BLOCK_H + 2.0) - 2.0);
            for k in 0..26 {
                let r = 13.0 + k as f64 * 8.0;
                for a in &angles {
                    let (c, sn) = (a.to_radians().cos(), a.to_radians().sin());
                    let p = (x + c * (r + w / 2.0) - w / 2.0, y + sn * (r + h / 2.0) - h / 2.0);
                    let spot = (p.0, p.1, w, h, per_row, k);
                    first.get_or_insert(spot);
                    let inside = p.0 >= area.0 && p.1 >= area.1 && p.0 + w <= area.2 && p.1 + h <= area.3;
                    if inside && s.is_free((p.0 - 1.0, p.1 - 1.0, p.0 + w + 1.0, p.1 + h + 1.0)) {
                        found = Some(spot);
                        break 'search;
                    }
                }
            }
        }
        let Some((bx, by, w, h, per_row, ring)) = found.or(first) else { continue };
        if ring > 1 {
            s.line((x, y), (bx + w / 2.0, by + h / 2.0), &format!("stroke=\"{}\" stroke-width=\"1.5\"", seat_colour(side)));
        }
        s.group(&format!("class=\"stack\" data-side=\"{name}\""));
        for (i, (label, block)) in cells.iter().enumerate() {
            let (cx, cy) = (bx + (i % per_row) as f64 * (BLOCK_W + 2.0), by + (i / per_row) as f64 * (BLOCK_H + 2.0));
            let p = s.piece(cx, cy, BLOCK_W, BLOCK_H);
            match block {
                Some(b) => {
                    let leader = b["leader"] == true;
                    s.rect(
                        cx,
                        cy,
                        BLOCK_W,
                        BLOCK_H,
                        &paint(seat_colour(side), if leader { HIGHLIGHT } else { INK }, if leader { 2.5 } else { 1.0 }),
                    );
                    let clan: String = capitalised(text(b, "clan")).chars().take(3).collect();
                    s.piece_text(p, cx + BLOCK_W / 2.0, cy + 11.0, 11.0, "middle", &format!("fill=\"{}\"", on_seat(side)), &clan);
                    s.piece_text(
                        p,
                        cx + BLOCK_W / 2.0,
                        cy + 25.0,
                        12.0,
                        "middle",
                        &format!("fill=\"{}\" font-weight=\"bold\"", on_seat(side)),
                        label,
                    );
                    let who = b.get("name").and_then(Value::as_str).unwrap_or("");
                    s.title(&format!(
                        "{} block, {} mons{}{}",
                        capitalised(text(b, "clan")),
                        show(&b["mons"]),
                        match text(b, "unit") {
                            "" => String::new(),
                            u => format!(", {u}"),
                        },
                        if who.is_empty() { String::new() } else { format!(": {who}") }
                    ));
                }
                None => {
                    s.rect(cx, cy, BLOCK_W, BLOCK_H, &paint(LIGHT_GREY, seat_colour(side), 2.5));
                    s.piece_text(p, cx + BLOCK_W / 2.0, cy + 19.0, 12.0, "middle", &format!("fill=\"{INK}\""), label);
                    s.title(&format!("{hidden} {} block(s) face down", f.seats.get(side).map_or(*name, String::as_str)));
                }
            }
        }
        s.end_group();
    }
}

fn legend(c: &mut Canvas) {
    c.legend(Swatch::Line(INK, 4.5), "main road");
    c.legend(Swatch::Line(INK, 2.0), "road");
    c.legend(Swatch::Fill(PAPER, INK), "castle (filled: controlling side)");
    c.legend(Swatch::Fill(RESOURCE, INK), "resource (small marker: controller)");
    c.legend(Swatch::Fill(SIDES_COLOUR, INK), "block face: clan, mons, G arquebus, C cavalry (gold edge: leader)");
    c.legend(Swatch::Fill(LIGHT_GREY, INK), "block backs: x3 = three face down");
    c.legend(Swatch::Fill(HIGHLIGHT, INK), "last move / roads used this move");
}

const SIDES_COLOUR: &str = crate::render::palette::BLUE;

fn panel(g: &Sekigahara, f: &Frame, c: &mut Canvas) {
    let b = f.body;
    c.heading(&format!("Week {} turn {}, {}", show(&b["week"]), show(&b["turn"]), text(b, "phase")));
    for (side, name) in SIDES.iter().enumerate() {
        c.seat_line(
            side,
            &format!(
                "{}: {} points, hand {}, deck {}, bag {}",
                f.seat_name(side),
                per_side(b, "points", side),
                per_side(b, "hand_size", side),
                per_side(b, "deck_size", side),
                per_side(b, "bag", side)
            ),
        );
        c.line(&format!(
            "    box {}, eliminated {}, bid {}",
            per_side(b, "recruitment_box", side),
            per_side(b, "eliminated", side),
            if b.get("bid_placed").and_then(|x| x.get(name)).and_then(Value::as_bool) == Some(true) { "placed" } else { "-" }
        ));
    }
    c.line(&format!("Mori box: {}", show(&b["mori_box"])));
    if let Some(pending) = b.get("pending").filter(|p| p.is_object()) {
        let extra: Vec<String> =
            pending.as_object().into_iter().flatten().filter(|(k, _)| *k != "kind").map(|(k, v)| format!("{k} {}", show(v))).collect();
        c.line(&format!("pending: {} {}", text(pending, "kind").replace('_', " "), extra.join(", ")));
    }
    if let Some(battle) = b.get("battle").filter(|x| x.is_object()) {
        let at = show(&battle["at"]);
        let name = g.data().locations.iter().find(|l| l.id == at).map_or(at.clone(), |l| l.name.clone());
        c.line(&format!("battle at {name}"));
    }
    let hand = list(b, "hand");
    if f.observer.is_some() {
        let cards: Vec<String> = hand
            .iter()
            .filter(|h| int(h, "count") > 0)
            .map(|h| match int(h, "count") {
                1 => card_name(g, text(h, "card")),
                n => format!("{} x{n}", card_name(g, text(h, "card"))),
            })
            .collect();
        c.heading("Your hand");
        c.line(&cards.join(", "));
        if let Some(bid) = b.get("own_bid").and_then(Value::as_str) {
            c.line(&format!("your bid: {}", card_name(g, bid)));
        }
    }
}

/// Stack origins, musters and battles are played on a location, steps on a road.
pub fn action_target(g: &Sekigahara, a: crate::game::ActionId) -> Option<String> {
    match g.decode(a)? {
        Action::Origin(l) | Action::MusterA(l) | Action::MusterB(l) | Action::Battle(l) => {
            g.data().locations.get(l as usize).map(|x| format!("loc:{}", x.id))
        }
        Action::Step(r) => Some(format!("road:{r}")),
        _ => None,
    }
}

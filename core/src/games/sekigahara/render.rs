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
use crate::render::{int, list, num, paint, show, text, Canvas, Frame, RenderError, Svg, Swatch};

const SCALE: f64 = 0.3;
const PAD: f64 = 40.0;
const BLOCK: f64 = 15.0;
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

pub fn draw(g: &Sekigahara, f: &Frame, c: &mut Canvas) -> Result<(), RenderError> {
    let d = g.data();
    let body = f.body;
    let min_x = d.locations.iter().map(|l| l.xy[0]).min().unwrap_or(0) as f64;
    let min_y = d.locations.iter().map(|l| l.xy[1]).min().unwrap_or(0) as f64;
    let max_x = d.locations.iter().map(|l| l.xy[0]).max().unwrap_or(0) as f64;
    let max_y = d.locations.iter().map(|l| l.xy[1]).max().unwrap_or(0) as f64;
    let pos = |l: usize| {
        let xy = d.locations[l].xy;
        ((xy[0] as f64 - min_x) * SCALE + PAD, (xy[1] as f64 - min_y) * SCALE + PAD)
    };
    c.width = (max_x - min_x) * SCALE + PAD * 2.0;
    c.height = (max_y - min_y) * SCALE + PAD * 2.0;
    let last = last_target(g, f);
    let s = &mut c.board;
    s.rect(0.0, 0.0, c.width, c.height, &paint(LAND, GREY, 1.0));
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
    for (l, info) in d.locations.iter().enumerate() {
        let (x, y) = pos(l);
        let lv = views.iter().find(|v| text(v, "id") == info.id).unwrap_or(&Value::Null);
        s.group(&format!("class=\"location\" data-target=\"loc:{}\"", crate::render::esc(&info.id)));
        if last == Some(Ok(l as u8)) {
            s.circle(x, y, 17.0, &paint(HIGHLIGHT, INK, 2.0));
        }
        let castle = side_index(text(lv, "castle"));
        if info.castle.is_some() || castle.is_some() {
            let fill = castle.map_or(PAPER, seat_colour);
            s.rect(x - 9.0, y - 9.0, 18.0, 18.0, &paint(fill, INK, 2.0));
        } else {
            s.circle(x, y, 7.0, &paint(PAPER, INK, 1.5));
        }
        if let Some(side) = side_index(text(lv, "resource")) {
            seat_marker(s, side, x + 13.0, y - 11.0, 4.0);
        }
        if info.resource {
            s.polygon(&[(x + 13.0, y - 20.0), (x + 19.0, y - 14.0), (x + 13.0, y - 8.0), (x + 7.0, y - 14.0)], &paint(RESOURCE, INK, 1.0));
        }
        s.text(x, y + 20.0, 10.0, "middle", &format!("fill=\"{INK}\""), &info.name);
        s.title(&format!("{} ({})", info.name, info.id));
        draw_stacks(s, f, lv, blocks, &info.id, x, y);
        s.end_group();
    }
    legend(c);
    panel(f, c);
    Ok(())
}

/// The blocks at one location: per side, the visible faces then the hidden backs with a count.
fn draw_stacks(s: &mut Svg, f: &Frame, lv: &Value, blocks: &[Value], loc: &str, x: f64, y: f64) {
    for (side, name) in SIDES.iter().enumerate() {
        let total = lv.get("blocks").map_or(0, |b| int(b, name)).max(0) as usize;
        let faces: Vec<&Value> = blocks.iter().filter(|b| text(b, "at") == loc && text(b, "side") == *name).collect();
        if total == 0 && faces.is_empty() {
            continue;
        }
        let row_y = if side == 0 { y - 30.0 } else { y + 26.0 };
        let mut bx = x - (faces.len().min(6) as f64 + 1.0) * (BLOCK + 1.0) / 2.0;
        for b in faces.iter().take(6) {
            s.rect(bx, row_y, BLOCK, BLOCK, &paint(seat_colour(side), INK, 1.0));
            s.text(bx + BLOCK / 2.0, row_y + 11.0, 10.0, "middle", &format!("fill=\"{}\"", on_seat(side)), &show(&b["mons"]));
            let who = b.get("name").and_then(Value::as_str).unwrap_or("");
            s.title(&format!(
                "{} {} ({} mons){}",
                text(b, "clan"),
                text(b, "id"),
                show(&b["mons"]),
                if who.is_empty() { String::new() } else { format!(": {who}") }
            ));
            bx += BLOCK + 1.0;
        }
        if faces.len() > 6 {
            s.text(bx, row_y + 11.0, 9.0, "start", &format!("fill=\"{INK}\""), &format!("+{}", faces.len() - 6));
            bx += BLOCK + 1.0;
        }
        let hidden = total.saturating_sub(faces.len());
        if hidden > 0 {
            s.rect(bx, row_y, BLOCK, BLOCK, &paint(LIGHT_GREY, seat_colour(side), 2.5));
            s.text(bx + BLOCK / 2.0, row_y + 11.0, 9.0, "middle", &format!("fill=\"{INK}\""), &format!("{hidden}"));
            s.title(&format!("{hidden} {} block(s) face down", f.seats.get(side).map_or(*name, String::as_str)));
        }
    }
}

fn legend(c: &mut Canvas) {
    c.legend(Swatch::Line(INK, 4.5), "main road");
    c.legend(Swatch::Line(INK, 2.0), "road");
    c.legend(Swatch::Fill(PAPER, INK), "castle (filled: controlling side)");
    c.legend(Swatch::Fill(RESOURCE, INK), "resource (small marker: controller)");
    c.legend(Swatch::Fill(SIDES_COLOUR, INK), "block face: mons (own or revealed)");
    c.legend(Swatch::Fill(LIGHT_GREY, INK), "block backs: how many face down");
    c.legend(Swatch::Fill(HIGHLIGHT, INK), "last move / roads used this move");
}

const SIDES_COLOUR: &str = crate::render::palette::BLUE;

fn panel(f: &Frame, c: &mut Canvas) {
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
        c.line(&format!("battle at {}", show(&battle["at"])));
    }
    let hand = list(b, "hand");
    if f.observer.is_some() {
        let cards: Vec<String> =
            hand.iter().filter(|h| int(h, "count") > 0).map(|h| format!("{} x{}", text(h, "card"), int(h, "count"))).collect();
        c.heading("Your hand");
        for chunk in cards.chunks(3) {
            c.line(&chunk.join(", "));
        }
        if let Some(bid) = b.get("own_bid").and_then(Value::as_str) {
            c.line(&format!("your bid: {bid}"));
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

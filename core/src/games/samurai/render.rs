//! The Samurai board as a seat sees it: the hex map with each hex's number (the moves and the
//! log name hexes by it), settlements with their figures (and the seat leading each figure
//! now), the tokens placed, and the observer's own hand.

use serde_json::Value;

use super::action::Action;
use super::data::HexKind;
use super::Samurai;
use crate::hex::OffsetLayout;
use crate::render::hexes::{bounds, centre, corners};
use crate::render::palette::{on_seat, seat_marker, GREY, HIGHLIGHT, INK, LAND, PAPER, SEA};
use crate::render::{int, list, paint, show, text, Canvas, Frame, RenderError, Svg, Swatch, BOARD_H, BOARD_W};

const SETTLEMENT: &str = "#D9C8A0";
/// The hex numbers: dark enough to read on land, sea and settlements, lighter than the names.
const NUMBER: &str = "#4D4D4D";
const FIGURES: [(&str, &str); 3] = [("helmet", "H"), ("buddha", "B"), ("rice", "R")];

/// A token's short label: `helmet-3` -> `H3`, `ship-1` -> `Sh1`, `token-exchange` -> `TX`.
fn short(name: &str) -> String {
    let (kind, rest) = name.split_once('-').unwrap_or((name, ""));
    let head = match kind {
        "helmet" => "H",
        "buddha" => "B",
        "rice" => "R",
        "samurai" => "S",
        "ship" => "Sh",
        "ronin" => "Rn",
        "token" => return "TX".into(),
        "figure" => return "FX".into(),
        other => return other.chars().take(2).collect(),
    };
    format!("{head}{rest}")
}

/// A token's printed name: `rice-3` -> `Rice 3`, `token-exchange` -> `Token Exchange`.
fn full_name(name: &str) -> String {
    name.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or_else(String::new, |h| h.to_uppercase().chain(c).collect())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn figure_glyph(figure: &str) -> &'static str {
    FIGURES.iter().find(|(f, _)| *f == figure).map_or("?", |(_, g)| g)
}

/// The hex a visible last action was played on.
fn last_hex(g: &Samurai, f: &Frame) -> Option<u8> {
    match g.decode(f.last_visible_id()?)? {
        Action::PlaceFigure { hex, .. } | Action::PlaceToken { hex, .. } | Action::SwapFigure { hex, .. } | Action::PickUp { hex } => {
            Some(hex)
        }
        _ => None,
    }
}

/// The seat leading figure type `figure` at settlement index `st` from the tokens placed,
/// if one seat leads alone.
fn leader(g: &Samurai, st: usize, figure: usize, placed: &[(u8, usize, usize)]) -> Option<usize> {
    let info = &g.data().settlements[st];
    let mut sums = vec![0u32; g.n];
    for &(hex, seat, token) in placed {
        let Some(t) = g.data().tokens.get(token) else { continue };
        let adjacent = info.land.contains(&hex) || info.sea.contains(&hex);
        if adjacent && t.influences & (1 << figure) != 0 && seat < g.n {
            sums[seat] += t.strength as u32;
        }
    }
    let best = *sums.iter().max()?;
    (best > 0 && sums.iter().filter(|&&s| s == best).count() == 1).then(|| sums.iter().position(|&s| s == best).unwrap_or(0))
}

pub fn draw(g: &Samurai, f: &Frame, c: &mut Canvas) -> Result<(), RenderError> {
    let d = g.data();
    let body = f.body;
    let unit = |col: i32, row: i32| centre(OffsetLayout::OddQ.to_axial(col, row), 1.0);
    let shown: Vec<_> = d.hexes.iter().filter(|h| g.in_play[h.id as usize]).collect();
    let (ux0, uy0, ux1, uy1) = bounds(shown.iter().map(|h| unit(h.col, h.row)), 1.0);
    // The map fills the board area.
    let size = (BOARD_W / (ux1 - ux0).max(1.0)).min(BOARD_H / (uy1 - uy0).max(1.0));
    let at = |col: i32, row: i32| centre(OffsetLayout::OddQ.to_axial(col, row), size);
    let (x0, y0, x1, y1) = bounds(shown.iter().map(|h| at(h.col, h.row)), size);
    let pos = |hex: u8| d.hexes.get(hex as usize).map(|h| at(h.col, h.row)).map(|(x, y)| (x - x0, y - y0));
    c.width = x1 - x0;
    c.height = y1 - y0;
    let s = &mut c.board;
    for h in &shown {
        let Some((x, y)) = pos(h.id) else { continue };
        let fill = match h.kind {
            HexKind::Sea => SEA,
            HexKind::Land => LAND,
            _ => SETTLEMENT,
        };
        s.group(&format!("class=\"hex\" data-target=\"hex:{}\"", h.id));
        s.polygon(&corners(x, y, size), &paint(fill, GREY, 0.8));
        s.title(&format!("hex {} ({})", h.id, h.kind.name()));
        s.end_group();
    }
    // Every hex's number, at the bottom of the hex (below a token, a settlement's figures and
    // their markers): moves and the log name hexes by it ("hex 86").
    for h in &shown {
        let Some((x, y)) = pos(h.id) else { continue };
        s.text(x, y + size * 0.866 - 1.6, 11.0, "middle", &format!("fill=\"{NUMBER}\" class=\"hex-number\""), &h.id.to_string());
    }
    let placed: Vec<(u8, usize, usize)> = list(body.get("board").unwrap_or(&Value::Null), "tokens")
        .iter()
        .map(|t| (int(t, "hex") as u8, int(t, "seat") as usize, int(t, "token") as usize))
        .collect();
    for st in list(body.get("board").unwrap_or(&Value::Null), "settlements") {
        let hex = int(st, "hex") as u8;
        let Some((x, y)) = pos(hex) else { continue };
        let kind = text(st, "kind");
        s.text(x, y - size * 0.42, 11.0, "middle", &format!("fill=\"{INK}\""), kind);
        let index = d.settlement_at.get(hex as usize).copied().filter(|&i| (i as usize) < d.settlements.len());
        let figures = list(st, "figures");
        if st.get("resolved").and_then(Value::as_bool) == Some(true) {
            s.text(x, y + 8.0, 11.0, "middle", &format!("fill=\"{INK}\""), "taken");
        }
        let n = figures.len() as f64;
        for (i, fig) in figures.iter().enumerate() {
            let fx = x + (i as f64 - (n - 1.0) / 2.0) * 17.0;
            let name = show(fig);
            let p = s.piece(fx - 8.0, y - 10.0, 16.0, 16.0);
            s.circle(fx, y - 2.0, 8.0, &paint(PAPER, INK, 1.0));
            s.piece_text(p, fx, y + 2.0, 11.0, "middle", "", figure_glyph(&name));
            let figure = FIGURES.iter().position(|(n, _)| *n == name);
            if let (Some(st_i), Some(fi)) = (index, figure) {
                if let Some(p) = leader(g, st_i as usize, fi, &placed) {
                    seat_marker(s, p, fx, y + 11.0, 3.5);
                }
            }
        }
    }
    for t in list(body.get("board").unwrap_or(&Value::Null), "tokens") {
        let hex = int(t, "hex") as u8;
        let seat = int(t, "seat") as usize;
        let Some((x, y)) = pos(hex) else { continue };
        s.group(&format!("class=\"token\" data-target=\"hex:{hex}\""));
        let p = seat_marker(s, seat, x, y, 13.0);
        s.piece_text(p, x, y + 4.0, 11.0, "middle", &format!("fill=\"{}\" font-weight=\"bold\"", on_seat(seat)), &short(text(t, "name")));
        s.title(&format!("{} of {}", full_name(text(t, "name")), f.seat_name(seat)));
        s.end_group();
    }
    if let Some((x, y)) = last_hex(g, f).and_then(pos) {
        highlight(s, x, y, size);
    }
    legend(c);
    panel(f, c);
    Ok(())
}

fn highlight(s: &mut Svg, x: f64, y: f64, size: f64) {
    let ring = corners(x, y, size - 1.5);
    s.polygon(&ring, &format!("fill=\"none\" stroke=\"{INK}\" stroke-width=\"5\""));
    s.polygon(&ring, &format!("fill=\"none\" stroke=\"{HIGHLIGHT}\" stroke-width=\"3\" class=\"last-move\""));
}

fn legend(c: &mut Canvas) {
    c.legend(Swatch::Fill(LAND, GREY), "land");
    c.legend(Swatch::Fill(SEA, GREY), "sea (ships only)");
    c.legend(Swatch::Fill(SETTLEMENT, GREY), "settlement: village, city, edo");
    for (figure, glyph) in FIGURES {
        c.legend(Swatch::Glyph(glyph.into()), &format!("{figure} figure (small marker: seat leading it now)"));
    }
    c.legend(
        Swatch::Seat(0),
        "token: H helmet, B buddha, R rice, S samurai, Sh ship, Rn ronin, TX token exchange, FX figure exchange, with its strength",
    );
    c.legend(Swatch::Fill(HIGHLIGHT, INK), "hex of the last move");
}

fn per_type(v: &Value) -> String {
    match v {
        Value::Object(_) => FIGURES.iter().map(|(f, g)| format!("{g}{}", show(&v[*f]))).collect::<Vec<_>>().join(" "),
        _ => "hidden".into(),
    }
}

fn panel(f: &Frame, c: &mut Canvas) {
    c.heading("Seats");
    for p in list(f.body, "players") {
        let seat = int(p, "seat") as usize;
        c.seat_line(
            seat,
            &format!(
                "{}: hand {}, stack {}, captured {} ({})",
                f.seat_name(seat),
                int(p, "hand_size"),
                int(p, "stack_size"),
                int(p, "captured_count"),
                per_type(&p["captured"])
            ),
        );
        if let Some(hand) = p.get("hand").and_then(Value::as_array) {
            let names: Vec<String> = hand.iter().map(|t| full_name(text(t, "name"))).collect();
            c.line(&format!("    hand: {}", names.join(", ")));
        }
    }
    c.heading("Figures");
    c.line(&format!("on the board: {}", per_type(&f.body["on_board"])));
    c.line(&format!("set aside: {}", per_type(&f.body["set_aside"])));
    c.line(&format!("phase: {}", text(f.body, "phase").replace('_', " ")));
}

/// Placements, figure choices and pick-ups are played on a hex.
pub fn action_target(g: &Samurai, a: crate::game::ActionId) -> Option<String> {
    match g.decode(a)? {
        Action::PlaceFigure { hex, .. } | Action::PlaceToken { hex, .. } | Action::SwapFigure { hex, .. } | Action::PickUp { hex } => {
            Some(format!("hex:{hex}"))
        }
        _ => None,
    }
}

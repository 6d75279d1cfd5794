//! Colours and seat markers that survive colour blindness.
//!
//! Seat colours are from the Okabe-Ito palette, and every seat also has its own marker shape
//! (circle, square, triangle, diamond), so colour is never the only cue.

use super::svg::{paint, Svg};

/// Okabe-Ito colours.
pub const BLUE: &str = "#0072B2";
pub const VERMILLION: &str = "#D55E00";
pub const GREEN: &str = "#009E73";
pub const PURPLE: &str = "#CC79A7";
pub const ORANGE: &str = "#E69F00";
pub const SKY: &str = "#56B4E9";
pub const YELLOW: &str = "#F0E442";
pub const INK: &str = "#000000";

/// Neutral tones for the boards.
pub const PAPER: &str = "#FFFFFF";
pub const LAND: &str = "#F2EBD9";
pub const SEA: &str = "#D9ECF7";
pub const GREY: &str = "#8C8C8C";
pub const LIGHT_GREY: &str = "#E6E6E6";
/// The highlight of the last move.
pub const HIGHLIGHT: &str = YELLOW;

const SEAT_COLOURS: [&str; 4] = [BLUE, VERMILLION, GREEN, PURPLE];
const SEAT_SHAPES: [&str; 4] = ["circle", "square", "triangle", "diamond"];

/// The colour of a seat (seats past the fourth reuse the palette; their shape still differs).
pub fn seat_colour(seat: usize) -> &'static str {
    SEAT_COLOURS[seat % SEAT_COLOURS.len()]
}

/// The name of a seat's marker shape, for legends.
pub fn seat_shape(seat: usize) -> &'static str {
    SEAT_SHAPES[seat % SEAT_SHAPES.len()]
}

/// Draws the marker of `seat` centred on `(x, y)` with radius `r`; returns its piece index
/// ([`Svg::piece`]) for an inscription.
pub fn seat_marker(svg: &mut Svg, seat: usize, x: f64, y: f64, r: f64) -> usize {
    let piece = svg.piece(x - r * 1.15, y - r * 1.15, r * 2.3, r * 2.3);
    let style = paint(seat_colour(seat), INK, 1.0);
    match seat % SEAT_SHAPES.len() {
        0 => svg.circle(x, y, r, &style),
        1 => svg.rect(x - r * 0.9, y - r * 0.9, r * 1.8, r * 1.8, &style),
        2 => svg.polygon(&[(x, y - r * 1.1), (x + r, y + r * 0.8), (x - r, y + r * 0.8)], &style),
        _ => svg.polygon(&[(x, y - r * 1.15), (x + r * 1.15, y), (x, y + r * 1.15), (x - r * 1.15, y)], &style),
    }
    piece
}

/// Text colour readable on a seat's colour.
pub fn on_seat(_seat: usize) -> &'static str {
    PAPER
}

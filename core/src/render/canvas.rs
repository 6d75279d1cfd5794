//! The board a game draws on, and the frame around it: header, legend panel, footer.

use super::palette::{seat_marker, seat_shape, GREY, HIGHLIGHT, INK, LIGHT_GREY, PAPER};
use super::svg::{esc, num, paint, Svg};
use super::Frame;

const MARGIN: f64 = 12.0;
const HEADER: f64 = 58.0;
const FOOTER: f64 = 40.0;
const PANEL: f64 = 320.0;
const LINE: f64 = 17.0;

/// A legend entry's sample.
#[derive(Debug, Clone, PartialEq)]
pub enum Swatch {
    /// A seat's marker (colour and shape).
    Seat(usize),
    /// A filled box: fill and stroke colours.
    Fill(&'static str, &'static str),
    /// A line: colour and width.
    Line(&'static str, f64),
    /// A text glyph in a white badge.
    Glyph(String),
}

enum PanelLine {
    Heading(String),
    Text(Option<usize>, String),
}

/// What a game draws: the board (its own coordinates, origin top left, `width` x `height`),
/// legend entries and text lines for the side panel.
pub struct Canvas {
    pub board: Svg,
    pub width: f64,
    pub height: f64,
    legend: Vec<(Swatch, String)>,
    panel: Vec<PanelLine>,
}

impl Default for Canvas {
    fn default() -> Self {
        Canvas::new()
    }
}

impl Canvas {
    pub fn new() -> Canvas {
        Canvas { board: Svg::new(), width: 400.0, height: 300.0, legend: Vec::new(), panel: Vec::new() }
    }

    pub fn legend(&mut self, swatch: Swatch, label: &str) {
        self.legend.push((swatch, label.to_string()));
    }

    pub fn heading(&mut self, text: &str) {
        self.panel.push(PanelLine::Heading(text.to_string()));
    }

    pub fn line(&mut self, text: &str) {
        self.panel.push(PanelLine::Text(None, text.to_string()));
    }

    /// A panel line led by a seat's marker.
    pub fn seat_line(&mut self, seat: usize, text: &str) {
        self.panel.push(PanelLine::Text(Some(seat), text.to_string()));
    }

    /// The whole SVG document: header, board, panel, footer.
    pub fn finish(self, f: &Frame, name: &str) -> String {
        let panel = self.draw_panel(f);
        let panel_h = panel.1;
        let body_h = self.height.max(panel_h);
        let w = MARGIN * 3.0 + self.width + PANEL;
        let h = HEADER + body_h + FOOTER + MARGIN;
        let mut s = Svg::new();
        s.rect(0.0, 0.0, w, h, &paint(PAPER, "", 0.0));
        draw_header(&mut s, f, name, w);
        s.group(&format!("class=\"board\" transform=\"translate({},{})\"", num(MARGIN), num(HEADER)));
        s.append(&self.board);
        s.end_group();
        s.group(&format!("class=\"panel\" transform=\"translate({},{})\"", num(MARGIN * 2.0 + self.width), num(HEADER)));
        s.append(&panel.0);
        s.end_group();
        draw_footer(&mut s, f, HEADER + body_h, w);
        let observer = f.observer.map_or_else(|| "spectator".to_string(), |o| o.to_string());
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"'Noto Sans', 'Noto Sans CJK JP', sans-serif\" data-game=\"{}\" data-observer=\"{}\">\n{}</svg>\n",
            esc(&f.game),
            observer,
            s.into_string(),
            w = num(w),
            h = num(h)
        )
    }

    fn draw_panel(&self, f: &Frame) -> (Svg, f64) {
        let mut s = Svg::new();
        let mut y = LINE;
        s.text(0.0, y, 14.0, "start", "font-weight=\"bold\"", "Legend");
        for (seat, seat_name) in f.seats.iter().enumerate() {
            y += LINE;
            seat_marker(&mut s, seat, 8.0, y - 5.0, 6.0);
            let you = if f.observer == Some(seat) { " (you)" } else { "" };
            s.text(20.0, y, 12.0, "start", "", &format!("{seat_name}{you}: seat {seat}, {}", seat_shape(seat)));
        }
        for (swatch, label) in &self.legend {
            y += LINE;
            draw_swatch(&mut s, swatch, 8.0, y - 5.0);
            s.text(20.0, y, 12.0, "start", "", label);
        }
        for line in &self.panel {
            match line {
                PanelLine::Heading(t) => {
                    y += LINE * 1.4;
                    s.text(0.0, y, 14.0, "start", "font-weight=\"bold\"", t);
                }
                PanelLine::Text(seat, t) => {
                    y += LINE;
                    let x = match seat {
                        Some(p) => {
                            seat_marker(&mut s, *p, 8.0, y - 5.0, 6.0);
                            20.0
                        }
                        None => 0.0,
                    };
                    s.text(x, y, 12.0, "start", "", t);
                }
            }
        }
        (s, y + MARGIN)
    }
}

fn draw_swatch(s: &mut Svg, swatch: &Swatch, x: f64, y: f64) {
    match swatch {
        Swatch::Seat(p) => seat_marker(s, *p, x, y, 6.0),
        Swatch::Fill(fill, stroke) => s.rect(x - 7.0, y - 6.0, 14.0, 12.0, &paint(fill, stroke, 1.5)),
        Swatch::Line(colour, width) => s.line((x - 8.0, y), (x + 8.0, y), &format!("stroke=\"{colour}\" stroke-width=\"{}\"", num(*width))),
        Swatch::Glyph(g) => {
            s.circle(x, y, 7.0, &paint(PAPER, INK, 1.0));
            s.text(x, y + 3.5, 9.0, "middle", "", g);
        }
    }
}

fn draw_header(s: &mut Svg, f: &Frame, name: &str, w: f64) {
    s.rect(0.0, 0.0, w, HEADER - 8.0, &paint(LIGHT_GREY, "", 0.0));
    s.text(MARGIN, 22.0, 17.0, "start", "font-weight=\"bold\"", &format!("{name} - seen by {}", f.observer_name()));
    let status = if f.terminal {
        match f.winners.as_slice() {
            [] => "game over: a draw".to_string(),
            w => format!("game over: won by {}", w.iter().map(|&p| f.seat_name(p)).collect::<Vec<_>>().join(", ")),
        }
    } else {
        let who = match (f.to_act.kind.as_str(), f.to_act.seat) {
            ("chance", _) => "chance".to_string(),
            (_, Some(p)) => f.seat_name(p),
            _ => "-".to_string(),
        };
        let what = if f.to_act.prompt.is_empty() { f.to_act.decision.replace('_', " ") } else { f.to_act.prompt.clone() };
        format!("to act: {who}{}{what}", if what.is_empty() { "" } else { ": " })
    };
    if let Some(p) = f.to_act.seat.filter(|_| !f.terminal) {
        seat_marker(s, p, MARGIN + 6.0, 39.0, 6.0);
        s.text(MARGIN + 18.0, 43.0, 13.0, "start", "class=\"to-act\"", &status);
    } else {
        s.text(MARGIN, 43.0, 13.0, "start", "class=\"to-act\"", &status);
    }
}

fn draw_footer(s: &mut Svg, f: &Frame, y: f64, w: f64) {
    let Some(last) = &f.last_action else {
        s.text(MARGIN, y + 26.0, 13.0, "start", &format!("fill=\"{GREY}\""), "no move yet");
        return;
    };
    let who = last.seat.map_or_else(|| "chance".to_string(), |p| f.seat_name(p));
    let text = match &last.text {
        Some(t) => format!("last move: {who}: {t}"),
        None => format!("last move: {who} (hidden from {})", f.observer_name()),
    };
    s.rect(MARGIN, y + 8.0, w - MARGIN * 2.0, 26.0, &paint(HIGHLIGHT, INK, 1.0));
    if let Some(p) = last.seat {
        seat_marker(s, p, MARGIN + 14.0, y + 21.0, 6.0);
    }
    s.text(MARGIN + 28.0, y + 26.0, 13.0, "start", "class=\"last-move\"", &text);
}

//! The board a game draws on, and the frame around it: header, legend panel, footer.

use super::layout::Layout;
use super::palette::{seat_marker, seat_shape, GREY, HIGHLIGHT, INK, LIGHT_GREY, PAPER};
use super::svg::{esc, num, paint, text_width, Svg};
use super::Frame;

const MARGIN: f64 = 12.0;
const HEADER: f64 = 56.0;
const FOOTER: f64 = 40.0;
/// Width of the side panel (legend and the game's notes).
pub const PANEL: f64 = 330.0;
const LINE: f64 = 18.0;
const PANEL_FONT: f64 = 13.0;
/// The picture's width: it is drawn at the size it is meant to be seen at.
const WIDTH: f64 = super::layout::FIT.0;
/// The board area a game draws in, in pixels; a larger board is scaled down to fit.
pub const BOARD_W: f64 = WIDTH - MARGIN * 3.0 - PANEL;
pub const BOARD_H: f64 = super::layout::FIT.1 - HEADER - FOOTER - MARGIN;
/// The font families the pictures ask for: a CJK-capable family first (Japanese and Korean
/// names), then Latin ones. Debian and Ubuntu ship it in `fonts-noto-cjk`.
pub const FONT_FAMILY: &str = "'Noto Sans CJK JP', 'Noto Sans', sans-serif";

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
        self.lay_out(f, name).svg
    }

    /// The whole SVG document with the boxes of its texts and pieces.
    pub fn lay_out(self, f: &Frame, name: &str) -> Layout {
        let (panel, panel_h) = self.draw_panel(f);
        let k = (BOARD_W / self.width.max(1.0)).min(BOARD_H / self.height.max(1.0)).min(1.0);
        let body_h = (self.height * k).max(panel_h).max(BOARD_H);
        let w = WIDTH;
        let h = HEADER + body_h + FOOTER + MARGIN;
        let mut s = Svg::new();
        s.rect(0.0, 0.0, w, h, &paint(PAPER, "", 0.0));
        draw_header(&mut s, f, name, w);
        s.group("class=\"board\"");
        s.append_scaled(&self.board, MARGIN, HEADER, k);
        s.end_group();
        s.group("class=\"panel\"");
        s.append_scaled(&panel, WIDTH - MARGIN - PANEL, HEADER, 1.0);
        s.end_group();
        draw_footer(&mut s, f, HEADER + body_h, w);
        let observer = f.observer.map_or_else(|| "spectator".to_string(), |o| o.to_string());
        let svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{FONT_FAMILY}\" data-game=\"{}\" data-observer=\"{}\">\n{}</svg>\n",
            esc(&f.game),
            observer,
            s.as_str(),
            w = num(w),
            h = num(h)
        );
        Layout { svg, width: w, height: h, boxes: s.boxes().to_vec() }
    }

    fn draw_panel(&self, f: &Frame) -> (Svg, f64) {
        let mut s = Svg::new();
        let mut y = LINE;
        s.text(0.0, y, 15.0, "start", "font-weight=\"bold\"", "Legend");
        for (seat, seat_name) in f.seats.iter().enumerate() {
            y += LINE;
            seat_marker(&mut s, seat, 8.0, y - 5.0, 6.0);
            let you = if f.observer == Some(seat) { " (you)" } else { "" };
            // The seat as every text names it (its name, not a second numbering), and its
            // marker's shape for those who cannot tell the colours apart.
            s.text(20.0, y, PANEL_FONT, "start", "", &format!("{}{you} ({} marker)", capitalized(seat_name), seat_shape(seat)));
        }
        for (swatch, label) in &self.legend {
            for (i, part) in wrap(label, PANEL - 22.0, PANEL_FONT).iter().enumerate() {
                y += LINE;
                if i == 0 {
                    draw_swatch(&mut s, swatch, 8.0, y - 5.0);
                }
                s.text(20.0, y, PANEL_FONT, "start", "", part);
            }
        }
        for line in &self.panel {
            match line {
                PanelLine::Heading(t) => {
                    y += LINE * 1.4;
                    s.text(0.0, y, 15.0, "start", "font-weight=\"bold\"", t);
                }
                PanelLine::Text(seat, t) => {
                    let x = if seat.is_some() { 20.0 } else { 0.0 };
                    let indent = t.len() - t.trim_start().len();
                    for (i, part) in wrap(t.trim_start(), PANEL - x - indent as f64 * 4.0, PANEL_FONT).iter().enumerate() {
                        y += LINE;
                        if let (0, Some(p)) = (i, seat) {
                            seat_marker(&mut s, *p, 8.0, y - 5.0, 6.0);
                        }
                        let dx = indent as f64 * 4.0 + if i > 0 { 8.0 } else { 0.0 };
                        s.text(x + dx, y, PANEL_FONT, "start", "", part);
                    }
                }
            }
        }
        (s, y + MARGIN)
    }
}

/// `text` with its first letter in upper case ("tokugawa" -> "Tokugawa").
fn capitalized(text: &str) -> String {
    let mut c = text.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// `text` broken at spaces into lines at most `width` wide at font size `size` (a word
/// longer than a line is cut).
pub fn wrap(text: &str, width: f64, size: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in text.split(' ') {
        let candidate = if cur.is_empty() { word.to_string() } else { format!("{cur} {word}") };
        if text_width(&candidate, size, false) <= width || cur.is_empty() {
            cur = candidate;
        } else {
            lines.push(std::mem::take(&mut cur));
            cur = word.to_string();
        }
        while text_width(&cur, size, false) > width && cur.chars().count() > 1 {
            let mut head: String = String::new();
            for c in cur.chars() {
                if text_width(&format!("{head}{c}"), size, false) > width {
                    break;
                }
                head.push(c);
            }
            if head.is_empty() {
                break;
            }
            let rest = cur[head.len()..].to_string();
            lines.push(head);
            cur = rest;
        }
    }
    if !cur.is_empty() || lines.is_empty() {
        lines.push(cur);
    }
    lines
}

/// `text` cut with an ellipsis to at most `width` at font size `size`.
pub fn clip(text: &str, width: f64, size: f64, bold: bool) -> String {
    if text_width(text, size, bold) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    for c in text.chars() {
        if text_width(&format!("{out}{c}…"), size, bold) > width {
            break;
        }
        out.push(c);
    }
    format!("{out}…")
}

fn draw_swatch(s: &mut Svg, swatch: &Swatch, x: f64, y: f64) {
    match swatch {
        Swatch::Seat(p) => {
            seat_marker(s, *p, x, y, 6.0);
        }
        Swatch::Fill(fill, stroke) => s.rect(x - 7.0, y - 6.0, 14.0, 12.0, &paint(fill, stroke, 1.5)),
        Swatch::Line(colour, width) => s.line((x - 8.0, y), (x + 8.0, y), &format!("stroke=\"{colour}\" stroke-width=\"{}\"", num(*width))),
        Swatch::Glyph(g) => {
            let p = s.piece(x - 9.0, y - 9.0, 18.0, 18.0);
            s.circle(x, y, 9.0, &paint(PAPER, INK, 1.0));
            s.piece_text(p, x, y + 4.0, 11.0, "middle", "", g);
        }
    }
}

fn draw_header(s: &mut Svg, f: &Frame, name: &str, w: f64) {
    s.rect(0.0, 0.0, w, HEADER - 8.0, &paint(LIGHT_GREY, "", 0.0));
    let title = clip(&format!("{name} - seen by {}", f.observer_name()), w - MARGIN * 2.0, 17.0, true);
    s.text(MARGIN, 22.0, 17.0, "start", "font-weight=\"bold\"", &title);
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
    let status = clip(&status, w - MARGIN * 2.0 - 20.0, 13.0, false);
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
    // The move as the observer was told it, as the pages' last-move lines tell it; the action
    // string only for a move that told the observer nothing.
    let text = match (last.sentences.as_slice(), &last.text) {
        ([], Some(t)) => format!("last move: {who}: {t}"),
        ([], None) => format!("last move: {who} (hidden from {})", f.observer_name()),
        (said, _) => format!("last move ({who}): {}", said.join("; ")),
    };
    s.rect(MARGIN, y + 8.0, w - MARGIN * 2.0, 26.0, &paint(HIGHLIGHT, INK, 1.0));
    if let Some(p) = last.seat {
        seat_marker(s, p, MARGIN + 14.0, y + 21.0, 6.0);
    }
    let text = clip(&text, w - MARGIN * 2.0 - 36.0, 13.0, false);
    s.text(MARGIN + 28.0, y + 26.0, 13.0, "start", "class=\"last-move\"", &text);
}

#[cfg(test)]
mod tests {
    /// The legend names each seat as the rest of the picture and the log do, with "(you)" for
    /// the observer, and no second numbering ("player 1 (you): seat 0").
    #[test]
    fn the_legend_names_seats_once() {
        for (id, name) in crate::games() {
            let state = crate::load_game(id, None).expect("the default config loads").new_initial_state(1);
            let seats = state.view(crate::SPECTATOR).expect("a view")["seats"].clone();
            let first = seats[0]["name"].as_str().expect("a seat name");
            let svg = state.render_svg(0).expect("the picture");
            let you = format!("{}{} (you)", first[..1].to_uppercase(), &first[1..]);
            assert!(svg.contains(&you), "{name}: no {you:?} in the legend");
            assert!(!svg.contains(": seat 0"), "{name}: a second seat numbering in the legend");
        }
    }

    /// The footer tells the last move by the sentences of its events as the observer was told
    /// them, joined by "; " as the pages' last-move lines join them (issue 33 item 2): not by
    /// the action string, and not "hidden" from a seat that was told what happened.
    #[test]
    fn the_footer_tells_the_last_move_by_its_sentences() {
        for (id, name) in crate::games() {
            let mut state = crate::load_game(id, None).expect("the default config loads").new_initial_state(7);
            let mut rng = crate::rng::Rng::from_seed(7);
            let (mut checked, mut hidden_told) = (0, 0);
            for _ in 0..60 {
                let legal = state.legal_actions();
                if state.is_terminal() || legal.is_empty() {
                    break;
                }
                let step = state.history().len() as u32;
                state.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).expect("a legal action");
                for observer in crate::SPECTATOR..state.game().num_players() as crate::Player {
                    let view = state.view(observer).expect("a view");
                    let last = &view["last_action"];
                    let told: Vec<String> = state
                        .events(observer)
                        .expect("events")
                        .iter()
                        .filter(|e| e.step == step)
                        .map(|e| state.game().event_text(&e.body, observer).unwrap_or_else(|| crate::text::generic_sentence(&e.body)))
                        .collect();
                    let sentences: Vec<String> = serde_json::from_value(last["sentences"].clone()).expect("sentences");
                    assert_eq!(sentences, told, "{name}: step {step}, observer {observer}");
                    // A world sampled from what the observer knows tells it the same.
                    let twin = state.determinize(observer, u64::from(step) + 1).expect("a twin");
                    assert_eq!(twin.view(observer).expect("a view")["last_action"]["sentences"], last["sentences"], "{name}: step {step}");
                    if told.is_empty() {
                        continue;
                    }
                    let frame = super::Frame::parse(&view).expect("a frame");
                    let who = frame.last_action.as_ref().and_then(|l| l.seat).map_or_else(|| "chance".to_string(), |p| frame.seat_name(p));
                    let line = super::clip(&format!("last move ({who}): {}", told.join("; ")), 1e9, 13.0, false);
                    let svg = state.render_svg(observer).expect("the picture");
                    let shown = svg.split("class=\"last-move\">").nth(1).and_then(|t| t.split("</text>").next()).expect("a last-move line");
                    let shown = shown.trim_end_matches('…');
                    assert!(
                        super::super::svg::esc(&line).starts_with(shown),
                        "{name}: step {step}, observer {observer}: {shown:?} is not {line:?}"
                    );
                    assert!(!shown.contains("hidden"), "{name}: {shown:?}");
                    checked += 1;
                    hidden_told += usize::from(last["hidden"] == true);
                }
            }
            assert!(checked > 0, "{name}: no last move told");
            if state.game().info().hidden_information {
                assert!(hidden_told > 0, "{name}: no hidden move told by its sentences");
            }
        }
    }
}

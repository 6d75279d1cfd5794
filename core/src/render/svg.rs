//! A small SVG writer: escaping, number formatting and the shapes the boards are made of.
//!
//! Every string that comes from a view goes through [`esc`]; style arguments are written by
//! the drawing code itself. Numbers are printed with at most one decimal, so the same view
//! always gives byte-identical SVG text.
//!
//! Every text and every piece the writer draws also registers its bounding box
//! ([`LaidOut`]), so the layout can be checked ([`super::layout`]): no name under a piece or
//! under another name, none too small to read.

use std::fmt::Write;

/// What a registered box holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoxKind {
    /// A text the reader must be able to read.
    Label,
    /// A piece, marker or swatch: text must not lie under it (its own inscription aside).
    Piece,
}

/// A drawn element's bounding box in document coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct LaidOut {
    pub kind: BoxKind,
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
    /// Font size of a label (0 for a piece).
    pub size: f64,
    /// The label's text (empty for a piece).
    pub text: String,
    /// For an inscription on a piece: the index of that piece in the same list.
    pub on: Option<usize>,
}

impl LaidOut {
    /// Whether the two boxes share more than `slack` in both directions.
    pub fn overlaps(&self, o: &LaidOut, slack: f64) -> bool {
        self.x0.max(o.x0) + slack < self.x1.min(o.x1) && self.y0.max(o.y0) + slack < self.y1.min(o.y1)
    }

    fn shifted(&self, dx: f64, dy: f64, k: f64, base: usize) -> LaidOut {
        LaidOut {
            x0: self.x0 * k + dx,
            y0: self.y0 * k + dy,
            x1: self.x1 * k + dx,
            y1: self.y1 * k + dy,
            size: self.size * k,
            on: self.on.map(|i| i + base),
            ..self.clone()
        }
    }
}

/// Whether `c` is drawn about one em wide (CJK, kana, hangul, full-width forms).
fn wide(c: char) -> bool {
    matches!(c as u32, 0x1100..=0x11FF | 0x2E80..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFF00..=0xFF60 | 0x20000..=0x2FFFF)
}

/// The width `text` takes at font size `size`, estimated a little generously from Noto Sans's
/// advance widths (narrow letters, capitals and digits, one em for CJK).
pub fn text_width(text: &str, size: f64, bold: bool) -> f64 {
    let ems: f64 = text
        .chars()
        .map(|c| match c {
            c if wide(c) => 1.0,
            'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | '(' | ')' | '[' | ']' => 0.3,
            ' ' => 0.27,
            'm' | 'w' | 'M' | 'W' => 0.88,
            c if c.is_ascii_uppercase() => 0.68,
            c if c.is_ascii_digit() => 0.58,
            _ => 0.56,
        })
        .sum();
    ems * size * if bold { 1.08 } else { 1.0 }
}

/// The box of a text drawn at `(x, y)` (baseline) with `anchor`.
pub fn text_box(x: f64, y: f64, size: f64, anchor: &str, bold: bool, content: &str) -> (f64, f64, f64, f64) {
    let w = text_width(content, size, bold);
    let x0 = match anchor {
        "middle" => x - w / 2.0,
        "end" => x - w,
        _ => x,
    };
    (x0, y - size * 0.8, x0 + w, y + size * 0.22)
}

/// XML-escapes text and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// A coordinate with at most one decimal and no trailing `.0`.
pub fn num(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// `fill` and `stroke` attributes (`none` for an empty colour).
pub fn paint(fill: &str, stroke: &str, width: f64) -> String {
    let f = if fill.is_empty() { "none" } else { fill };
    if stroke.is_empty() {
        format!("fill=\"{f}\"")
    } else {
        format!("fill=\"{f}\" stroke=\"{stroke}\" stroke-width=\"{}\"", num(width))
    }
}

/// SVG markup under construction.
#[derive(Debug, Default, Clone)]
pub struct Svg {
    out: String,
    boxes: Vec<LaidOut>,
}

impl Svg {
    pub fn new() -> Svg {
        Svg::default()
    }

    pub fn as_str(&self) -> &str {
        &self.out
    }

    pub fn into_string(self) -> String {
        self.out
    }

    /// The boxes of the texts and pieces drawn so far.
    pub fn boxes(&self) -> &[LaidOut] {
        &self.boxes
    }

    /// Appends markup written elsewhere by this module's functions.
    pub fn append(&mut self, other: &Svg) {
        self.append_scaled(other, 0.0, 0.0, 1.0);
    }

    /// Appends `other` moved by `(dx, dy)` and scaled by `k` (a group with a transform).
    pub fn append_scaled(&mut self, other: &Svg, dx: f64, dy: f64, k: f64) {
        let base = self.boxes.len();
        self.boxes.extend(other.boxes.iter().map(|b| b.shifted(dx, dy, k, base)));
        if dx == 0.0 && dy == 0.0 && k == 1.0 {
            self.out.push_str(&other.out);
        } else {
            let scale = if k == 1.0 { String::new() } else { format!(" scale({})", fmt_scale(k)) };
            let _ = write!(self.out, "<g transform=\"translate({},{}){scale}\">", num(dx), num(dy));
            self.out.push_str(&other.out);
            self.out.push_str("</g>\n");
        }
    }

    /// Registers a piece occupying the box `(x, y, w, h)` (drawn by the caller) and returns
    /// its index for [`Svg::piece_text`].
    pub fn piece(&mut self, x: f64, y: f64, w: f64, h: f64) -> usize {
        self.boxes.push(LaidOut { kind: BoxKind::Piece, x0: x, y0: y, x1: x + w, y1: y + h, size: 0.0, text: String::new(), on: None });
        self.boxes.len() - 1
    }

    /// Whether a box `(x0, y0, x1, y1)` is free of every text and piece drawn so far.
    pub fn is_free(&self, b: (f64, f64, f64, f64)) -> bool {
        let probe = LaidOut { kind: BoxKind::Label, x0: b.0, y0: b.1, x1: b.2, y1: b.3, size: 0.0, text: String::new(), on: None };
        !self.boxes.iter().any(|o| o.overlaps(&probe, 0.0))
    }

    /// The first of `spots` (baseline point and anchor) where `content` at `size` would lie
    /// on nothing drawn so far, within `bounds` (x0, y0, x1, y1); the first spot if none is.
    pub fn free_spot<'s>(
        &self,
        spots: &[(f64, f64, &'s str)],
        size: f64,
        bold: bool,
        content: &str,
        bounds: (f64, f64, f64, f64),
    ) -> (f64, f64, &'s str) {
        let fits = |&&(x, y, a): &&(f64, f64, &str)| {
            let b = text_box(x, y, size, a, bold, content);
            b.0 >= bounds.0 && b.1 >= bounds.1 && b.2 <= bounds.2 && b.3 <= bounds.3 && self.is_free(b)
        };
        spots.iter().find(fits).or(spots.first()).copied().unwrap_or((0.0, 0.0, "start"))
    }

    /// Opens a group; `attrs` is trusted attribute text (use [`esc`] on view data).
    pub fn group(&mut self, attrs: &str) {
        if attrs.is_empty() {
            self.out.push_str("<g>");
        } else {
            let _ = write!(self.out, "<g {attrs}>");
        }
    }

    pub fn end_group(&mut self) {
        self.out.push_str("</g>\n");
    }

    /// A tooltip for the enclosing element or group.
    pub fn title(&mut self, text: &str) {
        let _ = write!(self.out, "<title>{}</title>", esc(text));
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, style: &str) {
        let _ = writeln!(self.out, "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {style}/>", num(x), num(y), num(w), num(h));
    }

    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, style: &str) {
        let _ = writeln!(self.out, "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {style}/>", num(cx), num(cy), num(r));
    }

    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), style: &str) {
        let _ = writeln!(self.out, "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" {style}/>", num(a.0), num(a.1), num(b.0), num(b.1));
    }

    pub fn polygon(&mut self, pts: &[(f64, f64)], style: &str) {
        let _ = writeln!(self.out, "<polygon points=\"{}\" {style}/>", points(pts));
    }

    pub fn polyline(&mut self, pts: &[(f64, f64)], style: &str) {
        let _ = writeln!(self.out, "<polyline points=\"{}\" fill=\"none\" {style}/>", points(pts));
    }

    /// Text at `(x, y)`; `anchor` is `start`, `middle` or `end`. Registered as a label.
    pub fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, style: &str, content: &str) {
        self.label(x, y, size, anchor, style, content, None);
    }

    /// Text inscribed on piece `piece` (from [`Svg::piece`]): it may lie on that piece only.
    #[allow(clippy::too_many_arguments)]
    pub fn piece_text(&mut self, piece: usize, x: f64, y: f64, size: f64, anchor: &str, style: &str, content: &str) {
        self.label(x, y, size, anchor, style, content, Some(piece));
    }

    /// Text with a white halo, readable over roads, rivers and terrain.
    pub fn halo_text(&mut self, x: f64, y: f64, size: f64, anchor: &str, style: &str, content: &str) {
        let style = format!("stroke=\"#FFFFFF\" stroke-width=\"3\" paint-order=\"stroke\" stroke-linejoin=\"round\" {style}");
        self.label(x, y, size, anchor, &style, content, None);
    }

    #[allow(clippy::too_many_arguments)]
    fn label(&mut self, x: f64, y: f64, size: f64, anchor: &str, style: &str, content: &str, on: Option<usize>) {
        if content.is_empty() {
            return;
        }
        let (x0, y0, x1, y1) = text_box(x, y, size, anchor, style.contains("bold"), content);
        self.boxes.push(LaidOut { kind: BoxKind::Label, x0, y0, x1, y1, size, text: content.to_string(), on });
        let _ = writeln!(
            self.out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{anchor}\" {style}>{}</text>",
            num(x),
            num(y),
            num(size),
            esc(content)
        );
    }
}

fn fmt_scale(k: f64) -> String {
    let r = (k * 1000.0).round() / 1000.0;
    format!("{r}")
}

fn points(pts: &[(f64, f64)]) -> String {
    pts.iter().map(|&(x, y)| format!("{},{}", num(x), num(y))).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(esc("<a href=\"x\">&'</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
        assert_eq!(esc("a\u{1}b"), "ab");
    }

    #[test]
    fn numbers_have_one_decimal_at_most() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(2.345), "2.3");
        assert_eq!(num(-0.04), "0");
        assert_eq!(num(-1.25), "-1.3");
    }
}

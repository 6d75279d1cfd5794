//! A small SVG writer: escaping, number formatting and the shapes the boards are made of.
//!
//! Every string that comes from a view goes through [`esc`]; style arguments are written by
//! the drawing code itself. Numbers are printed with at most one decimal, so the same view
//! always gives byte-identical SVG text.

use std::fmt::Write;

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

    /// Appends markup written elsewhere by this module's functions.
    pub fn append(&mut self, other: &Svg) {
        self.out.push_str(&other.out);
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

    /// Text at `(x, y)`; `anchor` is `start`, `middle` or `end`.
    pub fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, style: &str, content: &str) {
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

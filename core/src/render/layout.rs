//! The layout of a drawn picture: every label's and piece's box ([`LaidOut`]), and the check
//! that a player can read it when the picture is fitted to a 1280×800 window.
//!
//! The rules a picture keeps (tested for every registered game along random games, every
//! observer, in `core/tests/render.rs`):
//! - no label is smaller than [`MIN_READABLE_PX`] pixels once fitted to [`FIT`];
//! - no label lies on another label, or on a piece other than the one it is inscribed on;
//! - an inscription stays on its piece, and every label stays inside the picture.

use super::svg::{BoxKind, LaidOut};

/// The window a picture is fitted into (it keeps its aspect ratio).
pub const FIT: (f64, f64) = (1280.0, 800.0);

/// The smallest readable font size, in pixels at the [`FIT`] fit: 11 px, the size of small
/// print on a map in a browser game.
pub const MIN_READABLE_PX: f64 = 11.0;

/// Overlaps up to this many pixels (anti-aliasing, glyph side bearings) are tolerated.
const SLACK: f64 = 0.5;

/// A drawn picture with the boxes of its texts and pieces.
#[derive(Debug, Clone)]
pub struct Layout {
    pub svg: String,
    pub width: f64,
    pub height: f64,
    pub boxes: Vec<LaidOut>,
}

impl Layout {
    /// The scale of the picture fitted into [`FIT`].
    pub fn fit_scale(&self) -> f64 {
        (FIT.0 / self.width).min(FIT.1 / self.height)
    }

    /// Every broken layout rule, as a sentence naming the labels involved (empty when the
    /// picture is readable).
    pub fn problems(&self) -> Vec<String> {
        let k = self.fit_scale();
        let mut out = Vec::new();
        let labels: Vec<(usize, &LaidOut)> = self.boxes.iter().enumerate().filter(|(_, b)| b.kind == BoxKind::Label).collect();
        for &(i, l) in &labels {
            if l.size * k + 1e-9 < MIN_READABLE_PX {
                out.push(format!("{:?} is {:.1} px at the fit, under {MIN_READABLE_PX}", l.text, l.size * k));
            }
            if l.x0 < -1.0 || l.y0 < -1.0 || l.x1 > self.width + 1.0 || l.y1 > self.height + 1.0 {
                out.push(format!("{:?} runs out of the picture", l.text));
            }
            if let Some(p) = l.on.and_then(|p| self.boxes.get(p)) {
                let inside = l.x0 >= p.x0 - 1.5 && l.y0 >= p.y0 - 1.5 && l.x1 <= p.x1 + 1.5 && l.y1 <= p.y1 + 1.5;
                if !inside {
                    out.push(format!("{:?} overflows the piece it is written on", l.text));
                }
            }
            for &(j, m) in &labels {
                if j > i && l.overlaps(m, SLACK) {
                    out.push(format!("{:?} and {:?} overlap", l.text, m.text));
                }
            }
            for (j, p) in self.boxes.iter().enumerate() {
                if p.kind == BoxKind::Piece && l.on != Some(j) && l.overlaps(p, SLACK) {
                    out.push(format!("{:?} lies under a piece", l.text));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::svg::Svg;

    fn layout(s: Svg) -> Layout {
        Layout { svg: String::new(), width: 1280.0, height: 800.0, boxes: s.boxes().to_vec() }
    }

    #[test]
    fn a_name_under_a_piece_or_a_name_is_a_problem() {
        let mut s = Svg::new();
        s.text(100.0, 100.0, 12.0, "start", "", "Gifu");
        assert!(layout(s.clone()).problems().is_empty());
        s.piece(105.0, 90.0, 10.0, 10.0);
        assert_eq!(layout(s.clone()).problems(), vec!["\"Gifu\" lies under a piece".to_string()]);
        let mut t = Svg::new();
        t.text(100.0, 100.0, 12.0, "start", "", "Gifu");
        t.text(110.0, 104.0, 12.0, "start", "", "Kiyosu");
        assert_eq!(layout(t).problems().len(), 1);
    }

    #[test]
    fn inscriptions_stay_on_their_piece_and_small_print_is_a_problem() {
        let mut s = Svg::new();
        let p = s.piece(0.0, 0.0, 20.0, 20.0);
        s.piece_text(p, 10.0, 15.0, 12.0, "middle", "", "4");
        assert!(layout(s.clone()).problems().is_empty());
        s.piece_text(p, 40.0, 40.0, 12.0, "middle", "", "a long name");
        assert_eq!(layout(s).problems().len(), 1);
        let mut t = Svg::new();
        t.text(10.0, 20.0, 9.0, "start", "", "tiny");
        assert_eq!(layout(t).problems().len(), 1);
    }
}

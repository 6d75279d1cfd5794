//! SVG boards drawn from views only, never from a full state, so a picture cannot show what
//! its observer may not know.
//!
//! [`draw`] reads a view envelope ([`Frame`]), lets the game draw its board on a [`Canvas`]
//! (each game's `render.rs`, through [`crate::Game::draw`]) and frames it: a header with the
//! observer and the pending decision, a side panel with the legend and the game's notes, and a
//! footer with the last move, highlighted.

mod canvas;
mod frame;
pub mod hexes;
pub mod layout;
pub mod palette;
pub mod replay;
pub mod svg;

pub use canvas::{clip, wrap, Canvas, Swatch, BOARD_H, BOARD_W, FONT_FAMILY, PANEL};
pub use frame::{int, list, show, text, Frame, LastAction, ToAct};
pub use layout::{Layout, FIT, MIN_READABLE_PX};
pub use svg::{esc, num, paint, text_box, text_width, BoxKind, LaidOut, Svg};

use serde_json::Value;

use crate::error::{ErrorCode, RuleError};
use crate::game::Game;

/// Why a view could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("malformed view: {0}")]
    Malformed(String),
    #[error("view is of game {found:?}, not {expected:?}")]
    WrongGame { found: String, expected: String },
    #[error("game {0:?} has no drawing")]
    Unsupported(String),
    #[error(transparent)]
    Rule(#[from] RuleError),
}

impl RenderError {
    pub fn code(&self) -> ErrorCode {
        match self {
            RenderError::Malformed(_) | RenderError::Unsupported(_) => ErrorCode::InvalidArgument,
            RenderError::WrongGame { .. } => ErrorCode::WrongGame,
            RenderError::Rule(e) => e.code(),
        }
    }
}

/// Draws the view envelope `view` of game `rules` (titled `name`) as a standalone SVG document.
pub fn draw<G: Game>(rules: &G, name: &str, view: &Value) -> Result<String, RenderError> {
    draw_layout(rules, name, view).map(|l| l.svg)
}

/// [`draw`], with the boxes of every text and piece of the picture ([`Layout`]).
pub fn draw_layout<G: Game>(rules: &G, name: &str, view: &Value) -> Result<Layout, RenderError> {
    let frame = Frame::parse(view)?;
    if frame.game != G::ID {
        return Err(RenderError::WrongGame { found: frame.game.clone(), expected: G::ID.to_string() });
    }
    let mut canvas = Canvas::new();
    rules.draw(&frame, &mut canvas)?;
    Ok(canvas.lay_out(&frame, name))
}

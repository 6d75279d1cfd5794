//! SVG boards and replays for the Python module (`State.render_svg`, `State.replay_html`,
//! `Game.render_view_svg`).

use kassen_core::engine::{GameHandle, StateHandle};
use kassen_core::render::RenderError;
use kassen_core::{ErrorCode, Player};
use serde_json::Value;

use crate::errors::{guard, Error, Result};

impl From<RenderError> for Error {
    fn from(e: RenderError) -> Error {
        Error::new(e.code(), e.to_string())
    }
}

/// The board as `player` sees it.
pub fn state_svg(s: &StateHandle, player: Player) -> Result<String> {
    guard(|| Ok(s.render_svg(player)?))
}

/// Draws a view envelope given as JSON text.
pub fn view_svg(game: &GameHandle, view_json: &str) -> Result<String> {
    let view: Value =
        serde_json::from_str(view_json).map_err(|e| Error::new(ErrorCode::MalformedJson, format!("malformed view json: {e}")))?;
    guard(|| Ok(game.render_svg(&view)?))
}

/// The HTML replay of the state's game as `player` saw it.
pub fn replay(s: &StateHandle, player: Player) -> Result<String> {
    guard(|| Ok(kassen_core::render::replay::replay_html(s, player)?))
}

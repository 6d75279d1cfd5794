//! SVG boards and replays for the Python module (`State.render_svg`, `State.replay_html`,
//! `Game.render_view_svg`).

use kassen_core::engine::{GameHandle, StateHandle};
use kassen_core::render::RenderError;
use kassen_core::{ErrorCode, Player};

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
    // Bounded like any document (16 MiB, a million values): DocumentTooLargeError past that.
    let view = kassen_core::input::parse(view_json, &kassen_core::input::Limits::ANY).map_err(|e| match e {
        kassen_core::LoadError::MalformedJson(m) => Error::new(ErrorCode::MalformedJson, format!("malformed view json: {m}")),
        other => Error::from(other),
    })?;
    guard(|| Ok(game.render_svg(&view)?))
}

/// The HTML replay of the state's game as `player` saw it.
pub fn replay(s: &StateHandle, player: Player) -> Result<String> {
    guard(|| Ok(kassen_core::render::replay::replay_html(s, player)?))
}

//! The text face of every game, for language-model agents (docs/text.md): a seat's text
//! observation ([`crate::DynState::text_observation`]), moves read from free text
//! ([`crate::DynState::parse_move`]) and a rules primer per game for a system prompt
//! ([`crate::DynGame::rules_primer`]). Generic over the registry: a game's own words come
//! through [`crate::Game::board_text`], [`crate::Game::event_text`] and
//! [`crate::Game::rules_primer`].

use serde_json::Value;

use crate::events::Body;

pub mod board;
pub mod observation;
pub mod parse;
pub mod primer;

/// The sentence of an event whose game has no text for it: its kind and fields.
pub fn generic_sentence(body: &Body) -> String {
    let mut v = serde_json::to_value(body).unwrap_or(Value::Null);
    let kind = v.get("kind").and_then(Value::as_str).map(crate::events::sentence::title).unwrap_or_else(|| "Event".into());
    if let Value::Object(o) = &mut v {
        o.remove("kind");
    }
    let rest = board::inline(&v);
    if rest.is_empty() {
        kind
    } else {
        format!("{kind}: {rest}")
    }
}

#[cfg(test)]
mod tests;

//! The headers of the two documents the engine reads: position documents (docs/positions.md)
//! and saved states.

use serde_json::{json, Value};

use crate::error::LoadError;
use crate::game::ActionId;

use super::{POSITION_FORMAT, STATE_FORMAT};

// === Position documents ===

/// The fields of a position document (docs/positions.md); any other is an error.
const POSITION_FIELDS: [&str; 8] = ["format", "game", "rules_version", "config", "seed", "position", "name", "description"];

pub(super) struct PositionHeader {
    pub(super) game: String,
    pub(super) rules_version: String,
    pub(super) config: Value,
    pub(super) seed: u64,
    pub(super) position: Value,
}

impl PositionHeader {
    pub(super) fn parse(v: &Value) -> Result<PositionHeader, LoadError> {
        let bad = |m: String| LoadError::InvalidPosition(m);
        let obj = v.as_object().ok_or_else(|| bad("a position document must be a json object".into()))?;
        let format = obj.get("format").and_then(Value::as_str).unwrap_or("");
        if format != POSITION_FORMAT {
            return Err(LoadError::UnsupportedFormat { found: format.to_string(), expected: POSITION_FORMAT.to_string() });
        }
        if let Some(k) = obj.keys().find(|k| !POSITION_FIELDS.contains(&k.as_str())) {
            return Err(bad(format!("unknown field {k:?} in a position document")));
        }
        let text =
            |k: &str| obj.get(k).and_then(Value::as_str).map(str::to_string).ok_or_else(|| bad(format!("missing string field {k:?}")));
        for k in ["name", "description"] {
            if obj.get(k).is_some_and(|x| !x.is_string()) {
                return Err(bad(format!("{k:?} must be a string")));
            }
        }
        let seed = match obj.get("seed") {
            None => 0,
            Some(s) => s.as_u64().ok_or_else(|| bad(format!("\"seed\" must be an integer from 0 to 2^64-1, got {s}")))?,
        };
        Ok(PositionHeader {
            game: text("game")?,
            rules_version: text("rules_version")?,
            config: match obj.get("config") {
                None => json!({}),
                Some(c @ Value::Object(_)) => c.clone(),
                Some(other) => return Err(bad(format!("\"config\" must be a json object, got {other}"))),
            },
            seed,
            position: obj.get("position").cloned().ok_or_else(|| bad("missing object field \"position\"".into()))?,
        })
    }
}

// === Saved states ===

pub(super) struct SavedHeader {
    pub(super) game: String,
    pub(super) rules_version: String,
    pub(super) config: Value,
    pub(super) seed: u64,
    pub(super) recorded: usize,
    pub(super) history: Vec<ActionId>,
    /// The constructed position the game started at, if it did.
    pub(super) position: Option<Value>,
}

/// The fields of a saved state; any other is an error.
const SAVED_FIELDS: [&str; 9] = ["format", "game", "rules_version", "config", "seed", "recorded", "history", "state", "position"];

impl SavedHeader {
    pub(super) fn parse(v: &Value) -> Result<SavedHeader, LoadError> {
        let obj = v.as_object().ok_or_else(|| LoadError::InvalidState("a saved state must be a json object".into()))?;
        let format = obj.get("format").and_then(Value::as_str).unwrap_or("");
        if format != STATE_FORMAT {
            return Err(LoadError::UnsupportedFormat { found: format.to_string(), expected: STATE_FORMAT.to_string() });
        }
        if let Some(k) = obj.keys().find(|k| !SAVED_FIELDS.contains(&k.as_str())) {
            return Err(LoadError::InvalidState(format!("unknown field {k:?} in a saved state")));
        }
        let text = |k: &str| {
            obj.get(k)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| LoadError::InvalidState(format!("missing string field {k:?}")))
        };
        let seed =
            obj.get("seed").and_then(Value::as_u64).ok_or_else(|| LoadError::InvalidState("missing integer field \"seed\"".into()))?;
        let history = obj
            .get("history")
            .and_then(Value::as_array)
            .ok_or_else(|| LoadError::InvalidState("missing array field \"history\"".into()))?
            .iter()
            .map(|a| a.as_u64().filter(|&x| x <= u32::MAX as u64).map(|x| x as ActionId))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| LoadError::InvalidState("history must hold action ids".into()))?;
        let recorded = match obj.get("recorded") {
            None => 0,
            Some(r) => r
                .as_u64()
                .filter(|&r| r as usize <= history.len())
                .ok_or_else(|| LoadError::InvalidState("\"recorded\" must count entries of the history".into()))?
                as usize,
        };
        Ok(SavedHeader {
            game: text("game")?,
            recorded,
            rules_version: text("rules_version")?,
            config: match obj.get("config") {
                None => json!({}),
                Some(c @ Value::Object(_)) => c.clone(),
                // Null is not "the default config": a save writes its config as an object.
                Some(other) => return Err(LoadError::InvalidState(format!("\"config\" must be a json object, got {other}"))),
            },
            seed,
            history,
            position: obj.get("position").cloned(),
        })
    }
}

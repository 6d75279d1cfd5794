//! The headers of the two documents the engine reads: position documents (docs/positions.md)
//! and saved states.

use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::LoadError;
use crate::game::{ActionId, GameInfo};
use crate::input::{self, Limits};

use super::{load_game, GameHandle, NAMED_POSITION_FORMAT, POSITION_FORMAT, STATE_FORMAT};

// === Reading a document of any game ===

/// The two fields that name a document's game, read without building the rest.
#[derive(Deserialize)]
struct Head {
    game: Option<String>,
    config: Option<Value>,
}

/// JSON text of a document of any registered game, parsed within the limits `limits_of` gives
/// the game it names, with that game when it sets up. The text is first checked against
/// [`Limits::ANY`], so reading its `game` and `config` is bounded; a document whose game does
/// not set up (unknown, a bad config, not an object) is parsed within [`Limits::ANY`] and its
/// header reports what is wrong.
pub(super) fn read_document(text: &str, limits_of: fn(&GameInfo) -> Limits) -> Result<(Value, Option<GameHandle>), LoadError> {
    input::scan(text, &Limits::ANY)?;
    let game = serde_json::from_str::<Head>(text).ok().and_then(|h| load_game(&h.game?, Some(&h.config.unwrap_or_else(|| json!({})))).ok());
    let limits = game.as_ref().map_or(Limits::ANY, |g| limits_of(g.info()));
    Ok((input::parse(text, &limits)?, game))
}

// === Position documents ===

/// The fields of a position document (docs/positions.md); any other is an error.
const POSITION_FIELDS: [&str; 8] = ["format", "game", "rules_version", "config", "seed", "position", "name", "description"];

pub(super) struct PositionHeader {
    pub(super) game: String,
    pub(super) rules_version: String,
    pub(super) config: Value,
    pub(super) seed: u64,
    pub(super) position: Value,
    /// Whether `position` is written by name ([`NAMED_POSITION_FORMAT`]).
    pub(super) named: bool,
}

impl PositionHeader {
    pub(super) fn parse(v: &Value) -> Result<PositionHeader, LoadError> {
        let bad = |m: String| LoadError::InvalidPosition(m);
        let obj = v.as_object().ok_or_else(|| bad("a position document must be a json object".into()))?;
        let format = obj.get("format").and_then(Value::as_str).unwrap_or("");
        if format != POSITION_FORMAT && format != NAMED_POSITION_FORMAT {
            return Err(LoadError::UnsupportedFormat {
                found: input::cut(format, input::QUOTE_BYTES).into_owned(),
                expected: format!("{POSITION_FORMAT} or {NAMED_POSITION_FORMAT}"),
            });
        }
        if let Some(k) = obj.keys().find(|k| !POSITION_FIELDS.contains(&k.as_str())) {
            return Err(bad(format!("unknown field {} in a position document", input::quote(k))));
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
            Some(s) => s.as_u64().ok_or_else(|| bad(format!("\"seed\" must be an integer from 0 to 2^64-1, got {}", input::json(s))))?,
        };
        Ok(PositionHeader {
            game: text("game")?,
            rules_version: text("rules_version")?,
            config: match obj.get("config") {
                None => json!({}),
                Some(c @ Value::Object(_)) => c.clone(),
                Some(other) => return Err(bad(format!("\"config\" must be a json object, got {}", input::json(other)))),
            },
            seed,
            position: obj.get("position").cloned().ok_or_else(|| bad("missing object field \"position\"".into()))?,
            named: format == NAMED_POSITION_FORMAT,
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
            return Err(LoadError::UnsupportedFormat {
                found: input::cut(format, input::QUOTE_BYTES).into_owned(),
                expected: STATE_FORMAT.to_string(),
            });
        }
        if let Some(k) = obj.keys().find(|k| !SAVED_FIELDS.contains(&k.as_str())) {
            return Err(LoadError::InvalidState(format!("unknown field {} in a saved state", input::quote(k))));
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
                Some(other) => {
                    return Err(LoadError::InvalidState(format!("\"config\" must be a json object, got {}", input::json(other))))
                }
            },
            seed,
            history,
            position: obj.get("position").cloned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::{covered_configs, games, load_game, StateHandle, POSITION_FORMAT, STATE_FORMAT};
    use crate::rng::Rng;
    use crate::ErrorCode;

    fn code<T>(r: Result<T, crate::LoadError>) -> Option<ErrorCode> {
        r.err().map(|e| e.code())
    }

    /// Issue 37.3: 8 M zeros in one array, a 15 MB document under the 16 MiB cap, are refused
    /// before they are parsed, by the registry-wide and the game's own loaders.
    #[test]
    fn eight_million_zeros_are_too_large_for_every_game() {
        let zeros = format!("[{}0]", "0,".repeat(8_000_000));
        for (id, _) in games() {
            let game = load_game(id, None).unwrap();
            let rules = &game.info().rules_version;
            let position = format!(
                r#"{{"format":"{POSITION_FORMAT}","game":"{id}","rules_version":"{rules}","config":{{}},"seed":0,"position":{zeros}}}"#
            );
            assert!(position.len() > 15_000_000 && position.len() < 16 << 20);
            assert_eq!(code(StateHandle::from_position_json(&position)), Some(ErrorCode::DocumentTooLarge), "{id}");
            assert_eq!(code(game.load_position_json(&position)), Some(ErrorCode::DocumentTooLarge), "{id}");
            let saved = format!(
                r#"{{"format":"{STATE_FORMAT}","game":"{id}","rules_version":"{rules}","config":{{}},"seed":0,"history":{zeros}}}"#
            );
            assert_eq!(code(StateHandle::from_json(&saved)), Some(ErrorCode::DocumentTooLarge), "{id}");
            assert_eq!(code(game.state_from_json(&saved)), Some(ErrorCode::DocumentTooLarge), "{id}");
        }
        // Past 16 MiB, whatever the document.
        let huge = format!(r#"{{"pad":"{}"}}"#, "x".repeat(16 << 20));
        assert_eq!(code(StateHandle::from_json(&huge)), Some(ErrorCode::DocumentTooLarge));
        assert_eq!(code(StateHandle::from_position_json(&huge)), Some(ErrorCode::DocumentTooLarge));
    }

    /// A document given as a value is held to the same limits as one given as text.
    #[test]
    fn values_are_held_to_the_game_limits() {
        let game = load_game("samurai", None).unwrap();
        let rules = game.info().rules_version.clone();
        let zeros = vec![0; 100_000];
        let position = json!({"format": POSITION_FORMAT, "game": "samurai", "rules_version": rules, "position": zeros});
        assert_eq!(code(StateHandle::from_position_value(&position)), Some(ErrorCode::DocumentTooLarge));
        assert_eq!(code(game.load_position(&position)), Some(ErrorCode::DocumentTooLarge));
        let saved = json!({"format": STATE_FORMAT, "game": "samurai", "rules_version": rules, "seed": 0, "history": zeros});
        assert_eq!(code(StateHandle::from_value(&saved)), Some(ErrorCode::DocumentTooLarge));
        let big_config = json!({"data": vec![0; 70_000]});
        assert_eq!(load_game("samurai", Some(&big_config)).err().map(|e| e.code()), Some(ErrorCode::InvalidConfig));
    }

    /// The longest of a few finished random games of every game and config still loads, as
    /// a save and its final position, through every loader.
    #[test]
    fn long_finished_games_still_load() {
        for (id, _) in games() {
            for config in covered_configs(id) {
                let game = load_game(id, Some(&config)).unwrap();
                let mut longest: Option<StateHandle> = None;
                for seed in 0..4 {
                    let mut state = game.new_initial_state(seed);
                    let mut rng = Rng::from_seed(seed ^ 0x5eed);
                    while !state.is_terminal() {
                        let legal = state.legal_actions();
                        state.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
                    }
                    if longest.as_ref().is_none_or(|l| l.history().len() < state.history().len()) {
                        longest = Some(state);
                    }
                }
                let state = longest.unwrap();
                let text = state.to_json_string();
                assert_eq!(StateHandle::from_json(&text).unwrap(), state, "{id} {config}");
                assert_eq!(game.state_from_json(&text).unwrap(), state, "{id} {config}");
                let position = state.position_json();
                assert!(StateHandle::from_position_json(&position).is_ok(), "{id} {config}");
                assert!(game.load_position_json(&position).is_ok(), "{id} {config}");
            }
        }
    }
}

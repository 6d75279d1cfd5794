//! The object-safe layer over [`Game`] and the one registry table of games.
//!
//! [`GameHandle`] and [`StateHandle`] are what the C ABI and the Python module hold. The
//! engine adds what every game shares:
//! - the engine config key `explicit_chance` (default false: the state's RNG resolves chance
//!   nodes, so `current_player` never returns [`CHANCE`](crate::game::CHANCE));
//! - the action log (`history`), from which events are rebuilt by replay;
//! - range, turn and legality checks before any state is touched;
//! - the saved-state format (`to_json` / `from_json`), validated by replaying the log;
//! - constructed positions (`load_position` / `to_position`, docs/positions.md): a game that
//!   starts at a given typed state instead of `new_initial_state(seed)`.

mod bound;
mod documents;
mod erased;
mod event_log;
mod handles;
mod instance;
mod stable_hash;

pub use bound::Bound;
pub use handles::{DynGame, DynState, GameHandle, StateHandle};
pub use instance::Instance;
pub use stable_hash::StableHasher;

pub(crate) use instance::check_position;

use serde_json::{Map, Value};

use crate::error::{LoadError, SetupError};
use crate::game::Game;
use crate::games::samurai::Samurai;
use crate::games::sekigahara::Sekigahara;
use crate::games::sekigahara_daisakusen::Daisakusen;
use crate::games::three_kingdoms_redux::Tkr;
use crate::input::{self, Limits};

/// The saved-state format written by [`DynState::to_json`].
pub const STATE_FORMAT: &str = "kassen.state/1";

/// The position document format read by [`DynGame::load_position`] and written by
/// [`DynState::to_position`] (docs/positions.md).
pub const POSITION_FORMAT: &str = "kassen-position-1";

/// The position document format whose `"position"` is written by name (places, pieces, cards
/// and seats as the rulebook names them; [`crate::named`]), read by the same loaders and
/// written by [`DynState::to_named_position`] (docs/positions.md).
pub const NAMED_POSITION_FORMAT: &str = "kassen-position-named-1";

// === The registry: one row per game ===

/// Builds a configured game from the game-specific config keys and `explicit_chance`.
type Constructor = fn(&Map<String, Value>, bool) -> Result<GameHandle, SetupError>;

struct Entry {
    id: &'static str,
    name: &'static str,
    create: Constructor,
    configs: fn() -> Vec<Value>,
    /// The typed checks on constructed positions (`crate::testing::positions`).
    #[cfg(test)]
    positions: crate::testing::positions::Suite,
}

/// The normalized config is what the caller gave, with every default the game filled in
/// (`info().config`) and `explicit_chance`, so that equal games have equal configs whatever
/// was left out (and their saves load into each other).
fn create<G: Game>(cfg: &Map<String, Value>, explicit: bool) -> Result<GameHandle, SetupError> {
    let rules = G::setup(cfg)?;
    let mut normalized = cfg.clone();
    if let Value::Object(defaults) = rules.info().config {
        normalized.extend(defaults);
    }
    normalized.insert("explicit_chance".into(), Value::Bool(explicit));
    Ok(Instance::new_shared(rules, explicit, Value::Object(normalized)))
}

static REGISTRY: &[Entry] = &[
    Entry {
        id: Samurai::ID,
        name: "Samurai",
        create: create::<Samurai>,
        configs: Samurai::covered_configs,
        #[cfg(test)]
        positions: crate::testing::positions::Suite::of::<Samurai>(),
    },
    Entry {
        id: Sekigahara::ID,
        name: "Sekigahara: The Unification of Japan",
        create: create::<Sekigahara>,
        configs: Sekigahara::covered_configs,
        #[cfg(test)]
        positions: crate::testing::positions::Suite::of::<Sekigahara>(),
    },
    Entry {
        id: Tkr::ID,
        name: "Three Kingdoms Redux",
        create: create::<Tkr>,
        configs: Tkr::covered_configs,
        #[cfg(test)]
        positions: crate::testing::positions::Suite::of::<Tkr>(),
    },
    Entry {
        id: Daisakusen::ID,
        name: "関ヶ原大作戦 (Sekigahara Daisakusen)",
        create: create::<Daisakusen>,
        configs: Daisakusen::covered_configs,
        #[cfg(test)]
        positions: crate::testing::positions::Suite::of::<Daisakusen>(),
    },
];

/// The typed checks on constructed positions of every registered game.
#[cfg(test)]
pub(crate) fn position_suites() -> impl Iterator<Item = (&'static str, &'static crate::testing::positions::Suite)> {
    REGISTRY.iter().map(|e| (e.id, &e.positions))
}

/// `(id, name)` of every registered game.
pub fn games() -> Vec<(&'static str, &'static str)> {
    REGISTRY.iter().map(|e| (e.id, e.name)).collect()
}

/// The configurations of game `id` that tests, the soak run and benchmarks cover
/// ([`Game::covered_configs`]), the last one also with `"explicit_chance": true`. Empty for
/// an unknown id.
pub fn covered_configs(id: &str) -> Vec<Value> {
    let Some(entry) = REGISTRY.iter().find(|e| e.id == id) else { return Vec::new() };
    let mut configs = (entry.configs)();
    if let Some(Value::Object(last)) = configs.last() {
        let mut explicit = last.clone();
        explicit.insert("explicit_chance".into(), Value::Bool(true));
        configs.push(Value::Object(explicit));
    }
    configs
}

/// Creates a game from its id and a JSON config object (`None`, `null` or `{}` for defaults).
pub fn load_game(id: &str, config: Option<&Value>) -> Result<GameHandle, SetupError> {
    let entry =
        REGISTRY.iter().find(|e| e.id == id).ok_or_else(|| SetupError::UnknownGame(input::cut(id, input::QUOTE_BYTES).into_owned()))?;
    let mut map = match config {
        None | Some(Value::Null) => Map::new(),
        Some(v @ Value::Object(m)) => {
            Limits::COMPONENTS.check_value(v).map_err(|e| SetupError::InvalidConfig(format!("config too large: {e}")))?;
            m.clone()
        }
        Some(other) => return Err(SetupError::InvalidConfig(format!("config must be a json object, got {}", kind_of(other)))),
    };
    let explicit = match map.remove("explicit_chance") {
        None => false,
        Some(Value::Bool(b)) => b,
        Some(v) => return Err(SetupError::InvalidConfig(format!("explicit_chance must be a boolean, got {}", kind_of(&v)))),
    };
    (entry.create)(&map, explicit)
}

/// Creates a game from its id and a config given as JSON text (`None` or empty for defaults).
pub fn load_game_str(id: &str, config_json: Option<&str>) -> Result<GameHandle, SetupError> {
    match config_json.map(str::trim).filter(|s| !s.is_empty()) {
        None => load_game(id, None),
        Some(text) => {
            let v = input::parse(text, &Limits::COMPONENTS).map_err(|e| match e {
                LoadError::MalformedJson(m) => SetupError::InvalidConfig(format!("malformed config json: {m}")),
                other => SetupError::InvalidConfig(format!("config too large: {other}")),
            })?;
            load_game(id, Some(&v))
        }
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

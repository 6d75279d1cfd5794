//! A configured game ([`Instance`]): the rules object plus the engine config, and the checks
//! on what a save or a position document brings in.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Weak};

use serde_json::Value;

use crate::error::LoadError;
use crate::events::Events;
use crate::game::{ActionId, Game, GameInfo, CHANCE};

use super::{kind_of, load_game, Bound, StableHasher, StateHandle};

/// A configured game: the rules object plus the engine config.
pub struct Instance<G: Game> {
    pub(super) rules: G,
    pub(super) explicit_chance: bool,
    pub(super) info: GameInfo,
    /// Stable hash of the normalized config, computed once (a `"data"` file can be large).
    pub(super) config_hash: u64,
    pub(super) me: Weak<Instance<G>>,
}

impl<G: Game> fmt::Debug for Instance<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Game({}, {} players)", self.info.id, self.info.num_players)
    }
}

/// The checks on a constructed position: the game's own ([`Game::validate_position`]), then,
/// for every game, that play can go on: a position that is not over has a legal action (or a
/// chance outcome), asked last, when every value the rules read is known to be in bounds.
pub(crate) fn check_position<G: Game>(rules: &G, s: &G::State) -> Result<(), String> {
    rules.validate_position(s)?;
    if !rules.is_terminal(s) {
        let mut legal = Vec::new();
        rules.legal_actions(s, &mut legal);
        if legal.is_empty() {
            return Err("pending: the decision has no legal action, so play cannot go on".into());
        }
    }
    Ok(())
}

impl<G: Game> Instance<G> {
    /// A shared configured game. `config` is the normalized config shown in `info`.
    pub fn new_shared(rules: G, explicit_chance: bool, config: Value) -> Arc<Self> {
        let mut info = rules.info();
        let mut h = StableHasher::default();
        config.to_string().hash(&mut h);
        info.config = config;
        Arc::new_cyclic(|me| Instance { rules, explicit_chance, info, config_hash: h.finish(), me: me.clone() })
    }

    pub(super) fn arc(&self) -> Arc<Self> {
        self.me.upgrade().expect("an Instance only exists inside its Arc")
    }

    /// A typed state at the start of a game, chance resolved as configured.
    pub fn initial_bound(&self, seed: u64) -> Bound<G> {
        Bound::start(self.arc(), seed, None, 0, &mut Events::off())
    }

    pub fn rules(&self) -> &G {
        &self.rules
    }

    /// The state `history` (every action and chance outcome) leads to from
    /// `new_initial_state(seed)`, each action checked: how a batch hands one of its typed
    /// states, which keep no log, to a bot.
    pub(crate) fn state_after(&self, seed: u64, history: &[ActionId]) -> Result<StateHandle, String> {
        Ok(StateHandle(Box::new(Bound::replay(self.arc(), seed, None, 0, history, &mut Events::off())?)))
    }

    /// A save or position document names this game, its rules version and its config (which
    /// it may spell differently, defaults left out: compared normalized).
    pub(super) fn check_header(
        &self,
        game: &str,
        rules_version: &str,
        config: &Value,
        another_config: impl FnOnce() -> LoadError,
    ) -> Result<(), LoadError> {
        if game != G::ID {
            return Err(LoadError::WrongGame {
                found: crate::input::cut(game, crate::input::QUOTE_BYTES).into_owned(),
                expected: G::ID.to_string(),
            });
        }
        if rules_version != self.info.rules_version {
            return Err(LoadError::RulesVersion {
                found: crate::input::cut(rules_version, crate::input::QUOTE_BYTES).into_owned(),
                expected: self.info.rules_version.clone(),
            });
        }
        if *config != self.info.config {
            let theirs = load_game(G::ID, Some(config)).map_err(LoadError::Setup)?;
            if theirs.info().config != self.info.config {
                return Err(another_config());
            }
        }
        Ok(())
    }

    /// The typed state of a document's `"position"` (a save's or a position document's): its
    /// generator filled from `seed` when left out, read strictly against the game's schema and
    /// checked by [`check_position`], and its chance nodes end ([`Instance::check_chance_ends`]).
    pub(super) fn position_state(&self, position: &Value, seed: u64) -> Result<G::State, LoadError> {
        let mut v = position.clone();
        self.fill_position(&mut v, seed)?;
        let state: G::State = serde_json::from_value(v)
            .map_err(|e| LoadError::InvalidPosition(format!("position does not match the {} state schema: {e}", G::ID)))?;
        check_position(&self.rules, &state).map_err(LoadError::InvalidPosition)?;
        self.check_chance_ends(&state)?;
        Ok(state)
    }

    /// [`Instance::position_state`] of a position written by name (docs/positions.md): its
    /// typed form first ([`crate::named::from_named`] with the game's
    /// [`Game::position_names`]), whose errors name the unknown name and the nearest valid ones.
    pub(super) fn named_position_state(&self, position: &Value, seed: u64) -> Result<G::State, LoadError> {
        let conv =
            self.rules.position_names().ok_or_else(|| LoadError::InvalidPosition(format!("{} has no positions written by name", G::ID)))?;
        if !position.is_object() {
            return Err(LoadError::InvalidPosition(format!(
                "\"position\" must be a json object (the position by name), got {}",
                kind_of(position)
            )));
        }
        let typed = crate::named::from_named(&conv, position, "position").map_err(LoadError::InvalidPosition)?;
        self.position_state(&typed, seed)
    }

    /// Leaves the typed position `v` as it is, with its generator seeded from `seed` when it
    /// has none.
    fn fill_position(&self, v: &mut Value, seed: u64) -> Result<(), LoadError> {
        if !v.is_object() {
            return Err(LoadError::InvalidPosition(format!("\"position\" must be a json object (the typed state), got {}", kind_of(v))));
        }
        let Value::Object(fields) = v else { unreachable!("checked above") };
        if !fields.contains_key("rng") {
            fields.insert("rng".into(), serde_json::to_value(crate::rng::Rng::from_seed(seed)).expect("generators serialize"));
        }
        Ok(())
    }

    /// A position's chance nodes, which the engine resolves at once unless chance is explicit
    /// (as at the start of a game), must end: a broken position must not keep the loader
    /// drawing forever.
    pub(super) fn check_chance_ends(&self, position: &G::State) -> Result<(), LoadError> {
        if self.explicit_chance || self.rules.current_player(position) != CHANCE {
            return Ok(());
        }
        let mut probe = position.clone();
        for _ in 0..self.info.max_game_length {
            let a = self.rules.sample_chance(&mut probe);
            self.rules.apply(&mut probe, a, &mut Events::off());
            if self.rules.current_player(&probe) != CHANCE {
                return Ok(());
            }
        }
        Err(LoadError::InvalidPosition(format!(
            "the position's chance nodes do not end within max_game_length ({}) draws",
            self.info.max_game_length
        )))
    }

    pub(super) fn same_config(&self, other: &Instance<G>) -> bool {
        std::ptr::eq(self, other) || (self.config_hash == other.config_hash && self.info.config == other.info.config)
    }
}

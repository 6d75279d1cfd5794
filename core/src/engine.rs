//! The object-safe layer over [`Game`] and the one registry table of games.
//!
//! [`GameHandle`] and [`StateHandle`] are what the C ABI and the Python module hold. The
//! engine adds what every game shares:
//! - the engine config key `explicit_chance` (default false: the state's RNG resolves chance
//!   nodes, so `current_player` never returns [`CHANCE`]);
//! - the action log (`history`), from which events are rebuilt by replay;
//! - range, turn and legality checks before any state is touched;
//! - the saved-state format (`to_json` / `from_json`), validated by replaying the log.

use std::any::Any;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Weak};

use serde_json::{json, Map, Value};

use crate::error::{LoadError, RuleError, SetupError};
use crate::events::{Event, Events};
use crate::game::{ActionId, Game, GameInfo, Player, CHANCE, SPECTATOR, TERMINAL};
use crate::games::samurai::Samurai;
use crate::games::sekigahara::Sekigahara;

/// The saved-state format written by [`DynState::to_json`].
pub const STATE_FORMAT: &str = "kassen.state/1";

// === The registry: one row per game ===

/// Builds a configured game from the game-specific config, `explicit_chance`, and the normalized config.
type Constructor = fn(&Map<String, Value>, bool, Value) -> Result<GameHandle, SetupError>;

struct Entry {
    id: &'static str,
    name: &'static str,
    create: Constructor,
}

fn create<G: Game>(cfg: &Map<String, Value>, explicit: bool, normalized: Value) -> Result<GameHandle, SetupError> {
    let rules = G::setup(cfg)?;
    Ok(Instance::new_shared(rules, explicit, normalized))
}

static REGISTRY: &[Entry] = &[
    Entry { id: Samurai::ID, name: "Samurai", create: create::<Samurai> },
    Entry { id: Sekigahara::ID, name: "Sekigahara: The Unification of Japan", create: create::<Sekigahara> },
];

/// `(id, name)` of every registered game.
pub fn games() -> Vec<(&'static str, &'static str)> {
    REGISTRY.iter().map(|e| (e.id, e.name)).collect()
}

/// Creates a game from its id and a JSON config object (`None`, `null` or `{}` for defaults).
pub fn load_game(id: &str, config: Option<&Value>) -> Result<GameHandle, SetupError> {
    let entry = REGISTRY.iter().find(|e| e.id == id).ok_or_else(|| SetupError::UnknownGame(id.to_string()))?;
    let mut map = match config {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(other) => return Err(SetupError::InvalidConfig(format!("config must be a json object, got {}", kind_of(other)))),
    };
    let explicit = match map.remove("explicit_chance") {
        None => false,
        Some(Value::Bool(b)) => b,
        Some(v) => return Err(SetupError::InvalidConfig(format!("explicit_chance must be a boolean, got {}", kind_of(&v)))),
    };
    let normalized = config.cloned().filter(|v| !v.is_null()).unwrap_or_else(|| json!({}));
    (entry.create)(&map, explicit, normalized)
}

/// Creates a game from its id and a config given as JSON text (`None` or empty for defaults).
pub fn load_game_str(id: &str, config_json: Option<&str>) -> Result<GameHandle, SetupError> {
    match config_json.map(str::trim).filter(|s| !s.is_empty()) {
        None => load_game(id, None),
        Some(text) => {
            let v: Value = serde_json::from_str(text).map_err(|e| SetupError::InvalidConfig(format!("malformed config json: {e}")))?;
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

// === The erased interface ===

/// A game under one configuration, behind a shared handle.
pub type GameHandle = Arc<dyn DynGame>;

/// Object-safe view of a configured game.
pub trait DynGame: Send + Sync + fmt::Debug {
    fn id(&self) -> &'static str;
    fn info(&self) -> &GameInfo;
    /// `info()` as JSON, including the engine config.
    fn info_json(&self) -> Value {
        serde_json::to_value(self.info()).expect("game info serializes")
    }
    fn num_players(&self) -> usize;
    fn explicit_chance(&self) -> bool;
    fn new_initial_state(&self, seed: u64) -> StateHandle;
    /// Loads a state saved by [`DynState::to_json`] for this very game and config.
    fn state_from_value(&self, v: &Value) -> Result<StateHandle, LoadError>;
    /// Runs the shared conformance suite (crate::testing) on this game from the given seeds.
    fn conformance(&self, seeds: &[u64]) -> Result<crate::testing::Report, String>;
}

/// Object-safe view of a state. Obtained from [`DynGame::new_initial_state`] or
/// [`StateHandle::from_json`].
pub trait DynState: Send + Sync {
    fn game(&self) -> GameHandle;
    fn current_player(&self) -> Player;
    fn is_terminal(&self) -> bool {
        self.current_player() == TERMINAL
    }
    fn is_chance_node(&self) -> bool {
        self.current_player() == CHANCE
    }
    /// Appends legal action ids (chance outcome ids at a chance node), ascending.
    fn legal_actions_into(&self, out: &mut Vec<ActionId>);
    fn is_legal(&self, a: ActionId) -> bool;
    fn chance_outcomes(&self) -> Vec<(ActionId, f64)>;
    /// Applies `a` in place; on error the state is unchanged.
    fn apply_in_place(&mut self, a: ActionId) -> Result<(), RuleError>;
    fn returns(&self) -> Vec<f64>;
    fn action_to_string(&self, a: ActionId) -> Result<String, RuleError>;
    fn action_to_json(&self, a: ActionId) -> Result<Value, RuleError>;
    fn view(&self, player: Player) -> Result<Value, RuleError>;
    /// Writes the observation into `out` (`info().observation_len()` elements).
    fn observation_tensor_into(&self, player: Player, out: &mut [f32]) -> Result<(), RuleError>;
    /// The perfect-recall event history of `player` ([`SPECTATOR`]: public events only).
    fn events(&self, player: Player) -> Result<Vec<Event>, RuleError>;
    /// Every action and chance outcome applied since the initial state.
    fn history(&self) -> &[ActionId];
    fn seed(&self) -> u64;
    fn to_json(&self) -> Value;
    /// A hash that is identical on every run, platform and surface.
    fn stable_hash(&self) -> u64;
    /// A state that `player` cannot tell apart from this one, its hidden parts redrawn from
    /// `seed` (a determinization, for search). It keeps this state's action log, which it no
    /// longer matches: use it for search, not for saving.
    fn determinize(&self, player: Player, seed: u64) -> Result<StateHandle, RuleError>;
    fn clone_box(&self) -> Box<dyn DynState>;
    fn dyn_eq(&self, other: &dyn DynState) -> bool;
    fn as_any(&self) -> &dyn Any;
    fn debug_summary(&self) -> String;
}

/// An owned state of any game: `Clone + Eq + Hash + Debug`.
pub struct StateHandle(Box<dyn DynState>);

impl StateHandle {
    /// Loads a saved state (see [`DynState::to_json`]), finding its game in the registry.
    pub fn from_json(text: &str) -> Result<StateHandle, LoadError> {
        let v: Value = serde_json::from_str(text).map_err(|e| LoadError::MalformedJson(e.to_string()))?;
        StateHandle::from_value(&v)
    }

    pub fn from_value(v: &Value) -> Result<StateHandle, LoadError> {
        let header = SavedHeader::parse(v)?;
        let game = load_game(&header.game, Some(&header.config)).map_err(|e| match e {
            SetupError::UnknownGame(g) => LoadError::UnknownGame(g),
            other => LoadError::Setup(other),
        })?;
        game.state_from_value(v)
    }

    /// The pure transition.
    pub fn child(&self, a: ActionId) -> Result<StateHandle, RuleError> {
        let mut next = self.clone();
        next.apply_in_place(a)?;
        Ok(next)
    }

    /// Applies `a` on behalf of `player`, who must be the one to act.
    pub fn apply_as(&mut self, player: Player, a: ActionId) -> Result<(), RuleError> {
        let current = self.current_player();
        if current == TERMINAL {
            return Err(RuleError::GameOver);
        }
        if player != current {
            return Err(RuleError::NotYourTurn { player, current });
        }
        self.apply_in_place(a)
    }

    pub fn legal_actions(&self) -> Vec<ActionId> {
        let mut v = Vec::new();
        self.legal_actions_into(&mut v);
        v
    }

    /// One flag per action id: true where legal.
    pub fn legal_actions_mask(&self) -> Vec<bool> {
        let n = self.game().info().num_distinct_actions as usize;
        let mut mask = vec![false; n];
        let mut v = Vec::new();
        self.legal_actions_into(&mut v);
        for a in v {
            mask[a as usize] = true;
        }
        mask
    }

    pub fn observation_tensor(&self, player: Player) -> Result<Vec<f32>, RuleError> {
        let mut out = vec![0.0; self.game().info().observation_len()];
        self.observation_tensor_into(player, &mut out)?;
        Ok(out)
    }

    pub fn to_json_string(&self) -> String {
        self.to_json().to_string()
    }
}

impl std::ops::Deref for StateHandle {
    type Target = dyn DynState;
    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

impl std::ops::DerefMut for StateHandle {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut *self.0
    }
}

impl Clone for StateHandle {
    fn clone(&self) -> Self {
        StateHandle(self.0.clone_box())
    }
}

impl PartialEq for StateHandle {
    fn eq(&self, other: &Self) -> bool {
        self.0.dyn_eq(&*other.0)
    }
}

impl Eq for StateHandle {}

impl Hash for StateHandle {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u64(self.0.stable_hash());
    }
}

/// Deliberately only public facts: a state's Debug output may end up in logs that players see.
impl fmt::Debug for StateHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.debug_summary())
    }
}

// === The generic implementation ===

/// A configured game: the rules object plus the engine config.
pub struct Instance<G: Game> {
    rules: G,
    explicit_chance: bool,
    info: GameInfo,
    me: Weak<Instance<G>>,
}

impl<G: Game> fmt::Debug for Instance<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Game({}, {})", self.info.id, self.info.config)
    }
}

impl<G: Game> Instance<G> {
    /// A shared configured game. `config` is the normalized config shown in `info`.
    pub fn new_shared(rules: G, explicit_chance: bool, config: Value) -> Arc<Self> {
        let mut info = rules.info();
        info.config = config;
        Arc::new_cyclic(|me| Instance { rules, explicit_chance, info, me: me.clone() })
    }

    fn arc(&self) -> Arc<Self> {
        self.me.upgrade().expect("an Instance only exists inside its Arc")
    }

    /// A typed state at the start of a game, chance resolved as configured.
    pub fn initial_bound(&self, seed: u64) -> Bound<G> {
        Bound::initial(self.arc(), seed, &mut Events::off())
    }

    pub fn rules(&self) -> &G {
        &self.rules
    }
}

/// A typed state bound to its game, with its seed and action log.
pub struct Bound<G: Game> {
    game: Arc<Instance<G>>,
    seed: u64,
    history: Vec<ActionId>,
    state: G::State,
}

impl<G: Game> Clone for Bound<G> {
    fn clone(&self) -> Self {
        Bound { game: self.game.clone(), seed: self.seed, history: self.history.clone(), state: self.state.clone() }
    }
}

impl<G: Game> Bound<G> {
    fn initial(game: Arc<Instance<G>>, seed: u64, ev: &mut Events) -> Self {
        let state = game.rules.new_initial_state(seed);
        let mut b = Bound { game, seed, history: Vec::new(), state };
        b.settle(ev);
        b
    }

    /// Resolves chance nodes automatically unless the config asks for explicit chance.
    fn settle(&mut self, ev: &mut Events) {
        if !self.game.explicit_chance {
            self.game.rules.resolve_chance(&mut self.state, &mut self.history, ev);
        }
    }

    fn step(&mut self, a: ActionId, ev: &mut Events) -> Result<(), RuleError> {
        ev.set_step(self.history.len() as u32);
        self.game.rules.step(&mut self.state, a, ev)?;
        self.history.push(a);
        self.settle(ev);
        Ok(())
    }

    pub fn game_instance(&self) -> &Arc<Instance<G>> {
        &self.game
    }

    /// Applies `a` (checked) recording events into `ev`.
    pub fn step_recording(&mut self, a: ActionId, ev: &mut Events) -> Result<(), RuleError> {
        self.step(a, ev)
    }

    /// The typed state.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// Replays `history` from `seed`, recording events into `ev`.
    fn replay(game: Arc<Instance<G>>, seed: u64, history: &[ActionId], ev: &mut Events) -> Result<Self, String> {
        let mut b = Bound::initial(game, seed, ev);
        let mut checked = 0;
        loop {
            // Chance outcomes the engine resolved itself must be the ones recorded.
            let i = b.history.len();
            if history.get(checked..i) != Some(&b.history[checked..]) {
                return Err(format!("chance outcome near step {checked} differs from the one the seed produces"));
            }
            if i == history.len() {
                return Ok(b);
            }
            let a = history[i];
            b.step(a, ev).map_err(|e| format!("action {a} at step {i} rejected: {e}"))?;
            checked = i + 1;
        }
    }

    fn check_player(&self, player: Player) -> Result<(), RuleError> {
        let n = self.game.rules.num_players();
        if player == SPECTATOR || (player >= 0 && (player as usize) < n) {
            Ok(())
        } else {
            Err(RuleError::InvalidPlayer { player, num_players: n as u32 })
        }
    }

    fn check_range(&self, a: ActionId) -> Result<(), RuleError> {
        let n = self.game.info.num_distinct_actions;
        if a >= n {
            Err(RuleError::ActionOutOfRange { action: a, num_actions: n })
        } else {
            Ok(())
        }
    }
}

impl<G: Game> DynGame for Instance<G> {
    fn id(&self) -> &'static str {
        G::ID
    }

    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn num_players(&self) -> usize {
        self.rules.num_players()
    }

    fn explicit_chance(&self) -> bool {
        self.explicit_chance
    }

    fn new_initial_state(&self, seed: u64) -> StateHandle {
        StateHandle(Box::new(self.initial_bound(seed)))
    }

    fn state_from_value(&self, v: &Value) -> Result<StateHandle, LoadError> {
        let header = SavedHeader::parse(v)?;
        if header.game != G::ID {
            return Err(LoadError::WrongGame { found: header.game, expected: G::ID.to_string() });
        }
        if header.rules_version != self.info.rules_version {
            return Err(LoadError::RulesVersion { found: header.rules_version, expected: self.info.rules_version.clone() });
        }
        if header.config != self.info.config {
            return Err(LoadError::InvalidState(format!("saved state has config {}, this game has {}", header.config, self.info.config)));
        }
        let bound = Bound::replay(self.arc(), header.seed, &header.history, &mut Events::off()).map_err(LoadError::InvalidState)?;
        if let Some(snapshot) = v.get("state") {
            let saved: G::State = serde_json::from_value(snapshot.clone())
                .map_err(|e| LoadError::InvalidState(format!("state snapshot does not match the schema: {e}")))?;
            self.rules.validate(&saved).map_err(LoadError::InvalidState)?;
            if saved != bound.state {
                return Err(LoadError::InvalidState("state snapshot differs from the replay of its action log".into()));
            }
        }
        Ok(StateHandle(Box::new(bound)))
    }

    fn conformance(&self, seeds: &[u64]) -> Result<crate::testing::Report, String> {
        crate::testing::check(&self.arc(), seeds)
    }
}

impl<G: Game> DynState for Bound<G> {
    fn game(&self) -> GameHandle {
        self.game.clone()
    }

    fn current_player(&self) -> Player {
        self.game.rules.current_player(&self.state)
    }

    fn legal_actions_into(&self, out: &mut Vec<ActionId>) {
        self.game.rules.legal_actions(&self.state, out)
    }

    fn is_legal(&self, a: ActionId) -> bool {
        self.game.rules.check(&self.state, a).is_ok()
    }

    fn chance_outcomes(&self) -> Vec<(ActionId, f64)> {
        let mut v = Vec::new();
        if self.current_player() == CHANCE {
            self.game.rules.chance_outcomes(&self.state, &mut v);
        }
        v
    }

    fn apply_in_place(&mut self, a: ActionId) -> Result<(), RuleError> {
        self.step(a, &mut Events::off())
    }

    fn returns(&self) -> Vec<f64> {
        self.game.rules.returns(&self.state)
    }

    fn action_to_string(&self, a: ActionId) -> Result<String, RuleError> {
        self.check_range(a)?;
        Ok(self.game.rules.action_to_string(&self.state, a))
    }

    fn action_to_json(&self, a: ActionId) -> Result<Value, RuleError> {
        self.check_range(a)?;
        Ok(self.game.rules.action_to_json(&self.state, a))
    }

    fn view(&self, player: Player) -> Result<Value, RuleError> {
        self.check_player(player)?;
        Ok(self.game.rules.view(&self.state, player))
    }

    fn observation_tensor_into(&self, player: Player, out: &mut [f32]) -> Result<(), RuleError> {
        self.check_player(player)?;
        let n = self.game.info.observation_len();
        if out.len() != n {
            return Err(RuleError::BadBuffer { expected: n as u32, got: out.len() as u32 });
        }
        out.fill(0.0);
        self.game.rules.observation_tensor(&self.state, player, out);
        Ok(())
    }

    fn events(&self, player: Player) -> Result<Vec<Event>, RuleError> {
        self.check_player(player)?;
        let mut ev = Events::recording();
        Bound::replay(self.game.clone(), self.seed, &self.history, &mut ev).expect("a state's own action log always replays");
        Ok(ev.into_vec().into_iter().filter(|e| e.audience.includes(player)).collect())
    }

    fn history(&self) -> &[ActionId] {
        &self.history
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn to_json(&self) -> Value {
        json!({
            "format": STATE_FORMAT,
            "game": G::ID,
            "rules_version": self.game.info.rules_version,
            "config": self.game.info.config,
            "seed": self.seed,
            "history": self.history,
            "state": serde_json::to_value(&self.state).expect("states serialize"),
        })
    }

    fn stable_hash(&self) -> u64 {
        let mut h = StableHasher::default();
        G::ID.hash(&mut h);
        self.game.info.config.to_string().hash(&mut h);
        self.seed.hash(&mut h);
        self.history.hash(&mut h);
        self.state.hash(&mut h);
        h.finish()
    }

    fn determinize(&self, player: Player, seed: u64) -> Result<StateHandle, RuleError> {
        self.check_player(player)?;
        let mut rng = crate::rng::Rng::from_seed(seed);
        let state = self.game.rules.resample_hidden(&self.state, player, &mut rng);
        Ok(StateHandle(Box::new(Bound { game: self.game.clone(), seed: self.seed, history: self.history.clone(), state })))
    }

    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }

    fn dyn_eq(&self, other: &dyn DynState) -> bool {
        match other.as_any().downcast_ref::<Bound<G>>() {
            Some(o) => {
                self.game.info.config == o.game.info.config && self.seed == o.seed && self.history == o.history && self.state == o.state
            }
            None => false,
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    /// Public facts only: the seed is left out because it determines every hidden draw.
    fn debug_summary(&self) -> String {
        format!("State({}, {} actions, current player {})", G::ID, self.history.len(), self.current_player())
    }
}

// === Saved-state header ===

struct SavedHeader {
    game: String,
    rules_version: String,
    config: Value,
    seed: u64,
    history: Vec<ActionId>,
}

impl SavedHeader {
    fn parse(v: &Value) -> Result<SavedHeader, LoadError> {
        let obj = v.as_object().ok_or_else(|| LoadError::InvalidState("a saved state must be a json object".into()))?;
        let format = obj.get("format").and_then(Value::as_str).unwrap_or("");
        if format != STATE_FORMAT {
            return Err(LoadError::UnsupportedFormat { found: format.to_string(), expected: STATE_FORMAT.to_string() });
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
        Ok(SavedHeader {
            game: text("game")?,
            rules_version: text("rules_version")?,
            config: obj.get("config").cloned().unwrap_or_else(|| json!({})),
            seed,
            history,
        })
    }
}

// === A hasher that gives the same value on every run and platform ===

/// FNV-1a over the bytes `Hash` feeds it (integers little-endian), so hashes are stable.
#[derive(Clone, Copy)]
pub struct StableHasher(u64);

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for StableHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_usize(&mut self, i: usize) {
        self.write(&(i as u64).to_le_bytes());
    }
    fn write_isize(&mut self, i: isize) {
        self.write(&(i as i64).to_le_bytes());
    }
}

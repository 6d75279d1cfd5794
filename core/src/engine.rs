//! The object-safe layer over [`Game`] and the one registry table of games.
//!
//! [`GameHandle`] and [`StateHandle`] are what the C ABI and the Python module hold. The
//! engine adds what every game shares:
//! - the engine config key `explicit_chance` (default false: the state's RNG resolves chance
//!   nodes, so `current_player` never returns [`CHANCE`]);
//! - the action log (`history`), from which events are rebuilt by replay;
//! - range, turn and legality checks before any state is touched;
//! - the saved-state format (`to_json` / `from_json`), validated by replaying the log;
//! - constructed positions (`load_position` / `to_position`, docs/positions.md): a game that
//!   starts at a given typed state instead of `new_initial_state(seed)`.

use std::any::Any;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use serde_json::{json, Map, Value};

use crate::error::{LoadError, RuleError, SetupError};
use crate::events::{Event, Events};
use crate::game::{ActionId, Game, GameInfo, Player, CHANCE, SPECTATOR, TERMINAL};
use crate::games::samurai::Samurai;
use crate::games::sekigahara::Sekigahara;
use crate::games::sekigahara_daisakusen::Daisakusen;
use crate::games::three_kingdoms_redux::Tkr;
use crate::view::LastAction;

/// The saved-state format written by [`DynState::to_json`].
pub const STATE_FORMAT: &str = "kassen.state/1";

/// The position document format read by [`DynGame::load_position`] and written by
/// [`DynState::to_position`] (docs/positions.md).
pub const POSITION_FORMAT: &str = "kassen-position-1";

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
    (entry.create)(&map, explicit)
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
    /// Starts a game of this very game and config at the constructed position of a position
    /// document (docs/positions.md): the typed state without history, checked against the
    /// schema (`InvalidPosition`) and the rules ([`Game::validate_position`], `InvalidPosition`
    /// naming the field and the rule). The state's history holds only the actions after it.
    fn load_position(&self, v: &Value) -> Result<StateHandle, LoadError>;
    /// [`DynGame::load_position`] from JSON text.
    fn load_position_json(&self, text: &str) -> Result<StateHandle, LoadError> {
        let v: Value = serde_json::from_str(text).map_err(|e| LoadError::MalformedJson(e.to_string()))?;
        self.load_position(&v)
    }
    /// Draws a view of this game ([`DynState::view`]) as an SVG document.
    fn render_svg(&self, view: &Value) -> Result<String, crate::render::RenderError>;
    /// [`DynGame::render_svg`] with the boxes of every text and piece of the picture.
    fn render_layout(&self, view: &Value) -> Result<crate::render::Layout, crate::render::RenderError>;
    /// The `data-target` of the board element action `a` is played on, if any
    /// ([`Game::action_target`]).
    fn action_target(&self, a: ActionId) -> Option<String>;
    /// A short human sentence for an event `observer` was shown ([`Game::event_text`]).
    fn event_text(&self, body: &crate::events::Body, observer: Player) -> Option<String>;
    /// Runs the shared conformance suite (crate::testing) on this game from the given seeds.
    fn conformance(&self, seeds: &[u64]) -> Result<crate::testing::Report, String>;
    /// N states of this game stepped by one call ([`crate::batch`]).
    fn new_batch(&self, options: crate::batch::BatchOptions) -> Result<Box<dyn crate::batch::DynBatch>, SetupError>;
    /// Runs IS-MCTS for the seat to act in `root`, a state of this game with more than one
    /// legal action ([`crate::bots::analyze`] is the checked entry point).
    fn search(
        &self,
        root: &StateHandle,
        params: &crate::bots::SearchParams,
        control: &Arc<crate::bots::ismcts::Control>,
    ) -> crate::bots::Decision;
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
    /// [`DynState::view`] as JSON text (the same bytes as `view(player)?.to_string()`).
    fn view_json(&self, player: Player) -> Result<String, RuleError>;
    /// Writes the observation into `out` (`info().observation_len()` elements).
    fn observation_tensor_into(&self, player: Player, out: &mut [f32]) -> Result<(), RuleError>;
    /// The perfect-recall event history of `player` ([`SPECTATOR`]: public events only).
    fn events(&self, player: Player) -> Result<Vec<Event>, RuleError> {
        self.events_since(player, 0)
    }
    /// `events(player)` from its `from`-th event on (empty when `from` is past the end). The
    /// history is built once and extended as the game goes on, so a frontend that asks after
    /// every step pays only for what is new.
    fn events_since(&self, player: Player, from: usize) -> Result<Vec<Event>, RuleError>;
    /// The sentences of `events_since(player, from)`, one per event ([`Game::event_text`];
    /// `None` where the game has none).
    fn event_texts_since(&self, player: Player, from: usize) -> Result<Vec<Option<String>>, RuleError> {
        let game = self.game();
        Ok(self.events_since(player, from)?.iter().map(|e| game.event_text(&e.body, player)).collect())
    }
    /// `events_since(player, from)` as a JSON array in which every event also has a `"text"`
    /// field: its sentence, or null (the events of [`crate::events::to_json`] plus the text).
    fn events_with_text_json(&self, player: Player, from: usize) -> Result<String, RuleError> {
        let game = self.game();
        let list: Vec<Value> = self
            .events_since(player, from)?
            .iter()
            .map(|e| {
                let mut v = serde_json::to_value(e).expect("events serialize");
                v["text"] = json!(game.event_text(&e.body, player));
                v
            })
            .collect();
        Ok(Value::Array(list).to_string())
    }
    /// A perfect-recall information-state key of `player` ([`SPECTATOR`]: public information
    /// only): a stable 64-bit hash of the seat, everything it has seen and done in the order it
    /// happened, and the player to act. What it has seen and done: its events
    /// (`events(player)`) and the moves of the log as it knows them: its own choices (prompt
    /// steps included), the actions shown to it ([`Game::action_is_public`]; every action of a
    /// game without hidden information), and of every other action only who chose it at
    /// which step. Two states give a seat the same key exactly when they give it the same
    /// events, moves and player to act (up to hash collisions): then its view, tensor and
    /// legal actions are the same too (the conformance suite checks it), and a determinization
    /// for the seat has the same key. A game that started at a constructed position folds the
    /// position as the seat sees it (its view) in first. The hash is folded over the shared log
    /// as it grows: a repeated query on the same state is a cached read, a query after a step
    /// costs only what is new.
    fn info_state_hash(&self, player: Player) -> Result<u64, RuleError>;
    /// The information state behind [`DynState::info_state_hash`] as a JSON string:
    /// `{"player", "current_player", "events", "moves"}`, `moves` as `[step, actor, action]`
    /// with `action` null where `player` may not see it. A game that started at a constructed
    /// position adds `"position"`: the position as `player` saw it (its view), where the key
    /// starts.
    fn info_state_string(&self, player: Player) -> Result<String, RuleError>;
    /// Every action and chance outcome applied since the initial state (since the constructed
    /// position, for a game that started at one).
    fn history(&self) -> &[ActionId];
    fn seed(&self) -> u64;
    /// The saved state: game, config, seed, action log and a snapshot; for a game that
    /// started at a constructed position also the position (`"position"`), from which the
    /// log replays.
    fn to_json(&self) -> Value;
    /// The current state as a position document (docs/positions.md): the typed state without
    /// its history. Like a save it holds everything, hidden parts included.
    fn to_position(&self) -> Value;
    /// Whether the game started at a constructed position ([`DynGame::load_position`]).
    fn started_at_position(&self) -> bool;
    /// The position document of the constructed position the game started at (the state
    /// before the first entry of `history()`), or `None` for a game that started at the
    /// initial state of its seed. Like [`DynState::to_position`], not for players' eyes.
    fn start_position(&self) -> Option<Value>;
    /// A hash that is identical on every run, platform and surface.
    fn stable_hash(&self) -> u64;
    /// A state that `player` cannot tell apart from this one (a determinization, for search):
    /// a whole game history sampled from what `player` has seen ([`Game::resample_history`]),
    /// replayed with its chance outcomes as sampled, under a fresh seed drawn from `seed`. It
    /// carries nothing of the hidden truth: not the seed, not the other seats' secret choices.
    /// Its saves (`to_json`) mark the sampled part of the log as `"recorded"`.
    ///
    /// A state that started at a constructed position has no history before it. In a game
    /// without hidden information the determinization keeps the position and the actions
    /// after it and draws only the future anew. Otherwise the game samples the hidden parts
    /// of the current state from what `player` sees of it ([`Game::sample_position`]): the
    /// result starts at that sample; a game that cannot sample fails with
    /// [`RuleError::PositionNotSupported`].
    fn determinize(&self, player: Player, seed: u64) -> Result<StateHandle, RuleError>;
    /// Puts the state back as it was after the first `len` entries of its history (the state
    /// before a failed call). Used by the C and Python boundaries after a caught panic.
    fn rollback(&mut self, len: usize);
    /// `n` random rollouts from this state (players uniformly among legal actions, chance by
    /// probability, all drawn from one generator seeded `seed`, never from the state's own):
    /// `n × num_players` returns, row by row. The state is not changed. For search code.
    fn random_rollouts(&self, seed: u64, n: usize) -> Vec<f64>;
    /// [`DynState::random_rollouts`] into the caller's `out`, which must hold exactly
    /// `n × num_players` elements (`BadBuffer` otherwise): a caller that allocates the result
    /// itself can fail cleanly when the memory is not there.
    fn random_rollouts_into(&self, seed: u64, n: usize, out: &mut [f64]) -> Result<(), RuleError>;
    fn clone_box(&self) -> Box<dyn DynState>;
    fn dyn_eq(&self, other: &dyn DynState) -> bool;
    fn as_any(&self) -> &dyn Any;
    fn debug_summary(&self) -> String;
}

/// The game a saved state or a position document names, set up with its config.
fn game_of(id: &str, config: &Value) -> Result<GameHandle, LoadError> {
    load_game(id, Some(config)).map_err(|e| match e {
        SetupError::UnknownGame(g) => LoadError::UnknownGame(g),
        other => LoadError::Setup(other),
    })
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
        game_of(&header.game, &header.config)?.state_from_value(v)
    }

    /// Starts a game at the position of a position document (docs/positions.md), finding its
    /// game in the registry and setting it up with the document's config.
    pub fn from_position_json(text: &str) -> Result<StateHandle, LoadError> {
        let v: Value = serde_json::from_str(text).map_err(|e| LoadError::MalformedJson(e.to_string()))?;
        StateHandle::from_position_value(&v)
    }

    /// [`StateHandle::from_position_json`] from a parsed document.
    pub fn from_position_value(v: &Value) -> Result<StateHandle, LoadError> {
        let header = PositionHeader::parse(v)?;
        game_of(&header.game, &header.config)?.load_position(v)
    }

    /// [`DynState::to_position`] as JSON text.
    pub fn position_json(&self) -> String {
        self.to_position().to_string()
    }

    /// Whether [`DynState::determinize`] can serve `player` here: always, except for a state
    /// that started at a constructed position of a game that cannot sample its hidden parts
    /// ([`RuleError::PositionNotSupported`]). The search bots ask before they search.
    pub fn check_determinize(&self, player: Player) -> Result<(), RuleError> {
        if self.started_at_position() {
            self.determinize(player, 0)?;
        }
        Ok(())
    }

    /// The pure transition.
    pub fn child(&self, a: ActionId) -> Result<StateHandle, RuleError> {
        let mut next = self.clone();
        next.apply_in_place(a)?;
        Ok(next)
    }

    /// Applies `a` on behalf of `player` (a seat, or [`CHANCE`] for a chance outcome), who must
    /// be the one to act.
    pub fn apply_as(&mut self, player: Player, a: ActionId) -> Result<(), RuleError> {
        let n = self.game().num_players();
        if player != CHANCE && !(0..n as Player).contains(&player) {
            return Err(RuleError::InvalidPlayer { player, num_players: n as u32 });
        }
        let current = self.current_player();
        if current == TERMINAL {
            return Err(RuleError::GameOver);
        }
        if player == CHANCE && current != CHANCE {
            return Err(RuleError::NotChanceNode);
        }
        if player != current {
            return Err(RuleError::NotYourTurn { player, current });
        }
        self.apply_in_place(a)
    }

    /// [`DynState::apply_in_place`] for the C and Python boundaries: if the game panics, the
    /// state is put back as it was before the call ([`DynState::rollback`]) and the panic goes
    /// on to the boundary that catches it.
    pub fn apply_in_place_guarded(&mut self, a: ActionId) -> Result<(), RuleError> {
        self.guarded(|s| s.apply_in_place(a))
    }

    /// [`StateHandle::apply_as`] with the same guarantee as [`StateHandle::apply_in_place_guarded`].
    pub fn apply_as_guarded(&mut self, player: Player, a: ActionId) -> Result<(), RuleError> {
        self.guarded(|s| s.apply_as(player, a))
    }

    fn guarded(&mut self, f: impl FnOnce(&mut StateHandle) -> Result<(), RuleError>) -> Result<(), RuleError> {
        let len = self.history().len();
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(self))) {
            Ok(r) => r,
            Err(payload) => {
                self.rollback(len);
                std::panic::resume_unwind(payload)
            }
        }
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

    /// The board as `player` sees it ([`SPECTATOR`]: public information only), as an SVG
    /// document drawn from its view alone.
    pub fn render_svg(&self, player: Player) -> Result<String, crate::render::RenderError> {
        let view = self.view(player)?;
        self.game().render_svg(&view)
    }

    /// [`StateHandle::render_svg`] with the boxes of every text and piece of the picture.
    pub fn render_layout(&self, player: Player) -> Result<crate::render::Layout, crate::render::RenderError> {
        let view = self.view(player)?;
        self.game().render_layout(&view)
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
    /// Stable hash of the normalized config, computed once (a `"data"` file can be large).
    config_hash: u64,
    me: Weak<Instance<G>>,
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

    fn arc(&self) -> Arc<Self> {
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
    fn check_header(
        &self,
        game: &str,
        rules_version: &str,
        config: &Value,
        another_config: impl FnOnce() -> LoadError,
    ) -> Result<(), LoadError> {
        if game != G::ID {
            return Err(LoadError::WrongGame { found: game.to_string(), expected: G::ID.to_string() });
        }
        if rules_version != self.info.rules_version {
            return Err(LoadError::RulesVersion { found: rules_version.to_string(), expected: self.info.rules_version.clone() });
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
    fn position_state(&self, position: &Value, seed: u64) -> Result<G::State, LoadError> {
        let mut v = position.clone();
        let Value::Object(fields) = &mut v else {
            return Err(LoadError::InvalidPosition(format!(
                "\"position\" must be a json object (the typed state), got {}",
                kind_of(position)
            )));
        };
        if !fields.contains_key("rng") {
            fields.insert("rng".into(), serde_json::to_value(crate::rng::Rng::from_seed(seed)).expect("generators serialize"));
        }
        let state: G::State = serde_json::from_value(v)
            .map_err(|e| LoadError::InvalidPosition(format!("position does not match the {} state schema: {e}", G::ID)))?;
        check_position(&self.rules, &state).map_err(LoadError::InvalidPosition)?;
        self.check_chance_ends(&state)?;
        Ok(state)
    }

    /// A position's chance nodes, which the engine resolves at once unless chance is explicit
    /// (as at the start of a game), must end: a broken position must not keep the loader
    /// drawing forever.
    fn check_chance_ends(&self, position: &G::State) -> Result<(), LoadError> {
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

    fn same_config(&self, other: &Instance<G>) -> bool {
        std::ptr::eq(self, other) || (self.config_hash == other.config_hash && self.info.config == other.info.config)
    }
}

/// A typed state bound to its game, with its seed and action log.
pub struct Bound<G: Game> {
    game: Arc<Instance<G>>,
    seed: u64,
    /// The constructed position the game started at (docs/positions.md), or `None` for
    /// `new_initial_state(seed)`. `history` holds the actions after it.
    start: Option<Arc<G::State>>,
    /// The first `recorded` entries of `history` were applied as recorded, not drawn from
    /// `seed`: the sampled past of a determinization.
    recorded: usize,
    history: Vec<ActionId>,
    state: G::State,
    /// The event history rebuilt so far, shared with clones and extended on demand.
    events: OnceLock<SharedLog<G>>,
    /// The information-state keys of this very state, per observer (spectator first), once
    /// asked for; cleared by every step.
    info_keys: Mutex<Vec<Option<u64>>>,
    /// The last action applied through the engine, for the view envelope.
    last: Option<Applied<G>>,
    /// Set by the first view: from then on each step keeps the state before it, so that the
    /// next view can describe the last action without a replay.
    keep_before: AtomicBool,
}

/// One action of the log as the information-state keys see it: a seat's choice, or an
/// explicit chance outcome (the chance outcomes the engine resolves itself are not actions:
/// what a seat learns of them, it learns through events).
#[derive(Clone, Copy, Debug)]
struct Move {
    step: u32,
    /// The seat that chose it, or [`CHANCE`].
    actor: Player,
    action: ActionId,
    /// Who may see which action it was: bit `q + 1` for observer `q` (bit 0 the spectator).
    seen: u64,
}

impl Move {
    /// What `observer` knows of this move: its own choices and the actions shown to it, and
    /// of the rest only that `actor` chose something (`None`).
    fn known_to(&self, observer: Player) -> Option<ActionId> {
        (self.actor == observer && observer >= 0 || self.seen & (1 << (observer + 1)) != 0).then_some(self.action)
    }

    /// The key encoding of the move as `observer` knows it (see [`Event::encode_key`]): a tag
    /// no event encoding starts with, the step, the actor and the action if known.
    fn encode_key(&self, observer: Player, out: &mut Vec<u8>) {
        out.push(0xa5);
        out.extend_from_slice(&self.step.to_le_bytes());
        out.extend_from_slice(&self.actor.to_le_bytes());
        match self.known_to(observer) {
            Some(a) => {
                out.push(1);
                out.extend_from_slice(&a.to_le_bytes());
            }
            None => out.push(0),
        }
    }
}

/// How far one observer's information-state hash has folded the log.
#[derive(Clone, Copy)]
struct Fold {
    events: usize,
    moves: usize,
    hash: u64,
}

/// How [`Bound::advance`] treats the actions it replays.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Replay {
    /// Each is checked against the rules (a history from outside: a saved game, a caller).
    Checked,
    /// They come from a state's own history, checked when that state applied them.
    Known,
}

/// An action applied through the engine (not a chance outcome the engine resolved itself).
struct Applied<G: Game> {
    /// Its index in the history.
    index: usize,
    /// The seat that chose it, or [`CHANCE`].
    seat: Player,
    action: ActionId,
    /// The state it was applied to: kept at the step, or rebuilt by replay when first needed.
    before: OnceLock<Arc<G::State>>,
}

impl<G: Game> Clone for Applied<G> {
    fn clone(&self) -> Self {
        Applied { index: self.index, seat: self.seat, action: self.action, before: self.before.clone() }
    }
}

/// The event log shared by a state and its clones: empty while it is being extended.
type SharedLog<G> = Arc<Mutex<Option<Box<EventLog<G>>>>>;

/// Every event of a game up to `at`, the replay that produced them.
struct EventLog<G: Game> {
    at: Bound<G>,
    /// Recording: every event up to `at`.
    list: Events,
    /// Every action a player chose up to `at` (and every explicit chance outcome), with who
    /// may see which action it was.
    moves: Vec<Move>,
    /// Per observer (spectator first): how much of `list` and `moves` is folded into the
    /// information-state hash, and the hash.
    folds: Vec<Fold>,
    /// Scratch space for the encoding of the event being folded ([`Event::encode_key`]).
    key: Vec<u8>,
}

impl<G: Game> Clone for Bound<G> {
    fn clone(&self) -> Self {
        Bound {
            game: self.game.clone(),
            seed: self.seed,
            start: self.start.clone(),
            recorded: self.recorded,
            history: self.history.clone(),
            state: self.state.clone(),
            events: self.events.clone(),
            last: self.last.clone(),
            keep_before: AtomicBool::new(self.keep_before.load(Ordering::Relaxed)),
            info_keys: Mutex::new(self.info_keys.lock().map(|k| k.clone()).unwrap_or_default()),
        }
    }
}

impl<G: Game> Bound<G> {
    /// The initial state under `seed`, or the constructed position `origin`; its first
    /// `recorded` actions will be applied as given.
    fn start(game: Arc<Instance<G>>, seed: u64, origin: Option<Arc<G::State>>, recorded: usize, ev: &mut Events) -> Self {
        let state = match &origin {
            Some(position) => G::State::clone(position),
            None => game.rules.new_initial_state(seed),
        };
        let mut b = Bound {
            game,
            seed,
            start: origin,
            recorded,
            history: Vec::new(),
            state,
            events: OnceLock::new(),
            last: None,
            keep_before: AtomicBool::new(false),
            info_keys: Mutex::default(),
        };
        if recorded == 0 {
            b.settle(ev);
        }
        b
    }

    /// Resolves chance nodes automatically unless the config asks for explicit chance.
    fn settle(&mut self, ev: &mut Events) {
        if !self.game.explicit_chance {
            self.game.rules.resolve_chance(&mut self.state, &mut self.history, ev);
        }
    }

    fn step(&mut self, a: ActionId, ev: &mut Events) -> Result<(), RuleError> {
        self.game.rules.check(&self.state, a)?;
        self.step_known(a, ev);
        Ok(())
    }

    /// [`Bound::step`] for an action known to be legal here: one this state's own history
    /// holds at this point (a replay of it need not check the rules again).
    fn step_known(&mut self, a: ActionId, ev: &mut Events) {
        ev.set_step(self.history.len() as u32);
        let applied = self.applying(a);
        self.game.rules.apply(&mut self.state, a, ev);
        self.last = Some(applied);
        self.info_keys.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner()).clear();
        self.history.push(a);
        self.settle(ev);
    }

    /// The record of `a` about to be applied to the current state.
    fn applying(&self, a: ActionId) -> Applied<G> {
        let before = OnceLock::new();
        if self.keep_before.load(Ordering::Relaxed) {
            let _ = before.set(Arc::new(self.state.clone()));
        }
        Applied { index: self.history.len(), seat: self.game.rules.current_player(&self.state), action: a, before }
    }

    /// The last applied action as `observer` may see it.
    fn last_seen(&self, observer: Player) -> Option<LastAction> {
        let last = self.last.as_ref()?;
        self.keep_before.store(true, Ordering::Relaxed);
        let before = last.before.get_or_init(|| {
            let b = Bound::replay(
                self.game.clone(),
                self.seed,
                self.start.clone(),
                self.recorded,
                &self.history[..last.index],
                &mut Events::off(),
            )
            .expect("a prefix of a state's own action log replays");
            Arc::new(b.state)
        });
        let rules = &self.game.rules;
        let visible = !self.game.info.hidden_information
            || (last.seat >= 0 && last.seat == observer)
            || rules.action_is_public(before, last.seat, last.action, observer);
        Some(LastAction { seat: last.seat, id: last.action, text: visible.then(|| rules.action_to_string(before, last.action)) })
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

    /// Replays `history` from `seed` or from the position `origin` (its first `recorded`
    /// entries as given), recording events into `ev`.
    fn replay(
        game: Arc<Instance<G>>,
        seed: u64,
        origin: Option<Arc<G::State>>,
        recorded: usize,
        history: &[ActionId],
        ev: &mut Events,
    ) -> Result<Self, String> {
        let mut b = Bound::start(game, seed, origin, recorded, ev);
        // The chance outcomes drawn before the first decision are part of the log too.
        if history.get(..b.history.len()) != Some(&b.history[..]) {
            return Err("chance outcome near step 0 differs from the one the seed produces".into());
        }
        b.advance(history, ev, Replay::Checked)?;
        Ok(b)
    }

    /// Applies the rest of `target`, of which `self.history` is a prefix. Chance outcomes the
    /// engine resolves itself must be the ones recorded.
    fn advance(&mut self, target: &[ActionId], ev: &mut Events, how: Replay) -> Result<(), String> {
        self.advance_watching(target, ev, how, None)
    }

    /// [`Bound::advance`], appending to `moves` every action a seat chooses and every explicit
    /// chance outcome, with who may see it.
    fn advance_watching(
        &mut self,
        target: &[ActionId],
        ev: &mut Events,
        how: Replay,
        mut moves: Option<&mut Vec<Move>>,
    ) -> Result<(), String> {
        let mut checked = self.history.len();
        loop {
            let i = self.history.len();
            if target.get(checked..i) != Some(&self.history[checked..]) {
                return Err(format!("chance outcome near step {checked} differs from the one the seed produces"));
            }
            if i == target.len() {
                return Ok(());
            }
            let a = target[i];
            let rejected = |e: RuleError| format!("action {a} at step {i} rejected: {e}");
            if let Some(moves) = moves.as_deref_mut() {
                self.watch(i, a, moves);
            }
            if i < self.recorded {
                ev.set_step(i as u32);
                let applied = self.applying(a);
                if how == Replay::Checked {
                    self.game.rules.check(&self.state, a).map_err(rejected)?;
                }
                self.game.rules.apply(&mut self.state, a, ev);
                // A chance outcome the engine would have resolved itself is not an action.
                if applied.seat != CHANCE || self.game.explicit_chance {
                    self.last = Some(applied);
                }
                self.info_keys.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner()).clear();
                self.history.push(a);
                if i + 1 == self.recorded {
                    self.settle(ev);
                }
            } else if how == Replay::Checked {
                self.step(a, ev).map_err(rejected)?;
            } else {
                self.step_known(a, ev);
            }
            checked = i + 1;
        }
    }

    /// [`DynState::determinize`] of a state that started at the constructed `position`.
    fn determinize_position(&self, position: &G::State, player: Player, rng: &mut crate::rng::Rng) -> Result<StateHandle, RuleError> {
        let game = self.game.clone();
        if !game.info.hidden_information {
            // Nothing is hidden: the true position and log; only the future is drawn anew.
            let fresh = rng.next_u64();
            let origin = Some(Arc::new(reseeded(position, fresh)));
            let world = Bound::replay(game, fresh, origin, self.history.len(), &self.history, &mut Events::off())
                .unwrap_or_else(|e| panic!("{}: a state's own log does not replay from its position: {e}", G::ID));
            return Ok(StateHandle(Box::new(world)));
        }
        let sampled = game.rules.sample_position(&self.state, player, rng).ok_or(RuleError::PositionNotSupported("a determinization"))?;
        let fresh = rng.next_u64();
        let origin = Some(Arc::new(reseeded(&sampled, fresh)));
        Ok(StateHandle(Box::new(Bound::start(game, fresh, origin, 0, &mut Events::off()))))
    }

    /// Records `a`, about to be applied at step `i`, if it is an action (see [`Move`]).
    fn watch(&self, i: usize, a: ActionId, moves: &mut Vec<Move>) {
        let rules = &self.game.rules;
        let actor = rules.current_player(&self.state);
        if actor < 0 && !(actor == CHANCE && self.game.explicit_chance) {
            return;
        }
        let open = !self.game.info.hidden_information;
        let mut seen = 0u64;
        for q in SPECTATOR..rules.num_players() as Player {
            if open || (q >= 0 && q == actor) || rules.action_is_public(&self.state, actor, a, q) {
                seen |= 1 << (q + 1);
            }
        }
        moves.push(Move { step: i as u32, actor, action: a, seen });
    }

    /// Runs `f` on every event of the game so far, extending the shared log first.
    fn with_events<R>(&self, f: impl FnOnce(&[Event]) -> R) -> R {
        self.with_log(|log| f(log.list.as_slice()))
    }

    /// The hash of `player`'s events and moves (as it knows them) over the whole log of this
    /// state, in the order they happened: a step's move before the events it caused (see
    /// `info_state_hash`).
    fn fold_events(&self, player: Player) -> u64 {
        self.with_log(|log| {
            let slot = (player + 1) as usize;
            while log.folds.len() <= slot {
                let observer = log.folds.len() as Player - 1;
                log.folds.push(Fold { events: 0, moves: 0, hash: self.origin_key(observer) });
            }
            let mut f = log.folds[slot];
            let list = log.list.as_slice();
            loop {
                let event = list[f.events..].iter().position(|e| e.audience.includes(player)).map(|k| f.events + k);
                let next_move = log.moves.get(f.moves);
                log.key.clear();
                match (event, next_move) {
                    (Some(e), Some(m)) if list[e].step < m.step => {
                        list[e].encode_key(&mut log.key);
                        f.events = e + 1;
                    }
                    (_, Some(m)) => {
                        m.encode_key(player, &mut log.key);
                        f.moves += 1;
                    }
                    (Some(e), None) => {
                        list[e].encode_key(&mut log.key);
                        f.events = e + 1;
                    }
                    (None, None) => break,
                }
                f.hash = fold_bytes(f.hash, &log.key);
            }
            f.events = list.len();
            log.folds[slot] = f;
            f.hash
        })
    }

    /// Where `observer`'s information-state hash starts: the empty hash, or for a game that
    /// started at a constructed position the hash of the position as `observer` sees it (its
    /// view), so that two positions that look different to it never share a key.
    fn origin_key(&self, observer: Player) -> u64 {
        let empty = StableHasher::default().finish();
        match &self.start {
            None => empty,
            Some(position) => {
                let seen = crate::view::envelope_json(&self.game.rules, &self.game.info, position, observer, None);
                fold_bytes(empty, seen.as_bytes())
            }
        }
    }

    /// The moves of this state's log as `player` knows them: `[step, actor, action or null]`.
    fn known_moves(&self, player: Player) -> Vec<Value> {
        self.with_log(|log| log.moves.iter().map(|m| json!([m.step, m.actor, m.known_to(player)])).collect())
    }

    /// Runs `f` on the event log of the game so far, extending the shared log first.
    fn with_log<R>(&self, f: impl FnOnce(&mut EventLog<G>) -> R) -> R {
        let cell = self.events.get_or_init(Default::default);
        let mut guard = cell.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // Taken out while it is extended: a panic leaves no half-extended log behind.
        let mut log = match guard.take() {
            Some(log)
                if log.at.seed == self.seed
                    && log.at.recorded == self.recorded
                    && same_origin(&log.at.start, &self.start)
                    && self.history.starts_with(&log.at.history) =>
            {
                log
            }
            _ => {
                let mut list = Events::recording();
                let at = Bound::start(self.game.clone(), self.seed, self.start.clone(), self.recorded, &mut list);
                Box::new(EventLog { at, list, moves: Vec::new(), folds: Vec::new(), key: Vec::new() })
            }
        };
        let EventLog { at, list, moves, .. } = &mut *log;
        at.advance_watching(&self.history, list, Replay::Known, Some(moves)).expect("a state's own action log always replays");
        let out = f(&mut log);
        *guard = Some(log);
        out
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
        self.check_header(&header.game, &header.rules_version, &header.config, || {
            LoadError::InvalidState("saved state has another config than this game".into())
        })?;
        let origin = match &header.position {
            None => None,
            Some(p) => Some(Arc::new(self.position_state(p, header.seed)?)),
        };
        let bound = Bound::replay(self.arc(), header.seed, origin, header.recorded, &header.history, &mut Events::off())
            .map_err(LoadError::InvalidState)?;
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

    fn load_position(&self, v: &Value) -> Result<StateHandle, LoadError> {
        let header = PositionHeader::parse(v)?;
        self.check_header(&header.game, &header.rules_version, &header.config, || {
            LoadError::InvalidPosition("the position has another config than this game".into())
        })?;
        let state = self.position_state(&header.position, header.seed)?;
        Ok(StateHandle(Box::new(Bound::start(self.arc(), header.seed, Some(Arc::new(state)), 0, &mut Events::off()))))
    }

    fn render_svg(&self, view: &Value) -> Result<String, crate::render::RenderError> {
        self.render_layout(view).map(|l| l.svg)
    }

    fn render_layout(&self, view: &Value) -> Result<crate::render::Layout, crate::render::RenderError> {
        let name = REGISTRY.iter().find(|e| e.id == G::ID).map_or(G::ID, |e| e.name);
        crate::render::draw_layout(&self.rules, name, view)
    }

    fn action_target(&self, a: ActionId) -> Option<String> {
        (a < self.info.num_distinct_actions).then(|| self.rules.action_target(a)).flatten()
    }

    fn event_text(&self, body: &crate::events::Body, observer: Player) -> Option<String> {
        self.rules.event_text(body, observer)
    }

    fn conformance(&self, seeds: &[u64]) -> Result<crate::testing::Report, String> {
        crate::testing::check(&self.arc(), seeds)
    }

    fn new_batch(&self, options: crate::batch::BatchOptions) -> Result<Box<dyn crate::batch::DynBatch>, SetupError> {
        Ok(Box::new(crate::batch::TypedBatch::new(self.arc(), self.explicit_chance, options)?))
    }

    fn search(
        &self,
        root: &StateHandle,
        params: &crate::bots::SearchParams,
        control: &Arc<crate::bots::ismcts::Control>,
    ) -> crate::bots::Decision {
        crate::bots::ismcts::search::run(&self.arc(), root, params, control)
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
        Ok(crate::view::envelope(&self.game.rules, &self.game.info, &self.state, player, self.last_seen(player)))
    }

    fn view_json(&self, player: Player) -> Result<String, RuleError> {
        self.check_player(player)?;
        Ok(crate::view::envelope_json(&self.game.rules, &self.game.info, &self.state, player, self.last_seen(player)))
    }

    fn observation_tensor_into(&self, player: Player, out: &mut [f32]) -> Result<(), RuleError> {
        self.check_player(player)?;
        let n = self.game.info.observation_len();
        if out.len() != n {
            return Err(RuleError::BadBuffer { expected: n as u32, got: out.len() as u32 });
        }
        self.game.rules.observation_tensor(&self.state, player, out);
        Ok(())
    }

    fn events_since(&self, player: Player, from: usize) -> Result<Vec<Event>, RuleError> {
        self.check_player(player)?;
        Ok(self.with_events(|all| all.iter().filter(|e| e.audience.includes(player)).skip(from).cloned().collect()))
    }

    fn info_state_hash(&self, player: Player) -> Result<u64, RuleError> {
        self.check_player(player)?;
        let slot = (player + 1) as usize;
        let cached = |keys: &Vec<Option<u64>>| keys.get(slot).copied().flatten();
        if let Some(key) = self.info_keys.lock().ok().as_deref().and_then(cached) {
            return Ok(key);
        }
        let mut h = StableHasher(self.fold_events(player));
        h.write_i32(player);
        h.write_i32(self.game.rules.current_player(&self.state));
        let key = h.finish();
        let mut keys = self.info_keys.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if keys.len() <= slot {
            keys.resize(slot + 1, None);
        }
        keys[slot] = Some(key);
        Ok(key)
    }

    fn info_state_string(&self, player: Player) -> Result<String, RuleError> {
        let mut key = serde_json::json!({
            "player": player,
            "current_player": self.current_player(),
            "events": self.events(player)?,
            "moves": self.known_moves(player),
        });
        if let Some(position) = &self.start {
            key["position"] = crate::view::envelope(&self.game.rules, &self.game.info, position, player, None);
        }
        Ok(key.to_string())
    }

    fn history(&self) -> &[ActionId] {
        &self.history
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn to_json(&self) -> Value {
        let mut v = json!({
            "format": STATE_FORMAT,
            "game": G::ID,
            "rules_version": self.game.info.rules_version,
            "config": self.game.info.config,
            "seed": self.seed,
            "history": self.history,
            "state": serde_json::to_value(&self.state).expect("states serialize"),
        });
        if self.recorded > 0 {
            v["recorded"] = json!(self.recorded);
        }
        if let Some(position) = &self.start {
            v["position"] = serde_json::to_value(&**position).expect("states serialize");
        }
        v
    }

    fn to_position(&self) -> Value {
        json!({
            "format": POSITION_FORMAT,
            "game": G::ID,
            "rules_version": self.game.info.rules_version,
            "config": self.game.info.config,
            "seed": self.seed,
            "position": serde_json::to_value(&self.state).expect("states serialize"),
        })
    }

    fn started_at_position(&self) -> bool {
        self.start.is_some()
    }

    fn start_position(&self) -> Option<Value> {
        let start = self.start.as_ref()?;
        Some(json!({
            "format": POSITION_FORMAT,
            "game": G::ID,
            "rules_version": self.game.info.rules_version,
            "config": self.game.info.config,
            "seed": self.seed,
            "position": serde_json::to_value(&**start).expect("states serialize"),
        }))
    }

    fn stable_hash(&self) -> u64 {
        let mut h = StableHasher::default();
        G::ID.hash(&mut h);
        self.game.config_hash.hash(&mut h);
        self.seed.hash(&mut h);
        if let Some(position) = &self.start {
            position.hash(&mut h);
        }
        self.recorded.hash(&mut h);
        self.history.hash(&mut h);
        self.state.hash(&mut h);
        h.finish()
    }

    fn determinize(&self, player: Player, seed: u64) -> Result<StateHandle, RuleError> {
        self.check_player(player)?;
        let mut rng = crate::rng::Rng::from_seed(seed);
        if let Some(position) = &self.start {
            return self.determinize_position(position, player, &mut rng);
        }
        let past = self.game.rules.resample_history(&self.history, player, &mut rng);
        let fresh = rng.next_u64();
        let world = Bound::replay(self.game.clone(), fresh, None, past.len(), &past, &mut Events::off())
            .unwrap_or_else(|e| panic!("{}: resample_history gave a history that does not replay: {e}", G::ID));
        Ok(StateHandle(Box::new(world)))
    }

    fn rollback(&mut self, len: usize) {
        let len = len.min(self.history.len());
        let mut back = Bound::replay(
            self.game.clone(),
            self.seed,
            self.start.clone(),
            self.recorded.min(len),
            &self.history[..len],
            &mut Events::off(),
        )
        .expect("a prefix of a state's own action log replays");
        back.events = std::mem::take(&mut self.events);
        back.keep_before = AtomicBool::new(self.keep_before.load(Ordering::Relaxed));
        *self = back;
    }

    fn random_rollouts(&self, seed: u64, n: usize) -> Vec<f64> {
        let mut out = vec![0.0; n * self.game.rules.num_players()];
        crate::bots::rollout::play_outs(&self.game.rules, &self.state, seed, n, &mut out);
        out
    }

    fn random_rollouts_into(&self, seed: u64, n: usize, out: &mut [f64]) -> Result<(), RuleError> {
        let expected = n.checked_mul(self.game.rules.num_players());
        if expected != Some(out.len()) {
            let expected = expected.map_or(u32::MAX, |e| u32::try_from(e).unwrap_or(u32::MAX));
            return Err(RuleError::BadBuffer { expected, got: u32::try_from(out.len()).unwrap_or(u32::MAX) });
        }
        crate::bots::rollout::play_outs(&self.game.rules, &self.state, seed, n, out);
        Ok(())
    }

    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }

    fn dyn_eq(&self, other: &dyn DynState) -> bool {
        match other.as_any().downcast_ref::<Bound<G>>() {
            Some(o) => {
                self.seed == o.seed
                    && self.start.as_deref() == o.start.as_deref()
                    && self.recorded == o.recorded
                    && self.history == o.history
                    && self.state == o.state
                    && self.game.same_config(&o.game)
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

/// Whether two states started at the same place (the same position, or both at the seed).
fn same_origin<S: PartialEq>(a: &Option<Arc<S>>, b: &Option<Arc<S>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => Arc::ptr_eq(x, y) || x == y,
        _ => false,
    }
}

/// `s` with its generator (the top-level `rng` field every game's state keeps, see
/// docs/positions.md) replaced by a fresh one seeded `seed`: the future of a determinization.
fn reseeded<S: serde::Serialize + serde::de::DeserializeOwned>(s: &S, seed: u64) -> S {
    let mut v = serde_json::to_value(s).expect("states serialize");
    let slot = v.get_mut("rng").expect("a game's state keeps its generator in a top-level \"rng\" field");
    *slot = serde_json::to_value(crate::rng::Rng::from_seed(seed)).expect("generators serialize");
    serde_json::from_value(v).expect("a state reads back its own serde form")
}

// === Position documents ===

/// The fields of a position document (docs/positions.md); any other is an error.
const POSITION_FIELDS: [&str; 8] = ["format", "game", "rules_version", "config", "seed", "position", "name", "description"];

struct PositionHeader {
    game: String,
    rules_version: String,
    config: Value,
    seed: u64,
    position: Value,
}

impl PositionHeader {
    fn parse(v: &Value) -> Result<PositionHeader, LoadError> {
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

// === Saved-state header ===

struct SavedHeader {
    game: String,
    rules_version: String,
    config: Value,
    seed: u64,
    recorded: usize,
    history: Vec<ActionId>,
    /// The constructed position the game started at, if it did.
    position: Option<Value>,
}

/// The fields of a saved state; any other is an error.
const SAVED_FIELDS: [&str; 9] = ["format", "game", "rules_version", "config", "seed", "recorded", "history", "state", "position"];

impl SavedHeader {
    fn parse(v: &Value) -> Result<SavedHeader, LoadError> {
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

// === Hashes that give the same value on every run and platform ===

/// Folds `bytes` (an event's [`Event::encode_key`]) into the information-state hash `h`,
/// eight bytes at a time: a multiply folded to 64 bits per word, the zero-padded tail and
/// the length last. Stable like [`StableHasher`], several times faster than its byte-wise FNV.
fn fold_bytes(mut h: u64, bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mix = |x: u64| {
        let m = u128::from(x) * u128::from(K);
        (m as u64) ^ ((m >> 64) as u64)
    };
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        h = mix(h ^ u64::from_le_bytes(w.try_into().expect("8 bytes")));
    }
    let mut tail = [0u8; 8];
    tail[..words.remainder().len()].copy_from_slice(words.remainder());
    h = mix(h ^ u64::from_le_bytes(tail));
    mix(h ^ bytes.len() as u64)
}

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

#[cfg(test)]
mod tests {
    use super::fold_bytes;

    #[test]
    fn fold_bytes_tells_apart_tails_and_lengths() {
        let inputs: [&[u8]; 6] = [b"", b"\0", b"ab", b"ab\0", b"abcdefgh", b"abcdefgh\0"];
        let keys: Vec<u64> = inputs.iter().map(|b| fold_bytes(0, b)).collect();
        for i in 0..keys.len() {
            for j in 0..i {
                assert_ne!(keys[i], keys[j], "{:?} and {:?}", inputs[i], inputs[j]);
            }
        }
        assert_ne!(fold_bytes(1, b"ab"), fold_bytes(2, b"ab"));
        // Pinned: the keys must be the same on every platform and release.
        assert_eq!(fold_bytes(0xcbf2_9ce4_8422_2325, b"{\"kind\":\"x\"}"), PINNED);
    }

    const PINNED: u64 = 5_538_125_167_850_533_363;
}

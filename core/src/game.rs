//! The typed interface every game implements.
//!
//! A game is an immutable rules object (component data + config). Its `State` is a plain
//! value: cloneable, comparable, hashable and serializable, with the RNG inside it. The
//! implementor writes one in-place `apply` that is only ever called with a legal action; the
//! provided [`Game::step`] checks legality first, and [`Game::child`] clones first, so a
//! rejected action can never leave a half-applied state.

use std::fmt::Debug;
use std::hash::Hash;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::compact::CompactField;
use crate::error::{RuleError, SetupError};
use crate::events::Events;
use crate::layout::Feature;

/// A dense action id in `[0, num_distinct_actions)`. Chance outcomes use the same id space.
pub type ActionId = u32;

/// A seat number (`>= 0`) or one of the special values [`CHANCE`] and [`TERMINAL`].
pub type Player = i32;

/// `current_player` of a chance node (OpenSpiel's number).
pub const CHANCE: Player = -1;
/// `current_player` of a finished game (OpenSpiel's number).
pub const TERMINAL: Player = -4;
/// The observer id of the spectator view: public information only.
pub const SPECTATOR: Player = -1;

/// Static facts about a game under one configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameInfo {
    pub id: String,
    pub name: String,
    pub min_players: u32,
    pub max_players: u32,
    /// Seats in this configuration.
    pub num_players: u32,
    /// Every action and chance outcome id is `< num_distinct_actions`.
    pub num_distinct_actions: u32,
    /// The largest number of outcomes at any chance node.
    pub max_chance_outcomes: u32,
    /// Shape of `observation_tensor` (a flat f32 vector of their product).
    pub observation_shape: Vec<usize>,
    /// Named feature ranges that tile the flat observation tensor in order, with the bounds
    /// of their values (every registered game keeps them in `[0, 1]`; see [`crate::layout`]).
    pub observation_layout: Vec<Feature>,
    /// The fields that tile [`Game::compact_observation`]'s bytes in order (see
    /// [`crate::compact`]); its length is [`GameInfo::compact_len`].
    #[serde(default)]
    pub compact_layout: Vec<CompactField>,
    /// An upper bound on the number of actions (player and chance) in one game.
    pub max_game_length: u32,
    /// Version of the rules implementation; saved states carry it.
    pub rules_version: String,
    /// The rulebook this implementation follows.
    pub rulebook: String,
    /// The normalized configuration.
    pub config: Value,
    /// Where the component data comes from: counts per provenance class, and notes.
    pub provenance: Value,
    /// Whether some seat cannot see part of what has happened (a hand, a draw, a face-down
    /// piece). Without it, determinizations keep the true history and only the future (the
    /// state's seed) is drawn anew.
    pub hidden_information: bool,
    /// Buffer sizes for frontends, seen in the game's soak run (flattened into the JSON as
    /// `max_legal_actions`, `max_view_bytes`, `max_events_bytes`).
    #[serde(flatten)]
    pub buffer_sizes: BufferSizes,
    /// What the returns of a finished game can be (OpenSpiel's utility type and range).
    pub utility: Utility,
    /// The ids of chance outcomes: every chance outcome id `a` has
    /// `offset <= a < offset + count`, so `a - offset` is a dense outcome index.
    pub chance_outcome_block: ChanceBlock,
}

/// How the returns of a finished game relate across seats (OpenSpiel's `Utility`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UtilityKind {
    /// The returns of every finished game sum to 0.
    ZeroSum,
    /// The returns of every finished game sum to the same constant ([`Utility::sum`]).
    ConstantSum,
    /// No constraint on the sum.
    GeneralSum,
}

/// The declared range of a seat's return at a finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Utility {
    #[serde(rename = "type")]
    pub kind: UtilityKind,
    /// No seat's return is below this.
    pub min: f64,
    /// No seat's return is above this.
    pub max: f64,
    /// The sum of the returns of every finished game: `Some(0.0)` for zero-sum, the constant
    /// for constant-sum, `None` for general-sum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sum: Option<f64>,
}

impl Utility {
    /// Zero-sum with returns in `[min, max]`.
    pub fn zero_sum(min: f64, max: f64) -> Utility {
        Utility { kind: UtilityKind::ZeroSum, min, max, sum: Some(0.0) }
    }

    /// Constant-sum (`sum`) with returns in `[min, max]`.
    pub fn constant_sum(min: f64, max: f64, sum: f64) -> Utility {
        Utility { kind: UtilityKind::ConstantSum, min, max, sum: Some(sum) }
    }

    /// General-sum with returns in `[min, max]`.
    pub fn general_sum(min: f64, max: f64) -> Utility {
        Utility { kind: UtilityKind::GeneralSum, min, max, sum: None }
    }
}

/// One contiguous block of action ids that holds every chance outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChanceBlock {
    /// The first chance outcome id.
    pub offset: u32,
    /// The number of ids in the block (not every id need occur at every chance node).
    pub count: u32,
}

impl ChanceBlock {
    /// Whether `id` lies in the block.
    pub fn contains(&self, id: ActionId) -> bool {
        id >= self.offset && id - self.offset < self.count
    }
}

/// The buffer sizes of [`GameInfo`], observed in a soak run with a margin (figures, not
/// proofs; see each game's `sizes.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BufferSizes {
    /// The most legal actions at one decision: a legal-actions buffer of this size fitted
    /// every soak game.
    pub max_legal_actions: u32,
    /// The largest view JSON (bytes, any observer, any step).
    pub max_view_bytes: u32,
    /// The largest event-list JSON (bytes, any observer).
    pub max_events_bytes: u32,
}

impl GameInfo {
    /// Length of the flat observation tensor.
    pub fn observation_len(&self) -> usize {
        self.observation_shape.iter().product()
    }

    /// Length in bytes of the compact observation.
    pub fn compact_len(&self) -> usize {
        crate::compact::layout_len(&self.compact_layout)
    }
}

/// The typed rules of one game.
pub trait Game: Send + Sync + Sized + 'static {
    type State: Clone + PartialEq + Eq + Hash + Debug + Serialize + DeserializeOwned + Send + Sync + 'static;

    /// Registry id, e.g. `"samurai"`.
    const ID: &'static str;

    /// Builds the rules object from the game-specific config keys (engine keys such as
    /// `explicit_chance` are removed first). Unknown keys are an error.
    fn setup(config: &Map<String, Value>) -> Result<Self, SetupError>;

    /// The configurations that tests, the soak run and the benchmarks cover: every player
    /// count and rules variant (the engine adds an `explicit_chance` variant).
    fn covered_configs() -> Vec<Value> {
        vec![Value::Object(Map::new())]
    }

    /// Static facts (the engine adds the engine-level config keys).
    fn info(&self) -> GameInfo;

    fn num_players(&self) -> usize;

    /// Every action and chance outcome id is below this (must equal `info().num_distinct_actions`).
    fn num_distinct_actions(&self) -> u32;

    fn new_initial_state(&self, seed: u64) -> Self::State;

    /// Seat to act, [`CHANCE`] or [`TERMINAL`].
    fn current_player(&self, s: &Self::State) -> Player;

    /// Appends the legal actions (or chance outcome ids) in ascending order, without duplicates.
    fn legal_actions(&self, s: &Self::State, out: &mut Vec<ActionId>);

    /// Whether `a` is among `legal_actions`. Implement it directly for speed.
    fn is_legal(&self, s: &Self::State, a: ActionId) -> bool {
        let mut v = Vec::new();
        self.legal_actions(s, &mut v);
        v.binary_search(&a).is_ok()
    }

    /// The outcomes of a chance node with their probabilities (summing to 1).
    fn chance_outcomes(&self, s: &Self::State, out: &mut Vec<(ActionId, f64)>);

    /// Draws a chance outcome from the state's own RNG (advancing it).
    fn sample_chance(&self, s: &mut Self::State) -> ActionId;

    /// Applies a legal action in place. Only called after `is_legal` returned true.
    fn apply(&self, s: &mut Self::State, a: ActionId, ev: &mut Events);

    /// Per-seat returns; all zero until the game is over.
    fn returns(&self, s: &Self::State) -> Vec<f64>;

    fn action_to_string(&self, s: &Self::State, a: ActionId) -> String;

    /// The action as a JSON object for frontends (`{"id": .., "verb": .., ...}`).
    fn action_to_json(&self, s: &Self::State, a: ActionId) -> Value;

    /// What `player` may know (or the public view for [`SPECTATOR`]), including the pending
    /// decision, as a value that serializes straight to the JSON of the view's `body` (no
    /// intermediate tree: the view JSON of the C and Python layers is written from it). Must
    /// not contain anything hidden from that player.
    fn view_body<'a>(&'a self, s: &'a Self::State, player: Player) -> impl Serialize + 'a;

    /// [`Game::view_body`] as a JSON value.
    fn view(&self, s: &Self::State, player: Player) -> Value {
        serde_json::to_value(self.view_body(s, player)).expect("views serialize")
    }

    /// Draws the board of a view of this game (its `body` and the envelope around it) on
    /// `canvas`; see [`crate::render`]. Reads the view and the game's public component data
    /// only, never a state.
    fn draw(&self, _view: &crate::render::Frame, _canvas: &mut crate::render::Canvas) -> Result<(), crate::render::RenderError> {
        Err(crate::render::RenderError::Unsupported(Self::ID.to_string()))
    }

    /// The board element an action is played on, as the `data-target` of that element in
    /// [`Game::draw`]'s picture (`hex:12`, `loc:osaka`), if it has one. Lets a frontend make
    /// legal actions clickable on the board.
    fn action_target(&self, _a: ActionId) -> Option<String> {
        None
    }

    /// A short human sentence for an event `observer` was shown ("Ishida deploys 3 blocks at
    /// Gifu"), for logs and replays next to the JSON body (which stays the machine format).
    /// Built from the body and the game's public component data only, never from a state, so
    /// it can tell no more than the body does. `None`: the game has no text for this kind.
    fn event_text(&self, _body: &crate::events::Body, _observer: Player) -> Option<String> {
        None
    }

    /// Writes the board and holdings `observer` sees at `s` as compact text for the text
    /// observation ([`crate::DynState::text_observation`]) into `out` and says so: named places
    /// and who is where, the observer's own hidden holdings, scores and tracks. Must tell no
    /// more than [`Game::view_body`] of that observer (the text conformance test compares the
    /// text of a seat with that of its determinized twin). `false`: the engine's generic
    /// rendering of the view body ([`crate::text::board`]).
    fn board_text(&self, _s: &Self::State, _observer: Player, _out: &mut String) -> bool {
        false
    }

    /// A short primer on the rules for a language model's system prompt (at most about
    /// 2,000 words), condensed from docs/rules/<id>.md ([`crate::text::primer`]). Empty: none.
    fn rules_primer(&self) -> &'static str {
        ""
    }

    /// Seat names for the view envelope (`seats[i].name`), one per seat.
    fn seat_names(&self) -> Vec<String> {
        (1..=self.num_players()).map(|i| format!("player {i}")).collect()
    }

    /// The pending decision as `observer` may see it, for the view envelope (`to_act.decision`):
    /// an object with a stable snake_case `"kind"`, a short human `"prompt"`, and game-specific
    /// fields that `observer` may see. Only asked of states that are not terminal.
    fn decision<'a>(&'a self, _s: &'a Self::State, _observer: Player) -> impl Serialize + 'a {
        crate::view::Prompt { kind: "choose_action", prompt: "choose an action" }
    }

    /// Whether `observer` may see which action `a` was when it was applied by `actor` (a seat,
    /// or [`CHANCE`] for a chance outcome) to `before`. The engine already shows every action of
    /// a game without hidden information, and a seat its own actions; this is asked about the
    /// rest, and the conservative default keeps them hidden.
    fn action_is_public(&self, _before: &Self::State, _actor: Player, _a: ActionId, _observer: Player) -> bool {
        false
    }

    /// The winning seats of a finished game (empty on a draw). Default: the seats with the
    /// highest return, or none when every seat has the same return.
    fn winners(&self, s: &Self::State) -> Vec<usize> {
        let r = self.returns(s);
        let best = r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if r.iter().all(|&x| x == best) {
            return Vec::new();
        }
        (0..r.len()).filter(|&i| r[i] == best).collect()
    }

    /// Writes the observation of `player` (or the spectator) into `out`, which has
    /// `info().observation_len()` elements. The caller does not clear `out` first (it may hold a
    /// previous observation, of any state, or anything else): the encoder writes every element,
    /// typically by copying a template of the game's constant values and zeros, built when the
    /// rules object is, and then writing what depends on the state and the observer.
    fn observation_tensor(&self, s: &Self::State, player: Player, out: &mut [f32]);

    /// Writes the observation of `player` as bytes ([`crate::quantize`]: each value of
    /// [`Game::observation_tensor`] as `round(clamp(v, 0, 1) × 255)`, ties to even), the uint8
    /// observations of a batch. `scratch` has as many elements as `out`. The default encodes
    /// the floats into `scratch` and quantizes them; a game may write the bytes directly
    /// (its tests then check that they are the quantized floats).
    fn observation_tensor_u8(&self, s: &Self::State, player: Player, out: &mut [u8], scratch: &mut [f32]) {
        self.observation_tensor(s, player, scratch);
        crate::quantize::quantize(scratch, out);
    }

    /// Writes the compact observation of `player` (or the spectator) into `out`, which has
    /// `info().compact_len()` bytes laid out as `info().compact_layout` ([`crate::compact`]):
    /// every fact `player` may know, once, in the narrowest exact type, and nothing else. Two
    /// states whose views differ for `player` give different bytes; a determinization for
    /// `player` gives the same bytes (the conformance suite checks both). The caller does not
    /// clear `out` first.
    fn compact_observation(&self, s: &Self::State, player: Player, out: &mut [u8]);

    /// Determinization by history: an action log that `observer` cannot tell apart from
    /// `history` (every action and chance outcome applied since the initial state). Replayed
    /// from the initial state with its chance outcomes as recorded, it must be legal at every
    /// step and give `observer` the same events, view and tensor; what `observer` has not seen
    /// (other seats' secret choices, chance outcomes shown only to others, draws never revealed)
    /// is drawn anew from `rng`. The result may depend only on what `observer` knows: two
    /// histories it cannot tell apart give the same result for the same `rng`.
    /// ([`SPECTATOR`] knows only public information.) The engine replays it under a fresh seed
    /// ([`crate::DynState::determinize`]) and the conformance suite checks all of the above.
    /// Games whose past hides nothing return `history` unchanged.
    fn resample_history(&self, history: &[ActionId], _observer: Player, _rng: &mut crate::rng::Rng) -> Vec<ActionId> {
        history.to_vec()
    }

    // ---- bot knowledge (used by the search bots in crate::bots; neutral defaults) ----

    /// The move a playout makes for the player to act in `s` (not a chance node), among
    /// `legal` (its legal actions, ascending, never empty; when the search expands a node, only
    /// the ones not tried there yet: the answer must be one of `legal`, not just legal in `s`,
    /// which conformance checks), drawing from `rng`. The default is
    /// uniform. A game overrides it with cheap knowledge that makes playouts more like real
    /// play (the search stays correct whatever it returns, as long as it is in `legal`).
    /// Called with the full state of a determinization, never with a real state's secrets.
    fn rollout_action(&self, _s: &Self::State, legal: &[ActionId], rng: &mut crate::rng::Rng) -> ActionId {
        legal[rng.below(legal.len() as u32) as usize]
    }

    /// A static evaluation of a state that is not over: an estimate of each seat's return
    /// (within `info().utility`'s range) written into `out` (`num_players` values). Returning
    /// true lets a playout stop early ([`Game::playout_depth`] actions after the search tree)
    /// and score the state with it; the default, false, plays every playout to the end. A
    /// finished game is scored by its returns, never by this. A constant-sum game's estimates
    /// sum to its constant (checked, with the range, along playout-policy games of every game).
    fn evaluate(&self, _s: &Self::State, _out: &mut [f64]) -> bool {
        false
    }

    /// How many actions a playout makes after leaving the search tree before it stops and
    /// asks [`Game::evaluate`] (only used when the game evaluates).
    fn playout_depth(&self) -> u32 {
        u32::MAX
    }

    /// UCB1's exploration constant for this game's search (rewards scaled to `[0, 1]`), used
    /// when the search's parameters do not set one (the levels do not). The default suits
    /// returns and estimates spread over the whole range; a game whose estimates differ little
    /// from move to move explores less, or its search spreads a larger budget evenly instead
    /// of deepening the best lines.
    fn search_exploration(&self) -> f64 {
        crate::bots::ismcts::DEFAULT_EXPLORATION
    }

    /// The most iterations a level with a budget per turn (`ismcts:easy`, `normal`, `hard`,
    /// `ismcts:N/turn`) spends on one decision of this game; `None` (the default): its share of
    /// the turn, however large. For a game whose search, measured in duels, stops gaining
    /// strength and starts losing it past some budget per decision: the decision stops there
    /// and the time it would have spent is saved (its turn ends sooner). Searches with their
    /// own parameters (`analyze`, `ismcts:N`) are not capped.
    fn search_decision_cap(&self) -> Option<u64> {
        None
    }

    /// Consistency checks on a deserialized state (beyond replaying its history).
    fn validate(&self, _s: &Self::State) -> Result<(), String> {
        Ok(())
    }

    // ---- constructed positions (docs/positions.md) ----

    /// The checks on a constructed position, a state given without the history that led to
    /// it: every value in bounds and every invariant of the rules, so that play from it stays
    /// within the rules. The message names the field and the rule it breaks. The default is
    /// [`Game::validate`]; a game overrides it (in `games/<id>/position.rs`) with its complete
    /// checks. The engine adds, for every game, that a position not over has a legal action.
    fn validate_position(&self, s: &Self::State) -> Result<(), String> {
        self.validate(s)
    }

    /// A state that `observer` cannot tell apart from the constructed position `s` (whose
    /// history is unknown): its hidden parts (hands, draws, face-down pieces) drawn anew from
    /// `rng` given what `observer` sees of `s`. The engine reseeds the result's own RNG. The
    /// result may depend only on what `observer` sees. `None` when the game cannot sample
    /// one: then a determinization of a state that started at a position fails with
    /// `PositionNotSupported`. The default returns `s` itself for a game without hidden
    /// information (nothing to sample) and `None` otherwise.
    fn sample_position(&self, s: &Self::State, _observer: Player, _rng: &mut crate::rng::Rng) -> Option<Self::State> {
        (!self.info().hidden_information).then(|| s.clone())
    }

    /// How this game's positions are written by name (docs/positions.md, "Named positions"):
    /// the fields of its state's serde form that hold an index into the component data (a
    /// place, a piece, a card, a seat) or bit flags, each with the names the rulebook prints
    /// ([`crate::named`]). Written in `games/<id>/named_position.rs`. `None` (the default):
    /// the game has no named positions, and a document written by name is refused.
    fn position_names(&self) -> Option<crate::named::Conv> {
        None
    }

    // ---- provided ----

    fn is_terminal(&self, s: &Self::State) -> bool {
        self.current_player(s) == TERMINAL
    }

    /// Checks `a` and applies it; on error `s` is untouched.
    fn step(&self, s: &mut Self::State, a: ActionId, ev: &mut Events) -> Result<(), RuleError> {
        self.check(s, a)?;
        self.apply(s, a, ev);
        Ok(())
    }

    /// Why `a` cannot be applied to `s`, if it cannot.
    fn check(&self, s: &Self::State, a: ActionId) -> Result<(), RuleError> {
        if self.is_terminal(s) {
            return Err(RuleError::GameOver);
        }
        let n = self.num_distinct_actions();
        if a >= n {
            return Err(RuleError::ActionOutOfRange { action: a, num_actions: n });
        }
        if !self.is_legal(s, a) {
            return Err(RuleError::IllegalAction { action: a });
        }
        Ok(())
    }

    /// The pure transition: the successor of `s` under `a`.
    fn child(&self, s: &Self::State, a: ActionId) -> Result<Self::State, RuleError> {
        self.check(s, a)?;
        let mut next = s.clone();
        self.apply(&mut next, a, &mut Events::off());
        Ok(next)
    }

    /// Resolves chance nodes from the state's RNG until a player (or the end) is to act,
    /// recording each outcome in `history`.
    fn resolve_chance(&self, s: &mut Self::State, history: &mut Vec<ActionId>, ev: &mut Events) {
        while self.current_player(s) == CHANCE {
            let a = self.sample_chance(s);
            ev.set_step(history.len() as u32);
            self.apply(s, a, ev);
            history.push(a);
        }
    }
}

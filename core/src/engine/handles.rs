//! The erased interface: [`DynGame`] and [`DynState`], and the owned [`StateHandle`] that the
//! C ABI and the Python module hold.

use std::any::Any;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde_json::{json, Value};

use crate::error::{LoadError, RuleError, SetupError};
use crate::events::Event;
use crate::game::{ActionId, GameInfo, Player, CHANCE, TERMINAL};
use crate::input::{self, Limits};

use super::documents::{read_document, PositionHeader, SavedHeader};
use super::load_game;

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
    /// schema (`InvalidPosition`) and the rules ([`Game::validate_position`](crate::game::Game::validate_position), `InvalidPosition`
    /// naming the field and the rule). The state's history holds only the actions after it.
    fn load_position(&self, v: &Value) -> Result<StateHandle, LoadError>;
    /// [`DynGame::state_from_value`] from JSON text, parsed within this game's
    /// [`Limits::saved`] (`DocumentTooLarge` past them, before anything is allocated).
    fn state_from_json(&self, text: &str) -> Result<StateHandle, LoadError> {
        self.state_from_value(&input::parse(text, &Limits::saved(self.info()))?)
    }
    /// [`DynGame::load_position`] from JSON text, parsed within this game's
    /// [`Limits::position`] (`DocumentTooLarge` past them, before anything is allocated).
    fn load_position_json(&self, text: &str) -> Result<StateHandle, LoadError> {
        self.load_position(&input::parse(text, &Limits::position(self.info()))?)
    }
    /// Draws a view of this game ([`DynState::view`]) as an SVG document.
    fn render_svg(&self, view: &Value) -> Result<String, crate::render::RenderError>;
    /// [`DynGame::render_svg`] with the boxes of every text and piece of the picture.
    fn render_layout(&self, view: &Value) -> Result<crate::render::Layout, crate::render::RenderError>;
    /// The `data-target` of the board element action `a` is played on, if any
    /// ([`Game::action_target`](crate::game::Game::action_target)).
    fn action_target(&self, a: ActionId) -> Option<String>;
    /// A short human sentence for an event `observer` was shown ([`Game::event_text`](crate::game::Game::event_text)).
    fn event_text(&self, body: &crate::events::Body, observer: Player) -> Option<String>;
    /// The game's rules primer for a language model's system prompt ([`Game::rules_primer`](crate::game::Game::rules_primer)).
    fn rules_primer(&self) -> &'static str;
    /// The most iterations a per-turn level spends on one decision ([`Game::search_decision_cap`](crate::game::Game::search_decision_cap)).
    fn search_decision_cap(&self) -> Option<u64>;
    /// The game's full name, as the registry lists it.
    fn name(&self) -> &'static str;
    /// Runs the shared conformance suite (crate::testing) on this game from the given seeds.
    fn conformance(&self, seeds: &[u64]) -> Result<crate::testing::Report, String>;
    /// N states of this game stepped by one call ([`crate::batch`]).
    fn new_batch(&self, options: crate::batch::BatchOptions) -> Result<Box<dyn crate::batch::DynBatch>, SetupError>;
    /// Runs IS-MCTS for the seat to act in `root`, a state of this game with more than one
    /// legal action ([`crate::bots::analyze`] is the checked entry point); with `carry`, going
    /// on from the trees kept there when they serve this decision, and keeping its own for
    /// the next ([`crate::bots::ismcts::Kept`]).
    fn search(
        &self,
        root: &StateHandle,
        params: &crate::bots::SearchParams,
        control: &Arc<crate::bots::ismcts::Control>,
        carry: Option<&mut Option<Arc<crate::bots::ismcts::Kept>>>,
    ) -> Result<crate::bots::Decision, SetupError>;
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
    /// The last applied action as `player` may see it: the view's `last_action` without
    /// building the view (`None` before the first action).
    fn last_action(&self, player: Player) -> Result<Option<crate::view::LastAction>, RuleError>;
    /// Writes the observation into `out` (`info().observation_len()` elements).
    fn observation_tensor_into(&self, player: Player, out: &mut [f32]) -> Result<(), RuleError>;
    /// Writes the compact observation into `out` (`info().compact_len()` bytes; see
    /// [`crate::compact`]).
    fn compact_observation_into(&self, player: Player, out: &mut [u8]) -> Result<(), RuleError>;
    /// The perfect-recall event history of `player` ([`SPECTATOR`](crate::game::SPECTATOR): public events only).
    fn events(&self, player: Player) -> Result<Vec<Event>, RuleError> {
        self.events_since(player, 0)
    }
    /// `events(player)` from its `from`-th event on (empty when `from` is past the end). The
    /// history is built once and extended as the game goes on, so a frontend that asks after
    /// every step pays only for what is new.
    fn events_since(&self, player: Player, from: usize) -> Result<Vec<Event>, RuleError>;
    /// The sentences of `events_since(player, from)`, one per event ([`Game::event_text`](crate::game::Game::event_text);
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
    /// A perfect-recall information-state key of `player` ([`SPECTATOR`](crate::game::SPECTATOR): public information
    /// only): a stable 64-bit hash of the seat, everything it has seen and done in the order it
    /// happened, and the player to act. What it has seen and done: its events
    /// (`events(player)`) and the moves of the log as it knows them: its own choices (prompt
    /// steps included), the actions shown to it ([`Game::action_is_public`](crate::game::Game::action_is_public); every action of a
    /// game without hidden information), and of every other action only who chose it at
    /// which step. Two states give a seat the same key exactly when they give it the same
    /// events, moves and player to act (up to hash collisions): then its view, tensor and
    /// legal actions are the same too (the conformance suite checks it), and a determinization
    /// for the seat has the same key. A game that started at a constructed position folds the
    /// position as the seat sees it (its view) in first. The hash is folded over the shared log
    /// as it grows: a repeated query on the same state is a cached read, a query after a step
    /// costs only what is new.
    fn info_state_hash(&self, player: Player) -> Result<u64, RuleError>;
    /// What `player` knows as one self-contained text for a language-model agent
    /// (docs/text.md): the game and seat, what is being decided, the board and the seat's
    /// holdings, its events since its last decision as sentences and, where it acts, its legal
    /// moves as a numbered list of their move strings. Built from the seat's view, events and
    /// legal actions only: a seat's text equals its determinizations' (the conformance suite
    /// checks it).
    fn text_observation(&self, player: Player) -> Result<String, RuleError>;
    /// The legal move of `player` that `text` means ([`crate::text::parse`]): a move string of
    /// the text observation, its number in the list, or a JSON action (`{"id": n}` or fields of
    /// the action's JSON), in any case, quoted, in a code fence or inside a sentence, as long
    /// as exactly one legal move is meant. Errors: not the player's turn, the game is over, or
    /// `UnreadableMove` naming the problem and the options. Never changes the state.
    fn parse_move(&self, player: Player, text: &str) -> Result<ActionId, RuleError> {
        if self.is_terminal() {
            return Err(RuleError::GameOver);
        }
        if player != self.current_player() {
            let n = self.game().num_players();
            if !(0..n as Player).contains(&player) {
                return Err(RuleError::InvalidPlayer { player, num_players: n as u32 });
            }
            return Err(RuleError::NotYourTurn { player, current: self.current_player() });
        }
        let mut legal = Vec::new();
        self.legal_actions_into(&mut legal);
        let mut moves = Vec::with_capacity(legal.len());
        for a in legal {
            moves.push(crate::text::parse::Candidate { id: a, text: self.action_to_string(a)?, json: self.action_to_json(a)? });
        }
        crate::text::parse::resolve(text, &moves)
    }
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
    /// [`DynState::to_position`] written by name ([`NAMED_POSITION_FORMAT`](super::NAMED_POSITION_FORMAT):
    /// places, pieces, cards and seats as the rulebook names them), or `None` for a game without
    /// named positions ([`Game::position_names`](crate::game::Game::position_names)). Loads
    /// back to the same state.
    fn to_named_position(&self) -> Option<Value>;
    /// Whether the game started at a constructed position ([`DynGame::load_position`]).
    fn started_at_position(&self) -> bool;
    /// The position document of the constructed position the game started at (the state
    /// before the first entry of `history()`), or `None` for a game that started at the
    /// initial state of its seed. Like [`DynState::to_position`], not for players' eyes.
    fn start_position(&self) -> Option<Value>;
    /// A hash that is identical on every run, platform and surface.
    fn stable_hash(&self) -> u64;
    /// A state that `player` cannot tell apart from this one (a determinization, for search):
    /// a whole game history sampled from what `player` has seen ([`Game::resample_history`](crate::game::Game::resample_history)),
    /// replayed with its chance outcomes as sampled, under a fresh seed drawn from `seed`. It
    /// carries nothing of the hidden truth: not the seed, not the other seats' secret choices.
    /// Its saves (`to_json`) mark the sampled part of the log as `"recorded"`.
    ///
    /// A state that started at a constructed position has no history before it. In a game
    /// without hidden information the determinization keeps the position and the actions
    /// after it and draws only the future anew. Otherwise the game samples the hidden parts
    /// of the current state from what `player` sees of it ([`Game::sample_position`](crate::game::Game::sample_position)): the
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
pub(super) fn game_of(id: &str, config: &Value) -> Result<GameHandle, LoadError> {
    load_game(id, Some(config)).map_err(|e| match e {
        SetupError::UnknownGame(g) => LoadError::UnknownGame(g),
        other => LoadError::Setup(other),
    })
}

/// An owned state of any game: `Clone + Eq + Hash + Debug`.
pub struct StateHandle(pub(super) Box<dyn DynState>);

impl StateHandle {
    /// Loads a saved state (see [`DynState::to_json`]), finding its game in the registry. The
    /// text is parsed within the limits of the game it names ([`Limits::saved`]):
    /// `DocumentTooLarge` past them, before anything is allocated.
    pub fn from_json(text: &str) -> Result<StateHandle, LoadError> {
        match read_document(text, Limits::saved)? {
            (v, Some(game)) => game.state_from_value(&v),
            (v, None) => StateHandle::from_value(&v),
        }
    }

    pub fn from_value(v: &Value) -> Result<StateHandle, LoadError> {
        let header = SavedHeader::parse(v)?;
        game_of(&header.game, &header.config)?.state_from_value(v)
    }

    /// Starts a game at the position of a position document (docs/positions.md), finding its
    /// game in the registry and setting it up with the document's config.
    /// The text is parsed within the limits of the game it names ([`Limits::position`]):
    /// `DocumentTooLarge` past them, before anything is allocated.
    pub fn from_position_json(text: &str) -> Result<StateHandle, LoadError> {
        match read_document(text, Limits::position)? {
            (v, Some(game)) => game.load_position(&v),
            (v, None) => StateHandle::from_position_value(&v),
        }
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

    /// [`DynState::to_named_position`], or for a game without named positions
    /// [`LoadError::UnsupportedFormat`] (it writes [`POSITION_FORMAT`](super::POSITION_FORMAT)
    /// documents only).
    pub fn named_position(&self) -> Result<Value, LoadError> {
        self.to_named_position().ok_or_else(|| LoadError::UnsupportedFormat {
            found: super::NAMED_POSITION_FORMAT.to_string(),
            expected: super::POSITION_FORMAT.to_string(),
        })
    }

    /// [`StateHandle::named_position`] as JSON text.
    pub fn named_position_json(&self) -> Result<String, LoadError> {
        self.named_position().map(|v| v.to_string())
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

    /// The compact observation of `player` ([`crate::compact`]).
    pub fn compact_observation(&self, player: Player) -> Result<Vec<u8>, RuleError> {
        let mut out = vec![0; self.game().info().compact_len()];
        self.compact_observation_into(player, &mut out)?;
        Ok(out)
    }

    /// The board as `player` sees it ([`SPECTATOR`](crate::game::SPECTATOR): public information only), as an SVG
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

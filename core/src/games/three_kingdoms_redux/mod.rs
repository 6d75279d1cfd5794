//! # Three Kingdoms Redux (Yeo Keng Leong, Christina Ng; Starting Player 2014), 3 players
//!
//! Rules: docs/rules/three_kingdoms_redux.md, the rules as implemented in English, section by
//! section in the numbering of the rulebook followed (the Korean edition, §1-§11, not in this
//! repository). Component data: the reference file three_kingdoms_redux.json (schema_version
//! 2) and its notes, transcribed unchanged into `data/three_kingdoms_redux.json`. Interpretations:
//! `RULES_NOTES.md` beside this file (T-numbers; the data's clarifications are C1-C41).
//! Most card data is reconstructed (the official card texts are not public); every field
//! keeps its provenance class and `info()["provenance"]` summarizes them.
//!
//! Seats: 0 Wei (위), 1 Wu (오), 2 Shu (촉).
//!
//! Config: `trade_rates` ("player_side" | "literal", C14, default "player_side"),
//! `component_limits` (true | false, C35, default true), `alternation` ("example" |
//! "rule_text", C18, default "example"), and optional `"data"`: a replacement data object of
//! the same schema (validated; errors name the bad field).
//!
//! | rulebook section | file |
//! |---|---|
//! | 2 components, data, effects vocabulary | `data.rs`, `data/three_kingdoms_redux.json` |
//! | 3 setup | `flow.rs` (`initial`, `step_setup`), `play.rs` (draws, keeps) |
//! | 7 1) recruitment | `flow.rs` (`step_recruit`), `play.rs` |
//! | 7 2) alliance action | `play.rs` (Alliance), `flow.rs` (`bid_winner`) |
//! | 7 3) bidding, bid values, abilities | `flow.rs` (`extras`, `confirm`, `base_bid`) |
//! | 8 1)-2) winners, tokens back, next order | `flow.rs` (`resolve_bids`) |
//! | 8 3) the 18 actions | `play.rs` (`start_action`, `answer`, `build`, `occupy`) |
//! | 8 3) ability bonuses and their order | `bonus.rs` |
//! | 8 4) tribal decrease, rebellion | `flow.rs` (`step_tribal`) |
//! | 8 5) round-end benefits | `flow.rs` (`step_benefits`) |
//! | 9 upkeep, 10 deficits | `flow.rs` (`upkeep`, `upkeep_due`) |
//! | 11 end and scoring | `flow.rs` (`end_trigger`), `scoring.rs` |
//! | conditions, metrics, supply limits | `rules.rs` |
//! | hidden information | `view.rs`, `hidden.rs` |
//! | bot knowledge (playout policy, evaluation from the §11 scoring) | `bot.rs` |
//!
//! Decision points (each one action; layout in `action.rs`):
//! - chance: criterion marker side; each development card dealt/drawn (from the unknown part
//!   of its deck, then its known bottom part, T1); each general drawn;
//! - recruitment: keep one drawn general at a time (secret until all three have chosen);
//! - alliance: bid-order player 3 puts the alliance token on an action;
//! - bidding turn: choose a general (or pass) → choose its action → add units one at a time,
//!   gold (tribal), support tokens, the Han Emperor token → confirm;
//! - resolution: choose the next won action to perform, or decline one; then its prompts:
//!   develop or harvest/tax, tokens to bank, rice lots, weapon lots, weapon types, instructor,
//!   import deck, card to keep, card to build, trained armies paying an `army` cost (C34,
//!   when the mix is a real choice), production split, training, tribute option, general to
//!   flip, occupying general, region, units, granary or treasury, which pending action bonus
//!   resolves next (when their order matters, T10), choose_one bonuses;
//! - round end: tribal-12 support purchase, deficit protection, which round-end benefit to
//!   activate next (two or more open), round-end exchanges.

mod action;
mod bonus;
mod bot;
mod compact;
pub mod data;
mod flow;
mod hidden;
mod named_position;
mod play;
mod position;
mod render;
mod rules;
mod scoring;
mod sizes;
mod state;
mod tensor;
mod texts;
mod view;

use std::sync::Arc;

use serde::Serialize;
use serde_json::{json, Map, Value};

pub use action::{Action, Layout};
use action::{Contains, Count, Encoded, Nth};
pub use data::Data;
pub use scoring::{rank_points, Score};
pub use state::{GLoc, Pending, Placement, RegionState, Seat, Stage, State, NONE};

use crate::error::SetupError;
use crate::events::Events;
use crate::game::{ActionId, ChanceBlock, Game, GameInfo, Player, Utility, CHANCE, TERMINAL};
use crate::rng::Rng;

/// The Three Kingdoms Redux rules for one configuration.
#[derive(Debug, Clone)]
pub struct Tkr {
    data: Arc<Data>,
    layout: Layout,
    /// C14: the literal translation of the trade rates instead of the player-side ones.
    literal_rates: bool,
    /// C35: armies, weapons and support tokens are limited by the component counts.
    limits: bool,
    /// C18: the rule text's alternation reading instead of the worked example's.
    rule_text_alternation: bool,
}

/// The game's registry type.
pub type ThreeKingdomsRedux = Tkr;

impl Tkr {
    pub fn new(data: Arc<Data>, literal_rates: bool, limits: bool, rule_text_alternation: bool) -> Tkr {
        let layout = Layout { g: data.generals.len() as u32, d: data.developments.len() as u32, r: data.regions.len() as u32 };
        Tkr { data, layout, literal_rates, limits, rule_text_alternation }
    }

    pub fn data(&self) -> &Data {
        &self.data
    }

    pub fn layout(&self) -> Layout {
        self.layout
    }

    pub fn encode(&self, a: Action) -> ActionId {
        self.layout.encode(a)
    }

    pub fn decode(&self, id: ActionId) -> Option<Action> {
        self.layout.decode(id)
    }

    /// Legal actions as typed values (unsorted).
    pub fn legal_typed(&self, s: &State) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal(s, &mut v);
        v
    }

    /// Runs the automatic steps until a decision is pending (tests and tools that build
    /// positions by hand set `pending = Pending::Auto` and call this).
    pub fn settle(&self, s: &mut State, ev: &mut Events) {
        self.advance(s, ev);
    }

    /// Applies a typed action without checking (tests and tools; check legality first).
    pub fn apply_typed(&self, s: &mut State, a: Action, ev: &mut Events) {
        self.play(s, a, ev);
        self.advance(s, ev);
    }
}

impl Game for Tkr {
    type State = State;
    const ID: &'static str = "three_kingdoms_redux";

    fn setup(config: &Map<String, Value>) -> Result<Self, SetupError> {
        let mut data = None;
        let mut literal = None;
        let mut limits = None;
        let mut alt = None;
        for (k, v) in config {
            match k.as_str() {
                "data" => data = Some(Data::from_value(v)?),
                "trade_rates" => {
                    literal = Some(match v.as_str() {
                        Some("player_side") => false,
                        Some("literal") => true,
                        _ => {
                            return Err(SetupError::InvalidConfig(format!(
                                "trade_rates must be \"player_side\" or \"literal\", got {}",
                                crate::input::json(v)
                            )))
                        }
                    })
                }
                "component_limits" => {
                    limits = Some(v.as_bool().ok_or_else(|| {
                        SetupError::InvalidConfig(format!("component_limits must be true or false, got {}", crate::input::json(v)))
                    })?)
                }
                "alternation" => {
                    alt = Some(match v.as_str() {
                        Some("example") => false,
                        Some("rule_text") => true,
                        _ => {
                            return Err(SetupError::InvalidConfig(format!(
                                "alternation must be \"example\" or \"rule_text\", got {}",
                                crate::input::json(v)
                            )))
                        }
                    })
                }
                other => return Err(SetupError::UnknownKey(crate::input::cut(other, crate::input::QUOTE_BYTES).into_owned())),
            }
        }
        let data = match data {
            Some(d) => Arc::new(d),
            None => embedded_data(),
        };
        let (l, c, a) = (
            literal.unwrap_or(data.default_literal_rates),
            limits.unwrap_or(data.default_component_limits),
            alt.unwrap_or(data.default_alternation_rule_text),
        );
        Ok(Tkr::new(data, l, c, a))
    }

    fn covered_configs() -> Vec<Value> {
        vec![
            json!({}),
            json!({"trade_rates": "literal"}),
            json!({"component_limits": false}),
            json!({"alternation": "rule_text"}),
            json!({"trade_rates": "literal", "component_limits": false, "alternation": "rule_text"}),
        ]
    }

    fn info(&self) -> GameInfo {
        let d = &self.data;
        let max_outcomes = d.decks.iter().map(Vec::len).chain(d.dev_decks.iter().map(Vec::len)).max().unwrap_or(2).max(2) as u32;
        GameInfo {
            id: Self::ID.into(),
            name: "Three Kingdoms Redux".into(),
            min_players: 3,
            max_players: 3,
            num_players: 3,
            num_distinct_actions: self.layout.num_actions(),
            max_chance_outcomes: max_outcomes,
            observation_shape: vec![view::tensor_len(self)],
            observation_layout: tensor::layout(self),
            compact_layout: compact::layout(self),
            max_game_length: 40_000,
            rules_version: "three_kingdoms_redux/3".into(),
            rulebook: "docs/rules/three_kingdoms_redux.md (the rules as implemented, in English, from the Korean edition)".into(),
            config: json!({
                "trade_rates": if self.literal_rates { "literal" } else { "player_side" },
                "component_limits": self.limits,
                "alternation": if self.rule_text_alternation { "rule_text" } else { "example" },
            }),
            provenance: d.provenance.clone(),
            hidden_information: true,
            buffer_sizes: sizes::BUFFER_SIZES,
            // INTERPRETATION (RULES_NOTES.md T30): the winner +1, the others -1/2 (see `returns`).
            utility: Utility::zero_sum(-0.5, 1.0),
            // The general draws, development draws and criterion markers are the first three
            // blocks of the layout (action.rs).
            chance_outcome_block: ChanceBlock { offset: 0, count: self.layout.encode(Action::Keep(0)) },
        }
    }

    fn num_players(&self) -> usize {
        3
    }

    fn num_distinct_actions(&self) -> u32 {
        self.layout.num_actions()
    }

    fn new_initial_state(&self, seed: u64) -> State {
        self.initial(Rng::from_seed(seed))
    }

    fn current_player(&self, s: &State) -> Player {
        match s.pending {
            Pending::Over => TERMINAL,
            Pending::Criterion | Pending::DrawDev { .. } | Pending::DrawGeneral { .. } => CHANCE,
            _ => s.seat as Player,
        }
    }

    fn legal_actions(&self, s: &State, out: &mut Vec<ActionId>) {
        let start = out.len();
        self.legal(s, &mut Encoded { layout: self.layout, out });
        out[start..].sort_unstable();
    }

    fn is_legal(&self, s: &State, a: ActionId) -> bool {
        let Some(want) = self.decode(a) else { return false };
        let mut c = Contains { want, found: false };
        self.legal(s, &mut c);
        c.found
    }

    fn chance_outcomes(&self, s: &State, out: &mut Vec<(ActionId, f64)>) {
        let mut ids = Vec::new();
        self.legal_actions(s, &mut ids);
        // INTERPRETATION (RULES_NOTES.md T1): every draw is uniform over the unknown part of
        // the deck (one certain outcome once only the known bottom part is left)
        let p = 1.0 / ids.len() as f64;
        out.extend(ids.into_iter().map(|a| (a, p)));
    }

    fn sample_chance(&self, s: &mut State) -> ActionId {
        let mut n = Count::default();
        self.legal(s, &mut n);
        let k = s.rng.below(n.0 as u32) as usize;
        // The outcomes of a chance node are listed in ascending id order (outcome k of one
        // block, action.rs), so the k-th listed is the k-th of the sorted ids.
        let mut nth = Nth { k, found: None };
        self.legal(s, &mut nth);
        self.layout.encode(nth.found.expect("k < the number of outcomes"))
    }

    fn apply(&self, s: &mut State, a: ActionId, ev: &mut Events) {
        let action = self.decode(a).expect("legal actions decode");
        self.play(s, action, ev);
        self.advance(s, ev);
    }

    fn returns(&self, s: &State) -> Vec<f64> {
        if !s.is_over() {
            return vec![0.0; 3];
        }
        // INTERPRETATION (RULES_NOTES.md T30): the winner +1, the others -1/2 (sum 0); the
        // rulebook's tie-breaks always leave one winner
        let r = self.ranking(s);
        let mut out = vec![-0.5; 3];
        out[r[0]] = 1.0;
        out
    }

    fn action_to_string(&self, s: &State, a: ActionId) -> String {
        view::action_string(self, s, a)
    }

    fn action_to_json(&self, s: &State, a: ActionId) -> Value {
        view::action_json(self, s, a)
    }

    fn view_body<'a>(&'a self, s: &'a State, player: Player) -> impl Serialize + 'a {
        view::view(self, s, player)
    }

    /// The steps of a placement under way (general, action, what goes with it) are on the
    /// table, and every view shows them (`placing`) before the placement ends; so is the won
    /// action a seat performs or declines next (the view's decision names it).
    fn action_is_public(&self, _before: &State, _actor: Player, a: ActionId, _observer: Player) -> bool {
        matches!(
            self.layout.decode(a),
            Some(
                Action::Place(_)
                    | Action::Target(_)
                    | Action::Unit(_)
                    | Action::Gold
                    | Action::Support
                    | Action::Han
                    | Action::Perform(_)
                    | Action::Decline(_)
            )
        )
    }

    fn draw(&self, view: &crate::render::Frame, canvas: &mut crate::render::Canvas) -> Result<(), crate::render::RenderError> {
        render::draw(self, view, canvas)
    }

    fn action_target(&self, a: ActionId) -> Option<String> {
        render::action_target(self, a)
    }

    fn rules_primer(&self) -> &'static str {
        include_str!("primer.md")
    }

    fn event_text(&self, body: &crate::events::Body, observer: Player) -> Option<String> {
        self.text(body, observer)
    }

    fn seat_names(&self) -> Vec<String> {
        data::KINGDOMS.iter().map(|k| k.to_lowercase()).collect()
    }

    fn decision<'a>(&'a self, s: &'a State, _observer: Player) -> impl Serialize + 'a {
        view::decision(self, s)
    }

    fn compact_observation(&self, s: &State, player: Player, out: &mut [u8]) {
        compact::write(self, s, player, out)
    }

    fn observation_tensor(&self, s: &State, player: Player, out: &mut [f32]) {
        tensor::write(self, s, player, out)
    }

    /// The bytes written directly: mostly zeros, cleared at once.
    fn observation_tensor_u8(&self, s: &State, player: Player, out: &mut [u8], _scratch: &mut [f32]) {
        tensor::write_u8(self, s, player, out)
    }

    fn resample_history(&self, history: &[ActionId], observer: Player, rng: &mut Rng) -> Vec<ActionId> {
        hidden::resample(self, history, observer, rng)
    }

    fn rollout_action(&self, s: &State, legal: &[ActionId], rng: &mut Rng) -> ActionId {
        self.bot_rollout_action(s, legal, rng)
    }

    fn evaluate(&self, s: &State, out: &mut [f64]) -> bool {
        self.bot_evaluate(s, out)
    }

    fn playout_depth(&self) -> u32 {
        bot::PLAYOUT_DEPTH
    }

    /// Every value in bounds and every invariant of the rules (position.rs).
    fn position_names(&self) -> Option<crate::named::Conv> {
        Some(self.named_conv())
    }

    fn validate_position(&self, s: &State) -> Result<(), String> {
        self.validate(s)?;
        position::validate_position(self, s)
    }

    /// Every unseen development card and the other seats' unrevealed generals dealt anew
    /// (position.rs).
    fn sample_position(&self, s: &State, observer: Player, rng: &mut Rng) -> Option<State> {
        Some(position::sample_position(self, s, observer, rng))
    }

    fn validate(&self, s: &State) -> Result<(), String> {
        if s.gloc.len() != self.data.generals.len()
            || s.regions.len() != self.data.regions.len()
            || s.built_round.len() != self.data.developments.len()
        {
            return Err("state size does not match the component data".into());
        }
        Ok(())
    }
}

/// The embedded data, parsed once per process.
fn embedded_data() -> Arc<Data> {
    static DATA: std::sync::OnceLock<Arc<Data>> = std::sync::OnceLock::new();
    DATA.get_or_init(|| Arc::new(Data::embedded())).clone()
}

//! # Samurai (Reiner Knizia, Hans im Glück 1998), 2-4 players
//!
//! Rules: docs/rules/samurai.md, the rules as implemented in English, section by section in
//! the numbering of the rulebook followed (a Korean summary of the original rules, not in this
//! repository; section numbers below are its own). Component data: `data/samurai.json`,
//! transcribed from the reference file samurai.json. Interpretations: `RULES_NOTES.md` beside
//! this file.
//!
//! Config: `{"players": 2 | 3 | 4}` (default 2), optional `"data"`: a replacement component
//! data object with the schema of `data/samurai.json`.
//!
//! | rulebook section | file |
//! |---|---|
//! | 1-2 components, tokens | `data.rs`, `data/samurai.json` |
//! | 3 capturing figures | `capture.rs` |
//! | 4 setup (tokens kept, figures placed) | `setup.rs` |
//! | 5 a turn (tokens, exchanges, refill) | `turn.rs` |
//! | 6 game end, 7 scoring | `scoring.rs` |
//! | hidden information | `view.rs`, `tensor.rs` |
//! | bot knowledge (evaluation by the 7 majority rule) | `bot.rs` |
//!
//! Decision points (each one action): keep a token (x5 per seat) → place a figure (rotation)
//! → per turn: place a token / choose a figure for the figure exchange (first, then second) /
//! pick up a token for the token exchange (then place it again) → end the turn → chance:
//! draw tokens from the own stack until 5 are behind the screen.

mod action;
mod bot;
mod capture;
mod compact;
pub mod data;
mod hidden;
mod named_position;
mod position;
mod render;
mod scoring;
mod setup;
mod sizes;
mod state;
mod tensor;
mod texts;
mod turn;
mod view;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use serde::Serialize;
use serde_json::{json, Map, Value};

pub use action::{Action, Layout};
pub use data::{Data, HexKind, TokenKind, FIGURE_TYPES};
pub use scoring::{score, Score};
pub use state::{EndReason, Pending, Phase, State, Turn, EMPTY};

use crate::error::SetupError;
use crate::events::Events;
use crate::game::{ActionId, ChanceBlock, Game, GameInfo, Player, Utility, CHANCE, TERMINAL};
use crate::rng::Rng;

/// Hand size behind the screen (rulebook 4.2, 5.5).
pub const HAND: u32 = 5;

/// The Samurai rules for one player count and one component data set.
#[derive(Debug, Clone)]
pub struct Samurai {
    n: usize,
    data: Arc<Data>,
    layout: Layout,
    /// Hexes of this player count's board, ascending.
    land: Vec<u8>,
    sea: Vec<u8>,
    /// Settlement indices in play, ascending by hex.
    settlements: Vec<u8>,
    cities: Vec<u8>,
    villages: Vec<u8>,
    in_play: Vec<bool>,
    per_type: u8,
    all_tokens: u32,
    /// Per token: the mask of the tokens identical to it (same kind and strength), itself included.
    twins: Vec<u32>,
    /// The observation encoder's tables (tensor.rs).
    tensor: tensor::Tables,
}

impl Samurai {
    pub fn new(players: usize, data: Arc<Data>) -> Result<Samurai, SetupError> {
        if !(2..=4).contains(&players) {
            return Err(SetupError::OutOfRange(format!("players must be 2, 3 or 4, got {players}")));
        }
        let bit = 1u8 << players;
        let in_play: Vec<bool> = data.hexes.iter().map(|h| h.players & bit != 0).collect();
        let of_kind = |k: HexKind| data.hexes.iter().filter(|h| h.kind == k && in_play[h.id as usize]).map(|h| h.id).collect::<Vec<u8>>();
        let land = of_kind(HexKind::Land);
        let sea = of_kind(HexKind::Sea);
        let settlements_of = |pred: &dyn Fn(HexKind) -> bool| {
            (0..data.settlements.len() as u8)
                .filter(|&s| {
                    let st = &data.settlements[s as usize];
                    pred(st.kind) && st.players & bit != 0
                })
                .collect::<Vec<u8>>()
        };
        let settlements = settlements_of(&|_| true);
        let cities = settlements_of(&|k| k == HexKind::City);
        let villages = settlements_of(&|k| k == HexKind::Village);
        if !settlements.iter().any(|&s| data.settlements[s as usize].kind == HexKind::Edo) {
            return Err(SetupError::InvalidData(format!("Edo is not on the {players}-player board")));
        }
        let layout = Layout { tokens: data.tokens.len() as u32, hexes: data.hexes.len() as u32 };
        let per_type = data.figures_per_type[players - 2];
        let all_tokens = if data.tokens.len() == 32 { u32::MAX } else { (1u32 << data.tokens.len()) - 1 };
        let twins = data
            .tokens
            .iter()
            .map(|t| bits(all_tokens).filter(|&u| data.tokens[u as usize].same_as(t)).fold(0, |m, u| m | 1 << u))
            .collect();
        let mut g = Samurai {
            n: players,
            data,
            layout,
            land,
            sea,
            settlements,
            cities,
            villages,
            in_play,
            per_type,
            all_tokens,
            twins,
            tensor: tensor::Tables::default(),
        };
        g.tensor = tensor::Tables::new(&g);
        Ok(g)
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

    /// The settlement index standing on `hex`, if it is one of this board's.
    fn settlement_at(&self, hex: u8) -> Option<usize> {
        let s = *self.data.settlement_at.get(hex as usize)?;
        (s != data::NO_HEX && self.in_play[hex as usize]).then_some(s as usize)
    }

    fn hex_in_play(&self, hex: u8) -> bool {
        self.in_play.get(hex as usize).copied().unwrap_or(false)
    }

    /// Whether `token` is the move for its kind among the tokens of `mask`: it is in `mask` and
    /// no identical token of a lower index is. INTERPRETATION (RULES_NOTES.md N14): identical
    /// tokens (2.1: two samurai-1, two samurai-2, two ship-1) are one move; the lowest index
    /// still available stands for them all.
    fn first_of_kind(&self, mask: u32, token: u8) -> bool {
        let Some(&twins) = self.twins.get(token as usize) else { return false };
        let below = (1u32 << token) - 1;
        mask & (1 << token) != 0 && mask & twins & below == 0
    }

    /// The token that stands for `token`'s kind in `mask` (the lowest identical one there).
    fn first_twin(&self, mask: u32, token: u8) -> u8 {
        (mask & self.twins[token as usize]).trailing_zeros() as u8
    }

    fn next_seat(&self, seat: u8) -> u8 {
        ((seat as usize + 1) % self.n) as u8
    }
}

impl Game for Samurai {
    type State = State;
    const ID: &'static str = "samurai";

    fn setup(config: &Map<String, Value>) -> Result<Self, SetupError> {
        let mut players = 2usize;
        let mut data = None;
        for (k, v) in config {
            match k.as_str() {
                "players" => players = player_count(v)?,
                "data" => data = Some(Data::from_value(v)?),
                other => return Err(SetupError::UnknownKey(crate::input::cut(other, crate::input::QUOTE_BYTES).into_owned())),
            }
        }
        let data = match data {
            Some(d) => Arc::new(d),
            None => embedded_data(),
        };
        Samurai::new(players, data)
    }

    fn covered_configs() -> Vec<Value> {
        (2..=4).map(|n| json!({ "players": n })).collect()
    }

    fn info(&self) -> GameInfo {
        // Per seat: 5 keeps, at most T - 5 draws, T tokens played, the second figure and the
        // re-placed token of the two exchanges, at most T turns ended after playing.
        let per_player = 3 * self.data.tokens.len() as u32 + 3;
        let passes = self.n as u32 * (self.data.tokens.len() as u32 * self.n as u32 + 1);
        let figures = 3 * self.per_type as u32;
        GameInfo {
            id: Self::ID.into(),
            name: "Samurai".into(),
            min_players: 2,
            max_players: 4,
            num_players: self.n as u32,
            num_distinct_actions: self.layout.num_actions(),
            max_chance_outcomes: self.data.tokens.len() as u32,
            observation_shape: vec![tensor::len(self)],
            observation_layout: tensor::layout(self),
            compact_layout: compact::layout(self),
            max_game_length: self.n as u32 * per_player + figures + passes,
            rules_version: "samurai/1".into(),
            rulebook: "docs/rules/samurai.md (the rules as implemented, in English, from a Korean summary of the Hans im Glück 1998 rules)"
                .into(),
            config: json!({"players": self.n}),
            provenance: self.data.provenance.clone(),
            hidden_information: true,
            buffer_sizes: sizes::buffer_sizes(self.n),
            // 7: the winners share 1 (scoring.rs), everyone else gets 0.
            utility: Utility::constant_sum(0.0, 1.0, 1.0),
            // 5.5: the draws are the last block, one id per token.
            chance_outcome_block: ChanceBlock { offset: self.layout.encode(Action::Draw { token: 0 }), count: self.layout.tokens },
        }
    }

    fn num_players(&self) -> usize {
        self.n
    }

    fn num_distinct_actions(&self) -> u32 {
        self.layout.num_actions()
    }

    fn new_initial_state(&self, seed: u64) -> State {
        setup::initial_state(self, Rng::from_seed(seed))
    }

    fn current_player(&self, s: &State) -> Player {
        match s.phase {
            Phase::Over => TERMINAL,
            Phase::Refill => CHANCE,
            _ => s.seat as Player,
        }
    }

    fn legal_actions(&self, s: &State, out: &mut Vec<ActionId>) {
        match s.phase {
            Phase::ChooseTokens => setup::legal_keeps(self, s, out),
            Phase::PlaceFigures => setup::legal_figure_placements(self, s, out),
            Phase::Play => turn::legal_plays(self, s, out),
            Phase::Refill => turn::legal_draws(self, s, out),
            Phase::Over => {}
        }
    }

    fn is_legal(&self, s: &State, a: ActionId) -> bool {
        let Some(action) = self.decode(a) else { return false };
        match s.phase {
            Phase::ChooseTokens => setup::is_legal_keep(self, s, action),
            Phase::PlaceFigures => setup::is_legal_figure_placement(self, s, action),
            Phase::Play => turn::is_legal_play(self, s, action),
            Phase::Refill => matches!(action, Action::Draw { token } if self.first_of_kind(s.stacks[s.seat as usize], token)),
            Phase::Over => false,
        }
    }

    /// INTERPRETATION (RULES_NOTES.md N10, N14): each token of the stack is equally likely;
    /// identical tokens are one outcome with their summed probability.
    fn chance_outcomes(&self, s: &State, out: &mut Vec<(ActionId, f64)>) {
        let stack = s.stacks[s.seat as usize];
        let n = stack.count_ones() as f64;
        for t in bits(stack).filter(|&t| self.first_of_kind(stack, t)) {
            let copies = (stack & self.twins[t as usize]).count_ones() as f64;
            out.push((self.encode(Action::Draw { token: t }), copies / n));
        }
    }

    /// INTERPRETATION (RULES_NOTES.md N10, N14): each draw is uniform over the unordered stack.
    fn sample_chance(&self, s: &mut State) -> ActionId {
        let stack = s.stacks[s.seat as usize];
        let k = s.rng.below(stack.count_ones());
        let t = bits(stack).nth(k as usize).expect("k < popcount");
        self.encode(Action::Draw { token: self.first_twin(stack, t) })
    }

    fn apply(&self, s: &mut State, a: ActionId, ev: &mut Events) {
        let action = self.decode(a).expect("legal actions decode");
        match action {
            Action::Keep { token } => setup::keep(self, s, token, ev),
            Action::PlaceFigure { figure, hex } => setup::place_figure(self, s, figure, hex, ev),
            Action::PlaceToken { token, hex } => turn::place_token(self, s, token, hex, ev),
            Action::SwapFigure { figure, hex } => turn::swap_figure(self, s, figure, hex, ev),
            Action::PickUp { hex } => turn::pick_up(self, s, hex, ev),
            Action::EndTurn => turn::end_turn(self, s, ev),
            Action::Draw { token } => turn::draw(self, s, token, ev),
        }
    }

    fn returns(&self, s: &State) -> Vec<f64> {
        if s.phase != Phase::Over {
            return vec![0.0; self.n];
        }
        scoring::split(scoring::winners(&s.captured[..self.n]).0, self.n)
    }

    fn action_to_string(&self, _s: &State, a: ActionId) -> String {
        view::action_string(self, a)
    }

    fn action_to_json(&self, _s: &State, a: ActionId) -> Value {
        view::action_json(self, a)
    }

    fn view_body<'a>(&'a self, s: &'a State, player: Player) -> impl Serialize + 'a {
        view::view(self, s, player)
    }

    fn draw(&self, view: &crate::render::Frame, canvas: &mut crate::render::Canvas) -> Result<(), crate::render::RenderError> {
        render::draw(self, view, canvas)
    }

    fn action_target(&self, a: ActionId) -> Option<String> {
        render::action_target(self, a)
    }

    fn decision<'a>(&'a self, s: &'a State, _observer: Player) -> impl Serialize + 'a {
        view::decision(self, s)
    }

    fn action_is_public(&self, _before: &State, _actor: Player, a: ActionId, _observer: Player) -> bool {
        view::action_is_public(self, a)
    }

    fn rules_primer(&self) -> &'static str {
        include_str!("primer.md")
    }

    fn event_text(&self, body: &crate::events::Body, observer: Player) -> Option<String> {
        self.text(body, observer)
    }

    fn compact_observation(&self, s: &State, player: Player, out: &mut [u8]) {
        compact::write(self, s, player, out)
    }

    fn observation_tensor(&self, s: &State, player: Player, out: &mut [f32]) {
        tensor::write(self, s, player, out)
    }

    /// The bytes written directly: a quarter of the float tensor's, with no float pass.
    fn observation_tensor_u8(&self, s: &State, player: Player, out: &mut [u8], _scratch: &mut [f32]) {
        tensor::write_u8(self, s, player, out)
    }

    /// Other seats' keeps and draws are dealt anew (hidden.rs).
    fn resample_history(&self, history: &[ActionId], observer: Player, rng: &mut Rng) -> Vec<ActionId> {
        hidden::resample_history(self, history, observer, rng)
    }

    fn evaluate(&self, s: &State, out: &mut [f64]) -> bool {
        self.bot_evaluate(s, out)
    }

    fn playout_depth(&self) -> u32 {
        bot::PLAYOUT_DEPTH
    }

    /// Every value in bounds and every invariant of the rules (position.rs).
    fn validate_position(&self, s: &State) -> Result<(), String> {
        self.validate(s)?;
        position::validate_position(self, s)
    }

    /// Other seats' hands and hidden capture types dealt anew (position.rs).
    fn sample_position(&self, s: &State, observer: Player, rng: &mut Rng) -> Option<State> {
        Some(position::sample_position(self, s, observer, rng))
    }

    fn position_names(&self) -> Option<crate::named::Conv> {
        Some(self.named_conv())
    }

    fn validate(&self, s: &State) -> Result<(), String> {
        if s.cells.len() != self.data.hexes.len() || s.figures.len() != self.data.settlements.len() {
            return Err("board size does not match the component data".into());
        }
        Ok(())
    }
}

/// The `players` config value: an integer that is 2, 3 or 4 (out of range otherwise), or an
/// invalid config when it is no integer at all (`2.0` included: a config names a count
/// exactly).
fn player_count(v: &Value) -> Result<usize, SetupError> {
    match v.as_u64() {
        Some(n @ 2..=4) => Ok(n as usize),
        Some(_) => Err(SetupError::OutOfRange(format!("players must be 2, 3 or 4, got {v}"))),
        None if v.is_i64() => Err(SetupError::OutOfRange(format!("players must be 2, 3 or 4, got {v}"))),
        None => Err(SetupError::InvalidConfig(format!("players must be an integer, got {}", crate::input::json(v)))),
    }
}

/// The embedded data, parsed once per process.
fn embedded_data() -> Arc<Data> {
    static DATA: std::sync::OnceLock<Arc<Data>> = std::sync::OnceLock::new();
    DATA.get_or_init(|| Arc::new(Data::embedded())).clone()
}

/// The set bits of a mask, ascending.
pub(crate) fn bits(m: u32) -> impl Iterator<Item = u8> {
    crate::bits::bits(m.into())
}

//! # 関ヶ原大作戦 (Game Journal No.32, Simulation Journal 2009; design ふ〜ら〜中村), 2 players
//!
//! Rules: docs/rules/sekigahara_daisakusen.md, the rules as implemented in English, section by
//! section in the numbering of the rulebook followed (the Chinese translation 关原大作战 by
//! 大宝哥, sections 1.0-14.0 and the 16 action cards, not in this repository); "R 7.1" in the
//! code is docs/rules/sekigahara_daisakusen.md §7.1 (rulebook R 7.1). Component data: the
//! reference file sekigahara_hex.json (schema 2) with sekigahara_hex_notes.md, embedded
//! unchanged as `data/sekigahara_hex.json`.
//! **The map, most counter values and all track numbers are RECONSTRUCTED** (no public copy of
//! the printed components exists); every item keeps its provenance class. Interpretations:
//! `RULES_NOTES.md` (D1…), cited in the code as `INTERPRETATION (RULES_NOTES.md Dn)`.
//!
//! Seat 0 plays the East (東軍), seat 1 the West (西軍). Config: `"max_turns"` (default 20; a
//! turn is one pass through the deck, ended by 家康行動, R 4.1(4); the game has no end turn, so
//! the cap ends a stalemate as a draw), `"data"` (a replacement component file of the same
//! schema, validated before use), `"eval_weights"` (the search bots' evaluation weights, for
//! tuning them: `bot::WEIGHTS`). Returns +1 / −1, or 0 / 0 for a draw.
//!
//! | rulebook section | file |
//! |---|---|
//! | 2.3-2.5 components | `data.rs`, `data/sekigahara_hex.json`; hex geometry `crate::hex` |
//! | 3.0 set-up, 4.0 sequence, the 16 cards, 5.0 commanders, 12.0 調略 | `sequence.rs` |
//! | 5.1(4)-(6), 6.0 movement, ZOC, garrisons, 8.0 recovery, 9.0 entry tracks, 13.0 秀頼 | `movement.rs` |
//! | 7.0 attack, sieges, advance, 11.0(2) | `combat.rs` |
//! | 5.2 戦意, 6.3 ZOC, 10.0 castles and 京, 11.0 tracks, 14.0 victory | `board.rs` |
//! | views, tensor, action texts | `view.rs` |
//! | bot knowledge (playout policy, evaluation) | `bot.rs` |
//!
//! ## Decision points
//! 1. Set-up (3.0(1)①): East places each 外様主力 counter in one of the set-up hexes with room
//!    (`Place`).
//! 2. A card is drawn (chance `Draw`). Its owner, in card order: the marker choice of
//!    家康之書状 / 石田三成 / 三成之指令 (`Marker`); on 家康出馬 / 秀頼出陣 a 調略 or 恫喝判定
//!    (`Chouryaku(h)`, `Intimidate(h)` or `Pass`, then chance `Die`); then each activation:
//!    `Commander(u)` or `Pass` → `Act(move | strategic_move | attack | recover | march | hold)`.
//! 3. Move: `Select(u)` units up to the leadership, `Done` → (strategic: chance `Die`) →
//!    `Step(d)` hex by hex, `Done` to stop (the move also stops by itself: ZOC, castle, points).
//! 4. Attack: `Select(u)`, `Done` → `Target(d)` → chance `Die` per rolling unit (the besieged
//!    first) → the side hit allocates each hit `Hit(u)` → `Advance` (then `Select(u)` the
//!    attackers who go along, `Done`) / `Stay`.
//! 5. Recover: `Select(u)` flipped units, `Done`.
//!
//! Tests: `core/tests/daisakusen_rules/` (`cards.rs`: R 4.0 and each of the 16 cards;
//! `movement.rs`: R 5.1, 6.0-6.4, 8.0, 9.0, 10.0, 13.0 on the real map; `combat.rs`: R 7.0-7.3,
//! 11.0, 12.0, 14.0 and the calibration examples; `data.rs`: the components, the validator and
//! its fuzz; `perft.rs`; `main.rs`: the conformance suite, views, tensor, events), hex geometry
//! in `crate::hex`.
//!
//! There is no hidden information beyond the order of the deck (R 4.1): the deck, the
//! discards and every die are public, so `resample_history` keeps the default.

mod action;
mod board;
mod bot;
mod combat;
mod compact;
pub mod data;
mod movement;
mod named_position;
mod position;
mod render;
mod sequence;
mod sizes;
mod state;
mod tensor;
mod texts;
mod view;

use std::sync::Arc;

use serde::Serialize;
use serde_json::{json, Map, Value};

pub use action::{Action, Layout, ACT_ATTACK, ACT_HOLD, ACT_MARCH, ACT_MOVE, ACT_RECOVER, ACT_STRATEGIC};
pub use data::{Data, EAST, NONE, WEST};
pub use state::{bit, Fight, Mode, Pending, State, Unit, DEAD, TRACK};

use crate::error::SetupError;
use crate::events::Events;
use crate::game::{ActionId, ChanceBlock, Game, GameInfo, Player, Utility, CHANCE, TERMINAL};
use crate::rng::Rng;

pub const DEFAULT_MAX_TURNS: u16 = 20;

/// The rules of 関ヶ原大作戦 for one component data set.
#[derive(Debug, Clone)]
pub struct Daisakusen {
    data: Arc<Data>,
    layout: Layout,
    max_turns: u16,
    shosho_track: u8,
    /// The observation encoder's tables (`view::tensor`).
    tensor: view::TensorTables,
    /// The East's strength minus the West's at the set-up (`bot::initial_balance`).
    initial_balance: f64,
    /// The weights of the search bots' evaluation (config `"eval_weights"`; `bot::WEIGHTS`
    /// when `None`).
    eval_weights: Option<[f64; bot::FEATURES]>,
}

impl Daisakusen {
    pub fn new(data: Arc<Data>, max_turns: u16) -> Result<Daisakusen, SetupError> {
        let d = &data;
        let layout = Layout::new(d.cards.len(), d.tozama_hexes.len(), d.counters.len(), d.morale_tracks.len(), d.hexes.len());
        let shosho_track =
            d.morale_tracks
                .iter()
                .position(|t| t.name == "西軍諸将")
                .ok_or_else(|| SetupError::InvalidData("tracks.morale.tracks: no 西軍諸将 track (R 5.2(2)③)".into()))? as u8;
        let mut g = Daisakusen {
            data,
            layout,
            max_turns,
            shosho_track,
            tensor: view::TensorTables::default(),
            initial_balance: 0.0,
            eval_weights: None,
        };
        g.tensor = view::TensorTables::new(&g);
        g.initial_balance = bot::initial_balance(&g);
        Ok(g)
    }

    pub fn data(&self) -> &Data {
        &self.data
    }

    pub fn max_turns(&self) -> u16 {
        self.max_turns
    }

    pub fn encode(&self, a: Action) -> ActionId {
        self.layout.encode(a)
    }

    pub fn decode(&self, id: ActionId) -> Option<Action> {
        self.layout.decode(id)
    }

    /// The seat that decides in `s` (not meaningful at chance nodes or the end).
    pub fn decider(&self, s: &State) -> u8 {
        match s.pending {
            Pending::Setup { .. } => EAST,
            Pending::Allocate { side } => side,
            _ if s.card != NONE => sequence::card_side(self, s),
            _ => EAST,
        }
    }

    fn legal(&self, s: &State, out: &mut Vec<ActionId>) {
        if s.pending == Pending::Over {
            return;
        }
        if sequence::is_chance(s) {
            if s.pending == Pending::Draw {
                out.extend((0..self.data.cards.len() as u8).filter(|&c| s.deck & 1 << c != 0).map(|c| self.encode(Action::Draw(c))));
            } else {
                out.extend((1..=6).map(|n| self.encode(Action::Die(n))));
            }
            return;
        }
        let start = out.len();
        match s.pending {
            Pending::Select { mode } => movement::legal_select(self, s, mode, out),
            Pending::Moving => movement::legal_moving(self, s, s.mp > 0 && self.strategic(s), out),
            Pending::Target | Pending::Allocate { .. } | Pending::Advance => combat::legal(self, s, out),
            _ => sequence::legal(self, s, out),
        }
        out[start..].sort_unstable();
    }

    /// Legality without listing, for the frequent decisions; `None`: ask `legal`.
    fn is_legal_direct(&self, s: &State, a: ActionId) -> Option<bool> {
        let action = self.decode(a)?;
        let cmdr_loc = || s.units[s.cmdr as usize].loc;
        Some(match (s.pending, action) {
            (Pending::Over, _) => false,
            (Pending::Commander, Action::Pass) => true,
            (Pending::Commander, Action::Commander(u)) => (u as usize) < s.units.len() && sequence::eligible(self, s, u),
            (Pending::ActionChoice, Action::Act(k)) => (k as usize) < action::ACT_NAMES.len() && sequence::action_ok(self, s, k),
            (Pending::Select { mode }, Action::Select(v)) => {
                (v as usize) < s.units.len() && s.units[v as usize].loc == cmdr_loc() && movement::may_join(self, s, v, mode)
            }
            (Pending::Select { .. }, Action::Done) => true,
            (Pending::Moving, Action::Step(d)) => movement::step_ok(self, s, d as usize, s.mp > 0 && s.strategic),
            (Pending::Moving, Action::Done) => {
                let side = s.units[s.cmdr as usize].side;
                s.occ[cmdr_loc() as usize][side as usize] <= self.data.stacking
            }
            (Pending::Target, Action::Target(d)) => combat::target_ok(self, s, cmdr_loc(), d as usize),
            (Pending::Advance, Action::Stay) => true,
            (Pending::Allocate { side }, Action::Hit(u)) => (u as usize) < s.units.len() && combat::hit_candidates(s, side) & bit(u) != 0,
            (Pending::Advance, Action::Advance) => s.fight.is_some_and(|f| combat::advance_ok(self, s, &f)),
            (
                Pending::Commander | Pending::ActionChoice | Pending::Select { .. } | Pending::Moving | Pending::Target | Pending::Advance,
                _,
            ) => false,
            _ => return None,
        })
    }

    /// Whether the move in progress is strategic (its group was selected in that mode).
    fn strategic(&self, s: &State) -> bool {
        s.strategic
    }
}

impl Game for Daisakusen {
    type State = State;
    const ID: &'static str = "sekigahara_daisakusen";

    fn setup(config: &Map<String, Value>) -> Result<Self, SetupError> {
        let mut data = None;
        let mut max_turns = DEFAULT_MAX_TURNS;
        let mut weights = None;
        for (k, v) in config {
            match k.as_str() {
                "eval_weights" => weights = Some(bot::weights_from_config(v)?),
                "data" => data = Some(Arc::new(Data::from_value(v)?)),
                "max_turns" => {
                    max_turns = match v.as_u64() {
                        Some(n) if (1..=1000).contains(&n) => n as u16,
                        _ if v.is_u64() || v.is_i64() => {
                            return Err(SetupError::OutOfRange(format!("max_turns must be an integer in 1..=1000, got {v}")))
                        }
                        // A number with a fraction or an exponent (`20.0`) is no turn count.
                        _ => return Err(SetupError::InvalidConfig(format!("max_turns must be an integer, got {}", crate::input::json(v)))),
                    }
                }
                other => return Err(SetupError::UnknownKey(crate::input::cut(other, crate::input::QUOTE_BYTES).into_owned())),
            }
        }
        let mut g = Daisakusen::new(data.unwrap_or_else(embedded_data), max_turns)?;
        g.eval_weights = weights;
        Ok(g)
    }

    fn info(&self) -> GameInfo {
        let d = &self.data;
        let units = d.counters.len() as u32;
        // Per activation: a commander, an action, the group (≤ 6 selections and Done), up to
        // 6 + 6 + stacking steps, two volleys of ≤ stacking dice with their hits, an advance.
        let stack = d.stacking as u32;
        let activation = 2 + 7 + 14 + 4 * stack + 2;
        let per_card = 2 + 2 + 6 * activation + 2;
        let per_turn = 2 * d.cards.len() as u32 * per_card;
        GameInfo {
            id: Self::ID.into(),
            name: "関ヶ原大作戦 (Sekigahara Daisakusen)".into(),
            min_players: 2,
            max_players: 2,
            num_players: 2,
            num_distinct_actions: self.layout.num_actions(),
            max_chance_outcomes: d.cards.len().max(6) as u32,
            observation_shape: vec![view::tensor_len(self)],
            observation_layout: tensor::layout(self),
            compact_layout: compact::layout(self),
            max_game_length: units + self.max_turns as u32 * per_turn,
            rules_version: "sekigahara_daisakusen/2".into(),
            rulebook: "docs/rules/sekigahara_daisakusen.md (the rules as implemented, in English, from a Chinese translation of the Game Journal No.32 rules)".into(),
            config: match &self.eval_weights {
                None => json!({"max_turns": self.max_turns}),
                Some(w) => json!({"max_turns": self.max_turns, "eval_weights": w}),
            },
            provenance: d.provenance.clone(),
            hidden_information: false,
            buffer_sizes: sizes::BUFFER_SIZES,
            // The winner +1, the loser -1; a game cut off at `max_turns` is a draw (0, 0).
            utility: Utility::zero_sum(-1.0, 1.0),
            // The card draws and die rolls are the first two blocks of the layout (action.rs).
            chance_outcome_block: ChanceBlock { offset: 0, count: self.layout.encode(Action::Place(0)) },
        }
    }

    fn num_players(&self) -> usize {
        2
    }

    fn num_distinct_actions(&self) -> u32 {
        self.layout.num_actions()
    }

    fn new_initial_state(&self, seed: u64) -> State {
        sequence::initial_state(self, Rng::from_seed(seed))
    }

    fn current_player(&self, s: &State) -> Player {
        if s.pending == Pending::Over {
            TERMINAL
        } else if sequence::is_chance(s) {
            CHANCE
        } else {
            self.decider(s) as Player
        }
    }

    fn legal_actions(&self, s: &State, out: &mut Vec<ActionId>) {
        self.legal(s, out)
    }

    fn is_legal(&self, s: &State, a: ActionId) -> bool {
        if a >= self.layout.num_actions() {
            return false;
        }
        if sequence::is_chance(s) {
            return match self.decode(a) {
                Some(Action::Draw(c)) => s.pending == Pending::Draw && s.deck & 1 << c != 0,
                Some(Action::Die(_)) => s.pending != Pending::Draw,
                _ => false,
            };
        }
        // The frequent decisions are checked directly (the same predicates `legal` uses; the
        // tests compare both on random games).
        if let Some(x) = self.is_legal_direct(s, a) {
            return x;
        }
        thread_local!(static SCRATCH: std::cell::RefCell<Vec<ActionId>> = const { std::cell::RefCell::new(Vec::new()) });
        SCRATCH.with(|v| {
            let mut v = v.borrow_mut();
            v.clear();
            self.legal(s, &mut v);
            v.binary_search(&a).is_ok()
        })
    }

    fn chance_outcomes(&self, s: &State, out: &mut Vec<(ActionId, f64)>) {
        sequence::chance_outcomes(self, s, out)
    }

    fn sample_chance(&self, s: &mut State) -> ActionId {
        sequence::sample_chance(self, s)
    }

    fn apply(&self, s: &mut State, a: ActionId, ev: &mut Events) {
        let action = self.decode(a).expect("legal actions decode");
        match (s.pending, action) {
            (Pending::Draw, Action::Draw(c)) => sequence::draw(self, s, c, ev),
            (Pending::PlotDie { hex, intimidate }, Action::Die(n)) => sequence::plot_die(self, s, hex, intimidate, n, ev),
            (Pending::StratDie, Action::Die(n)) => movement::strategic_die(self, s, n, ev),
            (Pending::Dice, Action::Die(n)) => combat::die(self, s, n, ev),
            (Pending::Select { mode }, _) => {
                if action == Action::Done && matches!(mode, Mode::Move | Mode::Strategic) {
                    s.strategic = mode == Mode::Strategic;
                }
                movement::apply_select(self, s, mode, action, ev)
            }
            (Pending::Moving, _) => movement::apply_moving(self, s, action, ev),
            (Pending::Target | Pending::Allocate { .. } | Pending::Advance, _) => combat::apply(self, s, action, ev),
            _ => sequence::apply(self, s, action, ev),
        }
    }

    fn returns(&self, s: &State) -> Vec<f64> {
        if s.pending != Pending::Over || s.winner > 1 {
            return vec![0.0, 0.0];
        }
        (0..2u8).map(|p| if p == s.winner { 1.0 } else { -1.0 }).collect()
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
        data::SIDES.iter().map(|s| s.to_string()).collect()
    }

    fn decision<'a>(&'a self, s: &'a State, _observer: Player) -> impl Serialize + 'a {
        view::pending_json(self, s)
    }

    fn compact_observation(&self, s: &State, player: Player, out: &mut [u8]) {
        compact::write(self, s, player, out)
    }

    fn observation_tensor(&self, s: &State, player: Player, out: &mut [f32]) {
        view::tensor(self, s, player, out)
    }

    /// The bytes written directly: a quarter of the float tensor's, with no float pass.
    fn observation_tensor_u8(&self, s: &State, player: Player, out: &mut [u8], _scratch: &mut [f32]) {
        view::tensor_u8(self, s, player, out)
    }

    fn rollout_action(&self, s: &State, legal: &[ActionId], rng: &mut Rng) -> ActionId {
        bot::rollout_action(self, s, legal, rng)
    }

    fn evaluate(&self, s: &State, out: &mut [f64]) -> bool {
        bot::evaluate(self, s, out)
    }

    fn playout_depth(&self) -> u32 {
        bot::PLAYOUT_DEPTH
    }

    fn search_exploration(&self) -> f64 {
        bot::EXPLORATION
    }

    /// Every value in bounds and every invariant of the rules (position.rs). Nothing is
    /// hidden, so `sample_position` keeps the default (the position itself).
    fn position_names(&self) -> Option<crate::named::Conv> {
        Some(self.named_conv())
    }

    fn validate_position(&self, s: &State) -> Result<(), String> {
        self.validate(s)?;
        position::validate_position(self, s)
    }

    fn validate(&self, s: &State) -> Result<(), String> {
        let d = &self.data;
        if s.units.len() != d.counters.len()
            || s.morale.len() != d.morale_tracks.len()
            || s.entry.len() != d.entry.len()
            || s.occ.len() != d.hexes.len()
        {
            return Err("state does not match the component data".into());
        }
        // Bounds first: the occupancy below indexes the hexes by `loc` and the sides by `side`.
        let tracks = TRACK..TRACK.saturating_add(d.entry.len() as u16);
        for (u, x) in s.units.iter().enumerate() {
            if !((x.loc as usize) < d.hexes.len() || tracks.contains(&x.loc) || x.loc == DEAD) {
                return Err(format!("counter {u} is at location {}, neither a hex, an entry track nor removed", x.loc));
            }
            if x.side > 1 {
                return Err(format!("counter {u} has side {}, not 0 (East) or 1 (West)", x.side));
            }
        }
        let mut again = s.clone();
        self.rebuild_occupancy(&mut again);
        if again.occ != s.occ || again.zoc != s.zoc {
            return Err("occupancy does not match the counters".into());
        }
        Ok(())
    }
}

/// The embedded data, parsed once per process.
fn embedded_data() -> Arc<Data> {
    static DATA: std::sync::OnceLock<Arc<Data>> = std::sync::OnceLock::new();
    DATA.get_or_init(|| Arc::new(Data::embedded())).clone()
}

impl Daisakusen {
    /// Recomputes the per-hex occupancy after counters were placed by hand (tests, tools).
    pub fn rebuild(&self, s: &mut State) {
        self.rebuild_occupancy(s)
    }
}

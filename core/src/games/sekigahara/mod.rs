//! # Sekigahara: The Unification of Japan (Matt Calkins, GMT Games 2011), 2 players
//!
//! Rules: docs/rules/sekigahara.md, the rules as implemented in English, section by section
//! in the rulebook's numbering (the engine follows the Japanese translation, the fuller one,
//! and the Korean one, neither in this repository). Component data: `data/sekigahara.json`,
//! transcribed from the reference file sekigahara_gmt.json. Interpretations and the
//! differences between the two translations: `RULES_NOTES.md`.
//!
//! Seat 0 plays Tokugawa (black), seat 1 Ishida (gold). Config: optional `"data"`, a
//! replacement component data object with the schema of `data/sekigahara.json` (for the real
//! block manifest: the non-setup block copies in the embedded file are placeholders).
//!
//! | rulebook section | file |
//! |---|---|
//! | 3-4 components, locations | `data.rs`, `data/sekigahara.json` |
//! | 5 setup, 6 week cycle, 2.2 points | `week.rs` |
//! | 3.3 cards (hands, decks, draws) | `cards.rs` |
//! | 4.2-4.3 control, 7.4 overrun | `control.rs` |
//! | 7 movement, muster | `movement.rs` |
//! | 8.1-8.6 battles, deployment, loyalty | `battle.rs` |
//! | 8.7-8.10 casualties, retreat, sieges, replenishment | `aftermath.rs` |
//! | 9 special rules | where they apply: Mori box in `cards.rs`/`battle.rs`, disks in `aftermath.rs`, any-card blocks in `battle.rs` |
//! | hidden information | `view.rs`, `tensor.rs`, `hidden.rs` |
//! | bot knowledge (playout policy, evaluation) | `bot.rs` |
//!
//! ## Decision points
//! Every decision of the rulebook is one player action; forced steps (no alternative) are
//! applied by the engine. In order of play:
//! 1. Reinforcement (6.2, weeks 2-7): each side discards cards one at a time until half its
//!    hand is gone, choosing the rounding (`Discard`, then `Done` or one more `Discard`).
//! 2. Bid (6.3): Tokugawa, then Ishida, bid a card face down (`Bid`); the winner picks who
//!    goes first (`First`).
//! 3. Movement phase (7): `Mode` → pay its cards (`Discard`) → repeatedly: `Origin` (a stack)
//!    or `MusterA`/`MusterB` (then `Select` blocks, `Done`) or `EndPhase`. In a stack: `Select`
//!    blocks for a group → `Step` along roads, `Drop` blocks, `Command` (reveal a leader),
//!    `ForcedMarch` (discard a card) → `Stop`; further groups from the same stack, then
//!    `EndStack`. No-move mode: `Discard` any number, `Done`.
//! 4. Combat phase (8): `Battle` (a contested location) → castle holder: `Siege`/`Field` →
//!    field battle: the side with the initiative plays `Leader` (free), `Card` then `Select`
//!    (and `Select`/`Done` for a double card's second block) or `EndDeploy`; after each card
//!    deployment the opponent: `Challenge`/`NoChallenge`, then `Refute` → casualties: `Select`
//!    (or `Disk` in a siege) → retreat: `Select` blocks into the castle, `Done`, `Retreat`;
//!    into a castle where the retreating side is besieged: `Siege` (join the garrison) or
//!    `Field` (stay outside).
//!
//! Chance (card and block draws, `DrawCard`/`DrawBlock`) comes before any decision.

mod action;
mod aftermath;
mod battle;
mod bot;
mod cards;
mod compact;
mod control;
pub mod data;
mod describe;
mod hidden;
mod movement;
mod named_position;
mod position;
mod render;
mod sizes;
mod state;
mod tensor;
mod texts;
mod view;
mod week;

use std::sync::Arc;

use serde::Serialize;
use serde_json::{json, Map, Value};

pub use action::{Action, Layout};
pub use data::{Data, ISHIDA, NONE, TOKUGAWA};
pub use state::{Battle, Blk, Deploy, EndReason, Group, Mode, Pending, State, BAG, BOX, DEAD, MORI_BOX};

use crate::error::SetupError;
use crate::events::Events;
use crate::game::{ActionId, ChanceBlock, Game, GameInfo, Player, Utility, CHANCE, TERMINAL};
use crate::rng::Rng;

/// The Sekigahara rules for one component data set.
#[derive(Debug, Clone)]
pub struct Sekigahara {
    data: Arc<Data>,
    layout: Layout,
    /// Recruitment locations of each side (a mon of one of its clans is printed there, 7.2).
    recruit_sites: [Vec<u8>; 2],
    /// The divisors that scale the observation tensor's counts into [0, 1].
    tensor_max: tensor::Maxima,
    /// The observation tensor's constant values (tensor.rs).
    tensor_base: Vec<f32>,
}

impl Sekigahara {
    pub fn new(data: Arc<Data>) -> Sekigahara {
        let d = &data;
        let layout =
            Layout::new(d.cards.len() as u32, d.locations.len() as u32, d.roads.len() as u32, d.blocks.len() as u32, d.disks.len() as u32);
        let sites = |side: u8| -> Vec<u8> {
            (0..d.locations.len() as u8)
                .filter(|&l| d.locations[l as usize].recruit.iter().any(|&c| d.clans[c as usize].side == side))
                .collect()
        };
        let recruit_sites = [sites(0), sites(1)];
        let tensor_max = tensor::Maxima::of(d);
        let mut g = Sekigahara { data, layout, recruit_sites, tensor_max, tensor_base: Vec::new() };
        g.tensor_base = tensor::base(&g);
        g
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

    /// The seat that decides in `s` (not meaningful at chance nodes or the end).
    pub fn decider(&self, s: &State) -> u8 {
        match s.pending {
            Pending::ReinforceDiscard { side } | Pending::Bid { side } | Pending::ChooseFirst { side } => side,
            Pending::SiegeChoice { side } | Pending::Casualty { side } => side,
            Pending::Deploy | Pending::DeployBlock { .. } | Pending::DeploySecond { .. } => s.battle.as_ref().map_or(0, |b| b.initiative),
            Pending::Challenge => s.battle.as_ref().map_or(0, |b| 1 - b.deploys[b.last as usize].side),
            Pending::Refute => s.battle.as_ref().map_or(0, |b| b.deploys[b.last as usize].side),
            Pending::RetreatCastle | Pending::Retreat | Pending::JoinGarrison { .. } => s.battle.as_ref().map_or(0, |b| 1 - b.winner),
            _ => s.active(),
        }
    }

    fn legal(&self, s: &State, out: &mut Vec<ActionId>) {
        let start = out.len();
        if self.legal_unsorted(s, out) {
            out[start..].sort_unstable();
        }
    }

    /// Legality without listing, for the frequent decisions (the movement phase's and the
    /// battles'); `None`: ask `legal`. The same predicates as `legal` (the tests compare both on random games).
    fn is_legal_direct(&self, s: &State, a: ActionId) -> Option<bool> {
        if s.pending == Pending::Over || s.due.any() {
            return None;
        }
        match s.pending {
            Pending::Mode
            | Pending::PayMode { .. }
            | Pending::Exchange { .. }
            | Pending::Menu
            | Pending::Group
            | Pending::Muster { .. } => movement::is_legal(self, s, self.decode(a)?),
            Pending::Combat
            | Pending::SiegeChoice { .. }
            | Pending::Deploy
            | Pending::DeployBlock { .. }
            | Pending::DeploySecond { .. }
            | Pending::Challenge
            | Pending::Refute => battle::is_legal(self, s, self.decode(a)?),
            _ => None,
        }
    }

    /// The legal actions in the order the phases list them (what [`Sekigahara::legal`] sorts);
    /// `true` when they may be out of order (the card draws come sorted).
    fn legal_unsorted(&self, s: &State, out: &mut Vec<ActionId>) -> bool {
        if s.pending == Pending::Over {
            return false;
        }
        if s.due.any() {
            cards::legal_draws(self, s, out);
            return false;
        }
        match s.pending {
            Pending::ReinforceDiscard { .. } | Pending::Bid { .. } | Pending::ChooseFirst { .. } => week::legal(self, s, out),
            Pending::Mode
            | Pending::PayMode { .. }
            | Pending::Exchange { .. }
            | Pending::Menu
            | Pending::Group
            | Pending::Muster { .. } => movement::legal(self, s, out),
            Pending::Combat
            | Pending::SiegeChoice { .. }
            | Pending::Deploy
            | Pending::DeployBlock { .. }
            | Pending::DeploySecond { .. } => battle::legal(self, s, out),
            Pending::Challenge | Pending::Refute => battle::legal(self, s, out),
            Pending::Casualty { .. } | Pending::RetreatCastle | Pending::Retreat | Pending::JoinGarrison { .. } => {
                aftermath::legal(self, s, out)
            }
            Pending::Over => {}
        }
        true
    }
}

impl Game for Sekigahara {
    type State = State;
    const ID: &'static str = "sekigahara";

    fn setup(config: &Map<String, Value>) -> Result<Self, SetupError> {
        let mut data = None;
        for (k, v) in config {
            match k.as_str() {
                "data" => data = Some(Arc::new(Data::from_value(v)?)),
                other => return Err(SetupError::UnknownKey(crate::input::cut(other, crate::input::QUOTE_BYTES).into_owned())),
            }
        }
        Ok(Sekigahara::new(data.unwrap_or_else(embedded_data)))
    }

    fn info(&self) -> GameInfo {
        let d = &self.data;
        let blocks = d.blocks.len() as u32;
        let cards: u32 = d.cards.iter().map(|c| c.count as u32).sum();
        // Per movement phase: a mode and its cards, per block a selection, a step per road, a
        // drop, a stop and a command, per location an origin and an end, one muster with its
        // blocks, forced marches and exchanges bounded by the cards. Per combat phase: per
        // location a declaration and a choice, per block a deployment with its challenge,
        // refute, second block, casualty, castle and retreat choices.
        let movement = 4 + 2 * cards + 4 * blocks + d.roads.len() as u32 + 3 * d.locations.len() as u32 + 4;
        let combat = 4 * d.locations.len() as u32 + 8 * blocks + 2 * cards + 8;
        let phases = d.weeks as u32 * 4;
        let week = 2 * cards + 4 + 2 * blocks;
        GameInfo {
            id: Self::ID.into(),
            name: "Sekigahara: The Unification of Japan".into(),
            min_players: 2,
            max_players: 2,
            num_players: 2,
            num_distinct_actions: self.layout.num_actions(),
            max_chance_outcomes: (d.side_cards.iter().map(|v| v.len()).max().unwrap_or(0) as u32).max(blocks),
            observation_shape: vec![tensor::len(self)],
            observation_layout: tensor::layout(self),
            compact_layout: compact::layout(self),
            max_game_length: phases * (movement + combat) + d.weeks as u32 * week + 2 * blocks + 2 * cards,
            rules_version: "sekigahara/3".into(),
            rulebook: "docs/rules/sekigahara.md (the rules as implemented, in English, from Japanese and Korean translations of the GMT 2011 rules)".into(),
            config: json!({}),
            provenance: d.provenance.clone(),
            hidden_information: true,
            buffer_sizes: sizes::BUFFER_SIZES,
            // The winner +1, the loser -1 (every game has a winner).
            utility: Utility::zero_sum(-1.0, 1.0),
            // The card and block draws are the last two blocks of the layout (action.rs).
            chance_outcome_block: ChanceBlock {
                offset: self.layout.first_chance(),
                count: self.layout.num_actions() - self.layout.first_chance(),
            },
        }
    }

    fn num_players(&self) -> usize {
        2
    }

    fn num_distinct_actions(&self) -> u32 {
        self.layout.num_actions()
    }

    fn new_initial_state(&self, seed: u64) -> State {
        week::initial_state(self, Rng::from_seed(seed))
    }

    fn current_player(&self, s: &State) -> Player {
        if s.pending == Pending::Over {
            TERMINAL
        } else if s.due.any() {
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
        if let Some(x) = self.is_legal_direct(s, a) {
            return x;
        }
        // One scratch vector per thread: checking an action allocates nothing; membership
        // needs no sorting.
        thread_local!(static SCRATCH: std::cell::RefCell<Vec<ActionId>> = const { std::cell::RefCell::new(Vec::new()) });
        SCRATCH.with(|v| {
            let mut v = v.borrow_mut();
            v.clear();
            self.legal_unsorted(s, &mut v);
            v.contains(&a)
        })
    }

    fn chance_outcomes(&self, s: &State, out: &mut Vec<(ActionId, f64)>) {
        cards::chance_outcomes(self, s, out)
    }

    fn sample_chance(&self, s: &mut State) -> ActionId {
        cards::sample_chance(self, s)
    }

    fn apply(&self, s: &mut State, a: ActionId, ev: &mut Events) {
        let action = self.decode(a).expect("legal actions decode");
        match action {
            Action::DrawCard(c) => cards::draw_card(self, s, c, ev),
            Action::DrawBlock(b) => cards::draw_block(self, s, b, ev),
            _ => match s.pending {
                Pending::ReinforceDiscard { .. } | Pending::Bid { .. } | Pending::ChooseFirst { .. } => week::apply(self, s, action, ev),
                Pending::Mode
                | Pending::PayMode { .. }
                | Pending::Exchange { .. }
                | Pending::Menu
                | Pending::Group
                | Pending::Muster { .. } => movement::apply(self, s, action, ev),
                Pending::Casualty { .. } | Pending::RetreatCastle | Pending::Retreat | Pending::JoinGarrison { .. } => {
                    aftermath::apply(self, s, action, ev)
                }
                Pending::Over => unreachable!("no action is legal after the end"),
                _ => battle::apply(self, s, action, ev),
            },
        }
        week::settle(self, s, ev);
    }

    fn returns(&self, s: &State) -> Vec<f64> {
        if s.pending != Pending::Over {
            return vec![0.0, 0.0];
        }
        (0..2u8).map(|p| if p == s.winner { 1.0 } else { -1.0 }).collect()
    }

    fn action_to_string(&self, s: &State, a: ActionId) -> String {
        describe::action_string(self, s, a)
    }

    fn action_to_json(&self, s: &State, a: ActionId) -> Value {
        describe::action_json(self, s, a)
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

    fn seat_names(&self) -> Vec<String> {
        data::SIDES.iter().map(|s| s.to_string()).collect()
    }

    fn decision<'a>(&'a self, s: &'a State, _observer: Player) -> impl Serialize + 'a {
        view::pending_json(self, s)
    }

    fn action_is_public(&self, _before: &State, _actor: Player, a: ActionId, _observer: Player) -> bool {
        describe::is_public(self, a)
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

    fn resample_history(&self, history: &[ActionId], observer: Player, rng: &mut Rng) -> Vec<ActionId> {
        hidden::resample_history(self, history, observer, rng)
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

    fn search_decision_cap(&self) -> Option<u64> {
        Some(bot::DECISION_CAP)
    }

    /// Every value in bounds and every invariant of the rules (position.rs).
    fn validate_position(&self, s: &State) -> Result<(), String> {
        self.validate(s)?;
        position::validate_position(self, s)
    }

    /// The other side's face-down blocks and every unseen card dealt anew (position.rs).
    fn sample_position(&self, s: &State, observer: Player, rng: &mut Rng) -> Option<State> {
        Some(position::sample_position(self, s, observer, rng))
    }

    fn position_names(&self) -> Option<crate::named::Conv> {
        Some(self.named_conv())
    }

    fn validate(&self, s: &State) -> Result<(), String> {
        let d = &self.data;
        if s.blocks.len() != d.blocks.len() || s.hand.len() != d.cards.len() || s.resource.len() != d.locations.len() {
            return Err("state does not match the component data".into());
        }
        Ok(())
    }
}

/// The embedded data, parsed once per process.
fn embedded_data() -> Arc<Data> {
    static DATA: std::sync::OnceLock<Arc<Data>> = std::sync::OnceLock::new();
    DATA.get_or_init(|| Arc::new(Data::embedded())).clone()
}

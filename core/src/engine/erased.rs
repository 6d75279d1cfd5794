//! The generic implementations of [`DynGame`] for [`Instance`] and [`DynState`] for [`Bound`].

use std::any::Any;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};

use crate::error::{LoadError, RuleError, SetupError};
use crate::events::{Event, Events};
use crate::game::{ActionId, Game, GameInfo, Player, CHANCE};
use crate::input::Limits;

use super::documents::{PositionHeader, SavedHeader};
use super::{
    Bound, DynGame, DynState, GameHandle, Instance, StableHasher, StateHandle, NAMED_POSITION_FORMAT, POSITION_FORMAT, STATE_FORMAT,
};

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
        Limits::saved(&self.info).check_value(v)?;
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
        Limits::position(&self.info).check_value(v)?;
        let header = PositionHeader::parse(v)?;
        self.check_header(&header.game, &header.rules_version, &header.config, || {
            LoadError::InvalidPosition("the position has another config than this game".into())
        })?;
        let state = if header.named {
            self.named_position_state(&header.position, header.seed)?
        } else {
            self.position_state(&header.position, header.seed)?
        };
        Ok(StateHandle(Box::new(Bound::start(self.arc(), header.seed, Some(Arc::new(state)), 0, &mut Events::off()))))
    }

    fn render_svg(&self, view: &Value) -> Result<String, crate::render::RenderError> {
        self.render_layout(view).map(|l| l.svg)
    }

    fn render_layout(&self, view: &Value) -> Result<crate::render::Layout, crate::render::RenderError> {
        let name = super::REGISTRY.iter().find(|e| e.id == G::ID).map_or(G::ID, |e| e.name);
        crate::render::draw_layout(&self.rules, name, view)
    }

    fn action_target(&self, a: ActionId) -> Option<String> {
        (a < self.info.num_distinct_actions).then(|| self.rules.action_target(a)).flatten()
    }

    fn event_text(&self, body: &crate::events::Body, observer: Player) -> Option<String> {
        self.rules.event_text(body, observer)
    }

    fn rules_primer(&self) -> &'static str {
        self.rules.rules_primer()
    }

    fn search_decision_cap(&self) -> Option<u64> {
        self.rules.search_decision_cap()
    }

    fn name(&self) -> &'static str {
        super::REGISTRY.iter().find(|e| e.id == G::ID).map_or(G::ID, |e| e.name)
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
        carry: Option<&mut Option<Arc<crate::bots::ismcts::Kept>>>,
    ) -> Result<crate::bots::Decision, SetupError> {
        crate::bots::ismcts::search::run(&self.arc(), root, params, control, carry)
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
        self.step_feeding(a)
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

    fn last_action(&self, player: Player) -> Result<Option<crate::view::LastAction>, RuleError> {
        self.check_player(player)?;
        Ok(self.last_seen(player))
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

    fn compact_observation_into(&self, player: Player, out: &mut [u8]) -> Result<(), RuleError> {
        self.check_player(player)?;
        let n = self.game.info.compact_len();
        if out.len() != n {
            return Err(RuleError::BadBuffer { expected: n as u32, got: out.len() as u32 });
        }
        self.game.rules.compact_observation(&self.state, player, out);
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

    fn text_observation(&self, player: Player) -> Result<String, RuleError> {
        self.check_player(player)?;
        let rules = &self.game.rules;
        let last = self.last_seen(player);
        let (view, body) = crate::view::envelope_parts(rules, &self.game.info, &self.state, player, last.as_ref());
        let board = |out: &mut String| {
            if rules.board_text(&self.state, player, out) {
                return;
            }
            let mark = out.len();
            if crate::text::stream::render(out, &body).is_err() {
                out.truncate(mark);
                let tree =
                    crate::text::node::Node::of(&body).unwrap_or_else(|| (&serde_json::to_value(&body).expect("views serialize")).into());
                crate::text::board::render(out, &tree);
            }
        };
        let events: Vec<String> =
            self.decision_events(player, |e| rules.event_text(&e.body, player).unwrap_or_else(|| crate::text::generic_sentence(&e.body)));
        let mut moves = Vec::new();
        if player >= 0 && rules.current_player(&self.state) == player {
            let mut legal = Vec::new();
            rules.legal_actions(&self.state, &mut legal);
            moves = legal.iter().map(|&a| rules.action_to_string(&self.state, a)).collect();
        }
        let parts = crate::text::observation::Parts {
            game_name: DynGame::name(&*self.game),
            observer: player,
            view: &view,
            board: Some(&board),
            events: &events,
            moves: &moves,
        };
        Ok(crate::text::observation::write(&parts))
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

    fn to_named_position(&self) -> Option<Value> {
        let conv = self.game.rules.position_names()?;
        let typed = serde_json::to_value(&self.state).expect("states serialize");
        Some(json!({
            "format": NAMED_POSITION_FORMAT,
            "game": G::ID,
            "rules_version": self.game.info.rules_version,
            "config": self.game.info.config,
            "seed": self.seed,
            "position": crate::named::to_named(&conv, &typed),
        }))
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

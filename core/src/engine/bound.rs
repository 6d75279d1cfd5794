//! A typed state bound to its game ([`Bound`]): its seed, constructed start and action log,
//! each step checked and chance resolved as configured.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::error::RuleError;
use crate::events::Events;
use crate::game::{ActionId, Game, Player, CHANCE, SPECTATOR};
use crate::view::LastAction;

use super::event_log::{Move, SharedLog};
use super::{Instance, StateHandle};

/// A typed state bound to its game, with its seed and action log.
pub struct Bound<G: Game> {
    pub(super) game: Arc<Instance<G>>,
    pub(super) seed: u64,
    /// The constructed position the game started at (docs/positions.md), or `None` for
    /// `new_initial_state(seed)`. `history` holds the actions after it.
    pub(super) start: Option<Arc<G::State>>,
    /// The first `recorded` entries of `history` were applied as recorded, not drawn from
    /// `seed`: the sampled past of a determinization.
    pub(super) recorded: usize,
    pub(super) history: Vec<ActionId>,
    pub(super) state: G::State,
    /// The event history rebuilt so far, shared with clones and extended on demand.
    pub(super) events: OnceLock<SharedLog<G>>,
    /// The information-state keys of this very state, per observer (spectator first), once
    /// asked for; cleared by every step.
    pub(super) info_keys: Mutex<Vec<Option<u64>>>,
    /// The last action applied through the engine, for the view envelope.
    pub(super) last: Option<Applied<G>>,
    /// Set by the first view: from then on each step keeps the state before it, so that the
    /// next view can describe the last action without a replay.
    pub(super) keep_before: AtomicBool,
}

/// How [`Bound::advance`] treats the actions it replays.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Replay {
    /// Each is checked against the rules (a history from outside: a saved game, a caller).
    Checked,
    /// They come from a state's own history, checked when that state applied them.
    Known,
}

/// An action applied through the engine (not a chance outcome the engine resolved itself).
pub(super) struct Applied<G: Game> {
    /// Its index in the history.
    pub(super) index: usize,
    /// The seat that chose it, or [`CHANCE`].
    pub(super) seat: Player,
    pub(super) action: ActionId,
    /// The state it was applied to: kept at the step, or rebuilt by replay when first needed.
    pub(super) before: OnceLock<Arc<G::State>>,
}

impl<G: Game> Clone for Applied<G> {
    fn clone(&self) -> Self {
        Applied { index: self.index, seat: self.seat, action: self.action, before: self.before.clone() }
    }
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
    pub(super) fn start(game: Arc<Instance<G>>, seed: u64, origin: Option<Arc<G::State>>, recorded: usize, ev: &mut Events) -> Self {
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
    pub(super) fn settle(&mut self, ev: &mut Events) {
        if !self.game.explicit_chance {
            self.game.rules.resolve_chance(&mut self.state, &mut self.history, ev);
        }
    }

    pub(super) fn step(&mut self, a: ActionId, ev: &mut Events) -> Result<(), RuleError> {
        self.game.rules.check(&self.state, a)?;
        self.step_known(a, ev);
        Ok(())
    }

    /// [`Bound::step`] for an action known to be legal here: one this state's own history
    /// holds at this point (a replay of it need not check the rules again).
    pub(super) fn step_known(&mut self, a: ActionId, ev: &mut Events) {
        ev.set_step(self.history.len() as u32);
        let applied = self.applying(a);
        self.game.rules.apply(&mut self.state, a, ev);
        self.last = Some(applied);
        self.info_keys.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner()).clear();
        self.history.push(a);
        self.settle(ev);
    }

    /// The record of `a` about to be applied to the current state.
    pub(super) fn applying(&self, a: ActionId) -> Applied<G> {
        let before = OnceLock::new();
        if self.keep_before.load(Ordering::Relaxed) {
            let _ = before.set(Arc::new(self.state.clone()));
        }
        Applied { index: self.history.len(), seat: self.game.rules.current_player(&self.state), action: a, before }
    }

    /// The last applied action as `observer` may see it.
    pub(super) fn last_seen(&self, observer: Player) -> Option<LastAction> {
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
        let text = visible.then(|| rules.action_to_string(before, last.action));
        Some(LastAction { seat: last.seat, id: last.action, text, sentences: self.step_sentences(last.index, observer) })
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
    pub(super) fn replay(
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
    pub(super) fn advance(&mut self, target: &[ActionId], ev: &mut Events, how: Replay) -> Result<(), String> {
        self.advance_watching(target, ev, how, None)
    }

    /// [`Bound::advance`], appending to `moves` every action a seat chooses and every explicit
    /// chance outcome, with who may see it.
    pub(super) fn advance_watching(
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
    pub(super) fn determinize_position(
        &self,
        position: &G::State,
        player: Player,
        rng: &mut crate::rng::Rng,
    ) -> Result<StateHandle, RuleError> {
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

    pub(super) fn check_player(&self, player: Player) -> Result<(), RuleError> {
        let n = self.game.rules.num_players();
        if player == SPECTATOR || (player >= 0 && (player as usize) < n) {
            Ok(())
        } else {
            Err(RuleError::InvalidPlayer { player, num_players: n as u32 })
        }
    }

    pub(super) fn check_range(&self, a: ActionId) -> Result<(), RuleError> {
        let n = self.game.info.num_distinct_actions;
        if a >= n {
            Err(RuleError::ActionOutOfRange { action: a, num_actions: n })
        } else {
            Ok(())
        }
    }
}

/// `s` with its generator (the top-level `rng` field every game's state keeps, see
/// docs/positions.md) replaced by a fresh one seeded `seed`: the future of a determinization.
pub(super) fn reseeded<S: serde::Serialize + serde::de::DeserializeOwned>(s: &S, seed: u64) -> S {
    let mut v = serde_json::to_value(s).expect("states serialize");
    let slot = v.get_mut("rng").expect("a game's state keeps its generator in a top-level \"rng\" field");
    *slot = serde_json::to_value(crate::rng::Rng::from_seed(seed)).expect("generators serialize");
    serde_json::from_value(v).expect("a state reads back its own serde form")
}

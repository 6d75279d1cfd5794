//! The event log a state shares with its clones, rebuilt by replay (or recorded by the step
//! itself after a key was asked, see [`Bound::step_feeding`]), and the information-state keys
//! folded over it: every event and move a seat may know, in the order they happened.

use std::hash::Hasher;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use crate::error::RuleError;
use crate::events::{Event, Events};
use crate::game::{ActionId, Game, Player, CHANCE, SPECTATOR};

use super::bound::Replay;
use super::stable_hash::fold_bytes;
use super::{Bound, StableHasher};

/// One action of the log as the information-state keys see it: a seat's choice, or an
/// explicit chance outcome (the chance outcomes the engine resolves itself are not actions:
/// what a seat learns of them, it learns through events).
#[derive(Clone, Copy, Debug)]
pub(super) struct Move {
    pub(super) step: u32,
    /// The seat that chose it, or [`CHANCE`].
    pub(super) actor: Player,
    pub(super) action: ActionId,
    /// Who may see which action it was: bit `q + 1` for observer `q` (bit 0 the spectator).
    pub(super) seen: u64,
}

impl Move {
    /// What `observer` knows of this move: its own choices and the actions shown to it, and
    /// of the rest only that `actor` chose something (`None`).
    pub(super) fn known_to(&self, observer: Player) -> Option<ActionId> {
        (self.actor == observer && observer >= 0 || self.seen & (1 << (observer + 1)) != 0).then_some(self.action)
    }

    /// The key encoding of the move as `observer` knows it (see [`Event::encode_key`]): a tag
    /// no event encoding starts with, the step, the actor and the action if known.
    pub(super) fn encode_key(&self, observer: Player, out: &mut Vec<u8>) {
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
pub(super) struct Fold {
    pub(super) events: usize,
    pub(super) moves: usize,
    pub(super) hash: u64,
}

/// The event log shared by a state and its clones: empty while it is being extended.
pub(super) type SharedLog<G> = Arc<Mutex<Option<Box<EventLog<G>>>>>;

/// Every event of a game up to `at`, the replay that produced them.
pub(super) struct EventLog<G: Game> {
    pub(super) at: Bound<G>,
    /// Recording: every event up to `at`.
    pub(super) list: Events,
    /// Every action a player chose up to `at` (and every explicit chance outcome), with who
    /// may see which action it was.
    pub(super) moves: Vec<Move>,
    /// Per observer (spectator first): how much of `list` and `moves` is folded into the
    /// information-state hash, and the hash.
    pub(super) folds: Vec<Fold>,
    /// Scratch space for the encoding of the event being folded ([`Event::encode_key`]).
    pub(super) key: Vec<u8>,
    /// Whether the live state recorded the last steps here itself ([`Bound::step_feeding`]):
    /// then `at.history` is up to date but `at.state` is not, and a state further along
    /// rebuilds the log instead of extending it.
    pub(super) fed: bool,
}

impl<G: Game> Bound<G> {
    /// Records `a`, about to be applied at step `i`, if it is an action (see [`Move`]).
    pub(super) fn watch(&self, i: usize, a: ActionId, moves: &mut Vec<Move>) {
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
    pub(super) fn with_events<R>(&self, f: impl FnOnce(&[Event]) -> R) -> R {
        self.with_log(|log| f(log.list.as_slice()))
    }

    /// The hash of `player`'s events and moves (as it knows them) over the whole log of this
    /// state, in the order they happened: a step's move before the events it caused (see
    /// `info_state_hash`).
    pub(super) fn fold_events(&self, player: Player) -> u64 {
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
    pub(super) fn origin_key(&self, observer: Player) -> u64 {
        let empty = StableHasher::default().finish();
        match &self.start {
            None => empty,
            Some(position) => {
                let seen = crate::view::envelope_json(&self.game.rules, &self.game.info, position, observer, None);
                fold_bytes(empty, seen.as_bytes())
            }
        }
    }

    /// The events `player` saw since its last decision (the step of its last move; every
    /// event when it has not moved yet); for the spectator, since the last move of anyone.
    /// Both are known to the observer: every seat knows who moved at which step. Each as
    /// `f` maps it, in the log (no copy of the events).
    pub(super) fn decision_events<R>(&self, player: Player, f: impl FnMut(&Event) -> R) -> Vec<R> {
        self.with_log(|log| {
            let from = log.moves.iter().rev().find(|m| player == SPECTATOR || m.actor == player).map_or(0, |m| m.step);
            let list = log.list.as_slice();
            let start = list.iter().rposition(|e| e.step < from).map_or(0, |i| i + 1);
            list[start..].iter().filter(|e| e.audience.includes(player)).map(f).collect()
        })
    }

    /// The sentences of the events of step `step` that `player` was shown, in order (the
    /// game's [`Game::event_text`], else a generic sentence): the move of that step as the
    /// seat is told it.
    pub(super) fn step_sentences(&self, step: usize, player: Player) -> Vec<String> {
        let rules = &self.game.rules;
        self.with_events(|all| {
            let start = all.partition_point(|e| (e.step as usize) < step);
            all[start..]
                .iter()
                .take_while(|e| e.step as usize == step)
                .filter(|e| e.audience.includes(player))
                .map(|e| rules.event_text(&e.body, player).unwrap_or_else(|| crate::text::generic_sentence(&e.body)))
                .collect()
        })
    }

    /// The moves of this state's log as `player` knows them: `[step, actor, action or null]`.
    pub(super) fn known_moves(&self, player: Player) -> Vec<Value> {
        self.with_log(|log| log.moves.iter().map(|m| json!([m.step, m.actor, m.known_to(player)])).collect())
    }

    /// Runs `f` on the event log of the game so far, extending the shared log first.
    pub(super) fn with_log<R>(&self, f: impl FnOnce(&mut EventLog<G>) -> R) -> R {
        let cell = self.events.get_or_init(Default::default);
        let mut guard = cell.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // Taken out while it is extended: a panic leaves no half-extended log behind.
        let mut log = match guard.take() {
            Some(log)
                if self.same_game_as(&log.at)
                    && self.history.starts_with(&log.at.history)
                    && (!log.fed || log.at.history.len() == self.history.len()) =>
            {
                log
            }
            _ => {
                let mut list = Events::recording();
                let at = Bound::start(self.game.clone(), self.seed, self.start.clone(), self.recorded, &mut list);
                Box::new(EventLog { at, list, moves: Vec::new(), folds: Vec::new(), key: Vec::new(), fed: false })
            }
        };
        let EventLog { at, list, moves, .. } = &mut *log;
        at.advance_watching(&self.history, list, Replay::Known, Some(moves)).expect("a state's own action log always replays");
        let out = f(&mut log);
        *guard = Some(log);
        out
    }
}

impl<G: Game> Bound<G> {
    /// Whether `other` is a state of the same game as this one: the same seed, recording and
    /// start (its history may differ).
    fn same_game_as(&self, other: &Bound<G>) -> bool {
        other.seed == self.seed && other.recorded == self.recorded && same_origin(&other.start, &self.start)
    }

    /// [`Bound::step`] with no events, except that a state keyed here (an information-state
    /// key asked of this very state) that alone holds an event log caught up with it records
    /// the step's events and move into that log as it applies the action: the key after the
    /// step then folds them in without replaying the step a second time. The log and the keys
    /// are exactly those a replay would build (the same `watch`, `step_known` and sink).
    pub(super) fn step_feeding(&mut self, a: ActionId) -> Result<(), RuleError> {
        let shared = match self.events.get() {
            Some(cell)
                if Arc::strong_count(cell) == 1
                    && self.history.len() >= self.recorded
                    && self.info_keys.get_mut().is_ok_and(|keys| keys.iter().any(Option::is_some)) =>
            {
                cell.clone()
            }
            _ => return self.step(a, &mut Events::off()),
        };
        let mut guard = shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // Taken out while it is extended, as in `with_log`: a panic leaves no log behind.
        let mut log = match guard.take() {
            Some(log) if self.same_game_as(&log.at) && log.at.history == self.history => log,
            other => {
                *guard = other;
                drop(guard);
                return self.step(a, &mut Events::off());
            }
        };
        if let Err(e) = self.game.rules.check(&self.state, a) {
            *guard = Some(log);
            return Err(e);
        }
        let i = self.history.len();
        let EventLog { at, list, moves, fed, .. } = &mut *log;
        self.watch(i, a, moves);
        self.step_known(a, list);
        at.history.extend_from_slice(&self.history[i..]);
        *fed = true;
        *guard = Some(log);
        Ok(())
    }
}

/// Whether two states started at the same place (the same position, or both at the seed).
pub(super) fn same_origin<S: PartialEq>(a: &Option<Arc<S>>, b: &Option<Arc<S>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => Arc::ptr_eq(x, y) || x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Map};

    use super::*;
    use crate::engine::{DynState, Instance};
    use crate::games::{samurai::Samurai, sekigahara::Sekigahara, sekigahara_daisakusen::Daisakusen, three_kingdoms_redux::Tkr};
    use crate::rng::Rng;

    fn keys<G: Game>(b: &Bound<G>) -> Vec<u64> {
        (SPECTATOR..b.game.rules.num_players() as Player).map(|p| b.info_state_hash(p).unwrap()).collect()
    }

    fn log_history<G: Game>(b: &Bound<G>) -> Vec<ActionId> {
        let log = b.events.get().expect("a keyed state has a log").lock().unwrap();
        log.as_ref().expect("the log is in place").at.history.clone()
    }

    /// Along random games keyed at every step, each step records itself into the state's own
    /// log (no replay is left for the key), a step of a clone that shares the log does not,
    /// and every key equals the key of the same history replayed from scratch.
    fn keyed_steps_feed_the_log<G: Game>(explicit_chance: bool) {
        let game = Instance::new_shared(G::setup(&Map::new()).unwrap(), explicit_chance, json!({}));
        let mut rng = Rng::from_seed(11);
        for seed in 0..3 {
            let mut b = game.initial_bound(seed);
            let mut legal = Vec::new();
            let mut steps = 0;
            while !b.is_terminal() && steps < 300 {
                let before = keys(&b);
                legal.clear();
                b.legal_actions_into(&mut legal);
                let a = legal[rng.below(legal.len() as u32) as usize];
                if steps % 7 == 3 {
                    let mut twin = b.clone();
                    twin.apply_in_place(a).unwrap();
                    assert_eq!(log_history(&b), b.history, "{}: a clone's step fed the shared log", G::ID);
                    let replayed = Bound::replay(game.clone(), seed, None, 0, &twin.history, &mut Events::off()).unwrap();
                    assert_eq!(keys(&twin), keys(&replayed), "{}: keys of a clone after its step", G::ID);
                }
                let illegal = (0..game.info.num_distinct_actions).find(|x| !legal.contains(x));
                if let Some(x) = illegal {
                    assert!(b.apply_in_place(x).is_err());
                    assert_eq!(keys(&b), before, "{}: a rejected action changed the keys", G::ID);
                }
                b.apply_in_place(a).unwrap();
                if steps % 7 != 3 {
                    // (A clone's key above took the log over.)
                    assert_eq!(log_history(&b), b.history, "{}: a keyed step did not feed its log", G::ID);
                }
                let replayed = Bound::replay(game.clone(), seed, None, 0, &b.history, &mut Events::off()).unwrap();
                assert_eq!(keys(&b), keys(&replayed), "{}: keys after step {steps}", G::ID);
                steps += 1;
            }
        }
    }

    #[test]
    fn keyed_steps_feed_the_log_with_the_keys_of_a_replay() {
        for explicit in [false, true] {
            keyed_steps_feed_the_log::<Samurai>(explicit);
            keyed_steps_feed_the_log::<Sekigahara>(explicit);
            keyed_steps_feed_the_log::<Tkr>(explicit);
            keyed_steps_feed_the_log::<Daisakusen>(explicit);
        }
    }
}

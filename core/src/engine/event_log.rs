//! The event log a state shares with its clones, rebuilt by replay, and the information-state
//! keys folded over it: every event and move a seat may know, in the order they happened.

use std::hash::Hasher;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

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
}

/// Whether two states started at the same place (the same position, or both at the seed).
pub(super) fn same_origin<S: PartialEq>(a: &Option<Arc<S>>, b: &Option<Arc<S>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => Arc::ptr_eq(x, y) || x == y,
        _ => false,
    }
}

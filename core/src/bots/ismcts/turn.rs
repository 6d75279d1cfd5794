//! Budgets per whole turn: what a person waiting for a bot judges it by.
//!
//! A *turn* of a seat is the run of its decisions until another seat is to act. Chance nodes
//! inside it (dice, draws) and the seat's own forced moves do not end it; a decision whose
//! state does not continue the game of the last one (another game, an undo) starts a new turn.
//!
//! The budget of a turn (iterations, and a time limit) is shared among its decisions by a fixed
//! rule, so that for a seed and an iteration budget every decision is the same on every run:
//!
//! - a decision with a single legal action takes nothing (no search);
//! - the seat expects a turn to be `m` decisions: the mean length of its finished turns so far
//!   (before the first one ends, [`FIRST_GUESS`]);
//! - the turn's iterations are the budget's, or its iterations per decision times `m` when that
//!   is more: a turn of many decisions does not spread one turn's worth thin over all of them
//!   (the time limit still bounds the turn);
//! - the seat expects `e` more decisions in this turn: `m` less the decisions already searched
//!   in this one, at least 1;
//! - a decision gets `2 / (e + 1)` of what is left (all of it when `e` is 1, half when 3: the
//!   first decisions of a turn, which set up the later ones, get more), at least
//!   `1 / FLOOR_SHARE` of the whole turn's budget, so that the last decisions of a turn longer
//!   than expected still search;
//! - a decision searches no more than its game's cap, where the game has one
//!   ([`crate::game::Game::search_decision_cap`]: Sekigahara, whose search loses strength past
//!   it); the rest stays with the turn, and the turn ends sooner;
//! - the search of a decision stops as soon as its chosen action cannot change
//!   ([`super::SearchParams::early_stop`]: the most visited action leads the second by more
//!   than the iterations left), and what it did not spend stays with the turn.
//!
//! A turn therefore spends at most its budget plus `1 / FLOOR_SHARE` of it per decision past
//! the expected ones.

use std::time::Duration;

use crate::engine::StateHandle;
use crate::game::Player;

use super::Decision;

/// The decisions a seat expects in a turn before it has finished one.
pub const FIRST_GUESS: u64 = 4;
/// A decision gets at least this fraction (1 / FLOOR_SHARE) of its turn's budget.
pub const FLOOR_SHARE: u64 = 128;

/// The budget of one whole turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnBudget {
    /// Iterations per turn.
    pub iterations: u64,
    /// Iterations per expected decision (0: none): a turn gets at least this many times the
    /// decisions the seat expects in it (the mean length of its turns so far), so that a game
    /// whose turns are many decisions searches each of them as deeply as one of few.
    pub per_decision: u64,
    /// Wall time per turn (`None`: only the iterations; the decisions are then the same on every
    /// machine).
    pub time: Option<Duration>,
}

impl TurnBudget {
    /// `n` iterations per turn and nothing else (no per-decision floor, no time limit): the
    /// decisions are the same on every machine.
    pub fn of_iterations(n: u64) -> TurnBudget {
        TurnBudget { iterations: n, per_decision: 0, time: None }
    }
}

/// The bookkeeping of a seat's turns: what its current turn has spent, and how long its turns
/// have been.
#[derive(Clone, Debug)]
pub struct TurnClock {
    budget: TurnBudget,
    /// The state after the seat's last decision (its chosen action applied), to tell whether
    /// the next decision is of the same turn.
    last: Option<StateHandle>,
    seat: Player,
    /// Decisions searched in the current turn.
    searched: u64,
    spent_iterations: u64,
    spent_time: Duration,
    /// Finished turns and their searched decisions, the prior guess counted as one turn.
    turns: u64,
    turn_decisions: u64,
}

impl TurnClock {
    pub fn new(budget: TurnBudget) -> TurnClock {
        TurnClock {
            budget,
            last: None,
            seat: -1,
            searched: 0,
            spent_iterations: 0,
            spent_time: Duration::ZERO,
            turns: 1,
            turn_decisions: FIRST_GUESS,
        }
    }

    pub fn budget(&self) -> TurnBudget {
        self.budget
    }

    /// Whether `state` (a decision of `seat`) continues the turn of the last decision: its
    /// history extends that decision's, and no other seat was to act in between (chance may
    /// have been).
    fn continues(&self, state: &StateHandle, seat: Player) -> bool {
        let Some(last) = &self.last else { return false };
        if seat != self.seat {
            return false;
        }
        let (before, now) = (last.history(), state.history());
        if now.len() < before.len() || now[..before.len()] != *before {
            return false;
        }
        let mut s = last.clone();
        for &a in &now[before.len()..] {
            let p = s.current_player();
            if p >= 0 && p != seat {
                return false;
            }
            if s.apply_in_place(a).is_err() {
                return false;
            }
        }
        true
    }

    /// The iterations and time of the decision of the seat to act in `state` (starting a new
    /// turn when it does not continue the last one).
    pub fn share(&mut self, state: &StateHandle) -> (u64, Option<Duration>) {
        let seat = state.current_player();
        if !self.continues(state, seat) {
            if self.searched > 0 {
                self.turns += 1;
                self.turn_decisions += self.searched;
            }
            self.seat = seat;
            self.searched = 0;
            self.spent_iterations = 0;
            self.spent_time = Duration::ZERO;
        }
        let mean = self.turn_decisions.div_ceil(self.turns);
        let expected = mean.saturating_sub(self.searched).max(1);
        let part = |total: u64, spent: u64| -> u64 {
            let left = total.saturating_sub(spent);
            let share = (left as u128 * 2 / (expected as u128 + 1)) as u64;
            share.max(total / FLOOR_SHARE).max(1)
        };
        let turn_iterations = self.budget.iterations.max(self.budget.per_decision.saturating_mul(mean));
        let iterations = part(turn_iterations, self.spent_iterations);
        let time = self.budget.time.map(|t| {
            let ns = part(t.as_nanos().min(u64::MAX as u128) as u64, self.spent_time.as_nanos().min(u64::MAX as u128) as u64);
            Duration::from_nanos(ns.max(1_000_000))
        });
        (iterations, time)
    }

    /// Records the decision `d` taken at `state` (after [`TurnClock::share`] for it) in
    /// `elapsed`, the whole time of the decision (its search, and the checks and replays
    /// around it).
    pub fn record(&mut self, state: &StateHandle, d: &Decision, elapsed: Duration) {
        if d.iterations > 0 {
            self.searched += 1;
        }
        self.spent_iterations += d.iterations;
        self.spent_time += elapsed;
        self.seat = state.current_player();
        self.last = state.child(d.action).ok();
    }

    /// Decisions searched in the current turn, and the iterations they spent.
    pub fn current(&self) -> (u64, u64) {
        (self.searched, self.spent_iterations)
    }
}

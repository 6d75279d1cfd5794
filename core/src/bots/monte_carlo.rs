//! Flat Monte Carlo search with determinization (a "perfect information Monte Carlo" bot).
//!
//! One decision:
//! 1. the candidates are the legal actions, or `max_actions` of them drawn at random when
//!    there are more;
//! 2. in each round a fresh determinization of the state for the acting seat is drawn
//!    (its hidden knowledge kept, the rest redrawn), and every candidate is applied to it and
//!    played out to the end with uniformly random moves (common random numbers: the
//!    candidates of a round are compared on the same deal);
//! 3. rounds continue until `playouts` are used up, or until the time limit if one is set
//!    (at least one whole round: every candidate is played out once; after it the time is read
//!    before every playout);
//! 4. the candidate with the best mean return for the acting seat wins (ties: the lowest id).

use super::{random_action, sample_chance, Bot};
use crate::engine::StateHandle;
use crate::game::{ActionId, CHANCE, TERMINAL};
use crate::rng::Rng;

/// Default playouts per decision.
pub const DEFAULT_PLAYOUTS: u32 = 128;
/// Default number of candidate actions examined when there are more legal actions.
pub const DEFAULT_MAX_ACTIONS: u32 = 16;

/// Flat Monte Carlo with determinization; see the module documentation.
#[derive(Clone, Debug)]
pub struct MonteCarloBot {
    rng: Rng,
    playouts: u32,
    max_actions: u32,
    time: Option<std::time::Duration>,
    legal: Vec<ActionId>,
    scratch: Vec<ActionId>,
}

impl MonteCarloBot {
    /// A bot with `DEFAULT_PLAYOUTS` (128) playouts and `DEFAULT_MAX_ACTIONS` (16) candidates.
    pub fn new(seed: u64) -> Self {
        MonteCarloBot {
            rng: Rng::from_seed(seed),
            playouts: DEFAULT_PLAYOUTS,
            max_actions: DEFAULT_MAX_ACTIONS,
            time: None,
            legal: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Total playouts per decision (the search budget), at least 1.
    pub fn with_playouts(mut self, playouts: u32) -> Self {
        self.playouts = playouts.max(1);
        self
    }

    /// Candidates examined per decision when there are more legal actions, at least 1.
    pub fn with_max_actions(mut self, max_actions: u32) -> Self {
        self.max_actions = max_actions.max(1);
        self
    }

    /// Plays rounds until `time` has passed (at least one round) instead of counting
    /// playouts: for comparisons at equal time per move. The choice then depends on the
    /// machine's speed.
    pub fn with_time(mut self, time: std::time::Duration) -> Self {
        self.time = Some(time);
        self
    }

    pub fn playouts(&self) -> u32 {
        self.playouts
    }

    pub fn max_actions(&self) -> u32 {
        self.max_actions
    }

    /// The candidates: all legal actions, or `max_actions` of them drawn without replacement,
    /// ascending.
    fn candidates(&mut self) -> Vec<ActionId> {
        let k = self.max_actions as usize;
        let mut c = self.legal.clone();
        if c.len() > k {
            // Partial Fisher-Yates: the first k are a uniform sample.
            for i in 0..k {
                let j = i + self.rng.below((c.len() - i) as u32) as usize;
                c.swap(i, j);
            }
            c.truncate(k);
            c.sort_unstable();
        }
        c
    }

    /// Plays `s` to the end with uniformly random moves; returns the final state's returns.
    fn playout(&mut self, mut s: StateHandle, max_steps: usize) -> Vec<f64> {
        for _ in 0..max_steps {
            let a = match s.current_player() {
                TERMINAL => break,
                CHANCE => sample_chance(&s, &mut self.rng),
                _ => random_action(&s, &mut self.rng, &mut self.scratch),
            };
            s.apply_in_place(a).expect("a legal action applies");
        }
        s.returns()
    }
}

impl Bot for MonteCarloBot {
    fn name(&self) -> String {
        match self.time {
            Some(t) => format!("monte-carlo@{}ms", t.as_millis()),
            None => format!("monte-carlo-{}", self.playouts),
        }
    }

    fn try_choose(&mut self, state: &StateHandle) -> Result<ActionId, crate::error::Error> {
        if state.is_terminal() {
            return Err(crate::error::RuleError::GameOver.into());
        }
        if state.current_player() >= 0 {
            state.check_determinize(state.current_player())?;
        }
        Ok(self.choose(state))
    }

    fn choose(&mut self, state: &StateHandle) -> ActionId {
        let seat = state.current_player();
        if seat < 0 {
            // A chance node or the end: nothing to search.
            return random_action(state, &mut self.rng, &mut self.legal);
        }
        self.legal.clear();
        state.legal_actions_into(&mut self.legal);
        assert!(!self.legal.is_empty(), "a player to act has legal actions");
        if self.legal.len() == 1 {
            return self.legal[0];
        }
        let candidates = self.candidates();
        let max_steps = state.game().info().max_game_length as usize;
        let rounds = (self.playouts as usize / candidates.len()).max(1);
        let mut total = vec![0.0f64; candidates.len()];
        let mut count = vec![0u32; candidates.len()];
        let start = std::time::Instant::now();
        for round in 0.. {
            let more = match self.time {
                Some(t) => round == 0 || start.elapsed() < t,
                None => round < rounds,
            };
            if !more {
                break;
            }
            let world = state.determinize(seat, self.rng.next_u64()).unwrap_or_else(|e| panic!("the bot cannot choose here: {e}"));
            for (i, &a) in candidates.iter().enumerate() {
                // With a time limit, a round after the first ends when the time is up.
                if round > 0 && self.time.is_some_and(|t| start.elapsed() >= t) {
                    break;
                }
                // The seat's legal actions depend only on what it knows, so they apply in
                // every determinization; skip defensively if a game disagrees.
                let Ok(child) = world.child(a) else { continue };
                let r = self.playout(child, max_steps);
                total[i] += r[seat as usize];
                count[i] += 1;
            }
        }
        let mut best = (f64::NEG_INFINITY, candidates[0]);
        for (i, &a) in candidates.iter().enumerate() {
            if count[i] > 0 {
                let mean = total[i] / count[i] as f64;
                if mean > best.0 {
                    best = (mean, a);
                }
            }
        }
        best.1
    }
}

//! Built-in bots that play any registered game through the erased interface.
//!
//! - [`RandomBot`]: a uniformly random legal action.
//! - [`MonteCarloBot`]: flat Monte Carlo with determinization. For each candidate action it
//!   plays random games from a determinized child (the acting seat's hidden knowledge is kept,
//!   everything else it cannot see is redrawn) and picks the best mean return for that seat.
//! - [`IsmctsBot`]: information-set Monte Carlo tree search ([`ismcts`]) with the game's own
//!   playout knowledge, at named [`Level`]s or explicit budgets; [`Search`] runs one in the
//!   background for a user interface.
//!
//! [`from_spec`] builds any of them from a short text (`"random"`, `"monte_carlo:128"`,
//! `"ismcts:hard"`), the form the C ABI, Python, the play page and the arena use.
//!
//! All are deterministic given their seed (a search with a time limit: given the iterations
//! it managed), and all use only what the acting seat may know:
//! whose turn it is, its own legal actions, and determinizations made with
//! [`crate::DynState::determinize`] for that seat. Neither reads the hidden parts of the real
//! state.

pub mod ismcts;
mod monte_carlo;
pub(crate) mod policy;
mod random;
pub(crate) mod rollout;
mod spec;

#[cfg(test)]
mod search_limits_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod turn_tests;

pub use ismcts::{analyze, Decision, IsmctsBot, Level, Search, SearchParams, DEFAULT_MAX_NODES, MAX_ITERATIONS, MAX_NODES, MAX_TIME_MS};
pub use monte_carlo::MonteCarloBot;
pub use random::RandomBot;
pub use spec::{from_spec, specs, BotSpec};

use crate::engine::StateHandle;
use crate::game::{ActionId, CHANCE, TERMINAL};
use crate::rng::Rng;

/// A player: picks an action for whoever is to act in `state`.
pub trait Bot {
    /// A short name for logs, e.g. `"random"` or `"mc-128"`.
    fn name(&self) -> String;

    /// An action for the player to act in `state`: one of `state.legal_actions()`. At a chance
    /// node (only with `"explicit_chance": true`) an outcome drawn by its probability.
    ///
    /// # Panics
    /// If the game is over (there is nothing to choose).
    fn choose(&mut self, state: &StateHandle) -> ActionId;

    /// [`Bot::choose`] as a value: `GameOver` for a finished game, and for a search bot
    /// `PositionNotSupported` when `state` started at a constructed position it cannot
    /// determinize ([`StateHandle::check_determinize`]); `ThreadsUnavailable` or `OutOfMemory`
    /// when a search cannot have its threads or its memory. What the C and Python boundaries
    /// call.
    fn try_choose(&mut self, state: &StateHandle) -> Result<ActionId, crate::error::Error> {
        if state.is_terminal() {
            return Err(crate::error::RuleError::GameOver.into());
        }
        Ok(self.choose(state))
    }

    /// The statistics of the last decision of a search bot (for "the AI's view"); `None` for
    /// bots that do not search a tree.
    fn last_decision(&self) -> Option<&Decision> {
        None
    }

    /// For a search bot, the parameters of its search for the next decision at `state` (its
    /// next seed and, with a budget per turn, the decision's share of the turn), for a caller
    /// that runs the search itself ([`Search`] in the background) and then hands the decision
    /// to [`Bot::record_search`]; `None` for a bot that does not search (call
    /// [`Bot::try_choose`]).
    fn next_search(&mut self, _state: &StateHandle) -> Option<SearchParams> {
        None
    }

    /// Starts the search `params` (from [`Bot::next_search`], perhaps with another seed) at
    /// `state` in the background: a bot that reuses its tree within a turn
    /// ([`IsmctsBot::reusing_tree`]) goes on from what it kept, and takes the search's tree back
    /// at [`Bot::record_search`]. The default starts a fresh [`Search`].
    fn start_search(&mut self, state: &StateHandle, params: SearchParams) -> Result<Search, crate::error::Error> {
        Search::start(state, params)
    }

    /// Records the decision `d` of a search run with [`Bot::next_search`] at `state`, which
    /// took `elapsed` in all (a turn's bookkeeping: what it spent).
    fn record_search(&mut self, _state: &StateHandle, _d: &Decision, _elapsed: std::time::Duration) {}
}

/// Draws a chance outcome by its probability, using `rng`.
pub(crate) fn sample_chance(state: &StateHandle, rng: &mut Rng) -> ActionId {
    let outcomes = state.chance_outcomes();
    let x = rng.unit_f64();
    let mut acc = 0.0;
    for &(a, p) in &outcomes {
        acc += p;
        if x < acc {
            return a;
        }
    }
    outcomes.last().expect("a chance node has outcomes").0
}

/// A uniformly random legal action (chance nodes by probability). `legal` is scratch space.
pub(crate) fn random_action(state: &StateHandle, rng: &mut Rng, legal: &mut Vec<ActionId>) -> ActionId {
    match state.current_player() {
        TERMINAL => panic!("a bot was asked to choose in a finished game"),
        CHANCE => sample_chance(state, rng),
        _ => {
            legal.clear();
            state.legal_actions_into(legal);
            assert!(!legal.is_empty(), "a player to act has legal actions");
            legal[rng.below(legal.len() as u32) as usize]
        }
    }
}

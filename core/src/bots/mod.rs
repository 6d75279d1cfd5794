//! Built-in bots that play any registered game through the erased interface.
//!
//! - [`RandomBot`]: a uniformly random legal action.
//! - [`MonteCarloBot`]: flat Monte Carlo with determinization. For each candidate action it
//!   plays random games from a determinized child (the acting seat's hidden knowledge is kept,
//!   everything else it cannot see is redrawn) and picks the best mean return for that seat.
//!
//! Both are deterministic given their seed, and both use only what the acting seat may know:
//! whose turn it is, its own legal actions, and determinizations made with
//! [`crate::DynState::determinize`] for that seat. Neither reads the hidden parts of the real
//! state.

mod monte_carlo;
mod random;
pub(crate) mod rollout;

#[cfg(test)]
mod tests;

pub use monte_carlo::MonteCarloBot;
pub use random::RandomBot;

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

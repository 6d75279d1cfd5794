//! The uniformly random bot.

use super::{random_action, Bot};
use crate::engine::StateHandle;
use crate::game::ActionId;
use crate::rng::Rng;

/// Picks a uniformly random legal action (chance outcomes by their probability).
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: Rng,
    legal: Vec<ActionId>,
}

impl RandomBot {
    pub fn new(seed: u64) -> Self {
        RandomBot { rng: Rng::from_seed(seed), legal: Vec::new() }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, state: &StateHandle) -> ActionId {
        random_action(state, &mut self.rng, &mut self.legal)
    }
}

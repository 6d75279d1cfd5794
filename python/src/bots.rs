//! The built-in bots (`RandomBot`, `MonteCarloBot`) for Python.

use std::sync::Mutex;

use kassen_core::bots::{Bot, MonteCarloBot as CoreMc, RandomBot as CoreRandom};
use kassen_core::{ErrorCode, RuleError};
use pyo3::prelude::*;

use crate::convert::Seed;
use crate::errors::{guard, Error, Result};
use crate::state::State;

fn choose(bot: &Mutex<Box<dyn Bot + Send>>, py: Python<'_>, state: &State) -> Result<u32> {
    state.with_detached(py, |s| {
        guard(|| {
            if s.is_terminal() {
                return Err(RuleError::GameOver.into());
            }
            let mut b = bot.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            Ok(b.choose(s))
        })
    })
}

/// A uniformly random legal action (chance outcomes by probability), deterministic given `seed`.
#[pyclass(module = "kassen._kassen", name = "RandomBot", frozen)]
pub struct RandomBot {
    inner: Mutex<Box<dyn Bot + Send>>,
}

#[pymethods]
impl RandomBot {
    #[new]
    #[pyo3(signature = (seed=Seed(0)), text_signature = "(seed=0)")]
    fn new(seed: Seed) -> Self {
        RandomBot { inner: Mutex::new(Box::new(CoreRandom::new(seed.0))) }
    }

    /// The bot's action for the player to act in `state` (the state is not changed).
    fn choose(&self, py: Python<'_>, state: PyRef<'_, State>) -> Result<u32> {
        choose(&self.inner, py, &state)
    }
}

/// Flat Monte Carlo over determinizations for the acting seat, deterministic given `seed`.
#[pyclass(module = "kassen._kassen", name = "MonteCarloBot", frozen)]
pub struct MonteCarloBot {
    inner: Mutex<Box<dyn Bot + Send>>,
}

#[pymethods]
impl MonteCarloBot {
    #[new]
    #[pyo3(signature = (seed=Seed(0), playouts=64), text_signature = "(seed=0, playouts=64)")]
    fn new(seed: Seed, playouts: u32) -> Result<Self> {
        if playouts == 0 {
            return Err(Error::new(ErrorCode::InvalidArgument, "playouts must be at least 1"));
        }
        Ok(MonteCarloBot { inner: Mutex::new(Box::new(CoreMc::new(seed.0).with_playouts(playouts))) })
    }

    /// The bot's action for the player to act in `state` (GIL released; the state is not changed).
    fn choose(&self, py: Python<'_>, state: PyRef<'_, State>) -> Result<u32> {
        choose(&self.inner, py, &state)
    }
}

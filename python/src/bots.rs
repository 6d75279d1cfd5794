//! The built-in bots (`RandomBot`, `MonteCarloBot`, any bot by name as `Bot`) and the IS-MCTS
//! search (`analyze`, the background `Search`) for Python.

use std::sync::{Arc, Mutex};

use kassen_core::bots::{from_spec, specs, Bot, MonteCarloBot as CoreMc, RandomBot as CoreRandom, Search, SearchParams};
use kassen_core::ErrorCode;
use pyo3::prelude::*;

use crate::convert::{py_to_value, value_to_py, Seed};
use crate::errors::{guard, Error, Result};
use crate::state::State;

fn choose(bot: &Mutex<Box<dyn Bot + Send>>, py: Python<'_>, state: &State) -> Result<u32> {
    state.with_detached(py, |s| {
        guard(|| {
            let mut b = bot.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            Ok(b.try_choose(s)?)
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

fn decision_to_py<'py>(py: Python<'py>, d: Option<&kassen_core::bots::Decision>) -> Result<Bound<'py, PyAny>> {
    let v = serde_json::to_value(d).map_err(|e| Error::new(ErrorCode::Panic, e.to_string()))?;
    Ok(value_to_py(py, &v)?)
}

/// Any built-in bot by name (`spec`, as listed by `bot_specs()`): `"random"`,
/// `"monte_carlo"`, `"monte_carlo:P"`, `"ismcts:easy"`, `"ismcts:normal"`, `"ismcts:hard"`,
/// `"ismcts:N"` (N iterations, deterministic), each search bot optionally with `"@<T>ms"`
/// (T milliseconds per decision). Deterministic given `seed` (a search with a time limit:
/// given the iterations it managed).
#[pyclass(module = "kassen._kassen", name = "Bot", frozen)]
pub struct SpecBot {
    inner: Mutex<Box<dyn Bot + Send>>,
    spec: String,
}

#[pymethods]
impl SpecBot {
    #[new]
    #[pyo3(signature = (spec, seed=Seed(0)), text_signature = "(spec, seed=0)")]
    fn new(spec: &str, seed: Seed) -> Result<Self> {
        let bot = guard(|| Ok(from_spec(spec, seed.0)?))?;
        Ok(SpecBot { inner: Mutex::new(bot), spec: spec.to_string() })
    }

    /// The spec the bot was made from.
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }

    /// A short name for logs (`"ismcts-hard"`, `"monte-carlo-128"`).
    #[getter]
    fn name(&self) -> String {
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner).name()
    }

    /// The bot's action for the player to act in `state` (GIL released while it searches; the
    /// state is not changed).
    fn choose(&self, py: Python<'_>, state: PyRef<'_, State>) -> Result<u32> {
        choose(&self.inner, py, &state)
    }

    /// The statistics of the last decision of a search bot as a dict (`seat`, `action`,
    /// `iterations`, `elapsed_ms`, `candidates`: `[{action, visits, value}]`), or None.
    fn last_decision<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
        let bot = self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        decision_to_py(py, bot.last_decision())
    }

    fn __repr__(&self) -> String {
        format!("kassen.Bot({:?})", self.spec)
    }
}

/// The built-in bots a frontend may offer, weakest first: dicts `{spec, name, description}`.
#[pyfunction]
pub fn bot_specs<'py>(py: Python<'py>) -> Result<Bound<'py, PyAny>> {
    let v = serde_json::to_value(specs()).map_err(|e| Error::new(ErrorCode::Panic, e.to_string()))?;
    Ok(value_to_py(py, &v)?)
}

/// Search parameters from a dict (see `SearchParams::from_json`).
fn params_from(params: Option<&Bound<'_, PyAny>>, seed: u64) -> Result<SearchParams> {
    let v = match params {
        None => serde_json::Value::Null,
        Some(p) => py_to_value(p, ErrorCode::InvalidConfig)?,
    };
    Ok(SearchParams::from_json(&v, seed)?)
}

/// Searches the player to act in `state` with IS-MCTS and returns the decision as a dict
/// (blocking; the GIL is released). `params`: `{"level": "easy"|"normal"|"hard",
/// "iterations", "time_ms", "threads", "determinizations", "exploration"}` (default: normal).
#[pyfunction]
#[pyo3(signature = (state, params=None, seed=Seed(0)), text_signature = "(state, params=None, seed=0)")]
pub fn analyze<'py>(py: Python<'py>, state: PyRef<'_, State>, params: Option<&Bound<'py, PyAny>>, seed: Seed) -> Result<Bound<'py, PyAny>> {
    let params = params_from(params, seed.0)?;
    let d = state.with_detached(py, |s| guard(|| Ok(kassen_core::bots::analyze(s, &params)?)))?;
    decision_to_py(py, Some(&d))
}

/// An IS-MCTS search running on worker threads (`Search(state, params=None, seed=0)` starts
/// it and returns at once; it searches its own copy of the state). Poll `progress()`, end it
/// early with `stop()`, take the decision with `result()`. Dropping it stops it.
#[pyclass(module = "kassen._kassen", name = "Search", frozen)]
pub struct PySearch {
    inner: Mutex<Search>,
    stop: Arc<dyn Fn() + Send + Sync>,
}

#[pymethods]
impl PySearch {
    #[new]
    #[pyo3(signature = (state, params=None, seed=Seed(0)), text_signature = "(state, params=None, seed=0)")]
    fn new(py: Python<'_>, state: PyRef<'_, State>, params: Option<&Bound<'_, PyAny>>, seed: Seed) -> Result<Self> {
        let params = params_from(params, seed.0)?;
        let search = state.with_detached(py, |s| guard(|| Ok(Search::start(s, params)?)))?;
        let stop = search.stopper();
        Ok(PySearch { inner: Mutex::new(search), stop })
    }

    /// `{"iterations", "best" (action or None), "done", "elapsed_ms"}`; never blocks.
    fn progress<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
        let p = match self.inner.try_lock() {
            Ok(s) => s.progress(),
            // Another thread is waiting for the result: the search is about to end.
            Err(_) => return Err(Error::new(ErrorCode::InvalidArgument, "the search is being waited for")),
        };
        let v = serde_json::to_value(p).map_err(|e| Error::new(ErrorCode::Panic, e.to_string()))?;
        Ok(value_to_py(py, &v)?)
    }

    /// Whether the search has ended.
    #[getter]
    fn done(&self) -> bool {
        self.inner.try_lock().is_ok_and(|s| s.is_done())
    }

    /// Asks the search to end after its current iteration; never blocks.
    fn stop(&self) {
        (self.stop)();
    }

    /// Waits for the end (GIL released) and returns the decision as a dict.
    fn result<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
        let d = py.detach(|| guard(|| Ok(self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner).wait()?)))?;
        decision_to_py(py, Some(&d))
    }

    /// Stops the search and returns its decision so far (GIL released while it winds down).
    fn finish<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
        (self.stop)();
        self.result(py)
    }
}

//! The built-in bots (`RandomBot`, `MonteCarloBot`, any bot by name as `Bot`) and the IS-MCTS
//! search (`analyze`, the background `Search`) for Python.

use std::sync::Mutex;

use kassen_core::bots::{from_spec, specs, Bot, MonteCarloBot as CoreMc, RandomBot as CoreRandom, Search, SearchParams};
use kassen_core::ErrorCode;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};
use serde_json::{Map, Value};

use crate::convert::{value_to_py, Seed};
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
    /// A spec that is not a `str` (`Bot(None)`) is an `ArgumentTypeError` (code 5); an
    /// unknown spec `InvalidConfigError` (101), a budget above its cap
    /// `ConfigOutOfRangeError` (102).
    #[new]
    #[pyo3(signature = (spec, seed=Seed(0)), text_signature = "(spec, seed=0)")]
    fn new(spec: &Bound<'_, PyAny>, seed: Seed) -> Result<Self> {
        let spec = spec
            .cast::<PyString>()
            .map_err(|_| Error::wrong_type(format!("a bot spec is a str, not {}", type_name(spec))))?
            .to_cow()
            .map_err(|_| Error::new(ErrorCode::InvalidConfig, "the bot spec is not valid unicode"))?;
        let bot = guard(|| Ok(from_spec(&spec, seed.0)?))?;
        Ok(SpecBot { inner: Mutex::new(bot), spec: spec.into_owned() })
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
    /// `iterations`, `elapsed_ms`, `candidates`: `[{action, visits, value, line, reason}]`, a
    /// bot's own decisions without line and reason), or None.
    fn last_decision<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
        let bot = self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        decision_to_py(py, bot.last_decision())
    }

    /// For a search bot: starts its search for the next decision at `state` in the background
    /// (a `Search`, with the bot's next seed and, for the levels and `"ismcts:N/turn"`, the
    /// decision's share of the turn's budget) and returns at once; None for a bot that does not
    /// search (call `choose`); a `"+reuse"` bot goes on from the tree it kept. Hand the ended
    /// search to `record` before the bot's next decision, so its turn's budget counts what this
    /// one spent (and a `"+reuse"` bot keeps its tree): the decisions are then those `choose`
    /// makes.
    fn start_search(&self, py: Python<'_>, state: PyRef<'_, State>) -> Result<Option<PySearch>> {
        let search = state.with_detached(py, |s| {
            guard(|| {
                let mut bot = self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                Ok(match bot.next_search(s) {
                    Some(p) => Some(bot.start_search(s, p)?),
                    None => None,
                })
            })
        })?;
        Ok(search.map(|inner| PySearch { inner }))
    }

    /// Records the decision of `search` (started by `start_search` at `state`; waits for its end,
    /// GIL released): the bot's turn bookkeeping, and its `last_decision`.
    fn record(&self, py: Python<'_>, state: PyRef<'_, State>, search: PyRef<'_, PySearch>) -> Result<()> {
        let running: &Search = &search.inner;
        let d = py.detach(|| guard(|| Ok(running.wait()?)))?;
        let elapsed = std::time::Duration::from_secs_f64(d.elapsed_ms.max(0.0) / 1000.0);
        state.with_detached(py, |s| {
            guard(|| {
                self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner).record_search(s, &d, elapsed);
                Ok(())
            })
        })
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

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// Search parameters (see `SearchParams::from_json`): `None`, a dict, or JSON text (a `str`;
/// a key given twice in it is `InvalidConfigError`). A dict's values are `None`, `bool`, `str`,
/// `float` or integers: `int` and anything with `__index__` (`numpy.int64(100)`), read with
/// `operator.index`. A value of another type, or a key that is not a `str`, is an
/// `ArgumentTypeError` (code 5); an integer above a cap is `ConfigOutOfRangeError` (102).
fn params_from(params: Option<&Bound<'_, PyAny>>, seed: u64) -> Result<SearchParams> {
    let Some(p) = params.filter(|p| !p.is_none()) else {
        return Ok(SearchParams::from_json(&Value::Null, seed)?);
    };
    if let Ok(text) = p.cast::<PyString>() {
        let text = text.to_cow().map_err(|_| Error::new(ErrorCode::InvalidConfig, "the search parameters are not valid unicode"))?;
        let text = crate::convert::json_text(&text, ErrorCode::InvalidConfig)?;
        return Ok(SearchParams::from_json_text(text, seed)?);
    }
    let dict = p
        .cast::<PyDict>()
        .map_err(|_| Error::wrong_type(format!("search parameters are a dict or a str of json, not {}", type_name(p))))?;
    // The known keys are few: a dict of more cannot be valid (checked before reading it).
    if dict.len() > 64 {
        return Err(Error::new(ErrorCode::InvalidConfig, format!("too many search parameters ({})", dict.len())));
    }
    let mut map = Map::new();
    for item in dict.items().iter() {
        let (k, v) = (item.get_item(0)?, item.get_item(1)?);
        let key = k.cast::<PyString>().map_err(|_| Error::wrong_type(format!("search parameter names are str, not {}", type_name(&k))))?;
        let key =
            key.to_cow().map_err(|_| Error::new(ErrorCode::InvalidConfig, "a search parameter name is not valid unicode"))?.into_owned();
        let value = param_value(&key, &v)?;
        map.insert(key, value);
    }
    Ok(SearchParams::from_json(&Value::Object(map), seed)?)
}

/// One search parameter's value as JSON (see [`params_from`]).
fn param_value(key: &str, v: &Bound<'_, PyAny>) -> Result<Value> {
    if v.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(s) = v.cast::<PyString>() {
        let s = s.to_cow().map_err(|_| Error::new(ErrorCode::InvalidConfig, format!("search parameter {key:?} is not valid unicode")))?;
        // The longest valid value is a level's name.
        if s.len() > 64 {
            return Err(Error::new(ErrorCode::InvalidConfig, format!("search parameter {key:?} is too long ({} bytes)", s.len())));
        }
        return Ok(Value::String(s.into_owned()));
    }
    if let Ok(f) = v.cast::<PyFloat>() {
        let x = f.value();
        return serde_json::Number::from_f64(x)
            .map(Value::Number)
            .ok_or_else(|| Error::new(ErrorCode::InvalidConfig, format!("search parameter {key:?} is {x}, not a number json can hold")));
    }
    let index = if v.is_instance_of::<PyInt>() {
        Ok(v.clone())
    } else {
        // `operator.index`: ints and what stands for one (numpy integers); a TypeError else.
        v.py().import("operator")?.getattr("index")?.call1((v,))
    };
    let Ok(n) = index else {
        return Err(Error::wrong_type(format!("search parameter {key:?} is a number, a str or None, not {}", type_name(v))));
    };
    if let Ok(i) = n.extract::<i64>() {
        return Ok(Value::from(i));
    }
    if let Ok(u) = n.extract::<u64>() {
        return Ok(Value::from(u));
    }
    // Beyond 64 bits: as a float, which every cap refuses (or a negative number, refused too).
    let x: f64 = n.extract()?;
    Ok(serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number))
}

/// Searches the player to act in `state` with IS-MCTS and returns the decision as a dict
/// (blocking; the GIL is released). `params`: `{"level": "easy"|"normal"|"hard",
/// "iterations", "time_ms", "threads", "determinizations", "exploration", "max_nodes",
/// "explain"}` (default: normal; "exploration", UCB1's constant, by default the game's own,
/// 0.7 in most games), or the same as JSON text. Each candidate has `line` (the
/// seat's own moves the search expects after it in the same turn) and `reason` (a short text
/// from the game's event sentences of the candidate and its line, told on determinizations of
/// what the seat knows), unless `"explain": False`.
#[pyfunction]
#[pyo3(signature = (state, params=None, seed=Seed(0)), text_signature = "(state, params=None, seed=0)")]
pub fn analyze<'py>(py: Python<'py>, state: PyRef<'_, State>, params: Option<&Bound<'py, PyAny>>, seed: Seed) -> Result<Bound<'py, PyAny>> {
    let params = params_from(params, seed.0)?;
    let d = state.with_detached(py, |s| guard(|| Ok(kassen_core::bots::analyze(s, &params)?)))?;
    decision_to_py(py, Some(&d))
}

/// An IS-MCTS search running on worker threads (`Search(state, params=None, seed=0)` starts
/// it and returns at once; it searches its own copy of the state). Poll `progress()`, end it
/// early with `stop()`, take the decision with `result()`. Dropping it stops it. Every method
/// may be called from any thread while others run: `progress()` while another thread waits in
/// `result()` answers "running" or "done", never an error.
#[pyclass(module = "kassen._kassen", name = "Search", frozen)]
pub struct PySearch {
    inner: Search,
}

#[pymethods]
impl PySearch {
    #[new]
    #[pyo3(signature = (state, params=None, seed=Seed(0)), text_signature = "(state, params=None, seed=0)")]
    fn new(py: Python<'_>, state: PyRef<'_, State>, params: Option<&Bound<'_, PyAny>>, seed: Seed) -> Result<Self> {
        let params = params_from(params, seed.0)?;
        let search = state.with_detached(py, |s| guard(|| Ok(Search::start(s, params)?)))?;
        Ok(PySearch { inner: search })
    }

    /// `{"iterations", "best" (action or None), "done", "elapsed_ms"}`; never blocks, also
    /// while another thread waits in `result()`.
    fn progress<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
        let p = guard(|| Ok(self.inner.progress()))?;
        let v = serde_json::to_value(p).map_err(|e| Error::new(ErrorCode::Panic, e.to_string()))?;
        Ok(value_to_py(py, &v)?)
    }

    /// Whether the search has ended.
    #[getter]
    fn done(&self) -> bool {
        self.inner.is_done()
    }

    /// Asks the search to end after its current iteration; never blocks.
    fn stop(&self) {
        self.inner.stop();
    }

    /// Waits for the end (GIL released) and returns the decision as a dict (with `nodes`, the
    /// tree nodes used, and `tree_full`, whether a tree reached its share of `max_nodes`).
    /// Several threads may wait at once; each gets the same decision.
    fn result<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
        let d = py.detach(|| guard(|| Ok(self.inner.wait()?)))?;
        decision_to_py(py, Some(&d))
    }

    /// Stops the search and returns its decision so far (GIL released while it winds down).
    fn finish<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
        self.inner.stop();
        self.result(py)
    }
}

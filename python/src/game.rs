//! `Game`: a configured game (immutable, shareable between threads), and the module functions
//! that create games.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use kassen_core::engine::{self, GameHandle};
use kassen_core::ErrorCode;
use pyo3::exceptions::PyAssertionError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use serde_json::Value;

use crate::convert::{json_text, py_to_value, value_to_py, Seed};
use crate::errors::{guard, Error, Result};
use crate::state::State;

/// A game under one configuration. Create it with `kassen.load_game`.
#[pyclass(module = "kassen._kassen", name = "Game", frozen)]
pub struct Game {
    pub(crate) inner: GameHandle,
}

#[pymethods]
impl Game {
    /// The registry id, e.g. `"samurai"`.
    #[getter]
    fn id(&self) -> &'static str {
        self.inner.id()
    }

    /// The initial state for `seed` (chance nodes resolved by the state's RNG unless the game
    /// was loaded with `explicit_chance=True`).
    /// `seed` is an int in `[0, 2**64)` (another int: `InvalidArgumentError`, code 5).
    #[pyo3(signature = (seed=Seed(0)), text_signature = "($self, seed=0)")]
    fn new_initial_state(&self, seed: Seed) -> Result<State> {
        guard(|| Ok(State::new(self.inner.new_initial_state(seed.0))))
    }

    /// Draws a view of this game (`State.view`, as JSON text) as SVG.
    fn render_view_svg(&self, py: Python<'_>, view_json: &str) -> Result<String> {
        let text = crate::convert::json_text(view_json, kassen_core::ErrorCode::MalformedJson)?;
        let game = self.inner.clone();
        py.detach(|| crate::render::view_svg(&game, text))
    }

    /// The `data-target` of the board element action `action` is played on (`"hex:12"`,
    /// `"loc:osaka"`), or None; see `State.render_svg`.
    fn action_target(&self, action: u32) -> Option<String> {
        self.inner.action_target(action)
    }

    /// A short primer on the game's rules for a language model's system prompt (at most
    /// about 2,000 words), condensed from the game's rules page (docs/rules/<id>.md).
    fn rules_primer(&self) -> &'static str {
        self.inner.rules_primer()
    }

    /// Static facts about the game and its normalized config, as a dict.
    fn info<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
        let v = guard(|| Ok(self.inner.info_json()))?;
        Ok(value_to_py(py, &v)?)
    }

    fn num_distinct_actions(&self) -> u32 {
        self.inner.info().num_distinct_actions
    }

    fn num_players(&self) -> usize {
        self.inner.num_players()
    }

    fn max_chance_outcomes(&self) -> u32 {
        self.inner.info().max_chance_outcomes
    }

    fn max_game_length(&self) -> u32 {
        self.inner.info().max_game_length
    }

    /// The shape of `State.observation_tensor`.
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.inner.info().observation_shape)
    }

    /// The named feature ranges that tile the flat `State.observation_tensor`, in order: a
    /// list of dicts `{name, offset, length, low, high, description}` (the same list as
    /// `info()["observation_layout"]`; every registered game's values lie in [0, 1]).
    fn observation_layout<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
        let v = guard(|| {
            let mut info = self.inner.info_json();
            Ok(info["observation_layout"].take())
        })?;
        Ok(value_to_py(py, &v)?)
    }

    /// The number of bytes of `State.compact_observation`.
    fn compact_len(&self) -> usize {
        self.inner.info().compact_len()
    }

    /// The fields that tile `State.compact_observation`'s bytes, in order: a list of dicts
    /// `{name, offset, bytes, dtype, shape, low, high, description}` (`dtype` is `"bits"`
    /// (packed little-endian bit order), `"uint8"`, `"uint16"`, `"int16"` (little-endian) or
    /// `"record"`; the same list as `info()["compact_layout"]`).
    fn compact_layout<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
        let v = guard(|| {
            let mut info = self.inner.info_json();
            Ok(info["compact_layout"].take())
        })?;
        Ok(value_to_py(py, &v)?)
    }

    /// Whether chance nodes are left to the caller (`current_player() == CHANCE`).
    fn explicit_chance(&self) -> bool {
        self.inner.explicit_chance()
    }

    /// Loads a state saved by `State.to_json` for this game and config. Text nested deeper
    /// than 128 levels is `MalformedJsonError` (300); text longer than 16 MiB, or holding a
    /// longer array or more values than a save of this game can, is `DocumentTooLargeError`
    /// (308), refused before it is parsed.
    fn state_from_json(&self, py: Python<'_>, text: &str) -> Result<State> {
        let handle = py.detach(|| guard(|| Ok(self.inner.state_from_json(text)?)))?;
        Ok(State::new(handle))
    }

    /// Starts a game of this very game and config at a constructed position (a position
    /// document as JSON text or a dict, see `State.from_position`). A document of another
    /// game is `WrongGameError` (6), of another config `InvalidPositionError` (306).
    fn load_position(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> Result<State> {
        let inner = &self.inner;
        let handle = match crate::convert::position_arg(position)? {
            crate::convert::Position::Text(text) => py.detach(|| guard(|| Ok(inner.load_position_json(&text)?)))?,
            crate::convert::Position::Value(v) => py.detach(|| guard(|| Ok(inner.load_position(&v)?)))?,
        };
        Ok(State::new(handle))
    }

    /// Runs the core's shared conformance suite on this game from `seeds` (complete games,
    /// every legal action applied, illegal ones rejected, round trips, no hidden-information
    /// leak). Returns the counts as a dict; raises `AssertionError` on a violation.
    fn conformance<'py>(&self, py: Python<'py>, seeds: Vec<Seed>) -> Result<Bound<'py, PyAny>> {
        let inner = &self.inner;
        let seeds: Vec<u64> = seeds.into_iter().map(|s| s.0).collect();
        let report = py.detach(|| guard(|| Ok(inner.conformance(&seeds))))?;
        match report {
            Ok(r) => Ok(value_to_py(py, &serde_json::to_value(&r).unwrap_or_default())?),
            Err(msg) => Err(Error::Py(PyAssertionError::new_err(msg))),
        }
    }

    fn __eq__(&self, other: PyRef<'_, Game>) -> bool {
        self.inner.id() == other.inner.id() && self.inner.info().config == other.inner.info().config
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.inner.id().hash(&mut h);
        self.inner.info().config.to_string().hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> String {
        format!("Game({:?}, {})", self.inner.id(), self.inner.info().config)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
        let f = py.import("kassen._kassen")?.getattr("_load_game_json")?;
        Ok((f, (self.inner.id(), self.inner.info().config.to_string())))
    }
}

/// Every registered game: `{id: name}`.
#[pyfunction]
pub fn games(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for (id, name) in engine::games() {
        d.set_item(id, name)?;
    }
    Ok(d)
}

/// The configurations of game `game_id` that the project's tests cover: every player count
/// and rules variant, the last also with explicit chance (`[]` for an unknown id).
#[pyfunction]
pub fn covered_configs<'py>(py: Python<'py>, game_id: &str) -> PyResult<Bound<'py, PyAny>> {
    crate::convert::value_to_py(py, &serde_json::Value::Array(engine::covered_configs(game_id)))
}

/// Creates a game: `load_game("samurai", players=3)` or `load_game("samurai", {"players": 3})`.
///
/// The config is converted to JSON with bounds: a value nested deeper than 128 levels (a list
/// or dict that contains itself), holding more than 1,000,000 elements or 16 MiB of strings,
/// an int outside the 64-bit range or a NaN is `InvalidConfigError` (101); an object with no
/// JSON counterpart, or a key that is not a str, is `ArgumentTypeError` (5).
#[pyfunction]
#[pyo3(signature = (game_id, config=None, /, **kwargs))]
pub fn load_game(py: Python<'_>, game_id: &str, config: Option<&Bound<'_, PyAny>>, kwargs: Option<&Bound<'_, PyDict>>) -> Result<Game> {
    let mut map = serde_json::Map::new();
    for d in [config, kwargs.map(|k| k.as_any())].into_iter().flatten() {
        if d.is_none() {
            continue;
        }
        if !d.is_instance_of::<PyDict>() {
            return Err(Error::wrong_type("config must be a dict"));
        }
        if let Value::Object(m) = py_to_value(d, ErrorCode::InvalidConfig)? {
            map.extend(m);
        }
    }
    let cfg = Value::Object(map);
    let inner = py.detach(|| guard(|| Ok(engine::load_game(game_id, Some(&cfg))?)))?;
    Ok(Game { inner })
}

/// `load_game` with the config as JSON text (used by pickling; at most 16 MiB, else
/// `InvalidConfigError`).
#[pyfunction]
pub fn _load_game_json(py: Python<'_>, game_id: &str, config_json: &str) -> Result<Game> {
    let config_json = json_text(config_json, ErrorCode::InvalidConfig)?;
    let inner = py.detach(|| guard(|| Ok(engine::load_game_str(game_id, Some(config_json))?)))?;
    Ok(Game { inner })
}

//! `State`: one game state, mutable in place (`apply_action`) or purely (`child`).
//!
//! Hot methods (`current_player`, `legal_actions`, `apply_action`) keep the GIL: releasing it
//! costs more than they take. Replays (`events`, `from_json`) and serialization release it.

use kassen_core::engine::{StateHandle, STATE_FORMAT};
use kassen_core::{ErrorCode, TERMINAL};
use numpy::ndarray::IxDyn;
use numpy::{PyArray, PyArray1, PyArrayDyn, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyList;
use serde_json::json;

use crate::convert::{action_id, json_text, player_id, value_to_py, IntArg, Seed};
use crate::errors::{guard, panic_error, Error, Result};
use crate::game::Game;

/// A game state. Get one from `Game.new_initial_state`, `State.child` or `State.from_json`.
#[pyclass(module = "kassen._kassen", name = "State")]
pub struct State {
    inner: StateHandle,
}

impl State {
    pub fn new(inner: StateHandle) -> State {
        State { inner }
    }

    fn num_actions(&self) -> u32 {
        self.inner.game().info().num_distinct_actions
    }

    fn num_players(&self) -> usize {
        self.inner.game().num_players()
    }

    #[inline]
    fn action(&self, a: &IntArg) -> Result<u32> {
        action_id(a, || self.num_actions())
    }

    #[inline]
    fn player(&self, p: &IntArg) -> Result<i32> {
        player_id(p, self.num_players())
    }

    /// Applies `a` in place. If the rules code panics, the state is rebuilt from its action
    /// log as it was before the call, so even then a failed call changes nothing.
    #[inline]
    fn apply_guarded(&mut self, f: impl FnOnce(&mut StateHandle) -> Result<()>) -> Result<()> {
        let before = self.inner.history().len();
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&mut self.inner))) {
            Ok(r) => r,
            Err(payload) => {
                self.restore(before);
                Err(panic_error(payload))
            }
        }
    }

    #[cold]
    fn restore(&mut self, history_len: usize) {
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let game = self.inner.game();
            let info = game.info();
            let saved = json!({
                "format": STATE_FORMAT,
                "game": game.id(),
                "rules_version": info.rules_version,
                "config": info.config,
                "seed": self.inner.seed(),
                "history": &self.inner.history()[..history_len.min(self.inner.history().len())],
            });
            if let Ok(s) = game.state_from_value(&saved) {
                self.inner = s;
            }
        }));
    }
}

#[pymethods]
impl State {
    /// The seat to act, `CHANCE` (-1) at a chance node, or `TERMINAL` (-4).
    fn current_player(&self) -> Result<i32> {
        guard(|| Ok(self.inner.current_player()))
    }

    fn is_terminal(&self) -> Result<bool> {
        guard(|| Ok(self.inner.is_terminal()))
    }

    fn is_chance_node(&self) -> Result<bool> {
        guard(|| Ok(self.inner.is_chance_node()))
    }

    /// Legal action ids (chance outcome ids at a chance node), ascending.
    fn legal_actions<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyList>> {
        let v = guard(|| {
            let mut v = Vec::with_capacity(32);
            self.inner.legal_actions_into(&mut v);
            Ok(v)
        })?;
        Ok(PyList::new(py, v)?)
    }

    /// A numpy bool array of length `num_distinct_actions`, true where legal.
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyArray1<bool>>> {
        let mask = guard(|| Ok(self.inner.legal_actions_mask()))?;
        Ok(PyArray1::from_vec(py, mask))
    }

    /// Whether `action` is legal here. Any int is a fair question: one out of range (negative,
    /// huge) is simply not legal. A non-int (a `bool`) is `ArgumentTypeError`.
    fn is_legal(&self, action: IntArg) -> Result<bool> {
        match action.0 {
            Ok(a) if (0..=u32::MAX as i64).contains(&a) => guard(|| Ok(self.inner.is_legal(a as u32))),
            _ => Ok(false),
        }
    }

    /// `(outcome id, probability)` pairs at a chance node; empty elsewhere.
    fn chance_outcomes(&self) -> Result<Vec<(u32, f64)>> {
        guard(|| Ok(self.inner.chance_outcomes()))
    }

    /// Applies `action` in place for whoever is to act (a chance outcome at a chance node).
    /// An id outside `[0, num_distinct_actions)` is `ActionOutOfRangeError` (201), a `bool`
    /// `ArgumentTypeError` (5). On error the state is unchanged.
    fn apply_action(&mut self, action: IntArg) -> Result<()> {
        let a = self.action(&action)?;
        self.apply_guarded(|s| Ok(s.apply_in_place(a)?))
    }

    /// Applies `action` on behalf of `player`, who must be the one to act
    /// (`NotYourTurnError` otherwise; a player that is no seat nor -1: `InvalidPlayerError`).
    fn apply_action_as(&mut self, player: IntArg, action: IntArg) -> Result<()> {
        let p = self.player(&player)?;
        let a = self.action(&action)?;
        self.apply_guarded(|s| Ok(s.apply_as(p, a)?))
    }

    /// The successor state under `action`; this state is not changed.
    fn child(&self, action: IntArg) -> Result<State> {
        let a = self.action(&action)?;
        Ok(State::new(guard(|| Ok(self.inner.child(a)?))?))
    }

    /// A state `player` cannot tell apart from this one (same view and tensor), its hidden
    /// parts redrawn from `seed`: a determinization for search (IS-MCTS, PIMC). It keeps this
    /// state's action log, which it no longer matches: search from it, do not save it.
    #[pyo3(signature = (player, seed=Seed(0)), text_signature = "($self, player, seed=0)")]
    fn determinize(&self, player: IntArg, seed: Seed) -> Result<State> {
        let p = self.player(&player)?;
        Ok(State::new(guard(|| Ok(self.inner.determinize(p, seed.0)?))?))
    }

    fn clone(&self) -> State {
        State::new(self.inner.clone())
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// Per-seat returns; all zero until the game is over.
    fn returns(&self) -> Result<Vec<f64>> {
        guard(|| Ok(self.inner.returns()))
    }

    fn action_to_string(&self, action: IntArg) -> Result<String> {
        let a = self.action(&action)?;
        guard(|| Ok(self.inner.action_to_string(a)?))
    }

    /// The action as a dict (`{"id": .., "verb": .., ...}`).
    fn action_to_json<'py>(&self, py: Python<'py>, action: IntArg) -> Result<Bound<'py, PyAny>> {
        let a = self.action(&action)?;
        let v = guard(|| Ok(self.inner.action_to_json(a)?))?;
        Ok(value_to_py(py, &v)?)
    }

    /// What `player` may know (`SPECTATOR` = -1: public information only), as a dict.
    fn view<'py>(&self, py: Python<'py>, player: IntArg) -> Result<Bound<'py, PyAny>> {
        let p = self.player(&player)?;
        let inner = &self.inner;
        // Building a view takes tens of microseconds: worth letting other threads run.
        let v = py.detach(|| guard(|| Ok(inner.view(p)?)))?;
        Ok(value_to_py(py, &v)?)
    }

    /// The observation of `player` (`-1`: spectator) as a float32 array of
    /// `Game.observation_shape()`. With `out` (a C-contiguous float32 array of that many
    /// elements) it is written there instead, and `out` is returned.
    #[pyo3(signature = (player, out=None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: IntArg,
        out: Option<Bound<'py, PyArrayDyn<f32>>>,
    ) -> Result<Bound<'py, PyArrayDyn<f32>>> {
        let p = self.player(&player)?;
        let arr = match out {
            Some(arr) => arr,
            None => {
                let game = self.inner.game();
                PyArray::<f32, IxDyn>::zeros(py, IxDyn(&game.info().observation_shape), false)
            }
        };
        {
            let mut rw = arr.try_readwrite().map_err(|e| Error::invalid_argument(format!("out is not writable: {e}")))?;
            let slice = rw.as_slice_mut().map_err(|_| Error::invalid_argument("out must be C-contiguous"))?;
            guard(|| Ok(self.inner.observation_tensor_into(p, slice)?)).map_err(|e| match e {
                Error::Kassen(ErrorCode::BufferTooSmall, m) => Error::invalid_argument(format!("out has the wrong size: {m}")),
                e => e,
            })?;
        }
        Ok(arr)
    }

    /// The perfect-recall event history of `player` (`-1`: public events), as dicts.
    fn events<'py>(&self, py: Python<'py>, player: IntArg) -> Result<Bound<'py, PyList>> {
        let p = self.player(&player)?;
        let inner = &self.inner;
        let values = py.detach(|| {
            guard(|| {
                let events = inner.events(p)?;
                Ok(events.iter().map(|e| serde_json::to_value(e).unwrap_or_default()).collect::<Vec<_>>())
            })
        })?;
        let list = PyList::empty(py);
        for v in &values {
            list.append(value_to_py(py, v)?)?;
        }
        Ok(list)
    }

    /// Every action and chance outcome applied since the initial state.
    fn history(&self) -> Vec<u32> {
        self.inner.history().to_vec()
    }

    /// The saved-state JSON text (`State.from_json` loads it).
    fn to_json(&self, py: Python<'_>) -> Result<String> {
        let inner = &self.inner;
        py.detach(|| guard(|| Ok(inner.to_json_string())))
    }

    /// Loads a saved state of any registered game (its log is replayed and checked). Text
    /// longer than 16 MiB or nested deeper than 128 levels is `MalformedJsonError` (300).
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str) -> Result<State> {
        let text = json_text(text, ErrorCode::MalformedJson)?;
        py.detach(|| guard(|| Ok(StateHandle::from_json(text)?))).map(State::new)
    }

    /// The configured game this state belongs to.
    fn game(&self) -> Game {
        Game { inner: self.inner.game() }
    }

    fn __eq__(&self, other: PyRef<'_, State>) -> Result<bool> {
        guard(|| Ok(self.inner == other.inner))
    }

    /// `stable_hash`: identical on every run, platform and surface.
    fn __hash__(&self) -> Result<u64> {
        guard(|| Ok(self.inner.stable_hash()))
    }

    /// The same number as `__hash__`, unsigned (the golden files print it in decimal).
    fn stable_hash(&self) -> Result<u64> {
        guard(|| Ok(self.inner.stable_hash()))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> Result<(Bound<'py, PyAny>, (String,))> {
        let f = py.import("kassen._kassen")?.getattr("_state_from_json")?;
        Ok((f, (self.to_json(py)?,)))
    }

    /// Public facts only: never the seed (it determines hidden draws) nor any hand.
    fn __repr__(&self) -> Result<String> {
        guard(|| {
            let game = self.inner.game();
            let cp = self.inner.current_player();
            let who = match cp {
                TERMINAL => format!("terminal, returns {:?}", self.inner.returns()),
                -1 => "chance node".to_string(),
                p => format!("player {p} to act"),
            };
            Ok(format!("<State {} {} after {} actions: {}>", game.id(), game.info().config, self.inner.history().len(), who))
        })
    }
}

/// Loads a saved state (the pickle constructor).
#[pyfunction]
pub fn _state_from_json(py: Python<'_>, text: &str) -> Result<State> {
    State::from_json(py, text)
}

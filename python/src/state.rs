//! `State`: one game state, mutable in place (`apply_action`) or purely (`child`).
//!
//! A `State` may be shared between threads: every call locks the state's mutex, so calls on
//! one state are serialized and each sees the state before or after another call, never half
//! of one. An uncontended lock is taken with the GIL held (an atomic operation, nothing more);
//! a thread that has to wait for the lock waits with the GIL released, so the thread holding
//! the lock can finish and other Python threads run. Code under the lock never touches Python
//! objects (the closures are `Send`), so it cannot deadlock on the GIL or re-enter the lock.
//!
//! Hot methods (`current_player`, `legal_actions`, `apply_action`) keep the GIL: releasing it
//! costs more than they take. Replays (`events`, `from_json`) and serialization release it.

use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};

use kassen_core::engine::{GameHandle, StateHandle};
use kassen_core::{ErrorCode, TERMINAL};
use numpy::ndarray::IxDyn;
use numpy::{PyArray, PyArray1, PyArrayDyn, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::convert::{action_id, player_id, position_arg, value_to_py, IntArg, Position, Seed};
use crate::errors::{guard, Error, Result};
use crate::game::Game;

/// A game state. Get one from `Game.new_initial_state`, `State.child` or `State.from_json`.
///
/// Thread-safe: calls on one state from several threads are serialized (see the module doc).
#[pyclass(module = "kassen._kassen", name = "State", frozen)]
pub struct State {
    inner: Mutex<StateHandle>,
    /// The state's game (it never changes), readable without the lock.
    game: GameHandle,
}

/// Locks `m`. A panic under the lock is caught inside it (and the state restored), so a
/// poisoned lock still holds a whole state.
fn lock(m: &Mutex<StateHandle>) -> MutexGuard<'_, StateHandle> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl State {
    pub fn new(inner: StateHandle) -> State {
        State { game: inner.game(), inner: Mutex::new(inner) }
    }

    /// Runs `f` on the locked state: at once with the GIL held if the lock is free, else
    /// waiting for it with the GIL released.
    #[inline]
    pub(crate) fn with<R: Send>(&self, py: Python<'_>, f: impl FnOnce(&mut StateHandle) -> R + Send) -> R {
        match self.inner.try_lock() {
            Ok(mut g) => f(&mut g),
            Err(TryLockError::Poisoned(p)) => f(&mut p.into_inner()),
            Err(TryLockError::WouldBlock) => py.detach(|| f(&mut lock(&self.inner))),
        }
    }

    /// Runs `f` on the locked state with the GIL released (for calls that take a while).
    pub(crate) fn with_detached<R: Send>(&self, py: Python<'_>, f: impl FnOnce(&mut StateHandle) -> R + Send) -> R {
        py.detach(|| f(&mut lock(&self.inner)))
    }

    fn num_actions(&self) -> u32 {
        self.game.info().num_distinct_actions
    }

    #[inline]
    fn action(&self, a: &IntArg) -> Result<u32> {
        action_id(a, || self.num_actions())
    }

    #[inline]
    fn player(&self, p: &IntArg) -> Result<i32> {
        player_id(p, self.game.num_players())
    }
}

impl State {
    fn events_from<'py>(&self, py: Python<'py>, p: i32, from: usize) -> Result<Bound<'py, PyList>> {
        let values = self.with_detached(py, |s| {
            guard(|| {
                let events = s.events_since(p, from)?;
                Ok(events.iter().map(|e| serde_json::to_value(e).unwrap_or_default()).collect::<Vec<_>>())
            })
        })?;
        let list = PyList::empty(py);
        for v in &values {
            list.append(value_to_py(py, v)?)?;
        }
        Ok(list)
    }
}

#[pymethods]
impl State {
    /// The seat to act, `CHANCE` (-1) at a chance node, or `TERMINAL` (-4).
    fn current_player(&self, py: Python<'_>) -> Result<i32> {
        self.with(py, |s| guard(|| Ok(s.current_player())))
    }

    fn is_terminal(&self, py: Python<'_>) -> Result<bool> {
        self.with(py, |s| guard(|| Ok(s.is_terminal())))
    }

    fn is_chance_node(&self, py: Python<'_>) -> Result<bool> {
        self.with(py, |s| guard(|| Ok(s.is_chance_node())))
    }

    /// Legal action ids (chance outcome ids at a chance node), ascending.
    fn legal_actions<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyList>> {
        let v = self.with(py, |s| {
            guard(|| {
                let mut v = Vec::with_capacity(32);
                s.legal_actions_into(&mut v);
                Ok(v)
            })
        })?;
        Ok(PyList::new(py, v)?)
    }

    /// A numpy bool array of length `num_distinct_actions`, true where legal.
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyArray1<bool>>> {
        crate::numpy_check::require(py, "State.legal_actions_mask")?;
        let mask = self.with(py, |s| guard(|| Ok(s.legal_actions_mask())))?;
        Ok(PyArray1::from_vec(py, mask))
    }

    /// Whether `action` is legal here. Any int is a fair question: one out of range (negative,
    /// huge) is simply not legal. A non-int (a `bool`) is `ArgumentTypeError`.
    fn is_legal(&self, py: Python<'_>, action: IntArg) -> Result<bool> {
        match action.0 {
            Ok(a) if (0..=u32::MAX as i64).contains(&a) => self.with(py, |s| guard(|| Ok(s.is_legal(a as u32)))),
            _ => Ok(false),
        }
    }

    /// `(outcome id, probability)` pairs at a chance node; empty elsewhere.
    fn chance_outcomes(&self, py: Python<'_>) -> Result<Vec<(u32, f64)>> {
        self.with(py, |s| guard(|| Ok(s.chance_outcomes())))
    }

    /// Applies `action` in place for whoever is to act (a chance outcome at a chance node).
    /// An id outside `[0, num_distinct_actions)` is `ActionOutOfRangeError` (201), a `bool`
    /// `ArgumentTypeError` (5). On error the state is unchanged.
    fn apply_action(&self, py: Python<'_>, action: IntArg) -> Result<()> {
        let a = self.action(&action)?;
        self.with(py, |s| guard(|| Ok(s.apply_in_place_guarded(a)?)))
    }

    /// One call per step: applies `action` (as `apply_action`) and returns the player to act
    /// next with the legal actions of the new state, as a numpy uint32 array (empty once the
    /// game is over).
    fn apply_and_legal<'py>(&self, py: Python<'py>, action: IntArg) -> Result<(i32, Bound<'py, PyArray1<u32>>)> {
        crate::numpy_check::require(py, "State.apply_and_legal")?;
        let a = self.action(&action)?;
        let (player, legal) = self.with(py, |s| {
            guard(|| {
                s.apply_in_place_guarded(a)?;
                let mut v = Vec::with_capacity(32);
                s.legal_actions_into(&mut v);
                Ok((s.current_player(), v))
            })
        })?;
        Ok((player, PyArray1::from_vec(py, legal)))
    }

    /// Applies `action` on behalf of `player`, who must be the one to act
    /// (`NotYourTurnError` otherwise; a player that is no seat nor -1: `InvalidPlayerError`).
    fn apply_action_as(&self, py: Python<'_>, player: IntArg, action: IntArg) -> Result<()> {
        let p = self.player(&player)?;
        let a = self.action(&action)?;
        self.with(py, |s| guard(|| Ok(s.apply_as_guarded(p, a)?)))
    }

    /// The successor state under `action`; this state is not changed.
    fn child(&self, py: Python<'_>, action: IntArg) -> Result<State> {
        let a = self.action(&action)?;
        Ok(State::new(self.with(py, |s| guard(|| Ok(s.child(a)?)))?))
    }

    /// A state `player` cannot tell apart from this one: a whole game history sampled from
    /// what `player` has seen (the same view, tensor and events for `player`; other seats'
    /// secrets and unseen draws drawn anew from `seed`), under a fresh seed. A determinization
    /// for search (IS-MCTS, PIMC): it carries nothing of the hidden truth and is a real state
    /// that plays on, saves and loads.
    #[pyo3(signature = (player, seed=Seed(0)), text_signature = "($self, player, seed=0)")]
    fn determinize(&self, py: Python<'_>, player: IntArg, seed: Seed) -> Result<State> {
        let p = self.player(&player)?;
        Ok(State::new(self.with(py, |s| guard(|| Ok(s.determinize(p, seed.0)?)))?))
    }

    fn clone(&self, py: Python<'_>) -> State {
        State::new(self.with(py, |s| s.clone()))
    }

    fn __copy__(&self, py: Python<'_>) -> State {
        self.clone(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> State {
        self.clone(py)
    }

    /// Per-seat returns; all zero until the game is over.
    fn returns(&self, py: Python<'_>) -> Result<Vec<f64>> {
        self.with(py, |s| guard(|| Ok(s.returns())))
    }

    fn action_to_string(&self, py: Python<'_>, action: IntArg) -> Result<String> {
        let a = self.action(&action)?;
        self.with(py, |s| guard(|| Ok(s.action_to_string(a)?)))
    }

    /// The action as a dict (`{"id": .., "verb": .., ...}`).
    fn action_to_json<'py>(&self, py: Python<'py>, action: IntArg) -> Result<Bound<'py, PyAny>> {
        let a = self.action(&action)?;
        let v = self.with(py, |s| guard(|| Ok(s.action_to_json(a)?)))?;
        Ok(value_to_py(py, &v)?)
    }

    /// What `player` may know (`SPECTATOR` = -1: public information only), as a dict.
    fn view<'py>(&self, py: Python<'py>, player: IntArg) -> Result<Bound<'py, PyAny>> {
        let p = self.player(&player)?;
        // Building a view takes tens of microseconds: worth letting other threads run.
        let v = self.with_detached(py, |s| guard(|| Ok(s.view(p)?)))?;
        Ok(value_to_py(py, &v)?)
    }

    /// `view(player)` as JSON text, serialized straight from the state (what a frontend sends
    /// on; the same text as `kassen_state_view_json`).
    fn view_json(&self, py: Python<'_>, player: IntArg) -> Result<String> {
        let p = self.player(&player)?;
        self.with_detached(py, |s| guard(|| Ok(s.view_json(p)?)))
    }

    /// What `player` (`-1`: spectator) knows as one text for a language-model agent
    /// (docs/text.md): the game and seat, the decision, the board and holdings, its events
    /// since its last decision and, where it acts, its numbered legal moves.
    fn text_observation(&self, py: Python<'_>, player: IntArg) -> Result<String> {
        let p = self.player(&player)?;
        self.with_detached(py, |s| guard(|| Ok(s.text_observation(p)?)))
    }

    /// The legal action of `player` that `text` means: a move string of the text
    /// observation, its number, or a JSON action, in any case, quoted, fenced or inside a
    /// sentence, as long as exactly one legal move is meant. Raises `UnreadableMoveError`
    /// (naming the problem and the options), `NotYourTurnError` or `GameOverError`; never
    /// changes the state.
    fn parse_move(&self, py: Python<'_>, player: IntArg, text: &str) -> Result<u32> {
        let p = self.player(&player)?;
        self.with_detached(py, |s| guard(|| Ok(s.parse_move(p, text)?)))
    }

    /// The board as `player` (`-1`: spectator) sees it, as SVG text drawn from that
    /// player's view alone.
    fn render_svg(&self, py: Python<'_>, player: IntArg) -> Result<String> {
        let p = self.player(&player)?;
        self.with_detached(py, |s| crate::render::state_svg(s, p))
    }

    /// A self-contained HTML page replaying this game as `player` (`-1`: spectator) saw
    /// it: the board after every action, a slider over them and `player`'s event log.
    fn replay_html(&self, py: Python<'_>, player: IntArg) -> Result<String> {
        let p = self.player(&player)?;
        self.with_detached(py, |s| crate::render::replay(s, p))
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
        crate::numpy_check::require(py, "State.observation_tensor")?;
        let p = self.player(&player)?;
        let arr = match out {
            Some(arr) => arr,
            None => PyArray::<f32, IxDyn>::zeros(py, IxDyn(&self.game.info().observation_shape), false),
        };
        {
            let mut rw = arr.try_readwrite().map_err(|e| Error::invalid_argument(format!("out is not writable: {e}")))?;
            let slice = rw.as_slice_mut().map_err(|_| Error::invalid_argument("out must be C-contiguous"))?;
            self.with(py, |s| guard(|| Ok(s.observation_tensor_into(p, slice)?))).map_err(|e| match e {
                Error::Kassen(ErrorCode::BufferTooSmall, m) => Error::invalid_argument(format!("out has the wrong size: {m}")),
                e => e,
            })?;
        }
        Ok(arr)
    }

    /// The compact observation of `player` (`-1`: spectator) as a uint8 array of
    /// `Game.compact_len()` bytes, laid out as `Game.compact_layout()`.
    fn compact_observation<'py>(&self, py: Python<'py>, player: IntArg) -> Result<Bound<'py, PyArray1<u8>>> {
        crate::numpy_check::require(py, "State.compact_observation")?;
        let p = self.player(&player)?;
        let obs = self.with(py, |s| guard(|| Ok(s.compact_observation(p)?)))?;
        Ok(PyArray1::from_vec(py, obs))
    }

    /// The perfect-recall event history of `player` (`-1`: public events), as dicts.
    fn events<'py>(&self, py: Python<'py>, player: IntArg) -> Result<Bound<'py, PyList>> {
        let p = self.player(&player)?;
        self.events_from(py, p, 0)
    }

    /// `events(player)` from its `start`-th event on (a frontend that polls after each step
    /// passes the number of events it has; each call costs only what is new). A `start` past
    /// the end gives `[]`; a negative one is `InvalidArgumentError` (5).
    fn events_since<'py>(&self, py: Python<'py>, player: IntArg, start: IntArg) -> Result<Bound<'py, PyList>> {
        let p = self.player(&player)?;
        let from = match start.0 {
            Ok(v) if v < 0 => return Err(Error::invalid_argument(format!("start {v} is negative"))),
            Ok(v) => v as usize,
            // Beyond i64: negative is out of range like -1; positive is past the end like 2**62.
            Err(text) if text.starts_with('-') => return Err(Error::invalid_argument(format!("start {text} is negative"))),
            Err(_) => usize::MAX,
        };
        self.events_from(py, p, from)
    }
    /// `events_since(player, start)` with a sentence in each dict: a `"text"` key holding a
    /// short human description from the game, or `None` where the game has none.
    fn events_with_text<'py>(&self, py: Python<'py>, player: IntArg, start: IntArg) -> Result<Bound<'py, PyList>> {
        let p = self.player(&player)?;
        let from = match start.0 {
            Ok(v) if v < 0 => return Err(Error::invalid_argument(format!("start {v} is negative"))),
            Ok(v) => v as usize,
            Err(_) => usize::MAX,
        };
        let text = self.with_detached(py, |s| guard(|| Ok(s.events_with_text_json(p, from)?)))?;
        let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| Error::invalid_argument(e.to_string()))?;
        let list = PyList::empty(py);
        for v in value.as_array().into_iter().flatten() {
            list.append(value_to_py(py, v)?)?;
        }
        Ok(list)
    }

    /// `n` random games from this state to the end (GIL released): their returns as a float64
    /// array of shape `(n, num_players)`. Players pick uniformly among legal actions, chance
    /// outcomes by probability, all from one generator seeded `seed` (not the state's own).
    #[pyo3(signature = (seed, n=1))]
    fn random_rollouts<'py>(&self, py: Python<'py>, seed: Seed, n: usize) -> Result<Bound<'py, numpy::PyArray2<f64>>> {
        crate::numpy_check::require(py, "State.random_rollouts")?;
        let players = self.game.num_players();
        // The result is allocated here, fallibly: a huge `n` is an error with a code, never an abort.
        let len = n.checked_mul(players).filter(|&l| l <= isize::MAX as usize / 8).ok_or_else(|| {
            Error::new(kassen_core::ErrorCode::InvalidArgument, format!("{n} rollouts of {players} returns do not fit in memory"))
        })?;
        let mut flat: Vec<f64> = Vec::new();
        flat.try_reserve_exact(len)
            .map_err(|_| Error::new(kassen_core::ErrorCode::OutOfMemory, format!("out of memory: no memory for {n} rollouts")))?;
        flat.resize(len, 0.0);
        self.with_detached(py, |s| guard(|| Ok(s.random_rollouts_into(seed.0, n, &mut flat)?)))?;
        Ok(PyArray1::from_vec(py, flat).reshape([n, players])?)
    }

    /// The action log: every action and chance outcome applied since the initial state, in
    /// order, as action ids (a list of int). With the game, config and seed it replays the
    /// game exactly (`to_json` saves it). Not for players' eyes: it names other seats' actions
    /// and hidden chance outcomes; show a seat its `events(seat)` instead.
    fn history(&self, py: Python<'_>) -> Vec<u32> {
        self.with(py, |s| s.history().to_vec())
    }

    /// The saved-state JSON text (`State.from_json` loads it).
    fn to_json(&self, py: Python<'_>) -> Result<String> {
        self.with_detached(py, |s| guard(|| Ok(s.to_json_string())))
    }

    /// Loads a saved state of any registered game (its log is replayed and checked). Text
    /// nested deeper than 128 levels is `MalformedJsonError` (300); text longer than 16 MiB,
    /// or holding a longer array or more values than a save of its game can, is
    /// `DocumentTooLargeError` (308), refused before it is parsed.
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str) -> Result<State> {
        py.detach(|| guard(|| Ok(StateHandle::from_json(text)?))).map(State::new)
    }

    /// Starts a game at a constructed position: a position document (format
    /// `kassen-position-1`, see docs/positions.md) as JSON text or as a dict, of any registered
    /// game. The position is checked against the game's schema and rules
    /// (`InvalidPositionError`, 306, naming the field and the rule). The state's `history()`
    /// holds only the actions after the position; `to_json` saves the position with them.
    #[staticmethod]
    fn from_position(py: Python<'_>, position: &Bound<'_, PyAny>) -> Result<State> {
        let handle = match position_arg(position)? {
            Position::Text(text) => py.detach(|| guard(|| Ok(StateHandle::from_position_json(&text)?))),
            Position::Value(v) => py.detach(|| guard(|| Ok(StateHandle::from_position_value(&v)?))),
        };
        handle.map(State::new)
    }

    /// The current state as a position document (a dict: `format`, `game`, `rules_version`,
    /// `config`, `seed`, `position`), the typed state without its history; `from_position`
    /// loads it. Like a save it holds every seat's hidden information.
    fn to_position<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
        let v = self.with_detached(py, |s| guard(|| Ok(s.to_position())))?;
        Ok(value_to_py(py, &v)?)
    }

    /// `to_position` as JSON text.
    fn to_position_json(&self, py: Python<'_>) -> Result<String> {
        self.with_detached(py, |s| guard(|| Ok(s.position_json())))
    }

    /// The current state as a position document written by name (a dict of format
    /// `kassen-position-named-1`: places, pieces, cards and seats as the rulebook names them),
    /// which `from_position` loads back to the same state. Like a save it holds every seat's
    /// secrets. A game without named positions raises `UnsupportedFormatError`.
    fn to_named_position<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
        let v = self.with_detached(py, |s| guard(|| Ok(s.named_position()?)))?;
        Ok(value_to_py(py, &v)?)
    }

    /// `to_named_position` as JSON text.
    fn to_named_position_json(&self, py: Python<'_>) -> Result<String> {
        self.with_detached(py, |s| guard(|| Ok(s.named_position_json()?)))
    }

    /// Whether the game started at a constructed position (`from_position`, or a save of such
    /// a game) rather than at the initial state of its seed.
    fn started_at_position(&self, py: Python<'_>) -> bool {
        self.with(py, |s| s.started_at_position())
    }

    /// The configured game this state belongs to.
    fn game(&self) -> Game {
        Game { inner: self.game.clone() }
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, State>) -> Result<bool> {
        let other = other.get();
        if std::ptr::eq(self, other) {
            return Ok(true);
        }
        // One lock at a time (two threads comparing a == b and b == a cannot deadlock).
        let theirs = other.with(py, |s| s.clone());
        self.with(py, |s| guard(|| Ok(*s == theirs)))
    }

    /// `stable_hash`: identical on every run, platform and surface.
    fn __hash__(&self, py: Python<'_>) -> Result<u64> {
        self.stable_hash(py)
    }

    /// The perfect-recall information-state key of `player` (`-1`: public information only):
    /// a stable 64-bit hash of the seat, the events it has seen and the player to act. Equal
    /// for two states exactly when they give the seat the same events and player to act (a
    /// determinization for the seat keeps it). Cached per state; after a step it costs only
    /// the new events.
    fn information_state_hash(&self, py: Python<'_>, player: IntArg) -> Result<u64> {
        let p = self.player(&player)?;
        self.with(py, |s| guard(|| Ok(s.info_state_hash(p)?)))
    }

    /// The information state behind `information_state_hash` as a JSON string
    /// `{"player", "current_player", "events"}` (OpenSpiel's `information_state_string`).
    fn information_state_string(&self, py: Python<'_>, player: IntArg) -> Result<String> {
        let p = self.player(&player)?;
        self.with_detached(py, |s| guard(|| Ok(s.info_state_string(p)?)))
    }

    /// The same number as `__hash__`, unsigned (the golden files print it in decimal).
    fn stable_hash(&self, py: Python<'_>) -> Result<u64> {
        self.with(py, |s| guard(|| Ok(s.stable_hash())))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> Result<(Bound<'py, PyAny>, (String,))> {
        let f = py.import("kassen._kassen")?.getattr("_state_from_json")?;
        Ok((f, (self.to_json(py)?,)))
    }

    /// Public facts only: never the seed (it determines hidden draws) nor any hand.
    fn __repr__(&self, py: Python<'_>) -> Result<String> {
        self.with(py, |s| {
            guard(|| {
                let game = s.game();
                let cp = s.current_player();
                let who = match cp {
                    TERMINAL => format!("terminal, returns {:?}", s.returns()),
                    -1 => "chance node".to_string(),
                    p => format!("player {p} to act"),
                };
                Ok(format!("<State {} {} after {} actions: {}>", game.id(), game.info().config, s.history().len(), who))
            })
        })
    }
}

/// Loads a saved state (the pickle constructor).
#[pyfunction]
pub fn _state_from_json(py: Python<'_>, text: &str) -> Result<State> {
    State::from_json(py, text)
}

//! `Batch`: N states of one game stepped by one call with the GIL released, writing into numpy
//! arrays that the batch creates once (zero copy: the arrays are the batch's buffers).
//!
//! The arrays (`obs`, `mask`, ...) are allocated by numpy at construction and live as long
//! as anyone holds them; every `reset` and `step` overwrites them in place, so copy what must
//! outlive the next call. `mask`, `legal_count` and `legal_ids` are handed out as read-only
//! views: `step` clears only the mask entries it set in the previous call. Calls on one batch are serialized by a lock taken with the GIL
//! released.

use std::sync::{Mutex, PoisonError};

use kassen_core::batch::{BatchBuffers, BatchDims, BatchError, BatchOptions, BatchOut, DynBatch, LegalOut, ObsBuf, ObsDtype, Opponent};
use kassen_core::engine::GameHandle;
use kassen_core::{ActionId, ErrorCode};
use numpy::ndarray::IxDyn;
use numpy::{PyArray, PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyReadwriteArray, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::convert::Seed;
use crate::errors::{guard, Error, Result};
use crate::game::Game;

impl From<BatchError> for Error {
    fn from(e: BatchError) -> Error {
        Error::new(e.code(), e.to_string())
    }
}

struct Inner {
    batch: Box<dyn DynBatch>,
    actions: Vec<ActionId>,
}

enum ObsArray {
    F32(Py<PyArrayDyn<f32>>),
    U8(Py<PyArrayDyn<u8>>),
}

/// A batch of `num_envs` states of one game (see `kassen._kassen.Batch` in the stub).
#[pyclass(module = "kassen._kassen", name = "Batch", frozen)]
pub struct Batch {
    inner: Mutex<Inner>,
    game: GameHandle,
    dims: BatchDims,
    obs: ObsArray,
    /// `(num_envs, *observation_shape)`.
    obs_shape: Vec<usize>,
    mask: Py<PyArray2<u8>>,
    player: Py<PyArray1<i32>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<u8>>,
    truncated: Py<PyArray1<u8>>,
    final_returns: Py<PyArray2<f32>>,
    episode_len: Py<PyArray1<u32>>,
    legal_count: Py<PyArray1<u32>>,
    legal_ids: Py<PyArray2<u32>>,
}

/// Action ids borrowed from a numpy array, converted under the lock.
enum Actions<'a> {
    I64(&'a [i64]),
    I32(&'a [i32]),
    U32(&'a [u32]),
}

fn fill_actions(src: &Actions<'_>, out: &mut Vec<ActionId>, num_actions: u32) -> Result<()> {
    out.clear();
    let bad = |v: i64| {
        Error::new(ErrorCode::ActionOutOfRange, format!("action {v} is out of range (the game has {num_actions} distinct actions)"))
    };
    match src {
        Actions::U32(s) => out.extend_from_slice(s),
        Actions::I32(s) => {
            for &v in *s {
                out.push(u32::try_from(v).map_err(|_| bad(v as i64))?);
            }
        }
        Actions::I64(s) => {
            for &v in *s {
                out.push(u32::try_from(v).map_err(|_| bad(v))?);
            }
        }
    }
    Ok(())
}

fn rw<'py, T: numpy::Element, D: numpy::ndarray::Dimension>(
    py: Python<'py>,
    a: &Py<PyArray<T, D>>,
    name: &str,
) -> Result<PyReadwriteArray<'py, T, D>> {
    a.bind(py).try_readwrite().map_err(|e| Error::invalid_argument(format!("batch array {name} is not writable: {e}")))
}

fn slice<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(g: &'a mut PyReadwriteArray<'_, T, D>) -> Result<&'a mut [T]> {
    g.as_slice_mut().map_err(|_| Error::invalid_argument("batch array is not contiguous"))
}

/// A caller's output array (`obs_out`, `mask_out`): of dtype `T` (`dtype`) and `shape`,
/// C-contiguous and writable.
fn out_array<'py, T: numpy::Element>(
    out: &Bound<'py, PyAny>,
    name: &str,
    dtype: &str,
    shape: &[usize],
) -> Result<PyReadwriteArray<'py, T, IxDyn>> {
    let a = out.cast::<PyArrayDyn<T>>().map_err(|_| Error::wrong_type(format!("{name} must be a numpy array of {dtype}")))?;
    if !a.is_c_contiguous() {
        return Err(Error::invalid_argument(format!("{name} must be C-contiguous")));
    }
    if a.shape() != shape {
        return Err(Error::invalid_argument(format!("{name} has shape {:?}, the batch's {shape:?}", a.shape())));
    }
    a.try_readwrite().map_err(|e| Error::invalid_argument(format!("{name} is not writable: {e}")))
}

/// Where a call writes the observations and masks: the caller's arrays, or (`None`) the
/// batch's own `obs` and `mask`.
#[derive(Clone, Copy)]
struct Outs<'a, 'py> {
    obs: Option<&'a Bound<'py, PyAny>>,
    mask: Option<&'a Bound<'py, PyAny>>,
}

impl Batch {
    /// Runs a step (`actions`) or a reset on the batch with the GIL released and every array
    /// borrowed as a slice; the observations and masks go to `outs` where given.
    fn run(&self, py: Python<'_>, actions: Option<Actions<'_>>, reset_seed: Option<u64>, outs: Outs<'_, '_>) -> Result<()> {
        let (mut obs_f, mut obs_u) = match (&self.obs, outs.obs) {
            (ObsArray::F32(a), None) => (Some(rw(py, a, "obs")?), None),
            (ObsArray::U8(a), None) => (None, Some(rw(py, a, "obs")?)),
            (ObsArray::F32(_), Some(o)) => (Some(out_array::<f32>(o, "obs_out", "float32", &self.obs_shape)?), None),
            (ObsArray::U8(_), Some(o)) => (None, Some(out_array::<u8>(o, "obs_out", "uint8", &self.obs_shape)?)),
        };
        let mask_shape = [self.dims.num_envs, self.dims.num_actions];
        let (mut mask, mut mask_own) = match outs.mask {
            Some(m) => (Some(out_array::<u8>(m, "mask_out", "uint8", &mask_shape)?), None),
            None => (None, Some(rw(py, &self.mask, "mask")?)),
        };
        let (mut player, mut rewards) = (rw(py, &self.player, "player")?, rw(py, &self.rewards, "rewards")?);
        let (mut term, mut trunc) = (rw(py, &self.terminated, "terminated")?, rw(py, &self.truncated, "truncated")?);
        let (mut fin, mut len) = (rw(py, &self.final_returns, "final_returns")?, rw(py, &self.episode_len, "episode_lengths")?);
        let (mut count, mut ids) = (rw(py, &self.legal_count, "legal_count")?, rw(py, &self.legal_ids, "legal_ids")?);
        let obs = match (&mut obs_f, &mut obs_u) {
            (Some(g), _) => ObsBuf::F32(slice(g)?),
            (_, Some(g)) => ObsBuf::U8(slice(g)?),
            _ => unreachable!("one observation array"),
        };
        let mut out = BatchOut {
            obs,
            mask: match (&mut mask, &mut mask_own) {
                (Some(g), _) => slice(g)?,
                (_, Some(g)) => slice(g)?,
                _ => unreachable!("one mask array"),
            },
            player: slice(&mut player)?,
            rewards: slice(&mut rewards)?,
            terminated: slice(&mut term)?,
            truncated: slice(&mut trunc)?,
            final_returns: slice(&mut fin)?,
            episode_len: slice(&mut len)?,
            legal: Some(LegalOut { count: slice(&mut count)?, ids: slice(&mut ids)? }),
        };
        let num_actions = self.game.info().num_distinct_actions;
        let caller_mask = outs.mask.is_some();
        py.detach(|| {
            guard(|| {
                let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
                let Inner { batch, actions: scratch } = &mut *inner;
                if caller_mask {
                    // A caller's array may sit where the last one was freed: write it in full.
                    batch.forget_mask();
                }
                match &actions {
                    Some(a) => {
                        fill_actions(a, scratch, num_actions)?;
                        Ok(batch.step(scratch, &mut out)?)
                    }
                    None => Ok(batch.reset(reset_seed, &mut out)?),
                }
            })
        })
    }
}

#[pymethods]
impl Batch {
    #[new]
    #[pyo3(
        signature = (game, num_envs, seed=Seed(0), *, threads=1, obs_seat=None, opponent=None, learner_seat=0, max_episode_steps=None, obs_dtype="float32"),
        text_signature = "(game, num_envs, seed=0, *, threads=1, obs_seat=None, opponent=None, learner_seat=0, max_episode_steps=None, obs_dtype='float32')"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: PyRef<'_, Game>,
        num_envs: usize,
        seed: Seed,
        threads: usize,
        obs_seat: Option<i32>,
        opponent: Option<&str>,
        learner_seat: usize,
        max_episode_steps: Option<u32>,
        obs_dtype: &str,
    ) -> Result<Batch> {
        let dtype = match obs_dtype {
            "float32" => ObsDtype::F32,
            "uint8" => ObsDtype::U8,
            other => return Err(Error::invalid_argument(format!("obs_dtype must be \"float32\" or \"uint8\", got {other:?}"))),
        };
        let opts = BatchOptions {
            num_envs,
            seed: seed.0,
            threads,
            obs_seat,
            opponent: opponent.map(Opponent::parse).transpose()?,
            learner_seat,
            max_episode_steps,
            obs_dtype: dtype,
        };
        let handle = game.inner.clone();
        let batch = guard(|| Ok(handle.new_batch(opts)?))?;
        let d = batch.dims();
        let mut obs_shape = vec![d.num_envs];
        obs_shape.extend(&handle.info().observation_shape);
        let obs = match dtype {
            ObsDtype::F32 => ObsArray::F32(PyArray::zeros(py, IxDyn(&obs_shape), false).unbind()),
            ObsDtype::U8 => ObsArray::U8(PyArray::zeros(py, IxDyn(&obs_shape), false).unbind()),
        };
        let n = d.num_envs;
        // Sizes come from the same dims the core checks against.
        debug_assert_eq!(BatchBuffers::new(d, dtype).mask.len(), n * d.num_actions);
        Ok(Batch {
            inner: Mutex::new(Inner { batch, actions: Vec::with_capacity(n) }),
            game: handle,
            dims: d,
            obs,
            obs_shape,
            mask: PyArray2::zeros(py, [n, d.num_actions], false).unbind(),
            player: PyArray1::zeros(py, n, false).unbind(),
            rewards: PyArray2::zeros(py, [n, d.num_players], false).unbind(),
            terminated: PyArray1::zeros(py, n, false).unbind(),
            truncated: PyArray1::zeros(py, n, false).unbind(),
            final_returns: PyArray2::zeros(py, [n, d.num_players], false).unbind(),
            episode_len: PyArray1::zeros(py, n, false).unbind(),
            legal_count: PyArray1::zeros(py, n, false).unbind(),
            legal_ids: PyArray2::zeros(py, [n, d.max_legal], false).unbind(),
        })
    }

    /// Starts new episodes and writes the first observations (see the stub).
    #[pyo3(signature = (seed=None, *, obs_out=None, mask_out=None))]
    fn reset(
        &self,
        py: Python<'_>,
        seed: Option<Seed>,
        obs_out: Option<Bound<'_, PyAny>>,
        mask_out: Option<Bound<'_, PyAny>>,
    ) -> Result<()> {
        self.run(py, None, seed.map(|s| s.0), Outs { obs: obs_out.as_ref(), mask: mask_out.as_ref() })
    }

    /// Applies one action per env, with the GIL released (see the stub).
    #[pyo3(signature = (actions, *, obs_out=None, mask_out=None))]
    fn step(
        &self,
        py: Python<'_>,
        actions: Bound<'_, PyAny>,
        obs_out: Option<Bound<'_, PyAny>>,
        mask_out: Option<Bound<'_, PyAny>>,
    ) -> Result<()> {
        let outs = Outs { obs: obs_out.as_ref(), mask: mask_out.as_ref() };
        let arr = match actions.cast::<PyArray1<i64>>() {
            Ok(a) => a.clone(),
            Err(_) => {
                let np = py.import("numpy")?;
                let converted = np.call_method1("asarray", (&actions,))?;
                if let Ok(a) = converted.cast::<PyArray1<i32>>() {
                    let ro = a.try_readonly().map_err(|e| Error::invalid_argument(e.to_string()))?;
                    return self.step_with(py, &ro, |s| Actions::I32(s), outs);
                }
                if let Ok(a) = converted.cast::<PyArray1<u32>>() {
                    let ro = a.try_readonly().map_err(|e| Error::invalid_argument(e.to_string()))?;
                    return self.step_with(py, &ro, |s| Actions::U32(s), outs);
                }
                let kind = converted.getattr("dtype")?.getattr("kind")?.extract::<String>()?;
                let ndim = converted.getattr("ndim")?.extract::<usize>()?;
                if !matches!(kind.as_str(), "i" | "u") || ndim != 1 {
                    return Err(Error::wrong_type(format!(
                        "actions must be a 1-d array of ints, got kind {kind:?} with {ndim} dimensions"
                    )));
                }
                np.call_method1("ascontiguousarray", (converted, "int64"))?.cast_into::<PyArray1<i64>>().map_err(PyErr::from)?
            }
        };
        let ro = arr.try_readonly().map_err(|e| Error::invalid_argument(e.to_string()))?;
        self.step_with(py, &ro, |s| Actions::I64(s), outs)
    }

    /// Observations, `(num_envs, *observation_shape)`, float32 or uint8.
    #[getter]
    fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match &self.obs {
            ObsArray::F32(a) => a.bind(py).clone().into_any(),
            ObsArray::U8(a) => a.bind(py).clone().into_any(),
        }
    }

    /// Legal-action masks, `(num_envs, num_distinct_actions)` uint8, read-only.
    #[getter]
    fn mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        read_only(self.mask.bind(py).as_any())
    }

    /// The number of legal actions per env, uint32, read-only.
    #[getter]
    fn legal_count<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        read_only(self.legal_count.bind(py).as_any())
    }

    /// The legal action ids per env, `(num_envs, max_legal_actions)` uint32, read-only: row
    /// `i` starts with the first `min(legal_count[i], max_legal_actions)` ids, ascending.
    #[getter]
    fn legal_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        read_only(self.legal_ids.bind(py).as_any())
    }

    /// Width of a `legal_ids` row (the game's `max_legal_actions`).
    #[getter]
    fn max_legal_actions(&self) -> usize {
        self.dims().max_legal
    }

    /// The player to act per env, int32.
    #[getter]
    fn current_player<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        self.player.bind(py).clone()
    }

    /// Rewards per seat of the last step, `(num_envs, num_players)` float32.
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.rewards.bind(py).clone()
    }

    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        self.terminated.bind(py).clone()
    }

    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        self.truncated.bind(py).clone()
    }

    /// Returns of the episodes that ended in the last step (zero elsewhere).
    #[getter]
    fn final_returns<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.final_returns.bind(py).clone()
    }

    /// Lengths of the episodes that ended in the last step (zero elsewhere), uint32.
    #[getter]
    fn episode_lengths<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        self.episode_len.bind(py).clone()
    }

    #[getter]
    fn game(&self) -> Game {
        Game { inner: self.game.clone() }
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.dims().num_envs
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.dims().num_players
    }

    #[getter]
    fn num_actions(&self) -> usize {
        self.dims().num_actions
    }

    #[getter]
    fn obs_dtype(&self) -> &'static str {
        match self.obs {
            ObsArray::F32(_) => "float32",
            ObsArray::U8(_) => "uint8",
        }
    }

    /// The batch seed (the last `reset(seed)` or the constructor's).
    #[getter]
    fn seed(&self, py: Python<'_>) -> u64 {
        py.detach(|| self.inner.lock().unwrap_or_else(PoisonError::into_inner).batch.options().seed)
    }

    /// Worker threads of `step` and `reset` (results do not depend on it).
    #[getter]
    fn threads(&self, py: Python<'_>) -> usize {
        py.detach(|| self.inner.lock().unwrap_or_else(PoisonError::into_inner).batch.options().threads)
    }

    #[setter]
    fn set_threads(&self, py: Python<'_>, threads: usize) -> Result<()> {
        Ok(py.detach(|| self.inner.lock().unwrap_or_else(PoisonError::into_inner).batch.set_threads(threads))?)
    }
}

impl Batch {
    fn dims(&self) -> BatchDims {
        self.dims
    }

    fn step_with<T: numpy::Element + Copy>(
        &self,
        py: Python<'_>,
        ro: &PyReadonlyArray1<'_, T>,
        wrap: impl for<'a> Fn(&'a [T]) -> Actions<'a>,
        outs: Outs<'_, '_>,
    ) -> Result<()> {
        let owned;
        let s: &[T] = match ro.as_slice() {
            Ok(s) => s,
            Err(_) => {
                owned = ro.as_array().to_vec();
                &owned
            }
        };
        if ro.len() != s.len() {
            return Err(Error::invalid_argument("actions must be a 1-d array"));
        }
        self.run(py, Some(wrap(s)), None, outs)
    }
}

/// A read-only view of a batch array (the batch keeps writing into the array itself).
fn read_only<'py>(a: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let view = a.call_method0("view")?;
    view.getattr("flags")?.setattr("writeable", false)?;
    Ok(view)
}

/// The seed of the initial state of env `slot`'s `episode`-th episode in a batch seeded
/// `seed` (`game.new_initial_state(episode_seed(...))` replays it).
#[pyfunction]
pub fn episode_seed(seed: Seed, slot: usize, episode: u64) -> u64 {
    kassen_core::batch::episode_seed(seed.0, slot, episode)
}

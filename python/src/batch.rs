//! `Batch`: N states of one game stepped by one call with the GIL released, writing into numpy
//! arrays that the batch creates once (zero copy: the arrays are the batch's buffers).
//!
//! The arrays (`obs`, `mask`, ...) are made at construction over memory the batch allocates
//! and owns (numpy sees it through a container without a buffer interface, so it cannot
//! resize it, and a read-only array over it cannot be made writable); they live as long as
//! anyone holds them; every `reset` and `step` overwrites them in place, so copy what must
//! outlive the next call. `mask`, `legal_count` and `legal_ids` are read-only: `step` clears
//! only the mask entries it set in the previous call. Before every call the batch checks that
//! each array still has its dtype, shape, strides and data address (all settable attributes
//! of a numpy array), copies the actions out (they may view its own arrays), and refuses
//! caller arrays (`obs_out`, `mask_out`) that share memory with what it writes. Calls on one
//! batch are serialized by a lock taken with the GIL released.

use std::sync::{Mutex, PoisonError};

use kassen_core::batch::{BatchBuffers, BatchDims, BatchError, BatchOptions, BatchOut, DynBatch, LegalOut, ObsBuf, ObsDtype, Opponent};
use kassen_core::engine::GameHandle;
use kassen_core::{ActionId, ErrorCode};
use numpy::ndarray::IxDyn;
use numpy::{PyArray, PyArray1, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyReadwriteArray, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::convert::{IntArg, Seed};
use crate::errors::{guard, Error, Result};
use crate::game::Game;

impl From<BatchError> for Error {
    fn from(e: BatchError) -> Error {
        Error::new(e.code(), e.to_string())
    }
}

struct Inner {
    batch: Box<dyn DynBatch>,
}

enum ObsArray {
    F32(Py<PyArrayDyn<f32>>),
    U8(Py<PyArrayDyn<u8>>),
}

/// Where one of the batch's own arrays keeps its elements: memory the batch allocated and
/// owns (numpy sees it through a container that exposes no buffer), recorded at construction.
/// numpy cannot resize, reallocate or make writable an array over it; the batch checks before
/// every call that the array object still describes exactly this memory.
#[derive(Clone, Copy)]
struct Own {
    /// Address of the first element.
    ptr: usize,
    /// Elements.
    len: usize,
    /// Bytes (`len` times the element size).
    bytes: usize,
}

impl Own {
    fn span(&self, name: &'static str) -> Span {
        Span { name, start: self.ptr, end: self.ptr + self.bytes }
    }
}

/// The bytes one array of a call covers.
#[derive(Clone, Copy)]
struct Span {
    name: &'static str,
    start: usize,
    end: usize,
}

/// Fails if two non-empty spans share a byte (the batch writes each through its own slice).
fn disjoint(mut spans: Vec<Span>) -> Result<()> {
    spans.retain(|s| s.start < s.end);
    spans.sort_by_key(|s| s.start);
    for w in spans.windows(2) {
        if w[1].start < w[0].end {
            return Err(Error::invalid_argument(format!("{} and {} share memory", w[0].name, w[1].name)));
        }
    }
    Ok(())
}

/// `n` zeros, or code 7 (out of memory) if they cannot be allocated.
fn zeros<T: Clone + Default>(n: usize, name: &str) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| Error::new(ErrorCode::OutOfMemory, format!("out of memory: no memory for the batch's {name} ({n} elements)")))?;
    v.resize(n, T::default());
    Ok(v)
}

/// A new array of `shape` over memory the batch owns (see [`Own`]); read-only for numpy if
/// `!writeable` (and then it cannot be made writable: its memory is no numpy buffer).
fn owned<'py, T: numpy::Element + Clone + Default>(
    py: Python<'py>,
    shape: &[usize],
    name: &str,
    writeable: bool,
) -> Result<(Py<PyArrayDyn<T>>, Own)> {
    let n: usize = shape.iter().product();
    let data = numpy::ndarray::ArrayD::from_shape_vec(IxDyn(shape), zeros::<T>(n, name)?)
        .map_err(|e| Error::invalid_argument(format!("batch array {name}: {e}")))?;
    let a = PyArray::from_owned_array(py, data);
    if !writeable {
        a.getattr("flags")?.setattr("writeable", false)?;
    }
    let own = Own { ptr: a.data() as usize, len: n, bytes: n * std::mem::size_of::<T>() };
    Ok((a.unbind(), own))
}

/// Checks that the batch's own array `a` still describes its memory `own`: the same dtype,
/// shape, C-contiguous strides and data address. (Its dtype, shape and strides are attributes
/// a caller can set on the array object; writing through a changed one would corrupt memory.)
fn check_own<T: numpy::Element>(py: Python<'_>, a: &Py<PyArrayDyn<T>>, name: &str, shape: &[usize], own: &Own) -> Result<()> {
    let a = a.bind(py);
    let same = a.dtype().is_equiv_to(&numpy::dtype::<T>(py))
        && a.shape() == shape
        && a.is_c_contiguous()
        && a.data() as usize == own.ptr
        && a.len() == own.len;
    if same {
        Ok(())
    } else {
        Err(Error::invalid_argument(format!(
            "the batch's {name} array was changed (dtype, shape, strides or data); the batch writes only into the arrays it made"
        )))
    }
}

/// A batch of `num_envs` states of one game (see `kassen._kassen.Batch` in the stub).
#[pyclass(module = "kassen._kassen", name = "Batch", frozen)]
pub struct Batch {
    inner: Mutex<Inner>,
    game: GameHandle,
    dims: BatchDims,
    dtype: ObsDtype,
    obs: ObsArray,
    /// `(num_envs, compact_len)` or `(num_envs, *observation_shape)`.
    obs_shape: Vec<usize>,
    mask: Py<PyArrayDyn<u8>>,
    player: Py<PyArrayDyn<i32>>,
    rewards: Py<PyArrayDyn<f32>>,
    terminated: Py<PyArrayDyn<u8>>,
    truncated: Py<PyArrayDyn<u8>>,
    final_returns: Py<PyArrayDyn<f32>>,
    episode_len: Py<PyArrayDyn<u32>>,
    legal_count: Py<PyArrayDyn<u32>>,
    legal_ids: Py<PyArrayDyn<u32>>,
    /// The memory of each array above, in this order: obs, mask, player, rewards, terminated,
    /// truncated, final_returns, episode_len, legal_count, legal_ids.
    own: [Own; 10],
}

const NAMES: [&str; 10] =
    ["obs", "mask", "current_player", "rewards", "terminated", "truncated", "final_returns", "episode_lengths", "legal_count", "legal_ids"];

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

/// The span of a caller's output array.
fn out_span<T: numpy::Element>(g: &mut PyReadwriteArray<'_, T, IxDyn>, name: &'static str) -> Result<(Span, usize, usize)> {
    let s = g.as_slice_mut().map_err(|_| Error::invalid_argument(format!("{name} must be C-contiguous")))?;
    let (ptr, len) = (s.as_mut_ptr() as usize, s.len());
    Ok((Span { name, start: ptr, end: ptr + len * std::mem::size_of::<T>() }, ptr, len))
}

/// Where a call writes the observations and masks: the caller's arrays, or (`None`) the
/// batch's own `obs` and `mask`.
#[derive(Clone, Copy)]
struct Outs<'a, 'py> {
    obs: Option<&'a Bound<'py, PyAny>>,
    mask: Option<&'a Bound<'py, PyAny>>,
}

impl Batch {
    /// Checks that every array the batch made still describes its memory.
    fn check_own(&self, py: Python<'_>) -> Result<()> {
        let d = self.dims;
        let n = d.num_envs;
        match &self.obs {
            ObsArray::F32(a) => check_own(py, a, "obs", &self.obs_shape, &self.own[0])?,
            ObsArray::U8(a) => check_own(py, a, "obs", &self.obs_shape, &self.own[0])?,
        }
        check_own(py, &self.mask, "mask", &[n, d.num_actions], &self.own[1])?;
        check_own(py, &self.player, "current_player", &[n], &self.own[2])?;
        check_own(py, &self.rewards, "rewards", &[n, d.num_players], &self.own[3])?;
        check_own(py, &self.terminated, "terminated", &[n], &self.own[4])?;
        check_own(py, &self.truncated, "truncated", &[n], &self.own[5])?;
        check_own(py, &self.final_returns, "final_returns", &[n, d.num_players], &self.own[6])?;
        check_own(py, &self.episode_len, "episode_lengths", &[n], &self.own[7])?;
        check_own(py, &self.legal_count, "legal_count", &[n], &self.own[8])?;
        check_own(py, &self.legal_ids, "legal_ids", &[n, d.max_legal], &self.own[9])
    }

    /// Runs a step (`actions`, already copied out of the caller's array) or a reset with the
    /// GIL released; the observations and masks go to `outs` where given.
    fn run(&self, py: Python<'_>, actions: Option<Vec<ActionId>>, reset_seed: Option<u64>, outs: Outs<'_, '_>) -> Result<()> {
        self.check_own(py)?;
        let mut obs_f = None;
        let mut obs_u = None;
        match (&self.obs, outs.obs) {
            (_, None) => {}
            (ObsArray::F32(_), Some(o)) => obs_f = Some(out_array::<f32>(o, "obs_out", "float32", &self.obs_shape)?),
            (ObsArray::U8(_), Some(o)) => obs_u = Some(out_array::<u8>(o, "obs_out", "uint8", &self.obs_shape)?),
        }
        let mask_shape = [self.dims.num_envs, self.dims.num_actions];
        let mut mask_out = outs.mask.map(|m| out_array::<u8>(m, "mask_out", "uint8", &mask_shape)).transpose()?;
        // The memory written: the caller's arrays where given, else the batch's own.
        let mut spans: Vec<Span> = (2..10).map(|i| self.own[i].span(NAMES[i])).collect();
        let obs_at = match (&mut obs_f, &mut obs_u) {
            (Some(g), _) => Some(out_span(g, "obs_out")?),
            (_, Some(g)) => Some(out_span(g, "obs_out")?),
            _ => None,
        };
        let obs_at = match obs_at {
            Some((span, ptr, len)) => {
                spans.push(span);
                (ptr, len)
            }
            None => {
                spans.push(self.own[0].span("obs"));
                (self.own[0].ptr, self.own[0].len)
            }
        };
        let mask_at = match &mut mask_out {
            Some(g) => {
                let (span, ptr, len) = out_span(g, "mask_out")?;
                spans.push(span);
                (ptr, len)
            }
            None => {
                spans.push(self.own[1].span("mask"));
                (self.own[1].ptr, self.own[1].len)
            }
        };
        disjoint(spans)?;
        let f32_obs = matches!(self.obs, ObsArray::F32(_));
        let own = self.own;
        let caller_mask = outs.mask.is_some();
        py.detach(|| {
            guard(|| {
                let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
                // SAFETY (all slices): each range is memory the batch owns (alive while `self`
                // holds its arrays; numpy cannot free or move it) or a caller's array borrowed
                // above for writing, checked to be of its length, aligned, and disjoint from every
                // other range; the batch's lock is held, so no other call makes slices of it.
                unsafe fn at<'a, T>(ptr: usize, len: usize) -> &'a mut [T] {
                    unsafe { std::slice::from_raw_parts_mut(ptr as *mut T, len) }
                }
                let mut out = unsafe {
                    BatchOut {
                        obs: if f32_obs { ObsBuf::F32(at(obs_at.0, obs_at.1)) } else { ObsBuf::U8(at(obs_at.0, obs_at.1)) },
                        mask: at(mask_at.0, mask_at.1),
                        player: at(own[2].ptr, own[2].len),
                        rewards: at(own[3].ptr, own[3].len),
                        terminated: at(own[4].ptr, own[4].len),
                        truncated: at(own[5].ptr, own[5].len),
                        final_returns: at(own[6].ptr, own[6].len),
                        episode_len: at(own[7].ptr, own[7].len),
                        legal: Some(LegalOut { count: at(own[8].ptr, own[8].len), ids: at(own[9].ptr, own[9].len) }),
                    }
                };
                let batch = &mut inner.batch;
                if caller_mask {
                    // A caller's array may sit where the last one was freed: write it in full.
                    batch.forget_mask();
                }
                match &actions {
                    Some(a) => Ok(batch.step(a, &mut out)?),
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
        signature = (game, num_envs, seed=Seed(0), *, threads=IntArg(Ok(1)), obs_seat=None, opponent=None, learner_seat=IntArg(Ok(0)), max_episode_steps=None, obs_dtype="compact"),
        text_signature = "(game, num_envs, seed=0, *, threads=1, obs_seat=None, opponent=None, learner_seat=0, max_episode_steps=None, obs_dtype='compact')"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: PyRef<'_, Game>,
        num_envs: IntArg,
        seed: Seed,
        threads: IntArg,
        obs_seat: Option<IntArg>,
        opponent: Option<&str>,
        learner_seat: IntArg,
        max_episode_steps: Option<IntArg>,
        obs_dtype: &str,
    ) -> Result<Batch> {
        crate::numpy_check::require(py, "Batch")?;
        let dtype = match obs_dtype {
            "compact" => ObsDtype::Compact,
            "float32" => ObsDtype::F32,
            "uint8" => ObsDtype::U8,
            other => {
                return Err(Error::invalid_argument(format!(
                    "obs_dtype must be \"compact\", \"float32\" or \"uint8\", got {}",
                    kassen_core::input::quote(other)
                )))
            }
        };
        let opts = BatchOptions {
            num_envs: option_int("num_envs", &num_envs)?,
            seed: seed.0,
            threads: option_int("threads", &threads)?,
            obs_seat: obs_seat.map(|v| option_int("obs_seat", &v)).transpose()?,
            opponent: opponent.map(Opponent::parse).transpose()?,
            learner_seat: option_int("learner_seat", &learner_seat)?,
            max_episode_steps: max_episode_steps.map(|v| option_int("max_episode_steps", &v)).transpose()?,
            obs_dtype: dtype,
        };
        let handle = game.inner.clone();
        let batch = guard(|| Ok(handle.new_batch(opts)?))?;
        let d = batch.dims();
        let mut obs_shape = vec![d.num_envs];
        if dtype == ObsDtype::Compact {
            obs_shape.push(d.obs_len);
        } else {
            obs_shape.extend(&handle.info().observation_shape);
        }
        let (obs, obs_own) = match dtype {
            ObsDtype::F32 => owned::<f32>(py, &obs_shape, "obs", true).map(|(a, o)| (ObsArray::F32(a), o))?,
            ObsDtype::U8 | ObsDtype::Compact => owned::<u8>(py, &obs_shape, "obs", true).map(|(a, o)| (ObsArray::U8(a), o))?,
        };
        let n = d.num_envs;
        let (mask, mask_own) = owned::<u8>(py, &[n, d.num_actions], "mask", false)?;
        let (player, player_own) = owned::<i32>(py, &[n], "current_player", true)?;
        let (rewards, rewards_own) = owned::<f32>(py, &[n, d.num_players], "rewards", true)?;
        let (terminated, terminated_own) = owned::<u8>(py, &[n], "terminated", true)?;
        let (truncated, truncated_own) = owned::<u8>(py, &[n], "truncated", true)?;
        let (final_returns, final_own) = owned::<f32>(py, &[n, d.num_players], "final_returns", true)?;
        let (episode_len, len_own) = owned::<u32>(py, &[n], "episode_lengths", true)?;
        let (legal_count, count_own) = owned::<u32>(py, &[n], "legal_count", false)?;
        let (legal_ids, ids_own) = owned::<u32>(py, &[n, d.max_legal], "legal_ids", false)?;
        // Sizes come from the same dims the core checks against.
        debug_assert_eq!(BatchBuffers::new(d, dtype).mask.len(), mask_own.len);
        Ok(Batch {
            inner: Mutex::new(Inner { batch }),
            game: handle,
            dims: d,
            dtype,
            obs,
            obs_shape,
            mask,
            player,
            rewards,
            terminated,
            truncated,
            final_returns,
            episode_len,
            legal_count,
            legal_ids,
            own: [obs_own, mask_own, player_own, rewards_own, terminated_own, truncated_own, final_own, len_own, count_own, ids_own],
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
        // Copied out first, so that actions may be a view of the batch's own arrays
        // (`b.legal_ids[:, 0]`), which the step then overwrites.
        let actions = self.actions_vec(py, &actions)?;
        self.run(py, Some(actions), None, outs)
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
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<u8>> {
        self.mask.bind(py).clone()
    }

    /// The number of legal actions per env, uint32, read-only.
    #[getter]
    fn legal_count<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<u32>> {
        self.legal_count.bind(py).clone()
    }

    /// The legal action ids per env, `(num_envs, max_legal_actions)` uint32, read-only: row
    /// `i` starts with the first `min(legal_count[i], max_legal_actions)` ids, ascending.
    #[getter]
    fn legal_ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<u32>> {
        self.legal_ids.bind(py).clone()
    }

    /// Width of a `legal_ids` row (the game's `max_legal_actions`).
    #[getter]
    fn max_legal_actions(&self) -> usize {
        self.dims().max_legal
    }

    /// The player to act per env, int32.
    #[getter]
    fn current_player<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<i32>> {
        self.player.bind(py).clone()
    }

    /// Rewards per seat of the last step, `(num_envs, num_players)` float32.
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<f32>> {
        self.rewards.bind(py).clone()
    }

    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<u8>> {
        self.terminated.bind(py).clone()
    }

    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<u8>> {
        self.truncated.bind(py).clone()
    }

    /// Returns of the episodes that ended in the last step (zero elsewhere).
    #[getter]
    fn final_returns<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<f32>> {
        self.final_returns.bind(py).clone()
    }

    /// Lengths of the episodes that ended in the last step (zero elsewhere), uint32.
    #[getter]
    fn episode_lengths<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<u32>> {
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
        self.dtype.name()
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
    fn set_threads(&self, py: Python<'_>, threads: i64) -> Result<()> {
        let threads = usize::try_from(threads)
            .map_err(|_| Error::from(kassen_core::SetupError::OutOfRange(format!("threads must not be negative, got {threads}"))))?;
        Ok(py.detach(|| self.inner.lock().unwrap_or_else(PoisonError::into_inner).batch.set_threads(threads))?)
    }
}

impl Batch {
    fn dims(&self) -> BatchDims {
        self.dims
    }

    /// The caller's actions (any 1-d int array or sequence) as action ids, copied out with
    /// every borrow of the caller's array released before the call writes anything.
    fn actions_vec(&self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> Result<Vec<ActionId>> {
        let num_actions = self.game.info().num_distinct_actions;
        let mut out = Vec::new();
        out.try_reserve_exact(self.dims.num_envs)
            .map_err(|_| Error::new(ErrorCode::OutOfMemory, "out of memory: no memory for the actions"))?;
        if let Ok(a) = actions.cast::<PyArray1<i64>>() {
            return copy_actions(a, |s| Actions::I64(s), &mut out, num_actions).map(|()| out);
        }
        let np = py.import("numpy")?;
        let converted = np.call_method1("asarray", (actions,))?;
        if let Ok(a) = converted.cast::<PyArray1<i32>>() {
            return copy_actions(a, |s| Actions::I32(s), &mut out, num_actions).map(|()| out);
        }
        if let Ok(a) = converted.cast::<PyArray1<u32>>() {
            return copy_actions(a, |s| Actions::U32(s), &mut out, num_actions).map(|()| out);
        }
        let kind = converted.getattr("dtype")?.getattr("kind")?.extract::<String>()?;
        let ndim = converted.getattr("ndim")?.extract::<usize>()?;
        if !matches!(kind.as_str(), "i" | "u") || ndim != 1 {
            return Err(Error::wrong_type(format!("actions must be a 1-d array of ints, got kind {kind:?} with {ndim} dimensions")));
        }
        let a = np.call_method1("ascontiguousarray", (converted, "int64"))?.cast_into::<PyArray1<i64>>().map_err(PyErr::from)?;
        copy_actions(&a, |s| Actions::I64(s), &mut out, num_actions)?;
        Ok(out)
    }
}

/// Copies the 1-d array `a` into `out` as action ids (its borrow ends on return).
fn copy_actions<T: numpy::Element + Copy>(
    a: &Bound<'_, PyArray1<T>>,
    wrap: impl for<'a> Fn(&'a [T]) -> Actions<'a>,
    out: &mut Vec<ActionId>,
    num_actions: u32,
) -> Result<()> {
    let ro = a.try_readonly().map_err(|e| Error::invalid_argument(e.to_string()))?;
    match ro.as_slice() {
        Ok(s) => fill_actions(&wrap(s), out, num_actions),
        Err(_) => fill_actions(&wrap(&ro.as_array().to_vec()), out, num_actions),
    }
}

/// The seed of the initial state of env `slot`'s `episode`-th episode in a batch seeded
/// `seed` (`game.new_initial_state(episode_seed(...))` replays it).
#[pyfunction]
pub fn episode_seed(seed: Seed, slot: usize, episode: u64) -> u64 {
    kassen_core::batch::episode_seed(seed.0, slot, episode)
}

/// An int option of `Batch` as the type the core takes. One that does not fit it (negative,
/// or past its range, `2**64` included) is the same out-of-range error as a count the core
/// cannot serve (`ConfigOutOfRangeError`, code 102), never a bare `OverflowError`.
fn option_int<T: TryFrom<i64>>(name: &str, v: &IntArg) -> Result<T> {
    let text = match &v.0 {
        Ok(x) => match T::try_from(*x) {
            Ok(t) => return Ok(t),
            Err(_) => x.to_string(),
        },
        Err(text) => text.clone(),
    };
    Err(kassen_core::SetupError::OutOfRange(format!("{name} {text} is out of range")).into())
}

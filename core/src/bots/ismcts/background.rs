//! A search on worker threads that a user interface starts, polls and stops without blocking.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Instant;

use serde::Serialize;

use super::search::{hooks, threads_unavailable, Control};
use super::{analyze_carried, analyze_with, Decision, KeptSlot, SearchParams};
use crate::engine::StateHandle;
use crate::error::{Error, RuleError};
use crate::game::ActionId;

/// What a running search has done so far.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Progress {
    /// Iterations done, over every thread.
    pub iterations: u64,
    /// The most visited action so far (published every few hundred iterations per thread);
    /// `None` before the first publication.
    pub best: Option<ActionId>,
    /// Whether the search has ended (budget spent, stopped, or no search needed).
    pub done: bool,
    pub elapsed_ms: f64,
}

/// How the worker of a search ended, or that it has not.
enum Outcome {
    Running,
    Ended(Result<Decision, Error>),
    /// The worker panicked (a bug in kassen): the panic's text.
    Panicked(String),
}

/// What the worker hands over to whoever waits, and the signal that it did.
struct Shared {
    outcome: Mutex<Outcome>,
    ended: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Outcome> {
        self.outcome.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Ends the worker's part: records its outcome and wakes every waiter, also when the search
/// panicked (then it records the panic).
struct Handover {
    shared: Arc<Shared>,
    result: Option<Result<Decision, Error>>,
}

impl Drop for Handover {
    fn drop(&mut self) {
        let outcome = match self.result.take() {
            Some(r) => Outcome::Ended(r),
            None => Outcome::Panicked("the search thread panicked".into()),
        };
        *self.shared.lock() = outcome;
        self.shared.ended.notify_all();
    }
}

/// A running search (see [`Search::start`]). Every method takes `&self` and may be called
/// from any thread at the same time as any other: [`Search::progress`] and [`Search::stop`]
/// never block (a progress taken while another thread waits says "running" or "done" with the
/// decision, never an error), [`Search::wait`] blocks until the end and every waiter gets the
/// same decision. Dropping it stops the search and waits for its threads.
pub struct Search {
    control: Arc<Control>,
    shared: Arc<Shared>,
    worker: Mutex<Option<JoinHandle<()>>>,
    started: Instant,
}

impl Search {
    /// Starts searching `state` (copied) on a new thread (and `params.threads - 1` more) and
    /// returns at once. Errors: invalid parameters, a finished game, a constructed position
    /// the search cannot determinize (`PositionNotSupported`), or a thread the system refuses
    /// to start (`ThreadsUnavailable`; one of the worker's own threads refused later is the
    /// outcome of [`Search::wait`]).
    pub fn start(state: &StateHandle, params: SearchParams) -> Result<Search, Error> {
        Search::start_carried(state, params, None)
    }

    /// [`Search::start`], going on from the tree in `carry` when it serves this decision and
    /// leaving the search's own there at the end (a bot reusing its tree, [`super::IsmctsBot`]).
    pub(crate) fn start_carried(state: &StateHandle, params: SearchParams, carry: Option<KeptSlot>) -> Result<Search, Error> {
        params.validate()?;
        if state.is_terminal() {
            return Err(RuleError::GameOver.into());
        }
        if state.current_player() >= 0 {
            state.check_determinize(state.current_player())?;
        }
        let control = Arc::new(Control::default());
        let shared = Arc::new(Shared { outcome: Mutex::new(Outcome::Running), ended: Condvar::new() });
        let root = state.clone();
        let (watch, handover) = (control.clone(), shared.clone());
        hooks::check_spawn()?;
        #[cfg(test)]
        let refuse = hooks::REFUSE_AFTER.with(|r| r.get());
        let worker = std::thread::Builder::new()
            .name("kassen-search".into())
            .spawn(move || {
                #[cfg(test)]
                hooks::REFUSE_AFTER.with(|r| r.set(refuse));
                let mut handover = Handover { shared: handover, result: None };
                handover.result = Some(match &carry {
                    None => analyze_with(&root, &params, &watch),
                    Some(slot) => {
                        let mut kept = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
                        let r = analyze_carried(&root, &params, &watch, Some(&mut kept));
                        *slot.lock().unwrap_or_else(PoisonError::into_inner) = if r.is_ok() { kept } else { None };
                        r
                    }
                });
            })
            .map_err(|e| threads_unavailable(&e))?;
        Ok(Search { control, shared, worker: Mutex::new(Some(worker)), started: Instant::now() })
    }

    /// Whether the search has ended.
    pub fn is_done(&self) -> bool {
        !matches!(*self.shared.lock(), Outcome::Running)
    }

    /// The progress so far; never blocks (beyond a lock the worker holds only to hand over its
    /// decision).
    pub fn progress(&self) -> Progress {
        let best = self.control.merged().into_iter().filter(|x| x.1 > 0).max_by(|x, y| x.1.cmp(&y.1).then(y.0.cmp(&x.0))).map(|x| x.0);
        let (best, done) = match &*self.shared.lock() {
            Outcome::Running => (best, false),
            Outcome::Ended(Ok(d)) => (Some(d.action), true),
            _ => (best, true),
        };
        Progress {
            iterations: self.control.iterations.load(Ordering::Relaxed),
            best,
            done,
            elapsed_ms: self.started.elapsed().as_secs_f64() * 1000.0,
        }
    }

    /// Asks the search to end at its next iteration; never blocks.
    pub fn stop(&self) {
        self.control.stop.store(true, Ordering::Relaxed);
    }

    /// A function that stops the search from any thread (even while another waits for it).
    pub fn stopper(&self) -> Arc<dyn Fn() + Send + Sync> {
        let control = self.control.clone();
        Arc::new(move || control.stop.store(true, Ordering::Relaxed))
    }

    /// Waits for the search to end (its budget spent or [`Search::stop`] called) and returns
    /// the decision. Later calls, and calls from other threads at the same time, return the
    /// same decision.
    ///
    /// # Panics
    /// If the search itself panicked (a bug in kassen).
    pub fn wait(&self) -> Result<Decision, Error> {
        let mut outcome = self.shared.lock();
        while matches!(*outcome, Outcome::Running) {
            outcome = self.shared.ended.wait(outcome).unwrap_or_else(PoisonError::into_inner);
        }
        match &*outcome {
            Outcome::Ended(r) => r.clone(),
            Outcome::Panicked(what) => panic!("{what}"),
            Outcome::Running => unreachable!("the loop above waits for the end"),
        }
    }

    /// Stops the search and returns its decision so far.
    pub fn finish(&self) -> Result<Decision, Error> {
        self.stop();
        self.wait()
    }
}

impl Drop for Search {
    fn drop(&mut self) {
        self.stop();
        if let Some(w) = self.worker.get_mut().unwrap_or_else(PoisonError::into_inner).take() {
            let _ = w.join();
        }
    }
}

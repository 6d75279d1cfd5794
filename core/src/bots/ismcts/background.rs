//! A search on worker threads that a user interface starts, polls and stops without blocking.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use serde::Serialize;

use super::search::Control;
use super::{analyze_with, Decision, SearchParams};
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

/// A running search (see [`Search::start`]). Dropping it stops the search and waits for its
/// threads.
pub struct Search {
    control: Arc<Control>,
    worker: Option<JoinHandle<Result<Decision, RuleError>>>,
    outcome: Option<Result<Decision, RuleError>>,
    started: Instant,
}

impl Search {
    /// Starts searching `state` (copied) on a new thread (and `params.threads - 1` more) and
    /// returns at once. Errors: invalid parameters, a finished game, or a constructed position
    /// the search cannot determinize (`PositionNotSupported`).
    pub fn start(state: &StateHandle, params: SearchParams) -> Result<Search, Error> {
        params.validate()?;
        if state.is_terminal() {
            return Err(RuleError::GameOver.into());
        }
        if state.current_player() >= 0 {
            state.check_determinize(state.current_player())?;
        }
        let control = Arc::new(Control::default());
        let root = state.clone();
        let shared = control.clone();
        let worker = std::thread::Builder::new()
            .name("kassen-search".into())
            .spawn(move || analyze_with(&root, &params, &shared))
            .map_err(|e| Error::Setup(crate::error::SetupError::InvalidConfig(format!("cannot start a search thread: {e}"))))?;
        Ok(Search { control, worker: Some(worker), outcome: None, started: Instant::now() })
    }

    /// Whether the search has ended.
    pub fn is_done(&self) -> bool {
        self.outcome.is_some() || self.worker.as_ref().is_none_or(|w| w.is_finished())
    }

    /// The progress so far; never blocks.
    pub fn progress(&self) -> Progress {
        let best = self.control.merged().into_iter().filter(|x| x.1 > 0).max_by(|x, y| x.1.cmp(&y.1).then(y.0.cmp(&x.0))).map(|x| x.0);
        let best = match &self.outcome {
            Some(Ok(d)) => Some(d.action),
            _ => best,
        };
        Progress {
            iterations: self.control.iterations.load(Ordering::Relaxed),
            best,
            done: self.is_done(),
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
    /// the decision. Later calls return the same decision.
    pub fn wait(&mut self) -> Result<Decision, RuleError> {
        if let Some(w) = self.worker.take() {
            let r = w.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
            self.outcome = Some(r);
        }
        self.outcome.clone().expect("a search has an outcome once its worker is joined")
    }

    /// Stops the search and returns its decision so far.
    pub fn finish(&mut self) -> Result<Decision, RuleError> {
        self.stop();
        self.wait()
    }
}

impl Drop for Search {
    fn drop(&mut self) {
        self.stop();
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }
}

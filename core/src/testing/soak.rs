//! The soak run: many random games of one game and config on every core, checking that none
//! panics, reaches a dead end (no legal action before the end) or runs past
//! `max_game_length`, with the whole conformance suite on a sample of the seeds. It also
//! records the sizes a frontend sizes its buffers by: the most legal actions at one decision,
//! the longest game, and the largest final view and event list of the sampled games.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use serde::Serialize;

use crate::engine::GameHandle;
use crate::game::{ActionId, SPECTATOR};
use crate::rng::Rng;

/// What a soak run saw.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SoakReport {
    pub games: u64,
    /// Every action applied, chance outcomes included.
    pub actions: u64,
    pub longest_game: u32,
    pub max_legal_actions: u32,
    /// Games that also ran the whole conformance suite.
    pub conformance_games: u64,
    /// Largest view (JSON bytes, any seat or the spectator, at every step of the sampled games)
    /// and event list (at their end, where it is longest).
    pub max_view_bytes: u64,
    pub max_events_bytes: u64,
    pub seconds: f64,
}

impl SoakReport {
    fn merge(&mut self, o: &SoakReport) {
        self.games += o.games;
        self.actions += o.actions;
        self.longest_game = self.longest_game.max(o.longest_game);
        self.max_legal_actions = self.max_legal_actions.max(o.max_legal_actions);
        self.conformance_games += o.conformance_games;
        self.max_view_bytes = self.max_view_bytes.max(o.max_view_bytes);
        self.max_events_bytes = self.max_events_bytes.max(o.max_events_bytes);
    }
}

/// Plays `games` random games with seeds `0..games` on `threads` threads (the seeds are dealt
/// round robin, so the games played do not depend on the thread count). Each
/// block of `conformance_every` seeds has one seed that also runs the conformance suite and
/// measures views and events (which one depends on the thread count, see `is_sampled`).
/// Returns the first failure with the seed that reproduces it.
pub fn soak(game: &GameHandle, games: u64, threads: usize, conformance_every: u64) -> Result<SoakReport, String> {
    let started = std::time::Instant::now();
    let threads = threads.clamp(1, 64) as u64;
    let failed = AtomicBool::new(false);
    let first_error = Mutex::new(None::<String>);
    let total = Mutex::new(SoakReport::default());
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (failed, first_error, total) = (&failed, &first_error, &total);
            scope.spawn(move || {
                let mut mine = SoakReport::default();
                let mut seed = t;
                while seed < games && !failed.load(Ordering::Relaxed) {
                    let sample = conformance_every > 0 && is_sampled(seed, conformance_every, threads);
                    let outcome = catch_unwind(AssertUnwindSafe(|| one_game(game, seed, sample, &mut mine)))
                        .unwrap_or_else(|p| Err(format!("panic: {}", crate::error::describe_panic(&*p))));
                    if let Err(e) = outcome {
                        failed.store(true, Ordering::Relaxed);
                        let mut slot = first_error.lock().unwrap_or_else(|p| p.into_inner());
                        slot.get_or_insert(format!("{} {}: seed {seed}: {e}", game.id(), game.info().config));
                        break;
                    }
                    mine.games += 1;
                    seed += threads;
                }
                total.lock().unwrap_or_else(|p| p.into_inner()).merge(&mine);
            });
        }
    });
    if let Some(e) = first_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let mut report = total.into_inner().unwrap_or_else(|p| p.into_inner());
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Whether `seed` is one of the sampled seeds: one in each block of `every` seeds, at an
/// offset that goes round the threads from block to block, so that the costly sampled games
/// are dealt to every thread rather than all to the thread of seed 0.
fn is_sampled(seed: u64, every: u64, threads: u64) -> bool {
    seed % every == (seed / every) % threads.min(every)
}

fn one_game(game: &GameHandle, seed: u64, sample: bool, report: &mut SoakReport) -> Result<(), String> {
    let limit = game.info().max_game_length as usize;
    let mut rng = Rng::from_seed(seed ^ 0x50a4_50a4);
    let mut s = game.new_initial_state(seed);
    let mut legal: Vec<ActionId> = Vec::new();
    while !s.is_terminal() {
        legal.clear();
        s.legal_actions_into(&mut legal);
        if legal.is_empty() {
            return Err(format!("dead end after {} actions: no legal action", s.history().len()));
        }
        report.max_legal_actions = report.max_legal_actions.max(legal.len() as u32);
        if sample {
            for p in SPECTATOR..game.num_players() as i32 {
                let view = s.view(p).map_err(|e| e.to_string())?.to_string().len() as u64;
                report.max_view_bytes = report.max_view_bytes.max(view);
            }
        }
        let a = legal[rng.below(legal.len() as u32) as usize];
        s.apply_in_place(a).map_err(|e| format!("legal action {a} rejected: {e}"))?;
        if s.history().len() > limit {
            return Err(format!("runaway game: more than max_game_length = {limit} actions"));
        }
    }
    report.actions += s.history().len() as u64;
    report.longest_game = report.longest_game.max(s.history().len() as u32);
    if sample {
        game.conformance(&[seed])?;
        report.conformance_games += 1;
        for p in SPECTATOR..game.num_players() as i32 {
            let view = s.view(p).map_err(|e| e.to_string())?.to_string().len() as u64;
            let events = serde_json::to_string(&s.events(p).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?.len() as u64;
            report.max_view_bytes = report.max_view_bytes.max(view);
            report.max_events_bytes = report.max_events_bytes.max(events);
        }
    }
    Ok(())
}

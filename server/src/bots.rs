//! Bot seats: when a bot is to act, it moves on the server, never on a request task. IS-MCTS
//! seats run the engine's background search ([`Search`]: started, polled and stopped without
//! blocking); random and Monte Carlo seats run on tokio's blocking pool. At most
//! `--bot-threads` bots think at once (a semaphore). A search is stopped when its game ends
//! (a resignation) or moves on without it (another process), and when the server shuts down.
//! The chosen move is committed like a person's ([`App::play`]).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use kassen_core::bots::{Level, Search};
use kassen_core::rng::Rng;
use kassen_core::{ActionId, StateHandle};
use serde_json::{json, Value};
use tokio::sync::{watch, Semaphore};

use crate::app::App;
use crate::hub::Slot;

/// How often a running search is looked at (its progress published, its game checked).
const POLL: Duration = Duration::from_millis(100);

/// The bounded pool of thinking bots and its counters.
pub struct BotPool {
    permits: Semaphore,
    limit: usize,
    /// Set when the server shuts down: every search stops.
    stopping: watch::Sender<bool>,
    running: AtomicUsize,
    moves: AtomicU64,
    /// Searches stopped before their budget because their game ended or moved on, or the
    /// server shut down.
    stopped: AtomicU64,
}

impl BotPool {
    pub fn new(limit: usize) -> BotPool {
        BotPool {
            permits: Semaphore::new(limit),
            limit,
            stopping: watch::channel(false).0,
            running: AtomicUsize::new(0),
            moves: AtomicU64::new(0),
            stopped: AtomicU64::new(0),
        }
    }

    /// Stops every search and lets no new one start.
    pub fn shut_down(&self) {
        self.stopping.send_replace(true);
        self.permits.close();
    }

    /// The pool's figures for `GET /healthz`.
    pub fn figures(&self) -> Value {
        json!({"limit": self.limit, "thinking": self.running.load(Ordering::Relaxed),
               "moves": self.moves.load(Ordering::Relaxed), "stopped": self.stopped.load(Ordering::Relaxed)})
    }
}

/// Starts the bot to act in the game, if a bot is to act and none is thinking yet.
pub fn kick(app: &Arc<App>, slot: &Arc<Slot>) {
    let app = app.clone();
    let slot = slot.clone();
    tokio::spawn(async move { turn(app, slot).await });
}

/// Why a bot did not move.
enum NoMove {
    /// Its game ended or moved on, or the server is shutting down: nothing to report.
    Stopped,
    Failed(String),
}

async fn turn(app: Arc<App>, slot: Arc<Slot>) {
    let (state, spec, seat, step) = {
        let mut live = slot.live.lock().await;
        if live.thinking.is_some() || live.finished {
            return;
        }
        let Some(seat) = live.to_act() else { return };
        let Some(s) = slot.meta.seat(seat).filter(|s| s.is_bot()) else { return };
        let Some(state) = live.state.clone() else { return };
        live.thinking = Some(seat);
        (state, s.kind.clone(), seat, live.step)
    };
    slot.bump();
    // The bot's own seed follows from the game's seed and the step.
    let seed = slot.meta.seed ^ (step as u64).wrapping_mul(0xD1B5_4A32_D192_ED03) ^ 0x6b61_7373_656e;
    let choice = think(&app, &slot, state, &spec, seed, step).await;
    let played = match choice {
        Ok(a) => {
            app.bots.moves.fetch_add(1, Ordering::Relaxed);
            app.play(&slot, seat, i64::from(a), step).await.map_err(|e| NoMove::Failed(e.message))
        }
        Err(e) => Err(e),
    };
    if let Err(e) = played {
        // A lost race (another process moved first) is expected; anything else is logged.
        if let NoMove::Failed(e) = &e {
            if !e.contains("answers another step") {
                eprintln!("kassen-server: bot of game {} seat {seat}: {e}", slot.meta.id);
            }
        }
        let mut live = slot.live.lock().await;
        if live.thinking == Some(seat) {
            live.thinking = None;
            live.bot_progress = None;
        }
        drop(live);
        slot.bump();
    }
}

/// Whether the bot's game is still waiting for its move at `step`.
async fn still_wanted(app: &App, slot: &Slot, step: i64) -> bool {
    if *app.bots.stopping.borrow() {
        return false;
    }
    let live = slot.live.lock().await;
    !live.finished && live.step == step
}

/// The bot's move, thought within the pool's bound.
async fn think(app: &Arc<App>, slot: &Arc<Slot>, state: StateHandle, spec: &str, seed: u64, step: i64) -> Result<ActionId, NoMove> {
    let mut stopping = app.bots.stopping.subscribe();
    let mut changes = slot.changed.subscribe();
    // Waiting for a place in the pool; a game that ends meanwhile gives up its turn.
    let permit = loop {
        tokio::select! {
            p = app.bots.permits.acquire() => break p.map_err(|_| NoMove::Stopped)?,
            _ = stopping.changed() => return Err(NoMove::Stopped),
            r = changes.changed() => {
                if r.is_err() || !still_wanted(app, slot, step).await {
                    return Err(NoMove::Stopped);
                }
            }
        }
    };
    app.bots.running.fetch_add(1, Ordering::Relaxed);
    let out = match spec.strip_prefix("ismcts:").and_then(Level::parse) {
        Some(level) => search(app, slot, state, level, seed, step).await,
        None => {
            let spec = spec.to_string();
            tokio::task::spawn_blocking(move || {
                let mut bot = kassen_core::bots::from_spec(&spec, seed).map_err(|e| e.to_string())?;
                bot.try_choose(&state).map_err(|e| e.to_string())
            })
            .await
            .map_err(|e| format!("the bot failed: {e}"))
            .and_then(|r| r)
            .map_err(NoMove::Failed)
        }
    };
    app.bots.running.fetch_sub(1, Ordering::Relaxed);
    drop(permit);
    out
}

/// An IS-MCTS seat: the engine's background search at the level's budget, looked at every
/// [`POLL`] (its progress goes to the game's summary) and stopped when it is no longer wanted.
async fn search(app: &Arc<App>, slot: &Arc<Slot>, state: StateHandle, level: Level, seed: u64, step: i64) -> Result<ActionId, NoMove> {
    // The seed the engine's IS-MCTS bot of this spec would search with.
    let params = level.params(Rng::from_seed(seed).next_u64());
    let search = Arc::new(Search::start(&state, params).map_err(|e| NoMove::Failed(e.to_string()))?);
    let mut stopping = app.bots.stopping.subscribe();
    let mut changes = slot.changed.subscribe();
    let mut tick = tokio::time::interval(POLL);
    let seat = state.current_player();
    let wanted = loop {
        tokio::select! {
            _ = tick.tick() => {
                if search.is_done() {
                    break true;
                }
                let p = search.progress();
                let mut live = slot.live.lock().await;
                if live.step == step && !live.finished {
                    let progress = json!({"iterations": p.iterations, "elapsed_ms": p.elapsed_ms.round()});
                    slot.show_progress(seat, step, Some(&progress));
                    live.bot_progress = Some(progress);
                }
            }
            _ = stopping.changed() => break false,
            r = changes.changed() => {
                if r.is_err() || !still_wanted(app, slot, step).await {
                    break false;
                }
            }
        }
    };
    slot.show_progress(seat, step, None);
    if !wanted {
        search.stop();
        app.bots.stopped.fetch_add(1, Ordering::Relaxed);
    }
    // The search has ended or ends at its next iteration; joining its thread blocks a little.
    let decision =
        tokio::task::spawn_blocking(move || search.finish()).await.map_err(|e| NoMove::Failed(format!("the search failed: {e}")))?;
    if !wanted {
        return Err(NoMove::Stopped);
    }
    decision.map(|d| d.action).map_err(|e| NoMove::Failed(e.to_string()))
}

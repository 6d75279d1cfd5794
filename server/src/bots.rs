//! Bot seats: when a bot is to act, it moves on the server, never on a request task. IS-MCTS
//! seats run the engine's background search ([`Search`]: started, polled and stopped without
//! blocking) that their bot starts ([`Bot::next_search`], [`Bot::start_search`]): a level
//! spends its budget per whole turn, shared among the turn's decisions, and a `+reuse` bot
//! goes on from the tree it kept, so each seat's bot is kept between its decisions
//! ([`Seats`]); random and Monte Carlo seats run on tokio's blocking pool. At most
//! `--bot-threads` bots think at once (a semaphore). A search is stopped when its game ends
//! (a resignation) or moves on without it (another process), and when the server shuts down.
//! The chosen move is committed like a person's ([`App::play`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use kassen_core::bots::{from_spec, Bot, Decision, Search, SearchParams};
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
    seats: Seats,
}

/// The search bots of the games' bot seats, kept between their decisions: a bot's turn clock
/// ([`kassen_core::bots::ismcts::TurnClock`]) shares its level's budget per whole turn among
/// the turn's decisions. At most [`Seats::MOST`] are kept; past that they are all dropped
/// (a dropped bot's next decision starts a turn afresh, which only gives it a new budget). A
/// bot that does not search is not kept.
#[derive(Default)]
pub struct Seats {
    bots: Mutex<HashMap<(String, usize), Box<dyn Bot + Send>>>,
}

impl Seats {
    pub const MOST: usize = 4096;

    /// Starts the background search of the bot `spec` of game `game`'s `seat` at `state`,
    /// seeded `seed` (the bot itself is seeded by the game's seed and the seat; a bot that reuses
    /// its tree goes on from what it kept, [`Bot::start_search`]); `None` for a bot that does
    /// not search.
    pub fn start_search(
        &self,
        game: &str,
        seat: usize,
        spec: &str,
        game_seed: u64,
        state: &StateHandle,
        seed: u64,
    ) -> Result<Option<Search>, String> {
        let mut bots = self.bots.lock().unwrap_or_else(PoisonError::into_inner);
        let key = (game.to_string(), seat);
        if !bots.contains_key(&key) {
            if bots.len() >= Seats::MOST {
                bots.clear();
            }
            let bot = from_spec(spec, game_seed ^ (seat as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).map_err(|e| e.to_string())?;
            bots.insert(key.clone(), bot);
        }
        let bot = bots.get_mut(&key).expect("inserted above");
        let Some(params) = bot.next_search(state).map(|p| SearchParams { seed, ..p }) else {
            bots.remove(&key);
            return Ok(None);
        };
        bot.start_search(state, params).map(Some).map_err(|e| e.to_string())
    }

    /// Records the decision `d` of the search [`Seats::start_search`] started at `state`, which took
    /// `elapsed`.
    pub fn record(&self, game: &str, seat: usize, state: &StateHandle, d: &Decision, elapsed: Duration) {
        let mut bots = self.bots.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(bot) = bots.get_mut(&(game.to_string(), seat)) {
            bot.record_search(state, d, elapsed);
        }
    }

    /// Drops the bots of a game (it ended).
    pub fn forget(&self, game: &str) {
        self.bots.lock().unwrap_or_else(PoisonError::into_inner).retain(|k, _| k.0 != game);
    }
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
            seats: Seats::default(),
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
        if live.finished {
            app.bots.seats.forget(&slot.meta.id);
            return;
        }
        if live.thinking.is_some() {
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
    let choice = think(&app, &slot, state, &spec, seat, seed, step).await;
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
async fn think(
    app: &Arc<App>,
    slot: &Arc<Slot>,
    state: StateHandle,
    spec: &str,
    seat: i32,
    seed: u64,
    step: i64,
) -> Result<ActionId, NoMove> {
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
    // The seed the engine's IS-MCTS bot of this spec would search with.
    let search_seed = Rng::from_seed(seed).next_u64();
    let seat = usize::try_from(seat).unwrap_or_default();
    let started = Instant::now();
    let named = app.bots.seats.start_search(&slot.meta.id, seat, spec, slot.meta.seed, &state, search_seed);
    let out = match named {
        Err(e) => Err(NoMove::Failed(e)),
        Ok(Some(running)) => search(app, slot, state.clone(), running, step).await.map(|d| {
            app.bots.seats.record(&slot.meta.id, seat, &state, &d, started.elapsed());
            d.action
        }),
        Ok(None) => {
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

/// An IS-MCTS seat: the engine's background search its bot started, looked at every [`POLL`]
/// (its progress goes to the game's summary) and stopped when it is no longer wanted.
async fn search(app: &Arc<App>, slot: &Arc<Slot>, state: StateHandle, search: Search, step: i64) -> Result<Decision, NoMove> {
    let search = Arc::new(search);
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
    decision.map_err(|e| NoMove::Failed(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kassen_core::load_game;

    /// Plays 150 steps of Sekigahara (seed 4): seat 0 by the bot `spec` of game "g1"'s seat 0
    /// (searched in the background and recorded, as [`think`] does), the other seat's moves
    /// and chance by their first legal action. Returns the last state and, per step, the
    /// player to act and seat 0's decision.
    fn play_seat_0(seats: &Seats, spec: &str) -> (StateHandle, Vec<(i32, Option<Decision>)>) {
        let game = load_game("sekigahara", None).unwrap();
        let mut s = game.new_initial_state(4);
        let mut steps = Vec::new();
        for step in 0..150u64 {
            if s.is_terminal() {
                break;
            }
            let p = s.current_player();
            let d = (p == 0).then(|| {
                let d = seats.start_search("g1", 0, spec, 7, &s, step).unwrap().expect("a search bot").wait().unwrap();
                seats.record("g1", 0, &s, &d, Duration::ZERO);
                d
            });
            let a = d.as_ref().map_or_else(|| s.legal_actions()[0], |d| d.action);
            s.apply_in_place(a).unwrap();
            steps.push((p, d));
        }
        (s, steps)
    }

    #[test]
    fn a_bot_seat_spends_its_levels_budget_per_whole_turn() {
        // `ismcts:instant` has 200 iterations per whole turn (a time cap can only lower them):
        // a seat's decisions share them, counted by iterations, turn after turn.
        let seats = Seats::default();
        let (s, steps) = play_seat_0(&seats, "ismcts:instant");
        let (mut spent, mut searched, mut turns, mut longest, mut last) = (0u64, 0u64, 0, 0, None);
        for (p, d) in steps {
            if let Some(d) = d {
                if last != Some(0) {
                    (turns, spent, searched) = (turns + 1, 0, 0);
                }
                spent += d.iterations;
                searched += u64::from(d.iterations > 0);
                longest = longest.max(searched);
                assert!(spent <= 200 + searched, "a turn of {searched} searched decisions spent {spent} iterations");
            }
            last = Some(p);
        }
        assert!(turns >= 2 && longest >= 3, "{turns} turns, the longest of {longest} searched decisions");
        // A bot that does not search is not kept; a game's bots are dropped when it ends.
        assert!(seats.start_search("g1", 1, "random", 7, &s, 0).unwrap().is_none());
        assert_eq!(seats.bots.lock().unwrap().len(), 1);
        seats.forget("g1");
        assert!(seats.bots.lock().unwrap().is_empty());
        assert!(seats.start_search("g2", 0, "ismcts:extreme", 7, &s, 0).is_err());
    }

    #[test]
    fn a_seat_that_reuses_its_tree_goes_on_from_it_between_a_turns_searches() {
        let (_, steps) = play_seat_0(&Seats::default(), "ismcts:300/turn+reuse");
        let decisions: Vec<Decision> = steps.into_iter().filter_map(|(_, d)| d).collect();
        let searched = decisions.iter().filter(|d| d.iterations > 0).count();
        let went_on = decisions.iter().filter(|d| d.reused > 0).count();
        assert!(went_on >= 3, "{went_on} of {searched} searches went on from a kept tree");
    }
}

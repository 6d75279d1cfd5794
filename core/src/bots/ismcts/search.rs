//! Running IS-MCTS for one decision: determinizations, threads, budgets, and the merged
//! result.
//!
//! Each thread grows its own tree (root parallelization) from its own seed and its own pool of
//! determinizations; the root statistics of the trees are summed. With an iteration budget the
//! iterations are split among the threads in a fixed way, so the result is a pure function of
//! (what the seat knows, seed, budget, thread count). A time budget or a stop request ends the
//! search early, and the result then depends on the machine.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::tree::{Tree, Walk};
use super::{Candidate, Decision, SearchParams};
use crate::engine::{Bound, DynGame, Instance, StateHandle};
use crate::game::{ActionId, Game};
use crate::rng::Rng;

/// What a running search shares with whoever watches it.
#[derive(Default)]
pub struct Control {
    /// Set to end the search at its next check.
    pub stop: AtomicBool,
    /// Iterations done so far, over every thread.
    pub iterations: AtomicU64,
    /// Each thread's root statistics as last published: `(action, visits, value sum)`.
    pub(super) published: Mutex<Vec<Vec<(ActionId, u32, f64)>>>,
}

impl Control {
    /// The root statistics published so far, summed over the threads.
    pub(super) fn merged(&self) -> Vec<(ActionId, u32, f64)> {
        let published = self.published.lock().unwrap_or_else(|p| p.into_inner());
        merge(published.iter().map(|v| v.as_slice()))
    }
}

/// Sums root statistics `(action, visits, value sum)` by action, ascending.
fn merge<'a>(parts: impl Iterator<Item = &'a [(ActionId, u32, f64)]>) -> Vec<(ActionId, u32, f64)> {
    let mut all: Vec<(ActionId, u32, f64)> = parts.flatten().copied().collect();
    all.sort_by_key(|x| x.0);
    let mut out: Vec<(ActionId, u32, f64)> = Vec::new();
    for (a, n, v) in all {
        match out.last_mut() {
            Some(last) if last.0 == a => {
                last.1 += n;
                last.2 += v;
            }
            _ => out.push((a, n, v)),
        }
    }
    out
}

/// Iterations between two publications of the root statistics (the clock and the stop flag are
/// read before every iteration but the first).
const PUBLISH_EVERY: u64 = 128;

/// Runs the search for the player to act in `root` (a seat, with more than one legal action).
pub(crate) fn run<G: Game>(game: &Arc<Instance<G>>, root: &StateHandle, params: &SearchParams, control: &Arc<Control>) -> Decision {
    let start = Instant::now();
    let seat = root.current_player();
    let legal = root.legal_actions();
    let threads = params.threads.max(1) as usize;
    {
        let mut published = control.published.lock().unwrap_or_else(|p| p.into_inner());
        *published = vec![Vec::new(); threads];
    }
    let budget = params.iterations;
    let share = |t: usize| budget.map(|b| b / threads as u64 + u64::from((t as u64) < b % threads as u64));
    let deadline = params.time.map(|d| start + d);
    let one = |t: usize| -> Vec<(ActionId, u32, f64)> {
        let seed = params.seed ^ (t as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        search_thread(game, root, params, share(t), deadline, t, seed, control)
    };
    let parts: Vec<Vec<(ActionId, u32, f64)>> = if threads == 1 {
        vec![one(0)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|t| scope.spawn(move || one(t))).collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
        })
    };
    let merged = merge(parts.iter().map(|v| v.as_slice()));
    decision(game, seat, &legal, &merged, control.iterations.load(Ordering::Relaxed), start.elapsed())
}

/// One thread's tree: returns its root statistics `(action, visits, value sum)`.
#[allow(clippy::too_many_arguments)]
fn search_thread<G: Game>(
    game: &Arc<Instance<G>>,
    root: &StateHandle,
    params: &SearchParams,
    budget: Option<u64>,
    deadline: Option<Instant>,
    thread: usize,
    seed: u64,
    control: &Control,
) -> Vec<(ActionId, u32, f64)> {
    let rules = game.rules();
    let info = game.info();
    let seat = root.current_player();
    let mut rng = Rng::from_seed(seed);
    let walk = Walk {
        exploration: params.exploration,
        min: info.utility.min,
        span: (info.utility.max - info.utility.min).max(f64::MIN_POSITIVE),
        max_steps: info.max_game_length.saturating_mul(2).max(1),
    };
    let mut tree: Tree<G> = Tree::new(walk, rules.num_players());
    // A game that hides nothing needs one world: only the future (drawn by the search's own
    // generator) is unknown.
    let pool_size = if info.hidden_information { params.determinizations.max(1) as usize } else { 1 };
    let mut pool: Vec<G::State> = Vec::with_capacity(pool_size);
    let mut done = 0u64;
    let snapshot = |tree: &Tree<G>| tree.root_stats().map(|(a, n, mean)| (a, n, mean * n as f64)).collect::<Vec<_>>();
    loop {
        if budget.is_some_and(|b| done >= b) {
            break;
        }
        if done > 0 && (control.stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d)) {
            break;
        }
        let k = (done % pool_size as u64) as usize;
        if k == pool.len() {
            // `analyze` checked that the root can be determinized (`check_determinize`).
            let world = root.determinize(seat, rng.next_u64()).unwrap_or_else(|e| panic!("{}: {e}", G::ID));
            let typed = world.as_any().downcast_ref::<Bound<G>>().expect("a determinization is a state of its game");
            pool.push(typed.state().clone());
        }
        tree.iterate(rules, pool[k].clone(), &mut rng);
        done += 1;
        control.iterations.fetch_add(1, Ordering::Relaxed);
        if done % PUBLISH_EVERY == 0 {
            let stats = snapshot(&tree);
            control.published.lock().unwrap_or_else(|p| p.into_inner())[thread] = stats;
        }
    }
    let stats = snapshot(&tree);
    control.published.lock().unwrap_or_else(|p| p.into_inner())[thread] = stats.clone();
    stats
}

/// The decision from merged root statistics: the most visited legal action (ties: the higher
/// mean, then the lower id); with no visits at all, the first legal action.
pub(super) fn decision<G: Game>(
    game: &Instance<G>,
    seat: i32,
    legal: &[ActionId],
    merged: &[(ActionId, u32, f64)],
    iterations: u64,
    elapsed: Duration,
) -> Decision {
    let info = game.info();
    let span = info.utility.max - info.utility.min;
    let candidates: Vec<Candidate> = legal
        .iter()
        .map(|&a| {
            let (visits, sum) = merged.iter().find(|x| x.0 == a).map_or((0, 0.0), |x| (x.1, x.2));
            let mean = if visits > 0 { sum / visits as f64 } else { 0.0 };
            Candidate { action: a, visits, value: (visits > 0).then_some(info.utility.min + mean * span) }
        })
        .collect();
    let best = candidates
        .iter()
        .max_by(|x, y| {
            x.visits
                .cmp(&y.visits)
                .then(x.value.unwrap_or(f64::NEG_INFINITY).total_cmp(&y.value.unwrap_or(f64::NEG_INFINITY)))
                .then(y.action.cmp(&x.action))
        })
        .map_or(legal[0], |c| c.action);
    Decision { seat, action: best, iterations, elapsed_ms: elapsed.as_secs_f64() * 1000.0, candidates }
}

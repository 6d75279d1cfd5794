//! Running IS-MCTS for one decision: determinizations, threads, budgets, and the merged
//! result.
//!
//! Each thread grows its own tree (root parallelization) from its own seed and its own pool of
//! determinizations; the root statistics of the trees are summed. With an iteration budget the
//! iterations are split among the threads in a fixed way, so the result is a pure function of
//! (what the seat knows, seed, budget, thread count). A time budget or a stop request ends the
//! search early, and the result then depends on the machine.

use std::any::Any;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::tree::{Tree, Walk};
use super::{Candidate, Decision, SearchParams, MAX_ITERATIONS};
use crate::engine::{Bound, DynGame, Instance, StateHandle};
use crate::error::SetupError;
use crate::game::{ActionId, Game, Player};
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

/// The trees of a search kept for the searching seat's next decision of the same turn: each
/// thread's subtree under the chosen action. They were grown over determinizations of that
/// seat's information set, so only a search of the same seat, from a state its own moves alone
/// lead to from here (no other seat, no chance in between), continues from them
/// ([`run`] checks it; anything else starts afresh).
pub struct Kept {
    seat: Player,
    /// The state the kept trees' roots stand for: the search's root with the chosen action
    /// applied.
    state: StateHandle,
    /// `Vec<Option<Tree<G>>>`, one per thread (`None`: that thread never tried the action).
    trees: Box<dyn Any + Send + Sync>,
}

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kept").field("seat", &self.seat).finish_non_exhaustive()
    }
}

/// The seat's own actions that lead from the state of `kept` to `root`, when `kept` may serve a
/// search of `seat` at `root`: the same game, the same seat, `root`'s history continues the
/// kept state's with actions of `seat` alone, and replaying them gives what the seat knows at
/// `root` (its information-state hash; two games of the same moves but another deal differ).
fn path_from(kept: &Kept, root: &StateHandle, seat: Player) -> Option<Vec<ActionId>> {
    let same_game = Arc::as_ptr(&kept.state.game()) as *const () == Arc::as_ptr(&root.game()) as *const ();
    if kept.seat != seat || !same_game {
        return None;
    }
    let (before, now) = (kept.state.history(), root.history());
    if now.len() < before.len() || now[..before.len()] != *before {
        return None;
    }
    let path = now[before.len()..].to_vec();
    let mut s = kept.state.clone();
    for &a in &path {
        if s.current_player() != seat || s.apply_in_place(a).is_err() {
            return None;
        }
    }
    match (s.info_state_hash(seat), root.info_state_hash(seat)) {
        (Ok(x), Ok(y)) if x == y => Some(path),
        _ => None,
    }
}

/// Iterations between two publications of the root statistics (the clock and the stop flag are
/// read before every iteration but the first).
const PUBLISH_EVERY: u64 = 128;

/// What one thread's search leaves: its root statistics `(action, visits, value sum)`, its
/// tree's nodes and whether the tree reached its budget.
struct Part<G: Game> {
    /// The tree, when the search keeps it for the next decision.
    tree: Option<Tree<G>>,
    stats: Vec<(ActionId, u32, f64)>,
    /// Each root action's principal line ([`Tree::root_lines`]), when the search explains.
    lines: Vec<(ActionId, Vec<ActionId>)>,
    nodes: u64,
    full: bool,
    /// The root visits the tree started with (kept from the last decision).
    reused: u64,
}

/// Runs the search for the player to act in `root` (a seat, with more than one legal action).
/// With `carry`, the search continues from the trees it holds when they serve this decision
/// ([`Kept`]; each thread's tree re-rooted at `root`, within the thread's node budget, its
/// root visits counted in [`Decision::reused`]), and leaves its own subtrees under the chosen
/// action there (nothing when it fails). Errors: `ThreadsUnavailable` (the system refused a
/// thread; the threads started are stopped and joined first), `OutOfMemory` (a tree's memory
/// was refused; the other threads are stopped).
pub(crate) fn run<G: Game>(
    game: &Arc<Instance<G>>,
    root: &StateHandle,
    params: &SearchParams,
    control: &Arc<Control>,
    mut carry: Option<&mut Option<Arc<Kept>>>,
) -> Result<Decision, SetupError> {
    let start = Instant::now();
    let seat = root.current_player();
    let legal = root.legal_actions();
    let threads = params.threads.max(1) as usize;
    {
        let mut published = control.published.lock().unwrap_or_else(|p| p.into_inner());
        *published = vec![Vec::new(); threads];
    }
    // Without an iteration budget the search still ends at the largest one.
    let budget = params.iterations.unwrap_or(MAX_ITERATIONS).min(MAX_ITERATIONS);
    let share = |t: usize| budget / threads as u64 + u64::from((t as u64) < budget % threads as u64);
    let nodes = usize::try_from(params.max_nodes / threads as u64).unwrap_or(usize::MAX).max(1);
    let deadline = params.time.map(|d| start + d);
    let keep = carry.is_some();
    let kept = carry.as_mut().and_then(|c| c.take());
    let path = kept.as_ref().and_then(|k| path_from(k, root, seat));
    let old: Option<&Vec<Option<Tree<G>>>> =
        path.as_ref().and(kept.as_ref()).and_then(|k| k.trees.downcast_ref::<Vec<Option<Tree<G>>>>()).filter(|v| v.len() == threads);
    let start_tree = |t: usize| -> Result<Option<Tree<G>>, SetupError> {
        let (Some(old), Some(path)) = (old, &path) else { return Ok(None) };
        let Some(tree) = &old[t] else { return Ok(None) };
        match tree.descend(path) {
            Some(node) => tree.subtree(node, nodes).map_err(|_| out_of_memory(nodes)),
            None => Ok(None),
        }
    };
    // The re-rooted trees are made before the search and the old ones let go, so that the
    // search holds no more than its node budget.
    let mut starts = Vec::with_capacity(threads);
    for t in 0..threads {
        starts.push(start_tree(t)?);
    }
    drop(kept);
    let one = |t: usize, tree: Option<Tree<G>>| -> Result<Part<G>, SetupError> {
        let seed = params.seed ^ (t as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let r = search_thread(game, root, params, share(t), nodes, deadline, t, seed, control, tree, keep);
        if r.is_err() {
            control.stop.store(true, Ordering::Relaxed);
        }
        r
    };
    let parts: Vec<Result<Part<G>, SetupError>> = if threads == 1 {
        vec![one(0, starts.pop().flatten())]
    } else {
        std::thread::scope(|scope| {
            let mut handles = Vec::with_capacity(threads);
            let mut refused = None;
            for (t, tree) in starts.into_iter().enumerate() {
                match spawn_scoped(scope, move || one(t, tree)) {
                    Ok(h) => handles.push(h),
                    Err(e) => {
                        // The threads that did start stop at their next iteration.
                        control.stop.store(true, Ordering::Relaxed);
                        refused = Some(e);
                        break;
                    }
                }
            }
            let mut parts: Vec<_> = handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect();
            if let Some(e) = refused {
                parts.push(Err(e));
            }
            parts
        })
    };
    let mut ok = Vec::with_capacity(parts.len());
    for p in parts {
        ok.push(p?);
    }
    let merged = merge(ok.iter().map(|p| p.stats.as_slice()));
    let mut d = decision(game, seat, &legal, &merged, control.iterations.load(Ordering::Relaxed), start.elapsed());
    d.reused = ok.iter().map(|p| p.reused).sum();
    // A candidate's line: from the tree that visited it most (the first such tree on a tie).
    for c in &mut d.candidates {
        let mut most = 0;
        for p in &ok {
            let visits = p.stats.iter().find(|x| x.0 == c.action).map_or(0, |x| x.1);
            if visits > most {
                if let Some((_, line)) = p.lines.iter().find(|x| x.0 == c.action) {
                    most = visits;
                    c.line.clone_from(line);
                }
            }
        }
    }
    d.nodes = ok.iter().map(|p| p.nodes).sum();
    d.tree_full = ok.iter().any(|p| p.full);
    // Kept only when the seat itself is to act next (another seat or chance ends the reuse).
    let next = root.child(d.action).ok().filter(|s| s.current_player() == seat);
    if let (Some(slot), Some(state)) = (carry, next) {
        let mut trees: Vec<Option<Tree<G>>> = Vec::with_capacity(ok.len());
        for p in &mut ok {
            let tree = p.tree.take();
            let top = tree.as_ref().and_then(|t| t.child(0, d.action));
            trees.push(match (tree, top) {
                (Some(tree), Some(top)) => tree.subtree(top, nodes).map_err(|_| out_of_memory(nodes))?,
                _ => None,
            });
        }
        *slot = Some(Arc::new(Kept { seat, state, trees: Box::new(trees) }));
    }
    Ok(d)
}

/// Starts a scoped thread of the search; a refusal of the system is `ThreadsUnavailable`.
fn spawn_scoped<'scope, 'env, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    f: impl FnOnce() -> T + Send + 'scope,
) -> Result<std::thread::ScopedJoinHandle<'scope, T>, SetupError> {
    hooks::check_spawn()?;
    std::thread::Builder::new().name("kassen-search".into()).spawn_scoped(scope, f).map_err(|e| threads_unavailable(&e))
}

/// The error of a thread the system refused to start.
pub(super) fn threads_unavailable(e: &std::io::Error) -> SetupError {
    SetupError::ThreadsUnavailable(format!("the system refused to start a search thread ({e}); use fewer threads or searches"))
}

fn out_of_memory(nodes: usize) -> SetupError {
    SetupError::OutOfMemory(format!("no memory for a search tree of {nodes} nodes; give the search a smaller max_nodes"))
}

/// One thread's tree, with an iteration budget `budget` and a node budget `max_nodes`, grown
/// from `start` when given (else from a root alone); `keep`: the part holds the tree.
#[allow(clippy::too_many_arguments)]
fn search_thread<G: Game>(
    game: &Arc<Instance<G>>,
    root: &StateHandle,
    params: &SearchParams,
    budget: u64,
    max_nodes: usize,
    deadline: Option<Instant>,
    thread: usize,
    seed: u64,
    control: &Control,
    start: Option<Tree<G>>,
    keep: bool,
) -> Result<Part<G>, SetupError> {
    let rules = game.rules();
    let info = game.info();
    let seat = root.current_player();
    let mut rng = Rng::from_seed(seed);
    let walk = Walk {
        exploration: params.exploration.unwrap_or_else(|| rules.search_exploration()),
        min: info.utility.min,
        span: (info.utility.max - info.utility.min).max(f64::MIN_POSITIVE),
        max_steps: info.max_game_length.saturating_mul(2).max(1),
    };
    let mut tree: Tree<G> = match start {
        Some(mut tree) => {
            tree.walk = walk;
            tree
        }
        None => Tree::new(walk, rules.num_players(), max_nodes).map_err(|_| out_of_memory(max_nodes))?,
    };
    let reused = tree.root_stats().map(|(_, n, _)| u64::from(n)).sum();
    // A game that hides nothing needs one world: only the future (drawn by the search's own
    // generator) is unknown.
    let pool_size = if info.hidden_information { params.determinizations.max(1) as usize } else { 1 };
    let mut pool: Vec<G::State> = Vec::with_capacity(pool_size);
    // A determinization replays the whole history, which late in a long game costs as much as
    // dozens of iterations: while the pool fills, a new world comes every `stride` iterations
    // (the iterations between reuse the worlds drawn so far), so that drawing worlds takes at
    // most about a third of a short search. Fixed by the history's length, so an iteration
    // budget still gives the same decision on every run.
    let stride = (root.history().len() as u64 / ACTIONS_PER_ITERATION_OF_REPLAY).max(1);
    let mut done = 0u64;
    let snapshot = |tree: &Tree<G>| tree.root_stats().map(|(a, n, mean)| (a, n, mean * n as f64)).collect::<Vec<_>>();
    loop {
        if done >= budget {
            break;
        }
        if done > 0 && (control.stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d)) {
            break;
        }
        let k = if pool.len() < pool_size && done >= pool.len() as u64 * stride {
            // `analyze` checked that the root can be determinized (`check_determinize`).
            let world = root.determinize(seat, rng.next_u64()).unwrap_or_else(|e| panic!("{}: {e}", G::ID));
            let typed = world.as_any().downcast_ref::<Bound<G>>().expect("a determinization is a state of its game");
            pool.push(typed.state().clone());
            pool.len() - 1
        } else {
            (done % pool.len() as u64) as usize
        };
        tree.iterate(rules, pool[k].clone(), &mut rng).map_err(|_| out_of_memory(tree.nodes.len() + 1))?;
        done += 1;
        control.iterations.fetch_add(1, Ordering::Relaxed);
        if done % PUBLISH_EVERY == 0 {
            let stats = snapshot(&tree);
            control.published.lock().unwrap_or_else(|p| p.into_inner())[thread] = stats;
        }
        if params.early_stop && params.iterations.is_some() && done % SETTLED_EVERY == 0 && settled(&tree, budget - done) {
            break;
        }
    }
    let stats = snapshot(&tree);
    control.published.lock().unwrap_or_else(|p| p.into_inner())[thread] = stats.clone();
    let lines = if params.explain { tree.root_lines(seat, super::explain::LINE_MOVES - 1) } else { Vec::new() };
    let (nodes, full) = (tree.nodes.len() as u64, tree.full);
    Ok(Part { tree: keep.then_some(tree), stats, lines, nodes, full, reused })
}

/// Iterations between two checks of [`settled`].
const SETTLED_EVERY: u64 = 16;

/// Whether `left` more iterations cannot change the most visited action at the root: it leads
/// the second by more than `left` visits (ties in visits are broken by value, so a lead of
/// exactly `left` is not enough).
fn settled<G: Game>(tree: &Tree<G>, left: u64) -> bool {
    let (mut first, mut second) = (0u64, 0u64);
    for (_, n, _) in tree.root_stats() {
        let n = u64::from(n);
        if n > first {
            second = first;
            first = n;
        } else if n > second {
            second = n;
        }
    }
    first > second + left
}

/// How many actions of a history's replay cost about one search iteration (measured on
/// Sekigahara and Samurai: a determinization of a 400-action history costs about 20
/// iterations; the stride is three times that share).
const ACTIONS_PER_ITERATION_OF_REPLAY: u64 = 7;

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
            Candidate { action: a, visits, value: (visits > 0).then_some(info.utility.min + mean * span), line: Vec::new(), reason: None }
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
    Decision {
        seat,
        action: best,
        iterations,
        elapsed_ms: elapsed.as_secs_f64() * 1000.0,
        nodes: 0,
        tree_full: false,
        candidates,
        reused: 0,
    }
}

/// A hook of the tests: refuse thread starts, as a system at its limit of threads does.
pub(crate) mod hooks {
    use crate::error::SetupError;

    #[cfg(test)]
    thread_local! {
        /// Thread starts this thread still makes before the next is refused (`None`: none is).
        pub(crate) static REFUSE_AFTER: std::cell::Cell<Option<u32>> = const { std::cell::Cell::new(None) };
    }

    /// `ThreadsUnavailable` when the test hook refuses this start.
    #[cfg(test)]
    pub(crate) fn check_spawn() -> Result<(), SetupError> {
        REFUSE_AFTER.with(|r| match r.get() {
            Some(0) => Err(super::threads_unavailable(&std::io::Error::from(std::io::ErrorKind::WouldBlock))),
            Some(n) => {
                r.set(Some(n - 1));
                Ok(())
            }
            None => Ok(()),
        })
    }

    #[cfg(not(test))]
    #[inline(always)]
    pub(crate) fn check_spawn() -> Result<(), SetupError> {
        Ok(())
    }
}

/// A tree grown by `iterations` iterations (seed 1, at most `max_nodes` nodes) on the first
/// decision of a two-player Samurai game with more than one legal action (seed 7), for tests.
#[cfg(test)]
pub(super) fn samurai_tree(iterations: u32, max_nodes: usize) -> Tree<crate::games::samurai::Samurai> {
    use crate::events::Events;
    use crate::games::samurai::Samurai;
    let mut cfg = serde_json::Map::new();
    cfg.insert("players".into(), 2.into());
    let game = Instance::new_shared(Samurai::setup(&cfg).unwrap(), false, serde_json::Value::Null);
    let rules = game.rules();
    let mut s = game.initial_bound(7).state().clone();
    let mut legal = Vec::new();
    loop {
        legal.clear();
        rules.legal_actions(&s, &mut legal);
        if rules.current_player(&s) >= 0 && legal.len() > 1 {
            break;
        }
        rules.apply(&mut s, legal[0], &mut Events::off());
    }
    let walk = Walk { exploration: super::DEFAULT_EXPLORATION, min: 0.0, span: 1.0, max_steps: 10_000 };
    let mut tree: Tree<Samurai> = Tree::new(walk, 2, max_nodes).unwrap();
    let mut rng = Rng::from_seed(1);
    for _ in 0..iterations {
        tree.iterate(rules, s.clone(), &mut rng).unwrap();
    }
    tree
}

/// The heap bytes per node of a tree grown by `iterations` iterations on a two-player Samurai
/// game (for the test that backs [`super::DEFAULT_MAX_NODES`]).
#[cfg(test)]
pub(crate) fn tree_bytes_per_node(iterations: u32) -> f64 {
    let tree = samurai_tree(iterations, usize::MAX);
    tree.heap_bytes() as f64 / tree.nodes.len() as f64
}

//! Batched stepping (`kassen_core::batch`): env-steps/s of every registered game at 1 and 2
//! threads, with observations, masks and legal ids written and one random legal action per
//! env drawn from the legal ids (O(legal), as a sampler should); learner steps/s of a single-agent Samurai 2p batch against the random bot;
//! allocations per step (a counting global allocator, 1 thread); the information-state hash of
//! the player to act, ns per call, on a cached state and right after one step. Throughputs are
//! the best of [`REPEATS`] runs of `KASSEN_BENCH_SECONDS` each.
//! `cargo bench -p kassen-core --bench batch`; JSON to `KASSEN_BENCH_BATCH_OUT` (default
//! `bench-results/batch.json` at the workspace root). `KASSEN_BENCH_SECONDS` sets the time per
//! row (default 1), `KASSEN_BENCH_GAMES` a comma-separated list of game ids to run (default
//! all). The load average before and after the run is recorded: the figures are only as
//! quiet as the machine.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use kassen_core::batch::{BatchBuffers, BatchDims, BatchOptions, Opponent};
use kassen_core::rng::Rng;
use kassen_core::{games, load_game, ActionId, GameHandle};
use serde_json::{json, Value};

struct Counting;
static ALLOCS: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards to the system allocator, counting calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(l) }
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as above. (Forwarded, not left to the default `alloc` and fill, so that
        // the heap is laid out as without this counter: `calloc` and `malloc` place blocks
        // differently, and where slots' states land decides how well two threads share the
        // cache. With the default, Samurai's batch measured 1.0-1.3x from 1 to 2 threads here,
        // against 1.5-1.9x without counting.)
        unsafe { System.alloc_zeroed(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs per rate, in rounds (1 thread, then 2, then again): the best is reported, every run
/// recorded. On a shared virtual machine other tenants only ever slow a run down.
const REPEATS: usize = 3;

/// The best of some runs' rates.
fn best(rates: &[f64]) -> f64 {
    rates.iter().copied().fold(0.0, f64::max)
}

/// Envs per batch unless `KASSEN_BENCH_ENVS` says otherwise.
const NUM_ENVS: usize = 256;

/// One uniformly random legal action per env, from the legal ids (from the mask in the
/// unexpected case of a row cut short).
fn pick(b: &BatchBuffers, d: BatchDims, rng: &mut Rng, out: &mut [ActionId]) {
    for (i, a) in out.iter_mut().enumerate() {
        let count = b.legal_count[i];
        let k = rng.below(count) as usize;
        *a = if (count as usize) <= d.max_legal {
            b.legal_ids[i * d.max_legal + k]
        } else {
            let row = &b.mask[i * d.num_actions..(i + 1) * d.num_actions];
            row.iter().enumerate().filter(|&(_, &m)| m == 1).nth(k).map(|(a, _)| a as ActionId).unwrap()
        };
    }
}

/// The 1-, 5- and 15-minute load averages (Linux), to judge how quiet the machine was.
fn load_average() -> Option<Vec<f64>> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().take(3).map(|x| x.parse().ok()).collect()
}

/// (steps/s, allocations per step, episodes ended) over `budget`.
fn run(game: &GameHandle, opts: BatchOptions, budget: Duration) -> (f64, f64, u64) {
    let dtype = opts.obs_dtype;
    let mut b = game.new_batch(opts).unwrap();
    let d = b.dims();
    let mut bufs = BatchBuffers::new(d, dtype);
    b.reset(None, &mut bufs.out()).unwrap();
    let mut rng = Rng::from_seed(1);
    let mut actions = vec![0; d.num_envs];
    // Warm up (scratch space grows to its size).
    for _ in 0..20 {
        pick(&bufs, d, &mut rng, &mut actions);
        b.step(&actions, &mut bufs.out()).unwrap();
    }
    let (mut steps, mut ended) = (0u64, 0u64);
    let allocs0 = ALLOCS.load(Ordering::Relaxed);
    let start = Instant::now();
    while start.elapsed() < budget {
        pick(&bufs, d, &mut rng, &mut actions);
        b.step(&actions, &mut bufs.out()).unwrap();
        steps += d.num_envs as u64;
        ended += bufs.terminated.iter().chain(&bufs.truncated).map(|&x| x as u64).sum::<u64>();
    }
    let secs = start.elapsed().as_secs_f64();
    let allocs = ALLOCS.load(Ordering::Relaxed) - allocs0;
    (steps as f64 / secs, allocs as f64 / steps as f64, ended)
}

/// Where a batch step's time goes, per env-step, on one thread (ns): the rules (legal actions
/// and apply, as in a raw random playout), zeroing the observation buffer (for reference: the
/// price of one pass over the buffer, which no step pays since encoders write every element),
/// and the game's observation encoder (`observation_tensor_into`). Measured over random games,
/// observing the player to act.
fn step_costs_ns(game: &GameHandle, budget: Duration) -> (f64, f64, f64) {
    let mut rng = Rng::from_seed(5);
    let mut state = game.new_initial_state(1);
    let mut obs = vec![0.0f32; game.info().observation_len()];
    let mut legal = Vec::new();
    let (mut rules, mut zero, mut encode, mut n) = (Duration::ZERO, Duration::ZERO, Duration::ZERO, 0u64);
    let start = Instant::now();
    while start.elapsed() < budget {
        for _ in 0..64 {
            if state.is_terminal() || state.history().len() > 2000 {
                state = game.new_initial_state(rng.next_u64());
            }
            let t = Instant::now();
            legal.clear();
            state.legal_actions_into(&mut legal);
            state.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
            rules += t.elapsed();
            let p = state.current_player().max(kassen_core::SPECTATOR);
            let t = Instant::now();
            obs.fill(0.0);
            std::hint::black_box(&mut obs);
            zero += t.elapsed();
            let t = Instant::now();
            state.observation_tensor_into(p, &mut obs).unwrap();
            std::hint::black_box(&obs);
            encode += t.elapsed();
            n += 1;
        }
    }
    let ns = |d: Duration| d.as_nanos() as f64 / n as f64;
    (ns(rules), ns(zero), ns(encode))
}

/// (cached ns, after-one-step ns) of `info_state_hash` for the player to act, over random
/// games: the cached figure repeats the query on one state; the other steps first.
fn info_state_ns(game: &GameHandle, budget: Duration) -> (f64, f64) {
    let mut rng = Rng::from_seed(3);
    let mut state = game.new_initial_state(1);
    let (mut cached, mut cached_calls, mut stepped, mut stepped_calls) = (Duration::ZERO, 0u64, Duration::ZERO, 0u64);
    let mut legal = Vec::new();
    let start = Instant::now();
    while start.elapsed() < budget {
        if state.is_terminal() || state.history().len() > 2000 {
            state = game.new_initial_state(rng.next_u64());
        }
        let p = state.current_player().max(0);
        let _ = state.info_state_hash(p).unwrap();
        let t = Instant::now();
        for _ in 0..100 {
            std::hint::black_box(state.info_state_hash(p).unwrap());
        }
        cached += t.elapsed();
        cached_calls += 100;
        legal.clear();
        state.legal_actions_into(&mut legal);
        state.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
        let p = state.current_player().max(0);
        let t = Instant::now();
        std::hint::black_box(state.info_state_hash(p).unwrap());
        stepped += t.elapsed();
        stepped_calls += 1;
    }
    (cached.as_nanos() as f64 / cached_calls as f64, stepped.as_nanos() as f64 / stepped_calls as f64)
}

fn main() {
    let secs: f64 = std::env::var("KASSEN_BENCH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let budget = Duration::from_secs_f64(secs);
    let load_before = load_average();
    let num_envs: usize = std::env::var("KASSEN_BENCH_ENVS").ok().and_then(|s| s.parse().ok()).unwrap_or(NUM_ENVS);
    let mut rows = Vec::new();
    println!("{:<24} {:>14} {:>14} {:>8} {:>12}", "game", "1 thread st/s", "2 threads st/s", "ratio", "allocs/step");
    let only = std::env::var("KASSEN_BENCH_GAMES").ok();
    let wanted = |id: &str| only.as_deref().is_none_or(|list| list.split(',').any(|g| g == id));
    for (id, _) in games().into_iter().filter(|(id, _)| wanted(id)) {
        let game = load_game(id, None).unwrap();
        let opts = |threads| BatchOptions { threads, max_episode_steps: Some(5000), ..BatchOptions::new(num_envs, 7) };
        let (mut ones, mut twos, mut allocs) = (Vec::new(), Vec::new(), 0.0);
        for _ in 0..REPEATS {
            let (one, a, _) = run(&game, opts(1), budget);
            let (two, _, _) = run(&game, opts(2), budget);
            ones.push(one);
            twos.push(two);
            allocs = a;
        }
        let (one, two) = (best(&ones), best(&twos));
        let (rules, zero, encode) = step_costs_ns(&game, budget);
        println!(
            "{id:<24} {one:>14.0} {two:>14.0} {:>7.2}x {allocs:>12.4}   per step: rules {rules:.0} ns, zeroing obs {zero:.0} ns, encoder {encode:.0} ns, batch {:.0} ns",
            two / one,
            1e9 / one
        );
        rows.push(json!({"game": id, "config": game.info().config, "num_envs": num_envs, "steps_per_sec_1_thread": one,
            "steps_per_sec_2_threads": two, "thread_ratio": two / one, "allocs_per_step_1_thread": allocs,
            "runs": {"steps_per_sec_1_thread": ones, "steps_per_sec_2_threads": twos},
            "ns_per_step_1_thread": {"batch": 1e9 / one, "rules": rules, "zero_obs": zero, "encoder": encode}}));
    }
    let samurai = load_game("samurai", Some(&json!({"players": 2}))).unwrap();
    let mut single = Vec::new();
    for threads in [1, 2] {
        let opts = BatchOptions { threads, opponent: Some(Opponent::Random), ..BatchOptions::new(num_envs, 7) };
        let mut runs = Vec::new();
        let (mut allocs, mut ended) = (0.0, 0);
        for _ in 0..REPEATS {
            let (rate, a, e) = run(&samurai, opts.clone(), budget);
            (allocs, ended) = (a, e);
            runs.push(rate);
        }
        let rate = best(&runs);
        println!("samurai 2p vs random, {threads} thread(s): {rate:.0} learner steps/s, {allocs:.4} allocs/step, {ended} episodes");
        single.push(json!({"threads": threads, "learner_steps_per_sec": rate, "allocs_per_step": allocs, "runs": runs}));
    }
    let mut info_state = Vec::new();
    for (id, _) in games().into_iter().filter(|(id, _)| wanted(id)) {
        let (cached, stepped) = info_state_ns(&load_game(id, None).unwrap(), budget);
        println!("{id:<24} info_state_hash: {cached:.0} ns cached, {stepped:.0} ns after one step");
        info_state.push(json!({"game": id, "info_state_hash_ns_cached": cached, "info_state_hash_ns_after_step": stepped}));
    }
    let load = json!({"before": load_before, "after": load_average()});
    println!("load average (1, 5, 15 min): {load}");
    let out: Value = json!({"kassen_version": kassen_core::VERSION, "num_envs": num_envs, "seconds_per_run": secs,
        "repeats": REPEATS, "best_of_runs": true, "load_average": load,
        "multi_agent": rows, "single_agent_samurai_2p": single, "info_state_hash": info_state});
    let path = std::env::var("KASSEN_BENCH_BATCH_OUT")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../bench-results/batch.json").to_string());
    if let Some(dir) = std::path::Path::new(&path).parent() {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(&path, serde_json::to_string_pretty(&out).unwrap() + "\n").unwrap();
    println!("wrote {path}");
}

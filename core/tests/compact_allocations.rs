//! The compact observations of Samurai and Three Kingdoms Redux are written without allocating
//! (it is the batch's default observation, written at every step of every env), and Three
//! Kingdoms Redux lists its legal actions without allocating. Counted by a global allocator that
//! counts the allocations of this thread while a flag is up.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use kassen_core::load_game;
use kassen_core::rng::Rng;
use serde_json::json;

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            COUNT.with(|c| c.set(c.get() + 1));
        }
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn samurai_compact_observation_allocates_nothing() {
    let mut rng = Rng::from_seed(5);
    for players in 2..=4 {
        let game = load_game("samurai", Some(&json!({"players": players}))).unwrap();
        let mut out = vec![0u8; game.info().compact_len()];
        let mut legal = Vec::new();
        let mut state = game.new_initial_state(players as u64);
        while !state.is_terminal() {
            for p in 0..players {
                COUNT.with(|c| c.set(0));
                COUNTING.with(|c| c.set(true));
                state.compact_observation_into(p, &mut out).unwrap();
                COUNTING.with(|c| c.set(false));
                assert_eq!(COUNT.with(Cell::get), 0, "{players} players, seat {p}: the compact observation allocated");
            }
            legal.clear();
            state.legal_actions_into(&mut legal);
            state.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
        }
    }
}

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> u64 {
    COUNT.with(|c| c.set(0));
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    COUNT.with(Cell::get)
}

#[test]
fn three_kingdoms_redux_compact_observation_and_legal_actions_allocate_nothing() {
    let game = load_game("three_kingdoms_redux", None).unwrap();
    let mut rng = Rng::from_seed(7);
    let mut out = vec![0u8; game.info().compact_len()];
    let mut legal = Vec::with_capacity(256);
    let mut steps = 0u64;
    for seed in 0..8 {
        let mut state = game.new_initial_state(seed);
        while !state.is_terminal() {
            for p in 0..3 {
                let n = allocations(|| state.compact_observation_into(p, &mut out).unwrap());
                assert_eq!(n, 0, "seed {seed}, step {steps}, seat {p}: the compact observation allocated");
            }
            legal.clear();
            let n = allocations(|| state.legal_actions_into(&mut legal));
            assert_eq!(n, 0, "seed {seed}, step {steps}: listing the legal actions allocated");
            state.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
            steps += 1;
        }
        // The final observation too (it holds the scores).
        for p in 0..3 {
            let n = allocations(|| state.compact_observation_into(p, &mut out).unwrap());
            assert_eq!(n, 0, "seed {seed}, seat {p}: the final compact observation allocated");
        }
    }
    assert!(steps > 1000, "{steps} steps");
}

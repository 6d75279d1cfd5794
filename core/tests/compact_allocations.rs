//! Samurai's compact observation is written without allocating (it is the batch's default
//! observation, written at every step of every env). Counted by a global allocator that
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

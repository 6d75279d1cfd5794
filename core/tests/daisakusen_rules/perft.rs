//! Perft: the number of action sequences (chance outcomes included) of a given length from
//! fixed states. Any change in a rule that alters the legal moves changes these counts.

use super::common::*;
use kassen_core::games::sekigahara_daisakusen::*;
use kassen_core::{Events, Game};

fn perft(g: &Daisakusen, s: &State, depth: u32) -> u64 {
    if depth == 0 || g.is_terminal(s) {
        return 1;
    }
    let mut total = 0;
    for a in legal(g, s) {
        let mut t = s.clone();
        g.apply(&mut t, a, &mut Events::off());
        total += perft(g, &t, depth - 1);
    }
    total
}

#[test]
fn perft_from_the_initial_state() {
    let g = game();
    let s = g.new_initial_state(7);
    let counts: Vec<u64> = (0..=4).map(|d| perft(&g, &s, d)).collect();
    // Set-up: the first counters have four hexes to choose from.
    assert_eq!(counts, PERFT_SETUP);
}

#[test]
fn perft_after_setup() {
    let g = game();
    let s = after_setup(&g, 7);
    let counts: Vec<u64> = (0..=4).map(|d| perft(&g, &s, d)).collect();
    assert_eq!(counts, PERFT_PLAY);
}

// 255: the 1918 set-up hex holds only three counters.
const PERFT_SETUP: [u64; 5] = [1, 4, 16, 64, 255];
// Depth 2 = 50, by hand: 強行軍 redraws (14), 家康行動 2, 家康の書状 3, 秀忠 2, the 外様 cards 3 + 3 + 4,
// 石田 2, 宇喜多 2, 大谷 2, 三成の指令 4, 輝元 2, 元康 2, 西軍諸将 5.
// Depth 4: 1,359 before R 5.1(5) kept commanders of another clan out of moves: on C06 池田
// and on C07 浅野 (both at 1917) no longer select the other in a normal or strategic move.
const PERFT_PLAY: [u64; 5] = [1, 14, 50, 289, 1355];

//! States of random games where a search has something to decide, shared by the search tests.

use kassen_core::rng::Rng;
use kassen_core::{load_game, StateHandle};

/// States along a random game of `id` where the player to act has two or more choices: every
/// `every`-th such state (from the middle of the first stride), at most `most`.
pub fn decisions(id: &str, seed: u64, every: usize, most: usize) -> Vec<StateHandle> {
    let game = load_game(id, None).unwrap();
    let mut s = game.new_initial_state(seed);
    let mut rng = Rng::from_seed(seed + 100);
    let mut out = Vec::new();
    let mut k = 0;
    while !s.is_terminal() && out.len() < most {
        let legal = s.legal_actions();
        if legal.len() > 1 {
            if k % every == every / 2 {
                out.push(s.clone());
            }
            k += 1;
        }
        s.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
    }
    out
}

//! Determinization: redraw what an observer cannot see (other seats' hands and stacks, and in
//! 3-4 player games the types of their captured figures), keeping everything it can see.

use super::state::{Phase, State};
use super::{bits, Samurai};
use crate::game::Player;
use crate::rng::Rng;

/// `k` tokens drawn at random from `pool`.
fn choose(pool: u32, k: u32, rng: &mut Rng) -> u32 {
    let mut left = pool;
    let mut out = 0;
    for _ in 0..k.min(pool.count_ones()) {
        let i = rng.below(left.count_ones());
        let t = bits(left).nth(i as usize).expect("i < popcount");
        out |= 1 << t;
        left &= !(1 << t);
    }
    out
}

pub fn resample(g: &Samurai, s: &State, observer: Player, rng: &mut Rng) -> State {
    let mut r = s.clone();
    r.rng = Rng::from_seed(rng.next_u64());
    if s.phase == Phase::Over {
        return r; // 7.1: the screens are lifted.
    }
    let others: Vec<usize> = (0..g.n).filter(|&p| p as Player != observer).collect();
    for &p in &others {
        let k = s.hand_size(p);
        if s.phase == Phase::ChooseTokens && s.stacks[p] == 0 {
            // Still choosing (or not yet): only the number kept is known.
            r.hands[p] = choose(g.all_tokens, k, rng);
        } else {
            let pool = s.hands[p] | s.stacks[p];
            r.hands[p] = choose(pool, k, rng);
            r.stacks[p] = pool & !r.hands[p];
        }
    }
    if g.n > 2 && others.len() >= 2 {
        // 3.3: captured types are hidden; each seat's count and the pool of types the others
        // hold (from the figures no longer on the board) are public. Deal that pool anew.
        // Built in type order from the totals, so it is the same for every state the observer
        // cannot tell apart.
        let mut pool: Vec<usize> = Vec::new();
        for f in 0..3 {
            let total: usize = others.iter().map(|&p| s.captured[p][f] as usize).sum();
            pool.extend(std::iter::repeat_n(f, total));
        }
        for i in (1..pool.len()).rev() {
            let j = rng.below(i as u32 + 1) as usize;
            pool.swap(i, j);
        }
        let mut next = pool.into_iter();
        for &p in &others {
            let count: u8 = s.captured[p].iter().sum();
            r.captured[p] = [0; 3];
            for f in next.by_ref().take(count as usize) {
                r.captured[p][f] += 1;
            }
        }
    }
    r
}

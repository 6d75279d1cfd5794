//! Determinization: a state the observer cannot tell apart from the real one, with the hidden
//! parts dealt anew. Hidden from a side: the identities of the other side's face-down blocks
//! (on the map, in the recruitment box and in the bag), and the other side's cards (hand,
//! deck, discard pile, a face-down bid or reinforcement discard). The places and public flags
//! of those blocks and the number of cards in each pile stay. Past reveals are not used: the
//! redraw depends on the current view only (a player's memory of earlier reveals is its own).

use super::data::NONE;
use super::state::{Blk, State, DEAD, DEFECTED, DEPLOYED, MORI_BOX, SHOWN};
use super::Sekigahara;
use crate::game::{Player, SPECTATOR};
use crate::rng::Rng;

fn shuffle<T>(v: &mut [T], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        v.swap(i, j);
    }
}

/// Whether block `i` is face down (its identity hidden from the other side).
pub fn face_down(s: &State, i: usize) -> bool {
    let b = &s.blocks[i];
    b.loc != MORI_BOX && b.loc != DEAD && b.flags & (DEPLOYED | DEFECTED | SHOWN) == 0
        // Blocks deployed in the battle stay face up until it is over (the losses clear the
        // flags before the retreat decisions; the battle view still lists them).
        && !s.battle.as_ref().is_some_and(|x| x.deploys.iter().any(|d| d.block as usize == i))
}

pub fn resample(g: &Sekigahara, s: &State, observer: Player, rng: &mut Rng) -> State {
    let mut r = s.clone();
    r.rng = Rng::from_seed(rng.next_u64());
    if s.is_over() {
        return r;
    }
    for side in 0..2u8 {
        if observer != SPECTATOR && observer as u8 == side {
            continue;
        }
        // Blocks: the same slots (place and flags), identities dealt anew.
        let ids: Vec<usize> = (0..s.blocks.len()).filter(|&i| g.data.blocks[i].side == side && face_down(s, i)).collect();
        let mut slots: Vec<Blk> = ids.iter().map(|&i| s.blocks[i]).collect();
        slots.sort_unstable_by_key(|b| (b.loc, b.flags, b.from));
        let mut order = ids.clone();
        shuffle(&mut order, rng);
        for (slot, &i) in slots.into_iter().zip(&order) {
            r.blocks[i] = slot;
        }
        // Cards: the pool of every card not in view, dealt into piles of the same sizes.
        let types = &g.data.side_cards[side as usize];
        let mut pool: Vec<u8> = Vec::new();
        for &c in types {
            let n = s.hand[c as usize] + s.deck[c as usize] + s.discard[c as usize] + s.reinforce_discards[c as usize];
            pool.extend(std::iter::repeat_n(c, n as usize));
        }
        let bid = s.bids[side as usize];
        if bid != NONE {
            pool.push(bid);
        }
        pool.sort_unstable();
        shuffle(&mut pool, rng);
        let sizes = [
            s.pile_size(g, &s.hand, side),
            s.pile_size(g, &s.reinforce_discards, side),
            s.pile_size(g, &s.discard, side),
            u32::from(bid != NONE),
        ];
        for &c in types {
            r.hand[c as usize] = 0;
            r.deck[c as usize] = 0;
            r.discard[c as usize] = 0;
            r.reinforce_discards[c as usize] = 0;
        }
        let mut it = pool.into_iter();
        for (pile, &n) in sizes.iter().enumerate() {
            for c in it.by_ref().take(n as usize) {
                match pile {
                    0 => r.hand[c as usize] += 1,
                    1 => r.reinforce_discards[c as usize] += 1,
                    2 => r.discard[c as usize] += 1,
                    _ => r.bids[side as usize] = c,
                }
            }
        }
        for c in it {
            r.deck[c as usize] += 1;
        }
    }
    r
}

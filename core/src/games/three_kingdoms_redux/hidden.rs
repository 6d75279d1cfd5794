//! Determinization by sampled history (`Game::resample_history`).
//!
//! Hidden from an observer: other seats' development draws (setup deals and imports) and
//! which imported card they kept, other seats' general draws and their keeps before the
//! reveal. Everything else (the structure of the history, placements, built cards, revealed
//! generals) is public. The sampled history keeps every public step and every step of the
//! observer, and redraws the hidden ones from `rng` in history order:
//! - a development later built by seat p fills p's earliest kept draw from that deck (the
//!   k-th built card of a deck goes into the k-th kept slot of that deck, which p always drew
//!   before building it); other hidden slots take random cards that the observer has never
//!   seen and that nobody built;
//! - a revealed recruitment puts the kept generals (ascending) into the first draws of that
//!   recruitment and keeps them in that order; the other draws are random; an unrevealed
//!   recruitment draws and keeps at random.
//!
//! Every replacement is checked against the sampled state as it is rebuilt.

use std::collections::VecDeque;

use super::action::Action;
use super::state::*;
use super::Tkr;
use crate::events::Events;
use crate::game::{ActionId, Game, Player, SPECTATOR};
use crate::rng::Rng;

struct Step {
    pending: Pending,
    seat: u8,
    round: u8,
}

pub fn resample(g: &Tkr, history: &[ActionId], observer: Player, rng: &mut Rng) -> Vec<ActionId> {
    let hidden = |seat: u8| observer == SPECTATOR || observer != seat as Player;
    // --- pass 1: the true history's structure and the public facts ---
    let mut t = g.new_initial_state(0);
    let mut ev = Events::off();
    let mut steps = Vec::with_capacity(history.len());
    // the card behind each draw (outcome k = k-th card left)
    let mut card = vec![NONE; history.len()];
    for (i, &a) in history.iter().enumerate() {
        steps.push(Step { pending: t.pending, seat: t.seat, round: t.round });
        match (t.pending, g.decode(a)) {
            (Pending::DrawDev { deck, .. }, Some(Action::DrawDev(k))) => {
                card[i] = g.dev_remaining(&t, deck).nth(k as usize).unwrap_or(NONE)
            }
            (Pending::DrawGeneral { seat, .. }, Some(Action::DrawGeneral(k))) => {
                card[i] = g.general_deck(&t, seat as usize).nth(k as usize).unwrap_or(NONE)
            }
            _ => {}
        }
        g.apply(&mut t, a, &mut ev);
    }
    let mut built: [[VecDeque<u8>; 2]; 3] = Default::default();
    let mut known: u64 = 0;
    for (i, st) in steps.iter().enumerate() {
        match (st.pending, g.decode(history[i])) {
            (Pending::Build, Some(Action::Dev(d))) => {
                built[st.seat as usize][g.data.developments[d as usize].deck as usize].push_back(d);
                known |= 1 << d;
            }
            (Pending::DrawDev { seat, .. }, Some(Action::DrawDev(_))) if !hidden(seat) => known |= 1 << card[i],
            _ => {}
        }
    }
    // which hidden development draws are kept (go to the hand)
    let mut kept_slot = vec![true; history.len()];
    let mut i = 0;
    while i < steps.len() {
        if let Pending::DrawDev { seat, import: true, .. } = steps[i].pending {
            let start = i;
            while i < steps.len() && matches!(steps[i].pending, Pending::DrawDev { seat: s2, import: true, .. } if s2 == seat) {
                i += 1;
            }
            let next = if i < steps.len() { steps[i].pending } else { t.pending };
            let keeps = steps[i..].iter().take_while(|s| matches!(s.pending, Pending::KeepImport { .. })).count();
            let complete = i < steps.len() || !matches!(next, Pending::KeepImport { .. });
            let first_kept = if matches!(next, Pending::KeepImport { .. }) {
                keeps
            } else if complete {
                i - start
            } else {
                0
            };
            for (j, slot) in kept_slot[start..i].iter_mut().enumerate() {
                *slot = j < first_kept;
            }
        } else {
            i += 1;
        }
    }
    let revealed = |seat: u8, round: u8| -> Vec<u8> {
        g.data.decks[seat as usize]
            .iter()
            .copied()
            .filter(|&x| t.recruited_round[x as usize] == round && matches!(t.gloc[x as usize], GLoc::Active | GLoc::Stationed))
            .collect()
    };
    let reserved_all: u64 = known | built.iter().flat_map(|d| d.iter().flatten()).fold(0u64, |m, &d| m | 1 << d);

    // --- pass 2: rebuild with the hidden parts redrawn ---
    // A replacement the rebuilt state does not allow is drawn again (the next attempt reads
    // more of `rng`); the true history is never a fallback, since it would show the hidden truth.
    for _attempt in 0..64 {
        let mut built = built.clone();
        let sampled = (|| -> Option<Vec<ActionId>> {
            let mut ns = g.new_initial_state(0);
            let mut out = Vec::with_capacity(history.len());
            let mut import_kept: VecDeque<u8> = VecDeque::new();
            let mut gen_ep: (u8, u8, usize, usize) = (NONE, 0, 0, 0);
            let mut legal = Vec::new();
            for (i, st) in steps.iter().enumerate() {
                let a = history[i];
                legal.clear();
                g.legal_actions(&ns, &mut legal);
                let pick = |rng: &mut Rng, cands: &[u8]| -> Option<u8> {
                    (!cands.is_empty()).then(|| cands[rng.below(cands.len() as u32) as usize])
                };
                let b = match st.pending {
                    Pending::DrawDev { seat, deck, import, .. } => {
                        let left: Vec<u8> = g.dev_remaining(&ns, deck).collect();
                        let chosen = if hidden(seat) {
                            let mut choice = None;
                            if kept_slot[i] {
                                if let Some(&d) = built[seat as usize][deck as usize].front() {
                                    if left.contains(&d) {
                                        built[seat as usize][deck as usize].pop_front();
                                        choice = Some(d);
                                    }
                                }
                            }
                            let choice = choice.or_else(|| {
                                let free: Vec<u8> = left.iter().copied().filter(|&d| reserved_all & (1 << d) == 0).collect();
                                pick(rng, &free)
                            });
                            let d = choice.or_else(|| pick(rng, &left))?;
                            if import && kept_slot[i] {
                                import_kept.push_back(d);
                            }
                            d
                        } else {
                            card[i]
                        };
                        match left.iter().position(|&d| d == chosen) {
                            Some(k) => g.encode(Action::DrawDev(k as u8)),
                            None => return None,
                        }
                    }
                    Pending::KeepImport { .. } if hidden(st.seat) => {
                        let want = import_kept.pop_front().map(|d| g.encode(Action::Dev(d)));
                        match want {
                            Some(id) if legal.contains(&id) => id,
                            _ => *legal.get(rng.below(legal.len().max(1) as u32) as usize)?,
                        }
                    }
                    Pending::DrawGeneral { seat, .. } => {
                        let left: Vec<u8> = g.general_deck(&ns, seat as usize).collect();
                        let chosen = if hidden(seat) {
                            if gen_ep.0 != seat || gen_ep.1 != st.round {
                                gen_ep = (seat, st.round, 0, 0);
                            }
                            let kept = revealed(seat, st.round);
                            let j = gen_ep.2;
                            gen_ep.2 += 1;
                            if j < kept.len() {
                                kept[j]
                            } else {
                                let free: Vec<u8> = left.iter().copied().filter(|x| !kept.contains(x)).collect();
                                pick(rng, &free).or_else(|| pick(rng, &left))?
                            }
                        } else {
                            card[i]
                        };
                        match left.iter().position(|&x| x == chosen) {
                            Some(k) => g.encode(Action::DrawGeneral(k as u8)),
                            None => return None,
                        }
                    }
                    Pending::Keep { seat, .. } if hidden(seat) => {
                        if gen_ep.0 != seat || gen_ep.1 != st.round {
                            gen_ep = (seat, st.round, 0, 0);
                        }
                        let kept = revealed(seat, st.round);
                        let k = gen_ep.3;
                        gen_ep.3 += 1;
                        if k < kept.len() {
                            g.encode(Action::Keep(kept[k]))
                        } else {
                            *legal.get(rng.below(legal.len().max(1) as u32) as usize)?
                        }
                    }
                    _ => a,
                };
                if !legal.contains(&b) {
                    // a replacement that the rebuilt state does not allow: draw again
                    return None;
                }
                g.apply(&mut ns, b, &mut ev);
                out.push(b);
            }
            Some(out)
        })();
        if let Some(out) = sampled {
            return out;
        }
    }
    panic!("three_kingdoms_redux: no history consistent with seat {observer}'s information was found in 64 draws");
}

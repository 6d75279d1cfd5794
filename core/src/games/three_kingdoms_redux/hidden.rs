//! Determinization by sampled history (`Game::resample_history`).
//!
//! Hidden from an observer: other seats' development draws (setup deals and imports), which
//! imported card they kept and so which cards they put at the bottom of a deck, other seats'
//! general draws and their keeps before the reveal. Everything else (the structure of the
//! history, placements, built cards, revealed generals, how many cards each deck and its
//! bottom hold) is public. The sampled history keeps every public step and every step of the
//! observer, and redraws the hidden ones from `rng` in history order:
//! - a development draw starts a *chain*: the card may go to the bottom of its deck (an
//!   import not kept) and come back in a later draw from the bottom, and so on; the last
//!   draw of a chain is the one that keeps the card. A chain with a step the observer saw
//!   has the card the observer saw. Hidden imports keep their first draws (the count is
//!   public) and put the others at the bottom in draw order;
//! - a development later built by seat p is the card of one of p's hidden kept chains: the
//!   k-th such build of a deck (not otherwise known) is the card of p's k-th such chain of
//!   that deck, which p always kept before building; other hidden chains take random cards
//!   that the observer has never seen and that nobody built;
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
    // the card behind each draw, and whether it came from a deck's known bottom part
    let mut card = vec![NONE; history.len()];
    let mut forced = vec![false; history.len()];
    // the true cards each import put at the bottom: (step, cards)
    let mut returns: Vec<(usize, Vec<u8>)> = Vec::new();
    for (i, &a) in history.iter().enumerate() {
        steps.push(Step { pending: t.pending, seat: t.seat, round: t.round });
        match (t.pending, g.decode(a)) {
            (Pending::DrawDev { deck, .. }, Some(Action::DrawDev(k))) => {
                card[i] = g.dev_card(&t, deck, k as usize).unwrap_or(NONE);
                forced[i] = g.dev_unknown(&t, deck).next().is_none();
            }
            (Pending::DrawGeneral { seat, .. }, Some(Action::DrawGeneral(k))) => {
                card[i] = g.general_deck(&t, seat as usize).nth(k as usize).unwrap_or(NONE)
            }
            _ => {}
        }
        let before = [t.bottom[0].len(), t.bottom[1].len()];
        g.apply(&mut t, a, &mut ev);
        if matches!(steps[i].pending, Pending::KeepImport { .. }) {
            // the last keep of an import puts the others at the bottom of their deck
            for (bottom, &len) in t.bottom.iter().zip(&before) {
                if bottom.len() > len {
                    returns.push((i, bottom[len..].iter().map(|&(c, _)| c).collect()));
                }
            }
        }
    }
    let mut known: u64 = 0;
    let mut built_by: [[Vec<u8>; 2]; 3] = Default::default();
    for (i, st) in steps.iter().enumerate() {
        match (st.pending, g.decode(history[i])) {
            // (an army_cost prompt after Dev(d) belongs to the same build)
            (Pending::Build, Some(Action::Dev(d))) => {
                built_by[st.seat as usize][g.data.developments[d as usize].deck as usize].push(d);
                known |= 1 << d;
            }
            (Pending::DrawDev { seat, .. }, Some(Action::DrawDev(_))) if !hidden(seat) => known |= 1 << card[i],
            _ => {}
        }
    }
    // the import episodes: their draws and how many of them are kept
    let mut episodes: Vec<(Vec<usize>, usize)> = Vec::new();
    let mut episode_of = vec![usize::MAX; history.len()];
    let mut i = 0;
    while i < steps.len() {
        if let Pending::DrawDev { seat, import: true, .. } = steps[i].pending {
            let start = i;
            while i < steps.len() && matches!(steps[i].pending, Pending::DrawDev { seat: s2, import: true, .. } if s2 == seat) {
                episode_of[i] = episodes.len();
                i += 1;
            }
            let next = if i < steps.len() { steps[i].pending } else { t.pending };
            let keeps = steps[i..].iter().take_while(|s| matches!(s.pending, Pending::KeepImport { .. })).count();
            let complete = i < steps.len() || !matches!(next, Pending::KeepImport { .. });
            let kept = if matches!(next, Pending::KeepImport { .. }) {
                keeps
            } else if complete {
                i - start
            } else {
                0
            };
            episodes.push(((start..i).collect(), kept));
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
    // One sampled plan of the hidden development draws: which draws of each hidden import are
    // kept (a random subset of the public size), the chains this makes, and the card each
    // chain must have (seen by the observer, or built by the chain's keeper); None when the
    // plan contradicts the observer's information.
    let plan = |rng: &mut Rng| -> Option<(Vec<bool>, Vec<u8>)> {
        let mut kept_slot = vec![true; history.len()];
        for (slots, kept) in &episodes {
            let mut chosen: Vec<usize> = slots.clone();
            if hidden(steps[slots[0]].seat) {
                for k in 0..chosen.len() {
                    let j = k + rng.below((chosen.len() - k) as u32) as usize;
                    chosen.swap(k, j);
                }
            }
            for (k, &j) in chosen.iter().enumerate() {
                kept_slot[j] = k < *kept;
            }
        }
        let mut root: Vec<usize> = (0..history.len()).collect();
        let mut bottom: [VecDeque<usize>; 2] = Default::default();
        let mut ret = returns.iter().peekable();
        for (i, st) in steps.iter().enumerate() {
            if let Pending::DrawDev { deck, .. } = st.pending {
                if forced[i] {
                    root[i] = root[bottom[deck as usize].pop_front()?];
                }
            }
            if let Some((_, cards)) = ret.next_if(|(at, _)| *at == i) {
                let deck = g.data.developments[*cards.first()? as usize].deck as usize;
                // the episode this keep step closes: the latest import of this seat
                let e = (0..i).rev().find(|&j| episode_of[j] != usize::MAX && steps[j].seat == st.seat).map(|j| episode_of[j])?;
                let slots = &episodes[e].0;
                if hidden(st.seat) {
                    bottom[deck].extend(slots.iter().copied().filter(|&j| !kept_slot[j]));
                } else {
                    for c in cards {
                        bottom[deck].push_back(*slots.iter().find(|&&j| card[j] == *c)?);
                    }
                }
            }
        }
        let mut pin = vec![NONE; history.len()];
        let mut pinned: u64 = 0;
        for (i, st) in steps.iter().enumerate() {
            if let Pending::DrawDev { seat, .. } = st.pending {
                if !hidden(seat) {
                    let r = root[i];
                    if pin[r] == NONE {
                        if pinned & (1 << card[i]) != 0 {
                            return None;
                        }
                        pin[r] = card[i];
                        pinned |= 1 << card[i];
                    } else if pin[r] != card[i] {
                        return None;
                    }
                }
            }
        }
        for seat in (0..3u8).filter(|&k| hidden(k)) {
            for deck in 0..2u8 {
                let mut builds = built_by[seat as usize][deck as usize].iter().copied().filter(|&d| pinned & (1 << d) == 0).peekable();
                for (i, st) in steps.iter().enumerate() {
                    let mine = matches!(st.pending, Pending::DrawDev { seat: s2, deck: d2, .. } if s2 == seat && d2 == deck);
                    if mine && kept_slot[i] && pin[root[i]] == NONE {
                        match builds.next() {
                            Some(d) => pin[root[i]] = d,
                            None => break,
                        }
                    }
                }
                if builds.peek().is_some() {
                    return None;
                }
            }
        }
        Some((kept_slot, pin))
    };

    // --- pass 2: rebuild with the hidden parts redrawn ---
    // A replacement the rebuilt state does not allow is drawn again (the next attempt reads
    // more of `rng`); the true history is never a fallback, since it would show the hidden truth.
    for _attempt in 0..64 {
        let Some((kept_slot, pin)) = plan(rng) else { continue };
        let reserved_all: u64 = known | pin.iter().filter(|&&c| c != NONE).fold(0u64, |m, &c| m | 1 << c);
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
                    Pending::DrawDev { seat, deck, import, .. } if forced[i] => {
                        // the next bottom card: its chain decided it when it went there
                        let d = g.dev_card(&ns, deck, 0)?;
                        if !hidden(seat) && d != card[i] {
                            return None;
                        }
                        if hidden(seat) && import && kept_slot[i] {
                            import_kept.push_back(d);
                        }
                        a
                    }
                    Pending::DrawDev { seat, deck, import, .. } => {
                        let left: Vec<u8> = g.dev_unknown(&ns, deck).collect();
                        let chosen = if pin[i] != NONE {
                            pin[i]
                        } else {
                            let free: Vec<u8> = left.iter().copied().filter(|&d| reserved_all & (1 << d) == 0).collect();
                            pick(rng, &free).or_else(|| pick(rng, &left))?
                        };
                        if hidden(seat) && import && kept_slot[i] {
                            import_kept.push_back(chosen);
                        }
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

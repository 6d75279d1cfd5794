//! Cards (3.3) and bag draws: the owed draws are chance nodes; a deck is an unordered pile of
//! card counts, so every draw is uniform over the cards left in it. An empty deck is refilled
//! from the discard pile. Also the Mori box (9.3), whose blocks arrive per card discarded.

use super::control;
use super::data::{ISHIDA, SIDES};
use super::state::{State, BAG, BOX, MORI_BOX, MUSTERED};
use super::{Action, Sekigahara};
use crate::bits::bits;
use crate::events::{event, Audience, Events};
use crate::game::ActionId;

/// INTERPRETATION (RULES_NOTES.md S4): setup draws in data order, then Tokugawa before Ishida.
/// The side and the target of the next owed block draw, if a block draw is next.
fn next_block_draw(s: &State) -> Option<(u8, u8)> {
    if let Some(&(dest, side)) = s.due.setup.first() {
        return Some((dest, side));
    }
    (0..2u8).find(|&p| s.due.blocks[p as usize] > 0).map(|p| (BOX, p))
}

fn next_card_draw(s: &State) -> Option<u8> {
    (0..2u8).find(|&p| s.due.cards[p as usize] > 0)
}

pub fn legal_draws(g: &Sekigahara, s: &State, out: &mut Vec<ActionId>) {
    let mut v = Vec::new();
    chance_outcomes(g, s, &mut v);
    out.extend(v.into_iter().map(|(a, _)| a));
}

pub fn chance_outcomes(g: &Sekigahara, s: &State, out: &mut Vec<(ActionId, f64)>) {
    if let Some((_, side)) = next_block_draw(s) {
        let bag: Vec<u8> = bag(g, s, side).collect();
        let p = 1.0 / bag.len() as f64;
        out.extend(bag.into_iter().map(|b| (g.encode(Action::DrawBlock(b)), p)));
    } else if let Some(side) = next_card_draw(s) {
        let total = s.pile_size(g, &s.deck, side) as f64;
        for &c in &g.data.side_cards[side as usize] {
            if s.deck[c as usize] > 0 {
                out.push((g.encode(Action::DrawCard(c)), s.deck[c as usize] as f64 / total));
            }
        }
        out.sort_unstable_by_key(|&(a, _)| a);
    }
}

/// INTERPRETATION (RULES_NOTES.md S22): decks are unordered; each draw is uniform.
pub fn sample_chance(g: &Sekigahara, s: &mut State) -> ActionId {
    if let Some((_, side)) = next_block_draw(s) {
        let n = bag(g, s, side).count() as u32;
        let k = s.rng.below(n) as usize;
        let b = bag(g, s, side).nth(k).expect("k < bag size");
        g.encode(Action::DrawBlock(b))
    } else {
        let side = next_card_draw(s).expect("a draw is owed at a chance node");
        let mut k = s.rng.below(s.pile_size(g, &s.deck, side));
        for &c in &g.data.side_cards[side as usize] {
            let n = s.deck[c as usize] as u32;
            if k < n {
                return g.encode(Action::DrawCard(c));
            }
            k -= n;
        }
        unreachable!("k < deck size")
    }
}

/// Blocks of `side` in its bag, ascending.
pub fn bag<'a>(g: &'a Sekigahara, s: &'a State, side: u8) -> impl Iterator<Item = u8> + 'a {
    s.blocks.iter().zip(&g.data.blocks).enumerate().filter(move |(_, (b, d))| b.loc == BAG && d.side == side).map(|(i, _)| i as u8)
}

pub fn draw_block(g: &Sekigahara, s: &mut State, b: u8, ev: &mut Events) {
    let (dest, side) = next_block_draw(s).expect("a block draw is owed");
    if s.due.setup.is_empty() {
        s.due.blocks[side as usize] -= 1;
    } else {
        s.due.setup.remove(0);
    }
    let blk = &mut s.blocks[b as usize];
    blk.loc = dest;
    blk.flags = 0;
    blk.from = super::NONE;
    let id = &g.data.blocks[b as usize].id;
    if dest == BOX {
        ev.emit(Audience::ALL, || event!({"kind": "block_drawn", "side": SIDES[side as usize], "to": "recruitment_box"}));
        ev.emit(Audience::seat(side as usize), || event!({"kind": "block_drawn_private", "block": id, "to": "recruitment_box"}));
    } else {
        let to = &g.data.locations[dest as usize].id;
        ev.emit(Audience::ALL, || event!({"kind": "block_drawn", "side": SIDES[side as usize], "to": to}));
        ev.emit(Audience::seat(side as usize), || event!({"kind": "block_drawn_private", "block": id, "to": to}));
    }
}

pub fn draw_card(g: &Sekigahara, s: &mut State, c: u8, ev: &mut Events) {
    let side = g.data.cards[c as usize].side;
    s.due.cards[side as usize] -= 1;
    s.deck[c as usize] -= 1;
    s.hand[c as usize] += 1;
    ev.emit(Audience::ALL, || event!({"kind": "card_drawn", "side": SIDES[side as usize]}));
    ev.emit(Audience::seat(side as usize), || event!({"kind": "card_drawn_private", "card": g.data.cards[c as usize].id}));
}

/// Drops owed draws that cannot be made and refills empty decks from the discard pile (3.3).
pub fn settle_draws(g: &Sekigahara, s: &mut State, ev: &mut Events) {
    s.due.setup.retain(|&(_, side)| s.blocks.iter().zip(&g.data.blocks).any(|(b, d)| b.loc == BAG && d.side == side));
    for side in 0..2u8 {
        if s.due.blocks[side as usize] > 0 && bag(g, s, side).next().is_none() {
            s.due.blocks[side as usize] = 0;
        }
        if s.due.cards[side as usize] > 0 && s.pile_size(g, &s.deck, side) == 0 {
            if s.pile_size(g, &s.discard, side) == 0 {
                s.due.cards[side as usize] = 0;
            } else {
                for &c in &g.data.side_cards[side as usize] {
                    s.deck[c as usize] += s.discard[c as usize];
                    s.discard[c as usize] = 0;
                }
                ev.emit(Audience::ALL, || event!({"kind": "deck_reshuffled", "side": SIDES[side as usize]}));
            }
        }
    }
}

/// A card leaves the hand for the discard pile, face up (3.3). In an Ishida movement phase
/// each discarded card brings a Mori block to Osaka (9.3).
/// INTERPRETATION (RULES_NOTES.md S28): the no-movement exchange's discards count too.
pub fn discard(g: &Sekigahara, s: &mut State, c: u8, why: &'static str, ev: &mut Events) {
    let side = g.data.cards[c as usize].side;
    s.hand[c as usize] -= 1;
    s.discard[c as usize] += 1;
    ev.emit(
        Audience::ALL,
        || event!({"kind": "card_discarded", "side": SIDES[side as usize], "card": g.data.cards[c as usize].id, "for": why}),
    );
    if side == ISHIDA && s.active() == ISHIDA && s.in_movement() && s.pending != super::Pending::Over {
        mori_arrive(g, s, 1, ev);
    }
}

/// Mori box blocks in the order they leave it: the others in data order, Terumoto last (9.3).
/// INTERPRETATION (RULES_NOTES.md S12): the published box holds four identical 3-mon blocks,
/// so which one comes first is no decision; with other data the file order is used.
pub fn mori_order(g: &Sekigahara, s: &State) -> impl Iterator<Item = u8> {
    let in_box = |leader: bool| {
        (0..s.blocks.len()).filter(|&i| s.blocks[i].loc == MORI_BOX && g.data.blocks[i].leader == leader).fold(0u128, |m, i| m | 1 << i)
    };
    bits(in_box(false)).chain(bits(in_box(true)))
}

/// Moves up to `n` blocks from the Mori box to its exit (9.3); they cannot move this turn.
pub fn mori_arrive(g: &Sekigahara, s: &mut State, n: usize, ev: &mut Events) {
    let exit = g.data.mori_exit;
    let mut order = mori_order(g, s).peekable();
    if order.peek().is_none() {
        return;
    }
    for b in order.take(n) {
        let blk = &mut s.blocks[b as usize];
        blk.loc = exit;
        blk.flags = MUSTERED;
        blk.from = super::NONE;
        ev.emit(
            Audience::ALL,
            || event!({"kind": "mori_arrival", "block": g.data.blocks[b as usize].id, "to": g.data.locations[exit as usize].id}),
        );
    }
    control::arrive(g, s, ISHIDA, exit, ev);
}

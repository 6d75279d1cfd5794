//! The compact observation ([`crate::compact`]; fields documented in `docs/rules/samurai.md`):
//! per hex the token on it and its owner, per settlement its figures, per seat (relative to the
//! observer, as in the tensor; the spectator sees absolute seats) its tokens and captures as
//! far as the observer may see them (view.rs), the figure pools and the turn.

use super::state::{cell_owner, cell_token, Phase, State, EMPTY};
use super::view::{sees_captured, used_tokens};
use super::{Samurai, HAND};
use crate::compact::{CompactBuilder, CompactField, Writer};
use crate::game::{Player, SPECTATOR};

/// Bytes of the `turn_record` field: the pending step and the end reason.
const TURN_RECORD: usize = 6;

/// The named fields, in the order [`write`] fills them.
pub fn layout(g: &Samurai) -> Vec<CompactField> {
    let (nh, nt, ns) = (g.data().hexes.len(), g.data().tokens.len(), g.settlements.len());
    let nt8 = nt as u8;
    CompactBuilder::new()
        .u8("hex_token", &[nh], nt8, "per hex (data order): 0 empty (or out of play), else 1 + the token id standing there")
        .u8("hex_owner", &[nh], 4, "per hex: 0 empty, else 1 + the relative seat owning the token")
        .bits("settlement_figures", &[ns, 3], "per settlement in play (ascending hex): helmet, buddha, rice figure present")
        .bits("settlement_resolved", &[ns], "per settlement in play: surrounded and resolved")
        .bits("hand", &[4, nt], "per relative seat, per token: behind its screen (the observer's own; everyone's once over)")
        .bits("stack", &[4, nt], "per relative seat, per token: in its face-down stack (the observer's own only)")
        .bits("used", &[4, nt], "per relative seat, per token: on the board or discarded (public)")
        .u8("hand_size", &[4], HAND as u8, "per relative seat: tokens behind the screen (0 for absent seats)")
        .u8("stack_size", &[4], nt8, "per relative seat: tokens in the stack")
        .u8("captured", &[4, 3], 255, "per relative seat: captured helmet, buddha, rice (zeros where the observer may not see them)")
        .u8("captured_count", &[4], 255, "per relative seat: captured figures of any type")
        .u8("figures", &[3, 3], 255, "set aside, on the board, in the supply: helmet, buddha, rice")
        .u8("phase", &[1], 4, "choose tokens, place figures, play, refill, over")
        .u8("seat", &[1], 3, "relative seat deciding (in the refill: whose hand is refilled)")
        .u8("turn", &[3], 255, "tokens played this turn, the normal token used (0/1), consecutive passes")
        .record(
            "turn_record",
            TURN_RECORD,
            "record: the pending step (0 none; 1 figure exchange, settlement, figure; 2 token exchange, token) then the end \
             reason once over (0 none; 1 then 0 type exhausted + type, 1 four set aside, 2 nobody can play)",
        )
        .build()
}

fn rel(g: &Samurai, observer: Player, seat: usize) -> usize {
    if observer == SPECTATOR {
        seat
    } else {
        (seat + g.n - observer as usize) % g.n
    }
}

pub fn write(g: &Samurai, s: &State, observer: Player, out: &mut [u8]) {
    let (nh, nt) = (g.data().hexes.len(), g.data().tokens.len());
    let mut w = Writer::new(out);
    let tokens = w.take(nh);
    for (h, &c) in s.cells.iter().enumerate() {
        if c != EMPTY {
            tokens[h] = cell_token(c) + 1;
        }
    }
    let owners = w.take(nh);
    for (h, &c) in s.cells.iter().enumerate() {
        if c != EMPTY {
            owners[h] = rel(g, observer, cell_owner(c)) as u8 + 1;
        }
    }
    let ns = g.settlements.len();
    w.bits(
        3 * ns,
        g.settlements
            .iter()
            .enumerate()
            .flat_map(|(k, &st)| (0..3).filter(move |f| s.figures[st as usize] & (1 << f) != 0).map(move |f| 3 * k + f)),
    );
    w.bits(ns, g.settlements.iter().enumerate().filter(|(_, &st)| s.is_resolved(st as usize)).map(|(k, _)| k));
    let over = s.phase == Phase::Over;
    // (seat relative to the observer, seat), at most four: written without allocating.
    let mut seats = [(0usize, 0usize); 4];
    for (p, slot) in seats.iter_mut().enumerate().take(g.n) {
        *slot = (rel(g, observer, p), p);
    }
    let seats = &seats[..g.n];
    w.bits(4 * nt, per_seat(seats, nt, |p| if over || observer == p as Player { s.hands[p] } else { 0 }));
    w.bits(4 * nt, per_seat(seats, nt, |p| if observer == p as Player { s.stacks[p] } else { 0 }));
    w.bits(4 * nt, per_seat(seats, nt, |p| used_tokens(g, s, p)));
    let field = w.take(4);
    for &(r, p) in seats {
        field[r] = s.hand_size(p) as u8;
    }
    let field = w.take(4);
    for &(r, p) in seats {
        field[r] = s.stacks[p].count_ones() as u8;
    }
    let field = w.take(12);
    for &(r, p) in seats {
        if sees_captured(g, s, observer, p) {
            field[3 * r..3 * r + 3].copy_from_slice(&s.captured[p]);
        }
    }
    let field = w.take(4);
    for &(r, p) in seats {
        field[r] = s.captured[p].iter().sum();
    }
    for v in [s.set_aside, s.on_board, s.supply] {
        w.take(3).copy_from_slice(&v);
    }
    w.u8(s.phase as u8);
    w.u8(rel(g, observer, s.seat as usize) as u8);
    w.u8(s.turn.played);
    w.u8(s.turn.normal_used as u8);
    w.u8(s.passes);
    w.record(TURN_RECORD, &(s.turn.pending, over.then_some(s.end).flatten()));
}

/// The bit indices of a per-seat token plane: token `t` of the seat at relative place `r` is
/// bit `r * nt + t`, for the tokens `f(seat)` holds.
fn per_seat<'a>(seats: &'a [(usize, usize)], nt: usize, f: impl Fn(usize) -> u32 + 'a) -> impl Iterator<Item = usize> + 'a {
    seats.iter().flat_map(move |&(r, p)| super::bits(f(p)).map(move |t| r * nt + t as usize))
}

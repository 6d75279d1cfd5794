//! === 5. A turn ===
//!
//! 5.2 The player plays one or more tokens from behind his screen, at most one without a
//! Japanese character (2.4) and any number with one. 5.3 Ships go on empty sea hexes, other
//! tokens on empty land hexes; never on a village, city or Edo. 5.4 Captures are resolved the
//! moment a settlement is surrounded (capture.rs). 5.5 The player refills to 5 tokens at random
//! from his own stack (a chance event per token); 5.6 with an empty stack he plays on with
//! fewer. 5.7 Play passes clockwise.
//!
//! 2.4 Figure exchange (quick): swap any two figures on the board, at any distance; a city
//! may never end up holding two figures of a type. Token exchange (the turn's normal token):
//! pick up one of one's own placed tokens without a Japanese character, put the exchange token
//! (strength 0) in its place, and place the picked-up token again at once.

use super::action::Action;
use super::capture;
use super::state::{cell, cell_owner, cell_token, Pending, Phase, State, Turn, EMPTY};
use super::{bits, Samurai, TokenKind, FIGURE_TYPES, HAND};
use crate::events::{event, Audience, Events};
use crate::game::ActionId;

// --- what may be played ---

/// The empty hexes a token may go on (5.3). INTERPRETATION (RULES_NOTES.md N13): no adjacency needed.
fn targets(g: &Samurai, token: u8) -> &[u8] {
    if g.data().tokens[token as usize].on_sea() {
        &g.sea
    } else {
        &g.land
    }
}

/// A token from the hand may be placed now (ignoring the target hex).
fn placeable(g: &Samurai, s: &State, token: u8) -> bool {
    let t = &g.data().tokens[token as usize];
    t.is_placed() && (t.quick || !s.turn.normal_used)
}

fn any_empty(s: &State, hexes: &[u8]) -> bool {
    hexes.iter().any(|&h| s.cells[h as usize] == EMPTY)
}

/// The figure of type `f2` at settlement `s2` may be exchanged with the one of type `f1` at `s1`.
fn swap_partner_ok(s: &State, s1: usize, f1: u8, s2: usize, f2: u8) -> bool {
    s1 != s2
        && f1 != f2
        && s.figures[s2] & (1 << f2) != 0
        // INTERPRETATION (RULES_NOTES.md N3): no settlement may end up with two figures of one
        // type, which rules out Edo while it holds all three.
        && s.figures[s1] & (1 << f2) == 0
        && s.figures[s2] & (1 << f1) == 0
}

fn has_swap_partner(g: &Samurai, s: &State, s1: usize, f1: u8) -> bool {
    g.settlements.iter().any(|&s2| (0..3).any(|f2| swap_partner_ok(s, s1, f1, s2 as usize, f2)))
}

/// The figure of type `f` at settlement `st` may be chosen first for a figure exchange.
fn swap_first_ok(g: &Samurai, s: &State, st: usize, f: u8) -> bool {
    s.figures[st] & (1 << f) != 0 && has_swap_partner(g, s, st, f)
}

/// INTERPRETATION (RULES_NOTES.md N4): the exchange is the turn's normal token and needs an
/// empty land hex for the picked-up token.
fn may_exchange_token(g: &Samurai, s: &State) -> bool {
    let seat = s.seat as usize;
    s.hands[seat] & (1 << g.data().token_swap) != 0 && !s.turn.normal_used && any_empty(s, &g.land)
}

fn own_exchangeable_at(g: &Samurai, s: &State, hex: u8) -> bool {
    let c = s.cells[hex as usize];
    c != EMPTY && cell_owner(c) == s.seat as usize && g.data().tokens[cell_token(c) as usize].exchangeable()
}

/// The tokens the current seat could play now if they were behind its screen. It depends on
/// the board only, never on the hand (determinization relies on that: hidden.rs).
pub fn playable_tokens(g: &Samurai, s: &State) -> u32 {
    let d = g.data();
    bits(g.all_tokens)
        .filter(|&t| match d.tokens[t as usize].kind {
            TokenKind::FigureSwap => g.settlements.iter().any(|&s1| (0..3).any(|f| swap_first_ok(g, s, s1 as usize, f))),
            TokenKind::TokenSwap => !s.turn.normal_used && any_empty(s, &g.land) && g.land.iter().any(|&h| own_exchangeable_at(g, s, h)),
            _ => placeable(g, s, t) && any_empty(s, targets(g, t)),
        })
        .fold(0, |m, t| m | 1 << t)
}

/// Whether the current seat has anything to play (else it may only pass).
fn can_play(g: &Samurai, s: &State) -> bool {
    s.hands[s.seat as usize] & playable_tokens(g, s) != 0
}

pub fn legal_plays(g: &Samurai, s: &State, out: &mut Vec<ActionId>) {
    let start = out.len();
    match s.turn.pending {
        Pending::ReplaceToken { token } => {
            push_places(g, s, token, out);
            return;
        }
        Pending::SwapFigure { settlement, figure } => {
            for f2 in 0..3u8 {
                for &s2 in &g.settlements {
                    if swap_partner_ok(s, settlement as usize, figure, s2 as usize, f2) {
                        out.push(g.encode(Action::SwapFigure { figure: f2, hex: g.data().settlements[s2 as usize].hex }));
                    }
                }
            }
            return;
        }
        Pending::None => {}
    }
    let hand = s.hands[s.seat as usize];
    // INTERPRETATION (RULES_NOTES.md N14): identical tokens are one move.
    for t in bits(hand) {
        if placeable(g, s, t) && g.first_of_kind(hand, t) {
            push_places(g, s, t, out);
        }
    }
    if hand & (1 << g.data().figure_swap) != 0 {
        for f in 0..3u8 {
            for &st in &g.settlements {
                if swap_first_ok(g, s, st as usize, f) {
                    out.push(g.encode(Action::SwapFigure { figure: f, hex: g.data().settlements[st as usize].hex }));
                }
            }
        }
    }
    if may_exchange_token(g, s) {
        for &h in &g.land {
            if own_exchangeable_at(g, s, h) {
                out.push(g.encode(Action::PickUp { hex: h }));
            }
        }
    }
    // INTERPRETATION (RULES_NOTES.md N11, N9): end the turn after playing; pass when nothing
    // at all can be played.
    if s.turn.played > 0 || out.len() == start {
        out.push(g.encode(Action::EndTurn));
    }
}

fn push_places(g: &Samurai, s: &State, token: u8, out: &mut Vec<ActionId>) {
    for &h in targets(g, token) {
        if s.cells[h as usize] == EMPTY {
            out.push(g.encode(Action::PlaceToken { token, hex: h }));
        }
    }
}

pub fn is_legal_play(g: &Samurai, s: &State, a: Action) -> bool {
    let d = g.data();
    let hand = s.hands[s.seat as usize];
    let empty_target = |token: u8, hex: u8| {
        g.hex_in_play(hex)
            && s.cells[hex as usize] == EMPTY
            && d.hexes[hex as usize].kind == if d.tokens[token as usize].on_sea() { super::HexKind::Sea } else { super::HexKind::Land }
    };
    match (s.turn.pending, a) {
        (Pending::ReplaceToken { token }, Action::PlaceToken { token: t, hex }) => t == token && empty_target(t, hex),
        (Pending::ReplaceToken { .. }, _) => false,
        (Pending::SwapFigure { settlement, figure }, Action::SwapFigure { figure: f2, hex }) => {
            f2 < 3 && g.settlement_at(hex).is_some_and(|s2| swap_partner_ok(s, settlement as usize, figure, s2, f2))
        }
        (Pending::SwapFigure { .. }, _) => false,
        (Pending::None, Action::PlaceToken { token, hex }) => {
            g.first_of_kind(hand, token) && placeable(g, s, token) && empty_target(token, hex)
        }
        (Pending::None, Action::SwapFigure { figure, hex }) => {
            hand & (1 << d.figure_swap) != 0 && figure < 3 && g.settlement_at(hex).is_some_and(|st| swap_first_ok(g, s, st, figure))
        }
        (Pending::None, Action::PickUp { hex }) => g.hex_in_play(hex) && may_exchange_token(g, s) && own_exchangeable_at(g, s, hex),
        (Pending::None, Action::EndTurn) => s.turn.played > 0 || !can_play(g, s),
        (Pending::None, _) => false,
    }
}

// --- playing ---

pub fn place_token(g: &Samurai, s: &mut State, token: u8, hex: u8, ev: &mut Events) {
    let seat = s.seat as usize;
    if let Pending::ReplaceToken { .. } = s.turn.pending {
        s.turn.pending = Pending::None;
    } else {
        s.hands[seat] &= !(1 << token);
        s.turn.played += 1;
        if !g.data().tokens[token as usize].quick {
            s.turn.normal_used = true;
        }
    }
    s.cells[hex as usize] = cell(seat, token);
    ev.emit(
        Audience::ALL,
        || event!({"kind": "token_placed", "seat": seat, "token": token, "name": g.data().tokens[token as usize].name, "hex": hex}),
    );
    capture::after_placement(g, s, hex, ev);
}

pub fn swap_figure(g: &Samurai, s: &mut State, figure: u8, hex: u8, ev: &mut Events) {
    let seat = s.seat as usize;
    let st = g.settlement_at(hex).expect("legal swap is on a settlement") as u8;
    match s.turn.pending {
        Pending::None => {
            // The figure exchange token is discarded and leaves the game.
            s.hands[seat] &= !(1 << g.data().figure_swap);
            s.turn.played += 1;
            s.turn.pending = Pending::SwapFigure { settlement: st, figure };
            ev.emit(
                Audience::ALL,
                || event!({"kind": "figure_exchange_played", "seat": seat, "first": {"hex": hex, "figure": FIGURE_TYPES[figure as usize]}}),
            );
        }
        Pending::SwapFigure { settlement: s1, figure: f1 } => {
            let (s1, s2, f2) = (s1 as usize, st as usize, figure);
            s.figures[s1] = (s.figures[s1] & !(1 << f1)) | (1 << f2);
            s.figures[s2] = (s.figures[s2] & !(1 << f2)) | (1 << f1);
            s.turn.pending = Pending::None;
            let h1 = g.data().settlements[s1].hex;
            ev.emit(Audience::ALL, || {
                event!({"kind": "figures_exchanged", "seat": seat,
                       "a": {"hex": h1, "figure": FIGURE_TYPES[f1 as usize]}, "b": {"hex": hex, "figure": FIGURE_TYPES[f2 as usize]}})
            });
        }
        Pending::ReplaceToken { .. } => unreachable!("checked by is_legal_play"),
    }
}

pub fn pick_up(g: &Samurai, s: &mut State, hex: u8, ev: &mut Events) {
    let seat = s.seat as usize;
    let token = cell_token(s.cells[hex as usize]);
    let exchange = g.data().token_swap;
    s.hands[seat] &= !(1 << exchange);
    s.turn.played += 1;
    s.turn.normal_used = true;
    // The exchange token fills the vacated hex at once, so nothing becomes un-surrounded.
    s.cells[hex as usize] = cell(seat, exchange);
    s.turn.pending = Pending::ReplaceToken { token };
    ev.emit(
        Audience::ALL,
        || event!({"kind": "token_exchanged", "seat": seat, "hex": hex, "picked_up": token, "name": g.data().tokens[token as usize].name}),
    );
}

pub fn end_turn(g: &Samurai, s: &mut State, ev: &mut Events) {
    let seat = s.seat as usize;
    if s.turn.played == 0 {
        // INTERPRETATION (RULES_NOTES.md N9): pass; a full round of passes ends the game.
        s.passes += 1;
        ev.emit(Audience::ALL, || event!({"kind": "passed", "seat": seat}));
        if s.passes as usize >= g.n {
            super::scoring::finish(g, s, super::EndReason::NobodyCanPlay, ev);
            return;
        }
    } else {
        s.passes = 0;
        ev.emit(Audience::ALL, || event!({"kind": "turn_ended", "seat": seat}));
    }
    s.phase = Phase::Refill;
    refill_or_pass_on(g, s, ev);
}

pub fn legal_draws(g: &Samurai, s: &State, out: &mut Vec<ActionId>) {
    let stack = s.stacks[s.seat as usize];
    // INTERPRETATION (RULES_NOTES.md N14): identical tokens are one outcome.
    for t in bits(stack).filter(|&t| g.first_of_kind(stack, t)) {
        out.push(g.encode(Action::Draw { token: t }));
    }
}

pub fn draw(g: &Samurai, s: &mut State, token: u8, ev: &mut Events) {
    let seat = s.seat as usize;
    s.stacks[seat] &= !(1 << token);
    s.hands[seat] |= 1 << token;
    ev.emit(
        Audience::seat(seat),
        || event!({"kind": "token_drawn", "seat": seat, "token": token, "name": g.data().tokens[token as usize].name}),
    );
    let left = s.stacks[seat].count_ones();
    ev.emit(Audience::ALL, || event!({"kind": "drew", "seat": seat, "stack_left": left}));
    refill_or_pass_on(g, s, ev);
}

/// 5.5-5.7: keep drawing while the hand is short and the stack is not empty; then the next seat.
fn refill_or_pass_on(g: &Samurai, s: &mut State, ev: &mut Events) {
    let seat = s.seat as usize;
    if s.hand_size(seat) < HAND && s.stacks[seat] != 0 {
        return;
    }
    s.phase = Phase::Play;
    s.seat = g.next_seat(s.seat);
    s.turn = Turn::NEW;
    let next = s.seat;
    ev.emit(Audience::ALL, || event!({"kind": "turn_begins", "seat": next}));
}

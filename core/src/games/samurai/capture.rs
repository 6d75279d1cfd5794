//! === 3. Capturing figures ===
//!
//! 3.1 A figure is taken when every land hex next to its settlement holds a token (sea hexes
//! need not be filled). 3.2 Each player adds up the strength of his adjacent tokens that
//! influence that figure's type (ships at sea included; samurai, ronin and ships influence
//! every type). 3.3 The strictly strongest takes it; 3.4 on a tie for the most, including
//! everyone at 0, it is set aside and belongs to nobody. 5.4 This happens at once, after each
//! token; one token can complete two settlements, both are resolved before the end is checked.

use super::scoring;
use super::state::{cell_owner, cell_token, State, EMPTY};
use super::{Samurai, FIGURE_TYPES};
use crate::events::{event, Audience, Events};

/// Resolves every settlement the token on `hex` completed, then checks the end of the game (6).
pub fn after_placement(g: &Samurai, s: &mut State, hex: u8, ev: &mut Events) {
    let d = g.data();
    let mut any = false;
    for &st in &d.hexes[hex as usize].settlements {
        let st = st as usize;
        if !s.is_resolved(st) && d.settlements[st].land.iter().all(|&l| s.cells[l as usize] != EMPTY) {
            resolve(g, s, st, ev);
            any = true;
        }
    }
    // INTERPRETATION (RULES_NOTES.md N7): resolve every completed settlement, then check the end once.
    if any {
        scoring::check_end(g, s, ev);
    }
}

/// Influence of every seat on a figure type at a settlement (3.2).
pub fn influence(g: &Samurai, s: &State, settlement: usize, figure: u8) -> [u32; 4] {
    let d = g.data();
    let st = &d.settlements[settlement];
    let mut total = [0u32; 4];
    for &h in st.land.iter().chain(&st.sea) {
        let c = s.cells[h as usize];
        if c != EMPTY {
            let t = &d.tokens[cell_token(c) as usize];
            if t.influences & (1 << figure) != 0 {
                total[cell_owner(c)] += t.strength as u32;
            }
        }
    }
    total
}

fn resolve(g: &Samurai, s: &mut State, settlement: usize, ev: &mut Events) {
    let hex = g.data().settlements[settlement].hex;
    let figures = s.figures[settlement];
    for f in 0..3u8 {
        if figures & (1 << f) == 0 {
            continue;
        }
        let infl = influence(g, s, settlement, f);
        let best = *infl[..g.n].iter().max().expect("at least two seats");
        let leaders = || (0..g.n).filter(move |&p| infl[p] == best);
        let name = FIGURE_TYPES[f as usize];
        s.on_board[f as usize] -= 1;
        // INTERPRETATION (RULES_NOTES.md N5): everyone at 0 is a tie too.
        let mut first_two = leaders();
        if let (Some(winner), None) = (first_two.next(), first_two.next()) {
            s.captured[winner][f as usize] += 1;
            if g.n == 2 {
                // 3.3*: with two players captured figures stand in front of the screen.
                ev.emit(
                    Audience::ALL,
                    || event!({"kind": "figure_captured", "seat": winner, "hex": hex, "figure": name, "influence": &infl[..g.n]}),
                );
            } else {
                // 3.3, INTERPRETATION (RULES_NOTES.md N6): behind the screen; the others see
                // that a figure was taken, not which.
                ev.emit(Audience::ALL, || event!({"kind": "figure_captured", "seat": winner, "hex": hex}));
                ev.emit(Audience::seat(winner), || event!({"kind": "figure_captured_private", "seat": winner, "hex": hex, "figure": name}));
            }
        } else {
            s.set_aside[f as usize] += 1;
            ev.emit(
                Audience::ALL,
                || event!({"kind": "figure_set_aside", "hex": hex, "figure": name, "tied": leaders().collect::<Vec<_>>()}),
            );
        }
    }
    s.figures[settlement] = 0;
    s.resolved |= 1 << settlement;
}

//! === 4. Setup ===
//!
//! 4.2 Each player secretly keeps 5 of his 20 tokens; 4.3 the other 15 become his face-down
//! stack. The simultaneous secret choice is sequentialized by seat; views never show an
//! earlier chooser's picks. 4.4 Edo receives one figure of each type. 4.5-4.7 Starting with the
//! start player (seat 0, the youngest) and going clockwise, players put a figure of their
//! choice on a city until every city holds 2 (never two of a type), then on villages.

use super::action::Action;
use super::state::{Phase, State, Turn, EMPTY};
use super::{bits, Samurai, HAND};
use crate::events::{event, Audience, Events};
use crate::game::ActionId;
use crate::rng::Rng;

pub fn initial_state(g: &Samurai, rng: Rng) -> State {
    let d = g.data();
    let mut figures = vec![0u8; d.settlements.len()];
    let mut on_board = [0u8; 3];
    let mut supply = [g.per_type; 3];
    // 4.4: one figure of each type on Edo.
    for &s in &g.settlements {
        if d.settlements[s as usize].kind == super::HexKind::Edo {
            figures[s as usize] = 0b111;
            for f in 0..3 {
                supply[f] -= 1;
                on_board[f] += 1;
            }
        }
    }
    State {
        phase: Phase::ChooseTokens,
        seat: 0,
        rng,
        hands: [0; 4],
        stacks: [0; 4],
        cells: vec![EMPTY; d.hexes.len()],
        figures,
        resolved: 0,
        supply,
        on_board,
        captured: [[0; 3]; 4],
        set_aside: [0; 3],
        turn: Turn::NEW,
        passes: 0,
        end: None,
    }
}

// --- 4.2 keep 5 tokens ---
// INTERPRETATION (RULES_NOTES.md N2): one token at a time, seat 0 (the youngest) first.

// INTERPRETATION (RULES_NOTES.md N14): identical tokens are one choice.

pub fn legal_keeps(g: &Samurai, s: &State, out: &mut Vec<ActionId>) {
    let left = g.all_tokens & !s.hands[s.seat as usize];
    for t in bits(left).filter(|&t| g.first_of_kind(left, t)) {
        out.push(g.encode(Action::Keep { token: t }));
    }
}

pub fn is_legal_keep(g: &Samurai, s: &State, a: Action) -> bool {
    matches!(a, Action::Keep { token } if g.first_of_kind(g.all_tokens & !s.hands[s.seat as usize], token))
}

pub fn keep(g: &Samurai, s: &mut State, token: u8, ev: &mut Events) {
    let seat = s.seat as usize;
    s.hands[seat] |= 1 << token;
    let kept = s.hand_size(seat);
    ev.emit(Audience::seat(seat), || event!({"kind": "token_kept", "seat": seat, "token": token}));
    ev.emit(Audience::ALL, || event!({"kind": "token_chosen", "seat": seat, "behind_screen": kept}));
    if kept < HAND {
        return;
    }
    // 4.3: the other tokens become the face-down stack.
    s.stacks[seat] = g.all_tokens & !s.hands[seat];
    if seat + 1 < g.n {
        s.seat += 1;
    } else {
        s.phase = Phase::PlaceFigures;
        s.seat = 0;
        ev.emit(Audience::ALL, || event!({"kind": "figure_placement_begins"}));
    }
}

// --- 4.5-4.7 place the figures ---

/// Settlements that may receive a figure now: cities with room while any has room, else empty
/// villages. INTERPRETATION (RULES_NOTES.md N1): cities first, the rotation never restarts.
fn open_settlements<'a>(g: &'a Samurai, s: &'a State) -> (bool, &'a [u8]) {
    let city_open = g.cities.iter().any(|&c| (s.figures[c as usize].count_ones() as u8) < 2);
    if city_open {
        (true, &g.cities)
    } else {
        (false, &g.villages)
    }
}

fn may_receive(s: &State, city: bool, settlement: u8, figure: u8) -> bool {
    let m = s.figures[settlement as usize];
    if city {
        // 4.7: a city's two figures must differ.
        m.count_ones() < 2 && m & (1 << figure) == 0
    } else {
        m == 0
    }
}

pub fn legal_figure_placements(g: &Samurai, s: &State, out: &mut Vec<ActionId>) {
    let (city, open) = open_settlements(g, s);
    for f in 0..3u8 {
        if s.supply[f as usize] == 0 {
            continue;
        }
        for &st in open {
            if may_receive(s, city, st, f) {
                out.push(g.encode(Action::PlaceFigure { figure: f, hex: g.data().settlements[st as usize].hex }));
            }
        }
    }
}

pub fn is_legal_figure_placement(g: &Samurai, s: &State, a: Action) -> bool {
    let Action::PlaceFigure { figure, hex } = a else { return false };
    if figure > 2 || s.supply[figure as usize] == 0 {
        return false;
    }
    let Some(st) = g.settlement_at(hex) else { return false };
    let (city, open) = open_settlements(g, s);
    open.contains(&(st as u8)) && may_receive(s, city, st as u8, figure)
}

pub fn place_figure(g: &Samurai, s: &mut State, figure: u8, hex: u8, ev: &mut Events) {
    let st = g.settlement_at(hex).expect("legal placement is on a settlement");
    let seat = s.seat;
    s.figures[st] |= 1 << figure;
    s.supply[figure as usize] -= 1;
    s.on_board[figure as usize] += 1;
    ev.emit(Audience::ALL, || event!({"kind": "figure_placed", "seat": seat, "figure": super::FIGURE_TYPES[figure as usize], "hex": hex}));
    s.seat = g.next_seat(seat);
    if s.supply == [0; 3] {
        // 4.8 / 5.1: the start player takes the first turn.
        s.phase = Phase::Play;
        s.seat = 0;
        s.turn = Turn::NEW;
        ev.emit(Audience::ALL, || event!({"kind": "play_begins", "seat": 0}));
    }
}

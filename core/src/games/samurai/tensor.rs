//! The observation tensor: a flat f32 vector built from the same redacted information as
//! the view, every value in `[0, 1]` ([`layout`] names the ranges). Seats are relative to the
//! observer (the observer is seat 0; the spectator sees absolute seats). Layout, in order:
//!
//! - per hex (`HEX_FEATURES` each): in play, sea, land, settlement, token owner (4, relative),
//!   token influence on helmet/buddha/rice (strength / strongest token), token is quick,
//!   figures present (3), resolved, chosen as the first figure of a pending figure exchange;
//! - the observer's hand (one flag per token) and stack (one flag per token);
//! - per relative seat (4): used tokens (one flag per token), hand size / 5, stack size /
//!   (tokens - 5), captured per type / figures per type (only where the observer may see
//!   it), captured count / all figures;
//! - set aside, on board, supply per type (/ figures per type); phase (5); current player (4,
//!   relative); tokens played this turn / 5, normal token used, pending figure exchange,
//!   pending token exchange, the token to replace (one flag per token); consecutive passes /
//!   players.

use super::state::{cell_owner, cell_token, Pending, Phase, State, EMPTY};
use super::view::{sees_captured, used_tokens};
use super::{Samurai, HAND};
use crate::game::{Player, SPECTATOR};
use crate::layout::{Feature, LayoutBuilder};
use crate::quantize::Value;

pub const HEX_FEATURES: usize = 17;

pub fn len(g: &Samurai) -> usize {
    let t = g.data().tokens.len();
    g.data().hexes.len() * HEX_FEATURES + 2 * t + 4 * (t + 6) + 9 + 5 + 4 + 4 + t + 1
}

/// The named ranges of the tensor, in the order [`write`] fills them.
pub fn layout(g: &Samurai) -> Vec<Feature> {
    let (nh, nt) = (g.data().hexes.len(), g.data().tokens.len());
    let mut b = LayoutBuilder::new().unit(
        "hexes",
        nh * HEX_FEATURES,
        "per hex (data order), 17 values: in play, sea, land, settlement, token owner (4, relative seat), token influence on \
         helmet/buddha/rice (strength / strongest token), token is quick, helmet/buddha/rice figure present, resolved, first \
         figure of a pending figure exchange",
    );
    b = b.unit("own_hand", nt, "the observer's hand, one flag per token type").unit(
        "own_stack",
        nt,
        "the observer's stack, one flag per token type",
    );
    for r in 0..4 {
        b = b.unit(
            format!("seat_{r}"),
            nt + 6,
            format!(
                "relative seat {r} (zeros if absent): used tokens (one flag per token type), hand size / {HAND}, stack size / \
                 (tokens - {HAND}), captured helmet/buddha/rice / figures per type (zeros where the observer may not see \
                 them), captured count / all figures"
            ),
        );
    }
    b.unit("figures", 9, "set aside, on board, in the supply: helmet/buddha/rice each / figures per type")
        .unit("phase", 5, "one-hot: choose tokens, place figures, play, refill, over")
        .unit("current_player", 4, "one-hot relative seat to act (zeros outside the acting phases)")
        .unit("turn", 4, format!("tokens played this turn / {HAND}, normal token used, pending figure exchange, pending token exchange"))
        .unit("token_to_replace", nt, "one-hot token type of a pending token exchange")
        .unit("consecutive_passes", 1, "consecutive passes / players (the game ends when every seat passed)")
        .build()
}

fn rel(g: &Samurai, observer: Player, seat: usize) -> usize {
    if observer == SPECTATOR {
        seat
    } else {
        wrap(g, seat + g.n - observer as usize)
    }
}

/// The seat at relative seat `r` (none past the player count).
fn seat_at(g: &Samurai, observer: Player, r: usize) -> Option<usize> {
    (r < g.n).then(|| if observer == SPECTATOR { r } else { wrap(g, r + observer as usize) })
}

/// `k mod players` for `k < 2 × players`, without a division (the encoder asks it per token
/// on the board).
fn wrap(g: &Samurai, k: usize) -> usize {
    if k >= g.n {
        k - g.n
    } else {
        k
    }
}

/// What the encoder precomputes when the rules object is built.
#[derive(Debug, Clone, Default)]
pub struct Tables {
    /// The tensor with the values no state changes (in play, sea, land, settlement per hex) and
    /// zeros elsewhere: every observation starts as a copy of it.
    base: Vec<f32>,
    /// The same as bytes, for uint8 observations.
    base_u8: Vec<u8>,
    /// Per token: its influence on helmet/buddha/rice (strength / strongest token, 0 where it
    /// has none) and whether it is quick, the 4 values of a hex it stands on.
    token: Vec<[f32; 4]>,
    /// Per in-play hex with a settlement, ascending: (hex, settlement).
    settlements: Vec<(usize, usize)>,
    /// The tokens left after the hand (the stack, rulebook 4.2) and the figures of a type in
    /// this player count (rulebook 2.1), the divisors of their counts.
    stack_max: f32,
    per_type: f32,
}

impl Tables {
    pub fn new(g: &Samurai) -> Tables {
        let d = g.data();
        let nt = d.tokens.len();
        // The largest value a token's influence can reach: the strongest token's strength.
        let strongest = d.tokens.iter().map(|t| t.strength).max().unwrap_or(1).max(1) as f32;
        let mut base = vec![0.0; len(g)];
        for (h, hex) in d.hexes.iter().enumerate() {
            if g.in_play[h] {
                let o = &mut base[h * HEX_FEATURES..(h + 1) * HEX_FEATURES];
                o[0] = 1.0;
                o[1] = (hex.kind == super::HexKind::Sea) as u8 as f32;
                o[2] = (hex.kind == super::HexKind::Land) as u8 as f32;
                o[3] = hex.kind.is_settlement() as u8 as f32;
            }
        }
        let token = d
            .tokens
            .iter()
            .map(|t| {
                let mut v = [0.0; 4];
                for (f, x) in v[..3].iter_mut().enumerate() {
                    if t.influences & (1 << f) != 0 {
                        *x = t.strength as f32 / strongest;
                    }
                }
                v[3] = t.quick as u8 as f32;
                v
            })
            .collect();
        let settlements = (0..d.hexes.len())
            .filter(|&h| g.in_play[h] && d.settlement_at[h] != super::data::NO_HEX)
            .map(|h| (h, d.settlement_at[h] as usize))
            .collect();
        let base_u8 = base.iter().map(|&v| u8::of(v)).collect();
        Tables {
            base,
            base_u8,
            token,
            settlements,
            stack_max: nt.saturating_sub(HAND as usize).max(1) as f32,
            per_type: g.per_type.max(1) as f32,
        }
    }
}

pub fn write(g: &Samurai, s: &State, observer: Player, out: &mut [f32]) {
    write_values(g, s, observer, out, &g.tensor.base)
}

/// The tensor as bytes ([`crate::quantize`]), written directly.
pub fn write_u8(g: &Samurai, s: &State, observer: Player, out: &mut [u8]) {
    write_values(g, s, observer, out, &g.tensor.base_u8)
}

/// Writes the tensor as floats or bytes, starting from `base` (the constant values as `T`).
fn write_values<T: Value>(g: &Samurai, s: &State, observer: Player, out: &mut [T], base: &[T]) {
    let d = g.data();
    let tables = &g.tensor;
    let nt = d.tokens.len();
    let (stack_max, per_type) = (tables.stack_max, tables.per_type);
    out.copy_from_slice(base);
    // Per hex: the token on it (only hexes in play hold one) ...
    for (h, &c) in s.cells.iter().enumerate() {
        if c != EMPTY && g.in_play[h] {
            let o = &mut out[h * HEX_FEATURES..(h + 1) * HEX_FEATURES];
            o[4 + rel(g, observer, cell_owner(c))] = T::ONE;
            for (x, &v) in o[8..12].iter_mut().zip(&tables.token[cell_token(c) as usize]) {
                *x = T::of(v);
            }
        }
    }
    // ... the figures of its settlement and whether it was resolved ...
    for &(h, st) in &tables.settlements {
        let o = &mut out[h * HEX_FEATURES..(h + 1) * HEX_FEATURES];
        for f in 0..3 {
            o[12 + f] = T::flag(s.figures[st] & (1 << f) != 0);
        }
        o[15] = T::flag(s.is_resolved(st));
    }
    // ... and whether it holds the first figure of a pending figure exchange.
    if let Pending::SwapFigure { settlement, .. } = s.turn.pending {
        let h = d.settlements[settlement as usize].hex as usize;
        if g.in_play[h] {
            out[h * HEX_FEATURES + 16] = T::ONE;
        }
    }
    let mut i = d.hexes.len() * HEX_FEATURES;
    let flags = |out: &mut [T], i: &mut usize, mask: u32| {
        for t in 0..nt {
            out[*i + t] = T::flag(mask & (1 << t) != 0);
        }
        *i += nt;
    };
    let (hand, stack) = if observer >= 0 { (s.hands[observer as usize], s.stacks[observer as usize]) } else { (0, 0) };
    flags(out, &mut i, hand);
    flags(out, &mut i, stack);
    for r in 0..4 {
        let seat = seat_at(g, observer, r);
        if let Some(p) = seat {
            flags(out, &mut i, used_tokens(g, s, p));
            out[i] = T::of(s.hand_size(p) as f32 / HAND as f32);
            out[i + 1] = T::of(s.stacks[p].count_ones() as f32 / stack_max);
            if sees_captured(g, s, observer, p) {
                for f in 0..3 {
                    out[i + 2 + f] = T::of(s.captured[p][f] as f32 / per_type);
                }
            }
            out[i + 5] = T::of(s.captured[p].iter().sum::<u8>() as f32 / (3.0 * per_type));
        } else {
            i += nt;
        }
        i += 6;
    }
    for v in [s.set_aside, s.on_board, s.supply] {
        for f in 0..3 {
            out[i + f] = T::of(v[f] as f32 / per_type);
        }
        i += 3;
    }
    let phase = match s.phase {
        Phase::ChooseTokens => 0,
        Phase::PlaceFigures => 1,
        Phase::Play => 2,
        Phase::Refill => 3,
        Phase::Over => 4,
    };
    out[i + phase] = T::ONE;
    i += 5;
    if matches!(s.phase, Phase::ChooseTokens | Phase::PlaceFigures | Phase::Play) {
        out[i + rel(g, observer, s.seat as usize)] = T::ONE;
    }
    i += 4;
    // At most the whole hand is played in one turn.
    out[i] = T::of(s.turn.played as f32 / HAND as f32);
    out[i + 1] = T::flag(s.turn.normal_used);
    out[i + 2] = T::flag(matches!(s.turn.pending, Pending::SwapFigure { .. }));
    out[i + 3] = T::flag(matches!(s.turn.pending, Pending::ReplaceToken { .. }));
    i += 4;
    if let Pending::ReplaceToken { token } = s.turn.pending {
        out[i + token as usize] = T::ONE;
    }
    i += nt;
    // The game ends when every seat has passed in a row (turn.rs).
    out[i] = T::of(s.passes as f32 / g.n as f32);
    debug_assert_eq!(i + 1, out.len());
}

//! The Samurai state: a plain value, RNG included.

use serde::{Deserialize, Serialize};

use crate::rng::Rng;

/// A board hex without a token.
pub const EMPTY: u8 = u8::MAX;

/// Encodes a token on the board: owner seat in the high bits, token index in the low 5.
pub fn cell(seat: usize, token: u8) -> u8 {
    ((seat as u8) << 5) | token
}

pub fn cell_owner(c: u8) -> usize {
    (c >> 5) as usize
}

pub fn cell_token(c: u8) -> u8 {
    c & 0x1f
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Phase {
    /// 4.2: each player secretly keeps 5 of his 20 tokens (sequentialized by seat).
    ChooseTokens,
    /// 4.4-4.7: players place the figures, cities first, then villages.
    PlaceFigures,
    /// 5.2-5.4: the current seat plays tokens.
    Play,
    /// 5.5-5.6: the seat that just played refills its hand from its stack (chance).
    Refill,
    Over,
}

/// A decision that is half made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Pending {
    None,
    /// The figure exchange was played and its first figure chosen.
    SwapFigure {
        settlement: u8,
        figure: u8,
    },
    /// The token exchange picked up `token`; it must be placed again at once.
    ReplaceToken {
        token: u8,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    /// Tokens played this turn (the figure exchange counts).
    pub played: u8,
    /// The turn's one token without a Japanese character has been played.
    pub normal_used: bool,
    pub pending: Pending,
}

impl Turn {
    pub const NEW: Turn = Turn { played: 0, normal_used: false, pending: Pending::None };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum EndReason {
    /// 6.1: the last figure of this type left the board.
    TypeExhausted(u8),
    /// 6.2: a fourth figure was set aside.
    FourSetAside,
    /// No seat could play for a whole round (rules notes: "player cannot play").
    NobodyCanPlay,
}

/// Saved states must match this schema exactly: an unknown field is an error, not ignored.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub phase: Phase,
    /// The seat deciding (in `Refill`: the seat whose hand is refilled).
    pub seat: u8,
    pub rng: Rng,
    /// Bit t: token t is behind the seat's screen.
    pub hands: [u32; 4],
    /// Bit t: token t is in the seat's face-down stack (unordered; draws are chance events).
    pub stacks: [u32; 4],
    /// Per hex: `EMPTY` or a `cell()`.
    pub cells: Vec<u8>,
    /// Per settlement: bit f set when a figure of type f stands there.
    pub figures: Vec<u8>,
    /// Bit s: settlement s has been surrounded and resolved.
    pub resolved: u64,
    /// Figures still to be placed during setup, per type.
    pub supply: [u8; 3],
    /// Figures standing on the board, per type.
    pub on_board: [u8; 3],
    pub captured: [[u8; 3]; 4],
    pub set_aside: [u8; 3],
    pub turn: Turn,
    /// Consecutive turns in which the player could not play at all.
    pub passes: u8,
    pub end: Option<EndReason>,
}

impl State {
    pub fn hand_size(&self, seat: usize) -> u32 {
        self.hands[seat].count_ones()
    }

    pub fn is_resolved(&self, settlement: usize) -> bool {
        self.resolved & (1 << settlement) != 0
    }
}
